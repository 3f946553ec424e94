// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The IBA 1.2.1 section 7.6.9 VL arbiter as a deterministic automaton.
 *
 * With a fixed set of always-backlogged VLs and fixed packet sizes the
 * arbiter's next move depends only on (high entry, its remaining weight,
 * low entry, its remaining weight, high-limit byte counter), a finite
 * state.  We step it in bursts (all packets an entry sends before the
 * entry ends, the limit stops it, or a low packet must go), find the
 * period with Brent's algorithm (constant memory, no hashing) and count
 * bytes over exactly one period: the shares are exact rationals.
 * docs/model.md defines the semantics; tests/lib/arbsim.c re-implements
 * them independently, packet by packet, to check this file.
 */
#include <string.h>

#include <osmqos/model.h>

#define CREDIT	   64u
#define LIMIT_UNIT 4096u

struct tab {
	uint8_t vl[OQ_VLARB_MAX];
	uint8_t w[OQ_VLARB_MAX];
	unsigned int n;
	bool any; /* some entry is eligible */
};

struct arb {
	struct tab hi, lo;
	uint16_t backlog;
	bool limited; /* high limit applies (Q < 255 and low has work) */
	uint32_t limit_bytes;
	uint32_t bytes[OQ_MAX_VLS];
	uint32_t credits[OQ_MAX_VLS];
};

struct state {
	uint8_t hi_idx, lo_idx;
	int32_t hi_rem, lo_rem;
	uint32_t cnt; /* high-priority bytes since the last low opportunity */
};

static bool st_eq(const struct state *a, const struct state *b)
{
	return a->hi_idx == b->hi_idx && a->lo_idx == b->lo_idx &&
	       a->hi_rem == b->hi_rem && a->lo_rem == b->lo_rem &&
	       a->cnt == b->cnt;
}

static bool eligible(const struct tab *t, uint16_t backlog, unsigned int i,
		     int32_t rem)
{
	return rem > 0 && t->vl[i] < OQ_MAX_VLS && (backlog & (1u << t->vl[i]));
}

/* Move to the next entry that can send, loading its full weight.  The
 * caller guarantees t->any, so this terminates within one lap. */
static void advance(const struct tab *t, uint16_t backlog, uint8_t *idx,
		    int32_t *rem)
{
	do {
		*idx = (uint8_t)((*idx + 1) % t->n);
		*rem = t->w[*idx];
	} while (!eligible(t, backlog, *idx, *rem));
}

/* Park a table on its first eligible entry (the initial state). */
static void start(const struct tab *t, uint16_t backlog, uint8_t *idx,
		  int32_t *rem)
{
	*idx = 0;
	*rem = t->n ? t->w[0] : 0;
	if (t->any && !eligible(t, backlog, 0, *rem))
		advance(t, backlog, idx, rem);
}

static void load_tab(struct tab *t, const struct oq_vlarb_table *src,
		     uint16_t backlog)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	if (!src || !src->n)
		return;
	t->n = src->n;
	for (i = 0; i < t->n; i++) {
		t->vl[i] = src->e[i].vl;
		t->w[i] = src->e[i].weight;
		if (eligible(t, backlog, i, t->w[i]))
			t->any = true;
	}
}

/* What one burst sent. */
struct burst {
	unsigned int vl;
	uint32_t pkts;
	uint64_t bytes;
};

/* One burst.  Returns false when nothing can be sent at all. */
static bool step(const struct arb *a, struct state *s, struct burst *out)
{
	uint32_t k, b;
	unsigned int vl;

	if (a->hi.any) {
		vl = a->hi.vl[s->hi_idx];
		b = a->bytes[vl];
		/* Packets until the entry's weight is used up. */
		k = ((uint32_t)s->hi_rem + a->credits[vl] - 1) / a->credits[vl];
		if (a->limited) {
			uint32_t room;

			/* A high packet may start when the counter is 0 (so
			 * limit 0 still lets one through) or when it fits
			 * under the limit. */
			if (s->cnt == 0)
				room = a->limit_bytes / b ? a->limit_bytes / b
							  : 1;
			else if (s->cnt <= a->limit_bytes)
				room = (a->limit_bytes - s->cnt) / b;
			else
				room = 0;
			if (room < k)
				k = room;
		}
		if (k) {
			s->cnt = a->limited ? s->cnt + k * b : 0;
			s->hi_rem -= (int32_t)(k * a->credits[vl]);
			if (s->hi_rem <= 0)
				advance(&a->hi, a->backlog, &s->hi_idx,
					&s->hi_rem);
			out->vl = vl;
			out->pkts = k;
			out->bytes = (uint64_t)k * b;
			return true;
		}
		/* Limit reached: the low table gets its opportunity, which
		 * exists since limited implies lo.any. */
	}
	if (!a->lo.any)
		return false;
	vl = a->lo.vl[s->lo_idx];
	b = a->bytes[vl];
	/* With high traffic waiting, one low packet, then high again;
	 * without, the low entry runs until its weight is used up. */
	k = a->hi.any ? 1
		      : ((uint32_t)s->lo_rem + a->credits[vl] - 1) /
				a->credits[vl];
	s->lo_rem -= (int32_t)(k * a->credits[vl]);
	if (s->lo_rem <= 0)
		advance(&a->lo, a->backlog, &s->lo_idx, &s->lo_rem);
	s->cnt = 0;
	out->vl = vl;
	out->pkts = k;
	out->bytes = (uint64_t)k * b;
	return true;
}

void oq_arb_config_init(struct oq_arb_config *c,
			const struct oq_vlarb_table *high,
			const struct oq_vlarb_table *low, uint8_t high_limit,
			uint32_t mtu_bytes)
{
	memset(c, 0, sizeof(*c));
	c->high = high;
	c->low = low;
	c->high_limit = high_limit;
	c->mtu_bytes = mtu_bytes;
}

uint16_t oq_vlarb_vls(const struct oq_vlarb_table *t)
{
	uint16_t m = 0;
	unsigned int i;

	if (!t)
		return 0;
	for (i = 0; i < t->n && i < OQ_VLARB_MAX; i++)
		if (t->e[i].weight && t->e[i].vl < OQ_MAX_VLS)
			m |= (uint16_t)(1u << t->e[i].vl);
	return m;
}

static int setup(const struct oq_arb_config *c, struct arb *a)
{
	unsigned int v;

	if ((c->high && c->high->n > OQ_VLARB_MAX) ||
	    (c->low && c->low->n > OQ_VLARB_MAX))
		return -1;
	memset(a, 0, sizeof(*a));
	a->backlog = c->backlog & ((1u << OQ_MAX_VLS) - 1);
	for (v = 0; v < OQ_MAX_VLS; v++) {
		uint32_t b = c->pkt_bytes[v] ? c->pkt_bytes[v] : c->mtu_bytes;

		if (!(a->backlog & (1u << v)))
			continue;
		if (b == 0 || b > OQ_ARB_MAX_PKT)
			return -1;
		a->bytes[v] = b;
		a->credits[v] = (b + CREDIT - 1) / CREDIT;
	}
	load_tab(&a->hi, c->high, a->backlog);
	load_tab(&a->lo, c->low, a->backlog);
	a->limited = c->high_limit != OQ_ARB_UNLIMITED && a->lo.any;
	a->limit_bytes = (uint32_t)c->high_limit * LIMIT_UNIT;
	return 0;
}

static void finish(struct oq_arb_result *r)
{
	unsigned int v;

	r->cycle_bytes = 0;
	for (v = 0; v < OQ_MAX_VLS; v++)
		r->cycle_bytes += r->vl_bytes[v];
	for (v = 0; v < OQ_MAX_VLS; v++)
		r->share[v] = oq_frac_make(r->vl_bytes[v], r->cycle_bytes);
	r->idle = r->cycle_bytes == 0;
}

int oq_arb_run(const struct oq_arb_config *c, struct oq_arb_result *r)
{
	uint64_t max = c->max_steps ? c->max_steps : OQ_ARB_DEFAULT_MAX_STEPS;
	uint64_t power = 1, lam = 1, pkts, all_pkts;
	uint64_t all[OQ_MAX_VLS] = {0};
	struct state tort, hare;
	struct burst bu;
	struct arb a;

	memset(r, 0, sizeof(*r));
	if (setup(c, &a))
		return -1;
	r->high_vls = oq_vlarb_vls(c->high) & a.backlog;
	r->low_vls = oq_vlarb_vls(c->low) & a.backlog;
	if (a.hi.any && c->high_limit == OQ_ARB_UNLIMITED)
		r->low_vls = 0; /* starved: never served from low */
	memset(&tort, 0, sizeof(tort));
	start(&a.hi, a.backlog, &tort.hi_idx, &tort.hi_rem);
	start(&a.lo, a.backlog, &tort.lo_idx, &tort.lo_rem);
	hare = tort;
	if (!step(&a, &hare, &bu)) {
		finish(r);
		return 0;
	}
	r->vl_bytes[bu.vl] = all[bu.vl] = bu.bytes;
	pkts = all_pkts = bu.pkts;
	r->steps_run = 1;
	/* Brent: vl_bytes/pkts hold what the hare sent since the tortoise
	 * last jumped to it, so when they meet that is exactly one period. */
	while (!st_eq(&tort, &hare)) {
		if (r->steps_run >= max) {
			/* Past the cap: the average since the start. */
			memcpy(r->vl_bytes, all, sizeof(all));
			r->cycle_packets = all_pkts;
			r->cycle_steps = r->steps_run;
			r->approx = true;
			finish(r);
			return 0;
		}
		if (power == lam) {
			tort = hare;
			power *= 2;
			lam = 0;
			memset(r->vl_bytes, 0, sizeof(r->vl_bytes));
			pkts = 0;
		}
		step(&a, &hare, &bu);
		r->vl_bytes[bu.vl] += bu.bytes;
		all[bu.vl] += bu.bytes;
		pkts += bu.pkts;
		all_pkts += bu.pkts;
		lam++;
		r->steps_run++;
	}
	r->cycle_steps = lam;
	r->cycle_packets = pkts;
	finish(r);
	return 0;
}
