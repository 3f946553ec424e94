// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the path engine (policy/path*.c) over a whole fabric, the
 * fat-tree capture, with min-hop LFTs computed here (BFS): every pair of
 * end ports resolves, with the hops, MTU and rate the links allow.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <osmqos/fabric.h>
#include <osmqos/path.h>

static void route(struct oq_node *sw, uint16_t lid, uint8_t port)
{
	assert_int_equal(oq_node_set_lft_entry(sw, lid, port), 0);
}

static struct oq_fabric *fat_tree(void)
{
	struct oq_diags d;
	struct oq_fabric *f;

	oq_diags_init(&d);
	f = oq_topology_load(OQ_SRCDIR "/tests/data/fat-tree-16.ibnd", &d);
	assert_non_null(f);
	assert_int_equal(d.n_errors, 0);
	oq_diags_free(&d);
	return f;
}

/* Min-hop LFTs: BFS over switches from each end port; each switch takes
 * the lowest-numbered port toward a switch one step nearer. */
static void min_hop_lfts(struct oq_fabric *f)
{
	size_t n = f->n_nodes, i, j;
	int *dist = malloc(n * sizeof(*dist));
	size_t *queue = malloc(n * sizeof(*queue));

	assert_non_null(dist);
	assert_non_null(queue);
	for (i = 0; i < f->n_ports; i++) {
		struct oq_port *t = f->ports[i];
		size_t head = 0, tail = 0;
		unsigned int k;

		if (!oq_port_is_endport(t) || !t->lid)
			continue;
		for (j = 0; j < n; j++)
			dist[j] = -1;
		if (t->node->type == OQ_NODE_SWITCH) {
			dist[oq_node_index(f, t->node)] = 0;
			queue[tail++] = oq_node_index(f, t->node);
			route(t->node, t->lid, 0);
		} else {
			struct oq_port *tp = oq_port_peer(f, t);
			struct oq_node *sw = tp->node;

			dist[oq_node_index(f, sw)] = 1;
			queue[tail++] = oq_node_index(f, sw);
			route(sw, t->lid, tp->num);
		}
		while (head < tail) {
			struct oq_node *x = f->nodes[queue[head++]];

			for (k = 1; k <= x->n_ports; k++) {
				struct oq_port *q =
					oq_port_peer(f, &x->ports[k]);

				if (!q || q->node->type != OQ_NODE_SWITCH ||
				    dist[oq_node_index(f, q->node)] >= 0)
					continue;
				dist[oq_node_index(f, q->node)] =
					dist[oq_node_index(f, x)] + 1;
				queue[tail++] = oq_node_index(f, q->node);
				route(q->node, t->lid, q->num);
			}
		}
	}
	free(dist);
	free(queue);
}

static void test_fat_tree(void **state)
{
	struct oq_fabric *f = fat_tree();
	unsigned int ok = 0, i, j;

	(void)state;
	min_hop_lfts(f);
	for (i = 0; i < f->n_ports; i++) {
		const struct oq_port *s = f->ports[i];

		if (!oq_port_is_endport(s))
			continue;
		for (j = 0; j < f->n_ports; j++) {
			const struct oq_port *t = f->ports[j];
			struct oq_path p;
			bool same_leaf;

			if (!oq_port_is_endport(t))
				continue;
			assert_int_equal(
				oq_path_resolve(f, NULL, s, t->lid, NULL, &p),
				OQ_PATH_OK);
			ok++;
			assert_ptr_equal(p.dst, t);
			if (s->node->type == OQ_NODE_SWITCH ||
			    t->node->type == OQ_NODE_SWITCH) {
				/* Switch port 0: 1024 MTU, 4x SDR. */
				assert_int_equal(p.mtu, 3);
				assert_int_equal(p.rate, 3);
				continue;
			}
			assert_int_equal(p.mtu, 4);
			same_leaf = oq_port_peer(f, s)->node ==
				    oq_port_peer(f, t)->node;
			assert_int_equal(p.hops, s == t	     ? 0
						 : same_leaf ? 1
							     : 3);
			/* 4xFDR storage nodes reach 56 Gb/s only
			 * between themselves; QDR ends cap at 40. */
			if (s->speed == OQ_SPEED_FDR &&
			    t->speed == OQ_SPEED_FDR)
				assert_int_equal(p.rate, 12);
			else
				assert_int_equal(p.rate, 7);
		}
	}
	assert_int_equal(ok, 22 * 22);
	oq_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fat_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
