// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * No starved VL: on every port, each VL that the SL2VL in force maps a
 * used SL to must have a positive weight in the VLArb in force (high or
 * low table), or the arbiter never sends its packets and every path on
 * that SL hangs at this port.  The SL2VL may be a routing engine's
 * (dfsssp spreads paths over every SL it has VLs for), so a policy's VLArb
 * can starve a VL the policy never mentions.
 *
 * A scope that would starve a VL is not programmed on that port: its
 * VLArb (then, if the port still starves, its SL2VL) goes back to the
 * template, with the engine's rewrite, and one error per scope names the
 * VL, the SL and the first port.  Tables the templates alone starve are
 * what stock OpenSM programs too: one warning.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables_int.h"

/* The SLs a path can carry: any, where the engine chooses them; else SL
 * 0 (OpenSM's default), every qos-level's and every partition's SL. */
static uint16_t used_sls(const struct oq_binding *b, const struct oq_engine *e)
{
	const struct oq_partitions *parts;
	const struct oq_policy *p;
	uint16_t used = 1;
	size_t i;

	if (e->kind != OQ_ENGINE_QOS)
		return 0xffff;
	if (!b)
		return used;
	p = oq_binding_policy(b);
	for (i = 0; i < p->n_levels; i++)
		if (p->levels[i].sl >= 0 && p->levels[i].sl < 16)
			used |= (uint16_t)(1u << p->levels[i].sl);
	if (p->ulp_default_sl >= 0 && p->ulp_default_sl < 16)
		used |= (uint16_t)(1u << p->ulp_default_sl);
	parts = oq_binding_partitions(b);
	for (i = 0; parts && i < parts->n; i++)
		if (parts->v[i].sl >= 0 && parts->v[i].sl < 16)
			used |= (uint16_t)(1u << parts->v[i].sl);
	return used;
}

static bool weighted(const struct oq_vlarb_table *t, unsigned int vl)
{
	unsigned int i;

	for (i = 0; i < t->n && i < OQ_VLARB_MAX; i++)
		if (t->e[i].vl == vl && t->e[i].weight)
			return true;
	return false;
}

/* Does this input row's traffic reach the port?  Not from the port
 * itself, nor from a switch port that is down. */
static bool live_input(const struct oq_port *p, unsigned int in)
{
	const struct oq_node *n = p->node;

	if (n->type != OQ_NODE_SWITCH || !p->num)
		return true;
	if (in == p->num || in > n->n_ports)
		return false;
	return in == 0 || (n->ports[in].present && n->ports[in].peer);
}

struct starve {
	unsigned int vl, sl; /* sl 16: any SL (the engine's unseen table) */
};

/* The first starved VL of a port, or false. */
static bool starved(const struct oq_port_tables *pt, uint16_t used,
		    struct starve *out)
{
	const struct oq_port *p = pt->port;
	unsigned int vls = oq_port_vls(p), in, sl, vl;

	if (!pt->has_vlarb)
		return false;
	if (pt->sl2vl_unknown || !pt->has_sl2vl) {
		/* Unknown engine table: any VL it can use (torus-2QoS uses
		 * up to 8); no SL2VL at all: everything on VL 0. */
		unsigned int top = pt->sl2vl_unknown ? (vls < 8 ? vls : 8) : 1;

		for (vl = 0; vl < top; vl++)
			if (!weighted(&pt->vlarb_low, vl) &&
			    !weighted(&pt->vlarb_high, vl)) {
				out->vl = vl;
				out->sl = 16;
				return true;
			}
		return false;
	}
	for (sl = 0; sl < 16; sl++) {
		if (!(used & (1u << sl)))
			continue;
		for (in = 0; in < pt->n_sl2vl; in++) {
			if (pt->n_sl2vl > 1 && !live_input(p, in))
				continue;
			vl = pt->sl2vl[in][sl];
			if (vl == OQ_VL_DROP || vl >= vls)
				continue;
			if (!weighted(&pt->vlarb_low, vl) &&
			    !weighted(&pt->vlarb_high, vl)) {
				out->vl = vl;
				out->sl = sl;
				return true;
			}
		}
	}
	return false;
}

struct guard_note {
	const struct oq_port *first;
	struct starve what;
	enum oq_table_origin sl2vl_origin;
	int sl2vl_scope;
	size_t n_ports;
};

static void note(struct guard_note *n, const struct oq_port_tables *pt,
		 const struct starve *st)
{
	if (!n->n_ports++) {
		n->first = pt->port;
		n->what = *st;
		n->sl2vl_origin = pt->sl2vl_origin;
		n->sl2vl_scope = pt->sl2vl_scope;
	}
}

static void whose_sl2vl(const struct guard_note *n, const struct oq_policy *p,
			const struct oq_engine *e, char *buf, size_t len)
{
	char loc[256];

	switch (n->sl2vl_origin) {
	case OQ_ORIGIN_ENGINE:
		snprintf(buf, len, "routing engine %s", e->name);
		break;
	case OQ_ORIGIN_SCOPE:
		oq_loc_format(&p->sl2vl[n->sl2vl_scope].loc, loc, sizeof(loc));
		snprintf(buf, len, "the sl2vl-scope at %s", loc);
		break;
	default:
		snprintf(buf, len, "the template (qos_sl2vl)");
		break;
	}
}

/* Why the VL must be served: "SL 4 maps to it under the SL2VL of ...". */
static void why_served(const struct guard_note *n, const struct oq_engine *e,
		       const char *whose, char *buf, size_t len)
{
	if (n->what.sl == 16)
		snprintf(buf, len, "routing engine %s can map SLs to it",
			 e->name);
	else if (e->kind != OQ_ENGINE_QOS)
		snprintf(buf, len,
			 "SL %u maps to it under the SL2VL of %s and routing "
			 "engine %s can give a path any SL",
			 n->what.sl, whose, e->name);
	else
		snprintf(buf, len,
			 "SL %u, which a path can carry, maps to it under the "
			 "SL2VL of %s",
			 n->what.sl, whose);
}

static void report(const struct oq_policy *p, const struct oq_engine *e,
		   const struct guard_note *n, struct oq_loc loc,
		   const char *scope, const char *keeps, struct oq_diags *diags)
{
	char label[160], whose[320], msg[700];
	struct oq_diag *d;

	oq_tables_port_label(n->first, label, sizeof(label));
	if (p)
		whose_sl2vl(n, p, e, whose, sizeof(whose));
	else
		snprintf(whose, sizeof(whose), "the template (qos_sl2vl)");
	why_served(n, e, whose, msg, sizeof(msg));
	if (scope) {
		d = oq_error(diags, loc,
			     "%s would starve VL %u on %zu port(s) (first: "
			     "%s): %s; those ports keep %s",
			     scope, n->what.vl, n->n_ports, label, msg, keeps);
		oq_diag_hint(d,
			     "give VL %u a weight in vlarb-high or vlarb-low, "
			     "or map the SL to a weighted VL",
			     n->what.vl);
	} else {
		d = oq_warning(diags, loc,
			       "the tables of %zu port(s) starve VL %u (first: "
			       "%s): %s, and the VLArb template gives it no "
			       "weight (stock OpenSM programs the same)",
			       n->n_ports, n->what.vl, label, msg);
		oq_diag_hint(d,
			     "give VL %u a weight in opensm.conf's "
			     "qos_*vlarb_* templates",
			     n->what.vl);
	}
}

int oq_tables_guard(const struct oq_binding *b, const struct oq_fabric *f,
		    const struct oq_templates *t, const struct oq_engine *e,
		    struct oq_fabric_tables *out, struct oq_diags *diags)
{
	const struct oq_policy *p = b ? oq_binding_policy(b) : NULL;
	struct guard_note *vn = NULL, *sn = NULL, tn;
	uint16_t used = used_sls(b, e);
	struct oq_loc nowhere;
	size_t i;

	(void)f;
	memset(&tn, 0, sizeof(tn));
	memset(&nowhere, 0, sizeof(nowhere));
	if (p) {
		vn = calloc(p->n_vlarb + 1, sizeof(*vn));
		sn = calloc(p->n_sl2vl + 1, sizeof(*sn));
		if (!vn || !sn)
			goto oom;
	}
	for (i = 0; i < out->n; i++) {
		struct oq_port_tables *pt = &out->ports[i];
		struct starve st;

		if (!starved(pt, used, &st))
			continue;
		if (pt->vlarb_origin == OQ_ORIGIN_SCOPE) {
			note(&vn[pt->vlarb_scope], pt, &st);
			oq_tables_template_vlarb(pt, t);
			oq_tables_engine_vlarb(e, pt);
			if (!starved(pt, used, &st))
				continue;
		}
		if (pt->sl2vl_origin == OQ_ORIGIN_SCOPE) {
			note(&sn[pt->sl2vl_scope], pt, &st);
			if (oq_tables_template_sl2vl(pt, t))
				goto oom;
			if (!starved(pt, used, &st))
				continue;
		}
		note(&tn, pt, &st);
	}
	for (i = 0; p && i < p->n_vlarb; i++)
		if (vn[i].n_ports)
			report(p, e, &vn[i], p->vlarb[i].loc, "vlarb-scope",
			       "the template VLArb", diags);
	for (i = 0; p && i < p->n_sl2vl; i++)
		if (sn[i].n_ports)
			report(p, e, &sn[i], p->sl2vl[i].loc, "sl2vl-scope",
			       "the template SL2VL", diags);
	if (tn.n_ports)
		report(p, e, &tn, nowhere, NULL, NULL, diags);
	free(vn);
	free(sn);
	return 0;
oom:
	free(vn);
	free(sn);
	return -1;
}
