#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The memo of PathRecord answers per sweep state, end to end: a query
# asked again gets the same record, and the audit trail and the
# published per-level counters count every answer, from the memo or not;
# the requester is part of the question (a port that shares no P_Key
# with the pair gets no record, before and after one that does); an
# answer of several records is given whole every time (it is not kept);
# a new policy is answered at once (the memo goes with the sweep state);
# the unload line counts the memo's answers exactly; sa_cache=0 keeps
# nothing; a bad sa_cache= is one error and the default.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init sa-memo
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

sid=0x1000000000000100
pol=$E2E_DIR/policy.conf
parts=$E2E_DIR/partitions.conf
audit=$E2E_DIR/audit.log
# write_policy SL: the service-id rule's level on SL.
write_policy() {
	e2e_sid_policy "$pol" "$sid" "$1"
}
write_policy 2
echo 'Default=0x7fff, ipoib : ALL=full ;' >"$parts"

e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
start() {
	e2e_start_opensm qos=TRUE lmc=1 "qos_policy_file=$pol" \
		"partition_config_file=$parts" "event_plugin_options=$1"
}
start "audit=$audit"

l02=$(e2e_lid "cn02 HCA-1") l03=$(e2e_lid "cn03 HCA-1")
g01=$(e2e_guid "cn01 HCA-1") g02=$(e2e_guid "cn02 HCA-1")
g03=$(e2e_guid "cn03 HCA-1")
for v in l02 l03 g01 g02 g03; do
	[ -n "${!v}" ] || e2e_fail "no $v in the fabric"
done
# cn01, cn02 and cn03 share P_Key 0x0001; every port is only a limited
# member of the default partition, so cn05 shares no P_Key with cn02 or
# cn03 and may not see the pair (OpenSM re-reads the file each sweep).
cat >"$parts" <<PARTS
Default=0x7fff : ALL=limited, SELF=full ;
p1=0x0001 : $g01=full, $g02=full, $g03=full ;
PARTS
e2e_hup_sweep

# ask NAME HOST: the same Get (cn02 -> cn03 by LID, the Service-ID) from
# HOST, the answer kept as $E2E_DIR/NAME.json.
ask() {
	SIM_HOST=$2 e2e_sim "$top_builddir/osmqos" query --json --get \
		--slid "$l02" --dlid "$l03" --sid $sid \
		>"$E2E_DIR/$1.json" 2>"$E2E_DIR/$1.err" || true
	jq -e . "$E2E_DIR/$1.json" >/dev/null ||
		e2e_fail "$1: no JSON answer: $(cat "$E2E_DIR/$1.err")"
}
# expect NAME JQ VALUE
expect() {
	local got
	got=$(jq -r "$2" "$E2E_DIR/$1.json")
	[ "$got" = "$3" ] ||
		e2e_fail "$1: $2 is '$got', want '$3' ($(cat "$E2E_DIR/$1.json"))"
}
# memo_count: the last unload line's count of answers from the memo.
memo_count() {
	grep "osmqos: SA front: PathRecord" "$E2E_OSM_LOG" | tail -n 1 |
		sed -n 's/.*answered, \([0-9]*\) of them from the memo.*/\1/p'
}

# 1. The same question five times from cn01: one record on SL 2, the
# same bytes each time.
for i in 1 2 3 4 5; do
	ask "a$i" cn01
	expect "a$i" '.records | length' 1
	expect "a$i" '.records[0].sl' 2
	cmp -s "$E2E_DIR/a1.json" "$E2E_DIR/a$i.json" ||
		e2e_fail "answer $i differs from the first: $(diff "$E2E_DIR/a1.json" "$E2E_DIR/a$i.json")"
done
# 2. The same bytes from cn05, which may not see the pair: no record,
# three times, though the memo holds the answer cn01 got.
for i in 1 2 3; do
	ask "b$i" cn05
	expect "b$i" '.records | length' 0
done
# 3. cn01 again: its record, though the memo now holds cn05's answer.
ask c1 cn01
expect c1 '.records | length' 1
cmp -s "$E2E_DIR/a1.json" "$E2E_DIR/c1.json" || e2e_fail "cn01's answer changed"

# 4. Two records (LMC 1, NumbPath 2) for a GetTable by GIDs: all of them
# each time.  Not kept (more than one record), so not in the count below.
for i in 1 2 3; do
	SIM_HOST=cn01 e2e_sim "$top_builddir/osmqos" query --json \
		--sgid "$g02" --dgid "$g03" --numb-path 2 \
		>"$E2E_DIR/t$i.json" 2>"$E2E_DIR/t$i.err" ||
		e2e_fail "GetTable $i failed: $(cat "$E2E_DIR/t$i.err")"
	expect "t$i" '.records | length' 2
	expect "t$i" '[.records[].slid] | unique | length' 2
	cmp -s "$E2E_DIR/t1.json" "$E2E_DIR/t$i.json" ||
		e2e_fail "GetTable $i differs from the first"
done

# The audit trail: all six of cn01's answers, granted on SL 2 by the
# rule; none for cn05 (a pair the requester may not see gets no line;
# the writer keeps the submission order, so once cn01's last line is
# there, so would cn05's be).
lid01=$(e2e_lid "cn01 HCA-1") lid05=$(e2e_lid "cn05 HCA-1")
want_lines() {
	local n i
	for ((i = 0; i < 50; i++)); do
		n=$(jq -s "map(select($1) | .count) | add // 0" "$audit" 2>/dev/null)
		[ "${n:-0}" -ge "$2" ] && break
		sleep 0.1
	done
	[ "${n:-0}" -eq "$2" ] ||
		e2e_fail "audit: ${n:-0} answers for $3, want $2"
}
want_lines ".requester.lid == $lid01 and .query.service_id == \"$sid\" and .rule == 0 and .level == \"sid_level\" and .granted.sl == 2" 6 "cn01's question"
want_lines ".requester.lid == $lid05" 0 "cn05's question"

# 5. A new policy: the next answer has its SL, not the kept one.  The
# sweep publishes the answer counters: every one of cn01's six answers
# on its level, and the three GetTables' pairs on DEFAULT.
write_policy 7
n=$(grep -c "osmqos: policy .* loaded" "$E2E_OSM_LOG")
e2e_hup_sweep "osmqos: sweep [0-9]*: published"
[ "$(grep -c "osmqos: policy .* loaded" "$E2E_OSM_LOG")" -gt "$n" ] ||
	e2e_fail "the plugin did not load the new policy"
for lc in sid_level:6 DEFAULT:3; do
	got=$(sed -n "s/^osmqos_sa_pr_answered_total{level=\"${lc%:*}\"} //p" \
		"$E2E_DIR/osmqos.prom")
	[ "$got" = "${lc#*:}" ] ||
		e2e_fail "osmqos.prom counts ${got:-no} answers on ${lc%:*}, want ${lc#*:}"
done
ask d1 cn01
expect d1 '.records[0].sl' 7
ask d2 cn01
expect d2 '.records[0].sl' 7
e2e_stop_opensm
# From the memo: cn01's answer 4 more times, cn05's 2 more, cn01's once
# more (the two requesters' questions are two entries); d1 is the new
# state's first answer and d2 its second.
line=$(grep 'SA front: PathRecord' "$E2E_OSM_LOG" | tail -n 1)
[ "$(memo_count)" = 8 ] ||
	e2e_fail "$(memo_count) answers from the memo, want 8: $line"
e2e_log "${line#*osmqos: }"
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-memo.log"

# 6. sa_cache=0: the same answers, none from the memo.
start "audit=$audit sa_cache=0"
grep -q "loaded (built for .* sa_cache=0" "$E2E_OSM_LOG" ||
	e2e_fail "the load line does not show sa_cache=0"
for i in 1 2 3; do
	ask "e$i" cn01
	expect "e$i" '.records[0].sl' 7
	ask "f$i" cn05
	expect "f$i" '.records | length' 0
done
e2e_stop_opensm
[ "$(memo_count)" = 0 ] || e2e_fail "sa_cache=0: $(memo_count) answers from the memo"
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-off.log"

# 7. A bad sa_cache=: one error saying what to give, and the default.
start "audit=$audit sa_cache=lots"
[ "$(grep -c "sa_cache=lots is not a number of answers from 0 to 65536; using 4096" "$E2E_OSM_LOG")" = 1 ] ||
	e2e_fail "a bad sa_cache= is not one error: $(grep sa_cache "$E2E_OSM_LOG")"
ask g1 cn01
ask g2 cn01
expect g2 '.records[0].sl' 7
e2e_stop_opensm
[ "$(memo_count)" = 1 ] || e2e_fail "sa_cache=lots: $(memo_count) answers from the memo, want 1"
e2e_pass
