#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A publish directory on storage that stops answering writes (a frozen
# file system here; a hung NFS server does the same) stalls the plugin's
# publisher thread only: OpenSM goes on sweeping, two SIGHUP sweeps reach
# SUBNET UP while the storage is frozen, and the publications asked
# meanwhile collapse into the newest, written once the storage is back.
# Root only (a loop-mounted file system, fsfreeze), else skipped.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init publish-stall
. "$top_srcdir/tests/e2e/freeze-lib.sh"
freeze_setup
cp "$top_srcdir/tests/e2e/data/program-policy.conf" "$E2E_DIR/qos-policy.conf"

e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$E2E_DIR/qos-policy.conf" \
	"event_plugin_options=publish_dir=$pub audit=off publish_interval=1"
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 60 ||
	e2e_fail "the first sweep was not published"

freeze
n0=$(grep -c "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG")
# The refresher's next write blocks within a second; then two sweeps.
sleep 2
e2e_hup_sweep "SUBNET UP" 30
e2e_hup_sweep "SUBNET UP" 30
last=$(grep -o "osmqos: sweep [0-9]*: " "$E2E_OSM_LOG" | tail -n 1 | tr -dc 0-9)
e2e_log "two sweeps with the publish directory frozen, up to sweep $last"
[ "$(grep -c "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG")" = "$n0" ] ||
	e2e_fail "a publication was written to a frozen file system"

thaw
e2e_wait_for "osmqos: sweep $last: published" "$E2E_OSM_LOG" 30 ||
	e2e_fail "the newest sweep ($last) was not published after the thaw: $(grep 'osmqos: sweep' "$E2E_OSM_LOG" | tail -n 4)"
# (The JSON keeps the sweep that wrote it: nothing it says changed.)
jq -e . "$pub/osmqos-bandwidth.json" >/dev/null ||
	e2e_fail "the JSON is not whole after the thaw"
grep -q "^osmqos_sweep $last\$" "$pub/osmqos.prom" ||
	e2e_fail "osmqos.prom is not sweep $last's: $(grep '^osmqos_sweep ' "$pub/osmqos.prom")"
e2e_hup_sweep "osmqos: sweep [0-9]*: published" 30
e2e_log "thawed: sweep $last published, and the next sweep too"
e2e_pass
