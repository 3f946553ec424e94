// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Vendor profile "cx2-2k": the high/low bandwidth ratio measured on
 * ConnectX-2 HCAs with MTU 2048, one high VL (weight H) and one low VL
 * (weight L) under VLHighLimit Q (reference 000, a Chinese paper whose
 * formula survives only OCR-damaged; docs/model.md says how we read it).
 *
 *   plateau P = 2Q: Q*4096 bytes of 2 KiB high packets per low packet
 *   period  T = H / gcd(H, 32): 32 credits make one 2 KiB packet
 *   ratio(L) = P * T * floor(L/T) / L   for L >= T
 *
 * Choices where the text is silent: for L < T we clamp floor(L/T) to 1
 * (the formula would give 0, i.e. a high VL that never sends, which no
 * measurement shows); for Q = 0 the plateau is 1 (IBA: one high packet
 * per low opportunity); Q = 255 is unbounded, so the low VL starves.
 */
#include <osmqos/model.h>

#define CX2_MTU		    2048u
#define CX2_CREDITS_PER_PKT 32u

unsigned int oq_cx2_period(unsigned int h)
{
	if (!h)
		return 0;
	return h / (unsigned int)oq_gcd_u64(h, CX2_CREDITS_PER_PKT);
}

int oq_cx2_ratio(unsigned int q, unsigned int h, unsigned int l,
		 struct oq_frac *r)
{
	uint64_t plateau, t, n;

	if (!h || !l)
		return -1;
	if (q >= OQ_ARB_UNLIMITED) {
		r->num = 1;
		r->den = 0;
		return 1;
	}
	plateau = q ? 2ull * q : 1;
	t = oq_cx2_period(h);
	n = l / t;
	if (n < 1)
		n = 1;
	*r = oq_frac_make(plateau * t * n, l);
	return 0;
}

/* The single positive-weight entry of VL-set `vls` in t, or -1 when there
 * is none or more than one. */
static int single_entry(const struct oq_vlarb_table *t, uint16_t backlog)
{
	unsigned int i;
	int found = -1;

	if (!t)
		return -1;
	for (i = 0; i < t->n && i < OQ_VLARB_MAX; i++) {
		if (!t->e[i].weight || t->e[i].vl >= OQ_MAX_VLS ||
		    !(backlog & (1u << t->e[i].vl)))
			continue;
		if (found >= 0)
			return -1;
		found = (int)i;
	}
	return found;
}

int oq_cx2_apply(const struct oq_arb_config *c, struct oq_arb_result *r)
{
	uint16_t backlog = c->backlog & ((1u << OQ_MAX_VLS) - 1);
	unsigned int hv, lv;
	struct oq_frac ratio;
	uint64_t a, b;
	int hi, lo, rc;

	if (c->mtu_bytes != CX2_MTU)
		return -1;
	hi = single_entry(c->high, backlog);
	lo = single_entry(c->low, backlog);
	if (hi < 0 || lo < 0)
		return -1;
	hv = c->high->e[hi].vl;
	lv = c->low->e[lo].vl;
	if (hv == lv || (c->pkt_bytes[hv] && c->pkt_bytes[hv] != CX2_MTU) ||
	    (c->pkt_bytes[lv] && c->pkt_bytes[lv] != CX2_MTU))
		return -1;
	rc = oq_cx2_ratio(c->high_limit, c->high->e[hi].weight,
			  c->low->e[lo].weight, &ratio);
	if (rc < 0)
		return -1;
	a = ratio.num;
	b = ratio.den; /* 0 when the low VL starves */
	for (hv = 0; hv < OQ_MAX_VLS; hv++) {
		r->vl_bytes[hv] = 0;
		r->share[hv] = oq_frac_make(0, 1);
	}
	hv = c->high->e[hi].vl;
	r->vl_bytes[hv] = a * CX2_MTU;
	r->vl_bytes[lv] = b * CX2_MTU;
	r->cycle_bytes = (a + b) * CX2_MTU;
	r->cycle_packets = a + b;
	r->cycle_steps = 0;
	r->steps_run = 0;
	r->share[hv] = oq_frac_make(a, a + b);
	r->share[lv] = oq_frac_make(b, a + b);
	r->high_vls = (uint16_t)(1u << hv);
	r->low_vls = b ? (uint16_t)(1u << lv) : 0;
	r->idle = false;
	r->approx = false;
	return 0;
}
