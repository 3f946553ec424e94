#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# osmqos drift on a live (simulated) fabric: clean after the plugin
# programmed it (exit 0, no DRIFT line, JSON "clean": true), from a
# switch and from a CA; then one port's VLArb is changed behind the SM's
# back with an SMP Set and, before any resweep (sweep_interval 0), drift
# exits 1 and names exactly that port, as one class of one port (and with
# --all as one line); a resweep does not repair it (OpenSM diffs against
# its cache) and per-input SL2VL reads the right way round, 32 tables in
# one class; drift gives the repair (text and JSON), and the port's link
# bounced it is clean; a policy other than the SM's shows as SA drift; the former
# name `osmqos audit` still works; partitions that refuse pairs are clean
# with the SM's opensm.conf (given, or as the plugin publishes it) and
# noted without it; a policy naming ports
# by the SM's node-name map is clean, and drift names nodes by the map;
# errors exit 2.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init drift-live
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
setter=$top_builddir/tests/e2e/smp_set_vlarb
[ -x "$setter" ] || e2e_fail "tests/e2e/smp_set_vlarb is not built (make check builds it)"

pol=$E2E_DIR/qos-policy.conf
cp "$top_srcdir/tests/e2e/data/program-policy.conf" "$pol"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol"
e2e_wait_for "osmqos: sweep 1: " "$E2E_OSM_LOG" 60 ||
	e2e_fail "plugin did not finish its first sweep"

# drift NAME [SIM_HOST] [ARGS...]: run it, keep stdout/stderr, return rc.
drift() {
	local name=$1 host=$2
	shift 2
	SIM_HOST=$host e2e_sim "$top_builddir/osmqos" drift --policy "$pol" \
		--opensm-conf "$E2E_OSM_CONF" "$@" \
		>"$E2E_DIR/$name.out" 2>"$E2E_DIR/$name.err"
}

# 1. Clean fabric, attached at the SM's switch: exit 0, no drift line.
drift clean ""
rc=$?
cat "$E2E_DIR/clean.out" "$E2E_DIR/clean.err"
[ "$rc" = 0 ] || e2e_fail "drift on a freshly programmed fabric exited $rc"
grep -q '^DRIFT' "$E2E_DIR/clean.out" && e2e_fail "clean check printed a DRIFT line"
grep -q '^drift: 22 nodes, ' "$E2E_DIR/clean.out" ||
	e2e_fail "clean check did not see the 22 nodes of fat-tree-16"
grep -q ' 0 table drifts, 0 SA drifts; VLHighLimit not checked$' "$E2E_DIR/clean.out" ||
	e2e_fail "clean summary does not say 0 drifts"
grep -q 'SA pairs' "$E2E_DIR/clean.out" || e2e_fail "no SA pairs line"
# ibsim answers VLHighLimit 0 while the policy sets 10/4: not compared,
# and drift says so.
grep -q 'VLHighLimit not compared' "$E2E_DIR/clean.err" ||
	e2e_fail "no note about VLHighLimit under ibsim"

# 2. The same from a CA (a CA's own port is the start of every route).
drift clean-ca cn05 --json || e2e_fail "drift from cn05 exited $?: $(cat "$E2E_DIR/clean-ca.err")"
jq -e '.clean == true and .drift_count == 0 and .classes == [] and
	.sa_classes == [] and (has("drifts") | not) and .in_force == false
	and .nodes == 22 and .sa_pairs == 16 and .sa_levels == 2
	and .vl_high_limit_checked == false and .ports_compared > 30' \
	"$E2E_DIR/clean-ca.out" >/dev/null ||
	e2e_fail "JSON of the clean check from cn05 is not clean: $(cat "$E2E_DIR/clean-ca.out")"
e2e_log "clean: $(jq -c '{nodes, ports_compared, smps, sa_pairs, sa_levels}' "$E2E_DIR/clean-ca.out")"

# --no-vlhl is honoured; --sample 0 skips the SA.
drift novlhl "" --no-vlhl --sample 0 --json || e2e_fail "--no-vlhl --sample 0 exited $?"
jq -e '.sa_pairs == 0 and (.notes | length) == 2' "$E2E_DIR/novlhl.out" >/dev/null ||
	e2e_fail "--no-vlhl/--sample 0 not reflected: $(cat "$E2E_DIR/novlhl.out")"

# 3. Behind the SM's back: leaf01 port 1 (towards stor1) gets another
# low-priority VLArb (the policy gives it 2:64,3:32,4:16).  Directed
# route 0,1 from spine01 (where clients attach by default) is leaf01.
e2e_sim "$setter" 0,1 1 low 2:8,3:8,4:8 || e2e_fail "the SMP Set was refused"
drift drift ""
rc=$?
cat "$E2E_DIR/drift.out"
[ "$rc" = 1 ] || e2e_fail "drift after the change exited $rc, want 1: $(cat "$E2E_DIR/drift.err")"
[ "$(grep -c '^DRIFT' "$E2E_DIR/drift.out")" = 1 ] ||
	e2e_fail "want exactly one DRIFT line"
grep -q '^DRIFT vlarb_low: 1 switch external port, like 0x[0-9a-f]* "leaf01" port 1 lid [0-9]*: expected 2:64,3:32,4:16 found 2:8,3:8,4:8$' \
	"$E2E_DIR/drift.out" || e2e_fail "the DRIFT line does not name one port, leaf01 port 1, and both tables"
grep -q ' 1 table drift, 0 SA drifts in 1 class (--all lists each);' "$E2E_DIR/drift.out" ||
	e2e_fail "the summary line does not count one drift in one class"
drift drift-all "" --all
[ "$(grep -c '^DRIFT' "$E2E_DIR/drift-all.out")" = 1 ] &&
	grep -q '^DRIFT vlarb_low 0x[0-9a-f]* "leaf01" port 1 lid [0-9]*: expected 2:64,3:32,4:16 found 2:8,3:8,4:8$' \
		"$E2E_DIR/drift-all.out" ||
	e2e_fail "--all does not list the one port: $(cat "$E2E_DIR/drift-all.out")"

# The JSON names it too: one class of one port, and with --all the drift.
drift drift-json "" --json --all
rc=$?
[ "$rc" = 1 ] || e2e_fail "JSON drift check after the change exited $rc"
jq -e '.clean == false and .drift_count == 1 and (.classes | length) == 1 and
	.classes[0].kind == "vlarb_low" and .classes[0].ports == 1 and
	.classes[0].role == "switch external port" and
	.classes[0].example.node == "leaf01" and .classes[0].example.port == 1 and
	.drifts[0].kind == "vlarb_low" and .drifts[0].node == "leaf01" and
	.drifts[0].port == 1 and .drifts[0].expected == [[2, 64], [3, 32], [4, 16]] and
	.drifts[0].found == [[2, 8], [3, 8], [4, 8]]' "$E2E_DIR/drift-json.out" >/dev/null ||
	e2e_fail "JSON drift wrong: $(cat "$E2E_DIR/drift-json.out")"
# Every key and type docs/json.md ("osmqos drift") promises.
schema='def guid: type == "string" and test("^0x[0-9a-f]{16}$");
	def num: type == "number";
	def table: (.kind | IN("sl2vl", "vlarb_high", "vlarb_low", "vl_high_limit")) and
	  (.guid | guid) and (.node_guid | guid) and (.node | type == "string") and
	  (.port | num) and (.lid | num) and (.in_port == null or (.in_port | num)) and
	  has("expected") and has("found");
	def sa: (.kind | startswith("sa_")) and (.src | guid) and (.dst | guid) and
	  (.src_name | type == "string") and (.dst_name | type == "string") and
	  (.src_lid | num) and (.dst_lid | num) and (.rule == null or (.rule | num)) and
	  (.level == null or (.level | type == "string")) and has("expected") and has("found");
	(.policy | type == "string") and (.policy_hash | guid) and
	(.in_force | type == "boolean") and (.local_port.ca | type == "string") and
	(.local_port.port | num) and (.local_port.guid | guid) and
	(.nodes | num) and (.ports_compared | num) and (.smps | num) and
	(.sa_pairs | num) and (.sa_levels | num) and
	(.vl_high_limit_checked | type == "boolean") and
	(.notes | all(type == "string")) and (.drift_count | num) and
	(.sa_error == null or (.sa_error | type == "string")) and
	(.clean | type == "boolean") and
	(.classes | all((.example | table) and (.role | type == "string") and
	  (.ports | num) and (.tables | num) and .kind == .example.kind)) and
	(.sa_classes | all((.example | sa) and (.pairs | num) and .kind == .example.kind)) and
	.drift_count == ([.classes[].tables] + [.sa_classes[].pairs] | add // 0) and
	((has("drifts") | not) or
	 (.drift_count == (.drifts | length) + (.sa_drifts | length) and
	  (.drifts | all(table)) and (.sa_drifts | all(sa))))'
jq -e "$schema" "$E2E_DIR/drift-json.out" >/dev/null ||
	e2e_fail "drift JSON does not match docs/json.md"

# 3b. A resweep does not repair it (OpenSM diffs against its cache), and
# per-input SL2VL is read the right way round: the switches get another
# table from their uplinks (inputs 5, 6) towards the hosts (outputs 1-4),
# on VLs 0-3, which every vlarb-scope weights (no scope is withheld).
cp "$pol" "$E2E_DIR/before.conf"
awk '/^    sl2vl-tables$/ { print; print "        sl2vl-scope";
	print "            group: switches"; print "            from: 5,6";
	print "            to: 1-4";
	print "            sl2vl-table: 3,2,1,0,3,2,1,0,3,2,1,0,3,2,1,0";
	print "        end-sl2vl-scope"; next } { print }' \
	"$E2E_DIR/before.conf" >"$pol"
kill -HUP "$E2E_OPENSM_PID"
e2e_wait_for "osmqos: sweep 2: " "$E2E_OSM_LOG" 60 || e2e_fail "no second sweep"
drift resweep ""
rc=$?
[ "$rc" = 1 ] || e2e_fail "after a resweep drift exited $rc, want 1 (the VLArb change stays)"
[ "$(grep -c '^DRIFT' "$E2E_DIR/resweep.out")" = 1 ] &&
	grep -q '^DRIFT vlarb_low: 1 switch external port, like [^ ]* "leaf01" port 1 ' "$E2E_DIR/resweep.out" ||
	e2e_fail "after the resweep want only the leaf01 VLArb drift: $(cat "$E2E_DIR/resweep.out")"
# Against the previous policy: inputs 5 and 6 of every leaf host port,
# 32 tables, one class; --all lists them.
SIM_HOST= e2e_sim "$top_builddir/osmqos" drift --policy "$E2E_DIR/before.conf" \
	--opensm-conf "$E2E_OSM_CONF" --sample 0 --all >"$E2E_DIR/before.out" 2>/dev/null
n=$(grep -c '^DRIFT sl2vl [^ ]* "leaf0[1-4]" port [1-4] in [56] lid [0-9]*: expected 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7 found 3,2,1,0,3,2,1,0,3,2,1,0,3,2,1,0$' "$E2E_DIR/before.out")
[ "$n" = 32 ] || e2e_fail "want 32 per-input SL2VL drifts against the old policy, got $n"
[ "$(grep -c '^DRIFT' "$E2E_DIR/before.out")" = 33 ] ||
	e2e_fail "unexpected drift lines against the old policy"
SIM_HOST= e2e_sim "$top_builddir/osmqos" drift --policy "$E2E_DIR/before.conf" \
	--opensm-conf "$E2E_OSM_CONF" --sample 0 >"$E2E_DIR/before-classes.out" 2>/dev/null
[ "$(grep -c '^DRIFT' "$E2E_DIR/before-classes.out")" = 2 ] &&
	grep -q '^DRIFT sl2vl: 32 tables on 16 switch external ports, like [^ ]* "leaf0[1-4]" port [1-4] in [56] lid [0-9]*: expected 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7 found 3,2,1,0,3,2,1,0,3,2,1,0,3,2,1,0$' \
		"$E2E_DIR/before-classes.out" ||
	e2e_fail "the 32 SL2VL drifts are not one class: $(cat "$E2E_DIR/before-classes.out")"
# --no-sl2vl (for routing engines that own SL2VL) leaves only the VLArb;
# the former name `audit` runs the same check.
SIM_HOST= e2e_sim "$top_builddir/osmqos" audit --policy "$E2E_DIR/before.conf" \
	--opensm-conf "$E2E_OSM_CONF" --sample 0 --no-sl2vl >"$E2E_DIR/nosl2vl.out" 2>/dev/null
[ "$(grep -c '^DRIFT' "$E2E_DIR/nosl2vl.out")" = 1 ] &&
	grep -q '^DRIFT vlarb_low: 1 switch external port' "$E2E_DIR/nosl2vl.out" ||
	e2e_fail "--no-sl2vl still compared SL2VL: $(cat "$E2E_DIR/nosl2vl.out")"
e2e_log "resweep: VLArb change persists; per-input SL2VL read the right way round"

# 3c. drift says how to repair it (text and JSON "fix"), and the repair
# it gives works: the drifted port's link bounced, OpenSM sets its tables
# again and drift is clean, with no advice ("fix": null).
grep -qx 'drift: a resweep (SIGHUP) rewrites no SL2VL or VLArb table: .*bounce each drifted port.s link (`ibportstate LID PORT reset`, .*) or restart opensm, .*' \
	"$E2E_DIR/resweep.out" ||
	e2e_fail "the table drift comes without the repair: $(cat "$E2E_DIR/resweep.out")"
jq -e '.fix | type == "string" and test("ibportstate LID PORT reset")' \
	"$E2E_DIR/drift-json.out" >/dev/null ||
	e2e_fail "JSON drift has no fix: $(cat "$E2E_DIR/drift-json.out")"
# ibsim leaves a port ibportstate resets in Polling (it does not train
# links), so the bounce is its console's: leaf01 port 1 unlinked, a
# sweep that sees it down, relinked, a sweep that brings it up.
for cmd in 'Unlink "leaf01"[1]' 'ReLink "leaf01"[1]'; do
	e2e_ibsim_cmd "$cmd"
	sleep 1
	e2e_hup_sweep "osmqos: sweep [0-9]*: " 60
done
drift repaired "" --json
rc=$?
[ "$rc" = 0 ] && jq -e '.clean and .fix == null' "$E2E_DIR/repaired.out" >/dev/null ||
	e2e_fail "after the bounce drift exited $rc: $(cat "$E2E_DIR/repaired.out" "$E2E_DIR/repaired.err")"
e2e_log "repair: the bounced port got its tables again"

# 4. A policy other than the SM's: its storage level wants SL 2 and sets
# limits the SA's answers (SL 1, MTU 2048, ...) break; the tables agree.
sed 's/^\(        sl: \)1$/\12\n        mtu-limit: 1\n        rate-limit: 2\n        packet-life: 10\n        pkey: 0x1234/' \
	"$pol" >"$E2E_DIR/other.conf"
grep -q '        pkey: 0x1234' "$E2E_DIR/other.conf" || e2e_fail "test policy edit failed"
SIM_HOST=cn05 e2e_sim "$top_builddir/osmqos" drift --policy "$E2E_DIR/other.conf" \
	--opensm-conf "$E2E_OSM_CONF" --json --all >"$E2E_DIR/sa.out" 2>"$E2E_DIR/sa.err"
rc=$?
[ "$rc" = 1 ] || e2e_fail "drift with another policy exited $rc, want 1"
# The SA's rate is the path's: 7 (40 Gb/s, QDR links) or 12 (56 Gb/s)
# where every link on the way is FDR.
jq -e '(.sa_drifts | length) > 0 and
	all(.sa_drifts[]; .level == "storage" and (.dst_name | startswith("stor"))) and
	([.sa_drifts[] | select(.kind != "sa_rate") | [.kind, .expected, .found]] | unique) ==
	[["sa_mtu", "<=1", 4], ["sa_pkey", "level storage", 65535],
	 ["sa_pkt_life", 10, 18], ["sa_sl", 2, 1]] and
	([.sa_drifts[] | select(.kind == "sa_rate") | .expected] | unique) == ["<=2"] and
	all(.sa_drifts[] | select(.kind == "sa_rate"); .found == 7 or .found == 12)' \
	"$E2E_DIR/sa.out" >/dev/null ||
	e2e_fail "SA drifts towards storage not as expected: $(cat "$E2E_DIR/sa.out")"
jq -e "$schema" "$E2E_DIR/sa.out" >/dev/null || e2e_fail "SA drift JSON does not match docs/json.md"
e2e_log "other policy: $(jq '[.sa_drifts[] | [.src, .dst]] | unique | length' "$E2E_DIR/sa.out") storage pairs drift (SL, MTU, rate, packet life, P_Key), as expected"

# 5. The SM's partitions refuse pairs (every CA a limited member of
# Default): with the SM's opensm.conf drift knows it and is clean; without
# it, its model has Default full, so the refusals show as SA drift, and a
# note says what the model assumed and what to give.
e2e_stop_opensm
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-1.log"
echo 'Default=0x7fff : ALL=limited, SELF=full ;' >"$E2E_DIR/partitions.conf"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"partition_config_file=$E2E_DIR/partitions.conf"
e2e_wait_for "osmqos: sweep 1: " "$E2E_OSM_LOG" 60 ||
	e2e_fail "plugin did not finish its first sweep (limited Default)"
drift limited cn05 || e2e_fail "drift with the SM's partitions exited $?: $(cat "$E2E_DIR/limited.err")"
# Without --opensm-conf drift takes the one the plugin publishes that
# opensm runs with, and says so: clean too.
SIM_HOST=cn05 e2e_sim "$top_builddir/osmqos" drift --policy "$pol" \
	>"$E2E_DIR/published.out" 2>"$E2E_DIR/published.err"
rc=$?
[ "$rc" = 0 ] && grep -qxF "osmqos drift: note: opensm.conf: $E2E_OSM_CONF, the running opensm's (as its osmqos publishes); --opensm-conf gives another" \
	"$E2E_DIR/published.err" ||
	e2e_fail "drift with the published opensm.conf: rc $rc, $(cat "$E2E_DIR/published.out" "$E2E_DIR/published.err")"
# Where none is published (another directory), the built-in defaults,
# with notes saying so.
mkdir -p "$E2E_DIR/nothing"
SIM_HOST=cn05 e2e_sim "$top_builddir/osmqos" drift --policy "$pol" \
	--publish-dir "$E2E_DIR/nothing" \
	>"$E2E_DIR/nopart.out" 2>"$E2E_DIR/nopart.err"
rc=$?
[ "$rc" = 1 ] && grep -q '^DRIFT sa_status: ' "$E2E_DIR/nopart.out" &&
	grep -q "osmqos drift: note: the SA refused pairs the model has in one partition, and the model knows only the Default partition" \
		"$E2E_DIR/nopart.err" &&
	grep -qF "osmqos drift: note: no --opensm-conf, and no opensm.conf published in $E2E_DIR/nothing: compiled with OpenSM's built-in QoS templates" \
		"$E2E_DIR/nopart.err" ||
	e2e_fail "drift without the SM's partitions: rc $rc, $(cat "$E2E_DIR/nopart.err")"
e2e_log "limited Default: clean with the SM's opensm.conf, given or published; without it, refusals as drift with the notes"

# 5b. No SM (opensm stopped; the switches keep what it programmed): the
# SA does not answer, and the table comparison is still reported.  Clean
# tables: no verdict, exit 2, sa_error says why.  One VLArb changed: exit
# 1, the drift listed.
e2e_stop_opensm
drift nosm cn05 --timeout 200 --json
rc=$?
[ "$rc" = 2 ] && jq -e '(.sa_error | type) == "string" and .clean == false and
	.drift_count == 0 and .ports_compared > 0' "$E2E_DIR/nosm.out" >/dev/null &&
	grep -q "osmqos drift: SA check: " "$E2E_DIR/nosm.err" ||
	e2e_fail "drift with no SM: rc $rc, $(cat "$E2E_DIR/nosm.out" "$E2E_DIR/nosm.err")"
jq -e "$schema" "$E2E_DIR/nosm.out" >/dev/null || e2e_fail "drift JSON with no SM does not match docs/json.md"
e2e_sim "$setter" 0,1 1 low 2:8,3:8,4:8 || e2e_fail "the SMP Set was refused (no SM)"
drift nosm-drift cn05 --timeout 200
rc=$?
[ "$rc" = 1 ] && grep -q '^DRIFT vlarb_low: .*leaf01' "$E2E_DIR/nosm-drift.out" &&
	grep -q "1 table drift, 0 SA drifts in 1 class .*; the SA check failed (its error is on stderr)" "$E2E_DIR/nosm-drift.out" &&
	grep -q "note: the SA check failed (sa_error)" "$E2E_DIR/nosm-drift.err" ||
	e2e_fail "drift with no SM and a changed VLArb: rc $rc, $(cat "$E2E_DIR/nosm-drift.out" "$E2E_DIR/nosm-drift.err")"
e2e_log "no SM: tables compared all the same ($(jq .ports_compared "$E2E_DIR/nosm.out") ports), exit 2 when clean, 1 with a drift"

# 5c. Names from OpenSM's node-name map: the SM runs with a map and a
# policy naming stor1 and cn01 by their mapped names.  drift, given the
# SM's opensm.conf (or the map as --node-name-map, or the opensm.conf
# the plugin publishes; the policy in force found by the publish_dir= of
# the opensm.conf given), binds the policy as the SM did: clean.  A drift
# on stor1's port names it by the map.
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-2.log"
map=$E2E_DIR/node-name-map
printf '0x0000000000100000 "storage-a adapter"\n0x0000000000100002 "compute 01"\n' >"$map"
sed -e 's|stor1 HCA-1/P1|"storage-a adapter/P1"|' -e 's|cn01 HCA-1/P1|"compute 01/P1"|' \
	"$top_srcdir/tests/e2e/data/program-policy.conf" >"$E2E_DIR/mapped.conf"
grep -q '"storage-a adapter/P1"' "$E2E_DIR/mapped.conf" &&
	grep -q '"compute 01/P1"' "$E2E_DIR/mapped.conf" || e2e_fail "test policy edit failed"
pub=$E2E_DIR/pub-mapped
mkdir -p "$pub"
e2e_start_opensm qos=TRUE "qos_policy_file=$E2E_DIR/mapped.conf" "node_name_map_name=$map" \
	"event_plugin_options=publish_dir=$pub"
e2e_wait_for "osmqos: sweep 1: " "$E2E_OSM_LOG" 60 ||
	e2e_fail "plugin did not finish its first sweep (node-name map)"
pol=$E2E_DIR/mapped.conf
drift mapped ""
rc=$?
[ "$rc" = 0 ] && ! grep -q '^DRIFT' "$E2E_DIR/mapped.out" ||
	e2e_fail "drift with the SM's node-name map (opensm.conf) exited $rc: $(cat "$E2E_DIR/mapped.out" "$E2E_DIR/mapped.err")"
# The policy in force from the publish_dir= of the opensm.conf given;
# then, given only that directory, the opensm.conf it publishes (and so
# the map): clean both ways.
SIM_HOST= e2e_sim "$top_builddir/osmqos" drift --opensm-conf "$E2E_OSM_CONF" \
	>"$E2E_DIR/mapped-dir.out" 2>"$E2E_DIR/mapped-dir.err"
rc=$?
[ "$rc" = 0 ] && ! grep -q '^DRIFT' "$E2E_DIR/mapped-dir.out" ||
	e2e_fail "drift -c (its publish_dir=) exited $rc: $(cat "$E2E_DIR/mapped-dir.out" "$E2E_DIR/mapped-dir.err")"
SIM_HOST= e2e_sim "$top_builddir/osmqos" drift --publish-dir "$pub" \
	>"$E2E_DIR/mapped-pub.out" 2>"$E2E_DIR/mapped-pub.err"
rc=$?
[ "$rc" = 0 ] && ! grep -q '^DRIFT' "$E2E_DIR/mapped-pub.out" &&
	grep -qF "note: opensm.conf: $E2E_OSM_CONF, the running opensm's" "$E2E_DIR/mapped-pub.err" ||
	e2e_fail "drift with the published opensm.conf (map) exited $rc: $(cat "$E2E_DIR/mapped-pub.out" "$E2E_DIR/mapped-pub.err")"
e2e_osmqos status --opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/mapped-status.out" 2>&1 ||
	e2e_fail "status -c (its publish_dir=): $(cat "$E2E_DIR/mapped-status.out")"
grep -qF "published in $pub at " "$E2E_DIR/mapped-status.out" ||
	e2e_fail "status -c read another directory: $(cat "$E2E_DIR/mapped-status.out")"
SIM_HOST= e2e_sim "$top_builddir/osmqos" drift --policy "$pol" --node-name-map "$map" \
	>"$E2E_DIR/mapped-opt.out" 2>"$E2E_DIR/mapped-opt.err"
rc=$?
[ "$rc" = 0 ] && ! grep -q '^DRIFT' "$E2E_DIR/mapped-opt.out" ||
	e2e_fail "drift --node-name-map exited $rc: $(cat "$E2E_DIR/mapped-opt.out" "$E2E_DIR/mapped-opt.err")"
# Directed route 0,1,1 from spine01: leaf01, then its port 1, stor1.
e2e_sim "$setter" 0,1,1 1 low 2:8,3:8,4:8 || e2e_fail "the SMP Set on stor1 was refused"
drift mapped-drift "" --all --sample 0
rc=$?
[ "$rc" = 1 ] && [ "$(grep -c '^DRIFT' "$E2E_DIR/mapped-drift.out")" = 1 ] &&
	grep -q '^DRIFT vlarb_low 0x0000000000100001 "storage-a adapter" port 1 lid [0-9]*: expected .* found 2:8,3:8,4:8$' \
		"$E2E_DIR/mapped-drift.out" ||
	e2e_fail "the drift on stor1 is not named by the map: rc $rc, $(cat "$E2E_DIR/mapped-drift.out" "$E2E_DIR/mapped-drift.err")"
drift mapped-json "" --all --sample 0 --json
jq -e '.drifts[0].node == "stor1 HCA-1" and .drifts[0].name == "storage-a adapter/P1"' \
	"$E2E_DIR/mapped-json.out" >/dev/null ||
	e2e_fail "JSON does not give the NodeDescription and the mapped name: $(cat "$E2E_DIR/mapped-json.out")"
e2e_stop_opensm
e2e_log "node-name map: clean by the SM's map, drift lines name nodes by it"

# 6. Errors say what to do next and exit 2.
e2e_sim "$top_builddir/osmqos" drift --policy /nonexistent >/dev/null 2>"$E2E_DIR/err.txt"
rc=$?
[ "$rc" = 2 ] && grep -q "check the path" "$E2E_DIR/err.txt" ||
	e2e_fail "missing policy: rc $rc, $(cat "$E2E_DIR/err.txt")"
e2e_pass
