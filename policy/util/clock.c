// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The clock helper (osmqos/clock.h). */
#include <config.h>

#include <time.h>

#include <osmqos/clock.h>

static uint64_t read_ns(clockid_t id)
{
	struct timespec t;

	if (clock_gettime(id, &t))
		return 0;
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

uint64_t oq_clock_ns(void)
{
	return read_ns(CLOCK_MONOTONIC);
}

uint64_t oq_thread_cpu_ns(void)
{
	return read_ns(CLOCK_THREAD_CPUTIME_ID);
}

double oq_ms_since(uint64_t t0_ns)
{
	return (double)(oq_clock_ns() - t0_ns) / 1e6;
}
