// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Chains of random fabric changes for the derive tests (fabric_chain.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fabric_chain.h"

unsigned int chain_seed;
struct chain_seen chain_seen;

unsigned int chain_rnd(unsigned int n)
{
	chain_seed = chain_seed * 1103515245u + 12345u;
	return (chain_seed >> 8) % n;
}

static struct d_node *node_of(struct desc *d, uint64_t guid)
{
	int i;

	for (i = 0; i < MAX_NODES; i++)
		if (d->n[i].guid == guid)
			return &d->n[i];
	return NULL;
}

static void unlink_port(struct desc *d, struct d_node *n, unsigned int k)
{
	struct d_port *p = &n->ports[k];
	struct d_node *o = p->peer_guid ? node_of(d, p->peer_guid) : NULL;

	if (o && o->ports[p->peer_num].peer_guid == n->guid &&
	    o->ports[p->peer_num].peer_num == k)
		o->ports[p->peer_num].peer_guid = 0;
	p->peer_guid = 0;
}

void chain_link_ports(struct desc *d, struct d_node *a, unsigned int i,
		      struct d_node *b, unsigned int j)
{
	/* A port to itself is no link; to another of its node's is. */
	if (a == b && i == j)
		return;
	chain_seen.loopbacks += a == b;
	unlink_port(d, a, i);
	unlink_port(d, b, j);
	a->ports[i].peer_guid = b->guid;
	a->ports[i].peer_num = (uint8_t)j;
	b->ports[j].peer_guid = a->guid;
	b->ports[j].peer_num = (uint8_t)i;
}

/* Names of their own mostly, some shared with other nodes. */
static void name_node(struct d_node *n, unsigned int slot)
{
	if (chain_rnd(5))
		snprintf(n->desc, sizeof(n->desc), "n%u-%u", slot,
			 chain_rnd(3));
	else
		snprintf(n->desc, sizeof(n->desc), "shared-%u", chain_rnd(2));
}

static void new_node(struct d_node *n, unsigned int slot)
{
	unsigned int k;

	memset(n, 0, sizeof(*n));
	n->guid = 0x1000 + slot * 64 + chain_rnd(16);
	n->type = chain_rnd(3) ? OQ_NODE_CA : OQ_NODE_SWITCH;
	name_node(n, slot);
	n->n_ports = (uint8_t)(1 + chain_rnd(MAX_PORTS));
	for (k = 0; k <= n->n_ports; k++) {
		/* Room for LMC 2 between ports. */
		n->ports[k].lid = (uint16_t)(4 * (1 + slot * 8 + k));
		n->ports[k].lmc = (uint8_t)chain_rnd(3);
		n->ports[k].width = 4;
		n->ports[k].vl_cap = 8;
	}
	n->has_lft = n->type == OQ_NODE_SWITCH;
	for (k = 0; k < N_LIDS; k++)
		n->lft[k] = (uint8_t)chain_rnd(n->n_ports + 1);
}

static void remove_node(struct desc *d, struct d_node *n)
{
	unsigned int k;

	for (k = 1; k <= n->n_ports; k++)
		unlink_port(d, n, k);
	memset(n, 0, sizeof(*n));
}

static void random_link(struct desc *d)
{
	struct d_node *a = &d->n[chain_rnd(MAX_NODES)],
		      *b = &d->n[chain_rnd(MAX_NODES)];

	if (a->guid && b->guid)
		chain_link_ports(d, a, 1 + chain_rnd(a->n_ports), b,
				 1 + chain_rnd(b->n_ports));
}

void chain_random_fabric(struct desc *d)
{
	unsigned int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < MAX_NODES; i++)
		if (chain_rnd(4))
			new_node(&d->n[i], i);
	for (i = 0; i < 2 * MAX_NODES; i++)
		random_link(d);
}

/* One change of the kinds a sweep sees. */
void chain_random_change(struct desc *d)
{
	struct d_node *n = &d->n[chain_rnd(MAX_NODES)], *o;
	struct d_port *p;

	switch (chain_rnd(chain_rnd(20) ? 9 : 10)) {
	case 0:
		if (n->guid)
			remove_node(d, n);
		else
			new_node(n, (unsigned int)(n - d->n));
		break;
	case 1:
		random_link(d);
		break;
	case 2:
		if (n->guid)
			unlink_port(d, n, 1 + chain_rnd(n->n_ports));
		break;
	case 3:
		if (n->guid && n->has_lft)
			n->lft[chain_rnd(N_LIDS)] =
				(uint8_t)chain_rnd(n->n_ports + 1);
		break;
	case 4:
		if (n->guid) {
			p = &n->ports[1 + chain_rnd(n->n_ports)];
			p->n_pkeys = (uint8_t)chain_rnd(3);
			p->pkeys[0] = 0xffff;
			p->pkeys[1] = (uint16_t)(0x8001 + chain_rnd(3));
		}
		break;
	case 5:
		if (n->guid)
			n->ports[1 + chain_rnd(n->n_ports)].width =
				chain_rnd(2) ? 4 : 1;
		break;
	case 6:
		if (n->guid)
			name_node(n, (unsigned int)(n - d->n));
		break;
	case 7:
		if (n->guid) {
			n->ports[n->type == OQ_NODE_SWITCH ? 0 : 1].lmc =
				(uint8_t)chain_rnd(3);
			chain_seen.lmcs++;
		}
		break;
	case 8:
		/* Fewer VLs than the policy's tables use, now and then: a
		 * finding. */
		if (n->guid)
			n->ports[1 + chain_rnd(n->n_ports)].vl_cap =
				chain_rnd(6) ? 8 : 2;
		break;
	default:
		/* Two ports on one GUID or LID (another node's end port):
		 * the index reports it afresh. */
		o = &d->n[chain_rnd(MAX_NODES)];
		if (!n->guid || !o->guid || o == n)
			break;
		chain_seen.dups++;
		p = &n->ports[n->type == OQ_NODE_SWITCH ? 0 : 1];
		if (chain_rnd(2))
			p->lid =
				o->ports[o->type == OQ_NODE_SWITCH ? 0 : 1].lid;
		else
			p->guid = o->type == OQ_NODE_SWITCH ? o->guid
							    : o->guid + 1;
		break;
	}
}

/* A node's own facts into f's new node q (its links come after). */
static void fill(struct oq_fabric *f, struct oq_node *q, const struct d_node *n)
{
	unsigned int k;

	for (k = q->type == OQ_NODE_SWITCH ? 0 : 1; k <= n->n_ports; k++) {
		struct oq_port *p = &q->ports[k];

		p->present = true;
		p->guid = q->type == OQ_NODE_SWITCH ? n->guid : n->guid + k;
		if (n->ports[k].guid)
			p->guid = n->ports[k].guid;
		p->lid = n->ports[k].lid;
		p->lmc = n->ports[k].lmc;
		p->width = n->ports[k].width;
		p->vl_cap = n->ports[k].vl_cap;
		p->mtu_cap = n->ports[k].mtu_cap;
		p->vlarb_high_cap = 8;
		p->vlarb_low_cap = 8;
		p->sl2vl_cap = true;
		assert_int_equal(oq_port_set_pkeys(p, n->ports[k].pkeys,
						   n->ports[k].n_pkeys),
				 0);
	}
	if (n->has_lft)
		assert_int_equal(oq_fabric_set_lft(f, q, n->lft, N_LIDS), 0);
}

struct oq_node *chain_node(const struct oq_fabric *f, uint64_t guid)
{
	size_t i;

	for (i = 0; i < f->n_nodes; i++)
		if (f->nodes[i]->guid == guid)
			return f->nodes[i];
	return NULL;
}

/* Links of the nodes in want (all: every node), as a builder makes
 * them: a port already linked stays. */
static void make_links(struct oq_fabric *f, const struct desc *d,
		       const bool *want)
{
	unsigned int i, k;

	for (i = 0; i < MAX_NODES; i++) {
		const struct d_node *n = &d->n[i];
		struct oq_node *q, *r;

		if (!n->guid || (want && !want[i]))
			continue;
		q = chain_node(f, n->guid);
		for (k = 1; k <= n->n_ports; k++) {
			if (!n->ports[k].peer_guid ||
			    oq_port_peer(f, &q->ports[k]))
				continue;
			r = chain_node(f, n->ports[k].peer_guid);
			assert_non_null(r);
			oq_fabric_link_in(f, &q->ports[k],
					  &r->ports[n->ports[k].peer_num]);
		}
	}
}

struct oq_fabric *chain_build_fresh(const struct desc *d,
				    struct oq_diags *diags)
{
	struct oq_fabric *f = oq_fabric_new();
	unsigned int i;

	for (i = 0; i < MAX_NODES; i++) {
		const struct d_node *n = &d->n[i];
		struct oq_node *q;

		if (!n->guid)
			continue;
		q = oq_fabric_add_node(f, n->type, n->guid, n->desc,
				       n->n_ports);
		assert_non_null(q);
		fill(f, q, n);
	}
	make_links(f, d, NULL);
	assert_int_equal(oq_fabric_finalize(f, diags), 0);
	return f;
}

static bool same_desc_node(const struct d_node *a, const struct d_node *b)
{
	return !memcmp(a, b, offsetof(struct d_node, lft));
}

/* prev (built from old) to a fabric for d: unchanged nodes shared. */
struct oq_fabric *chain_build_derived(const struct oq_fabric *prev,
				      const struct desc *old,
				      const struct desc *d, size_t *n_shared,
				      struct oq_diags *diags)
{
	struct oq_fabric *f = oq_fabric_derive(prev);
	bool changed[MAX_NODES] = {false};
	unsigned int i;

	assert_non_null(f);
	*n_shared = 0;
	for (i = 0; i < MAX_NODES; i++) {
		const struct d_node *n = &d->n[i];
		struct oq_node *was =
			n->guid ? chain_node(prev, n->guid) : NULL;
		struct oq_node *q;

		if (!n->guid)
			continue;
		if (was && same_desc_node(n, &old->n[i])) {
			assert_int_equal(oq_fabric_share_node(f, was), 0);
			(*n_shared)++;
			if (n->has_lft && memcmp(n->lft, old->n[i].lft, N_LIDS))
				assert_int_equal(oq_fabric_set_lft(f, was,
								   n->lft,
								   N_LIDS),
						 0);
			continue;
		}
		changed[i] = true;
		q = oq_fabric_add_node_as(f, n->type, n->guid, n->desc,
					  n->n_ports, was);
		assert_non_null(q);
		if (was && was->n_ports == n->n_ports)
			assert_int_equal(q->id, was->id);
		fill(f, q, n);
	}
	make_links(f, d, changed);
	assert_int_equal(oq_fabric_finalize(f, diags), 0);
	return f;
}

/* The partition tables of generation gen, a port's from its node's GUID
 * and its number: none, or the default partition and one of three. */
static size_t part_keys(const struct oq_node *n, unsigned int k,
			unsigned int gen, uint16_t keys[2])
{
	unsigned int h = (unsigned int)n->guid * 31u + k * 7u + gen * 13u;

	keys[0] = 0xffff;
	keys[1] = (uint16_t)(0x8001 + h % 3);
	return (h >> 2) % 3;
}

/*
 * Partitions on finalized f, as the plugin sets OpenSM's: a port whose
 * table differs gets its node made f's own (a copy when another fabric
 * shares it) and its table set; the others are left alone.
 */
void chain_set_partitions(struct oq_fabric *f, unsigned int gen)
{
	size_t i, n;
	uint16_t keys[2];

	for (i = 0; i < f->n_ports; i++) {
		struct oq_port *p = f->ports[i];
		struct oq_node *nd;

		n = part_keys(p->node, p->num, gen, keys);
		if (p->n_pkeys == n &&
		    (!n || !memcmp(p->pkeys, keys, n * sizeof(*keys))))
			continue;
		nd = oq_fabric_node_own(f, p->node);
		assert_non_null(nd);
		chain_seen.owned_copies += nd != p->node;
		assert_int_equal(oq_port_set_pkeys(&nd->ports[p->num], keys, n),
				 0);
	}
}

void chain_small_node(struct d_node *n, uint64_t guid, enum oq_node_type type,
		      unsigned int slot)
{
	unsigned int k;

	memset(n, 0, sizeof(*n));
	n->guid = guid;
	n->type = type;
	snprintf(n->desc, sizeof(n->desc), "n%u", slot);
	n->n_ports = type == OQ_NODE_SWITCH ? 4 : 1;
	for (k = 0; k <= n->n_ports; k++) {
		n->ports[k].lid = (uint16_t)(4 * (1 + slot * 8 + k));
		n->ports[k].width = 4;
		n->ports[k].vl_cap = 8;
	}
}

void chain_start(struct chain *c, unsigned int seed)
{
	memset(c, 0, sizeof(*c));
	chain_seed = seed;
	chain_random_fabric(&c->a);
	/* Half the chains with partitions, which change now and then. */
	c->parts = chain_rnd(2);
	c->prev = chain_build_fresh(&c->a, NULL);
	if (c->parts)
		chain_set_partitions(c->prev, c->gen);
}

void chain_next(struct chain *c)
{
	int k, n_changes = 1 + (int)chain_rnd(3);

	c->b = c->a;
	for (k = 0; k < n_changes; k++)
		chain_random_change(&c->b);
	c->gen += !chain_rnd(3);
	oq_diags_init(&c->df);
	oq_diags_init(&c->dd);
	c->fresh = chain_build_fresh(&c->b, &c->df);
	c->derived =
		chain_build_derived(c->prev, &c->a, &c->b, &c->shared, &c->dd);
	chain_seen.dup_diags += c->df.n > 0;
	if (c->parts) {
		chain_set_partitions(c->fresh, c->gen);
		chain_set_partitions(c->derived, c->gen);
	}
}

void chain_advance(struct chain *c)
{
	oq_diags_free(&c->df);
	oq_diags_free(&c->dd);
	oq_fabric_free(c->prev);
	oq_fabric_free(c->fresh);
	c->prev = c->derived;
	c->fresh = c->derived = NULL;
	c->a = c->b;
}

void chain_end(struct chain *c)
{
	oq_fabric_free(c->prev);
	c->prev = NULL;
}
