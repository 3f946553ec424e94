// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: event_plugin_options parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "options/options.h"

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

/* The start-up line names every option, defaults included. */
static void test_format_names_defaults(void **state)
{
	struct oq_plugin_options o;
	char buf[1024];

	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o, "", on_err, NULL), 0);
	oq_plugin_options_format(&o, buf, sizeof(buf));
	assert_string_equal(buf, "policy=(qos_policy_file) audit=(default) "
				 "publish_dir=(default) opensm_policy=copy "
				 "publish_detail=classes "
				 "publish_interval=30 malloc_trim=0");
	oq_plugin_options_free(&o);
	assert_int_equal(oq_plugin_options_parse(
				 &o, "publish_interval=5 publish_detail=ports",
				 on_err, NULL),
			 0);
	assert_string_equal(o.publish_interval, "5");
	oq_plugin_options_format(&o, buf, sizeof(buf));
	assert_non_null(
		strstr(buf, " publish_detail=ports publish_interval=5"));
	oq_plugin_options_free(&o);
}

/* malloc_trim= is 0 (the default: the plugin leaves OpenSM's heap alone)
 * or 1. */
static void test_malloc_trim(void **state)
{
	static const char *const bad[] = {"2",	 "yes", "on", "true", "01x",
					  "-1",	 " 1",	"1 ", "0x1",  "",
					  "\r1", "\xef\xbc\x91"};
	struct oq_plugin_options o;
	char buf[1024];
	bool on = true;
	size_t i;

	(void)state;
	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o, "osmqos.malloc_trim=1",
						 on_err, NULL),
			 0);
	assert_string_equal(o.malloc_trim, "1");
	assert_int_equal(oq_plugin_option_switch(o.malloc_trim, &on), 0);
	assert_true(on);
	oq_plugin_options_format(&o, buf, sizeof(buf));
	assert_non_null(strstr(buf, " malloc_trim=1"));
	oq_plugin_options_free(&o);
	assert_null(o.malloc_trim);

	/* Not given, or 0: off. */
	assert_int_equal(oq_plugin_option_switch(NULL, &on), 0);
	assert_false(on);
	on = true;
	assert_int_equal(oq_plugin_option_switch("0", &on), 0);
	assert_false(on);

	/* Anything else is refused, and off (the plugin logs it). */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		on = true;
		assert_int_equal(oq_plugin_option_switch(bad[i], &on), -1);
		assert_false(on);
	}
	assert_int_equal(n_err, 0);

	/* No value is an error of the parser itself. */
	assert_int_equal(oq_plugin_options_parse(&o, "malloc_trim=", on_err,
						 NULL),
			 1);
	assert_null(o.malloc_trim);
	oq_plugin_options_free(&o);
}

/* Numeric values: decimal digits only, up to the option's maximum. */
static void test_option_number(void **state)
{
	unsigned long n = 7;

	(void)state;
	assert_int_equal(oq_plugin_option_number("0", 10, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(oq_plugin_option_number("65536", 65536, &n), 0);
	assert_int_equal(n, 65536);
	n = 7;
	assert_int_equal(oq_plugin_option_number("65537", 65536, &n), -1);
	assert_int_equal(oq_plugin_option_number("", 10, &n), -1);
	assert_int_equal(oq_plugin_option_number(NULL, 10, &n), -1);
	assert_int_equal(oq_plugin_option_number("-1", 10, &n), -1);
	assert_int_equal(oq_plugin_option_number("+1", 10, &n), -1);
	assert_int_equal(oq_plugin_option_number(" 1", 10, &n), -1);
	assert_int_equal(oq_plugin_option_number("1x", 10, &n), -1);
	assert_int_equal(oq_plugin_option_number("0x10", 100, &n), -1);
	assert_int_equal(
		oq_plugin_option_number("99999999999999999999999", ~0ul, &n),
		-1);
	assert_int_equal(n, 7); /* untouched by a bad value */
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

/* A dotted key is another plugin's only when opensm loads a plugin of
 * that name; a key given twice is said, and its last value used. */
static void test_dotted_key_needs_its_plugin(void **state)
{
	struct oq_plugin_options o;

	n_err = 0;
	assert_int_equal(oq_plugin_options_parse_for(
				 &o, "publish.dir=/m audit.file=off other.k=v",
				 "osmqos other", on_err, NULL),
			 2);
	assert_int_equal(n_err, 2);
	assert_non_null(strstr(last_err, "unknown key 'audit.file'"));
	assert_non_null(strstr(last_err, "no plugin 'audit'"));
	assert_null(o.audit);
	oq_plugin_options_free(&o);

	/* Named as opensm splits event_plugin_name: the first name ends at
	 * a comma too. */
	n_err = 0;
	assert_int_equal(oq_plugin_options_parse_for(
				 &o, "other.k=v", "other,osmqos", on_err, NULL),
			 0);
	assert_int_equal(oq_plugin_options_parse_for(&o, "b.k=v", "osmqos a,b",
						     on_err, NULL),
			 1);
	oq_plugin_options_free(&o);

	/* Not knowing the plugins: left to the others. */
	n_err = 0;
	assert_int_equal(
		oq_plugin_options_parse(&o, "audit.file=off", on_err, NULL), 0);
	assert_int_equal(n_err, 0);
	oq_plugin_options_free(&o);

	n_err = 0;
	assert_int_equal(oq_plugin_options_parse_for(
				 &o, "publish_dir=/a osmqos.publish_dir=/b",
				 "osmqos", on_err, NULL),
			 0);
	assert_int_equal(n_err, 1);
	assert_non_null(strstr(last_err, "'publish_dir' is given more than "
					 "once; the last value (/b) is used"));
	assert_string_equal(o.publish_dir, "/b");
	oq_plugin_options_free(&o);
}

/* A path with a blank, unquoted, is not applied in part (the audit trail
 * must not go to "/w/sp"); quoted, it is applied whole. */
static void test_blank_in_value(void **state)
{
	struct oq_plugin_options o;

	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o,
			 "policy=/p audit=/w/sp ace/a.json publish_dir=/d",
			 on_err, NULL), 2);
	assert_null(o.audit);
	assert_string_equal(o.policy, "/p");
	assert_string_equal(o.publish_dir, "/d");
	assert_non_null(strstr(last_err, "'ace/a.json' is not key=value") ||
			strstr(last_err, "must be quoted"));
	oq_plugin_options_free(&o);

	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o,
			 "audit=\"/w/sp ace/a.json\",policy='/q r/p.conf'",
			 on_err, NULL), 0);
	assert_string_equal(o.audit, "/w/sp ace/a.json");
	assert_string_equal(o.policy, "/q r/p.conf");
	oq_plugin_options_free(&o);

	/* Unclosed or inner quotes: not applied. */
	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o,
			 "audit=\"/w/sp ace policy=/a", on_err, NULL), 1);
	assert_null(o.audit);
	assert_null(o.policy);
	assert_non_null(strstr(last_err, "a quote is not closed"));
	oq_plugin_options_free(&o);
	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o, "policy=/a\"b\" audit=x",
						 on_err, NULL), 1);
	assert_null(o.policy);
	assert_string_equal(o.audit, "x");
	assert_non_null(strstr(last_err, "quotes must enclose the whole"));
	oq_plugin_options_free(&o);

	/* A comma cuts a value as a blank does. */
	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o,
			 "policy=/etc/opensm/qos,new.conf", on_err, NULL), 2);
	assert_null(o.policy);
	oq_plugin_options_free(&o);

	/* A misspelt key after a good one is an error of its own. */
	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o, "policy=/b polcy=/a",
						 on_err, NULL), 1);
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

/* "osmqos." with no key after it is an error, with or without a list of
 * the plugins opensm loads (osmqos among them). */
static void test_prefix_without_key(void **state)
{
	struct oq_plugin_options o;

	(void)state;
	n_err = 0;
	assert_int_equal(oq_plugin_options_parse(&o, "osmqos.=x", on_err, NULL),
			 1);
	assert_non_null(strstr(last_err, "no key after 'osmqos.'"));
	oq_plugin_options_free(&o);
	assert_int_equal(oq_plugin_options_parse_for(&o, "osmqos.=x policy=/p",
						     "osmqos", on_err, NULL),
			 1);
	assert_string_equal(o.policy, "/p");
	assert_int_equal(n_err, 2);
	oq_plugin_options_free(&o);
}

/* A key given three times is said once; the last value is used. */
static void test_key_thrice_said_once(void **state)
{
	struct oq_plugin_options o;

	(void)state;
	n_err = 0;
	assert_int_equal(
		oq_plugin_options_parse(&o, "audit=/a audit=/b osmqos.audit=/c",
					on_err, NULL),
		0);
	assert_int_equal(n_err, 1);
	assert_string_equal(o.audit, "/c");
	oq_plugin_options_free(&o);
}

/* Relative policy= and publish_dir= are joined to the working directory
 * (published as read); absolute ones and the other keys stay as given. */
static void test_paths_made_absolute(void **state)
{
	struct oq_plugin_options o;
	char want[4096], *cwd = getcwd(NULL, 0);

	(void)state;
	assert_non_null(cwd);
	assert_int_equal(oq_plugin_options_parse(
				 &o,
				 "policy=conf/qos.conf publish_dir=/var/pub "
				 "audit=rel.log",
				 on_err, NULL),
			 0);
	assert_int_equal(oq_plugin_options_absolute(&o), 2);
	snprintf(want, sizeof(want), "%s/conf/qos.conf", cwd);
	assert_string_equal(o.policy, want);
	assert_string_equal(o.publish_dir, "/var/pub");
	snprintf(want, sizeof(want), "%s/rel.log", cwd);
	assert_string_equal(o.audit, want);
	assert_int_equal(oq_plugin_options_absolute(&o), 0);
	oq_plugin_options_free(&o);
	free(cwd);
}

/* audit=off and none turn the trail off in any case, and are no file
 * name to make absolute. */
static void test_audit_off_any_case(void **state)
{
	static const char *const off[] = {"off", "OFF", "Off", "none", "NONE"};
	struct oq_plugin_options o;
	char text[32];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(off) / sizeof(off[0]); i++) {
		assert_true(oq_plugin_audit_off(off[i]));
		snprintf(text, sizeof(text), "audit=%s", off[i]);
		assert_int_equal(
			oq_plugin_options_parse(&o, text, on_err, NULL), 0);
		assert_int_equal(oq_plugin_options_absolute(&o), 0);
		assert_string_equal(o.audit, off[i]);
		oq_plugin_options_free(&o);
	}
	assert_false(oq_plugin_audit_off(NULL));
	assert_false(oq_plugin_audit_off("offline"));
}

/* Options as long as OpenSM hands over from a cut opensm.conf line:
 * "event_plugin_options " and the value fill OpenSM's line. */
static void test_cut_at_opensm_limit(void **state)
{
	char text[OQ_OPENSM_CONF_LINE_MAX + 1];

	(void)state;
	assert_int_equal(sizeof("event_plugin_options ") - 1 +
				 OQ_PLUGIN_OPTIONS_CUT,
			 1022);
	memset(text, 'a', sizeof(text));
	text[OQ_PLUGIN_OPTIONS_CUT - 1] = '\0';
	assert_false(oq_plugin_options_cut(text));
	text[OQ_PLUGIN_OPTIONS_CUT - 1] = 'a';
	text[OQ_PLUGIN_OPTIONS_CUT] = '\0';
	assert_true(oq_plugin_options_cut(text));
	assert_false(oq_plugin_options_cut(NULL));
	assert_false(oq_plugin_options_cut(""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spaces_and_commas),
		cmocka_unit_test(test_format_names_defaults),
		cmocka_unit_test(test_option_number),
		cmocka_unit_test(test_malloc_trim),
		cmocka_unit_test(test_unknown_key_is_error),
		cmocka_unit_test(test_dotted_key_needs_its_plugin),
		cmocka_unit_test(test_other_plugin_keys_skipped),
		cmocka_unit_test(test_blank_in_value),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_prefix_without_key),
		cmocka_unit_test(test_key_thrice_said_once),
		cmocka_unit_test(test_paths_made_absolute),
		cmocka_unit_test(test_audit_off_any_case),
		cmocka_unit_test(test_cut_at_opensm_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
