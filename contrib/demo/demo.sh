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
policy=$top_srcdir/contrib/policies/storage-compute.conf
[ -f "$policy" ] || policy=
banner() { printf '\n=== %s\n' "$*"; }

banner "Simulated fabric: $(basename "$fabric")"
e2e_start_ibsim "$fabric"
if [ -n "$policy" ]; then
	cp "$policy" "$E2E_DIR/qos-policy.conf"
	e2e_start_opensm qos=TRUE "qos_policy_file=$E2E_DIR/qos-policy.conf"
else
	e2e_start_opensm qos=TRUE
fi

banner "opensm loaded the plugin (from $E2E_OSM_LOG)"
grep -E "osmqos" "$E2E_OSM_LOG" | sed 's/^[^>]*-> /  /'

mapfile -t cas < <(e2e_ibnetdiscover | awk -F'"' '/^Ca/ {print $4}' | sort | head -n 2)
slid=$(e2e_lid "${cas[0]}")
dlid=$(e2e_lid "${cas[1]}")
banner "PathRecord ${cas[0]} (lid $slid) -> ${cas[1]} (lid $dlid), answered by the SA"
e2e_sim saquery -p --slid "$slid" --dlid "$dlid" 2>/dev/null

if [ -n "$policy" ] && "$top_builddir/osmqos" check "$policy" >/dev/null 2>&1; then
	banner "osmqos check $(basename "$policy")"
	"$top_builddir/osmqos" check "$policy"
fi

banner "Logs and files of this run: $E2E_DIR"
