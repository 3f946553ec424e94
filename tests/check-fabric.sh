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
# get a VL each on the new leaf's 8 VLs; on the old leaf's 4 they are
# grouped, and each group's guarantee is stated as the group's, naming
# its levels.
mixed=$top_srcdir/contrib/fabrics/mixed-caps.net
intents_conf() {
	local sl=1 bw
	printf 'qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\n'
	for bw in "$@"; do
		printf '  qos-level\n    name: l%s\n    sl: %s\n    bandwidth: %s%%\n  end-qos-level\n' \
			$sl $sl "$bw"
		sl=$((sl + 1))
	done
	printf 'end-qos-levels\n'
}
intents_conf 30 25 20 15 5 >"$tmp/five.conf"
"$osmqos" check "$tmp/five.conf" >/dev/null || fail "five intents of 95% in all are valid without a fabric"
out=$("$osmqos" check "$tmp/five.conf" --fabric "$mixed" 2>&1) ||
	fail "check --fabric: the old leaf meets five intents by grouping SLs, exited $?: $out"
echo "$out" | grep -q "warning: 'l[1-5]' (SL [1-5]), 'l[1-5]' (SL [1-5]) share VL [0-9] on [0-9]* port(s) like oldleaf/P[0-9] .* 4 data VL(s).*the [0-9.]*% guaranteed there is the group's" ||
	fail "no warning naming the levels of a VL group and the group's share: $out"
echo "$out" | grep "share VL" | grep -q "newleaf" &&
	fail "the new leaf's 8 VLs give each intent SL its own: $out"
# Three SLs of 33% need finer splits than 8-entry tables give at MTU 2048
# (the old leaf); the new leaf's 32 entries at MTU 4096 meet them.  An
# error per level and class names an example port, the binding limit and
# the best share.
intents_conf 33 33 33 >"$tmp/three.conf"
out=$("$osmqos" check "$tmp/three.conf" --fabric "$mixed" 2>&1)
rc=$?
[ $rc = 1 ] || fail "check --fabric on intents the old leaf cannot meet exited $rc, want 1: $out"
echo "$out" | grep -q "error: qos-level 'l[1-3]' (SL [1-3]) cannot get 33.00% on [0-9]* port(s) like oldleaf/P[0-9] .* 4 data VL(s).*8/8 entries.*cannot split the link finely enough.*the best it gets next to the other intents is [0-9.]*%" ||
	fail "no error naming the level, the old leaf's class, the limit and the best share: $out"
echo "$out" | grep -q "newleaf" && fail "the new leaf's classes meet the intents: $out"
out=$("$osmqos" synth --policy "$tmp/three.conf" --fabric "$mixed" -o "$tmp/three.low" 2>&1)
[ $? = 1 ] && [ ! -e "$tmp/three.low" ] ||
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
# Under a vlarb-scope the ports keep their SL2VL (the template here):
# the report and the JSON say kept, as `tables` shows it.
sed -e 's/vlarb-low: 0:32, 1:32/vlarb-high: 1:255\
            vlarb-low: 0:64, 2:64\
            vl-high-limit: 255/' \
	-e 's/bandwidth: 40%/bandwidth: 40%\
    end-qos-level\
    qos-level\
        name: mpi\
        sl: 2\
        priority: high\
        bandwidth: 20%/' "$tmp/scope-misses.conf" >"$tmp/scope-high.conf"
two=$top_srcdir/contrib/fabrics/two-switch.net
out=$("$osmqos" synth --policy "$tmp/scope-high.conf" --fabric "$two" \
	--report 2>&1)
echo "$out" | grep -q "SL2VL kept, VLArb kept (a vlarb-scope)" ||
	fail "the report must say the SL2VL under a vlarb-scope is kept: $out"
echo "$out" | grep -q "SL2VL synthesized, VLArb kept" &&
	fail "a vlarb-scope's ports keep their SL2VL: $out"
out=$("$osmqos" synth --policy "$tmp/scope-high.conf" --fabric "$two" \
	--json 2>&1)
echo "$out" | grep -q '"sl2vl": "kept", "vlarb": "kept"' ||
	fail "the JSON must say the SL2VL under a vlarb-scope is kept: $out"
out=$("$osmqos" tables --policy "$tmp/scope-high.conf" --fabric "$two" 2>&1)
echo "$out" | grep -q "sl2vl.*template" ||
	fail "tables must show the template's SL2VL under the scope: $out"
# The SLs sharing a VL on 2-VL ports (the high level has the other),
# named whole: runs of SLs, and every level however long the names.
sed 's/vls 4 vlarb 8/vls 2 vlarb 8/' "$mixed" >"$tmp/two-vl.net"
{
	printf 'qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n end-qos-level\n'
	printf ' qos-level\n  name: mpi\n  sl: 1\n  priority: high\n'
	printf '  bandwidth: 5%%\n end-qos-level\n'
	for s in 2 3 4 5; do
		printf ' qos-level\n  name: level-%s-with-a-name-long-enough-to-fill-a-line\n' "$s"
		printf '  sl: %s\n  bandwidth: 5%%\n end-qos-level\n' "$s"
	done
	printf 'end-qos-levels\n'
} >"$tmp/long-names.conf"
out=$("$osmqos" synth --policy "$tmp/long-names.conf" \
	--fabric "$tmp/two-vl.net" --report 2>&1)
echo "$out" | grep -q "'level-5-with-a-name-long-enough-to-fill-a-line' (SL 5) and best effort and SL 6-15 (no level grants them; a job may set them itself) share VL 0 on" ||
	fail "the shared-VL warning must name every level and the SLs as runs: $out"
echo PASS
