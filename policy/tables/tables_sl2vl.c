// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * sl2vl-scope -> SL2VL tables.
 *
 * A switch external port (the output port) has one table per input port;
 * each (in, out) table is decided on its own.  A scope covers it when
 * every key the scope has holds:
 *
 *   group        the switch is in one of the groups;
 *   from / to    the input / output port number is listed (`*` = all);
 *   across-from  the input port's link peer is in one of the groups;
 *   across-to    the output port's link peer is in one of the groups;
 *   across       the input or the output port's link peer is in one of
 *                the groups (traffic crossing a link to a member, either
 *                way; OpenSM copies `across` into both of its lists and
 *                never applies them, so this reading is ours).
 *
 * CA/router ports have one table and no port numbers: a scope covers them
 * through `group`, with `from`/`to` absent or `*` (all ports: an operator
 * writing it over CA ports means those ports); a scope with port numbers
 * or across keys does not apply to them.  An enhanced switch port 0 is the
 * (in 0, out 0) pair: `from`/`to` must list 0, and the across keys never
 * hold (port 0 has no link).
 * First covering scope with a table wins.  A table that would send an SL
 * to a VL the output port does not run keeps its template, with a warning
 * naming the port; VL15 (drop) is always allowed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tables_int.h"

static bool portsel_has(const struct oq_portsel *sel, unsigned int n)
{
	if (sel->all)
		return true;
	return n < 256 && ((sel->bits[n / 64] >> (n % 64)) & 1);
}

static bool peer_in(const struct oq_binding *b, const struct oq_refs *r,
		    const struct oq_port *p)
{
	const struct oq_port *peer;

	if (!p || !p->present)
		return false;
	peer = oq_port_peer(oq_binding_fabric(b), p);
	return peer && oq_binding_in_any(b, r, peer);
}

/* What a scope says of an output port before its input ports are known:
 * the port-level keys are decided once per port, not once per table. */
enum port_cover {
	COVER_NONE = 0, /* no table of this port */
	COVER_ALL,	/* every table of this port */
	COVER_PER_IN,	/* ask the input-port keys per table */
};

static enum port_cover sl2vl_scope_port(const struct oq_binding *b,
					const struct oq_sl2vl_scope *s,
					const struct oq_port *out)
{
	bool pair_keys = s->from.given || s->to.given || s->across.n ||
			 s->across_from.n || s->across_to.n;

	if (!s->has_table)
		return COVER_NONE;
	if (s->groups.n && !oq_binding_in_any(b, &s->groups, out))
		return COVER_NONE;
	if (!pair_keys)
		return COVER_ALL;
	if (out->node->type != OQ_NODE_SWITCH)
		/* One table, no port numbers: `*` (all) still covers it;
		 * numbers and across keys name switch ports only. */
		return (!s->from.given || s->from.all) &&
				       (!s->to.given || s->to.all) &&
				       !s->across.n && !s->across_from.n &&
				       !s->across_to.n
			       ? COVER_ALL
			       : COVER_NONE;
	if (s->to.given && !portsel_has(&s->to, out->num))
		return COVER_NONE;
	if (s->across_to.n && !peer_in(b, &s->across_to, out))
		return COVER_NONE;
	/* `from: *` lists every input port: no input-port key. */
	if ((!s->from.given || s->from.all) && !s->across_from.n &&
	    (!s->across.n || peer_in(b, &s->across, out)))
		return COVER_ALL;
	return COVER_PER_IN;
}

/* The input-port keys of scope s for table (in, out) of a switch port. */
static bool sl2vl_scope_in(const struct oq_binding *b,
			   const struct oq_sl2vl_scope *s,
			   const struct oq_port *out, unsigned int in)
{
	const struct oq_node *node = out->node;
	const struct oq_port *in_port = NULL;

	if (in <= node->n_ports)
		in_port = &node->ports[in];
	if (s->from.given && !portsel_has(&s->from, in))
		return false;
	if (s->across_from.n && !peer_in(b, &s->across_from, in_port))
		return false;
	if (s->across.n && !peer_in(b, &s->across, in_port) &&
	    !peer_in(b, &s->across, out))
		return false;
	return true;
}

/* First SL whose VL the port does not run, or -1. */
static int lacking_sl(const uint8_t *tbl, unsigned int vls)
{
	int sl;

	for (sl = 0; sl < 16; sl++)
		if (tbl[sl] != OQ_VL_DROP && tbl[sl] >= vls)
			return sl;
	return -1;
}

int oq_tables_apply_sl2vl_scopes(const struct oq_binding *b,
				 struct oq_fabric_tables *out,
				 struct oq_port_tables *pt, uint32_t *covers,
				 struct oq_diags *diags)
{
	const struct oq_policy *p = oq_binding_policy(b);
	const struct oq_port *port = pt->port;
	unsigned int vls = oq_port_vls(port), t;
	bool per_in = port->node->type == OQ_NODE_SWITCH && port->num != 0;
	/* The port's rows are edited here, then stored as one block. */
	union oq_sl2vl_scratch sc;
	const uint8_t *fill = NULL;
	bool changed = false, any_per_in = false;
	unsigned int n_decide;
	/* Per scope: warned, cover, lack.  Policies have a few scopes; a
	 * compile runs this for every port. */
	unsigned char small[3 * 16], *warned, *cover;
	signed char *lack;
	size_t si;
	int rc = 0;

	if (!pt->has_sl2vl || !pt->sl2vl || !p->n_sl2vl)
		return 0;
	warned = p->n_sl2vl <= sizeof(small) / 3 ? small
						 : malloc(3 * p->n_sl2vl);
	if (!warned)
		return -ENOMEM;
	memset(warned, 0, p->n_sl2vl);
	cover = warned + p->n_sl2vl;
	lack = (signed char *)cover + p->n_sl2vl;
	/* Per port, not per table: what the port-level keys say, and the
	 * first SL whose VL the port does not run. */
	for (si = 0; si < p->n_sl2vl; si++) {
		cover[si] =
			(unsigned char)sl2vl_scope_port(b, &p->sl2vl[si], port);
		if (cover[si] != COVER_NONE)
			lack[si] = (signed char)lacking_sl(p->sl2vl[si].sl2vl,
							   vls);
		any_per_in |= cover[si] == COVER_PER_IN;
	}
	/* Without an input-port key every table has table 0's winner: decide
	 * it once and give all tables its row. */
	n_decide = any_per_in ? pt->n_sl2vl : 1;
	for (t = 0; t < n_decide; t++) {
		unsigned int in = per_in ? t : 0;
		bool done = false;

		for (si = 0; si < p->n_sl2vl; si++) {
			const struct oq_sl2vl_scope *s = &p->sl2vl[si];
			int bad;

			/* After the winner, only scopes not yet known to
			 * cover a port are asked (for covers[]). */
			if (done && oq_scope_covers_any(covers, si))
				continue;
			if (cover[si] == COVER_NONE ||
			    (cover[si] == COVER_PER_IN &&
			     !sl2vl_scope_in(b, s, port, in)))
				continue;
			if (!oq_scope_covers_any(covers, si))
				covers[si] = port->id;
			if (done)
				continue;
			done = true;
			bad = lack[si];
			if (bad >= 0) {
				char label[160];
				struct oq_diag *d;

				if (warned[si])
					continue;
				warned[si] = 1;
				oq_tables_port_label(port, label,
						     sizeof(label));
				d = oq_warning(
					diags, s->loc,
					"sl2vl-scope maps SL %d to VL %u but "
					"port %s runs %u data VL(s); the port "
					"keeps its template SL2VL",
					bad, s->sl2vl[bad], label, vls);
				oq_diag_hint(d,
					     "map to VLs 0..%u (or 15 to "
					     "drop) on this port",
					     vls - 1);
				continue;
			}
			if (!any_per_in) {
				fill = s->sl2vl;
			} else {
				if (!changed)
					memcpy(sc.row, pt->sl2vl,
					       16 * (size_t)pt->n_sl2vl);
				memcpy(sc.row[t], s->sl2vl, 16);
			}
			changed = true;
			pt->sl2vl_origin = OQ_ORIGIN_SCOPE;
			if (pt->sl2vl_scope < 0)
				pt->sl2vl_scope = (int)si;
		}
	}
	if (changed && fill)
		rc = oq_port_tables_fill_sl2vl(out, pt, fill, pt->n_sl2vl);
	else if (changed)
		rc = oq_port_tables_set_sl2vl(
			out, pt, (const uint8_t(*)[16])sc.row, pt->n_sl2vl);
	if (warned != small)
		free(warned);
	return rc;
}
