// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: port-group resolution (oq_bind). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "match_fixture.h"

struct world {
	struct oq_fabric *f;
	struct oq_node *sw, *h1, *h2, *h3, *rtr, *dup;
	struct oq_policy *p;
	struct oq_diags d;
};

/* sw1 (GUID 0x100, 8 ports): 1-h1 (0x11), 2-h2 (0x21), 3-h3.1 (0x31),
 * 4-h3.2 (0x32), 5-rtr (0x41), 6-"h1 HCA-1" duplicate (GUID 0x9000). */
static int setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));
	uint16_t pk[2];

	w->f = oq_fabric_new();
	w->sw = fx_switch(w->f, 0x100, "sw1", 8, 1);
	w->h1 = fx_ca(w->f, 0x10, "h1 HCA-1", 1, 10);
	w->h2 = fx_ca(w->f, 0x20, "h2 HCA-1", 1, 20);
	w->h3 = fx_ca(w->f, 0x30, "h3 HCA-1", 2, 30);
	w->rtr = fx_router(w->f, 0x40, "rtr", 40);
	w->dup = fx_ca(w->f, 0x9000, "h1 HCA-1", 1, 50);
	oq_fabric_link(&w->h1->ports[1], &w->sw->ports[1]);
	oq_fabric_link(&w->h2->ports[1], &w->sw->ports[2]);
	oq_fabric_link(&w->h3->ports[1], &w->sw->ports[3]);
	oq_fabric_link(&w->h3->ports[2], &w->sw->ports[4]);
	oq_fabric_link(&w->rtr->ports[1], &w->sw->ports[5]);
	oq_fabric_link(&w->dup->ports[1], &w->sw->ports[6]);
	/* Partition 0x0010: h1 full, h3 port 2 limited; the switch is a
	 * member only through an external port (which does not count). */
	oq_port_set_pkeys(&w->h1->ports[1], fx_pkeys1(pk, 0x8010), 1);
	pk[0] = 0xffff;
	pk[1] = 0x0010;
	oq_port_set_pkeys(&w->h3->ports[2], pk, 2);
	oq_port_set_pkeys(&w->sw->ports[3], fx_pkeys1(pk, 0x8010), 1);
	/* Partition 0x0020: switch port 0. */
	oq_port_set_pkeys(&w->sw->ports[0], fx_pkeys1(pk, 0x8020), 1);
	w->f->sm_port_guid = 0x21;
	assert_int_equal(oq_fabric_finalize(w->f, NULL), 0);
	w->p = fx_policy_new();
	fx_level(w->p, "DEFAULT", 0);
	oq_diags_init(&w->d);
	*state = w;
	return 0;
}

static int teardown(void **state)
{
	struct world *w = *state;

	oq_diags_free(&w->d);
	fx_policy_free(w->p);
	oq_fabric_free(w->f);
	free(w);
	return 0;
}

/* Bind and return the members of group g as a bitmask over a fixed port
 * list: bit 0 h1, 1 h2, 2 h3.1, 3 h3.2, 4 rtr, 5 sw.0, 6 sw.1, 7 sw.5,
 * 8 dup. */
static unsigned members(struct world *w, int g,
			const struct oq_partitions *parts)
{
	const struct oq_port *ports[] = {
		&w->h1->ports[1], &w->h2->ports[1],  &w->h3->ports[1],
		&w->h3->ports[2], &w->rtr->ports[1], &w->sw->ports[0],
		&w->sw->ports[1], &w->sw->ports[5],  &w->dup->ports[1],
	};
	struct oq_binding *b = oq_bind(w->p, w->f, parts, &w->d);
	unsigned mask = 0, i;

	assert_non_null(b);
	for (i = 0; i < sizeof(ports) / sizeof(ports[0]); i++)
		if (oq_group_has_port(b, g, ports[i]))
			mask |= 1u << i;
	oq_binding_free(b);
	return mask;
}

#define SWITCH_ALL ((1u << 5) | (1u << 6) | (1u << 7))

static void test_port_guid(void **state)
{
	struct world *w = *state;
	int g = fx_group(w->p, "g");

	fx_group_guids(w->p, g, 0x21, 0x31);
	assert_int_equal(members(w, g, NULL), (1u << 1) | (1u << 2));
	assert_int_equal(w->d.n_warnings, 0);
}

static void test_switch_guid_brings_all_ports(void **state)
{
	struct world *w = *state;
	int g = fx_group(w->p, "g");

	fx_group_guids(w->p, g, 0x100, 0x100);
	assert_int_equal(members(w, g, NULL), SWITCH_ALL);
}

static void test_guid_matching_nothing_warns(void **state)
{
	struct world *w = *state;
	int g = fx_group(w->p, "g");

	/* Node GUIDs of CAs are not port GUIDs. */
	fx_group_guids(w->p, g, 0x10, 0x10);
	assert_int_equal(members(w, g, NULL), 0);
	assert_int_equal(w->d.n_warnings, 1);
	assert_non_null(strstr(w->d.v[0].msg, "matches no port"));
}

static void test_node_types(void **state)
{
	struct world *w = *state;
	int ca = fx_group(w->p, "ca");
	int sw = fx_group(w->p, "sw");
	int rt = fx_group(w->p, "rt");
	int all = fx_group(w->p, "all");

	fx_group_types(w->p, ca, OQ_NT_CA);
	fx_group_types(w->p, sw, OQ_NT_SWITCH);
	fx_group_types(w->p, rt, OQ_NT_ROUTER);
	fx_group_types(w->p, all, OQ_NT_ALL);
	assert_int_equal(members(w, ca, NULL), 0x10f);
	assert_int_equal(members(w, sw, NULL), SWITCH_ALL);
	assert_int_equal(members(w, rt, NULL), 1u << 4);
	assert_int_equal(members(w, all, NULL), 0x1ff);
}

static void test_self(void **state)
{
	struct world *w = *state;
	int g = fx_group(w->p, "g");

	fx_group_types(w->p, g, OQ_NT_SELF);
	assert_int_equal(members(w, g, NULL), 1u << 1);
	/* SM on the switch: the whole switch. */
	w->f->sm_port_guid = 0x100;
	assert_int_equal(members(w, g, NULL), SWITCH_ALL);
	w->f->sm_port_guid = 0;
	assert_int_equal(members(w, g, NULL), 0);
	assert_int_equal(w->d.n_warnings, 1);
}

static void test_port_names(void **state)
{
	struct world *w = *state;
	int g = fx_group(w->p, "g");
	int s = fx_group(w->p, "s");

	fx_group_name(w->p, g, "h2 HCA-1/P1");
	fx_group_name(w->p, g, "h3 HCA-1/p0x2"); /* OpenSM: strtoul(, 0) */
	/* Duplicate description: OpenSM's node table is ordered by the
	 * GUID in network byte order, so 0x9000 (bytes 00 .. 90 00) comes
	 * before 0x10 (00 .. 00 10) and wins; one warning names both. */
	fx_group_name(w->p, g, "h1 HCA-1/P1");
	assert_int_equal(members(w, g, NULL),
			 (1u << 8) | (1u << 1) | (1u << 3));
	assert_int_equal(w->d.n, 1);
	assert_string_equal(w->d.v[0].msg,
			    "port-name 'h1 HCA-1/P1': 2 nodes are named 'h1 "
			    "HCA-1'; OpenSM's parser uses node "
			    "0x0000000000009000, the first in its node table, "
			    "not 0x0000000000000010");
	/* Naming a switch external port puts the switch in (GUID keyed). */
	fx_group_name(w->p, s, "sw1/P3");
	assert_int_equal(members(w, s, NULL), SWITCH_ALL);
}

/* A rule whose source groups have no port on the fabric can never
 * match there: one warning at the rule. */
static void test_rule_without_ports(void **state)
{
	struct world *w = *state;
	int none = fx_group(w->p, "none");
	int hosts = fx_group(w->p, "hosts");
	int r1 = fx_rule(w->p, 0), r2 = fx_rule(w->p, 0);
	size_t i, n = 0;

	fx_group_guids(w->p, none, 0x7777, 0x7777);
	fx_group_types(w->p, hosts, OQ_NT_CA);
	fx_rule_src(w->p, r1, none);
	fx_rule_src(w->p, r2, none);
	fx_rule_src(w->p, r2, hosts);
	members(w, none, NULL);
	for (i = 0; i < w->d.n; i++)
		if (strstr(w->d.v[i].msg, "can never match on this fabric")) {
			n++;
			assert_int_equal(w->d.v[i].loc.line,
					 500 + (unsigned)r1);
			assert_string_equal(w->d.v[i].code,
					    "rule-matches-nothing-here");
		}
	assert_int_equal(n, 1);
}

static void test_port_name_problems(void **state)
{
	struct world *w = *state;
	int g = fx_group(w->p, "g");

	fx_group_name(w->p, g, "nosuch/P1");
	fx_group_name(w->p, g, "h2 HCA-1/P9");	/* out of range: error */
	fx_group_name(w->p, g, "h2 HCA-1");	/* malformed */
	fx_group_name(w->p, g, "h2 HCA-1 /P1"); /* exact compare */
	assert_int_equal(members(w, g, NULL), 0);
	assert_int_equal(w->d.n_errors, 1);
	assert_int_equal(w->d.n_warnings, 3);
}

static void test_pkey_groups(void **state)
{
	struct world *w = *state;
	int a = fx_group(w->p, "a");
	int b = fx_group(w->p, "b");
	int c = fx_group(w->p, "c");

	fx_group_pkeys(w->p, a, 0x10, 0x10);
	fx_group_pkeys(w->p, b, 0x20, 0x20);
	fx_group_pkeys(w->p, c, 0x30, 0x40);
	assert_int_equal(members(w, a, NULL), (1u << 0) | (1u << 3));
	assert_int_equal(members(w, b, NULL), SWITCH_ALL);
	assert_int_equal(members(w, c, NULL), 0);
	assert_true(w->d.n_warnings >= 1);
}

static void test_partition_names(void **state)
{
	struct world *w = *state;
	struct oq_partition pv[2] = {
		{.name = "storage", .pkey = 0x10, .sl = -1},
		{.name = "mgmt", .pkey = 0x20, .sl = -1},
	};
	struct oq_partitions parts = {pv, 2, "partitions.conf"};
	int g = fx_group(w->p, "g");

	fx_group_partition(w->p, g, "storage");
	fx_group_partition(w->p, g, "nosuch");
	assert_int_equal(members(w, g, &parts), (1u << 0) | (1u << 3));
	assert_int_equal(w->d.n_warnings, 1);
	oq_diags_clear(&w->d);
	/* Without a partitions file: nothing, and a hint to pass one. */
	assert_int_equal(members(w, g, NULL), 0);
	assert_int_equal(w->d.n_warnings, 2);
	assert_non_null(w->d.v[0].hint);
}

static void test_has_port_bounds(void **state)
{
	struct world *w = *state;
	int g = fx_group(w->p, "g");
	struct oq_binding *b;
	struct oq_port stray;

	fx_group_types(w->p, g, OQ_NT_ALL);
	b = oq_bind(w->p, w->f, NULL, &w->d);
	/* Not a port of the fabric: no position in it points back to it. */
	memset(&stray, 0, sizeof(stray));
	stray.node = w->h1;
	assert_false(oq_group_has_port(b, g, &stray));
	assert_false(oq_group_has_port(b, g, NULL));
	assert_false(oq_group_has_port(b, -1, &w->h1->ports[1]));
	assert_false(oq_group_has_port(b, 7, &w->h1->ports[1]));
	assert_true(oq_group_has_port(b, g, &w->h1->ports[1]));
	oq_binding_free(b);
	assert_null(oq_bind(NULL, w->f, NULL, NULL));
}

/* qos-ulps ipoib lines: OpenSM refuses the file when a P_Key has no
 * partition or one with fewer than two full members (end ports). */
static void test_ipoib_partitions(void **state)
{
	struct world *w = *state;
	static const char text[] = "qos-ulps\n"
				   "  default : 0\n"
				   "  ipoib, pkey 0x10 : 1\n"
				   "  ipoib, pkey 0x30-0x31 : 2\n"
				   "  any, pkey 0x40 : 3\n"
				   "end-qos-ulps\n";
	struct oq_partition pv[3] = {
		{.name = "storage", .pkey = 0x10, .sl = -1},
		{.name = "mgmt", .pkey = 0x20, .sl = -1},
		{.name = "Default", .pkey = 0x7fff, .sl = -1},
	};
	struct oq_partitions parts = {pv, 3, "partitions.conf"};
	struct oq_policy *p =
		oq_policy_parse("u.conf", text, strlen(text), &w->d);
	struct oq_binding *b;
	uint16_t pk[1];

	assert_non_null(p);
	oq_policy_validate(p, &w->d);
	assert_int_equal(w->d.n_errors, 0);
	b = oq_bind(p, w->f, &parts, &w->d);
	assert_non_null(b);
	oq_binding_free(b);
	/* 0x10: h1 full, h3.2 limited, the switch's external port does not
	 * count; 0x30 has no partition; `any, pkey` is not checked. */
	assert_int_equal(w->d.n_errors, 2);
	assert_int_equal(w->d.v[0].loc.line, 3);
	assert_non_null(strstr(w->d.v[0].msg, "0x0010 has 1 full member"));
	assert_int_equal(w->d.v[1].loc.line, 4);
	assert_non_null(strstr(w->d.v[1].msg, "0x0030 does not exist"));
	/* A second full member: only the missing partition remains. */
	oq_diags_clear(&w->d);
	oq_port_set_pkeys(&w->h2->ports[1], fx_pkeys1(pk, 0x8010), 1);
	oq_binding_free(oq_bind(p, w->f, &parts, &w->d));
	assert_int_equal(w->d.n_errors, 1);
	/* Partitions unknown: nothing to say. */
	oq_diags_clear(&w->d);
	oq_binding_free(oq_bind(p, w->f, NULL, &w->d));
	assert_int_equal(w->d.n_errors, 0);
	/* Without a fabric (check --partitions): existence only. */
	assert_int_equal(oq_check_ipoib_partitions(p, NULL, &parts, &w->d), 0);
	assert_int_equal(w->d.n_errors, 1);
	oq_policy_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_port_guid, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_switch_guid_brings_all_ports, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_guid_matching_nothing_warns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_node_types, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_self, setup, teardown),
		cmocka_unit_test_setup_teardown(test_port_names, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_rule_without_ports, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_port_name_problems, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_pkey_groups, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_partition_names, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_has_port_bounds, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_ipoib_partitions, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
