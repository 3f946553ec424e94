// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: what the parser says about a broken policy: each error at
 * its line:col, root causes first (what follows from them marked so),
 * hints that say what to do next, and bytes that cannot be seen (NUL, a
 * CR, a no-break space) named.  test_parser.c reads valid policies. */
#include "policy_test_util.h"

/* The diagnostic whose message contains sub (NULL when none). */
static const struct oq_diag *find_diag(const struct oq_diags *d,
				       const char *sub)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (strstr(d->v[i].msg, sub))
			return &d->v[i];
	return NULL;
}

#define LEVEL_ITEM(name, sl)                                                   \
	" qos-level\n  name: " name "\n  sl: " sl "\n end-qos-level\n"

/* A NUL byte inside a value: the policy is refused at the byte, saying
 * what OpenSM's parser makes of it: a quoted string is a C string cut
 * there; an unquoted word is copied piece by piece, the NUL dropped. */
static void test_nul_in_value(void **state)
{
	static const char text[] =
		"port-groups\n port-group\n  name: sto\0rage\n"
		"  node-type: CA\n"
		" end-port-group\nend-port-groups\n" LEVELS_DEFAULT;
	static const char quoted[] =
		"port-groups\n port-group\n  name: \"sto\0rage\"\n"
		"  node-type: CA\n"
		" end-port-group\nend-port-groups\n" LEVELS_DEFAULT;
	struct parsed r;

	(void)state;
	oq_diags_init(&r.d);
	r.p = oq_policy_parse("t.conf", text, sizeof(text) - 1, &r.d);
	assert_error(&r.d, 3, 12,
		     "a NUL byte inside port group name: OpenSM's own parser "
		     "drops it and reads 'storage'");
	parsed_free(&r);
	oq_diags_init(&r.d);
	r.p = oq_policy_parse("t.conf", quoted, sizeof(quoted) - 1, &r.d);
	assert_error(&r.d, 3, 13,
		     "a NUL byte inside port group name: OpenSM's own parser "
		     "reads only 'sto' of it");
	parsed_free(&r);
}

/* A key written wrong is a key missing too: the item's "has no" error
 * follows from the error on its line, so the report leads with that. */
static void test_missing_key_follows(void **state)
{
	struct parsed r;
	size_t i;
	const struct oq_diag *cause = NULL, *missing = NULL;

	(void)state;
	parse_text(&r,
		   "qos-levels\n qos-level\n  name: DEFAULT\n  sl 0\n"
		   " end-qos-level\nend-qos-levels\n",
		   false);
	for (i = 0; i < r.d.n; i++) {
		if (strstr(r.d.v[i].msg, "expected ':' after 'sl'"))
			cause = &r.d.v[i];
		if (strstr(r.d.v[i].msg, "qos-level has no 'sl'"))
			missing = &r.d.v[i];
	}
	assert_non_null(cause);
	assert_non_null(missing);
	assert_int_equal(cause->cause, 0);
	assert_int_equal(missing->cause, cause->id);
	parsed_free(&r);
	/* Without an error on its lines, a missing key is a root cause,
	 * also right after an error on the item before. */
	parse_text(&r,
		   "qos-levels\n qos-level\n  name: DEFAULT\n"
		   " end-qos-level\nend-qos-levels\n",
		   false);
	assert_int_equal(r.d.n, 1);
	assert_int_equal(r.d.v[0].cause, 0);
	parsed_free(&r);
	parse_text(&r,
		   "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 99\n"
		   " end-qos-level\n qos-level\n  name: b\n"
		   " end-qos-level\nend-qos-levels\n",
		   false);
	missing = NULL;
	for (i = 0; i < r.d.n; i++)
		if (strstr(r.d.v[i].msg, "qos-level has no 'sl'") &&
		    r.d.v[i].loc.line == 6)
			missing = &r.d.v[i];
	assert_non_null(missing);
	assert_int_equal(missing->cause, 0);
	parsed_free(&r);
}

/* A rule broken in the parse (a keyword misspelt where the level is
 * named) is the cause of the level it names being "never used". */
static void test_unused_follows_broken_rule(void **state)
{
	struct parsed r;
	const struct oq_diag *cause = NULL, *unused = NULL;
	size_t i;

	(void)state;
	parse_text(&r,
		   "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n"
		   " end-qos-level\n qos-level\n  name: bulk\n  sl: 1\n"
		   " end-qos-level\nend-qos-levels\nqos-match-rules\n"
		   " qos-match-rule\n  service-id: 1\n  qos-level: bulk\n"
		   " end-qos-match-rule\nend-qos-match-rules\n",
		   true);
	for (i = 0; i < r.d.n; i++) {
		if (strstr(r.d.v[i].msg, "unknown keyword 'qos-level'"))
			cause = &r.d.v[i];
		if (strstr(r.d.v[i].msg, "'bulk' is never used"))
			unused = &r.d.v[i];
	}
	assert_non_null(cause);
	assert_non_null(unused);
	assert_int_equal(unused->cause, cause->id);
	parsed_free(&r);
}

/* Errors that say what to do next: an unterminated quote, a value
 * missing after the colon, a number too long. */
static void test_value_error_hints(void **state)
{
	static const struct {
		const char *text, *msg, *hint;
	} cases[] = {
		{"port-groups\n port-group\n  name: \"abc\n"
		 " end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
		 "unterminated quoted string", "close it with '\"'"},
		{"qos-levels\n qos-level\n  name: DEFAULT\n  sl:\n"
		 " end-qos-level\nend-qos-levels\n",
		 "expected SL", "after the ':' on the same line"},
		{"port-groups\n port-group\n  name: g\n"
		 "  port-guid: 0x11112222333344445\n"
		 " end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
		 "does not fit in 64 bits", "doubled"},
	};
	struct parsed r;
	size_t i, k;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct oq_diag *dg = NULL;

		parse_text(&r, cases[i].text, false);
		for (k = 0; k < r.d.n && !dg; k++)
			if (strstr(r.d.v[k].msg, cases[i].msg))
				dg = &r.d.v[k];
		assert_non_null(dg);
		assert_non_null(dg->hint);
		assert_non_null(strstr(dg->hint, cases[i].hint));
		parsed_free(&r);
	}
}

/* Bytes where IBA's MTU code is meant: the hint gives the codes. */
static void test_mtu_in_bytes(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n"
		   "  mtu-limit: 4096\n end-qos-level\nend-qos-levels\n",
		   false);
	assert_error(&r.d, 5, 14, "mtu-limit 4096 is out of range 1-5");
	assert_non_null(r.d.v[0].hint);
	assert_non_null(strstr(r.d.v[0].hint, "5 = 4096 bytes"));
	parsed_free(&r);
}

/* A no-break space pasted after a value shows as its code point. */
static void test_invisible_character(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r, "qos-ulps\n    default : 0\xc2\xa0\nend-qos-ulps\n",
		   false);
	assert_error(&r.d, 2, 16, "unexpected '<U+00A0>' after the SL");
	parsed_free(&r);
}

static void test_all_errors_in_one_run(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "qos-levels\n"
		   " qos-level\n"
		   "  name: DEFAULT\n"
		   "  sl: 16\n"
		   "  mtu-limit: 9\n"
		   "  bogus: 1\n"
		   " end-qos-level\n"
		   "end-qos-levels\n",
		   true);
	assert_error(&r.d, 4, 7, "SL 16");
	assert_error(&r.d, 5, 14, "mtu-limit 9");
	assert_error(&r.d, 6, 3, "unknown keyword 'bogus'");
	assert_int_equal(r.d.n_errors, 3);
	parsed_free(&r);
}

static void test_recovery_from_missing_end(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "port-groups\n port-group\n  name: a\n  node-type: CA\n"
		   "end-port-groups\n" LEVELS_DEFAULT,
		   true);
	assert_error(&r.d, 5, 1, "missing 'end-port-group'");
	assert_int_equal(r.d.n_errors, 1);
	/* The group survives and the levels after it are read. */
	assert_int_equal(r.p->n_groups, 1);
	assert_int_equal(r.p->default_level, 0);
	parsed_free(&r);
}

static void test_keyword_hints(void **state)
{
	struct parsed r;
	size_t i;
	bool seen = false;

	(void)state;
	parse_text(&r,
		   LEVELS_DEFAULT "qos-match-rules\n qos-match-rule\n"
				  "  qos-levelname: DEFAULT\n"
				  " end-qos-match-rule\nend-qos-match-rules\n",
		   true);
	assert_error(&r.d, 9, 3, "unknown keyword 'qos-levelname'");
	for (i = 0; i < r.d.n; i++)
		if (r.d.v[i].hint &&
		    !strcmp(r.d.v[i].hint,
			    "did you mean 'qos-level-name'? (this check reads "
			    "it as 'qos-level-name')"))
			seen = true;
	assert_true(seen);
	/* Read as meant: the rule has its level, nothing else is wrong. */
	assert_int_equal(r.d.n_errors, 1);
	assert_string_equal(r.p->rules[0].level.name, "DEFAULT");
	parsed_free(&r);
}

/* Hints are computed only for diagnostics that are kept: past the list's
 * cap an error is counted, not described (a junk file of a million
 * unknown keywords must not cost a million "did you mean" searches). */
static void test_hints_stop_at_cap(void **state)
{
	static const char typo[] = " qos-levelname: DEFAULT\n";
	struct oq_diags d;
	struct oq_policy *p;
	char *text;
	size_t i, n = 50, len = strlen(typo);

	(void)state;
	text = malloc(n * len + 1);
	assert_non_null(text);
	for (i = 0; i < n; i++)
		memcpy(text + i * len, typo, len);
	text[n * len] = 0;
	oq_diags_init(&d);
	d.max = 3;
	p = oq_policy_parse("cap.conf", text, n * len, &d);
	assert_int_equal(d.n, 3);
	assert_int_equal(d.n_errors, n);
	assert_int_equal(d.n_dropped, n - 3);
	for (i = 0; i < d.n; i++) {
		assert_non_null(d.v[i].hint);
		assert_string_equal(d.v[i].hint,
				    "did you mean 'qos-level-name'?");
	}
	oq_diags_free(&d);
	oq_policy_free(p);
	free(text);
}

static void test_nul_and_binary_bytes(void **state)
{
	static const char text[] = "qos-levels\n\0\xff\x01 x\nend";
	struct oq_diags d;
	struct oq_policy *p;

	(void)state;
	oq_diags_init(&d);
	p = oq_policy_parse("b.conf", text, sizeof(text) - 1, &d);
	assert_non_null(p);
	assert_true(d.n_errors > 0);
	oq_policy_free(p);
	oq_diags_free(&d);
}

/* A misspelled block keyword is read as the keyword of that place it is
 * close to: one error, and the DEFAULT level it opens is there. */
static void test_block_typo_read_as_meant(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "qos-levels\n qos-levle\n  name: DEFAULT\n  sl: 0\n"
		   " end-qos-level\nend-qos-levels\n",
		   true);
	assert_error(&r.d, 2, 2, "unknown keyword 'qos-levle'");
	assert_int_equal(r.d.n_errors, 1);
	assert_int_equal(r.p->default_level, 0);
	parsed_free(&r);
}

/* A word far from any keyword: the lines of its block follow from it,
 * and so does the missing DEFAULT level. */
static void test_unknown_block_folds(void **state)
{
	struct parsed r;
	unsigned int root;
	size_t i;

	(void)state;
	parse_text(&r,
		   "qos-levels\n blurb\n  name: DEFAULT\n  sl: 0\n"
		   " end-qos-level\nend-qos-levels\n",
		   true);
	assert_error(&r.d, 2, 2, "unknown keyword 'blurb'");
	root = find_diag(&r.d, "unknown keyword 'blurb'")->id;
	assert_true(r.d.n_errors >= 4);
	for (i = 0; i < r.d.n; i++)
		if (r.d.v[i].id != root)
			assert_int_equal(r.d.v[i].cause, root);
	assert_non_null(find_diag(&r.d, "no DEFAULT qos-level"));
	assert_int_equal(oq_diags_roots(&r.d, OQ_SEV_ERROR), 1);
	parsed_free(&r);
}

/* `name: mgmt sl: 3`: the name would swallow the key; the line is read
 * as OpenSM reads it, name and SL, and only that is wrong. */
static void test_key_on_the_line_of_another(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(
		&r,
		"qos-levels\n" LEVEL_ITEM(
			"DEFAULT",
			"0") " qos-level\n  name: mgmt sl: 3\n end-qos-level\n"
			     "end-qos-levels\n",
		true);
	assert_error(&r.d, 7, 14,
		     "'sl: 3' is on the line of 'name:', whose value would "
		     "swallow it: 'mgmt sl: 3'");
	assert_int_equal(r.d.n_errors, 1);
	assert_string_equal(r.p->levels[1].name, "mgmt");
	assert_int_equal(r.p->levels[1].sl, 3);
	parsed_free(&r);
	/* A number, then a key. */
	parse_text(&r,
		   "qos-levels\n qos-level\n  name: DEFAULT\n"
		   "  sl: 0 mtu-limit: 4\n end-qos-level\nend-qos-levels\n",
		   true);
	assert_error(&r.d, 4, 9, "'mtu-limit: 4' is on the line of 'sl:'");
	assert_int_equal(r.d.n_errors, 1);
	assert_int_equal(r.p->levels[0].mtu_limit, 4);
	parsed_free(&r);
}

static void test_bom_and_typographic_quotes(void **state)
{
	struct parsed r;
	const struct oq_diag *g;
	char code[64];

	(void)state;
	parse_text(&r,
		   "\xef\xbb\xbf"
		   "qos-levels\n" LEVEL_ITEM("DEFAULT", "0") "end-qos-levels\n",
		   true);
	assert_error(&r.d, 1, 1, "byte order mark");
	assert_int_equal(r.d.n_errors, 1);
	assert_string_equal(oq_diag_code(&r.d.v[0], code, sizeof(code)),
			    "utf8-bom");
	assert_int_equal(r.p->default_level, 0);
	parsed_free(&r);
	parse_text(&r,
		   "port-groups\n port-group\n  name: s\n"
		   "  port-name: \xe2\x80\x9cstor1 HCA-1/P1\xe2\x80\x9d\n"
		   " end-port-group\nend-port-groups\n"
		   "qos-levels\n" LEVEL_ITEM("DEFAULT", "0") "end-qos-levels\n",
		   true);
	g = find_diag(&r.d, "typographic quote");
	assert_non_null(g);
	assert_string_equal(g->msg, "typographic quote '\xe2\x80\x9c' in port "
				    "name: OpenSM's parser reads only the "
				    "ASCII quote '\"'");
	assert_int_equal(g->loc.line, 4);
	assert_int_equal(g->loc.col, 14);
	assert_int_equal(r.d.n_errors, 1);
	parsed_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nul_in_value),
		cmocka_unit_test(test_missing_key_follows),
		cmocka_unit_test(test_unused_follows_broken_rule),
		cmocka_unit_test(test_value_error_hints),
		cmocka_unit_test(test_mtu_in_bytes),
		cmocka_unit_test(test_invisible_character),
		cmocka_unit_test(test_all_errors_in_one_run),
		cmocka_unit_test(test_recovery_from_missing_end),
		cmocka_unit_test(test_keyword_hints),
		cmocka_unit_test(test_hints_stop_at_cap),
		cmocka_unit_test(test_nul_and_binary_bytes),
		cmocka_unit_test(test_block_typo_read_as_meant),
		cmocka_unit_test(test_unknown_block_folds),
		cmocka_unit_test(test_key_on_the_line_of_another),
		cmocka_unit_test(test_bom_and_typographic_quotes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
