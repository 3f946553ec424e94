#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# osmqos check with --fabric and --partitions: fabric-aware warnings.
: "${top_srcdir:?}" "${top_builddir:?}"
osmqos=$top_builddir/osmqos
pol=$top_srcdir/tests/data/check-partitions-policy.conf
net=$top_srcdir/contrib/fabrics/fat-tree-16.net
fail() { echo "FAIL: $*"; exit 1; }

out=$("$osmqos" check "$pol" --fabric "$net" \
	--partitions "$top_srcdir/tests/data/check-partitions.conf" 2>&1) ||
	fail "check exited $?: $out"
echo "$out" | grep -q "8:20: warning: partition 'nosuch' is not defined" ||
	fail "no warning for the undefined partition: $out"
echo "$out" | grep -q "partition 'storage'" &&
	fail "partition 'storage' is defined but was reported: $out"

out=$("$osmqos" check --fabric "$net" "$pol" 2>&1) || fail "check exited $?"
echo "$out" | grep -q "4:20: warning: partition 'storage' is not defined" ||
	fail "without --partitions, 'storage' should be unknown: $out"

out=$("$osmqos" check "$top_srcdir/contrib/policies/storage-compute-mgmt.conf" \
	--fabric "$net" 2>&1) || fail "check exited $?"
[ "$(echo "$out" | grep -c 'matches no port of the fabric')" = 3 ] ||
	fail "expected 3 empty-group warnings: $out"

"$osmqos" check "$pol" --fabric /nonexistent.net >/dev/null 2>&1
[ $? = 2 ] || fail "a missing fabric file must exit 2"

# --partitions alone: the file is read and its names checked.
out=$("$osmqos" check "$pol" \
	--partitions "$top_srcdir/tests/data/check-partitions.conf" 2>&1) ||
	fail "check --partitions exited $?: $out"
echo "$out" | grep -q "8:20: warning: partition 'nosuch' is not defined" ||
	fail "--partitions without --fabric: no warning for 'nosuch': $out"
out=$("$osmqos" check "$pol" --partitions /nonexistent.conf 2>&1)
rc=$?
[ $rc = 2 ] || fail "--partitions /nonexistent.conf alone exited $rc, want 2: $out"
echo "$out" | grep -q "cannot read partitions file" ||
	fail "no word about the missing partitions file: $out"
echo PASS
