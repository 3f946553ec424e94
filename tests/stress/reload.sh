#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Policy reload torture test.  One ibsim fat tree, opensm
# with the plugin and qos TRUE; REL_EDITS random edits of the policy file,
# each followed by a SIGHUP sweep: valid edits (VLArb weights, SL2VL rows,
# SLs of levels, group members, extra rules) and invalid ones (syntax and
# range errors, truncation at a random byte, binary junk, 100 MB files, the
# file removed, unreadable, a symlink to /dev/zero or to a FIFO).  After
# each sweep:
#   - opensm is alive and printed no crash;
#   - the tables on a sample of ports (smpquery) and the PathRecord answers
#     for fixed pairs (osmqos query) are those of the last good policy, as
#     `osmqos tables` / `osmqos match` predict them;
#   - an invalid edit sends no QoS Set, is logged once (file:line:col for
#     parse errors, the path and reason for unreadable files), and is not
#     logged again by a second sweep over the unchanged file;
#   - a valid edit is logged as loaded once and sends exactly the blocks
#     that changed.
# Failed checks are collected, the run goes on, the figures are printed
# and the script ends with PASS or FAIL.
#
# Environment: REL_SEED (default 1), REL_EDITS (default 200), REL_KINDS
# (edit kinds to draw from), REL_ORDER=cycle (valid and each invalid kind in turn instead of
# random draws; the quick variant), REL_SWEEP_TIMEOUT (s, default 60),
# REL_STALL (s before a sweep stuck on the FIFO is unblocked, default 10),
# REL_KNOWN (tags of known defects whose failed checks are reported but
# tolerated: fifo-plugin fifo-opensm log-ctl-bytes read-fail-unlogged;
# default none).
#
# Permission denied: the test runs as root, whom chmod 000 does not stop,
# so opensm is started under setpriv without CAP_DAC_OVERRIDE and
# CAP_DAC_READ_SEARCH; a chmod 000 file then fails with EACCES for the
# plugin and for OpenSM alike.  Root without setpriv skips that kind.
#
# FIFO and directory: stock OpenSM 3.3.23 re-parses qos_policy_file
# itself; a FIFO blocks its sweep in fopen() under the exclusive lock, and
# for a directory flex's read fails with EISDIR and the scanner calls
# exit(2) ("input in flex scanner failed").  The plugin points OpenSM at
# its copy of the last good policy (plugin/policyfile/policy_copy.c), so neither may
# happen: a stalled sweep is a failure (tags fifo-plugin, fifo-opensm), and
# a dead SM ends the run.  REL_OPENSM_POLICY=direct shows stock behaviour.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
. "$top_srcdir/tests/stress/reload-gen.sh"

: "${REL_SEED:=1}"
: "${REL_EDITS:=200}"
: "${REL_KINDS:=valid syntax truncate junk big removed unreadable zero fifo dir}"
: "${REL_ORDER:=random}"
: "${REL_SWEEP_TIMEOUT:=60}"
: "${REL_STALL:=10}"
: "${REL_KNOWN=}"
: "${REL_OPENSM_POLICY:=copy}"

e2e_init "${REL_NAME:-reload}"
for tool in jq gawk openssl sha1sum; do
	command -v "$tool" >/dev/null ||
		e2e_skip "$tool not installed (apt-get install $tool)"
done
RANDOM=$REL_SEED
e2e_log "seed $REL_SEED, $REL_EDITS edits, kinds: $REL_KINDS ($REL_ORDER)"

pol=$E2E_DIR/qos-policy.conf
good=$E2E_DIR/good.conf       # the last policy that took effect
cand=$E2E_DIR/candidate.conf  # the next edit, before it is put in place
base=$E2E_DIR/base.conf       # a valid policy an invalid edit starts from
fifo=$E2E_DIR/policy.fifo
fails=$E2E_DIR/failures.txt
: >"$fails"

# Edit kinds with their draw weights (about a third of the edits valid).
declare -A WEIGHT=([valid]=6 [syntax]=3 [truncate]=3 [junk]=2 [big]=1
	[removed]=1 [unreadable]=1 [zero]=1 [fifo]=1 [dir]=1)

if [[ " $REL_KINDS " == *" unreadable "* ]] && [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null; then
		nodac=-dac_override,-dac_read_search
		E2E_OPENSM_WRAPPER="setpriv --bounding-set=$nodac --inh-caps=$nodac"
	else
		e2e_log "no setpriv: root reads chmod 000 files, 'unreadable' skipped"
		REL_KINDS=${REL_KINDS//unreadable/}
	fi
fi
KINDS=($REL_KINDS)

gen_reset
REL_EDIT=0
gen_policy >"$pol"
cp "$pol" "$good"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" log_flags=0x03 \
	"event_plugin_options=opensm_policy=$REL_OPENSM_POLICY"
wait_sweep 1
if [ -n "${E2E_OPENSM_WRAPPER:-}" ]; then
	capeff=$(awk '/^CapEff/ { print $2 }' "/proc/$E2E_OPENSM_PID/status")
	(((16#$capeff & 6) == 0)) ||
		e2e_fail "opensm still has CAP_DAC_OVERRIDE ($capeff) under setpriv"
fi
topo=$E2E_DIR/topo.ibnd
e2e_ibnetdiscover >"$topo"

# Counters and figures.
SWEEPS=1
CHECKS_OK=0
CHECKS_BAD=0
CHECKS_KNOWN=0
MAX_SWEEP_MS=0
MAX_SWEEP_WHAT=
STALLS=0
T_START=$(date +%s)
declare -A N_KIND N_VALID N_INVALID
BIG_LIST=
SWEEP_MS_ALL=

# give_up WHY: the run cannot go on; the figures so far, then FAIL.
give_up() {
	T_END=$(date +%s)
	print_figures
	e2e_fail "$*"
}

# A failed check counts as a failure unless the caller tagged it (TAG=x
# check ...) with a tag listed in REL_KNOWN: a known, reported defect that
# a run (the quick one in make check) chooses to tolerate.
ok() { CHECKS_OK=$((CHECKS_OK + 1)); }
# oneline N: the first N lines of stdin on one line, for a message.
oneline() { head -n "$1" | paste -sd'|'; }
bad() {
	local pre=

	if [ -n "${TAG:-}" ] && [[ " $REL_KNOWN " == *" $TAG "* ]]; then
		CHECKS_KNOWN=$((CHECKS_KNOWN + 1))
		pre="known ($TAG): "
	else
		CHECKS_BAD=$((CHECKS_BAD + 1))
		[ -n "${TAG:-}" ] && pre="[$TAG] "
	fi
	printf 'edit %s (%s: %s): %s%s\n' "$REL_EDIT" "$KIND" "$GEN_WHAT" \
		"$pre" "$*" | tee -a "$fails" >&2
}
check() { # check DESCRIPTION COMMAND...
	local what=$1

	shift
	if "$@"; then ok; else bad "$what"; fi
}

# predict OUT: what `osmqos tables` says the good policy programs.
predict() {
	e2e_osmqos tables --json --all --policy "$good" --fabric "$topo" \
		--opensm-conf "$E2E_OSM_CONF" >"$1" ||
		e2e_fail "osmqos tables failed on $good"
	tables_expected "$1" | vlarb_trim | sort >"$1.lines"
}

# The sample: two leaf ports facing storage (their VLArb comes from the
# 'across: storage' scope), a spine port, and the CA ports of cn01, cn04
# (in and out of compute-a as its members change) and stor1.
predict "$E2E_DIR/expect.json"
jq -r '[.ports[] | select(.origin.vlarb_scope == 0 and .port > 0)][0:2][],
	([.ports[] | select((.node | test("^spine")) and .port == 1)][0]),
	(.ports[] | select((.node | test("^(cn01|cn04|stor1) ")) and
	 .port == 1)) | "\(.lid) \(.port)"' "$E2E_DIR/expect.json" |
	sort -u >"$E2E_DIR/sample"
[ "$(wc -l <"$E2E_DIR/sample")" -eq 6 ] ||
	e2e_fail "could not pick 6 sample ports: $(paste -sd, "$E2E_DIR/sample")"
e2e_log "sample ports (lid port): $(paste -sd, "$E2E_DIR/sample")"

# Fixed path queries: source, destination, ServiceID (0x1234 and 0x1800
# fall in the optional service-id rule's range).
PAIRS=("cn01 HCA-1" "stor1 HCA-1" 0 "cn01 HCA-1" "stor1 HCA-1" 0x1234
	"cn04 HCA-1" "stor2 HCA-1" 0 "cn05 HCA-1" "cn06 HCA-1" 0x1800
	"stor3 HCA-1" "cn02 HCA-1" 0 "cn02 HCA-1" "cn03 HCA-1" 0)
PAIR_LIDS=()
for ((i = 0; i < ${#PAIRS[@]}; i += 3)); do
	s=$(e2e_lid "${PAIRS[i]}")
	d=$(e2e_lid "${PAIRS[i + 1]}")
	[ -n "$s" ] && [ -n "$d" ] ||
		e2e_fail "no LID for ${PAIRS[i]} or ${PAIRS[i + 1]}"
	PAIR_LIDS+=("$s $d ${PAIRS[i + 2]}")
done

# Clients run 4 at a time (ibsim serves few), waited for by PID: a plain
# `wait` would wait for ibsim and opensm too.
PJOBS=()
bg_started() {
	PJOBS+=("$!")
	if ((${#PJOBS[@]} >= 4)); then
		wait "${PJOBS[@]}"
		PJOBS=()
	fi
}
bg_wait() {
	((${#PJOBS[@]} == 0)) || wait "${PJOBS[@]}"
	PJOBS=()
}

# read_ports PORTS OUT: the tables of the ports listed in PORTS ("LID
# PORT" lines) as the fabric holds them, for the kinds of table the
# prediction has for them.
read_ports() {
	local lid port n=0

	while read -r lid port; do
		if grep -q "^$lid $port sl2vl " "$E2E_DIR/expect.json.lines"; then
			smp_sl2vl "$lid" "$port" >"$E2E_DIR/smp.$n" &
			bg_started
			n=$((n + 1))
		fi
		if grep -Eq "^$lid $port (low|high) " "$E2E_DIR/expect.json.lines"; then
			smp_vlarb "$lid" "$port" >"$E2E_DIR/smp.$n" &
			bg_started
			n=$((n + 1))
		fi
	done <"$1"
	bg_wait
	cat "$E2E_DIR"/smp.* | vlarb_trim | sort >"$2"
	rm -f "$E2E_DIR"/smp.*
}

# sample_expected OUT: the prediction's lines for the sample ports.
sample_expected() {
	awk 'NR == FNR { s[$1 " " $2] = 1; next } ($1 " " $2) in s' \
		"$E2E_DIR/sample" "$E2E_DIR/expect.json.lines" >"$1"
}

# query_pairs OUT: per pair "SLID DLID SID status [[sl,mtu,rate,life,pkey]..]".
query_pairs() {
	local i s d sid

	for ((i = 0; i < ${#PAIR_LIDS[@]}; i++)); do
		read -r s d sid <<<"${PAIR_LIDS[i]}"
		{
			printf '%s %s %s ' "$s" "$d" "$sid"
			e2e_sim e2e_osmqos query --slid "$s" --dlid "$d" \
				--sid "$sid" --json 2>/dev/null |
				jq -c '[.status, (.records |
				 map([.sl, .mtu, .rate, .pkt_life, .pkey]))]' ||
				echo '"query failed"'
		} >"$E2E_DIR/pr.$i" &
		bg_started
	done
	bg_wait
	for ((i = 0; i < ${#PAIR_LIDS[@]}; i++)); do
		cat "$E2E_DIR/pr.$i"
	done >"$1"
	rm -f "$E2E_DIR"/pr.*
}

# match_pairs OUT: per pair "SLID DLID SID SL" from `osmqos match`.
match_pairs() {
	local i s d sid sl

	for ((i = 0; i < ${#PAIR_LIDS[@]}; i++)); do
		read -r s d sid <<<"${PAIR_LIDS[i]}"
		sl=$(e2e_osmqos match --policy "$good" --fabric "$topo" \
			--src "lid:$s" --dst "lid:$d" --sid "$sid" --json |
			jq -r .sl)
		echo "$s $d $sid $sl"
	done >"$1"
}

# answers_match_sl ANSWERS MATCH: every record of every pair has the SL
# the policy gives the pair, and every pair got records.
answers_match_sl() {
	paste -d' ' "$1" "$2" | jq -Rr 'split(" ") as $f |
		(try ($f[3:-4] | join(" ") | fromjson) catch null) as $a |
		if ($a | type) == "array" and $a[0] == "SUCCESS" and
		   ($a[1] | length) > 0 and
		   ($a[1] | all(.[0] == ($f[-1] | tonumber? // -1))) then empty
		else "\($f[0])->\($f[1]) sid \($f[2]): \($a) want sl \($f[-1])"
		end' >"$E2E_DIR/answers.diff" || echo "jq failed" >>"$E2E_DIR/answers.diff"
	[ ! -s "$E2E_DIR/answers.diff" ]
}

# The sweep: SIGHUP, then wait for the plugin's per-sweep line and OpenSM's
# SUBNET UP.  A sweep stuck on the FIFO is unblocked by opening its write
# end (counted in STALL_OPENS: one per reader that blocked).
sweep() {
	local n=$((SWEEPS + 1)) ups t0 now line

	MARK=$(wc -l <"$E2E_OSM_LOG")
	ups=$(grep -c "SUBNET UP" "$E2E_OSM_LOG")
	STALL_PLUGIN=0
	STALL_OSM=0
	t0=$(date +%s%N)
	kill -HUP "$E2E_OPENSM_PID" 2>/dev/null ||
		give_up "opensm gone before sweep $n"
	while :; do
		if tail -n +"$((MARK + 1))" "$E2E_OSM_LOG" |
			grep -q "osmqos: sweep $n: .*QoS Set MADs" &&
		   [ "$(grep -c "SUBNET UP" "$E2E_OSM_LOG")" -gt "$ups" ]; then
			break
		fi
		if ! kill -0 "$E2E_OPENSM_PID" 2>/dev/null; then
			bad "opensm died in sweep $n:" \
				"$(tail -n 3 "$E2E_DIR/opensm.out" | oneline 3)"
			give_up "opensm died (edit $REL_EDIT, $KIND)"
		fi
		now=$(date +%s%N)
		# Who is stuck in open(): routing (osm_ucast_mgr_process)
		# runs after the plugin's read and before OpenSM's own parse.
		if ((now - t0 > REL_STALL * 1000000000)) && [ -p "$fifo" ] &&
		   [ "$(readlink "$pol")" = "$fifo" ]; then
			if tail -n +"$((MARK + 1))" "$E2E_OSM_LOG" |
				grep -aq "osm_ucast_mgr_process:"; then
				timeout 2 bash -c 'exec 3>"$1"' _ "$fifo" &&
					STALL_OSM=$((STALL_OSM + 1))
			else
				timeout 2 bash -c 'exec 3>"$1"' _ "$fifo" &&
					STALL_PLUGIN=$((STALL_PLUGIN + 1))
			fi
		fi
		if ((now - t0 > REL_SWEEP_TIMEOUT * 1000000000)); then
			bad "sweep $n did not finish in ${REL_SWEEP_TIMEOUT}s"
			give_up "sweep $n stuck (edit $REL_EDIT, $KIND)"
		fi
		sleep 0.02
	done
	SWEEPS=$n
	SWEEP_MS=$((($(date +%s%N) - t0) / 1000000))
	SWEEP_MS_ALL="$SWEEP_MS_ALL $SWEEP_MS"
	if ((SWEEP_MS > MAX_SWEEP_MS)); then
		MAX_SWEEP_MS=$SWEEP_MS
		MAX_SWEEP_WHAT="edit $REL_EDIT, $KIND: $GEN_WHAT"
	fi
	line=$(tail -n +"$((MARK + 1))" "$E2E_OSM_LOG" |
		grep "osmqos: sweep $n: .*QoS Set MADs")
	SETS=$(sed -n 's/.*sweep [0-9]*: \([0-9]*\) QoS Set MADs.*/\1/p' <<<"$line")
	[[ $line == *"policy in force"* ]] && IN_FORCE=1 || IN_FORCE=0
	((STALL_PLUGIN + STALL_OSM)) && STALLS=$((STALLS + 1))
	if ((STALL_PLUGIN)); then
		TAG=fifo-plugin bad "sweep $n: the plugin's policy read" \
			"blocked on the FIFO until its write end was opened" \
			"($SWEEP_MS ms)"
	fi
	if ((STALL_OSM)); then
		TAG=fifo-opensm bad "sweep $n: OpenSM's own qos_policy_file" \
			"parse blocked on the FIFO until its write end was" \
			"opened ($SWEEP_MS ms)"
	fi
}

# new_log PATTERN: lines with the fixed string PATTERN since the sweep began
# (-a: junk in a policy can put any byte in the log).
new_log() {
	tail -n +"$((MARK + 1))" "$E2E_OSM_LOG" | grep -acF -- "$1"
}

check_alive() {
	check "opensm (pid $E2E_OPENSM_PID) alive" kill -0 "$E2E_OPENSM_PID"
	local crash="segmentation|aborted|flex scanner|sanitizer|runtime error|assert"

	if grep -Eqi "$crash" "$E2E_DIR/opensm.out"; then
		bad "opensm printed:" \
			"$(grep -Ei "$crash" "$E2E_DIR/opensm.out" | oneline 2)"
		give_up "opensm crashed"
	fi
	ok
}

# check_fabric: the sample tables and the path answers are those of the
# good policy (ANSWERS holds the answers recorded when it took effect).
check_fabric() {
	sample_expected "$E2E_DIR/sample.want"
	read_ports "$E2E_DIR/sample" "$E2E_DIR/sample.got"
	if diff -u "$E2E_DIR/sample.want" "$E2E_DIR/sample.got" \
		>"$E2E_DIR/sample.diff"; then
		ok
	else
		bad "sample tables differ from the last good policy:" \
			"$(grep '^[-+][0-9]' "$E2E_DIR/sample.diff" | oneline 4)"
	fi
	query_pairs "$E2E_DIR/answers.got"
	if [ "${1:-}" = new ]; then
		match_pairs "$E2E_DIR/match"
		if answers_match_sl "$E2E_DIR/answers.got" "$E2E_DIR/match"; then
			ok
		else
			bad "path answers differ from osmqos match:" \
				"$(oneline 2 <"$E2E_DIR/answers.diff")"
		fi
		cp "$E2E_DIR/answers.got" "$E2E_DIR/answers.good"
	elif cmp -s "$E2E_DIR/answers.good" "$E2E_DIR/answers.got"; then
		ok
	else
		bad "path answers changed: $(diff "$E2E_DIR/answers.good" \
			"$E2E_DIR/answers.got" | grep '^[<>]' | oneline 2)"
	fi
}

. "$top_srcdir/tests/stress/reload-edit.sh"

# The starting policy: answers recorded, tables checked.
KIND=start GEN_WHAT=program-policy
check_alive
check_fabric new
PREV_SIG=content:$(sha1sum <"$good" | cut -c1-40)
GOOD_SIG=$PREV_SIG
PREV_KIND=start
T_START=$(date +%s)

for ((REL_EDIT = 1; REL_EDIT <= REL_EDITS; REL_EDIT++)); do
	choose_kind
	make_edit
	N_KIND[$KIND]=$((${N_KIND[$KIND]:-0} + 1))
	sweep
	[ "$KIND" = big ] && BIG_LIST="$BIG_LIST $SWEEP_MS ($GEN_WHAT);"
	check_alive
	if [ "$EXPECT" = valid ]; then
		N_VALID[$KIND]=$((${N_VALID[$KIND]:-0} + 1))
		check_valid
	else
		N_INVALID[$KIND]=$((${N_INVALID[$KIND]:-0} + 1))
		check_invalid
		# The same file again: nothing new may be logged or sent.
		sweep
		check_alive
		check_repeat
	fi
	if ((REL_EDIT % 20 == 0)); then
		e2e_log "$REL_EDIT edits, $SWEEPS sweeps," \
			"$CHECKS_OK checks ok, $CHECKS_BAD failed"
	fi
done
T_END=$(date +%s)

# Finally the whole fabric, every port, against the last good policy.
REL_EDIT=final KIND=final GEN_WHAT="all ports"
restore_path
cp "$good" "$cand"
put_content
sweep
check_alive
predict "$E2E_DIR/expect.json"
awk '{ print $1, $2 }' "$E2E_DIR/expect.json.lines" | sort -u >"$E2E_DIR/all"
read_ports "$E2E_DIR/all" "$E2E_DIR/all.got"
if diff -u "$E2E_DIR/expect.json.lines" "$E2E_DIR/all.got" \
	>"$E2E_DIR/all.diff"; then
	ok
	e2e_log "final: all $(wc -l <"$E2E_DIR/all") ports hold the last good" \
		"policy's $(wc -l <"$E2E_DIR/all.got") tables"
else
	bad "final: $(grep -c '^-[0-9]' "$E2E_DIR/all.diff") of" \
		"$(wc -l <"$E2E_DIR/expect.json.lines") tables differ (all.diff)"
fi

print_figures
[ "$CHECKS_BAD" -eq 0 ] ||
	e2e_fail "$CHECKS_BAD checks failed (list in $fails):" \
		"$(echo; grep -v '^edit [^ ]* ([^)]*): known' "$fails" | head -n 30)"
e2e_pass
