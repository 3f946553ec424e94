#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Long QoS level names are published whole.  Two levels whose names
# share their first 72 bytes (storage on SL 1 with a 30% intent, mpi on
# SL 2 with 20%), each given by a Service-ID rule: after PathRecord
# queries for each Service-ID, osmqos.prom counts each level's answers
# under its own full name, every per-level family has one series per
# level with that same label value, and the JSON's intents list both
# names in full.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init publish-level-names
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

p=compute_partition_compute_partition_compute_partition_compute_partition_
a=${p}storage b=${p}mpi
sid_a=0x1000000000000100 sid_b=0x1000000000000200
pol=$E2E_DIR/qos-policy.conf
cat >"$pol" <<POL
qos-levels
    qos-level
        name: DEFAULT
        sl: 0
    end-qos-level
    qos-level
        name: $a
        sl: 1
        bandwidth: 30%
    end-qos-level
    qos-level
        name: $b
        sl: 2
        bandwidth: 20%
    end-qos-level
end-qos-levels
qos-match-rules
    qos-match-rule
        service-id: $sid_a
        qos-level-name: $a
    end-qos-match-rule
    qos-match-rule
        service-id: $sid_b
        qos-level-name: $b
    end-qos-match-rule
end-qos-match-rules
POL
e2e_osmqos check "$pol" >"$E2E_DIR/check.out" 2>&1 ||
	e2e_fail "osmqos check refuses the policy: $(cat "$E2E_DIR/check.out")"

e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol"
e2e_wait_for "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG" 30 ||
	e2e_fail "the plugin published nothing"
prom=$E2E_DIR/osmqos.prom json=$E2E_DIR/osmqos-bandwidth.json

l02=$(e2e_lid "cn02 HCA-1") l03=$(e2e_lid "cn03 HCA-1")
[ -n "$l02" ] && [ -n "$l03" ] || e2e_fail "no LIDs for cn02 and cn03"
for i in 1 2; do
	e2e_pr_get "a$i" "$l02" "$l03" --sid $sid_a
	e2e_expect "a$i" '.records[0].sl' 1
done
for i in 1 2 3; do
	e2e_pr_get "b$i" "$l02" "$l03" --sid $sid_b
	e2e_expect "b$i" '.records[0].sl' 2
done
# The counters are published with the next sweep's files.
e2e_hup_sweep "osmqos: sweep [0-9]*: published"

n_a=$(grep -F "osmqos_sa_pr_answered_total{level=\"$a\"} " "$prom" | awk '{print $2}')
n_b=$(grep -F "osmqos_sa_pr_answered_total{level=\"$b\"} " "$prom" | awk '{print $2}')
[ "$n_a" = 2 ] && [ "$n_b" = 3 ] ||
	e2e_fail "answers by level: '$n_a' and '$n_b', want 2 and 3: $(grep '^osmqos_sa_pr_answered_total' "$prom")"
# Every per-level family: one series per level, labelled with its name.
for fam in osmqos_sa_pr_answered_total osmqos_level_guaranteed_bandwidth_gbps \
	osmqos_level_intent_ratio osmqos_level_intent_min_share_ratio \
	osmqos_level_intent_missed_ports osmqos_level_intent_shared_ports \
	osmqos_level_latency_max_seconds; do
	got=$(grep "^$fam{" "$prom" | grep -o 'level="[^"]*"' | sort -u |
		grep -v -e '"DEFAULT"' -e '"(none)"' | tr '\n' ' ')
	want="level=\"$b\" level=\"$a\" "
	[ "$got" = "$want" ] || e2e_fail "$fam levels: $got; want $want"
done
for l in "$a" "$b"; do
	[ "$(grep -cF "osmqos_level_guaranteed_bandwidth_gbps{level=\"$l\"," "$prom")" = 3 ] ||
		e2e_fail "not 3 guaranteed series (min, median, max) for $l"
done
grep -qF "osmqos_level_intent_ratio{level=\"$a\",sl=\"1\"} 0.3" "$prom" &&
	grep -qF "osmqos_level_intent_ratio{level=\"$b\",sl=\"2\"} 0.2" "$prom" ||
	e2e_fail "intent ratios: $(grep '^osmqos_level_intent_ratio' "$prom")"
got=$(jq -c '[.intents.levels[] | [.level, .sl]]' "$json")
[ "$got" = "[[\"$a\",1],[\"$b\",2]]" ] ||
	e2e_fail "the JSON's intents levels: $got"
e2e_log "levels of ${#a} and ${#b} bytes published whole"
e2e_stop_opensm
e2e_pass
