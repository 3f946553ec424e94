#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A policy rewritten in place (truncated, then written piece by piece) is
# never put in force half-written, though its first part alone is a valid
# policy (port groups, setup and levels, no match rule).
#  - The first part written, a HUP, the rest half a second later: the
#    HUP's sweep waits for the file to settle and puts the whole new
#    policy in force; the first part never is.
#  - A writer still writing seconds later: the last good policy stays in
#    force (its SL answered meanwhile), one INFO line says the file is
#    being written, and the whole policy is taken at a heavy sweep the
#    plugin asks for itself, without another HUP.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init policy-inplace

pol=$E2E_DIR/policy.conf
cp "$top_srcdir/tests/e2e/data/program-policy.conf" "$pol"
grep -q '^        sl: 1$' "$pol" || e2e_fail "the policy has no level with SL 1"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"event_plugin_options=publish_dir=$E2E_DIR audit=off"
slid=$(e2e_lid "cn01 HCA-1")
dlid=$(e2e_lid "stor1 HCA-1")
# sl: the SL of the PathRecord cn01 -> stor1 (storage traffic's level).
sl() { e2e_pr_sl "$slid" "$dlid"; }
[ "$(sl)" = 0x1 ] || e2e_fail "start: cn01 -> stor1 not on SL 1: '$(sl)'"
loaded="osmqos: policy $pol loaded"
# never_prefix NAME: no policy without match rules was ever loaded.
never_prefix() {
	grep -q "$loaded: .* 0 match rules" "$E2E_OSM_LOG" &&
		e2e_fail "$1: the first part alone was put in force: $(grep "$loaded" "$E2E_OSM_LOG" | tail -n 1)"
	return 0
}
# write NEWSL: the new policy (storage on SL NEWSL) in two parts, head
# (up to end-qos-levels: a valid policy by itself) and tail.
write_parts() {
	sed "s/^        sl: 1\$/        sl: $1/" \
		"$top_srcdir/tests/e2e/data/program-policy.conf" >"$E2E_DIR/new.conf"
	sed -n '1,/^end-qos-levels/p' "$E2E_DIR/new.conf" >"$E2E_DIR/head.conf"
	sed '1,/^end-qos-levels/d' "$E2E_DIR/new.conf" >"$E2E_DIR/tail.conf"
	"$top_builddir/osmqos" check "$E2E_DIR/head.conf" >/dev/null 2>&1 ||
		e2e_fail "the first part alone is not a valid policy: the test proves nothing"
}

# 1. The rest arrives half a second after the HUP.
write_parts 2
cat "$E2E_DIR/head.conf" >"$pol" # in place: same inode, truncated
kill -HUP "$E2E_OPENSM_PID"
sleep 0.5 # within the settle time: the writer is not done
cat "$E2E_DIR/tail.conf" >>"$pol"
e2e_wait_count "$loaded" "$E2E_OSM_LOG" 2 30 ||
	e2e_fail "quick: the whole new policy was not loaded"
never_prefix quick
cmp -s "$pol" "$E2E_DIR/new.conf" || e2e_fail "quick: the file is not the new policy"
e2e_wait_for "policy in force, loaded .* hash $(grep "$loaded" "$E2E_OSM_LOG" |
	tail -n 1 | sed 's/.*hash //')" "$E2E_OSM_LOG" 30 ||
	e2e_fail "quick: no sweep with the new policy in force"
[ "$(sl)" = 0x2 ] || e2e_fail "quick: cn01 -> stor1 not on the new SL 2: '$(sl)'"
e2e_log "quick: the policy written in place was taken whole"

# 2. A writer still at it after the plugin's waits: a line every 0.3 s
# for 6 s, then the rest.  No HUP after the first.
write_parts 3
cat "$E2E_DIR/head.conf" >"$pol"
kill -HUP "$E2E_OPENSM_PID"
(
	for ((i = 0; i < 20; i++)); do
		echo "# line $i" >>"$pol"
		sleep 0.3
	done
	cat "$E2E_DIR/tail.conf" >>"$pol"
) &
writer=$!
e2e_wait_for "osmqos: policy $pol is being written (modified less than 1000 ms before each of 4 reads): not taken now; the last good policy stays in force; read again in a second" \
	"$E2E_OSM_LOG" 6 || e2e_fail "slow: no line saying the file is being written"
[ "$(sl)" = 0x2 ] || e2e_fail "slow: the last good SL 2 not answered while writing: '$(sl)'"
kill -0 "$writer" 2>/dev/null || e2e_fail "slow: the writer was done before the checks"
wait "$writer"
e2e_wait_count "$loaded" "$E2E_OSM_LOG" 3 30 ||
	e2e_fail "slow: the whole policy was not loaded without a HUP"
never_prefix slow
e2e_wait_for "policy in force, loaded .* hash $(grep "$loaded" "$E2E_OSM_LOG" |
	tail -n 1 | sed 's/.*hash //')" "$E2E_OSM_LOG" 30 ||
	e2e_fail "slow: no sweep with the new policy in force"
[ "$(sl)" = 0x3 ] || e2e_fail "slow: cn01 -> stor1 not on the new SL 3: '$(sl)'"
[ "$(grep -c "is being written" "$E2E_OSM_LOG")" = 1 ] ||
	e2e_fail "slow: the write in progress was said more than once"
grep -q "$pol rejected" "$E2E_OSM_LOG" && e2e_fail "a part was parsed and refused"
e2e_log "slow: the last good policy stayed until the file was whole"
e2e_pass
