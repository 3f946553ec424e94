#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Bandwidth intents end to end: opensm + plugin with an intents policy
# (contrib/policies/intents.conf) on the fat tree programs exactly what
# `osmqos synth` computes for each port class (smpquery on every port;
# VLHighLimit from the PortInfo Sets), the published files put each
# intent beside a guaranteed share at least as large on every linked
# port, OpenSM parses its copy without an error (the intent keys
# commented out), the audit trail carries a granted path's intent, and
# with opensm_policy=direct, or a publish directory others can write,
# the plugin refuses the policy with one error whose cause and fix
# `osmqos status` repeats (not "osmqos check": the file is valid); the
# directory closed, the same file is put in force.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
e2e_init intents
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
command -v gawk >/dev/null || e2e_skip "gawk not installed (apt-get install gawk)"

# The example with MPI at 55%: more than one high packet per low packet,
# so VLHighLimit is above 0 and its Sets can be checked.  Storage at 15%:
# the least limit that runs two full 2 KiB packets (MTU + 26 to + 126
# bytes) lets three or four through, which leaves a low level a fifth.
pol=$E2E_DIR/intents.conf
sed 's/bandwidth: 40%/bandwidth: 15%/; s/bandwidth: 20%/bandwidth: 55%/' \
	"$top_srcdir/contrib/policies/intents.conf" >"$pol"
grep -q 'bandwidth: 55%' "$pol" || e2e_fail "could not derive the test policy"
pub=$E2E_DIR/pub
audit=$E2E_DIR/audit.json
mkdir -p "$pub"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" log_flags=0x23 \
	"event_plugin_options=publish_dir=$pub audit=$audit"
wait_sweep 1
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"

# 1. The plugin took the policy, with its intents; OpenSM read the copy.
grep -q "policy $pol loaded: .* 2 levels with an intent (2 with bandwidth:, 0 with latency:)" \
	"$E2E_OSM_LOG" || e2e_fail "plugin did not load the intents policy"
copy=$pub/osmqos-last-good-policy.conf
grep -q "Loading QoS policy file ($copy)" "$E2E_OSM_LOG" ||
	e2e_fail "OpenSM did not parse the plugin's copy"
grep -q '^ *# bandwidth: 15%$' "$copy" && grep -q '^ *# priority: high$' "$copy" ||
	e2e_fail "the copy OpenSM reads still has the intent keys: $(grep -n 'bandwidth\|priority' "$copy")"
bad=$(grep -E 'ERR AC|yyerror|syntax error' "$E2E_OSM_LOG") &&
	e2e_fail "OpenSM's parser complained: $(head -n 3 <<<"$bad")"
bad=$(grep 'osmqos' "$E2E_OSM_LOG" | grep -E 'ERR|error:') &&
	e2e_fail "plugin logged an error: $(head -n 3 <<<"$bad")"

# 2. synth on the live topology: feasible, every intent met per class.
e2e_osmqos synth --json --policy "$pol" --fabric "$E2E_DIR/topo.ibnd" \
	--opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/synth.json" ||
	e2e_fail "osmqos synth failed on the live topology"
jq -e '.feasible and .lowered.differ == 0 and
	([.classes[].levels[] | select(.met | not)] | length == 0) and
	(.classes | length) >= 2' "$E2E_DIR/synth.json" >/dev/null ||
	e2e_fail "synth: not every intent met: $(jq -c '[.classes[] | {class, status, levels}]' "$E2E_DIR/synth.json" | head -c 600)"
e2e_log "synth: $(jq '.classes | length' "$E2E_DIR/synth.json") classes, $(jq '[.classes[].ports] | add' "$E2E_DIR/synth.json") ports"

# 3. Programmed = synthesized.  `osmqos tables` puts the synthesized
# tables on every port; each port's tables must be one class's tables of
# synth, and what smpquery reads back must equal them.
e2e_osmqos tables --json --all --policy "$pol" --fabric "$E2E_DIR/topo.ibnd" \
	--opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/tables.json" ||
	e2e_fail "osmqos tables failed"
jq -r '.classes[].tables | "\(.sl2vl | map(tostring) | join(",")) \(.vlarb_high | map("\(.vl):\(.weight)") | join(",")) \(.vlarb_low | map("\(.vl):\(.weight)") | join(",")) \(.vl_high_limit)"' \
	"$E2E_DIR/synth.json" | sort -u >"$E2E_DIR/synth.sets"
jq -r '.ports[] | select(.vlarb_low) |
	"\((.sl2vl_by_in // {"0": .sl2vl}) | to_entries[0].value | map(tostring) | join(",")) \(.vlarb_high | map(select(.[1] > 0) | "\(.[0]):\(.[1])") | join(",")) \(.vlarb_low | map(select(.[1] > 0) | "\(.[0]):\(.[1])") | join(",")) \(.vl_high_limit)"' \
	"$E2E_DIR/tables.json" | sort -u >"$E2E_DIR/tables.sets"
diff "$E2E_DIR/synth.sets" "$E2E_DIR/tables.sets" ||
	e2e_fail "osmqos tables gives other tables than synth's classes"
n=$(jq '[.ports[] | select(.vlarb_low) | select(.origin.vlarb != "intent")] | length' "$E2E_DIR/tables.json")
[ "$n" -eq 0 ] || e2e_fail "$n linked ports' VLArb does not come from the intents"
tables_compare "$E2E_DIR/tables.json" ||
	e2e_fail "programmed tables differ from the synthesized ones"
jq -r '.ports[] | select(.vlarb_low) | .vl_high_limit' "$E2E_DIR/tables.json" |
	grep -v '^0$' | sort -n >"$E2E_DIR/vlhl.expected"
vlhl_sets_since 0 | grep -v '^0$' >"$E2E_DIR/vlhl.sent"
[ -s "$E2E_DIR/vlhl.expected" ] ||
	e2e_fail "the synthesized VLHighLimit is 0 everywhere: nothing to check"
diff "$E2E_DIR/vlhl.expected" "$E2E_DIR/vlhl.sent" >/dev/null ||
	e2e_fail "VLHighLimit sent differs from synthesized: $(uniq -c "$E2E_DIR/vlhl.sent" | head -n 3)"
e2e_log "VLHighLimit: $(uniq -c "$E2E_DIR/vlhl.sent" | paste -sd' ') sent, as synthesized"

# 4. Published: each intent beside what every linked port guarantees.
json=$pub/osmqos-bandwidth.json
prom=$pub/osmqos.prom
e2e_wait_for "osmqos_intent_missed_ports" "$prom" 30 ||
	e2e_fail "no intent metrics in $prom"
jq -e '.intents.ports_missed == 0 and (.intents.levels | length) == 2 and
	all(.intents.levels[]; .min_guaranteed_pct >= .bandwidth_pct)' "$json" >/dev/null ||
	e2e_fail "published intents not met: $(jq -c .intents "$json")"
grep -q '^osmqos_intent_missed_ports 0$' "$prom" ||
	e2e_fail "prom: $(grep osmqos_intent_missed_ports "$prom")"
grep -q '^osmqos_level_intent_ratio{level="storage",sl="1"} 0.15$' "$prom" ||
	e2e_fail "prom: no storage intent ratio"
awk '/^osmqos_level_intent_min_share_ratio\{level="storage"/ { f = 1; if ($2 < 0.15) bad = 1 }
	END { exit !(f && !bad) }' "$prom" ||
	e2e_fail "prom: storage's least share missing or below its intent"
promtool=${OQ_PROMTOOL:-$(command -v promtool)}
if [ -n "$promtool" ]; then
	"$promtool" check metrics <"$prom" || e2e_fail "promtool rejects $prom"
fi
e2e_log "published: $(jq -c '[.intents.levels[] | {level, bandwidth_pct, min_guaranteed_pct}]' "$json")"

# 5. Audit: a PathRecord to a storage server carries the storage intent.
cn=$(e2e_lid "cn01 HCA-1")
st=$(e2e_lid "stor1 HCA-1")
e2e_sim saquery -p --slid "$cn" --dlid "$st" >/dev/null 2>&1 ||
	e2e_fail "PathRecord cn01 -> stor1 failed"
e2e_wait_for '"level":"storage"' "$audit" 10 || e2e_fail "no audit record"
grep '"level":"storage"' "$audit" | tail -n 1 |
	jq -e '.predicted.intent.pct == 15 and .predicted.gbps >= .predicted.intent.gbps - 1e-6' >/dev/null ||
	e2e_fail "audit record lacks the intent: $(grep '"level":"storage"' "$audit" | tail -n 1)"
e2e_stop_opensm
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-copy.log"

# 6. opensm_policy=direct: OpenSM would read the intents itself and drop
# the file; the plugin refuses it, once, and says what to do.
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"event_plugin_options=publish_dir=$pub audit=off opensm_policy=direct"
e2e_wait_for "rejected: it states bandwidth intents" "$E2E_OSM_LOG" 30 ||
	e2e_fail "direct: the plugin did not refuse the intents policy"
n=$(grep -c "rejected: it states bandwidth intents" "$E2E_OSM_LOG")
[ "$n" -eq 1 ] || e2e_fail "direct: $n refusals logged, want 1"
grep -q "drop opensm_policy=direct" "$E2E_OSM_LOG" ||
	e2e_fail "direct: the refusal does not say what to do"
e2e_hup_sweep
n=$(grep -c "rejected: it states bandwidth intents" "$E2E_OSM_LOG")
[ "$n" -eq 1 ] || e2e_fail "direct: refusal logged again for the same file ($n)"
# status_says NAME FIX: `osmqos status` gives the refusal's cause and FIX
# (the log's words), not "fix it (osmqos check ...)": the file is valid.
status_says() {
	local out=$E2E_DIR/status-$1.txt

	e2e_osmqos status -d "$pub" >"$out" 2>&1
	grep -qF "$2" "$out" ||
		e2e_fail "$1: status does not say '$2': $(cat "$out")"
	grep -q "osmqos check" "$out" &&
		e2e_fail "$1: status says to fix a valid file: $(cat "$out")"
	e2e_osmqos status -d "$pub" --json >"$out.json" 2>/dev/null
	jq -e --arg fix "$2" '.rejected.fix == $fix' "$out.json" >/dev/null ||
		e2e_fail "$1: status JSON rejected.fix: $(jq -c .rejected "$out.json")"
	jq -e --arg fix "$2" '.policy.rejected.fix == $fix' \
		"$pub/osmqos-bandwidth.json" >/dev/null ||
		e2e_fail "$1: published rejected.fix: $(jq -c .policy.rejected "$pub/osmqos-bandwidth.json")"
}
status_says direct "drop opensm_policy=direct and restart opensm"
e2e_stop_opensm
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-direct.log"

# 7. A publish directory its group can write: OpenSM gets no copy, so
# the plugin refuses the intents for that cause, says so in status, and
# puts the same file in force once the directory is closed.
chmod 0775 "$pub"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"event_plugin_options=publish_dir=$pub audit=off"
e2e_wait_for "rejected: it states bandwidth intents" "$E2E_OSM_LOG" 30 ||
	e2e_fail "open: the plugin did not refuse the intents policy"
grep -q "other users can write the publish directory" "$E2E_OSM_LOG" ||
	e2e_fail "open: the refusal does not give the open directory as cause"
status_says open "make the publish directory writable by its owner only (chmod go-w), then kill -HUP opensm"
grep -qF "other users can write the publish directory" "$E2E_DIR/status-open.txt" ||
	e2e_fail "open: status does not give the cause: $(cat "$E2E_DIR/status-open.txt")"
chmod 0755 "$pub"
e2e_hup_sweep "published"
grep -q "policy $pol loaded: .* 2 levels with an intent (2 with bandwidth:, 0 with latency:)" "$E2E_OSM_LOG" ||
	e2e_fail "open: the file not put in force once the directory is closed"
e2e_stop_opensm

# 8. A vlarb-scope that misses an intent with full packets only: weight
# 33 at MTU 2048 sends one full packet (33 credits or more) a turn, not
# two, so storage's 45% gets a third.  The published figures say what the
# log says: the same ports missed, the same least share.
e2e_stop_ibsim
rm -f "$E2E_DIR/ibsim.ctl"
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-open.log"
mkdir -p "$E2E_DIR/pub-bw"
cat >"$E2E_DIR/bw.conf" <<'POLICY'
port-groups
  port-group
    name: all
    node-type: ALL
  end-port-group
end-port-groups
qos-setup
  vlarb-tables
    vlarb-scope
      group: all
      vlarb-high: 0:0
      vlarb-low: 0:32,1:33,2:32
      vl-high-limit: 0
    end-vlarb-scope
  end-vlarb-tables
  sl2vl-tables
    sl2vl-scope
      group: all
      sl2vl-table: 0,1,2,0,0,0,0,0,0,0,0,0,0,0,0,0
    end-sl2vl-scope
  end-sl2vl-tables
end-qos-setup
qos-levels
  qos-level
    name: DEFAULT
    sl: 0
  end-qos-level
  qos-level
    name: storage
    sl: 1
    bandwidth: 45%
  end-qos-level
end-qos-levels
qos-match-rules
  qos-match-rule
    qos-class: 1
    qos-level-name: storage
  end-qos-match-rule
end-qos-match-rules
POLICY
e2e_start_ibsim "$top_srcdir/contrib/fabrics/two-switch.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$E2E_DIR/bw.conf" \
	"event_plugin_options=publish_dir=$E2E_DIR/pub-bw audit=off"
e2e_wait_for "intents missed on [0-9]* port" "$E2E_OSM_LOG" 60 ||
	e2e_fail "bw: the plugin did not log the missed intent"
logged=$(sed -n 's/.*intents missed on \([0-9]*\) port.*/\1/p' \
	"$E2E_OSM_LOG" | tail -n 1)
prom=$E2E_DIR/pub-bw/osmqos.prom
json=$E2E_DIR/pub-bw/osmqos-bandwidth.json
e2e_wait_for "^osmqos_intent_missed_ports " "$prom" 30 ||
	e2e_fail "bw: no intent metrics in $prom"
grep -q "^osmqos_intent_missed_ports $logged\$" "$prom" ||
	e2e_fail "bw: prom and log differ ($logged logged): $(grep intent_missed "$prom")"
grep -q "^osmqos_level_intent_missed_ports{level=\"storage\",sl=\"1\"} $logged\$" "$prom" ||
	e2e_fail "bw: prom's storage misses differ ($logged logged): $(grep intent_missed "$prom")"
grep -q '^osmqos_level_intent_min_share_ratio{level="storage",sl="1"} 0.333333$' "$prom" ||
	e2e_fail "bw: prom's storage share is not a third: $(grep min_share "$prom")"
jq -e --argjson n "$logged" '.intents.ports_missed == $n and
	.intents.levels[0].ports_missed == $n and
	(.intents.levels[0].min_guaranteed_pct - 100 / 3 | fabs) < 1e-3' \
	"$json" >/dev/null ||
	e2e_fail "bw: JSON and log differ ($logged logged): $(jq -c .intents "$json")"
e2e_log "bw: $logged ports missed in the log, prom and JSON; storage's least share $(jq .intents.levels[0].min_guaranteed_pct "$json")%"
e2e_stop_opensm
e2e_pass
