// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Tables from the last compile's.  After one port went down, nearly every
 * node of the new fabric is shared with the last one (oq_fabric_derive())
 * with the same link partners; a port's tables depend on nothing else of
 * the fabric (its node's facts and group memberships, the partners of its
 * node's ports for across keys and live inputs), so those ports take the
 * last tables and only the others are compiled: the compile is
 * proportional to the change, not to the fabric.
 *
 * The result must be the full compile's, findings included, and a
 * finding names the first port in fabric order or counts ports: so only
 * from a compile that said nothing, when the ports compiled say nothing
 * either and every scope still covers a port (one noted per scope, kept
 * while its port's tables are kept).  Anything else: the caller compiles
 * in full.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/htab.h>
#include <osmqos/match.h>

#include "tables_int.h"

#define CANNOT 1

/* Per node id of f: whether its ports keep prev's tables. */
enum keep { UNKNOWN = 0, KEEP, COMPILE };

struct derive {
	const struct oq_fabric *f, *prev_f;
	const struct oq_fabric_tables *prev;
	struct oq_fabric_tables *out;
	uint8_t *keep; /* enum keep, by node id */
	/* prev's SL2VL blocks to out's: a block's rows are stored once. */
	struct oq_htab rows_of;
	uint8_t (**rows)[16];
	size_t n_rows, cap_rows;
	const void *last_prev;
	uint8_t (*last_new)[16];
};

/* Whether prev_f holds node n itself (a node f shares with it). */
static bool shared(const struct oq_fabric *prev_f, const struct oq_node *n)
{
	uint32_t at;

	if (n->id >= prev_f->n_node_ids)
		return false;
	at = prev_f->node_pos[n->id];
	return at < prev_f->n_nodes && prev_f->nodes[at] == n;
}

static struct oq_port *peer_of(const struct oq_fabric *f, uint32_t id)
{
	return id < f->n_port_ids ? f->peer[id] : NULL;
}

static bool same_pkeys(const struct oq_fabric *fa, const struct oq_port *a,
		       const struct oq_fabric *fb, const struct oq_port *b)
{
	size_t na, nb;
	const uint16_t *ka = oq_port_pkeys(fa, a, &na);
	const uint16_t *kb = oq_port_pkeys(fb, b, &nb);

	return na == nb && (!na || !memcmp(ka, kb, na * sizeof(*ka)));
}

/* Whether nodes a and b have the same ports present (a port-name names
 * a port only while it is). */
static bool same_ports_present(const struct oq_node *a, const struct oq_node *b)
{
	unsigned int j;

	if (a->n_ports != b->n_ports)
		return false;
	for (j = 0; j <= a->n_ports; j++)
		if (a->ports[j].present != b->ports[j].present)
			return false;
	return true;
}

/* Whether a (a port of f) is in the same groups as b (of prev_f) is: a
 * group takes a port by its node's type, GUID and name (a port-name, of
 * a port present, whose node is the first of that name: the same node
 * id in both fabrics, oq_binding_names_same()), its own GUID and
 * partitions, and a switch's ports by port 0's (bind.c). */
static bool same_groups(const struct derive *d, const struct oq_port *a,
			const struct oq_port *b)
{
	const struct oq_node *na = a->node, *nb = b->node;

	return a->id == b->id && a->guid == b->guid && na->type == nb->type &&
	       na->guid == nb->guid &&
	       !strcmp(oq_node_name(na), oq_node_name(nb)) &&
	       same_ports_present(na, nb) &&
	       na->ports[0].guid == nb->ports[0].guid &&
	       same_pkeys(d->f, a, d->prev_f, b) &&
	       same_pkeys(d->f, &na->ports[0], d->prev_f, &nb->ports[0]);
}

static enum keep keep_of(struct derive *d, const struct oq_node *n)
{
	const struct oq_port *a, *b;
	unsigned int j;

	if (d->keep[n->id] != UNKNOWN)
		return d->keep[n->id];
	d->keep[n->id] = COMPILE;
	if (!shared(d->prev_f, n))
		return COMPILE;
	/* The partners: the same ports, or ports of nodes read again that
	 * are in the same groups (across keys read a partner's groups,
	 * the templates and live inputs only that there is one). */
	for (j = 0; j <= n->n_ports; j++) {
		a = peer_of(d->f, n->ports[j].id);
		b = peer_of(d->prev_f, n->ports[j].id);
		if (a != b && (!a || !b || !same_groups(d, a, b)))
			return COMPILE;
	}
	d->keep[n->id] = KEEP;
	return KEEP;
}

/* prev's tables of p onto pt, their rows a block of out's store. */
static int keep_port(struct derive *d, struct oq_port_tables *pt,
		     const struct oq_port_tables *was)
{
	uint8_t(**v)[16];
	int64_t at;
	int rc;

	*pt = *was;
	pt->sl2vl_drop = NULL;
	if (!was->sl2vl)
		return 0;
	if (was->sl2vl == d->last_prev) {
		pt->sl2vl = d->last_new;
		return 0;
	}
	at = oq_htab_get(&d->rows_of, (uintptr_t)was->sl2vl);
	if (at >= 0) {
		pt->sl2vl = d->rows[at];
	} else {
		pt->sl2vl = NULL;
		rc = oq_port_tables_set_sl2vl(d->out, pt,
					      (const uint8_t(*)[16])was->sl2vl,
					      was->n_sl2vl);
		if (rc)
			return rc;
		if (d->n_rows == d->cap_rows) {
			size_t cap = d->cap_rows ? 2 * d->cap_rows : 16;

			v = realloc(d->rows, cap * sizeof(*v));
			if (!v)
				return -ENOMEM;
			d->rows = v;
			d->cap_rows = cap;
		}
		if (oq_htab_put(&d->rows_of, (uintptr_t)was->sl2vl,
				(uint32_t)d->n_rows, NULL) < 0)
			return -ENOMEM;
		d->rows[d->n_rows++] = pt->sl2vl;
	}
	d->last_prev = was->sl2vl;
	d->last_new = pt->sl2vl;
	return 0;
}

/* prev's tables of f's port p, NULL when prev has none of it. */
static const struct oq_port_tables *was_of(const struct derive *d,
					   const struct oq_port *p)
{
	uint32_t at = oq_port_index(d->prev_f, p);

	if (at >= d->prev->n || d->prev->ports[at].port != p)
		return NULL;
	return &d->prev->ports[at];
}

/* A port whose tables scope si of the covers' layout (vlarb-scopes, then
 * sl2vl-scopes) won: a port it covers.  The id, or COVERS_NONE. */
static uint32_t winner_of(const struct oq_fabric_tables *t, size_t n_vlarb,
			  size_t si)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (si < n_vlarb
			    ? t->ports[i].vlarb_scope == (int)si
			    : t->ports[i].sl2vl_scope == (int)(si - n_vlarb))
			return t->ports[i].port->id;
	return OQ_TABLES_COVERS_NONE;
}

/* Every scope covers a port still: the one prev noted where its tables
 * were kept (a port of a long-lived node, so the next derive finds it
 * again), else one compiled now (noted in out->covers by the compile),
 * else one whose tables the scope won (a pass over the ports, when the
 * port noted went). */
static bool scopes_covered(struct derive *d, size_t n_vlarb)
{
	size_t si;

	for (si = 0; si < d->out->n_covers; si++) {
		uint32_t id = d->prev->covers[si], at;

		/* ANY is the engine's case, which is never derived. */
		if (id < d->f->n_port_ids) {
			at = d->f->port_pos[id];
			if (at < d->f->n_ports &&
			    keep_of(d, d->f->ports[at]->node) == KEEP) {
				d->out->covers[si] = id;
				continue;
			}
		}
		if (id == OQ_TABLES_COVERS_NONE ||
		    oq_scope_covers_any(d->out->covers, si))
			continue;
		d->out->covers[si] = winner_of(d->out, n_vlarb, si);
		if (!oq_scope_covers_any(d->out->covers, si))
			return false;
	}
	return true;
}

static int derive(struct derive *d, const struct oq_binding *b,
		  const struct oq_templates *t, const struct oq_engine *e,
		  size_t *n_compiled)
{
	const struct oq_policy *pol = b ? oq_binding_policy(b) : NULL;
	const struct oq_fabric *f = d->f;
	struct oq_fabric_tables *out = d->out;
	struct oq_clip_note *clips;
	struct oq_diags said;
	size_t i;
	int rc = 0;

	oq_diags_init(&said);
	out->ports = calloc(f->n_ports ? f->n_ports : 1, sizeof(*out->ports));
	out->kept = calloc(f->n_ports ? f->n_ports : 1, sizeof(*out->kept));
	clips = calloc(pol ? pol->n_vlarb + 1 : 1, sizeof(*clips));
	if (!out->ports || !out->kept || !clips ||
	    oq_tables_covers_init(out, pol) ||
	    out->n_covers != d->prev->n_covers) {
		rc = out->ports && out->kept && clips && out->covers ? CANNOT
								     : -ENOMEM;
		goto done;
	}
	out->n = f->n_ports;
	for (i = 0; i < f->n_ports && !rc; i++) {
		const struct oq_port *p = f->ports[i];
		const struct oq_port_tables *was = NULL;
		struct oq_port_tables *pt = &out->ports[i];

		if (keep_of(d, p->node) == KEEP)
			was = was_of(d, p);
		if (was) {
			rc = keep_port(d, pt, was);
			out->kept[i] = true;
			continue;
		}
		(*n_compiled)++;
		rc = oq_tables_compile_port(b, f, t, e, out, pt, p, clips,
					    &said);
		if (!rc &&
		    (said.n || said.n_dropped ||
		     (pt->vlarb_scope >= 0 && clips[pt->vlarb_scope].n_ports) ||
		     oq_tables_port_starves(b, f, e, pt)))
			rc = CANNOT;
	}
	if (!rc && !scopes_covered(d, pol ? pol->n_vlarb : 0))
		rc = CANNOT;
	out->quiet = true;
done:
	oq_diags_free(&said);
	free(clips);
	return rc;
}

int oq_tables_compile_derived(const struct oq_binding *b,
			      const struct oq_fabric *f,
			      const struct oq_templates *t,
			      const struct oq_engine *engine,
			      const struct oq_fabric *prev_f,
			      const struct oq_fabric_tables *prev,
			      struct oq_fabric_tables *out, size_t *n_compiled)
{
	struct derive d = {.f = f, .prev_f = prev_f, .prev = prev, .out = out};
	struct oq_templates dflt;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!t) {
		oq_templates_default(&dflt);
		t = &dflt;
	}
	*n_compiled = 0;
	if (!f || !prev_f || !prev || !prev->quiet || !prev->covers ||
	    !engine || engine->kind != OQ_ENGINE_QOS || engine->sl2vl ||
	    engine->vlarb || prev->n != prev_f->n_ports ||
	    /* node-type SELF: which port runs the SM. */
	    f->sm_port_guid != prev_f->sm_port_guid ||
	    (b &&
	     (oq_binding_fabric(b) != f || !oq_binding_names_same(b, prev_f))))
		return CANNOT;
	d.keep = calloc(f->n_node_ids ? f->n_node_ids : 1, 1);
	if (!d.keep)
		return -ENOMEM;
	rc = derive(&d, b, t, engine, n_compiled);
	free(d.keep);
	free(d.rows);
	oq_htab_free(&d.rows_of);
	if (rc)
		oq_fabric_tables_free(out);
	return rc;
}
