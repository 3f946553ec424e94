// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the audit log writer (plugin/audit/audit.c): records in
 * order, one JSON line per answer, the bounded queue, flush, close and
 * destroy, concurrent submitters.  Rotation is in test_audit_rotation.c,
 * write errors in test_audit_errors.c, refused paths and file modes in
 * test_audit_refusals.c, formatting in test_audit_json.c. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "audit/audit.h"
#include "audit/audit_test.h"
#include "audit_fixture.h"
#include "audit_test_util.h"

struct submitter {
	struct oq_audit *w;
	unsigned int id;
	int accepted;
};

static void *submit_many(void *arg)
{
	struct submitter *s = arg;
	struct oq_audit_record r;
	int i;

	fill_record(&r, s->id);
	for (i = 0; i < 20000; i++)
		s->accepted += oq_audit_submit(s->w, &r) == 0;
	return NULL;
}

static void test_write_parse_back(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit_stats st;
	struct oq_audit *w;
	static int lids[1000];
	int i;

	w = oq_audit_create(f->path, 0, cap_log, &f->log);
	assert_non_null(w);
	for (i = 0; i < 1000; i++) {
		fill_record(&r, (unsigned int)i);
		if (i % 2)
			r.time.tv_sec = r.time.tv_nsec = 0; /* stamp now */
		assert_int_equal(oq_audit_submit(w, &r), 0);
	}
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.submitted, 1000);
	assert_int_equal(st.written, 1000);
	assert_int_equal(st.dropped, 0);
	assert_int_equal(st.write_errors, 0);
	oq_audit_destroy(w);

	assert_int_equal(check_lines(f->path, lids, 1000), 1000);
	for (i = 0; i < 1000; i++)
		assert_int_equal(lids[i], i);
	assert_int_equal(f->log.n_error, 0);
}

static void test_time_stamped_at_submit(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit *w;
	char *buf, *t, year[8];
	time_t now = time(NULL);
	struct tm tm;

	w = oq_audit_create(f->path, 8, cap_log, &f->log);
	assert_non_null(w);
	fill_record(&r, 1);
	r.time.tv_sec = r.time.tv_nsec = 0;
	oq_audit_submit(w, &r);
	oq_audit_destroy(w);
	buf = slurp(f->path);
	t = strstr(buf, "\"time\":\"");
	assert_non_null(t);
	gmtime_r(&now, &tm);
	strftime(year, sizeof(year), "%Y-", &tm);
	assert_memory_equal(t + 8, year, 5);
	/* YYYY-MM-DDTHH:MM:SS.uuuuuuZ */
	assert_int_equal(t[8 + 10], 'T');
	assert_int_equal(t[8 + 19], '.');
	assert_int_equal(t[8 + 26], 'Z');
	free(buf);
}

static void test_bounded_queue_drops(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit_stats st;
	struct timespec t0, t1;
	struct oq_audit *w;
	int i, ok = 0;
	double secs;

	w = oq_audit_create(f->path, 64, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_test_pause(w, true);
	fill_record(&r, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 100000; i++)
		ok += oq_audit_submit(w, &r) == 0;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	/* a stalled writer must not slow submitters down: 100k submits on
	 * a full ring are pure counter bumps (loose bound for slow CI) */
	assert_true(secs < 2.0);
	assert_int_equal(ok, 64);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.submitted, 100000);
	assert_int_equal(st.dropped_full, 100000 - 64);
	assert_int_equal(st.dropped, 100000 - 64);
	assert_int_equal(st.written, 0);
	assert_int_equal(oq_audit_flush(w, 50), -1); /* still paused */

	oq_audit_test_pause(w, false);
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.written, 64);
	assert_accounted(w);
	/* room again once drained */
	assert_int_equal(oq_audit_submit(w, &r), 0);
	oq_audit_destroy(w);
	assert_int_equal(check_lines(f->path, NULL, 0), 65);
	/* the drops were logged */
	assert_true(f->log.n_error >= 1);
	assert_non_null(strstr(f->log.last_error, "99936 in total"));
}

/* The counts oq_audit_close() returns include what was still queued. */
static void test_close_counts_the_last_batch(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit_stats st;
	struct oq_audit *w;
	static int lids[300];
	int i;

	w = oq_audit_create(f->path, 1000, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_test_pause(w, true);
	for (i = 0; i < 300; i++) {
		fill_record(&r, (unsigned int)i);
		assert_int_equal(oq_audit_submit(w, &r), 0);
	}
	memset(&st, 0xff, sizeof(st));
	oq_audit_close(w, &st);
	assert_int_equal(st.written, 300);
	assert_int_equal(st.dropped, 0);
	assert_int_equal(check_lines(f->path, lids, 300), (int)st.lines);
}

static void test_destroy_flushes(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit *w;
	static int lids[500];
	int i;

	w = oq_audit_create(f->path, 1000, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_test_pause(w, true);
	for (i = 0; i < 500; i++) {
		fill_record(&r, (unsigned int)i);
		assert_int_equal(oq_audit_submit(w, &r), 0);
	}
	oq_audit_destroy(w); /* overrides the pause */
	assert_int_equal(check_lines(f->path, lids, 500), 500);
	for (i = 0; i < 500; i++)
		assert_int_equal(lids[i], i);
}

static void test_appends_to_existing(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit *w;
	int k;

	fill_record(&r, 3);
	for (k = 0; k < 2; k++) {
		w = oq_audit_create(f->path, 8, cap_log, &f->log);
		assert_non_null(w);
		oq_audit_submit(w, &r);
		oq_audit_destroy(w);
	}
	assert_int_equal(check_lines(f->path, NULL, 0), 2);
}

/* Identical answers in one batch share a line with their count and last
 * time; different answers keep their own lines, in order; every record
 * is counted as written. */
static void test_identical_answers_share_a_line(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit_stats st;
	struct oq_audit *w;
	char *text, *p;
	int i, lines = 0;

	w = oq_audit_create(f->path, 0, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_test_pause(w, true);
	for (i = 0; i < 300; i++) {
		/* 100 x lid 1, then lid 2 and lid 1 alternating. */
		fill_record(&r, i < 100 || i % 2 ? 1u : 2u);
		r.time.tv_sec = 1700000000 + i;
		assert_int_equal(oq_audit_submit(w, &r), 0);
	}
	oq_audit_test_pause(w, false);
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.submitted, 300);
	assert_int_equal(st.written, 300);
	assert_int_equal(st.lines, 2);
	assert_int_equal(st.dropped, 0);
	oq_audit_destroy(w);

	text = slurp(f->path);
	assert_non_null(text);
	for (p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 2);
	/* lid 1: 100 + 100 answers, the last at +299; lid 2: 100, last at
	 * +298. */
	assert_non_null(strstr(text, "\"count\":200,\"time_last\":\"2023-11-"
				     "14T22:18:19.123456Z\"}\n"));
	assert_non_null(strstr(text, "\"count\":100,\"time_last\":\"2023-11-"
				     "14T22:18:18.123456Z\"}\n"));
	assert_true(strstr(text, "\"count\":200") <
		    strstr(text, "\"count\":100"));
	free(text);
}

static void test_concurrent_submitters(void **state)
{
	struct fixture *f = *state;
	struct submitter s[4];
	pthread_t t[4];
	struct oq_audit_stats st;
	struct oq_audit *w;
	int i, accepted = 0;

	w = oq_audit_create(f->path, 512, cap_log, &f->log);
	assert_non_null(w);
	for (i = 0; i < 4; i++) {
		s[i] = (struct submitter){w, (unsigned int)i, 0};
		assert_int_equal(
			pthread_create(&t[i], NULL, submit_many, &s[i]), 0);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		accepted += s[i].accepted;
	}
	assert_int_equal(oq_audit_flush(w, 30000), 0);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.submitted, 80000);
	assert_int_equal(st.written, (uint64_t)accepted);
	assert_int_equal(st.dropped, st.dropped_full);
	assert_accounted(w);
	oq_audit_destroy(w);
	assert_int_equal(check_lines(f->path, NULL, 0), accepted);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_parse_back, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_time_stamped_at_submit,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_bounded_queue_drops, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_close_counts_the_last_batch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_destroy_flushes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_appends_to_existing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_identical_answers_share_a_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_submitters,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
