// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: event_plugin_options parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "options.h"

static char last_err[512];
static int n_err;

static void on_err(void *ctx, const char *msg)
{
	n_err++;
	strncpy(last_err, msg, sizeof(last_err) - 1);
}

static void test_spaces_and_commas(void **state)
{
	struct oq_plugin_options o;

	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o,
			 "policy=/etc/q.conf, audit=/var/log/a.json,publish_dir=/x"
			 " osmqos.opensm_policy=direct",
			 on_err, NULL), 0);
	assert_string_equal(o.policy, "/etc/q.conf");
	assert_string_equal(o.audit, "/var/log/a.json");
	assert_string_equal(o.publish_dir, "/x");
	assert_string_equal(o.opensm_policy, "direct");
	oq_plugin_options_free(&o);
	assert_null(o.opensm_policy);
}

static void test_unknown_key_is_error(void **state)
{
	struct oq_plugin_options o;

	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o, "polcy=/a policy=/b",
						 on_err, NULL), 1);
	assert_int_equal(n_err, 1);
	assert_non_null(strstr(last_err, "unknown key 'polcy'"));
	assert_string_equal(o.policy, "/b");
	oq_plugin_options_free(&o);
}

static void test_other_plugin_keys_skipped(void **state)
{
	struct oq_plugin_options o;

	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o,
			 "other.level=3 osmqos.policy=/p", on_err, NULL), 0);
	assert_string_equal(o.policy, "/p");
	oq_plugin_options_free(&o);
}

static void test_malformed(void **state)
{
	struct oq_plugin_options o;

	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o, "justaword =x policy=",
						 on_err, NULL), 3);
	assert_null(o.policy);
	oq_plugin_options_free(&o);
	assert_int_equal(oq_plugin_options_parse(&o, NULL, on_err, NULL), 0);
	assert_int_equal(oq_plugin_options_parse(&o, "  ,, ", on_err, NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spaces_and_commas),
		cmocka_unit_test(test_unknown_key_is_error),
		cmocka_unit_test(test_other_plugin_keys_skipped),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
