#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A job's own request (--request, the Slurm comment) changes its class only
# as the job map allows, and an unusable request never costs the job the
# map's class (offline, fat-tree-16):
#   1. under allow-opt-out no, osmqos=off and osmqos=none (which exports
#      nothing, as off does) keep the map's class, with a note;
#   2. a requested level the policy lacks keeps the map's class (exit 0,
#      its SL exported, the note saying why), where the map's own
#      unknown level is an error (exit 2);
#   3. under allow-opt-out yes, osmqos=none opts out.
: "${top_srcdir:?}" "${top_builddir:?}"
q=$top_builddir/osmqos
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
. "$top_srcdir/tests/cli-lib.sh"

# je MAP REQUEST: job-env for cn01 and cn02 with the map's class.
je() {
	run job-env --map "$1" --request "$2" --nodes 'cn[01-02]' \
		--fabric "$top_srcdir/tests/data/fat-tree-16.ibnd" \
		--policy "$top_srcdir/tests/data/match-policy.conf" --offline
}
# has FILE TEXT: FILE has a line with TEXT.
has() {
	grep -qF -- "$2" "$tmp/$1" || fail "no '$2' in $1: $(cat "$tmp/$1")"
}

# 1. Opting out, forbidden: off and none alike.
printf 'default plain\nallow-override yes\nallow-opt-out no\n' >"$tmp/strict.map"
for word in off none; do
	je "$tmp/strict.map" "osmqos=$word"
	[ "$rc" = 0 ] || fail "1: osmqos=$word: exit $rc: $(cat "$tmp/err")"
	first_is "$tmp/out" "# osmqos job-env: class plain ($tmp/strict.map:1 (default: no map line matches))"
	has out "# note: the job asked for osmqos=$word, but the map does not allow opting out (allow-opt-out no): it keeps plain"
	has out "export UCX_IB_SL="
	n=$((n + 1))
done

# 2. A level the policy lacks: the job's request is a note, the map's
# level an error.
je "$tmp/strict.map" osmqos=level:nosuch
[ "$rc" = 0 ] || fail "2: osmqos=level:nosuch: exit $rc: $(cat "$tmp/err")"
first_is "$tmp/out" "# osmqos job-env: class plain ($tmp/strict.map:1 (default: no map line matches))"
has out "# note: the job asked for osmqos=level:nosuch, but the policy has no qos-level named 'nosuch': it keeps plain"
has out "export UCX_IB_SL="
n=$((n + 1))
printf 'default none\nallow-override yes\n' >"$tmp/none.map"
je "$tmp/none.map" osmqos=level:nosuch
[ "$rc" = 0 ] || fail "2: class none: exit $rc: $(cat "$tmp/err")"
first_is "$tmp/out" "# osmqos job-env: class none (*): no SL exported; the stacks keep their defaults"
has out "# note: the job asked for osmqos=level:nosuch, but the policy has no qos-level named 'nosuch': it keeps none"
n=$((n + 1))
printf 'default level nosuch\nallow-override yes\n' >"$tmp/bad.map"
je "$tmp/bad.map" osmqos=plain
[ "$rc" = 0 ] || fail "2: a valid request over the map's bad level: exit $rc"
n=$((n + 1))
je "$tmp/bad.map" ""
[ "$rc" = 2 ] || fail "2: the map's unknown level: exit $rc, want 2"
has err "osmqos job-env: the policy has no qos-level named 'nosuch'"
n=$((n + 1))

# 3. Opting out, allowed: none is as good as off.
printf 'default plain\nallow-override yes\nallow-opt-out yes\n' >"$tmp/free.map"
je "$tmp/free.map" osmqos=none
[ "$rc" = 0 ] || fail "3: exit $rc: $(cat "$tmp/err")"
first_is "$tmp/out" "# osmqos job-env: class none (the job opted out (osmqos=none)): no SL exported; the stacks keep their defaults"
grep -q '^export' "$tmp/out" && fail "3: an opted-out job exports: $(cat "$tmp/out")"
n=$((n + 1))
echo "PASS: $n cases"
