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
banner "PathRecord cn01 (lid $src) -> stor1 (lid $dst): the storage level, SL 1"
e2e_sim saquery -p --slid "$src" --dlid "$dst" 2>/dev/null |
	grep -E 'slid|dlid|sl\.\.|mtu|rate'
echo "  (answered by OpenSM's own QoS manager from the same policy file)"
banner "osmqos match: the same decision offline"
"$osmqos" match --policy "$policy" --fabric "$fabric" \
	--src "cn01 HCA-1/P1" --dst "stor1 HCA-1/P1"

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

banner "Logs and files of this run: $E2E_DIR"
