// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What tables give a class of ports, by the model: every VL's share with
 * every VL the class's SL2VL reaches backlogged (as the publisher takes
 * the guarantee, oq_port_guarantee) and the worst wait of the VLs asked
 * for.  The synthesizer accepts a result only when this says every
 * intent holds.
 *
 * Its promises are for full packets, whatever their headers (model.h):
 * every packet MTU + 26 to MTU + 126 bytes on the wire, the same length
 * on every VL; and they hold in the model of MTU-size packets that
 * osmqos predict and the published figures take, so those never show a
 * synthesized table missing an intent.  Over these lengths an entry's
 * packets, ceil(w / credits), change only where the credits do, and the
 * high table's run only falls as packets grow, so a VL's share is the
 * least at an end of a stretch of equal credits: the tables are run at
 * the ends of every stretch (MTU; MTU + 26 and the last length of its
 * credits; the next one and MTU + 126) and the least share is kept.  A
 * wait is the most bytes over the same lengths, computed only where the
 * packets sent differ from a longer length's (else they are the same
 * packets, shorter).
 */
#include <string.h>

#include "synth_int.h"

#define CREDIT 64u

/* The packet lengths to run, longest first. */
static size_t full_lengths(uint32_t mtu, uint32_t len[5])
{
	uint32_t lo = mtu + OQ_FULL_PKT_HDR_MIN, hi = mtu + OQ_FULL_PKT_HDR_MAX;
	uint32_t edge = (lo + CREDIT - 1) / CREDIT * CREDIT;
	size_t n = 0;

	len[n++] = hi;
	if (edge + 1 < hi)
		len[n++] = edge + 1;
	if (edge < hi && edge > lo)
		len[n++] = edge;
	len[n++] = lo;
	len[n++] = mtu;
	return n;
}

static uint32_t run_at(const struct oq_vlarb_table *high,
		       const struct oq_vlarb_table *low, uint8_t limit,
		       uint32_t bytes)
{
	uint32_t h;

	if (limit == OQ_ARB_UNLIMITED || !oq_vlarb_vls(high) ||
	    !oq_vlarb_vls(low))
		return 0;
	h = (uint32_t)limit * 4096u / bytes;
	return h ? h : 1;
}

static bool same_entries(const struct oq_vlarb_table *v, uint32_t a, uint32_t b)
{
	unsigned int ca = (a + CREDIT - 1) / CREDIT,
		     cb = (b + CREDIT - 1) / CREDIT, i;

	for (i = 0; i < v->n && i < OQ_VLARB_MAX; i++)
		if ((v->e[i].weight + ca - 1) / ca !=
		    (v->e[i].weight + cb - 1) / cb)
			return false;
	return true;
}

/* The arbiter sends the same packets (only their length differs) with
 * the packet length of any earlier len[j] as with len[i]. */
static bool seen(const struct oq_vlarb_table *high,
		 const struct oq_vlarb_table *low, uint8_t limit,
		 const uint32_t *len, size_t i)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (run_at(high, low, limit, len[i]) ==
			    run_at(high, low, limit, len[j]) &&
		    same_entries(high, len[i], len[j]) &&
		    same_entries(low, len[i], len[j]))
			return true;
	return false;
}

int oq_synth_full_wait(const struct oq_arb_config *c, uint32_t mtu,
		       unsigned int vl, size_t states,
		       struct oq_wait_result *out)
{
	static const struct oq_vlarb_table none;
	const struct oq_vlarb_table *high = c->high ? c->high : &none,
				    *low = c->low ? c->low : &none;
	struct oq_arb_config at = *c;
	struct oq_wait_result w;
	uint32_t len[5];
	size_t n = full_lengths(mtu, len), i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		if (seen(high, low, c->high_limit, len, i))
			continue;
		at.mtu_bytes = len[i];
		if (oq_arb_worst_wait(&at, vl, states, &w))
			return -1;
		out->states += w.states;
		out->capped |= w.capped;
		out->bound |= w.bound;
		if (w.bytes > out->bytes)
			out->bytes = w.bytes;
	}
	return 0;
}

/* oq_port_guarantee at every packet length: the least shares and the
 * longest waits.  The class's tables belong to no port (t->port NULL,
 * the MTU given), so no fabric is read. */
static int full_guarantee(const struct oq_port_tables *t, uint32_t mtu,
			  struct oq_guarantee_opts *o,
			  struct oq_port_guarantee *g)
{
	struct oq_port_guarantee h;
	uint32_t len[5];
	size_t n = full_lengths(mtu, len), i;
	size_t states = o->wait_states;
	unsigned int v, s;

	o->mtu_bytes = len[0];
	if (oq_port_guarantee(NULL, t, o, g))
		return -1;
	for (i = 1; i < n; i++) {
		bool waits = !t->has_vlarb
				     ? false
				     : !seen(&t->vlarb_high, &t->vlarb_low,
					     t->vl_high_limit, len, i);

		o->mtu_bytes = len[i];
		o->wait_states = waits ? states : 0;
		if (oq_port_guarantee(NULL, t, o, &h))
			return -1;
		g->approx |= h.approx;
		for (v = 0; v < OQ_MAX_VLS; v++) {
			if (oq_frac_cmp(h.vl_share[v], g->vl_share[v]) < 0)
				g->vl_share[v] = h.vl_share[v];
			if (!waits ||
			    (o->wait_vls && !(o->wait_vls & (1u << v))))
				continue;
			if (h.vl_wait[v] > g->vl_wait[v])
				g->vl_wait[v] = h.vl_wait[v];
			g->wait_capped |= h.wait_capped & (1u << v);
			g->wait_bound |= h.wait_bound & (1u << v);
		}
		for (s = 0; s < 16; s++) {
			if (oq_frac_cmp(h.share[s], g->share[s]) < 0)
				g->share[s] = h.share[s];
			if (waits && h.wait[s] > g->wait[s])
				g->wait[s] = h.wait[s];
		}
	}
	o->wait_states = states;
	return 0;
}

bool oq_frac_meets_bp(struct oq_frac share, uint32_t bp)
{
	/* 0/0 is no share (a result never filled in), never a guarantee. */
	return share.den && (unsigned __int128)share.num * 10000u >=
				    (unsigned __int128)bp * share.den;
}

void oq_synth_class_tables(const struct oq_synth_port *in,
			   const struct oq_synth_result *r, uint8_t (*rows)[16],
			   struct oq_port_tables *t)
{
	size_t n = 1;

	memset(t, 0, sizeof(*t));
	if (in->sl2vl_fixed && in->n_rows) {
		n = in->n_rows;
		memcpy(rows, in->rows, n * 16);
	} else {
		memcpy(rows[0], r->sl2vl, 16);
	}
	t->has_sl2vl = in->has_sl2vl;
	t->sl2vl = t->has_sl2vl ? rows : NULL;
	t->n_sl2vl = t->has_sl2vl ? (uint8_t)n : 0;
	t->has_vlarb = in->has_vlarb;
	if (in->has_vlarb) {
		t->vlarb_high = r->high;
		t->vlarb_low = r->low;
		t->vl_high_limit = r->limit;
	}
}

int oq_synth_eval(const struct oq_synth_port *in, const uint8_t row[16],
		  const struct oq_vlarb_table *high,
		  const struct oq_vlarb_table *low, uint8_t limit,
		  uint16_t wait_vls, struct oq_port_guarantee *g)
{
	return oq_synth_eval_states(in, row, high, low, limit, wait_vls,
				    OQ_WAIT_DEFAULT_STATES, g);
}

int oq_synth_eval_states(const struct oq_synth_port *in, const uint8_t row[16],
			 const struct oq_vlarb_table *high,
			 const struct oq_vlarb_table *low, uint8_t limit,
			 uint16_t wait_vls, size_t states,
			 struct oq_port_guarantee *g)
{
	uint8_t rows[OQ_SYNTH_MAX_ROWS][16];
	struct oq_port_tables t;
	struct oq_guarantee_opts o;
	size_t n = 1;

	memset(&t, 0, sizeof(t));
	if (in->sl2vl_fixed) {
		n = in->n_rows;
		if (n > OQ_SYNTH_MAX_ROWS)
			return -1;
		memcpy(rows, in->rows, n * 16);
	} else {
		memcpy(rows[0], row, 16);
	}
	t.has_sl2vl = in->has_sl2vl && n;
	t.sl2vl = t.has_sl2vl ? rows : NULL;
	t.n_sl2vl = t.has_sl2vl ? (uint8_t)n : 0;
	t.has_vlarb = in->has_vlarb;
	if (in->has_vlarb) {
		t.vlarb_high = *high;
		t.vlarb_low = *low;
		t.vl_high_limit = limit;
	}
	oq_guarantee_opts_init(&o);
	o.wait_vls = wait_vls;
	o.wait_states = wait_vls ? states : 0;
	return full_guarantee(&t, in->mtu, &o, g);
}
