#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Node names in the CLI: --node-name-map and the map an opensm.conf names,
# at every input limit (empty, malformed, huge, a FIFO, a directory, a
# symlink, invalid UTF-8, CRLF, GUIDs named twice, standard input; one
# opensm.conf names that is a FIFO or a device hangs opensm: an error), and
# port arguments in the forms operators type (host name, name without
# /P<n>, a mapped name, GUIDs, lid:N), with the closest names on a miss.
# Each case asserts the exit status and the first line printed.
: "${top_srcdir:?}" "${top_builddir:?}"
q=$top_builddir/osmqos
net=$top_srcdir/contrib/fabrics/fat-tree-16.net
ibnd=$top_srcdir/tests/data/fat-tree-16.ibnd
pol=$top_srcdir/contrib/policies/fat-tree-16.conf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
fail() { echo "FAIL: $*"; exit 1; }

. "$top_srcdir/tests/cli-lib.sh"
# level ARGS...: the SL `match --json` gives.
level() { "$q" match --json "$@" 2>/dev/null | sed -n 's/.*"sl": \([0-9]*\).*/\1/p'; }

# ibsim numbers CAs from 0x100000: stor1 0x100000, cn01 0x100002, ...
printf '0x100002 "compute-01"\n0x100000 "storage-01"\n' >"$tmp/map"
sed 's|"cn01 HCA-1/P1"|"compute-01/P1"|; s|"stor1 HCA-1/P1"|"storage-01/P1"|' \
	"$pol" >"$tmp/mapped.conf"

# --- the map renames the nodes for the policy and the arguments --------
expect 0 "*: valid: *, 0 warnings" check "$tmp/mapped.conf" --fabric "$net" \
	--node-name-map "$tmp/map"
[ "$(level -p "$tmp/mapped.conf" -f "$net" --node-name-map "$tmp/map" \
	--src compute-01 --dst storage-01/P1)" = 1 ] ||
	fail "match by mapped names: not the storage level"
# Without it the mapped names are no node's, and the old ones are.
expect 0 "*: valid: *, 2 warnings" check "$tmp/mapped.conf" --fabric "$net"
expect 2 "osmqos match: --src 'compute-01': no node named 'compute-01' in the fabric*" \
	match -p "$pol" -f "$net" --src compute-01 --dst stor1
# A renamed node's NodeDescription (or its host name) is no name: the
# miss names that node and the map's name, not other nodes.
expect 2 "osmqos match: --src 'cn01': 'cn01' is the NodeDescription of 0x0000000000100002, which the node-name map names 'compute-01': use that name or the GUID" \
	match -p "$tmp/mapped.conf" -f "$net" --node-name-map "$tmp/map" \
	--src cn01 --dst storage-01
expect 2 "osmqos match: --dst 'stor1 HCA-1/P1': 'stor1 HCA-1' is the NodeDescription of 0x0000000000100000, which the node-name map names 'storage-01': use that name or the GUID" \
	match -p "$tmp/mapped.conf" -f "$net" --node-name-map "$tmp/map" \
	--src compute-01 --dst "stor1 HCA-1/P1"
# The policy's port-name by a renamed node's description: said as such.
expect 0 "*: valid: *, 2 warnings" check "$pol" --fabric "$net" \
	--node-name-map "$tmp/map"
grep -qF "warning: port-name 'stor1 HCA-1/P1': no node is named 'stor1 HCA-1': it is the NodeDescription of 0x0000000000100000, which the node-name map names 'storage-01', and OpenSM matches that name" "$tmp/err" ||
	fail "port-name by a renamed node's description: $(cat "$tmp/err")"
grep -qF "hint: write the map's name ('storage-01/P1'), or name the port by its port-guid" "$tmp/err" ||
	fail "port-name by a renamed node's description: no hint: $(cat "$tmp/err")"
# The map opensm.conf names, as OpenSM would open it.
printf 'node_name_map_name %s\n' "$tmp/map" >"$tmp/opensm.conf"
expect 0 "*: valid: *, 0 warnings" check "$tmp/mapped.conf" --fabric "$net" \
	--opensm-conf "$tmp/opensm.conf"
[ "$(level -p "$tmp/mapped.conf" -f "$net" -c "$tmp/opensm.conf" \
	--src compute-01/P1 --dst storage-01)" = 1 ] ||
	fail "match by the map opensm.conf names: not the storage level"
# --node-name-map wins over opensm.conf's.
printf '0x10000a "other"\n' >"$tmp/other"
expect 2 "osmqos match: --src 'compute-01': no node named 'compute-01' in the fabric*" \
	match -p "$pol" -f "$net" -c "$tmp/opensm.conf" \
	--node-name-map "$tmp/other" --src compute-01 --dst stor1
# From standard input.
IN=$tmp/map expect 0 "*: valid: *, 0 warnings" check "$tmp/mapped.conf" \
	--fabric "$net" --node-name-map -

# --- input limits --------------------------------------------------------
mkfifo "$tmp/fifo"
mkdir "$tmp/dir"
ln -s "$tmp/map" "$tmp/link"
: >"$tmp/empty"
# Sparse: refused by its size before a byte is read.
truncate -s 257M "$tmp/huge"
printf '0x100002 "compute-01"\ncn01 "no guid"\n' >"$tmp/bad"
printf '0x100002 "compute-01"\r\n0x100000 storage-01\r\n' >"$tmp/crlf"
printf '0x100002 "compute-01"\n0x100002 "second"\n0x100000 "storage-01"\n' >"$tmp/twice"
printf '0x100002 "c\xff\xfe"\n' >"$tmp/utf8"
expect 2 "osmqos check: cannot read node-name map '$tmp/fifo': not a regular file (a directory, FIFO or device); check the path (a regular file)" \
	check "$pol" --fabric "$net" --node-name-map "$tmp/fifo"
expect 2 "osmqos check: cannot read node-name map '$tmp/dir': not a regular file (a directory, FIFO or device); check the path (a regular file)" \
	check "$pol" --fabric "$net" --node-name-map "$tmp/dir"
expect 2 "osmqos check: cannot read node-name map '$tmp/missing': No such file or directory; check the path (a regular file)" \
	check "$pol" --fabric "$net" --node-name-map "$tmp/missing"
expect 2 "osmqos check: node-name map '$tmp/huge' is larger than the 256 MiB limit; shorten it (is it the right file?)" \
	check "$pol" --fabric "$net" --node-name-map "$tmp/huge"
rm -f "$tmp/huge"
expect 0 "*: valid: *, 0 warnings" check "$tmp/mapped.conf" --fabric "$net" \
	--node-name-map "$tmp/link"
expect 0 "*: valid: *, 0 warnings" check "$pol" --fabric "$net" \
	--node-name-map "$tmp/empty"
# One line OpenSM cannot parse voids the map: an error for the option...
expect 2 "$tmp/bad:2:1: error: expected a node GUID, found 'cn01'" \
	check "$tmp/mapped.conf" --fabric "$net" --node-name-map "$tmp/bad"
# ... a warning when opensm.conf names it: OpenSM runs without names.
printf 'node_name_map_name %s\n' "$tmp/bad" >"$tmp/bad.conf"
expect 0 "*: valid: *, 2 warnings" check "$tmp/mapped.conf" --fabric "$net" \
	--opensm-conf "$tmp/bad.conf"
grep -q "warning: OpenSM ignores the node-name map '$tmp/bad'" "$tmp/err" ||
	fail "a bad map in opensm.conf: no warning: $(cat "$tmp/err")"
printf 'node_name_map_name %s\n' "$tmp/missing" >"$tmp/missing.conf"
expect 0 "*: valid: *, 0 warnings" check "$pol" --fabric "$net" \
	--opensm-conf "$tmp/missing.conf"
grep -q "warning: cannot read the node-name map '$tmp/missing'" "$tmp/err" ||
	fail "a missing map in opensm.conf: no warning: $(cat "$tmp/err")"
# ... and a directory: OpenSM's fopen() fails, it names nodes by their
# NodeDescriptions.
printf 'node_name_map_name %s\n' "$tmp/dir" >"$tmp/dir.conf"
expect_err 0 "osmqos check: warning: cannot read the node-name map '$tmp/dir' that $tmp/dir.conf names: not a regular file*; OpenSM then names nodes by their NodeDescriptions, and so does this run" \
	check "$pol" --fabric "$net" --opensm-conf "$tmp/dir.conf"
# A FIFO or a device there hangs opensm at startup (its fopen() blocks,
# its fgets() loop never ends): an error, not that fallback.
for m in "$tmp/fifo:FIFO" "/dev/zero:character device"; do
	printf 'node_name_map_name %s\n' "${m%%:*}" >"$tmp/hang.conf"
	expect 2 "osmqos check: the node-name map '${m%%:*}' that $tmp/hang.conf names is a ${m#*:}: opensm would block or spin reading it at startup and never bring the subnet up; point node_name_map_name at a regular file" \
		check "$pol" --fabric "$net" --opensm-conf "$tmp/hang.conf"
done
# CRLF: the unquoted name keeps its CR, as OpenSM's; a warning says so.
expect 0 "*: valid: *" check "$tmp/mapped.conf" --fabric "$net" \
	--node-name-map "$tmp/crlf"
grep -q "$tmp/crlf:2:10: warning: the name of GUID 0x0000000000100000 ends in a carriage return" "$tmp/err" ||
	fail "CRLF map: no warning: $(cat "$tmp/err")"
# A '#' inside quotes ends the name, as in OpenSM: said, and kept.
printf '0x100002 "compute-01#rack3"\n0x100000 "storage-01"\n' >"$tmp/hash"
expect 0 "*: valid: *" check "$tmp/mapped.conf" --fabric "$net" \
	--node-name-map "$tmp/hash"
grep -q "$tmp/hash:1:21: warning: OpenSM ends the name of GUID 0x0000000000100002 at '#': the node is named 'compute-01'" "$tmp/err" ||
	fail "a '#' in a quoted name: no warning: $(cat "$tmp/err")"
# The first line of a GUID wins.
expect 0 "*: valid: *" check "$tmp/mapped.conf" --fabric "$net" \
	--node-name-map "$tmp/twice"
grep -q "$tmp/twice:2:1: warning: GUID 0x0000000000100002 is named again; OpenSM keeps the name of line 1, 'compute-01'" "$tmp/err" ||
	fail "a GUID named twice: no warning: $(cat "$tmp/err")"
# An error that follows from a warning (a line too long, its rest no
# GUID) fails the run: it is shown, never folded away, and check --json
# lists it.
printf '0x100002 "%s"\n0x100000 "s1"\n' "$(printf 'L%.0s' $(seq 300))" \
	>"$tmp/long"
expect 2 "$tmp/long:1:256: warning: line 1 is longer than 255 bytes*" \
	tables -f "$net" --node-name-map "$tmp/long"
grep -q "^  follows from it: $tmp/long:1:256: error: expected a node GUID" \
	"$tmp/err" || fail "tables: the map's error not shown: $(cat "$tmp/err")"
expect 2 "$tmp/long:1:256: warning: line 1 is longer than 255 bytes*" \
	check "$pol" --fabric "$net" --node-name-map "$tmp/long"
grep -q "error: expected a node GUID" "$tmp/err" ||
	fail "check: the map's error not shown: $(cat "$tmp/err")"
run check "$pol" --fabric "$net" --node-name-map "$tmp/long" --json
[ "$rc" = 2 ] && grep -q '"errors": 1,' "$tmp/out" &&
	grep -q '"code": "node-name-map-bad-line"' "$tmp/out" ||
	fail "check --json without the map's error: exit $rc, $(cat "$tmp/out")"
n=$((n + 1))
# Warnings folded name a command that runs and shows them all.
for i in $(seq 15); do printf '0x100002 "n%d"\n' "$i"; done >"$tmp/many"
for args in "tables -f $net" "match -p $pol -f $net --src cn02 --dst cn03"; do
	run $args --node-name-map "$tmp/many"
	[ "$rc" = 0 ] || fail "osmqos $args: exit $rc: $(cat "$tmp/err")"
	cmd=$(sed -n "s/^  and 4 more like it; '\(osmqos .*\)' shows them$/\1/p" \
		"$tmp/err")
	[ -n "$cmd" ] || fail "osmqos $args: no command to show all: $(cat "$tmp/err")"
	run ${cmd#osmqos }
	[ "$rc" = 0 ] && [ "$(grep -c 'is named again' "$tmp/err")" = 14 ] ||
		fail "'$cmd' exited $rc, not the 14 warnings: $(head -n 3 "$tmp/err")"
done
n=$((n + 1))
# Names are bytes: invalid UTF-8 is a name like any, shown as U+FFFD in
# JSON.
"$q" tables -f "$net" --node-name-map "$tmp/utf8" --port "$(printf 'c\xff\xfe')/P1" \
	--json >"$tmp/u.json" || fail "--port by an invalid UTF-8 name failed"
grep -qF "$(printf '"name": "c\xef\xbf\xbd\xef\xbf\xbd/P1"')" "$tmp/u.json" ||
	fail "invalid UTF-8 name not replaced in JSON: $(head -c 300 "$tmp/u.json")"
n=$((n + 1))

# --- port arguments ------------------------------------------------------
[ "$(level -p "$pol" -f "$net" --src cn01/P1 --dst stor1)" = 1 ] ||
	fail "host names (cn01/P1, stor1) did not name the ports"
[ "$(level -p "$pol" -f "$net" --src "cn01 HCA-1" --dst "stor1 HCA-1/P1")" = 1 ] ||
	fail "a name without /P<n> did not name the CA's port"
[ "$(level -p "$pol" -f "$ibnd" --src cn01 --dst lid:2)" = 1 ] ||
	fail "lid:N on an ibnetdiscover file did not name stor1"
expect 2 "osmqos match: --src 'cn1/P1': no node named 'cn1' in the fabric; did you mean 'cn01 HCA-1/P1', 'cn10 HCA-1/P1' or 'cn11 HCA-1/P1'?" \
	match -p "$pol" -f "$net" --src cn1/P1 --dst stor1
expect 2 "osmqos match: --src 'lid:7': this fabric carries no LIDs (an ibsim net file has none; OpenSM assigns them when it sweeps); name the port, or give the running fabric's ibnetdiscover output as --fabric" \
	match -p "$pol" -f "$net" --src lid:7 --dst stor1
expect 2 "osmqos match: --src 'lid:999': no port of the fabric has LID 999" \
	match -p "$pol" -f "$ibnd" --src lid:999 --dst stor1
expect 2 "osmqos match: --src 'cn01/P2': 'cn01 HCA-1' has no port 2 (it has port 1)" \
	match -p "$pol" -f "$net" --src cn01/P2 --dst stor1
expect 2 "osmqos tables: --port 'leaf01/P99': 'leaf01' has no port 99 (it has ports 0, 1, 2, 3, 4, 5 and 6)" \
	tables -f "$net" --port leaf01/P99
# A switch by name is the whole switch (7 ports), as by GUID.
"$q" tables -f "$net" --port leaf01 --json >"$tmp/sw.json" ||
	fail "--port leaf01 failed"
[ "$(grep -c '"guid"' "$tmp/sw.json")" = 7 ] ||
	fail "--port leaf01 is not the 7 ports of the switch"
n=$((n + 1))
# Two CAs on one host: the host name is ambiguous.
sed 's/"cn04 HCA-1"/"cn01 HCA-2"/' "$net" >"$tmp/two.net"
expect 2 "osmqos match: --src 'cn01': 2 nodes fit: 'cn01 HCA-1' 0x0000000000100002, 'cn01 HCA-2' 0x000000000010000a; give a port GUID (0x...) or the whole name" \
	match -p "$pol" -f "$tmp/two.net" --src cn01 --dst stor1
# job-env, plan and export name nodes by the map too: job-env decides by
# the mapped names (given or from the job map; a host is the
# NodeDescription's first word, as Slurm knows it, or the name job-env
# prints, the map's).
expect 0 "# osmqos job-env: class plain (command line)" job-env --plain \
	--offline -p "$tmp/mapped.conf" -f "$net" --nodes cn01,stor1 \
	--node-name-map "$tmp/map" --prefer highest
grep -q '^#   compute-01/P1 -> storage-01/P1: SL 1 ' "$tmp/out" ||
	fail "job-env --node-name-map: $(grep '^#   ' "$tmp/out")"
expect 0 "# osmqos job-env: class plain (command line)" job-env --plain \
	--offline -p "$tmp/mapped.conf" -f "$net" --nodes compute-01,stor1 \
	--node-name-map "$tmp/map" --prefer highest
grep -q '^#   compute-01/P1 -> storage-01/P1: SL 1 ' "$tmp/out" ||
	fail "job-env --nodes by a mapped name: $(grep '^#   ' "$tmp/out")"
printf 'fabric %s\npolicy %s\nnode-name-map %s\ndefault plain\nprefer highest\n' \
	"$net" "$tmp/mapped.conf" "$tmp/map" >"$tmp/jobs.map"
expect 0 "# osmqos job-env: class plain (*)" job-env --offline \
	--map "$tmp/jobs.map" --nodes cn01,stor1
grep -q '^#   compute-01/P1 -> storage-01/P1: SL 1 ' "$tmp/out" ||
	fail "job map node-name-map: $(grep '^#   ' "$tmp/out")"
# Without the map the mapped names are no port's: SL 0, not 1.
expect 0 "# osmqos job-env: class plain (command line)" job-env --plain \
	--offline -p "$tmp/mapped.conf" -f "$net" --nodes cn01,stor1 \
	--prefer highest
grep -q '^#   cn01 HCA-1/P1 -> stor1 HCA-1/P1: SL 0 ' "$tmp/out" ||
	fail "job-env without the map: $(grep '^#   ' "$tmp/out")"
sed 's|"storage-01/P1"|"compute-01/P1"|' "$tmp/mapped.conf" >"$tmp/mapped2.conf"
run plan "$tmp/mapped2.conf" -p "$tmp/mapped.conf" -f "$net" \
	--node-name-map "$tmp/map" -j
[ "$rc" = 1 ] && grep -q '"changed": [1-9]' "$tmp/out" ||
	fail "plan --node-name-map: exit $rc, $(head -c 300 "$tmp/out")"
n=$((n + 1))
expect 0 "*" export -p "$tmp/mapped.conf" -f "$net" --node-name-map "$tmp/map"
echo "ok: $n node-name and port-argument checks"
