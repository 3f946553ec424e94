// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Name lookups of the stock OpenSM model (stock_int.h).  OpenSM finds a
 * rule's groups and level by a linear, case-insensitive search of its
 * lists, the first match winning; the model gives the same answer, and
 * counts the same steps (a policy of 100k rules over 100k groups makes
 * OpenSM compare names for minutes), in O(log n) per lookup.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stock_int.h"

static int name_cmp(const void *a, const void *b)
{
	const struct oq_stock_name *x = a, *y = b;
	int c = strcasecmp(x->name, y->name);

	if (c)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static struct oq_stock_name *sorted(const char *const *names, size_t stride,
				    size_t n)
{
	struct oq_stock_name *v = malloc((n ? n : 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++) {
		v[i].name = *(const char *const *)((const char *)names +
						   i * stride);
		v[i].idx = i;
	}
	qsort(v, n, sizeof(*v), name_cmp);
	return v;
}

int oq_stock_index_build(struct oq_stock *s, size_t n_levels)
{
	struct oq_stock_index *x = calloc(1, sizeof(*x));

	if (!x)
		return -1;
	x->n_groups = s->n_groups;
	x->n_levels = n_levels;
	x->groups = sorted(s->n_groups ? (const char *const *)&s->groups[0].name
				       : NULL,
			   sizeof(*s->groups), s->n_groups);
	x->levels = sorted(n_levels ? (const char *const *)&s->levels[0].name
				    : NULL,
			   sizeof(*s->levels), n_levels);
	oq_stock_index_free(s);
	s->index = x;
	if (!x->groups || !x->levels) {
		oq_stock_index_free(s);
		return -1;
	}
	return 0;
}

void oq_stock_index_free(struct oq_stock *s)
{
	if (!s->index)
		return;
	free(s->index->groups);
	free(s->index->levels);
	free(s->index);
	s->index = NULL;
}

long oq_stock_lookup(const struct oq_stock *s, bool groups, const char *name,
		     uint64_t *steps)
{
	const struct oq_stock_index *x = s->index;
	const struct oq_stock_name *v = groups ? x->groups : x->levels;
	size_t n = groups ? x->n_groups : x->n_levels, lo = 0, hi = n;

	/* The first entry not below (name, 0): the lowest position among
	 * equal names, when there is one. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcasecmp(v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && !strcasecmp(v[lo].name, name)) {
		*steps = v[lo].idx + 1;
		return (long)v[lo].idx;
	}
	*steps = n;
	return -1;
}
