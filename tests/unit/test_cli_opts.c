// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the CLI's option table and parser (contrib/osmqos/cli_opts.c)
 * -- SL and VL lists with ranges, each kind of option, the rules every
 * subcommand shares (an option given twice, one standard input, required
 * options, the operand), and the subcommands' tables themselves (unique
 * names and letters, what each kind needs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_opts_int.h"

static void test_list_ranges(void **state)
{
	static const struct {
		const char *s;
		unsigned int max;
		int rc;
		uint16_t bits;
	} cases[] = {
		{"0-3,7", 15, 0, 0x008f},
		{"3-0", 15, 0, 0x000f},	    /* HI-LO swapped */
		{" 1 - 2 ", 15, 0, 0x0006}, /* blanks around '-' */
		{"0xf", 15, 0, 0x8000},
		{"0", 15, 0, 0x0001},
		{"0,0x0", 15, 0, 0x0001},
		/* A leading 0: octal to C and the policy, decimal to most
		 * readers; refused rather than read either way. */
		{"010", 15, -1, 0},
		{"1-07", 15, -1, 0},
		{"0-15", 15, 0, 0xffff},
		{"2,2,1-2", 15, 0, 0x0006},
		{"14", 14, 0, 0x4000},
		{"15", 14, -1, 0},
		{"16", 15, -1, 0},
		{"0-16", 15, -1, 0},
		{"", 15, -1, 0},
		{"1,,2", 15, -1, 0},
		{",1", 15, -1, 0},
		{"1,", 15, -1, 0},
		{"-1", 15, -1, 0},
		{"+1", 15, -1, 0},
		{"1-", 15, -1, 0},
		{"1-2-3", 15, -1, 0},
		{"a", 15, -1, 0},
		{"0x", 15, -1, 0},
		{"08", 15, -1, 0},
		{"99999999999999999999999", 15, -1, 0},
		{"1\n", 15, -1, 0},
		{"\xff", 15, -1, 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint16_t bits = 0xdead;
		char bad[64];
		int rc = oq_cli_parse_list(cases[i].s, cases[i].max, &bits, bad,
					   sizeof(bad));

		if (rc != cases[i].rc || (rc == 0 && bits != cases[i].bits))
			fail_msg("'%s' (max %u): rc %d bits 0x%04x, want %d "
				 "0x%04x",
				 cases[i].s, cases[i].max, rc, bits,
				 cases[i].rc, cases[i].bits);
	}
}

static void test_list_bad_item(void **state)
{
	uint16_t bits;
	char bad[8];

	(void)state;
	assert_int_equal(
		oq_cli_parse_list("1,2-x,3", 15, &bits, bad, sizeof(bad)), -1);
	assert_string_equal(bad, "2-x");
	assert_int_equal(oq_cli_parse_list("1,,3", 15, &bits, bad, sizeof(bad)),
			 -1);
	assert_string_equal(bad, "");
	/* A long item is cut to the buffer, never overrun. */
	assert_int_equal(
		oq_cli_parse_list("123456789012", 15, &bits, bad, sizeof(bad)),
		-1);
	assert_string_equal(bad, "1234567");
}

/* A subcommand with one option of each kind. */
struct t_opts {
	struct oq_cli_common c;
	bool flag;
	const char *text, *out, *pair[2];
	struct oq_num num;
	struct oq_mask sls, vls;
	int word, custom_calls;
	const char *operand;
};

static const char *const t_words[] = {"one", "two", NULL};

static int t_custom(void *value, const char *arg, const struct oq_opt *o)
{
	(void)o;
	if (!strcmp(arg, "bad"))
		return OQ_EXIT_USAGE;
	(*(int *)value)++;
	return 0;
}

#define T(f) offsetof(struct t_opts, f)

static const struct oq_opt t_table[] = {
	OQ_USE(OQ_CO_POLICY),
	OQ_USE_F(OQ_CO_FABRIC, OQ_OPT_REQUIRED),
	OQ_USE(OQ_CO_PARTITIONS),
	OQ_USE(OQ_CO_CA_PORT),
	OQ_HEADING("More:"),
	OQ_OPT("flag", 'F', OQ_OPT_FLAG, NULL, NULL, T(flag)),
	OQ_OPT("text", 0, OQ_OPT_TEXT, NULL, NULL, T(text)),
	OQ_OPT("out", 0, OQ_OPT_OUTPUT, NULL, NULL, T(out)),
	OQ_OPT("pair", 0, OQ_OPT_PAIR, NULL, NULL, T(pair)),
	OQ_OPT("num", 0, OQ_OPT_NUM, NULL, NULL, T(num), .min = 2, .max = 9,
	       .alias = "number,nr"),
	OQ_OPT("sls", 0, OQ_OPT_SLS, NULL, NULL, T(sls)),
	OQ_OPT("vls", 0, OQ_OPT_VLS, NULL, NULL, T(vls)),
	OQ_OPT("word", 0, OQ_OPT_WORD, NULL, NULL, T(word), .words = t_words),
	OQ_OPT("custom", 0, OQ_OPT_CUSTOM, NULL, NULL, T(custom_calls),
	       .parse = t_custom, .flags = OQ_OPT_REPEATABLE),
	OQ_OPT_END,
};

static const struct oq_cmd_spec t_spec = {
	.name = "t",
	.operand = "THING",
	.operand_off = T(operand),
	.opts = t_table,
	.exit_status = "0 ok.",
};

/* Parse a NULL-terminated argument list after "t". */
static int parse(struct t_opts *o, ...)
{
	char *argv[32] = {"t"};
	int argc = 1;
	va_list ap;

	memset(o, 0, sizeof(*o));
	va_start(ap, o);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	return oq_cli_parse(&t_spec, argc, argv, o);
}

static void test_parse_kinds(void **state)
{
	struct t_opts o;

	(void)state;
	assert_int_equal(parse(&o, "-f", "F", "--policy=P", "-k", "K", "-FP3",
			       "--text", "x", "--out", "o", "--pair", "a", "b",
			       "--nr", "0x9", "--sls", "0-3,7", "--vls", "14",
			       "--word", "two", "--custom", "c", "--custom",
			       "d", "thing", NULL),
			 OQ_CLI_RUN);
	assert_string_equal(o.c.fabric, "F");
	assert_string_equal(o.c.policy, "P");
	assert_string_equal(o.c.partitions, "K");
	assert_true(o.flag);
	assert_true(o.c.ca_port.given);
	assert_int_equal(o.c.ca_port.v, 3);
	assert_string_equal(o.text, "x");
	assert_string_equal(o.out, "o");
	assert_string_equal(o.pair[0], "a");
	assert_string_equal(o.pair[1], "b");
	assert_true(o.num.given);
	assert_int_equal(o.num.v, 9);
	assert_true(o.sls.given);
	assert_int_equal(o.sls.bits, 0x8f);
	assert_int_equal(o.vls.bits, 0x4000);
	assert_int_equal(o.word, 1);
	assert_int_equal(o.custom_calls, 2);
	assert_string_equal(o.operand, "thing");
	/* Unset options stay as the caller left them. */
	assert_int_equal(parse(&o, "-f", "F", NULL), OQ_CLI_RUN);
	assert_false(o.num.given || o.sls.given || o.flag || o.operand);
	/* --ca-port by its long name. */
	assert_int_equal(parse(&o, "-f", "F", "--ca-port", "7", NULL),
			 OQ_CLI_RUN);
	assert_int_equal(o.c.ca_port.v, 7);
}

static void test_parse_refusals(void **state)
{
	struct t_opts o;

	(void)state;
	/* Given twice, under one name or two; a flag may repeat. */
	assert_int_equal(parse(&o, "-f", "F", "-f", "G", NULL), OQ_EXIT_USAGE);
	assert_int_equal(
		parse(&o, "-f", "F", "--num", "3", "--number", "4", NULL),
		OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "-P1", "--ca-port", "1", NULL),
			 OQ_EXIT_USAGE);
	/* --port is a port of the fabric, never the local CA's port. */
	assert_int_equal(parse(&o, "-f", "F", "--port", "1", NULL),
			 OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "-F", "--flag", NULL),
			 OQ_CLI_RUN);
	/* Values out of range or of the wrong form. */
	assert_int_equal(parse(&o, "-f", "F", "--num", "1", NULL),
			 OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--num", "10", NULL),
			 OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--num", "-3", NULL),
			 OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--num", "3x", NULL),
			 OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--sls", "16", NULL),
			 OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--vls", "15", NULL),
			 OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--word", "three", NULL),
			 OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--custom", "bad", NULL),
			 OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "", NULL), OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--out", "", NULL),
			 OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--pair", "a", NULL),
			 OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--pair", "a", "-F", NULL),
			 OQ_EXIT_USAGE);
	/* Standard input for two inputs, the operand counting as one. */
	assert_int_equal(parse(&o, "-f", "-", "-p", "-", NULL), OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "-", "-k", "K", NULL), OQ_CLI_RUN);
	/* Required, unknown, ambiguous, no argument, extra operands. */
	assert_int_equal(parse(&o, NULL), OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--nosuch", NULL), OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "-Z", NULL), OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--p", "x", NULL), OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--flag=1", NULL), OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", NULL), OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "a", "b", NULL), OQ_EXIT_USAGE);
	/* Help and version end the parse with 0. */
	assert_int_equal(parse(&o, "-f", "F", "-V", NULL), OQ_EXIT_OK);
}

/* Huge arguments: refused or taken whole, never cut or overrun. */
static void test_parse_huge(void **state)
{
	size_t len = 1u << 20, i;
	char *big = malloc(len + 1);
	struct t_opts o;

	(void)state;
	assert_non_null(big);
	memset(big, '9', len);
	big[len] = '\0';
	assert_int_equal(parse(&o, "-f", "F", "--num", big, NULL),
			 OQ_EXIT_USAGE);
	assert_int_equal(parse(&o, "-f", "F", "--sls", big, NULL),
			 OQ_EXIT_USAGE);
	for (i = 0; i + 1 < len; i += 2)
		memcpy(big + i, "1,", 2);
	big[len - 2] = '2'; /* "1,1,...,1,2" */
	big[len - 1] = '\0';
	assert_int_equal(parse(&o, "-f", "F", "--sls", big, NULL),
			 OQ_CLI_RUN);
	assert_int_equal(o.sls.bits, 0x0006);
	memset(big, 'x', len);
	big[len] = '\0';
	assert_int_equal(parse(&o, "-f", big, "--text", big, NULL),
			 OQ_CLI_RUN);
	assert_int_equal(strlen(o.text), len);
	assert_ptr_equal(o.c.fabric, big);
	free(big);
}

static const struct oq_cmd_spec *const specs[] = {
	&oq_spec_check, &oq_spec_match, &oq_spec_tables, &oq_spec_predict,
	&oq_spec_synth, &oq_spec_export, &oq_spec_model, &oq_spec_query,
	&oq_spec_drift, &oq_spec_status, &oq_spec_plan, &oq_spec_doctor,
};

/* The table entry with common references resolved. */
static struct oq_opt resolved(const struct oq_opt *e)
{
	struct oq_opt o = *e;

	if (e->common) {
		o = *oq_cli_common_opt(e->common);
		o.flags |= e->flags;
	}
	return o;
}

static void add_name(const char **names, size_t *n, const char *cmd,
		     const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], name, len))
			fail_msg("%s: --%.*s twice", cmd, (int)len, name);
	names[(*n)++] = strndup(name, len);
}

/* Every subcommand's table: names and letters unique (-h and -V kept for
 * help and version), each kind with what it needs. */
static void test_tables(void **state)
{
	size_t s;

	(void)state;
	for (s = 0; s < sizeof(specs) / sizeof(specs[0]); s++) {
		const struct oq_cmd_spec *sp = specs[s];
		const char *names[128] = {"help", "version"};
		bool letters[128] = {false};
		size_t n = 2, i;

		letters['h'] = letters['V'] = true;
		assert_non_null(sp->exit_status);
		assert_int_equal(strncmp(sp->exit_status, "0 ", 2), 0);
		for (i = 0;
		     sp->opts[i].name || sp->opts[i].common || sp->opts[i].help;
		     i++) {
			struct oq_opt o = resolved(&sp->opts[i]);
			const char *a;

			if (!o.name)
				continue;
			add_name(names, &n, sp->name, o.name, strlen(o.name));
			for (a = o.alias; a && *a;) {
				size_t len = strcspn(a, ",");

				add_name(names, &n, sp->name, a, len);
				a += len + (a[len] == ',');
			}
			if (o.letter) {
				assert_true(o.letter > 0 && o.letter < 128);
				if (letters[o.letter])
					fail_msg("%s: -%c twice", sp->name,
						 o.letter);
				letters[o.letter] = true;
			}
			assert_non_null(o.help);
			if (o.kind == OQ_OPT_CUSTOM)
				assert_non_null(o.parse);
			if (o.kind == OQ_OPT_WORD)
				assert_non_null(o.words);
			if (o.kind == OQ_OPT_NUM)
				assert_true(o.max >= o.min && o.max);
			if (o.flags & OQ_OPT_REPEATABLE)
				assert_int_equal(o.kind, OQ_OPT_CUSTOM);
		}
		for (i = 2; i < n; i++)
			free((char *)names[i]);
	}
}

/* An option's help names only options its command has (--X in the
 * text of a command without --X would send the reader to a refusal). */
static void test_help_names_own_options(void **state)
{
	const struct oq_cmd_spec *all[sizeof(specs) / sizeof(specs[0]) + 1];
	size_t s, nall = sizeof(specs) / sizeof(specs[0]);

	(void)state;
	memcpy(all, specs, sizeof(specs));
	all[nall++] = &oq_spec_job_env;
	for (s = 0; s < nall; s++) {
		struct oq_opt *v;
		size_t n, i, j;
		const char *p;

		v = oq_cli_opts_resolve(all[s], &n);
		assert_non_null(v);
		for (i = 0; i < n; i++) {
			for (p = v[i].help; p && (p = strstr(p, "--"));) {
				size_t len;
				bool known = false;

				p += 2;
				len = strspn(p, "abcdefghijklmnopqrstuvwxyz-");
				for (j = 0; j < n && !known; j++)
					known = v[j].name &&
						strlen(v[j].name) == len &&
						!strncmp(v[j].name, p, len);
				if (len && !known)
					fail_msg("%s --%s: its help names "
						 "--%.*s, which %s has not",
						 all[s]->name, v[i].name,
						 (int)len, p, all[s]->name);
			}
		}
		free(v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_ranges),
		cmocka_unit_test(test_list_bad_item),
		cmocka_unit_test(test_parse_kinds),
		cmocka_unit_test(test_parse_refusals),
		cmocka_unit_test(test_parse_huge),
		cmocka_unit_test(test_tables),
		cmocka_unit_test(test_help_names_own_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
