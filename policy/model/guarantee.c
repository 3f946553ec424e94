// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What a port guarantees whatever the traffic (docs/model.md, "The
 * guarantee"): each VL's share of the link with every VL the port's
 * SL2VL can carry traffic on backlogged, and its worst wait.  Within a VL
 * packets are served in order whatever their SL, so an SL is guaranteed
 * its VL's share only where no other SL reaches that VL -- granted by the
 * policy or not: a job may set any SL in its packets itself; otherwise
 * the figure is the VL group's, and says so (shared_with).  One arbiter
 * run for the shares and one wait computation per VL; the SL-to-VL views
 * of the input ports only decide which VLs an SL reaches.
 */
#include <string.h>

#include <osmqos/model.h>
#include <osmqos/port_class.h>

/* The SL2VL rows that decide where SLs go at this egress: one input's
 * (in_port), or every input that counts (all rows for a port where none
 * does), or none for a port without SL2VL (every SL on VL 0). */
static size_t view_rows(const struct oq_fabric *f,
			const struct oq_port_tables *t, int in_port,
			uint8_t (*rows)[16])
{
	size_t n;

	if (!t->has_sl2vl || !t->sl2vl || !t->n_sl2vl)
		return 0;
	if (t->n_sl2vl == 1) {
		memcpy(rows[0], t->sl2vl[0], 16);
		return 1;
	}
	if (in_port != OQ_IN_AGGREGATE) {
		memcpy(rows[0], t->sl2vl[in_port], 16);
		return 1;
	}
	n = t->port ? oq_port_input_rows(f, t, rows) : 0;
	if (!n) {
		for (n = 0; n < t->n_sl2vl; n++)
			memcpy(rows[n], t->sl2vl[n], 16);
	}
	return n;
}

int oq_port_guarantee(const struct oq_fabric *f, const struct oq_port_tables *t,
		      const struct oq_guarantee_opts *o,
		      struct oq_port_guarantee *g)
{
	static const struct oq_vlarb_table vl0_only = {
		.e = {{0, 255}},
		.n = 1,
	};
	uint8_t rows[256][16];
	uint16_t served, pred_vls[16];
	struct oq_arb_config cfg;
	struct oq_arb_result arb;
	bool single = !t->has_vlarb;
	unsigned int s, v;
	size_t n, r;

	memset(g, 0, sizeof(*g));
	if (o->in_port != OQ_IN_AGGREGATE &&
	    (o->in_port < 0 || (t->n_sl2vl > 1 && o->in_port >= t->n_sl2vl)))
		return -1;
	g->mtu_bytes =
		o->mtu_bytes ? o->mtu_bytes : oq_port_mtu_bytes(f, t->port);
	n = view_rows(f, t, o->in_port, rows);
	if (!n) {
		memset(rows[0], 0, 16);
		n = 1;
	}
	/* Where each SL goes: every VL it reaches in some view, and
	 * whether some view drops it. */
	for (r = 0; r < n; r++)
		for (s = 0; s < 16; s++) {
			v = rows[r][s];
			if (v >= OQ_MAX_VLS) {
				g->dropped |= (uint16_t)(1u << s);
				continue;
			}
			if (single) /* one data VL: everything on VL 0 */
				v = 0;
			g->sl_vls[s] |= (uint16_t)(1u << v);
			g->vl_sls[v] |= (uint16_t)(1u << s);
			g->busy |= (uint16_t)(1u << v);
		}
	if (single)
		oq_arb_config_init(&cfg, NULL, &vl0_only, 0, g->mtu_bytes);
	else
		oq_arb_config_init(&cfg, &t->vlarb_high, &t->vlarb_low,
				   t->vl_high_limit, g->mtu_bytes);
	cfg.backlog = g->busy;
	cfg.max_steps = o->max_steps;
	if (oq_arb_run(&cfg, &arb))
		return -1;
	g->approx = arb.approx;
	served = single ? 1
			: (oq_vlarb_vls(&t->vlarb_high) |
			   oq_vlarb_vls(&t->vlarb_low));
	for (v = 0; v < OQ_MAX_VLS; v++) {
		struct oq_wait_result w;

		g->vl_share[v] = (g->busy & (1u << v)) ? arb.share[v]
						       : oq_frac_make(0, 1);
		g->vl_wait[v] = OQ_WAIT_UNBOUNDED;
		if (!(g->busy & (1u << v)) || !o->wait_states ||
		    (o->wait_vls && !(o->wait_vls & (1u << v))))
			continue;
		if (oq_arb_worst_wait(&cfg, v, o->wait_states, &w))
			return -1;
		g->vl_wait[v] = w.bytes;
		if (w.capped)
			g->wait_capped |= (uint16_t)(1u << v);
		if (w.bound)
			g->wait_bound |= (uint16_t)(1u << v);
	}
	/* The VLs the prediction's view sends each SL to: it also reads
	 * input ports that are down (oq_predict_sl_vls). */
	if (oq_predict_sl_vls(t, o->in_port, pred_vls))
		return -1;
	for (s = 0; s < 16; s++) {
		uint16_t m = g->sl_vls[s];
		unsigned int s2;

		g->share[s] = oq_frac_make(0, 1);
		g->wait[s] = OQ_WAIT_UNBOUNDED;
		/* Alone on the link it gets the whole link from an input
		 * that sends it to a VL with an entry: the most it can get
		 * here, whatever other inputs do with it (drop it, or send
		 * it to a VL never served).  Over both views, so never
		 * below what any scenario predicts for it. */
		g->ceiling[s] = ((m | pred_vls[s]) & served)
					? oq_frac_make(1, 1)
					: oq_frac_make(0, 1);
		if (!m || (g->dropped & (1u << s)))
			continue;
		g->share[s] = oq_frac_make(1, 1);
		g->wait[s] = 0;
		for (v = 0; v < OQ_MAX_VLS; v++) {
			if (!(m & (1u << v)))
				continue;
			if (oq_frac_cmp(g->vl_share[v], g->share[s]) < 0)
				g->share[s] = g->vl_share[v];
			if (g->vl_wait[v] > g->wait[s])
				g->wait[s] = g->vl_wait[v];
		}
		for (s2 = 0; s2 < 16; s2++)
			if (s2 != s && (g->sl_vls[s2] & m))
				g->shared_with[s] |= (uint16_t)(1u << s2);
	}
	/* An SL2VL not known here (rows shown as VL 0) says nothing of
	 * which VLs are busy or where an SL goes: the engine may put any SL
	 * on any VL it uses (tables_guard.c takes it so), so the figures
	 * above would be a guess. */
	if (t->sl2vl_unknown) {
		g->unknown = true;
		for (s = 0; s < 16; s++) {
			g->share[s] = oq_frac_make(0, 1);
			g->wait[s] = OQ_WAIT_UNBOUNDED;
			g->shared_with[s] = 0;
		}
	}
	return 0;
}

void oq_guarantee_opts_init(struct oq_guarantee_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->in_port = OQ_IN_AGGREGATE;
	o->wait_states = OQ_WAIT_DEFAULT_STATES;
}

double oq_wait_us(uint64_t bytes, double rate_gbps)
{
	if (bytes == OQ_WAIT_UNBOUNDED || rate_gbps <= 0)
		return -1.0;
	/* bytes * 8 bits / (Gb/s * 1e3 bits per microsecond) */
	return (double)bytes * 8.0 / (rate_gbps * 1000.0);
}

int oq_hop_from_guarantee(const struct oq_port_tables *t,
			  const struct oq_port_guarantee *g, double rate_gbps,
			  int in, uint8_t sl, struct oq_hop_guarantee *h)
{
	unsigned int v = 0;

	memset(h, 0, sizeof(*h));
	h->rate_gbps = rate_gbps;
	h->wait = OQ_WAIT_UNBOUNDED;
	h->wait_us = -1;
	if (sl > 15)
		return 1;
	if (t->has_sl2vl && t->sl2vl && t->n_sl2vl) {
		if (t->n_sl2vl == 1)
			in = 0;
		if (in < 0 || in >= t->n_sl2vl)
			return 1;
		v = t->sl2vl[in][sl];
	}
	if (v < OQ_MAX_VLS && !t->has_vlarb)
		v = 0;
	if (v >= OQ_MAX_VLS) {
		h->vl = OQ_VL_NONE;
		return 0;
	}
	h->vl = (int8_t)v;
	if (g->unknown) {
		h->unknown = true;
		return 0;
	}
	h->gbps = oq_frac_double(g->vl_share[v]) * rate_gbps;
	h->wait = g->vl_wait[v];
	h->wait_us = (g->wait_capped & (1u << v))
			     ? -1.0
			     : oq_wait_us(h->wait, rate_gbps);
	h->wait_bound = g->wait_bound & (1u << v);
	h->shared_with = g->vl_sls[v] & (uint16_t) ~(1u << sl);
	return 0;
}

int oq_port_hop(const struct oq_fabric *f, const struct oq_port_tables *t,
		int in, uint8_t sl, struct oq_hop_guarantee *h)
{
	struct oq_guarantee_opts o;
	struct oq_port_guarantee g;

	oq_guarantee_opts_init(&o);
	o.wait_states = 1u << 14;
	if (oq_port_guarantee(f, t, &o, &g))
		return -1;
	return oq_hop_from_guarantee(t, &g, oq_port_data_gbps(t->port), in, sl,
				     h);
}

void oq_path_guarantee_add(struct oq_path_guarantee *p,
			   const struct oq_hop_guarantee *h)
{
	if (h->unknown) {
		/* Its figures are not known: the path's are not either. */
		if (!p->n_hops || h->rate_gbps < p->ceiling_gbps)
			p->ceiling_gbps = h->rate_gbps;
		p->unknown = true;
		p->wait_us = -1;
		p->n_hops++;
		return;
	}
	if (!p->n_known++ || h->gbps < p->gbps) {
		p->gbps = h->gbps;
		p->bottleneck = p->n_hops;
	}
	if (!p->n_hops || h->rate_gbps < p->ceiling_gbps)
		p->ceiling_gbps = h->rate_gbps;
	if (!p->n_hops)
		p->wait_us = 0;
	if (h->vl == OQ_VL_NONE)
		p->dropped = true;
	if (h->shared_with)
		p->shared = true;
	if (h->wait_us < 0 || p->wait_us < 0)
		p->wait_us = -1;
	else
		p->wait_us += h->wait_us;
	p->wait_bound |= h->wait_bound;
	p->n_hops++;
}
