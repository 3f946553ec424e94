#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The operator's mistakes of docs/operator-mistakes.md, one row each (M01
# ...): what an administrator new to the tool typed, and the exit status
# and first line they get now.  Rows the table marks "covered by" another
# test are checked there.
: "${top_srcdir:?}" "${top_builddir:?}"
q=$top_builddir/osmqos
gen=$top_builddir/contrib/fabrics/gen-fattree
net=$top_srcdir/contrib/fabrics/fat-tree-16.net
ibnd=$top_srcdir/tests/data/fat-tree-16.ibnd
pol=$top_srcdir/contrib/policies/fat-tree-16.conf
man=$top_srcdir/contrib/man
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
id=
rows=0
fail() { echo "FAIL: $id: $*"; exit 1; }
row() { id=$1; rows=$((rows + 1)); }

. "$top_srcdir/tests/cli-lib.sh"
# edit SED-EXPR: the demo policy with one edit, as $tmp/p.conf.
edit() { sed "$1" "$pol" >"$tmp/p.conf"; }

# --- Naming ports ----------------------------------------------------------
row M01 # a port by its host name, as on every other tool
expect 0 "rule:   0 (*) use: \"anything to storage\"" \
	match -p "$pol" -f "$net" --src cn01/P1 --dst stor1
row M02 # a name that is no node's: the closest ones
expect 2 "osmqos match: --src 'cn1/P1': no node named 'cn1' in the fabric; did you mean 'cn01 HCA-1/P1', 'cn10 HCA-1/P1' or 'cn11 HCA-1/P1'?" \
	match -p "$pol" -f "$net" --src cn1/P1 --dst stor1
row M03 # lid:7 on a net file, which has no LIDs
expect 2 "osmqos match: --src 'lid:7': this fabric carries no LIDs (an ibsim net file has none; OpenSM assigns them when it sweeps); name the port, or give the running fabric's ibnetdiscover output as --fabric" \
	match -p "$pol" -f "$net" --src lid:7 --dst stor1
row M04 # names from the node-name map OpenSM uses (opensm.conf names it)
printf '0x100002 "compute-01"\n0x100000 "storage-01"\n' >"$tmp/map"
printf 'node_name_map_name %s\n' "$tmp/map" >"$tmp/opensm.conf"
edit 's|"cn01 HCA-1/P1"|"compute-01/P1"|; s|"stor1 HCA-1/P1"|"storage-01/P1"|'
expect 0 "*: valid: 4 port groups, *, 0 warnings" \
	check "$tmp/p.conf" --fabric "$net" --opensm-conf "$tmp/opensm.conf"
row M05 # two HCAs with one NodeDescription: which one the policy means
sed 's/"cn04 HCA-1"/"cn01 HCA-1"/' "$net" >"$tmp/dup.net"
expect_err 0 "$pol:20:20: warning: port-name 'cn01 HCA-1/P1': 2 nodes are named 'cn01 HCA-1'; OpenSM's parser uses node 0x0000000000100002, the first in its node table, not 0x000000000010000a" \
	check "$pol" --fabric "$tmp/dup.net"

# --- Root causes first ----------------------------------------------------
row M06 # a misspelled block keyword: one error, nothing that follows
edit '0,/^    qos-level$/s//    qos-levle/'
expect 1 "$tmp/p.conf:59:5: error: unknown keyword 'qos-levle'" check "$tmp/p.conf"
grep -q ": 1 error, 0 warnings;" "$tmp/err" || fail "more than one error: $(tail -n 1 "$tmp/err")"
row M07 # a misspelled key: the cause, not the rule's missing level
edit 's/qos-level-name: storage/qos-level-nmae: storage/'
expect 1 "$tmp/p.conf:80:9: error: unknown keyword 'qos-level-nmae'" check "$tmp/p.conf"
grep -q ": 1 error, 0 warnings;" "$tmp/err" || fail "more than one error: $(tail -n 1 "$tmp/err")"
row M08 # two keys on one line: the name would swallow sl: 3
edit '/name: monitoring/{N;N;s/name: monitoring\n\( *use: [^\n]*\)\n *sl: 7/name: monitoring sl: 7\n\1/}'
expect 1 "$tmp/p.conf:69:26: error: 'sl: 7' is on the line of 'name:', whose value would swallow it: 'monitoring sl: 7'" \
	check "$tmp/p.conf"
grep -q ": 1 error, 0 warnings;" "$tmp/err" || fail "more than one error: $(tail -n 1 "$tmp/err")"
row M09 # a UTF-8 byte order mark
{ printf '\xef\xbb\xbf'; cat "$pol"; } >"$tmp/p.conf"
expect 1 "$tmp/p.conf:1:1: error: the file starts with a UTF-8 byte order mark (bytes EF BB BF), which OpenSM's parser cannot read" \
	check "$tmp/p.conf"
row M10 # typographic quotes pasted from a document
edit "s/\"stor1 HCA-1\\/P1\"/$(printf '\xe2\x80\x9c')stor1 HCA-1\\/P1$(printf '\xe2\x80\x9d')/"
expect 1 "$tmp/p.conf:15:20: error: typographic quote '$(printf '\xe2\x80\x9c')' in port name: OpenSM's parser reads only the ASCII quote '\"'" \
	check "$tmp/p.conf"
row M11 # bandwidth: 40 % and bandwidth: 0.001%
sed 's/bandwidth: 40%/bandwidth: 40 %/' "$top_srcdir/contrib/policies/intents.conf" >"$tmp/p.conf"
expect 1 "$tmp/p.conf:33:20: error: bandwidth 40 %: a blank between the number and '%'" check "$tmp/p.conf"
sed 's/bandwidth: 40%/bandwidth: 0.001%/' "$top_srcdir/contrib/policies/intents.conf" >"$tmp/p.conf"
expect 1 "$tmp/p.conf:33:20: error: bandwidth 0.001%: at most two decimals, a share of 0.01% or more" check "$tmp/p.conf"
row M12 # a vlarb-scope that starves VLs 2 and 3: both named
cat >"$tmp/p.conf" <<'EOF'
port-groups
    port-group
        name: hosts
        node-type: CA
    end-port-group
end-port-groups
qos-setup
    vlarb-tables
        vlarb-scope
            group: hosts
            vlarb-low: 0:64, 1:64
        end-vlarb-scope
    end-vlarb-tables
end-qos-setup
qos-levels
    qos-level
        name: DEFAULT
        sl: 0
    end-qos-level
    qos-level
        name: two
        sl: 2
    end-qos-level
    qos-level
        name: three
        sl: 3
    end-qos-level
end-qos-levels
qos-match-rules
    qos-match-rule
        qos-class: 2
        qos-level-name: two
    end-qos-match-rule
    qos-match-rule
        qos-class: 3
        qos-level-name: three
    end-qos-match-rule
end-qos-match-rules
EOF
expect 1 "$tmp/p.conf:9:9: error: vlarb-scope would starve VLs 2 and 3 on 16 port(s) (first: stor1 HCA-1/P1 (0x0000000000100001)): SL 2 maps to VL 2 and SL 3 to VL 3 *" \
	check "$tmp/p.conf" --fabric "$net"
row M13 # a 17 MB policy: over the limit, and nothing else
truncate -s 17M "$tmp/p.conf"
expect 2 "osmqos check: policy '$tmp/p.conf' is larger than the 16 MiB limit (the plugin's too); shorten it (is it the right file?)" \
	check "$tmp/p.conf"
[ "$(wc -l <"$tmp/err")" = 1 ] || fail "more than the one line: $(cat "$tmp/err")"
# A policy only root may read, checked as another user: permissions, not
# the path.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null; then
	head -c 100 /dev/zero >"$tmp/private.conf"
	chmod 0600 "$tmp/private.conf"
	chmod o+x "$tmp"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$top_builddir/osmqos" check "$tmp/private.conf" >/dev/null 2>"$tmp/err"
	rc=$?
	[ "$rc" = 2 ] && grep -q "^osmqos check: cannot read policy '$tmp/private.conf': Permission denied; check its permissions (run as its owner, or root)$" "$tmp/err" ||
		fail "an unreadable policy: exit $rc, $(cat "$tmp/err")"
	n=$((n + 1))
fi

# --- Summaries, not floods ----------------------------------------------
row M14 # one pattern repeated 22,000 times in a 6.8 MB policy
bash "$top_srcdir/tests/bench/gen-rules-policy.sh" 46700 0x1000000000000001 |
	awk '/^qos-match-rules$/ && !d { print; print "    qos-match-rule\n        service-id: 0x2000000000000000-0x20000000000055ef\n        qos-level-name: bulk\n    end-qos-match-rule"; d = 1; next } { print }' \
	>"$tmp/p.conf"
[ "$(wc -c <"$tmp/p.conf")" -gt 6500000 ] || fail "the generated policy is too small"
expect 0 "*: valid: *, 22002 warnings" check "$tmp/p.conf"
[ "$(wc -l <"$tmp/err")" -le 20 ] || fail "$(wc -l <"$tmp/err") lines of warnings"
grep -q "^  and 21,990 more like it; --all shows them$" "$tmp/err" ||
	fail "no count of the rest: $(tail -n 2 "$tmp/err")"
row M15 # predict on a 108-node fat tree: classes, not 4,352 lines
"$gen" --spines 4 --leaves 8 --hcas-per-leaf 12 --storage-per-leaf 1 \
	--speed-edge QDR --speed-storage FDR --speed-core EDR \
	--format ibnetdiscover >"$tmp/ft108.ibnd" || fail "gen-fattree failed"
expect 0 "256 ports in * classes of equal predictions; all 16 SLs backlogged, from every input port at once (--all lists every port, --port PORT one)" \
	predict -f "$tmp/ft108.ibnd" -p "$pol"
[ "$(wc -l <"$tmp/out")" -le 100 ] || fail "$(wc -l <"$tmp/out") lines"
row M16 # a 20,300-node fat tree: tables --json, predict, predict --json
"$gen" --spines 100 --leaves 200 --hcas-per-leaf 100 --format ibnetdiscover \
	>"$tmp/ft20k.ibnd" || fail "gen-fattree failed"
expect 0 '{"policy": null, "routing_engine": "minhop", "engine_chooses_sls": false, "ports_total": *, "classes": [' \
	tables --json -f "$tmp/ft20k.ibnd"
[ "$(wc -c <"$tmp/out")" -lt 65536 ] || fail "tables --json wrote $(wc -c <"$tmp/out") bytes"
expect 0 "* ports in * classes of equal predictions; *" predict -f "$tmp/ft20k.ibnd"
[ "$(wc -c <"$tmp/out")" -lt 65536 ] || fail "predict wrote $(wc -c <"$tmp/out") bytes"
expect 0 '{"schema": 3, "summary": true, *' predict --json -f "$tmp/ft20k.ibnd"
[ "$(wc -c <"$tmp/out")" -lt 65536 ] || fail "predict --json wrote $(wc -c <"$tmp/out") bytes"
rm -f "$tmp/ft20k.ibnd"
row M17 # per-class summaries in every JSON shape, per-port detail on asking
expect 0 '{"policy": *, "ports_total": 54, "classes": [' tables --json -f "$net" -p "$pol"
expect 0 '{"policy": *, "ports": [' tables --json --all -f "$net" -p "$pol"
row M18 # levels and groups nothing uses
edit 's/qos-level-name: storage/qos-level-name: DEFAULT/'
expect_err 0 "$tmp/p.conf:63:5: warning: qos-level 'storage' is never used: no qos-match-rule names it" \
	check "$tmp/p.conf"
edit 's/group: hosts/group: switches/'
expect_err 0 "$tmp/p.conf:26:5: warning: port group 'hosts' is never used: no rule or qos-setup scope names it" \
	check "$tmp/p.conf"

# --- One set of conventions (tests/cli-conventions.sh has them all) ----
row M19 # -C/-P in query as in audit (and infiniband-diags)
expect 0 "Usage: osmqos query *" query -C mlx5_0 -P 1 --help
row M20 # -V
expect 0 "osmqos *.*.*" -V
row M21 # every --help ends with its exit statuses
for c in predict model; do
	"$q" "$c" --help | tail -n 2 | grep -q "^Exit status: 0 " ||
		fail "$c --help does not end with its exit statuses"
done
row M22 # osmqos help check
expect 0 "Usage: osmqos check POLICY [OPTIONS]" help check
row M23 # check --json for CI
expect 0 "{" check --json "$pol"
row M24 # '-' for standard input
IN=$pol expect 0 "<stdin>: valid: *" check -
row M25 # an option given twice
expect 2 "osmqos tables: --port given twice; give it once" \
	tables -f "$net" --port 0x200000 --port 0x200001
row M26 # SL lists with the policy's ranges
expect 0 "* ports in * classes of equal predictions; SLs 0-3 backlogged, *" \
	predict -f "$net" --active 0-3
row M27 # a switch GUID means the whole switch to tables and predict (all
# its ports; predict: those with a link, port 0 has none)
"$q" tables -f "$ibnd" --port 0x0000000000200002 --json |
	grep -o '"port": [0-9]*' | grep -v '"port": 0$' | sort -u >"$tmp/t"
"$q" predict -f "$ibnd" --port 0x0000000000200002 --json |
	grep -o '{"port": [0-9]*' | sed 's/^{//' | sort -u >"$tmp/p"
[ -s "$tmp/t" ] && cmp -s "$tmp/t" "$tmp/p" ||
	fail "tables and predict --port SWITCHGUID list other ports: $(diff "$tmp/t" "$tmp/p" | head -n 4)"
row M28 # audit of an invalid policy exits 1, as osmqos(8) says
expect 1 "*duplicate-level.conf:9:3: error: duplicate qos-level name 'default'" \
	audit -p "$top_srcdir/tests/policies/invalid/duplicate-level.conf"

# --- Docs that agree with the tool and each other ------------------------
row M29 # how many records an answer under umad2sim keeps: two, everywhere
"$q" query --help | grep -q "cut there (two records)" || fail "query --help"
grep -q "at most two$" "$man/osmqos.8" || grep -q "(at most two" "$man/osmqos.8" ||
	fail "osmqos.8"
grep -q "at most two PathRecords" "$top_srcdir/docs/query.md" || fail "docs/query.md"
row M30 # JSON keys are in docs/json.md, and the README says so
grep -q "every key is in docs/json.md" "$top_srcdir/README.md" || fail "README.md"
for k in '## osmqos check' '`ports_total`' '`sl2vl_every_input`' '`summary` (true)'; do
	grep -q -F "$k" "$top_srcdir/docs/json.md" || fail "docs/json.md lacks $k"
done
row M31 # no page says a qos-level may lack sl: (check refuses it)
expect 1 "*level-no-sl.conf:*: error: qos-level has no 'sl'" \
	check "$top_srcdir/tests/policies/invalid/level-no-sl.conf"
if grep -n -e "qos\\\\-level has none" -e "qos\\\\-level has no$" "$man/osmqos-plugin.8" "$man/osmqos-policy.5" ||
   grep -n "qos-level has no SL" "$top_srcdir/docs/programming.md"; then
	fail "a page still says a qos-level may have no SL"
fi
row M32 # osmqos(8) lists synth among the offline commands
MANWIDTH=200 man -l "$man/osmqos.8" 2>/dev/null | tr -s ' \n' ' ' |
	grep -q "check, match, tables, predict, synth, export and model work offline" ||
	fail "osmqos.8 does not list synth as offline"
row M33 # check and the plugin's log count alike (qos-ulps apart)
expect 0 "*: valid: 0 port groups (+1 from qos-ulps), 0 qos-levels (+6 from qos-ulps), 0 match rules (+7 from qos-ulps), 0 vlarb-scopes, 0 sl2vl-scopes, 0 warnings" \
	check "$top_srcdir/contrib/policies/ulps-only.conf"
# (The plugin's load line with the same counts: tests/e2e/node-names.sh.)
echo "ok: $rows mistakes, each with its exit status and first line"
