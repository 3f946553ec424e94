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

# Scopes against the fabric: `from: *, to: *` over CA ports covers them;
# a scope with switch port numbers over CAs covers nothing: a warning at
# its line, in check --fabric as in tables.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/scopes.conf" <<'EOF'
port-groups
    port-group
        name: hosts
        node-type: CA
    end-port-group
end-port-groups
qos-setup
    sl2vl-tables
        sl2vl-scope
            group: hosts
            from: *
            to: *
            sl2vl-table: 0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3
        end-sl2vl-scope
        sl2vl-scope
            group: hosts
            from: 1
            sl2vl-table: 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1
        end-sl2vl-scope
    end-sl2vl-tables
end-qos-setup
qos-ulps
    default : 0
end-qos-ulps
EOF
for cmd in check tables; do
	if [ $cmd = check ]; then
		out=$("$osmqos" check "$tmp/scopes.conf" --fabric "$net" 2>&1)
	else
		out=$("$osmqos" tables --policy "$tmp/scopes.conf" --fabric "$net" 2>&1 >/dev/null)
	fi
	[ "$(grep -c 'covers no port' <<<"$out")" = 1 ] ||
		fail "$cmd: want one 'covers no port' warning: $out"
	grep -q "scopes.conf:15:9: warning: sl2vl-scope covers no port" <<<"$out" ||
		fail "$cmd: the warning is not at the second scope: $out"
done
n=$("$osmqos" tables --json --policy "$tmp/scopes.conf" --fabric "$net" 2>/dev/null |
	jq '[.ports[] | select(.kind == "CA port" and .sl2vl == [0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3])] | length')
[ "$n" = 16 ] || fail "from: * to: * covers $n of the 16 CA ports"

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
