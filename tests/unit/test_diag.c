// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: diagnostics collector. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/diag.h>

static void test_format_gcc_style(void **state)
{
	struct oq_diags d;
	struct oq_loc loc = { "p.conf", 12, 7 };
	char buf[256];

	oq_diags_init(&d);
	oq_diag_hint(oq_error(&d, loc, "unknown keyword '%s'", "foo"),
		     "did you mean '%s'?", "use");
	oq_warning(&d, (struct oq_loc){ "p.conf", 3, 0 }, "unused group");
	assert_int_equal(d.n, 2);
	assert_int_equal(d.n_errors, 1);
	assert_int_equal(d.n_warnings, 1);
	oq_diag_format(&d.v[0], buf, sizeof(buf));
	assert_string_equal(buf, "p.conf:12:7: error: unknown keyword 'foo'");
	assert_string_equal(d.v[0].hint, "did you mean 'use'?");
	oq_diag_format(&d.v[1], buf, sizeof(buf));
	assert_string_equal(buf, "p.conf:3: warning: unused group");
	oq_diags_free(&d);
}

/* Names quoted from a junk file must not put raw control bytes into
 * OpenSM's log or a terminal. */
static void test_control_bytes_escaped(void **state)
{
	struct oq_diags d;
	struct oq_loc loc = { "p.conf", 1, 1 };

	(void)state;
	oq_diags_init(&d);
	oq_diag_hint(oq_error(&d, loc, "undefined qos-level '%s'",
			      "a\x17" "b\x1b" "[2J\x7f"),
		     "did you mean '%s'?", "x\ty");
	assert_string_equal(d.v[0].msg,
			    "undefined qos-level 'a\\x17b\\x1b[2J\\x7f'");
	assert_string_equal(d.v[0].hint, "did you mean 'x\\x09y'?");
	oq_diags_free(&d);
}

static void test_sort_is_by_position(void **state)
{
	struct oq_diags d;

	oq_diags_init(&d);
	oq_error(&d, (struct oq_loc){ "a", 9, 1 }, "third");
	oq_error(&d, (struct oq_loc){ "a", 2, 5 }, "second");
	oq_error(&d, (struct oq_loc){ "a", 2, 1 }, "first");
	oq_diags_sort(&d);
	assert_string_equal(d.v[0].msg, "first");
	assert_string_equal(d.v[1].msg, "second");
	assert_string_equal(d.v[2].msg, "third");
	oq_diags_free(&d);
}

static void test_cap_keeps_counts(void **state)
{
	struct oq_diags d;
	int i;

	oq_diags_init(&d);
	d.max = 3;
	for (i = 0; i < 10; i++)
		oq_error(&d, (struct oq_loc){ "a", (unsigned)i + 1, 1 }, "e%d",
			 i);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.n_errors, 10);
	assert_int_equal(d.n_dropped, 7);
	oq_diags_free(&d);
}

/* A kind is capped, the others are still kept: a flood of one warning
 * cannot push an error of another kind out of the list. */
static void test_cap_per_kind(void **state)
{
	struct oq_diags d;
	int i;

	(void)state;
	oq_diags_init(&d);
	d.max_kind = 5;
	for (i = 0; i < 50; i++)
		oq_warning(&d, (struct oq_loc){"a", (unsigned)i + 1, 1},
			   "rule %d can never match", i);
	oq_error(&d, (struct oq_loc){"a", 99, 1}, "the real problem");
	assert_int_equal(d.n, 6);
	assert_int_equal(d.n_warnings, 50);
	assert_int_equal(d.n_errors, 1);
	assert_int_equal(d.n_dropped, 45);
	assert_string_equal(d.v[5].msg, "the real problem");
	oq_diags_free(&d);
}

static void test_codes(void **state)
{
	static const struct {
		const char *fmt, *code;
	} cases[] = {
		{"unknown keyword '%s'", "unknown-keyword"},
		{"qos-level has no 'sl'", "qos-level-has-no-sl"},
		{"qos-level has no 'name'", "qos-level-has-no-name"},
		{"undefined qos-level '%s'", "undefined-qos-level"},
		{"qos-match-rule can never match: the %s at line %u matches "
		 "all of its queries",
		 "qos-match-rule-can-never-match"},
		{"expected ':' after '%s'", "expected-after"},
		{"%s %llu (0x%llx) is out of range 0-%llu (0x%llx)",
		 "is-out-of-range"},
		{"port GUID 0x%016lx is used by both %s and %s",
		 "port-guid-is-used-by-both"},
		{"%s", "diagnostic"},
		{"", "diagnostic"},
	};
	char buf[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		oq_diag_code_of(cases[i].fmt, buf, sizeof(buf));
		assert_string_equal(buf, cases[i].code);
	}
	/* A short buffer is cut, never overrun. */
	oq_diag_code_of("undefined qos-level '%s'", buf, 6);
	assert_string_equal(buf, "undef");
}

static void test_explicit_code(void **state)
{
	struct oq_diags d;
	char buf[64];

	(void)state;
	oq_diags_init(&d);
	oq_diag_set_code(oq_error(&d, (struct oq_loc){"a", 1, 1}, "x %d", 1),
			 "utf8-bom");
	assert_string_equal(oq_diag_code(&d.v[0], buf, sizeof(buf)),
			    "utf8-bom");
	oq_diags_free(&d);
}

/* The report of d (sorted first) as one string. */
static char *report(struct oq_diags *d, bool all)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	oq_diags_sort(d);
	oq_diags_report(d, f, all, "--all shows them");
	fclose(f);
	return text;
}

/* The root cause comes first, what follows from it is folded under it,
 * even when the consequence sits earlier in the file. */
static void test_root_cause_first(void **state)
{
	struct oq_diags d;
	struct oq_diag *root;
	char *text;

	(void)state;
	oq_diags_init(&d);
	root = oq_error(&d, (struct oq_loc){"p", 59, 5}, "unknown keyword '%s'",
			"qos-levle");
	oq_diag_hint(root, "did you mean 'qos-level'?");
	d.cause = oq_diag_id(root);
	oq_error(&d, (struct oq_loc){"p", 60, 9}, "'name' is not valid");
	oq_error(&d, (struct oq_loc){"p", 61, 9}, "'sl' is not valid");
	d.cause = 0;
	oq_diag_follows(oq_error(&d, (struct oq_loc){"p", 1, 1},
				 "no DEFAULT qos-level"),
			1);
	oq_warning(&d, (struct oq_loc){"p", 70, 1}, "unrelated");
	assert_int_equal(oq_diags_roots(&d, OQ_SEV_ERROR), 1);
	text = report(&d, false);
	assert_string_equal(text, "p:59:5: error: unknown keyword 'qos-levle'\n"
				  "  hint: did you mean 'qos-level'?\n"
				  "  3 more errors follow from it; --all shows "
				  "them\n"
				  "p:70:1: warning: unrelated\n");
	free(text);
	text = report(&d, true);
	assert_string_equal(text,
			    "p:59:5: error: unknown keyword 'qos-levle'\n"
			    "  hint: did you mean 'qos-level'?\n"
			    "  follows from it: p:1:1: error: no DEFAULT "
			    "qos-level\n"
			    "  follows from it: p:60:9: error: 'name' is not "
			    "valid\n"
			    "  follows from it: p:61:9: error: 'sl' is not "
			    "valid\n"
			    "p:70:1: warning: unrelated\n");
	free(text);
	oq_diags_free(&d);
}

/* One kind: OQ_DIAGS_SHOWN of them, the hint once, then a count that
 * includes the ones the collector did not keep. */
static void test_flood_summarized(void **state)
{
	struct oq_diags d;
	char *text, *p;
	unsigned int i, lines = 0;

	(void)state;
	oq_diags_init(&d);
	d.max_kind = 100;
	for (i = 0; i < 22000; i++)
		oq_diag_hint(oq_warning(&d, (struct oq_loc){"p", i + 2, 5},
					"rule can never match"),
			     "move it up");
	text = report(&d, false);
	for (p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, OQ_DIAGS_SHOWN + 2);
	assert_non_null(strstr(text, "  hint: move it up\n"));
	assert_null(strstr(strstr(text, "hint") + 1, "hint"));
	assert_non_null(strstr(text, "  and 21,990 more like it; --all shows "
				     "them\n"));
	free(text);
	oq_diags_free(&d);
}

static void test_json(void **state)
{
	struct oq_diags d;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	oq_diags_init(&d);
	oq_diag_hint(oq_error(&d, (struct oq_loc){"p\"q", 3, 4},
			      "unknown keyword '%s'", "x"),
		     "did you mean '%s'?", "y");
	d.cause = 1;
	oq_error(&d, (struct oq_loc){"p\"q", 4, 1}, "'%s' is not valid",
		 "name");
	f = open_memstream(&text, &len);
	oq_diags_write_json(&d, f, false);
	fclose(f);
	assert_string_equal(
		text,
		"\"diagnostics\": [\n"
		"    {\"id\": 1, \"file\": \"p\\\"q\", \"line\": 3, "
		"\"col\": 4, \"severity\": \"error\", \"code\": "
		"\"unknown-keyword\", \"message\": \"unknown keyword 'x'\", "
		"\"hint\": \"did you mean 'y'?\", \"cause\": null},\n"
		"    {\"id\": 2, \"file\": \"p\\\"q\", \"line\": 4, "
		"\"col\": 1, \"severity\": \"error\", \"code\": "
		"\"is-not-valid\", \"message\": \"'name' is not valid\", "
		"\"hint\": null, \"cause\": 1}\n"
		"  ],\n"
		"  \"omitted\": []");
	free(text);
	oq_diags_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cap_per_kind),
		cmocka_unit_test(test_codes),
		cmocka_unit_test(test_explicit_code),
		cmocka_unit_test(test_root_cause_first),
		cmocka_unit_test(test_flood_summarized),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_format_gcc_style),
		cmocka_unit_test(test_control_bytes_escaped),
		cmocka_unit_test(test_sort_is_by_position),
		cmocka_unit_test(test_cap_keeps_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
