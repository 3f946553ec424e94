#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Two fabric-in-a-box runs at once must not see each other: each gets its
# own socket, directory and processes.  Runs the smoke test twice in
# parallel and checks both pass and leave no process behind.
: "${top_srcdir:?}" "${top_builddir:?}"
log1=$(mktemp) log2=$(mktemp)
trap 'rm -f "$log1" "$log2"' EXIT
bash "$top_srcdir/tests/e2e/smoke.sh" >"$log1" 2>&1 &
p1=$!
bash "$top_srcdir/tests/e2e/smoke.sh" >"$log2" 2>&1 &
p2=$!
wait "$p1"; rc1=$?
wait "$p2"; rc2=$?
sed 's/^/  run1: /' "$log1"
sed 's/^/  run2: /' "$log2"
[ "$rc1" = 77 ] && [ "$rc2" = 77 ] && exit 77
for log in "$log1" "$log2"; do
	for pid in $(sed -n 's/.*\(ibsim\|opensm\) pid \([0-9]*\).*/\2/p' "$log"); do
		if kill -0 "$pid" 2>/dev/null; then
			echo "FAIL: pid $pid from a run is still alive"
			exit 1
		fi
	done
done
[ "$rc1" = 0 ] && [ "$rc2" = 0 ] || { echo "FAIL: rc $rc1 / $rc2"; exit 1; }
echo PASS
