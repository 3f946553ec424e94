// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the model of stock OpenSM's policy parser (stock.h) on the
 * constructs where it and osmqos part ways, with the verdict `check`
 * prints and where.  tests/e2e/opensm-parse.sh checks the model against
 * OpenSM's own parser over the corpora. */
#include "policy_test_util.h"

#include <osmqos/osm_release.h>
#include <osmqos/stock.h>

#define LEVELS                                                                 \
	"qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n"              \
	"  end-qos-level\nend-qos-levels\n"

struct verdict {
	struct parsed r;
	struct oq_stock *s;
	struct oq_diags d;
	int v;
};

/* Read text both ways and take the verdict (osmqos's reading only when
 * it is valid, as `check` does). */
static void judge(struct verdict *x, const char *text,
		  const struct oq_stock_env *env)
{
	bool valid;

	oq_diags_init(&x->r.d);
	oq_diags_init(&x->d);
	x->r.p = oq_policy_parse("t.conf", text, strlen(text), &x->r.d);
	assert_non_null(x->r.p);
	if (!oq_diags_has_errors(&x->r.d))
		oq_policy_validate(x->r.p, &x->r.d);
	valid = !oq_diags_has_errors(&x->r.d);
	x->s = oq_stock_read("t.conf", text, strlen(text), env);
	assert_non_null(x->s);
	x->v = oq_stock_verdict(x->s, valid ? x->r.p : NULL, &x->d);
}

static void verdict_free(struct verdict *x)
{
	oq_stock_free(x->s);
	oq_diags_free(&x->d);
	parsed_free(&x->r);
}

static void test_plain_as_written(void **state)
{
	struct verdict x;

	(void)state;
	judge(&x,
	      "port-groups\n  port-group\n    name: \"Storage\"\n"
	      "    port-guid: 0x10-0x20, 0x5\n    node-type: CA, SELF\n"
	      "  end-port-group\nend-port-groups\n" LEVELS
	      "qos-match-rules\n  qos-match-rule\n    source: Storage\n"
	      "    service-id: 0x100-0x1ff\n    qos-level-name: default\n"
	      "  end-qos-match-rule\nend-qos-match-rules\n",
	      NULL);
	assert_int_equal(x.s->outcome, OQ_STOCK_TAKES);
	assert_int_equal(x.v, OQ_STOCK_AS_WRITTEN);
	assert_int_equal(x.d.n, 0);
	assert_int_equal(x.s->n_groups, 1);
	assert_string_equal(x.s->groups[0].name, "Storage");
	assert_int_equal(x.s->groups[0].guids.n, 2);
	assert_int_equal(x.s->groups[0].node_types, OQ_NT_CA | OQ_NT_SELF);
	assert_int_equal(x.s->n_rules, 1);
	/* DEFAULT is found case-insensitively; 16 simple levels follow. */
	assert_int_equal(x.s->rules[0].level, 0);
	assert_int_equal(x.s->n_levels, 1 + 16);
	assert_int_equal(x.s->default_level, 0);
	verdict_free(&x);
}

/* CRLF: the '\r' is an ordinary character to OpenSM's scanner. */
static void test_crlf_rejected(void **state)
{
	struct verdict x;
	char said[64];

	(void)state;
	/* The verdict names the release this build models. */
	snprintf(said, sizeof(said), "stock %s rejects this file",
		 oq_osm_release()->name);
	judge(&x,
	      "qos-levels\r\n  qos-level\r\n    name: DEFAULT\r\n"
	      "    sl: 0\r\n  end-qos-level\r\nend-qos-levels\r\n",
	      NULL);
	assert_int_equal(x.v, OQ_STOCK_REJECTED);
	assert_int_equal(x.s->where.line, 1);
	assert_int_equal(x.s->where.col, 11);
	assert_true(has_diag(&x.d, OQ_SEV_WARNING, 1, 11, said));
	/* The CR is named, not shown as a blank or a '?'. */
	assert_non_null(strstr(x.s->why, "unexpected text '\\x0d' (a CR: the "
					 "file has CRLF line ends"));
	/* OpenSM's message points after the token. */
	assert_int_equal(x.s->opensm_line, 1);
	assert_int_equal(x.s->opensm_col, 12);
	verdict_free(&x);
}

/* The osmqos keys are text to OpenSM: a syntax error, with the hint that
 * `osmqos export` writes a copy it reads. */
static void test_intent_key_rejected(void **state)
{
	struct verdict x;
	size_t i;
	bool hint = false;

	(void)state;
	judge(&x,
	      "qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n"
	      "    bandwidth: 40%\n  end-qos-level\nend-qos-levels\n",
	      NULL);
	assert_int_equal(x.r.p->n_ext_lines, 1);
	assert_int_equal(x.v, OQ_STOCK_REJECTED);
	/* `name: DEFAULT` reads on into the next line's letters. */
	assert_int_equal(x.s->where.line, 5);
	for (i = 0; i < x.d.n; i++)
		hint |= x.d.v[i].hint && strstr(x.d.v[i].hint, "osmqos export");
	assert_true(hint);
	verdict_free(&x);
}

/* Unquoted blanks vanish: a port-name then names another node; a group
 * name read alike in every reference is harmless. */
static void test_unquoted_blanks(void **state)
{
	struct verdict x;

	(void)state;
	judge(&x,
	      "port-groups\n  port-group\n    name: Virtual Servers\n"
	      "    port-name: vs1 HCA-1/P1\n  end-port-group\n"
	      "end-port-groups\n" LEVELS "qos-match-rules\n  qos-match-rule\n"
	      "    source: Virtual Servers\n    qos-level-name: DEFAULT\n"
	      "  end-qos-match-rule\nend-qos-match-rules\n",
	      NULL);
	assert_int_equal(x.s->outcome, OQ_STOCK_TAKES);
	assert_string_equal(x.s->groups[0].name, "VirtualServers");
	assert_string_equal(x.s->groups[0].pnames[0].node, "vs1HCA-1");
	assert_int_equal(x.s->groups[0].pnames[0].port, 1);
	assert_int_equal(x.v, OQ_STOCK_DIFFERENTLY);
	assert_int_equal(x.d.n, 1);
	assert_true(has_diag(&x.d, OQ_SEV_WARNING, 4, 16, "'vs1HCA-1'"));
	verdict_free(&x);

	/* Quoted, it is read as written. */
	judge(&x,
	      "port-groups\n  port-group\n    name: Virtual Servers\n"
	      "    port-name: \"vs1 HCA-1/P1\"\n  end-port-group\n"
	      "end-port-groups\n" LEVELS "qos-match-rules\n  qos-match-rule\n"
	      "    source: Virtual Servers\n    qos-level-name: DEFAULT\n"
	      "  end-qos-match-rule\nend-qos-match-rules\n",
	      NULL);
	assert_int_equal(x.v, OQ_STOCK_AS_WRITTEN);
	verdict_free(&x);
}

/* A key that reads strings keeps its line: `name: X sl: 0` gives the
 * number to the name's line flags (text), `sl: 0 name: X` works. */
/* An sl2vl-scope's `across:` with `across-to:`/`across-from:`, in either
 * order: OpenSM keeps one list in file order, osmqos two; the same groups
 * are the same reading. */
static void test_across_order(void **state)
{
	static const char *const keys[] = {
		"      across: g\n      across-to: sw\n",
		"      across-to: sw\n      across: g\n",
		"      across: g\n      across-from: sw\n",
		"      across: g\n      across-from: sw\n      across: sw\n"
		"      across-to: g\n",
	};
	char text[2048];
	struct verdict x;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		snprintf(text, sizeof(text),
			 "port-groups\n  port-group\n    name: g\n"
			 "    node-type: CA\n  end-port-group\n"
			 "  port-group\n    name: sw\n    node-type: SWITCH\n"
			 "  end-port-group\nend-port-groups\n"
			 "qos-setup\n  sl2vl-tables\n    sl2vl-scope\n%s"
			 "      sl2vl-table: 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,15\n"
			 "    end-sl2vl-scope\n  end-sl2vl-tables\n"
			 "end-qos-setup\n" LEVELS,
			 keys[i]);
		judge(&x, text, NULL);
		assert_int_equal(x.s->outcome, OQ_STOCK_TAKES);
		assert_int_equal(x.v, OQ_STOCK_AS_WRITTEN);
		assert_int_equal(x.d.n, 0);
		verdict_free(&x);
	}
}

static void test_keys_on_one_line(void **state)
{
	struct verdict x;

	(void)state;
	judge(&x,
	      "qos-levels\n  qos-level\n    name: DEFAULT sl: 0\n"
	      "  end-qos-level\nend-qos-levels\n",
	      NULL);
	assert_int_equal(x.s->outcome, OQ_STOCK_REJECTS);
	assert_int_equal(x.s->where.line, 3);
	assert_int_equal(x.s->where.col, 23);
	verdict_free(&x);
	judge(&x,
	      "qos-levels\n  qos-level\n    sl: 0 name: DEFAULT\n"
	      "  end-qos-level\nend-qos-levels\n",
	      NULL);
	assert_int_equal(x.s->outcome, OQ_STOCK_TAKES);
	assert_string_equal(x.s->levels[0].name, "DEFAULT");
	/* osmqos reads lines: sl's value is "0 name: DEFAULT". */
	assert_int_equal(x.v, OQ_STOCK_TAKEN);
	verdict_free(&x);
}

/* Keywords are tokens anywhere: a name holding one breaks the parse. */
static void test_keyword_inside_name(void **state)
{
	struct oq_stock *s;
	const char *t = "port-groups\n  port-group\n    name: my-qos-level\n"
			"  end-port-group\nend-port-groups\n" LEVELS;

	(void)state;
	s = oq_stock_read("t.conf", t, strlen(t), NULL);
	assert_int_equal(s->outcome, OQ_STOCK_REJECTS);
	assert_int_equal(s->where.line, 3);
	assert_int_equal(s->where.col, 14);
	oq_stock_free(s);
}

/* A quoted string runs to the next '"' anywhere in the file. */
static void test_quote_spans_lines(void **state)
{
	struct oq_stock *s;
	const char *t = "port-groups\n  port-group\n    name: \"a\nb\"\n"
			"  end-port-group\nend-port-groups\n" LEVELS;

	(void)state;
	s = oq_stock_read("t.conf", t, strlen(t), NULL);
	assert_int_equal(s->outcome, OQ_STOCK_TAKES);
	assert_string_equal(s->groups[0].name, "a\nb");
	oq_stock_free(s);
}

/* Unchecked values wrap to 8 bits; a repeated sl is an error. */
static void test_values(void **state)
{
	struct oq_stock *s;
	const char *wraps =
		"qos-levels\n  qos-level\n    name: DEFAULT\n"
		"    sl: 300\n    packet-life: 0x1ff\n"
		"    mtu-limit: 5\n  end-qos-level\nend-qos-levels\n";
	const char *twice = "qos-levels\n  qos-level\n    name: DEFAULT\n"
			    "    sl: 1\n    sl: 2\n  end-qos-level\n"
			    "end-qos-levels\n";
	const char *octal = "qos-levels\n  qos-level\n    name: DEFAULT\n"
			    "    sl: 010\n    rate-limit: 08\n"
			    "  end-qos-level\nend-qos-levels\n";

	(void)state;
	s = oq_stock_read("t.conf", wraps, strlen(wraps), NULL);
	assert_int_equal(s->outcome, OQ_STOCK_TAKES);
	assert_int_equal(s->levels[0].sl, 300 & 0xff);
	assert_int_equal(s->levels[0].life, 0xff);
	assert_int_equal(s->levels[0].mtu, 5);
	oq_stock_free(s);
	s = oq_stock_read("t.conf", twice, strlen(twice), NULL);
	assert_int_equal(s->outcome, OQ_STOCK_REJECTS);
	assert_non_null(strstr(s->why, "multiple 'sl'"));
	assert_int_equal(s->where.line, 5);
	oq_stock_free(s);
	/* strtoull base 0: 010 is 8, and "08" stops at the 8: 0, out of
	 * rate-limit's range. */
	s = oq_stock_read("t.conf", octal, strlen(octal), NULL);
	assert_int_equal(s->outcome, OQ_STOCK_REJECTS);
	assert_int_equal(s->levels[0].sl, 8);
	assert_non_null(strstr(s->why, "rate limit is out of range"));
	oq_stock_free(s);
}

/* A string over the 10 KiB buffer aborts the SM; at 10239 bytes it
 * fits. */
static void test_string_buffer(void **state)
{
	size_t n;

	(void)state;
	for (n = 10239; n <= 10240; n++) {
		char *t = malloc(n + 256);
		struct oq_stock *s;
		int len;

		len = sprintf(t, "port-groups\n  port-group\n    name: ");
		memset(t + len, 'g', n);
		len += (int)n;
		len += sprintf(t + len, "\n  end-port-group\n"
					"end-port-groups\n" LEVELS);
		s = oq_stock_read("t.conf", t, (size_t)len, NULL);
		assert_int_equal(s->outcome,
				 n == 10239 ? OQ_STOCK_TAKES : OQ_STOCK_ABORTS);
		oq_stock_free(s);
		free(t);
	}
}

/* port-guid ranges are walked one GUID at a time: 2^32 stalls, a range
 * ending at the last GUID never ends; osmqos refuses both. */
static void test_guid_walk(void **state)
{
	struct verdict x;

	(void)state;
	judge(&x,
	      LEVELS "port-groups\n  port-group\n    name: g\n"
		     "    port-guid: 0x100000000-0x1ffffffff\n"
		     "  end-port-group\nend-port-groups\n",
	      NULL);
	assert_int_equal(x.v, OQ_STOCK_STALLED);
	assert_true(has_diag(&x.r.d, OQ_SEV_ERROR, 10, 0, "2^32 GUIDs"));
	verdict_free(&x);
	judge(&x,
	      LEVELS "port-groups\n  port-group\n    name: g\n"
		     "    port-guid: 0x1ffffffffffffffff\n"
		     "  end-port-group\nend-port-groups\n",
	      NULL);
	assert_int_equal(x.v, OQ_STOCK_STALLED);
	assert_non_null(strstr(x.s->why, "without end"));
	verdict_free(&x);
	judge(&x,
	      LEVELS "port-groups\n  port-group\n    name: g\n"
		     "    port-guid: 0x100000000-0x1000fffff\n"
		     "  end-port-group\nend-port-groups\n",
	      NULL);
	assert_int_equal(x.v, OQ_STOCK_AS_WRITTEN);
	/* The GUIDs, and one name lookup (DEFAULT). */
	assert_int_equal(x.s->walked, (1u << 20) + 1);
	verdict_free(&x);
}

/* The fabric checks: without an env they are assumed to pass, with one
 * they decide. */
static int no_partition(void *ctx, unsigned int pkey)
{
	(void)ctx;
	return pkey == 0x7fff ? 5 : pkey == 1 ? 1 : -1;
}

static int one_port(void *ctx, const char *desc, unsigned int port)
{
	(void)ctx;
	return strcmp(desc, "cn01 HCA-1") ? -1 : port == 1;
}

static void test_fabric_checks(void **state)
{
	struct oq_stock_env env = {one_port, no_partition, NULL};
	const char *ipoib1 = "qos-ulps\n  default : 0\n  ipoib, pkey 1 : 1\n"
			     "end-qos-ulps\n";
	const char *ipoib3 = "qos-ulps\n  default : 0\n  ipoib, pkey 3 : 1\n"
			     "end-qos-ulps\n";
	const char *ipoib = "qos-ulps\n  default : 0\n  ipoib : 1\n"
			    "end-qos-ulps\n";
	const char *port2 = LEVELS "port-groups\n  port-group\n    name: g\n"
				   "    port-name: \"cn01 HCA-1/P2\"\n"
				   "  end-port-group\nend-port-groups\n";
	struct oq_stock *s;

	(void)state;
	s = oq_stock_read("t.conf", ipoib1, strlen(ipoib1), NULL);
	assert_int_equal(s->outcome, OQ_STOCK_TAKES);
	assert_int_equal(s->assumed, 1);
	oq_stock_free(s);
	s = oq_stock_read("t.conf", ipoib1, strlen(ipoib1), &env);
	assert_int_equal(s->outcome, OQ_STOCK_REJECTS);
	assert_non_null(strstr(s->why, "less than two full members"));
	oq_stock_free(s);
	s = oq_stock_read("t.conf", ipoib3, strlen(ipoib3), &env);
	assert_non_null(strstr(s->why, "partition doesn't exist"));
	oq_stock_free(s);
	s = oq_stock_read("t.conf", ipoib, strlen(ipoib), &env);
	assert_int_equal(s->outcome, OQ_STOCK_TAKES);
	assert_int_equal(s->assumed, 0);
	/* The rule's level is SimpleQoSLevel_SL1, after the explicit ones. */
	assert_int_equal(s->rules[0].level, 1);
	assert_true(s->levels[1].simple);
	assert_int_equal(s->default_level, -1);
	assert_int_equal(s->default_sl, 0);
	oq_stock_free(s);
	s = oq_stock_read("t.conf", port2, strlen(port2), &env);
	assert_int_equal(s->outcome, OQ_STOCK_REJECTS);
	assert_non_null(strstr(s->why, "port number out of range"));
	oq_stock_free(s);
}

/* osm_qos_policy_validate(): DEFAULT, then each rule's level and groups. */
static void test_validation(void **state)
{
	const char *nodefault = "qos-levels\n  qos-level\n    name: x\n"
				"    sl: 0\n  end-qos-level\nend-qos-levels\n";
	const char *nogroup = LEVELS "qos-match-rules\n  qos-match-rule\n"
				     "    source: nowhere\n"
				     "    qos-level-name: DEFAULT\n"
				     "  end-qos-match-rule\n"
				     "end-qos-match-rules\n";
	struct oq_stock *s;

	(void)state;
	s = oq_stock_read("t.conf", nodefault, strlen(nodefault), NULL);
	assert_int_equal(s->outcome, OQ_STOCK_REJECTS);
	assert_non_null(strstr(s->why, "AC10"));
	oq_stock_free(s);
	s = oq_stock_read("t.conf", nogroup, strlen(nogroup), NULL);
	assert_int_equal(s->outcome, OQ_STOCK_REJECTS);
	assert_non_null(strstr(s->why, "AC12"));
	assert_int_equal(s->where.line, 8);
	oq_stock_free(s);
}

/* End of file: '#' without a newline is a character, a missing final
 * newline after the last keyword is fine. */
static void test_end_of_file(void **state)
{
	const char *comment = LEVELS "# the end";
	const char *bare = "qos-ulps\n  default : 0\nend-qos-ulps";
	struct oq_stock *s;

	(void)state;
	s = oq_stock_read("t.conf", comment, strlen(comment), NULL);
	assert_int_equal(s->outcome, OQ_STOCK_REJECTS);
	oq_stock_free(s);
	s = oq_stock_read("t.conf", bare, strlen(bare), NULL);
	assert_int_equal(s->outcome, OQ_STOCK_TAKES);
	oq_stock_free(s);
	s = oq_stock_read("t.conf", "", 0, NULL);
	assert_int_equal(s->outcome, OQ_STOCK_REJECTS);
	assert_non_null(strstr(s->why, "AC10"));
	oq_stock_free(s);
}

/* The text handed to OpenSM's own parser: the file's bytes where OpenSM
 * reads them as osmqos does, else the policy written again, which the
 * model then reads as osmqos reads the file. */
static void copy_of(const char *text, enum oq_stock_copy_form want,
		    const char *finding)
{
	enum oq_stock_copy_form form;
	struct oq_stock *s;
	struct verdict x;
	char why[384];
	size_t len;
	char *copy;

	judge(&x, text, NULL);
	assert_false(oq_diags_has_errors(&x.r.d));
	copy = oq_stock_copy(x.r.p, &len, &form, why, sizeof(why));
	assert_non_null(copy);
	assert_int_equal(form, want);
	assert_int_equal(strlen(copy), len);
	assert_int_equal(copy[len - 1], '\n');
	if (finding)
		assert_non_null(strstr(why, finding));
	else
		assert_string_equal(why, "");
	s = oq_stock_read("copy", copy, len, NULL);
	assert_int_equal(s->outcome, OQ_STOCK_TAKES);
	oq_stock_free(s);
	oq_diags_clear(&x.d);
	s = oq_stock_read("copy", copy, len, NULL);
	assert_int_equal(oq_stock_verdict(s, x.r.p, &x.d), OQ_STOCK_AS_WRITTEN);
	oq_stock_free(s);
	free(copy);
	verdict_free(&x);
}

/* qos-ulps written before port-groups, a port-group named as the group
 * the srp line generates and a rule naming that name: OpenSM keeps its
 * port groups in one list in file order, the generated ones included,
 * and a name finds the first, so the rule gets the srp line's port
 * (0x1), not the port-group's CAs.  The quoted node-type is read
 * otherwise by OpenSM's scanner, so the copy is the policy written
 * again. */
static const char ulps_first[] =
	"qos-ulps\n  default : 0\n  srp, target-port-guid 0x1 : 3\n"
	"end-qos-ulps\n"
	"port-groups\n  port-group\n    name: _SRP_Targets_\n"
	"    node-type: \"CA\"\n  end-port-group\nend-port-groups\n"
	"qos-levels\n  qos-level\n    name: x\n    sl: 5\n"
	"  end-qos-level\nend-qos-levels\n"
	"qos-match-rules\n  qos-match-rule\n    destination: _srp_targets_\n"
	"    qos-level-name: x\n  end-qos-match-rule\n"
	"end-qos-match-rules\n";

/* Where each section header starts in text, in order, as letters:
 * G port-groups, U qos-ulps, S qos-setup, L qos-levels, M
 * qos-match-rules. */
static void section_order(const char *text, char *out, size_t len)
{
	static const struct {
		const char *head;
		char c;
	} h[] = {{"port-groups\n", 'G'},
		 {"qos-ulps\n", 'U'},
		 {"qos-setup\n", 'S'},
		 {"qos-levels\n", 'L'},
		 {"qos-match-rules\n", 'M'}};
	const char *line;
	size_t n = 0, i;

	for (line = text; *line && n + 1 < len;) {
		for (i = 0; i < sizeof(h) / sizeof(h[0]); i++)
			if (!strncmp(line, h[i].head, strlen(h[i].head)))
				out[n++] = h[i].c;
		line = strchr(line, '\n');
		if (!line)
			break;
		line++;
	}
	out[n] = '\0';
}

/* The policy written again keeps the file's order of sections, and the
 * model reads it as osmqos reads the file. */
static void write_order(const char *text, const char *want)
{
	char *copy = NULL, order[32];
	size_t len = 0;
	struct verdict x;
	struct oq_stock *s;
	FILE *m;

	judge(&x, text, NULL);
	assert_false(oq_diags_has_errors(&x.r.d));
	m = open_memstream(&copy, &len);
	assert_non_null(m);
	assert_int_equal(oq_stock_write(m, x.r.p, "# t\n"), 0);
	assert_int_equal(fclose(m), 0);
	section_order(copy, order, sizeof(order));
	assert_string_equal(order, want);
	oq_diags_clear(&x.d);
	s = oq_stock_read("copy", copy, len, NULL);
	if (oq_stock_verdict(s, x.r.p, &x.d) != OQ_STOCK_AS_WRITTEN) {
		dump_diags(&x.d);
		fail_msg("the rewritten policy is read otherwise:\n%s", copy);
	}
	oq_stock_free(s);
	free(copy);
	verdict_free(&x);
}

static void test_write_keeps_section_order(void **state)
{
	static const char interleaved[] =
		"port-groups\n  port-group\n    name: a\n"
		"    port-guid: 0x30\n  end-port-group\nend-port-groups\n"
		"qos-ulps\n  default : 0\n  srp, target-port-guid 0x10 : 3\n"
		"end-qos-ulps\n"
		"qos-match-rules\n  qos-match-rule\n"
		"    destination: _SRP_Targets_\n    source: a\n"
		"    qos-level-name: x\n  end-qos-match-rule\n"
		"end-qos-match-rules\n"
		"port-groups\n  port-group\n    name: _SRP_Targets_\n"
		"    port-guid: 0x20\n  end-port-group\nend-port-groups\n"
		"qos-ulps\n  any, source-port-guid 0x40 : 2\nend-qos-ulps\n"
		"qos-levels\n  qos-level\n    name: x\n    sl: 5\n"
		"  end-qos-level\nend-qos-levels\n"
		"port-groups\n  port-group\n    name: _ULP_Sources_\n"
		"    port-guid: 0x50\n  end-port-group\nend-port-groups\n";

	(void)state;
	write_order(ulps_first, "UGLM");
	/* A port-groups section in the middle of qos-ulps sections stays
	 * there; the levels and rules come where they were. */
	write_order(interleaved, "GUMGULG");
	/* The usual order is kept too. */
	write_order(LEVELS "port-groups\n  port-group\n    name: g\n"
			   "    port-guid: 0x1\n  end-port-group\n"
			   "end-port-groups\nqos-ulps\n"
			   "  any, source-port-guid 0x2 : 1\nend-qos-ulps\n",
		    "LGU");
	/* A default line alone where it was. */
	write_order("qos-ulps\n  default : 1\nend-qos-ulps\n"
		    "port-groups\n  port-group\n    name: g\n"
		    "    port-guid: 0x1\n  end-port-group\nend-port-groups\n",
		    "UG");
}

/* The plugin's check of its copy sees a copy with the sections in
 * another order than the file's: the rule's _SRP_Targets_ is then the
 * port-group, not the srp line's group. */
static void test_copy_check_sees_order(void **state)
{
	static const char swapped[] =
		"port-groups\n  port-group\n    name: \"_SRP_Targets_\"\n"
		"    node-type: CA\n  end-port-group\nend-port-groups\n"
		"qos-levels\n  qos-level\n    name: \"x\"\n    sl: 5\n"
		"  end-qos-level\nend-qos-levels\n"
		"qos-match-rules\n  qos-match-rule\n"
		"    destination: \"_SRP_Targets_\"\n"
		"    qos-level-name: \"x\"\n  end-qos-match-rule\n"
		"end-qos-match-rules\n"
		"qos-ulps\n  default : 0\n  srp, target-port-guid 0x1 : 3\n"
		"end-qos-ulps\n";
	struct oq_stock *s;
	struct verdict x;

	(void)state;
	judge(&x, ulps_first, NULL);
	assert_false(oq_diags_has_errors(&x.r.d));
	oq_diags_clear(&x.d);
	s = oq_stock_read("copy", swapped, strlen(swapped), NULL);
	assert_int_equal(s->outcome, OQ_STOCK_TAKES);
	assert_int_equal(oq_stock_verdict(s, x.r.p, &x.d),
			 OQ_STOCK_DIFFERENTLY);
	assert_warning(&x.d, 3, 0, "port group '_SRP_Targets_'");
	oq_stock_free(s);
	verdict_free(&x);
}

static void test_copy(void **state)
{
	static const char group[] =
		"port-groups\n  port-group\n    name: %s\n    node-type: CA\n"
		"  end-port-group\nend-port-groups\n" LEVELS
		"qos-match-rules\n  qos-match-rule\n    source: %s\n"
		"    qos-level-name: DEFAULT\n  end-qos-match-rule\n"
		"end-qos-match-rules\n";
	char text[1024];

	(void)state;
	snprintf(text, sizeof(text), group, "cas", "cas");
	copy_of(text, OQ_COPY_AS_WRITTEN, NULL);
	/* A last comment without its newline gets one, as written. */
	snprintf(text, sizeof(text), "%s# the end", LEVELS);
	copy_of(text, OQ_COPY_AS_WRITTEN, NULL);
	/* OpenSM rejects these as written. */
	snprintf(text, sizeof(text), group, "my-qos-level", "my-qos-level");
	copy_of(text, OQ_COPY_REWRITTEN,
		"t.conf:3:14: its parser stops: syntax error: unexpected "
		"qos-level");
	/* OpenSM drops the blank of the unquoted reference: no such
	 * group. */
	snprintf(text, sizeof(text), group, "\"my cas\"", "my cas");
	copy_of(text, OQ_COPY_REWRITTEN, "its parser stops: ");
	/* Written again with qos-ulps still first: the rule still gets
	 * the srp line's group. */
	copy_of(ulps_first, OQ_COPY_REWRITTEN, "t.conf:8:");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_as_written),
		cmocka_unit_test(test_crlf_rejected),
		cmocka_unit_test(test_intent_key_rejected),
		cmocka_unit_test(test_unquoted_blanks),
		cmocka_unit_test(test_across_order),
		cmocka_unit_test(test_keys_on_one_line),
		cmocka_unit_test(test_keyword_inside_name),
		cmocka_unit_test(test_quote_spans_lines),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_string_buffer),
		cmocka_unit_test(test_guid_walk),
		cmocka_unit_test(test_fabric_checks),
		cmocka_unit_test(test_validation),
		cmocka_unit_test(test_end_of_file),
		cmocka_unit_test(test_write_keeps_section_order),
		cmocka_unit_test(test_copy_check_sees_order),
		cmocka_unit_test(test_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
