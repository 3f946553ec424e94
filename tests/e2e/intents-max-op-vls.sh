#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# opensm.conf max_op_vls caps the VLs every link runs (OpenSM's link
# manager), and so the VLs the synthesized intent tables can use.  With
# max_op_vls 2 on contrib/fabrics/mixed-caps.net (ports of 4 and 8 VLs)
# every link runs VL0-1: the tables the plugin programs (read back with
# smpquery) must be the ones `osmqos tables --opensm-conf` computes from
# the same opensm.conf, and the plugin and `osmqos synth` must both say
# that storage shares its VL on those ports.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
e2e_init intents-max-op-vls
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
command -v gawk >/dev/null || e2e_skip "gawk not installed (apt-get install gawk)"

pol=$top_srcdir/contrib/policies/intents.conf
pub=$E2E_DIR/pub
mkdir -p "$pub"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/mixed-caps.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" max_op_vls=2 \
	"event_plugin_options=publish_dir=$pub"
wait_sweep 1
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"

e2e_osmqos tables --json --all --policy "$pol" --fabric "$E2E_DIR/topo.ibnd" \
	--opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/tables.json" ||
	e2e_fail "osmqos tables failed"
# Every linked port with VLArb runs 2 data VLs, as the SM's links do.
jq -e '[.ports[] | select(.vlarb_low) | .vls] | length > 0 and all(. == 2)' \
	"$E2E_DIR/tables.json" >/dev/null ||
	e2e_fail "offline tables do not run 2 VLs: $(jq -c '[.ports[] | select(.vlarb_low) | .vls] | unique' "$E2E_DIR/tables.json")"
tables_compare "$E2E_DIR/tables.json" ||
	e2e_fail "programmed tables differ from osmqos tables --opensm-conf"

e2e_osmqos synth --json --policy "$pol" --fabric "$E2E_DIR/topo.ibnd" \
	--opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/synth.json" 2>/dev/null
json=$pub/osmqos-bandwidth.json
e2e_wait_for '"intents"' "$json" 30 || e2e_fail "no published intents"
live=$(jq -c '[.intents.levels[] | {level, min_guaranteed_pct, shared_ports}]' "$json")
offline=$(jq -c '[.classes[].levels[] | select(.level == "storage") |
	(.shared_with | length > 0)] | all' "$E2E_DIR/synth.json")
[ "$offline" = true ] || e2e_fail "osmqos synth does not say storage shares its VL"
jq -e '.intents.levels[] | select(.level == "storage") | .shared_ports > 0' \
	"$json" >/dev/null || e2e_fail "the plugin does not say storage shares its VL: $live"
# The guarantee both give storage: its VL's, 80% (the group's, not its).
jq -e '[.classes[].levels[] | select(.level == "storage") | .share_pct] | all(. == 80)' \
	"$E2E_DIR/synth.json" >/dev/null || e2e_fail "osmqos synth: storage not at 80%"
jq -e '.intents.levels[] | select(.level == "storage") | .min_guaranteed_pct == 80' \
	"$json" >/dev/null || e2e_fail "the plugin: storage not at 80%: $live"
e2e_stop_opensm
e2e_pass
