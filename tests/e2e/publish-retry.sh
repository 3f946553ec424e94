#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A publication that cannot be written (the publish directory's file
# system full) is written again by the publisher's ticks once space is
# back, not at the next sweep: after a port went down and a policy edit
# while the disk was full, the JSON no longer lists the port and names
# the new policy, the policy in force as written is the edit, and
# status exits 0, within a few publish_interval=1 ticks and no sweep.
# While the disk is full, the older policy in force as written is
# removed (status exits 1 and says why), so a restart with a rejected
# policy file puts back no policy that is not in force.
# Root only (a tmpfs mount), else skipped.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init publish-retry
export PATH=$PATH:/usr/sbin:/sbin
[ "$(id -u)" = 0 ] || e2e_skip "needs root (a tmpfs mount)"
command -v jq >/dev/null || e2e_skip "jq not installed"

mnt=$E2E_DIR/mnt
pub=$mnt/pub
mkdir -p "$mnt"
mount -t tmpfs -o size=400k tmpfs "$mnt" 2>"$E2E_DIR/mount.err" ||
	e2e_skip "no tmpfs mount here: $(cat "$E2E_DIR/mount.err")"
trap 'rc=$?; e2e_stop_opensm; umount "$mnt" 2>/dev/null; (exit $rc);
	e2e_cleanup' EXIT
mkdir -p "$pub"
pol=$E2E_DIR/qos-policy.conf
copy=$pub/osmqos-policy-in-force.conf
json=$pub/osmqos-bandwidth.json
cp "$top_srcdir/tests/e2e/data/program-policy.conf" "$pol"
opts="event_plugin_options=publish_dir=$pub audit=off publish_interval=1"

e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" "$opts"
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 60 ||
	e2e_fail "the first sweep was not published"
ports0=$(jq '[.nodes[].ports[]] | length' "$json")
cmp -s "$pol" "$copy" || e2e_fail "the policy in force was not written"

# Disk full; then a port goes down and the policy is edited.
dd if=/dev/zero of="$mnt/fill" bs=4k 2>/dev/null
e2e_ibsim_cmd 'Unlink "cn05"[1]'
e2e_wait_for "Removed port" "$E2E_OSM_LOG" 30 ||
	e2e_fail "the port unlinked was not removed"
sed -i 's/^        sl: 1$/        sl: 2/' "$pol"
cmp -s "$pol" "$top_srcdir/tests/e2e/data/program-policy.conf" &&
	e2e_fail "the policy edit changed nothing"
e2e_hup_sweep "SUBNET UP" 30
e2e_wait_for "osmqos: cannot publish osmqos-bandwidth.json" "$E2E_OSM_LOG" 10 ||
	e2e_fail "the JSON write did not fail on a full disk"
e2e_wait_for "osmqos: cannot write $copy: .*no copy of the policy in force is left there" \
	"$E2E_OSM_LOG" 10 || e2e_fail "no failed write of $copy said"
[ -e "$copy" ] || [ -e "$pub/osmqos-policy-in-force.source" ] &&
	e2e_fail "the older policy in force as written was left in place"
e2e_osmqos status -d "$pub" --json >"$E2E_DIR/full.json"
rc=$?
[ "$rc" = 1 ] && jq -e '[.verdict.causes[].cause] | index("in_force_copy")' \
	"$E2E_DIR/full.json" >/dev/null ||
	e2e_fail "status with no copy written exited $rc: $(cat "$E2E_DIR/full.json")"
e2e_log "disk full: JSON and the policy in force as written failed, the older copy removed, status exits 1"

# Space back: the ticks write what failed, no sweep needed.
sweeps=$(grep -c "SUBNET UP" "$E2E_OSM_LOG")
rm -f "$mnt/fill"
e2e_wait_for "osmqos: publishing osmqos-bandwidth.json works again" \
	"$E2E_OSM_LOG" 10 || e2e_fail "the JSON was not written again"
e2e_wait_for "osmqos: writing $copy works again" "$E2E_OSM_LOG" 10 ||
	e2e_fail "the policy in force as written was not written again"
[ "$(grep -c "SUBNET UP" "$E2E_OSM_LOG")" = "$sweeps" ] ||
	e2e_fail "a sweep ran meanwhile: the test proves nothing"
ports1=$(jq '[.nodes[].ports[]] | length' "$json")
[ "$ports1" -lt "$ports0" ] ||
	e2e_fail "the JSON still lists $ports1 ports, $ports0 before the unlink"
h=$(e2e_osmqos status -d "$pub" --json | jq -r .policy.hash)
jq -e --arg h "$h" '.policy.hash == $h' "$json" >/dev/null ||
	e2e_fail "the JSON does not name the policy in force $h"
cmp -s "$pol" "$copy" || e2e_fail "the policy in force as written is not the edit"
e2e_osmqos status -d "$pub" >"$E2E_DIR/back.txt" 2>&1 ||
	e2e_fail "status after the space came back: $(cat "$E2E_DIR/back.txt")"
e2e_log "space back: JSON ($ports0 -> $ports1 ports) and the policy in force written again without a sweep; status exits 0"

# Disk full again, another edit: a restart with a rejected file meanwhile
# puts back no policy (the older copy is gone), rather than one that was
# not in force.
dd if=/dev/zero of="$mnt/fill" bs=4k 2>/dev/null
sed -i 's/^        sl: 2$/        sl: 3/' "$pol"
n=$(grep -c "osmqos: cannot write $copy" "$E2E_OSM_LOG")
e2e_hup_sweep "SUBNET UP" 30
e2e_wait_count "osmqos: cannot write $copy" "$E2E_OSM_LOG" $((n + 1)) 10 ||
	e2e_fail "the second failed write of $copy was not said"
e2e_stop_opensm
rm -f "$mnt/fill"
sed -i 's/^        sl: 3$/        sl: 99/' "$pol"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" "$opts"
e2e_wait_for "policy $pol rejected" "$E2E_OSM_LOG" 60 ||
	e2e_fail "the bad edit was not rejected at the restart"
e2e_wait_for "no policy in force before this start to put in force again" \
	"$E2E_OSM_LOG" 10 ||
	e2e_fail "the restart did not say there is no policy to put back: $(grep 'in force again' "$E2E_OSM_LOG")"
grep -q "is in force again until the file is fixed" "$E2E_OSM_LOG" &&
	e2e_fail "the restart put back a policy that was not in force"
e2e_log "restart while the copy could not be written: no older policy put back"
e2e_pass
