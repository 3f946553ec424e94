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
	uint32_t at = oq_node_index(f, q->node);

	return at < f->n_nodes && f->nodes[at] == q->node;
}

/*
 * After the positions are set: forget what f copied of ports and nodes it
 * no longer has, and check that every link joins two of f's ports both
 * ways.  A shared node's port still pointing at a node that was replaced
 * or went away means the builder's changed nodes missed one: -EINVAL.
 */
int oq_fabric_derive_check(struct oq_fabric *f)
{
	uint32_t i;
	size_t k;

	for (i = 0; i < f->n_port_ids; i++)
		if (f->port_pos[i] == UINT32_MAX)
			f->peer[i] = NULL;
	for (i = 0; i < f->n_node_ids; i++)
		if (f->node_pos[i] == UINT32_MAX && f->lft[i]) {
			oq_lft_put(f->lft[i]);
			f->lft[i] = NULL;
		}
	for (k = 0; k < f->n_ports; k++) {
		const struct oq_port *p = f->ports[k], *q = f->peer[p->id];

		if (q && (!in_fabric(f, q) || f->peer[q->id] != p))
			return -EINVAL;
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
	uint32_t at = oq_node_index(f, n);
	struct oq_node *c;
	unsigned int i;

	if (at >= f->n_nodes || f->nodes[at] != n)
		return NULL;
	if (n->owner == f && __atomic_load_n(&n->refs, __ATOMIC_ACQUIRE) == 1)
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
