// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * arbsim_check: the independent packet-level arbiter simulator
 * (tests/lib/arbsim.c, written apart from the model) run on tables read
 * back from a fabric, for the end-to-end tests.
 *
 * Input, one port a line:
 *   NAME RATE_GBPS MTU VLHIGHLIMIT SL2VL HIGH LOW
 * SL2VL is "v0,...,v15"; HIGH and LOW are "vl:weight,..." or "-" (empty).
 * Every VL the SL2VL row reaches is kept busy with MTU-size packets.
 *
 * Output, per port and per SL on a data VL:
 *   NAME SL VL SHARE_PCT WAIT_US
 * SHARE_PCT: the VL's share of the bytes over one exact period of the
 * simulation; WAIT_US: the longest a packet of the VL, at the head of its
 * queue, waited before it started, over three arrival patterns (always
 * busy, single packets at every offset of the cycle, a pseudo-random mix).
 * Exit 0, or 1 on bad input or a simulation that did not close.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/tables.h>

#include "arbsim.h"

#define N_ARRIVE 256

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

/* "vl:w,vl:w" or "-" into t; false when malformed. */
static bool parse_table(const char *s, struct oq_vlarb_table *t)
{
	memset(t, 0, sizeof(*t));
	if (!strcmp(s, "-"))
		return true;
	while (*s) {
		unsigned int vl, w;
		int k;

		if (sscanf(s, "%u:%u%n", &vl, &w, &k) != 2 || vl > 15 ||
		    w > 255 || t->n >= OQ_VLARB_MAX)
			return false;
		t->e[t->n].vl = (uint8_t)vl;
		t->e[t->n].weight = (uint8_t)w;
		t->n++;
		s += k;
		if (*s == ',')
			s++;
		else if (*s)
			return false;
	}
	return true;
}

static bool parse_sl2vl(const char *s, uint8_t sl2vl[16])
{
	unsigned int i;

	for (i = 0; i < 16; i++) {
		char *end;
		unsigned long v = strtoul(s, &end, 10);

		if (end == s || v > 15 || (i < 15 ? *end != ',' : *end))
			return false;
		sl2vl[i] = (uint8_t)v;
		s = end + 1;
	}
	return true;
}

/* The longest wait of a packet of vl over the three arrival patterns,
 * in byte times; -1 when a pattern starved it. */
static int64_t worst_wait(const struct arbsim_wait_cfg *base, unsigned int vl,
			  uint64_t step)
{
	struct arbsim_wait_cfg wc = *base;
	struct arbsim_wait_out wo;
	uint64_t arrive[N_ARRIVE], t0, worst = 0;
	unsigned int pat, k;

	wc.vl = vl;
	for (pat = 0; pat < 3; pat++) {
		for (k = 0, t0 = 1; k < N_ARRIVE; k++) {
			if (pat == 0) {
				arrive[k] = 1;
				continue;
			}
			if (pat == 1)
				t0 += step + 2 * (uint64_t)wc.len * (k % 37);
			else
				t0 += rnd(3) ? 1 + 2 * rnd(3 * wc.len) : step;
			arrive[k] = t0 | 1;
		}
		if (arbsim_wait(&wc, arrive, N_ARRIVE, 1u << 22, &wo) ||
		    wo.starved)
			return -1;
		if (wo.worst > worst)
			worst = wo.worst;
	}
	return (int64_t)worst;
}

static int check_port(const char *name, double rate, unsigned int mtu,
		      unsigned int limit, const uint8_t sl2vl[16],
		      const struct oq_vlarb_table *hi,
		      const struct oq_vlarb_table *lo)
{
	struct arbsim_cfg sc;
	struct arbsim_out so;
	struct arbsim_wait_cfg wc;
	int64_t wait[15];
	uint64_t step = 0;
	uint16_t busy = 0;
	unsigned int s, v, i;

	for (s = 0; s < 16; s++)
		if (sl2vl[s] < 15)
			busy |= (uint16_t)(1u << sl2vl[s]);
	memset(&sc, 0, sizeof(sc));
	sc.hi = hi->n ? hi : NULL;
	sc.lo = lo;
	sc.limit = limit;
	sc.busy = busy;
	for (v = 0; v < 15; v++)
		sc.len[v] = mtu;
	if (arbsim_run(&sc, 1u << 20, &so) || !so.found || !so.period_bytes) {
		fprintf(stderr, "arbsim_check: %s: no period found\n", name);
		return 1;
	}
	/* A spacing longer than any wait: a whole pass of both tables, a
	 * packet per entry, twice. */
	for (i = 0; i < hi->n; i++)
		step += (uint64_t)hi->e[i].weight * 64 + mtu;
	for (i = 0; i < lo->n; i++)
		step += (uint64_t)lo->e[i].weight * 64 + mtu;
	step = 4 * (step + (uint64_t)(limit + 1) * 4096 + 16 * mtu);
	memset(&wc, 0, sizeof(wc));
	wc.hi = sc.hi;
	wc.lo = lo;
	wc.limit = limit;
	wc.busy = busy;
	wc.len = mtu;
	for (v = 0; v < 15; v++)
		wait[v] = (busy & (1u << v)) ? worst_wait(&wc, v, step) : -1;
	for (s = 0; s < 16; s++) {
		v = sl2vl[s];
		if (v >= 15)
			continue;
		printf("%s %u %u %.6f ", name, s, v,
		       100.0 * (double)so.bytes[v] / (double)so.period_bytes);
		if (wait[v] < 0)
			printf("starved\n");
		else
			printf("%.6f\n",
			       (double)wait[v] * 8.0 / (rate * 1000.0));
	}
	return 0;
}

int main(void)
{
	char line[4096];
	int rc = 0;

	while (fgets(line, sizeof(line), stdin)) {
		char name[256], sl2vl_s[128], hi_s[1024], lo_s[1024];
		struct oq_vlarb_table hi, lo;
		unsigned int mtu, limit;
		uint8_t sl2vl[16];
		double rate;

		if (line[0] == '\n' || line[0] == '#')
			continue;
		if (sscanf(line, "%255s %lf %u %u %127s %1023s %1023s", name,
			   &rate, &mtu, &limit, sl2vl_s, hi_s, lo_s) != 7 ||
		    rate <= 0 || mtu < 256 || mtu > 4096 || limit > 255 ||
		    !parse_sl2vl(sl2vl_s, sl2vl) || !parse_table(hi_s, &hi) ||
		    !parse_table(lo_s, &lo) || !lo.n) {
			fprintf(stderr, "arbsim_check: bad line: %s", line);
			return 1;
		}
		rc |= check_port(name, rate, mtu, limit, sl2vl, &hi, &lo);
	}
	return rc;
}
