# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Helpers of tests/stress/load-storm.sh (sourced after tests/e2e/lib.sh):
# one storm run against one opensm, RSS sampling, the MPR client loop,
# and the sanitizer report triage.  Appends figures to $report and sets
# $fail (first failure) instead of exiting, so both runs always report.

LOAD_MOUNTS=()
LOAD_PAIRS=
LOAD_GUIDS=()

load_fail() {
	e2e_log "FAIL: $*"
	[ -n "$fail" ] || fail=$*
}

# Unmount what we mounted, whatever happens (chained before lib.sh's trap
# handler by load_cleanup_trap).
load_umount_all() {
	local m
	for m in "${LOAD_MOUNTS[@]}"; do
		umount "$m" 2>/dev/null
	done
	LOAD_MOUNTS=()
}

# The EXIT trap after e2e_init: unmount, then lib.sh's cleanup with the
# script's exit status.
# LOAD_BG_PIDS: the storm's background loops, stopped here too when the
# script is interrupted mid-storm.
LOAD_BG_PIDS=()
load_trap() {
	trap 'rc=$?; for p in "${LOAD_BG_PIDS[@]}"; do e2e_stop_pid "$p" 5; done
		e2e_stop_opensm; load_umount_all; (exit $rc); e2e_cleanup' EXIT
}

# load_build_asan DIR: configure with --enable-sanitizers and build the
# plugin only, in DIR (reused when already built).
load_build_asan() {
	local d=$1
	mkdir -p "$d" || return 1
	e2e_log "building the ASan+UBSan plugin in $d"
	(
		cd "$d" || exit 1
		if [ ! -f Makefile ]; then
			"$top_srcdir/configure" --enable-sanitizers || exit 1
		fi
		grep -q '^SAN_CFLAGS = -fsanitize' Makefile ||
			{ echo "$d is not configured with --enable-sanitizers"; exit 1; }
		make -j"$(nproc)" libosmqos.la
	) >"$d/build.log" 2>&1
}

# load_rss PID: VmRSS in kB.
load_rss() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null
}

# load_port_guid DESC: port 1's GUID of the CA with that NodeDescription.
load_port_guid() {
	e2e_ibnetdiscover | awk -v d="# \"$1\"" '
		/^(Switch|Ca|Rt)[ \t]/ { in_node = index($0, d) > 0; next }
		in_node && match($0, /^\[1\]\([0-9a-f]+\)/) {
			print "0x" substr($0, 5, RLENGTH - 5); exit
		}'
}

# load_mpr_loop DIR STOPFILE: 2 x 2 MultiPathRecords (the APM case) from
# cn02 until STOPFILE exists; one line "rc usecs" per query in DIR/mpr.txt.
load_mpr_loop() {
	local dir=$1 stop=$2 t0 t1 rc
	: >"$dir/mpr.txt"
	while [ ! -e "$stop" ]; do
		t0=$(date +%s%N)
		SIM_HOST=cn02 e2e_sim "$top_builddir/osmqos" query --mpr \
			--sgids "${LOAD_GUIDS[0]},${LOAD_GUIDS[1]}" \
			--dgids "${LOAD_GUIDS[2]},${LOAD_GUIDS[3]}" \
			--numb-path 2 --json >"$dir/mpr.last" 2>&1
		rc=$?
		t1=$(date +%s%N)
		echo "$rc $(((t1 - t0) / 1000))" >>"$dir/mpr.txt"
	done
}

# load_sampler PID FILE STOPFILE: VmRSS every second.
load_sampler() {
	while [ ! -e "$3" ] && kill -0 "$1" 2>/dev/null; do
		load_rss "$1" >>"$2"
		sleep 1
	done
}

# load_clients DIR TAG TOTAL: the storm clients in parallel, TOTAL queries
# in all; their result lines in DIR/TAG-N.out.  Returns 1 if one failed.
load_clients() {
	local dir=$1 tag=$2 total=$3 i per pids=() sid args rc=0
	per=$((total / clients))
	for ((i = 0; i < clients; i++)); do
		sid=${sids[$i]}
		args=(--count "$per" --window "$window" --pr "$LOAD_PAIRS")
		[ -n "$sid" ] && args+=(--sid "$sid")
		# umad2sim makes a ./sys-PID tree: keep it in the run's dir.
		(cd "$dir" && SIM_HOST=${hosts[$i]} e2e_sim "$storm" "${args[@]}" \
			>"$dir/$tag-$i.out" 2>"$dir/$tag-$i.err") &
		pids+=($!)
	done
	for i in "${!pids[@]}"; do
		wait "${pids[$i]}" || {
			rc=1
			load_fail "$tag client $i (${hosts[$i]}) failed: $(tail -n 2 "$dir/$tag-$i.err")"
		}
	done
	return $rc
}

# load_asan_triage DIR: sanitizer reports of the run.  Prints a summary;
# returns 1 when one concerns the plugin (any ASan error, any UBSan
# report, a leak with a plugin frame).  Leaks without a plugin frame are
# stock opensm's own and only counted.
load_asan_triage() {
	local dir=$1 files
	files=$(ls "$dir"/asan.* "$dir"/ubsan.* 2>/dev/null)
	if [ -z "$files" ] && ! grep -q 'runtime error\|Sanitizer' "$dir/opensm.out"; then
		echo "sanitizer_reports=0"
		return 0
	fi
	cat $files "$dir/opensm.out" | awk '
		# A report runs from its header to SUMMARY (errors) or to a
		# blank line (one leak); a plugin frame makes it a plugin report.
		/^(Direct|Indirect) leak/ { flush(); blk = $0; kind = "leak"; next }
		/ERROR: AddressSanitizer/ { flush(); blk = $0; kind = "err"; next }
		/runtime error:/ { flush(); blk = $0; kind = "ub"; next }
		kind == "leak" && /^$/ { flush(); next }
		/^SUMMARY:/ { flush(); next }
		kind != "" { blk = blk "\n" $0 }
		function flush() {
			if (kind == "") return
			mine = blk ~ /libosmqos|\/policy\/|\/plugin\//
			n[kind, mine]++
			kind = ""; blk = ""
		}
		END {
			flush()
			printf "plugin: asan_errors=%d ubsan_errors=%d leaks=%d; stock opensm/libs (no plugin frame): asan_errors=%d ubsan_errors=%d leaks=%d\n",
				n["err", 1], n["ub", 1], n["leak", 1],
				n["err", 0], n["ub", 0], n["leak", 0]
			exit (n["err", 1] || n["ub", 1] || n["leak", 1]) ? 1 : 0
		}'
}

# load_writer_tid PID: the plugin's audit writer thread, by the name it
# gives itself (osmqos-audit, plugin/audit/audit.c); empty unless exactly
# one thread has it.
load_writer_tid() {
	local pid=$1 t n=0 tid=
	for t in /proc/"$pid"/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = osmqos-audit ] || continue
		tid=${t##*/}
		n=$((n + 1))
	done
	[ "$n" = 1 ] && echo "$tid"
}

# load_run MODE LIBDIR HOW: one opensm with the plugin from LIBDIR,
# warm-up, storm with the MPR loop alongside, then the figures.  HOW is
# how audit drops are forced: "stall" (a normal file; the writer thread
# stopped for LOAD_STALL_S, 10 s, mid-storm, so the ring fills) or "full"
# (a LOAD_AUDIT_KB tmpfs that fills up, so writes fail).
load_run() {
	local mode=$1 libdir=$2 how=$3 dir=$E2E_DIR/$1 mnt small=no audit pid
	local warm main rss_warm rss_end rss_peak line i lim asan_rt
	local n_mpr bad_mpr p99_mpr c tri wtid= stall_pid=
	mkdir -p "$dir"
	mnt=$dir/auditfs
	mkdir -p "$mnt"
	if [ "$how" = full ]; then
		if mount -t tmpfs -o "size=${LOAD_AUDIT_KB:-256}k" tmpfs "$mnt" 2>/dev/null; then
			LOAD_MOUNTS+=("$mnt")
			small=yes
		else
			e2e_log "cannot mount a small tmpfs (not root?): audit to a normal file"
		fi
	fi
	audit=$mnt/audit.log
	E2E_OPENSM_WRAPPER="env LD_LIBRARY_PATH=$libdir"
	if [ "$mode" = asan ]; then
		asan_rt=$(gcc -print-file-name=libasan.so)
		[ -f "$asan_rt" ] || e2e_fail "no ASan runtime (gcc -print-file-name=libasan.so gave '$asan_rt')"
		E2E_OPENSM_WRAPPER+=" LD_PRELOAD=$asan_rt:$OQ_UMAD2SIM"
		# umad2sim (ibsim's libumad shim, not ours) reads past a
		# buffer in its read() (memcpy of 320 bytes from 288):
		# suppressed by library so the storm can run at all.
		# Stock opensm under ASan also reports a use-after-free of a
		# MAD between umad_send() and osm_mad_pool_put() (its vendor
		# layer, with ibsim answering before the send returns):
		# suppressed the same way, and halt_on_error=0 keeps any other
		# non-plugin report from stopping the run; load_asan_triage
		# sorts what was reported into plugin and stock.  A 16 MiB
		# quarantine (default 256) so RSS can level off after the
		# warm-up.
		printf 'interceptor_via_lib:%s\n' libumad2sim.so libibumad.so.3 \
			>"$dir/asan.supp"
		E2E_OPENSM_WRAPPER+=" ASAN_OPTIONS=detect_leaks=1:log_path=$dir/asan:fast_unwind_on_malloc=0:malloc_context_size=30:quarantine_size_mb=16:halt_on_error=0:suppressions=$dir/asan.supp"
		E2E_OPENSM_WRAPPER+=" UBSAN_OPTIONS=print_stacktrace=1:log_path=$dir/ubsan"
	fi
	e2e_start_opensm qos=TRUE "qos_policy_file=$policy" \
		"event_plugin_options=audit=$audit"
	E2E_OPENSM_WRAPPER=
	pid=$E2E_OPENSM_PID
	grep -q 'osmqos_create: osmqos .* loaded' "$E2E_OSM_LOG" ||
		e2e_fail "$mode: the plugin did not load (see $E2E_OSM_LOG)"
	grep -q "audit trail: $audit" "$E2E_OSM_LOG" ||
		e2e_fail "$mode: the plugin did not open the audit trail $audit"
	if [ -z "$LOAD_PAIRS" ]; then
		local lids=() s d l
		for d in "${cas[@]}"; do
			l=$(e2e_lid "$d")
			[ -n "$l" ] || e2e_fail "no LID for $d"
			lids+=("$l")
			LOAD_GUIDS+=("$(load_port_guid "$d")")
		done
		for s in "${lids[@]}"; do
			for d in "${lids[@]}"; do
				[ "$s" != "$d" ] && LOAD_PAIRS+=${LOAD_PAIRS:+,}$s:$d
			done
		done
		e2e_log "pairs $LOAD_PAIRS; MPR GUIDs ${LOAD_GUIDS[*]}"
	fi

	if [ "$how" = stall ]; then
		wtid=$(load_writer_tid "$pid")
		[ -n "$wtid" ] ||
			load_fail "$mode: no one thread named osmqos-audit" \
				"in opensm (ps -L -o tid,comm -p $pid)"
		e2e_log "$mode: audit writer thread $wtid"
	fi

	warm=$((queries / 10))
	main=$((queries - warm))
	e2e_log "$mode: warm-up, $warm queries"
	load_clients "$dir" warm "$warm"
	rss_warm=$(load_rss "$pid")
	e2e_log "$mode: VmRSS after warm-up ${rss_warm} kB; storm of $main queries + MPR loop"
	rm -f "$dir/stop"
	load_mpr_loop "$dir" "$dir/stop" &
	local mpr_pid=$!
	load_sampler "$pid" "$dir/rss.txt" "$dir/stop" &
	local smp_pid=$!
	LOAD_BG_PIDS=("$mpr_pid" "$smp_pid")
	local t0=$SECONDS
	if [ -n "$wtid" ]; then
		(sleep 1 && "$top_builddir/tests/stress/load-stall" "$wtid" \
			"${LOAD_STALL_S:-10}") >"$dir/stall.out" 2>&1 &
		stall_pid=$!
	fi
	load_clients "$dir" main "$main"
	touch "$dir/stop"
	wait "$mpr_pid" "$smp_pid"
	LOAD_BG_PIDS=()
	if [ -n "$stall_pid" ]; then
		wait "$stall_pid" ||
			load_fail "$mode: could not stall the audit writer: $(cat "$dir/stall.out")"
	fi
	rss_end=$(load_rss "$pid")
	kill -0 "$pid" 2>/dev/null || load_fail "$mode: opensm died during the storm"
	rss_peak=$(sort -n "$dir/rss.txt" | tail -n 1)

	# Stop opensm: the plugin logs its counters and audit figures at
	# unload; LeakSanitizer runs at exit.
	e2e_stop_pid "$pid" 60
	E2E_OPENSM_PID=
	grep -q 'Exiting SM' "$E2E_OSM_LOG" || load_fail "$mode: opensm did not exit cleanly"
	cp "$E2E_DIR/opensm.out" "$dir/opensm.out" 2>/dev/null

	{
		printf '[%s] storm %s s; VmRSS kB: after warm-up %s, peak %s, end %s\n' \
			"$mode" $((SECONDS - t0)) "$rss_warm" "${rss_peak:-?}" "$rss_end"
		for ((i = 0; i < clients; i++)); do
			line=$(cat "$dir/main-$i.out")
			printf '[%s] client %s sid=%s: %s\n' "$mode" "${hosts[$i]}" \
				"${sids[$i]:-none}" "$line"
			# Every query answered; the only error status allowed
			# is NO_RECORDS (0x0300: the policy's absent-pkey level
			# leaves some pairs without a path, as stock does).
			[[ $line == *" failed=0 "* && $line == *" timeouts=0 "* &&
			   ( $line == *" status_nonzero=0 "* ||
			     $line == *" first_status=0x0300"* ) ]] ||
				load_fail "$mode: client ${hosts[$i]} had errors: $line"
		done
		n_mpr=$(wc -l <"$dir/mpr.txt")
		bad_mpr=$(awk '$1 != 0' "$dir/mpr.txt" | wc -l)
		p99_mpr=$(awk '{ print $2 }' "$dir/mpr.txt" | sort -n |
			awk '{ v[NR] = $1 } END { i = int(NR * 0.99); if (i < 1) i = 1; print v[i] }')
		printf '[%s] MPR 2x2 (osmqos query --mpr, process per query): %s queries, %s failed, p99 %s us incl. process start\n' \
			"$mode" "$n_mpr" "$bad_mpr" "$p99_mpr"
		[ "$bad_mpr" = 0 ] || load_fail "$mode: $bad_mpr MPR queries failed: $(tail -n 3 "$dir/mpr.last")"
		[ "$n_mpr" -gt 0 ] || load_fail "$mode: no MPR query ran"
		for c in PathRecord MultiPathRecord; do
			grep 'SA front: ' "$E2E_OSM_LOG" | tail -n 1 |
				grep -oE "(: |, )$c [0-9]+ queries \([^)]*\)" |
				sed "s/^[:,] /[$mode] SA front: /"
		done
		line=$(grep -o 'audit: [0-9]* records written in [0-9]* lines, [0-9]* dropped' "$E2E_OSM_LOG" | tail -n 1)
		if [ "$how" = stall ]; then
			printf '[%s] %s (audit to a file; writer thread %s: %s)\n' "$mode" \
				"${line:-no audit figures logged}" "${wtid:-?}" \
				"$(cat "$dir/stall.out" 2>/dev/null | tr '\n' ' ')"
			grep -o 'audit: [0-9]* records dropped because the queue of [0-9]* was full[^;]*' \
				"$E2E_OSM_LOG" | awk -v m="$mode" '
				{ split($0, a, " "); n += a[2]; last = $0 }
				END { printf "[%s] ring-full drops logged: %d in %d messages (last: %s)\n", m, n, NR, last }'
			[ "$(wc -l <"$audit")" -gt 0 ] ||
				load_fail "$mode: nothing was written to the audit file"
			printf '[%s] audit file: %s lines\n' "$mode" "$(wc -l <"$audit")"
		else
			printf '[%s] %s (audit on a %s tmpfs: %s)\n' "$mode" \
				"${line:-no audit figures logged}" "${LOAD_AUDIT_KB:-256} KiB" "$small"
			grep -c 'audit: cannot write' "$E2E_OSM_LOG" |
				sed "s/^/[$mode] audit write-failure messages logged: /"
		fi
		[ -n "$line" ] || load_fail "$mode: the plugin logged no audit figures at unload"
		# A stall fills the 16384-record ring only if the storm
		# outlasts it: judged from 100000 storm queries up.
		if { [ "$small" = yes ] || { [ -n "$wtid" ] && [ "$main" -ge 100000 ]; }; } &&
		   [[ $line =~ ,\ 0\ dropped ]]; then
			load_fail "$mode: audit records had to be dropped but none was counted"
		fi
		lim=$((rss_warm + rss_warm * slack / 100 + 2048))
		if [ "$warm" -lt 20000 ]; then
			# The audit ring (16384 records, ~10 MiB) is touched
			# page by page as it wraps: a shorter warm-up cannot
			# show the steady state.
			printf '[%s] RSS not judged: warm-up of %s queries < 20000 (LOAD_QUERIES < 200000)\n' \
				"$mode" "$warm"
		elif [ "$rss_end" -gt "$lim" ]; then
			load_fail "$mode: VmRSS grew from $rss_warm to $rss_end kB"
			printf '[%s] RSS NOT flat (limit %s kB)\n' "$mode" "$lim"
		else
			printf '[%s] RSS flat: end %s kB <= %s kB (warm-up + %s%% + 2 MiB)\n' \
				"$mode" "$rss_end" "$lim" "$slack"
		fi
		if [ "$mode" = asan ]; then
			tri=$(load_asan_triage "$dir") ||
				load_fail "$mode: sanitizer reports concern the plugin: $tri (see $dir)"
			printf '[%s] %s\n' "$mode" "$tri"
		fi
	} >>"$report"
	mv "$E2E_OSM_LOG" "$dir/opensm.log"
	if [ "$small" = yes ]; then
		umount "$mnt" && LOAD_MOUNTS=("${LOAD_MOUNTS[@]/$mnt/}")
	else
		rm -f "$audit" # up to a few hundred MB
	fi
}
