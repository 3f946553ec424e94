#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Every file the CLI reads goes through the plugin's reader: a FIFO, a
# directory, a missing file or an oversized policy given to any subcommand
# is refused at once (exit 2, one line naming the file and why), never
# waited on; check and the plugin refuse the same policy sizes.  A file
# that is no topology and arguments that say nothing are refused too.
# job-env's map gives the options the command line does not.
: "${top_srcdir:?}" "${top_builddir:?}"
osmqos=$top_builddir/osmqos
net=$top_srcdir/contrib/fabrics/fat-tree-16.net
pol=$top_srcdir/contrib/policies/fat-tree-16.conf
parts=$top_srcdir/tests/data/check-partitions.conf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0

mkfifo "$tmp/fifo"
mkdir "$tmp/dir"
echo 'qos TRUE' >"$tmp/osm.conf"
# A valid policy just over the 16 MiB limit (a long comment).
{ cat "$pol"; head -c $((16 * 1024 * 1024)) /dev/zero | tr '\0' '#'; echo; } >"$tmp/big.conf"

# expect_refused WHY-PATTERN ARGS...: exit 2 within 10 s, the reason on
# stderr.
expect_refused() {
	local why=$1 out rc
	shift
	out=$(timeout 10 "$osmqos" "$@" 2>&1 </dev/null)
	rc=$?
	[ $rc = 124 ] && fail "osmqos $* blocked (killed after 10 s)"
	[ $rc = 2 ] || fail "osmqos $* exited $rc, want 2: $out"
	grep -q -- "$why" <<<"$out" || fail "osmqos $*: no '$why' in: $out"
	n=$((n + 1))
}

for bad in fifo dir missing; do
	f=$tmp/$bad
	why="not a regular file"
	[ $bad = missing ] && why="No such file"
	expect_refused "$why" check "$f"
	expect_refused "$why" check "$pol" --fabric "$f"
	expect_refused "$why" check "$pol" --partitions "$f"
	expect_refused "$why" check "$pol" --opensm-conf "$f"
	for cmd in tables predict match synth; do
		extra=()
		[ $cmd = match ] && extra=(--src 0x1 --dst 0x2)
		expect_refused "$why" $cmd --policy "$f" --fabric "$net" "${extra[@]}"
		expect_refused "$why" $cmd --policy "$pol" --fabric "$f" "${extra[@]}"
		expect_refused "$why" $cmd --policy "$pol" --fabric "$net" \
			--partitions "$f" "${extra[@]}"
	done
	expect_refused "$why" tables --fabric "$net" --opensm-conf "$f"
	expect_refused "$why" query --slid 1 --dlid 2 --policy "$f" --fabric "$net"
	expect_refused "$why" query --slid 1 --dlid 2 --policy "$pol" --fabric "$f"
	expect_refused "$why" drift --policy "$f"
	expect_refused "$why" drift --policy "$pol" --partitions "$f"
	expect_refused "$why" drift --policy "$pol" --opensm-conf "$f"
	expect_refused "$why" export --policy "$f"
	expect_refused "$why" plan "$f" --policy "$pol" --fabric "$net"
	expect_refused "$why" plan "$pol" --policy "$f" --fabric "$net"
	expect_refused "$why" job-env --plain --nodes cn01 --fabric "$f"
	expect_refused "$why" job-env --plain --nodes cn01 --fabric "$net" \
		--policy "$f"
	expect_refused "$why" job-env --plain --nodes cn01 --fabric "$net" \
		--partitions "$f"
	expect_refused "$why" job-env --plain --nodes-file "$f" --fabric "$net"
	expect_refused "$why" job-env --map "$f" --nodes cn01
	expect_refused "$why" doctor --opensm-conf "$f"
	expect_refused "$why" doctor --opensm-conf "$tmp/osm.conf" --standby-conf "$f"
done
expect_refused "larger than the 16 MiB limit" check "$tmp/big.conf"
expect_refused "larger than the 16 MiB limit" tables --policy "$tmp/big.conf" --fabric "$net"
expect_refused "larger than the 16 MiB limit" synth --policy "$tmp/big.conf" --fabric "$net"
expect_refused "--policy FILE is required" synth --fabric "$net"
expect_refused "--report and --json both write" synth --policy "$pol" --fabric "$net" --report --json
expect_refused "-o needs a file name, not an empty argument" synth --policy "$pol" --fabric "$net" -o ""
# -o into a directory that is not there: an error naming it, nothing else.
intents=$top_srcdir/contrib/policies/intents.conf
expect_refused "-o '$tmp/no/such/dir/x.conf': its directory '$tmp/no/such/dir' does not exist" synth --policy "$intents" \
	--fabric "$net" -o "$tmp/no/such/dir/x.conf"
# A policy without intents: exit 1 and what to add.
out=$("$osmqos" synth --policy "$pol" --fabric "$net" 2>&1)
rc=$?
[ $rc = 1 ] || fail "synth on a policy without intents exited $rc, want 1: $out"
grep -q "states no bandwidth intent; add 'bandwidth: N%'" <<<"$out" ||
	fail "synth on a policy without intents: $out"
n=$((n + 1))

# job-env: a host list that says nothing, or is malformed; a map or
# hosts file with bad bytes; the limits.
expect_refused "the host list is empty" job-env --plain --nodes , --fabric "$net"
expect_refused "ends inside '\['" job-env --plain --nodes 'cn[01-04' --fabric "$net"
expect_refused "match no HCA" job-env --plain --nodes cn99 --fabric "$net"
expect_refused "give the job's class" job-env --nodes cn01 --fabric "$net"
expect_refused "give one class" job-env --sid 1 --plain --nodes cn01 --fabric "$net"
expect_refused "is not a number in 0..4095" job-env --qos-class 4096 --nodes cn01
expect_refused "give --fabric" job-env --plain --nodes cn01
expect_refused "give --policy" job-env --plain --nodes cn01 --fabric "$net" --offline
expect_refused "max-queries" job-env --plain --nodes 'cn[01-12]' --fabric "$net" \
	--max-queries 10
printf 'cn01\ncn\377\n' >"$tmp/hosts"
expect_refused "$tmp/hosts:2: at byte 3: byte 0xff" job-env --plain \
	--nodes-file "$tmp/hosts" --fabric "$net"
printf 'default plain\r\nmap qos=a sid\r\n' >"$tmp/crlf.map"
expect_refused "crlf.map:2:11: error: 'sid' needs a value" job-env \
	--map "$tmp/crlf.map" --nodes cn01
# ... and what to read, as installed (not the source tree's docs/).
expect_refused "the job map '$tmp/crlf.map' has errors; fix them (osmqos(8), job-env --map; the format in full: jobs.md in /usr/share/doc/osmqos/docs/)" \
	job-env --map "$tmp/crlf.map" --nodes cn01
# An invalid policy is an input error (2: the Prolog runs the job on the
# stacks' defaults), not a refused job (1: its tasks stop).
bad=$top_srcdir/tests/policies/invalid/duplicate-level.conf
expect_refused "the policy '$bad' is invalid" job-env --plain \
	--nodes cn01,cn02 --fabric "$net" --policy "$bad" --offline
# Numbers with a leading 0 (octal to C, decimal to most readers).
expect_refused "'010' is not a number in 0..4095 (decimal or 0x hex, no leading 0)" \
	job-env --qos-class 010 --nodes cn01
# The map's max-queries, ca, ca-port, all-pairs and timeout stand for
# the options the command line does not give, checked as the options are.
printf 'fabric %s\ndefault plain\nmax-queries 10\n' "$net" >"$tmp/few.map"
expect_refused "more than 10 (--max-queries, or the job map's max-queries)" \
	job-env --map "$tmp/few.map" --nodes 'cn[01-12]'
printf 'default plain\n\ntimeout 0\n' >"$tmp/t0.map"
expect_refused "t0.map:3:9: error: timeout '0' is not a number in 1..600000" \
	job-env --map "$tmp/t0.map" --nodes cn01
{
	printf 'fabric %s\npolicy %s\ndefault plain\n' "$net" "$pol"
	printf 'ca no-such-ca\nca-port 2\nall-pairs yes\n'
	printf 'timeout 50\nmax-queries 10\n'
} >"$tmp/ca.map"
out=$("$osmqos" job-env --map "$tmp/ca.map" --nodes 'cn[01-03]' --json 2>/dev/null)
grep -q '"pair_mode": "all"' <<<"$out" &&
	grep -q "no usable InfiniBand port on no-such-ca at the given port" <<<"$out" ||
	fail "job-env did not use the map's ca, ca-port and all-pairs: $out"
# The command line wins: 12 hosts, every pair, within --max-queries.
"$osmqos" job-env --map "$tmp/ca.map" --nodes 'cn[01-12]' --max-queries 200 \
	>/dev/null 2>&1 || fail "--max-queries did not win over the map's"
n=$((n + 2))
head -c $((1024 * 1024 + 1)) /dev/zero | tr '\0' '#' >"$tmp/big.map"
expect_refused "larger than" job-env --map "$tmp/big.map" --nodes cn01

# Files that are no topology: refused with the reason, never 0 ports.
: >"$tmp/empty.net"
for junk in "$tmp/empty.net" "$osmqos" "$pol"; do
	why="no node"
	[ "$junk" = "$osmqos" ] && why="a binary file"
	expect_refused "$why" tables --fabric "$junk"
	expect_refused "$why" check "$pol" --fabric "$junk"
done

# Arguments that say nothing are usage errors, not a silent default.
expect_refused "has no VL:WEIGHT entry" model --high , --low 0:1 --mtu 2048 --limit 1
expect_refused "empty; give VL:WEIGHT" model --high "" --low 0:1 --mtu 2048 --limit 1
expect_refused "takes no argument" --version extra
expect_refused "--limit is required with a high table" model --high 0:1 --low 1:1 --mtu 2048
out=$("$osmqos" model --low 0:32,1:32 --mtu 2048 2>&1) ||
	fail "model without a high table needs no --limit: $out"
# Invalid UTF-8 in a NodeDescription: --json stays valid JSON, the bad
# bytes become U+FFFD as in the plugin's files.
printf 'Switch 2 "sw"\n[1] "h\377\3761"[1]\n\nHca 1 "h\377\3761"\n[1] "sw"[1]\n' >"$tmp/utf8.net"
for cmd in tables predict; do
	out=$("$osmqos" $cmd --json --fabric "$tmp/utf8.net" 2>/dev/null) ||
		fail "$cmd --json on $tmp/utf8.net failed"
	if command -v jq >/dev/null; then
		jq -e '[.. | strings | select(. == "h\ufffd\ufffd1")] | length > 0' \
			<<<"$out" >/dev/null || fail "$cmd --json: invalid UTF-8 not replaced: $out"
	fi
done
echo "PASS: $n refusals"
