/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A memo of SA answers for one sweep state.  On one state the same
 * request from the same requester gets the same answer, and SA storms are
 * mostly the same requests again: every process of a job on a node asks
 * for the same paths, and every job start asks again.  The memo answers
 * those by a lookup instead of matching, walking and predicting again.
 *
 * It belongs to the state it was filled from and goes with it, so an
 * answer never outlives the sweep, policy or partitions it was computed
 * on.  Direct-mapped with a fixed number of entries, mapped once as
 * anonymous zero pages (memory is taken only as entries fill): a
 * colliding request replaces the entry.  Thread-safe without waiting:
 * each entry has a try-lock, and a busy entry is a miss for a lookup and
 * a skipped store; the caller then computes the answer as it would
 * without a memo.  The value is the caller's, copied in and out as bytes.
 * See docs/sa-front.md.
 */
#ifndef OSMQOS_SA_MEMO_H
#define OSMQOS_SA_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/sa_path.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Largest memo, in entries (each holds a key and the caller's value),
 * and largest value, in bytes. */
#define OQ_SA_MEMO_MAX	   65536
#define OQ_SA_MEMO_VAL_MAX 65536

/* Everything a PathRecord answer depends on besides the state: the
 * method, the component mask, the requester and the request's 64 bytes
 * as received (fields the mask leaves out included, so two requests that
 * differ only there are two entries: a miss, never a wrong answer). */
struct oq_sa_memo_key {
	uint64_t comp_mask;
	uint16_t requester_lid;
	uint8_t method;
	uint8_t pad[5];
	uint8_t req[OQ_PR_REC_SIZE];
};

struct oq_sa_memo;

/* entries is rounded up to a power of two, at most OQ_SA_MEMO_MAX;
 * val_size is at most OQ_SA_MEMO_VAL_MAX.  entries or val_size 0, or
 * val_size over that: NULL (no memo) with errno EINVAL; out of memory,
 * NULL with ENOMEM. */
struct oq_sa_memo *oq_sa_memo_create(size_t entries, size_t val_size);
void oq_sa_memo_free(struct oq_sa_memo *m);
size_t oq_sa_memo_entries(const struct oq_sa_memo *m);

/* The key of a PathRecord request (pr: OQ_PR_REC_SIZE bytes). */
void oq_sa_memo_key_pr(struct oq_sa_memo_key *k, uint8_t method,
		       uint64_t comp_mask, uint16_t requester_lid,
		       const uint8_t *pr);

/* Copies the value stored for k into val (val_size bytes) and returns
 * true; false when there is none or its entry is busy.  m may be NULL. */
bool oq_sa_memo_get(struct oq_sa_memo *m, const struct oq_sa_memo_key *k,
		    void *val);
/* Stores val for k, replacing what the entry held; skipped when the entry
 * is busy.  m may be NULL. */
void oq_sa_memo_put(struct oq_sa_memo *m, const struct oq_sa_memo_key *k,
		    const void *val);

#ifdef __cplusplus
}
#endif

#endif /* OSMQOS_SA_MEMO_H */
