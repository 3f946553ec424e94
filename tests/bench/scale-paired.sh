# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The scale benchmark's paired runs (sourced by scale.sh, which defines
# rec, settle, seen_guid, trap_pat, resweeps, changes and the port taken
# down, chg_name, chg_port and chg_desc): stock OpenSM and OpenSM with
# osmqos run at the same time,
# each on an ibsim of its own with the same fabric, both opensm on the
# same CPU when pinned (SCALE_PIN=1; the ibsims and the script on the
# others), and every sweep is started in both at once.  The
# host's speed changes from second to second by tens of per cent (every
# thread of an opensm alike, with the same work and the same context
# switches: a shared machine), so sweeps measured one after the other
# differ by more than the plugin costs; two SMs sweeping side by side
# see the same speed, and the ratio of their CPU over the same sweep
# leaves it out.  Which SM is signalled first alternates.  What running
# together adds (the other's cache footprint, switches between them)
# falls on both while both sweep; the plugin's work after its SUBNET UP
# (SA state, publishing) may run alone.  The two places are not alike:
# with stock in both (SCALE_PAIRED_AA=1) the one started second used
# 3.5% less CPU than the first in every sweep at 5,440 nodes (none at
# 702), so the runs start stock first and the plugin first in turns, and
# the table combines the two (a crossover: the geometric mean of their
# medians leaves a bias of the place out).
#
# paired SIZE ROUND NET POLICY NODES SWITCHES LINKED_PORTS: one run of
# the pair: SCALE_RESWEEPS sweeps with nothing changed (SIGHUP), then
# SCALE_CHANGES (3) times one after the host port chg_name[chg_port] went
# down and one after it came back (ibsim's Unlink and ReLink in both, the
# sweep on the leaf's trap, a SIGHUP where none came within 10 s): a
# port change is a sweep of its own kind, and one per run left its
# median to three sweeps; raw lines
#   size=S mode=paired round=R started=stock|plugin
#   sweep=nochange|down|up first=stock|plugin trigger_stock=trap|hup
#   trigger_plugin=.. stock_s=.. plugin_s=.. ratio=..
#   stock_sm_s=.. plugin_sm_s=.. stock_own_s=.. plugin_own_s=..
# (started: the SM started first in the run; first: signalled first;
# *_sm_s: CPU of the SM's state manager thread, "-" when it was not
# found; *_own_s: of the plugin's threads: pr_split.)

declare -A pr_opid pr_ipid pr_fd pr_log pr_smtid

# pr_threads PID: one line per thread of PID: tid, name, ns on a CPU and
# times scheduled in (schedstat).
pr_threads() {
	local t
	for t in /proc/"$1"/task/*; do
		printf '%s %s %s\n' "${t##*/}" "$(cat "$t/comm" 2>/dev/null)" \
			"$(cut -d' ' -f1,3 "$t/schedstat" 2>/dev/null)"
	done
}

# pr_split BEFORE AFTER [TID] (pr_threads outputs of one opensm around a
# sweep): "SM OWN TID", seconds of CPU of OpenSM's state manager thread
# (TID) and of the plugin's threads (named osmqos-*) in the sweep, SM and
# TID "-" when that thread is not found.  The state manager thread is
# told by its work, not its name (OpenSM names all its threads opensm):
# in a sweep that changes nothing it runs the computations (routing,
# osm_qos_setup, the plugin's events and hooks) and sleeps little, while
# the threads that send and receive the MADs are scheduled in tens of
# thousands of times; so without TID it is the opensm thread with the
# most CPU among those scheduled in no more than 1% of the process's
# times.  (After a port change it waits for the Sets it sent, so a run's
# first sweep's answer is kept: pr_smtid.)  A thread that started or
# ended between the two readings, or whose line is incomplete, is left
# out.
pr_split() {
	awk -v tid="${3:-}" 'NF != 4 { next }
	NR == FNR { c[$1] = $3; r[$1] = $4; next }
	($1 in c) {
		d = $3 - c[$1]
		runs += $4 - r[$1]
		if ($2 ~ /^osmqos-/)
			own += d
		else if ($2 == "opensm") {
			cpu[$1] = d
			n[$1] = $4 - r[$1]
		}
	}
	END {
		if (tid == "") {
			best = -1
			for (t in cpu)
				if (n[t] <= runs / 100 && cpu[t] > best) {
					best = cpu[t]
					tid = t
				}
		}
		if (tid in cpu)
			printf "%.4f", cpu[tid] / 1e9
		else {
			printf "-"
			tid = ""
		}
		printf " %.4f %s", own / 1e9, tid == "" ? "-" : tid
	}' <(printf '%s\n' "$1") <(printf '%s\n' "$2")
}

# pr_stop: end both pairs, opensm first, as e2e_cleanup would.
pr_stop() {
	local m fd
	for m in stock plugin; do
		e2e_stop_pid "${pr_opid[$m]:-}" 15
		pr_opid[$m]=
		pr_smtid[$m]=
	done
	for m in stock plugin; do
		fd=${pr_fd[$m]:-}
		if [ -n "$fd" ]; then
			exec {fd}>&-
			pr_fd[$m]=
		fi
		e2e_stop_pid "${pr_ipid[$m]:-}" 5
		pr_ipid[$m]=
	done
}
# shellcheck disable=SC2034 # e2e_cleanup runs it
E2E_ON_EXIT=pr_stop

# pr_first KIND: pr_order, the modes in the order the next sweep of KIND
# signals them; each kind alternates over all the paired runs of a size
# (pr_next, reset per size by scale.sh), so an even count of its sweeps
# balances it exactly.
declare -A pr_next
pr_first() {
	local n=${pr_next[$1]:-0}
	pr_next[$1]=$((n + 1))
	if ((n % 2)); then pr_order="plugin stock"; else pr_order="stock plugin"; fi
}

# pr_alive WHAT: fail unless both opensm are still running.
pr_alive() {
	local m
	for m in stock plugin; do
		kill -0 "${pr_opid[$m]}" 2>/dev/null ||
			e2e_fail "paired $m opensm (pid ${pr_opid[$m]}) is gone ($1)"
	done
}

# pr_sweep SIZE ROUND WHAT [CMD SEEN]: one sweep in both, started by a
# SIGHUP (no CMD) or by ibsim console command CMD, the leaf's trap
# starting each SM's sweep (a SIGHUP to those that got none within 10 s
# of the command, sent together); then each log must say SEEN.  Raw line
# for WHAT, with which SM was signalled first and what started each
# sweep.
pr_sweep() {
	local size=$1 round=$2 what=$3 cmd=${4:-} seen=${5:-} m first i
	local -A ups traps mark c0 c1 how t0 split

	for m in stock plugin; do
		ups[$m]=$(grep -c 'SUBNET UP' "${pr_log[$m]}")
		traps[$m]=$(grep -c "$trap_pat" "${pr_log[$m]}")
		mark[$m]=$(wc -l <"${pr_log[$m]}")
		c0[$m]=$(cpu_ns "${pr_opid[$m]}")
		t0[$m]=$(pr_threads "${pr_opid[$m]}")
		how[$m]=hup
	done
	pr_first "$what"
	first=${pr_order%% *}
	for m in $pr_order; do
		if [ -z "$cmd" ]; then
			kill -HUP "${pr_opid[$m]}" ||
				e2e_fail "paired $m opensm is gone (SIGHUP)"
		else
			printf '%s\n' "$cmd" >&"${pr_fd[$m]}"
		fi
	done
	if [ -n "$cmd" ]; then
		for ((i = 0; i < 100; i++)); do
			for m in stock plugin; do
				[ "$(grep -c "$trap_pat" "${pr_log[$m]}")" -gt \
					"${traps[$m]}" ] && how[$m]='trap'
			done
			[ "${how[stock]}${how[plugin]}" = traptrap ] && break
			sleep 0.1
		done
		for m in stock plugin; do
			[ "${how[$m]}" = trap ] || kill -HUP "${pr_opid[$m]}" ||
				e2e_fail "paired $m opensm is gone (SIGHUP)"
		done
	fi
	for m in stock plugin; do
		e2e_wait_count 'SUBNET UP' "${pr_log[$m]}" $((ups[$m] + 1)) ||
			e2e_fail "$size/paired $m: no SUBNET UP ($what)"
	done
	settle "${pr_opid[stock]}" "${pr_opid[plugin]}"
	pr_alive "$what"
	for m in stock plugin; do
		c1[$m]=$(cpu_ns "${pr_opid[$m]}")
		split[$m]=$(pr_split "${t0[$m]}" \
			"$(pr_threads "${pr_opid[$m]}")" "${pr_smtid[$m]:-}")
		[ "${split[$m]##* }" = - ] || pr_smtid[$m]=${split[$m]##* }
		[ -z "$seen" ] ||
			[ -n "$(seen_guid "${pr_log[$m]}" "${mark[$m]}" "$seen")" ] ||
			e2e_fail "$size/paired $m: after '$cmd' opensm did" \
				"not log '$seen ... $chg_desc'"
	done
	[ $((c1[stock] - c0[stock])) -gt 0 ] ||
		e2e_fail "$size/paired: stock used no CPU in a sweep ($what)"
	rec "size=$size mode=paired round=$round started=$pr_started" \
		"sweep=$what first=$first" \
		"trigger_stock=${how[stock]} trigger_plugin=${how[plugin]}" \
		"$(awk -v a=$((c1[stock] - c0[stock])) \
			-v b=$((c1[plugin] - c0[plugin])) 'BEGIN {
			printf "stock_s=%.4f plugin_s=%.4f ratio=%.4f",
				a / 1e9, b / 1e9, b / a }')" \
		"$(read -r ssm sown _ <<<"${split[stock]}"
		read -r psm pown _ <<<"${split[plugin]}"
		printf 'stock_sm_s=%s plugin_sm_s=%s stock_own_s=%s plugin_own_s=%s' \
			"$ssm" "$psm" "$sown" "$pown")"
}

paired() {
	local size=$1 round=$2 net=$3 pol=$4 nodes=$5 sw=$6 linked=$7
	local root=$E2E_DIR sock=$IBSIM_SOCKNAME m i extra order

	# Started first: stock in odd runs, the plugin in even ones.
	order="stock plugin"
	((round % 2)) || order="plugin stock"
	pr_started=${order%% *}
	for m in $order; do
		# A directory, socket, OpenSM cache and temp dir of its own:
		# the two SMs write their guid2lid files while sweeping
		# together.
		E2E_DIR=$root/paired-$m
		mkdir -p "$E2E_DIR" || e2e_fail "cannot make $E2E_DIR"
		rm -f "$E2E_DIR/ibsim.ctl"
		export IBSIM_SOCKNAME=$sock-$m OSM_CACHE_DIR=$E2E_DIR \
			OSM_TMP_DIR=$E2E_DIR
		e2e_start_ibsim "$net" -N $((nodes + 16)) -S $((sw + 16)) \
			-P $((2 * linked + nodes + 1024))
		extra=()
		[ "$m" = stock ] && extra=("event_plugin_name=(null)")
		[ "$m" = plugin ] && [ -n "${SCALE_PLUGIN_OPTIONS:-}" ] &&
			extra=("event_plugin_options=$SCALE_PLUGIN_OPTIONS")
		# SCALE_PAIRED_AA=1: stock on both sides, to see what the
		# side-by-side runs themselves give (their bias and spread).
		[ "$m" = plugin ] && [ "${SCALE_PAIRED_AA:-0}" = 1 ] &&
			extra=("event_plugin_name=(null)")
		e2e_start_opensm qos=TRUE "qos_policy_file=$pol" "${extra[@]}"
		pr_opid[$m]=$E2E_OPENSM_PID
		pr_ipid[$m]=$E2E_IBSIM_PID
		pr_fd[$m]=$E2E_CTL_FD
		pr_log[$m]=$E2E_OSM_LOG
		# Theirs to stop now (pr_stop), not the library's.
		E2E_OPENSM_PID=''
		E2E_IBSIM_PID=''
		E2E_CTL_FD=''
	done
	E2E_DIR=$root
	export IBSIM_SOCKNAME=$sock OSM_CACHE_DIR=$root OSM_TMP_DIR=$root
	cpu_pin_check "${pr_opid[stock]}" "${pr_ipid[stock]}"
	cpu_pin_check "${pr_opid[plugin]}" "${pr_ipid[plugin]}"
	settle "${pr_opid[stock]}" "${pr_opid[plugin]}"
	for ((i = 1; i <= resweeps; i++)); do
		pr_sweep "$size" "$round" nochange
	done
	for ((i = 1; i <= changes; i++)); do
		pr_sweep "$size" "$round" down \
			"Unlink \"$chg_name\"[$chg_port]" "Removed port"
		pr_sweep "$size" "$round" up \
			"ReLink \"$chg_name\"[$chg_port]" "Discovered new port"
	done
	pr_stop
	for m in stock plugin; do
		mv "${pr_log[$m]}" "$root/opensm-$size-paired-$m-$round.log"
		mv "$root/paired-$m/ibsim.log" \
			"$root/ibsim-$size-paired-$m-$round.log"
	done
}
