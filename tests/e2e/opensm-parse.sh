#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Stock OpenSM's verdict on a policy file, as `osmqos check` states it,
# is the verdict of OpenSM's own parser.  The test-only plugin liboqparse
# (tests/e2e/opensm_parse.c) runs OpenSM's parser, inside a real opensm,
# over the files exactly as written, and sets what it does (takes,
# rejects, aborts, loops) and the policy it builds against the core's
# model of that parser (include/osmqos/stock.h) and against osmqos's own
# reading, on this fabric: 0 disagreements over the policy corpora of the
# suite (tests/policies/valid and invalid, contrib/policies, test data),
# the fuzz corpus, and probes written here at OpenSM's limits (CRLF
# endings, names and `use:` texts around its 10 KiB string buffer,
# characters its lexer splits on, unquoted names with blanks, several keys
# on a line, the osmqos keys, huge port-guid ranges).  Every file osmqos
# calls valid is also handed to OpenSM as the plugin's copy, which must be
# taken and read as osmqos reads the file (where the file as written is
# not, the copy is the policy written again).  The counts go to the log and to $E2E_DIR/summary.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init opensm-parse
[ -f "$top_builddir/tests/e2e/.libs/liboqparse.so" ] ||
	e2e_fail "tests/e2e/.libs/liboqparse.so not built (make check builds it)"

probes=$E2E_DIR/probes
mkdir -p "$probes"

# A small valid policy with NAME as a port group's and a level's name and
# USE as the level's use: text.
probe() { # FILE GROUP-NAME LEVEL-NAME USE
	cat >"$probes/$1" <<EOF
port-groups
    port-group
        name: $2
        node-type: CA
    end-port-group
end-port-groups
qos-levels
    qos-level
        name: DEFAULT
        sl: 0
    end-qos-level
    qos-level
        name: $3
        use: $4
        sl: 1
    end-qos-level
end-qos-levels
qos-match-rules
    qos-match-rule
        source: $2
        qos-level-name: $3
    end-qos-match-rule
end-qos-match-rules
EOF
}
long() { head -c "$1" /dev/zero | tr '\0' "${2:-a}"; }
probe plain.conf cas bulk "bulk traffic"
# OpenSM keeps a string in a 10240-byte buffer (NUL included).
for n in 10239 10240 20000; do
	probe "group-name-$n.conf" "$(long $n g)" bulk x
	probe "level-name-$n.conf" cas "$(long $n l)" x
	probe "use-$n.conf" cas bulk "$(long $n u)"
	probe "use-words-$n.conf" cas bulk "$(long $((n / 2)) u | sed 's/u/u /g')"
done
# OpenSM keeps the blanks before a comment in a use: text: 10239 in all.
probe use-blanks-comment.conf cas bulk "$(long 10236 u)   # c"
probe quoted-names.conf '"my cas"' '"bulk level"' '"quoted use"'
for c in '"' '{' '}' '\' "'" '#' '*' ':' '-' ';' '!' '=' '(' '['; do
	name=$(printf '%s' "$c" | od -An -tx1 | tr -d ' ')
	probe "char-$name-group.conf" "ca${c}s" bulk x
	probe "char-$name-level.conf" cas "bu${c}lk" x
	probe "char-$name-use.conf" cas bulk "a${c}b"
done
probe utf8-names.conf 'grüppe' 'stufe-ä' 'use ü'
probe latin1-names.conf "$(printf 'gr\374ppe')" bulk x
probe ctrl-name.conf "$(printf 'ca\001s')" bulk x
probe tab-name.conf "$(printf 'ca\ts')" bulk x
probe ff-vt-names.conf "$(printf 'ca\fs')" "$(printf 'bu\vlk')" "$(printf 'a\fb\vc')"

# CRLF and CR variants of every valid policy of the suite.
corpus=(
	"$top_srcdir"/tests/policies/valid/*
	"$top_srcdir"/tests/policies/invalid/*
	"$top_srcdir"/contrib/policies/*.conf
	"$top_srcdir"/tests/data/*policy*.conf
	"$top_srcdir"/tests/e2e/data/*.conf
	"$top_srcdir"/tests/e2e/data/sa-diff/*.conf
	"$top_srcdir"/tests/e2e/data/sa-policy/*.conf
	"$top_srcdir"/tests/fuzz/corpus/policy/*
)
for f in "$top_srcdir"/tests/policies/valid/* "$top_srcdir"/contrib/policies/*.conf \
	"$probes/plain.conf"; do
	b=$(basename "$f" .conf)
	sed 's/$/\r/' "$f" >"$probes/crlf-$b.conf"
done
sed 's/:/\r:/' "$probes/plain.conf" >"$probes/cr-inside.conf"
# Policies with bandwidth intents, lowered by `osmqos synth` to OpenSM's
# grammar with the synthesized qos-setup (their copies are in the corpus
# through contrib/ and tests/policies/valid/), in the shapes the lowering
# takes: with and without a high-priority level (an empty high table is
# written `vlarb-high: 0:0`), under a routing engine that keeps SL2VL (no
# sl2vl-scope at all), and after the operator's own qos-setup scopes.
lower() { # NAME POLICY FABRIC [SYNTH-ARGS...]
	local name=$1 pol=$2 net=$3
	shift 3
	"$top_builddir/osmqos" synth --policy "$pol" \
		--fabric "$top_srcdir/contrib/fabrics/$net.net" "$@" \
		-o "$probes/lowered-$name.conf" 2>/dev/null ||
		e2e_fail "osmqos synth failed on $pol ($net $*)"
}
for f in "$top_srcdir"/contrib/policies/intents*.conf \
	"$top_srcdir"/tests/policies/valid/intents*.conf; do
	b=$(basename "$f" .conf)
	for net in fat-tree-16 mixed-caps; do
		lower "$b-$net" "$f" "$net"
	done
done
sed '/priority: high/d' "$top_srcdir/contrib/policies/intents.conf" \
	>"$probes/intents-no-high.conf"
lower no-high "$probes/intents-no-high.conf" fat-tree-16
grep -q 'vlarb-high: 0:0' "$probes/lowered-no-high.conf" ||
	e2e_fail "the no-high lowering has no empty high table"
sed 's/bandwidth: 40%/bandwidth: 10%/; s/bandwidth: 20%/bandwidth: 5%/' \
	"$top_srcdir/contrib/policies/intents.conf" >"$probes/intents-small.conf"
printf 'routing_engine dfsssp\n' >"$E2E_DIR/dfsssp.conf"
lower dfsssp "$probes/intents-small.conf" fat-tree-16 \
	--opensm-conf "$E2E_DIR/dfsssp.conf"
grep -q 'sl2vl-scope' "$probes/lowered-dfsssp.conf" &&
	e2e_fail "dfsssp keeps SL2VL, yet the lowering has an sl2vl-scope"
sed 's/^        sl: 1$/        sl: 1\n        bandwidth: 30%/' \
	"$top_srcdir/contrib/policies/fat-tree-16.conf" >"$probes/scopes-intent.conf"
lower scopes "$probes/scopes-intent.conf" fat-tree-16
grep -q '^qos-setup' "$probes/lowered-scopes.conf" ||
	e2e_fail "the operator's scopes are missing from the lowering"
printf 'qos-ulps\n    default : 0\nend-qos-ulps' >"$probes/no-final-newline.conf"
printf 'qos-ulps\r\n    default : 0\r\nend-qos-ulps\r\n' >"$probes/crlf-ulps.conf"

# Constructs stock OpenSM reads differently, rejects, aborts or stalls on.
cat >"$probes/blank-names.conf" <<'EOF'
port-groups
    port-group
        name: Virtual Servers
        port-name: cn01 HCA-1/P1, "cn02 HCA-1/P1"
    end-port-group
    port-group
        name: "quoted name"
        port-name: "cn03 HCA-1/P1"
    end-port-group
end-port-groups
qos-levels
    qos-level
        name: DEFAULT
        sl: 0
    end-qos-level
    qos-level
        name: bulk
        sl: 1
    end-qos-level
end-qos-levels
qos-match-rules
    qos-match-rule
        source: Virtual Servers
        destination: "quoted name"
        qos-level-name: bulk
    end-qos-match-rule
end-qos-match-rules
EOF
# Several keys on a line: a key that reads a string keeps reading strings
# to the end of the line, so `name: X sl: 0` fails and `sl: 0 name: X`
# works.
sed 's/^        name: DEFAULT$/        name: DEFAULT sl: 0/; /^        sl: 0$/d' \
	"$probes/plain.conf" >"$probes/keys-one-line-name-first.conf"
sed 's/^        name: DEFAULT$/        sl: 0 name: DEFAULT/; /^        sl: 0$/d' \
	"$probes/plain.conf" >"$probes/keys-one-line-sl-first.conf"
levels='qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\nend-qos-levels\n'
group() { # FILE KEY-LINE
	printf "${levels}port-groups\n  port-group\n    name: g\n    %s\n  end-port-group\nend-port-groups\n" \
		"$2" >"$probes/$1"
}
group guid-range-all.conf 'port-guid: 0x0-0xffffffffffffffff'
group guid-range-2p33.conf 'port-guid: 0x0002c90000000000-0x0002c901ffffffff'
group guid-range-1m.conf 'port-guid: 0x0002c90000000000-0x0002c900000fffff'
# (No probe of a port number past a node's ports: OpenSM reads past its
# port table there, and what it finds, so its outcome, changes from run to
# run; the model's choice is in docs/stock.md, test_stock covers it.)
group port-unquoted.conf 'port-name: cn01 HCA-1/P1'
group port-of-switch.conf 'port-name: leaf01/P3'
group port-octal.conf 'port-name: "cn01 HCA-1/P01"'
group pkey-group.conf 'pkey: 0x8001, 0x0002-0x0003'
group partition-group.conf 'partition: p1, Default'
group node-types.conf 'node-type: CA, SELF, switch'
printf 'qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n    sl: 1\n  end-qos-level\nend-qos-levels\n' \
	>"$probes/sl-twice.conf"
printf 'qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 300\n    packet-life: 0x1ff\n  end-qos-level\nend-qos-levels\n' \
	>"$probes/sl-wraps.conf"
printf 'qos-ulps\n    default : 0\n    ipoib, pkey 0x0003 : 1\nend-qos-ulps\n' \
	>"$probes/ipoib-no-partition.conf"
printf 'qos-ulps\n    default : 0\n    ipoib, pkey 0x0001 : 1\n    ipoib : 2\n    any, source-target-port-guid 0x0002c90000000001-0x0002c9000000ffff : 3\nend-qos-ulps\n' \
	>"$probes/ipoib-partitions.conf"

# Valid to osmqos, read otherwise by OpenSM's scanner as written: the
# plugin's copy for OpenSM is then the policy written again.
printf '# end' >"$probes/comment-no-final-newline.conf"
cat "$probes/plain.conf" "$probes/comment-no-final-newline.conf" \
	>"$probes/plain-comment-no-final-newline.conf"
rm "$probes/comment-no-final-newline.conf"
probe keyword-group-name.conf my-qos-level bulk x
probe keyword-level-name.conf cas my-port-group x
probe keyword-colon-name.conf cas to:x x
probe default-colon-name.conf 'Default:x' bulk x
sed 's/^        sl: 1$/        use:\n        sl: 1/' "$probes/plain.conf" \
	>"$probes/empty-use.conf"
sed 's/node-type: CA$/node-type: "CA"/' "$probes/plain.conf" >"$probes/quoted-node-type.conf"
sed 's/node-type: CA$/node-type: CA,\n            SWITCH/' "$probes/plain.conf" \
	>"$probes/node-type-continued.conf"
sed 's|node-type: CA$|port-name: cn01 HCA-1/P1,\n            cn02 HCA-1/P1|' \
	"$probes/plain.conf" >"$probes/port-name-continued.conf"
sed 's/name: cas$/name: "my cas"/; s/source: cas$/source: my cas/' \
	"$probes/plain.conf" >"$probes/quoted-name-unquoted-ref.conf"
sed 's/name: cas$/name: my cas/; s/source: cas$/source: "my cas"/' \
	"$probes/plain.conf" >"$probes/unquoted-name-quoted-ref.conf"
# Written again, the copy keeps qos-ulps before port-groups: a rule
# naming _SRP_Targets_ gets the srp line's group, not the port-group of
# that name written after it (OpenSM's port groups are one list in file
# order, the generated ones included).
rewritten=(ulps-first-rewritten.conf)
cat >"$probes/ulps-first-rewritten.conf" <<'EOF'
qos-ulps
    default : 0
    srp, target-port-guid 0x100001 : 3
end-qos-ulps
port-groups
    port-group
        name: _SRP_Targets_
        node-type: "CA"
    end-port-group
end-port-groups
qos-levels
    qos-level
        name: x
        sl: 5
    end-qos-level
end-qos-levels
qos-match-rules
    qos-match-rule
        destination: _SRP_Targets_
        qos-level-name: x
    end-qos-match-rule
end-qos-match-rules
EOF

# Files stock OpenSM takes that osmqos must read as it does (`osmqos
# check`: valid, read as written); each name's expected line is checked
# after the run.
as_written=()
# A rule or scope naming a group qos-ulps generates: OpenSM's port groups
# are one list in file order, the generated ones included, and a name
# finds the first (the first line's group, or a port-group written before
# the qos-ulps section).
ulp_ref() { # FILE GROUP ULP-LINE ULP-LINE [PORT-GROUPS-FIRST]
	{
		[ -n "$5" ] && printf 'port-groups\n  port-group\n    name: %s\n    node-type: CA\n  end-port-group\nend-port-groups\n' "$2"
		printf "$levels"
		printf 'qos-levels\n  qos-level\n    name: x\n    sl: 5\n  end-qos-level\nend-qos-levels\n'
		printf 'qos-match-rules\n  qos-match-rule\n    destination: %s\n    qos-level-name: x\n  end-qos-match-rule\nend-qos-match-rules\n' "$2"
		printf 'qos-ulps\n    %s : 3\n    %s : 4\nend-qos-ulps\n' "$3" "$4"
		[ -z "$5" ] && printf 'port-groups\n  port-group\n    name: %s\n    node-type: CA\n  end-port-group\nend-port-groups\n' "$2"
		printf 'qos-setup\n  vlarb-tables\n    vlarb-scope\n      group: %s\n      vlarb-low: 0:4\n    end-vlarb-scope\n  end-vlarb-tables\nend-qos-setup\n' "$2"
	} >"$probes/$1"
	as_written+=("$1")
}
all=0x100000-0x1fffff
ulp_ref ulp-ref-srp.conf _SRP_Targets_ 'srp, target-port-guid 0x1' \
	"srp, target-port-guid $all"
ulp_ref ulp-ref-targets.conf _ulp_targets_ "any, target-port-guid $all" \
	'any, target-port-guid 0x1'
ulp_ref ulp-ref-sources.conf _ULP_Sources_ 'any, source-port-guid 0x1' \
	"any, source-port-guid $all"
ulp_ref ulp-ref-sources-targets.conf _ULP_Sources_Targets_ \
	'any, source-target-port-guid 0x1' \
	"any, source-target-port-guid $all"
ulp_ref ulp-ref-group-first.conf _SRP_Targets_ 'srp, target-port-guid 0x1' \
	'srp, target-port-guid 0x2' first

# An sl2vl-scope's across: before its across-to: or across-from: (OpenSM
# keeps one list per direction, in file order).
across() { # FILE KEY-LINES
	printf "${levels}port-groups\n  port-group\n    name: g\n    node-type: CA\n  end-port-group\n  port-group\n    name: sw\n    node-type: SWITCH\n  end-port-group\nend-port-groups\nqos-setup\n  sl2vl-tables\n    sl2vl-scope\n$2      sl2vl-table: 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,15\n    end-sl2vl-scope\n  end-sl2vl-tables\nend-qos-setup\n" \
		>"$probes/$1"
	as_written+=("$1")
}
across across-then-to.conf '      across: g\n      across-to: sw\n'
across across-then-from.conf '      across: g\n      across-from: sw\n'
across across-interleaved.conf \
	'      across-from: sw\n      across: g\n      across-from: g\n      across: sw\n'

# Port numbers in a port-name as OpenSM reads them (strtoul base 0,
# trailing junk ignored); P08 is no octal number and port 0 to OpenSM,
# which refuses the file, as osmqos must.
rejected_too=()
group port-hex.conf 'port-name: "cn01 HCA-1/P0x1"'
group port-junk.conf 'port-name: "cn01 HCA-1/P1st"'
group port-octal-switch.conf 'port-name: leaf01/P06'
as_written+=(port-hex.conf port-junk.conf port-octal-switch.conf)
group port-bad-octal.conf 'port-name: leaf01/P08'
rejected_too+=(port-bad-octal.conf)

# A range split after its '-' at a line end: OpenSM's grammar ignores line
# ends, so the range goes on on the next line, unless a keyword starts it.
rule="${levels}qos-match-rules\n  qos-match-rule\n    service-id: 0x1-\n"
printf "$rule      0x5\n    qos-level-name: DEFAULT\n  end-qos-match-rule\nend-qos-match-rules\n" \
	>"$probes/range-split.conf"
printf "$rule    qos-level-name: DEFAULT\n  end-qos-match-rule\nend-qos-match-rules\n" \
	>"$probes/range-split-keyword.conf"
printf 'qos-ulps\n    default : 0\n    any, service-id 0x10 -\n\n        0x20 : 1\n    sdp, port-num 7-\n    9 : 2\nend-qos-ulps\n' \
	>"$probes/range-split-ulps.conf"
printf "${levels}port-groups\n  port-group\n    name: g\n    port-guid: 0x100000-\n      0x100003\n  end-port-group\nend-port-groups\n" \
	>"$probes/range-split-guid.conf"
as_written+=(range-split.conf range-split-ulps.conf range-split-guid.conf)
rejected_too+=(range-split-keyword.conf)

list=$E2E_DIR/list
printf '%s\n' "${corpus[@]}" "$probes"/* >"$list"
out=$E2E_DIR/parse.out
mkdir -p "$E2E_DIR/parse"
fabric=$top_srcdir/contrib/fabrics/fat-tree-16.net
# OpenSM refuses a policy whose qos-ulps IPoIB pkey has no partition with
# two full members (a fact of the fabric, not of the text): the corpus
# uses pkeys 0x0001 and 0x0002.
cat >"$E2E_DIR/partitions.conf" <<'EOF'
Default=0x7fff, ipoib : ALL=full ;
p1=0x0001, ipoib : ALL=full ;
p2=0x0002, ipoib : ALL=full ;
EOF
export OQ_PARSE_LIST=$list OQ_PARSE_OUT=$out OQ_PARSE_DIR=$E2E_DIR/parse \
	OQ_PARSE_TIMEOUT=2 \
	OQ_PARSE_FABRIC=$fabric OQ_PARSE_PARTITIONS=$E2E_DIR/partitions.conf
export LD_LIBRARY_PATH="$top_builddir/tests/e2e/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
e2e_start_ibsim "$fabric"
e2e_start_opensm qos=FALSE event_plugin_name=oqparse \
	"partition_config_file=$E2E_DIR/partitions.conf"
for ((i = 0; i < 3000; i++)); do
	grep -q '^done$' "$out" 2>/dev/null && break
	kill -0 "$E2E_OPENSM_PID" 2>/dev/null || break
	sleep 0.1
done
grep -q '^done$' "$out" ||
	e2e_fail "the comparison stopped at $(sed -n 's/^begin //p' "$out" | tail -n 1) ($(head -n 1 "$out"))"

total=$(grep -c '^result ' "$out")
[ "$total" -eq "$(wc -l <"$list")" ] || e2e_fail "only $total of $(wc -l <"$list") policies checked"
{
	echo "$total files compared with OpenSM's own parser"
	echo "what OpenSM's parser did / what the model says:"
	awk '$1 == "result" { print "  " $2 " / " $3 }' "$out" | sort | uniq -c
	echo "osmqos check's verdict on stock OpenSM:"
	awk '$1 == "result" { print "  " $6 " (osmqos: " $4 ")" }' "$out" | sort | uniq -c
	echo "disagreements: $(grep -c '^result .* DISAGREE' "$out")"
} >"$E2E_DIR/summary"
sed 's/^/  /' "$E2E_DIR/summary"
valid=$(grep -c '^result [^ ]* [^ ]* valid ' "$out")
[ "$valid" -gt 40 ] || e2e_fail "only $valid policies valid: the corpus is missing"
# Every kind of outcome is exercised, or the comparison proves little.
for kind in 'ok takes' 'rejected rejects' 'aborted aborts' 'timeout stalls'; do
	grep -q "^result $kind " "$out" || e2e_fail "no file where OpenSM's parser gives '$kind'"
done
for v in as-written differently taken rejected; do
	grep -q "^result [^ ]* [^ ]* [^ ]* [^ ]* $v " "$out" ||
		e2e_fail "no file with the verdict '$v'"
done
for f in "${as_written[@]}"; do
	grep -q "^result ok takes valid ok as-written agree $probes/$f\$" "$out" ||
		e2e_fail "$f: not valid and read as written: $(grep "^result .* $probes/$f\$" "$out")"
done
for f in "${rewritten[@]}"; do
	grep -q "^result [^ ]* [^ ]* valid ok-rewritten [^ ]* agree $probes/$f\$" \
		"$out" || e2e_fail "$f: its copy is not written again and read" \
		"as osmqos reads the file: $(grep "^result .* $probes/$f\$" "$out")"
done
for f in "${rejected_too[@]}"; do
	grep -q "^result rejected rejects invalid - rejected agree $probes/$f\$" "$out" ||
		e2e_fail "$f: not rejected by both: $(grep "^result .* $probes/$f\$" "$out")"
done
if grep -q '^result .* DISAGREE' "$out"; then
	grep '^result .* DISAGREE' "$out" | head -n 20 | sed 's/^/  /'
	e2e_fail "the stock OpenSM model and OpenSM's parser disagree (dumps in $E2E_DIR/parse)"
fi
e2e_stop_opensm
e2e_pass
