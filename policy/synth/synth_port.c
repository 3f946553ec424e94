// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One class of ports: intents -> SL2VL, VLArb and VLHighLimit.
 *
 * 1. SL2VL (when the class lets us choose): intent SLs get VLs of their
 *    own where the port has enough; otherwise SLs are grouped (only SLs of
 *    one priority together; best-effort SLs all on one VL, their own or
 *    the least demanding low group's).  A VL's share is split equally
 *    among the SLs on it (the model's backlog scenario), so a VL must get
 *    (SLs on it) x (largest intent on it).  Every grouping with the
 *    fewest such demands per VL count is tried, cheapest first.
 * 2. VLHighLimit: the least limit whose packets per low-priority
 *    opportunity H give the high VLs their demands (the high table gets
 *    H/(H+1) of a busy link); high-table entries in proportion.
 * 3. Low table: packet counts per VL for table sizes T = 1, 2, ... up to
 *    what the entries hold, keeping the T that leaves best effort the
 *    most; an entry of weight w sends ceil(w / (MTU/64)) packets.
 * 4. Every candidate is checked with the model (oq_synth_eval); the
 *    first that meets every intent and starves no SL wins.
 */
#include <stdio.h>
#include <string.h>

#include <osmqos/synth.h>

#define INF	       UINT64_MAX
#define MAX_CANDIDATES 8

/* A choice of VLs and what each needs. */
struct plan {
	uint8_t row[16];
	uint64_t req[OQ_MAX_VLS]; /* hundredths of a % of the link */
	uint16_t used;		  /* VLs an SL maps to */
	uint16_t high;		  /* VLs in the high table */
	uint16_t merged;
	uint64_t cost;
};

struct vlarb_plan {
	struct oq_vlarb_table high, low;
	uint8_t limit;
	uint64_t score_num, score_den; /* best effort's part of the low table */
};

static uint64_t ceil_div128(unsigned __int128 a, unsigned __int128 b)
{
	return (uint64_t)((a + b - 1) / b);
}

/* Entries for per-VL packet counts, round robin over the VLs so each VL's
 * turns are spread over the table.  Returns -1 when they do not fit. */
static int fill_table(struct oq_vlarb_table *t, const uint64_t pk[OQ_MAX_VLS],
		      uint16_t first, unsigned int c, unsigned int pmax,
		      unsigned int cap)
{
	uint64_t left[OQ_MAX_VLS];
	unsigned int n = 0, v, pass;
	bool any = true;

	memcpy(left, pk, sizeof(left));
	memset(t, 0, sizeof(*t));
	while (any) {
		any = false;
		/* Each round the VLs in first (the high-priority ones in a
		 * high table with filler) take their turn before the rest. */
		for (pass = 0; pass < 2; pass++)
			for (v = 0; v < OQ_MAX_VLS; v++) {
				uint64_t p = left[v] < pmax ? left[v] : pmax;
				unsigned int w;

				if (!p || !!(first & (1u << v)) != !pass)
					continue;
				if (n == cap)
					return -1;
				w = (unsigned int)p * c;
				t->e[n].vl = (uint8_t)v;
				t->e[n].weight = (uint8_t)(w > 255 ? 255 : w);
				n++;
				left[v] -= p;
				any = true;
			}
	}
	t->n = (uint8_t)n;
	return 0;
}

static unsigned int entries_for(const uint64_t pk[OQ_MAX_VLS],
				unsigned int pmax)
{
	unsigned int v, n = 0;

	for (v = 0; v < OQ_MAX_VLS; v++)
		n += (unsigned int)((pk[v] + pmax - 1) / pmax);
	return n;
}

/* Packets per low-priority opportunity under limit q. */
static uint64_t high_run(unsigned int q, uint32_t mtu)
{
	uint64_t h = (uint64_t)q * 4096u / mtu;

	return h ? h : 1;
}

/* A low VL that may fill the high table: best effort's own, else the
 * least demanding low VL; -1 when there is none.  Filling the high table
 * takes nothing from the high VLs' guarantees and brings what they can
 * take from a busy link down to their intents (IBA otherwise gives the
 * high table at least one packet per low packet: half the link). */
static int filler_vl(const struct plan *pl)
{
	uint16_t low = pl->used & ~pl->high;
	int v, best = -1;

	for (v = 0; v < OQ_MAX_VLS; v++)
		if ((low & (1u << v)) &&
		    (best < 0 || pl->req[v] < pl->req[best]))
			best = v;
	return best;
}

/* High table and limit: the least limit whose run serves every high VL,
 * with the high VLs' part of the high table as close to their demands as
 * the table holds (the rest filled from a low VL).  Returns the run H, 0
 * when none fits. */
static uint64_t plan_high(const struct oq_synth_port *in, const struct plan *pl,
			  struct vlarb_plan *vp, unsigned int c,
			  unsigned int pmax)
{
	unsigned int cap = in->cap_high, q, v;
	uint64_t prev = 0, h, t0, pk[OQ_MAX_VLS], best[OQ_MAX_VLS], sum;
	uint64_t best_sum = 0, best_t0 = 0;
	int fill = filler_vl(pl);

	for (q = 0; q < OQ_ARB_UNLIMITED; q++) {
		h = high_run(q, in->mtu);
		if (h == prev)
			continue;
		prev = h;
		/* VL v needs pk_v / t0 >= req_v (H+1) / (H 10000): no
		 * table does when those add up to more than 1. */
		sum = 0;
		for (v = 0; v < OQ_MAX_VLS; v++)
			if (pl->high & (1u << v))
				sum += pl->req[v];
		if ((unsigned __int128)sum * (h + 1) >
		    (unsigned __int128)h * 10000u)
			continue;
		best_t0 = 0;
		for (t0 = 1; t0 <= (uint64_t)cap * pmax; t0++) {
			memset(pk, 0, sizeof(pk));
			sum = 0;
			for (v = 0; v < OQ_MAX_VLS; v++) {
				if (!(pl->high & (1u << v)))
					continue;
				pk[v] = ceil_div128(
					(unsigned __int128)pl->req[v] *
						(h + 1) * t0,
					(unsigned __int128)h * 10000u);
				if (!pk[v])
					pk[v] = 1;
				sum += pk[v];
			}
			if (sum > t0 || (sum < t0 && fill < 0))
				continue;
			if (sum < t0)
				pk[fill] = t0 - sum;
			if (entries_for(pk, pmax) > cap)
				continue;
			/* Keep the least high part sum / t0. */
			if (best_t0 && (unsigned __int128)sum * best_t0 >=
					       (unsigned __int128)best_sum * t0)
				continue;
			memcpy(best, pk, sizeof(best));
			best_sum = sum;
			best_t0 = t0;
		}
		if (!best_t0 ||
		    fill_table(&vp->high, best, pl->high, c, pmax, cap))
			continue;
		vp->limit = (uint8_t)q;
		return h;
	}
	return 0;
}

/* Low-table candidates for a run h (0: no high VLs), best first. */
static size_t plan_low(const struct oq_synth_port *in, const struct plan *pl,
		       const struct vlarb_plan *base, uint64_t h,
		       unsigned int c, unsigned int pmax, int be_vl,
		       struct vlarb_plan *out, size_t max_out)
{
	uint16_t low = pl->used & ~pl->high;
	unsigned int cap = in->cap_low, v, n_be = 0;
	uint64_t t, pk[OQ_MAX_VLS], sum, rest, mult = h ? h + 1 : 1;
	size_t n = 0, i, j;

	for (v = 0; v < OQ_MAX_VLS; v++)
		if ((low & (1u << v)) && !pl->req[v])
			n_be++;
	if (!low) {
		/* Every VL in use is a high one: no low table at all. */
		out[0] = *base;
		out[0].score_num = 0;
		out[0].score_den = 1;
		return max_out ? 1 : 0;
	}
	for (t = 1; t <= (uint64_t)cap * pmax; t++) {
		struct vlarb_plan cand = *base;
		unsigned int k = 0;

		memset(pk, 0, sizeof(pk));
		sum = 0;
		for (v = 0; v < OQ_MAX_VLS; v++) {
			if (!(low & (1u << v)) || !pl->req[v])
				continue;
			pk[v] = ceil_div128((unsigned __int128)pl->req[v] *
						    mult * t,
					    10000u);
			if (!pk[v])
				pk[v] = 1;
			sum += pk[v];
		}
		if (sum > t || t - sum < n_be)
			continue;
		rest = t - sum;
		cand.score_num = rest;
		cand.score_den = t;
		if (n_be) {
			for (v = 0; v < OQ_MAX_VLS; v++)
				if ((low & (1u << v)) && !pl->req[v])
					pk[v] = rest / n_be +
						(k++ < rest % n_be);
		} else if (rest) {
			pk[be_vl >= 0 ? be_vl : __builtin_ctz(low)] += rest;
			cand.score_num = be_vl >= 0 ? rest : 0;
		}
		if (entries_for(pk, pmax) > cap ||
		    fill_table(&cand.low, pk, 0, c, pmax, cap))
			continue;
		/* Keep the best max_out by score, then by smaller table. */
		for (i = 0; i < n; i++)
			if ((unsigned __int128)cand.score_num *
				    out[i].score_den >
			    (unsigned __int128)out[i].score_num *
				    cand.score_den)
				break;
		if (i == max_out)
			continue;
		if (n < max_out)
			n++;
		for (j = n - 1; j > i; j--)
			out[j] = out[j - 1];
		out[i] = cand;
	}
	return n;
}

/* SLs a kept SL2VL drops (VL15, or a VL the port lacks) in some input
 * view: the guarantee is the least over the views, so theirs may be 0. */
static uint16_t dropped_sls(const struct oq_synth_port *in)
{
	uint16_t m = 0;
	unsigned int s;
	size_t r;

	if (!in->sl2vl_fixed || !in->has_sl2vl || !in->n_rows)
		return 0;
	for (r = 0; r < in->n_rows; r++)
		for (s = 0; s < 16; s++)
			if (in->rows[r][s] >= in->vls ||
			    in->rows[r][s] >= OQ_MAX_VLS)
				m |= (uint16_t)(1u << s);
	return m;
}

static bool meets(const struct oq_synth_port *in,
		  const struct oq_sl_intents *it, const struct oq_frac *share)
{
	uint16_t may_starve = dropped_sls(in);
	unsigned int s;

	for (s = 0; s < 16; s++) {
		if (!share[s].num && !(may_starve & (1u << s)))
			return false; /* best effort never starves */
		if ((it->sls & (1u << s)) &&
		    !oq_frac_meets_bp(share[s], it->need_bp[s]))
			return false;
	}
	return true;
}

/* VLArb for a plan, checked with the model.  0 when found. */
static int synth_vlarb(const struct oq_synth_port *in,
		       const struct oq_sl_intents *it, const struct plan *pl,
		       int be_vl, struct oq_synth_result *r)
{
	unsigned int c = (in->mtu + 63) / 64, pmax = (255 + c - 1) / c;
	struct vlarb_plan base, cands[MAX_CANDIDATES];
	struct oq_frac share[16];
	uint64_t h = 0;
	size_t n, i;

	memset(&base, 0, sizeof(base));
	if (!in->has_vlarb) {
		if (oq_synth_eval(in, pl->row, &base.high, &base.low, 0,
				  share) ||
		    !meets(in, it, share))
			return -1;
		memcpy(r->share, share, sizeof(share));
		return 0;
	}
	if (pl->high) {
		if ((unsigned int)__builtin_popcount(pl->high) > in->cap_high)
			return -1;
		h = plan_high(in, pl, &base, c, pmax);
		if (!h)
			return -1;
	}
	n = plan_low(in, pl, &base, h, c, pmax, be_vl, cands, MAX_CANDIDATES);
	for (i = 0; i < n; i++) {
		if (oq_synth_eval(in, pl->row, &cands[i].high, &cands[i].low,
				  cands[i].limit, share) ||
		    !meets(in, it, share))
			continue;
		r->high = cands[i].high;
		r->low = cands[i].low;
		r->limit = cands[i].limit;
		memcpy(r->share, share, sizeof(share));
		return 0;
	}
	return -1;
}

/* ---- SL2VL kept: what each VL needs under the kept rows ------------- */

static int plan_fixed(const struct oq_synth_port *in,
		      const struct oq_sl_intents *it, struct plan *pl,
		      int *bad_sl, char *why, size_t why_len)
{
	uint16_t low_intent = 0, agg[16] = {0};
	size_t r;
	unsigned int s, v;

	memset(pl, 0, sizeof(*pl));
	if (!in->has_sl2vl || !in->n_rows) {
		/* Everything on VL0. */
		uint64_t mx = 0;

		for (s = 0; s < 16; s++)
			if (it->need_bp[s] > mx)
				mx = it->need_bp[s];
		pl->used = 1;
		pl->req[0] = 16 * mx;
		pl->high = it->high ? 1 : 0;
		pl->merged = it->sls;
		if (it->high && (it->sls & ~it->high)) {
			*bad_sl = __builtin_ctz(it->high);
			snprintf(why, why_len,
				 "the port has no SL2VL: every SL is on VL 0, "
				 "high and low priority alike");
			return -1;
		}
		return 0;
	}
	memcpy(pl->row, in->rows[0], 16);
	for (r = 0; r < in->n_rows; r++) {
		unsigned int cnt[16] = {0};
		uint64_t mx[16] = {0};

		for (s = 0; s < 16; s++) {
			v = in->rows[r][s];
			if (v >= OQ_MAX_VLS || v >= in->vls) {
				if (it->sls & (1u << s)) {
					*bad_sl = (int)s;
					snprintf(why, why_len,
						 "the SL2VL kept on these "
						 "ports drops SL %u",
						 s);
					return -1;
				}
				continue;
			}
			agg[s] |= (uint16_t)(1u << v);
			cnt[v]++;
			if (it->need_bp[s] > mx[v])
				mx[v] = it->need_bp[s];
			pl->used |= (uint16_t)(1u << v);
			if (it->high & (1u << s))
				pl->high |= (uint16_t)(1u << v);
			else if (it->sls & (1u << s))
				low_intent |= (uint16_t)(1u << v);
		}
		for (v = 0; v < OQ_MAX_VLS; v++) {
			if (cnt[v] * mx[v] > pl->req[v])
				pl->req[v] = cnt[v] * mx[v];
			if (cnt[v] > 1 && mx[v])
				for (s = 0; s < 16; s++)
					if (in->rows[r][s] == v &&
					    (it->sls & (1u << s)))
						pl->merged |=
							(uint16_t)(1u << s);
		}
	}
	/* A switch port's view of all inputs at once: the SLs any row maps
	 * to a VL share it. */
	for (v = 0; in->n_rows > 1 && v < OQ_MAX_VLS; v++) {
		uint64_t mx = 0, cnt = 0;

		for (s = 0; s < 16; s++)
			if (agg[s] & (1u << v)) {
				cnt++;
				if (it->need_bp[s] > mx)
					mx = it->need_bp[s];
			}
		if (cnt * mx > pl->req[v])
			pl->req[v] = cnt * mx;
	}
	if (pl->high & low_intent) {
		v = (unsigned int)__builtin_ctz(pl->high & low_intent);
		for (s = 0; s < 16; s++)
			if ((it->sls & ~it->high & (1u << s)) &&
			    (agg[s] & (1u << v)))
				*bad_sl = (int)s;
		snprintf(why, why_len,
			 "the SL2VL kept on these ports puts a high- and a "
			 "low-priority intent on VL %u",
			 v);
		return -1;
	}
	return 0;
}

/* ---- SL2VL chosen: group the intent SLs ----------------------------- */

struct grouping {
	unsigned int n_items;
	unsigned int item_sl[16];
	uint64_t need[16];
	bool high[16];
	unsigned int m; /* best-effort SLs */
	uint16_t be_mask;
};

/* Cost of items [l, i) in one VL with extra best-effort SLs; INF when
 * they mix priorities. */
static uint64_t group_cost(const struct grouping *g, unsigned int l,
			   unsigned int i, unsigned int extra)
{
	unsigned int k;

	for (k = l + 1; k < i; k++)
		if (g->high[k] != g->high[l])
			return INF;
	if (extra && g->high[l])
		return INF;
	return (uint64_t)(i - l + extra) * g->need[l];
}

/* The cheapest split of items [0, i) into j groups: dp[i][j], with the
 * start of the last group in from[i][j]. */
static void dp_fill(const struct grouping *g, uint64_t dp[17][17],
		    unsigned int from[17][17])
{
	unsigned int i, j, l;

	for (i = 0; i <= 16; i++)
		for (j = 0; j <= 16; j++)
			dp[i][j] = INF;
	dp[0][0] = 0;
	for (i = 1; i <= g->n_items; i++)
		for (j = 1; j <= i; j++)
			for (l = j - 1; l < i; l++) {
				uint64_t c = group_cost(g, l, i, 0);

				if (dp[l][j - 1] == INF || c == INF)
					continue;
				if (dp[l][j - 1] + c < dp[i][j]) {
					dp[i][j] = dp[l][j - 1] + c;
					from[i][j] = l;
				}
			}
}

/* Build the plan for j groups of items [0, end) (+ the best-effort SLs on
 * their own VL 0 when be_own, else in the group [end, n_items) itself
 * given as the last group). */
static void plan_from_groups(const struct grouping *g,
			     unsigned int from[17][17], unsigned int j,
			     unsigned int end, bool be_own, struct plan *pl,
			     int *be_vl)
{
	unsigned int bounds[18], nb = 0, i = end, k, s, vl;

	memset(pl, 0, sizeof(*pl));
	/* Group boundaries, back to front. */
	while (j) {
		unsigned int l = from[i][j];

		bounds[nb++] = l;
		i = l;
		j--;
	}
	vl = be_own ? 1 : 0;
	*be_vl = -1;
	if (be_own) {
		for (s = 0; s < 16; s++)
			if (g->be_mask & (1u << s))
				pl->row[s] = 0;
		if (g->be_mask)
			pl->used |= 1;
	}
	/* bounds[nb-1] = 0 is the first group. */
	for (k = nb; k-- > 0; vl++) {
		unsigned int l = bounds[k], e = k ? bounds[k - 1] : end;

		for (i = l; i < e; i++) {
			pl->row[g->item_sl[i]] = (uint8_t)vl;
			if (e - l > 1)
				pl->merged |= (uint16_t)(1u << g->item_sl[i]);
		}
		pl->req[vl] = (uint64_t)(e - l) * g->need[l];
		pl->used |= (uint16_t)(1u << vl);
		if (g->high[l])
			pl->high |= (uint16_t)(1u << vl);
	}
	if (!be_own && end < g->n_items) {
		/* The last group shares its VL with best effort. */
		for (i = end; i < g->n_items; i++) {
			pl->row[g->item_sl[i]] = (uint8_t)vl;
			pl->merged |= (uint16_t)(1u << g->item_sl[i]);
		}
		for (s = 0; s < 16; s++)
			if (g->be_mask & (1u << s))
				pl->row[s] = (uint8_t)vl;
		pl->req[vl] =
			(uint64_t)(g->n_items - end + g->m) * g->need[end];
		pl->used |= (uint16_t)(1u << vl);
		*be_vl = (int)vl;
	} else if (!be_own && g->m) {
		/* Best effort joins the last group (end == n_items). */
		*be_vl = -1;
	}
}

static int cmp_items(const struct grouping *g, unsigned int a, unsigned int b)
{
	if (g->high[a] != g->high[b])
		return g->high[a] ? -1 : 1;
	if (g->need[a] != g->need[b])
		return g->need[a] > g->need[b] ? -1 : 1;
	return g->item_sl[a] < g->item_sl[b] ? -1 : 1;
}

static void grouping_init(const struct oq_sl_intents *it, struct grouping *g)
{
	unsigned int s, i, j;

	memset(g, 0, sizeof(*g));
	for (s = 0; s < 16; s++) {
		if (!(it->sls & (1u << s))) {
			g->be_mask |= (uint16_t)(1u << s);
			g->m++;
			continue;
		}
		g->item_sl[g->n_items] = s;
		g->need[g->n_items] = it->need_bp[s];
		g->high[g->n_items] = (it->high >> s) & 1;
		g->n_items++;
	}
	/* Insertion sort: high first, then by intent, largest first. */
	for (i = 1; i < g->n_items; i++)
		for (j = i; j > 0 && cmp_items(g, j, j - 1) < 0; j--) {
			unsigned int ts = g->item_sl[j];
			uint64_t tn = g->need[j];
			bool th = g->high[j];

			g->item_sl[j] = g->item_sl[j - 1];
			g->need[j] = g->need[j - 1];
			g->high[j] = g->high[j - 1];
			g->item_sl[j - 1] = ts;
			g->need[j - 1] = tn;
			g->high[j - 1] = th;
		}
}

struct plan_cand {
	struct plan pl;
	int be_vl;
};

/* Every grouping worth trying, cheapest first. */
static size_t free_plans(const struct oq_synth_port *in,
			 const struct oq_sl_intents *it, struct plan_cand *out,
			 size_t max_out)
{
	struct grouping g;
	uint64_t dp[17][17];
	unsigned int from[17][17], j, l, nvl = in->vls;
	size_t n = 0, i, k;

	if (nvl > OQ_MAX_VLS)
		nvl = OQ_MAX_VLS;
	grouping_init(it, &g);
	dp_fill(&g, dp, from);
	for (j = 1; j <= g.n_items && j <= nvl; j++) {
		struct plan_cand c[2];
		size_t nc = 0;

		/* Best effort on a VL of its own. */
		if ((!g.m || j + 1 <= nvl) && dp[g.n_items][j] != INF) {
			plan_from_groups(&g, from, j, g.n_items, g.m != 0,
					 &c[nc].pl, &c[nc].be_vl);
			c[nc].pl.cost = dp[g.n_items][j];
			nc++;
		}
		/* Best effort in the last group [l, n_items). */
		if (g.m) {
			uint64_t best = INF;
			unsigned int bl = 0;

			for (l = j - 1; l < g.n_items; l++) {
				uint64_t gc = group_cost(&g, l, g.n_items, g.m);

				if (dp[l][j - 1] == INF || gc == INF)
					continue;
				if (dp[l][j - 1] + gc < best) {
					best = dp[l][j - 1] + gc;
					bl = l;
				}
			}
			if (best != INF) {
				plan_from_groups(&g, from, j - 1, bl, false,
						 &c[nc].pl, &c[nc].be_vl);
				c[nc].pl.cost = best;
				nc++;
			}
		}
		for (k = 0; k < nc && n < max_out; k++) {
			for (i = n; i > 0 && out[i - 1].pl.cost > c[k].pl.cost;
			     i--)
				out[i] = out[i - 1];
			out[i] = c[k];
			n++;
		}
	}
	if (!g.n_items && n < max_out) {
		/* No intent: best effort alone on VL 0. */
		memset(&out[n].pl, 0, sizeof(out[n].pl));
		out[n].pl.used = 1;
		out[n].be_vl = -1;
		n++;
	}
	return n;
}

/* Try once with these intents; 0 when r holds a result that meets them.
 * *bad_sl: an SL no scale of the intents can serve (the kept SL2VL drops
 * it, or puts it on a VL of the other priority), -1 when none is. */
static int attempt(const struct oq_synth_port *in,
		   const struct oq_sl_intents *it, struct oq_synth_result *r,
		   int *bad_sl, char *why, size_t why_len)
{
	struct plan_cand cands[34];
	size_t n, i;

	*bad_sl = -1;
	if (in->sl2vl_fixed || !in->has_sl2vl || in->vls <= 1) {
		struct oq_synth_port one = *in;

		if (!in->sl2vl_fixed) {
			/* One VL or no SL2VL: everything on VL 0. */
			one.sl2vl_fixed = true;
			one.n_rows = in->has_sl2vl ? 1 : 0;
			memset(one.rows[0], 0, 16);
		}
		if (plan_fixed(&one, it, &cands[0].pl, bad_sl, why, why_len))
			return -1;
		if (synth_vlarb(&one, it, &cands[0].pl, -1, r)) {
			snprintf(why, why_len, "%s",
				 in->vls <= 1 ? "the port runs one data VL, "
						"shared by all 16 SLs"
				 : in->sl2vl_fixed
					 ? "under the SL2VL kept on these "
					   "ports the SLs sharing a VL "
					   "need more than the VLArb and "
					   "VLHighLimit can give"
					 : "no VLArb within the port's "
					   "table sizes meets them");
			return -1;
		}
		memcpy(r->sl2vl, one.n_rows ? one.rows[0] : cands[0].pl.row,
		       16);
		r->merged = cands[0].pl.merged;
		return 0;
	}
	n = free_plans(in, it, cands, sizeof(cands) / sizeof(cands[0]));
	for (i = 0; i < n; i++) {
		if (cands[i].pl.cost > 10000)
			continue;
		if (synth_vlarb(in, it, &cands[i].pl, cands[i].be_vl, r))
			continue;
		memcpy(r->sl2vl, cands[i].pl.row, 16);
		r->merged = cands[i].pl.merged;
		return 0;
	}
	snprintf(why, why_len,
		 n && cands[0].pl.cost > 10000
			 ? "with %u data VL(s) the SLs sharing a VL need more "
			   "than the whole link"
			 : "no VLArb within the port's table sizes (%u VLs) "
			   "meets them",
		 in->vls);
	return -1;
}

/* The intents scaled by num/den, rounded down (at least 1 where set). */
static void scale(const struct oq_sl_intents *it, uint32_t num, uint32_t den,
		  struct oq_sl_intents *out)
{
	unsigned int s;

	*out = *it;
	for (s = 0; s < 16; s++)
		if (it->sls & (1u << s)) {
			out->need_bp[s] = (uint32_t)((uint64_t)it->need_bp[s] *
						     num / den);
			if (!out->need_bp[s])
				out->need_bp[s] = 1;
		}
}

/* Infeasible: the largest common scale that fits (to 1/128: each step
 * is a full synthesis, and the plugin runs this in the sweep), and the
 * SL that falls furthest short of its intent there. */
static void explain(const struct oq_synth_port *in,
		    const struct oq_sl_intents *it, struct oq_synth_result *r)
{
	struct oq_synth_result best;
	struct oq_sl_intents sc;
	uint32_t lo = 0, hi = 128, mid;
	char why[160];
	bool have = false;
	unsigned int s;
	double worst = 2.0;
	int bad;

	while (lo + 1 < hi) {
		mid = (lo + hi) / 2;
		scale(it, mid, 128, &sc);
		memset(&best, 0, sizeof(best));
		if (!attempt(in, &sc, &best, &bad, why, sizeof(why))) {
			lo = mid;
			have = true;
			memcpy(r->share, best.share, sizeof(best.share));
			memcpy(r->sl2vl, best.sl2vl, 16);
			r->high = best.high;
			r->low = best.low;
			r->limit = best.limit;
			r->merged = best.merged;
			r->fallback = true;
		} else {
			hi = mid;
		}
	}
	for (s = 0; s < 16; s++) {
		double ratio;

		if (!(it->sls & (1u << s)))
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
	 * rule that best effort never starves. */
	if (have && worst >= 1.0)
		snprintf(r->why, sizeof(r->why),
			 "the intents leave best effort (the SLs without "
			 "one) nothing on these ports");
}

int oq_synth_port(const struct oq_synth_port *in,
		  const struct oq_sl_intents *it, struct oq_synth_result *r)
{
	if (!in || !it || !r || !in->vls || in->vls > OQ_MAX_VLS ||
	    in->mtu < 256 || in->mtu > 4096 || in->cap_high > OQ_VLARB_MAX ||
	    in->cap_low > OQ_VLARB_MAX || in->n_rows > OQ_SYNTH_MAX_ROWS)
		return -1;
	int bad, s;

	memset(r, 0, sizeof(*r));
	for (s = 0; s < 16; s++)
		r->share[s] = oq_frac_make(0, 1);
	r->fail_sl = -1;
	if (!attempt(in, it, r, &bad, r->why, sizeof(r->why))) {
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
	explain(in, it, r);
	return 0;
}
