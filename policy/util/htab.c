// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The hash table, the intern table and the hash functions
 * (osmqos/htab.h).  Every probe loop of the core is in this file. */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/htab.h>

/* A handful of entries is the usual case: no growth for those. */
#define FIRST_SLOTS 64

#define FNV1A_PRIME 0x100000001b3ull
#define WORD_MUL    0xff51afd7ed558ccdull

/* ---- hash functions ------------------------------------------------ */

uint64_t oq_fnv1a_add(uint64_t h, const void *key, size_t n)
{
	const uint8_t *k = key;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ k[i]) * FNV1A_PRIME;
	return h;
}

uint64_t oq_fnv1a(const void *key, size_t n)
{
	return oq_fnv1a_add(OQ_FNV1A_INIT, key, n);
}

uint64_t oq_fnv1a_str(const char *s)
{
	uint64_t h = OQ_FNV1A_INIT;

	while (*s)
		h = (h ^ (unsigned char)*s++) * FNV1A_PRIME;
	return h;
}

static inline uint64_t word_round(uint64_t h, uint64_t w)
{
	h ^= w;
	h *= WORD_MUL;
	return h ^ (h >> 32);
}

uint64_t oq_hash_words(const uint64_t *w, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull;
	size_t i;

	for (i = 0; i < n; i++)
		h = word_round(h, w[i]);
	return h;
}

uint64_t oq_hash_bytes(const void *key, size_t n)
{
	const unsigned char *k = key;
	uint64_t h = 0x9e3779b97f4a7c15ull ^ n, w;
	size_t left;

	for (left = n; left >= 8; left -= 8, k += 8) {
		memcpy(&w, k, 8);
		h = word_round(h, w);
	}
	if (left) {
		/* The last bytes, without a variable-length copy. */
		for (w = 0; left--;)
			w = w << 8 | k[left];
		h = word_round(h, w);
	}
	return h;
}

/* ---- the table ----------------------------------------------------- */

static size_t first_slot(const struct oq_htab *t, uint64_t key)
{
	return (size_t)oq_hash_mix64(key) & t->mask;
}

static size_t next_slot(const struct oq_htab *t, size_t j)
{
	return (j + 1) & t->mask;
}

/* Slots for n entries at most half full. */
static size_t slots_for(size_t n)
{
	size_t cap = FIRST_SLOTS;

	while (cap < 2 * n)
		cap <<= 1;
	return cap;
}

static int regrow(struct oq_htab *t, size_t cap)
{
	struct oq_htab g = {NULL, cap - 1, t->n};
	size_t i, j;

	g.slot = calloc(cap, sizeof(*g.slot));
	if (!g.slot)
		return -ENOMEM;
	for (i = 0; t->slot && i <= t->mask; i++) {
		if (!t->slot[i].val)
			continue;
		for (j = first_slot(&g, t->slot[i].key); g.slot[j].val;
		     j = next_slot(&g, j))
			;
		g.slot[j] = t->slot[i];
	}
	free(t->slot);
	*t = g;
	return 0;
}

int oq_htab_reserve(struct oq_htab *t, size_t n)
{
	size_t cap = slots_for(n);

	if (t->slot && cap <= t->mask + 1)
		return 0;
	return regrow(t, cap);
}

/* The slot holding the key (same() agreeing, unless NULL), or the free
 * slot that ends its chain. */
static inline struct oq_hslot *probe(const struct oq_htab *t, uint64_t key,
				     oq_htab_same_fn same, const void *ctx)
{
	size_t j;

	for (j = first_slot(t, key); t->slot[j].val; j = next_slot(t, j))
		if (t->slot[j].key == key &&
		    (!same || same(ctx, t->slot[j].val - 1)))
			break;
	return &t->slot[j];
}

/* Room for one more entry. */
static inline int room(struct oq_htab *t)
{
	if (t->slot && 2 * (t->n + 1) <= t->mask + 1)
		return 0;
	return oq_htab_reserve(t, t->n + 1);
}

static inline int fill(struct oq_htab *t, struct oq_hslot *s, uint64_t key,
		       uint32_t val, uint32_t *old)
{
	if (s->val) {
		if (old)
			*old = s->val - 1;
		return 0;
	}
	s->key = key;
	s->val = val + 1;
	t->n++;
	return 1;
}

int64_t oq_htab_get_slow(const struct oq_htab *t, uint64_t key,
			 const struct oq_hslot *first)
{
	size_t j = next_slot(t, (size_t)(first - t->slot));

	for (; t->slot[j].val; j = next_slot(t, j))
		if (t->slot[j].key == key)
			return (int64_t)t->slot[j].val - 1;
	return -1;
}

int oq_htab_find_or_add(struct oq_htab *t, uint64_t hash, oq_htab_same_fn same,
			const void *ctx, uint32_t val, uint32_t *old)
{
	if (room(t))
		return -ENOMEM;
	return fill(t, probe(t, hash, same, ctx), hash, val, old);
}

int oq_htab_put(struct oq_htab *t, uint64_t key, uint32_t val, uint32_t *old)
{
	if (room(t))
		return -ENOMEM;
	return fill(t, probe(t, key, NULL, NULL), key, val, old);
}

int64_t oq_htab_find(const struct oq_htab *t, uint64_t hash,
		     oq_htab_same_fn same, const void *ctx)
{
	const struct oq_hslot *s;

	if (!t->slot)
		return -1;
	s = probe(t, hash, same, ctx);
	return s->val ? (int64_t)s->val - 1 : -1;
}

int oq_htab_copy(struct oq_htab *dst, const struct oq_htab *src)
{
	struct oq_hslot *v = NULL;

	if (src->slot) {
		v = malloc((src->mask + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memcpy(v, src->slot, (src->mask + 1) * sizeof(*v));
	}
	dst->slot = v;
	dst->mask = src->mask;
	dst->n = src->n;
	return 0;
}

bool oq_htab_del(struct oq_htab *t, uint64_t hash, uint32_t val)
{
	size_t i, j, k;

	if (!t->slot)
		return false;
	for (i = first_slot(t, hash); t->slot[i].val; i = next_slot(t, i))
		if (t->slot[i].key == hash && t->slot[i].val == val + 1)
			break;
	if (!t->slot[i].val)
		return false;
	/* Linear probing: move up every entry after the hole that would
	 * not be found past it (its first slot is not between the hole and
	 * where it sits, cyclically). */
	t->slot[i].val = 0;
	t->n--;
	for (j = next_slot(t, i); t->slot[j].val; j = next_slot(t, j)) {
		k = first_slot(t, t->slot[j].key);
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		t->slot[i] = t->slot[j];
		t->slot[j].val = 0;
		i = j;
	}
	return true;
}

void oq_htab_clear(struct oq_htab *t)
{
	if (t->slot && t->n)
		memset(t->slot, 0, (t->mask + 1) * sizeof(*t->slot));
	t->n = 0;
}

void oq_htab_free(struct oq_htab *t)
{
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

/* ---- the intern table ---------------------------------------------- */

struct key_ref {
	const struct oq_intern *in;
	const void *key;
	size_t len;
};

static bool same_key(const void *ctx, uint32_t id)
{
	const struct key_ref *k = ctx;

	return oq_intern_len(k->in, id) == k->len &&
	       !memcmp(oq_intern_key(k->in, id), k->key, k->len);
}

/* Room for one more key of len bytes. */
static int intern_room(struct oq_intern *in, size_t len)
{
	if (in->n + 2 > in->n_cap) {
		size_t cap = in->n_cap ? 2 * in->n_cap : 16;
		size_t *off = realloc(in->off, cap * sizeof(*off));

		if (!off)
			return -ENOMEM;
		if (!in->off)
			off[0] = 0;
		in->off = off;
		in->n_cap = cap;
	}
	if (in->len + len > in->cap || !in->bytes) {
		size_t cap = in->cap ? in->cap : 256;
		unsigned char *b;

		while (cap < in->len + len)
			cap *= 2;
		b = realloc(in->bytes, cap);
		if (!b)
			return -ENOMEM;
		in->bytes = b;
		in->cap = cap;
	}
	return 0;
}

int oq_intern_add(struct oq_intern *in, const void *key, size_t len,
		  uint32_t *id)
{
	struct key_ref k = {in, key, len};
	uint64_t h;
	int64_t found;
	int rc;

	if (in->last && oq_intern_len(in, in->last - 1) == len &&
	    (!len || !memcmp(oq_intern_key(in, in->last - 1), key, len))) {
		*id = in->last - 1;
		return 0;
	}
	h = oq_hash_bytes(key, len);
	found = oq_htab_find(&in->idx, h, same_key, &k);
	if (found >= 0) {
		*id = (uint32_t)found;
		in->last = (uint32_t)found + 1;
		return 0;
	}
	/* New: room for it first, so a failure adds nothing. */
	if (in->n >= OQ_HTAB_VAL_MAX - 1 || intern_room(in, len))
		return -ENOMEM;
	rc = oq_htab_find_or_add(&in->idx, h, same_key, &k, (uint32_t)in->n,
				 NULL);
	if (rc < 0)
		return rc;
	memcpy(in->bytes + in->len, key, len);
	in->len += len;
	in->off[++in->n] = in->len;
	*id = (uint32_t)(in->n - 1);
	in->last = (uint32_t)in->n;
	return 1;
}

int64_t oq_intern_find(const struct oq_intern *in, const void *key, size_t len)
{
	struct key_ref k = {in, key, len};

	return oq_htab_find(&in->idx, oq_hash_bytes(key, len), same_key, &k);
}

void oq_intern_seal(struct oq_intern *in)
{
	oq_htab_free(&in->idx);
}

void oq_intern_free(struct oq_intern *in)
{
	oq_htab_free(&in->idx);
	free(in->bytes);
	free(in->off);
	memset(in, 0, sizeof(*in));
}
