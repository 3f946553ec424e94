// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * arbsim: an independent, packet-by-packet discrete-event simulator of the
 * IBA 7.6.9 VL arbiter, written from docs/model.md without looking at
 * policy/arbiter.c (shares nothing with it beyond struct oq_vlarb_table).
 *
 * Time runs in byte times: each transmission ends `len` bytes after it
 * starts, and at every packet end the arbiter picks the next packet.  Table
 * entries are advanced lazily (only when an exhausted or ineligible entry
 * is looked at), weights are tracked in bytes (weight * 64, a packet costs
 * its length rounded up to 64), and the limit counter restarts whenever
 * the low table is offered the link, whether or not it uses it.
 *
 * The period is found by remembering every state seen (a hash set keyed
 * by the full state at packet boundaries) together with the packet number;
 * the first repeat closes an exact period, whose bytes are summed from the
 * packet log.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/tables.h>

#include "arbsim.h"

struct lane {
	const struct oq_vlarb_table *t;
	int pos;
	int64_t left; /* bytes of weight left in entry pos */
};

struct snap {
	int hpos, lpos;
	int64_t hleft, lleft, hcount;
};

struct slot {
	struct snap s;
	uint64_t pkt; /* packet number when first seen, +1 (0 = empty) */
};

static bool can_use(const struct arbsim_cfg *c, const struct oq_vlarb_table *t,
		    int i)
{
	unsigned int vl = t->e[i].vl;

	return t->e[i].weight > 0 && vl < 15 && (c->busy >> vl & 1);
}

static bool lane_has_work(const struct arbsim_cfg *c, const struct lane *l)
{
	int i;

	if (!l->t)
		return false;
	for (i = 0; i < l->t->n; i++)
		if (can_use(c, l->t, i))
			return true;
	return false;
}

/* The entry the lane sends from next (moving past used-up or idle
 * entries and loading the weight of each new one), or -1. */
static int lane_pick(const struct arbsim_cfg *c, struct lane *l)
{
	int tries;

	if (!lane_has_work(c, l))
		return -1;
	for (tries = 0; tries <= 2 * l->t->n + 1; tries++) {
		if (l->left > 0 && can_use(c, l->t, l->pos))
			return l->pos;
		l->pos = (l->pos + 1) % l->t->n;
		l->left = (int64_t)l->t->e[l->pos].weight * 64;
	}
	return -1;
}

static void lane_charge(struct lane *l, uint32_t len)
{
	l->left -= (int64_t)((len + 63) / 64) * 64;
}

static uint64_t snap_hash(const struct snap *s)
{
	uint64_t h = 1469598103934665603ull;
	const int64_t v[5] = {s->hpos, s->lpos, s->hleft, s->lleft, s->hcount};
	int i;

	for (i = 0; i < 5; i++) {
		h ^= (uint64_t)v[i];
		h *= 1099511628211ull;
		h ^= h >> 29;
	}
	return h;
}

static bool snap_eq(const struct snap *a, const struct snap *b)
{
	return a->hpos == b->hpos && a->lpos == b->lpos &&
	       a->hleft == b->hleft && a->lleft == b->lleft &&
	       a->hcount == b->hcount;
}

int arbsim_run(const struct arbsim_cfg *c, uint64_t max_pkts,
	       struct arbsim_out *o)
{
	struct lane hi = {c->hi, 0, 0}, lo = {c->lo, 0, 0};
	uint64_t cap = 1024, n = 0, now = 0, p;
	bool hi_work, lo_work;
	struct slot *tab;
	uint8_t *log;
	int64_t hcount = 0; /* high bytes since low was last offered */
	const int64_t limit = (int64_t)c->limit * 4096;

	memset(o, 0, sizeof(*o));
	if (hi.t && hi.t->n)
		hi.left = (int64_t)hi.t->e[0].weight * 64;
	else
		hi.t = NULL;
	if (lo.t && lo.t->n)
		lo.left = (int64_t)lo.t->e[0].weight * 64;
	else
		lo.t = NULL;
	hi_work = lane_has_work(c, &hi);
	lo_work = lane_has_work(c, &lo);
	if (!hi_work && !lo_work) {
		o->idle = true;
		return 0;
	}
	tab = calloc(cap, sizeof(*tab));
	log = malloc(max_pkts ? max_pkts : 1);
	if (!tab || !log) {
		free(tab);
		free(log);
		return -1;
	}
	for (n = 0; n < max_pkts; n++) {
		struct snap s = {hi.pos, lo.pos, hi.left, lo.left, hcount};
		uint64_t h, used = 0;
		int e, vl;

		/* Look the state up; grow the set at half load. */
		for (h = snap_hash(&s) & (cap - 1); tab[h].pkt;
		     h = (h + 1) & (cap - 1))
			if (snap_eq(&tab[h].s, &s))
				break;
		if (tab[h].pkt) {
			uint64_t first = tab[h].pkt - 1;

			for (p = first; p < n; p++) {
				o->bytes[log[p]] += c->len[log[p]];
				o->period_pkts++;
			}
			for (vl = 0; vl < 15; vl++)
				o->period_bytes += o->bytes[vl];
			o->found = true;
			break;
		}
		tab[h].s = s;
		tab[h].pkt = n + 1;
		if (2 * (n + 1) >= cap) {
			struct slot *bigger = calloc(2 * cap, sizeof(*tab));
			uint64_t i, j;

			if (!bigger)
				break;
			for (i = 0; i < cap; i++) {
				if (!tab[i].pkt)
					continue;
				for (j = snap_hash(&tab[i].s) & (2 * cap - 1);
				     bigger[j].pkt; j = (j + 1) & (2 * cap - 1))
					;
				bigger[j] = tab[i];
			}
			free(tab);
			tab = bigger;
			cap *= 2;
		}

		/* The arbitration decision at this packet boundary. */
		e = -1;
		if (hi_work) {
			bool may = c->limit == 255 || !lo_work || hcount == 0;

			if (!may) {
				int pe = lane_pick(c, &hi);
				uint32_t len = c->len[hi.t->e[pe].vl];

				may = hcount + len <= limit;
			}
			if (may) {
				e = lane_pick(c, &hi);
				vl = hi.t->e[e].vl;
				lane_charge(&hi, c->len[vl]);
				if (c->limit != 255 && lo_work)
					hcount += c->len[vl];
				used = c->len[vl];
			}
		}
		if (e < 0) {
			e = lane_pick(c, &lo);
			vl = lo.t->e[e].vl;
			lane_charge(&lo, c->len[vl]);
			hcount = 0;
			used = c->len[vl];
		}
		log[n] = (uint8_t)vl;
		now += used; /* the next decision is when this packet ends */
	}
	o->pkts_run = n;
	o->end_time = now;
	free(tab);
	free(log);
	return 0;
}

/* ---- waits: the timed VL's packets arrive when the caller says ---- */

/* Time runs in half bytes here: an arrival at an odd time comes just
 * after the decision taken at the even time before it. */
int arbsim_wait(const struct arbsim_wait_cfg *c, const uint64_t *arrive,
		size_t n, uint64_t max_pkts, struct arbsim_wait_out *o)
{
	struct lane hi = {c->hi, 0, 0}, lo = {c->lo, 0, 0};
	struct arbsim_cfg busy_cfg;
	uint64_t now = 0, pkts = 0, head_since = 0;
	int64_t hcount = 0;
	const int64_t limit = (int64_t)c->limit * 4096;
	size_t next = 0, sent = 0; /* arrivals seen, timed packets sent */
	unsigned int v = 0;

	memset(o, 0, sizeof(*o));
	memset(&busy_cfg, 0, sizeof(busy_cfg));
	for (v = 0; v < 15; v++)
		busy_cfg.len[v] = c->len;
	if (hi.t && hi.t->n)
		hi.left = (int64_t)hi.t->e[0].weight * 64;
	else
		hi.t = NULL;
	if (lo.t && lo.t->n)
		lo.left = (int64_t)lo.t->e[0].weight * 64;
	else
		lo.t = NULL;
	while (sent < n && pkts < max_pkts) {
		bool hi_work, lo_work, queued;
		int e = -1;

		/* Arrivals up to now join the timed VL's queue. */
		while (next < n && arrive[next] <= now)
			next++;
		queued = next > sent;
		if (queued && sent && head_since < arrive[sent])
			head_since = arrive[sent];
		else if (queued && !sent)
			head_since = arrive[0];
		busy_cfg.busy = (uint16_t)(c->busy & ~(1u << c->vl));
		if (queued)
			busy_cfg.busy |= (uint16_t)(1u << c->vl);
		hi_work = lane_has_work(&busy_cfg, &hi);
		lo_work = lane_has_work(&busy_cfg, &lo);
		if (!hi_work && !lo_work) {
			/* Idle link: jump to the next arrival. */
			if (next >= n)
				break;
			now = arrive[next];
			hcount = 0;
			continue;
		}
		if (hi_work) {
			bool may = c->limit == 255 || !lo_work || hcount == 0;

			if (!may) {
				lane_pick(&busy_cfg, &hi);
				may = hcount + (int64_t)c->len <= limit;
			}
			if (may) {
				e = lane_pick(&busy_cfg, &hi);
				v = hi.t->e[e].vl;
				lane_charge(&hi, c->len);
				if (c->limit != 255 && lo_work)
					hcount += c->len;
			}
		}
		if (e < 0) {
			e = lane_pick(&busy_cfg, &lo);
			v = lo.t->e[e].vl;
			lane_charge(&lo, c->len);
			hcount = 0;
		}
		if (v == c->vl) {
			uint64_t w = now - head_since;

			if (w > o->worst)
				o->worst = w;
			sent++;
			/* The next one waits from now: it is the head while
			 * this one is on the wire. */
			head_since = now;
		}
		now += 2 * (uint64_t)c->len;
		pkts++;
	}
	o->sent = sent;
	o->pkts = pkts;
	o->starved = sent < n;
	/* Half bytes to bytes (a wait starts at an even or odd time and
	 * ends at an even one: round up). */
	o->worst = (o->worst + 1) / 2;
	return 0;
}
