#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A policy edit while the publish directory's storage stops answering
# writes (a frozen file system) does not stall OpenSM's state manager:
# the policy in force as written goes to the publisher's thread, which
# alone waits on the storage.  With opensm_policy=direct (OpenSM reads the
# policy file itself, so no copy of it is written for OpenSM in that
# sweep), an edit + SIGHUP and then a link going down, all while frozen,
# still reach SUBNET UP and "Removed port" within seconds; once thawed,
# the edit is written as the policy in force.  (With the default
# opensm_policy=copy the SM thread writes OpenSM's copy there itself, in
# the sweep that puts the edit in force: osmqos-plugin(8), publish_dir=.)
# Root only (a loop-mounted file system, fsfreeze), else skipped.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init publish-stall-edit
. "$top_srcdir/tests/e2e/freeze-lib.sh"
freeze_setup
pol=$E2E_DIR/qos-policy.conf
cp "$top_srcdir/tests/e2e/data/program-policy.conf" "$pol"

e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"event_plugin_options=publish_dir=$pub audit=off publish_interval=1 opensm_policy=direct"
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 60 ||
	e2e_fail "the first sweep was not published"
cmp -s "$pol" "$pub/osmqos-policy-in-force.conf" ||
	e2e_fail "the policy in force was not written"

freeze
sleep 2 # the publisher's next write blocks within a second
sed -i 's/^        sl: 1$/        sl: 2/' "$pol"
cmp -s "$pol" "$top_srcdir/tests/e2e/data/program-policy.conf" &&
	e2e_fail "the policy edit changed nothing"
e2e_hup_sweep "SUBNET UP" 20
grep -q "osmqos: policy $pol loaded" "$E2E_OSM_LOG" ||
	e2e_fail "the edit was not loaded"
removed=$(grep -c "Removed port" "$E2E_OSM_LOG")
e2e_ibsim_cmd 'Unlink "cn03"[1]'
e2e_wait_count "Removed port" "$E2E_OSM_LOG" $((removed + 1)) 20 ||
	e2e_fail "a link went down while frozen and OpenSM did not remove its port within 20 s: $(tail -n 3 "$E2E_OSM_LOG")"
e2e_log "frozen: the edit put in force (SUBNET UP), and the unlinked port removed"

thaw
for ((i = 0; i < 100; i++)); do
	cmp -s "$pol" "$pub/osmqos-policy-in-force.conf" && break
	sleep 0.1
done
cmp -s "$pol" "$pub/osmqos-policy-in-force.conf" ||
	e2e_fail "the edit was not written as the policy in force after the thaw"
e2e_log "thawed: the edit written as the policy in force"
e2e_pass
