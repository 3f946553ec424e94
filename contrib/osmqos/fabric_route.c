// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Breadth first over the switches: the first route found has the fewest
 * hops.  An end port is reached by its own link, not by another port of
 * its node (a dual-port HCA's other port is another destination).
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>

#include "fabric_route.h"

static bool reaches(const struct oq_fabric *f, const struct oq_port *p,
		    const struct oq_port *dst)
{
	const struct oq_port *peer = oq_port_peer(f, p);

	return peer && (peer == dst || (dst->node->type == OQ_NODE_SWITCH &&
					peer->node == dst->node));
}

int oq_fabric_route(const struct oq_fabric *f, const struct oq_port *src,
		    const struct oq_port *dst, const struct oq_port **eg,
		    size_t max)
{
	const struct oq_port **via = NULL; /* the port a node was entered by */
	const struct oq_port *last = NULL, *p, *t, *peer;
	size_t n = f->n_nodes, head = 0, tail = 0, k = 0, i;
	uint32_t *queue = NULL;
	int hops = -1;

	if (src->node == dst->node)
		return 0;
	via = calloc(n ? n : 1, sizeof(*via));
	queue = calloc(n ? n : 1, sizeof(*queue));
	if (!via || !queue)
		goto out;
	if (src->node->type == OQ_NODE_SWITCH) {
		/* From port 0 the switch itself forwards. */
		via[oq_node_index(f, src->node)] = src;
		queue[tail++] = oq_node_index(f, src->node);
	} else if (reaches(f, src, dst)) {
		last = src;
	} else {
		peer = oq_port_peer(f, src);
		if (peer && peer->node->type == OQ_NODE_SWITCH) {
			via[oq_node_index(f, peer->node)] = src;
			queue[tail++] = oq_node_index(f, peer->node);
		}
	}
	while (!last && head < tail) {
		const struct oq_node *sw = f->nodes[queue[head++]];
		unsigned int pn;

		for (pn = 1; pn <= sw->n_ports; pn++) {
			const struct oq_node *next;

			p = &sw->ports[pn];
			if (!p->present)
				continue;
			peer = oq_port_peer(f, p);
			if (!peer)
				continue;
			if (reaches(f, p, dst)) {
				last = p;
				break;
			}
			next = peer->node;
			if (next->type != OQ_NODE_SWITCH ||
			    via[oq_node_index(f, next)])
				continue;
			via[oq_node_index(f, next)] = p;
			queue[tail++] = oq_node_index(f, next);
		}
	}
	if (!last)
		goto out;
	/* Back from the last hop to src's node, then in route order. */
	for (p = last;; p = via[oq_node_index(f, p->node)]) {
		if (k == max)
			goto out;
		eg[k++] = p;
		if (p->node == src->node)
			break;
	}
	for (i = 0; i < k / 2; i++) {
		t = eg[i];
		eg[i] = eg[k - 1 - i];
		eg[k - 1 - i] = t;
	}
	hops = (int)k;
out:
	free(via);
	free(queue);
	return hops;
}
