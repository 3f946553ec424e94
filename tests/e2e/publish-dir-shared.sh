#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Two opensm on one host, one per fabric, with one opensm.conf and so one
# publish directory (Debian's opensm@GUID units): the first osmqos keeps
# the directory, the second says once which process has it and writes
# nothing there (no published files, no policy copy: its OpenSM reads the
# policy file itself).  The published files stay the first fabric's, and
# neither takes the other's files for an operator's edit.  Once the first
# stops, the second takes the directory at its next sweep.  A lock file
# another user put there is said, not written, and not taken for an
# osmqos.  doctor on the shared opensm.conf says which opensm has the
# directory and that the other publishes nothing there.  A publish
# directory made (or made again) while opensm runs is locked at the next
# heavy sweep, and one another opensm's osmqos took meanwhile is left to
# it.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init publish-dir-shared
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

pol=$E2E_DIR/qos-policy.conf
e2e_sid_policy "$pol" 0x1000000000000100 2

# The second fabric: an ibsim and an opensm of its own socket, stopped by
# PID at exit (after the first's).
sock_b="${IBSIM_SOCKNAME}-b"
mkfifo "$E2E_DIR/ibsim-b.ctl"
IBSIM_SOCKNAME=$sock_b "$OQ_IBSIM" -s "$top_srcdir/contrib/fabrics/fat-tree-16.net" \
	<"$E2E_DIR/ibsim-b.ctl" >"$E2E_DIR/ibsim-b.log" 2>&1 &
ibsim_b=$!
exec {ctl_b}>"$E2E_DIR/ibsim-b.ctl"
osm_b=
stop_b() {
	local p
	for p in $osm_b $ibsim_b; do
		kill "$p" 2>/dev/null || continue
		for _ in 1 2 3 4 5 6 7 8 9 10; do
			kill -0 "$p" 2>/dev/null || break
			sleep 0.5
		done
		kill -9 "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
}
E2E_ON_EXIT=stop_b
e2e_wait_for "Network simulator ready" "$E2E_DIR/ibsim-b.log" 20 ||
	e2e_fail "the second ibsim did not start"

e2e_start_ibsim "$top_srcdir/contrib/fabrics/two-switch.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"event_plugin_options=publish_interval=1"
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 30 ||
	e2e_fail "the first opensm published nothing"
linked_a=$(awk '$1 == "osmqos_linked_ports" {print $2}' "$E2E_DIR/osmqos.prom")
[ -n "$linked_a" ] || e2e_fail "no osmqos_linked_ports in osmqos.prom"

log_b=$E2E_DIR/opensm-b.log
# start_b: the second opensm, with the first's opensm.conf.
start_b() {
	mkdir -p "$E2E_DIR/cwd-b"
	(cd "$E2E_DIR/cwd-b" && IBSIM_SOCKNAME=$sock_b \
		LD_LIBRARY_PATH="$top_builddir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
		LD_PRELOAD="$OQ_UMAD2SIM" exec "$OQ_OPENSM" -F "$E2E_OSM_CONF" \
		-f "$log_b") >"$E2E_DIR/opensm-b.out" 2>&1 &
	osm_b=$!
}
start_b
e2e_wait_for "SUBNET UP" "$log_b" 30 || e2e_fail "the second opensm is not up"
grep -q "osmqos: publish directory $E2E_DIR is the osmqos of another opensm's (pid $E2E_OPENSM_PID)" "$log_b" ||
	e2e_fail "the second osmqos did not name the first: $(grep osmqos "$log_b" | head -n 5)"
grep -q "Loading QoS policy file ($pol)" "$log_b" ||
	e2e_fail "the second OpenSM does not read the policy file itself"

for i in 1 2 3; do
	e2e_hup_sweep
	kill -HUP "$osm_b"
	sleep 1
done
for i in 1 2 3 4 5 6; do
	l=$(awk '$1 == "osmqos_linked_ports" {print $2}' "$E2E_DIR/osmqos.prom")
	[ "$l" = "$linked_a" ] ||
		e2e_fail "osmqos.prom has $l linked ports, the first fabric $linked_a"
	sleep 0.5
done
[ "$(jq '[.nodes[].ports | length] | add' "$E2E_DIR/osmqos-bandwidth.json")" = "$linked_a" ] ||
	e2e_fail "the JSON is not the first fabric's"
grep -q "was edited, not by osmqos" "$E2E_OSM_LOG" "$log_b" &&
	e2e_fail "an SM took the other's files for an edit"
[ "$(grep -c "is the osmqos of another opensm's" "$log_b")" = 1 ] ||
	e2e_fail "the second osmqos did not say it once"
grep -q "osmqos: sweep [0-9]*: published" "$log_b" &&
	e2e_fail "the second osmqos published"
e2e_log "one publish directory, two SMs: the first's files only; the second said so once"
# doctor on that opensm.conf names both: the directory is the first's,
# the second publishes nothing there.
e2e_osmqos doctor -c "$E2E_OSM_CONF" --plugin "$top_builddir/.libs/libosmqos.so" \
	--opensm "$OQ_OPENSM" >"$E2E_DIR/doctor.out" 2>&1
grep -q "^warning  *publish-owner  *publish directory $E2E_DIR is the osmqos of opensm pid $E2E_OPENSM_PID; 1 other opensm (pid $osm_b) runs with the same $E2E_OSM_CONF" \
	"$E2E_DIR/doctor.out" || e2e_fail "doctor did not name the second opensm: $(cat "$E2E_DIR/doctor.out")"
e2e_log "doctor: the publish directory is pid $E2E_OPENSM_PID's, pid $osm_b publishes nothing"

# The first opensm stops (the other port's SM is the one left): the
# second's osmqos takes the directory at its next heavy sweep.
e2e_stop_opensm
n=$(grep -c "SUBNET UP" "$log_b")
kill -HUP "$osm_b"
e2e_wait_count "osmqos: sweep [0-9]*: published" "$log_b" 1 30 ||
	e2e_fail "the second osmqos did not publish once the first was gone"
grep -q "osmqos: publish directory $E2E_DIR is this opensm's osmqos's now: it publishes there and OpenSM reads its policy copy" "$log_b" ||
	e2e_fail "the second osmqos did not say it took the directory"
l=$(awk '$1 == "osmqos_linked_ports" {print $2}' "$E2E_DIR/osmqos.prom")
[ "$l" != "$linked_a" ] && [ -n "$l" ] ||
	e2e_fail "osmqos.prom is still the first fabric's ($l linked ports)"
e2e_wait_count "SUBNET UP" "$log_b" $((n + 1)) 30 || e2e_fail "no sweep of the second"
grep -q "osmqos: OpenSM now reads the last good policy from $E2E_DIR/osmqos-last-good-policy.conf" "$log_b" &&
	[ -s "$E2E_DIR/osmqos-last-good-policy.conf" ] ||
	e2e_fail "the second OpenSM does not read the copy its osmqos now writes"
e2e_log "the first gone: the second's osmqos took the directory ($l linked ports)"

# A lock file the plugin did not write (another user's) is not taken for
# another osmqos: said, and the directory used.
kill "$osm_b"
wait "$osm_b" 2>/dev/null
osm_b=
rm -f "$E2E_DIR/.osmqos.lock"
su nobody -s /bin/sh -c "true" 2>/dev/null || e2e_skip "no user nobody"
install -o nobody -m 0644 /dev/null "$E2E_DIR/.osmqos.lock"
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-a1.log"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"event_plugin_options=publish_interval=1"
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 30 ||
	e2e_fail "a foreign lock file kept the plugin from publishing"
grep -q "osmqos: $E2E_DIR/.osmqos.lock is not a lock file of this plugin's" "$E2E_OSM_LOG" ||
	e2e_fail "the foreign lock file was not said"
[ "$(stat -c %U "$E2E_DIR/.osmqos.lock")" = nobody ] && [ ! -s "$E2E_DIR/.osmqos.lock" ] ||
	e2e_fail "the foreign lock file was written"
e2e_log "a lock file of another user: said, not written, the directory used"

# A publish directory missing at start (the plugin says to make it),
# made while opensm runs: its lock is taken at the next heavy sweep, so a
# second opensm finds the directory taken.
late=$E2E_DIR/late
e2e_stop_opensm
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-a2.log"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"event_plugin_options=publish_dir=$late"
mkdir -m 755 "$late"
e2e_hup_sweep "osmqos: sweep 2: published"
[ "$(cat "$late/.osmqos.lock" 2>/dev/null)" = "$E2E_OPENSM_PID" ] ||
	e2e_fail "no lock on a publish directory made while opensm runs: $(ls -A "$late")"
e2e_log "a publish directory made while opensm runs: locked at the next sweep"
# Removed and made again, then taken by a second opensm before the next
# sweep of the first: the first leaves it to the second.
rm -rf "$late"
mkdir -m 755 "$late"
mv "$log_b" "$E2E_DIR/opensm-b1.log"
start_b
e2e_wait_for "SUBNET UP" "$log_b" 30 || e2e_fail "the second opensm is not up again"
[ "$(cat "$late/.osmqos.lock")" = "$osm_b" ] ||
	e2e_fail "the second opensm did not take the directory made again"
e2e_hup_sweep
sleep 1 # the publisher thread
grep -q "osmqos: publish directory $late is the osmqos of another opensm's (pid $osm_b)" "$E2E_OSM_LOG" ||
	e2e_fail "the first osmqos did not see the second's lock: $(grep 'publish directory' "$E2E_OSM_LOG")"
grep -q "osmqos: sweep 3: published" "$E2E_OSM_LOG" &&
	e2e_fail "the first osmqos published to the second's directory"
e2e_log "the directory made again and taken by another opensm: left to it"
e2e_pass
