/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The independent packet-level arbiter simulator (tests/lib/arbsim.c). */
#ifndef OSMQOS_TEST_ARBSIM_H
#define OSMQOS_TEST_ARBSIM_H

#include <stdbool.h>
#include <stdint.h>

#include <osmqos/tables.h>

struct arbsim_cfg {
	const struct oq_vlarb_table *hi, *lo;
	unsigned int limit; /* VLHighLimit */
	uint16_t busy;	    /* VLs with packets */
	uint32_t len[15];   /* bytes per packet of each VL */
};

struct arbsim_out {
	uint64_t bytes[15]; /* over one exact period */
	uint64_t period_bytes, period_pkts, pkts_run;
	uint64_t end_time; /* byte time at the end of the run */
	bool found;	   /* period found before the packet cap */
	bool idle;
};

int arbsim_run(const struct arbsim_cfg *c, uint64_t max_pkts,
	       struct arbsim_out *o);

/* One VL's packets timed: every VL of busy but vl always has a packet,
 * vl's packets arrive at arrive[0..n-1] (half-byte times, increasing;
 * an odd time is just after the decision at the even time before it),
 * every packet len bytes.  worst: the longest a packet of vl was the
 * head of its queue before it started, bytes (from its arrival, or from
 * the start of the packet ahead of it). */
struct arbsim_wait_cfg {
	const struct oq_vlarb_table *hi, *lo;
	unsigned int limit;
	uint16_t busy;
	unsigned int vl;
	uint32_t len;
};

struct arbsim_wait_out {
	uint64_t worst;
	size_t sent;
	uint64_t pkts;
	bool starved; /* not every packet went within max_pkts */
};

int arbsim_wait(const struct arbsim_wait_cfg *c, const uint64_t *arrive,
		size_t n, uint64_t max_pkts, struct arbsim_wait_out *o);

#endif /* OSMQOS_TEST_ARBSIM_H */
