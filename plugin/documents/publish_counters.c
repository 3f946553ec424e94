// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Counters the SA front fills and the published metrics read: answers per
 * QoS level and the decision-latency histogram.  SA threads call these
 * concurrently; everything but adding a new level name is one relaxed
 * atomic add, so counting never makes an SA thread wait on the sweep.
 */
#include <stdlib.h>
#include <string.h>

#include "documents.h"

/* Prometheus-style 1-2.5-5 steps from 1 us to 10 ms: a decision from the
 * snapshot takes microseconds; anything near 10 ms is worth seeing. */
/* clang-format off */
const double oq_publish_lat_bounds[OQ_PUBLISH_LAT_BUCKETS] = {
	1e-6, 2.5e-6, 5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4,
	2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2,
};
/* clang-format on */

void oq_publish_counters_init(struct oq_publish_counters *c)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	atomic_init(&c->n_levels, 0);
	for (i = 0; i < OQ_PUBLISH_LEVELS_MAX; i++)
		atomic_init(&c->answered[i], 0);
	atomic_init(&c->answered_none, 0);
	atomic_init(&c->answered_other, 0);
	for (i = 0; i <= OQ_PUBLISH_LAT_BUCKETS; i++)
		atomic_init(&c->lat[i], 0);
	atomic_init(&c->lat_sum_ns, 0);
	atomic_init(&c->audit_dropped, 0);
	atomic_init(&c->audit_unopened, 0);
}

void oq_publish_counters_destroy(struct oq_publish_counters *c)
{
	unsigned int i, n = atomic_load(&c->n_levels);

	for (i = 0; i < n; i++)
		free(c->level[i]);
	pthread_mutex_destroy(&c->lock);
}

static void add1(atomic_uint_least64_t *v)
{
	atomic_fetch_add_explicit(v, 1, memory_order_relaxed);
}

/* Index of the level named name, or -1.  Names below n are complete:
 * n is published with release order after the name was stored. */
static int find_level(struct oq_publish_counters *c, const char *name,
		      unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcmp(c->level[i], name))
			return (int)i;
	return -1;
}

int oq_publish_level_slot(struct oq_publish_counters *c, const char *level)
{
	unsigned int n;
	int i;

	if (!level || !*level)
		return OQ_PUBLISH_SLOT_NONE;
	n = atomic_load_explicit(&c->n_levels, memory_order_acquire);
	i = find_level(c, level, n);
	if (i < 0) {
		pthread_mutex_lock(&c->lock);
		n = atomic_load_explicit(&c->n_levels, memory_order_relaxed);
		i = find_level(c, level, n);
		/* The whole name, however long: a cut one would count
		 * two levels that share its first bytes as one.  Out of
		 * memory, the answer goes to "(other)". */
		if (i < 0 && n < OQ_PUBLISH_LEVELS_MAX &&
		    (c->level[n] = strdup(level))) {
			i = (int)n;
			atomic_store_explicit(&c->n_levels, n + 1,
					      memory_order_release);
		}
		pthread_mutex_unlock(&c->lock);
	}
	return i < 0 ? OQ_PUBLISH_SLOT_OTHER : i;
}

void oq_publish_count_slot(struct oq_publish_counters *c, int slot)
{
	if (slot == OQ_PUBLISH_SLOT_NONE)
		add1(&c->answered_none);
	else if (slot < 0 || slot >= OQ_PUBLISH_LEVELS_MAX)
		add1(&c->answered_other);
	else
		add1(&c->answered[slot]);
}

void oq_publish_count_answer(struct oq_publish_counters *c, const char *level)
{
	if (c)
		oq_publish_count_slot(c, oq_publish_level_slot(c, level));
}

void oq_publish_observe_latency(struct oq_publish_counters *c, double seconds)
{
	unsigned int i;

	if (!c)
		return;
	if (!(seconds > 0)) /* negative, zero or NaN */
		seconds = 0;
	for (i = 0; i < OQ_PUBLISH_LAT_BUCKETS; i++)
		if (seconds <= oq_publish_lat_bounds[i])
			break;
	add1(&c->lat[i]);
	/* Sum in ns as an integer (no atomic double); an hour-long outlier
	 * is capped so the sum cannot wrap from one observation. */
	if (seconds > 3600)
		seconds = 3600;
	atomic_fetch_add_explicit(&c->lat_sum_ns,
				  (uint_least64_t)(seconds * 1e9 + 0.5),
				  memory_order_relaxed);
}

void oq_publish_set_audit_dropped(struct oq_publish_counters *c, uint64_t n)
{
	uint64_t cur;

	if (!c)
		return;
	/* Two threads set it from readings taken at different moments (the
	 * sweep and the refresher): keep the larger, a counter never goes
	 * back. */
	cur = atomic_load_explicit(&c->audit_dropped, memory_order_relaxed);
	while (n > cur && !atomic_compare_exchange_weak_explicit(
				  &c->audit_dropped, &cur, n,
				  memory_order_relaxed, memory_order_relaxed))
		;
}

void oq_publish_count_unaudited(struct oq_publish_counters *c)
{
	if (c)
		atomic_fetch_add_explicit(&c->audit_unopened, 1,
					  memory_order_relaxed);
}

void oq_publish_counters_read(struct oq_publish_counters *c,
			      struct oq_publish_counts *out)
{
	uint64_t run = 0;
	unsigned int i;

	memset(out, 0, sizeof(*out));
	out->n_levels =
		atomic_load_explicit(&c->n_levels, memory_order_acquire);
	out->level = (const char *const *)c->level;
	for (i = 0; i < out->n_levels; i++)
		out->answered[i] = atomic_load_explicit(&c->answered[i],
							memory_order_relaxed);
	out->answered_none =
		atomic_load_explicit(&c->answered_none, memory_order_relaxed);
	out->answered_other =
		atomic_load_explicit(&c->answered_other, memory_order_relaxed);
	/* Cumulative from the per-bucket counts, so +Inf (the count) always
	 * equals the last bucket even while SA threads keep counting. */
	for (i = 0; i <= OQ_PUBLISH_LAT_BUCKETS; i++) {
		run += atomic_load_explicit(&c->lat[i], memory_order_relaxed);
		out->lat_cum[i] = run;
	}
	out->lat_sum = (double)atomic_load_explicit(&c->lat_sum_ns,
						    memory_order_relaxed) /
		       1e9;
	out->audit_dropped =
		atomic_load_explicit(&c->audit_dropped, memory_order_relaxed) +
		atomic_load_explicit(&c->audit_unopened, memory_order_relaxed);
}
