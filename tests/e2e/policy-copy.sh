#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# OpenSM's own policy parse reads the plugin's copy of the last good
# policy (plugin/policyfile/policy_copy.c).  With enable_quirks every PathRecord is
# answered by OpenSM's handler from that parse, so a Service-ID rule's SL
# shows which policy OpenSM holds:
#   1. the copy is written with the policy's exact bytes and OpenSM loads it;
#   2. a syntax error, a removed file, a directory and a FIFO at the policy
#      path: every sweep completes, OpenSM logs no parse error, stays up and
#      still answers SL 2;
#   3. a valid edit reaches OpenSM in the same sweep (SL 3), also when
#      saved with CRLF line ends (SL 4; the copy has LF ends); a qos-ulps
#      ipoib line on a missing partition makes OpenSM refuse the copy,
#      and the plugin and `osmqos check` say so; a file OpenSM's scanner
#      reads otherwise as written (a last comment without a newline, a
#      level named like a keyword) reaches OpenSM as meant (SL 5, 6);
#      the policy unchanged and partitions.conf edited to drop the
#      partition of its ipoib line, OpenSM refuses the copy (SL 0) and
#      the plugin says so once, publishes it and `osmqos status` exits 1;
#      with the partition back, all of that clears (SL 4);
#   4. a removed copy is rewritten at the next sweep, and so is an edited
#      one; a directory or a FIFO at the copy's path neither stops nor
#      blocks OpenSM;
#   5. opensm_policy=direct (the control): the same syntax error drops
#      OpenSM's policy (SL 0), as stock OpenSM does; CRLF line ends there
#      make the plugin log an error;
#   6. an unwritable publish directory: one error line, OpenSM reads the
#      file itself and the sweep is unaffected;
#   7. a policy file that is one the plugin writes in the publish
#      directory is refused with one error and never written over.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init policy-copy
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

pol=$E2E_DIR/qos-policy.conf
pub=$E2E_DIR/pub
copy=$pub/osmqos-last-good-policy.conf
sid=0x1000000000000100
mkdir -p "$pub"

# write_policy SL: a policy whose Service-ID rule gives SL.
write_policy() {
	e2e_sid_policy "$pol" "$sid" "$1"
}

# sl_of WHAT: the SL OpenSM answers for the Service-ID query.
sl_of() {
	local out
	out=$(e2e_sim "$top_builddir/osmqos" query --json --slid "$src" \
		--dlid "$dst" --sid "$sid" 2>"$E2E_DIR/query.err") ||
		e2e_fail "$1: osmqos query failed: $(cat "$E2E_DIR/query.err")"
	jq -r '.records[0].sl' <<<"$out"
}

expect_sl() {
	local got
	got=$(sl_of "$1")
	[ "$got" = "$2" ] || e2e_fail "$1: OpenSM answers SL $got, want $2"
	e2e_log "$1: SL $got"
}

# parse_errors: OpenSM's own policy parse errors (ERR AC..) so far.
parse_errors() { grep -c "ERR AC0" "$E2E_OSM_LOG"; }
last_parse_errors() { grep "ERR AC0" "$E2E_OSM_LOG" | tail -n 2; }
# write_errors: the plugin's "cannot write COPY" lines.
write_errors() {
	grep -c "osmqos: cannot write .*osmqos-last-good-policy.conf" \
		"$E2E_OSM_LOG"
}

# opensm_parse NAME REFUSED GAUGE: what the plugin publishes of OpenSM's
# own parse of the copy (the JSON's policy.opensm_parse.refused, the
# Prometheus gauge), and `osmqos status` (exit 1 exactly when refused;
# its text in "$E2E_DIR/NAME.txt").
opensm_parse() {
	local rc want=0
	[ "$2" = true ] && want=1
	jq -e --arg c "$copy" --argjson r "$2" '.policy.opensm_parse.path == $c and
		.policy.opensm_parse.refused == $r and
		((.policy.opensm_parse.refused_since_epoch != null) == $r)' \
		"$pub/osmqos-bandwidth.json" >/dev/null ||
		e2e_fail "$1: published JSON: $(jq -c .policy "$pub/osmqos-bandwidth.json")"
	grep -qxF "osmqos_policy_opensm_refused{path=\"$copy\"} $3" "$pub/osmqos.prom" ||
		e2e_fail "$1: osmqos.prom: $(grep opensm_refused "$pub/osmqos.prom")"
	e2e_osmqos status -d "$pub" >"$E2E_DIR/$1.txt" 2>&1
	rc=$?
	[ "$rc" = "$want" ] || e2e_fail "$1: status exited $rc, want $want: $(cat "$E2E_DIR/$1.txt")"
	e2e_osmqos status -d "$pub" --json >"$E2E_DIR/$1.json" 2>&1
	jq -e --argjson r "$2" '.policy.opensm_parse.refused == $r' "$E2E_DIR/$1.json" \
		>/dev/null || e2e_fail "$1: status --json: $(cat "$E2E_DIR/$1.json")"
	e2e_log "$1: published and status agree (refused $2)"
}
# refused_lines: the plugin's lines saying OpenSM refuses the copy.
refused_lines() {
	grep -c "osmqos: OpenSM's own parser refused $copy" "$E2E_OSM_LOG"
}

# partitions.conf: none until 3e (OpenSM then has Default alone).
parts=$E2E_DIR/partitions.conf
start() {
	e2e_start_opensm qos=TRUE enable_quirks=TRUE "qos_policy_file=$pol" \
		"partition_config_file=$parts" \
		"event_plugin_options=publish_dir=$1 audit=off $2"
}

write_policy 2
e2e_start_ibsim "$top_srcdir/contrib/fabrics/two-switch.net"
start "$pub" ""
src=$(e2e_lid "h1 HCA-1") dst=$(e2e_lid "h4 HCA-1")
[ -n "$src" ] && [ -n "$dst" ] || e2e_fail "no h1/h4 in the fabric"

# 1. The copy holds the policy's bytes; OpenSM loads the copy.
cmp -s "$pol" "$copy" || e2e_fail "1: $copy is not a copy of $pol"
grep -q "Loading QoS policy file ($copy)" "$E2E_OSM_LOG" ||
	e2e_fail "1: OpenSM did not load $copy:" \
		"$(grep -a 'QoS policy' "$E2E_OSM_LOG" | head -n 3)"
mode=$(stat -c %a "$copy")
[ "$mode" = 600 ] || e2e_fail "1: $copy has mode $mode, want 600"
expect_sl "1 good policy" 2
errs0=$(parse_errors)

# 2. Bad edits: nothing changes for OpenSM, nothing blocks or kills it.
good=$E2E_DIR/good.conf
cp "$pol" "$good"
echo "qos-levels oops" >>"$pol"
e2e_hup_sweep
expect_sl "2 syntax error" 2
rm -f "$pol"
e2e_hup_sweep
expect_sl "2 removed" 2
mkdir "$pol"
e2e_hup_sweep
expect_sl "2 directory" 2
rmdir "$pol"
mkfifo "$pol"
e2e_hup_sweep
expect_sl "2 FIFO" 2
rm -f "$pol"
cmp -s "$good" "$copy" || e2e_fail "2: the copy changed on a bad edit"
[ "$(parse_errors)" = "$errs0" ] ||
	e2e_fail "2: OpenSM logged policy errors: $(last_parse_errors)"

# 3. A valid edit reaches OpenSM in the same sweep.
write_policy 3
e2e_hup_sweep
expect_sl "3 valid edit" 3
cmp -s "$pol" "$copy" || e2e_fail "3: the copy is not the new policy"

# 3b. The same policy saved with CRLF line ends (SL 4): osmqos takes it and
# OpenSM's copy has LF ends, so OpenSM's own lexer takes it too.
write_policy 4
sed -i 's/$/\r/' "$pol"
e2e_hup_sweep
expect_sl "3b CRLF policy" 4
grep -q $'\r' "$copy" && e2e_fail "3b: the copy kept the CRs"
cmp -s <(tr -d '\r' <"$pol") "$copy" || e2e_fail "3b: the copy differs beyond its CRs"
[ "$(parse_errors)" = "$errs0" ] ||
	e2e_fail "3b: OpenSM logged policy errors: $(last_parse_errors)"

# 3c. A qos-ulps ipoib line on a partition that does not exist (no
# partitions.conf: only Default): OpenSM's parser refuses the whole copy
# (its handler answers SL 0), and the plugin says so with the line, as
# `osmqos check --partitions` does; then the policy without it again.
write_policy 4
printf 'qos-ulps\n    ipoib, pkey 0x3 : 5\nend-qos-ulps\n' >>"$pol"
e2e_hup_sweep
expect_sl "3c ipoib on a missing partition" 0
grep -q "IPoIB partition, pkey 0x0003 - partition doesn't exist" \
	"$E2E_OSM_LOG" || e2e_fail "3c: OpenSM did not refuse the ipoib line"
grep -q "osmqos: $pol:18:5: error: qos-ulps ipoib: partition 0x0003 does not exist" \
	"$E2E_OSM_LOG" || e2e_fail "3c: the plugin did not report the ipoib line"
printf 'Default=0x7fff: ALL=full;\n' >"$E2E_DIR/parts.conf"
e2e_osmqos check "$pol" --partitions "$E2E_DIR/parts.conf" \
	>/dev/null 2>"$E2E_DIR/check.err" &&
	e2e_fail "3c: osmqos check accepted the ipoib line"
grep -q ":18:5: error: qos-ulps ipoib: partition 0x0003 does not exist" \
	"$E2E_DIR/check.err" || e2e_fail "3c: check said: $(cat "$E2E_DIR/check.err")"
write_policy 4
e2e_hup_sweep
expect_sl "3c ipoib line removed" 4
errs0=$(parse_errors)

# 3d. Valid to osmqos, read otherwise by OpenSM's scanner as written: a
# last comment without its newline (the copy gets one), then a level
# named like one of OpenSM's keywords (the copy is the policy written
# again, names quoted, and the plugin says why).  OpenSM takes both.
write_policy 5
printf '# end of policy' >>"$pol"
e2e_hup_sweep
expect_sl "3d comment without a final newline" 5
cmp -s <(cat "$pol"; echo) "$copy" || e2e_fail "3d: the copy is not the file with its last newline"
write_policy 6
sed -i 's/sid_level/my-port-group/' "$pol"
e2e_osmqos check "$pol" >/dev/null 2>"$E2E_DIR/check.err" ||
	e2e_fail "3d: osmqos check refused the keyword name: $(cat "$E2E_DIR/check.err")"
e2e_hup_sweep
expect_sl "3d level named my-port-group" 6
grep -q 'name: "my-port-group"' "$copy" ||
	e2e_fail "3d: the copy is not the policy written again: $(cat "$copy")"
grep -q "osmqos: OpenSM's own parser would read policy $pol otherwise than osmqos ($pol:[0-9]*:[0-9]*: its parser stops: .*): OpenSM reads it written again" \
	"$E2E_OSM_LOG" || e2e_fail "3d: the plugin did not say why the copy is written again"
[ "$(parse_errors)" = "$errs0" ] ||
	e2e_fail "3d: OpenSM logged policy errors: $(last_parse_errors)"
write_policy 4
e2e_hup_sweep
expect_sl "3d back" 4

# 3e. The policy unchanged, partitions.conf edited under it: OpenSM takes
# an ipoib line on a partition partitions.conf defines, then refuses the
# same copy at every sweep once the partition is gone.  The plugin says
# so once, publishes it (JSON, Prometheus), `osmqos status` prints it and
# exits 1; with the partition back all of it clears.
printf 'Default=0x7fff, ipoib : ALL=full ;\np4=0x0004, ipoib : ALL=full ;\n' >"$parts"
write_policy 4
printf 'qos-ulps\n    ipoib, pkey 0x4 : 5\nend-qos-ulps\n' >>"$pol"
published="osmqos: sweep [0-9]*: published"
e2e_hup_sweep "$published"
expect_sl "3e ipoib on a defined partition" 4
opensm_parse 3e-taken false 0
n0=$(refused_lines)
printf 'Default=0x7fff, ipoib : ALL=full ;\n' >"$parts"
e2e_hup_sweep "$published"
expect_sl "3e partition removed" 0
grep -q "IPoIB partition, pkey 0x0004 - partition doesn't exist" \
	"$E2E_OSM_LOG" || e2e_fail "3e: OpenSM did not refuse the copy"
opensm_parse 3e-refused true 1
grep -q "^OpenSM's own parser: refuses $copy since " "$E2E_DIR/3e-refused.txt" ||
	e2e_fail "3e: status said: $(cat "$E2E_DIR/3e-refused.txt")"
grep -q "osmqos check $pol --partitions FILE" "$E2E_DIR/3e-refused.txt" ||
	e2e_fail "3e: status says not what to do: $(cat "$E2E_DIR/3e-refused.txt")"
e2e_hup_sweep "$published"
n=$(refused_lines)
[ "$n" = $((n0 + 1)) ] ||
	e2e_fail "3e: the refusal was logged $((n - n0)) times, want once"
grep -q "osmqos: OpenSM's own parser refused $copy, the copy of the policy in force (.*; \`osmqos check $pol --partitions $parts\` says why" \
	"$E2E_OSM_LOG" || e2e_fail "3e: the plugin's line does not say what to do"
printf 'Default=0x7fff, ipoib : ALL=full ;\np4=0x0004, ipoib : ALL=full ;\n' >"$parts"
e2e_hup_sweep "$published"
expect_sl "3e partition back" 4
opensm_parse 3e-taken-again false 0
grep -q "osmqos: OpenSM's own parser takes $copy again" "$E2E_OSM_LOG" ||
	e2e_fail "3e: the plugin did not say OpenSM takes the copy again"
rm -f "$parts"
write_policy 4
e2e_hup_sweep
expect_sl "3e back" 4
errs0=$(parse_errors)

# 4. A removed copy (a cache cleaner) is rewritten.
rm -f "$copy"
e2e_hup_sweep
[ -f "$copy" ] || e2e_fail "4: $copy was not rewritten"
expect_sl "4 copy removed" 4
[ "$(parse_errors)" = "$errs0" ] ||
	e2e_fail "4: OpenSM logged policy errors: $(last_parse_errors)"
# An edited copy is written again before OpenSM reads it: OpenSM keeps
# the policy osmqos checked (SL 4), not the edit's SL 6.
sed -i 's/sl: 4/sl: 6/' "$copy"
grep -q 'sl: 6' "$copy" || e2e_fail "4b: the test's edit did not apply"
e2e_hup_sweep
grep -q "copy of the policy $copy was edited, not by osmqos" "$E2E_OSM_LOG" ||
	e2e_fail "4b: no error for the edited copy"
grep -q 'sl: 6' "$copy" && e2e_fail "4b: the edited copy stayed"
expect_sl "4b copy edited" 4
# A directory or a FIFO at the copy's path: OpenSM would exit on the one
# and block its sweep on the other; the sweep completes, OpenSM stays up
# with its policy (it reads the operator's file while a directory stands
# there).
rm -f "$copy"
mkdir "$copy"
e2e_hup_sweep
kill -0 "$E2E_OPENSM_PID" 2>/dev/null || e2e_fail "4c: opensm died on a directory"
grep -q "copy of the policy $copy was replaced by a directory" "$E2E_OSM_LOG" ||
	e2e_fail "4c: no error for the directory"
expect_sl "4c copy a directory" 4
rmdir "$copy"
mkfifo "$copy"
e2e_hup_sweep
[ -f "$copy" ] && [ ! -p "$copy" ] || e2e_fail "4d: the FIFO was not replaced"
expect_sl "4d copy a FIFO" 4
[ "$(parse_errors)" = "$errs0" ] ||
	e2e_fail "4: OpenSM logged policy errors: $(last_parse_errors)"
e2e_stop_opensm

# 5. The control: with opensm_policy=direct OpenSM drops its policy on
# the same syntax error, which is what the copy prevents.
write_policy 2
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-copy.log"
start "$pub" opensm_policy=direct
grep -q "Loading QoS policy file ($pol)" "$E2E_OSM_LOG" ||
	e2e_fail "5: with opensm_policy=direct OpenSM did not load $pol"
expect_sl "5 direct, good policy" 2
# CRLF line ends: osmqos applies the policy, OpenSM's own parser cannot;
# the plugin says so.
sed -i 's/$/\r/' "$pol"
e2e_hup_sweep
grep -q "osmqos: policy $pol has CR line ends; OpenSM's own parser rejects" \
	"$E2E_OSM_LOG" || e2e_fail "5: no error about CR line ends in direct mode"
grep -q "ERR AC03" "$E2E_OSM_LOG" ||
	e2e_fail "5: OpenSM took the CRLF file: the error would be wrong"
write_policy 2
e2e_hup_sweep
expect_sl "5 direct, good policy again" 2
echo "qos-levels oops" >>"$pol"
e2e_hup_sweep
expect_sl "5 direct, syntax error" 0
grep -q "ERR AC03" "$E2E_OSM_LOG" ||
	e2e_fail "5: OpenSM logged no parse error for the bad file"
e2e_stop_opensm

# 6. The copy cannot be written: logged once, OpenSM reads the file.
write_policy 2
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-direct.log"
start "$E2E_DIR/no-such-dir" ""
n=$(write_errors)
[ "$n" = 1 ] || e2e_fail "6: $n 'cannot write' lines, want 1"
grep -q "Loading QoS policy file ($pol)" "$E2E_OSM_LOG" ||
	e2e_fail "6: OpenSM did not fall back to $pol"
e2e_hup_sweep
n=$(write_errors)
[ "$n" = 1 ] || e2e_fail "6: the write error was logged $n times"
expect_sl "6 unwritable" 2
e2e_stop_opensm
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-unwritable.log"

# 7. The policy file is one the plugin writes in the publish directory:
# nothing is read from it and it is never written over (its CRLF ends
# stay), through a sweep and a HUP.  One ERROR says what to do, and
# status repeats it.  Named by
# policy= or by qos_policy_file; the published documents' own names
# stop the publishing instead.
pub7=$E2E_DIR/pub7
mkdir -m 0700 "$pub7"
write_policy 2
sed -i 's/$/\r/' "$pol"
for how in policy=osmqos-last-good-policy.conf policy=osmqos-policy-in-force.conf \
	policy=osmqos-no-policy-in-force.conf qos_policy_file=osmqos-policy-in-force.conf \
	policy=osmqos.prom; do
	opt=${how%%=*}
	own=$pub7/${how#*=}
	# As the plugin names the option.
	word=$opt
	[ "$opt" = policy ] && word=policy=
	rm -f "$pub7"/osmqos-* "$pub7"/.osmqos.lock
	cp "$pol" "$own"
	if [ "$opt" = policy ]; then
		e2e_start_opensm qos=TRUE enable_quirks=TRUE "qos_policy_file=$pol" \
			"event_plugin_options=publish_dir=$pub7 audit=off policy=$own"
	else
		e2e_start_opensm qos=TRUE enable_quirks=TRUE "qos_policy_file=$own" \
			"event_plugin_options=publish_dir=$pub7 audit=off"
	fi
	e2e_hup_sweep
	cmp -s "$pol" "$own" || e2e_fail "7 $how: the plugin wrote over the policy"
	grep -q "osmqos: $word names a file osmqos writes; copy it elsewhere and point $word there, then restart opensm: $own is " "$E2E_OSM_LOG" ||
		e2e_fail "7 $how: no error saying what to do"
	n=$(grep -c "names a file osmqos writes" "$E2E_OSM_LOG")
	[ "$n" = 1 ] || e2e_fail "7 $how: said $n times, want once"
	grep -q "policy $own loaded" "$E2E_OSM_LOG" && e2e_fail "7 $how: a policy was read from it"
	if [ "$how" = policy=osmqos.prom ]; then
		[ -e "$pub7/osmqos-bandwidth.json" ] &&
			e2e_fail "7 $how: published though the policy is a published file"
	else
		e2e_osmqos status -d "$pub7" >"$E2E_DIR/status-7.txt" 2>&1
		grep -qF "copy it elsewhere, point $word there and restart opensm" "$E2E_DIR/status-7.txt" ||
			e2e_fail "7 $how: status: $(cat "$E2E_DIR/status-7.txt")"
	fi
	e2e_stop_opensm
	mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-7-${how//\//_}.log"
	e2e_log "7 $how: refused, not written over"
done
e2e_pass
