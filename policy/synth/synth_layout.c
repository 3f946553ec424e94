// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SL-to-VL layouts of a class and what each asks of its VLs.
 *
 * Where the synthesizer chooses SL2VL, each intent SL gets a VL of its
 * own while the port has VLs (one SL is one VL: levels that share an SL
 * share it), and the best-effort SLs (no intent) share VL 0, so default
 * traffic stays where it was.  Only when VLs run out are intent SLs
 * grouped, SLs of one priority together, into as many groups as the VLs
 * allow: first with best effort on a VL of its own, then with best
 * effort joining a low group (on VL 0).  Every such grouping is a layout,
 * tried in turn (balanced groups first).  A VL must get the intents of
 * its SLs added up: within a VL packets are served in order whatever
 * their SL, so a group's guarantee is the group's.
 *
 * Where SL2VL is kept (a routing engine's or a scope's), its rows are the
 * one layout: a VL must get the intents of every SL any input maps to it.
 */
#include <stdio.h>
#include <string.h>

#include "synth_int.h"

/* Longest wait allowed, in bytes of link time at the class's rate. */
uint64_t oq_synth_latency_bytes(double rate_gbps, uint64_t ns)
{
	double b;

	if (!ns)
		return 0;
	b = (double)ns * rate_gbps / 8.0;
	return b < 1 ? 1 : (uint64_t)b;
}

static void add_sl(const struct oq_synth_port *in,
		   const struct oq_sl_intents *it, struct oq_vl_need *n,
		   unsigned int s, unsigned int v)
{
	uint64_t lat = oq_synth_latency_bytes(in->rate_gbps, it->lat_ns[s]);

	if (n->vl_sls[v] & (1u << s))
		return;
	n->vl_sls[v] |= (uint16_t)(1u << s);
	n->used |= (uint16_t)(1u << v);
	if (!(it->sls & (1u << s)))
		return;
	n->bp[v] += it->need_bp[s];
	if (it->high & (1u << s))
		n->high |= (uint16_t)(1u << v);
	if (lat && (!n->lat[v] || lat < n->lat[v]))
		n->lat[v] = lat;
}

/* Best effort's VL: a low VL with SLs that carry no intent, the least
 * demanding; else the least demanding low VL; -1 without low VLs. */
static void pick_be(const struct oq_sl_intents *it, struct oq_vl_need *n)
{
	uint16_t low = n->used & ~n->high;
	unsigned int v;
	int be = -1, any = -1;

	for (v = 0; v < OQ_MAX_VLS; v++) {
		if (!(low & (1u << v)))
			continue;
		if (any < 0 || n->bp[v] < n->bp[any])
			any = (int)v;
		if ((n->vl_sls[v] & ~it->sls) &&
		    (be < 0 || n->bp[v] < n->bp[be]))
			be = (int)v;
	}
	n->be = be >= 0 ? be : any;
}

/* ---- SL2VL kept ------------------------------------------------------ */

static int kept(const struct oq_synth_port *in, const struct oq_sl_intents *it,
		struct oq_vl_need *n, int *bad_sl, char *why, size_t why_len)
{
	uint16_t low_intent = 0;
	unsigned int s, v;
	size_t r;

	memset(n, 0, sizeof(*n));
	if (!in->has_sl2vl || !in->n_rows || in->vls <= 1 || !in->has_vlarb) {
		/* No SL2VL, or one data VL: every SL on VL 0. */
		for (s = 0; s < 16; s++)
			add_sl(in, it, n, s, 0);
		if (it->high && (it->sls & ~it->high)) {
			*bad_sl = __builtin_ctz(it->sls & ~it->high);
			snprintf(why, why_len,
				 "every SL is on VL 0 on these ports, high "
				 "and low priority alike");
			return -1;
		}
		if (it->high && (n->used & ~n->high))
			n->high = 0; /* all high: no priority to give */
		pick_be(it, n);
		return 0;
	}
	memcpy(n->row, in->rows[0], 16);
	for (r = 0; r < in->n_rows; r++)
		for (s = 0; s < 16; s++) {
			v = in->rows[r][s];
			if (v >= in->vls || v >= OQ_MAX_VLS) {
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
			add_sl(in, it, n, s, v);
			if ((it->sls & ~it->high) & (1u << s))
				low_intent |= (uint16_t)(1u << v);
		}
	if (n->high & low_intent) {
		v = (unsigned int)__builtin_ctz(n->high & low_intent);
		*bad_sl = __builtin_ctz(n->vl_sls[v] & it->sls & ~it->high);
		snprintf(why, why_len,
			 "the SL2VL kept on these ports puts a high- and a "
			 "low-priority intent on VL %u",
			 v);
		return -1;
	}
	pick_be(it, n);
	return 0;
}

/* ---- SL2VL chosen ---------------------------------------------------- */

struct gen {
	const struct oq_synth_port *in;
	const struct oq_sl_intents *it;
	unsigned int n_items, item[16];
	unsigned int k;	      /* groups to make */
	bool be_joins;	      /* best effort joins a low group */
	unsigned int grp[16]; /* group of each item */
	uint64_t gbp[16];
	bool ghigh[16];
	unsigned int ng;
	struct oq_vl_need *out;
	size_t n_out, max_out;
};

static void emit(struct gen *g)
{
	const struct oq_sl_intents *it = g->it;
	struct oq_vl_need *n;
	uint16_t be_sls = (uint16_t)~it->sls;
	unsigned int i, s, host = 0, vl0 = be_sls && !g->be_joins ? 1 : 0;
	uint64_t host_bp = UINT64_MAX;

	if (g->n_out == g->max_out)
		return;
	if (g->be_joins) {
		/* Best effort joins the least demanding low group. */
		for (i = 0; i < g->ng; i++)
			if (!g->ghigh[i] && g->gbp[i] < host_bp) {
				host_bp = g->gbp[i];
				host = i;
			}
		if (host_bp == UINT64_MAX)
			return;
	}
	n = &g->out[g->n_out];
	memset(n, 0, sizeof(*n));
	for (i = 0; i < g->n_items; i++) {
		unsigned int grp = g->grp[i], v;

		/* Groups in order on VLs 1.. (0.. without best effort); the
		 * group best effort joins on VL 0. */
		if (g->be_joins)
			v = grp == host ? 0 : grp < host ? grp + 1 : grp;
		else
			v = grp + vl0;
		n->row[g->item[i]] = (uint8_t)v;
	}
	for (s = 0; s < 16; s++)
		if (be_sls & (1u << s))
			n->row[s] = 0;
	for (s = 0; s < 16; s++)
		add_sl(g->in, it, n, s, n->row[s]);
	pick_be(it, n);
	g->n_out++;
}

/* Items i.. into the groups: each joins an open group of its priority
 * (least demanding first) or opens a new one (first, while enough items
 * remain to open the rest). */
static void place(struct gen *g, unsigned int i)
{
	unsigned int it = g->item[i], j, order[16], no = 0, a, b;
	bool hi = g->it->high & (1u << it);
	uint64_t bp = g->it->need_bp[it];

	if (g->n_out == g->max_out)
		return;
	if (i == g->n_items) {
		if (g->ng == g->k)
			emit(g);
		return;
	}
	if (g->ng < g->k) {
		g->grp[i] = g->ng;
		g->gbp[g->ng] = bp;
		g->ghigh[g->ng] = hi;
		g->ng++;
		place(g, i + 1);
		g->ng--;
	}
	/* Joining a group: the items after it must still open the
	 * groups missing. */
	if (g->n_items - i - 1 < g->k - g->ng)
		return;
	for (j = 0; j < g->ng; j++)
		if (g->ghigh[j] == hi)
			order[no++] = j;
	for (a = 1; a < no; a++)
		for (b = a; b > 0 && g->gbp[order[b]] < g->gbp[order[b - 1]];
		     b--) {
			unsigned int t = order[b];

			order[b] = order[b - 1];
			order[b - 1] = t;
		}
	for (j = 0; j < no; j++) {
		unsigned int grp = order[j];

		g->grp[i] = grp;
		g->gbp[grp] += bp;
		place(g, i + 1);
		g->gbp[grp] -= bp;
	}
}

static int item_cmp(const struct oq_sl_intents *it, unsigned int a,
		    unsigned int b)
{
	bool ha = it->high & (1u << a), hb = it->high & (1u << b);

	if (ha != hb)
		return ha ? -1 : 1;
	if (it->need_bp[a] != it->need_bp[b])
		return it->need_bp[a] > it->need_bp[b] ? -1 : 1;
	return a < b ? -1 : 1;
}

static size_t chosen(const struct oq_synth_port *in,
		     const struct oq_sl_intents *it, struct oq_vl_need *out,
		     size_t max_out)
{
	struct gen g;
	unsigned int s, i, j, nvl = in->vls > OQ_MAX_VLS ? OQ_MAX_VLS : in->vls;
	bool be = it->sls != 0xffff;

	memset(&g, 0, sizeof(g));
	g.in = in;
	g.it = it;
	g.out = out;
	g.max_out = max_out;
	for (s = 0; s < 16; s++)
		if (it->sls & (1u << s))
			g.item[g.n_items++] = s;
	for (i = 1; i < g.n_items; i++)
		for (j = i; j > 0 && item_cmp(it, g.item[j], g.item[j - 1]) < 0;
		     j--) {
			unsigned int t = g.item[j];

			g.item[j] = g.item[j - 1];
			g.item[j - 1] = t;
		}
	if (g.n_items + (be ? 1 : 0) <= nvl) {
		/* A VL for each. */
		g.k = g.n_items;
		place(&g, 0);
		return g.n_out;
	}
	/* Too few VLs: group them, best effort on its own VL ... */
	if (be && nvl >= 2) {
		g.k = nvl - 1;
		place(&g, 0);
	}
	/* ... or with the least demanding low group. */
	if (be && (it->sls & ~it->high)) {
		g.k = nvl;
		g.be_joins = true;
		place(&g, 0);
	} else if (!be) {
		g.k = nvl;
		place(&g, 0);
	}
	return g.n_out;
}

int oq_synth_layouts(const struct oq_synth_port *in,
		     const struct oq_sl_intents *it, struct oq_vl_need *out,
		     size_t max_out, int *bad_sl, char *why, size_t why_len)
{
	*bad_sl = -1;
	if (!max_out)
		return 0;
	if (in->sl2vl_fixed || !in->has_sl2vl || in->vls <= 1 || !in->has_vlarb)
		return kept(in, it, out, bad_sl, why, why_len) ? -1 : 1;
	return (int)chosen(in, it, out, max_out);
}
