// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Per-SL view of a port and the path view.  SL -> VL through the port's
 * SL2VL (one input port, or every input at once on a switch), the arbiter
 * gives each backlogged VL its share, and a VL's share is split among the
 * active SLs that use it, in proportion to their weights (equal unless
 * told).  No allocation: the plugin calls this per port.
 */
#include <string.h>

#include <osmqos/model.h>

#define ALL_SLS 0xffffu
#define VL_MASK ((uint16_t)((1u << OQ_MAX_VLS) - 1))

void oq_predict_opts_init(struct oq_predict_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->in_port = OQ_IN_AGGREGATE;
}

uint32_t oq_port_mtu_bytes(const struct oq_fabric *f, const struct oq_port *p)
{
	const struct oq_port *pp;
	unsigned int m, peer;

	if (!p)
		return 2048;
	m = oq_mtu_bytes(p->mtu_cap);
	pp = oq_port_peer(f, p);
	if (pp) {
		peer = oq_mtu_bytes(pp->mtu_cap);
		if (peer && (!m || peer < m))
			m = peer;
	}
	return m ? m : 2048;
}

const char *oq_prio_name(enum oq_prio p)
{
	switch (p) {
	case OQ_PRIO_NONE:
		return "none";
	case OQ_PRIO_LOW:
		return "low";
	case OQ_PRIO_HIGH:
		return "high";
	case OQ_PRIO_BOTH:
		return "both";
	case OQ_PRIO_SINGLE:
		return "single";
	}
	return "?";
}

/* a += b * m / d, exactly when it fits in 64 bits (it does for every
 * realistic table: d is a sum of at most 16 SL weights); otherwise the
 * nearest fraction both of whose terms fit. */
static void frac_add_scaled(struct oq_frac *a, struct oq_frac b, uint64_t m,
			    uint64_t d)
{
	unsigned __int128 num, den, g, x, y;

	if (!b.num || !m)
		return;
	/* b*m/d first, reduced. */
	x = (unsigned __int128)b.num * m;
	y = (unsigned __int128)b.den * d;
	num = (unsigned __int128)a->num * y + x * a->den;
	den = (unsigned __int128)a->den * y;
	/* 128-bit gcd */
	x = num;
	y = den;
	while (y) {
		g = x % y;
		x = y;
		y = g;
	}
	num /= x;
	den /= x;
	while (num > UINT64_MAX || den > UINT64_MAX) {
		num >>= 1;
		den >>= 1;
	}
	*a = oq_frac_make((uint64_t)num, (uint64_t)(den ? den : 1));
}

static unsigned int popcount16(uint16_t m)
{
	return (unsigned int)__builtin_popcount(m);
}

static int lowest_vl(uint16_t m)
{
	return m ? __builtin_ctz(m) : OQ_VL_NONE;
}

int oq_predict_sl_vls(const struct oq_port_tables *t, int in_port,
		      uint16_t vls[16])
{
	const struct oq_port *p = t->port;
	unsigned int r, s, used = 0;

	memset(vls, 0, 16 * sizeof(vls[0]));
	if (!t->has_sl2vl || !t->sl2vl || !t->n_sl2vl) {
		/* No SL2VL: everything travels on VL0. */
		for (s = 0; s < 16; s++)
			vls[s] = 1;
		return 0;
	}
	if (t->n_sl2vl == 1) {
		for (s = 0; s < 16; s++)
			if (t->sl2vl[0][s] < OQ_MAX_VLS)
				vls[s] = (uint16_t)(1u << t->sl2vl[0][s]);
		return 0;
	}
	if (in_port != OQ_IN_AGGREGATE) {
		if (in_port < 0 || in_port >= t->n_sl2vl)
			return -1;
		for (s = 0; s < 16; s++)
			if (t->sl2vl[in_port][s] < OQ_MAX_VLS)
				vls[s] = (uint16_t)(1u << t->sl2vl[in_port][s]);
		return 0;
	}
	/* Aggregate: every input port that exists, except the output port
	 * itself (traffic does not turn back on the link it came from). */
	for (r = 0; r < t->n_sl2vl; r++) {
		if (p && r == p->num)
			continue;
		if (p && p->node && r <= p->node->n_ports && r != 0 &&
		    !p->node->ports[r].present)
			continue;
		used++;
		for (s = 0; s < 16; s++)
			if (t->sl2vl[r][s] < OQ_MAX_VLS)
				vls[s] |= (uint16_t)(1u << t->sl2vl[r][s]);
	}
	if (!used) /* a lone port: take every table */
		for (r = 0; r < t->n_sl2vl; r++)
			for (s = 0; s < 16; s++)
				if (t->sl2vl[r][s] < OQ_MAX_VLS)
					vls[s] |= (uint16_t)(1u
							     << t->sl2vl[r][s]);
	return 0;
}

static enum oq_prio prio_of(uint16_t vls, uint16_t hi, uint16_t lo, bool single)
{
	bool h = vls & hi, l = vls & lo;

	if (!vls)
		return OQ_PRIO_NONE;
	if (single)
		return OQ_PRIO_SINGLE;
	return h && l ? OQ_PRIO_BOTH
	       : h    ? OQ_PRIO_HIGH
	       : l    ? OQ_PRIO_LOW
		      : OQ_PRIO_NONE;
}

int oq_predict_port(const struct oq_fabric *f, const struct oq_port_tables *t,
		    double rate_gbps, const struct oq_predict_opts *o,
		    struct oq_port_pred *out)
{
	static const struct oq_vlarb_table vl0_only = {
		.e = {{0, 255}},
		.n = 1,
	};
	uint16_t active = o->active_sls ? o->active_sls : ALL_SLS;
	uint16_t vls[16], backlog = 0, hi_vls, lo_vls;
	uint32_t wsum[OQ_MAX_VLS] = {0};
	struct oq_arb_config cfg;
	bool single = !t->has_vlarb;
	unsigned int s, v;

	memset(out, 0, sizeof(*out));
	if (oq_predict_sl_vls(t, o->in_port, vls))
		return -1;
	if (single) /* one data VL: VL0 gets the whole link */
		for (s = 0; s < 16; s++)
			vls[s] &= 1;
	out->rate_gbps =
		rate_gbps >= 0 ? rate_gbps : oq_port_data_gbps(t->port);
	out->mtu_bytes =
		o->mtu_bytes ? o->mtu_bytes : oq_port_mtu_bytes(f, t->port);
	for (s = 0; s < 16; s++)
		if (active & (1u << s))
			backlog |= vls[s];

	if (single)
		oq_arb_config_init(&cfg, NULL, &vl0_only, 0, out->mtu_bytes);
	else
		oq_arb_config_init(&cfg, &t->vlarb_high, &t->vlarb_low,
				   t->vl_high_limit, out->mtu_bytes);
	memcpy(cfg.pkt_bytes, o->pkt_bytes, sizeof(cfg.pkt_bytes));
	cfg.backlog = backlog;
	cfg.max_steps = o->max_steps;
	if (o->profile == OQ_PROFILE_CX2_2K && !single &&
	    oq_cx2_apply(&cfg, &out->arb) == 0)
		out->profile_applied = true;
	else if (oq_arb_run(&cfg, &out->arb))
		return -1;

	hi_vls = single ? 0 : oq_vlarb_vls(&t->vlarb_high);
	lo_vls = single ? 1 : oq_vlarb_vls(&t->vlarb_low);
	for (s = 0; s < 16; s++) {
		unsigned int w = o->sl_weight[s] ? o->sl_weight[s] : 1;

		if (!(active & (1u << s)))
			continue;
		for (v = 0; v < OQ_MAX_VLS; v++)
			if (vls[s] & (1u << v))
				wsum[v] += w;
	}
	for (s = 0; s < 16; s++) {
		struct oq_sl_pred *sp = &out->sl[s];
		unsigned int w = o->sl_weight[s] ? o->sl_weight[s] : 1;

		sp->vls = vls[s];
		sp->vl = (int8_t)(popcount16(vls[s]) > 1 ? OQ_VL_MIXED
							 : lowest_vl(vls[s]));
		sp->prio = prio_of(vls[s], hi_vls, lo_vls, single);
		sp->active = active & (1u << s);
		sp->share = oq_frac_make(0, 1);
		if (!sp->active)
			continue;
		if (o->scenario == OQ_SCEN_ALONE) {
			/* Alone on the link: full rate if any of its VLs can
			 * be served at all. */
			if (vls[s] & (hi_vls | lo_vls))
				sp->share = oq_frac_make(1, 1);
		} else {
			for (v = 0; v < OQ_MAX_VLS; v++)
				if (vls[s] & (1u << v))
					frac_add_scaled(&sp->share,
							out->arb.share[v], w,
							wsum[v]);
			sp->starve = !single &&
				     t->vl_high_limit == OQ_ARB_UNLIMITED &&
				     (backlog & hi_vls) && (vls[s] & lo_vls) &&
				     !(vls[s] & hi_vls);
		}
		sp->gbps = oq_frac_double(sp->share) * out->rate_gbps;
	}
	return 0;
}

int oq_predict_path(const struct oq_fabric *f, const struct oq_path_hop *hops,
		    size_t n, uint8_t sl, const struct oq_predict_opts *o,
		    struct oq_path_pred *out, struct oq_port_pred *scratch)
{
	struct oq_predict_opts ho;
	size_t i;

	memset(out, 0, sizeof(*out));
	if (!n || sl > 15)
		return -1;
	ho = *o;
	if (ho.active_sls)
		ho.active_sls |= (uint16_t)(1u << sl);
	for (i = 0; i < n; i++) {
		const struct oq_sl_pred *sp;

		ho.in_port = hops[i].t->n_sl2vl > 1 ? hops[i].in_port
						    : OQ_IN_AGGREGATE;
		if (oq_predict_port(f, hops[i].t, hops[i].rate_gbps, &ho,
				    scratch))
			return -1;
		sp = &scratch->sl[sl];
		if (sp->vl == OQ_VL_NONE)
			out->dropped = true;
		if (i == 0 || sp->gbps < out->gbps) {
			out->gbps = sp->gbps;
			out->bottleneck = i;
			out->share = sp->share;
		}
	}
	return 0;
}
