// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the counters the SA front fills (plugin/documents/publish_counters.c):
 * per-level answers with the (none) and (other) buckets, the latency
 * histogram's bucket edges, and exact totals under concurrent counting.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "documents/documents.h"

static int level_index(const struct oq_publish_counts *r, const char *name)
{
	unsigned int i;

	for (i = 0; i < r->n_levels; i++)
		if (!strcmp(r->level[i], name))
			return (int)i;
	return -1;
}

static void test_levels(void **state)
{
	struct oq_publish_counters c;
	struct oq_publish_counts r;
	char name[201];
	int i;

	(void)state;
	oq_publish_counters_init(&c);
	oq_publish_count_answer(&c, "DEFAULT");
	oq_publish_count_answer(&c, "storage");
	oq_publish_count_answer(&c, "DEFAULT");
	oq_publish_count_answer(&c, "");
	oq_publish_count_answer(&c, NULL);
	oq_publish_count_answer(NULL, "ignored");
	oq_publish_counters_read(&c, &r);
	assert_int_equal(r.n_levels, 2);
	assert_int_equal(r.answered[level_index(&r, "DEFAULT")], 2);
	assert_int_equal(r.answered[level_index(&r, "storage")], 1);
	assert_int_equal(r.answered_none, 2);
	assert_int_equal(r.answered_other, 0);

	/* Long names are kept whole: two that share their first 190 bytes
	 * are two levels, each with its own count. */
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	oq_publish_count_answer(&c, name);
	oq_publish_count_answer(&c, name);
	name[190] = 'y';
	oq_publish_count_answer(&c, name);
	oq_publish_counters_read(&c, &r);
	assert_int_equal(r.n_levels, 4);
	assert_int_equal(strlen(r.level[2]), sizeof(name) - 1);
	assert_int_equal(r.answered[level_index(&r, name)], 1);
	assert_int_equal(level_index(&r, name), 3);
	name[190] = 'x';
	assert_int_equal(r.answered[level_index(&r, name)], 2);
	assert_int_equal(level_index(&r, name), 2);

	/* Past OQ_PUBLISH_LEVELS_MAX names: the (other) bucket. */
	for (i = 0; i < OQ_PUBLISH_LEVELS_MAX + 5; i++) {
		snprintf(name, sizeof(name), "level%d", i);
		oq_publish_count_answer(&c, name);
	}
	oq_publish_counters_read(&c, &r);
	assert_int_equal(r.n_levels, OQ_PUBLISH_LEVELS_MAX);
	assert_int_equal(r.answered_other, 4 + 5);

	/* The two-step form the SA front uses (a slot per level, looked up
	 * once) counts where oq_publish_count_answer() does. */
	assert_int_equal(oq_publish_level_slot(&c, "storage"),
			 level_index(&r, "storage"));
	assert_int_equal(oq_publish_level_slot(&c, NULL), OQ_PUBLISH_SLOT_NONE);
	assert_int_equal(oq_publish_level_slot(&c, ""), OQ_PUBLISH_SLOT_NONE);
	assert_int_equal(oq_publish_level_slot(&c, "one too many"),
			 OQ_PUBLISH_SLOT_OTHER);
	oq_publish_count_slot(&c, oq_publish_level_slot(&c, "storage"));
	oq_publish_count_slot(&c, OQ_PUBLISH_SLOT_NONE);
	oq_publish_count_slot(&c, OQ_PUBLISH_SLOT_OTHER);
	oq_publish_counters_read(&c, &r);
	assert_int_equal(r.answered[level_index(&r, "storage")], 2);
	assert_int_equal(r.answered_none, 3);
	assert_int_equal(r.answered_other, 4 + 5 + 1);
	oq_publish_counters_destroy(&c);
}

static void test_latency_buckets(void **state)
{
	struct oq_publish_counters c;
	struct oq_publish_counts r;
	unsigned int i;

	(void)state;
	oq_publish_counters_init(&c);
	/* Exactly on a bound counts in that bucket (le = "<="). */
	for (i = 0; i < OQ_PUBLISH_LAT_BUCKETS; i++)
		oq_publish_observe_latency(&c, oq_publish_lat_bounds[i]);
	oq_publish_observe_latency(&c, 0.5);
	oq_publish_observe_latency(&c, -1);
	oq_publish_observe_latency(&c, NAN);
	oq_publish_counters_read(&c, &r);
	/* -1 and NaN count as 0: first bucket. */
	assert_int_equal(r.lat_cum[0], 3);
	for (i = 1; i < OQ_PUBLISH_LAT_BUCKETS; i++)
		assert_int_equal(r.lat_cum[i], 3 + i);
	assert_int_equal(r.lat_cum[OQ_PUBLISH_LAT_BUCKETS],
			 OQ_PUBLISH_LAT_BUCKETS + 3);
	assert_true(fabs(r.lat_sum - (0.5 + 0.01 + 0.005 + 0.0025 + 0.001 +
				      0.0005 + 0.00025 + 0.0001 + 5e-5 +
				      2.5e-5 + 1e-5 + 5e-6 + 2.5e-6 + 1e-6)) <
		    1e-9);
	for (i = 1; i < OQ_PUBLISH_LAT_BUCKETS; i++)
		assert_true(oq_publish_lat_bounds[i] >
			    oq_publish_lat_bounds[i - 1]);
	oq_publish_set_audit_dropped(&c, 11);
	oq_publish_set_audit_dropped(&c, 12);
	/* An older reading set later (another thread's) does not lower it. */
	oq_publish_set_audit_dropped(&c, 5);
	oq_publish_counters_read(&c, &r);
	assert_int_equal(r.audit_dropped, 12);
	oq_publish_counters_destroy(&c);
}

#define THREADS 4
#define PER	20000

static void *hammer(void *arg)
{
	struct oq_publish_counters *c = arg;
	char name[16];
	int i;

	for (i = 0; i < PER; i++) {
		snprintf(name, sizeof(name), "L%d", i % 7);
		oq_publish_count_answer(c, name);
		oq_publish_observe_latency(c, 3e-6);
	}
	return NULL;
}

static void test_concurrent_counting(void **state)
{
	struct oq_publish_counters c;
	struct oq_publish_counts r;
	pthread_t t[THREADS];
	uint64_t total = 0;
	unsigned int i;

	(void)state;
	oq_publish_counters_init(&c);
	for (i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, hammer, &c), 0);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	oq_publish_counters_read(&c, &r);
	assert_int_equal(r.n_levels, 7); /* no name added twice */
	for (i = 0; i < r.n_levels; i++)
		total += r.answered[i];
	assert_int_equal(total, THREADS * PER);
	assert_int_equal(r.lat_cum[OQ_PUBLISH_LAT_BUCKETS], THREADS * PER);
	assert_int_equal(r.lat_cum[1], 0);
	assert_int_equal(r.lat_cum[2], THREADS * PER);
	oq_publish_counters_destroy(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_latency_buckets),
		cmocka_unit_test(test_concurrent_counting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
