// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: which SL a job exports (contrib/osmqos/job_decide.c): one
 * answer for all pairs, a denied pair refusing the job whatever the
 * preference, different answers refused unless a preference settles it
 * (most by port pairs, lowest, highest, a given SL), P_Keys as part of an
 * answer where a level restricts them (and only there), a one-host job's
 * denied loopback as no SL, and the preference words.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "job_decide.h"

#define G(sl, pkey, w)                                                         \
	{                                                                      \
		false, sl, pkey, w, false                                      \
	}
/* A grant whose level restricts P_Keys. */
#define R(sl, pkey, w)                                                         \
	{                                                                      \
		false, sl, pkey, w, true                                       \
	}
#define DENIED(w)                                                              \
	{                                                                      \
		true, 0, -1, w, false                                          \
	}

static struct oq_job_prefer pref(const char *s)
{
	struct oq_job_prefer p;
	char err[256];

	assert_int_equal(oq_job_prefer_parse(s, &p, err, sizeof(err)), 0);
	return p;
}

static void decide(const struct oq_job_grant *g, size_t n, const char *p,
		   struct oq_job_decision *d)
{
	struct oq_job_prefer pp;

	if (p)
		pp = pref(p);
	assert_int_equal(oq_job_decide(g, n, p ? &pp : NULL, d), 0);
}

static void test_one_answer(void **state)
{
	const struct oq_job_grant g[] = {G(3, -1, 6), G(3, -1, 2)};
	struct oq_job_decision d;

	(void)state;
	decide(g, 2, NULL, &d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_int_equal(d.sl, 3);
	assert_int_equal(d.pkey, -1);
	assert_false(d.preferred);
	assert_int_equal(d.n_opts, 1);
	assert_int_equal(d.opts[0].weight, 8);
	assert_int_equal(d.opts[0].n_answers, 2);
	oq_job_decision_free(&d);
}

static void test_denied_wins(void **state)
{
	const struct oq_job_grant g[] = {G(1, -1, 5), DENIED(2), G(2, -1, 1),
					 DENIED(3)};
	struct oq_job_decision d;

	(void)state;
	decide(g, 4, "most", &d);
	assert_int_equal(d.verdict, OQ_JOB_DENIED);
	assert_int_equal(d.n_denied, 2);
	assert_int_equal(d.denied_weight, 5);
	assert_int_equal(d.first_denied, 1);
	assert_int_equal(d.sl, -1);
	oq_job_decision_free(&d);
}

static void test_mixed(void **state)
{
	/* SL 4 for 3 pairs in two answers, SL 2 for 5, SL 7 for 5. */
	const struct oq_job_grant g[] = {G(4, -1, 1), G(2, -1, 5), G(7, -1, 5),
					 G(4, -1, 2)};
	struct oq_job_decision d;

	(void)state;
	decide(g, 4, NULL, &d);
	assert_int_equal(d.verdict, OQ_JOB_MIXED);
	assert_int_equal(d.n_opts, 3);
	assert_int_equal(d.opts[0].sl, 2);
	assert_int_equal(d.opts[1].sl, 4);
	assert_int_equal(d.opts[1].weight, 3);
	assert_int_equal(d.opts[1].n_answers, 2);
	assert_int_equal(d.opts[1].first, 0);
	assert_int_equal(d.opts[2].first, 2);
	oq_job_decision_free(&d);
	decide(g, 4, "fail", &d);
	assert_int_equal(d.verdict, OQ_JOB_MIXED);
	oq_job_decision_free(&d);
	/* most: a tie of 5 and 5 goes to the lower SL. */
	decide(g, 4, "most", &d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_int_equal(d.sl, 2);
	assert_true(d.preferred);
	oq_job_decision_free(&d);
	decide(g, 4, "lowest", &d);
	assert_int_equal(d.sl, 2);
	oq_job_decision_free(&d);
	decide(g, 4, "highest", &d);
	assert_int_equal(d.sl, 7);
	oq_job_decision_free(&d);
	decide(g, 4, "4", &d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_int_equal(d.sl, 4);
	oq_job_decision_free(&d);
	/* An SL no pair got settles nothing. */
	decide(g, 4, "5", &d);
	assert_int_equal(d.verdict, OQ_JOB_MIXED);
	oq_job_decision_free(&d);
}

static void test_pkeys(void **state)
{
	/* Same SL, P_Keys restricted by the levels and different: two
	 * answers. */
	const struct oq_job_grant g[] = {R(3, 3, 4), R(3, 5, 1)};
	const struct oq_job_grant one[] = {R(3, 3, 4), R(3, 3, 1)};
	/* One pair's level restricts the P_Key the other pair gets too:
	 * one answer, and the P_Key is exported. */
	const struct oq_job_grant some[] = {G(3, 2, 4), R(3, 2, 2)};
	/* ... but not when the other pair's own P_Key differs. */
	const struct oq_job_grant apart[] = {G(3, 2, 4), R(3, 0x7fff, 2)};
	/* No level restricts: P_Keys are the stacks' choice, not an answer
	 * of their own. */
	const struct oq_job_grant free_keys[] = {G(3, 2, 4), G(3, 0x7fff, 2)};
	struct oq_job_decision d;

	(void)state;
	decide(g, 2, NULL, &d);
	assert_int_equal(d.verdict, OQ_JOB_MIXED);
	assert_true(d.by_pkey);
	oq_job_decision_free(&d);
	decide(g, 2, "3", &d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_int_equal(d.pkey, 3); /* the SL's answer most pairs got */
	oq_job_decision_free(&d);
	decide(one, 2, NULL, &d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_int_equal(d.pkey, 3);
	oq_job_decision_free(&d);
	decide(some, 2, NULL, &d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_int_equal(d.n_opts, 1);
	assert_int_equal(d.sl, 3);
	assert_int_equal(d.pkey, 2);
	oq_job_decision_free(&d);
	decide(apart, 2, NULL, &d);
	assert_int_equal(d.verdict, OQ_JOB_MIXED);
	assert_int_equal(d.n_opts, 2);
	assert_int_equal(d.opts[0].pkey, 2);
	assert_false(d.opts[0].restricted);
	assert_int_equal(d.opts[1].pkey, 0x7fff);
	assert_true(d.opts[1].restricted);
	oq_job_decision_free(&d);
	/* The preferred answer exports its P_Key only if restricted. */
	decide(apart, 2, "most", &d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_int_equal(d.pkey, -1);
	oq_job_decision_free(&d);
	decide(free_keys, 2, NULL, &d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_false(d.by_pkey);
	assert_int_equal(d.n_opts, 1);
	assert_int_equal(d.pkey, -1);
	oq_job_decision_free(&d);
}

static void test_one_host(void **state)
{
	/* A one-host job's loopback denied: no SL, not a refusal; its
	 * loopback granted: the SL as for any job. */
	const struct oq_job_grant denied[] = {DENIED(1)};
	const struct oq_job_grant granted[] = {G(2, -1, 1)};
	struct oq_job_decision d;

	(void)state;
	decide(denied, 1, NULL, &d);
	assert_int_equal(d.verdict, OQ_JOB_DENIED);
	oq_job_decide_one_host(&d);
	assert_int_equal(d.verdict, OQ_JOB_UNSET);
	assert_int_equal(d.sl, -1);
	oq_job_decision_free(&d);
	decide(granted, 1, NULL, &d);
	oq_job_decide_one_host(&d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_int_equal(d.sl, 2);
	oq_job_decision_free(&d);
}

static void test_empty(void **state)
{
	struct oq_job_decision d;

	(void)state;
	decide(NULL, 0, NULL, &d);
	assert_int_equal(d.verdict, OQ_JOB_EMPTY);
	oq_job_decision_free(&d);
}

static void test_prefer_words(void **state)
{
	struct oq_job_prefer p;
	char err[256], buf[16];

	(void)state;
	p = pref("highest");
	assert_int_equal(p.mode, OQ_PREFER_HIGHEST);
	oq_job_prefer_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "highest");
	p = pref("0x0f");
	assert_int_equal(p.mode, OQ_PREFER_SL);
	assert_int_equal(p.sl, 15);
	oq_job_prefer_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "15");
	assert_int_equal(oq_job_prefer_parse("16", &p, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "an SL 0..15"));
	assert_int_equal(oq_job_prefer_parse("-1", &p, err, sizeof(err)), -1);
	assert_int_equal(oq_job_prefer_parse("", &p, err, sizeof(err)), -1);
	assert_int_equal(oq_job_prefer_parse("Most", &p, err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_answer),
		cmocka_unit_test(test_denied_wins),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_pkeys),
		cmocka_unit_test(test_one_host),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_prefer_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
