// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SA answer memo (osmqos/sa_memo.h): a direct-mapped table of keys
 * and byte values, one try-lock per entry.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <osmqos/keyidx.h>
#include <osmqos/sa_memo.h>

/* An entry: its lock and key, then the value, padded to cache lines so
 * two threads on neighbouring entries do not share a line. */
struct memo_entry {
	uint32_t lock; /* __atomic: 1 while a thread reads or writes it */
	uint32_t used;
	struct oq_sa_memo_key key;
	unsigned char val[];
};

struct oq_sa_memo {
	size_t mask; /* entries - 1 */
	size_t val_size;
	size_t stride;
	size_t bytes;
	unsigned char *entries;
};

#define ENTRY_ALIGN 64

_Static_assert(sizeof(struct oq_sa_memo_key) % sizeof(uint64_t) == 0,
	       "the key hashes as whole 64-bit words");

struct oq_sa_memo *oq_sa_memo_create(size_t entries, size_t val_size)
{
	struct oq_sa_memo *m;
	size_t n = 1;

	if (!entries || !val_size || val_size > OQ_SA_MEMO_VAL_MAX) {
		errno = EINVAL;
		return NULL;
	}
	if (entries > OQ_SA_MEMO_MAX)
		entries = OQ_SA_MEMO_MAX;
	while (n < entries)
		n <<= 1;
	m = calloc(1, sizeof(*m));
	if (!m) {
		errno = ENOMEM;
		return NULL;
	}
	m->mask = n - 1;
	m->val_size = val_size;
	m->stride = (sizeof(struct memo_entry) + val_size + ENTRY_ALIGN - 1) &
		    ~(size_t)(ENTRY_ALIGN - 1);
	/*
	 * Anonymous pages read as zero and take memory only once written, so
	 * an idle memo costs nothing.  Not calloc(): once glibc has freed a
	 * block this size it serves the next from the heap and clears it,
	 * touching every page each sweep.
	 */
	if (m->stride > SIZE_MAX / n) {
		free(m);
		errno = ENOMEM;
		return NULL;
	}
	m->bytes = n * m->stride;
	m->entries = mmap(NULL, m->bytes, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->entries == MAP_FAILED) {
		free(m);
		errno = ENOMEM;
		return NULL;
	}
	/* Scattered entries would each fault in a 2 MiB huge page where
	 * transparent huge pages are always on. */
	madvise(m->entries, m->bytes, MADV_NOHUGEPAGE);
	return m;
}

void oq_sa_memo_free(struct oq_sa_memo *m)
{
	if (!m)
		return;
	munmap(m->entries, m->bytes);
	free(m);
}

size_t oq_sa_memo_entries(const struct oq_sa_memo *m)
{
	return m ? m->mask + 1 : 0;
}

void oq_sa_memo_key_pr(struct oq_sa_memo_key *k, uint8_t method,
		       uint64_t comp_mask, uint16_t requester_lid,
		       const uint8_t *pr)
{
	memset(k, 0, sizeof(*k));
	k->comp_mask = comp_mask;
	k->requester_lid = requester_lid;
	k->method = method;
	memcpy(k->req, pr, sizeof(k->req));
}

/* A word-at-a-time multiplicative hash: a request is 10 words, and a
 * storm's keys differ in a few bytes (LIDs, GIDs), which the final mix
 * spreads over the low bits the mask keeps. */
static size_t key_slot(const struct oq_sa_memo *m,
		       const struct oq_sa_memo_key *k)
{
	uint64_t w[sizeof(*k) / sizeof(uint64_t)], h;

	memcpy(w, k, sizeof(w));
	h = oq_hash_words(w, sizeof(w) / sizeof(w[0]));
	h ^= h >> 29;
	return (size_t)h & m->mask;
}

static struct memo_entry *entry_lock(struct oq_sa_memo *m,
				     const struct oq_sa_memo_key *k)
{
	struct memo_entry *e =
		(struct memo_entry *)(m->entries + key_slot(m, k) * m->stride);

	if (__atomic_exchange_n(&e->lock, 1, __ATOMIC_ACQUIRE))
		return NULL;
	return e;
}

static void entry_unlock(struct memo_entry *e)
{
	__atomic_store_n(&e->lock, 0, __ATOMIC_RELEASE);
}

bool oq_sa_memo_get(struct oq_sa_memo *m, const struct oq_sa_memo_key *k,
		    void *val)
{
	struct memo_entry *e;
	bool hit;

	if (!m)
		return false;
	e = entry_lock(m, k);
	if (!e)
		return false;
	hit = e->used && !memcmp(&e->key, k, sizeof(*k));
	if (hit)
		memcpy(val, e->val, m->val_size);
	entry_unlock(e);
	return hit;
}

void oq_sa_memo_put(struct oq_sa_memo *m, const struct oq_sa_memo_key *k,
		    const void *val)
{
	struct memo_entry *e;

	if (!m)
		return;
	e = entry_lock(m, k);
	if (!e)
		return;
	e->key = *k;
	memcpy(e->val, val, m->val_size);
	e->used = 1;
	entry_unlock(e);
}
