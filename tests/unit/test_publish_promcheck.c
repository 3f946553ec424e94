// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the strict Prometheus text-format checker that the publish
 * tests rely on (tests/unit/publish_promcheck.c) must accept valid text
 * and reject each kind of invalid text, or it proves nothing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "publish_promcheck.h"

#define G(n) "# HELP " n " h\n# TYPE " n " gauge\n"
#define C(n) "# HELP " n " h\n# TYPE " n " counter\n"
#define H(n) "# HELP " n " h\n# TYPE " n " histogram\n"

static long check(const char *text, char *err, size_t len)
{
	return oq_promcheck(text, strlen(text), err, len);
}

static void test_accepts(void **state)
{
	static const char *const good[] = {
		"",
		G("a") "a 1\n",
		G("a") "a{x=\"1\",y=\"q\\\"\\\\\\n\xc3\xa9\"} -2.5e-3\n",
		G("a") "a{x=\"1\",} NaN\n",
		G("a") "a +Inf 1700000000000\n",
		G("a:b_c") "a:b_c{l=\"\"} .5\n# a comment\n",
		C("r_total") "r_total{l=\"a\"} 0\nr_total{l=\"b\"} 3\n",
		H("h") "h_bucket{le=\"0.1\"} 1\nh_bucket{le=\"1\"} 2\n"
		       "h_bucket{le=\"+Inf\"} 3\nh_sum 4.5\nh_count 3\n",
		"# HELP e with \\\\ and \\n escapes\n# TYPE e gauge\ne 1\n",
	};
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (check(good[i], err, sizeof(err)) < 0)
			fail_msg("rejected #%zu: %s", i, err);
	assert_int_equal(check(good[6], err, sizeof(err)), 2);
	assert_int_equal(check(good[7], err, sizeof(err)), 5);
}

static void test_rejects(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{"a 1\n", "without HELP and TYPE"},
		{G("a") "a 1", "newline"},
		{G("a") "a 1\nb 2\n", "without HELP"},
		{"# TYPE a gauge\na 1\n", "needs HELP"},
		{G("a") "# TYPE a gauge\n", "second TYPE"},
		{G("a") "a 1\n# HELP a again\n", "second HELP"},
		{G("a") "a{x=\"\\t\"} 1\n", "bad escape"},
		{G("a") "a{x=\"1\"} 1\na{x=\"1\"} 2\n", "twice"},
		{G("a") "a{x=\"1\",x=\"2\"} 1\n", "twice"},
		{G("a") "a{__x=\"1\"} 1\n", "reserved"},
		{G("a") "a{1x=\"1\"} 1\n", "label name"},
		{G("a") "a{x=1} 1\n", "expected ="},
		{G("a") "a{x=\"1\" 1\n", "expected , or }"},
		{G("a") "a 1e\n", "bad value"},
		{G("a") "a 0x10\n", "bad value"},
		{G("a") "a 1 2.5\n", "timestamp"},
		{G("a") "a  \n", "bad value"},
		{G("a") "a{x=\"\xff\"} 1\n", "UTF-8"},
		{G("a") G("b") "a 1\n", "not together"},
		{G("a") "a 1\n" G("b") "b 1\na 2\n", "not together"},
		{C("r") "r 1\n", "_total"},
		{C("r_total") "r_total -1\n", "counter"},
		{"# HELP t h\n# TYPE t sometype\nt 1\n", "unknown TYPE"},
		{G("a") "a 1\n# TYPE a gauge\n", "second TYPE"},
		{H("h") "h_bucket{le=\"1\"} 2\nh_bucket{le=\"0.1\"} 3\n"
			"h_bucket{le=\"+Inf\"} 3\nh_sum 1\nh_count 3\n",
		 "not increasing"},
		{H("h") "h_bucket{le=\"0.1\"} 2\nh_bucket{le=\"1\"} 1\n"
			"h_bucket{le=\"+Inf\"} 3\nh_sum 1\nh_count 3\n",
		 "cumulative"},
		{H("h") "h_bucket{le=\"0.1\"} 2\nh_sum 1\nh_count 2\n", "+Inf"},
		{H("h") "h_bucket{le=\"+Inf\"} 3\nh_sum 1\nh_count 4\n",
		 "!= _count"},
		{H("h") "h_bucket{le=\"+Inf\"} 3\nh_count 3\n", "_sum"},
		{H("h") "h 3\n", "_bucket"},
		{H("h") "h_count{le=\"1\"} 3\n", "le goes"},
		{H("h") "h_bucket{le=\"x\"} 3\n", "bad le"},
		{"# HELP a h \\t\n# TYPE a gauge\na 1\n", "escape in HELP"},
	};
	char err[256];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (check(bad[i].text, err, sizeof(err)) >= 0)
			fail_msg("accepted #%zu: %s", i, bad[i].text);
		if (!strstr(err, bad[i].why))
			fail_msg("#%zu: \"%s\" does not say \"%s\"", i, err,
				 bad[i].why);
	}
	/* A NUL inside the text. */
	assert_int_equal(oq_promcheck(G("a") "a 1\n\0b", sizeof(G("a")) + 5,
				      err, sizeof(err)),
			 -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepts),
		cmocka_unit_test(test_rejects),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
