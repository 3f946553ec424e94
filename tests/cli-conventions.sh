#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The conventions every subcommand follows (osmqos(8), CONVENTIONS), one
# block per rule, each asserting the exit status and the first line of
# what is printed: `osmqos help CMD`, -V/--version, '-' for standard input,
# an option given twice, SL and VL lists with ranges, a switch named as a
# whole, --port a port of the fabric in every command that takes it, and
# each subcommand's exit statuses.
: "${top_srcdir:?}" "${top_builddir:?}"
q=$top_builddir/osmqos
net=$top_srcdir/contrib/fabrics/two-switch.net
ft=$top_srcdir/contrib/fabrics/fat-tree-16.net
ibnd=$top_srcdir/tests/data/fat-tree-16.ibnd
pol=$top_srcdir/contrib/policies/fat-tree-16.conf
intents=$top_srcdir/contrib/policies/intents.conf
mixed=$top_srcdir/contrib/fabrics/mixed-caps.net
parts=$top_srcdir/tests/data/check-partitions.conf
bad=$top_srcdir/tests/policies/invalid/duplicate-level.conf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
fail() { echo "FAIL: $*"; exit 1; }

. "$top_srcdir/tests/cli-lib.sh"

# same ARGS-A -- ARGS-B: both succeed with the same standard output.
same() {
	local a=() b=()
	while [ "$1" != -- ]; do a+=("$1"); shift; done
	shift
	b=("$@")
	"$q" "${a[@]}" <"${IN:-/dev/null}" >"$tmp/a" 2>"$tmp/ea" ||
		fail "osmqos ${a[*]} exited $?: $(head -3 "$tmp/ea")"
	"$q" "${b[@]}" <"${IN2:-/dev/null}" >"$tmp/b" 2>"$tmp/eb" ||
		fail "osmqos ${b[*]} exited $?: $(head -3 "$tmp/eb")"
	cmp -s "$tmp/a" "$tmp/b" ||
		fail "osmqos ${a[*]} and osmqos ${b[*]} print different output"
	[ -s "$tmp/a" ] || fail "osmqos ${a[*]} printed nothing"
	n=$((n + 1))
}

cmds="check match tables predict synth export model query drift status plan doctor"
version=$("$q" --version) || fail "osmqos --version exited $?"
[[ "$version" == "osmqos "[0-9]* ]] || fail "osmqos --version: $version"

# --- osmqos help CMD prints CMD's help --------------------------------
for c in $cmds; do
	expect 0 "Usage: osmqos $c *" help "$c"
	expect 0 "Usage: osmqos $c *" "$c" --help
	expect 0 "Usage: osmqos $c *" "$c" -h
	expect 0 "Usage: osmqos $c *" --help "$c"
done
expect 0 "Usage: osmqos COMMAND [OPTIONS]" help
expect 2 "osmqos: unknown command 'nosuch'" help nosuch
expect 2 "osmqos help: one command at a time; unexpected 'tables'" \
	help check tables

# --- -V and --version, alone and in every subcommand -------------------
expect 0 "$version" -V
for c in $cmds; do
	expect 0 "$version" "$c" -V
	expect 0 "$version" "$c" --version
done
expect 2 "osmqos: -V takes no argument; unexpected 'x'" -V x

# --- '-' reads standard input, one input at a time ---------------------
IN=$pol expect 0 "<stdin>: valid: * port groups, *" check -
IN=$pol expect 0 "<stdin>: valid: *" check --policy - --fabric "$ft"
IN=$bad expect 1 "<stdin>:*: error: *" check -
IN=$ft same tables -f - --json -- tables -f "$ft" --json
# (Outputs that name the policy's file say <stdin>: compare others.)
IN=$pol same predict -f "$ft" -p - -- predict -f "$ft" -p "$pol"
IN=$ft same predict --fabric - --policy "$pol" --port "cn01 HCA-1/P1" -- \
	predict --fabric "$ft" --policy "$pol" --port "cn01 HCA-1/P1"
IN=$parts same match -p "$pol" -f "$ft" -k - --src "cn01 HCA-1/P1" \
	--dst "stor1 HCA-1/P1" --json -- match -p "$pol" -f "$ft" -k "$parts" \
	--src "cn01 HCA-1/P1" --dst "stor1 HCA-1/P1" --json
printf 'routing_engine minhop\nqos_max_vls 4\n' >"$tmp/opensm.conf"
IN=$tmp/opensm.conf same tables -f "$net" -c - --json -- \
	tables -f "$net" -c "$tmp/opensm.conf" --json
# With a policy too: its templates and the files it names come from the
# one standard input, read once (a second read found it empty, and the
# templates were OpenSM's defaults).
printf 'qos_max_vls 2\nqos_sl2vl 0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1\n' \
	>"$tmp/opensm2.conf"
IN=$tmp/opensm2.conf same tables -p "$pol" -f "$ft" -c - --json -- \
	tables -p "$pol" -f "$ft" -c "$tmp/opensm2.conf" --json
"$q" tables -p "$pol" -f "$ft" --json >"$tmp/c" 2>/dev/null ||
	fail "tables -p $pol -f $ft exited $?"
! cmp -s "$tmp/a" "$tmp/c" ||
	fail "the templates of $tmp/opensm2.conf change no table: the case above checks nothing"
IN=$intents same synth -p - -f "$mixed" --report -- \
	synth -p "$intents" -f "$mixed" --report
# The inputs a command parses itself: doctor's opensm.conf files,
# job-env's host lists and job map.
printf 'qos TRUE\n' >"$tmp/doctor.conf"
IN=$tmp/doctor.conf run doctor -c -
[ "$(head -n 1 "$tmp/out")" = "osmqos doctor: <stdin>" ] &&
	grep -q '^ok  *qos  *qos TRUE' "$tmp/out" ||
	fail "doctor -c -: rc $rc, $(head -n 3 "$tmp/out" "$tmp/err")"
IN=$tmp/doctor.conf run doctor -c "$tmp/doctor.conf" --standby-conf -
grep -q '^ok  *standby  *<stdin> has the same QoS settings' "$tmp/out" ||
	fail "doctor --standby-conf -: rc $rc, $(grep standby "$tmp/out") $(head -n 3 "$tmp/err")"
n=$((n + 2))
expect 2 "osmqos doctor: -c and --standby-conf both read standard input ('-'); give one of them a file" \
	doctor -c - --standby-conf -
echo 'cn[01-03]' >"$tmp/hosts"
IN=$tmp/hosts same job-env --plain --nodes-file - -f "$ft" -p "$pol" --offline -- \
	job-env --plain --nodes-file "$tmp/hosts" -f "$ft" -p "$pol" --offline
printf 'default level storage\n' >"$tmp/job.map"
IN=$tmp/job.map run job-env --map - --nodes stor1,stor2 -f "$ft" -p "$pol" --offline
[ "$rc" = 0 ] && head -n 1 "$tmp/out" | grep -q '^# osmqos job-env: class level storage (<stdin>:1 ' ||
	fail "job-env --map -: rc $rc, $(head -n 3 "$tmp/out" "$tmp/err")"
n=$((n + 1))
"$q" job-env --plain --nodes-file - -f "$ft" <&- >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(head -1 "$tmp/err")" = "osmqos job-env: cannot read hosts file from standard input: Bad file descriptor; give it as a file" ] ||
	fail "job-env --nodes-file - with stdin closed: rc $rc, $(head -1 "$tmp/err")"
n=$((n + 1))
expect 2 "osmqos tables: -p and -f both read standard input ('-'); give one of them a file" \
	tables -p - -f -
expect 2 "osmqos check: --fabric and POLICY both read standard input ('-'); give one of them a file" \
	check - --fabric -
# Standard input closed, or over the policy limit: refused like a file.
"$q" check - <&- >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(head -1 "$tmp/err")" = "osmqos check: cannot read policy from standard input: Bad file descriptor; give it as a file" ] ||
	fail "check - with stdin closed: rc $rc, $(head -1 "$tmp/err")"
n=$((n + 1))
head -c $((16 * 1024 * 1024 + 1)) /dev/zero | tr '\0' '#' >"$tmp/big"
IN=$tmp/big expect 2 "osmqos check: policy '<stdin>' is larger than the 16 MiB limit (the plugin's too); shorten it (is it the right file?)" \
	check -

# --- an option given twice is an error; flags and --pkt may repeat ------
expect 2 "osmqos tables: --port given twice; give it once" \
	tables -f "$net" --port 0x1 --port 0x2
expect 2 "osmqos check: -f given twice (also as --fabric); give it once" \
	check "$pol" --fabric "$ft" -f "$ft"
expect 2 "osmqos match: --src given twice; give it once" \
	match -p "$pol" -f "$ft" --src a --src b --dst c
expect 2 "osmqos predict: --active given twice; give it once" \
	predict -f "$net" --active 1 --active 2
expect 2 "osmqos synth: -o given twice (also as --output); give it once" \
	synth -p "$intents" -f "$mixed" --output a -o b
expect 2 "osmqos model: --limit given twice; give it once" \
	model --high 0:1 --limit 1 --limit 2 --mtu 2048
expect 2 "osmqos query: -P given twice (also as --ca-port); give it once" \
	query --ca-port 1 -P 2
expect 2 "osmqos query: --service_id given twice (also as --sid); give it once" \
	query --sid 1 --service_id 2
expect 2 "osmqos drift: --timeout given twice; give it once" \
	drift -p "$pol" --timeout 5 --timeout 6
# `audit`, the former name of drift, is the same command.
expect 0 "Usage: osmqos drift *" help audit
expect 2 "osmqos drift: --timeout given twice; give it once" \
	audit -p "$pol" --timeout 5 --timeout 6
same tables -f "$net" --json --json -- tables -f "$net" --json
same model --high - --low 0:8,1:16,2:32 --mtu 4096 --pkt 2:256 --pkt 0:1024 -- \
	model --high - --low 0:8,1:16,2:32 --mtu 4096 --pkt 2:256,0:1024
# ... but one VL twice in --pkt, in one list or two, is refused: it has
# one packet size.  In a VLArb table a VL may come back (another turn).
m=(model --low 0:8,1:16 --mtu 4096)
for pkt in "--pkt 1:256,1:512" "--pkt 1:256 --pkt 1:512"; do
	# shellcheck disable=SC2086 # $pkt is options and their arguments
	expect 2 "osmqos model: --pkt: VL 1 given twice (256 bytes, then '1:512'); give each VL one packet size" \
		"${m[@]}" $pkt
done
expect 0 "VL  table  share*" model --low 0:8,1:16,0:8 --mtu 4096
# model's values follow the shared number conventions, and an error
# names the whole entry and what in it is wrong.
expect 2 "osmqos model: --sweep-low '010..20': FROM '010' is not a number in 1..255 (decimal or 0x hex, no leading 0)" \
	"${m[@]}" --sweep-low 010..20
expect 2 "osmqos model: --sweep-low '1..020': TO '020' is not a number in 1..255 (decimal or 0x hex, no leading 0)" \
	"${m[@]}" --sweep-low 1..020
expect 2 "osmqos model: --sweep-low '5..3': FROM 5 is above TO 3; give the lower weight first" \
	"${m[@]}" --sweep-low 5..3
same "${m[@]}" --sweep-low 0x1..0x3 -- "${m[@]}" --sweep-low 1..3
expect 2 "osmqos model: --pkt '1:0256': bytes '0256' is not a number in 1..65535 (decimal or 0x hex, no leading 0)" \
	"${m[@]}" --pkt 2:256,1:0256
expect 2 "osmqos model: --pkt '15:256': VL '15' is not a number in 0..14 (decimal or 0x hex, no leading 0)" \
	"${m[@]}" --pkt 15:256
expect 2 "osmqos model: --low '0:010': weight '010' is not a number in 0..255 (decimal or 0x hex, no leading 0)" \
	model --low 0:010 --mtu 4096
expect 2 "osmqos model: --high '01:4': VL '01' is not a number in 0..14 (decimal or 0x hex, no leading 0)" \
	model --high 01:4 --limit 1 --mtu 4096

# --- SL and VL lists take the policy's ranges ---------------------------
same predict -f "$net" --active 0-3,7 -- predict -f "$net" --active 0,1,2,3,7
same predict -f "$net" --active 3-0 -- predict -f "$net" --active 0,1,2,3
same predict -f "$net" --active "0 - 2, 0xf" -- predict -f "$net" --active 0,1,2,15
same model --high 0:4 --low 1:8,2:8,3:8 --limit 8 --mtu 2048 --active 0-2 -- \
	model --high 0:4 --low 1:8,2:8,3:8 --limit 8 --mtu 2048 --active 0,1,2
expect 2 "osmqos predict: --active '0-16': '0-16' is not an SL (0-15) or a range of them; give SLs and ranges such as 0-3,7" \
	predict -f "$net" --active 0-16
expect 2 "osmqos predict: --active '1,,2' has an empty item; give SLs and ranges such as 0-3,7" \
	predict -f "$net" --active 1,,2
expect 2 "osmqos predict: --active '1-': '1-' is not an SL (0-15) or a range of them; give SLs and ranges such as 0-3,7" \
	predict -f "$net" --active 1-
expect 2 "osmqos model: --active '0-15': '0-15' is not a data VL (0-14) or a range of them; give VLs and ranges such as 0-3,7" \
	model --high 0:4 --limit 1 --mtu 2048 --active 0-15

# --- a switch named as a whole: all its ports, or its port 0 ------------
# tables and predict: the switch's lines of the full output, by GUID or
# by LID (an ibnetdiscover file has LIDs); /P<n> narrows to one port.
sw=$("$q" tables -f "$ibnd" --json --all | jq -r '.ports[] |
	select(.node == "leaf02" and .port == 0) | "\(.guid) \(.lid)"')
read -r swguid swlid <<<"$sw"
[ -n "$swlid" ] || fail "no leaf02 in $ibnd"
"$q" tables -f "$ibnd" -p "$pol" --json --all | jq -c '.ports[] |
	select(.node == "leaf02")' >"$tmp/want"
for spec in "$swguid" "lid:$swlid"; do
	"$q" tables -f "$ibnd" -p "$pol" --json --port "$spec" |
		jq -c '.ports[]' >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" ||
		fail "tables --port $spec is not every port of leaf02"
	n=$((n + 1))
done
"$q" predict -f "$ibnd" -p "$pol" --json --all | jq -c '.ports[] |
	select(.node == "leaf02")' >"$tmp/want"
[ "$(wc -l <"$tmp/want")" -gt 1 ] || fail "leaf02 has no linked ports"
for spec in "$swguid" "lid:$swlid"; do
	"$q" predict -f "$ibnd" -p "$pol" --json --port "$spec" >"$tmp/p.json"
	jq -c '.ports[]' "$tmp/p.json" >"$tmp/got"
	cmp -s "$tmp/want" "$tmp/got" ||
		fail "predict --port $spec is not every linked port of leaf02"
	# The classes and nodes describe those ports alone.
	[ "$(jq '[.nodes[].ports[]] | length' "$tmp/p.json")" = \
		"$(wc -l <"$tmp/want")" ] ||
		fail "predict --port $spec --json: nodes list other ports"
	[ "$(jq '[.classes[].ports] | add' "$tmp/p.json")" = \
		"$(wc -l <"$tmp/want")" ] ||
		fail "predict --port $spec --json: classes count other ports"
	n=$((n + 1))
done
"$q" predict -f "$ibnd" -p "$pol" --port "$swguid" >"$tmp/text"
sed 1d "$tmp/text" >"$tmp/ports"
grep -q '^leaf02/P1 ' "$tmp/ports" && ! grep -qv '^leaf02/P\|^  ' "$tmp/ports" ||
	fail "predict --port $swguid (text) shows other ports than leaf02's"
expect 0 "1 port; all 16 SLs backlogged, from every input port at once" \
	predict -f "$ibnd" -p "$pol" --port leaf02/P1
[ "$(grep -c '^leaf02' "$tmp/out")" = 1 ] ||
	fail "predict --port leaf02/P1 shows more than that port"
expect 0 '0x* "leaf02" port 0 lid *' tables -f "$ibnd" --port leaf02/P0
[ "$(grep -c '^0x' "$tmp/out")" = 1 ] ||
	fail "tables --port leaf02/P0 shows more than that port"
# match and predict --path need end ports: the switch is its port 0.
same match -p "$pol" -f "$ibnd" --src "$swguid" --dst "cn01 HCA-1/P1" -- \
	match -p "$pol" -f "$ibnd" --src leaf02/P0 --dst "cn01 HCA-1/P1"
same match -p "$pol" -f "$ibnd" --src "lid:$swlid" --dst "cn01 HCA-1/P1" \
	--json -- match -p "$pol" -f "$ibnd" --src leaf02/P0 \
	--dst "cn01 HCA-1/P1" --json
same predict -f "$ibnd" -p "$pol" --path "cn01 HCA-1/P1" "$swguid" --sl 1 \
	--json -- predict -f "$ibnd" -p "$pol" --path "cn01 HCA-1/P1" leaf02/P0 \
	--sl 1 --json
# ... as the source too (its traffic leaves through input port 0's SL2VL
# row), and an external port of a switch stands for its port 0.
same predict -f "$ibnd" -p "$pol" --path "$swguid" "cn01 HCA-1/P1" --sl 1 \
	--json -- predict -f "$ibnd" -p "$pol" --path leaf02/P0 "cn01 HCA-1/P1" \
	--sl 1 --json
same predict -f "$ibnd" -p "$pol" --path "cn01 HCA-1/P1" leaf02/P3 --sl 1 \
	--json -- predict -f "$ibnd" -p "$pol" --path "cn01 HCA-1/P1" leaf02/P0 \
	--sl 1 --json
expect 0 "SL1 from leaf02 to cn01 HCA-1/P1, 3 hop(s):" \
	predict -f "$ibnd" -p "$pol" --path leaf02 "cn01 HCA-1/P1" --sl 1
grep -q '^  \* leaf02/P[56]  *in 0 \|^    leaf02/P[56]  *in 0 ' "$tmp/out" ||
	fail "predict --path leaf02 ...: the first hop is not leaf02's uplink from port 0: $(cat "$tmp/out")"
expect 2 "osmqos tables: --port 'nosuch/P1': no node named 'nosuch' in the fabric; give a node's name or host name (cn01/P1), a GUID (0x...) or lid:N" \
	tables -f "$net" --port nosuch/P1
expect 2 "osmqos predict: --port 'nosuch/P1': no node named 'nosuch' in the fabric; give a node's name or host name (cn01/P1), a GUID (0x...) or lid:N" \
	predict -f "$net" --port nosuch/P1

# --- exit statuses: 0 done, 1 a finding (an invalid policy), 2 usage ----
expect 0 "*: valid: *" check "$pol"
expect 1 "*: error: *" check "$bad"
expect 2 "osmqos check: no POLICY given; osmqos check POLICY [OPTIONS]" check
expect 0 "rule: *" match -p "$pol" -f "$ft" --src "cn01 HCA-1/P1" --dst "stor1 HCA-1/P1"
expect 1 "*: error: *" match -p "$bad" -f "$ft" --src "cn01 HCA-1/P1" --dst "stor1 HCA-1/P1"
expect 2 "osmqos match: --src PORT is required: *" match -p "$pol" -f "$ft" --dst x
expect 0 "14 ports in * classes of equal tables (--all lists every port, --port PORT one)" tables -f "$net"
expect 0 '0x* "sw1" port 0 *' tables -f "$net" --all
expect 1 "*: error: *" tables -f "$net" -p "$bad"
expect 2 "osmqos tables: --fabric TOPO is required: *" tables
expect 0 "* ports in * classes of equal predictions; all 16 SLs backlogged, from every input port at once *" predict -f "$net"
expect 0 "12 ports; all 16 SLs backlogged, from every input port at once" \
	predict -f "$net" --all
expect 0 "12 ports; SLs 1-2 each alone on the link, from every input port at once" \
	predict -f "$net" --all --active 1,2 --alone
expect 2 "osmqos predict: --in-port 9: the largest switch has 8 ports; give an input port 0..8" \
	predict -f "$net" --in-port 9
expect 1 "*: error: *" predict -f "$net" -p "$bad"
expect 2 "osmqos predict: --path needs --sl N" predict -f "$net" --path h1 h2
expect 0 "# *" synth -p "$intents" -f "$mixed"
expect 1 "*: error: *" synth -p "$bad" -f "$mixed"
expect 2 "osmqos synth: --fabric TOPO is required: *" synth -p "$intents"
expect 0 "VL  table  share         exact" model --high 1:64 --low 0:64 --limit 8 --mtu 2048
expect 2 "osmqos model: --mtu BYTES is required: *" model --high 1:64 --limit 8
# query and drift check the policy before any MAD is sent.
expect 1 "*: error: *" query --slid 1 --dlid 2 -p "$bad" -f "$ft"
expect 2 "osmqos query: --policy and --fabric go together *" query -p "$pol"
expect 1 "*: error: *" drift -p "$bad"
expect 2 "osmqos drift: no policy in force published in *" drift -d "$tmp"
expect 2 "osmqos drift: --policy and --in-force name two policies; give one" \
	drift -p "$pol" --in-force
# Each --help says so.
for c in check match tables predict synth export query drift; do
	"$q" "$c" --help | tr '\n' ' ' | grep -q 'Exit status: 0 .*, 1 .*invalid.*, 2 ' ||
		fail "$c --help: no exit status 1 for an invalid policy"
done
# Numbers: decimal or 0x hex; a leading 0 (octal to C) is refused.
expect 2 "osmqos match: --sid '010' is not a number in 0..18446744073709551615 (decimal or 0x hex, no leading 0)" \
	match -p "$pol" -f "$ft" --src cn01 --dst cn02 --sid 010
expect 0 "rule:   1 ($pol:82:5)*" \
	match -p "$pol" -f "$ft" --src cn01 --dst cn02 --sid 0x1000000000000d00
# query's selector options each have their field's range, refused before
# anything is sent: MTU enum 1..5, rate enum 2..24, lifetime 0..63.
for v in =0 =6 '<0x6'; do
	expect 2 "osmqos query: --mtu '$v' is not [<|>|=]N with N in 1..5 (decimal or 0x hex, no leading 0)" \
		query -C nosuchca --mtu "$v"
done
for v in =1 0 '>25'; do
	expect 2 "osmqos query: --rate '$v' is not [<|>|=]N with N in 2..24 (decimal or 0x hex, no leading 0)" \
		query -C nosuchca --rate "$v"
done
expect 2 "osmqos query: --pkt-life '=64' is not [<|>|=]N with N in 0..63 (decimal or 0x hex, no leading 0)" \
	query -C nosuchca --pkt-life =64
# The ends of each range are taken (and the query goes on to the port).
expect 2 "osmqos query: no usable InfiniBand port on nosuchca*" \
	query -C nosuchca --mtu =1 --rate =2 --pkt-life 0
expect 2 "osmqos query: no usable InfiniBand port on nosuchca*" \
	query -C nosuchca --mtu '>5' --rate '<24' --pkt-life 63
expect 2 "osmqos plan: --live and --fabric name two fabrics; give one" \
	plan "$pol" -p "$pol" -f "$ft" --live
# The live-only options are refused where nothing is sent, not ignored:
# plan without --live, job-env --offline.
expect 2 "osmqos plan: -C/--ca, -P/--ca-port and -t/--timeout go with --live, which sends SMPs; --fabric reads TOPO and sends nothing: drop them" \
	plan "$pol" -p "$pol" -f "$ft" -C nosuchca -P 9 -t 5
expect 2 "osmqos plan: -t/--timeout goes with --live, which sends SMPs; --fabric reads TOPO and sends nothing: drop it" \
	plan "$pol" -p "$pol" -f "$ft" --timeout 5
expect 2 "osmqos job-env: -P/--ca-port goes with asking the SA; --offline asks nothing: drop it or --offline" \
	job-env --plain --nodes cn01 -f "$ft" -p "$pol" --offline -P 1
expect 2 "osmqos job-env: -C/--ca and -t/--timeout go with asking the SA; --offline asks nothing: drop them or --offline" \
	job-env --plain --nodes cn01 -f "$ft" -p "$pol" --offline --ca x -t 9
# Rules are numbered from 0 everywhere: plan's text and JSON, match.
sed '/qos-level-name: monitoring/s/monitoring/storage/' "$pol" >"$tmp/edit.conf"
run plan "$tmp/edit.conf" -p "$pol" -f "$ft"
[ "$rc" = 1 ] || fail "plan of a rule edit exited $rc, want 1"
grep -q "^  rule 1 ($tmp/edit.conf:82, " "$tmp/out" ||
	fail "plan: the second rule is not 'rule 1': $(grep '^  rule' "$tmp/out")"
run plan "$tmp/edit.conf" -p "$pol" -f "$ft" -j
grep -q '"rule": 1, ' "$tmp/out" || fail "plan -j: the second rule is not rule 1"
run match -p "$pol" -f "$ft" --src cn01 --dst cn02 --sid 0x1000000000000d00
first_is "$tmp/out" "rule:   1 ($pol:82:5)*"
n=$((n + 1))
expect 2 "osmqos tables: unknown option '--nosuch'" tables --nosuch
expect 2 "osmqos tables: option '--p' is ambiguous: --policy, --port, --partitions; give more of the name" \
	tables --p x
# --port is a port of the fabric wherever it is taken (tables, predict);
# the commands that send from a local HCA port take -P/--ca-port for it,
# and --port is no option of theirs.
for c in query drift job-env; do
	expect 2 "osmqos $c: unknown option '--port'" "$c" --port cn01
done
expect 2 "osmqos plan: unknown option '--port'" \
	plan "$pol" -p "$pol" -f "$ft" --port cn01
# ... and when no local port is usable, the advice names those options.
advice="list the ports with ibstat and pass -C/--ca NAME and -P/--ca-port N (*"
for c in query "drift -p $pol" "plan $pol -p $pol --live"; do
	# shellcheck disable=SC2086 # $c is a command and its arguments
	expect 2 "osmqos ${c%% *}: no usable InfiniBand port on nosuchca *; $advice" \
		$c -C nosuchca -P 9 -t 5
done
run job-env --plain --nodes cn01,cn02 -f "$ft" -p "$pol" -C nosuchca -P 9
first_is "$tmp/err" "osmqos job-env: note: the SA cannot be asked (no usable InfiniBand port on nosuchca *; $advice"
n=$((n + 1))
expect 2 "osmqos tables: option '--json' takes no argument" tables --json=1
expect 2 "osmqos tables: option '--fabric' needs an argument" tables --fabric
expect 2 "osmqos tables: --fabric needs a file name, not an empty argument" \
	tables --fabric ""

echo "ok: $n convention checks"
