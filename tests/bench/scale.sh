#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Scale benchmark (`make bench-scale`): what the plugin costs opensm on
# generated fat trees, measured side by side with stock OpenSM.
# For each size of SCALE_SIZES (default "18:36:18 36:72:36 3l:16:8:40":
# 702, 2,700 and 5,440 nodes; SPINES:LEAVES:HCAs per leaf is a two-level
# tree from contrib/fabrics/gen-fattree with one storage HCA per leaf,
# 3l:PODS:EDGES:HOSTS a three-level one from gen-fattree3.awk) it writes
# the fabric and a policy in OpenSM's grammar (gen-scale-policy.sh), then
# runs SCALE_ROUNDS times (default 5) the pair below, alternating, so that
# drift on a shared machine falls on both alike; each run on a fresh ibsim
# with its node and switch limits lifted (-N/-S):
#   stock   opensm, qos TRUE, qos_policy_file, no plugin;
#   plugin  the same with event_plugin_name osmqos (default options: the
#           audit trail on, default publishing; SCALE_PLUGIN_OPTIONS, if
#           set, is its event_plugin_options);
#   pluginB only when SCALE_PLUGIN_OPTIONS_B is set: the plugin with
#           those event_plugin_options, for an A/B of a plugin option in
#           the same rounds (e.g. malloc_trim=1).
# Then SCALE_PAIRED times (default 6: an even count balances which SM is
# signalled first; 0: none) stock and plugin run side by side, each run
# SCALE_RESWEEPS resweeps and SCALE_CHANGES (default 3) port down and up
# pairs, and are swept together, both opensm on the same CPU when pinned
# (scale-paired.sh): the ratio of their CPU over the same sweeps does not
# move with the host's speed, which alternating runs see change by more
# than the plugin costs.  SCALE_PAIRED_AA=1 puts stock on both sides: what
# the paired runs give with no plugin at all.
# SCALE_PIN (default 1; it takes two CPUs or more) runs opensm on a CPU of
# its own and ibsim and this script on the others (cpu-lib.sh), so that
# the simulator's work does not land on opensm's CPU; SCALE_PIN=0 lets
# the scheduler place them.  The table's header says which it was.
# For each run: seconds from opensm's start to SUBNET UP, opensm CPU
# (utime + stime of all its threads) at SUBNET UP, then
#   * SCALE_RESWEEPS (default 3) heavy resweeps forced by SIGHUP, with
#     nothing changed (same fabric, same policy);
#   * one port down: ibsim's console (Unlink) takes down the link of the
#     first compute host of the first leaf: the net file's first CA not
#     named stor* (the policy names the storage HCAs one by one; a
#     compute host going away is the common case), cn01 port 1 on leaf01
#     (cn1 on edge001-01 in three levels), the same port in every run
#     and mode.  The leaf sends trap 128 (link state change) and opensm
#     sweeps on it; a SIGHUP only when no trap reached opensm within
#     10 s ("trigger" in the raw lines and the table);
#   * the port back up: ibsim's ReLink restores that link, the same way;
#   * a policy edit that changes no table (a match rule's Service-ID
#     range), by SIGHUP;
# each measured from the signal or console command until opensm is idle
# again after SUBNET UP (CPU, the page faults opensm took, how many
# SUBNET UPs), and opensm's RSS (VmRSS, VmHWM) after the SIGHUP resweeps.
# Each change is checked in opensm's own log: the sweep after the unlink
# removed the host's port, the one after the relink discovered it again
# (the raw lines name the port GUID, the same in every run).  The table
# shows medians over all runs of a mode, and each plugin row's ratio to
# stock's median.  For the plugin also its own time per phase (its
# "phases" log line, verbatim) of the last no-change sweep, the port-down
# and the port-up sweep, the bytes of both published files, the
# Prometheus series count and promtool's verdict.  Figures go to stdout
# and SCALE_OUT (default tests/bench/scale.txt in the build tree), the raw
# key=value lines to SCALE_RAW (default tests/bench/scale-raw.txt), and a
# plot of the no-change resweep CPU against fabric size to SCALE_SVG
# (default tests/bench/scale.svg).
# SCALE_TIMEOUT (default 600) is the longest wait in seconds for ibsim to
# start or for a SUBNET UP.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/bench/cpu-lib.sh"
. "$top_srcdir/tests/bench/scale-paired.sh"
e2e_init scale

gen=$top_builddir/contrib/fabrics/gen-fattree
[ -x "$gen" ] || e2e_fail "no $gen: run 'make bench-scale' (it builds it)"
command -v ibnetdiscover >/dev/null ||
	e2e_skip "ibnetdiscover not installed (apt-get install infiniband-diags)"

sizes=${SCALE_SIZES:-18:36:18 36:72:36 3l:16:8:40}
resweeps=${SCALE_RESWEEPS:-3}
rounds=${SCALE_ROUNDS:-5}
pairs=${SCALE_PAIRED:-6}
changes=${SCALE_CHANGES:-3}
out=${SCALE_OUT:-$top_builddir/tests/bench/scale.txt}
rawout=${SCALE_RAW:-$top_builddir/tests/bench/scale-raw.txt}
svg=${SCALE_SVG:-$top_builddir/tests/bench/scale.svg}
[[ $resweeps =~ ^[1-9]$ ]] || e2e_fail "SCALE_RESWEEPS must be 1..9"
[[ $rounds =~ ^[1-9]$ ]] || e2e_fail "SCALE_ROUNDS must be 1..9"
[[ $pairs =~ ^[0-9]$ ]] || e2e_fail "SCALE_PAIRED must be 0..9"
[[ $changes =~ ^[1-9]$ ]] || e2e_fail "SCALE_CHANGES must be 1..9"
tck=$(getconf CLK_TCK)
ncpu=$(nproc)
cpu_pin SCALE_PIN "${SCALE_PIN:-1}"
export E2E_TIMEOUT=${SCALE_TIMEOUT:-600} E2E_IBSIM_TIMEOUT=${SCALE_TIMEOUT:-600}

# settle [PID...]: wait (at most 120 s) until each opensm (default
# E2E_OPENSM_PID) used under 2 ms of CPU over 0.5 s: the sweep's tail
# (publishing, the SA state) is done.
settle() {
	local pids=("${@:-$E2E_OPENSM_PID}") a b i p

	for ((i = 0; i < 240; i++)); do
		b=0
		for p in "${pids[@]}"; do
			b=$((b + $(cpu_ns "$p")))
		done
		[ "$i" -gt 0 ] && [ $((b - a)) -lt $((2000000 * ${#pids[@]})) ] &&
			return 0
		a=$b
		sleep 0.5
	done
	e2e_log "note: opensm still busy after 120 s"
}

# seen_guid LOG MARK SEEN: the GUID of the port taken down as opensm's log
# LOG names it after line MARK in "SEEN with GUID:0x... of node:DESC"
# (chg_desc, compared as text); nothing when it does not.
seen_guid() {
	tail -n +$(($2 + 1)) "$1" | awk -v s="$3" -v d="$chg_desc" '
		index($0, s " with GUID:0x") &&
		substr($0, length($0) - length(d)) ~ /^[: ]/ &&
		substr($0, length($0) - length(d) + 1) == d &&
		match($0, /GUID:0x[0-9a-fA-F]+/) {
			print substr($0, RSTART + 5, RLENGTH - 5)
			exit
		}'
}

status_kb() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

# faults PID: minor + major page faults of the whole process so far.
faults() {
	local s
	s=$(<"/proc/$1/stat") || e2e_fail "process $1 is gone"
	s=${s##*) }
	awk '{ print $8 + $10 }' <<<"$s"
}

raw=$E2E_DIR/raw.txt
: >"$raw"
rec() { printf '%s\n' "$*" >>"$raw"; }
rec "run pinned=$((${#CPU_PIN} > 0)) opensm_cpu=${CPU_PIN:--}" \
	"rounds=$rounds resweeps=$resweeps paired=$pairs changes=$changes"

# change_port NET: the port the port-down sweep takes down, as "NAME PORT
# PEER DESCRIPTION": the first linked port of the first CA in NET not
# named stor* (a compute host; the policy names the storage HCAs' ports
# one by one), else of the first CA.  gen-fattree and gen-fattree3.awk
# list the CAs leaf by leaf: cn01 port 1 on leaf01 (cn1 on edge001-01).
change_port() {
	awk '
		/^(Hca|Ca)[ \t]/ {
			name = $0
			sub(/^[^"]*"/, "", name)
			sub(/".*/, "", name)
			desc = name
			if (match($0, /#[ \t]*"[^"]*"/)) {
				desc = substr($0, RSTART, RLENGTH)
				sub(/^#[ \t]*"/, "", desc)
				sub(/"$/, "", desc)
			}
			inca = 1
			next
		}
		/^[A-Za-z]/ { inca = 0; next }
		inca && /^\[[0-9]+\]/ {
			inca = 0
			port = $1
			gsub(/[^0-9]/, "", port)
			peer = $2
			gsub(/"/, "", peer)
			line = name " " port " " peer " " desc
			if (name !~ /^stor/) {
				print line
				found = 1
				exit
			}
			if (first == "")
				first = line
		}
		END { if (!found && first != "") print first }' "$1"
}

# cost_begin / cost_end: opensm's CPU and page faults from now until it
# is idle again after a sweep: cost_end sets cost_cpu_s (seconds, 3
# decimals) and cost_faults.
cost_begin() {
	cost_c0=$(cpu_ns "$E2E_OPENSM_PID")
	cost_f0=$(faults "$E2E_OPENSM_PID")
}
cost_end() {
	settle
	cost_cpu_s=$(awk -v c=$(($(cpu_ns "$E2E_OPENSM_PID") - cost_c0)) \
		'BEGIN { printf "%.3f", c / 1e9 }')
	cost_faults=$(($(faults "$E2E_OPENSM_PID") - cost_f0))
}

# OpenSM's line for a trap 128 (link state change) it received.
trap_pat='Received Generic Notice type:1 num:128'

# change SIZE MODE WHAT CMD SEEN: one fabric change through ibsim's console
# (CMD), measured from the command until opensm is idle again after the
# sweep it causes: the leaf sends trap 128 and opensm sweeps on it; a
# SIGHUP only if no trap reached opensm within 10 s.  SEEN is what
# opensm's log must then say of the host's port ("Removed port",
# "Discovered new port"): the sweep saw the change.
change() {
	local size=$1 mode=$2 what=$3 cmd=$4 seen=$5
	local n t mark trig=trap guid line ups

	n=$(grep -c 'SUBNET UP' "$E2E_OSM_LOG")
	t=$(grep -c "$trap_pat" "$E2E_OSM_LOG")
	mark=$(wc -l <"$E2E_OSM_LOG")
	cost_begin
	e2e_ibsim_cmd "$cmd"
	if ! e2e_wait_count "$trap_pat" "$E2E_OSM_LOG" $((t + 1)) 10; then
		trig=hup
		kill -HUP "$E2E_OPENSM_PID"
	fi
	e2e_wait_count 'SUBNET UP' "$E2E_OSM_LOG" $((n + 1)) ||
		e2e_fail "$size/$mode: no SUBNET UP after '$cmd'"
	cost_end
	# "... Removed port with GUID:0x... LID range [2, 2] of node:cn01
	# HCA-1": this host's, after the mark.
	guid=$(seen_guid "$E2E_OSM_LOG" "$mark" "$seen")
	[ -n "$guid" ] || e2e_fail "$size/$mode: after '$cmd' opensm did not log" \
		"'$seen ... of node: $chg_desc'"
	ups=$(($(grep -c 'SUBNET UP' "$E2E_OSM_LOG") - n))
	rec "size=$size mode=$mode change=$what cpu_s=$cost_cpu_s" \
		"faults=$cost_faults sweeps=$ups trigger=$trig port_guid=$guid"
	[ "$mode" != stock ] || return 0
	# The sweep that saw the change: the first after the command.
	line=$(tail -n +$((mark + 1)) "$E2E_OSM_LOG" |
		grep -o 'osmqos: sweep [0-9]*: phases: .*' | head -n 1)
	[ -n "$line" ] || e2e_fail "$size/$mode: no phases line after '$cmd'"
	rec "size=$size mode=$mode sweep=$what phases=\"${line#*phases: }\""
}

# edit_sweep SIZE MODE POLICY: a policy edit that changes no table (the
# monitoring rule's Service-ID range one shorter), SIGHUP, measured as a
# port change is; the file is put back afterwards (no sweep reads it
# before the next run's start).
edit_sweep() {
	local size=$1 mode=$2 pol=$3 n line
	local from=0x1000000000000dff to=0x1000000000000dfe

	grep -q -- "-$from\$" "$pol" || e2e_fail "$size: the policy has no $from to edit"
	n=$(grep -c 'SUBNET UP' "$E2E_OSM_LOG")
	cost_begin
	sed -i "s/-$from\$/-$to/" "$pol"
	kill -HUP "$E2E_OPENSM_PID"
	e2e_wait_count 'SUBNET UP' "$E2E_OSM_LOG" $((n + 1)) ||
		e2e_fail "$size/$mode: no SUBNET UP after the policy edit"
	cost_end
	sed -i "s/-$to\$/-$from/" "$pol"
	rec "size=$size mode=$mode change=edit cpu_s=$cost_cpu_s" \
		"faults=$cost_faults sweeps=$(($(grep -c 'SUBNET UP' "$E2E_OSM_LOG") - n)) trigger=hup port_guid=-"
	[ "$mode" != stock ] || return 0
	line=$(grep -o 'osmqos: sweep [0-9]*: phases: .*' "$E2E_OSM_LOG" | tail -n 1)
	[[ $line == *"(the last copy of the subnet shared)"* ]] ||
		e2e_fail "$size/$mode: the policy edit copied the subnet again: $line"
	rec "size=$size mode=$mode sweep=edit phases=\"${line#*phases: }\""
}

# run SIZE MODE ROUND NET POLICY NODES SWITCHES LINKED_PORTS
run() {
	local size=$1 mode=$2 round=$3 net=$4 pol=$5 nodes=$6 sw=$7 linked=$8
	local extra=() t0 t1 c0
	local i n line f bytes=0 series prom
	# Lift ibsim's node, switch and port limits (-P counts every
	# node's ports, port 0 included).
	e2e_start_ibsim "$net" -N $((nodes + 16)) -S $((sw + 16)) \
		-P $((2 * linked + nodes + 1024))
	[ "$mode" = stock ] && extra=("event_plugin_name=(null)")
	[ "$mode" = plugin ] && [ -n "${SCALE_PLUGIN_OPTIONS:-}" ] &&
		extra=("event_plugin_options=$SCALE_PLUGIN_OPTIONS")
	[ "$mode" = pluginB ] &&
		extra=("event_plugin_options=$SCALE_PLUGIN_OPTIONS_B")
	t0=$(date +%s.%N)
	e2e_start_opensm qos=TRUE "qos_policy_file=$pol" "${extra[@]}"
	t1=$(date +%s.%N)
	settle
	c0=$(cpu_ns "$E2E_OPENSM_PID")
	rec "size=$size mode=$mode up_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') cpu_up_s=$(awk -v c="$c0" 'BEGIN { printf "%.3f", c / 1e9 }') ticks_up=$(cpu_ticks "$E2E_OPENSM_PID") clk_tck=$tck"
	cpu_pin_check "$E2E_OPENSM_PID" "$E2E_IBSIM_PID"
	for ((i = 1; i <= resweeps; i++)); do
		n=$(grep -c 'SUBNET UP' "$E2E_OSM_LOG")
		cost_begin
		kill -HUP "$E2E_OPENSM_PID"
		e2e_wait_count 'SUBNET UP' "$E2E_OSM_LOG" $((n + 1)) ||
			e2e_fail "$size/$mode: no SUBNET UP after SIGHUP $i"
		cost_end
		rec "size=$size mode=$mode resweep=$i cpu_s=$cost_cpu_s faults=$cost_faults"
	done
	rec "size=$size mode=$mode rss_kb=$(status_kb "$E2E_OPENSM_PID" VmRSS) hwm_kb=$(status_kb "$E2E_OPENSM_PID" VmHWM)"
	if [ "$mode" != stock ]; then
		line=$(grep -o 'osmqos: sweep [0-9]*: phases: .*' "$E2E_OSM_LOG" | tail -n 1)
		[ -n "$line" ] || e2e_fail "$size: the plugin logged no phases line"
		rec "size=$size mode=$mode sweep=nochange phases=\"${line#*phases: }\""
		for f in osmqos-bandwidth.json osmqos.prom; do
			[ -s "$E2E_DIR/$f" ] || e2e_fail "$size: the plugin published no $f"
			bytes=$((bytes + $(stat -c %s "$E2E_DIR/$f")))
		done
		prom=$E2E_DIR/osmqos.prom
		series=$(grep -vc '^#' "$prom")
		line=$(grep -o 'published [0-9]* ports.* in [0-9.]* ms' "$E2E_OSM_LOG" | tail -n 1)
		line=${line##* in }
		rec "size=$size mode=$mode published_bytes=$bytes json_bytes=$(stat -c %s "$E2E_DIR/osmqos-bandwidth.json") series=$series publish_ms=${line% ms}"
		if command -v promtool >/dev/null; then
			if promtool check metrics <"$prom" >"$E2E_DIR/promtool.out" 2>&1; then
				rec "size=$size mode=$mode promtool=clean"
			else
				rec "size=$size mode=$mode promtool=\"$(head -n 3 "$E2E_DIR/promtool.out" | tr '\n' ';')\""
			fi
		fi
		cp "$E2E_DIR/osmqos-bandwidth.json" "$E2E_DIR/$size-$mode.json"
		cp "$prom" "$E2E_DIR/$size-$mode.prom"
		grep -E 'ERR|osmqos.* 0x01 ' "$E2E_OSM_LOG" | head -n 5 >"$E2E_DIR/$size-$mode.err"
	fi
	# One port down and back up: the same console commands in every run.
	change "$size" "$mode" down "Unlink \"$chg_name\"[$chg_port]" \
		"Removed port"
	change "$size" "$mode" up "ReLink \"$chg_name\"[$chg_port]" \
		"Discovered new port"
	edit_sweep "$size" "$mode" "$pol"
	e2e_stop_opensm
	mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-$size-$mode-$round.log"
	e2e_stop_ibsim
	mv "$E2E_DIR/ibsim.log" "$E2E_DIR/ibsim-$size-$mode-$round.log"
	rm -f "$E2E_DIR/ibsim.ctl"
}

for size in $sizes; do
	net=$E2E_DIR/fat-$size.net
	pol=$E2E_DIR/policy-$size.conf
	if [[ $size == 3l:* ]]; then
		# Three levels: PODS:EDGES:HOSTS (gen-fattree3.awk).
		IFS=: read -r _ p e h <<<"$size"
		[[ $p =~ ^[1-9][0-9]*$ && $e =~ ^[1-9][0-9]*$ && $h =~ ^[1-9][0-9]*$ ]] ||
			e2e_fail "SCALE_SIZES: '$size' is not 3l:PODS:EDGES:HOSTS"
		sw=$((2 * p * e + e * e))
		nodes=$((sw + p * e * h))
		awk -v P="$p" -v E="$e" -v H="$h" \
			-f "$top_srcdir/tests/bench/gen-fattree3.awk" >"$net" ||
			e2e_fail "gen-fattree3.awk failed"
		bash "$top_srcdir/tests/bench/gen-scale-policy.sh" $((p * e)) 1 >"$pol" ||
			e2e_fail "policy generation failed"
		linked=$((2 * (p * e * h + 2 * p * e * e)))
		rec "size=$size nodes=$nodes switches=$sw hosts=$((p * e * h)) linked_ports=$linked"
	else
		IFS=: read -r s l h <<<"$size"
		[[ $s =~ ^[1-9][0-9]*$ && $l =~ ^[1-9][0-9]*$ && $h =~ ^[1-9][0-9]*$ ]] ||
			e2e_fail "SCALE_SIZES: '$size' is not SPINES:LEAVES:HCAS or 3l:PODS:EDGES:HOSTS"
		sw=$((s + l))
		nodes=$((s + l + l * h))
		"$gen" --spines "$s" --leaves "$l" --hcas-per-leaf "$h" \
			--storage-per-leaf 1 >"$net" || e2e_fail "gen-fattree failed"
		bash "$top_srcdir/tests/bench/gen-scale-policy.sh" "$l" 1 >"$pol" ||
			e2e_fail "policy generation failed"
		linked=$((2 * (l * h + s * l)))
		rec "size=$size nodes=$nodes spines=$s leaves=$l hosts=$((l * h)) linked_ports=$linked"
	fi
	read -r chg_name chg_port chg_peer chg_desc < <(change_port "$net")
	[ -n "$chg_desc" ] || e2e_fail "$size: no CA port to take down in $net"
	rec "size=$size change_port=${chg_name}[$chg_port] peer=$chg_peer"
	for ((round = 1; round <= rounds; round++)); do
		modes="stock plugin"
		[ -z "${SCALE_PLUGIN_OPTIONS_B:-}" ] || modes+=" pluginB"
		for mode in $modes; do
			e2e_log "$size ($nodes nodes): $mode, round $round"
			run "$size" "$mode" "$round" "$net" "$pol" "$nodes" \
				"$sw" "$linked"
		done
	done
	pr_next=()
	for ((round = 1; round <= pairs; round++)); do
		e2e_log "$size ($nodes nodes): stock and plugin paired, run" \
			"$round"
		paired "$size" "$round" "$net" "$pol" "$nodes" "$sw" "$linked"
	done
done

{
	printf '# Scale benchmark: generated fat trees on ibsim, stock OpenSM vs OpenSM + osmqos, %s\n' \
		"$(date -u '+%F %T UTC')"
	printf '# opensm %s, %s cores, load %s, %s; %s round(s) per mode, alternating\n' \
		"$("$OQ_OPENSM" --version 2>/dev/null | grep -o 'OpenSM [0-9.]*' | head -n 1)" \
		"$ncpu" "$(cut -d' ' -f1-3 /proc/loadavg)" "$CPU_PIN_NOTE" \
		"$rounds"
	printf '# opensm CPU s from the trigger until idle after SUBNET UP, medians: resweep_s of %s SIGHUP sweeps with nothing changed, portdown_s of %s sweeps after a host port went down (ibsim Unlink), portup_s of %s after it came back (ReLink), edit_s of %s after a policy edit that changes no table (SIGHUP); +%%: plugin / stock - 1\n' \
		"$((rounds * resweeps))" "$rounds" "$rounds" "$rounds"
	printf '# paired: %s run(s) per size of stock and %s side by side, %s port down and up pair(s) each, swept together (%s), started in turns; ratio+%%: the geometric mean of the median per-sweep osmqos_s / stock_s of the runs that started stock first (stock1st+%%) and of those that started the other first (other1st+%%), less 1; range+%%: lowest..highest ratio\n' \
		"$pairs" "$([ "${SCALE_PAIRED_AA:-0}" = 1 ] && echo "stock again (SCALE_PAIRED_AA=1: the osmqos_s column is a second stock)" || echo plugin)" \
		"$changes" "$([ -n "$CPU_PIN" ] && echo "both opensm on CPU $CPU_PIN" || echo "not pinned")"
	printf '# threads: the paired runs by thread, plugin (or second stock) minus stock in ms a sweep (the mean of the medians of the two kinds of run; medians do not add up) and as a share of stock_s: sm_ms the state manager thread (the opensm thread with the most CPU among those scheduled in at most 1%% of the times: routing, osm_qos_setup and the plugin hooks and events), osmqos_ms the plugin'"'"'s own threads (osmqos-*), rest_ms the other threads (MADs sent and received, the main loop), all_ms opensm; stock_sm: stock'"'"'s state manager thread, ms, median\n'
	awk -f "$top_srcdir/tests/bench/scale-lib.awk" \
		-f "$top_srcdir/tests/bench/scale-table.awk" "$raw"
	printf '# raw:\n'
	sed 's/^/# /' "$raw"
} >"$E2E_DIR/table.txt"
mkdir -p "$(dirname "$out")"
cp "$E2E_DIR/table.txt" "$out" || e2e_fail "cannot write $out"
cp "$raw" "$rawout" || e2e_fail "cannot write $rawout"
awk -f "$top_srcdir/tests/bench/scale-lib.awk" \
	-f "$top_srcdir/tests/bench/scale-svg.awk" "$raw" >"$svg" ||
	e2e_fail "cannot write $svg"
cat "$E2E_DIR/table.txt"
e2e_log "plot: $svg"
