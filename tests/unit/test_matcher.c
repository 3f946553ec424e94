// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the reference matcher and the compiled matcher. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "match_fixture.h"

struct world {
	struct oq_fabric *f;
	struct oq_policy *p;
	struct oq_binding *b;
	struct oq_matcher *m, *sparse;
	struct oq_node *sw, *h1, *h2, *h3, *rtr;
};

/*
 * sw1 (0x100) ports 1..5 to h1 (port GUID 0x11), h2 (0x21), h3 port 1
 * (0x31), h3 port 2 (0x32), router (0x41).
 */
static void build_fabric(struct world *w)
{
	w->f = oq_fabric_new();
	w->sw = fx_switch(w->f, 0x100, "sw1", 8, 1);
	w->h1 = fx_ca(w->f, 0x10, "h1 HCA-1", 1, 10);
	w->h2 = fx_ca(w->f, 0x20, "h2 HCA-1", 1, 20);
	w->h3 = fx_ca(w->f, 0x30, "h3 HCA-1", 2, 30);
	w->rtr = fx_router(w->f, 0x40, "rtr", 40);
	oq_fabric_link(&w->h1->ports[1], &w->sw->ports[1]);
	oq_fabric_link(&w->h2->ports[1], &w->sw->ports[2]);
	oq_fabric_link(&w->h3->ports[1], &w->sw->ports[3]);
	oq_fabric_link(&w->h3->ports[2], &w->sw->ports[4]);
	oq_fabric_link(&w->rtr->ports[1], &w->sw->ports[5]);
	assert_int_equal(oq_fabric_finalize(w->f, NULL), 0);
}

static int setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));
	struct oq_policy *p;
	int storage, compute, switches, routers, l[5], r;

	build_fabric(w);
	p = w->p = fx_policy_new();
	storage = fx_group(p, "Storage");
	fx_group_guids(p, storage, 0x21, 0x21);
	compute = fx_group(p, "Compute");
	fx_group_guids(p, compute, 0x11, 0x11);
	fx_group_guids(p, compute, 0x31, 0x32);
	switches = fx_group(p, "Switches");
	fx_group_types(p, switches, OQ_NT_SWITCH);
	routers = fx_group(p, "Routers");
	fx_group_types(p, routers, OQ_NT_ROUTER);
	l[0] = fx_level(p, "DEFAULT", 0);
	l[1] = fx_level(p, "L1", 1);
	l[2] = fx_level(p, "L2", 2);
	l[3] = fx_level(p, "L3", 3);
	l[4] = fx_level(p, "L4", 4);
	(void)l[0];

	r = fx_rule(p, l[1]); /* 0: qos-class 7-9 */
	fx_add_range(&p->rules[r].qos_classes, 7, 9);
	r = fx_rule(p, l[2]); /* 1: destination Storage, sid 0x10-0x1f */
	fx_rule_dst(p, r, storage);
	fx_add_range(&p->rules[r].service_ids, 0x10, 0x1f);
	r = fx_rule(p, l[3]); /* 2: source Storage */
	fx_rule_src(p, r, storage);
	r = fx_rule(p, l[4]); /* 3: Compute -> Switches */
	fx_rule_src(p, r, compute);
	fx_rule_dst(p, r, switches);
	r = fx_rule(p, l[1]); /* 4: pkey 0x7fff */
	fx_add_range(&p->rules[r].pkeys, 0x7fff, 0x7fff);
	r = fx_rule(p, l[2]); /* 5: destination Routers */
	fx_rule_dst(p, r, routers);

	w->b = oq_bind(p, w->f, NULL, NULL);
	assert_non_null(w->b);
	w->m = oq_matcher_compile(w->b);
	assert_non_null(w->m);
	w->sparse = oq_matcher_compile_mode(w->b, OQ_MATCHER_SPARSE);
	assert_non_null(w->sparse);
	*state = w;
	return 0;
}

static int teardown(void **state)
{
	struct world *w = *state;

	oq_matcher_free(w->m);
	oq_matcher_free(w->sparse);
	oq_binding_free(w->b);
	fx_policy_free(w->p);
	oq_fabric_free(w->f);
	free(w);
	return 0;
}

/* Run the reference and both compiled matchers (bitsets and the sparse
 * index); they must agree; return the decision. */
static struct oq_decision both(struct world *w, const struct oq_query *q)
{
	struct oq_decision a, b, c;

	memset(&a, 0x55, sizeof(a));
	memset(&b, 0xaa, sizeof(b));
	memset(&c, 0x33, sizeof(c));
	oq_match_naive(w->b, q, &a);
	oq_match(w->m, q, &b);
	oq_match(w->sparse, q, &c);
	assert_int_equal(a.rule, b.rule);
	assert_int_equal(a.level, b.level);
	assert_int_equal(a.why, b.why);
	assert_int_equal(a.rule, c.rule);
	assert_int_equal(a.level, c.level);
	assert_int_equal(a.why, c.why);
	return a;
}

static struct oq_query qry(const struct oq_port *s, const struct oq_port *d)
{
	struct oq_query q;

	memset(&q, 0, sizeof(q));
	q.src = s;
	q.dst = d;
	return q;
}

static void test_no_component_gets_default(void **state)
{
	struct world *w = *state;
	struct oq_query q = qry(&w->h1->ports[1], &w->h2->ports[1]);
	struct oq_decision d = both(w, &q);

	/* r0 needs a QoS class, r1 a service ID, r4 a pkey; h1 is no
	 * Storage source, h2 neither switch nor router. */
	assert_int_equal(d.rule, -1);
	assert_int_equal(d.level, 0);
	assert_int_equal(d.why, OQ_WHY_DEFAULT);
}

static void test_qos_class_rule(void **state)
{
	struct world *w = *state;
	struct oq_query q = qry(&w->h1->ports[1], &w->h2->ports[1]);
	struct oq_decision d;

	q.has_qos_class = true;
	q.qos_class = 8;
	d = both(w, &q);
	assert_int_equal(d.rule, 0);
	assert_int_equal(d.level, 1);
	assert_int_equal(d.why, OQ_WHY_QOS_CLASS);
	q.qos_class = 10; /* outside 7-9 */
	d = both(w, &q);
	assert_int_equal(d.rule, -1);
}

static void test_destination_and_sid(void **state)
{
	struct world *w = *state;
	struct oq_query q = qry(&w->h1->ports[1], &w->h2->ports[1]);
	struct oq_decision d;

	q.has_sid = true;
	q.sid = 0x15;
	d = both(w, &q);
	assert_int_equal(d.rule, 1);
	assert_int_equal(d.level, 2);
	assert_int_equal(d.why, OQ_WHY_DESTINATION | OQ_WHY_SERVICE_ID);
	q.sid = 0x20;
	d = both(w, &q);
	assert_int_equal(d.rule, -1);
	/* First match wins: h2 -> h2 with the sid is r1, not r2. */
	q = qry(&w->h2->ports[1], &w->h2->ports[1]);
	q.has_sid = true;
	q.sid = 0x10;
	assert_int_equal(both(w, &q).rule, 1);
	q.has_sid = false;
	assert_int_equal(both(w, &q).rule, 2);
}

static void test_source_only(void **state)
{
	struct world *w = *state;
	struct oq_query q = qry(&w->h2->ports[1], &w->h1->ports[1]);
	struct oq_decision d = both(w, &q);

	assert_int_equal(d.rule, 2);
	assert_int_equal(d.level, 3);
	assert_int_equal(d.why, OQ_WHY_SOURCE);
}

static void test_source_and_destination(void **state)
{
	struct world *w = *state;
	struct oq_query q = qry(&w->h1->ports[1], &w->sw->ports[0]);
	struct oq_decision d = both(w, &q);

	assert_int_equal(d.rule, 3);
	assert_int_equal(d.why, OQ_WHY_SOURCE | OQ_WHY_DESTINATION);
	/* A switch external port stands for its switch (same GUID). */
	q = qry(&w->h3->ports[2], &w->sw->ports[3]);
	assert_int_equal(both(w, &q).rule, 3);
	/* Destination alone is not enough. */
	q = qry(&w->rtr->ports[1], &w->sw->ports[0]);
	assert_int_equal(both(w, &q).rule, -1);
}

static void test_pkey_ignores_membership_bit(void **state)
{
	struct world *w = *state;
	struct oq_query q = qry(&w->h1->ports[1], &w->h1->ports[1]);
	struct oq_decision d;

	q.has_pkey = true;
	q.pkey = 0xffff;
	d = both(w, &q);
	assert_int_equal(d.rule, 4);
	assert_int_equal(d.why, OQ_WHY_PKEY);
	q.pkey = 0x7fff;
	assert_int_equal(both(w, &q).rule, 4);
	q.pkey = 0x7ffe;
	assert_int_equal(both(w, &q).rule, -1);
}

static void test_router_destination(void **state)
{
	struct world *w = *state;
	struct oq_query q = qry(&w->h1->ports[1], &w->rtr->ports[1]);

	assert_int_equal(both(w, &q).rule, 5);
}

static void test_foreign_port_is_in_no_group(void **state)
{
	struct world *w = *state;
	struct oq_port stray;
	struct oq_query q;

	/* A copy of h2's port: the same GUID and the same position in the
	 * fabric, but not a port of the fabric. */
	stray = w->h2->ports[1];
	q = qry(&stray, &w->h2->ports[1]);
	assert_int_equal(both(w, &q).rule, -1);
	q = qry(&w->h1->ports[1], &stray);
	q.has_sid = true;
	q.sid = 0x15;
	assert_int_equal(both(w, &q).rule, -1);
	q = qry(NULL, NULL);
	q.has_qos_class = true;
	q.qos_class = 7;
	assert_int_equal(both(w, &q).rule, 0);
}

static void test_no_rules(void **state)
{
	struct world *w = *state;
	struct oq_policy *p = fx_policy_new();
	struct oq_binding *b;
	struct oq_matcher *m;
	struct oq_query q = qry(&w->h1->ports[1], &w->h2->ports[1]);
	struct oq_decision d;

	fx_level(p, "x", 3);
	fx_level(p, "DEFAULT", 5);
	b = oq_bind(p, w->f, NULL, NULL);
	m = oq_matcher_compile(b);
	assert_non_null(m);
	oq_match(m, &q, &d);
	assert_int_equal(d.rule, -1);
	assert_int_equal(d.level, 1);
	assert_int_equal(d.why, OQ_WHY_DEFAULT);
	oq_matcher_free(m);
	oq_binding_free(b);
	fx_policy_free(p);
}

/* Extremes of the 64-bit service-id space. */
static void test_sid_extremes(void **state)
{
	struct world *w = *state;
	struct oq_policy *p = fx_policy_new();
	struct oq_binding *b;
	struct oq_matcher *m;
	struct oq_query q = qry(&w->h1->ports[1], &w->h2->ports[1]);
	struct oq_decision d;
	int r0, r1;

	fx_level(p, "DEFAULT", 0);
	r0 = fx_rule(p, 0);
	fx_add_range(&p->rules[r0].service_ids, UINT64_MAX - 1, UINT64_MAX);
	r1 = fx_rule(p, 0);
	fx_add_range(&p->rules[r1].service_ids, 0, 0);
	b = oq_bind(p, w->f, NULL, NULL);
	m = oq_matcher_compile(b);
	q.has_sid = true;
	q.sid = UINT64_MAX;
	oq_match(m, &q, &d);
	assert_int_equal(d.rule, r0);
	q.sid = 0;
	oq_match(m, &q, &d);
	assert_int_equal(d.rule, r1);
	q.sid = 1;
	oq_match(m, &q, &d);
	assert_int_equal(d.rule, -1);
	q.sid = UINT64_MAX - 2;
	oq_match(m, &q, &d);
	assert_int_equal(d.rule, -1);
	oq_matcher_free(m);
	oq_binding_free(b);
	fx_policy_free(p);
}

/* A real policy text through the parser and validator (qos-ulps too). */
static void test_parsed_policy(void **state)
{
	static const char text[] =
		"port-groups\n"
		"  port-group\n    name: Storage\n    port-guid: 0x21\n"
		"  end-port-group\n"
		"  port-group\n    name: Hosts\n"
		"    port-name: h1 HCA-1/P1, h3 HCA-1/P2\n"
		"  end-port-group\n"
		"end-port-groups\n"
		"qos-levels\n"
		"  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\n"
		"  qos-level\n    name: Fast\n    sl: 3\n  end-qos-level\n"
		"end-qos-levels\n"
		"qos-match-rules\n"
		"  qos-match-rule\n    source: Hosts\n"
		"    destination: Storage\n    qos-level-name: Fast\n"
		"  end-qos-match-rule\n"
		"end-qos-match-rules\n"
		"qos-ulps\n"
		"  any, source-target-port-guid 0x11-0x12 : 5\n"
		"  sdp : 6\n"
		"end-qos-ulps\n";
	struct world *w = *state;
	struct oq_diags d;
	struct oq_policy *p;
	struct oq_binding *b;
	struct oq_matcher *m;
	struct oq_query q;
	struct oq_decision x, y;
	const struct {
		const struct oq_port *src, *dst;
		bool has_sid;
		int rule, sl;
	} cases[] = {
		{&w->h1->ports[1], &w->h2->ports[1], false, 0, 3},
		{&w->h3->ports[2], &w->h2->ports[1], false, 0, 3},
		/* h3 port 1 is not in Hosts; 0x31 is outside 0x11-0x12 */
		{&w->h3->ports[1], &w->h2->ports[1], false, -1, 0},
		/* source AND target in the range */
		{&w->h1->ports[1], &w->h1->ports[1], false, 1, 5},
		{&w->h1->ports[1], &w->h3->ports[1], false, -1, 0},
		{&w->h1->ports[1], &w->h3->ports[1], true, 2, 6},
	};
	size_t i;

	oq_diags_init(&d);
	p = oq_policy_parse("parsed.conf", text, sizeof(text) - 1, &d);
	assert_non_null(p);
	oq_policy_validate(p, &d);
	assert_int_equal(d.n_errors, 0);
	assert_int_equal(p->n_rules, 3);
	b = oq_bind(p, w->f, NULL, &d);
	m = oq_matcher_compile(b);
	assert_non_null(m);
	assert_int_equal(d.n_errors, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		q = qry(cases[i].src, cases[i].dst);
		q.has_sid = cases[i].has_sid;
		q.sid = 0x10001;
		oq_match_naive(b, &q, &x);
		oq_match(m, &q, &y);
		assert_int_equal(x.rule, y.rule);
		assert_int_equal(x.rule, cases[i].rule);
		assert_true(x.level >= 0);
		assert_int_equal(p->levels[x.level].sl, cases[i].sl);
	}
	oq_matcher_free(m);
	oq_binding_free(b);
	oq_policy_free(p);
	oq_diags_free(&d);
}

/* Property: compiled == naive on random fabrics, policies and queries,
 * for each representation of the compiled matcher.  Seeds 13 and 14 have
 * more than 4096 rules, so a set's summary spans several words and
 * winners lie beyond the first summary word. */
static void random_equivalence(enum oq_matcher_mode mode)
{
	uint64_t seed;
	size_t hits = 0, defaults = 0, deep = 0;

	for (seed = 1; seed <= 14; seed++) {
		uint64_t rng = seed * 0x9E3779B97F4A7C15ull;
		bool big = seed > 12;
		struct oq_fabric *f =
			fx_random_fabric(&rng, 20 + fx_below(&rng, 200),
					 1 + fx_below(&rng, 8), 36);
		struct oq_policy *p = fx_random_policy(
			&rng, f, 1 + fx_below(&rng, 40),
			big ? 0 : fx_below(&rng, 300) + (seed == 3 ? 64 : 0));
		struct oq_binding *b;
		struct oq_matcher *m;
		int i;

		if (big) {
			fx_unreachable_rules(p, 4100 + fx_below(&rng, 4000));
			fx_random_rules(&rng, p, 1 + fx_below(&rng, 300));
		}
		b = oq_bind(p, f, NULL, NULL);
		m = oq_matcher_compile_mode(b, mode);
		assert_non_null(m);
		for (i = 0; i < (big ? 4000 : 20000); i++) {
			struct oq_query q;
			struct oq_decision x, y;

			fx_random_query(&rng, f, &q);
			oq_match_naive(b, &q, &x);
			oq_match(m, &q, &y);
			if (x.rule != y.rule || x.level != y.level ||
			    x.why != y.why)
				fail_msg("mode %d seed %llu query %d: naive "
					 "rule %d, compiled %d",
					 (int)mode, (unsigned long long)seed, i,
					 x.rule, y.rule);
			if (x.rule >= 0)
				hits++;
			else
				defaults++;
			if (x.rule >= 4096)
				deep++;
		}
		oq_matcher_free(m);
		oq_binding_free(b);
		fx_policy_free(p);
		oq_fabric_free(f);
	}
	/* The generator must exercise both outcomes. */
	assert_true(hits > 1000);
	assert_true(defaults > 1000);
	if (mode != OQ_MATCHER_SPARSE)
		assert_true(deep > 0);
}

static void test_random_equivalence(void **state)
{
	(void)state;
	random_equivalence(OQ_MATCHER_AUTO);
	random_equivalence(OQ_MATCHER_BITSET);
	random_equivalence(OQ_MATCHER_SPARSE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_no_component_gets_default,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_qos_class_rule, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_destination_and_sid, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_source_only, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_source_and_destination,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_pkey_ignores_membership_bit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_router_destination, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_foreign_port_is_in_no_group, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_rules, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sid_extremes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_parsed_policy, setup,
						teardown),
		cmocka_unit_test(test_random_equivalence),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
