// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Packet counts per VL for both VLArb tables, exactly.
 *
 * With every VL backlogged and every packet of one length -- a full
 * packet, MTU + 26 to MTU + 126 bytes (model.h), or the model's MTU --
 * an entry sends the same number of packets whatever the length
 * (synth_int.h), each time round, whatever the order of the entries, and
 * the high table sends H packets for each low packet (H from
 * VLHighLimit, docs/model.md: fewer for longer packets; H with the
 * longest full packet, Hs with MTU-size ones).  So a VL with hp packets
 * of the Th of the high table and lp of the Tl of the low table gets
 * exactly
 *
 *	H/(H+1) * hp/Th + 1/(H+1) * lp/Tl
 *
 * of the link (hp/Th or lp/Tl alone when only one table has entries),
 * the least of it at H or at Hs: both must serve.
 * High-priority VLs have high entries only, other VLs low entries, and
 * best effort's VL may also (or only) fill the high table (then the high
 * levels take their intents, not H/(H+1) of a busy link).  For a run length H
 * the two tables meet only through that filler, hp_be/Th: its largest
 * value over Th helps best effort and every other need on the low side,
 * so each H costs one pass over Th and one over Tl.  Where the low table
 * cannot hold the low VLs' needs (it shares only 1/(H+1) of a busy link),
 * the low VLs with the most packets take part of the filler instead,
 * keeping a low packet each.  Every Th and Tl the entries can hold is
 * tried: no combination with low VLs in the low table alone that meets
 * every need is missed (tests/unit/test_synth_exhaustive.c compares with
 * an exhaustive search over every such table).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

/* ceil(a / b) on 128 bits; a >= 0. */
static uint64_t cdiv(unsigned __int128 a, unsigned __int128 b)
{
	return (uint64_t)((a + b - 1) / b);
}

static unsigned int entries_of(uint32_t n, unsigned int pmax)
{
	return (n + pmax - 1) / pmax;
}

/* Put `rest` more packets into the counts of the VLs in `set` (sink
 * first, into its entries' room, then new sink entries; where that would
 * pass cap, into the room the other VLs' entries have).  -1 when they do
 * not fit in cap entries. */
static int place_rest(uint32_t cnt[OQ_MAX_VLS], uint16_t set, uint32_t rest,
		      int sink, unsigned int pmax, unsigned int cap)
{
	unsigned int e = 0, v;
	uint32_t room, give;

	for (v = 0; v < OQ_MAX_VLS; v++)
		if (set & (1u << v))
			e += entries_of(cnt[v], pmax);
	if (e > cap)
		return -1;
	if (!rest)
		return 0;
	if (sink >= 0) {
		room = entries_of(cnt[sink], pmax) * pmax - cnt[sink];
		give = rest < room ? rest : room;
		cnt[sink] += give;
		rest -= give;
		if (e + entries_of(rest, pmax) <= cap) {
			cnt[sink] += rest;
			return 0;
		}
	}
	for (v = 0; v < OQ_MAX_VLS && rest; v++) {
		if (!(set & (1u << v)) || (int)v == sink || !cnt[v])
			continue;
		room = entries_of(cnt[v], pmax) * pmax - cnt[v];
		give = rest < room ? rest : room;
		cnt[v] += give;
		rest -= give;
	}
	if (!rest)
		return 0;
	if (e + entries_of(rest, pmax) > cap)
		return -1;
	if (sink < 0)
		for (v = 0; v < OQ_MAX_VLS && sink < 0; v++)
			if (set & (1u << v))
				sink = (int)v;
	cnt[sink] += rest;
	return 0;
}

/* Within a thousandth of the best, a/b against ba/bb (ratios of a
 * table): tables that give best effort nearly the most, the smallest of
 * which is kept -- a larger table buys best effort crumbs and the arbiter
 * a period that much longer (the model and the simulators run it). */
static bool near_best(uint64_t a, uint64_t b, uint64_t ba, uint64_t bb)
{
	unsigned __int128 l = (unsigned __int128)ba * b,
			  r = (unsigned __int128)a * bb;

	return l <= r || (l - r) * 1000 <= (unsigned __int128)bb * b;
}

/* The counts of one table of t packets holding the VLs of `set`:
 * cnt/t >= bp/10000, every VL one packet at least (and its minimum),
 * the rest to the sink.  False when they do not fit. */
static bool flat_at(const struct oq_vl_need *n, uint16_t set,
		    const uint32_t mins[OQ_MAX_VLS], int sink,
		    unsigned int pmax, unsigned int cap, uint32_t t,
		    uint32_t c[OQ_MAX_VLS])
{
	uint64_t sum = 0;
	unsigned int v;

	memset(c, 0, OQ_MAX_VLS * sizeof(c[0]));
	for (v = 0; v < OQ_MAX_VLS; v++) {
		uint64_t k;

		if (!(set & (1u << v)))
			continue;
		k = cdiv((unsigned __int128)n->bp[v] * t, 10000);
		if (k < 1)
			k = 1;
		if (k < mins[v])
			k = mins[v];
		c[v] = (uint32_t)k;
		sum += k;
	}
	return sum <= t &&
	       !place_rest(c, set, (uint32_t)(t - sum), sink, pmax, cap);
}

/* One table holding every VL of `set` (the other table empty): the
 * smallest t that leaves the sink within a thousandth of the most it
 * can get.  Returns false when no t fits. */
static bool solve_flat(const struct oq_vl_need *n, uint16_t set,
		       const uint32_t mins[OQ_MAX_VLS], int sink,
		       unsigned int pmax, unsigned int cap, uint32_t cnt[],
		       uint32_t *tot)
{
	uint32_t t, best_t = 0, c[OQ_MAX_VLS], best = 0;

	for (t = 1; t <= cap * pmax; t++) {
		if (!flat_at(n, set, mins, sink, pmax, cap, t, c))
			continue;
		if (best_t && (sink < 0 || (uint64_t)c[sink] * best_t <=
						   (uint64_t)best * t))
			continue;
		best = sink < 0 ? 0 : c[sink];
		best_t = t;
	}
	if (!best_t)
		return false;
	for (t = 1; t <= best_t; t++)
		if (flat_at(n, set, mins, sink, pmax, cap, t, c) &&
		    (sink < 0 || near_best(c[sink], t, best, best_t)))
			break;
	memcpy(cnt, c, OQ_MAX_VLS * sizeof(c[0]));
	*tot = t;
	return true;
}

/* The high table of th packets for run length H: each high VL v at least
 * bp_v (H+1) Th / (10000 H) packets; the rest is best effort's filler
 * (as much as the entries hold, or as little with least_filler; at most
 * filler_max when capped) or, where its entries have room, more for the
 * high VLs.  False when they do not fit. */
static bool high_at(const struct oq_synth_port *in, const struct oq_vl_need *n,
		    const struct oq_count_mins *m, uint32_t H,
		    unsigned int pmax, uint32_t th, uint32_t c[OQ_MAX_VLS])
{
	unsigned int cap = in->cap_high, v, e = 0;
	uint16_t hv = n->high & n->used;
	uint32_t hf, rest, room = 0;
	uint64_t sum = 0;
	int be = n->be;

	memset(c, 0, OQ_MAX_VLS * sizeof(c[0]));
	for (v = 0; v < OQ_MAX_VLS; v++) {
		uint64_t k;

		if (!(hv & (1u << v)))
			continue;
		k = cdiv((unsigned __int128)n->bp[v] * (H + 1) * th,
			 (unsigned __int128)10000 * H);
		if (k < 1)
			k = 1;
		if (k < m->hp[v])
			k = m->hp[v];
		c[v] = (uint32_t)k;
		sum += k;
		e += entries_of(c[v], pmax);
		room += entries_of(c[v], pmax) * pmax - c[v];
	}
	if (sum > th || e > cap)
		return false;
	rest = (uint32_t)(th - sum);
	if (be < 0)
		return !place_rest(c, hv, rest, -1, pmax, cap);
	hf = m->least_filler ? (rest > room ? rest - room : 0)
			     : (cap - e) * pmax;
	if (hf > rest)
		hf = rest;
	if (m->filler_capped && hf > m->filler_max)
		hf = m->filler_max;
	if (rest - hf > room || e + entries_of(hf, pmax) > cap ||
	    place_rest(c, hv, rest - hf, -1, pmax, cap))
		return false;
	c[be] = hf;
	return true;
}

/* The high table for run length H.  Best effort's part hp_be/Th helps
 * it and every need on the low side: kept largest (near: the smallest
 * Th within a thousandth of the largest), or with least_filler the least
 * above `after`. */
static bool solve_high(const struct oq_synth_port *in,
		       const struct oq_vl_need *n,
		       const struct oq_count_mins *m, uint32_t H,
		       unsigned int pmax, bool near,
		       const struct oq_frac *after, struct oq_counts *out)
{
	unsigned int cap = in->cap_high;
	uint32_t th, best_th = 0, best = 0, c[OQ_MAX_VLS];
	int be = n->be;

	for (th = 1; th <= cap * pmax; th++) {
		if (!high_at(in, n, m, H, pmax, th, c))
			continue;
		if (be >= 0 && after &&
		    (unsigned __int128)c[be] * after->den <=
			    (unsigned __int128)after->num * th)
			continue;
		if (best_th && be >= 0) {
			unsigned __int128 a = (unsigned __int128)c[be] *
					      best_th,
					  b = (unsigned __int128)best * th;

			if (m->least_filler ? a >= b : a <= b)
				continue;
		} else if (best_th) {
			continue;
		}
		best = be >= 0 ? c[be] : 0;
		best_th = th;
	}
	if (!best_th)
		return false;
	for (th = near && !m->least_filler ? 1 : best_th; th <= best_th; th++)
		if (high_at(in, n, m, H, pmax, th, c) &&
		    (th == best_th || be < 0 ||
		     near_best(c[be], th, best, best_th)))
			break;
	memcpy(out->hp, c, sizeof(c));
	out->th = th;
	return true;
}

/* Packets VL v needs of a low table of tl at run H (best effort's VL
 * less by what its part hf of the high table of th gives it). */
static uint64_t low_need(const struct oq_vl_need *n, unsigned int v, uint32_t H,
			 uint64_t hf, uint64_t th, uint32_t tl)
{
	/* (H hp/Th + lp/Tl) / (H+1) >= bp / 10000 */
	unsigned __int128 need =
		(unsigned __int128)n->bp[v] * (H + 1) * th * tl;

	if ((int)v == n->be) {
		unsigned __int128 got = (unsigned __int128)10000 * H * hf * tl;

		need = need > got ? need - got : 0;
	}
	return need ? cdiv(need, (unsigned __int128)10000 * th) : 0;
}

/* The fewest low packets a low VL other than best effort's keeps. */
static uint32_t floor_of(const struct oq_count_mins *m, unsigned int v)
{
	return m->lp[v] > 1 ? m->lp[v] : 1;
}

/* High packets of a high table of th that VL v needs at run H beside lp
 * of a low table of tl: (bp (H+1) Th Tl - 10000 Th lp) / (10000 H Tl),
 * rounded up. */
static uint64_t high_part(const struct oq_vl_need *n, unsigned int v,
			  uint32_t H, uint64_t th, uint32_t lp, uint32_t tl)
{
	unsigned __int128 got = (unsigned __int128)10000 * th * lp;
	unsigned __int128 need =
		(unsigned __int128)n->bp[v] * (H + 1) * th * tl;

	return need > got ? cdiv(need - got, (unsigned __int128)10000 * H * tl)
			  : 0;
}

/* The low table of tl packets for the runs H and Hs, with best effort's
 * part of the high table hp_be/Th already chosen: each low VL v at least
 * bp_v (H+1) Tl / 10000 packets at both runs, best effort's VL less by
 * what the high table gives it; the rest to best effort.  Where the low
 * table cannot hold them, low VLs take part of best effort's filler
 * instead (H high packets count as much as Tl/Th low ones): a low table
 * shares only 1/(H+1) of a busy link, so low intents above that need the
 * high table.  hc: the high table's counts after that.  False when they
 * do not fit. */
static bool low_at(const struct oq_synth_port *in, const struct oq_vl_need *n,
		   const struct oq_count_mins *m, unsigned int pmax,
		   const struct oq_counts *hi, uint32_t tl,
		   uint32_t c[OQ_MAX_VLS], uint32_t hc[OQ_MAX_VLS])
{
	uint16_t lv = n->used & ~n->high;
	uint64_t hf = n->be >= 0 ? hi->hp[n->be] : 0, th = hi->th, sum;
	unsigned int v, round, e = 0;
	int be = n->be;

	memcpy(hc, hi->hp, OQ_MAX_VLS * sizeof(hc[0]));
	memset(c, 0, OQ_MAX_VLS * sizeof(c[0]));
	for (v = 0; v < OQ_MAX_VLS; v++) {
		uint64_t k, ks;

		if (!(lv & (1u << v)) || (int)v == be)
			continue;
		/* Enough at both runs. */
		k = low_need(n, v, hi->H, 0, th, tl);
		ks = low_need(n, v, hi->Hs, 0, th, tl);
		if (ks > k)
			k = ks;
		if (k < floor_of(m, v))
			k = floor_of(m, v);
		c[v] = (uint32_t)k;
	}
	for (round = 0;; round++) {
		uint64_t h, hs;
		uint32_t take;
		int w = -1;

		/* Best effort's VL: its need less what its filler gives at
		 * both runs; something from the low table when the filler
		 * is gone. */
		if (be >= 0) {
			uint64_t k = low_need(n, be, hi->H, hc[be], th, tl),
				 ks = low_need(n, be, hi->Hs, hc[be], th, tl);

			if (ks > k)
				k = ks;
			if (k < 1 && !hc[be])
				k = 1;
			if (k < m->lp[be])
				k = m->lp[be];
			c[be] = (uint32_t)k;
		}
		sum = 0;
		for (v = 0; v < OQ_MAX_VLS; v++)
			sum += c[v];
		if (sum <= tl || be < 0 || round > 2 * OQ_MAX_VLS)
			break;
		/* The low VL with the most packets gives up what does not
		 * fit and takes high packets for it from the filler,
		 * enough at both runs; it keeps a low packet (a low level
		 * stays low priority). */
		for (v = 0; v < OQ_MAX_VLS; v++)
			if ((lv & (1u << v)) && (int)v != be &&
			    c[v] > floor_of(m, v) && (w < 0 || c[v] > c[w]))
				w = (int)v;
		if (w < 0)
			break;
		take = c[w] - floor_of(m, (unsigned int)w);
		if (take > sum - tl)
			take = (uint32_t)(sum - tl);
		c[w] -= take;
		hf += hc[w];
		h = high_part(n, (unsigned int)w, hi->H, th, c[w], tl);
		hs = high_part(n, (unsigned int)w, hi->Hs, th, c[w], tl);
		if (hs > h)
			h = hs;
		if (h > hf)
			return false;
		hc[w] = (uint32_t)h;
		hf -= h;
		hc[be] = (uint32_t)hf;
	}
	if (sum > tl)
		return false;
	for (v = 0; v < OQ_MAX_VLS; v++)
		e += entries_of(hc[v], pmax);
	if (e > in->cap_high)
		return false;
	return !place_rest(c, lv, (uint32_t)(tl - sum), be, pmax, in->cap_low);
}

/* A VL's share at run H: (H hp/Th + lp/Tl)/(H+1). */
static struct oq_frac share_at(uint32_t H, uint32_t hp, uint32_t lp,
			       uint64_t th, uint32_t tl)
{
	return oq_frac_make((uint64_t)H * hp * tl + (uint64_t)lp * th,
			    (uint64_t)(H + 1) * th * tl);
}

/* Best effort's share of the tables hc/th and c/tl, the least at the
 * runs H and Hs. */
static struct oq_frac be_share(const struct oq_counts *hi, int be,
			       const uint32_t hc[OQ_MAX_VLS],
			       const uint32_t c[OQ_MAX_VLS], uint32_t tl)
{
	struct oq_frac a = share_at(hi->H, hc[be], c[be], hi->th, tl),
		       b = share_at(hi->Hs, hc[be], c[be], hi->th, tl);

	return oq_frac_cmp(a, b) <= 0 ? a : b;
}

/* The low table: the smallest Tl within a thousandth of the most it can
 * leave best effort (its whole share, the high part fixed unless low VLs
 * take from it). */
static bool solve_low(const struct oq_synth_port *in,
		      const struct oq_vl_need *n, const struct oq_count_mins *m,
		      unsigned int pmax, struct oq_counts *out)
{
	uint32_t tl, best_tl = 0, c[OQ_MAX_VLS], hc[OQ_MAX_VLS];
	uint32_t runs[2] = {out->H, out->Hs};
	uint64_t th = out->th, bp = 0, hf;
	struct oq_frac best = oq_frac_make(0, 1), s;
	unsigned int v, i, floor = 0;
	int be = n->be;

	hf = be >= 0 ? out->hp[be] : 0;
	/* What the low VLs can get at all at both runs: the low table and
	 * best effort's filler, (Th + H hp_be) / ((H+1) Th) of the link;
	 * and a low packet each but best effort's. */
	for (v = 0; v < OQ_MAX_VLS; v++)
		if ((n->used & ~n->high) & (1u << v)) {
			bp += n->bp[v];
			floor += (int)v != be;
		}
	for (i = 0; i < 2; i++)
		if ((unsigned __int128)bp * (runs[i] + 1) * th >
		    (unsigned __int128)10000 * (th + (uint64_t)runs[i] * hf))
			return false;
	for (tl = floor ? floor : 1; tl <= in->cap_low * pmax; tl++) {
		if (!low_at(in, n, m, pmax, out, tl, c, hc))
			continue;
		s = be >= 0 ? be_share(out, be, hc, c, tl) : oq_frac_make(0, 1);
		if (best_tl && oq_frac_cmp(s, best) <= 0)
			continue;
		best = s;
		best_tl = tl;
	}
	if (!best_tl)
		return false;
	for (tl = floor ? floor : 1; tl <= best_tl; tl++) {
		if (!low_at(in, n, m, pmax, out, tl, c, hc))
			continue;
		s = be >= 0 ? be_share(out, be, hc, c, tl) : oq_frac_make(0, 1);
		if (near_best(s.num, s.den, best.num, best.den))
			break;
	}
	memcpy(out->lp, c, sizeof(c));
	memcpy(out->hp, hc, sizeof(hc));
	out->tl = tl;
	return true;
}

/* Best effort's share, the least at either end of the runs, or one
 * table's part. */
static void score(const struct oq_vl_need *n, struct oq_counts *c)
{
	int be = n->be;

	if (be < 0) {
		c->score = oq_frac_make(0, 1);
		return;
	}
	if (!c->H) {
		c->score = c->tl   ? oq_frac_make(c->lp[be], c->tl)
			   : c->th ? oq_frac_make(c->hp[be], c->th)
				   : oq_frac_make(0, 1);
	} else {
		c->score = be_share(c, be, c->hp, c->lp, c->tl);
	}
}

bool oq_synth_counts_at(const struct oq_synth_port *in,
			const struct oq_vl_need *n,
			const struct oq_count_mins *mins, uint32_t H,
			uint8_t limit, struct oq_counts *out)
{
	unsigned int pmax = oq_synth_pmax(in->mtu);
	uint16_t hv = n->high & n->used, lv = n->used & ~n->high;

	memset(out, 0, sizeof(*out));
	out->limit = limit;
	if (!hv || !lv) {
		/* One table: no high VL (the low table alone), or no low VL
		 * at all (every SL a high intent: the limit never binds). */
		uint16_t set = hv ? hv : lv;
		bool ok;

		out->flat = true;
		if (hv)
			ok = solve_flat(n, set, mins->hp, -1, pmax,
					in->cap_high, out->hp, &out->th);
		else
			ok = solve_flat(n, set, mins->lp, n->be, pmax,
					in->cap_low, out->lp, &out->tl);
		if (ok)
			score(n, out);
		return ok;
	}
	if (!H) {
		/* The run 0: best effort, the only low VL, in the high
		 * table alone with the high VLs. */
		if (lv != (1u << n->be))
			return false;
		out->flat = true;
		if (!solve_flat(n, hv | lv, mins->hp, n->be, pmax, in->cap_high,
				out->hp, &out->th))
			return false;
		score(n, out);
		return true;
	}
	out->H = H;
	out->Hs = oq_synth_high_run(limit, in->mtu);
	if (out->Hs < H)
		out->Hs = H;
	if (!mins->least_filler) {
		/* A high table near the best for best effort, or (where the
		 * low side needs all of it) the best. */
		if (!solve_high(in, n, mins, H, pmax, true, NULL, out))
			return false;
		if (!solve_low(in, n, mins, pmax, out) &&
		    (!solve_high(in, n, mins, H, pmax, false, NULL, out) ||
		     !solve_low(in, n, mins, pmax, out)))
			return false;
		score(n, out);
		return true;
	}
	/* The least filler the low side can live with: each try the next
	 * larger one, until the low table fits. */
	if (!solve_high(in, n, mins, H, pmax, false, NULL, out))
		return false;
	for (;;) {
		struct oq_frac ratio;

		if (solve_low(in, n, mins, pmax, out)) {
			score(n, out);
			return true;
		}
		if (n->be < 0)
			return false;
		ratio = oq_frac_make(out->hp[n->be], out->th);
		if (!solve_high(in, n, mins, H, pmax, false, &ratio, out))
			return false;
	}
}

/* Within a thousandth of the link of the best score: those first, the
 * smaller tables and then the smaller run (the least VLHighLimit) among
 * them; the rest by score. */
static bool near_top(const struct oq_counts *a, const struct oq_frac *best)
{
	return near_best(a->score.num, a->score.den, best->num, best->den);
}

static int order_cmp(const void *x, const void *y, void *ctx)
{
	const struct oq_counts *a = x, *b = y;
	bool na = near_top(a, ctx), nb = near_top(b, ctx);
	int c;

	if (na != nb)
		return na ? -1 : 1;
	if (na) {
		if (a->th + a->tl != b->th + b->tl)
			return a->th + a->tl < b->th + b->tl ? -1 : 1;
		return (a->H > b->H) - (a->H < b->H);
	}
	c = oq_frac_cmp(a->score, b->score);
	if (c)
		return -c;
	return (a->H > b->H) - (a->H < b->H);
}

size_t oq_synth_counts(const struct oq_synth_port *in,
		       const struct oq_vl_need *n,
		       const struct oq_count_mins *mins, struct oq_counts *out,
		       size_t max_out)
{
	uint16_t hv = n->high & n->used, lv = n->used & ~n->high;
	uint32_t prev = 0, prev_s = 0, H, Hs, others = 0;
	struct oq_frac top, best;
	size_t k = 0, i;
	unsigned int q, v, idle = 0;

	if (!max_out)
		return 0;
	if (!hv || !lv)
		return oq_synth_counts_at(in, n, mins, 0, 0, &out[0]) ? 1 : 0;
	/* Best effort the only low VL: it may also take the high table
	 * alone, the low table empty (no limit then binds). */
	if (lv == (1u << n->be) &&
	    oq_synth_counts_at(in, n, mins, 0, 0, &out[0]))
		k = 1;
	/* Best effort can get no more than what the other VLs' intents
	 * leave: once a run gets that, a longer one can only tie.  (Low
	 * intents past the low table's 1/(H+1) take high entries, so a
	 * longer run does not rule them out.) */
	for (v = 0; v < OQ_MAX_VLS; v++)
		if ((n->used & (1u << v)) && (int)v != n->be)
			others += n->bp[v];
	top = oq_frac_make(others < 10000 ? 10000 - others : 0, 10000);
	best = oq_frac_make(0, 1);
	for (q = 0; q < OQ_ARB_UNLIMITED && k < max_out; q++) {
		/* The runs of the longest full packet and of MTU-size
		 * ones. */
		H = oq_synth_high_run(q, in->mtu + OQ_FULL_PKT_HDR_MAX);
		Hs = oq_synth_high_run(q, in->mtu);
		if (H == prev && Hs == prev_s)
			continue;
		prev = H;
		prev_s = Hs;
		if (mins->runs == 1 && k)
			break;
		if (oq_synth_counts_at(in, n, mins, H, (uint8_t)q, &out[k])) {
			if (!k ||
			    !near_best(best.num, best.den, out[k].score.num,
				       out[k].score.den)) {
				best = out[k].score;
				idle = 0;
			}
			k++;
		}
		/* Best effort at what the intents leave it: a longer run
		 * can only tie. */
		if (k && !oq_frac_cmp(out[k - 1].score, top))
			break;
		if (k && mins->runs > 1 && ++idle > mins->runs)
			break;
	}
	best = oq_frac_make(0, 1);
	for (i = 0; i < k; i++)
		if (oq_frac_cmp(out[i].score, best) > 0)
			best = out[i].score;
	qsort_r(out, k, sizeof(out[0]), order_cmp, &best);
	return k;
}
