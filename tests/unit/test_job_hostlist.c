// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: Slurm host list expressions (contrib/osmqos/hostlist.c):
 * ranges with their zero padding, several ranges in one name, the
 * separators Slurm writes, and every malformed or oversized list refused
 * with the byte where it goes wrong and nothing half added.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>

#include "hostlist.h"

static char err[512];

/* The list as one space-separated string ("" when empty). */
static const char *joined(const struct oq_hostlist *hl)
{
	static char buf[4096];
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < hl->n; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s",
				      i ? " " : "", hl->v[i]);
	return buf;
}

static void expect(const char *expr, const char *want)
{
	struct oq_hostlist hl = {0};

	if (oq_hostlist_add(&hl, expr, 0, err, sizeof(err)))
		fail_msg("'%s' refused: %s", expr, err);
	assert_string_equal(joined(&hl), want);
	oq_hostlist_free(&hl);
}

/* Refused, with this text in the error, and the list unchanged. */
static void refused(const char *expr, size_t max, const char *why)
{
	struct oq_hostlist hl = {0};

	assert_int_equal(oq_hostlist_add(&hl, "keep", 0, err, sizeof(err)), 0);
	if (!oq_hostlist_add(&hl, expr, max, err, sizeof(err)))
		fail_msg("'%.60s' was taken: %s", expr, joined(&hl));
	if (!strstr(err, why))
		fail_msg("'%.60s': no '%s' in: %s", expr, why, err);
	assert_int_equal(hl.n, 1);
	assert_string_equal(hl.v[0], "keep");
	oq_hostlist_free(&hl);
}

static void test_plain_names(void **state)
{
	(void)state;
	expect("cn01", "cn01");
	expect("cn01,cn02", "cn01 cn02");
	expect("  cn01 \t cn02\ncn03,\r\n", "cn01 cn02 cn03");
	expect("a.example.org,b_1-x", "a.example.org b_1-x");
	expect("", "");
	expect(",,  ,", "");
}

static void test_ranges_keep_padding(void **state)
{
	(void)state;
	expect("cn[01-04]", "cn01 cn02 cn03 cn04");
	expect("cn[1-3]", "cn1 cn2 cn3");
	expect("cn[08-11]", "cn08 cn09 cn10 cn11");
	expect("cn[9-11]", "cn9 cn10 cn11");
	expect("cn[001-2]", "cn001 cn002");
	expect("cn[01-02,07,10-11]", "cn01 cn02 cn07 cn10 cn11");
	expect("cn[5]", "cn5");
	expect("[1-2]", "1 2");
	expect("cn[1-2]-ib", "cn1-ib cn2-ib");
}

static void test_several_ranges(void **state)
{
	(void)state;
	/* The last range turns fastest, as scontrol show hostnames. */
	expect("r[1-2]n[01-02]", "r1n01 r1n02 r2n01 r2n02");
	expect("r[1-2]n[1,3]x", "r1n1x r1n3x r2n1x r2n3x");
	expect("cn[01-02],gpu[1-2],login", "cn01 cn02 gpu1 gpu2 login");
}

static void test_malformed(void **state)
{
	(void)state;
	refused("cn[01-04", 0, "ends inside '['");
	refused("cn[01-04,", 0, "ends inside '['");
	refused("cn[]", 0, "byte 4");
	refused("cn[a-b]", 0, "where a number");
	refused("cn[4-1]", 0, "runs backwards");
	refused("cn[1-]", 0, "needs the upper bound");
	refused("cn[1-2]]", 0, "']' cannot be in a host name");
	refused("cn[1[2]]", 0, "inside '[...]'");
	refused("cn[1 2]", 0, "inside '[...]'");
	refused("cn/1", 0, "'/' cannot be in a host name");
	refused("cn$(reboot)", 0, "'$' cannot be in a host name");
	refused("good,cn\xff", 0, "byte 0xff cannot be");
	refused("caf\xc3\xa9", 0, "byte 0xc3");
	refused("cn[1234567890123456789]", 0, "more than 18 digits");
	/* The byte offset is where it goes wrong. */
	refused("a,b,c[", 0, "at byte 7");
}

static void test_limits(void **state)
{
	char name[400];

	(void)state;
	refused("cn[1-5]", 4, "more than 4 hosts");
	refused("a,b,c,d,e", 4, "more than 4 hosts");
	refused("r[1-1000]n[1-1000]x[1-10]", 0, "more than 1000000 hosts");
	refused("cn[0-99999999999999]", 0, "more than");
	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	refused(name, 0, "longer than 255 bytes");
	/* 255 bytes is still a name. */
	name[255] = '\0';
	{
		struct oq_hostlist hl = {0};

		assert_int_equal(
			oq_hostlist_add(&hl, name, 0, err, sizeof(err)), 0);
		assert_int_equal(hl.n, 1);
		oq_hostlist_free(&hl);
	}
	/* A big list is expanded in full. */
	{
		struct oq_hostlist hl = {0};

		assert_int_equal(oq_hostlist_add(&hl, "n[000001-100000]", 0,
						 err, sizeof(err)),
				 0);
		assert_int_equal(hl.n, 100000);
		assert_string_equal(hl.v[99999], "n100000");
		oq_hostlist_free(&hl);
	}
}

static void test_uniq(void **state)
{
	struct oq_hostlist hl = {0};

	(void)state;
	assert_int_equal(
		oq_hostlist_add(&hl, "cn[03-01],CN02", 0, err, sizeof(err)),
		-1); /* backwards */
	assert_int_equal(oq_hostlist_add(&hl, "cn03,cn01,CN02,cn02,cn01", 0,
					 err, sizeof(err)),
			 0);
	oq_hostlist_uniq(&hl);
	assert_int_equal(hl.n, 3);
	assert_string_equal(hl.v[0], "cn01");
	assert_true(!strcasecmp(hl.v[1], "cn02"));
	assert_string_equal(hl.v[2], "cn03");
	oq_hostlist_free(&hl);
	oq_hostlist_uniq(&hl); /* empty */
	assert_int_equal(hl.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_names),
		cmocka_unit_test(test_ranges_keep_padding),
		cmocka_unit_test(test_several_ranges),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_uniq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
