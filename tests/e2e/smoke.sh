#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# End-to-end smoke: the plugin loads into a real opensm on the simulated fat
# tree, SA and SMP queries work, opensm shuts down cleanly.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init smoke

net=${SMOKE_NET:-$top_srcdir/contrib/fabrics/fat-tree-16.net}
e2e_start_ibsim "$net"
e2e_start_opensm qos=TRUE "event_plugin_options=audit=$E2E_DIR/audit.json"

# The load line names the OpenSM release the plugin was built for: the
# one configure found (OQ_OSM_VERSION), which is this opensm's.
grep -qF "osmqos $(e2e_osmqos --version | awk '{print $2}') loaded (built for ${OQ_OSM_VERSION:-OpenSM})" \
	"$E2E_OSM_LOG" || e2e_fail "plugin load line (built for ${OQ_OSM_VERSION:-?}) missing from opensm log"
grep "osmqos .* loaded" "$E2E_OSM_LOG" | sed 's/^/  log: /'
grep -q "osmqos: subnet up" "$E2E_OSM_LOG" ||
	e2e_fail "plugin did not receive the SUBNET UP event"
if grep -E "ERR|osmqos:.*(unknown|error)" "$E2E_OSM_LOG" | grep -i osmqos; then
	e2e_fail "plugin logged errors"
fi

# Two CAs by LID (SA name lookups need RMPP, which umad2sim lacks).
mapfile -t cas < <(e2e_ibnetdiscover | awk -F'"' '/^Ca/ {print $4}' | head -n 2)
[ "${#cas[@]}" -eq 2 ] || e2e_fail "fabric shows fewer than 2 CAs"
slid=$(e2e_lid "${cas[0]}")
dlid=$(e2e_lid "${cas[1]}")
[ -n "$slid" ] && [ -n "$dlid" ] || e2e_fail "no LIDs for ${cas[*]}"
e2e_log "path ${cas[0]} (lid $slid) -> ${cas[1]} (lid $dlid)"

out=$(e2e_sim saquery -p --slid "$slid" --dlid "$dlid" 2>&1) ||
	e2e_fail "saquery PathRecord failed: $out"
echo "$out" | grep -q "dlid\.*$dlid$" || e2e_fail "PathRecord lacks dlid $dlid: $out"
echo "$out" | grep -q "slid\.*$slid$" || e2e_fail "PathRecord lacks slid $slid: $out"
echo "$out" | grep -E 'slid|dlid|sl\.\.|mtu|rate' | sed 's/^/  PR: /'

out=$(e2e_sim smpquery sl2vl "$slid" 1 2>&1) || e2e_fail "smpquery sl2vl failed: $out"
echo "$out" | grep -Eq '^ports: in +[0-9]+, out +[0-9]+: (\| *[0-9]+){16}\|' ||
	e2e_fail "smpquery sl2vl shows no 16-entry table: $out"

# Clean shutdown: opensm exits on SIGTERM and the plugin unloads.
kill -TERM "$E2E_OPENSM_PID"
for ((i = 0; i < 150; i++)); do
	kill -0 "$E2E_OPENSM_PID" 2>/dev/null || break
	sleep 0.1
done
kill -0 "$E2E_OPENSM_PID" 2>/dev/null && e2e_fail "opensm still running 15 s after SIGTERM"
wait "$E2E_OPENSM_PID"
rc=$?
E2E_OPENSM_PID=
[ "$rc" -eq 0 ] || e2e_fail "opensm exited with status $rc"
grep -q "osmqos: unloading" "$E2E_OSM_LOG" || e2e_fail "plugin delete() not called"
e2e_pass
