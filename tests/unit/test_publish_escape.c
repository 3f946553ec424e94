// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: how the published documents write text
 * (plugin/documents/publish_escape.c): JSON strings and Prometheus label
 * values from node descriptions that carry quotes, backslashes, newlines,
 * control bytes and invalid UTF-8, and ISO 8601 times; and the strict
 * JSON validator test_publish.c checks the documents with.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "documents/documents.h"
#include "publish_jsoncheck.h"

/* Quote, backslash, newline, U+00E9, a control byte, invalid UTF-8. */
#define EVIL_DESC "ev\"il\\x\ny \xc3\xa9 \x01 \xff end"

/* ---- the JSON checker itself ------------------------------------------- */

static void test_jsoncheck_is_strict(void **state)
{
	static const char *const good[] = {
		"{}",
		" [1, -0.5e+3, \"a\\u00e9\\n\", true, false, null] ",
		"{\"a\": {\"b\": []}}",
		"\"\xc3\xa9\xef\xbf\xbd\"",
		"0",
	};
	static const char *const bad[] = {
		"",
		"{",
		"[1,]",
		"{\"a\" 1}",
		"01",
		"1.",
		".5",
		"-",
		"+1",
		"\"\x01\"",
		"\"\\x\"",
		"\"\\u12g4\"",
		"\"\xff\"",
		"\"\xc0\xaf\"",
		"\"\xed\xa0\x80\"",
		"[1] [2]",
		"nul",
		"{'a': 1}",
		"NaN",
		"\"abc",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (!oq_jsoncheck(good[i], strlen(good[i])))
			fail_msg("rejected %s", good[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (oq_jsoncheck(bad[i], strlen(bad[i])))
			fail_msg("accepted %s", bad[i]);
	/* A NUL is neither whitespace nor string content. */
	assert_false(oq_jsoncheck("[1]\0", 4));
	assert_false(oq_jsoncheck("\"a\0b\"", 5));
}

/* ---- escaping ---------------------------------------------------------- */

static char *esc(void (*fn)(FILE *, const char *, size_t), const char *s,
		 size_t max)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, s, max);
	fclose(f);
	return buf;
}

static void test_json_escaping(void **state)
{
	char *e = esc(oq_json_fescape, EVIL_DESC, 65);
	char raw[8] = {'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'}; /* no NUL */

	(void)state;
	assert_string_equal(e, "ev\\\"il\\\\x\\ny \xc3\xa9 \\u0001 "
			       "\xef\xbf\xbd end");
	free(e);
	/* Overlong, surrogate, cut sequence, DEL, tab. */
	e = esc(oq_json_fescape, "\xc0\xaf|\xed\xa0\x80|\xe2\x82|\x7f|\t", 64);
	assert_string_equal(e, "\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef"
			       "\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf"
			       "\xbd|\\u007f|\\t");
	free(e);
	/* max bounds the read: a description without a NUL. */
	e = esc(oq_json_fescape, raw, 5);
	assert_string_equal(e, "abcde");
	free(e);
	e = esc(oq_json_fescape, NULL, 5);
	assert_string_equal(e, "");
	free(e);
}

static void test_prom_escaping(void **state)
{
	char *e = esc(oq_publish_prom_text, EVIL_DESC, 65);

	(void)state;
	assert_string_equal(e, "ev\\\"il\\\\x\\ny \xc3\xa9 \xef\xbf\xbd "
			       "\xef\xbf\xbd end");
	free(e);
	e = esc(oq_publish_prom_text, "a\tb\rc\xf4\x90\x80\x80", 64);
	assert_string_equal(e, "a\xef\xbf\xbd"
			       "b\xef\xbf\xbd"
			       "c"
			       "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef"
			       "\xbf\xbd");
	free(e);
}

static void test_iso8601(void **state)
{
	char b[32];

	(void)state;
	oq_publish_iso8601(1700000000, b, sizeof(b));
	assert_string_equal(b, "2023-11-14T22:13:20Z");
	oq_publish_iso8601(0, b, sizeof(b));
	assert_string_equal(b, "1970-01-01T00:00:00Z");
	oq_publish_iso8601(0, b, 5); /* too small: empty, never cut */
	assert_string_equal(b, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_jsoncheck_is_strict),
		cmocka_unit_test(test_json_escaping),
		cmocka_unit_test(test_prom_escaping),
		cmocka_unit_test(test_iso8601),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
