// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One class of ports: intents -> SL2VL, VLArb and VLHighLimit.
 *
 * 1. Layouts (synth_layout.c): each intent SL on a VL of its own while
 *    the port has VLs, grouped only when they run out.
 * 2. Counts (synth_counts.c): for every VLHighLimit that changes the
 *    high table's run, the packets per VL that meet every VL's need with
 *    the most left for best effort, exactly.
 * 3. Entries (synth_arrange.c): each VL's entries spread evenly; a VL
 *    with a latency intent in entries of one packet where the table has
 *    room, the others in entries as small as the table allows.
 * 4. Proof: the model's shares (every VL backlogged) and, for latency
 *    intents, the exact worst wait (oq_arb_worst_wait) of the tables; the
 *    first that meets every intent and starves no VL wins.
 *
 * Where nothing meets the intents, the message says what binds (checked
 * by relaxing one limit at a time) and the best the class can do: the
 * intents scaled down together until they fit, or the smallest worst
 * wait reached for a latency intent.
 */
#include <stdio.h>
#include <string.h>

#include "synth_int.h"

#define MAX_LAYOUTS    64
#define MAX_CANDIDATES 256
/* The latency search's bounds: tables tried per class, rounds of more
 * turns per VLHighLimit, and the states of each exact wait (a wait that
 * needs more is not proven, and the search goes on). */
#define MAX_LATENCY_EVALS  32
#define MAX_LATENCY_ROUNDS 4
#define SEARCH_STATES	   (1u << 14)
/* Runs (VLHighLimits) tried past the best one for best effort, and (the
 * wait depends on the run) with a latency intent. */
#define RUNS_PATIENCE 16
#define LATENCY_RUNS  64
#define REPORT_STATES (1u << 14)

struct search {
	const struct oq_synth_port *in;
	const struct oq_sl_intents *it;
	struct oq_synth_result *r;
	unsigned int evals;
	bool any; /* any tables that meet the intents (explaining) */
	/* The smallest worst wait reached per VL of a latency intent, in
	 * the layout tried last (bytes). */
	uint64_t best_wait[OQ_MAX_VLS];
	uint16_t lat_missed; /* VLs whose latency some try missed */
};

/* Every VL gets its intents and something; every latency within bound. */
static bool meets(const struct oq_vl_need *n, const struct oq_port_guarantee *g,
		  uint16_t *lat_missed)
{
	unsigned int v;
	bool ok = true;

	for (v = 0; v < OQ_MAX_VLS; v++) {
		if (!(n->used & (1u << v)))
			continue;
		if (!g->vl_share[v].num ||
		    !oq_frac_meets_bp(g->vl_share[v], n->bp[v]))
			return false;
		if (n->lat[v] && g->vl_wait[v] > n->lat[v]) {
			*lat_missed |= (uint16_t)(1u << v);
			ok = false;
		}
	}
	return ok;
}

static uint16_t lat_vls(const struct oq_vl_need *n)
{
	uint16_t m = 0;
	unsigned int v;

	for (v = 0; v < OQ_MAX_VLS; v++)
		if ((n->used & (1u << v)) && n->lat[v])
			m |= (uint16_t)(1u << v);
	return m;
}

/* The tables of counts c, entries of at most `size` packets (latency VLs
 * in single packets where there is room).  -1 when they do not fit. */
static int build(const struct oq_synth_port *in, const struct oq_vl_need *n,
		 const struct oq_counts *c, unsigned int size,
		 struct oq_synth_result *r)
{
	uint16_t fine = lat_vls(n);

	memset(&r->high, 0, sizeof(r->high));
	memset(&r->low, 0, sizeof(r->low));
	r->limit = c->limit;
	if (!in->has_vlarb)
		return 0;
	if (c->th && oq_synth_arrange(c->hp, n->high, fine, size, in->cap_high,
				      in->mtu, &r->high))
		return -1;
	if (c->tl && oq_synth_arrange(c->lp, 0, fine, size, in->cap_low,
				      in->mtu, &r->low))
		return -1;
	return 0;
}

/* Prove tables with the model; fill r on success. */
static bool prove(struct search *x, const struct oq_vl_need *n,
		  struct oq_synth_result *r)
{
	const struct oq_synth_port *in = x->in;
	struct oq_port_guarantee g;
	uint16_t want = lat_vls(n), missed = 0;
	unsigned int s, v;

	if (oq_synth_eval_states(in, n->row, &r->high, &r->low, r->limit, want,
				 SEARCH_STATES, &g))
		return false;
	for (v = 0; v < OQ_MAX_VLS; v++)
		if (n->lat[v] && g.vl_wait[v] < x->best_wait[v])
			x->best_wait[v] = g.vl_wait[v];
	if (!meets(n, &g, &missed)) {
		x->lat_missed |= missed;
		return false;
	}
	r->wait_bound = 0;
	for (s = 0; s < 16; s++) {
		r->share[s] = g.share[s];
		r->wait[s] = (x->it->sls & (1u << s)) ? g.wait[s]
						      : OQ_WAIT_UNBOUNDED;
		if (g.sl_vls[s] & g.wait_bound)
			r->wait_bound |= (uint16_t)(1u << s);
	}
	return true;
}

/* The latency VLs' exact worst waits on tables r, full packets of any
 * headers, with every VL of the layout busy: the search's test of an
 * arrangement (the shares do not change with it; the tables kept are proved
 * whole by prove()). */
static bool waits_ok(struct search *x, const struct oq_vl_need *n,
		     const struct oq_synth_result *r)
{
	struct oq_arb_config cfg;
	unsigned int v;
	bool ok = true;

	x->evals++;
	oq_arb_config_init(&cfg, &r->high, &r->low, r->limit, x->in->mtu);
	cfg.backlog = n->used;
	for (v = 0; v < OQ_MAX_VLS; v++) {
		struct oq_wait_result w;

		if (!n->lat[v] || !(n->used & (1u << v)))
			continue;
		if (oq_synth_full_wait(&cfg, x->in->mtu, v, SEARCH_STATES,
				       &w)) {
			w.bytes = OQ_WAIT_UNBOUNDED;
			w.capped = true;
		}
		if (!w.capped && w.bytes < x->best_wait[v])
			x->best_wait[v] = w.bytes;
		if (w.capped || w.bytes > n->lat[v]) {
			x->lat_missed |= (uint16_t)(1u << v);
			ok = false;
		}
	}
	return ok;
}

/* Entries as small as the tables allow for the non-latency VLs: the
 * smallest size both tables take. */
static bool finest(const struct oq_synth_port *in, const struct oq_vl_need *n,
		   const struct oq_counts *c, struct oq_synth_result *r)
{
	unsigned int size, pmax = oq_synth_pmax(in->mtu);

	for (size = 1; size <= pmax; size++)
		if (!build(in, n, c, size, r))
			return true;
	return false;
}

/* Packets of the high table not of a high VL: the filler between the
 * high VLs' turns. */
static uint32_t filler_of(const struct oq_vl_need *n, const struct oq_counts *c)
{
	uint32_t f = c->th;
	unsigned int v;

	for (v = 0; v < OQ_MAX_VLS; v++)
		if (n->high & n->used & (1u << v))
			f -= c->hp[v];
	return f;
}

/* A high VL's latency missed with filler f0 between its turns: the
 * largest filler below f0 that meets every wait, by bisection at the
 * same VLHighLimit.  A high level takes no more of a busy link than its
 * wait needs (docs/intents.md, section 1): the filler shrinks to the
 * packet, where doubling the VL's own packets would jump past the least
 * share (1/10 to 1/2 with nothing in between).  0 with r holding the
 * proven tables. */
static int less_filler(struct search *x, const struct oq_vl_need *n,
		       const struct oq_counts *c0, struct oq_synth_result *r)
{
	struct oq_count_mins m = {0};
	struct oq_synth_result got;
	int64_t lo = -1, hi = filler_of(n, c0);
	bool have = false;

	m.filler_capped = true;
	while (lo + 1 < hi && x->evals < MAX_LATENCY_EVALS) {
		struct oq_counts c;
		uint32_t f;

		m.filler_max = (uint32_t)((lo + hi) / 2);
		if (!oq_synth_counts_at(x->in, n, &m, c0->H, c0->limit, &c)) {
			/* The low side needs more filler than that. */
			lo = m.filler_max;
			continue;
		}
		f = filler_of(n, &c);
		x->lat_missed = 0;
		if (finest(x->in, n, &c, r) && waits_ok(x, n, r) &&
		    prove(x, n, r)) {
			got = *r;
			have = true;
			lo = m.filler_max;
		} else if (x->lat_missed) {
			hi = f;
		} else {
			break;
		}
	}
	if (!have)
		return -1;
	*r = got;
	return 0;
}

/* Latency: more packets (so more entries, more turns) for the VLs that
 * missed, at the same VLHighLimit.  False when the counts cannot grow. */
static bool more_turns(struct search *x, const struct oq_vl_need *n,
		       struct oq_count_mins *m, struct oq_counts *c)
{
	struct oq_counts c2;
	unsigned int v;
	bool grew = false;

	for (v = 0; v < OQ_MAX_VLS; v++) {
		if (!(x->lat_missed & (1u << v)) || !(n->used & (1u << v)))
			continue;
		if (n->high & (1u << v)) {
			m->hp[v] = c->hp[v] * 2;
			m->least_filler = true;
		} else {
			m->lp[v] = c->lp[v] * 2;
		}
		grew = true;
	}
	if (!grew || !oq_synth_counts_at(x->in, n, m, c->H, c->limit, &c2))
		return false;
	*c = c2;
	return true;
}

/* Tables for one layout; 0 when r holds a proven result. */
static int solve_layout(struct search *x, const struct oq_vl_need *n)
{
	static const struct oq_count_mins none;
	struct oq_counts cand[MAX_CANDIDATES];
	struct oq_synth_result *r = x->r;
	bool latency = lat_vls(n) != 0;
	size_t k, i;

	if (!x->in->has_vlarb) {
		memset(&r->high, 0, sizeof(r->high));
		memset(&r->low, 0, sizeof(r->low));
		r->limit = 0;
		return prove(x, n, r) ? 0 : -1;
	}
	/* Feasibility alone (explaining): the first run that serves; with a
	 * latency intent every run (the wait depends on it); else until the
	 * runs stop helping best effort. */
	{
		struct oq_count_mins m = none;

		m.runs = x->any ? 1 : latency ? LATENCY_RUNS : RUNS_PATIENCE;
		k = oq_synth_counts(x->in, n, &m, cand, MAX_CANDIDATES);
	}
	for (i = 0; i < k; i++) {
		struct oq_count_mins m = none;
		struct oq_counts c = cand[i];
		unsigned int round;

		/* A latency intent on best effort's VL: keep it out of the
		 * high table where it can (a VL in both tables waits on
		 * both, and its exact wait takes many states). */
		if (latency && n->be >= 0 && n->lat[n->be] && n->high) {
			m.least_filler = true;
			if (!oq_synth_counts_at(x->in, n, &m, c.H, c.limit, &c))
				c = cand[i];
		}

		if (!latency) {
			/* Entries of as many packets as they hold: the
			 * fewest entries; shares do not depend on them. */
			if (!build(x->in, n, &c, oq_synth_pmax(x->in->mtu),
				   r) &&
			    prove(x, n, r))
				return 0;
			continue;
		}
		for (round = 0; round < MAX_LATENCY_ROUNDS; round++) {
			if (x->evals >= MAX_LATENCY_EVALS)
				return -1;
			x->lat_missed = 0;
			if (finest(x->in, n, &c, r) && waits_ok(x, n, r) &&
			    prove(x, n, r))
				return 0;
			/* A high VL missed its wait: first less filler
			 * between its turns, then more turns of its own. */
			if (!round && !m.least_filler &&
			    (x->lat_missed & n->high)) {
				uint16_t missed = x->lat_missed;

				if (!less_filler(x, n, &c, r))
					return 0;
				x->lat_missed = missed;
			}
			if (!x->lat_missed || !more_turns(x, n, &m, &c))
				break;
		}
	}
	return -1;
}

/* The worst wait of every intent SL for the report: computed once for
 * the tables found (VLs without a latency intent are not searched
 * over, and a VL served from both tables may take many states: there
 * the cap leaves the wait unknown rather than the sweep slow). */
static void report_waits(const struct oq_synth_port *in,
			 const struct oq_sl_intents *it,
			 const struct oq_vl_need *n, struct oq_synth_result *r)
{
	struct oq_port_guarantee g;
	uint16_t want = 0;
	unsigned int s, v;

	for (v = 0; v < OQ_MAX_VLS; v++)
		if ((n->vl_sls[v] & it->sls) && !n->lat[v])
			want |= (uint16_t)(1u << v);
	if (!want || oq_synth_eval_states(in, n->row, &r->high, &r->low,
					  r->limit, want, REPORT_STATES, &g))
		return;
	/* The latency SLs keep what the proof computed. */
	for (s = 0; s < 16; s++)
		if ((it->sls & (1u << s)) && !it->lat_ns[s]) {
			r->wait[s] = g.wait[s];
			if (g.sl_vls[s] & g.wait_bound)
				r->wait_bound |= (uint16_t)(1u << s);
		}
}

/* One try with these intents; 0 when r holds a result that meets them.
 * *bad_sl: an SL no scale of the intents can serve (the kept SL2VL drops
 * it, or mixes priorities on its VL), -1 when none is. */
static int attempt(const struct oq_synth_port *in,
		   const struct oq_sl_intents *it, struct oq_synth_result *r,
		   struct search *x, int *bad_sl, char *why, size_t why_len)
{
	struct oq_vl_need lay[MAX_LAYOUTS];
	bool any = x->any;
	int n, i;
	unsigned int v;

	memset(x, 0, sizeof(*x));
	x->any = any;
	x->in = in;
	x->it = it;
	x->r = r;
	for (v = 0; v < OQ_MAX_VLS; v++)
		x->best_wait[v] = OQ_WAIT_UNBOUNDED;
	n = oq_synth_layouts(in, it, lay, MAX_LAYOUTS, bad_sl, why, why_len);
	if (n < 0)
		return -1;
	if (!n) {
		snprintf(why, why_len,
			 "with %u data VL(s) the high- and low-priority "
			 "intents cannot have VLs of their own",
			 in->vls);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (solve_layout(x, &lay[i]))
			continue;
		memcpy(r->sl2vl, lay[i].row, 16);
		memcpy(r->vl_sls, lay[i].vl_sls, sizeof(r->vl_sls));
		/* Intent SLs not alone on a VL they reach. */
		r->merged = 0;
		for (v = 0; v < OQ_MAX_VLS; v++)
			if (__builtin_popcount(lay[i].vl_sls[v]) > 1)
				r->merged |= lay[i].vl_sls[v] & it->sls;
		report_waits(in, it, &lay[i], r);
		return 0;
	}
	return -1;
}

/* The intents without their latency part. */
static void bandwidth_only(const struct oq_sl_intents *it,
			   struct oq_sl_intents *out)
{
	*out = *it;
	memset(out->lat_ns, 0, sizeof(out->lat_ns));
}

/* The bandwidth intents scaled by num/den, rounded down (at least 1
 * where set); latency intents dropped. */
static void scale(const struct oq_sl_intents *it, uint32_t num, uint32_t den,
		  struct oq_sl_intents *out)
{
	unsigned int s;

	bandwidth_only(it, out);
	for (s = 0; s < 16; s++)
		if (it->need_bp[s]) {
			out->need_bp[s] = (uint32_t)((uint64_t)it->need_bp[s] *
						     num / den);
			if (!out->need_bp[s])
				out->need_bp[s] = 1;
		}
}

static bool feasible(const struct oq_synth_port *in,
		     const struct oq_sl_intents *it)
{
	struct oq_synth_result tmp;
	struct search x = {0};
	char why[200];
	int bad;

	memset(&tmp, 0, sizeof(tmp));
	x.any = true;
	return !attempt(in, it, &tmp, &x, &bad, why, sizeof(why));
}

/* What binds when the bandwidth intents are not met: one limit relaxed
 * at a time, the first whose relaxing helps is named. */
static void binding(const struct oq_synth_port *in,
		    const struct oq_sl_intents *it, struct oq_synth_result *r)
{
	struct oq_synth_port wide = *in;
	unsigned int s, low = 0;
	uint32_t sum = 0;

	for (s = 0; s < 16; s++)
		sum += it->need_bp[s];
	if (in->has_vlarb) {
		/* Full 64-entry tables: would more entries help? */
		wide.cap_high = wide.cap_low = OQ_VLARB_MAX;
		if ((in->cap_high < OQ_VLARB_MAX ||
		     in->cap_low < OQ_VLARB_MAX) &&
		    feasible(&wide, it)) {
			snprintf(r->why, sizeof(r->why),
				 "the VLArb tables' %u/%u entries (at most %u "
				 "packets each at MTU %u) cannot split the "
				 "link finely enough for them",
				 in->cap_high, in->cap_low,
				 oq_synth_pmax(in->mtu), in->mtu);
			return;
		}
	}
	for (s = 0; s < 16; s++)
		if (!(it->sls & (1u << s)))
			low++;
	if (sum >= 10000 || (low && sum > 9999)) {
		snprintf(r->why, sizeof(r->why),
			 "the intents add up to %u.%02u%%%s", sum / 100,
			 sum % 100,
			 low ? ": best effort (the SLs without one) would get "
			       "nothing"
			     : "");
		return;
	}
	if (in->sl2vl_fixed || !in->has_sl2vl) {
		snprintf(r->why, sizeof(r->why),
			 "under the SL2VL kept on these ports the SLs "
			 "sharing a VL need more together than the VLArb "
			 "and VLHighLimit can give");
		return;
	}
	if (__builtin_popcount(it->sls) + (it->sls != 0xffff) > (int)in->vls) {
		snprintf(r->why, sizeof(r->why),
			 "with %u data VL(s) intent SLs must share VLs, and "
			 "a shared VL needs its SLs' intents together",
			 in->vls);
		return;
	}
	snprintf(r->why, sizeof(r->why),
		 "no VLArb and VLHighLimit within the port's limits meet them");
}

/* Bandwidth infeasible: the largest common scale that fits (to 1/128:
 * each step is a synthesis), its tables as the fallback, and the SL that
 * falls furthest short of its intent there. */
static void explain(const struct oq_synth_port *in,
		    const struct oq_sl_intents *it, struct oq_synth_result *r)
{
	struct oq_synth_result best;
	struct oq_sl_intents sc;
	struct search x = {0};
	uint32_t lo = 0, hi = 128, mid;
	char why[200];
	bool have = false;
	unsigned int s;
	double worst = 2.0;
	int bad;

	binding(in, it, r);
	/* Is there any at a scale: the first run that serves. */
	while (lo + 1 < hi) {
		mid = (lo + hi) / 2;
		scale(it, mid, 128, &sc);
		memset(&best, 0, sizeof(best));
		x.any = true;
		if (!attempt(in, &sc, &best, &x, &bad, why, sizeof(why)))
			lo = mid;
		else
			hi = mid;
	}
	/* The tables of the scale kept, synthesized in full: what the
	 * class's ports get. */
	scale(it, lo, 128, &sc);
	memset(&best, 0, sizeof(best));
	x.any = false;
	if (lo && !attempt(in, &sc, &best, &x, &bad, why, sizeof(why))) {
		have = true;
		memcpy(r->share, best.share, sizeof(best.share));
		memcpy(r->wait, best.wait, sizeof(best.wait));
		r->wait_bound = best.wait_bound;
		memcpy(r->sl2vl, best.sl2vl, 16);
		memcpy(r->vl_sls, best.vl_sls, sizeof(r->vl_sls));
		r->high = best.high;
		r->low = best.low;
		r->limit = best.limit;
		r->merged = best.merged;
		r->fallback = true;
	}
	for (s = 0; s < 16; s++) {
		double ratio;

		if (!it->need_bp[s])
			continue;
		ratio = have ? oq_frac_double(r->share[s]) * 10000.0 /
					it->need_bp[s]
			     : 0.0;
		if (r->fail_sl < 0 || ratio < worst) {
			worst = ratio;
			r->fail_sl = (int)s;
		}
	}
	r->best = have && r->fail_sl >= 0 ? r->share[r->fail_sl]
					  : oq_frac_make(0, 1);
	/* Every intent met at the scale that fits: what failed is the
	 * rule that no VL starves. */
	if (have && worst >= 1.0)
		snprintf(r->why, sizeof(r->why),
			 "the intents leave best effort (the SLs without "
			 "one) nothing on these ports");
}

/* Bandwidth met, latency not: the bandwidth tables as the fallback, the
 * latency SL that misses, and the smallest wait reached for it. */
static void explain_latency(const struct oq_synth_port *in,
			    const struct oq_sl_intents *it,
			    const struct search *x, struct oq_synth_result *r)
{
	struct oq_sl_intents bw;
	struct oq_synth_result fb;
	struct search y = {0};
	unsigned int s;
	double worst = 0;
	char why[200];
	int bad;

	bandwidth_only(it, &bw);
	memset(&fb, 0, sizeof(fb));
	if (!attempt(in, &bw, &fb, &y, &bad, why, sizeof(why))) {
		memcpy(r->sl2vl, fb.sl2vl, 16);
		memcpy(r->share, fb.share, sizeof(fb.share));
		memcpy(r->wait, fb.wait, sizeof(fb.wait));
		r->wait_bound = fb.wait_bound;
		memcpy(r->vl_sls, fb.vl_sls, sizeof(r->vl_sls));
		r->high = fb.high;
		r->low = fb.low;
		r->limit = fb.limit;
		r->merged = fb.merged;
		r->fallback = true;
	}
	r->lat_fail = true;
	r->best_wait = OQ_WAIT_UNBOUNDED;
	/* The latency SL furthest from its bound: the best wait reached
	 * for its VL over the bound. */
	for (s = 0; s < 16; s++) {
		uint64_t w = OQ_WAIT_UNBOUNDED, lim;
		unsigned int v;
		double ratio;

		if (!it->lat_ns[s])
			continue;
		lim = (uint64_t)((double)it->lat_ns[s] * in->rate_gbps / 8.0);
		for (v = 0; v < OQ_MAX_VLS; v++)
			if ((r->vl_sls[v] & (1u << s)) && x->best_wait[v] < w)
				w = x->best_wait[v];
		ratio = w == OQ_WAIT_UNBOUNDED ? 1e300
					       : (double)w / (lim ? lim : 1);
		if (r->fail_sl < 0 || ratio > worst) {
			worst = ratio;
			r->fail_sl = (int)s;
			r->best_wait = w;
		}
	}
	snprintf(r->why, sizeof(r->why),
		 "no arrangement of the VLArb entries the synthesizer tries "
		 "keeps the wait within the bound: every other VL busy, a "
		 "packet on the wire and the high table's bursts come first");
}

int oq_synth_check(const struct oq_synth_port *in,
		   const struct oq_sl_intents *it, struct oq_synth_result *r)
{
	struct oq_vl_need n;
	struct oq_port_guarantee g;
	struct oq_synth_port kept = *in;
	uint16_t want = 0;
	unsigned int s, v;
	int bad;

	r->fail_sl = -1;
	if (kept.n_rows)
		kept.sl2vl_fixed = true;
	if (oq_synth_layouts(&kept, it, &n, 1, &bad, r->why, sizeof(r->why)) !=
	    1) {
		r->fail_sl = bad;
		r->status = OQ_SYNTH_INFEASIBLE;
		return 0;
	}
	for (v = 0; v < OQ_MAX_VLS; v++)
		if (n.vl_sls[v] & it->sls)
			want |= (uint16_t)(1u << v);
	if (oq_synth_eval(&kept, r->sl2vl, &r->high, &r->low, r->limit, want,
			  &g))
		return -1;
	memcpy(r->vl_sls, n.vl_sls, sizeof(r->vl_sls));
	r->merged = 0;
	for (v = 0; v < OQ_MAX_VLS; v++)
		if (__builtin_popcount(n.vl_sls[v]) > 1)
			r->merged |= n.vl_sls[v] & it->sls;
	for (s = 0; s < 16; s++) {
		r->share[s] = g.share[s];
		r->wait[s] =
			(it->sls & (1u << s)) ? g.wait[s] : OQ_WAIT_UNBOUNDED;
		if (g.sl_vls[s] & g.wait_bound)
			r->wait_bound |= (uint16_t)(1u << s);
	}
	for (v = 0; v < OQ_MAX_VLS && r->fail_sl < 0; v++) {
		uint16_t sls = n.vl_sls[v] & it->sls;

		if (!sls)
			continue;
		if (!oq_frac_meets_bp(g.vl_share[v], n.bp[v])) {
			r->fail_sl = __builtin_ctz(sls);
		} else if (n.lat[v] && g.vl_wait[v] > n.lat[v]) {
			r->fail_sl = __builtin_ctz(sls);
			r->lat_fail = true;
			r->best_wait = g.vl_wait[v];
		}
	}
	r->status = r->fail_sl < 0 ? OQ_SYNTH_OK : OQ_SYNTH_INFEASIBLE;
	return 0;
}

int oq_synth_port(const struct oq_synth_port *in,
		  const struct oq_sl_intents *it, struct oq_synth_result *r)
{
	struct oq_sl_intents bw;
	struct search x = {0};
	int bad, s;

	if (!in || !it || !r || !in->vls || in->vls > OQ_MAX_VLS ||
	    in->mtu < 256 || in->mtu > 4096 || in->cap_high > OQ_VLARB_MAX ||
	    in->cap_low > OQ_VLARB_MAX || in->n_rows > OQ_SYNTH_MAX_ROWS)
		return -1;
	memset(r, 0, sizeof(*r));
	for (s = 0; s < 16; s++) {
		r->share[s] = oq_frac_make(0, 1);
		r->wait[s] = OQ_WAIT_UNBOUNDED;
	}
	r->fail_sl = -1;
	if (!attempt(in, it, r, &x, &bad, r->why, sizeof(r->why))) {
		r->status = OQ_SYNTH_OK;
		return 0;
	}
	r->status = OQ_SYNTH_INFEASIBLE;
	if (bad >= 0) {
		/* No scale of the intents helps: the template stays. */
		r->fail_sl = bad;
		r->best = oq_frac_make(0, 1);
		for (s = 0; s < 16; s++)
			r->share[s] = oq_frac_make(0, 1);
		return 0;
	}
	bandwidth_only(it, &bw);
	if (memcmp(&bw, it, sizeof(bw)) && feasible(in, &bw)) {
		explain_latency(in, it, &x, r);
		return 0;
	}
	explain(in, &bw, r);
	return 0;
}
