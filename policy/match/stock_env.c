// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fabric checks of stock OpenSM's policy parser (oq_stock_read),
 * answered from a fabric model and its partitions: which node and port a
 * port-name names (OpenSM's name hash keeps the first node it inserts, walking
 * nodes by ascending GUID, so the lowest GUID among equal descriptions) and how
 * many full members a partition has (an ipoib line needs two).
 */
#include <stdlib.h>
#include <string.h>

#include <osmqos/match.h>

static int by_desc(const void *a, const void *b)
{
	const struct oq_node *x = *(struct oq_node *const *)a;
	const struct oq_node *y = *(struct oq_node *const *)b;
	int c = strcmp(x->desc, y->desc);

	if (c)
		return c;
	return x->guid < y->guid ? -1 : x->guid > y->guid;
}

static int port_check(void *ctx, const char *desc, unsigned int port)
{
	struct oq_stock_fabric *sf = ctx;
	size_t lo = 0, hi = sf->n_sorted;
	const struct oq_node *n;

	/* The first of equal descriptions: the lowest node GUID. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(sf->sorted[mid]->desc, desc) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= sf->n_sorted || strcmp(sf->sorted[lo]->desc, desc))
		return -1;
	n = sf->sorted[lo];
	/* OpenSM has every port of a switch, and the ports of a CA or
	 * router it discovered (the linked ones). */
	if (port > n->n_ports)
		return 0;
	return n->type == OQ_NODE_SWITCH || n->ports[port].present;
}

static bool partition_exists(const struct oq_stock_fabric *sf,
			     unsigned int pkey)
{
	size_t i;

	if (!sf->parts)
		return pkey == 0x7fff;
	for (i = 0; i < sf->parts->n; i++)
		if (sf->parts->v[i].pkey == pkey)
			return true;
	return false;
}

/* Does an earlier full entry of p's table hold the same key? */
static bool seen_before(const struct oq_fabric *f, const struct oq_port *p,
			uint16_t k, unsigned int key)
{
	size_t n_pk;
	const uint16_t *pk = oq_port_pkeys(f, p, &n_pk);
	uint16_t j;

	for (j = 0; j < k; j++)
		if ((pk[j] & OQ_PKEY_MASK) == key && (pk[j] & OQ_PKEY_FULL))
			return true;
	return false;
}

static int pkey_full_members(void *ctx, unsigned int pkey)
{
	struct oq_stock_fabric *sf = ctx;

	if (!partition_exists(sf, pkey & 0x7fff))
		return -1;
	/* OpenSM's Default partition without a file: every end port. */
	return sf->parts ? (int)sf->full[pkey & 0x7fff] : (int)sf->n_endports;
}

/* Full members of every P_Key, in one pass over the ports' tables. */
static int count_full(struct oq_stock_fabric *sf)
{
	size_t i;
	uint16_t k;

	sf->full = calloc(0x8000, sizeof(*sf->full));
	if (!sf->full)
		return -1;
	for (i = 0; i < sf->f->n_ports; i++) {
		const struct oq_port *p = sf->f->ports[i];
		const uint16_t *pk;
		size_t n_pk;

		if (!oq_port_is_endport(p))
			continue;
		sf->n_endports++;
		pk = oq_port_pkeys(sf->f, p, &n_pk);
		for (k = 0; k < n_pk; k++) {
			unsigned int key = pk[k] & OQ_PKEY_MASK;

			/* A key listed twice counts once. */
			if (key && (pk[k] & OQ_PKEY_FULL) &&
			    !seen_before(sf->f, p, k, key))
				sf->full[key]++;
		}
	}
	return 0;
}

int oq_stock_env_fabric(struct oq_stock_env *env, struct oq_stock_fabric *sf,
			const struct oq_fabric *f,
			const struct oq_partitions *parts)
{
	memset(sf, 0, sizeof(*sf));
	memset(env, 0, sizeof(*env));
	sf->f = f;
	sf->parts = parts;
	sf->sorted =
		malloc((f->n_nodes ? f->n_nodes : 1) * sizeof(*sf->sorted));
	if (!sf->sorted)
		return -1;
	memcpy(sf->sorted, f->nodes, f->n_nodes * sizeof(*sf->sorted));
	sf->n_sorted = f->n_nodes;
	qsort(sf->sorted, sf->n_sorted, sizeof(*sf->sorted), by_desc);
	if (count_full(sf)) {
		oq_stock_fabric_free(sf);
		return -1;
	}
	env->port_check = port_check;
	env->pkey_full_members = pkey_full_members;
	env->ctx = sf;
	return 0;
}

void oq_stock_fabric_free(struct oq_stock_fabric *sf)
{
	free(sf->sorted);
	free(sf->full);
	sf->sorted = NULL;
	sf->full = NULL;
	sf->n_sorted = 0;
}
