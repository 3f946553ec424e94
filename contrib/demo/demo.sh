#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The README's demo: a simulated fat tree (ibsim), a real opensm with the
# osmqos plugin and an example policy, and what an operator would look at.
# Run from the build directory after `make`.  Everything started here is
# stopped by PID on exit.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$PWD}
export top_srcdir top_builddir
[ -x "$top_builddir/osmqos" ] || {
	echo "demo: run it from the build directory after 'make'" >&2
	exit 2
}
. "$top_srcdir/tests/e2e/lib.sh"
E2E_KEEP=1
e2e_init demo

fabric=$top_srcdir/contrib/fabrics/fat-tree-16.net
policy=$top_srcdir/contrib/policies/fat-tree-16.conf
osmqos=$top_builddir/osmqos
banner() { printf '\n=== %s\n' "$*"; }

banner "osmqos check $(basename "$policy") --fabric $(basename "$fabric")"
"$osmqos" check "$policy" --fabric "$fabric" || exit 1

banner "Simulated fabric $(basename "$fabric"): ibsim, then opensm with the plugin"
cp "$policy" "$E2E_DIR/qos-policy.conf"
e2e_start_ibsim "$fabric"
e2e_start_opensm qos=TRUE "qos_policy_file=$E2E_DIR/qos-policy.conf"
e2e_wait_for "osmqos: sweep 1: " "$E2E_OSM_LOG" 30
grep "osmqos" "$E2E_OSM_LOG" | sed 's/^[^>]*-> [a-z_]*: /  /'

src=$(e2e_lid "cn01 HCA-1")
dst=$(e2e_lid "stor1 HCA-1")
peer=$(e2e_lid "cn05 HCA-1")
banner "PathRecord cn01 (lid $src) -> stor1 (lid $dst) with saquery: the storage level, SL 1"
e2e_sim saquery -p --slid "$src" --dlid "$dst" 2>/dev/null |
	grep -E 'slid|dlid|sl\.\.|mtu|rate'
echo "  (answered by the osmqos plugin, per pair, under the policy)"

# One query per line: what an application would ask, and what it gets.
ask() {
	local what=$1
	shift
	printf '  %-44s ' "$what"
	e2e_sim "$osmqos" query --json --numb-path 1 "$@" 2>/dev/null |
		jq -r 'if (.records | length) == 0 then "no path (\(.status))"
		       else .records[0] | "SL \(.sl)  MTU enum \(.mtu)  rate enum \(.rate)  pkt_life \(.pkt_life)" end'
}
banner "osmqos query: the SL different Service IDs get (live SA, libibumad)"
ask "cn01 -> cn05, no Service ID" --slid "$src" --dlid "$peer"
ask "cn01 -> cn05, Service ID 0x1000000000000d01" --slid "$src" --dlid "$peer" --sid 0x1000000000000d01
ask "cn01 -> cn05, Service ID 0x1000000000000042" --slid "$src" --dlid "$peer" --sid 0x1000000000000042
ask "cn01 -> stor1, Service ID 0x1000000000000d01" --slid "$src" --dlid "$dst" --sid 0x1000000000000d01
echo "  (the first matching rule wins: anything to storage comes before monitoring)"
ask "cn01 -> stor1, MultiPathRecord 1x1" --mpr --sgids "$(e2e_guid "cn01 HCA-1")" --dgids "$(e2e_guid "stor1 HCA-1")"

banner "osmqos match: the same decision offline"
"$osmqos" match --policy "$policy" --fabric "$fabric" \
	--src "cn01 HCA-1/P1" --dst "cn05 HCA-1/P1" --sid 0x1000000000000d01

banner "The audit trail: one JSON line per answered pair ($E2E_DIR/osmqos-audit.log)"
sleep 1.5 # the writer thread appends in the background
tail -n 6 "$E2E_DIR/osmqos-audit.log" | jq -c '{src: .src.node, dst: .dst.node,
	service_id: .query.service_id, rule, level, granted: .granted.sl,
	predicted_gbps: .predicted.gbps, bottleneck: .predicted.bottleneck}'

leaf=$(e2e_lid leaf01)
banner "leaf01 port 1 faces stor1: VLArb read back with smpquery (lid $leaf)"
e2e_sim smpquery vlarb "$leaf" 1 2>/dev/null
banner "... and what osmqos tables predicted for that port"
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"
"$osmqos" tables --policy "$policy" --fabric "$E2E_DIR/topo.ibnd" \
	--port "leaf01/P1"

banner "Predicted per-SL bandwidth on stor1's port, all SLs backlogged"
"$osmqos" predict --policy "$policy" --fabric "$fabric" --port "stor1 HCA-1/P1"
banner "... and on the leaf port facing it (storage VL1 first)"
"$osmqos" predict --policy "$policy" --fabric "$fabric" --port "leaf01/P1"

banner "Published after every sweep (docs/publish.md): $E2E_DIR/osmqos-bandwidth.json"
jq -r '. as $d | .nodes[] | select(.node == "leaf01") | .ports[] |
	select(.port == 1) | $d.classes[.class].sls[] | select(.predicted_gbps > 0) |
	"  leaf01/P1 SL \(.sl) VL \(.vl) \(.priority): \(.predicted_gbps) Gb/s predicted, \(.guaranteed_gbps) Gb/s guaranteed"' \
	"$E2E_DIR/osmqos-bandwidth.json" 2>/dev/null
echo "  Prometheus textfile for node_exporter: $E2E_DIR/osmqos.prom"
grep -m 3 '^osmqos_sl_guaranteed_bandwidth_gbps' "$E2E_DIR/osmqos.prom" | sed 's/^/    /'
grep -E '^osmqos_(policy_load_success|qos_mads_sent_total|sa_pr_answered_total)' \
	"$E2E_DIR/osmqos.prom" | sed 's/^/    /'

banner "Logs and files of this run: $E2E_DIR"
