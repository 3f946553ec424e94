#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# opensm restarted while the policy file cannot be put in force (an edit
# nobody noticed): a syntax error, a directory, a FIFO, the file gone.
# The policy in force before the start, as the plugin wrote it to the
# publish directory, is in force again: one error says so, the SA
# answers under it, OpenSM reads the plugin's copy (it neither exits on
# the directory nor hangs on the FIFO), and `osmqos status` shows the
# file's refusal.  The refusal does not announce the templates the
# restore then avoids, and the files published say where the policy in
# force came from: the copy, and the file it was written for (not the
# file now configured, which never held it).  With no earlier policy in
# the publish directory, a directory or FIFO at the path leaves OpenSM
# on its templates, sweeping, instead of exiting or hanging, and the log
# says no earlier policy was found -- also where OpenSM gets no copy (a
# publish directory others can write, opensm_policy=direct).
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init policy-restart

pol=$E2E_DIR/qos-policy.conf
pub=$E2E_DIR/pub
mkdir -p "$pub"
sid=0x1000000000000100
e2e_sid_policy "$pol" $sid 2
cp "$pol" "$E2E_DIR/policy.good"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/two-switch.net"

start() {
	e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
		"event_plugin_options=publish_dir=$pub audit=off"
	e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 60 ||
		e2e_fail "$1: the plugin published no sweep"
}
stop() {
	e2e_stop_opensm
	mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-$1.log"
}
# sl: the SL of a PathRecord between two hosts for the policy's SID.
sl() {
	e2e_sim "$top_builddir/osmqos" query --json --slid "$(e2e_lid "h1 HCA-1")" \
		--dlid "$(e2e_lid "h4 HCA-1")" --sid $sid 2>"$E2E_DIR/pr.err" |
		jq -r '.records[0].sl'
}

start first
[ "$(sl)" = 2 ] || e2e_fail "first: the policy's SL 2 not answered: $(sl)"
[ -s "$pub/osmqos-policy-in-force.conf" ] || e2e_fail "first: no policy in force written"
stop first

for how in syntax directory fifo removed; do
	rm -rf "$pol"
	case $how in
	syntax) { cat "$E2E_DIR/policy.good"; echo "qos-levels oops"; } >"$pol" ;;
	directory) mkdir "$pol" ;;
	fifo) mkfifo "$pol" ;;
	removed) ;;
	esac
	start "$how"
	kill -0 "$E2E_OPENSM_PID" 2>/dev/null || e2e_fail "$how: opensm exited"
	grep -q "osmqos: policy $pol cannot be put in force (above): the policy in force before this start, $pub/osmqos-policy-in-force.conf (hash 0x[0-9a-f]*, written for $pol)" "$E2E_OSM_LOG" ||
		e2e_fail "$how: no error naming the policy restored and its file"
	grep -q "NO POLICY IN FORCE" "$E2E_OSM_LOG" &&
		e2e_fail "$how: the log announces no policy, then restores one"
	grep -q "Loading QoS policy file ($pub/osmqos-last-good-policy.conf)" "$E2E_OSM_LOG" ||
		e2e_fail "$how: OpenSM does not read the plugin's copy"
	grep -q "Loading QoS policy file ($pol)" "$E2E_OSM_LOG" &&
		e2e_fail "$how: OpenSM read the operator's file"
	[ "$(sl)" = 2 ] || e2e_fail "$how: the restored policy's SL 2 not answered: $(sl)"
	e2e_osmqos status -d "$pub" >"$E2E_DIR/status-$how.txt" 2>&1
	grep -q "^last rejected edit:" "$E2E_DIR/status-$how.txt" ||
		e2e_fail "$how: status shows no refusal: $(cat "$E2E_DIR/status-$how.txt")"
	e2e_hup_sweep
	[ "$(grep -c "cannot be put in force" "$E2E_OSM_LOG")" = 1 ] ||
		e2e_fail "$how: the restore was said more than once"
	stop "$how"
	e2e_log "$how: the policy in force before the start is in force again"
done

# Started on another file with a syntax error: the policy restored is
# credited to the file it was written for, in the log, the JSON and the
# Prometheus file; once the file is good, to the file.
other=$E2E_DIR/other.conf
{ cat "$E2E_DIR/policy.good"; echo "qos-levels oops"; } >"$other"
e2e_start_opensm qos=TRUE "qos_policy_file=$other" \
	"event_plugin_options=publish_dir=$pub audit=off"
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 60 ||
	e2e_fail "other: the plugin published no sweep"
grep -q "osmqos: policy $other rejected ([0-9]* errors); the policy in force before this start is put in force again if osmqos wrote one (next line)" "$E2E_OSM_LOG" ||
	e2e_fail "other: the refusal does not say a restore follows"
grep -q "NO POLICY IN FORCE" "$E2E_OSM_LOG" &&
	e2e_fail "other: the log announces no policy, then restores one"
grep -q "the policy in force before this start, $pub/osmqos-policy-in-force.conf (hash 0x[0-9a-f]*, written for $pol), is in force again" "$E2E_OSM_LOG" ||
	e2e_fail "other: the restore does not name the file it was written for"
[ "$(sl)" = 2 ] || e2e_fail "other: the restored policy's SL 2 not answered: $(sl)"
json=$pub/osmqos-bandwidth.json
[ "$(jq -r .policy.path "$json")" = "$other" ] ||
	e2e_fail "other: JSON policy.path is not the file configured"
[ "$(jq -r .policy.restored_from.path "$json")" = "$pub/osmqos-policy-in-force.conf" ] ||
	e2e_fail "other: JSON restored_from.path: $(jq -c .policy "$json")"
[ "$(jq -r .policy.restored_from.written_for "$json")" = "$pol" ] ||
	e2e_fail "other: JSON restored_from.written_for: $(jq -c .policy "$json")"
grep -qF "osmqos_policy_restored_info{path=\"$pub/osmqos-policy-in-force.conf\",written_for=\"$pol\"} 1" "$pub/osmqos.prom" ||
	e2e_fail "other: no osmqos_policy_restored_info naming $pol"
e2e_osmqos status -d "$pub" >"$E2E_DIR/status-other.txt" 2>&1
grep -qF "restored at start from $pub/osmqos-policy-in-force.conf, written for $pol" "$E2E_DIR/status-other.txt" ||
	e2e_fail "other: status does not say where the policy came from: $(cat "$E2E_DIR/status-other.txt")"
cp "$E2E_DIR/policy.good" "$other"
e2e_hup_sweep "published"
[ "$(jq -r .policy.restored_from "$json")" = null ] ||
	e2e_fail "other fixed: still restored: $(jq -c .policy "$json")"
grep -q "osmqos_policy_restored_info{" "$pub/osmqos.prom" &&
	e2e_fail "other fixed: osmqos_policy_restored_info still published"
grep -q " $other\$" "$pub/osmqos-policy-in-force.source" ||
	e2e_fail "other fixed: the copy is not said to be written for $other"
stop other
e2e_log "other: the restored policy is credited to the file it was written for"

# The file fixed: it loads, OpenSM reads the copy of it.
rm -rf "$pol"
cp "$E2E_DIR/policy.good" "$pol"
sed -i "s/sl: 2/sl: 3/" "$pol"
start fixed
[ "$(sl)" = 3 ] || e2e_fail "fixed: the file's SL 3 not answered: $(sl)"
grep -q "cannot be put in force" "$E2E_OSM_LOG" && e2e_fail "fixed: restored anyway"
stop fixed

# No earlier policy: a directory or FIFO at the path leaves OpenSM on its
# templates, sweeping.
rm -f "$pub"/osmqos-*.conf
for how in directory fifo; do
	rm -rf "$pol"
	[ "$how" = directory ] && mkdir "$pol" || mkfifo "$pol"
	start "none-$how"
	e2e_hup_sweep
	kill -0 "$E2E_OPENSM_PID" 2>/dev/null || e2e_fail "none-$how: opensm exited"
	grep -q "OpenSM reads $pub/osmqos-no-policy-in-force.conf, which does not exist" "$E2E_OSM_LOG" ||
		e2e_fail "none-$how: OpenSM not pointed away from the path"
	grep -q "Loading QoS policy file ($pol)" "$E2E_OSM_LOG" &&
		e2e_fail "none-$how: OpenSM read the path itself"
	[ -e "$pub/osmqos-no-policy-in-force.conf" ] &&
		e2e_fail "none-$how: something exists at the name OpenSM reads"
	grep -q "no policy in force before this start to put in force again ($pub/osmqos-policy-in-force.conf: " "$E2E_OSM_LOG" ||
		e2e_fail "none-$how: the log does not say no earlier policy was found"
	stop "none-$how"
	e2e_log "none-$how: no earlier policy: OpenSM on its templates, sweeping"
done

# With policy= the plugin reads another file than OpenSM: what OpenSM
# would hang or exit on is the file OpenSM reads.  policy= a directory
# and qos_policy_file good: OpenSM reads its own file.  policy= refused
# and qos_policy_file a directory: OpenSM is pointed away from it.
start_opt() {
	e2e_start_opensm qos=TRUE "qos_policy_file=$2" \
		"event_plugin_options=publish_dir=$pub audit=off policy=$3"
	e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 60 ||
		e2e_fail "$1: the plugin published no sweep"
	e2e_hup_sweep
	kill -0 "$E2E_OPENSM_PID" 2>/dev/null || e2e_fail "$1: opensm exited"
}
rm -rf "$pol" "$E2E_DIR/osm.conf.d"
rm -f "$pub"/osmqos-*.conf
mkdir "$pol"
cp "$E2E_DIR/policy.good" "$E2E_DIR/osm-own.conf"
start_opt option-dir "$E2E_DIR/osm-own.conf" "$pol"
grep -q "Loading QoS policy file ($E2E_DIR/osm-own.conf)" "$E2E_OSM_LOG" ||
	e2e_fail "option-dir: OpenSM does not read its own good file"
grep -q "OpenSM reads $pub/osmqos-no-policy-in-force.conf" "$E2E_OSM_LOG" &&
	e2e_fail "option-dir: OpenSM pointed away from its own good file"
stop option-dir
mkdir "$E2E_DIR/osm.conf.d"
{ cat "$E2E_DIR/policy.good"; echo "qos-levels oops"; } >"$E2E_DIR/refused.conf"
start_opt osm-dir "$E2E_DIR/osm.conf.d" "$E2E_DIR/refused.conf"
grep -q "OpenSM's parser hangs or exits on $E2E_DIR/osm.conf.d (not a regular file): OpenSM reads $pub/osmqos-no-policy-in-force.conf" "$E2E_OSM_LOG" ||
	e2e_fail "osm-dir: OpenSM not pointed away from its directory"
stop osm-dir
e2e_log "policy= apart: OpenSM's own file decides what OpenSM is kept off"

# No copy for OpenSM (a publish directory its group can write,
# opensm_policy=direct): OpenSM would read the path itself, and is kept
# off it all the same.  In the open directory another user could create
# the name it reads instead, so that name is in the cache directory
# (E2E_DIR, mode 0700), not the publish directory.
start_nocopy() {
	e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
		"event_plugin_options=publish_dir=$2 audit=off $3"
	e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 60 ||
		e2e_fail "$1: the plugin published no sweep"
	e2e_hup_sweep "SUBNET UP" 20
}
# kept_off NAME NONE [LINE]: from the log's line LINE (default 1) on,
# OpenSM read NONE, never $pol, and still sweeps.
kept_off() {
	local log=$E2E_DIR/opensm-$1.tail

	kill -0 "$E2E_OPENSM_PID" 2>/dev/null || e2e_fail "$1: opensm exited"
	tail -n "+${3:-1}" "$E2E_OSM_LOG" >"$log"
	grep -q "OpenSM reads $2, which does not exist" "$log" ||
		e2e_fail "$1: OpenSM not pointed at $2"
	grep -q "Loading QoS policy file ($pol)" "$log" &&
		e2e_fail "$1: OpenSM read the path itself"
	[ -e "$2" ] && e2e_fail "$1: something exists at $2"
	stop "$1"
	e2e_log "$1: OpenSM kept off the path without a copy"
}
pubg=$E2E_DIR/pub-group
mkdir "$pubg"
chmod 0775 "$pubg"
for how in directory fifo; do
	rm -rf "$pol"
	[ "$how" = directory ] && mkdir "$pol" || mkfifo "$pol"
	start_nocopy "open-$how" "$pubg"
	grep -q "NO POLICY IN FORCE: the fabric stays on OpenSM's per-port-type templates" "$E2E_OSM_LOG" ||
		e2e_fail "open-$how: the log does not say the templates apply"
	kept_off "open-$how" "$E2E_DIR/osmqos-no-policy-in-force.conf"
done
rm -rf "$pol"
mkfifo "$pol"
start_nocopy direct-fifo "$pub" opensm_policy=direct
kept_off direct-fifo "$pub/osmqos-no-policy-in-force.conf"
# A policy in force under direct, then a FIFO: the next sweeps go on.
rm -rf "$pol"
cp "$E2E_DIR/policy.good" "$pol"
start_nocopy direct-later "$pub" opensm_policy=direct
[ "$(sl)" = 2 ] || e2e_fail "direct-later: the policy's SL 2 not answered: $(sl)"
line=$(($(wc -l <"$E2E_OSM_LOG") + 1))
rm -f "$pol"
mkfifo "$pol"
e2e_hup_sweep "SUBNET UP" 20
e2e_hup_sweep "SUBNET UP" 20
[ "$(sl)" = 2 ] || e2e_fail "direct-later: the last good policy's SL 2 not answered: $(sl)"
kept_off direct-later "$pub/osmqos-no-policy-in-force.conf" "$line"
e2e_pass
