// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Whether two compiles of one fabric gave every port the same tables: a
 * policy edit that touched no table (a match rule, a QoS level's MTU)
 * leaves the predictions made from the old tables true, and they are
 * kept instead of being made again.
 */
#include <string.h>

#include "tables_int.h"

static bool vlarb_same(const struct oq_vlarb_table *a,
		       const struct oq_vlarb_table *b)
{
	return a->n == b->n && !memcmp(a->e, b->e, a->n * sizeof(a->e[0]));
}

/* The last pair of SL2VL blocks found equal: most ports of a fabric
 * share a few blocks, so most comparisons are two pointers'. */
struct seen {
	const void *a, *b;
	uint8_t n;
};

static bool sl2vl_same(const struct oq_port_tables *a,
		       const struct oq_port_tables *b, struct seen *seen)
{
	if (a->n_sl2vl != b->n_sl2vl)
		return false;
	if (!a->n_sl2vl || (a->sl2vl == seen->a && b->sl2vl == seen->b &&
			    a->n_sl2vl == seen->n))
		return true;
	if (!a->sl2vl || !b->sl2vl ||
	    memcmp(a->sl2vl, b->sl2vl, (size_t)a->n_sl2vl * 16))
		return false;
	seen->a = a->sl2vl;
	seen->b = b->sl2vl;
	seen->n = a->n_sl2vl;
	return true;
}

bool oq_fabric_tables_same(const struct oq_fabric_tables *a,
			   const struct oq_fabric_tables *b)
{
	struct seen seen = {NULL, NULL, 0};
	size_t i;

	if (a->n != b->n || !a->ports != !b->ports)
		return false;
	for (i = 0; i < a->n; i++) {
		const struct oq_port_tables *x = &a->ports[i],
					    *y = &b->ports[i];

		if (x->port != y->port || x->has_sl2vl != y->has_sl2vl ||
		    x->has_vlarb != y->has_vlarb ||
		    x->vl_high_limit != y->vl_high_limit ||
		    x->sl2vl_origin != y->sl2vl_origin ||
		    x->vlarb_origin != y->vlarb_origin ||
		    x->sl2vl_scope != y->sl2vl_scope ||
		    x->vlarb_scope != y->vlarb_scope ||
		    x->sl2vl_unknown != y->sl2vl_unknown ||
		    !vlarb_same(&x->vlarb_high, &y->vlarb_high) ||
		    !vlarb_same(&x->vlarb_low, &y->vlarb_low) ||
		    !sl2vl_same(x, y, &seen))
			return false;
	}
	return true;
}
