#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# SA front takeover (docs/sa-front.md): the plugin takes over OpenSM's
# PathRecord/MultiPathRecord registrations and answers unicast queries
# itself.  PathRecords for >= 10 LID pairs must be identical with the
# plugin on and off, every query must have been answered by the plugin
# (not passed to OpenSM's handler), opensm must exit
# cleanly on SIGTERM (OpenSM unregisters our handler before unloading us),
# and memcheck must find nothing in libosmqos while queries flow.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init sa-passthrough

net=$top_srcdir/contrib/fabrics/fat-tree-16.net
takeover="osmqos: SA PathRecord/MultiPathRecord handlers taken over"
takeover="$takeover (unicast answered under the policy)"

# query_all OUT: saquery -p for every pair in $pairs, one block per pair.
query_all() {
	local out=$1 p r
	: >"$out"
	for p in "${pairs[@]}"; do
		printf '== %s\n' "$p" >>"$out"
		# stdout only: stderr carries umad2sim's per-process banner.
		r=$(e2e_sim saquery -p --slid "${p% *}" --dlid "${p#* }" \
			2>"$E2E_DIR/saquery.err") ||
			e2e_fail "saquery -p $p failed: $r $(cat "$E2E_DIR/saquery.err")"
		printf '%s\n' "$r" >>"$out"
	done
}

# stop_clean: SIGTERM opensm; it must exit 0 within 15 s.
stop_clean() {
	local i rc
	kill -TERM "$E2E_OPENSM_PID"
	for ((i = 0; i < 150; i++)); do
		kill -0 "$E2E_OPENSM_PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -0 "$E2E_OPENSM_PID" 2>/dev/null &&
		e2e_fail "opensm still running 15 s after SIGTERM"
	wait "$E2E_OPENSM_PID"
	rc=$?
	E2E_OPENSM_PID=
	[ "$rc" -eq 0 ] || e2e_fail "opensm exited with status $rc"
}

# keep_log NAME: opensm appends to its log; give each run its own.
keep_log() {
	mv "$E2E_OSM_LOG" "$E2E_DIR/$1.log"
	E2E_OSM_LOG=$E2E_DIR/$1.log
}

e2e_start_ibsim "$net"

# --- 1. With the plugin. -------------------------------------------------
e2e_start_opensm qos=TRUE
grep -qF "$takeover" "$E2E_OSM_LOG" || e2e_fail "takeover line missing"
if grep -E "ERR|osmqos:.*(error|not OpenSM|not registered)" "$E2E_OSM_LOG" |
   grep -i -e osmqos -e "SA "; then
	e2e_fail "errors logged with the plugin loaded"
fi

mapfile -t lids < <(e2e_ibnetdiscover |
	awk -F'"' '/^Ca/ {print $4}' | head -n 5 | while read -r d; do
		e2e_lid "$d"
	done)
[ "${#lids[@]}" -eq 5 ] || e2e_fail "fabric shows fewer than 5 CAs"
sw=$(e2e_ibnetdiscover | awk '/^Switch/ && match($0, /lid [0-9]+/) {
	print substr($0, RSTART + 4, RLENGTH - 4); exit }')
[ -n "$sw" ] || e2e_fail "no switch LID"
# Every ordered CA pair among 4 (12), CA <-> switch, and a self path.
pairs=()
for s in "${lids[@]:0:4}"; do
	for d in "${lids[@]:0:4}"; do
		[ "$s" != "$d" ] && pairs+=("$s $d")
	done
done
pairs+=("${lids[4]} $sw" "$sw ${lids[4]}" "${lids[4]} ${lids[4]}")
e2e_log "${#pairs[@]} LID pairs over CAs ${lids[*]} and switch $sw"

query_all "$E2E_DIR/pr-plugin.txt"
grep -c "PathRecord dump" "$E2E_DIR/pr-plugin.txt" | grep -qx "${#pairs[@]}" ||
	e2e_fail "not one PathRecord per pair: $E2E_DIR/pr-plugin.txt"
stop_clean
grep -q "osmqos: unloading" "$E2E_OSM_LOG" ||
	e2e_fail "plugin delete() not called"
grep -Eq "Segmentation|SIGSEGV|SIGABRT|Aborted" "$E2E_DIR/opensm.out" &&
	e2e_fail "opensm crashed: $(cat "$E2E_DIR/opensm.out")"
counters=$(grep "osmqos: SA front: " "$E2E_OSM_LOG" | tail -n 1)
e2e_log "${counters#*osmqos: }"
n=$(sed -n 's/.*SA front: PathRecord \([0-9]*\) queries.*/\1/p' <<<"$counters")
[ -n "$n" ] && [ "$n" -ge "${#pairs[@]}" ] ||
	e2e_fail "plugin counted ${n:-no} PathRecord queries, sent ${#pairs[@]}"
a=$(sed -n 's/.*SA front: PathRecord [0-9]* queries (\([0-9]*\) answered.*/\1/p' <<<"$counters")
[ -n "$a" ] && [ "$a" -ge "${#pairs[@]}" ] ||
	e2e_fail "plugin answered ${a:-no} PathRecord queries itself, sent ${#pairs[@]}"
# OpenSM unregistered ours at shutdown, so delete() must not restore.
grep -q "given back to OpenSM" "$E2E_OSM_LOG" &&
	e2e_fail "delete() re-registered a handler OpenSM had already removed"
keep_log opensm-plugin

# --- 2. Stock OpenSM, same fabric and cache (same LIDs). ------------------
e2e_start_opensm qos=TRUE "event_plugin_name=(null)"
grep -q "osmqos" "$E2E_OSM_LOG" && e2e_fail "plugin loaded despite (null)"
grep -q "ERR" "$E2E_OSM_LOG" &&
	e2e_fail "stock opensm logged errors: $(grep ERR "$E2E_OSM_LOG")"
rm -f "$E2E_DIR/ibnetdiscover.out"
query_all "$E2E_DIR/pr-stock.txt"
if ! diff -u "$E2E_DIR/pr-stock.txt" "$E2E_DIR/pr-plugin.txt" \
	>"$E2E_DIR/pr.diff"; then
	head -n 40 "$E2E_DIR/pr.diff"
	e2e_fail "PathRecords differ with the plugin (see $E2E_DIR/pr.diff)"
fi
e2e_log "${#pairs[@]} PathRecords identical with and without the plugin"
stop_clean
keep_log opensm-stock

# --- 3. Under memcheck, queries flowing through the plugin. ---------------
if command -v valgrind >/dev/null; then
	E2E_TIMEOUT=120
	E2E_OPENSM_WRAPPER="valgrind --error-exitcode=42 --leak-check=full \
		--show-leak-kinds=definite --log-file=$E2E_DIR/valgrind.%p.log"
	e2e_start_opensm qos=TRUE
	grep -qF "$takeover" "$E2E_OSM_LOG" || e2e_fail "no takeover under valgrind"
	pairs=("${pairs[@]:0:4}")
	query_all "$E2E_DIR/pr-valgrind.txt"
	e2e_stop_opensm
	vg=$(ls "$E2E_DIR"/valgrind.*.log | head -n 1)
	[ -s "$vg" ] || e2e_fail "no valgrind log"
	grep -E "ERROR SUMMARY|definitely lost" "$vg" | sed 's/^/  /'
	# Any error record whose stack passes through the plugin.
	# A record starts at an unindented line that is not a summary.
	if awk '/^==[0-9]+== [A-Z]/ &&
		!/^==[0-9]+== (HEAP|LEAK|ERROR|For |Memcheck|Copyright|Using|Command|Parent)/ {
			rec = 1; buf = ""
		}
		rec {buf = buf $0 "\n"}
		rec && /^==[0-9]+== $/ {
			if (buf ~ /libosmqos|osmqos_|oq_|sa_front/) {
				print buf; bad = 1
			}
			rec = 0
		}
		END {exit !bad}' "$vg"; then
		e2e_fail "memcheck errors through libosmqos: see $vg"
	fi
	grep -q "osmqos: unloading" "$E2E_OSM_LOG" ||
		e2e_fail "plugin delete() not called under valgrind"
else
	e2e_log "valgrind not installed: memcheck part skipped"
fi
e2e_pass
