// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A fabric built from the one before it.  A sweep after one port went
 * down finds a handful of nodes changed among thousands; the new fabric
 * shares the others with the old one (a reference each) instead of
 * copying them, and what does differ for a shared node -- its ports'
 * link partners, positions, a switch's routes -- is the fabric's, kept by
 * id (fabric.h).  A changed node comes back under its old ids, so what a
 * later stage keeps by port id stays its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>

#include "fabric_int.h"

struct oq_fabric *oq_fabric_derive(const struct oq_fabric *prev)
{
	struct oq_fabric *f = oq_fabric_new();
	uint32_t i;

	if (!f || !prev)
		goto fail;
	if (oq_fabric_reserve_ids(f, prev->n_port_ids, prev->n_node_ids))
		goto fail;
	f->n_port_ids = prev->n_port_ids;
	f->n_node_ids = prev->n_node_ids;
	if (prev->n_port_ids)
		memcpy(f->peer, prev->peer,
		       prev->n_port_ids * sizeof(*f->peer));
	for (i = 0; i < prev->n_node_ids; i++) {
		f->lft[i] = prev->lft[i];
		if (f->lft[i])
			__atomic_add_fetch(&f->lft[i]->refs, 1,
					   __ATOMIC_RELAXED);
	}
	f->sm_port_guid = prev->sm_port_guid;
	f->subnet_prefix = prev->subnet_prefix;
	f->live = prev->live;
	f->derived = true;
	f->from = prev;
	return f;
fail:
	oq_fabric_free(f);
	return NULL;
}

int oq_fabric_share_node(struct oq_fabric *f, struct oq_node *n)
{
	if (!f || !n || f->finalized || n->id >= f->n_node_ids)
		return -EINVAL;
	if (oq_fabric_nodes_room(f))
		return -ENOMEM;
	__atomic_add_fetch(&n->refs, 1, __ATOMIC_RELAXED);
	f->nodes[f->n_nodes++] = n;
	return 0;
}

/* Whether q is a port of one of f's nodes. */
static bool in_fabric(const struct oq_fabric *f, const struct oq_port *q)
{
	return oq_fabric_node_at(f, q->node) != UINT32_MAX;
}

static size_t present_ports(const struct oq_node *nd)
{
	size_t n = 0;
	unsigned int j;

	for (j = 0; j <= nd->n_ports; j++)
		n += nd->ports[j].present;
	return n;
}

/*
 * Positions from prev's: a node f shares with prev brings its run of
 * ports from prev's arrays (no port of it is read), a node of f's own is
 * walked.  Then the ports of f's own nodes must be linked both ways to
 * ports of f: -EINVAL when not (the builder left a link half made).
 */
int oq_fabric_derive_positions(struct oq_fabric *f,
			       const struct oq_fabric *prev)
{
	size_t i, n = 0, k;
	unsigned int j;

	for (i = 0; i < f->n_nodes; i++) {
		struct oq_node *nd = f->nodes[i];
		uint32_t at = oq_fabric_node_at(prev, nd);

		if (at != UINT32_MAX) {
			n += prev->first_port[at + 1] - prev->first_port[at];
			continue;
		}
		if (nd->owner == f)
			oq_node_inherit_port0(nd);
		n += present_ports(nd);
	}
	if (oq_fabric_positions_room(f, n))
		return -ENOMEM;
	n = 0;
	for (i = 0; i < f->n_nodes; i++) {
		struct oq_node *nd = f->nodes[i];
		uint32_t at = oq_fabric_node_at(prev, nd), a, b;

		f->node_pos[nd->id] = (uint32_t)i;
		f->node_id_at[i] = nd->id;
		f->first_port[i] = (uint32_t)n;
		if (at != UINT32_MAX) {
			a = prev->first_port[at];
			b = prev->first_port[at + 1];
			memcpy(f->ports + n, prev->ports + a,
			       (b - a) * sizeof(*f->ports));
			memcpy(f->port_id_at + n, prev->port_id_at + a,
			       (b - a) * sizeof(*f->port_id_at));
			for (k = a; k < b; k++)
				f->port_pos[prev->port_id_at[k]] =
					(uint32_t)(n + k - a);
			n += b - a;
			continue;
		}
		n = oq_fabric_place_ports(f, nd, n);
	}
	f->first_port[f->n_nodes] = (uint32_t)n;
	f->n_ports = n;
	for (i = 0; i < f->n_nodes; i++) {
		const struct oq_node *nd = f->nodes[i];

		if (oq_fabric_node_at(prev, nd) != UINT32_MAX)
			continue;
		for (j = 0; j <= nd->n_ports; j++) {
			const struct oq_port *p = &nd->ports[j];
			const struct oq_port *q = f->peer[p->id];

			if (q && (!in_fabric(f, q) || f->peer[q->id] != p))
				return -EINVAL;
		}
	}
	return 0;
}

/*
 * prev's nodes f does not share: a shared node's port still linked to
 * one of their ports means the builder missed a change (-EINVAL); the
 * links and routes f copied of those that went away are dropped.
 */
int oq_fabric_derive_check(struct oq_fabric *f, const struct oq_fabric *prev)
{
	size_t i;
	unsigned int j;

	for (i = 0; i < prev->n_nodes; i++) {
		const struct oq_node *pn = prev->nodes[i];
		uint32_t id = prev->node_id_at[i], at = f->node_pos[id];
		bool gone;

		if (at < f->n_nodes && f->nodes[at] == pn)
			continue;
		/* Replaced: a node of f's own holds its ids now. */
		gone = at >= f->n_nodes;
		for (j = 0; j <= pn->n_ports; j++) {
			const struct oq_port *p = &pn->ports[j];
			const struct oq_port *q = prev->peer[p->id];

			if (gone)
				f->peer[p->id] = NULL;
			if (q && in_fabric(f, q) && f->peer[q->id] == p)
				return -EINVAL;
		}
		if (gone && f->lft[id]) {
			oq_lft_put(f->lft[id]);
			f->lft[id] = NULL;
		}
	}
	return 0;
}

/* A copy of n under its ids (its ports' partition tables and its name
 * its own), f its owner.  NULL when out of memory. */
static struct oq_node *node_copy(struct oq_fabric *f, const struct oq_node *n)
{
	struct oq_node *c = malloc(sizeof(*c));
	unsigned int i;

	if (!c)
		return NULL;
	*c = *n;
	c->refs = 1;
	c->owner = f;
	c->ports = calloc((size_t)n->n_ports + 1, sizeof(*c->ports));
	c->name = n->name == n->desc ? c->desc : strdup(n->name);
	if (!c->ports || !c->name)
		goto fail;
	for (i = 0; i <= n->n_ports; i++) {
		c->ports[i] = n->ports[i];
		c->ports[i].node = c;
		c->ports[i].pkeys = NULL;
		if (n->ports[i].n_pkeys &&
		    oq_port_set_pkeys(&c->ports[i], n->ports[i].pkeys,
				      n->ports[i].n_pkeys))
			goto fail;
	}
	return c;
fail:
	for (i = 0; c->ports && i <= n->n_ports; i++)
		free(c->ports[i].pkeys);
	free(c->ports);
	if (c->name && c->name != c->desc)
		free(c->name);
	free(c);
	return NULL;
}

struct oq_node *oq_fabric_node_own(struct oq_fabric *f, struct oq_node *n)
{
	uint32_t at = oq_fabric_node_at(f, n);
	struct oq_node *c;
	unsigned int i;

	if (at == UINT32_MAX)
		return NULL;
	if (oq_fabric_owns(f, n))
		return n;
	c = node_copy(f, n);
	if (!c)
		return NULL;
	f->nodes[at] = c;
	for (i = 0; i <= n->n_ports; i++) {
		struct oq_port *p = &c->ports[i], *q = oq_port_peer(f, p);
		uint32_t pos = oq_port_index(f, p);

		if (pos < f->n_ports && f->ports[pos] == &n->ports[i])
			f->ports[pos] = p;
		if (q && f->peer[q->id] == &n->ports[i])
			f->peer[q->id] = p;
	}
	oq_fabric_node_put(n);
	return c;
}
