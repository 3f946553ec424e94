// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The table compiler: every port's SL2VL, VLArb and VLHighLimit.
 *
 * First every port gets what OpenSM 3.3.23's osm_qos_setup() programs from
 * the per-port-type templates (opensm.conf qos_ca_/qos_swe_/qos_sw0_/
 * qos_rtr_), quirks included: which ports are programmed at all, VLs
 * masked with the OperVLs mask, VLArb written in two 32-entry blocks.
 * Then the policy's qos-setup scopes replace the tables of the ports they
 * cover (tables_vlarb.c, tables_sl2vl.c).  docs/semantics.md explains it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables_int.h"

const char *oq_table_origin_name(enum oq_table_origin o)
{
	switch (o) {
	case OQ_ORIGIN_SCOPE:
		return "scope";
	case OQ_ORIGIN_ENGINE:
		return "routing-engine";
	case OQ_ORIGIN_INTENT:
		return "intent";
	default:
		return "template";
	}
}

void oq_tables_port_label(const struct oq_port *p, char *buf, size_t len)
{
	char name[96];

	if (oq_port_name(p, name, sizeof(name)) < 0)
		snprintf(name, sizeof(name), "port %u", p->num);
	snprintf(buf, len, "%s (0x%016" PRIx64 ")", name, p->guid);
}

/* Template VLArb as OpenSM hands it to the routing engine: the first
 * entries that fit the port's blocks, VLs not yet masked (OpenSM masks
 * after the engine's update_vlarb; oq_tables_engine_vlarb does both). */
static void template_vlarb(struct oq_vlarb_table *dst,
			   const struct oq_vlarb_table *src, unsigned int cap)
{
	unsigned int n = oq_vlarb_effective_cap(cap), i;

	memset(dst, 0, sizeof(*dst));
	if (n > src->n)
		n = src->n;
	for (i = 0; i < n; i++) {
		dst->e[i].vl = src->e[i].vl;
		dst->e[i].weight = src->e[i].weight;
	}
	dst->n = (uint8_t)n;
}

static void template_sl2vl(uint8_t *dst, const uint8_t *src, unsigned mask)
{
	unsigned int sl;

	for (sl = 0; sl < 16; sl++) {
		unsigned int vl = src[sl] & 0xf;

		dst[sl] = (uint8_t)(vl == OQ_VL_DROP ? vl : vl & mask);
	}
}

/* What OpenSM programs on a port at all: the template kind, whether it
 * gets VLArb and SL2VL, and how many SL2VL tables (one per input port). */
struct port_plan {
	const struct oq_qos_template *tmpl;
	bool vlarb, sl2vl;
	unsigned int n_tables;
};

static void plan_port(const struct oq_fabric *f, const struct oq_port *p,
		      const struct oq_templates *t, struct port_plan *pl)
{
	const struct oq_node *node = p->node;
	enum oq_port_kind kind = oq_port_kind(p);
	bool programmed, sl2vl_cap;

	if ((unsigned int)kind >= OQ_KIND_MAX)
		kind = OQ_KIND_CA;
	pl->tmpl = &t->t[kind];
	pl->n_tables = 1;
	if (node->type == OQ_NODE_SWITCH && p->num == 0) {
		/* Base port 0 is skipped; enhanced port 0 gets sw0. */
		programmed = node->enhanced_port0;
		sl2vl_cap = p->sl2vl_cap;
	} else if (node->type == OQ_NODE_SWITCH) {
		/* External ports: only those whose link is up; SL2VL only
		 * when port 0 advertises IsSLMappingSupported. */
		programmed = oq_port_peer(f, p) != NULL;
		sl2vl_cap = node->ports[0].sl2vl_cap;
		/* One table per input port 0..n_ports (uint8_t count). */
		pl->n_tables = node->n_ports < 255 ? node->n_ports + 1u : 255;
	} else {
		programmed = true;
		sl2vl_cap = p->sl2vl_cap;
	}
	pl->vlarb = programmed && p->vl_cap > 1;
	pl->sl2vl = programmed && sl2vl_cap;
}

void oq_tables_template_vlarb(const struct oq_fabric *f,
			      struct oq_port_tables *pt,
			      const struct oq_templates *t)
{
	const struct oq_port *p = pt->port;
	struct port_plan pl;

	plan_port(f, p, t, &pl);
	pt->has_vlarb = pl.vlarb;
	pt->vlarb_origin = OQ_ORIGIN_TEMPLATE;
	pt->vlarb_scope = -1;
	memset(&pt->vlarb_high, 0, sizeof(pt->vlarb_high));
	memset(&pt->vlarb_low, 0, sizeof(pt->vlarb_low));
	pt->vl_high_limit = 0;
	if (!pt->has_vlarb)
		return;
	template_vlarb(&pt->vlarb_high, &pl.tmpl->vlarb_high,
		       p->vlarb_high_cap);
	template_vlarb(&pt->vlarb_low, &pl.tmpl->vlarb_low, p->vlarb_low_cap);
	pt->vl_high_limit = pl.tmpl->high_limit;
}

int oq_tables_template_sl2vl(const struct oq_fabric *f,
			     struct oq_fabric_tables *out,
			     struct oq_port_tables *pt,
			     const struct oq_templates *t)
{
	const struct oq_port *p = pt->port;
	struct port_plan pl;
	uint8_t row[16];
	int rc;

	plan_port(f, p, t, &pl);
	pt->sl2vl_origin = OQ_ORIGIN_TEMPLATE;
	pt->sl2vl_scope = -1;
	pt->sl2vl_unknown = false;
	pt->has_sl2vl = pl.sl2vl;
	if (!pt->has_sl2vl) {
		oq_port_tables_clear_sl2vl(pt);
		return 0;
	}
	/* Every input port's row is the same template row: one block for
	 * all ports of a kind with the same VLs. */
	template_sl2vl(row, pl.tmpl->sl2vl, oq_port_vl_mask(p));
	rc = oq_port_tables_fill_sl2vl(out, pt, row, pl.n_tables);
	if (rc) {
		oq_port_tables_clear_sl2vl(pt);
		pt->has_sl2vl = false;
	}
	return rc;
}

/* Fill one port from its template.  Returns 0 or -ENOMEM. */
static int template_port(const struct oq_fabric *f,
			 struct oq_fabric_tables *out,
			 struct oq_port_tables *pt, const struct oq_port *p,
			 const struct oq_templates *t)
{
	pt->port = p;
	oq_tables_template_vlarb(f, pt, t);
	return oq_tables_template_sl2vl(f, out, pt, t);
}

static void clip_warnings(const struct oq_policy *p,
			  const struct oq_clip_note *clips,
			  struct oq_diags *diags)
{
	size_t s;

	for (s = 0; s < p->n_vlarb; s++) {
		char label[160];
		struct oq_diag *d;

		if (!clips[s].n_ports)
			continue;
		oq_tables_port_label(clips[s].first, label, sizeof(label));
		d = oq_warning(diags, p->vlarb[s].loc,
			       "vlarb-scope has more weighted entries than %zu "
			       "port(s) can hold (first: %s); the extra "
			       "entries are dropped",
			       clips[s].n_ports, label);
		oq_diag_hint(d, "VLArbitrationHigh/LowCap limit the entries; "
				"OpenSM writes at most 32 when the cap is 64");
	}
}

/* Scopes that cover no port: the tables of this fabric ignore them. */
static void unused_scope_warnings(const struct oq_policy *p,
				  const uint32_t *vlarb, const uint32_t *sl2vl,
				  struct oq_diags *diags)
{
	size_t s;

	for (s = 0; s < p->n_vlarb; s++)
		if (!oq_scope_covers_any(vlarb, s))
			oq_diag_hint(oq_warning(diags, p->vlarb[s].loc,
						"vlarb-scope covers no port of "
						"this fabric that has VLArb "
						"tables"),
				     "check its group and across names "
				     "against the fabric");
	for (s = 0; s < p->n_sl2vl; s++)
		if (!oq_scope_covers_any(sl2vl, s) && p->sl2vl[s].has_table)
			oq_diag_hint(oq_warning(diags, p->sl2vl[s].loc,
						"sl2vl-scope covers no port of "
						"this fabric that has SL2VL "
						"tables"),
				     "check its group, from/to and across "
				     "keys against the fabric (port "
				     "numbers and across keys name switch "
				     "ports only)");
}

/* sl2vl-scopes where the routing engine chooses SLs: not applied. */
static void engine_sl2vl_warnings(const struct oq_policy *p,
				  const struct oq_engine *e,
				  struct oq_diags *diags)
{
	size_t s;

	for (s = 0; s < p->n_sl2vl; s++)
		if (p->sl2vl[s].has_table)
			oq_diag_hint(
				oq_warning(
					diags, p->sl2vl[s].loc,
					"sl2vl-scope does not apply: routing "
					"engine %s chooses path SLs for "
					"deadlock freedom, so SL2VL stays "
					"%s",
					e->name,
					e->kind == OQ_ENGINE_OWN
						? "the engine's"
						: "the template's (qos_sl2vl)"),
				"remove the scope, or set qos_sl2vl in "
				"opensm.conf to the mapping the engine "
				"expects");
}

int oq_tables_compile(const struct oq_binding *b, const struct oq_fabric *f,
		      const struct oq_templates *t,
		      struct oq_fabric_tables *out, struct oq_diags *diags)
{
	return oq_tables_compile_engine(b, f, t, NULL, out, diags);
}

/* Findings said so far, those kept and those dropped. */
static size_t said(const struct oq_diags *d)
{
	return d->n + d->n_dropped;
}

int oq_tables_covers_init(struct oq_fabric_tables *out,
			  const struct oq_policy *pol)
{
	size_t n = pol ? pol->n_vlarb + pol->n_sl2vl : 0, i;

	out->covers = malloc((n ? n : 1) * sizeof(*out->covers));
	if (!out->covers)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		out->covers[i] = OQ_TABLES_COVERS_NONE;
	out->n_covers = n;
	return 0;
}

/* The policy's scopes onto one port's template tables. */
static int apply_scopes(const struct oq_binding *b, const struct oq_engine *e,
			struct oq_fabric_tables *out, struct oq_port_tables *pt,
			struct oq_clip_note *clips, struct oq_diags *diags)
{
	const struct oq_policy *pol = b ? oq_binding_policy(b) : NULL;

	if (!pol || (!pol->n_vlarb && !pol->n_sl2vl))
		return 0;
	oq_tables_apply_vlarb_scopes(b, pt, clips, out->covers, diags);
	if (e->kind != OQ_ENGINE_QOS)
		return 0;
	return oq_tables_apply_sl2vl_scopes(b, out, pt,
					    out->covers + pol->n_vlarb, diags);
}

int oq_tables_compile_port(const struct oq_binding *b,
			   const struct oq_fabric *f,
			   const struct oq_templates *t,
			   const struct oq_engine *e,
			   struct oq_fabric_tables *out,
			   struct oq_port_tables *pt, const struct oq_port *p,
			   struct oq_clip_note *clips, struct oq_diags *diags)
{
	int rc = template_port(f, out, pt, p, t);

	if (!rc)
		rc = apply_scopes(b, e, out, pt, clips, diags);
	if (!rc)
		oq_tables_engine_vlarb(f, e, pt);
	return rc;
}

int oq_tables_compile_engine(const struct oq_binding *b,
			     const struct oq_fabric *f,
			     const struct oq_templates *t,
			     const struct oq_engine *engine,
			     struct oq_fabric_tables *out,
			     struct oq_diags *diags)
{
	const struct oq_policy *pol;
	struct oq_clip_note *clips = NULL;
	struct oq_engine qos_engine;
	struct oq_templates dflt;
	struct oq_diags scratch;
	int rc = -ENOMEM;
	size_t i, n_said;

	memset(out, 0, sizeof(*out));
	if (!f)
		return -EINVAL;
	if (!t) {
		oq_templates_default(&dflt);
		t = &dflt;
	}
	if (!engine) {
		oq_engine_by_name(&qos_engine, NULL);
		engine = &qos_engine;
	}
	oq_diags_init(&scratch);
	if (!diags)
		diags = &scratch;
	n_said = said(diags);
	if (b && oq_binding_fabric(b) != f)
		b = NULL; /* bound to another fabric: its sets do not apply */
	pol = b ? oq_binding_policy(b) : NULL;

	out->ports = calloc(f->n_ports ? f->n_ports : 1, sizeof(*out->ports));
	clips = calloc(pol ? pol->n_vlarb + 1 : 1, sizeof(*clips));
	if (!out->ports || !clips || oq_tables_covers_init(out, pol))
		goto fail;
	out->n = f->n_ports;
	/* The templates, then the scopes, each over every port: a pass
	 * fills port after port with one row, which the store finds
	 * without hashing it (sl2vl_store.c). */
	for (i = 0; i < f->n_ports; i++) {
		rc = template_port(f, out, &out->ports[i], f->ports[i], t);
		if (rc)
			goto fail;
	}
	for (i = 0; i < f->n_ports; i++) {
		rc = apply_scopes(b, engine, out, &out->ports[i], clips, diags);
		if (rc)
			goto fail;
	}
	if (pol && (pol->n_vlarb || pol->n_sl2vl)) {
		clip_warnings(pol, clips, diags);
		if (engine->kind != OQ_ENGINE_QOS) {
			engine_sl2vl_warnings(pol, engine, diags);
			for (i = 0; i < pol->n_sl2vl; i++)
				out->covers[pol->n_vlarb + i] =
					OQ_TABLES_COVERS_ANY;
		}
		unused_scope_warnings(pol, out->covers,
				      out->covers + pol->n_vlarb, diags);
	}
	rc = oq_tables_engine_apply(f, engine, out);
	if (!rc)
		rc = oq_tables_guard(b, f, t, engine, out, diags);
	if (rc)
		goto fail;
	out->quiet = said(diags) == n_said;
	free(clips);
	oq_diags_free(&scratch);
	return 0;
fail:
	free(clips);
	oq_diags_free(&scratch);
	oq_fabric_tables_free(out);
	return rc;
}
