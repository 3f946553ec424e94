/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * An index from byte-string keys to entry numbers, for grouping many
 * items into few classes (port classes for predictions and for the
 * synthesizer).  Open addressing over hashes; the entries, their keys and
 * their hashes live in the caller's array, the index only numbers them.
 * New code uses osmqos/htab.h (oq_htab_find_or_add() is this index with
 * the probing inside); the port-class builders are its last users.
 *
 *	struct oq_keyidx x = {0};   empty; then for each item:
 *	oq_keyidx_reserve(&x, n, hash_of, entries);   room for entry n
 *	h = oq_fnv1a(key, len);
 *	for (j = oq_keyidx_first(&x, h); x.slot[j]; j = oq_keyidx_next(&x, j))
 *		if (entry x.slot[j] - 1 has key) found;
 *	else: append entry n, then x.slot[j] = n + 1.
 */
#ifndef OSMQOS_KEYIDX_H
#define OSMQOS_KEYIDX_H

#include <stddef.h>
#include <stdint.h>

#include <osmqos/htab.h>

struct oq_keyidx {
	uint32_t *slot; /* entry number + 1; 0: empty */
	size_t cap;	/* a power of two; 0 before the first reserve */
};

/* Make room for one more entry while n are indexed: the table stays at
 * most half full, growing by doubling and re-inserting every entry by
 * hash_of(ctx, i).  0, or -1 when out of memory (the index unchanged). */
int oq_keyidx_reserve(struct oq_keyidx *x, size_t n,
		      uint64_t (*hash_of)(const void *ctx, size_t i),
		      const void *ctx);

/* The first slot to probe for hash h, then the next. */
size_t oq_keyidx_first(const struct oq_keyidx *x, uint64_t h);
size_t oq_keyidx_next(const struct oq_keyidx *x, size_t j);

void oq_keyidx_free(struct oq_keyidx *x);

#endif
