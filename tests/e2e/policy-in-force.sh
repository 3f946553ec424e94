#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The policy in force, visible, across edits of the file in place: a good
# policy, a bad edit, the file removed, a good edit with bandwidth
# intents.  After each, `osmqos status` names the policy in force and its
# hash (the plugin's copy as written in the publish directory matches it,
# byte for byte), the last rejected edit (or read error) while it is the
# file's
# content, `osmqos drift --in-force` finds 0 drifts, and the audit trail's
# records carry the hash of the policy that decided them (it changes with
# the policy, not with a rejected edit).  Then one VLArb is changed
# behind the SM's back and drift --in-force finds exactly that port.
# Last, opensm stops: status calls the publication stale and exits 1; and
# with no policy at all, the SL2VL in force is the template's.  The text
# says what happened to a rejected edit that is no longer the file's
# content, and names a copy to restore only when it holds the policy in
# force.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init policy-in-force
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
setter=$top_builddir/tests/e2e/smp_set_vlarb
[ -x "$setter" ] || e2e_fail "tests/e2e/smp_set_vlarb is not built (make check builds it)"

pol=$E2E_DIR/qos-policy.conf
pub=$E2E_DIR/pub
audit=$E2E_DIR/audit.json
mkdir -p "$pub"
cp "$top_srcdir/tests/e2e/data/program-policy.conf" "$pol"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"event_plugin_options=publish_dir=$pub audit=$audit publish_interval=5"
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 60 ||
	e2e_fail "plugin did not publish its first sweep"
cn=$(e2e_lid "cn05 HCA-1")
st=$(e2e_lid "stor1 HCA-1")
[ -n "$cn" ] && [ -n "$st" ] || e2e_fail "no LIDs for cn05/stor1"

# status NAME: `osmqos status --json` into NAME.json; its exit status.
status() {
	e2e_osmqos status -d "$pub" --json >"$E2E_DIR/$1.json" \
		2>"$E2E_DIR/$1.err"
}
# drift_in_force NAME [ARGS]: drift against the policy in force.
drift_in_force() {
	local name=$1
	shift
	e2e_sim "$top_builddir/osmqos" drift --in-force -d "$pub" \
		--opensm-conf "$E2E_OSM_CONF" "$@" >"$E2E_DIR/$name.out" \
		2>"$E2E_DIR/$name.err"
}
# audited HASH: a PathRecord towards storage is answered and its audit
# record carries HASH.
audited() {
	e2e_sim saquery -p --slid "$cn" --dlid "$st" >/dev/null 2>&1 ||
		e2e_fail "saquery cn05 -> stor1 failed"
	e2e_wait_for "\"policy_hash\":\"$1\"" "$audit" 10 ||
		e2e_fail "no audit record with the policy hash $1: $(tail -n 1 "$audit")"
}
# clean NAME: drift --in-force finds nothing.
clean() {
	drift_in_force "$1" --sample 4 ||
		e2e_fail "$1: drift --in-force exited $?: $(cat "$E2E_DIR/$1.out" "$E2E_DIR/$1.err")"
	grep -q '^DRIFT' "$E2E_DIR/$1.out" &&
		e2e_fail "$1: drift lines: $(grep '^DRIFT' "$E2E_DIR/$1.out" | head -n 3)"
	grep -q ' 0 table drifts, 0 SA drifts' "$E2E_DIR/$1.out" ||
		e2e_fail "$1: drift does not say 0 drifts: $(cat "$E2E_DIR/$1.out")"
}

# 1. A good policy: in force, its copy as written, no rejection.
status good || e2e_fail "status on a good policy exited $?: $(cat "$E2E_DIR/good.err")"
h1=$(jq -r .policy.hash "$E2E_DIR/good.json")
jq -e --arg p "$pol" '.policy.in_force and .policy.path == $p and
	.policy.load_success and .policy.copy_matches and
	(.policy.hash | test("^0x[0-9a-f]{16}$")) and .rejected == null and
	.sweep >= 1 and .publish_interval_s == 5 and .stale == false' \
	"$E2E_DIR/good.json" >/dev/null ||
	e2e_fail "status of the good policy: $(cat "$E2E_DIR/good.json")"
cmp -s "$pol" "$pub/osmqos-policy-in-force.conf" ||
	e2e_fail "the copy as written is not the operator's file"
grep -q "policy $pol loaded: .*; hash $h1\$" "$E2E_OSM_LOG" ||
	e2e_fail "the plugin's load line does not give the hash $h1"
grep -q "policy in force, loaded [0-9T:-]*Z hash $h1;" "$E2E_OSM_LOG" ||
	e2e_fail "the sweep line does not name the policy in force"
audited "$h1"
clean good-drift
e2e_log "good: hash $h1, status, copy, audit trail and drift agree"

# 2. A bad edit: rejected; the same policy stays in force and is audited.
# The policy in force as written, edited by hand meanwhile, is written
# again (drift --in-force and status read it as the policy in force).
cp "$pol" "$E2E_DIR/good.conf"
echo "# edited by hand" >>"$pub/osmqos-policy-in-force.conf"
sed -i '0,/^    qos-level$/s//    qos-levle/' "$pol"
e2e_hup_sweep "osmqos: sweep 2: published" 60
cmp -s "$E2E_DIR/good.conf" "$pub/osmqos-policy-in-force.conf" ||
	e2e_fail "the edited policy in force as written was not written again"
grep -q "policy $pol rejected" "$E2E_OSM_LOG" || e2e_fail "the bad edit was not rejected"
status bad
rc=$?
[ "$rc" = 1 ] || e2e_fail "status after a rejected edit exited $rc, want 1"
jq -e --arg p "$pol" --arg h "$h1" '.policy.in_force and .policy.hash == $h and
	(.policy.load_success | not) and .policy.copy_matches and
	.rejected.path == $p and .rejected.hash != $h and .rejected.current and
	(.rejected.error | test(": error: unknown keyword .qos-levle.")) and
	.rejected.at_epoch >= .policy.loaded_at_epoch' \
	"$E2E_DIR/bad.json" >/dev/null ||
	e2e_fail "status after the bad edit: $(cat "$E2E_DIR/bad.json")"
e2e_osmqos status -d "$pub" >"$E2E_DIR/bad.txt" 2>&1
grep -q "^policy in force: $pol\$" "$E2E_DIR/bad.txt" &&
	grep -q "^  hash $h1, loaded " "$E2E_DIR/bad.txt" &&
	grep -q "^last rejected edit: $pol, hash 0x" "$E2E_DIR/bad.txt" &&
	grep -q "^  the file's current content is not in force: .*, or restore the copy above\$" "$E2E_DIR/bad.txt" ||
	e2e_fail "status text after the bad edit: $(cat "$E2E_DIR/bad.txt")"
# The copy as written no longer the policy in force: the way back is
# OpenSM's copy, named; "the copy above" would point at another policy.
cp "$pub/osmqos-policy-in-force.conf" "$E2E_DIR/copy.conf"
echo "# edited by hand" >>"$pub/osmqos-policy-in-force.conf"
e2e_osmqos status -d "$pub" >"$E2E_DIR/nocopy.txt" 2>&1
grep -q "^  as written: .* holds another policy" "$E2E_DIR/nocopy.txt" &&
	grep -q "^  the file's current content is not in force: .*, or restore $pub/osmqos-last-good-policy.conf\$" "$E2E_DIR/nocopy.txt" &&
	! grep -q "the copy above" "$E2E_DIR/nocopy.txt" ||
	e2e_fail "status text with another copy as written: $(cat "$E2E_DIR/nocopy.txt")"
cp "$E2E_DIR/copy.conf" "$pub/osmqos-policy-in-force.conf"
# The operator's file no longer parses; the policy in force still does.
e2e_sim "$top_builddir/osmqos" drift --policy "$pol" --sample 0 >/dev/null 2>&1
[ $? = 1 ] || e2e_fail "drift --policy on the rejected file should exit 1 (invalid)"
lines=$(wc -l <"$audit")
audited "$h1"
clean bad-drift
e2e_log "bad edit: rejected, $h1 stays in force, audited and clean"
# The content in force put back, no SIGHUP yet: status reads the file and
# sees it is in force again (the plugin's record still says rejected).
cp "$pol" "$E2E_DIR/bad.conf"
cp "$E2E_DIR/good.conf" "$pol"
status restored || e2e_fail "status with the content in force restored exited $?"
jq -e '.policy.file == "in_force" and (.rejected.current | not)' \
	"$E2E_DIR/restored.json" >/dev/null ||
	e2e_fail "status with the content in force restored: $(cat "$E2E_DIR/restored.json")"
# Nothing was loaded since the rejection: the text says what the file
# holds, not that a later content was loaded.
e2e_osmqos status -d "$pub" >"$E2E_DIR/restored.txt" 2>&1
grep -q "^  since put back: the file holds the policy in force again, not read since\$" \
	"$E2E_DIR/restored.txt" && ! grep -q "since fixed" "$E2E_DIR/restored.txt" ||
	e2e_fail "status text with the content in force restored: $(cat "$E2E_DIR/restored.txt")"
# Another good content, no SIGHUP: the rejected edit is superseded by an
# edit not loaded yet, which the next line names.
{ cat "$E2E_DIR/good.conf"; echo "# another edit"; } >"$pol"
e2e_osmqos status -d "$pub" >"$E2E_DIR/superseded.txt" 2>&1
grep -q "^  superseded by an edit not loaded yet (below)\$" "$E2E_DIR/superseded.txt" &&
	grep -q "^policy file: edited since the plugin read it .*, not loaded yet" "$E2E_DIR/superseded.txt" &&
	! grep -q "since fixed" "$E2E_DIR/superseded.txt" ||
	e2e_fail "status text with an edit after the rejected one: $(cat "$E2E_DIR/superseded.txt")"
cp "$E2E_DIR/bad.conf" "$pol"

# 2b. The file removed: the policy stays, and status says the file no
# longer holds it (exit 1), with the read error.
rm -f "$pol"
e2e_hup_sweep "osmqos: sweep 3: published" 60
status gone
rc=$?
[ "$rc" = 1 ] || e2e_fail "status with the policy file removed exited $rc, want 1"
jq -e --arg p "$pol" --arg h "$h1" '.policy.in_force and .policy.hash == $h and
	(.policy.load_success | not) and .rejected.path == $p and
	.rejected.current and
	(.rejected.error | test(": cannot read: No such file or directory$"))' \
	"$E2E_DIR/gone.json" >/dev/null ||
	e2e_fail "status with the policy file removed: $(cat "$E2E_DIR/gone.json")"
e2e_log "file removed: $h1 stays in force, status exits 1 and says why"

# 3. A good edit with bandwidth intents: a new hash everywhere.
cp "$top_srcdir/contrib/policies/intents.conf" "$pol"
e2e_hup_sweep "osmqos: sweep 4: published" 60
status intents || e2e_fail "status after the intents edit exited $?: $(cat "$E2E_DIR/intents.json")"
h3=$(jq -r .policy.hash "$E2E_DIR/intents.json")
[ "$h3" != "$h1" ] || e2e_fail "the hash did not change with the policy"
jq -e '.policy.in_force and .policy.load_success and .policy.copy_matches and
	(.rejected.current | not)' "$E2E_DIR/intents.json" >/dev/null ||
	e2e_fail "status after the intents edit: $(cat "$E2E_DIR/intents.json")"
cmp -s "$pol" "$pub/osmqos-policy-in-force.conf" &&
	grep -q '^ *bandwidth: ' "$pub/osmqos-policy-in-force.conf" ||
	e2e_fail "the copy as written lost the intents"
audited "$h3"
# Records decided while the rejected edit was the file carry the old hash.
tail -n "+$((lines + 1))" "$audit" | grep -q "\"policy_hash\":\"$h1\"" ||
	e2e_fail "no record of the old policy after the bad edit"
clean intents-drift
e2e_log "intents: hash $h3, status, copy, audit trail and drift agree"
# An edit not loaded yet (no SIGHUP): status says so and exits 1; the
# same bytes back, it is in force again.
cp "$pol" "$E2E_DIR/intents.conf"
echo "# an edit not loaded yet" >>"$pol"
status edited
rc=$?
[ "$rc" = 1 ] && jq -e '.policy.file == "edited"' "$E2E_DIR/edited.json" >/dev/null ||
	e2e_fail "status with an edit not loaded: exit $rc, $(cat "$E2E_DIR/edited.json")"
e2e_osmqos status -d "$pub" >"$E2E_DIR/edited.txt" 2>&1
grep -q "^policy file: edited since the plugin read it .*, not loaded yet" \
	"$E2E_DIR/edited.txt" || e2e_fail "status text: $(cat "$E2E_DIR/edited.txt")"
cp "$E2E_DIR/intents.conf" "$pol"
status intents-again || e2e_fail "status with the content in force back exited $?"
e2e_log "an edit not loaded yet: status exit 1 and says so; back: exit 0"

# 4. One VLArb changed behind the SM's back (leaf01 port 1, directed
# route 0,1 from spine01): exactly that port, against the policy in force.
e2e_sim "$setter" 0,1 1 low 0:1 || e2e_fail "the SMP Set was refused"
drift_in_force drift --sample 0 --json --all
rc=$?
[ "$rc" = 1 ] || e2e_fail "drift --in-force after the Set exited $rc, want 1: $(cat "$E2E_DIR/drift.err")"
jq -e --arg h "$h3" '.in_force and .policy_hash == $h and .drift_count == 1 and
	(.classes | length) == 1 and .classes[0].ports == 1 and
	.drifts[0].kind == "vlarb_low" and .drifts[0].node == "leaf01" and
	.drifts[0].port == 1' "$E2E_DIR/drift.out" >/dev/null ||
	e2e_fail "drift after the Set: $(cat "$E2E_DIR/drift.out")"
e2e_log "deliberate drift: one port, leaf01 port 1"

# 5. opensm stopped: the file is no longer rewritten every 5 s, and after
# two intervals and 5 s status says stale and exits 1 (it exited 0 just
# before, with the same policy in force).
status before-stop || e2e_fail "status before the stop exited $?: $(cat "$E2E_DIR/before-stop.json")"
e2e_stop_opensm
for ((i = 0; i < 50; i++)); do
	status stopped
	rc=$?
	jq -e .stale "$E2E_DIR/stopped.json" >/dev/null && break
	[ "$rc" = 0 ] || e2e_fail "status exited $rc, not stale: $(cat "$E2E_DIR/stopped.json")"
	sleep 0.5
done
[ "$rc" = 1 ] || e2e_fail "status on a stale publication exited $rc, want 1"
jq -e '.stale and .policy.in_force and .publish_interval_s == 5' \
	"$E2E_DIR/stopped.json" >/dev/null ||
	e2e_fail "status 25 s after opensm stopped: $(cat "$E2E_DIR/stopped.json")"
age=$(jq 'now - .published_at_epoch | floor' "$E2E_DIR/stopped.json")
[ "$age" -ge 15 ] || e2e_fail "stale after $age s, before two intervals and 5 s"
e2e_osmqos status -d "$pub" >"$E2E_DIR/stopped.txt" 2>&1
[ $? = 1 ] && grep -q "stale: the SM rewrites it every 5 s" "$E2E_DIR/stopped.txt" ||
	e2e_fail "status text with opensm stopped: $(cat "$E2E_DIR/stopped.txt")"
e2e_log "opensm stopped: status stale after $age s, exit 1"

# 6. No policy in force (the file never existed): the ports keep OpenSM's
# templates, and the plugin and status say the SL2VL is the template's.
# The policy in force of the run before goes too: at start it would be
# put in force again (policy-restart.sh).
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-1.log"
rm "$pub/osmqos-policy-in-force.conf"
e2e_start_opensm qos=TRUE "qos_policy_file=$E2E_DIR/no-such-policy.conf" \
	"event_plugin_options=publish_dir=$pub audit=$audit publish_interval=5"
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 60 ||
	e2e_fail "plugin did not publish its first sweep without a policy"
status none
jq -e '(.policy.in_force | not) and .routing_engine.sl2vl == "template"' \
	"$E2E_DIR/none.json" >/dev/null ||
	e2e_fail "status without a policy: $(cat "$E2E_DIR/none.json")"
e2e_osmqos status -d "$pub" >"$E2E_DIR/none.txt" 2>&1
grep -q "^tables: heavy sweep [0-9]* (routing engine [^,]*, SL2VL from OpenSM's template, qos_sl2vl); " \
	"$E2E_DIR/none.txt" ||
	e2e_fail "status text without a policy: $(cat "$E2E_DIR/none.txt")"
e2e_stop_opensm
e2e_log "no policy: SL2VL from the template"
e2e_pass
