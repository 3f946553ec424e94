// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: diagnostics collector. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_gcc_style),
		cmocka_unit_test(test_control_bytes_escaped),
		cmocka_unit_test(test_sort_is_by_position),
		cmocka_unit_test(test_cap_keeps_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
