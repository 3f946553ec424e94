// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * vlarb-scope -> a port's VLArb high/low tables and VLHighLimit.
 *
 * A scope covers the ports of its `group` (a member switch brings all its
 * ports) and, with `across`, the ports whose link peer is in one of those
 * groups (the egress ports toward the members): the union, as the original
 * QoS policy RFC describes `group: Storage` + `across: Storage` ("the ports
 * of Storage and the ports connected to them").  A scope with neither key
 * covers every port.  The first covering scope wins, as with match
 * rules; what it does not set (vlarb-high, vlarb-low or vl-high-limit)
 * stays the template's.  A VL the port does not run is never wrapped: the
 * port keeps its template and a warning names it.
 */
#include <stdlib.h>
#include <string.h>

#include "tables_int.h"

static bool vlarb_scope_covers(const struct oq_binding *b,
			       const struct oq_vlarb_scope *s,
			       const struct oq_port *p)
{
	const struct oq_port *peer;

	if (!s->groups.n && !s->across.n)
		return true;
	if (s->groups.n && oq_binding_in_any(b, &s->groups, p))
		return true;
	if (!s->across.n)
		return false;
	peer = oq_port_peer(oq_binding_fabric(b), p);
	return peer && oq_binding_in_any(b, &s->across, peer);
}

/* First entry (within what the port holds) whose VL the port lacks, -1. */
static int lacking_vl(const struct oq_vlarb_entry *e, size_t n,
		      unsigned int cap, unsigned int vls)
{
	size_t i;

	if (n > cap)
		n = cap;
	for (i = 0; i < n; i++)
		if (e[i].vl >= vls)
			return e[i].vl;
	return -1;
}

static bool drops_weighted(const struct oq_vlarb_entry *e, size_t n,
			   unsigned int cap)
{
	size_t i;

	for (i = cap; i < n; i++)
		if (e[i].weight)
			return true;
	return false;
}

static void fill(struct oq_vlarb_table *dst, const struct oq_vlarb_entry *e,
		 size_t n, unsigned int cap)
{
	size_t i;

	memset(dst, 0, sizeof(*dst));
	if (n > cap)
		n = cap;
	for (i = 0; i < n; i++) {
		dst->e[i].vl = e[i].vl;
		dst->e[i].weight = e[i].weight;
	}
	dst->n = (uint8_t)n;
}

static void apply_scope(const struct oq_binding *b, size_t si,
			struct oq_port_tables *pt, struct oq_clip_note *clip,
			struct oq_diags *diags)
{
	const struct oq_vlarb_scope *s = &oq_binding_policy(b)->vlarb[si];
	const struct oq_port *p = pt->port;
	unsigned int high_cap = oq_vlarb_effective_cap(p->vlarb_high_cap);
	unsigned int low_cap = oq_vlarb_effective_cap(p->vlarb_low_cap);
	unsigned int vls = oq_port_vls(p);
	int bad = -1;

	if (s->has_high)
		bad = lacking_vl(s->high, s->n_high, high_cap, vls);
	if (bad < 0 && s->has_low)
		bad = lacking_vl(s->low, s->n_low, low_cap, vls);
	if (bad >= 0) {
		char label[160];
		struct oq_diag *d;

		oq_tables_port_label(p, label, sizeof(label));
		d = oq_warning(
			diags, s->loc,
			"vlarb-scope uses VL %d but port %s runs %u data "
			"VL(s); the port keeps its template VLArb",
			bad, label, vls);
		oq_diag_hint(d,
			     "use VLs 0..%u on this port, or keep it out "
			     "of the scope",
			     vls - 1);
		return;
	}
	if ((s->has_high && drops_weighted(s->high, s->n_high, high_cap)) ||
	    (s->has_low && drops_weighted(s->low, s->n_low, low_cap))) {
		if (!clip->n_ports)
			clip->first = p;
		clip->n_ports++;
	}
	if (s->has_high)
		fill(&pt->vlarb_high, s->high, s->n_high, high_cap);
	if (s->has_low)
		fill(&pt->vlarb_low, s->low, s->n_low, low_cap);
	if (s->vl_high_limit >= 0)
		pt->vl_high_limit =
			(uint8_t)(s->vl_high_limit > 255 ? 255
							 : s->vl_high_limit);
	pt->vlarb_origin = OQ_ORIGIN_SCOPE;
	pt->vlarb_scope = (int)si;
}

void oq_tables_apply_vlarb_scopes(const struct oq_binding *b,
				  struct oq_port_tables *pt,
				  struct oq_clip_note *clips, uint32_t *covers,
				  struct oq_diags *diags)
{
	const struct oq_policy *pol = oq_binding_policy(b);
	bool applied = false;
	size_t si;

	if (!pt->has_vlarb)
		return; /* OpenSM programs no VLArb here (1 VL, port down) */
	for (si = 0; si < pol->n_vlarb; si++) {
		/* After the winner, only scopes not yet known to cover a
		 * port are asked (for covers[]). */
		if (applied && oq_scope_covers_any(covers, si))
			continue;
		if (!vlarb_scope_covers(b, &pol->vlarb[si], pt->port))
			continue;
		if (!oq_scope_covers_any(covers, si))
			covers[si] = pt->port->id;
		if (!applied)
			apply_scope(b, si, pt, &clips[si], diags);
		applied = true;
	}
}
