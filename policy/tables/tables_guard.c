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
 * template, with the engine's rewrite, and one error per scope names
 * every VL it would starve, an SL mapped to each, and the first port.  Tables
 * the templates alone starve are what stock OpenSM programs too: one warning.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables_int.h"

/* The SLs a path can carry: any, where the engine chooses them or a
 * qos-level has no SL (the request's SL is granted); else SL 0 (OpenSM's
 * default), every qos-level's and every partition's SL.  Not counted: an
 * SL a request asks for outside every level's SL (OpenSM answers with
 * the level's), and multicast groups' sl= in partitions.conf (mgid
 * lines are not modelled). */
static uint16_t used_sls(const struct oq_binding *b, const struct oq_engine *e)
{
	const struct oq_partitions *parts;
	const struct oq_policy *p;
	uint16_t used = 1;
	size_t i;

	if (e->kind != OQ_ENGINE_QOS || !b)
		return 0xffff;
	p = oq_binding_policy(b);
	for (i = 0; i < p->n_levels; i++) {
		/* A level without an SL grants the SL the request asks
		 * for: any. */
		if (p->levels[i].sl < 0 || p->levels[i].sl >= 16)
			return 0xffff;
		used |= (uint16_t)(1u << p->levels[i].sl);
	}
	parts = oq_binding_partitions(b);
	for (i = 0; parts && i < parts->n; i++)
		if (parts->v[i].sl >= 0 && parts->v[i].sl < 16)
			used |= (uint16_t)(1u << parts->v[i].sl);
	return used;
}

/* The VLs that have a positive weight in either table, as a bit mask. */
static uint16_t weighted_vls(const struct oq_port_tables *pt)
{
	const struct oq_vlarb_table *t[2] = {&pt->vlarb_low, &pt->vlarb_high};
	uint16_t m = 0;
	unsigned int k, i;

	for (k = 0; k < 2; k++)
		for (i = 0; i < t[k]->n && i < OQ_VLARB_MAX; i++)
			if (t[k]->e[i].weight && t[k]->e[i].vl < 16)
				m |= (uint16_t)(1u << t[k]->e[i].vl);
	return m;
}

/* Does this input row's traffic reach the port?  Not from the port
 * itself, nor from a switch port that is down. */
static bool live_input(const struct oq_fabric *f, const struct oq_port *p,
		       unsigned int in)
{
	const struct oq_node *n = p->node;

	if (n->type != OQ_NODE_SWITCH || !p->num)
		return true;
	if (in == p->num || in > n->n_ports)
		return false;
	return in == 0 ||
	       (n->ports[in].present && oq_port_peer(f, &n->ports[in]));
}

struct starve {
	uint16_t vls;	/* the starved VLs */
	uint8_t sl[16]; /* per VL: an SL that maps to it; 16: any SL
			 * (the engine's unseen table) */
};

struct guard_ctx {
	uint16_t used;		 /* SLs a path can carry */
	unsigned int engine_vls; /* VLs an unseen engine table can use */
	struct oq_sl2vl_uniform_memo uniform;
};

/* The starved VLs of a port (out), false when none.  Rows that equal
 * the one before are skipped: most input ports share one table, and
 * where all do only input 0 (always live) is read. */
static bool starved(const struct oq_fabric *f, const struct oq_port_tables *pt,
		    struct guard_ctx *g, struct starve *out)
{
	const struct oq_port *p = pt->port;
	unsigned int vls = oq_port_vls(p), in, sl, vl, n_rows;
	const uint8_t *prev = NULL;
	uint16_t w;

	memset(out, 0, sizeof(*out));
	if (!pt->has_vlarb)
		return false;
	w = weighted_vls(pt);
	if (pt->sl2vl_unknown || !pt->has_sl2vl) {
		/* Unknown engine table: any VL it can use; no SL2VL at all:
		 * everything on VL 0. */
		unsigned int top = pt->sl2vl_unknown ? g->engine_vls : 1;

		if (top > vls)
			top = vls;
		for (vl = 0; vl < top; vl++)
			if (!(w & (1u << vl))) {
				out->vls |= (uint16_t)(1u << vl);
				out->sl[vl] = 16;
			}
		return out->vls != 0;
	}
	n_rows = pt->n_sl2vl;
	if (n_rows > 1 &&
	    oq_sl2vl_rows_uniform(&g->uniform, (const uint8_t(*)[16])pt->sl2vl,
				  n_rows))
		n_rows = 1;
	for (in = 0; in < n_rows; in++) {
		const uint8_t *row = pt->sl2vl[in];

		if (pt->n_sl2vl > 1 && !live_input(f, p, in))
			continue;
		if (prev && !memcmp(prev, row, 16))
			continue;
		prev = row;
		for (sl = 0; sl < 16; sl++) {
			vl = row[sl];
			if (!(g->used & (1u << sl)) || vl == OQ_VL_DROP ||
			    vl >= vls || (w & (1u << vl)) ||
			    (out->vls & (1u << vl)))
				continue;
			out->vls |= (uint16_t)(1u << vl);
			out->sl[vl] = (uint8_t)sl;
		}
	}
	return out->vls != 0;
}

/* A port's VLArb part as the scope set it (its SL2VL is not touched). */
static void restore_vlarb(struct oq_port_tables *pt,
			  const struct oq_port_tables *scope)
{
	pt->vlarb_high = scope->vlarb_high;
	pt->vlarb_low = scope->vlarb_low;
	pt->vl_high_limit = scope->vl_high_limit;
	pt->vlarb_origin = scope->vlarb_origin;
	pt->vlarb_scope = scope->vlarb_scope;
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
	unsigned int vl;

	if (!n->n_ports++) {
		n->first = pt->port;
		n->what = *st;
		n->sl2vl_origin = pt->sl2vl_origin;
		n->sl2vl_scope = pt->sl2vl_scope;
		return;
	}
	/* Every VL any of the ports starves; its SL as first seen. */
	for (vl = 0; vl < 16; vl++)
		if ((st->vls & (1u << vl)) && !(n->what.vls & (1u << vl))) {
			n->what.vls |= (uint16_t)(1u << vl);
			n->what.sl[vl] = st->sl[vl];
		}
}

/* "VL 2" or "VLs 2 and 3" or "VLs 1, 2 and 5". */
static void vl_list(uint16_t vls, char *buf, size_t len)
{
	unsigned int vl, n = 0, k = 0;
	size_t at;

	for (vl = 0; vl < 16; vl++)
		n += (vls >> vl) & 1;
	at = (size_t)snprintf(buf, len, "VL%s", n == 1 ? "" : "s");
	for (vl = 0; vl < 16 && at < len; vl++)
		if (vls & (1u << vl)) {
			k++;
			at += (size_t)snprintf(buf + at, len - at, "%s%u",
					       k == 1	? " "
					       : k == n ? " and "
							: ", ",
					       vl);
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
		if (p) {
			oq_loc_format(&p->sl2vl[n->sl2vl_scope].loc, loc,
				      sizeof(loc));
			snprintf(buf, len, "the sl2vl-scope at %s", loc);
			break;
		}
		/* fall through */
	default:
		snprintf(buf, len, "the template (qos_sl2vl)");
		break;
	}
}

/* Why the VLs must be served: "SL 2 maps to VL 2 and SL 3 to VL 3 under
 * the SL2VL of ...". */
static void why_served(const struct guard_note *n, const struct oq_engine *e,
		       const char *whose, char *buf, size_t len)
{
	char maps[200] = "";
	unsigned int vl, k = 0, cnt = 0, any = 0;
	size_t at = 0;

	for (vl = 0; vl < 16; vl++)
		if (n->what.vls & (1u << vl)) {
			cnt++;
			any |= n->what.sl[vl] == 16;
		}
	if (any) {
		snprintf(buf, len, "routing engine %s can map SLs to %s",
			 e->name, cnt == 1 ? "it" : "them");
		return;
	}
	for (vl = 0; vl < 16 && at < sizeof(maps); vl++) {
		if (!(n->what.vls & (1u << vl)))
			continue;
		k++;
		if (cnt == 1)
			at += (size_t)snprintf(maps + at, sizeof(maps) - at,
					       "SL %u maps to it",
					       n->what.sl[vl]);
		else
			at += (size_t)snprintf(maps + at, sizeof(maps) - at,
					       "%sSL %u %s VL %u",
					       k == 1	  ? ""
					       : k == cnt ? " and "
							  : ", ",
					       n->what.sl[vl],
					       k == 1 ? "maps to" : "to", vl);
	}
	if (e->kind != OQ_ENGINE_QOS)
		snprintf(buf, len,
			 "%s under the SL2VL of %s and routing engine %s can "
			 "give a path any SL",
			 maps, whose, e->name);
	else
		snprintf(buf, len,
			 "%s under the SL2VL of %s, and a path can carry %s",
			 maps, whose, cnt == 1 ? "that SL" : "those SLs");
}

static void report(const struct oq_policy *p, const struct oq_engine *e,
		   const struct guard_note *n, struct oq_loc loc,
		   const char *scope, const char *keeps, struct oq_diags *diags)
{
	char label[160], whose[320], msg[700], vls[64];
	struct oq_diag *d;

	oq_tables_port_label(n->first, label, sizeof(label));
	whose_sl2vl(n, p, e, whose, sizeof(whose));
	why_served(n, e, whose, msg, sizeof(msg));
	vl_list(n->what.vls, vls, sizeof(vls));
	if (scope) {
		d = oq_error(diags, loc,
			     "%s would starve %s on %zu port(s) (first: %s): "
			     "%s; those ports keep %s",
			     scope, vls, n->n_ports, label, msg, keeps);
		oq_diag_hint(d,
			     "give %s a weight in vlarb-high or vlarb-low, "
			     "or map the SLs to weighted VLs",
			     vls);
	} else {
		d = oq_warning(diags, loc,
			       "the tables of %zu port(s) starve %s (first: "
			       "%s): %s, and the VLArb template gives no "
			       "weight (stock OpenSM programs the same)",
			       n->n_ports, vls, label, msg);
		oq_diag_hint(d,
			     "give %s a weight in opensm.conf's "
			     "qos_*vlarb_* templates",
			     vls);
	}
}

bool oq_tables_port_starves(const struct oq_binding *b,
			    const struct oq_fabric *f,
			    const struct oq_engine *e,
			    const struct oq_port_tables *pt)
{
	struct guard_ctx g = {used_sls(b, e), 8, {NULL, 0, false}};
	struct starve st;

	if (e->kind == OQ_ENGINE_OWN && !e->sl2vl)
		g.engine_vls = oq_tables_torus_sw_vls(f);
	return starved(f, pt, &g, &st);
}

int oq_tables_guard(const struct oq_binding *b, const struct oq_fabric *f,
		    const struct oq_templates *t, const struct oq_engine *e,
		    struct oq_fabric_tables *out, struct oq_diags *diags)
{
	const struct oq_policy *p = b ? oq_binding_policy(b) : NULL;
	struct guard_note *vn = NULL, *sn = NULL, tn;
	struct guard_ctx g = {used_sls(b, e), 8, {NULL, 0, false}};
	struct oq_loc nowhere;
	size_t i;

	/* torus-2QoS between switches: VL bits for the dateline, the turn
	 * and the QoS level, as many as the switches' data VLs allow. */
	if (e->kind == OQ_ENGINE_OWN && !e->sl2vl)
		g.engine_vls = oq_tables_torus_sw_vls(f);
	memset(&tn, 0, sizeof(tn));
	memset(&nowhere, 0, sizeof(nowhere));
	if (p) {
		vn = calloc(p->n_vlarb + 1, sizeof(*vn));
		sn = calloc(p->n_sl2vl + 1, sizeof(*sn));
		if (!vn || !sn)
			goto oom;
	}
	for (i = 0; i < out->n; i++) {
		struct oq_port_tables *pt = &out->ports[i], scope;
		int v = pt->vlarb_scope, s = pt->sl2vl_scope;
		struct starve st, now;

		if (!starved(f, pt, &g, &st))
			continue;
		now = st;
		/* Withhold as little as works: the VLArb scope, else the
		 * SL2VL scope (the VLArb scope back), else both.  Notes name
		 * the scopes' tables, as they were (scope). */
		scope = *pt;
		if (v >= 0) {
			oq_tables_template_vlarb(f, pt, t);
			oq_tables_engine_vlarb(f, e, pt);
			if (!starved(f, pt, &g, &now)) {
				note(&vn[v], &scope, &st);
				continue;
			}
		}
		if (s >= 0) {
			if (oq_tables_template_sl2vl(f, out, pt, t))
				goto oom;
			if (v >= 0)
				restore_vlarb(pt, &scope);
			if (!starved(f, pt, &g, &now)) {
				note(&sn[s], &scope, &st);
				continue;
			}
			if (v >= 0) {
				oq_tables_template_vlarb(f, pt, t);
				oq_tables_engine_vlarb(f, e, pt);
			}
			if (!starved(f, pt, &g, &now)) {
				note(&vn[v], &scope, &st);
				note(&sn[s], &scope, &st);
				continue;
			}
		}
		/* The templates (or the engine) starve too: the scopes stay
		 * withheld, both said, and the template finding too. */
		if (v >= 0)
			note(&vn[v], &scope, &st);
		if (s >= 0)
			note(&sn[s], &scope, &st);
		note(&tn, pt, &now);
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
	return -ENOMEM;
}
