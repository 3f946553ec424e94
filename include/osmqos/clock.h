/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The one clock helper: monotonic and thread-CPU readings in nanoseconds,
 * and the milliseconds since an earlier monotonic reading, for phase
 * timings, rate limits and deadlines.  Wall-clock time (timestamps an
 * operator reads) stays clock_gettime(CLOCK_REALTIME) at its one use.
 */
#ifndef OSMQOS_CLOCK_H
#define OSMQOS_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC, in ns. */
uint64_t oq_clock_ns(void);

/* CLOCK_THREAD_CPUTIME_ID of the calling thread, in ns; 0 if unknown. */
uint64_t oq_thread_cpu_ns(void);

/* Milliseconds from the monotonic reading t0_ns to now. */
double oq_ms_since(uint64_t t0_ns);

#endif /* OSMQOS_CLOCK_H */
