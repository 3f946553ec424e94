#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# SM failover.  Two opensm instances with the plugin on
# one ibsim fat tree, attached at different nodes, with different
# sm_priority, the same qos-setup policy and each its own audit file.
# With the master up and the other in STANDBY, record every port's
# tables and the answers to a 30-query PathRecord/MultiPathRecord corpus;
# kill the master (SIGKILL by default); the standby must take over and
# the fabric must end with identical tables, byte-identical answers and a
# continuous audit trail: a query loop runs across the kill, and every
# query the SA answered has exactly one line, in the old master's file
# before the kill or in the new master's after it.
#
# Figures: failover time (kill -> MASTER -> SUBNET UP -> first answer),
# QoS Sets the new master sent, trail queries answered/lost.
# Knobs: FO_KILL_SIGNAL (KILL), FO_POLL_MS (sminfo_polling_timeout, 1000),
# FO_RETRIES (polling_retry_number, 3), FO_MASTER_HOST (spine01),
# FO_STANDBY_HOST (cn12), FO_QUERY_HOST (cn02).
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
. "$top_srcdir/tests/stress/faults-lib.sh"
faults_init failover

: "${FO_KILL_SIGNAL:=KILL}" "${FO_POLL_MS:=1000}" "${FO_RETRIES:=3}"
: "${FO_MASTER_HOST:=spine01}" "${FO_STANDBY_HOST:=cn12}"
: "${FO_QUERY_HOST:=cn02}"

pol=$top_srcdir/tests/stress/faults-policy.conf
audit_m=$E2E_DIR/audit-master.log
audit_s=$E2E_DIR/audit-standby.log
common=(qos=TRUE "qos_policy_file=$pol" log_flags=0x23
	"sminfo_polling_timeout=$FO_POLL_MS" "polling_retry_number=$FO_RETRIES")

e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
OQ_SM_HOST=$FO_MASTER_HOST e2e_start_opensm "${common[@]}" sm_priority=10 \
	"event_plugin_options=audit=$audit_m"
faults_start_opensm2 "$E2E_DIR/standby" "$FO_STANDBY_HOST" "${common[@]}" \
	sm_priority=1 "event_plugin_options=audit=$audit_s"
e2e_wait_for "Entering STANDBY state" "$FAULTS_OSM2_LOG" 60 ||
	e2e_fail "the second opensm did not enter STANDBY"
grep -q "Entering MASTER state" "$E2E_OSM_LOG" ||
	e2e_fail "the first opensm is not MASTER"
# The master re-sweeps when it sees the other SM; let that settle.
ups=0
for ((i = 0; i < 50; i++)); do
	n=$(grep -c "SUBNET UP" "$E2E_OSM_LOG")
	[ "$n" = "$ups" ] && [ "$i" -ge 10 ] && break
	ups=$n
	sleep 0.1
done
e2e_log "MASTER at $FO_MASTER_HOST (pid $E2E_OPENSM_PID)," \
	"STANDBY at $FO_STANDBY_HOST (pid $FAULTS_OSM2_PID)"

# The fabric before: CAs, predicted tables, every port read back.
faults_fresh_topology "$E2E_DIR/topo-before.ibnd"
faults_cas "$E2E_DIR/topo-before.ibnd" >"$E2E_DIR/cas-before"
mapfile -t cas <"$E2E_DIR/cas-before"
[ "${#cas[@]}" -eq 16 ] || e2e_fail "expected 16 CAs, found ${#cas[@]}"
faults_predict "$E2E_DIR/topo-before.ibnd" "$pol" "$E2E_OSM_CONF" \
	"$E2E_DIR/tables-before.json"
faults_tables_snapshot "$E2E_DIR/tables-before.json" \
	"$E2E_DIR/readback-before" ||
	e2e_fail "before the failover: programmed tables differ from osmqos tables"

# q OUT ARGS...: osmqos query --json from FO_QUERY_HOST; OUT.json, OUT.rc.
q() {
	local out=$1

	shift
	SIM_HOST=$FO_QUERY_HOST e2e_sim "$top_builddir/osmqos" query --json \
		--timeout 3000 "$@" >"$out.json" 2>"$out.err"
	echo $? >"$out.rc"
}

# The corpus: 30 CA pairs, by LID and by GID, with ServiceIDs, QoS
# classes, SL/MTU/P_Key constraints and MultiPathRecords, so that every
# rule of the policy, the DEFAULT level and refusals are all exercised.
run_corpus() {
	local dir=$1 i s d sname slid sguid dname dlid dguid ends opts

	mkdir -p "$dir"
	for ((i = 0; i < 30; i++)); do
		s=$((i % 16))
		d=$(((5 * i + 7) % 16))
		[ "$s" = "$d" ] && d=$(((d + 1) % 16))
		read -r sname slid sguid <<<"${cas[$s]}"
		read -r dname dlid dguid <<<"${cas[$d]}"
		if ((i % 2)); then
			ends=(--sgid "$sguid" --dgid "$dguid")
		else
			ends=(--slid "$slid" --dlid "$dlid")
		fi
		case $((i % 10)) in
		0) opts=() ;;
		1) opts=(--sid "$(printf '0x10000000000001%02x' "$i")") ;;
		2) opts=(--qos-class 5) ;;
		3) opts=(--qos-class 7) ;;
		4) opts=(--qos-class 8 --numb-path 2) ;;
		5) opts=(--sid 0x1000000000000abc) ;;
		6) opts=(--reversible) ;;
		7) opts=(--sl 1) ;;
		8) opts=(--mtu '>2') ;;
		9) ends=(--mpr --sgids "$sguid" --dgids "$dguid")
		   opts=(--qos-class 7) ;;
		esac
		q "$dir/$i" "${ends[@]}" "${opts[@]}"
		echo "$i $sname -> $dname ${ends[*]} ${opts[*]} rc $(cat "$dir/$i.rc")" \
			>>"$dir/index"
	done
}

run_corpus "$E2E_DIR/corpus-before"
answered=$(awk '$NF == 0' "$E2E_DIR/corpus-before/index" | wc -l)
refused=$(awk '$NF == 1' "$E2E_DIR/corpus-before/index" | wc -l)
bad=$(awk '$NF != 0 && $NF != 1' "$E2E_DIR/corpus-before/index" | head -n 3)
[ -z "$bad" ] || e2e_fail "corpus queries failed before the failover: $bad"
e2e_log "corpus before: $answered queries with records, $refused refused by the SA"
[ "$answered" -ge 20 ] || e2e_fail "only $answered of 30 corpus queries got records"
faults_wait_audit "$audit_m" 30 10 ||
	e2e_fail "master's audit has $(faults_audit_count "$audit_m")" \
		"lines for 30 corpus queries"

# The trail loop: one query after another across the kill, each with its
# own ServiceID (the policy's trail range), so each audit line names its
# query.  "N RC START END" per query.
trail=$E2E_DIR/trail
read -r _ t_slid _ <<<"${cas[6]}"
read -r _ t_dlid _ <<<"${cas[12]}"
trail_loop() {
	local n=0 t0 rc

	trap 'exit 0' TERM
	while [ ! -e "$trail.stop" ]; do
		t0=$(faults_now)
		SIM_HOST=$FO_QUERY_HOST e2e_sim "$top_builddir/osmqos" query \
			--json --timeout 1000 --slid "$t_slid" --dlid "$t_dlid" \
			--sid "$(printf '0x2000000000%06x' "$n")" \
			>/dev/null 2>"$trail.err"
		rc=$?
		[ "$rc" = 0 ] || cp "$trail.err" "$trail.failed.err"
		echo "$n $rc $t0 $(faults_now)" >>"$trail"
		n=$((n + 1))
	done
}
trail_loop &
FAULTS_BG_PID=$!
for ((i = 0; i < 300; i++)); do
	[ "$(awk '$2 == 0' "$trail" 2>/dev/null | wc -l)" -ge 5 ] && break
	sleep 0.1
done
[ "$i" -lt 300 ] || e2e_fail "the trail loop got no 5 answers in 30 s"

# Kill the master; time the takeover.  The standby must not have taken
# over on its own (SMInfo polls unanswered under load).
grep -q "Entering MASTER state" "$FAULTS_OSM2_LOG" &&
	e2e_fail "the standby became MASTER while the master was alive (raise FO_POLL_MS)"
# A standby publishes nothing; the master does (each publishes into its
# own cache directory).
[ -s "$E2E_DIR/osmqos.prom" ] || e2e_fail "the master published no $E2E_DIR/osmqos.prom"
[ ! -e "$E2E_DIR/standby/osmqos.prom" ] ||
	e2e_fail "the standby published $E2E_DIR/standby/osmqos.prom"
# The master dies while the standby waits for no answer from it: under
# ibsim a poll the master received but never answered would stay
# outstanding in the standby for ever, and the standby would never leave
# DISCOVERING (faults_freeze_idle).  The standby is stopped from before
# the kill until the master has exited, so no poll reaches a dying master.
faults_freeze_idle "$FAULTS_OSM2_PID" "$FAULTS_OSM2_LOG" 60 ||
	e2e_fail "the standby had requests unanswered for 60 s while the" \
		"master was alive: $FAULTS_PENDING"
t_kill=$(faults_now)
kill -"$FO_KILL_SIGNAL" "$E2E_OPENSM_PID"
wait "$E2E_OPENSM_PID" 2>/dev/null
E2E_OPENSM_PID=
kill -CONT "$FAULTS_OSM2_PID"
FAULTS_STOPPED_PID=
ups_sb=$(grep -c "SUBNET UP" "$FAULTS_OSM2_LOG")
t_master= t_up=
for ((i = 0; i < 1200; i++)); do
	if [ -z "$t_master" ] && grep -q "Entering MASTER state" "$FAULTS_OSM2_LOG"; then
		t_master=$(faults_now)
	fi
	if [ -n "$t_master" ] &&
	   [ "$(grep -c "SUBNET UP" "$FAULTS_OSM2_LOG")" -gt "$ups_sb" ]; then
		t_up=$(faults_now)
		break
	fi
	sleep 0.05
done
[ -n "$t_master" ] || e2e_fail "the standby never entered MASTER state"
[ -n "$t_up" ] || e2e_fail "the new master never reached SUBNET UP"
# Let the loop get 5 answers from the new master, then stop it.
for ((i = 0; i < 300; i++)); do
	[ "$(awk -v t="$t_up" '$2 == 0 && $3 > t' "$trail" | wc -l)" -ge 5 ] && break
	sleep 0.1
done
touch "$trail.stop"
wait "$FAULTS_BG_PID"
FAULTS_BG_PID=
t_first=$(awk -v t="$t_kill" '$2 == 0 && $3 > t { print $4; exit }' "$trail")
[ -n "$t_first" ] || e2e_fail "no trail query was answered after the kill"
e2e_log "failover (SIG$FO_KILL_SIGNAL, polling ${FO_POLL_MS} ms x $FO_RETRIES;" \
	"standby idle at stop $FAULTS_FREEZE_TRIES):" \
	"MASTER after $(faults_secs "$t_kill" "$t_master") s," \
	"SUBNET UP after $(faults_secs "$t_kill" "$t_up") s," \
	"first answer after $(faults_secs "$t_kill" "$t_first") s"

# 1. Tables: the same on every port, and still the policy's.
faults_fresh_topology "$E2E_DIR/topo-after.ibnd"
faults_cas "$E2E_DIR/topo-after.ibnd" >"$E2E_DIR/cas-after"
diff -u "$E2E_DIR/cas-before" "$E2E_DIR/cas-after" ||
	e2e_fail "CA LIDs/GUIDs changed across the failover"
faults_predict "$E2E_DIR/topo-after.ibnd" "$pol" "$FAULTS_OSM2_CONF" \
	"$E2E_DIR/tables-after.json"
diff <(tables_expected "$E2E_DIR/tables-before.json" | sort) \
	<(tables_expected "$E2E_DIR/tables-after.json" | sort) >/dev/null ||
	e2e_fail "osmqos tables predicts different tables after the failover"
faults_tables_snapshot "$E2E_DIR/tables-after.json" \
	"$E2E_DIR/readback-after" ||
	e2e_fail "after the failover: programmed tables differ from osmqos tables"
diff -u "$E2E_DIR/readback-before" "$E2E_DIR/readback-after" ||
	e2e_fail "port tables differ before and after the failover"
nports=$(awk '{print $1" "$2}' "$E2E_DIR/readback-after" | sort -u | wc -l)
sets=$(E2E_OSM_LOG=$FAULTS_OSM2_LOG qos_sets_since 0)
logged=$(sed -n 's/.*osmqos: sweep [0-9]*: \([0-9]*\) QoS Set MADs.*/\1/p' \
	"$FAULTS_OSM2_LOG" | awk '{ n += $1 } END { print n + 0 }')
e2e_log "tables identical on $nports ports ($(wc -l <"$E2E_DIR/readback-after") tables);" \
	"the new master sent $sets SL2VL/VLArb Sets (plugin counted $logged)"
[ "$sets" = "$logged" ] || e2e_fail "new master: frames $sets != plugin count $logged"
# VLHighLimit: ibsim does not keep it; compare what each master sent.
jq -r '.ports[] | select(.vlarb_low) | .vl_high_limit' \
	"$E2E_DIR/tables-after.json" | grep -v '^0$' | sort -n >"$E2E_DIR/vlhl.expected"
# first_sweep_vlhl LOG OUT: the sets of a master's first sweep (to its
# first SUBNET UP) only: a later sweep (the other SM's arrival can trigger
# one) may reach a port by another directed route, which vlhl_sets_since
# counts as another port.
first_sweep_vlhl() {
	local first
	first=$(grep -n "SUBNET UP" "$1" | head -n 1 | cut -d: -f1)
	head -n "${first:-0}" "$1" >"$2.log"
	E2E_OSM_LOG=$2.log vlhl_sets_since 0 | grep -v '^0$' >"$2"
}
first_sweep_vlhl "$E2E_OSM_LOG" "$E2E_DIR/vlhl.old"
first_sweep_vlhl "$FAULTS_OSM2_LOG" "$E2E_DIR/vlhl.new"
diff -q "$E2E_DIR/vlhl.expected" "$E2E_DIR/vlhl.old" >/dev/null ||
	e2e_fail "old master's VLHighLimit Sets differ from the compiled ones"
diff -q "$E2E_DIR/vlhl.expected" "$E2E_DIR/vlhl.new" >/dev/null ||
	e2e_fail "new master's VLHighLimit Sets differ from the compiled ones"

# 2. Answers: byte-identical JSON and exit status for the whole corpus.
run_corpus "$E2E_DIR/corpus-after"
for ((i = 0; i < 30; i++)); do
	cmp -s "$E2E_DIR/corpus-before/$i.json" "$E2E_DIR/corpus-after/$i.json" &&
	cmp -s "$E2E_DIR/corpus-before/$i.rc" "$E2E_DIR/corpus-after/$i.rc" ||
		e2e_fail "corpus query $i answers differently after the" \
			"failover: $(sed -n "$((i + 1))p" "$E2E_DIR/corpus-before/index")"
done
e2e_log "corpus: 30 answers byte-identical before and after"

# 3. The audit trail.
# The corpus: 30 lines in each file, the same decisions (time aside).
n_trail=$(wc -l <"$trail")
corpus_lines() {
	jq -c 'select((.query.service_id // "") | startswith("0x20000000") | not)
		| del(.time)' "$1"
}
faults_wait_audit "$audit_s" 30 10 || true
corpus_lines "$audit_m" >"$E2E_DIR/audit-corpus.old"
corpus_lines "$audit_s" >"$E2E_DIR/audit-corpus.new"
[ "$(wc -l <"$E2E_DIR/audit-corpus.old")" = 30 ] ||
	e2e_fail "old master: $(wc -l <"$E2E_DIR/audit-corpus.old") corpus audit lines, want 30"
[ "$(wc -l <"$E2E_DIR/audit-corpus.new")" = 30 ] ||
	e2e_fail "new master: $(wc -l <"$E2E_DIR/audit-corpus.new") corpus audit lines, want 30"
diff -u "$E2E_DIR/audit-corpus.old" "$E2E_DIR/audit-corpus.new" ||
	e2e_fail "the corpus's audit lines differ before and after the failover"

# The trail: "N FILE EPOCH" for every trail line of both files.
trail_lines() {
	jq -r --arg f "$2" 'select((.query.service_id // "") | startswith("0x20000000"))
		| [(.query.service_id | .[10:] | ascii_downcase), $f,
		   ((.time | sub("\\.[0-9]+Z$"; "Z") | fromdate) +
		    (.time | capture("(?<f>\\.[0-9]+)Z$").f | tonumber))]
		| @tsv' "$1" |
		gawk '{ printf "%d %s %.6f\n", strtonum("0x" $1), $2, $3 }'
}
{ trail_lines "$audit_m" old; trail_lines "$audit_s" new; } | sort -n \
	>"$E2E_DIR/trail.audit"
# Judge every query of the loop against its lines.  A query the SA
# answered (exit 0, or 1: an SA status) must have exactly one line, in
# the old master's file and before the kill or in the new master's and
# after it.  The only allowed exception: a query sent before a SIGKILL
# whose line was still queued for the writer thread when the master died.
# Those are told by order, not by a tight time window (the writer
# coalesces records for a few ms and, on a loaded host, may run late):
# the loop sends one query at a time and the writer keeps the submission
# order, so a queued line is one after the old master's last line, and a
# missing line before it was lost for another reason.  A writer that
# stopped writing is caught by the bound: answered within 2 s of the kill.
# A query the client gave up on may still have its line (the SA answered
# late, or the master died after answering): counted, not an error.
gawk -v kill="$t_kill" -v out="$E2E_DIR/trail.verdict" '
	NR == FNR {
		nl[$1]++; file[$1] = $2; at[$1] = $3
		if ($2 == "old" && $1 + 0 > last_old) last_old = $1 + 0
		next
	}
	{
		n = $1; rc = $2; t0 = $3; t1 = $4; total++; seen[n] = 1
		answered = (rc == 0 || rc == 1)
		if (nl[n] > 1) {
			bad++; print "query " n ": " nl[n] " audit lines" >out
			next
		}
		if (nl[n] == 0) {
			if (!answered) { failed++; next }
			if (t0 <= kill && n + 0 > last_old && t1 >= kill - 2) {
				lost++; next
			}
			bad++
			print "query " n " answered (rc " rc ") at " t1 \
				" without an audit line" >out
			next
		}
		if (file[n] == "old" && at[n] > kill) {
			bad++; print "query " n ": old master line after the kill" >out
		}
		if (file[n] == "new" && at[n] < kill) {
			bad++; print "query " n ": new master line before the kill" >out
		}
		if (!answered) orphan++
		else if (file[n] == "old") old++
		else new++
	}
	END {
		for (n in nl)
			if (!(n in seen)) {
				bad++; print "audit line for query " n ", never sent" >out
			}
		printf "%d %d %d %d %d %d %d\n", total, old + 0, new + 0,
			failed + 0, lost + 0, orphan + 0, bad + 0
	}' "$E2E_DIR/trail.audit" "$trail" >"$E2E_DIR/trail.figures"
read -r total old new failed lost orphan bad <"$E2E_DIR/trail.figures"
e2e_log "trail: $total queries across the kill: $old answered and logged by the old" \
	"master, $new by the new one, $failed unanswered (no SM)," \
	"$lost answered but lost in the SIGKILL window, $orphan logged but" \
	"given up by the client"
[ "$failed" = 0 ] ||
	e2e_log "an unanswered one said: $(head -n 1 "$trail.failed.err")"
[ "$bad" = 0 ] || e2e_fail "audit trail broken: $(head -n 5 "$E2E_DIR/trail.verdict")"
[ "$old" -ge 5 ] && [ "$new" -ge 5 ] ||
	e2e_fail "trail too short: $old old, $new new answers"
[ $((old + new + failed + lost + orphan)) = "$total" ] ||
	e2e_fail "trail: queries unaccounted for"

# -h: the logs' paths (a distcheck tree is osmqos-VERSION/...) must not
# make every ERR line look like one of the plugin's.
if grep -h "ERR" "$E2E_OSM_LOG" "$FAULTS_OSM2_LOG" | grep -v "ERR AC" |
	grep -qi osmqos; then
	e2e_fail "plugin-caused ERR lines in an opensm log"
fi
e2e_pass
