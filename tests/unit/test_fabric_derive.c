// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: a fabric built from the one before it (oq_fabric_derive)
 * equals the fabric built afresh from the same description, through
 * chains of random changes (fabric_chain.c: nodes added, removed and
 * changed, links cut and made, loopback cables among them, routes,
 * partition tables and LMCs changed, two ports on one GUID or LID now and
 * then), with its diagnostics; partitions set after finalize, as the
 * plugin sets OpenSM's, and the next fabric derived from that one; the
 * fabric it derives from is left as it was; a shared node is copied
 * before it is written.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>

#include "fabric_chain.h"

/* The diagnostics, one a line, and every LID and GUID a port could have
 * with what answers to it: a key left behind by a node that went away
 * answers too. */
static void dump_keys(char *s, size_t *len, size_t cap,
		      const struct oq_fabric *f, const struct oq_diags *d)
{
	const struct oq_port *p;
	unsigned int lid, i, g;
	size_t j;

	for (j = 0; d && j < d->n; j++) {
		*len += (size_t)oq_diag_format(&d->v[j], s + *len, cap - *len);
		*len += (size_t)snprintf(s + *len, cap - *len, "\n");
	}
	for (lid = 1; lid < 4 * (MAX_NODES + 1) * 8; lid++) {
		p = oq_fabric_port_by_lid(f, (uint16_t)lid);
		if (p)
			*len += (size_t)snprintf(
				s + *len, cap - *len, "lid %u %lx/%u\n", lid,
				(unsigned long)p->node->guid, p->num);
	}
	for (i = 0; i < MAX_NODES; i++)
		for (g = 0; g < 16 + MAX_PORTS + 1; g++) {
			p = oq_fabric_port_by_guid(f, 0x1000 + i * 64 + g);
			if (p)
				*len += (size_t)snprintf(
					s + *len, cap - *len,
					"guid %x %lx/%u\n", 0x1000 + i * 64 + g,
					(unsigned long)p->node->guid, p->num);
		}
}

/* Everything a reader of f can see, as text. */
static char *dump(const struct oq_fabric *f, const struct oq_diags *d)
{
	size_t cap = 1 << 16, len = 0, i;
	char *s = malloc(cap);
	unsigned int k, l;

	assert_non_null(s);
#define OUT(...) len += (size_t)snprintf(s + len, cap - len, __VA_ARGS__)
	OUT("%zu nodes %zu ports\n", f->n_nodes, f->n_ports);
	dump_keys(s, &len, cap, f, d);
	for (i = 0; i < f->n_nodes; i++) {
		const struct oq_node *n = f->nodes[i];

		assert_int_equal(oq_node_index(f, n), i);
		const struct oq_node *o;
		size_t same;

		OUT("node %zu %lx %d %s %s %u\n", i, (unsigned long)n->guid,
		    n->type, n->desc, oq_node_name(n), n->n_ports);
		/* The lookups: by GUID, and by name the first in table order
		 * and the ones after it. */
		assert_ptr_equal(oq_fabric_node_by_guid(f, n->guid), n);
		o = oq_fabric_node_by_name(f, n->desc, strlen(n->desc), &same);
		OUT("same name %zu:", same);
		for (; o; o = oq_fabric_node_next_same_name(f, o))
			OUT(" %lx", (unsigned long)o->guid);
		OUT("\n");
		for (l = 0; n->type == OQ_NODE_SWITCH && l < N_LIDS; l++)
			OUT("%u", oq_node_lft_port(f, n, (uint16_t)l));
		for (k = 0; k <= n->n_ports; k++) {
			const struct oq_port *p = &n->ports[k];
			const struct oq_port *q = oq_port_peer(f, p);
			size_t np, j;
			const uint16_t *keys = oq_port_pkeys(f, p, &np);

			OUT("\n port %u %d %lx %u/%u %u %u pos %u", k,
			    p->present, (unsigned long)p->guid, p->lid, p->lmc,
			    p->width, p->vl_cap, oq_port_index(f, p));
			/* The partner is a port of f's and p's partner in
			 * turn: not one of a node f no longer holds. */
			if (q) {
				assert_true(oq_node_index(f, q->node) <
					    f->n_nodes);
				assert_ptr_equal(
					f->nodes[oq_node_index(f, q->node)],
					q->node);
				assert_ptr_equal(oq_port_peer(f, q), p);
				OUT(" peer %lx/%u",
				    (unsigned long)q->node->guid, q->num);
			}
			for (j = 0; j < np; j++)
				OUT(" k%x", keys[j]);
			if (p->present && oq_port_is_endport(p)) {
				const struct oq_port *by =
					oq_fabric_port_by_lid(f, p->lid);

				OUT(" by guid %s",
				    oq_fabric_port_by_guid(f, p->guid) == p
					    ? "itself"
					    : "another");
				if (by)
					OUT(" by lid %lx/%u",
					    (unsigned long)by->node->guid,
					    by->num);
			}
		}
		OUT("\n");
		assert_true(len < cap - 1024);
	}
	for (i = 0; i < f->n_ports; i++)
		assert_int_equal(oq_port_index(f, f->ports[i]), i);
#undef OUT
	return s;
}

static void one_chain(unsigned int s)
{
	struct chain c;
	size_t total_shared = 0;
	char *before, *x, *y;
	int step;

	chain_start(&c, s);
	for (step = 0; step < 20; step++) {
		before = dump(c.prev, NULL);
		chain_next(&c);
		total_shared += c.shared;
		x = dump(c.fresh, &c.df);
		y = dump(c.derived, &c.dd);
		if (strcmp(x, y))
			print_message("seed %u step %d\n", s, step);
		assert_string_equal(x, y);
		free(x);
		free(y);
		/* What it derives from is as it was, and may go first. */
		x = dump(c.prev, NULL);
		assert_string_equal(before, x);
		free(x);
		free(before);
		chain_advance(&c);
	}
	chain_end(&c);
	/* Most nodes outlive a few changes: the chains did share. */
	assert_true(total_shared > 20 * MAX_NODES / 3);
}

static void test_derived_equals_fresh(void **state)
{
	unsigned int s;

	(void)state;
	memset(&chain_seen, 0, sizeof(chain_seen));
	for (s = 1; s <= 200; s++)
		one_chain(s);
	/* The chains went through every case. */
	assert_true(chain_seen.loopbacks > 0);
	assert_true(chain_seen.dups > 0);
	assert_true(chain_seen.dup_diags > 0);
	assert_true(chain_seen.owned_copies > 0);
	assert_true(chain_seen.lmcs > 0);
}

/* A node two fabrics share is copied before one of them writes it. */
static void test_own_copies_shared(void **state)
{
	struct desc a;
	struct oq_fabric *f0, *f1;
	struct oq_node *n0, *n1;
	uint16_t key = 0x8005;
	size_t shared, i, np;
	char *before, *after;

	(void)state;
	chain_seed = 7;
	chain_random_fabric(&a);
	f0 = chain_build_fresh(&a, NULL);
	f1 = chain_build_derived(f0, &a, &a, &shared, NULL);
	assert_int_equal(shared, f0->n_nodes);
	for (i = 0; i < f1->n_nodes && !f1->nodes[i]->ports[1].present; i++)
		;
	assert_true(i < f1->n_nodes);
	n0 = f1->nodes[i];
	before = dump(f0, NULL);
	n1 = oq_fabric_node_own(f1, n0);
	assert_non_null(n1);
	assert_ptr_not_equal(n0, n1);
	assert_int_equal(n1->id, n0->id);
	assert_ptr_equal(f1->nodes[i], n1);
	assert_ptr_equal(f1->ports[oq_port_index(f1, &n1->ports[1])],
			 &n1->ports[1]);
	if (oq_port_peer(f1, &n1->ports[1]))
		assert_ptr_equal(
			oq_port_peer(f1, oq_port_peer(f1, &n1->ports[1])),
			&n1->ports[1]);
	assert_int_equal(oq_port_set_pkeys(&n1->ports[1], &key, 1), 0);
	/* Its own now: asked again, the same node. */
	assert_ptr_equal(oq_fabric_node_own(f1, n1), n1);
	after = dump(f0, NULL);
	assert_string_equal(before, after);
	assert_int_equal(oq_port_pkeys(f1, &n1->ports[1], &np)[0], key);
	free(before);
	free(after);
	oq_fabric_free(f0);
	oq_fabric_free(f1);
}

/* A shared node's port left linked to a node that went away: the
 * builder missed a change, and finalize says so instead of keeping a
 * link to freed memory. */
static void test_dangling_link_refused(void **state)
{
	struct oq_fabric *f0 = oq_fabric_new(), *f1;
	struct oq_node *a, *b;

	(void)state;
	a = oq_fabric_add_node(f0, OQ_NODE_CA, 0x10, "a", 1);
	b = oq_fabric_add_node(f0, OQ_NODE_CA, 0x20, "b", 1);
	a->ports[1].guid = 0x11;
	b->ports[1].guid = 0x21;
	oq_fabric_link(&a->ports[1], &b->ports[1]);
	assert_int_equal(oq_fabric_finalize(f0, NULL), 0);
	f1 = oq_fabric_derive(f0);
	assert_int_equal(oq_fabric_share_node(f1, a), 0);
	assert_int_equal(oq_fabric_finalize(f1, NULL), -EINVAL);
	oq_fabric_free(f1);
	oq_fabric_free(f0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derived_equals_fresh),
		cmocka_unit_test(test_own_copies_shared),
		cmocka_unit_test(test_dangling_link_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
