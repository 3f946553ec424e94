# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Helpers for the fault tests (tests/stress/failover.sh,
# tests/stress/fabric-changes.sh).  Source after tests/e2e/lib.sh and
# tests/e2e/tables-lib.sh, then call faults_init NAME instead of e2e_init.
#
# lib.sh tracks one opensm (E2E_OPENSM_PID).  A second one (the standby of
# the failover test) is started here with its own conf, log and cache
# directory, and stopped by its PID in our EXIT trap, before lib.sh's own
# cleanup stops the first opensm and ibsim (opensm hangs on exit when
# ibsim is already gone).  Nothing is ever killed by name.

FAULTS_OSM2_PID=
FAULTS_OSM2_LOG=
FAULTS_OSM2_CONF=
FAULTS_BG_PID=
FAULTS_STOPPED_PID=

faults_cleanup() {
	local rc=$?

	trap - EXIT
	# A process left stopped (faults_freeze_idle) would ignore SIGTERM.
	[ -z "$FAULTS_STOPPED_PID" ] || kill -CONT "$FAULTS_STOPPED_PID" 2>/dev/null
	e2e_stop_pid "$FAULTS_BG_PID" 5
	e2e_stop_pid "$FAULTS_OSM2_PID" 15
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ -n "$FAULTS_OSM2_LOG" ]; then
		e2e_log "tail of the second opensm's log $FAULTS_OSM2_LOG:"
		tail -n 40 "$FAULTS_OSM2_LOG" 2>/dev/null
	fi
	(exit "$rc")
	e2e_cleanup
}

# faults_init NAME: e2e_init plus our trap and the tools we need.
faults_init() {
	e2e_init "$1"
	trap faults_cleanup EXIT
	command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
	command -v gawk >/dev/null ||
		e2e_skip "gawk not installed (apt-get install gawk)"
}

# faults_now: wall-clock seconds with nanoseconds, for figures.
faults_now() { date +%s.%N; }

# faults_secs T0 T1: T1 - T0 with 2 decimals.
faults_secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

# faults_start_opensm2 DIR HOST KEY=VALUE...: a second opensm attached at
# ibsim node HOST, with conf, log and OSM_TMP_DIR/OSM_CACHE_DIR under DIR,
# started like e2e_start_opensm's (same E2E_OPENSM_WRAPPER, in DIR as its
# own working directory: e2e_opensm_cwd).
# Does not wait: callers wait for the state they expect.
faults_start_opensm2() {
	local dir=$1 host=$2

	shift 2
	e2e_opensm_cwd "$dir"
	FAULTS_OSM2_CONF=$dir/opensm.conf
	FAULTS_OSM2_LOG=$dir/opensm.log
	e2e_write_opensm_conf "$FAULTS_OSM2_CONF" "$@"
	(cd "$dir" &&
	 OSM_TMP_DIR=$dir OSM_CACHE_DIR=$dir SIM_HOST=$host \
	 LD_LIBRARY_PATH="$top_builddir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	 LD_PRELOAD="$OQ_UMAD2SIM" \
		exec ${E2E_OPENSM_WRAPPER:-} "$OQ_OPENSM" -F "$FAULTS_OSM2_CONF" \
		-f "$FAULTS_OSM2_LOG") >"$dir/opensm.out" 2>&1 &
	FAULTS_OSM2_PID=$!
	e2e_log "second opensm pid $FAULTS_OSM2_PID on $host"
}

# faults_smp_pending LOG: the SMP requests (SubnGet, SubnSet) an
# opensm sent, as its log shows them (frames, log_flags 0x20: OpenSM logs
# each SMP it sends before sending it, and each it receives), that have
# no answer there yet: no SubnGetResp with the same transaction ID and
# initial path, no "MAD completed in error" line with the ID.  Prints
# "TID PATH" for each ("-" for a LID-routed one), and "incomplete" when
# the log ends inside an SMP dump.  A directed-route request it sent has
# an empty return path (ibsim fills it in on the way): one with a return
# path is another SM's request it received, which it may never answer
# (one that comes before it is ready, say), and which is not its
# concern.  IDs are compared on their low 32 bits, OpenSM's own (umad2sim
# puts its agent number above them on the way out).
faults_smp_pending() {
	gawk '
		function low32(h) { return sprintf("0x%x", strtonum(h) % 4294967296) }
		function flush() {
			if (!in_smp)
				return
			in_smp = 0
			if (tid == "" || (dr && ret == "")) {
				cut = 1
				return
			}
			k = tid " " (path == "" ? "-" : path)
			if (m == "0x81")
				answered[k] = 1
			else if ((m == "0x1" || m == "0x2") && ret !~ /[1-9]/)
				req[k] = tid
		}
		/ -> SMP dump:/ {
			flush(); in_smp = 1; cut = 0
			m = tid = path = ret = ""; dr = 0
			next
		}
		/ -> / {
			flush(); cut = 0
			if (match($0, /MAD completed in error.* TID 0x[0-9a-fA-F]+/)) {
				t = substr($0, RSTART, RLENGTH)
				sub(/.* TID /, "", t)
				failed[low32(t)] = 1
			}
			next
		}
		!in_smp { next }
		/mgmt_class\.\./ { v = $1; sub(/.*\.\./, "", v); dr = (v == "0x81") }
		/method\.\./ { m = $1; sub(/.*\.\./, "", m) }
		/trans_id\.\./ { v = $1; sub(/.*\.\./, "", v); tid = low32(v) }
		/Initial path:/ { path = $3 }
		/Return path:/ { ret = $3 }
		END {
			flush()
			for (k in req)
				if (!(k in answered) && !(req[k] in failed))
					print k
			if (cut)
				print "incomplete"
		}' "$1"
}

# faults_wait_stopped PID: wait (up to 10 s) until no thread of PID runs:
# each is stopped (T) or gone (Z).  SIGSTOP takes effect when a thread
# next enters the kernel, not when kill returns.
faults_wait_stopped() {
	local i

	for ((i = 0; i < 1000; i++)); do
		sed 's/^.*) \(.\).*/\1/' /proc/"$1"/task/*/stat 2>/dev/null |
			grep -q '[^TZ]' || return 0
		sleep 0.01
	done
	return 1
}

# faults_freeze_idle PID LOG SECS: stop (SIGSTOP) the opensm PID at a
# moment it waits for no answer: stop it, and when its log LOG shows a
# request without an answer (faults_smp_pending), let it run 0.1 s and
# try again.  0: stopped (FAULTS_STOPPED_PID; resume it with kill -CONT);
# 1: SECS passed first, left running, the last pending requests in
# FAULTS_PENDING.  The stops it took: FAULTS_FREEZE_TRIES.
#
# Why: under ibsim no MAD ever times out.  ibsim answers a request it
# cannot deliver with a timeout status at once, but one it delivered to
# an SM that dies before answering stays outstanding in the sender for
# ever (on hardware the kernel times it out), and OpenSM's discovery
# waits until no request is outstanding.  A standby that sent an SMInfo
# poll the master received just before dying never becomes MASTER: it
# leaves STANDBY after its polling timeout and waits in DISCOVERING for
# that answer.
faults_freeze_idle() {
	local pid=$1 log=$2 t_end=$((SECONDS + $3))

	FAULTS_PENDING=
	FAULTS_FREEZE_TRIES=0
	while :; do
		FAULTS_FREEZE_TRIES=$((FAULTS_FREEZE_TRIES + 1))
		kill -STOP "$pid" 2>/dev/null || return 1
		FAULTS_STOPPED_PID=$pid
		if faults_wait_stopped "$pid"; then
			FAULTS_PENDING=$(faults_smp_pending "$log")
			[ -z "$FAULTS_PENDING" ] && return 0
		fi
		kill -CONT "$pid"
		FAULTS_STOPPED_PID=
		[ "$SECONDS" -lt "$t_end" ] || return 1
		sleep 0.1
	done
}

# faults_fresh_topology FILE: a new ibnetdiscover of the fabric as it is
# now (lib.sh caches its first one; e2e_lid reads that cache, so it is
# replaced too).
faults_fresh_topology() {
	rm -f "$E2E_DIR/ibnetdiscover.out"
	e2e_ibnetdiscover >"$1"
}

# faults_cas TOPO: "NAME LID GUID" for every CA port 1 in an
# ibnetdiscover output, sorted by name.
faults_cas() {
	gawk '/^Ca[ \t]/ {
			ca = ""
			if (match($0, /# "[^ "]+ HCA-1"/))
				ca = substr($0, RSTART + 3, RLENGTH - 10)
			next
		}
		/^(Switch|Rt)[ \t]/ { ca = ""; next }
		ca != "" && /^\[1\]\(/ && match($0, /# lid [0-9]+/) {
			lid = substr($0, RSTART + 6, RLENGTH - 6)
			g = $1; sub(/^\[1\]\(/, "", g); sub(/\).*/, "", g)
			printf "%s %s 0x%016x\n", ca, lid, strtonum("0x" g)
			ca = ""
		}' "$1" | sort
}

# faults_tables_snapshot JSON OUT: tables-lib.sh's tables_compare, port
# by port: every port JSON (osmqos tables --json) gives tables is read
# back with smpquery and compared; the read-back is kept in OUT.  A port
# whose read-back differs is read again (up to 3 times, 0.5 s apart):
# under load an SMP of smpquery can time out, and smpquery then prints
# the rows it got so far.  A table that really differs still differs.
# Counts re-reads in FAULTS_REREADS; returns 1 on a difference.
faults_tables_snapshot() {
	local exp=$E2E_DIR/tables.expected act=$E2E_DIR/tables.actual
	local one=$E2E_DIR/tables.port lid port try

	tables_expected "$1" | vlarb_trim | sort >"$exp"
	: >"$act"
	FAULTS_REREADS=0
	while read -r lid port; do
		for ((try = 0; try < 4; try++)); do
			{
				grep -q "^$lid $port sl2vl " "$exp" &&
					smp_sl2vl "$lid" "$port"
				grep -q "^$lid $port low " "$exp" &&
					smp_vlarb "$lid" "$port"
			} | vlarb_trim | sort >"$one"
			grep "^$lid $port " "$exp" | cmp -s - "$one" && break
			[ "$try" -lt 3 ] || break
			FAULTS_REREADS=$((FAULTS_REREADS + 1))
			sleep 0.5
		done
		cat "$one" >>"$act"
	done < <(awk '{ print $1 " " $2 }' "$exp" | sort -u)
	sort -o "$act" "$act"
	cp "$act" "$2"
	if ! diff -u "$exp" "$act" >"$E2E_DIR/tables.diff"; then
		head -n 40 "$E2E_DIR/tables.diff"
		return 1
	fi
	e2e_log "tables equal on $(awk '{ print $1 " " $2 }' "$exp" |
		sort -u | wc -l) ports ($(wc -l <"$exp") tables," \
		"$FAULTS_REREADS re-reads)"
}

# faults_predict TOPO POLICY CONF OUT: osmqos tables --json for TOPO.
faults_predict() {
	e2e_osmqos tables --json --all --policy "$2" --fabric "$1" \
		--opensm-conf "$3" >"$4" 2>"$4.err" ||
		e2e_fail "osmqos tables failed: $(head -n 3 "$4.err")"
}

# faults_audit_count FILE: complete JSON lines in an audit file.
faults_audit_count() {
	if [ -f "$1" ]; then
		jq -c . "$1" 2>/dev/null | wc -l
	else
		echo 0
	fi
}

# faults_wait_audit FILE N SECS: until FILE holds at least N lines.
faults_wait_audit() {
	local i

	for ((i = 0; i < $3 * 10; i++)); do
		[ "$(faults_audit_count "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# faults_smp_frames LOG FROM: one line per SMP OpenSM dumped (log_flags
# 0x20) after line FROM of LOG, in log order:
#	SEQ METHOD ATTR ATTR_MOD PATH PAYLOAD_HEX
# METHOD and ATTR as hex ("0x2", "0x15"), PATH the directed route's
# initial path ("0,2,3"; "-" for LID-routed), PAYLOAD_HEX the 64 data
# bytes as one lower-case hex string.
faults_smp_frames() {
	tail -n +"$(($2 + 1))" "$1" | gawk '
		function flush() {
			if (in_smp)
				printf "%d %s %s %s %s %s\n", ++seq, m, a, mod,
					path == "" ? "-" : path, tolower(data)
			in_smp = 0
		}
		/ -> SMP dump:/ { flush(); in_smp = 1; m = a = mod = path = data = ""; next }
		/ -> / { flush(); next }
		!in_smp { next }
		/method\.\./ { m = $1; sub(/.*\.\./, "", m) }
		/attr_id\.\./ { a = $1; sub(/.*\.\./, "", a) }
		/attr_mod\.\./ { mod = $1; sub(/.*\.\./, "", mod) }
		/Initial path:/ { path = $3 }
		/^\t+[0-9A-Fa-f][0-9A-Fa-f] / { for (i = 1; i <= NF; i++) data = data $i }
		END { flush() }'
}

# faults_node_path FRAMES GUID: the directed route of the node whose
# NodeInfo (attribute 0x11) GetResp carried port GUID GUID (0x%016x), as
# OpenSM discovered it in FRAMES (faults_smp_frames output); the first
# one seen.
faults_node_path() {
	gawk -v g="${2#0x}" '$2 == "0x81" && $3 == "0x11" &&
		substr($6, 41, 16) == tolower(g) { print $5; exit }' "$1"
}

# faults_active_order FRAMES PATH: "QOS LASTQOS ARMED ACTIVE" for the
# node at PATH: how many SL2VL (0x17) / VLArb (0x18) SubnSets went to it,
# the sequence number of the last of them, and of the first PortInfo
# (0x15) SubnSet to it that set PortState ARMED (3) and ACTIVE (4)
# (PortState: low nibble of PortInfo byte 32).  0 where there was none.
faults_active_order() {
	gawk -v p="$2" '$2 == "0x2" && $5 == p {
			if ($3 == "0x17" || $3 == "0x18") { n++; last = $1 }
			if ($3 == "0x15") {
				st = strtonum("0x" substr($6, 65, 2)) % 16
				if (st == 3 && !armed) armed = $1
				if (st == 4 && !active) active = $1
			}
		}
		END { printf "%d %d %d %d\n", n, last, armed, active }' "$1"
}
