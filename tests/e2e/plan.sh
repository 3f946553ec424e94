#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# osmqos plan predicts what a policy edit does before the HUP: the QoS Set
# MADs the plugin then sends (their count, and which ports get how many,
# as OpenSM's own frame log records them: log_flags 0x20) and the SL the
# SA then grants the pairs whose rule changed level.  On the ibsim fat
# tree with the plugin: one VLArb scope, one SL2VL scope and one level's
# SL are edited; `plan --live` against the running policy (the same
# with the opensm.conf the plugin publishes as given), then HUP.  An
# unchanged edit plans 0 MADs and exits 0, and then sends none.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
e2e_init plan
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

pol=$E2E_DIR/qos-policy.conf
cp "$top_srcdir/tests/e2e/data/program-policy.conf" "$pol"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
# log_flags 0x23: errors, info and every SMP (the independent MAD record).
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" log_flags=0x23
wait_sweep 1
cd "$E2E_DIR" || e2e_fail "no $E2E_DIR"

# The edit: the storage ports' low VLArb, compute-a's SL2VL of SLs 8-15,
# and the storage level's SL (VL 2, weighted by every scope).
cp "$pol" old.conf
sed -e 's/vlarb-low: 2:64, 3:32, 4:16/vlarb-low: 2:32, 3:32, 4:16/' \
	-e 's/sl2vl-table: 0,1,2,3,4,5,6,7,7,7,7,7,7,7,7,7/sl2vl-table: 0,1,2,3,4,5,6,7,0,0,0,0,0,0,0,0/' \
	-e '/name: storage$/{n;s/sl: 1/sl: 2/}' old.conf >new.conf
[ "$(diff old.conf new.conf | grep -c '^>')" = 3 ] ||
	e2e_fail "the test's edit did not apply: $(diff old.conf new.conf)"

plan() { # OUT NEW [ARGS...]
	local out=$1 new=$2
	shift 2
	e2e_sim "$top_builddir/osmqos" plan "$new" --policy "$pol" --live \
		--opensm-conf "$E2E_OSM_CONF" "$@" >"$out" 2>"$out.err"
}

# 1. The same policy: nothing changes, exit 0.
plan same.json old.conf --json
rc=$?
[ "$rc" = 0 ] || e2e_fail "plan of an unchanged policy exited $rc: $(cat same.json.err)"
jq -e '.changes == false and .mads.total == 0 and .ports_changed == 0 and
	.rules == [] and .pairs.changed == 0 and .pairs.sampled == false' \
	same.json >/dev/null || e2e_fail "unchanged plan: $(cat same.json)"

# 2. The edit: exit 1, and the MADs per port.
plan edit.json new.conf --json --all
rc=$?
[ "$rc" = 1 ] || e2e_fail "plan of the edit exited $rc: $(cat edit.json.err)"
e2e_sim "$top_builddir/osmqos" plan new.conf --policy "$pol" --live \
	--opensm-conf "$E2E_OSM_CONF" >edit.txt 2>/dev/null
sed 's/^/  /' edit.txt
want=$(jq '.mads.total' edit.json)
[ "$want" -gt 0 ] || e2e_fail "the edit plans no MAD: $(cat edit.json)"
jq -e '(.rules | length) == 1 and .rules[0].old_sl == 1 and
	.rules[0].new_sl == 2 and .pairs.changed > 0 and
	all(.pairs.examples[]; .old_sl == 1 and .new_sl == 2)' edit.json >/dev/null ||
	e2e_fail "the edit's rules and pairs: $(jq -c '{rules, pairs}' edit.json)"
jq -r '.ports[] | "\(.port.guid) \(if (.role | startswith("switch")) then .port.port else 0 end) \(.sl2vl_sets + .vlarb_sets)"' \
	edit.json | sort >want.ports
# Without --opensm-conf: the one the plugin publishes opensm runs with,
# said on standard error; the same plan.
e2e_sim "$top_builddir/osmqos" plan new.conf --policy "$pol" --live --json \
	--all >edit-pub.json 2>edit-pub.err
grep -qxF "osmqos plan: note: opensm.conf: $E2E_OSM_CONF, the running opensm's (as its osmqos publishes); --opensm-conf gives another" \
	edit-pub.err || e2e_fail "plan without --opensm-conf: $(cat edit-pub.err)"
cmp -s edit.json edit-pub.json ||
	e2e_fail "plan with the published opensm.conf differs from plan with it given"

# 3. HUP: the frames the sweep sends, per port.  A frame names its port by
# the directed route OpenSM sent it on and the attribute modifier's port;
# smpquery resolves each route to a GUID.
cp new.conf "$pol"
mark=$(wc -l <"$E2E_OSM_LOG")
kill -HUP "$E2E_OPENSM_PID"
wait_sweep 2
e2e_wait_count "SUBNET UP" "$E2E_OSM_LOG" 2 30 || e2e_fail "no SUBNET UP after the HUP"
got=$(qos_sets_since "$mark")
logged=$(sed -n 's/.*osmqos: sweep 2: \([0-9]*\) QoS Set MADs.*/\1/p' "$E2E_OSM_LOG")
e2e_log "plan: $want QoS Set MADs; the frames: $got; the plugin counted $logged"
[ "$got" = "$want" ] || e2e_fail "plan predicted $want QoS Sets, OpenSM sent $got"
[ "$logged" = "$want" ] || e2e_fail "plan predicted $want QoS Sets, the plugin counted $logged"
tail -n +"$((mark + 1))" "$E2E_OSM_LOG" | gawk '
	/SMP dump:/ { m = ""; a = ""; mod = ""; path = ""; next }
	/method\.\./ { m = $0 }
	/attr_id\.\./ { a = $0 }
	/attr_mod\.\./ { mod = $0; sub(/.*\.\./, "", mod) }
	/Initial path:/ {
		path = $3
		if (m ~ /SubnSet/ && a ~ /0x1[78] \(/) {
			v = strtonum(mod)
			print path, and(v, 255)
		}
	}' | sort | uniq -c >frames.raw
: >got.ports
while read -r n path port; do
	guid=$(e2e_sim smpquery -D nodeinfo "$path" 2>/dev/null |
		sed -n 's/^PortGuid:\.*\(0x[0-9a-f]*\)$/\1/p')
	[ -n "$guid" ] || e2e_fail "cannot resolve route $path"
	printf '0x%016x %s %s\n' "$guid" "$port" "$n" >>got.ports
done <frames.raw
# A switch port is its GUID and number; an end port its GUID (port 0 in
# both lists).
awk '{ k = $1 " " $2; c[k] += $3 } END { for (k in c) print k, c[k] }' got.ports |
	sort >got.sorted
if ! diff want.ports got.sorted >ports.diff; then
	head -n 20 ports.diff
	e2e_fail "the Sets per port differ from the plan (< plan, > frames)"
fi
e2e_log "per port: $(wc -l <want.ports) ports, each with the Sets planned"

# 4. The SA grants the planned SLs to pairs whose rule changed level.
jq -r '.pairs.examples[:4][] | "\(.src.lid) \(.dst.lid) \(.service_id // "-") \(.new_sl)"' \
	edit.json >pairs
[ -s pairs ] || e2e_fail "the plan lists no changed pair"
while read -r s d sid sl; do
	args=(--slid "$s" --dlid "$d")
	[ "$sid" != - ] && args+=(--sid "$sid")
	got=$(e2e_sim "$top_builddir/osmqos" query --json "${args[@]}" 2>/dev/null |
		jq '.records[0].sl')
	[ "$got" = "$sl" ] || e2e_fail "pair $s -> $d (service ID $sid): the SA grants SL $got, plan said $sl"
done <pairs
e2e_log "SA: $(wc -l <pairs) changed pairs get the planned SL"

# 5. Planning the policy now in force changes nothing, and a HUP sends
# nothing.
plan again.json new.conf --json || e2e_fail "plan of the policy in force exited $?"
mark=$(wc -l <"$E2E_OSM_LOG")
kill -HUP "$E2E_OPENSM_PID"
wait_sweep 3
e2e_wait_count "SUBNET UP" "$E2E_OSM_LOG" 3 30 || e2e_fail "no SUBNET UP after the second HUP"
[ "$(qos_sets_since "$mark")" = 0 ] || e2e_fail "an unchanged sweep sent QoS Sets"
e2e_pass
