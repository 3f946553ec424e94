#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# What osmqos job-env decides from the answers of a job's pairs (offline,
# fat-tree-16):
#   1. pairs on one SL and one P_Key are one answer, whether or not their
#      levels restrict P_Keys; the P_Key is exported when one does; pairs
#      on one SL whose restricted P_Keys differ are refused as "different
#      P_Keys", not as different SLs;
#   2. a P_Key the map or the command line names that no partition has,
#      or the invalid P_Key (0x0000, 0x8000), is the operator's input
#      error (exit 2, the map line named), not a refusal (exit 1); the
#      job's own request of one is refused as before;
#   3. a one-host job whose loopback path is denied gets no SL (exit 2,
#      nothing exported, a note saying why), not a refusal; a job of two
#      hosts with the same denial is refused.
: "${top_srcdir:?}" "${top_builddir:?}"
command -v jq >/dev/null || { echo "SKIP: job-env-decide: no jq"; exit 77; }
q=$top_builddir/osmqos
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
. "$top_srcdir/tests/cli-lib.sh"
F=$top_srcdir/tests/data/fat-tree-16.ibnd

# has FILE TEXT: FILE has a line with TEXT.
has() {
	grep -qF -- "$2" "$tmp/$1" || fail "no '$2' in $1: $(cat "$tmp/$1")"
}
# policy LEVEL-PKEY: storage traffic on SL 1; toward the storage servers
# the level also restricts P_Keys to LEVEL-PKEY.
policy() {
	cat >"$tmp/pol.conf" <<POL
port-groups
  port-group
    name: storage
    port-name: "stor1 HCA-1/P1", "stor2 HCA-1/P1"
  end-port-group
end-port-groups
qos-levels
  qos-level
    name: DEFAULT
    sl: 0
  end-qos-level
  qos-level
    name: storage
    sl: 1
  end-qos-level
  qos-level
    name: storage-cluster
    sl: 1
    pkey: $1
  end-qos-level
end-qos-levels
qos-match-rules
  qos-match-rule
    service-id: 0x0000000001000001
    destination: storage
    qos-level-name: storage-cluster
  end-qos-match-rule
  qos-match-rule
    service-id: 0x0000000001000001
    qos-level-name: storage
  end-qos-match-rule
end-qos-match-rules
POL
}
# je ARGS...: job-env offline on the test's fabric, policy and partitions.
je() {
	run job-env --offline --fabric "$F" --policy "$tmp/pol.conf" \
		--partitions "$tmp/parts.conf" "$@"
}
printf '%s\n' 'Default=0x7fff, ipoib : ALL=full ;' \
	'cluster=0x0002 : ALL=full ;' >"$tmp/parts.conf"

# 1. One SL, one P_Key (the lowest shared, 0x0002, for every pair): one
# answer, the restricting level's P_Key exported.
policy 0x0002
je --sid 0x1000001 --nodes 'cn[01-02],stor1'
[ "$rc" = 0 ] || fail "1: exit $rc: $(cat "$tmp/err")"
has out "#   cn01 HCA-1/P1 -> cn02 HCA-1/P1: SL 1, P_Key 0x0002 (2 port pairs)"
has out "#   cn01 HCA-1/P1 -> stor1 HCA-1/P1: SL 1, P_Key 0x0002 (2 port pairs)"
has out "# decided: SL 1, P_Key 0x0002"
has out "export UCX_IB_PKEY=0x0002"
n=$((n + 1))
je --sid 0x1000001 --nodes 'cn[01-02],stor1' --json
[ "$rc" = 0 ] || fail "1: --json: exit $rc: $(cat "$tmp/err")"
[ "$(jq -c '[.status, .sl, .pkey, [.asked[].pkey]]' "$tmp/out")" = \
	'["ok",1,2,[2,2,2]]' ] || fail "1: --json: $(cat "$tmp/out")"
n=$((n + 1))
# No pair restricted: the P_Key is the stacks' choice, not exported.
je --sid 0x1000001 --nodes 'cn[01-03]'
[ "$rc" = 0 ] || fail "1: no storage: exit $rc: $(cat "$tmp/err")"
has out "# decided: SL 1"
grep -q PKEY "$tmp/out" && fail "1: no level restricts, a P_Key exported: $(cat "$tmp/out")"
n=$((n + 1))
# The level allows only 0x7fff; other pairs get 0x0002: one SL, two
# P_Keys, which the refusal names as such.
policy 0x7fff
je --sid 0x1000001 --nodes 'cn[01-02],stor1'
[ "$rc" = 1 ] || fail "1: two P_Keys: exit $rc, want 1: $(cat "$tmp/err")"
has err "osmqos job-env: refused: the job's pairs get different P_Keys: SL 1 P_Key 0x0002 for 4 port pairs (e.g. cn01 HCA-1/P1 -> cn02 HCA-1/P1); SL 1 P_Key 0x7fff for 2 port pairs (e.g. cn01 HCA-1/P1 -> stor1 HCA-1/P1); give --prefer"
n=$((n + 1))
# 2. P_Keys no partition has.
printf 'default plain\nmap partition=tenant pkey 0x0030\nallow-override yes\n' \
	>"$tmp/typo.map"
je --map "$tmp/typo.map" --partition tenant --nodes 'cn[01-02]'
[ "$rc" = 2 ] || fail "2: the map's undefined P_Key: exit $rc, want 2: $(cat "$tmp/err")"
has err "$tmp/typo.map:2:27: error: pkey 0x0030: no partition of $tmp/parts.conf has that P_Key"
has err "  hint: map the job to a P_Key it defines (Default=0x7fff, cluster=0x0002), or define the partition there"
grep -q refused "$tmp/err" && fail "2: the map's undefined P_Key refuses: $(cat "$tmp/err")"
n=$((n + 1))
je --pkey 0x8030 --nodes 'cn[01-02]'
[ "$rc" = 2 ] || fail "2: --pkey 0x8030: exit $rc, want 2: $(cat "$tmp/err")"
first_is "$tmp/err" "osmqos job-env: --pkey 0x0030: no partition of $tmp/parts.conf has that P_Key; give one it defines (Default=0x7fff, cluster=0x0002), or define the partition there"
n=$((n + 1))
for k in 0 0x8000; do
	je --pkey $k --nodes 'cn[01-02]'
	[ "$rc" = 2 ] || fail "2: --pkey $k: exit $rc, want 2"
	first_is "$tmp/err" "osmqos job-env: --pkey 0x$(printf %04x $((k))) is the invalid P_Key (0x0000, or 0x8000 with the membership bit), which no partition has; give one *"
	n=$((n + 1))
	printf 'default pkey %s\n' "$k" >"$tmp/zero.map"
	je --map "$tmp/zero.map" --nodes 'cn[01-02]'
	[ "$rc" = 2 ] || fail "2: the map's pkey $k: exit $rc, want 2"
	first_is "$tmp/err" "$tmp/zero.map:1:9: error: pkey 0x$(printf %04x $((k))) is the invalid P_Key *"
	n=$((n + 1))
done
# Defined P_Keys still work; the job's own request is refused (exit 1).
je --map "$tmp/typo.map" --partition other --request osmqos=pkey:0x8002 \
	--nodes 'cn[01-02]'
[ "$rc" = 0 ] || fail "2: a defined P_Key: exit $rc: $(cat "$tmp/err")"
has out "export UCX_IB_PKEY=0x0002"
n=$((n + 1))
je --map "$tmp/typo.map" --partition other --request osmqos=pkey:0x0030 \
	--nodes 'cn[01-02]'
[ "$rc" = 1 ] || fail "2: a requested undefined P_Key: exit $rc, want 1"
has err "osmqos job-env: refused: no path for cn01 HCA-1/P1 -> cn02 HCA-1/P1"
n=$((n + 1))
# 3. One host, its loopback denied: cn02 is a limited member of Default
# only (cn01, port GUID 0x100003, is a full member of 0x0002).
printf '%s\n' 'Default=0x7fff, ipoib : ALL=limited, SELF=full ;' \
	'cluster=0x0002 : 0x100003=full ;' >"$tmp/parts.conf"
je --plain --nodes cn02
[ "$rc" = 2 ] || fail "3: one host, no loopback: exit $rc, want 2: $(cat "$tmp/err")"
first_is "$tmp/err" "osmqos job-env: no SL for a one-host job: cn02 HCA-1/P1 has no loopback path (*partition isolation); the job's ranks talk through shared memory, not the fabric, so it runs with the stacks' defaults (to give it an SL, make the port a full member of a partition)"
has out "# note: no SL for a one-host job: cn02 HCA-1/P1 has no loopback path"
has out "# no SL set: nothing exported"
grep -q -e '^export' -e refused "$tmp/out" "$tmp/err" &&
	fail "3: exported or refused: $(cat "$tmp/out" "$tmp/err")"
n=$((n + 1))
je --plain --nodes cn02 --json
[ "$rc" = 2 ] || fail "3: --json: exit $rc, want 2"
jq -e '.status == "unset" and .sl == null and .env == {} and
	(.note | test("no loopback path")) and .asked[0].granted == false' \
	"$tmp/out" >/dev/null || fail "3: --json: $(cat "$tmp/out")"
n=$((n + 1))
# Its loopback granted: the SL, as before.
je --plain --nodes cn01
[ "$rc" = 0 ] || fail "3: cn01's loopback: exit $rc: $(cat "$tmp/err")"
has out "# decided: SL 0"
n=$((n + 1))
# Two hosts: the fabric carries their traffic, the denial refuses.
je --plain --nodes cn01,cn02
[ "$rc" = 1 ] || fail "3: two hosts: exit $rc, want 1"
has err "osmqos job-env: refused: no path for cn02 HCA-1/P1 -> cn01 HCA-1/P1"
n=$((n + 1))
echo "PASS: $n cases"
