// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: qos-ulps expansion, value by value against OpenSM's yacc
 * actions (osm_qos_parser_y.y). */
#include "policy_test_util.h"

/* Parse `default : 0` plus one ulp line and return the expanded rule. */
static const struct oq_match_rule *one(struct parsed *r, const char *line)
{
	char text[512];

	snprintf(text, sizeof(text),
		 "qos-match-rules\nend-qos-match-rules\n"
		 "qos-ulps\n  default : 0\n  %s\nend-qos-ulps\n",
		 line);
	parse_text(r, text, true);
	assert_clean(&r->d);
	assert_int_equal(r->p->n_explicit_rules, 0);
	assert_int_equal(r->p->n_rules, 1);
	assert_true(r->p->rules[0].from_ulp);
	return &r->p->rules[0];
}

static void assert_level_sl(const struct parsed *r,
			    const struct oq_match_rule *m, int sl)
{
	char name[32];

	snprintf(name, sizeof(name), "SimpleQoSLevel_SL%d", sl);
	assert_true(m->level.idx >= 0);
	assert_string_equal(r->p->levels[m->level.idx].name, name);
	assert_string_equal(m->level.name, name);
	assert_int_equal(r->p->levels[m->level.idx].sl, sl);
	assert_true(r->p->levels[m->level.idx].from_ulp);
}

static void assert_only_sids(const struct oq_match_rule *m)
{
	assert_int_equal(m->pkeys.n, 0);
	assert_int_equal(m->qos_classes.n, 0);
	assert_int_equal(m->sources.n, 0);
	assert_int_equal(m->destinations.n, 0);
}

static void test_sdp(void **state)
{
	const struct oq_match_rule *m;
	struct parsed r;

	(void)state;
	m = one(&r, "sdp : 1");
	assert_int_equal(m->service_ids.n, 1);
	assert_range(&m->service_ids, 0, 0x10000, 0x1ffff);
	assert_only_sids(m);
	assert_level_sl(&r, m, 1);
	assert_string_equal(m->use, "sdp");
	assert_int_equal(m->loc.line, 5);
	assert_int_equal(m->loc.col, 3);
	parsed_free(&r);
}

static void test_sdp_port(void **state)
{
	const struct oq_match_rule *m;
	struct parsed r;

	(void)state;
	m = one(&r, "SDP, port-num 30000, 10000-20000 : 2");
	assert_int_equal(m->service_ids.n, 2);
	assert_range(&m->service_ids, 0, 0x10000 + 10000, 0x10000 + 20000);
	assert_range(&m->service_ids, 1, 0x10000 + 30000, 0x10000 + 30000);
	assert_only_sids(m);
	assert_level_sl(&r, m, 2);
	assert_string_equal(m->use, "SDP, port-num 30000, 10000-20000");
	parsed_free(&r);
}

static void test_rds(void **state)
{
	const struct oq_match_rule *m;
	struct parsed r;

	(void)state;
	m = one(&r, "rds : 3");
	assert_range(&m->service_ids, 0, 0x10648CA, 0x10648CA);
	assert_int_equal(m->service_ids.n, 1);
	assert_only_sids(m);
	assert_level_sl(&r, m, 3);
	parsed_free(&r);

	m = one(&r, "rds, port-num 0x48CB : 4");
	assert_range(&m->service_ids, 0, 0x10648CB, 0x10648CB);
	assert_level_sl(&r, m, 4);
	parsed_free(&r);
}

static void test_iser(void **state)
{
	const struct oq_match_rule *m;
	struct parsed r;

	(void)state;
	m = one(&r, "iser : 5");
	assert_range(&m->service_ids, 0, 0x1060CBC, 0x1060CBC);
	assert_only_sids(m);
	assert_level_sl(&r, m, 5);
	parsed_free(&r);

	m = one(&r, "iser, port-num 900 : 6");
	assert_range(&m->service_ids, 0, 0x1060000 + 900, 0x1060000 + 900);
	assert_level_sl(&r, m, 6);
	parsed_free(&r);
}

static void assert_guid_group(const struct parsed *r, const struct oq_ref *ref,
			      const char *name, uint64_t lo, uint64_t hi)
{
	const struct oq_port_group *g;

	assert_true(ref->idx >= 0);
	g = &r->p->groups[ref->idx];
	assert_string_equal(ref->name, name);
	assert_string_equal(g->name, name);
	assert_string_equal(g->use, "Generated from ULP rules");
	assert_true(g->from_ulp);
	assert_int_equal(g->guids.n, 1);
	assert_range(&g->guids, 0, lo, hi);
	assert_int_equal(g->n_port_names, 0);
	assert_int_equal(g->pkeys.n, 0);
	assert_int_equal(g->node_types, 0);
	/* A rule may name the group, as in OpenSM. */
	assert_int_equal(oq_policy_find_group(r->p, name), ref->idx);
}

static void test_srp(void **state)
{
	const struct oq_match_rule *m;
	struct parsed r;

	(void)state;
	m = one(&r, "srp, target-port-guid 0x1234 : 5");
	assert_int_equal(m->sources.n, 0);
	assert_int_equal(m->destinations.n, 1);
	assert_guid_group(&r, &m->destinations.v[0], "_SRP_Targets_", 0x1234,
			  0x1234);
	assert_int_equal(m->service_ids.n, 0);
	assert_level_sl(&r, m, 5);
	assert_int_equal(r.p->n_explicit_groups, 0);
	assert_int_equal(r.p->n_groups, 1);
	parsed_free(&r);
}

static void test_any_target(void **state)
{
	const struct oq_match_rule *m;
	struct parsed r;

	(void)state;
	m = one(&r, "any, target-port-guid 0x0ABC-0xFFFFF : 6");
	assert_int_equal(m->sources.n, 0);
	assert_int_equal(m->destinations.n, 1);
	assert_guid_group(&r, &m->destinations.v[0], "_ULP_Targets_", 0xabc,
			  0xfffff);
	assert_level_sl(&r, m, 6);
	parsed_free(&r);
}

static void test_any_source(void **state)
{
	const struct oq_match_rule *m;
	struct parsed r;

	(void)state;
	m = one(&r, "any, source-port-guid 0x5678 : 7");
	assert_int_equal(m->sources.n, 1);
	assert_int_equal(m->destinations.n, 0);
	assert_guid_group(&r, &m->sources.v[0], "_ULP_Sources_", 0x5678,
			  0x5678);
	assert_level_sl(&r, m, 7);
	parsed_free(&r);
}

static void test_any_source_target(void **state)
{
	const struct oq_match_rule *m;
	struct parsed r;

	(void)state;
	/* OpenSM puts the one group in both lists: both ends must be in it. */
	m = one(&r, "any, source-target-port-guid 0x9abcd : 8");
	assert_int_equal(m->sources.n, 1);
	assert_int_equal(m->destinations.n, 1);
	assert_int_equal(m->sources.v[0].idx, m->destinations.v[0].idx);
	assert_guid_group(&r, &m->sources.v[0], "_ULP_Sources_Targets_",
			  0x9abcd, 0x9abcd);
	assert_level_sl(&r, m, 8);
	assert_int_equal(r.p->n_groups, 1);
	parsed_free(&r);
}

static void test_ipoib(void **state)
{
	const struct oq_match_rule *m;
	struct parsed r;

	(void)state;
	m = one(&r, "ipoib : 4");
	assert_int_equal(m->pkeys.n, 1);
	assert_range(&m->pkeys, 0, 0x7fff, 0x7fff);
	assert_int_equal(m->service_ids.n, 0);
	assert_level_sl(&r, m, 4);
	parsed_free(&r);

	/* The membership bit is cleared: 0x8002 is pkey 0x0002. */
	m = one(&r, "ipoib, pkey 0x8002, 0x0005-0x0003 : 9");
	assert_int_equal(m->pkeys.n, 1);
	assert_range(&m->pkeys, 0, 2, 5);
	assert_level_sl(&r, m, 9);
	parsed_free(&r);
}

static void test_any_service_id_and_pkey(void **state)
{
	const struct oq_match_rule *m;
	struct parsed r;

	(void)state;
	m = one(&r, "any, service-id 0x6234, 0xffffffffffffff00-0xffffffffffffffff:10");
	assert_int_equal(m->service_ids.n, 2);
	assert_range(&m->service_ids, 0, 0x6234, 0x6234);
	assert_range(&m->service_ids, 1, 0xffffffffffffff00ULL, UINT64_MAX);
	assert_only_sids(m);
	assert_level_sl(&r, m, 10);
	parsed_free(&r);

	m = one(&r, "any, pkey 0x0ABC : 15");
	assert_range(&m->pkeys, 0, 0xabc, 0xabc);
	assert_int_equal(m->service_ids.n, 0);
	assert_level_sl(&r, m, 15);
	parsed_free(&r);
}

static void test_default_and_order(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "qos-ulps\n  sdp : 1\n  default : 3\n  rds : 1\nend-qos-ulps\n"
		   LEVELS_DEFAULT
		   "qos-match-rules\n qos-match-rule\n  qos-class: 1\n"
		   "  qos-level-name: DEFAULT\n end-qos-match-rule\n"
		   "end-qos-match-rules\n",
		   true);
	/* The qos-level named DEFAULT wins over the qos-ulps default. */
	assert_warning(&r.d, 3, 3, "qos-ulps 'default' is ignored");
	assert_int_equal(r.d.n_errors, 0);
	assert_int_equal(r.p->default_level, 0);
	assert_int_equal(r.p->ulp_default_sl, 3);
	/* Explicit rules first, then the ulps in file order. */
	assert_int_equal(r.p->n_rules, 3);
	assert_int_equal(r.p->n_explicit_rules, 1);
	assert_false(r.p->rules[0].from_ulp);
	assert_string_equal(r.p->rules[1].use, "sdp");
	assert_string_equal(r.p->rules[2].use, "rds");
	/* One level per SL, shared by both SL 1 lines. */
	assert_int_equal(r.p->n_explicit_levels, 1);
	assert_int_equal(r.p->n_levels, 2);
	assert_int_equal(r.p->rules[1].level.idx, r.p->rules[2].level.idx);
	/* A match rule cannot name a synthesized level (as in OpenSM). */
	assert_int_equal(oq_policy_find_level(r.p, "SimpleQoSLevel_SL1"), -1);
	parsed_free(&r);
}

static void test_default_only(void **state)
{
	struct parsed r;
	const struct oq_qos_level *l;

	(void)state;
	parse_text(&r, "qos-ulps\n  default : 7 # x\n  default : 6\nend-qos-ulps\n",
		   true);
	assert_int_equal(r.d.n_errors, 0);
	assert_warning(&r.d, 3, 3, "duplicate 'default'");
	assert_int_equal(r.p->n_rules, 0);
	assert_true(r.p->default_level >= 0);
	l = &r.p->levels[r.p->default_level];
	assert_string_equal(l->name, "SimpleQoSLevel_DEFAULT");
	assert_int_equal(l->sl, 6); /* the last one wins, as in OpenSM */
	assert_true(l->from_ulp);
	parsed_free(&r);
}

static void test_ulp_errors(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "qos-ulps\n"
		   "  default : 0\n"
		   "  sdp, port-num 65536 : 1\n"
		   "  rds : 16\n"
		   "  srp : 1\n"
		   "  any, port-num 1 : 1\n"
		   "  iser, port-num 1\n"
		   "  ipoib ; 1\n"
		   "  nfs : 1\n"
		   "  any, pkey 0x10000 : 1\n"
		   "  sdp : 1 extra\n"
		   "end-qos-ulps\n",
		   true);
	assert_error(&r.d, 3, 17, "TCP/IP port number 65536");
	assert_error(&r.d, 4, 9, "SL 16 is out of range");
	assert_error(&r.d, 5, 7, "expected ',' after 'srp'");
	assert_error(&r.d, 6, 8, "expected a known qualifier after 'any'");
	assert_error(&r.d, 7, 19, "expected ':' and the SL");
	assert_error(&r.d, 8, 9, "expected ':' or ',' after 'ipoib'");
	assert_error(&r.d, 9, 3, "unknown ULP 'nfs'");
	assert_error(&r.d, 10, 13, "pkey 65536");
	assert_error(&r.d, 11, 11, "unexpected 'extra'");
	assert_int_equal(r.d.n_errors, 9);
	assert_int_equal(r.p->n_rules, 0);
	parsed_free(&r);
}

/* A misspelt or broken `default` line is the root cause of the policy's
 * missing DEFAULT level, which follows from it. */
static void test_default_line_is_the_cause(void **state)
{
	static const char *const texts[] = {
		"qos-ulps\n  defualt : 0\nend-qos-ulps\n",
		"qos-ulps\n  default : 0x\nend-qos-ulps\n",
	};
	struct parsed r;
	size_t i, k;

	(void)state;
	for (i = 0; i < 2; i++) {
		const struct oq_diag *cause = NULL, *missing = NULL;

		parse_text(&r, texts[i], true);
		for (k = 0; k < r.d.n; k++) {
			if (r.d.v[k].loc.line == 2)
				cause = &r.d.v[k];
			if (strstr(r.d.v[k].msg, "no DEFAULT qos-level"))
				missing = &r.d.v[k];
		}
		assert_non_null(cause);
		assert_non_null(missing);
		assert_int_equal(missing->cause, cause->id);
		if (!i)
			assert_string_equal(cause->hint,
					    "did you mean 'default'?");
		parsed_free(&r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sdp),
		cmocka_unit_test(test_sdp_port),
		cmocka_unit_test(test_rds),
		cmocka_unit_test(test_iser),
		cmocka_unit_test(test_srp),
		cmocka_unit_test(test_any_target),
		cmocka_unit_test(test_any_source),
		cmocka_unit_test(test_any_source_target),
		cmocka_unit_test(test_ipoib),
		cmocka_unit_test(test_any_service_id_and_pkey),
		cmocka_unit_test(test_default_and_order),
		cmocka_unit_test(test_default_only),
		cmocka_unit_test(test_ulp_errors),
		cmocka_unit_test(test_default_line_is_the_cause),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
