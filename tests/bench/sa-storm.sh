#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# SA storm benchmark: what one SA query costs opensm, in CPU, with and without the plugin.  On fat-tree-16.net (or STORM_NET) under
# ibsim, for each rule count R (STORM_RULES, default "20 1000 10000") a
# policy in OpenSM's grammar with R match rules (gen-rules-policy.sh; the
# storm's Service-ID matches the last rule, so OpenSM's linear scan walks
# all of them) is loaded by
#   stock   opensm, qos TRUE, qos_policy_file, no plugin;
#   plugin  the same with event_plugin_name osmqos (the plugin reads the
#           same qos_policy_file, as tests/e2e/program.sh does);
#   floor   the same number of ClassPortInfo Gets against the stock run:
#           the SA transport's cost with no path work at all;
#   pfloor  the same against the plugin's run (OpenSM answers those
#           itself): the plugin's x_floor is against this one, the
#           transport of its own process.
# Stock and plugin alternate STORM_ROUNDS times (default 3), each on a
# fresh opensm, so drift on a shared machine falls on both alike.
# Each storm is STORM_QUERIES (default 50000) Gets from one tests/bench/
# sa_storm process, STORM_WINDOW (16) outstanding, PathRecord by LID with
# a Service-ID, in one of two workloads (STORM_WORKLOADS, default "pairs
# all", each measured in every run):
#   pairs   the 12 ordered pairs of 4 CAs on 4 leaves (STORM_CAS), the
#           same few questions again and again;
#   all     every ordered pair of the fabric's LIDs (CA ports and
#           switches) in turn, each with STORM_SIDS (default 8)
#           Service-IDs: thousands of distinct questions (3,696 on the
#           fat tree), as a job start asks them; its rows are the mode
#           with ":all" (stock:all, plugin:all).
# The opensm process CPU (utime + stime from /proc/PID/stat) is read right
# before and after the storm, after the subnet is up and opensm idle
# (sweep_interval 0: no sweep during a storm), and after a warm-up of
# the same kind (not counted).  Each mode runs STORM_REPEAT (default 3)
# storms per round on the same opensm; the table shows the median over
# all of a mode's storms and their range (sa-storm-table.awk).  Figures
# go to stdout and to STORM_OUT (default tests/bench/sa-storm.txt in the
# build tree).  STORM_PLUGIN_OPTIONS, if set, is the plugin run's
# event_plugin_options (e.g. an audit= path); STORM_PLUGIN_OPTIONS_B, if
# set, adds a third opensm per round, the plugin with those options
# (mode pluginB), for an A/B of a plugin option in the same rounds.
# STORM_NET (an ibsim net file, default contrib/fabrics/fat-tree-16.net)
# and STORM_CAS (the CAs' node descriptions, two or more, ';'-separated;
# the storm goes over their ordered pairs; default
# the fat tree's "stor1 HCA-1;cn04 HCA-1;cn08 HCA-1;cn12 HCA-1") run the
# storm on another fabric, e.g. one of gen-fattree's, to see what a query
# costs as the fabric grows.
# STORM_PIN (default 1, with two CPUs or more) pins opensm to one CPU and
# ibsim, the client and this script to the others: unpinned on a 2-core
# VM the three busy processes migrate, and one mode's storms spread by
# 30-60% in CPU per query; pinned, by a few percent.  STORM_PIN=0 turns
# it off.  The pinning is cpu-lib.sh's cpu_pin, the same as bench-scale's
# SCALE_PIN.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/bench/cpu-lib.sh"
e2e_init sa-storm

storm=$top_builddir/tests/bench/sa_storm
gen=$top_srcdir/tests/bench/gen-rules-policy.sh
[ -x "$storm" ] ||
	e2e_fail "no $storm: run 'make bench-sa' (it builds it) from the build tree"
command -v ibnetdiscover >/dev/null ||
	e2e_skip "ibnetdiscover not installed (apt-get install infiniband-diags)"

queries=${STORM_QUERIES:-50000}
rules_list=${STORM_RULES:-20 1000 10000}
window=${STORM_WINDOW:-16}
repeat=${STORM_REPEAT:-3}
rounds=${STORM_ROUNDS:-3}
workloads=${STORM_WORKLOADS:-pairs all}
sids=${STORM_SIDS:-8}
out=${STORM_OUT:-$top_builddir/tests/bench/sa-storm.txt}
[[ $queries =~ ^[1-9][0-9]*$ ]] || e2e_fail "STORM_QUERIES must be a positive number"
[[ $repeat =~ ^[1-9][0-9]?$ ]] || e2e_fail "STORM_REPEAT must be 1..99"
[[ $rounds =~ ^[1-9]$ ]] || e2e_fail "STORM_ROUNDS must be 1..9"
[[ $sids =~ ^[1-9][0-9]{0,3}$ ]] || e2e_fail "STORM_SIDS must be 1..9999"
for w in $workloads; do
	[[ $w == pairs || $w == all ]] ||
		e2e_fail "STORM_WORKLOADS: '$w' is neither pairs nor all"
done
warmup=$((queries / 10 < 1000 ? queries / 10 + 1 : 1000))

# opensm on a CPU of its own, ibsim, the client and this script on the
# others (cpu-lib.sh).
ncpu=$(nproc)
cpu_pin STORM_PIN "${STORM_PIN:-1}"
hit_sid=0x1000000000000001
tck=$(getconf CLK_TCK)
net=${STORM_NET:-$top_srcdir/contrib/fabrics/fat-tree-16.net}
IFS=';' read -r -a cas <<<"${STORM_CAS:-stor1 HCA-1;cn04 HCA-1;cn08 HCA-1;cn12 HCA-1}"
[ -f "$net" ] || e2e_fail "STORM_NET: no such file: $net"
[ "${#cas[@]}" -ge 2 ] ||
	e2e_fail "STORM_CAS: name at least two CAs, ';'-separated"
# ibsim's default limits are below a few thousand nodes: lift them to the
# fabric's size, and give a large fabric time to come up.
n_sw=$(grep -c '^Switch' "$net")
n_nodes=$((n_sw + $(grep -cE '^(Hca|Ca|Rt)' "$net")))
ibsim_args=()
if [ "$n_nodes" -gt 1000 ]; then
	ibsim_args=(-N $((n_nodes + 16)) -S $((n_sw + 16)))
	[ "$E2E_TIMEOUT" -ge 600 ] || E2E_TIMEOUT=600
	E2E_IBSIM_TIMEOUT=$E2E_TIMEOUT
fi

# settle: SUBNET UP is logged before the last post-sweep work is done;
# wait (at most 30 s) until opensm uses at most 1 tick over a second.
settle() {
	local a b i
	a=$(cpu_ticks "$E2E_OPENSM_PID")
	for ((i = 0; i < 30; i++)); do
		sleep 1
		b=$(cpu_ticks "$E2E_OPENSM_PID")
		[ $((b - a)) -le 1 ] && return 0
		a=$b
	done
	e2e_log "note: opensm still busy ($((b - a)) ticks/s) after 30 s"
}

# start_sm MODE POLICY RULES: opensm on the running ibsim, checked: the
# policy loaded by OpenSM (and by the plugin in plugin mode), no error
# about either, the plugin loaded exactly when wanted.
start_sm() {
	local mode=$1 pol=$2 rules=$3 extra=() bad
	[ "$mode" = stock ] && extra=("event_plugin_name=(null)")
	[ "$mode" = plugin ] && [ -n "${STORM_PLUGIN_OPTIONS:-}" ] &&
		extra=("event_plugin_options=$STORM_PLUGIN_OPTIONS")
	[ "$mode" = pluginB ] &&
		extra=("event_plugin_options=$STORM_PLUGIN_OPTIONS_B")
	e2e_start_opensm qos=TRUE "qos_policy_file=$pol" "${extra[@]}"
	[ "$(cat "/proc/$E2E_OPENSM_PID/comm")" = opensm ] ||
		e2e_fail "pid $E2E_OPENSM_PID is not opensm"
	cpu_pin_check "$E2E_OPENSM_PID" "$E2E_IBSIM_PID"
	# OpenSM's errors say ERR; the plugin's are logged at level 0x01.
	bad=$(grep -E 'ERR|Error| 0x01 -> ' "$E2E_OSM_LOG" |
		grep -iE 'qos|policy|plugin|osmqos|yyerror|parse')
	[ -z "$bad" ] || e2e_fail "$mode/$rules: opensm logged: $(head -n 5 <<<"$bad")"
	grep -q 'osm_qos_parse_policy_file: Loading QoS policy file' "$E2E_OSM_LOG" ||
		e2e_fail "$mode/$rules: opensm did not load the QoS policy file"
	if grep -q 'osmqos_create: osmqos .* loaded' "$E2E_OSM_LOG"; then
		[ "$mode" != stock ] || e2e_fail "stock/$rules: the plugin loaded"
		grep -q "osmqos: policy .* loaded: .* $rules match rules" "$E2E_OSM_LOG" ||
			e2e_fail "plugin/$rules: the plugin did not load the $rules-rule policy"
	else
		[ "$mode" = stock ] || e2e_fail "plugin/$rules: the plugin did not load"
	fi
	settle
}

stop_sm() {
	e2e_stop_opensm
	mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-$1.log"
}

# steal: CPU time the hypervisor gave to others (all CPUs, ticks); on a
# shared VM it says how much to trust a run.
steal() {
	awk '/^cpu / { print $9; exit }' /proc/stat
}

# storm RULES MODE ARGS...: a warm-up (not counted), then $repeat
# measured storms, one result line each in $raw.  ARGS are sa_storm's
# (--pr ... or --cpi).
storm() {
	local rules=$1 mode=$2 line osm0 osm1 sim0 sim1 ns0 ns1 st0 st1 rep
	shift 2
	# umad2sim makes a ./sys-PID tree: keep it in the run's directory.
	(cd "$E2E_DIR" && e2e_sim "$storm" --count "$warmup" \
		--window "$window" "$@" >/dev/null 2>"$E2E_DIR/storm.err") ||
		e2e_fail "$mode/$rules warm-up failed: $(tail -n 3 "$E2E_DIR/storm.err")"
	for ((rep = 1; rep <= repeat; rep++)); do
		st0=$(steal)
		ns0=$(cpu_ns "$E2E_OPENSM_PID")
		osm0=$(cpu_ticks "$E2E_OPENSM_PID")
		sim0=$(cpu_ticks "$E2E_IBSIM_PID")
		line=$(cd "$E2E_DIR" && e2e_sim "$storm" --count "$queries" \
			--window "$window" "$@" 2>"$E2E_DIR/storm.err") ||
			e2e_fail "$mode/$rules storm: not every query was answered: $line $(tail -n 3 "$E2E_DIR/storm.err")"
		osm1=$(cpu_ticks "$E2E_OPENSM_PID")
		ns1=$(cpu_ns "$E2E_OPENSM_PID")
		sim1=$(cpu_ticks "$E2E_IBSIM_PID")
		st1=$(steal)
		[[ $line == *" status_nonzero=0 "* ]] ||
			e2e_fail "$mode/$rules storm: error statuses, so it did not measure answers: $line"
		printf 'rules=%s kind=%s rep=%s opensm_ticks=%s opensm_ns=%s ibsim_ticks=%s steal_ticks=%s clk_tck=%s %s\n' \
			"$rules" "$mode" "$rep" $((osm1 - osm0)) $((ns1 - ns0)) \
			$((sim1 - sim0)) $((st1 - st0)) "$tck" "$line" >>"$raw"
		e2e_log "$mode/$rules #$rep: opensm $((osm1 - osm0)) ticks; $line"
	done
}

# storms RULES MODE: the mode's storms of every workload.
storms() {
	local w
	for w in $workloads; do
		if [ "$w" = pairs ]; then
			storm "$1" "$2" --pr "$pairs" --sid "$hit_sid"
		else
			storm "$1" "$2:all" --all-pairs "$all_lids" \
				--sid "$hit_sid" --sids "$sids"
		fi
	done
}

raw=$E2E_DIR/raw.txt
: >"$raw"
e2e_start_ibsim "$net" "${ibsim_args[@]}"
t0=$SECONDS
pairs=
for r in $rules_list; do
	[[ $r =~ ^[1-9][0-9]*$ ]] || e2e_fail "STORM_RULES: '$r' is not a rule count"
	pol=$E2E_DIR/policy-$r.conf
	bash "$gen" "$r" "$hit_sid" >"$pol" || e2e_fail "policy generation failed"

	for ((round = 1; round <= rounds; round++)); do
	start_sm stock "$pol" "$r"
	if [ -z "$pairs" ]; then
		# LIDs come from this first opensm; the guid2lid cache in
		# OSM_CACHE_DIR keeps them across the restarts.
		lids=()
		for d in "${cas[@]}"; do
			l=$(e2e_lid "$d")
			[ -n "$l" ] || e2e_fail "no LID for $d"
			lids+=("$l")
		done
		for s in "${lids[@]}"; do
			for d in "${lids[@]}"; do
				[ "$s" != "$d" ] && pairs+=${pairs:+,}$s:$d
			done
		done
		e2e_log "PathRecord pairs (SLID:DLID): $pairs"
		# Every LID of the fabric: CA ports and switches.
		all_lids=$(e2e_ibnetdiscover | grep -oE 'lid [0-9]+' |
			awk '{ print $2 }' | sort -un | paste -sd, -)
		[ "$(tr ',' '\n' <<<"$all_lids" | wc -l)" -ge 2 ] ||
			e2e_fail "fewer than two LIDs in the fabric"
	fi
	storm "$r" floor --cpi
	storms "$r" stock
	stop_sm "stock-$r"

	start_sm plugin "$pol" "$r"
	storm "$r" pfloor --cpi
	storms "$r" plugin
	stop_sm "plugin-$r"
	if [ -n "${STORM_PLUGIN_OPTIONS_B:-}" ]; then
		start_sm pluginB "$pol" "$r"
		storms "$r" pluginB
		stop_sm "pluginB-$r"
	fi
	done
	# What the plugin says it did with the queries (at unload).
	for m in plugin pluginB; do
		[ -f "$E2E_DIR/opensm-$m-$r.log" ] || continue
		c=$(grep -o 'SA front: PathRecord [0-9]* queries ([^)]*)' \
			"$E2E_DIR/opensm-$m-$r.log" | tail -n 1)
		[ -z "$c" ] ||
			printf 'rules=%s %s_counters="%s"\n' "$r" "$m" "$c" >>"$raw"
	done
done
e2e_stop_ibsim

# The table: CPU per query and its ratio to the floor at the same R.
{
	printf '# SA storm: %s queries per storm, %s storm(s) per mode, window %s, %s (%s nodes) on ibsim, %s\n' \
		"$queries" "$((repeat * rounds))" "$window" "$(basename "$net" .net)" \
		"$n_nodes" "$(date -u '+%F %T UTC')"
	printf '# opensm %s, %s cores, load %s, %s\n' \
		"$("$OQ_OPENSM" --version 2>/dev/null | grep -o 'OpenSM [0-9.]*' | head -n 1)" \
		"$ncpu" "$(cut -d' ' -f1-3 /proc/loadavg)" \
		"$CPU_PIN_NOTE"
	awk -f "$top_srcdir/tests/bench/sa-storm-table.awk" "$raw"
	printf '# raw client lines:\n'
	sed 's/^/# /' "$raw"
} >"$E2E_DIR/table.txt"
mkdir -p "$(dirname "$out")"
cp "$E2E_DIR/table.txt" "$out" || e2e_fail "cannot write $out"
cat "$E2E_DIR/table.txt"
e2e_log "figures written to $out ($((SECONDS - t0)) s)"
e2e_pass
