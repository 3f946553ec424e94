#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# With a routing engine that chooses path SLs for deadlock freedom
# (dfsssp: path_sl, over every SL it has VLs for), SL2VL stays the
# template's and VLArb/VLHighLimit come from the policy -- except where
# the policy's VLArb would starve a VL the template maps an SL to:
#  1. data/program-policy.conf weights VLs 0-4 only while dfsssp's paths
#     use SLs 0-7 (VLs 0-7): both vlarb-scopes are withheld (one error
#     each), the ports read back equal `osmqos tables` for dfsssp, and no
#     port starves a VL any SL maps to.
#  2. The same policy with VLs 5-7 weighted: template SL2VL + the policy's
#     VLArb on every port, no error; paths are still answered.
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
grep -q "osmqos: routing engine dfsssp chooses path SLs and SL2VL is the template's" \
	"$E2E_OSM_LOG" || e2e_fail "plugin did not log that dfsssp chooses SLs"
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"

tables() {
	e2e_osmqos tables --json --all --fabric "$E2E_DIR/topo.ibnd" \
		--opensm-conf "$E2E_OSM_CONF" "$@" 2>>"$E2E_DIR/tables.err" ||
		e2e_fail "osmqos tables failed"
}

# 1. The starving policy.
for at in 26:9 32:9; do
	grep -q "osmqos: $pol:$at: error: vlarb-scope would starve VL" \
		"$E2E_OSM_LOG" ||
		e2e_fail "no error for the vlarb-scope at $at: $(grep 'error:' "$E2E_OSM_LOG")"
done
tables --policy "$pol" >"$E2E_DIR/starving.json"
tables_compare "$E2E_DIR/starving.json" ||
	e2e_fail "with dfsssp, the ports are not what osmqos tables says"
starved=$(tables_starved "$E2E_DIR/starving.json")
[ -z "$starved" ] || e2e_fail "starved VLs on the wire: $starved"
n=$(jq '[.ports[] | select(.origin.vlarb == "scope")] | length' "$E2E_DIR/starving.json")
[ "$n" = 0 ] || e2e_fail "$n ports kept a starving vlarb-scope"

# 2. The policy with VLs 5-7 weighted too, by an edit and a heavy sweep.
sed -i 's/vlarb-low: 2:64, 3:32, 4:16$/vlarb-low: 2:64, 3:32, 4:16, 5:16, 6:16, 7:16/
	s/vlarb-low: 1:32, 2:32, 3:32$/vlarb-low: 1:32, 2:32, 3:32, 4:32, 5:32, 6:32, 7:32/' "$pol"
lines=$(wc -l <"$E2E_OSM_LOG")
e2e_hup_sweep "osmqos: sweep 2: "
tail -n +"$lines" "$E2E_OSM_LOG" | grep -q 'error: vlarb-scope would starve' &&
	e2e_fail "a scope that weights every VL was withheld"
tables --policy "$pol" >"$E2E_DIR/policy.json"
tables >"$E2E_DIR/template.json"
# Expected: SL2VL of the templates, VLArb and VLHighLimit of the policy.
jq --slurpfile t "$E2E_DIR/template.json" '
	($t[0].ports | map({key: "\(.guid)/\(.port)", value: .}) | from_entries) as $tp |
	.ports |= map(. as $p | $tp["\($p.guid)/\($p.port)"] as $q |
		.sl2vl = $q.sl2vl | .sl2vl_by_in = $q.sl2vl_by_in)' \
	"$E2E_DIR/policy.json" >"$E2E_DIR/expected.json"
cmp -s <(jq -S .ports "$E2E_DIR/expected.json") <(jq -S .ports "$E2E_DIR/template.json") &&
	e2e_fail "test policy's VLArb equals the templates: it proves nothing"
tables_compare "$E2E_DIR/expected.json" ||
	e2e_fail "with dfsssp, tables are not template SL2VL + policy VLArb"
n=$(jq '[.ports[] | select(.origin.vlarb == "scope")] | length' "$E2E_DIR/policy.json")
[ "$n" -ge 40 ] || e2e_fail "only $n ports carry the policy's VLArb"

slid=$(e2e_lid "cn01 HCA-1")
dlid=$(e2e_lid "stor4 HCA-1")
out=$(e2e_sim saquery -p --slid "$slid" --dlid "$dlid" 2>&1) ||
	e2e_fail "saquery PathRecord failed under dfsssp: $out"
echo "$out" | grep -q "dlid\.*$dlid$" || e2e_fail "no PathRecord: $out"
e2e_log "withheld: $(grep -c 'error: vlarb-scope would starve' "$E2E_OSM_LOG") scopes; then $n ports on the policy's VLArb"
e2e_pass
