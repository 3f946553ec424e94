// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: every error and warning of the parser and oq_policy_validate,
 * with its line and column. */
#include "osm_release_test.h"
#include "policy_test_util.h"

#define GROUPS                                                               \
	"port-groups\n"                                                      \
	" port-group\n  name: A\n  port-guid: 1\n end-port-group\n"         \
	" port-group\n  name: B\n  port-guid: 2\n end-port-group\n"         \
	"end-port-groups\n" /* 10 lines */

struct err_case {
	const char *text;
	unsigned int line, col;
	const char *msg;
};

/* Values out of range and malformed blocks: one error each, exact place. */
static const struct err_case value_errors[] = {
	{ "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 16\n end-qos-level\nend-qos-levels\n",
	  4, 7, "SL 16 is out of range 0-15" },
	{ LEVELS_DEFAULT "qos-levels\n qos-level\n  name: x\n  sl: 1\n  mtu-limit: 0\n end-qos-level\nend-qos-levels\n",
	  11, 14, "mtu-limit 0 is out of range 1-5" },
	{ LEVELS_DEFAULT "qos-levels\n qos-level\n  name: x\n  sl: 1\n  mtu-limit: 6\n end-qos-level\nend-qos-levels\n",
	  11, 14, "mtu-limit 6 is out of range 1-5" },
	{ LEVELS_DEFAULT "qos-levels\n qos-level\n  name: x\n  sl: 1\n  rate-limit: 1\n end-qos-level\nend-qos-levels\n",
	  11, 15, "rate-limit 1 is out of range 2-22" },
	{ LEVELS_DEFAULT "qos-levels\n qos-level\n  name: x\n  sl: 1\n  rate-limit: 23\n end-qos-level\nend-qos-levels\n",
	  11, 15, "rate-limit 23 is out of range 2-22" },
	{ LEVELS_DEFAULT "qos-levels\n qos-level\n  name: x\n  sl: 1\n  packet-life: 64\n end-qos-level\nend-qos-levels\n",
	  11, 16, "packet-life 64 is out of range 0-63" },
	{ LEVELS_DEFAULT "qos-levels\n qos-level\n  name: x\n  sl: 1\n  path-bits: 1, 200\n end-qos-level\nend-qos-levels\n",
	  11, 17, "path-bits 200 (0xc8) is out of range 0-127" },
	{ LEVELS_DEFAULT "qos-levels\n qos-level\n  name: x\n  sl: 1\n  pkey: 0-0x10000\n end-qos-level\nend-qos-levels\n",
	  11, 11, "pkey 65536 (0x10000) is out of range" },
	{ LEVELS_DEFAULT "qos-match-rules\n qos-match-rule\n  qos-class: 0x1000\n  qos-level-name: DEFAULT\n end-qos-match-rule\nend-qos-match-rules\n",
	  9, 14, "qos-class 4096 (0x1000) is out of range 0-4095" },
	{ GROUPS LEVELS_DEFAULT "qos-setup\n vlarb-tables\n  vlarb-scope\n   group: A\n   vl-high-limit: 300\n  end-vlarb-scope\n end-vlarb-tables\nend-qos-setup\n",
	  21, 19, "vl-high-limit 300 is out of range 0-255" },
	{ GROUPS LEVELS_DEFAULT "qos-setup\n vlarb-tables\n  vlarb-scope\n   group: A\n   vlarb-high: 15:1\n  end-vlarb-scope\n end-vlarb-tables\nend-qos-setup\n",
	  21, 16, "VL 15 is out of range 0-14" },
	{ GROUPS LEVELS_DEFAULT "qos-setup\n vlarb-tables\n  vlarb-scope\n   group: A\n   vlarb-low: 1:0x100\n  end-vlarb-scope\n end-vlarb-tables\nend-qos-setup\n",
	  21, 17, "weight 256 is out of range 0-255" },
	{ GROUPS LEVELS_DEFAULT "qos-setup\n sl2vl-tables\n  sl2vl-scope\n   group: A\n   sl2vl-table: 0,1\n  end-sl2vl-scope\n end-sl2vl-tables\nend-qos-setup\n",
	  21, 4, "sl2vl-table has 2 values; it needs 16" },
	{ GROUPS LEVELS_DEFAULT "qos-setup\n sl2vl-tables\n  sl2vl-scope\n   group: A\n   sl2vl-table: 16,1\n  end-sl2vl-scope\n end-sl2vl-tables\nend-qos-setup\n",
	  21, 17, "VL 16 is out of range 0-15" },
	{ GROUPS LEVELS_DEFAULT "qos-setup\n sl2vl-tables\n  sl2vl-scope\n   group: A\n   to: 300\n   sl2vl-table: 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n  end-sl2vl-scope\n end-sl2vl-tables\nend-qos-setup\n",
	  21, 8, "port number 300 (0x12c) is out of range 0-254" },
	{ GROUPS LEVELS_DEFAULT "qos-setup\n sl2vl-tables\n  sl2vl-scope\n   group: A\n  end-sl2vl-scope\n end-sl2vl-tables\nend-qos-setup\n",
	  19, 3, "sl2vl-scope has no 'sl2vl-table'" },
	{ GROUPS LEVELS_DEFAULT "qos-setup\n sl2vl-tables\n  sl2vl-scope\n   sl2vl-table: 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n  end-sl2vl-scope\n end-sl2vl-tables\nend-qos-setup\n",
	  19, 3, "sl2vl-scope has no 'group'" },
	{ GROUPS LEVELS_DEFAULT "qos-setup\n vlarb-tables\n  vlarb-scope\n   vlarb-high: 1:1\n  end-vlarb-scope\n end-vlarb-tables\nend-qos-setup\n",
	  19, 3, "vlarb-scope has no 'group' or 'across'" },
	{ "port-groups\n port-group\n  port-guid: 1\n end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
	  2, 2, "port-group has no 'name'" },
	{ "qos-levels\n qos-level\n  name: DEFAULT\n end-qos-level\nend-qos-levels\n",
	  2, 2, "qos-level has no 'sl'" },
	{ LEVELS_DEFAULT "qos-levels\n qos-level\n  sl: 1\n end-qos-level\nend-qos-levels\n",
	  8, 2, "qos-level has no 'name'" },
	{ LEVELS_DEFAULT "qos-match-rules\n qos-match-rule\n  qos-class: 1\n end-qos-match-rule\nend-qos-match-rules\n",
	  8, 2, "qos-match-rule has no 'qos-level-name'" },
	{ "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n  sl: 1\n end-qos-level\nend-qos-levels\n",
	  5, 3, "duplicate 'sl'" },
	{ "qos-levels\n qos-level\n  name: DEFAULT\n  name: X\n  sl: 0\n end-qos-level\nend-qos-levels\n",
	  4, 3, "duplicate 'name'" },
	{ "qos-levels\n qos-level\n  name: DEFAULT\n  use: a\n  use: b\n  sl: 0\n end-qos-level\nend-qos-levels\n",
	  5, 3, "duplicate 'use'" },
	{ "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n  mtu-limit: 1\n  mtu-limit: 2\n end-qos-level\nend-qos-levels\n",
	  6, 3, "duplicate 'mtu-limit'" },
	{ "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n  rate-limit: 2\n  rate-limit: 3\n end-qos-level\nend-qos-levels\n",
	  6, 3, "duplicate 'rate-limit'" },
	{ "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n  packet-life: 2\n  packet-life: 3\n end-qos-level\nend-qos-levels\n",
	  6, 3, "duplicate 'packet-life'" },
	{ "port-groups\nend-port-groups\n" LEVELS_DEFAULT, 1, 1,
	  "empty 'port-groups' section" },
	{ "qos-ulps\nend-qos-ulps\n" LEVELS_DEFAULT, 1, 1,
	  "empty 'qos-ulps' section" },
	{ "port-groups\n port-group\n  name: A\n  port-name: host-1\n end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
	  4, 14, "illegal port name 'host-1'" },
	{ "port-groups\n port-group\n  name: A\n  port-name: h/P255\n end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
	  4, 14, "illegal port name 'h/P255'" },
	{ "port-groups\n port-group\n  name: A\n  node-type: CA,SM\n end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
	  4, 17, "unknown node type 'SM'" },
	{ "port-groups\n port-group\n  name: A\n  port-guid: 0xg\n end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
	  4, 14, "invalid port GUID '0xg'" },
	{ "port-groups\n port-group\n  name: A\n  port-guid: 99999999999999999999\n end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
	  4, 14, "does not fit in 64 bits" },
	{ "port-groups\n port-group\n  name: A\n  port-name: \"x/P1\n end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
	  4, 14, "unterminated quoted string" },
	{ "port-groups\n port-group\n  name: A, B\n end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
	  3, 10, "a port group name is a single value" },
	{ LEVELS_DEFAULT "qos-level\n", 7, 1, "'qos-level' outside of 'qos-levels'" },
	{ LEVELS_DEFAULT "end-port-group\n", 7, 1, "'end-port-group' without 'port-group'" },
	{ LEVELS_DEFAULT "qos-levels\n", 7, 1, "'qos-levels' is never closed" },
	{ LEVELS_DEFAULT "sl: 1\n", 7, 1, "'sl' is not valid in the top level" },
	{ LEVELS_DEFAULT "qos-levels\n sl 1\nend-qos-levels\n", 8, 5, "expected ':' after 'sl'" },
	{ LEVELS_DEFAULT "qos-setup stuff\nend-qos-setup\n", 7, 11, "unexpected 'stuff' after qos-setup" },
	{ LEVELS_DEFAULT "%%\n", 7, 1, "expected a keyword, found '%'" },
};

/* Ranges as OpenSM 3.3.23 has them (test_parser.c: rate-limit in 3.3.24). */
static void test_value_errors(void **state)
{
	size_t i;

	(void)state;
	oq_osm_release_use(&osm_3_3_23);
	for (i = 0; i < sizeof(value_errors) / sizeof(value_errors[0]); i++) {
		const struct err_case *c = &value_errors[i];
		struct parsed r;

		parse_text(&r, c->text, true);
		if (!has_diag(&r.d, OQ_SEV_ERROR, c->line, c->col, c->msg)) {
			dump_diags(&r.d);
			fail_msg("case %zu: no error %u:%u '%s'", i, c->line,
				 c->col, c->msg);
		}
		parsed_free(&r);
	}
	oq_osm_release_use(NULL);
}

static void test_duplicate_names(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   GROUPS "port-groups\n port-group\n  name: a\n  port-guid: 3\n"
			  " end-port-group\nend-port-groups\n" LEVELS_DEFAULT
			  "qos-levels\n qos-level\n  name: Default\n  sl: 1\n"
			  " end-qos-level\nend-qos-levels\n",
		   true);
	assert_error(&r.d, 12, 2, "duplicate port group name 'a'");
	assert_error(&r.d, 24, 2, "duplicate qos-level name 'Default'");
	assert_int_equal(r.d.n_errors, 2);
	/* Lookups return the first, as OpenSM's. */
	assert_int_equal(oq_policy_find_group(r.p, "A"), 0);
	assert_int_equal(r.p->default_level, 0);
	parsed_free(&r);
}

static void test_undefined_references(void **state)
{
	struct parsed r;
	size_t i;
	bool hint = false;

	(void)state;
	parse_text(&r,
		   GROUPS LEVELS_DEFAULT
		   "qos-match-rules\n qos-match-rule\n"
		   "  source: A, Bb\n"		/* 19 */
		   "  destination: C\n"		/* 20 */
		   "  qos-level-name: DEFAUL\n" /* 21 */
		   " end-qos-match-rule\nend-qos-match-rules\n"
		   "qos-setup\n vlarb-tables\n  vlarb-scope\n"
		   "   group: X1\n"	 /* 27 */
		   "   across: X2\n" /* 28 */
		   "  end-vlarb-scope\n end-vlarb-tables\n sl2vl-tables\n"
		   "  sl2vl-scope\n"
		   "   group: X3\n"	      /* 33 */
		   "   across: X4\n"      /* 34 */
		   "   across-from: X5\n" /* 35 */
		   "   across-to: X6\n"   /* 36 */
		   "   sl2vl-table: 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n"
		   "  end-sl2vl-scope\n end-sl2vl-tables\nend-qos-setup\n",
		   true);
	assert_error(&r.d, 19, 14, "undefined port group 'Bb'");
	assert_error(&r.d, 20, 16, "undefined port group 'C'");
	assert_error(&r.d, 21, 19, "undefined qos-level 'DEFAUL'");
	assert_error(&r.d, 27, 11, "undefined port group 'X1'");
	assert_error(&r.d, 28, 12, "undefined port group 'X2'");
	assert_error(&r.d, 33, 11, "undefined port group 'X3'");
	assert_error(&r.d, 34, 12, "undefined port group 'X4'");
	assert_error(&r.d, 35, 17, "undefined port group 'X5'");
	assert_error(&r.d, 36, 15, "undefined port group 'X6'");
	assert_int_equal(r.d.n_errors, 9);
	for (i = 0; i < r.d.n; i++)
		if (r.d.v[i].hint &&
		    !strcmp(r.d.v[i].hint, "did you mean 'DEFAULT'?"))
			hint = true;
	assert_true(hint);
	assert_int_equal(r.p->rules[0].sources.v[0].idx, 0);
	assert_int_equal(r.p->rules[0].sources.v[1].idx, -1);
	parsed_free(&r);
}

/* A rule or scope may name a group qos-ulps generates (OpenSM keeps them
 * in its one list of port groups); a name given twice resolves to the one
 * the file defines first, whichever section it is in.  Levels qos-ulps
 * generates stay unnamed. */
static void test_generated_group_references(void **state)
{
	static const char *const names[] = { "_SRP_Targets_", "_ULP_Targets_",
					     "_ULP_Sources_",
					     "_ULP_Sources_Targets_" };
	static const char *const lines[] = {
		"srp, target-port-guid 0x1", "any, target-port-guid 0x1",
		"any, source-port-guid 0x1", "any, source-target-port-guid 0x1"
	};
	const struct oq_match_rule *m;
	struct parsed r;
	char text[1024];
	size_t i;
	int g;

	(void)state;
	for (i = 0; i < 4; i++) {
		snprintf(text, sizeof(text),
			 LEVELS_DEFAULT
			 "qos-match-rules\n qos-match-rule\n"
			 "  destination: %s\n  qos-level-name: DEFAULT\n"
			 " end-qos-match-rule\nend-qos-match-rules\n"
			 "qos-ulps\n %s : 3\n %s2 : 4\nend-qos-ulps\n"
			 "qos-setup\n vlarb-tables\n  vlarb-scope\n"
			 "   group: %s\n   vlarb-low: 0:1\n"
			 "  end-vlarb-scope\n end-vlarb-tables\n"
			 "end-qos-setup\n",
			 names[i], lines[i], lines[i], names[i]);
		parse_text(&r, text, true);
		assert_int_equal(r.d.n_errors, 0);
		g = r.p->rules[0].destinations.v[0].idx;
		assert_true(g >= 0);
		assert_string_equal(r.p->groups[g].name, names[i]);
		/* The first of the two lines' groups, as in OpenSM. */
		assert_int_equal(r.p->groups[g].guids.v[0].lo, 1);
		assert_int_equal(r.p->vlarb[0].groups.v[0].idx, g);
		parsed_free(&r);
	}

	/* A port-group of the same name after the qos-ulps section: the
	 * generated group comes first; before it, the port-group. */
	parse_text(&r,
		   LEVELS_DEFAULT
		   "qos-ulps\n srp, target-port-guid 0x1 : 3\nend-qos-ulps\n"
		   "port-groups\n port-group\n  name: _srp_targets_\n"
		   "  port-guid: 0x7\n end-port-group\nend-port-groups\n"
		   "qos-match-rules\n qos-match-rule\n"
		   "  source: _SRP_Targets_\n  qos-level-name: DEFAULT\n"
		   " end-qos-match-rule\nend-qos-match-rules\n",
		   true);
	assert_int_equal(r.d.n_errors, 0);
	m = &r.p->rules[0];
	assert_true(r.p->groups[m->sources.v[0].idx].from_ulp);
	parsed_free(&r);
	parse_text(&r,
		   LEVELS_DEFAULT
		   "port-groups\n port-group\n  name: _srp_targets_\n"
		   "  port-guid: 0x7\n end-port-group\nend-port-groups\n"
		   "qos-ulps\n srp, target-port-guid 0x1 : 3\nend-qos-ulps\n"
		   "qos-match-rules\n qos-match-rule\n"
		   "  source: _SRP_Targets_\n  qos-level-name: DEFAULT\n"
		   " end-qos-match-rule\nend-qos-match-rules\n",
		   true);
	assert_int_equal(r.d.n_errors, 0);
	assert_int_equal(r.p->rules[0].sources.v[0].idx, 0);
	parsed_free(&r);

	parse_text(&r,
		   LEVELS_DEFAULT
		   "qos-match-rules\n qos-match-rule\n"
		   "  qos-level-name: SimpleQoSLevel_SL3\n"
		   " end-qos-match-rule\nend-qos-match-rules\n"
		   "qos-ulps\n srp, target-port-guid 0x1 : 3\nend-qos-ulps\n",
		   true);
	assert_error(&r.d, 9, 19, "undefined qos-level 'SimpleQoSLevel_SL3'");
	parsed_free(&r);
}

static void test_missing_default(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r, "qos-levels\n qos-level\n  name: x\n  sl: 1\n"
		       " end-qos-level\nend-qos-levels\n",
		   true);
	assert_error(&r.d, 2, 2, "no DEFAULT qos-level");
	assert_int_equal(r.p->default_level, -1);
	parsed_free(&r);

	parse_text(&r, "", true);
	assert_error(&r.d, 1, 1, "no DEFAULT qos-level");
	parsed_free(&r);
}

static void test_vlarb_too_many_entries(void **state)
{
	char text[4096];
	size_t len;
	struct parsed r;
	int i;

	(void)state;
	len = (size_t)snprintf(text, sizeof(text),
			       GROUPS LEVELS_DEFAULT
			       "qos-setup\n vlarb-tables\n  vlarb-scope\n"
			       "   group: A\n   vlarb-low: 0:1");
	for (i = 1; i < 65; i++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					",%d:1", i % 15);
	snprintf(text + len, sizeof(text) - len,
		 "\n   vlarb-high: 0:1\n  end-vlarb-scope\n"
		 " end-vlarb-tables\nend-qos-setup\n");
	parse_text(&r, text, true);
	assert_error(&r.d, 19, 3, "vlarb-low has 65 entries");
	assert_int_equal(r.d.n_errors, 1);
	parsed_free(&r);
}

/* Rules: A = guid 1, B = guid 2; the last rule is the one checked. */
static void shadow_case(const char *first, const char *second, bool shadowed)
{
	char text[2048];
	struct parsed r;

	snprintf(text, sizeof(text),
		 GROUPS LEVELS_DEFAULT
		 "qos-match-rules\n qos-match-rule\n%s"
		 "  qos-level-name: DEFAULT\n end-qos-match-rule\n"
		 " qos-match-rule\n%s  qos-level-name: DEFAULT\n"
		 " end-qos-match-rule\nend-qos-match-rules\n",
		 first, second);
	parse_text(&r, text, true);
	assert_int_equal(r.d.n_errors, 0);
	if (shadowed != has_diag(&r.d, OQ_SEV_WARNING, 0, 0,
				 "can never match")) {
		dump_diags(&r.d);
		fail_msg("'%s' then '%s': shadowed should be %d", first,
			 second, shadowed);
	}
	parsed_free(&r);
}

static void test_shadowed_rules(void **state)
{
	(void)state;
	/* A rule without criteria matches everything. */
	shadow_case("", "  source: A\n", true);
	shadow_case("  source: A, B\n", "  source: B\n", true);
	shadow_case("  source: A\n", "  source: A, B\n", false);
	shadow_case("  source: A\n", "  destination: A\n", false);
	shadow_case("  source: A\n", "  source: a\n  destination: B\n", true);
	shadow_case("  source: A\n  destination: B\n", "  source: A\n", false);
	shadow_case("  service-id: 1-100\n", "  service-id: 5, 7-9\n", true);
	shadow_case("  service-id: 1-100\n", "  service-id: 5, 99-101\n",
		    false);
	shadow_case("  service-id: 1-100\n", "  pkey: 1\n", false);
	shadow_case("  qos-class: 7-9,11\n",
		    "  qos-class: 8\n  service-id: 3\n", true);
	shadow_case("  qos-class: 7-9\n", "  qos-class: 9-11\n", false);
	shadow_case("  pkey: 0x8001-0x8010\n", "  pkey: 0x0002\n", true);
	shadow_case("  pkey: 1\n", "  pkey: 1-2\n", false);
}

/* The pairwise rule of shadowing, as the index must find it: a covers b
 * when each criterion a has, b has too, b's groups among a's, b's ranges
 * each inside one of a's (both merged). */
static bool ref_refs_cover(const struct oq_refs *a, const struct oq_refs *b)
{
	size_t i, j;

	if (!a->n)
		return true;
	if (!b->n)
		return false;
	for (i = 0; i < b->n; i++) {
		for (j = 0; j < a->n; j++)
			if (a->v[j].idx >= 0 && a->v[j].idx == b->v[i].idx)
				break;
		if (j == a->n)
			return false;
	}
	return true;
}

static bool ref_ranges_cover(const struct oq_ranges *a,
			     const struct oq_ranges *b)
{
	size_t i, j;

	if (!a->n)
		return true;
	if (!b->n)
		return false;
	for (i = 0; i < b->n; i++) {
		for (j = 0; j < a->n; j++)
			if (a->v[j].lo <= b->v[i].lo &&
			    a->v[j].hi >= b->v[i].hi)
				break;
		if (j == a->n)
			return false;
	}
	return true;
}

static bool ref_covers(const struct oq_match_rule *a,
		       const struct oq_match_rule *b)
{
	return ref_refs_cover(&a->sources, &b->sources) &&
	       ref_refs_cover(&a->destinations, &b->destinations) &&
	       ref_ranges_cover(&a->service_ids, &b->service_ids) &&
	       ref_ranges_cover(&a->qos_classes, &b->qos_classes) &&
	       ref_ranges_cover(&a->pkeys, &b->pkeys);
}

static unsigned int lcg(unsigned int *x)
{
	*x = *x * 1103515245u + 12345u;
	return (*x >> 16) & 0x7fff;
}

/* A random criterion line: groups A-D, or ranges, overlapping often,
 * nested sometimes, wide (crossing many others) sometimes. */
static size_t random_criterion(unsigned int *x, const char *key, char *out,
			       size_t len)
{
	size_t at = (size_t)snprintf(out, len, "  %s: ", key);
	unsigned int n = 1 + lcg(x) % 2, i;

	for (i = 0; i < n; i++) {
		if (!strcmp(key, "source") || !strcmp(key, "destination")) {
			at += (size_t)snprintf(out + at, len - at, "%s%c",
					       i ? ", " : "",
					       (char)('A' + lcg(x) % 4));
		} else {
			unsigned int lo = lcg(x) % 60,
				     w = lcg(x) % 4 ? lcg(x) % 8 : lcg(x) % 60;

			at += (size_t)snprintf(out + at, len - at, "%s%u-%u",
					       i ? ", " : "", 1 + lo,
					       1 + lo + w);
		}
	}
	at += (size_t)snprintf(out + at, len - at, "\n");
	return at;
}

/* Random policies: the shadowing warnings name, for every rule, the
 * first earlier rule the pairwise reference finds, and no other. */
static void test_shadowed_random(void **state)
{
	static const char *const keys[] = {"source", "destination",
					   "service-id", "qos-class", "pkey"};
	size_t cap = 1u << 20, at, i, j, k;
	char *text = malloc(cap);
	unsigned int seed, x;

	(void)state;
	assert_non_null(text);
	for (seed = 1; seed <= 60; seed++) {
		struct parsed r;
		size_t n_rules = 20 + seed * 3, found = 0;

		x = seed;
		at = (size_t)snprintf(text, cap,
				      "port-groups\n"
				      " port-group\n  name: A\n  port-guid: "
				      "1\n end-port-group\n"
				      " port-group\n  name: B\n  port-guid: "
				      "2\n end-port-group\n"
				      " port-group\n  name: C\n  port-guid: "
				      "3\n end-port-group\n"
				      " port-group\n  name: D\n  port-guid: "
				      "4\n end-port-group\n"
				      "end-port-groups\n" LEVELS_DEFAULT
				      "qos-match-rules\n");
		for (i = 0; i < n_rules; i++) {
			unsigned int set = lcg(&x) % 32;

			/* Few criteria-free rules: they shadow all after. */
			if (!set && lcg(&x) % 8)
				set = 1u << (lcg(&x) % 5);
			at += (size_t)snprintf(text + at, cap - at,
					       " qos-match-rule\n");
			for (k = 0; k < 5; k++)
				if (set & (1u << k))
					at += random_criterion(&x, keys[k],
							       text + at,
							       cap - at);
			at += (size_t)snprintf(text + at, cap - at,
					       "  qos-level-name: DEFAULT\n"
					       " end-qos-match-rule\n");
		}
		snprintf(text + at, cap - at, "end-qos-match-rules\n");
		/* Every warning kept: the list is capped per kind. */
		oq_diags_init(&r.d);
		r.d.max = r.d.max_kind = SIZE_MAX;
		r.p = oq_policy_parse("t.conf", text, strlen(text), &r.d);
		assert_non_null(r.p);
		oq_policy_validate(r.p, &r.d);
		assert_int_equal(r.d.n_errors, 0);
		for (j = 1; j < r.p->n_rules; j++) {
			char want[96];

			for (i = 0; i < j; i++)
				if (ref_covers(&r.p->rules[i], &r.p->rules[j]))
					break;
			if (i == j)
				continue;
			found++;
			snprintf(want, sizeof(want),
				 "can never match: the qos-match-rule at "
				 "line %u ",
				 r.p->rules[i].loc.line);
			if (!has_diag(&r.d, OQ_SEV_WARNING,
				      r.p->rules[j].loc.line, 0, want)) {
				dump_diags(&r.d);
				fail_msg("seed %u: rule at line %u: no '%s'",
					 seed, r.p->rules[j].loc.line, want);
			}
		}
		for (k = 0, i = 0; k < r.d.n; k++)
			i += strstr(r.d.v[k].msg, "can never match: the") !=
			     NULL;
		if (i != found)
			fail_msg("seed %u: %zu shadowing warnings, the "
				 "reference finds %zu",
				 seed, i, found);
		parsed_free(&r);
	}
	free(text);
}

/* Rules the index cannot tell apart cheaply (each of m wide rules holds
 * every later point, the lowest-lo one last): the check stops past its
 * budget with one warning instead of m^2 comparisons, and what it found
 * until then is right. */
static void test_shadowed_budget(void **state)
{
	const size_t m = 2000;
	size_t cap = 128 * 2 * m + 4096, at, i, k, n_shadow = 0;
	char *text = malloc(cap), want[64];
	struct parsed r;

	(void)state;
	assert_non_null(text);
	at = (size_t)snprintf(text, cap, LEVELS_DEFAULT "qos-match-rules\n");
	for (i = 0; i < 2 * m; i++)
		at += (size_t)snprintf(text + at, cap - at,
				       " qos-match-rule\n  service-id: %zu%s\n"
				       "  qos-level-name: DEFAULT\n"
				       " end-qos-match-rule\n",
				       i < m ? m - i : 500000,
				       i < m ? "-1000000" : "");
	snprintf(text + at, cap - at, "end-qos-match-rules\n");
	parse_text(&r, text, true);
	assert_int_equal(r.d.n_errors, 0);
	for (k = 0; k < r.d.n; k++)
		if (strstr(r.d.v[k].msg, "can never match: the qos-match-rule "
					 "at line "))
			n_shadow++;
	assert_true(has_diag(&r.d, OQ_SEV_WARNING, 0, 0,
			     "the check for rules that can never match "
			     "stopped at this rule"));
	/* The first point rule is shadowed by the first rule of all. */
	snprintf(want, sizeof(want), "the qos-match-rule at line %u ",
		 r.p->rules[0].loc.line);
	assert_true(has_diag(&r.d, OQ_SEV_WARNING, r.p->rules[m].loc.line, 0,
			     want));
	assert_true(n_shadow > 0);
	parsed_free(&r);
	free(text);
}

static void test_shadowed_ulp_and_location(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   LEVELS_DEFAULT
		   "qos-match-rules\n qos-match-rule\n  service-id: 0x10000-0x1ffff\n"
		   "  qos-level-name: DEFAULT\n end-qos-match-rule\n"
		   "end-qos-match-rules\n"
		   "qos-ulps\n  sdp, port-num 30000 : 1\n  sdp : 2\n"
		   "  any, pkey 1 : 3\nend-qos-ulps\n",
		   true);
	assert_warning(&r.d, 14, 3, "qos-ulps line 'sdp, port-num 30000' "
				    "can never match: the qos-match-rule at "
				    "line 8");
	assert_warning(&r.d, 15, 3, "qos-ulps line 'sdp' can never match");
	assert_int_equal(r.d.n_warnings, 2);
	parsed_free(&r);
}

static void test_scope_overlap(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   GROUPS LEVELS_DEFAULT
		   "qos-setup\n vlarb-tables\n"
		   "  vlarb-scope\n   group: A\n   across: B\n  end-vlarb-scope\n"
		   "  vlarb-scope\n   group: B, a\n   across: B\n"
		   "  end-vlarb-scope\n end-vlarb-tables\n sl2vl-tables\n"
		   "  sl2vl-scope\n   group: A\n   from: 1-4\n"
		   "   sl2vl-table: 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n"
		   "  end-sl2vl-scope\n"
		   "  sl2vl-scope\n   group: A\n   from: 5-8\n"
		   "   sl2vl-table: 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n"
		   "  end-sl2vl-scope\n"
		   "  sl2vl-scope\n   group: A\n   from: 8\n   to: *\n"
		   "   sl2vl-table: 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n"
		   "  end-sl2vl-scope\n end-sl2vl-tables\nend-qos-setup\n",
		   true);
	assert_int_equal(r.d.n_errors, 0);
	/* Line 24: `group: B, a` - 'a' is group A, already at line 19. */
	assert_warning(&r.d, 24, 14, "port group 'a' ('group') is already in "
				     "the vlarb-scope at line 19");
	assert_warning(&r.d, 25, 12, "port group 'B' ('across')");
	/* from 1-4 and from 5-8 do not overlap; from 8 does. */
	assert_warning(&r.d, 40, 11, "is already in the sl2vl-scope at line 34");
	assert_int_equal(r.d.n_warnings, 3);
	parsed_free(&r);
}

static void test_parser_warnings(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   GROUPS LEVELS_DEFAULT
		   "qos-setup\n sl2vl-tables\n  sl2vl-scope\n   group: A\n"
		   "   from: 130\n" /* 21 */
		   "   sl2vl-table: 0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0\n"
		   "  end-sl2vl-scope\n end-sl2vl-tables\n vlarb-tables\n"
		   "  vlarb-scope\n   group: B\n"
		   "   vl-high-limit: 1\n   vl-high-limit: 2\n" /* 28-29 */
		   "  end-vlarb-scope\n end-vlarb-tables\nend-qos-setup\n"
		   "qos-match-rules\n qos-match-rule\n"
		   "  pkey: 0x7fff-0x8000\n" /* 35 */
		   "  service-id: 017\n"     /* 36 */
		   "  qos-level-name: DEFAULT\n end-qos-match-rule\n"
		   "end-qos-match-rules\n"
		   "qos-ulps\n  default : 1\n  default : 2\nend-qos-ulps\n",
		   true);
	assert_int_equal(r.d.n_errors, 0);
	assert_warning(&r.d, 21, 4, "'from' port 130 is above 127");
	assert_warning(&r.d, 29, 4, "duplicate 'vl-high-limit'");
	assert_warning(&r.d, 35, 9, "spans the membership bit");
	assert_warning(&r.d, 36, 15, "read as octal 15");
	assert_warning(&r.d, 42, 3, "duplicate 'default' in qos-ulps");
	assert_warning(&r.d, 42, 3, "qos-ulps 'default' is ignored");
	assert_int_equal(r.d.n_warnings, 6);
	parsed_free(&r);
}

/* Port numbers in a port-name, read once as OpenSM reads them: the
 * parser's verdict and the number the binder uses agree. */
static void test_port_name_numbers(void **state)
{
	static const struct {
		const char *name;
		bool ok;
		unsigned int port;
		const char *warning;
	} cases[] = {
		{ "cn01 HCA-1/P0x1", true, 1, NULL },
		{ "cn01 HCA-1/p12", true, 12, NULL },
		{ "leaf01/P010", true, 8, "is read as octal 8" },
		{ "leaf01/P1st", true, 1,
		  "OpenSM reads port 1 and ignores 'st'" },
		{ "leaf01/P08", false, 0, NULL },
		{ "leaf01/P0", false, 0, NULL },
		{ "leaf01/P0x", false, 0, NULL },
		{ "leaf01/P", false, 0, NULL },
		{ "leaf01/P255", false, 255, NULL },
	};
	char text[512];
	struct oq_pname pn;
	struct parsed r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool parsed = oq_port_name_parse(cases[i].name, &pn);

		assert_int_equal(parsed, cases[i].port != 0);
		assert_int_equal(pn.port, cases[i].port);
		snprintf(text, sizeof(text),
			 "port-groups\n port-group\n  name: A\n"
			 "  port-name: \"%s\"\n end-port-group\n"
			 "end-port-groups\n" LEVELS_DEFAULT,
			 cases[i].name);
		parse_text(&r, text, true);
		assert_int_equal(r.d.n_errors, cases[i].ok ? 0 : 1);
		if (cases[i].ok)
			assert_int_equal(r.p->groups[0].n_port_names, 1);
		if (cases[i].warning)
			assert_warning(&r.d, 4, 14, cases[i].warning);
		parsed_free(&r);
	}
	parse_text(&r,
		   "port-groups\n port-group\n  name: A\n"
		   "  port-name: leaf01/P09\n end-port-group\n"
		   "end-port-groups\n" LEVELS_DEFAULT,
		   true);
	assert_error(&r.d, 4, 14,
		     "illegal port name 'leaf01/P09': invalid octal number "
		     "'09'");
	parsed_free(&r);
}

static void test_validate_returns_error_count(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r, GROUPS "qos-match-rules\n qos-match-rule\n source: Z\n"
			      "  qos-level-name: nope\n end-qos-match-rule\n"
			      "end-qos-match-rules\n",
		   false);
	assert_int_equal(r.d.n_errors, 0);
	/* Undefined group, undefined level, no DEFAULT. */
	assert_int_equal(oq_policy_validate(r.p, &r.d), 3);
	parsed_free(&r);
}

/* Levels no rule names and groups nothing names are warned about (not
 * DEFAULT, not what qos-ulps generate); a section with a parse error
 * makes the missing level follow from it. */
static void test_unused_and_consequences(void **state)
{
	struct parsed r;
	size_t i, unused = 0;

	(void)state;
	parse_text(
		&r,
		"port-groups\n"
		" port-group\n  name: used\n  node-type: CA\n end-port-group\n"
		" port-group\n  name: idle\n  node-type: CA\n end-port-group\n"
		"end-port-groups\n"
		"qos-levels\n"
		" qos-level\n  name: DEFAULT\n  sl: 0\n end-qos-level\n"
		" qos-level\n  name: fast\n  sl: 1\n end-qos-level\n"
		" qos-level\n  name: spare\n  sl: 2\n end-qos-level\n"
		"end-qos-levels\n"
		"qos-match-rules\n qos-match-rule\n  source: used\n"
		"  qos-level-name: fast\n end-qos-match-rule\n"
		"end-qos-match-rules\n"
		"qos-ulps\n default: 3\n sdp: 4\nend-qos-ulps\n",
		true);
	assert_warning(&r.d, 6, 2, "port group 'idle' is never used");
	assert_warning(&r.d, 20, 2, "qos-level 'spare' is never used");
	for (i = 0; i < r.d.n; i++)
		unused +=
			r.d.v[i].code && !strncmp(r.d.v[i].code, "unused-", 7);
	assert_int_equal(unused, 2);
	assert_int_equal(r.d.n_errors, 0);
	parsed_free(&r);

	parse_text(&r,
		   "qos-levels\n qos-level\n  name: fast\n  sl: 1 2\n"
		   " end-qos-level\nend-qos-levels\n"
		   "qos-match-rules\n qos-match-rule\n  qos-class: 1\n"
		   "  qos-level-name: fsat\n end-qos-match-rule\n"
		   "end-qos-match-rules\n",
		   true);
	assert_error(&r.d, 4, 9, "unexpected");
	assert_error(&r.d, 2, 2, "no DEFAULT qos-level");
	assert_error(&r.d, 10, 19, "undefined qos-level 'fsat'");
	for (i = 0; i < r.d.n; i++)
		if (strstr(r.d.v[i].msg, "DEFAULT") ||
		    strstr(r.d.v[i].msg, "fsat"))
			assert_int_equal(r.d.v[i].cause, r.p->levels_error);
	assert_int_not_equal(r.p->levels_error, 0);
	parsed_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_value_errors),
		cmocka_unit_test(test_duplicate_names),
		cmocka_unit_test(test_undefined_references),
		cmocka_unit_test(test_generated_group_references),
		cmocka_unit_test(test_missing_default),
		cmocka_unit_test(test_vlarb_too_many_entries),
		cmocka_unit_test(test_shadowed_rules),
		cmocka_unit_test(test_shadowed_random),
		cmocka_unit_test(test_shadowed_budget),
		cmocka_unit_test(test_shadowed_ulp_and_location),
		cmocka_unit_test(test_scope_overlap),
		cmocka_unit_test(test_parser_warnings),
		cmocka_unit_test(test_port_name_numbers),
		cmocka_unit_test(test_validate_returns_error_count),
		cmocka_unit_test(test_unused_and_consequences),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
