#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# An SL dropped for traffic from one input port only is dropped in the
# published files.  On contrib/fabrics/two-switch.net every switch sends
# SL 3 from input port 1 to VL15 and from every other input to VL 3: the
# three other linked ports of each switch drop SL 3's packets from the
# host on port 1 (smpquery reads that back), so osmqos.prom counts those
# six ports in osmqos_sl_dropped_ports{sl="3"}, their class series say
# vl="mixed", and the JSON gives them "dropped": true, "vl": null and a
# ceiling (the SL alone on the link) no lower than the prediction -- as
# `osmqos predict --json` does offline.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
e2e_init publish-dropped
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

pol=$E2E_DIR/qos-policy.conf
cat >"$pol" <<'POL'
port-groups
    port-group
        name: switches
        node-type: SWITCH
    end-port-group
end-port-groups
qos-setup
    sl2vl-tables
        sl2vl-scope
            group: switches
            from: 1
            to: *
            sl2vl-table: 0,1,2,15,4,5,6,7,0,1,2,3,4,5,6,7
        end-sl2vl-scope
        sl2vl-scope
            group: switches
            from: *
            to: *
            sl2vl-table: 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7
        end-sl2vl-scope
    end-sl2vl-tables
end-qos-setup
POL
e2e_sid_levels 0x1000000000000100 3 >>"$pol"

e2e_start_ibsim "$top_srcdir/contrib/fabrics/two-switch.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol"
e2e_wait_for "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG" 30 ||
	e2e_fail "the plugin published nothing"
prom=$E2E_DIR/osmqos.prom json=$E2E_DIR/osmqos-bandwidth.json

# What the switches hold: SL 3 from input 1 to VL15, from input 7 to VL 3.
lid=$(e2e_lid sw1)
[ -n "$lid" ] || e2e_fail "no LID for sw1"
rows=$(smp_sl2vl "$lid" 2)
from1=$(awk '$4 == 1 { split($5, v, ","); print v[4] }' <<<"$rows")
from7=$(awk '$4 == 7 { split($5, v, ","); print v[4] }' <<<"$rows")
[ "$from1" = 15 ] && [ "$from7" = 3 ] ||
	e2e_fail "sw1 port 2: SL 3 from input 1 on VL '$from1', from 7 on '$from7'; want 15 and 3: $rows"

dropped=$(sed -n 's/^osmqos_sl_dropped_ports{sl="3"} //p' "$prom")
[ "$dropped" = 6 ] ||
	e2e_fail "osmqos_sl_dropped_ports{sl=\"3\"} is '$dropped', want 6: $(grep sl_dropped "$prom")"
[ "$(sed -n 's/^osmqos_sl_dropped_ports{sl="2"} //p' "$prom")" = 0 ] ||
	e2e_fail "SL 2 counted as dropped: $(grep sl_dropped "$prom")"
# The JSON's classes say the same of the same ports.
n=$(jq '[.classes[] | select(.sls[3].dropped) | .ports] | add' "$json")
[ "$n" = 6 ] || e2e_fail "the JSON gives SL 3 dropped on '$n' ports, want 6"
jq -e '[.classes[].sls[3] | select(.dropped)] | length > 0 and all(
	.vl == null and .vls == [3] and .guaranteed_gbps == 0 and
	.predicted_gbps > 0 and .ceiling_gbps >= .predicted_gbps)' \
	"$json" >/dev/null ||
	e2e_fail "SL 3 where it is dropped: $(jq -c '[.classes[].sls[3]]' "$json")"
for c in $(jq '.classes[] | select(.sls[3].dropped) | .class' "$json"); do
	grep -q "^osmqos_class_guaranteed_bandwidth_gbps{class=\"$c\",sl=\"3\",vl=\"mixed\"} 0\$" \
		"$prom" || e2e_fail "class $c's SL 3 series: $(grep "class=\"$c\",sl=\"3\"" "$prom")"
done

# `osmqos predict --json` offline: the same classes, to the byte.
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"
e2e_osmqos predict --json --all --compact --policy "$pol" \
	--fabric "$E2E_DIR/topo.ibnd" --opensm-conf "$E2E_OSM_CONF" \
	>"$E2E_DIR/predict.json" 2>"$E2E_DIR/predict.err" ||
	e2e_fail "osmqos predict failed"
cmp -s <(jq -cS .classes "$json") <(jq -cS .classes "$E2E_DIR/predict.json") ||
	e2e_fail "osmqos predict --json gives other classes than the published file"
e2e_log "SL 3 dropped from input 1 on $dropped ports, published and predicted alike"
e2e_stop_opensm
e2e_pass
