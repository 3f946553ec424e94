# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# CPU accounting of a process for the benchmarks (sa-storm.sh, scale.sh).
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
