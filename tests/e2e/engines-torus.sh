#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# torus-2QoS on a 3x3x3 torus (gen-torus.awk, 27 switches, 54 CAs), stock
# and with the plugin on the same fabric.  torus-2QoS chooses path SLs,
# programs SL2VL itself and rewrites the VLArb of switch ports facing CAs.
#  1. Without qos-setup the plugin programs exactly what stock programs:
#     every SL2VL table (OpenSM's opensm-sl2vl.dump of both runs) and
#     every VLArb (both audit clean against osmqos's model of the engine);
#     PathRecord SLs are stock's; the plugin's QoS Set count (SL2VL Sets
#     included) equals the Sets in the frame log.
#  2. With data/torus-policy.conf the switch scope is programmed (through
#     the engine's rewrite), the CA scope, which would starve VL 1 (SLs
#     8-15 under torus-2QoS), is not: one error, which `osmqos check
#     --fabric --opensm-conf` gives too; no port starves a VL that the
#     engine's SL2VL in force maps any SL to; the hosts' sl2vl-scope does
#     not apply (a warning in both; the SL2VL dump stays stock's).
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
. "$top_srcdir/tests/e2e/engines-lib.sh"
e2e_init engines-torus
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
command -v gawk >/dev/null || e2e_skip "gawk not installed (apt-get install gawk)"

pol=$E2E_DIR/qos-policy.conf
awk -v X=3 -v Y=3 -v Z=3 -f "$top_srcdir/tests/e2e/gen-torus.awk" \
	>"$E2E_DIR/torus.net"
e2e_start_ibsim "$E2E_DIR/torus.net"

# torus-2QoS.conf: the dimensions and the seed links from sw000.
guid() {
	e2e_ibnetdiscover | sed -n "s/^Switch.*\"S-\([0-9a-f]*\)\".*# \"$1\".*/0x\1/p"
}
{
	echo "torus 3 3 3"
	echo "xp_link $(guid sw000) $(guid sw100)"
	echo "yp_link $(guid sw000) $(guid sw010)"
	echo "zp_link $(guid sw000) $(guid sw001)"
} >"$E2E_DIR/torus-2QoS.conf"
grep -q '^zp_link 0x[0-9a-f]* 0x[0-9a-f]*$' "$E2E_DIR/torus-2QoS.conf" ||
	e2e_fail "no switch GUIDs for torus-2QoS.conf: $(cat "$E2E_DIR/torus-2QoS.conf")"
opts=(qos=TRUE "qos_policy_file=$pol" routing_engine=torus-2QoS
	"torus_config=$E2E_DIR/torus-2QoS.conf")
# gen-torus.awk names each CA by its place alone ("h000b").
pairs=("h000b>h111a" "h012a>h220b" "h222a>h000a" "h101b>h202a")

routed() {
	grep -q "torus-2QoS tables configured on all switches" "$E2E_OSM_LOG" ||
		e2e_fail "$1: opensm did not route with torus-2QoS: $(grep -i 'torus\|ERR' "$E2E_OSM_LOG" | head -n 5)"
}

# 1. Stock, then the plugin, without qos-setup.
cp "$top_srcdir/tests/e2e/data/torus-noqos.conf" "$pol"
eng_start stock no "${opts[@]}"
routed stock
rm -f "$E2E_DIR/ibnetdiscover.out"
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"
eng_audit stock "$pol" ||
	e2e_fail "stock: VLArb or CA SL2VL differ from osmqos's model of torus-2QoS: $(grep DRIFT "$E2E_DIR/stock.audit" | head -n 5)"
eng_sls 1 "${pairs[@]}" >"$E2E_DIR/stock.sls"
eng_stop
[ -s "$E2E_DIR/stock/opensm-sl2vl.dump" ] || e2e_fail "stock wrote no opensm-sl2vl.dump"

eng_start plugin yes "${opts[@]}"
routed plugin
wait_sweep 1
eng_mads_match || e2e_fail "the plugin's QoS Set count misses Sets"
eng_audit plugin "$pol" ||
	e2e_fail "plugin without qos-setup: VLArb or CA SL2VL differ from stock's: $(grep DRIFT "$E2E_DIR/plugin.audit" | head -n 5)"
# Twice each: an engine that chooses SLs itself answers the same
# question the same way every time.
eng_sls 2 "${pairs[@]}" >"$E2E_DIR/plugin.sls"
grep -q ' none$' "$E2E_DIR/plugin.sls" &&
	e2e_fail "a PathRecord was not answered: $(cat "$E2E_DIR/plugin.sls")"
cmp -s "$E2E_DIR/stock.sls" "$E2E_DIR/plugin.sls" ||
	e2e_fail "PathRecord SLs differ from stock's: $(paste "$E2E_DIR/stock.sls" "$E2E_DIR/plugin.sls")"
e2e_log "PathRecord SLs as stock's: $(paste -sd ';' "$E2E_DIR/plugin.sls")"
cmp -s "$E2E_DIR/stock/opensm-sl2vl.dump" "$E2E_DIR/plugin/opensm-sl2vl.dump" ||
	e2e_fail "SL2VL differs from stock's: $(diff "$E2E_DIR/stock/opensm-sl2vl.dump" "$E2E_DIR/plugin/opensm-sl2vl.dump" | head -n 10)"
# Predictions use the engine's SL2VL, and say so: on a CA link SL 8 (QoS
# level 1) travels on VL 1.
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 120 ||
	e2e_fail "the plugin published nothing"
jq -e '.routing_engine == {"name": "torus-2QoS", "sl2vl": "engine"} and
	(. as $d | [.nodes[] | select(.node_type == "CA") | .ports[] |
	  $d.classes[.class]] | length == 54 and
	 all(.sl2vl_origin == "routing-engine" and
	     [.sls[] | select(.sl == 8) | .vl] == [1]))' \
	"$E2E_DIR/osmqos-bandwidth.json" >/dev/null ||
	e2e_fail "published predictions do not use torus-2QoS's SL2VL: $(jq -c '.routing_engine, (. as $d | .nodes[] | select(.node_type == "CA") | .ports[] | $d.classes[.class] | {sl2vl_origin, sl8: .sls[8]})' "$E2E_DIR/osmqos-bandwidth.json" | head -n 3)"
grep -q '^osmqos_routing_engine_info{engine="torus-2QoS",sl2vl="engine"} 1$' \
	"$E2E_DIR/osmqos.prom" || e2e_fail "no osmqos_routing_engine_info for torus-2QoS"
n_sl2vl=$(grep -c . "$E2E_DIR/plugin/opensm-sl2vl.dump")
e2e_log "no qos-setup: $n_sl2vl SL2VL dump lines equal to stock's; VLArb audit clean"

# 2. The policy with a qos-setup, by an edit and a heavy sweep.
cp "$top_srcdir/tests/e2e/data/torus-policy.conf" "$pol"
# Generous: under ASan, two tests at a time, CI has run the sanitized
# tests three times slower than a workstation; slowness is not a failure.
lines=$(wc -l <"$E2E_OSM_LOG")
e2e_hup_sweep "osmqos: sweep 2: published" 120
eng_mads_match 2 "$lines" ||
	e2e_fail "the plugin's QoS Set count of the policy sweep is wrong"
eng_audit policy "$pol" ||
	e2e_fail "with qos-setup: the fabric differs from osmqos tables: $(grep DRIFT "$E2E_DIR/policy.audit" | head -n 5)"
e2e_osmqos tables --json --all --fabric "$E2E_DIR/topo.ibnd" --policy "$pol" \
	--opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/policy.json" \
	2>"$E2E_DIR/policy.tables.err" || e2e_fail "osmqos tables failed"
n_scope=$(jq '[.ports[] | select(.origin.vlarb == "scope")] | length' "$E2E_DIR/policy.json")
[ "$n_scope" -gt 100 ] ||
	e2e_fail "the switch scope is programmed on only $n_scope ports"
grep 'error: vlarb-scope would starve' "$E2E_OSM_LOG" |
	sed 's/.*osmqos: [^:]*conf:\([0-9]*:[0-9]*\): error: \(.* port(s)\) (first.*/\1 \2/' |
	sort -u >"$E2E_DIR/plugin-errors"
[ "$(cat "$E2E_DIR/plugin-errors")" = "32:9 vlarb-scope would starve VL 1 on 54 port(s)" ] ||
	e2e_fail "want one error for the CA scope on 54 ports, got: $(cat "$E2E_DIR/plugin-errors")"
e2e_osmqos check "$pol" --fabric "$E2E_DIR/topo.ibnd" \
	--opensm-conf "$E2E_OSM_CONF" >/dev/null 2>"$E2E_DIR/check"
[ $? = 1 ] || e2e_fail "osmqos check did not fail: $(cat "$E2E_DIR/check")"
# The hosts' sl2vl-scope: a warning in both, and SL2VL stays the engine's
# (this sweep's dump equals stock's).
for f in "$E2E_OSM_LOG" "$E2E_DIR/check"; do
	grep -q ":38:9: warning: sl2vl-scope does not apply: routing engine torus-2QoS .* stays the engine" "$f" ||
		e2e_fail "no 'sl2vl-scope does not apply' warning in $f"
done
cmp -s "$E2E_DIR/stock/opensm-sl2vl.dump" "$E2E_DIR/plugin/opensm-sl2vl.dump" ||
	e2e_fail "with an sl2vl-scope, SL2VL differs from the engine's: $(diff "$E2E_DIR/stock/opensm-sl2vl.dump" "$E2E_DIR/plugin/opensm-sl2vl.dump" | head -n 10)"
grep 'error: vlarb-scope would starve' "$E2E_DIR/check" |
	sed 's/^[^:]*conf:\([0-9]*:[0-9]*\): error: \(.* port(s)\) (first.*/\1 \2/' |
	sort -u | cmp -s - "$E2E_DIR/plugin-errors" ||
	e2e_fail "plugin and check disagree: $(cat "$E2E_DIR/check")"

# No starved VL on the wire: OpenSM's SL2VL dump of this sweep (every SL
# counts: the engine chooses them) against the VLArb in force (the audit
# found the wire equal to these tables).  Keys: switch node GUID and
# output port, or a CA's port GUID and 0 (the dump's form).
starved=$(jq -r '.ports[] | select(.vlarb_low != null) |
	(if .kind == "CA port" then "\(.guid) 0" else "\(.node_guid) \(.port)" end)
	+ " ," + ([(.vlarb_low + .vlarb_high)[] | select(.[1] > 0) | .[0]]
	| unique | map(tostring) | join(",")) + ","' "$E2E_DIR/policy.json" |
	gawk 'FNR == NR { w[$1 " " $2] = $3; next }
	/^(Switch|Channel Adapter) 0x/ {
		g = $0; sub(/^[^0]*/, "", g); sub(/,.*/, "", g); next
	}
	/^[0-9]+ +[0-9]+ +:/ {
		if ($1 == $2) next
		k = g " " $2; rows++
		if (!(k in w)) { print "no VLArb for " k; next }
		for (i = 4; i <= NF; i++)
			if ($i < 15 && index(w[k], "," $i ",") == 0)
				print k " in " $1 " SL " i - 4 " -> VL " $i " unweighted"
	}
	END { if (!rows) print "no SL2VL rows in the dump" }' - \
	"$E2E_DIR/plugin/opensm-sl2vl.dump" | sort -u)
[ -z "$starved" ] || e2e_fail "starved VLs on the wire: $(echo "$starved" | head -n 5)"
e2e_log "with qos-setup: switch scope on $n_scope ports, CA scope withheld on 54, hosts' sl2vl-scope not applied (SL2VL dump equal to stock's)"

# 3. torus-2QoS gives path SLs from its own tables (path_sl): the plugin
# answered the PathRecords itself, asking the engine for each SL.
eng_stop
line=$(grep "osmqos: SA front: PathRecord" "$E2E_OSM_LOG" | tail -n 1)
re='SA front: PathRecord [0-9]+ queries \(([0-9]+) answered, 0 passed'
[[ $line =~ $re ]] && [ "${BASH_REMATCH[1]}" -gt 0 ] ||
	e2e_fail "under torus-2QoS: ${line:-no SA front line at unload}"
e2e_log "${line#*osmqos: }"
e2e_pass
