// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: fabric model construction, finalize and lookups. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/fabric.h>
#include <osmqos/node_name_map.h>

/*
 * sw (3 ports, GUID 0x10, LID 1) -- p1: "rack 1/node a HCA-1" port 1
 *                                  -- p2: "h2" port 1 (LID 8, LMC 2)
 */
static struct oq_fabric *small(struct oq_diags *d)
{
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *sw, *a, *b;

	sw = oq_fabric_add_node(f, OQ_NODE_SWITCH, 0x10, "sw one", 3);
	a = oq_fabric_add_node(f, OQ_NODE_CA, 0x20, "rack 1/node a HCA-1", 2);
	b = oq_fabric_add_node(f, OQ_NODE_CA, 0x30, "h2", 1);
	assert_non_null(sw);
	assert_non_null(a);
	assert_non_null(b);
	sw->ports[0].lid = 1;
	a->ports[1].guid = 0x21;
	a->ports[1].lid = 4;
	b->ports[1].guid = 0x31;
	b->ports[1].lid = 8;
	b->ports[1].lmc = 2;
	oq_fabric_link(&sw->ports[1], &a->ports[1]);
	oq_fabric_link(&sw->ports[2], &b->ports[1]);
	f->sm_port_guid = 0x10;
	assert_int_equal(oq_fabric_finalize(f, d), 0);
	return f;
}

static void test_build_and_finalize(void **state)
{
	struct oq_diags d;
	struct oq_fabric *f;
	size_t i;

	oq_diags_init(&d);
	f = small(&d);
	assert_int_equal(d.n_errors, 0);
	assert_true(f->finalized);
	assert_int_equal(f->n_nodes, 3);
	/* sw port 0, 1, 2; a port 1; b port 1 (sw port 3 and a port 2 absent) */
	assert_int_equal(f->n_ports, 5);
	for (i = 0; i < f->n_ports; i++)
		assert_int_equal(oq_port_index(f, f->ports[i]), i);
	/* External switch ports inherit port 0's GUID and LID. */
	assert_int_equal(f->nodes[0]->ports[2].guid, 0x10);
	assert_int_equal(f->nodes[0]->ports[2].lid, 1);
	assert_ptr_equal(oq_port_peer(f, &f->nodes[0]->ports[1]),
			 &f->nodes[1]->ports[1]);
	assert_false(f->nodes[0]->ports[3].present);
	assert_true(oq_port_is_endport(&f->nodes[0]->ports[0]));
	assert_false(oq_port_is_endport(&f->nodes[0]->ports[1]));
	assert_null(oq_fabric_add_node(f, OQ_NODE_CA, 0x99, "late", 1));
	oq_fabric_free(f);
	oq_diags_free(&d);
}

static void test_lookups(void **state)
{
	struct oq_diags d;
	struct oq_fabric *f;
	struct oq_node *sw, *a, *b;

	oq_diags_init(&d);
	f = small(&d);
	sw = f->nodes[0];
	a = f->nodes[1];
	b = f->nodes[2];
	/* A switch's GUID finds its port 0. */
	assert_ptr_equal(oq_fabric_port_by_guid(f, 0x10), &sw->ports[0]);
	assert_ptr_equal(oq_fabric_port_by_guid(f, 0x21), &a->ports[1]);
	assert_null(oq_fabric_port_by_guid(f, 0x20)); /* node, not port */
	assert_ptr_equal(oq_fabric_node_by_guid(f, 0x20), a);
	assert_null(oq_fabric_node_by_guid(f, 0x21));
	/* LMC 2: LIDs 8..11. */
	assert_ptr_equal(oq_fabric_port_by_lid(f, 8), &b->ports[1]);
	assert_ptr_equal(oq_fabric_port_by_lid(f, 11), &b->ports[1]);
	assert_null(oq_fabric_port_by_lid(f, 12));
	assert_null(oq_fabric_port_by_lid(f, 0));
	assert_ptr_equal(oq_fabric_port_by_lid(f, 1), &sw->ports[0]);
	/* Names: the description has spaces and a slash. */
	assert_ptr_equal(oq_fabric_port_by_name(f, "rack 1/node a HCA-1/P1"),
			 &a->ports[1]);
	assert_null(oq_fabric_port_by_name(f, "rack 1/node a HCA-1/P2"));
	assert_null(oq_fabric_port_by_name(f, "rack 1/node a HCA-1"));
	assert_null(oq_fabric_port_by_name(f, "rack 1/P1"));
	assert_ptr_equal(oq_fabric_port_by_name(f, "sw one/P0"), &sw->ports[0]);
	assert_ptr_equal(oq_fabric_port_by_name(f, "sw one/P2"), &sw->ports[2]);
	assert_null(oq_fabric_port_by_name(f, "h2/P0"));
	assert_null(oq_fabric_port_by_name(f, "h2/P1x"));
	assert_null(oq_fabric_port_by_name(f, "h2/P999"));
	oq_fabric_free(f);
	oq_diags_free(&d);
}

static void test_parse_port(void **state)
{
	struct oq_diags d;
	struct oq_fabric *f;

	oq_diags_init(&d);
	f = small(&d);
	assert_ptr_equal(oq_fabric_parse_port(f, "0x21"),
			 &f->nodes[1]->ports[1]);
	assert_ptr_equal(oq_fabric_parse_port(f, "0x0000000000000031"),
			 &f->nodes[2]->ports[1]);
	/* Node GUID of a CA with one port in the fabric. */
	assert_ptr_equal(oq_fabric_parse_port(f, "0x20"),
			 &f->nodes[1]->ports[1]);
	assert_ptr_equal(oq_fabric_parse_port(f, "lid:9"),
			 &f->nodes[2]->ports[1]);
	assert_ptr_equal(oq_fabric_parse_port(f, "lid:0x4"),
			 &f->nodes[1]->ports[1]);
	assert_ptr_equal(oq_fabric_parse_port(f, "h2/P1"),
			 &f->nodes[2]->ports[1]);
	assert_null(oq_fabric_parse_port(f, "0x"));
	assert_null(oq_fabric_parse_port(f, "0x12zz"));
	assert_null(oq_fabric_parse_port(f, "0x77"));
	assert_null(oq_fabric_parse_port(f, "lid:"));
	assert_null(oq_fabric_parse_port(f, "lid:70000"));
	assert_null(oq_fabric_parse_port(f, "lid:-1"));
	assert_null(oq_fabric_parse_port(f, "nosuch/P1"));
	assert_null(oq_fabric_parse_port(f, ""));
	oq_fabric_free(f);
	oq_diags_free(&d);
}

static void test_names_and_pkeys(void **state)
{
	struct oq_diags d;
	struct oq_fabric *f;
	struct oq_port *p;
	uint16_t pk[] = { 0xffff, 0x0010, 0x8020, 0x0020 };
	size_t n_pk;
	char buf[80];

	oq_diags_init(&d);
	f = small(&d);
	p = &f->nodes[1]->ports[1];
	oq_port_name(p, buf, sizeof(buf));
	assert_string_equal(buf, "rack 1/node a HCA-1/P1");
	/* Written as snprintf("%s/P%u") would: every buffer size, port
	 * numbers of 1 to 3 digits, the same text and return value. */
	{
		static const unsigned int nums[] = { 0, 7, 10, 99, 254 };
		char want[80];
		size_t len, i;

		for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++) {
			struct oq_port q = *p;

			q.num = (uint8_t)nums[i];
			for (len = 0; len <= 30; len++) {
				memset(buf, 'Z', sizeof(buf));
				memset(want, 'Z', sizeof(want));
				assert_int_equal(oq_port_name(&q, buf, len),
						 snprintf(want, len, "%s/P%u",
							  q.node->desc,
							  q.num));
				assert_memory_equal(buf, want, sizeof(buf));
			}
		}
	}
	assert_int_equal(oq_port_set_pkeys(p, pk, 4), 0);
	oq_port_pkeys(f, p, &n_pk);
	assert_int_equal(n_pk, 4);
	assert_int_equal(oq_port_pkey_membership(f, p, 0x7fff), 2);
	assert_int_equal(oq_port_pkey_membership(f, p, 0xffff), 2);
	assert_int_equal(oq_port_pkey_membership(f, p, 0x10), 1);
	assert_int_equal(oq_port_pkey_membership(f, p, 0x8010), 1);
	assert_int_equal(oq_port_pkey_membership(f, p, 0x20), 2);
	assert_int_equal(oq_port_pkey_membership(f, p, 0x30), 0);
	assert_int_equal(oq_port_pkey_membership(f, p, 0), 0);
	assert_int_equal(oq_port_set_pkeys(p, NULL, 0), 0);
	assert_int_equal(oq_port_pkey_membership(f, p, 0x7fff), 0);
	/* A P_Key table holds at most 65,535 entries: the old one stays. */
	assert_int_equal(oq_port_set_pkeys(p, pk, 65536), -EINVAL);
	assert_int_equal(oq_fabric_finalize(NULL, NULL), -EINVAL);
	assert_string_equal(oq_node_type_name(OQ_NODE_CA), "CA");
	assert_string_equal(oq_node_type_name(OQ_NODE_SWITCH), "Switch");
	assert_string_equal(oq_node_type_name(OQ_NODE_ROUTER), "Router");
	assert_string_equal(oq_speed_name(OQ_SPEED_FDR10), "FDR10");
	assert_string_equal(oq_speed_name(OQ_SPEED_NDR), "NDR");
	assert_string_equal(oq_speed_name((enum oq_speed)99), "unknown");
	oq_fabric_free(f);
	oq_diags_free(&d);
}

static void test_duplicates_reported(void **state)
{
	struct oq_diags d;
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *a, *b, *sw;

	oq_diags_init(&d);
	sw = oq_fabric_add_node(f, OQ_NODE_SWITCH, 0x1, "sw", 2);
	a = oq_fabric_add_node(f, OQ_NODE_CA, 0x2, "a", 1);
	b = oq_fabric_add_node(f, OQ_NODE_CA, 0x3, "b", 1);
	a->ports[1].guid = b->ports[1].guid = 0x42;
	a->ports[1].lid = b->ports[1].lid = 7;
	oq_fabric_link(&sw->ports[1], &a->ports[1]);
	oq_fabric_link(&sw->ports[2], &b->ports[1]);
	assert_int_equal(oq_fabric_finalize(f, &d), 0);
	assert_int_equal(d.n_errors, 2);
	assert_non_null(strstr(d.v[0].msg, "0x0000000000000042"));
	assert_non_null(strstr(d.v[1].msg, "LID 7"));
	/* No file to point at (a live fabric): said so, and what to do. */
	assert_null(d.v[0].loc.file);
	assert_non_null(strstr(d.v[0].msg, "in the fabric as discovered"));
	assert_non_null(strstr(d.v[0].hint, "firmware or VPD fault"));
	assert_string_equal(d.v[0].code, "port-guid-is-used-by-both");
	assert_string_equal(d.v[1].code, "lid-is-used-by-both");
	/* The first in node order wins. */
	assert_ptr_equal(oq_fabric_port_by_guid(f, 0x42), &a->ports[1]);
	oq_fabric_free(f);
	oq_diags_free(&d);
}

static void test_relink_and_long_desc(void **state)
{
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *x, *y, *z;
	char desc[100];

	memset(desc, 'd', sizeof(desc) - 1);
	desc[sizeof(desc) - 1] = '\0';
	x = oq_fabric_add_node(f, OQ_NODE_CA, 1, desc, 1);
	y = oq_fabric_add_node(f, OQ_NODE_CA, 2, "y", 1);
	z = oq_fabric_add_node(f, OQ_NODE_CA, 3, "z", 1);
	assert_int_equal(strlen(x->desc), 64);
	oq_fabric_link(&x->ports[1], &y->ports[1]);
	oq_fabric_link(&x->ports[1], &z->ports[1]);
	assert_null(oq_port_peer(f, &y->ports[1]));
	assert_ptr_equal(oq_port_peer(f, &z->ports[1]), &x->ports[1]);
	oq_fabric_free(f);
}

/* Lookups stay correct (and fast) on a fabric of 20000 CAs. */
static void test_large_fabric(void **state)
{
	struct oq_fabric *f = oq_fabric_new();
	struct oq_diags d;
	uint32_t i;
	char name[32];

	oq_diags_init(&d);
	for (i = 0; i < 20000; i++) {
		struct oq_node *n;

		snprintf(name, sizeof(name), "cn%05u HCA-1", i);
		n = oq_fabric_add_node(f, OQ_NODE_CA, 0x100000 + 2 * i, name,
				       1);
		assert_non_null(n);
		n->ports[1].present = true;
		n->ports[1].guid = 0x100001 + 2 * i;
		n->ports[1].lid = (uint16_t)(i + 1);
	}
	assert_int_equal(oq_fabric_finalize(f, &d), 0);
	assert_int_equal(d.n_errors, 0);
	for (i = 0; i < 20000; i++) {
		struct oq_port *p = &f->nodes[i]->ports[1];

		snprintf(name, sizeof(name), "cn%05u HCA-1/P1", i);
		assert_ptr_equal(oq_fabric_port_by_guid(f, p->guid), p);
		assert_ptr_equal(oq_fabric_port_by_lid(f, p->lid), p);
		assert_ptr_equal(oq_fabric_port_by_name(f, name), p);
	}
	oq_fabric_free(f);
	oq_diags_free(&d);
}

/* OpenSM's choice among nodes of one name: the first in its node table
 * (oq_node_guid_table_cmp), a tie (one GUID twice) the first added. */
static bool before(const struct oq_fabric *f, const struct oq_node *a,
		   const struct oq_node *b)
{
	int c = oq_node_guid_table_cmp(a->guid, b->guid);

	return c ? c < 0 : oq_node_index(f, a) < oq_node_index(f, b);
}

/* Nodes added in no order, few names and few GUIDs: every name leads to
 * its nodes in OpenSM's order, with their count, the chain ending after
 * the last; renamed, the same for the new names. */
static void test_same_names_in_table_order(void **state)
{
	uint64_t seed = 0x6e616d6573ull;
	int round;

	(void)state;
	for (round = 0; round < 40; round++) {
		struct oq_fabric *f = oq_fabric_new();
		size_t n = 1 + (size_t)(seed % 200), i, j, same;
		char name[16];
		int pass;

		for (i = 0; i < n; i++) {
			seed = seed * 6364136223846793005ull +
			       1442695040888963407ull;
			snprintf(name, sizeof(name), "n%u",
				 (unsigned int)(seed >> 33) % 13);
			assert_non_null(oq_fabric_add_node(
				f, OQ_NODE_CA,
				/* a few GUIDs, some of them twice */
				((seed >> 20) % 41) << ((seed >> 40) % 3 * 24),
				name, 1));
		}
		assert_int_equal(oq_fabric_finalize(f, NULL), 0);
		for (pass = 0; pass < 2; pass++) {
			if (pass) {
				/* A node-name map renames some GUIDs. */
				char map[64 * 16];
				size_t at = 0;
				struct oq_node_name_map *m;
				struct oq_diags d;
				int oom = 0;

				for (i = 0; i < 40; i += 3)
					at += (size_t)snprintf(
						map + at, sizeof(map) - at,
						"0x%zx \"m%zu\"\n", i, i % 5);
				oq_diags_init(&d);
				m = oq_node_name_map_parse("map", map, at, &d,
							   &oom);
				assert_non_null(m);
				oq_diags_free(&d);
				assert_int_equal(
					oq_fabric_apply_node_names(f, m), 0);
				oq_node_name_map_free(m);
			}
			for (i = 0; i < n; i++) {
				const struct oq_node *want = NULL, *got;
				const char *nm = oq_node_name(f->nodes[i]);
				size_t count = 0;

				for (j = 0; j < n; j++) {
					const struct oq_node *x = f->nodes[j];

					if (strcmp(oq_node_name(x), nm))
						continue;
					count++;
					if (!want || before(f, x, want))
						want = x;
				}
				got = oq_fabric_node_by_name(f, nm, strlen(nm),
							     &same);
				assert_ptr_equal(got, want);
				assert_int_equal(same, count);
				/* The chain: each in order, count in all. */
				for (j = 1; j < count; j++) {
					const struct oq_node *nx =
						oq_fabric_node_next_same_name(
							f, got);

					assert_non_null(nx);
					assert_string_equal(oq_node_name(nx),
							    nm);
					assert_true(before(f, got, nx));
					got = nx;
				}
				assert_null(
					oq_fabric_node_next_same_name(f, got));
			}
		}
		oq_fabric_free(f);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_build_and_finalize),
		cmocka_unit_test(test_lookups),
		cmocka_unit_test(test_parse_port),
		cmocka_unit_test(test_names_and_pkeys),
		cmocka_unit_test(test_duplicates_reported),
		cmocka_unit_test(test_relink_and_long_desc),
		cmocka_unit_test(test_large_fabric),
		cmocka_unit_test(test_same_names_in_table_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
