#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Two opensm on one fabric, a master and a standby, each with its own
# publish directory, cache directory and working directory.  The standby
# reads the policy at load and writes the policy it would enforce to its
# own publish directory (osmqos status there says that policy and the
# file against it); a bad edit is refused by the standby's periodic
# re-read (once), not at takeover; a standby restarted on the bad file
# puts its own policy in force back; and when the master stops, the
# standby takes over with the last good policy: the storage pair keeps
# the policy's SL, and no log line announces the fabric without one.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init policy-standby
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

pol=$E2E_DIR/policy.conf
cp "$top_srcdir/tests/e2e/data/program-policy.conf" "$pol"
grep -q '^        sl: 1$' "$pol" || e2e_fail "the policy has no level with SL 1"
pubA=$E2E_DIR/pubA
pubB=$E2E_DIR/pubB
mkdir -p "$pubA" "$pubB" "$E2E_DIR/cacheB"
common=(qos=TRUE "qos_policy_file=$pol" sminfo_polling_timeout=1000
	polling_retry_number=3)
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm "${common[@]}" sm_priority=15 \
	"event_plugin_options=publish_dir=$pubA audit=off"
e2e_write_opensm_conf "$E2E_DIR/B.conf" "${common[@]}" sm_priority=1 \
	"event_plugin_options=publish_dir=$pubB audit=off publish_interval=1"

B_PID=
E2E_ON_EXIT='e2e_stop_pid "$B_PID" 15'
# start_standby LOG: the second opensm, attached at cn12.
start_standby() {
	e2e_opensm_cwd "$E2E_DIR/cwdB"
	(cd "$E2E_DIR/cwdB" && OSM_CACHE_DIR=$E2E_DIR/cacheB SIM_HOST=cn12 \
	 LD_LIBRARY_PATH="$top_builddir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	 LD_PRELOAD="$OQ_UMAD2SIM" \
		exec "$OQ_OPENSM" -F "$E2E_DIR/B.conf" -f "$1") \
		>"$E2E_DIR/B.out" 2>&1 &
	B_PID=$!
	e2e_wait_for "Entering STANDBY" "$1" 60 ||
		e2e_fail "the second opensm did not enter STANDBY"
	e2e_log "standby pid $B_PID"
}
# sl: the SL of the PathRecord cn01 -> stor1 (the policy gives storage
# traffic SL 1; OpenSM's templates SL 0).
slid=$(e2e_lid "cn01 HCA-1")
dlid=$(e2e_lid "stor1 HCA-1")
sl() { e2e_pr_sl "$slid" "$dlid"; }
[ "$(sl)" = 0x1 ] || e2e_fail "master: cn01 -> stor1 not on the policy's SL 1: '$(sl)'"

Blog=$E2E_DIR/B.log
start_standby "$Blog"
grep -q "osmqos: policy $pol loaded" "$Blog" ||
	e2e_fail "the standby did not read the policy at load"
# Its publisher writes it when it starts, beside OpenSM's discovery.
for _ in $(seq 100); do
	cmp -s "$pol" "$pubB/osmqos-policy-in-force.conf" && break
	sleep 0.1
done
cmp -s "$pol" "$pubB/osmqos-policy-in-force.conf" ||
	e2e_fail "the standby wrote no policy in force to its publish directory"
# osmqos status on the standby's host: that policy, the file holds it.
sb_status() {
	e2e_osmqos status -d "$pubB" --json >"$E2E_DIR/$1.json" 2>&1
	[ $? = 1 ] || e2e_fail "status on the standby's directory: not exit 1: $(cat "$E2E_DIR/$1.json")"
	jq -e --arg p "$pol" --arg f "$2" '.would_enforce.path == $p and
		.would_enforce.file == $f and
		.verdict.causes[0].cause == "not_published"' \
		"$E2E_DIR/$1.json" >/dev/null ||
		e2e_fail "status on the standby's directory: $(cat "$E2E_DIR/$1.json")"
}
sb_status status-standby same
e2e_log "the standby holds the policy from load"

# A bad edit: the master refuses it at its sweep, the standby at its
# next re-read, once.
sed -i 's/^        sl: 1$/        sl: 99/' "$pol"
e2e_hup_sweep "osmqos: policy $pol rejected"
e2e_wait_for "osmqos: policy $pol rejected (.*); the last good policy stays in force" "$Blog" 20 ||
	e2e_fail "the standby did not refuse the bad edit while standby"
sleep 2 # two more re-reads of the same bad content: not logged again
[ "$(grep -c "osmqos: policy $pol rejected" "$Blog")" = 1 ] ||
	e2e_fail "the standby logged the same bad edit more than once"
sb_status status-standby-refused edited
e2e_log "the standby refused the bad edit while standby"

# Restarted on the bad file, the standby puts back the policy it wrote.
e2e_stop_pid "$B_PID" 15
Blog=$E2E_DIR/B2.log
start_standby "$Blog"
grep -q "osmqos: policy $pol cannot be put in force (above): the policy in force before this start, $pubB/osmqos-policy-in-force.conf" "$Blog" ||
	e2e_fail "the restarted standby did not put its policy in force back"
e2e_log "the restarted standby put its own policy in force back"

# The master stops: the standby takes over with the last good policy.
e2e_stop_opensm
e2e_wait_for "SUBNET UP" "$Blog" 120 || e2e_fail "the standby did not take over"
e2e_wait_for "osmqos: sweep [0-9]*: .* policy in force, loaded" "$Blog" 20 ||
	e2e_fail "the new master's sweep has no policy in force: $(grep 'osmqos: sweep' "$Blog" | tail -n 1)"
grep -q "NO POLICY IN FORCE" "$Blog" && e2e_fail "the new master announces no policy"
grep -q "policy NONE" "$Blog" && e2e_fail "a sweep of the new master ran without a policy"
[ "$(sl)" = 0x1 ] ||
	e2e_fail "new master: cn01 -> stor1 not on the policy's SL 1: '$(sl)'"
e2e_log "the standby took over with the last good policy"
e2e_pass
