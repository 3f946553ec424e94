// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the qos-policy.conf parser (every keyword and value form);
 * what it says about broken ones is test_parser_diags.c. */
#include "osm_release_test.h"
#include "policy_test_util.h"

static void test_port_group_keys(void **state)
{
	struct parsed r;
	const struct oq_port_group *g;

	(void)state;
	parse_text(&r,
		   "# comment line\n"
		   "port-groups # trailing comment\n"
		   "  port-group\n"
		   "    name: Virtual Servers\n"
		   "    use: SRP Targets # not part of use\n"
		   "    port-guid: 0x10, 0x20-0x2f\n"
		   "    port-guid: 0x11-0x12, 0x30\n"
		   "    port-name: vs1 HCA-1/P1, \"vs2, HCA-1/P2\"\n"
		   "    port-name: node/p3\n"
		   "    pkey: 0x1234, 0x8001-0x8003\n"
		   "    partition: Part1, Part 2\n"
		   "    node-type: ca, SELF\n"
		   "    node-type: Router\n"
		   "  end-port-group\n"
		   "end-port-groups\n" LEVELS_DEFAULT,
		   true);
	assert_clean(&r.d);
	assert_int_equal(r.p->n_groups, 1);
	assert_true(r.p->has_port_groups);
	g = &r.p->groups[0];
	assert_string_equal(g->name, "Virtual Servers");
	assert_string_equal(g->use, "SRP Targets");
	assert_int_equal(g->loc.line, 3);
	assert_int_equal(g->loc.col, 3);
	/* Repeated keys accumulate; ranges are sorted and merged. */
	assert_int_equal(g->guids.n, 2);
	assert_range(&g->guids, 0, 0x10, 0x12);
	assert_range(&g->guids, 1, 0x20, 0x30);
	assert_int_equal(g->guids_loc.line, 6);
	assert_int_equal(g->n_port_names, 3);
	assert_string_equal(g->port_names[0].name, "vs1 HCA-1/P1");
	assert_string_equal(g->port_names[1].name, "vs2, HCA-1/P2");
	assert_string_equal(g->port_names[2].name, "node/p3");
	assert_int_equal(g->port_names[1].loc.col, 30);
	/* Membership bit cleared: 0x8001-0x8003 is 0x0001-0x0003. */
	assert_int_equal(g->pkeys.n, 2);
	assert_range(&g->pkeys, 0, 1, 3);
	assert_range(&g->pkeys, 1, 0x1234, 0x1234);
	assert_int_equal(g->partitions.n, 2);
	assert_string_equal(g->partitions.v[1].name, "Part 2");
	assert_int_equal(g->partitions.v[1].idx, -1);
	assert_int_equal(g->node_types, OQ_NT_CA | OQ_NT_SELF | OQ_NT_ROUTER);
	assert_int_equal(g->node_types_loc.line, 12);
	assert_false(g->from_ulp);
	parsed_free(&r);
}

static void test_node_type_all_and_switch(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "port-groups\n port-group\n  name: a\n  node-type: ALL\n"
		   " end-port-group\n port-group\n  name: b\n"
		   "  node-type: switch\n end-port-group\nend-port-groups\n"
		   LEVELS_DEFAULT,
		   true);
	assert_clean(&r.d);
	assert_int_equal(r.p->groups[0].node_types, OQ_NT_ALL);
	assert_int_equal(r.p->groups[1].node_types, OQ_NT_SWITCH);
	parsed_free(&r);
}

static void test_level_keys(void **state)
{
	struct parsed r;
	const struct oq_qos_level *l;

	(void)state;
	parse_text(&r,
		   "qos-levels\n"
		   "  qos-level\n"
		   "    name: DEFAULT\n"
		   "    use: default QoS Level\n"
		   "    sl: 0\n"
		   "  end-qos-level\n"
		   "  qos-level\n"
		   "    name: WholeSet\n"
		   "    sl: 15\n"
		   "    mtu-limit: 5\n"
		   "    rate-limit: 22\n"
		   "    packet-life: 63\n"
		   "    path-bits: 2,4,8-32\n"
		   "    path-bits: 0x7f\n"
		   "    pkey: 0x0F00-0x0FFF, 0xffff\n"
		   "  end-qos-level\n"
		   "end-qos-levels\n",
		   true);
	assert_clean(&r.d);
	assert_int_equal(r.p->n_levels, 2);
	assert_int_equal(r.p->default_level, 0);
	assert_string_equal(r.p->levels[0].use, "default QoS Level");
	l = &r.p->levels[1];
	assert_string_equal(l->name, "WholeSet");
	assert_int_equal(l->sl, 15);
	assert_int_equal(l->mtu_limit, 5);
	assert_int_equal(l->rate_limit, 22);
	assert_int_equal(l->packet_life, 63);
	assert_int_equal(l->path_bits.n, 4);
	assert_range(&l->path_bits, 2, 8, 32);
	assert_range(&l->path_bits, 3, 0x7f, 0x7f);
	assert_range(&l->pkeys, 0, 0x0f00, 0x0fff);
	assert_range(&l->pkeys, 1, 0x7fff, 0x7fff);
	assert_false(l->from_ulp);
	parsed_free(&r);
}

static void test_level_unset_fields(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r, LEVELS_DEFAULT, true);
	assert_clean(&r.d);
	assert_int_equal(r.p->levels[0].mtu_limit, -1);
	assert_int_equal(r.p->levels[0].rate_limit, -1);
	assert_int_equal(r.p->levels[0].packet_life, -1);
	assert_null(r.p->levels[0].use);
	parsed_free(&r);
}

/* rate-limit takes the rates the OpenSM release knows: to 22 (600 Gb/s)
 * in 3.3.23, to 24 (1200 Gb/s) in 3.3.24. */
static void test_level_rate_limit_release(void **state)
{
	static const char text[] = "qos-levels\n"
				   "  qos-level\n    name: DEFAULT\n    sl: 0\n"
				   "    rate-limit: 23\n  end-qos-level\n"
				   "end-qos-levels\n";
	struct parsed r;

	(void)state;
	oq_osm_release_use(&osm_3_3_23);
	parse_text(&r, text, true);
	assert_true(has_diag(&r.d, OQ_SEV_ERROR, 5, 17,
			     "rate-limit 23 is out of range 2-22"));
	parsed_free(&r);
	oq_osm_release_use(&osm_3_3_24);
	parse_text(&r, text, true);
	assert_clean(&r.d);
	assert_int_equal(r.p->levels[0].rate_limit, 23);
	parsed_free(&r);
	parse_text(&r,
		   "qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n"
		   "    rate-limit: 25\n  end-qos-level\nend-qos-levels\n",
		   true);
	assert_true(has_diag(&r.d, OQ_SEV_ERROR, 5, 17,
			     "rate-limit 25 is out of range 2-24"));
	parsed_free(&r);
	oq_osm_release_use(NULL);
}

/* osmqos's intent keys: values, their lines for OpenSM's copy, and the
 * copy itself (keys commented out, line numbers kept). */
static void test_intent_keys(void **state)
{
	static const char text[] = "qos-levels\r\n"
				   "  qos-level\r\n"
				   "    name: DEFAULT\r\n"
				   "    sl: 0\r\n"
				   "  end-qos-level\r\n"
				   "  qos-level\r\n"
				   "    name: mpi\r\n"
				   "    priority: HIGH   # latency\r\n"
				   "    sl: 2\r\n"
				   "\tbandwidth: 12.5%\r\n"
				   "  end-qos-level\r\n"
				   "  qos-level\r\n"
				   "    name: bulk\r\n"
				   "    sl: 3\r\n"
				   "    bandwidth: 100%\r\n"
				   "    priority: low\r\n"
				   "  end-qos-level\r\n"
				   "end-qos-levels\r\n";
	struct oq_sl_intents it;
	struct parsed r;
	char *copy;
	size_t len, lines = 0, i;

	(void)state;
	parse_text(&r, text, false);
	assert_clean(&r.d);
	assert_int_equal(r.p->levels[0].bandwidth_bp, -1);
	assert_false(r.p->levels[0].prio_high);
	assert_int_equal(r.p->levels[1].bandwidth_bp, 1250);
	assert_true(r.p->levels[1].prio_high);
	assert_int_equal(r.p->levels[1].bandwidth_loc.line, 10);
	assert_int_equal(r.p->levels[1].bandwidth_loc.col, 13);
	assert_int_equal(r.p->levels[1].priority_loc.line, 8);
	assert_int_equal(r.p->levels[2].bandwidth_bp, 10000);
	assert_false(r.p->levels[2].prio_high);
	assert_int_equal(r.p->n_ext_lines, 4);
	/* 112.5% in all: valid per level, an error together. */
	oq_policy_validate(r.p, &r.d);
	assert_error(&r.d, 15, 16, "add up to more than 100%");
	assert_int_equal(r.p->n_intent_levels, 2);
	assert_true(oq_policy_intents(r.p, &it));
	assert_int_equal(it.sls, (1u << 2) | (1u << 3));
	assert_int_equal(it.high, 1u << 2);
	assert_int_equal(it.need_bp[2], 1250);
	assert_int_equal(it.level[3], 2);
	copy = oq_policy_opensm_copy(r.p, &len);
	assert_non_null(copy);
	assert_int_equal(strlen(copy), len);
	assert_null(strchr(copy, '\r'));
	for (i = 0; i < len; i++)
		lines += copy[i] == '\n';
	assert_int_equal(lines, 18);
	assert_non_null(strstr(copy, "\n    # priority: HIGH   # latency\n"));
	assert_non_null(strstr(copy, "\n\t# bandwidth: 12.5%\n"));
	assert_non_null(strstr(copy, "\n    # bandwidth: 100%\n"));
	assert_non_null(strstr(copy, "\n    # priority: low\n"));
	assert_non_null(strstr(copy, "\n    sl: 3\n"));
	free(copy);
	parsed_free(&r);
}

static void test_match_rule_keys(void **state)
{
	struct parsed r;
	const struct oq_match_rule *m;

	(void)state;
	parse_text(&r,
		   "port-groups\n port-group\n  name: Storage\n"
		   "  port-guid: 1\n end-port-group\n port-group\n"
		   "  name: Virtual Servers\n  port-guid: 2\n"
		   " end-port-group\nend-port-groups\n" LEVELS_DEFAULT
		   "qos-match-rules\n"
		   "  qos-match-rule\n"
		   "    use: match by all parameters\n"
		   "    qos-class: 7-9,11\n"
		   "    source: virtual servers\n"
		   "    destination: Storage, Virtual Servers\n"
		   "    service-id: 0x10000-0x1FFFF\n"
		   "    service-id: 0xffffffffffffffff\n"
		   "    pkey: 0x0F00-0x0FFF\n"
		   "    qos-level-name: default\n"
		   "  end-qos-match-rule\n"
		   "end-qos-match-rules\n",
		   true);
	assert_clean(&r.d);
	assert_int_equal(r.p->n_rules, 1);
	assert_int_equal(r.p->n_explicit_rules, 1);
	m = &r.p->rules[0];
	assert_string_equal(m->use, "match by all parameters");
	assert_int_equal(m->qos_classes.n, 2);
	assert_range(&m->qos_classes, 0, 7, 9);
	assert_range(&m->qos_classes, 1, 11, 11);
	/* Names are case insensitive (OpenSM's strcasecmp). */
	assert_int_equal(m->sources.n, 1);
	assert_int_equal(m->sources.v[0].idx, 1);
	assert_int_equal(m->destinations.n, 2);
	assert_int_equal(m->destinations.v[0].idx, 0);
	assert_range(&m->service_ids, 0, 0x10000, 0x1ffff);
	assert_range(&m->service_ids, 1, UINT64_MAX, UINT64_MAX);
	assert_range(&m->pkeys, 0, 0xf00, 0xfff);
	assert_string_equal(m->level.name, "default");
	assert_int_equal(m->level.idx, 0);
	assert_int_equal(m->level.loc.line, 26);
	assert_int_equal(m->level.loc.col, 21);
	assert_false(m->from_ulp);
	assert_true(r.p->has_rules);
	parsed_free(&r);
}

static const char setup_policy[] =
	"port-groups\n port-group\n  name: Storage\n  port-guid: 1\n"
	" end-port-group\n port-group\n  name: Sw\n  node-type: SWITCH\n"
	" end-port-group\nend-port-groups\n"
	"qos-setup\n"
	"  vlarb-tables\n"
	"    vlarb-scope\n"
	"      group: Storage\n"
	"      across: Sw\n"
	"      vlarb-high: 0:255,1:127\n"
	"      vlarb-high: 2 : 63\n"
	"      vlarb-low: 8:255, 14:0\n"
	"      vl-high-limit: 10\n"
	"    end-vlarb-scope\n"
	"    vlarb-scope\n"
	"      across: Storage\n"
	"    end-vlarb-scope\n"
	"  end-vlarb-tables\n"
	"  sl2vl-tables\n"
	"    sl2vl-scope\n"
	"      group: Sw\n"
	"      across: Storage\n"
	"      across-from: Storage\n"
	"      across-to: Sw\n"
	"      from: *\n"
	"      to: 1-3, 7, 254\n"
	"      sl2vl-table: 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
	"    end-sl2vl-scope\n"
	"  end-sl2vl-tables\n"
	"end-qos-setup\n" LEVELS_DEFAULT;

static void test_qos_setup(void **state)
{
	const struct oq_vlarb_scope *v;
	const struct oq_sl2vl_scope *s;
	struct parsed r;
	int i;

	(void)state;
	parse_text(&r, setup_policy, true);
	assert_int_equal(r.d.n_errors, 0);
	/* to: 254 is beyond what OpenSM accepts (127). */
	assert_warning(&r.d, 32, 7, "above 127");
	assert_true(r.p->has_qos_setup);
	assert_int_equal(r.p->n_vlarb, 2);
	v = &r.p->vlarb[0];
	assert_int_equal(v->groups.v[0].idx, 0);
	assert_int_equal(v->across.v[0].idx, 1);
	assert_true(v->has_high);
	assert_int_equal(v->n_high, 3);
	assert_int_equal(v->high[1].vl, 1);
	assert_int_equal(v->high[1].weight, 127);
	assert_int_equal(v->high[2].vl, 2);
	assert_int_equal(v->high[2].weight, 63);
	assert_int_equal(v->n_low, 2);
	assert_int_equal(v->low[1].vl, 14);
	assert_int_equal(v->low[1].weight, 0);
	assert_int_equal(v->vl_high_limit, 10);
	assert_false(r.p->vlarb[1].has_high);
	assert_int_equal(r.p->vlarb[1].vl_high_limit, -1);
	assert_int_equal(r.p->n_sl2vl, 1);
	s = &r.p->sl2vl[0];
	assert_int_equal(s->groups.v[0].idx, 1);
	assert_int_equal(s->across.v[0].idx, 0);
	assert_int_equal(s->across_from.v[0].idx, 0);
	assert_int_equal(s->across_to.v[0].idx, 1);
	assert_true(s->from.given);
	assert_true(s->from.all);
	assert_true(s->to.given);
	assert_false(s->to.all);
	assert_int_equal(s->to.bits[0], 0xeULL | 0x80ULL);
	assert_int_equal(s->to.bits[3], 1ULL << (254 - 192));
	assert_true(s->has_table);
	for (i = 0; i < 16; i++)
		assert_int_equal(s->sl2vl[i], i);
	parsed_free(&r);
}

static void test_vl_high_limit_last_wins(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "port-groups\n port-group\n  name: g\n  node-type: CA\n"
		   " end-port-group\nend-port-groups\nqos-setup\n"
		   " vlarb-tables\n  vlarb-scope\n   group: g\n"
		   "   vl-high-limit: 1\n   vl-high-limit: 255\n"
		   "  end-vlarb-scope\n end-vlarb-tables\nend-qos-setup\n"
		   LEVELS_DEFAULT,
		   true);
	assert_int_equal(r.d.n_errors, 0);
	assert_warning(&r.d, 12, 4, "duplicate 'vl-high-limit'");
	assert_int_equal(r.p->vlarb[0].vl_high_limit, 255);
	parsed_free(&r);
}

static void test_empty_sections(void **state)
{
	struct parsed r;

	(void)state;
	/* qos-setup, qos-levels and qos-match-rules may be empty. */
	parse_text(&r,
		   "qos-setup\n vlarb-tables\n end-vlarb-tables\n"
		   " sl2vl-tables\n end-sl2vl-tables\nend-qos-setup\n"
		   "qos-match-rules\nend-qos-match-rules\n"
		   "qos-levels\nend-qos-levels\n" LEVELS_DEFAULT,
		   true);
	assert_clean(&r.d);
	parsed_free(&r);
}

static void test_quotes_and_spaces(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "port-groups\n port-group\n  name: \"Group # 1\"\n"
		   "  use: \"quoted use\"\n"
		   "  port-name:   a  b/P1  ,\t\"x,c/P2\"\n"
		   " end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
		   false);
	assert_int_equal(r.d.n_errors, 0);
	assert_string_equal(r.p->groups[0].name, "Group # 1");
	assert_string_equal(r.p->groups[0].use, "quoted use");
	/* Inner blanks are kept, outer ones trimmed. */
	assert_string_equal(r.p->groups[0].port_names[0].name, "a  b/P1");
	/* A quoted item may hold the list's comma. */
	assert_string_equal(r.p->groups[0].port_names[1].name, "x,c/P2");
	parsed_free(&r);

	/* A quote not enclosing the whole item: OpenSM's lexer would read a
	 * quoted string from it to the next quote in the file. */
	parse_text(&r,
		   "port-groups\n port-group\n  name: g\n"
		   "  port-name: x\"c\"/P2\n"
		   " end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
		   false);
	assert_error(&r.d, 4, 15, "'\"' inside port name");
	parsed_free(&r);
}

static void test_list_continuation(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "port-groups\n port-group\n  name: g\n"
		   "  port-guid: 0x1,\n   # a comment between\n\n   0x3 - 0x4\n"
		   "  node-type: CA,\n     SWITCH\n"
		   " end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
		   true);
	assert_clean(&r.d);
	assert_int_equal(r.p->groups[0].guids.n, 2);
	assert_range(&r.p->groups[0].guids, 1, 3, 4);
	assert_int_equal(r.p->groups[0].node_types, OQ_NT_CA | OQ_NT_SWITCH);
	parsed_free(&r);
}

static void test_trailing_comma_before_keyword(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "port-groups\n port-group\n  name: g\n  port-guid: 0x1,\n"
		   " end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
		   true);
	assert_error(&r.d, 4, 18, "expected a value after ','");
	/* The keyword on the next line is not swallowed. */
	assert_int_equal(r.d.n_errors, 1);
	parsed_free(&r);
}

/* A range split after its '-' goes on on the next line, as after a ','
 * (OpenSM's grammar ignores line ends), unless that line starts with a
 * keyword: then one error, and the keyword is not swallowed. */
static void test_range_continuation(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   LEVELS_DEFAULT
		   "qos-match-rules\n qos-match-rule\n"
		   "  service-id: 0x1-\n   # a comment between\n\n   0x5\n"
		   "  qos-level-name: DEFAULT\n end-qos-match-rule\n"
		   "end-qos-match-rules\n"
		   "qos-ulps\n any, service-id 0x10 -\n  0x20 : 1\n"
		   " sdp, port-num 7-\n 9, 11 : 2\nend-qos-ulps\n",
		   true);
	assert_clean(&r.d);
	assert_int_equal(r.p->rules[0].service_ids.n, 1);
	assert_range(&r.p->rules[0].service_ids, 0, 1, 5);
	assert_range(&r.p->rules[1].service_ids, 0, 0x10, 0x20);
	assert_int_equal(r.p->rules[2].service_ids.n, 2);
	assert_range(&r.p->rules[2].service_ids, 0, 0x10007, 0x10009);
	parsed_free(&r);

	parse_text(&r,
		   LEVELS_DEFAULT
		   "qos-match-rules\n qos-match-rule\n  service-id: 0x1-\n"
		   "  qos-level-name: DEFAULT\n end-qos-match-rule\n"
		   "end-qos-match-rules\n",
		   true);
	assert_error(&r.d, 9, 19,
		     "expected the end of the service-id range after '-'");
	assert_int_equal(r.d.n_errors, 1);
	parsed_free(&r);
}

static void test_numbers(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0x0f\n"
		   "  packet-life: 010\n  mtu-limit: 00\n end-qos-level\n"
		   "end-qos-levels\n",
		   false);
	assert_int_equal(r.p->levels[0].sl, 15);
	/* A leading zero is octal, as strtoull(s, NULL, 0) in OpenSM. */
	assert_int_equal(r.p->levels[0].packet_life, 8);
	assert_warning(&r.d, 5, 16, "read as octal 8");
	assert_error(&r.d, 6, 14, "mtu-limit 0 is out of range 1-5");
	parsed_free(&r);
}

static void test_reversed_range_is_swapped(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "port-groups\n port-group\n  name: g\n  port-guid: 9-3\n"
		   " end-port-group\nend-port-groups\n" LEVELS_DEFAULT,
		   true);
	assert_clean(&r.d);
	assert_range(&r.p->groups[0].guids, 0, 3, 9);
	parsed_free(&r);
}

static void test_pkey_spanning_membership_bit(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "port-groups\n port-group\n  name: g\n"
		   "  pkey: 0x7ffe-0x8001\n end-port-group\nend-port-groups\n"
		   LEVELS_DEFAULT,
		   true);
	assert_int_equal(r.d.n_errors, 0);
	/* OpenSM masks both ends: 0x7ffe and 0x0001, swapped. */
	assert_warning(&r.d, 4, 9, "matches 0x0001-0x7ffe");
	assert_range(&r.p->groups[0].pkeys, 0, 1, 0x7ffe);
	parsed_free(&r);
}

static void test_lower_case_keywords_only(void **state)
{
	struct parsed r;

	(void)state;
	parse_text(&r,
		   "qos-levels\n qos-level\n  Name: DEFAULT\n  sl: 0\n"
		   " end-qos-level\nend-qos-levels\n",
		   true);
	assert_error(&r.d, 3, 3, "keywords are lower case: 'Name'");
	/* Read as the lower case key, so no follow-up errors. */
	assert_int_equal(r.d.n_errors, 1);
	assert_int_equal(r.p->default_level, 0);
	parsed_free(&r);
}

static void test_load_missing_file(void **state)
{
	struct oq_diags d;

	(void)state;
	oq_diags_init(&d);
	assert_null(oq_policy_load("/nonexistent/qos-policy.conf", &d));
	assert_int_equal(d.n_errors, 1);
	assert_non_null(strstr(d.v[0].msg, "cannot read the policy"));
	oq_diags_free(&d);
}

static void test_ranges(void **state)
{
	struct oq_ranges a = { NULL, 0 }, b = { NULL, 0 };
	uint64_t x;

	(void)state;
	assert_int_equal(oq_ranges_add(&a, 10, 20), 0);
	assert_int_equal(oq_ranges_add(&a, 21, 25), 0); /* adjacent */
	assert_int_equal(oq_ranges_add(&a, 5, 1), 0);	 /* swapped */
	assert_int_equal(oq_ranges_add(&a, 100, UINT64_MAX), 0);
	assert_int_equal(oq_ranges_add(&a, 200, 300), 0);
	oq_ranges_normalize(&a);
	assert_int_equal(a.n, 3);
	assert_range(&a, 0, 1, 5);
	assert_range(&a, 1, 10, 25);
	assert_range(&a, 2, 100, UINT64_MAX);
	for (x = 0; x < 130; x++)
		assert_int_equal(oq_ranges_contains(&a, x),
				 (x >= 1 && x <= 5) || (x >= 10 && x <= 25) ||
					 x >= 100);
	assert_true(oq_ranges_contains(&a, UINT64_MAX));
	assert_int_equal(oq_ranges_add(&b, 11, 12), 0);
	assert_int_equal(oq_ranges_add(&b, 1000, 2000), 0);
	oq_ranges_normalize(&b);
	assert_true(oq_ranges_subset(&b, &a));
	assert_false(oq_ranges_subset(&a, &b));
	assert_int_equal(oq_ranges_add(&b, 24, 26), 0);
	oq_ranges_normalize(&b);
	assert_false(oq_ranges_subset(&b, &a));
	oq_ranges_free(&a);
	oq_ranges_free(&b);
	assert_false(oq_ranges_contains(&a, 0));
}

/* bandwidth: each wrong form says what to write. */
static void test_bandwidth_forms(void **state)
{
	static const struct {
		const char *value, *msg;
	} cases[] = {
		{"40 %", "bandwidth 40 %: a blank between the number and '%'"},
		{"0.001%", "bandwidth 0.001%: at most two decimals"},
		{"12.345 %", "bandwidth 12.345%: at most two decimals"},
		{"40", "bandwidth 40 needs a '%'"},
		{"abc", "bandwidth must be a percentage"},
		{"0%", "bandwidth 0.00% is out of range"},
	};
	char text[256];
	struct parsed r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text),
			 "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n"
			 "  bandwidth: %s\n end-qos-level\nend-qos-levels\n",
			 cases[i].value);
		parse_text(&r, text, true);
		assert_error(&r.d, 5, 14, cases[i].msg);
		assert_int_equal(r.d.n_errors, 1);
		parsed_free(&r);
	}
	parse_text(&r,
		   "qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n"
		   "  bandwidth: 0.01%\n end-qos-level\nend-qos-levels\n",
		   true);
	assert_int_equal(r.d.n_errors, 0);
	assert_int_equal(r.p->levels[0].bandwidth_bp, 1);
	parsed_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_port_group_keys),
		cmocka_unit_test(test_node_type_all_and_switch),
		cmocka_unit_test(test_level_keys),
		cmocka_unit_test(test_intent_keys),
		cmocka_unit_test(test_level_unset_fields),
		cmocka_unit_test(test_level_rate_limit_release),
		cmocka_unit_test(test_match_rule_keys),
		cmocka_unit_test(test_qos_setup),
		cmocka_unit_test(test_vl_high_limit_last_wins),
		cmocka_unit_test(test_empty_sections),
		cmocka_unit_test(test_quotes_and_spaces),
		cmocka_unit_test(test_list_continuation),
		cmocka_unit_test(test_trailing_comma_before_keyword),
		cmocka_unit_test(test_range_continuation),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_reversed_range_is_swapped),
		cmocka_unit_test(test_pkey_spanning_membership_bit),
		cmocka_unit_test(test_lower_case_keywords_only),
		cmocka_unit_test(test_load_missing_file),
		cmocka_unit_test(test_ranges),
		cmocka_unit_test(test_bandwidth_forms),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
