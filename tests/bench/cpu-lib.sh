# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# CPU accounting of a process for the benchmarks (sa-storm.sh, scale.sh),
# and the pinning of opensm to a CPU of its own that both use.
# Source after tests/e2e/lib.sh.

# cpu_ticks PID: utime + stime of the whole process (all threads, live and
# exited), in clock ticks.  Fields counted after the ")" closing comm.
cpu_ticks() {
	local s
	s=$(<"/proc/$1/stat") || e2e_fail "process $1 is gone"
	s=${s##*) }
	awk '{ print $12 + $13 }' <<<"$s"
}

# cpu_ns PID: on-CPU nanoseconds of the threads alive now (schedstat):
# exact where cpu_ticks has a 10 ms grain; opensm's threads live as long
# as it, so differences are exact.
cpu_ns() {
	cat /proc/"$1"/task/*/schedstat 2>/dev/null |
		awk '{ t += $1 } END { printf "%.0f\n", t }'
}

# cpu_affinity PID: the CPUs PID may run on, one a line ("pid N's current
# affinity list: 0,2-3" -> 0 2 3).
cpu_affinity() {
	taskset -c -p "$1" 2>/dev/null | sed 's/.*: //' | tr ',' '\n' |
		awk -F- '{ for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }'
}

# cpu_pin NAME VALUE: with VALUE (the benchmark's variable NAME, 0 or 1)
# 1 and two CPUs or more allowed to this script, give opensm the first of
# them and this shell the others, so that opensm does not compete with
# ibsim, the clients or the script's own polling: the shell is moved now
# (ibsim and every client it starts later inherit its CPUs), and
# e2e_start_opensm starts opensm through taskset (E2E_OPENSM_WRAPPER), so
# all its threads run on its CPU from the first instruction.  Sets
# CPU_PIN (opensm's CPU, empty when not pinned) and CPU_PIN_NOTE (what
# the benchmark's table says about it).
cpu_pin() {
	local name=$1 want=$2 cpus others

	[[ $want =~ ^[01]$ ]] || e2e_fail "$name must be 0 or 1"
	CPU_PIN=
	CPU_PIN_NOTE="not pinned ($name=0)"
	[ "$want" = 1 ] || return 0
	if ! command -v taskset >/dev/null; then
		CPU_PIN_NOTE="not pinned (no taskset; apt-get install util-linux)"
		return 0
	fi
	cpus=$(cpu_affinity $$)
	if [ "$(wc -l <<<"$cpus")" -lt 2 ]; then
		CPU_PIN_NOTE="not pinned (one CPU)"
		return 0
	fi
	CPU_PIN=$(head -n 1 <<<"$cpus")
	others=$(tail -n +2 <<<"$cpus" | paste -sd, -)
	taskset -c -p "$others" $$ >/dev/null ||
		e2e_fail "taskset of the script failed"
	E2E_OPENSM_WRAPPER="taskset -c $CPU_PIN${E2E_OPENSM_WRAPPER:+ $E2E_OPENSM_WRAPPER}"
	# shellcheck disable=SC2034 # for the benchmark that sourced this
	CPU_PIN_NOTE="pinned: opensm on CPU $CPU_PIN, ibsim, clients and the script on CPU $others"
}

# cpu_pin_check PID [PID_ELSEWHERE]: fail unless every thread of opensm
# PID runs on CPU_PIN alone and PID_ELSEWHERE (ibsim) not there (nothing
# to check when not pinned): the table's "pinned" is then true.
cpu_pin_check() {
	local t got

	[ -n "$CPU_PIN" ] || return 0
	for t in /proc/"$1"/task/*; do
		# A thread that ended meanwhile has no affinity: skip it.
		got=$(cpu_affinity "${t##*/}" | paste -sd, -)
		[ -z "$got" ] || [ "$got" = "$CPU_PIN" ] ||
			e2e_fail "opensm thread ${t##*/} may run on CPU $got, not only $CPU_PIN"
	done
	[ -n "${2:-}" ] || return 0
	! cpu_affinity "$2" | grep -qx "$CPU_PIN" ||
		e2e_fail "ibsim (pid $2) may run on opensm's CPU $CPU_PIN"
}
