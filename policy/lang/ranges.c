// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unions of closed ranges.  The parser appends ranges as written; once a
 * key is complete they are sorted and merged (overlapping and adjacent
 * ranges become one, as OpenSM's __sort_reduce_rangearr does), so lookups
 * are a binary search: the matcher calls oq_ranges_contains() per query.
 */
#include <stdlib.h>

#include <osmqos/policy.h>

int oq_ranges_add(struct oq_ranges *r, uint64_t lo, uint64_t hi)
{
	struct oq_range *v;

	/* Grow by powers of two: n is a power of two exactly when full. */
	if ((r->n & (r->n - 1)) == 0) {
		size_t cap = r->n ? r->n * 2 : 4;

		if (cap > SIZE_MAX / sizeof(*v))
			return -1;
		v = realloc(r->v, cap * sizeof(*v));
		if (!v)
			return -1;
		r->v = v;
	}
	if (lo > hi) {
		uint64_t t = lo;

		lo = hi;
		hi = t;
	}
	r->v[r->n].lo = lo;
	r->v[r->n].hi = hi;
	r->n++;
	return 0;
}

static int range_cmp(const void *a, const void *b)
{
	const struct oq_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi < y->hi ? -1 : 1;
	return 0;
}

void oq_ranges_normalize(struct oq_ranges *r)
{
	size_t i, out = 0;

	if (r->n < 2)
		return;
	qsort(r->v, r->n, sizeof(*r->v), range_cmp);
	for (i = 1; i < r->n; i++) {
		struct oq_range *last = &r->v[out];

		/* A last->hi of UINT64_MAX swallows everything after it,
		 * so hi + 1 is only computed when it cannot wrap. */
		if (r->v[i].lo <= last->hi ||
		    (last->hi != UINT64_MAX && r->v[i].lo == last->hi + 1)) {
			if (r->v[i].hi > last->hi)
				last->hi = r->v[i].hi;
		} else {
			r->v[++out] = r->v[i];
		}
	}
	r->n = out + 1;
}

bool oq_ranges_contains(const struct oq_ranges *r, uint64_t x)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x < r->v[mid].lo)
			hi = mid;
		else if (x > r->v[mid].hi)
			lo = mid + 1;
		else
			return true;
	}
	return false;
}

bool oq_ranges_subset(const struct oq_ranges *inner,
		      const struct oq_ranges *outer)
{
	size_t i, j = 0;

	/* Both are sorted and merged: each inner range must lie inside a
	 * single outer range, found by a forward-only scan. */
	for (i = 0; i < inner->n; i++) {
		while (j < outer->n && outer->v[j].hi < inner->v[i].lo)
			j++;
		if (j == outer->n || outer->v[j].lo > inner->v[i].lo ||
		    outer->v[j].hi < inner->v[i].hi)
			return false;
	}
	return true;
}

void oq_ranges_free(struct oq_ranges *r)
{
	free(r->v);
	r->v = NULL;
	r->n = 0;
}
