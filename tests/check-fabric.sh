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
n=$("$osmqos" tables --json --all --policy "$tmp/scopes.conf" --fabric "$net" 2>/dev/null |
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
# Bandwidth intents against a fabric.  Five SLs of 30, 25, 20, 15 and 5%
# fit the new leaf's 8 VLs but not the old leaf's 4: SLs sharing a VL
# split it equally, so every grouping needs more than the link.  An error
# per level and class names an example port and the best share.
mixed=$top_srcdir/contrib/fabrics/mixed-caps.net
{
	printf 'qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\n'
	for sl in 1 2 3 4 5; do
		printf '  qos-level\n    name: l%s\n    sl: %s\n    bandwidth: %s%%\n  end-qos-level\n' \
			$sl $sl $((35 - 5 * sl - (sl == 5) * 5))
	done
	printf 'end-qos-levels\n'
} >"$tmp/five.conf"
"$osmqos" check "$tmp/five.conf" >/dev/null || fail "five intents of 95% in all are valid without a fabric"
out=$("$osmqos" check "$tmp/five.conf" --fabric "$mixed" 2>&1)
rc=$?
[ $rc = 1 ] || fail "check --fabric on intents the old leaf cannot meet exited $rc, want 1: $out"
echo "$out" | grep -q "error: qos-level 'l[1-5]' (SL [1-5]) cannot get [0-9]*.00% on [0-9]* port(s) like oldleaf/P[0-9] .* 4 data VL(s).*the best it gets next to the other intents is [0-9.]*%" ||
	fail "no error naming the level, the old leaf's class and the best share: $out"
echo "$out" | grep -q "newleaf" && fail "the new leaf's classes meet the intents: $out"
"$osmqos" check "$tmp/five.conf" --fabric "$net" >/dev/null 2>&1 ||
	fail "fat-tree-16 (8 VLs everywhere) meets the five intents"
out=$("$osmqos" synth --policy "$tmp/five.conf" --fabric "$mixed" -o "$tmp/five.low" 2>&1)
[ $? = 1 ] && [ ! -e "$tmp/five.low" ] ||
	fail "synth on infeasible intents must exit 1 and write nothing: $out"
# A vlarb-scope of the policy wins on its ports; where it misses an
# intent check warns with the figures.
cat >"$tmp/scope-misses.conf" <<'EOF'
port-groups
    port-group
        name: everything
        node-type: ALL
    end-port-group
end-port-groups
qos-setup
    vlarb-tables
        vlarb-scope
            group: everything
            vlarb-low: 0:32, 1:32
        end-vlarb-scope
    end-vlarb-tables
end-qos-setup
qos-levels
    qos-level
        name: DEFAULT
        sl: 0
    end-qos-level
    qos-level
        name: storage
        sl: 1
        bandwidth: 40%
    end-qos-level
end-qos-levels
EOF
out=$("$osmqos" check "$tmp/scope-misses.conf" --fabric "$net" 2>&1) ||
	fail "a scope missing an intent is a warning, not an error: $out"
echo "$out" | grep -q "warning: qos-level 'storage' (SL 1) wants 40.00% but a vlarb-scope gives it [0-9.]*% on" ||
	fail "no warning for the scope that misses the intent: $out"
echo PASS
