#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Every policy osmqos calls valid is one OpenSM's own parser takes, as the
# plugin hands it to OpenSM (its copy).  OpenSM re-parses the policy every
# sweep for what it still answers itself; a copy it rejects (ERR AC03/AC04)
# leaves it without a policy, and one that overflows its lexer aborts the
# SM.  The test-only plugin liboqparse (tests/e2e/opensm_parse.c) runs
# OpenSM's parser, inside a real opensm, over: the policy corpus of the
# suite (tests/policies, contrib/policies, test data), the fuzz corpus, and
# probes written here at OpenSM's limits (CRLF endings, names and `use:`
# texts around its 10 KiB string buffer, characters its lexer splits on).
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

list=$E2E_DIR/list
printf '%s\n' "${corpus[@]}" "$probes"/* >"$list"
out=$E2E_DIR/parse.out
export OQ_PARSE_LIST=$list OQ_PARSE_OUT=$out
export LD_LIBRARY_PATH="$top_builddir/tests/e2e/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
# OpenSM refuses a policy whose qos-ulps IPoIB pkey has no partition with
# two full members (a fact of the fabric, not of the text): the corpus
# uses pkeys 0x0001 and 0x0002.
cat >"$E2E_DIR/partitions.conf" <<'EOF'
Default=0x7fff, ipoib : ALL=full ;
p1=0x0001, ipoib : ALL=full ;
p2=0x0002, ipoib : ALL=full ;
EOF
e2e_start_opensm qos=FALSE event_plugin_name=oqparse \
	"partition_config_file=$E2E_DIR/partitions.conf"
for ((i = 0; i < 1200; i++)); do
	grep -q '^done$' "$out" 2>/dev/null && break
	kill -0 "$E2E_OPENSM_PID" 2>/dev/null || break
	sleep 0.1
done
grep -q '^done$' "$out" ||
	e2e_fail "OpenSM's parser stopped at $(sed -n 's/^begin //p' "$out" | tail -n 1)"

total=$(grep -c '^result ' "$out")
valid=$(grep -c '^result valid ' "$out")
e2e_log "$total policies: $valid valid for osmqos," \
	"$(grep -c '^result valid ok ' "$out") of them taken by OpenSM"
[ "$total" -eq "$(wc -l <"$list")" ] || e2e_fail "only $total of $(wc -l <"$list") policies checked"
[ "$valid" -gt 40 ] || e2e_fail "only $valid policies valid: the corpus is missing"
if grep -q '^result valid rejected ' "$out"; then
	grep '^result valid rejected ' "$out" | sed 's/^/  /'
	grep -E 'ERR AC' "$E2E_OSM_LOG" | head -n 20 | sed 's/^/  log: /'
	e2e_fail "OpenSM rejects policies osmqos calls valid"
fi
e2e_stop_opensm
e2e_pass
