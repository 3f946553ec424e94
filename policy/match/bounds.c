// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Range end points as both matchers use them: the starts and ends + 1 of
 * the rules' ranges cut the 64-bit line into intervals; a value's interval
 * is the number of end points <= it.
 */
#include <stdlib.h>

#include "match_int.h"

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

size_t oq_bounds_sort_unique(uint64_t *b, size_t n)
{
	size_t i, k = 0;

	qsort(b, n, sizeof(*b), u64_cmp);
	for (i = 0; i < n; i++)
		if (!k || b[i] != b[k - 1])
			b[k++] = b[i];
	return k;
}

size_t oq_bounds_index(const uint64_t *b, size_t n, uint64_t x)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (b[mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}
