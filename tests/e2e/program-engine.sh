#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# With a routing engine that owns SL/VL for deadlock freedom (dfsssp:
# path_sl), SL2VL stays OpenSM's (the engine's) and VLArb/VLHighLimit come
# from the policy; paths are still answered.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
e2e_init program-engine
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
command -v gawk >/dev/null || e2e_skip "gawk not installed (apt-get install gawk)"

pol=$E2E_DIR/qos-policy.conf
cp "$top_srcdir/tests/e2e/data/program-policy.conf" "$pol"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" routing_engine=dfsssp
wait_sweep 1
grep -q "osmqos: routing engine dfsssp owns SL2VL" "$E2E_OSM_LOG" ||
	e2e_fail "plugin did not log that dfsssp owns SL2VL"
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"

tables() {
	e2e_osmqos tables --json --fabric "$E2E_DIR/topo.ibnd" \
		--opensm-conf "$E2E_OSM_CONF" "$@" ||
		e2e_fail "osmqos tables failed"
}
tables --policy "$pol" >"$E2E_DIR/policy.json"
tables >"$E2E_DIR/template.json"
# Expected: SL2VL of the templates, VLArb and VLHighLimit of the policy.
jq --slurpfile t "$E2E_DIR/template.json" '
	($t[0].ports | map({key: "\(.guid)/\(.port)", value: .}) | from_entries) as $tp |
	.ports |= map(. as $p | $tp["\($p.guid)/\($p.port)"] as $q |
		.sl2vl = $q.sl2vl | .sl2vl_by_in = $q.sl2vl_by_in)' \
	"$E2E_DIR/policy.json" >"$E2E_DIR/expected.json"
cmp -s <(jq -S .ports "$E2E_DIR/expected.json") <(jq -S .ports "$E2E_DIR/policy.json") &&
	e2e_fail "test policy's SL2VL equals the templates: it proves nothing"
tables_compare "$E2E_DIR/expected.json" ||
	e2e_fail "with dfsssp, tables are not template SL2VL + policy VLArb"

slid=$(e2e_lid "cn01 HCA-1")
dlid=$(e2e_lid "stor4 HCA-1")
out=$(e2e_sim saquery -p --slid "$slid" --dlid "$dlid" 2>&1) ||
	e2e_fail "saquery PathRecord failed under dfsssp: $out"
echo "$out" | grep -q "dlid\.*$dlid$" || e2e_fail "no PathRecord: $out"
e2e_pass
