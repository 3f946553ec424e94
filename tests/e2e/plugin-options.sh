#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# event_plugin_options as opensm hands them over: a quoted path with a
# blank is used whole; the same path unquoted is not used in part (no file
# at the part before the blank, the audit trail at its default, the log
# says why); audit= naming the policy file or the published policy in
# force is refused and the file is left untouched; malloc_trim= is off
# unless 1, a bad value said once; every bad value is said before the
# load line, which marks it; an audit file that cannot be opened
# counts every decided path as a record dropped, audit=off none (off and
# none in any case), a relative audit= is made absolute with a warning;
# osmqos named twice in event_plugin_name loads once; records the writer
# could only put in its deleted file (the trail moved away, a symlink
# left) count as dropped.  An options line OpenSM cuts is said.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init plugin-options

pol=$E2E_DIR/qos-policy.conf
cat >"$pol" <<'POL'
qos-ulps
    default : 1
end-qos-ulps
POL
cp "$pol" "$E2E_DIR/policy.orig"
mkdir -p "$E2E_DIR/sp ace"
spaced="$E2E_DIR/sp ace/a.json"
default_audit=$E2E_DIR/osmqos-audit.log

e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"

# path_query: one PathRecord through the plugin, so the audit trail gets a
# line.
path_query() {
	local cas slid dlid out
	mapfile -t cas < <(e2e_ibnetdiscover | awk -F'"' '/^Ca/ {print $4}' | head -n 2)
	slid=$(e2e_lid "${cas[0]}")
	dlid=$(e2e_lid "${cas[1]}")
	out=$(e2e_sim saquery -p --slid "$slid" --dlid "$dlid" 2>&1) ||
		e2e_fail "saquery PathRecord failed: $out"
}

# wait_lines FILE: until FILE has a line (the audit writer is a thread).
wait_lines() {
	e2e_wait_for . "$1" 10 || e2e_fail "nothing written to $1"
}

# restart NAME OPTIONS [OPENSM OPTION...]
restart() {
	[ -n "$E2E_OPENSM_PID" ] && e2e_stop_opensm
	[ -f "$E2E_DIR/opensm.log" ] && mv "$E2E_DIR/opensm.log" "$E2E_DIR/opensm-$1.log"
	rm -f "$default_audit"
	e2e_start_opensm qos=TRUE "qos_policy_file=$pol" "${@:3}" \
		"event_plugin_options=$2"
}

# 1. Quoted: the whole path.
restart quoted "audit=\"$spaced\" publish_dir=$E2E_DIR"
path_query
wait_lines "$spaced"
[ -e "$E2E_DIR/sp" ] && e2e_fail "1: $E2E_DIR/sp exists"
grep -q "osmqos: audit trail: $spaced\$" "$E2E_OSM_LOG" ||
	e2e_fail "1: the log does not name the quoted path"
e2e_log "1: quoted path used whole: $(wc -l <"$spaced") audit line(s)"

# 2. Unquoted: nothing from it is applied.  (The file removed once its
# writer is gone: a running one would make it again.)
e2e_stop_opensm
rm -f "$spaced"
restart unquoted "audit=$spaced publish_dir=$E2E_DIR"
path_query
wait_lines "$default_audit"
[ -e "$E2E_DIR/sp" ] && e2e_fail "2: the part before the blank was used ($E2E_DIR/sp)"
[ -e "$spaced" ] && e2e_fail "2: $spaced written from an unquoted option"
grep -q "must be quoted" "$E2E_OSM_LOG" || e2e_fail "2: the log does not say why"
grep -q "loaded (built for .*audit=(default)" "$E2E_OSM_LOG" ||
	e2e_fail "2: the load line does not show audit at its default"
e2e_log "2: unquoted path not applied; audit at $default_audit"

# 3. audit= the policy file: refused, the policy untouched.
restart clash "audit=$pol publish_dir=$E2E_DIR"
path_query
wait_lines "$default_audit"
grep -q "osmqos: audit=$pol is the policy file" "$E2E_OSM_LOG" ||
	e2e_fail "3: no error for audit= the policy file"
cmp -s "$pol" "$E2E_DIR/policy.orig" || e2e_fail "3: the policy file changed"
e2e_hup_sweep "osmqos: sweep 2: "
grep -q "policy .* rejected" "$E2E_OSM_LOG" && e2e_fail "3: the policy was rejected"
e2e_log "3: audit= the policy refused; policy unchanged"
# The policy in force as written (what drift --in-force and status read)
# is a published file too: refused, it stays the policy.
inforce=$E2E_DIR/osmqos-policy-in-force.conf
restart clash-in-force "audit=$inforce publish_dir=$E2E_DIR"
path_query
wait_lines "$default_audit"
grep -q "osmqos: audit=$inforce is a file the plugin publishes" "$E2E_OSM_LOG" ||
	e2e_fail "3: no error for audit= the policy in force"
cmp -s "$inforce" "$pol" || e2e_fail "3: the policy in force changed"
e2e_log "3: audit= the policy in force refused; it stays the policy"
# OpenSM's own partition file: refused, and OpenSM still parses it at the
# next heavy sweep (JSON appended to it would drop every partition but
# the default).
parts=$E2E_DIR/partitions.conf
cp "$top_srcdir/tests/e2e/data/sa-diff/partitions.conf" "$parts"
cp "$parts" "$E2E_DIR/partitions.orig"
restart clash-parts "audit=$parts publish_dir=$E2E_DIR" "partition_config_file=$parts"
path_query
wait_lines "$default_audit"
grep -q "osmqos: audit=$parts is OpenSM's partition_config_file; the audit trail goes to the default" \
	"$E2E_OSM_LOG" || e2e_fail "3: no error for audit= OpenSM's partition file"
e2e_hup_sweep "osmqos: sweep 2: "
cmp -s "$parts" "$E2E_DIR/partitions.orig" || e2e_fail "3: the partition file changed"
grep -q "PARSE ERROR" "$E2E_OSM_LOG" && e2e_fail "3: OpenSM cannot parse its partition file"
e2e_log "3: audit= OpenSM's partition file refused; it still parses"
# Any other file that does not start like a trail (its first line not
# JSON): refused by the writer, left as it was, and no trail.
notes=$E2E_DIR/notes.txt
echo "not an audit trail" >"$notes"
restart notrail "audit=$notes publish_dir=$E2E_DIR"
grep -q "osmqos: audit: $notes is not an osmqos audit trail (its first line is not JSON); give audit= a file of its own" \
	"$E2E_OSM_LOG" || e2e_fail "3: no error for audit= a file that is not a trail"
grep -q "osmqos: no audit trail: cannot open $notes (see above); .* restarted with audit= naming a file of its own" \
	"$E2E_OSM_LOG" || e2e_fail "3: what to do about a file that is not a trail: $(grep 'no audit trail' "$E2E_OSM_LOG")"
path_query
[ "$(cat "$notes")" = "not an audit trail" ] || e2e_fail "3: $notes changed"
e2e_log "3: audit= a file that is not a trail refused; left as it was"

# 4. malloc_trim: off by default (the runs above), on with 1, and a bad
# value is an error that leaves it off.
phases() {
	e2e_wait_for "osmqos: sweep 1: phases: " "$E2E_OSM_LOG" 30 ||
		e2e_fail "4: no phases line"
	grep -o "memory trim [^,]*" "$E2E_OSM_LOG" | head -n 1
}
for f in "$E2E_DIR"/opensm-*.log "$E2E_OSM_LOG"; do
	t=$(grep -o "memory trim [^,]*" "$f" | head -n 1)
	[ "$t" = "memory trim off" ] || e2e_fail "4: by default ($f): '$t'"
done
restart trim "malloc_trim=1 publish_dir=$E2E_DIR"
t=$(phases)
[[ $t =~ ^memory\ trim\ [0-9]+\.[0-9]{2}\ ms$ ]] || e2e_fail "4: malloc_trim=1: '$t'"
restart badtrim "malloc_trim=yes publish_dir=$E2E_DIR"
t=$(phases)
[ "$t" = "memory trim off" ] || e2e_fail "4: malloc_trim=yes: '$t'"
[ "$(grep -c "malloc_trim=yes is neither 0 nor 1; using 0" "$E2E_OSM_LOG")" = 1 ] ||
	e2e_fail "4: malloc_trim=yes not said once"
e2e_log "4: malloc_trim off by default, '$t' with a bad value, on with 1"
# Every bad value is said before the load line, which shows it as given
# with the marker, once each; so is "osmqos." without a key.
restart values "publish_interval=-1 opensm_policy=Direct osmqos.=x publish_detail=all publish_dir=$E2E_DIR"
load=$(grep -n "osmqos [0-9.]* loaded (built for .*publish_interval=-1.*\[option errors above" \
	"$E2E_OSM_LOG" | cut -d: -f1)
[ -n "$load" ] || e2e_fail "4: no load line with the values as given and the marker"
for want in "publish_interval=-1 is not a number of seconds" \
	"opensm_policy=Direct is neither 'copy' nor 'direct'" \
	"publish_detail=all is neither 'classes' nor 'ports'" \
	"'osmqos.=x' has no key after 'osmqos.'"; do
	l=$(grep -n "osmqos: event_plugin_options: $want" "$E2E_OSM_LOG" | cut -d: -f1)
	[ "$(echo "$l" | wc -w)" = 1 ] && [ "$l" -lt "$load" ] ||
		e2e_fail "4: '$want' not said once before the load line (lines '$l', load $load)"
done
e2e_log "4: bad values said once each before the load line"

# 5. An audit file that cannot be opened: no trail, and every decided
# path is counted as a record dropped (status and the metric show the
# gap); with audit=off nothing is counted.
restart noaudit "audit=$E2E_DIR/missing-dir/audit.log publish_dir=$E2E_DIR publish_interval=1"
grep -q "osmqos: no audit trail: cannot open $E2E_DIR/missing-dir/audit.log" "$E2E_OSM_LOG" ||
	e2e_fail "5: no error for an audit file that cannot be opened"
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 30 || e2e_fail "5: no publication"
path_query
for ((i = 0; i < 50; i++)); do
	n=$(awk '/^osmqos_audit_dropped_total / {print $2}' "$E2E_DIR/osmqos.prom")
	[ "${n:-0}" -ge 1 ] && break
	sleep 0.1
done
[ "${n:-0}" -ge 1 ] || e2e_fail "5: a path decided without an audit file is not counted: ${n:-none}"
e2e_osmqos status -d "$E2E_DIR" >"$E2E_DIR/noaudit.txt" 2>&1
grep -q "^audit trail: $n record" "$E2E_DIR/noaudit.txt" ||
	e2e_fail "5: status: $(cat "$E2E_DIR/noaudit.txt")"
restart off "audit=off publish_dir=$E2E_DIR publish_interval=1"
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 30 || e2e_fail "5: no publication (off)"
path_query
sleep 1.5
[ "$(awk '/^osmqos_audit_dropped_total / {print $2}' "$E2E_DIR/osmqos.prom")" = 0 ] ||
	e2e_fail "5: audit=off counts dropped records"
e2e_log "5: no audit file: $n decided path(s) counted as dropped; audit=off: none"
# audit=OFF and None are off too (no file named so in opensm's working
# directory); a relative audit= is made absolute, said in a warning.
for off in OFF None; do
	restart "$off" "audit=$off publish_dir=$E2E_DIR"
	grep -q "osmqos: audit trail off (audit=$off)" "$E2E_OSM_LOG" ||
		e2e_fail "5: audit=$off is not off: $(grep 'audit trail' "$E2E_OSM_LOG")"
	[ -e "$E2E_DIR/opensm-cwd/$off" ] && e2e_fail "5: audit=$off made a file $off"
done
restart relative "audit=rel.log publish_dir=$E2E_DIR"
rel=$E2E_DIR/opensm-cwd/rel.log
grep -q "osmqos: warning: audit= is relative: the audit trail is $rel, in opensm's working directory; give audit= an absolute path" \
	"$E2E_OSM_LOG" || e2e_fail "5: a relative audit= not warned: $(grep 'audit' "$E2E_OSM_LOG")"
grep -q "osmqos: audit trail: $rel\$" "$E2E_OSM_LOG" ||
	e2e_fail "5: the audit trail not named absolute"
e2e_log "5: audit=OFF and None off; a relative audit= made absolute and warned"
# audit= a directory: a file in it is what to give, not permissions.
mkdir -p "$E2E_DIR/adir"
restart dir "audit=$E2E_DIR/adir/ publish_dir=$E2E_DIR"
grep -q "osmqos: audit: $E2E_DIR/adir/ is a directory; give audit= a file path, e.g. $E2E_DIR/adir/osmqos-audit.log\$" \
	"$E2E_OSM_LOG" || e2e_fail "5: audit= a directory: $(grep 'osmqos: audit: ' "$E2E_OSM_LOG")"
l=$(grep "osmqos: no audit trail: cannot open $E2E_DIR/adir/ " "$E2E_OSM_LOG")
[[ $l == *"restarted with audit= naming a file of its own"* && $l != *permissions* ]] ||
	e2e_fail "5: what to do about audit= a directory: $l"
e2e_log "5: audit= a directory: says to give a file in it"

# 6. osmqos named twice in event_plugin_name: the second instance is
# refused with one error, the first runs (opensm sweeps, the plugin
# answers PathRecords and publishes).
e2e_stop_opensm
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-off.log"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"event_plugin_name=osmqos osmqos" \
	"event_plugin_options=audit=off publish_dir=$E2E_DIR"
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 30 ||
	e2e_fail "6: no publication with osmqos named twice"
e2e_hup_sweep
path_query
kill -0 "$E2E_OPENSM_PID" 2>/dev/null || e2e_fail "6: opensm died"
[ "$(grep -c "osmqos: named more than once in event_plugin_name" "$E2E_OSM_LOG")" = 1 ] ||
	e2e_fail "6: the second instance was not refused once"
[ "$(grep -c "osmqos [0-9.]* loaded" "$E2E_OSM_LOG")" = 1 ] ||
	e2e_fail "6: $(grep -c "osmqos [0-9.]* loaded" "$E2E_OSM_LOG") instances loaded"
grep -q "osmqos: sweep 2: published" "$E2E_OSM_LOG" ||
	e2e_fail "6: the first instance did not publish the second sweep"
e2e_log "6: named twice: one instance runs, the other refused once"
e2e_stop_opensm

# 7. The trail moved to another file system (mv: copied, then unlinked)
# and a symlink left at the path: the writer refuses the symlink, and
# what it wrote to its deleted file would be in no file, so those records
# count as dropped (one ERROR says so, and the unload line).
trail=$E2E_DIR/trail.log
moved=$E2E_DIR/moved.log
restart moved "audit=$trail publish_dir=$E2E_DIR"
path_query
wait_lines "$trail"
sleep 0.5 # the writer's batch
n=$(wc -l <"$trail")
cp "$trail" "$moved"
# the symlink replaces the file in one rename: its last link goes
ln -s "$moved" "$trail.new" && mv -T "$trail.new" "$trail"
path_query
e2e_wait_for "osmqos: audit: records are being lost: the open file was deleted" \
	"$E2E_OSM_LOG" 10 || e2e_fail "7: no error for records written to a deleted file"
path_query
sleep 0.5
e2e_stop_opensm
[ "$(wc -l <"$moved")" = "$n" ] || e2e_fail "7: $moved changed through the symlink"
d=$(sed -n 's/.*osmqos: audit: [0-9]* records written in [0-9]* lines, \([0-9]*\) dropped.*/\1/p' \
	"$E2E_OSM_LOG")
[ "${d:-0}" -ge 2 ] || e2e_fail "7: the records after the move not counted as dropped: '${d}'"
[ "$(grep -c "records are being lost" "$E2E_OSM_LOG")" = 1 ] ||
	e2e_fail "7: the lost records not said once"
e2e_log "7: trail moved away, symlink left: $d record(s) counted as dropped, said once"

# 8. An event_plugin_options line longer than OpenSM reads (it cuts it
# after 1022 characters): the plugin says its options were probably cut.
restart long "publish_dir=$E2E_DIR audit=$E2E_DIR/$(printf '%01000d' 0).log"
[ "$(grep -c "osmqos: event_plugin_options is [0-9]* characters, as many as OpenSM reads of its opensm.conf line (1022 with the key): the line was probably cut" \
	"$E2E_OSM_LOG")" = 1 ] || e2e_fail "8: a cut options line not said once"
grep -q "loaded (built for .*\[option errors above" "$E2E_OSM_LOG" ||
	e2e_fail "8: the load line does not point at the error"
e2e_log "8: an options line OpenSM cut: said"
e2e_stop_opensm
e2e_pass
