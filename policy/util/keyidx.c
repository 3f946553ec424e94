// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The key index (osmqos/keyidx.h). */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <osmqos/keyidx.h>

/* A handful of classes is the usual case: no growth for those. */
#define FIRST_CAP 64

size_t oq_keyidx_first(const struct oq_keyidx *x, uint64_t h)
{
	return (size_t)(h ^ (h >> 29)) & (x->cap - 1);
}

size_t oq_keyidx_next(const struct oq_keyidx *x, size_t j)
{
	return (j + 1) & (x->cap - 1);
}

int oq_keyidx_reserve(struct oq_keyidx *x, size_t n,
		      uint64_t (*hash_of)(const void *ctx, size_t i),
		      const void *ctx)
{
	struct oq_keyidx g;
	size_t i, j;

	if (x->cap && (n + 1) * 2 <= x->cap)
		return 0;
	g.cap = x->cap ? x->cap * 2 : FIRST_CAP;
	while ((n + 1) * 2 > g.cap)
		g.cap *= 2;
	g.slot = calloc(g.cap, sizeof(*g.slot));
	if (!g.slot)
		return -1;
	for (i = 0; i < n; i++) {
		for (j = oq_keyidx_first(&g, hash_of(ctx, i)); g.slot[j];
		     j = oq_keyidx_next(&g, j))
			;
		g.slot[j] = (uint32_t)i + 1;
	}
	free(x->slot);
	*x = g;
	return 0;
}

void oq_keyidx_free(struct oq_keyidx *x)
{
	free(x->slot);
	memset(x, 0, sizeof(*x));
}
