/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The core's hash table and the hash functions its users key it with.
 *
 * struct oq_htab is open addressing with linear probing over slots of a
 * 64-bit key and a 32-bit value, at most half full: a lookup reads one
 * slot in the usual case.  It serves three kinds of keys:
 *
 *  - 64-bit keys (GUIDs, LIDs, pointers as uintptr_t): the slot holds the
 *    key itself; oq_htab_put() and oq_htab_get() are a map to 32-bit
 *    values;
 *  - keys the caller stores and compares (rows, records): the slot holds
 *    the key's 64-bit hash and the value numbers the caller's entry;
 *    oq_htab_find() and oq_htab_find_or_add() ask the caller's same() only
 *    about entries whose hash is equal;
 *  - byte strings the table stores (struct oq_intern below): each distinct
 *    key is copied once and numbered 0, 1, 2... in the order it came.
 *
 * Empty tables are all-zero structs; nothing is allocated until the first
 * add.  Tables are not synchronized: build them, then read them from any
 * number of threads.
 */
#ifndef OSMQOS_HTAB_H
#define OSMQOS_HTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- hash functions ------------------------------------------------ */

/* FNV-1a over n bytes; _add continues hash h over n more bytes (from
 * OQ_FNV1A_INIT it is oq_fnv1a()); _str hashes a NUL-terminated string
 * in one pass.  Content fingerprints (files, diagnostics) use it. */
#define OQ_FNV1A_INIT 0xcbf29ce484222325ull
uint64_t oq_fnv1a(const void *key, size_t n);
uint64_t oq_fnv1a_add(uint64_t h, const void *key, size_t n);
uint64_t oq_fnv1a_str(const char *s);

/* A word-at-a-time multiplicative hash of n 64-bit words: one multiply
 * per word, for keys that are whole words (bitset rows, SL2VL rows) and
 * differ in a few bits, which each round folds into the low bits. */
uint64_t oq_hash_words(const uint64_t *w, size_t n);

/* The same over n bytes of any alignment (the last partial word padded
 * with zeros, the length folded in): the intern table's hash. */
uint64_t oq_hash_bytes(const void *key, size_t n);

/* splitmix64's finalizer: every bit of x moves every bit of the result,
 * so sequential keys (GUIDs, LIDs) spread over the table. */
static inline uint64_t oq_hash_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	x ^= x >> 31;
	return x;
}

/* ---- the table ----------------------------------------------------- */

struct oq_hslot {
	uint64_t key; /* the key, or the hash of a key the caller keeps */
	uint32_t val; /* the value + 1; 0: a free slot */
};

struct oq_htab {
	struct oq_hslot *slot;
	size_t mask; /* slots - 1 (a power of two less one) */
	size_t n;    /* slots in use */
};

/* Values are below OQ_HTAB_VAL_MAX. */
#define OQ_HTAB_VAL_MAX UINT32_MAX

/* Room for n entries in all, so that adding up to n never allocates (a
 * table sized for its contents up front).  0, or -ENOMEM (the table
 * unchanged). */
int oq_htab_reserve(struct oq_htab *t, size_t n);

/* Map key to val unless key is there: 1 when added; 0 when it was there,
 * *old (may be NULL) its stored value and the table unchanged; -ENOMEM. */
int oq_htab_put(struct oq_htab *t, uint64_t key, uint32_t val, uint32_t *old);

int64_t oq_htab_get_slow(const struct oq_htab *t, uint64_t key,
			 const struct oq_hslot *first);

/* The value of key, or -1.  The first slot is read here, inline (it
 * holds the key or ends the search in the usual case). */
static inline int64_t oq_htab_get(const struct oq_htab *t, uint64_t key)
{
	const struct oq_hslot *s;

	if (!t->slot)
		return -1;
	s = &t->slot[oq_hash_mix64(key) & t->mask];
	if (!s->val)
		return -1;
	if (s->key == key)
		return (int64_t)s->val - 1;
	return oq_htab_get_slow(t, key, s);
}

/* Whether the caller's entry val is the key being looked for. */
typedef bool (*oq_htab_same_fn)(const void *ctx, uint32_t val);

/* The first value stored under hash whose entry same(ctx, value) says is
 * the key, or -1. */
int64_t oq_htab_find(const struct oq_htab *t, uint64_t hash,
		     oq_htab_same_fn same, const void *ctx);

/* The same, adding val under hash when no entry is the key: 1 when added;
 * 0 when found, *old (may be NULL) the found value; -ENOMEM. */
int oq_htab_find_or_add(struct oq_htab *t, uint64_t hash, oq_htab_same_fn same,
			const void *ctx, uint32_t val, uint32_t *old);

/* Remove the entry of key (or hash) holding val.  Whether there was
 * one. */
bool oq_htab_del(struct oq_htab *t, uint64_t hash, uint32_t val);

/* dst (uninitialized or freed) a copy of src.  0, or -ENOMEM. */
int oq_htab_copy(struct oq_htab *dst, const struct oq_htab *src);

/* Forget every entry, keeping the slots for reuse. */
void oq_htab_clear(struct oq_htab *t);
void oq_htab_free(struct oq_htab *t);

/* ---- the intern table ---------------------------------------------- */

/*
 * Distinct byte strings, numbered in the order they were first added and
 * stored back to back in that order from oq_intern_keys(): keys of one
 * length form an array (rows of words stay 8-byte aligned when that
 * length is a multiple of 8).  Adding may move the keys: keep ids, not
 * pointers, while adding.
 */
struct oq_intern {
	struct oq_htab idx;   /* hash of a key -> its id */
	unsigned char *bytes; /* the keys */
	size_t len, cap;      /* bytes used, allocated */
	size_t *off;	      /* key id at bytes + off[id]; off[n] = len */
	size_t n, n_cap;      /* keys; room in off[] */
	uint32_t last;	      /* the id the last add answered + 1; 0 none */
};

/* The id of key (len bytes), added when new: 1 when added, 0 when it
 * was there, -ENOMEM (nothing added).  The key the last add answered is
 * compared first, without hashing: keys often come in runs (the ports of
 * a switch, a rack's hosts). */
int oq_intern_add(struct oq_intern *in, const void *key, size_t len,
		  uint32_t *id);

/* The id of key, or -1. */
int64_t oq_intern_find(const struct oq_intern *in, const void *key, size_t len);

static inline const void *oq_intern_key(const struct oq_intern *in, uint32_t id)
{
	return in->bytes + in->off[id];
}

static inline size_t oq_intern_len(const struct oq_intern *in, uint32_t id)
{
	return in->off[id + 1] - in->off[id];
}

static inline const void *oq_intern_keys(const struct oq_intern *in)
{
	return in->bytes;
}

static inline size_t oq_intern_count(const struct oq_intern *in)
{
	return in->n;
}

/* Free the index once every key is in: the keys stay readable, nothing
 * can be added or found any more. */
void oq_intern_seal(struct oq_intern *in);
void oq_intern_free(struct oq_intern *in);

#endif /* OSMQOS_HTAB_H */
