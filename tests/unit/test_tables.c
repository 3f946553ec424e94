// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the table compiler (templates as OpenSM, qos-setup scopes). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "match_fixture.h"

struct world {
	struct oq_fabric *f;
	struct oq_node *sw, *h1, *h2, *h3, *rtr;
	struct oq_policy *p;
	struct oq_templates t;
	struct oq_fabric_tables out;
	struct oq_diags d;
	int g_h1, g_h2, g_sw;
};

/*
 * sw (0x100, 8 ports, enhanced port 0, 8 VLs): 1-h1 (4 VLs), 2-h2 (8 VLs,
 * VLArb caps 64/40), 3-h3 (1 VL), 4-rtr; port 5 present but down.
 */
static int setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));

	w->f = oq_fabric_new();
	w->sw = fx_switch(w->f, 0x100, "sw", 8, 1);
	w->h1 = fx_ca(w->f, 0x10, "h1", 1, 10);
	w->h2 = fx_ca(w->f, 0x20, "h2", 1, 20);
	w->h3 = fx_ca(w->f, 0x30, "h3", 1, 30);
	w->rtr = fx_router(w->f, 0x40, "rtr", 40);
	fx_caps(&w->h1->ports[1], 4, 8, 8);
	fx_caps(&w->h2->ports[1], 8, 64, 40);
	fx_caps(&w->h3->ports[1], 1, 0, 0);
	oq_fabric_link(&w->h1->ports[1], &w->sw->ports[1]);
	oq_fabric_link(&w->h2->ports[1], &w->sw->ports[2]);
	oq_fabric_link(&w->h3->ports[1], &w->sw->ports[3]);
	oq_fabric_link(&w->rtr->ports[1], &w->sw->ports[4]);
	w->sw->ports[5].present = true;
	assert_int_equal(oq_fabric_finalize(w->f, NULL), 0);
	oq_templates_default(&w->t);
	w->p = fx_policy_new();
	fx_level(w->p, "DEFAULT", 0);
	w->g_h1 = fx_group(w->p, "h1");
	fx_group_guids(w->p, w->g_h1, 0x11, 0x11);
	w->g_h2 = fx_group(w->p, "h2");
	fx_group_guids(w->p, w->g_h2, 0x21, 0x21);
	w->g_sw = fx_group(w->p, "switches");
	fx_group_types(w->p, w->g_sw, OQ_NT_SWITCH);
	oq_diags_init(&w->d);
	*state = w;
	return 0;
}

static int teardown(void **state)
{
	struct world *w = *state;

	oq_fabric_tables_free(&w->out);
	oq_diags_free(&w->d);
	fx_policy_free(w->p);
	oq_fabric_free(w->f);
	free(w);
	return 0;
}

static void compile(struct world *w, bool with_policy)
{
	struct oq_binding *b = NULL;

	oq_fabric_tables_free(&w->out);
	if (with_policy)
		b = oq_bind(w->p, w->f, NULL, &w->d);
	assert_int_equal(oq_tables_compile(b, w->f, &w->t, &w->out, &w->d), 0);
	assert_int_equal(w->out.n, w->f->n_ports);
	oq_binding_free(b);
}

static const struct oq_port_tables *tables_of(struct world *w,
					      const struct oq_port *p)
{
	assert_true(oq_port_index(w->f, p) < w->out.n);
	assert_ptr_equal(w->out.ports[oq_port_index(w->f, p)].port, p);
	return &w->out.ports[oq_port_index(w->f, p)];
}

static void test_template_ca_masked_like_opensm(void **state)
{
	struct world *w = *state;
	const struct oq_port_tables *pt;
	static const uint8_t sl2vl[16] = {0, 1, 2, 3, 0, 1, 2, 3,
					  0, 1, 2, 3, 0, 1, 2, 3};
	static const uint8_t high[8][2] = {{0, 4}, {1, 0}, {2, 0}, {3, 0},
					   {0, 0}, {1, 0}, {2, 0}, {3, 0}};
	unsigned i;

	compile(w, false);
	pt = tables_of(w, &w->h1->ports[1]);
	/* 4 VLs: OpenSM ANDs every VL with 3 (default SL15 -> VL7 -> 3). */
	assert_true(pt->has_sl2vl);
	assert_int_equal(pt->n_sl2vl, 1);
	assert_memory_equal(pt->sl2vl[0], sl2vl, 16);
	assert_true(pt->has_vlarb);
	assert_int_equal(pt->vlarb_high.n, 8); /* cap 8 of 15 entries */
	for (i = 0; i < 8; i++) {
		assert_int_equal(pt->vlarb_high.e[i].vl, high[i][0]);
		assert_int_equal(pt->vlarb_high.e[i].weight, high[i][1]);
	}
	assert_int_equal(pt->vlarb_low.e[4].vl, 0); /* 4 & 3 */
	assert_int_equal(pt->vlarb_low.e[4].weight, 4);
	assert_int_equal(pt->vl_high_limit, 0);
	assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_TEMPLATE);
	assert_int_equal(pt->vlarb_scope, -1);
}

static void test_template_vlarb_blocks(void **state)
{
	struct world *w = *state;
	const struct oq_port_tables *pt;
	unsigned i;

	for (i = 0; i < OQ_VLARB_MAX; i++) {
		w->t.t[OQ_KIND_CA].vlarb_high.e[i].vl = (uint8_t)(i % 8);
		w->t.t[OQ_KIND_CA].vlarb_high.e[i].weight = 1;
		w->t.t[OQ_KIND_CA].vlarb_low.e[i] =
			w->t.t[OQ_KIND_CA].vlarb_high.e[i];
	}
	w->t.t[OQ_KIND_CA].vlarb_high.n = OQ_VLARB_MAX;
	w->t.t[OQ_KIND_CA].vlarb_low.n = OQ_VLARB_MAX;
	compile(w, false);
	pt = tables_of(w, &w->h2->ports[1]);
	/* Cap 64: block 1 gets 64 % 32 = 0 entries from OpenSM. */
	assert_int_equal(pt->vlarb_high.n, 32);
	assert_int_equal(pt->vlarb_high.e[32].weight, 0);
	/* Cap 40: 32 + 8. */
	assert_int_equal(pt->vlarb_low.n, 40);
	assert_int_equal(pt->vlarb_low.e[39].weight, 1);
}

static void test_one_vl_has_no_vlarb(void **state)
{
	struct world *w = *state;
	const struct oq_port_tables *pt;
	static const uint8_t zero[16];

	w->t.t[OQ_KIND_CA].high_limit = 9;
	compile(w, false);
	pt = tables_of(w, &w->h3->ports[1]);
	assert_false(pt->has_vlarb);
	assert_int_equal(pt->vl_high_limit, 0);
	assert_true(pt->has_sl2vl);
	assert_memory_equal(pt->sl2vl[0], zero, 16);
	assert_int_equal(tables_of(w, &w->h1->ports[1])->vl_high_limit, 9);
}

static void test_switch_ports(void **state)
{
	struct world *w = *state;
	const struct oq_port_tables *pt;

	w->t.t[OQ_KIND_SW0].sl2vl[0] = 5;
	w->t.t[OQ_KIND_SWE].sl2vl[0] = 6;
	compile(w, false);
	pt = tables_of(w, &w->sw->ports[0]);
	assert_true(pt->has_sl2vl);
	assert_int_equal(pt->n_sl2vl, 1);
	assert_int_equal(pt->sl2vl[0][0], 5);
	pt = tables_of(w, &w->sw->ports[2]);
	assert_int_equal(pt->n_sl2vl, 9);
	assert_int_equal(pt->sl2vl[0][0], 6);
	assert_int_equal(pt->sl2vl[8][0], 6);
	assert_true(pt->has_vlarb);
	pt = tables_of(w, &w->sw->ports[5]); /* link down: skipped */
	assert_false(pt->has_sl2vl);
	assert_false(pt->has_vlarb);
	/* Base port 0 is not programmed; no SLMapping on port 0 means no
	 * SL2VL on any switch port. */
	w->sw->enhanced_port0 = false;
	w->sw->ports[0].sl2vl_cap = false;
	compile(w, false);
	pt = tables_of(w, &w->sw->ports[0]);
	assert_false(pt->has_sl2vl);
	assert_false(pt->has_vlarb);
	pt = tables_of(w, &w->sw->ports[1]);
	assert_false(pt->has_sl2vl);
	assert_null(pt->sl2vl);
	assert_true(pt->has_vlarb);
}

static void test_vlarb_scope_group_and_across(void **state)
{
	struct world *w = *state;
	struct oq_vlarb_scope *s;
	const struct oq_port_tables *pt;

	s = fx_vlarb_scope(w->p);
	fx_ref(&s->groups, "h1", w->g_h1);
	fx_vlarb_set(&s->high, &s->n_high, &s->has_high, "0:10,1:20");
	s->vl_high_limit = 5;
	s = fx_vlarb_scope(w->p); /* across h1: the switch port facing it */
	fx_ref(&s->across, "h1", w->g_h1);
	fx_vlarb_set(&s->low, &s->n_low, &s->has_low, "2:30");
	s = fx_vlarb_scope(w->p); /* shadowed for h1 by scope 0 */
	fx_ref(&s->groups, "h1", w->g_h1);
	fx_ref(&s->groups, "h2", w->g_h2);
	s->vl_high_limit = 7;
	compile(w, true);
	assert_int_equal(w->d.n, 0);

	pt = tables_of(w, &w->h1->ports[1]);
	assert_int_equal(pt->vlarb_origin, OQ_ORIGIN_SCOPE);
	assert_int_equal(pt->vlarb_scope, 0);
	assert_int_equal(pt->vlarb_high.n, 2);
	assert_int_equal(pt->vlarb_high.e[1].vl, 1);
	assert_int_equal(pt->vlarb_high.e[1].weight, 20);
	assert_int_equal(pt->vlarb_low.n, 8); /* template, not given */
	assert_int_equal(pt->vl_high_limit, 5);

	pt = tables_of(w, &w->sw->ports[1]);
	assert_int_equal(pt->vlarb_scope, 1);
	assert_int_equal(pt->vlarb_low.n, 1);
	assert_int_equal(pt->vlarb_low.e[0].weight, 30);
	assert_int_equal(pt->vl_high_limit, 0);

	pt = tables_of(w, &w->h2->ports[1]);
	assert_int_equal(pt->vlarb_scope, 2);
	assert_int_equal(pt->vl_high_limit, 7);
	assert_int_equal(pt->vlarb_high.n, 15); /* template */

	pt = tables_of(w, &w->sw->ports[2]);
	assert_int_equal(pt->vlarb_origin, OQ_ORIGIN_TEMPLATE);
}

static void test_vlarb_scope_group_plus_across_is_union(void **state)
{
	struct world *w = *state;
	struct oq_vlarb_scope *s = fx_vlarb_scope(w->p);

	/* The RFC's "group: Storage / across: Storage": the members and
	 * the ports linked to them. */
	fx_ref(&s->groups, "h2", w->g_h2);
	fx_ref(&s->across, "h2", w->g_h2);
	s->vl_high_limit = 3;
	compile(w, true);
	assert_int_equal(tables_of(w, &w->h2->ports[1])->vl_high_limit, 3);
	assert_int_equal(tables_of(w, &w->sw->ports[2])->vl_high_limit, 3);
	assert_int_equal(tables_of(w, &w->sw->ports[1])->vlarb_scope, -1);
	assert_int_equal(tables_of(w, &w->h1->ports[1])->vlarb_scope, -1);
}

static void test_vlarb_scope_missing_vl_keeps_template(void **state)
{
	struct world *w = *state;
	struct oq_vlarb_scope *s = fx_vlarb_scope(w->p);
	const struct oq_port_tables *pt;

	fx_ref(&s->groups, "h1", w->g_h1);
	fx_ref(&s->groups, "h2", w->g_h2);
	fx_vlarb_set(&s->high, &s->n_high, &s->has_high, "0:10,5:20");
	compile(w, true);
	/* h1 runs 4 VLs: warned and kept; h2 runs 8: applied. */
	assert_int_equal(w->d.n_warnings, 1);
	assert_non_null(strstr(w->d.v[0].msg, "h1/P1"));
	assert_int_equal(w->d.v[0].loc.line, 700);
	pt = tables_of(w, &w->h1->ports[1]);
	assert_int_equal(pt->vlarb_origin, OQ_ORIGIN_TEMPLATE);
	assert_int_equal(pt->vlarb_high.e[0].weight, 4);
	pt = tables_of(w, &w->h2->ports[1]);
	assert_int_equal(pt->vlarb_origin, OQ_ORIGIN_SCOPE);
	assert_int_equal(pt->vlarb_high.e[1].vl, 5);
}

static void test_vlarb_scope_clipped_to_cap(void **state)
{
	struct world *w = *state;
	struct oq_vlarb_scope *s = fx_vlarb_scope(w->p);

	fx_ref(&s->groups, "switches", w->g_sw);
	fx_vlarb_set(&s->low, &s->n_low, &s->has_low,
		     "0:1,1:1,2:1,3:1,4:1,5:1,6:1,7:1,0:0,1:9");
	compile(w, true);
	assert_int_equal(tables_of(w, &w->sw->ports[1])->vlarb_low.n, 8);
	/* One summary warning for the scope, not one per port. */
	assert_int_equal(w->d.n_warnings, 1);
	assert_non_null(strstr(w->d.v[0].msg, "dropped"));
}

static void test_sl2vl_scopes(void **state)
{
	struct world *w = *state;
	static const uint8_t x[16] = {1, 1, 1, 1, 1, 1, 1, 1,
				      1, 1, 1, 1, 1, 1, 1, 15};
	static const uint8_t y[16] = {2, 2, 2, 2, 2, 2, 2, 2,
				      2, 2, 2, 2, 2, 2, 2, 2};
	static const uint8_t z[16] = {3};
	static const uint8_t c[16] = {0, 0, 1, 1, 2, 2, 3, 3,
				      0, 0, 1, 1, 2, 2, 3, 3};
	struct oq_sl2vl_scope *s;
	const struct oq_port_tables *pt;

	s = fx_sl2vl_scope(w->p, x); /* 0: switch, from 1 to 2 */
	fx_ref(&s->groups, "switches", w->g_sw);
	fx_portsel(&s->from, 1, 1);
	fx_portsel(&s->to, 2, 2);
	s = fx_sl2vl_scope(w->p, y); /* 1: toward h1 */
	fx_ref(&s->across_to, "h1", w->g_h1);
	s = fx_sl2vl_scope(w->p, z); /* 2: coming from h2 */
	fx_ref(&s->across_from, "h2", w->g_h2);
	s = fx_sl2vl_scope(w->p, c); /* 3: CAs in group h1 */
	fx_ref(&s->groups, "h1", w->g_h1);
	compile(w, true);
	assert_int_equal(w->d.n, 0);

	pt = tables_of(w, &w->sw->ports[2]);
	assert_memory_equal(pt->sl2vl[1], x, 16);
	assert_int_equal(pt->sl2vl[3][0], 0); /* template */
	assert_int_equal(pt->sl2vl[2][0], 3); /* from h2's port */
	assert_int_equal(pt->sl2vl_scope, 0);
	pt = tables_of(w, &w->sw->ports[1]);
	assert_memory_equal(pt->sl2vl[0], y, 16);
	assert_memory_equal(pt->sl2vl[2], y, 16); /* scope 1 before 2 */
	pt = tables_of(w, &w->sw->ports[4]);
	assert_int_equal(pt->sl2vl[2][0], 3);
	assert_int_equal(pt->sl2vl[1][0], 0);
	/* Port 0 (in 0, out 0): no link, so no across; not in from/to. */
	pt = tables_of(w, &w->sw->ports[0]);
	assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_TEMPLATE);
	/* CA: only the group-only scope applies. */
	pt = tables_of(w, &w->h1->ports[1]);
	assert_memory_equal(pt->sl2vl[0], c, 16);
	assert_int_equal(pt->sl2vl_scope, 3);
	pt = tables_of(w, &w->h2->ports[1]);
	assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_TEMPLATE);
}

/*
 * Ports with the same rows share one block of the table set's store; a
 * port whose rows a scope changes gets its own block, and new rows set
 * on one port leave the ports it shared with untouched.  Drop masks of a
 * shared block are computed once.
 */
static void test_equal_rows_shared(void **state)
{
	struct world *w = *state;
	static const uint8_t x[16] = {1, 1, 1, 1, 1, 1, 1, 1,
				      1, 1, 1, 1, 1, 1, 1, 15};
	struct oq_port_tables *p1, *p2, *p4;
	union oq_sl2vl_scratch sc;
	struct oq_sl2vl_scope *s;

	compile(w, false);
	p1 = &w->out.ports[oq_port_index(w->f, &w->sw->ports[1])];
	p2 = &w->out.ports[oq_port_index(w->f, &w->sw->ports[2])];
	p4 = &w->out.ports[oq_port_index(w->f, &w->sw->ports[4])];
	assert_ptr_equal(p1->sl2vl, p2->sl2vl);
	assert_ptr_equal(p1->sl2vl, p4->sl2vl);
	assert_int_equal(p2->n_sl2vl, 9);

	s = fx_sl2vl_scope(w->p, x); /* switch port 2's table from port 1 */
	fx_ref(&s->groups, "switches", w->g_sw);
	fx_portsel(&s->from, 1, 1);
	fx_portsel(&s->to, 2, 2);
	compile(w, true);
	p1 = &w->out.ports[oq_port_index(w->f, &w->sw->ports[1])];
	p2 = &w->out.ports[oq_port_index(w->f, &w->sw->ports[2])];
	p4 = &w->out.ports[oq_port_index(w->f, &w->sw->ports[4])];
	assert_ptr_not_equal(p2->sl2vl, p1->sl2vl);
	assert_ptr_equal(p1->sl2vl, p4->sl2vl);
	assert_memory_equal(p2->sl2vl[1], x, 16);
	assert_memory_equal(p2->sl2vl[0], p1->sl2vl[0], 16);

	assert_int_equal(oq_fabric_tables_index_drops(&w->out), 0);
	assert_ptr_equal(p1->sl2vl_drop, p4->sl2vl_drop);
	assert_int_equal(p2->sl2vl_drop[1], 1u << 15);
	assert_int_equal(p2->sl2vl_drop[0], 0);

	memcpy(sc.row, p4->sl2vl, 16 * 9);
	sc.row[3][0] = 15;
	assert_int_equal(oq_port_tables_set_sl2vl(&w->out, p4,
						  (const uint8_t(*)[16])sc.row,
						  9),
			 0);
	assert_null(p4->sl2vl_drop);
	assert_ptr_not_equal(p4->sl2vl, p1->sl2vl);
	assert_int_equal(p4->sl2vl[3][0], 15);
	assert_int_equal(p1->sl2vl[3][0], 0);
	/* Whoever changes a row rebuilds the drop index. */
	assert_int_equal(oq_fabric_tables_index_drops(&w->out), 0);
	assert_int_equal(p4->sl2vl_drop[3], 1);
	assert_int_equal(p1->sl2vl_drop[3], 0);
	assert_false(oq_fabric_tables_no_drop(
		&w->out, oq_port_index(w->f, &w->sw->ports[4])));
	assert_true(oq_fabric_tables_no_drop(
		&w->out, oq_port_index(w->f, &w->sw->ports[1])));
	/* teardown frees shared, own and stored rows alike (ASan). */
}

/* Two compiles are the same when every port's tables are, whatever
 * store their rows are in; one row, one VLArb entry, one VLHighLimit or
 * the scope a table came from makes them differ. */
static void test_tables_same(void **state)
{
	struct world *w = *state;
	static const uint8_t x[16] = {1, 1, 1, 1, 1, 1, 1, 1,
				      1, 1, 1, 1, 1, 1, 1, 15};
	struct oq_fabric_tables a;
	struct oq_port_tables *pa, *pb;
	union oq_sl2vl_scratch sc;
	size_t i2 = oq_port_index(w->f, &w->sw->ports[2]);

	compile(w, false);
	a = w->out;
	memset(&w->out, 0, sizeof(w->out));
	compile(w, false);
	assert_ptr_not_equal(a.ports[i2].sl2vl, w->out.ports[i2].sl2vl);
	assert_true(oq_fabric_tables_same(&a, &w->out));

	pa = &a.ports[i2];
	pb = &w->out.ports[i2];
	memcpy(sc.row, pb->sl2vl, 16 * pb->n_sl2vl);
	memcpy(sc.row[8], x, 16);
	assert_int_equal(oq_port_tables_set_sl2vl(&w->out, pb,
						  (const uint8_t(*)[16])sc.row,
						  pb->n_sl2vl),
			 0);
	assert_false(oq_fabric_tables_same(&a, &w->out));
	/* A host's row, after the switch ports' equal blocks. */
	compile(w, false);
	pb = &w->out.ports[oq_port_index(w->f, &w->h2->ports[1])];
	assert_true(pb->has_sl2vl);
	assert_int_equal(pb->n_sl2vl, 1);
	memcpy(sc.row, pb->sl2vl, 16);
	sc.row[0][0] ^= 1;
	assert_int_equal(oq_port_tables_set_sl2vl(
				 &w->out, pb, (const uint8_t(*)[16])sc.row, 1),
			 0);
	assert_false(oq_fabric_tables_same(&a, &w->out));
	compile(w, false);
	pb = &w->out.ports[i2];
	pb->vlarb_low.e[0].weight ^= 1;
	assert_false(oq_fabric_tables_same(&a, &w->out));
	pb->vlarb_low.e[0].weight ^= 1;
	pb->vl_high_limit++;
	assert_false(oq_fabric_tables_same(&a, &w->out));
	pb->vl_high_limit--;
	pb->vlarb_scope = 0;
	assert_false(oq_fabric_tables_same(&a, &w->out));
	pb->vlarb_scope = pa->vlarb_scope;
	assert_true(oq_fabric_tables_same(&a, &w->out));
	a.n--;
	assert_false(oq_fabric_tables_same(&a, &w->out));
	a.n++;
	oq_fabric_tables_free(&a);
}

/* Fills of one row share the block of those rows however they come:
 * the same row and count again, after another fill, or set row by row;
 * another count or row is another block. */
static void test_fill_shares_blocks(void **state)
{
	struct world *w = *state;
	static const uint8_t a[16] = {0, 1, 2, 3, 4, 5, 6, 7,
				      7, 7, 7, 7, 7, 7, 7, 7};
	static const uint8_t b[16] = {1, 1, 1, 1, 1, 1, 1, 1,
				      1, 1, 1, 1, 1, 1, 1, 15};
	struct oq_port_tables pt[6];
	union oq_sl2vl_scratch sc;
	unsigned int i;

	memset(pt, 0, sizeof(pt));
	oq_fabric_tables_free(&w->out);
	assert_int_equal(oq_port_tables_fill_sl2vl(&w->out, &pt[0], a, 9), 0);
	assert_int_equal(oq_port_tables_fill_sl2vl(&w->out, &pt[1], a, 9), 0);
	assert_ptr_equal(pt[0].sl2vl, pt[1].sl2vl);
	assert_int_equal(oq_port_tables_fill_sl2vl(&w->out, &pt[2], a, 5), 0);
	assert_ptr_not_equal(pt[2].sl2vl, pt[0].sl2vl);
	assert_int_equal(pt[2].n_sl2vl, 5);
	assert_int_equal(oq_port_tables_fill_sl2vl(&w->out, &pt[3], b, 5), 0);
	assert_ptr_not_equal(pt[3].sl2vl, pt[2].sl2vl);
	assert_int_equal(oq_port_tables_fill_sl2vl(&w->out, &pt[4], a, 9), 0);
	assert_ptr_equal(pt[4].sl2vl, pt[0].sl2vl);
	for (i = 0; i < 5; i++)
		memcpy(sc.row[i], b, 16);
	assert_int_equal(oq_port_tables_set_sl2vl(&w->out, &pt[5],
						  (const uint8_t(*)[16])sc.row,
						  5),
			 0);
	assert_ptr_equal(pt[5].sl2vl, pt[3].sl2vl);
	for (i = 0; i < 9; i++) {
		assert_memory_equal(pt[1].sl2vl[i], a, 16);
		assert_memory_equal(pt[4].sl2vl[i], a, 16);
	}
	for (i = 0; i < 5; i++) {
		assert_memory_equal(pt[2].sl2vl[i], a, 16);
		assert_memory_equal(pt[3].sl2vl[i], b, 16);
	}
	assert_int_equal(pt[1].n_sl2vl, 9);
	assert_int_equal(oq_port_tables_fill_sl2vl(&w->out, &pt[0], a, 0),
			 -EINVAL);
}

/* Uniform rows: asked again of the same rows, of other rows with as many
 * rows, and of fewer of the same rows. */
static void test_rows_uniform_memo(void **state)
{
	struct oq_sl2vl_uniform_memo m = {NULL, 0, false};
	static uint8_t same[3][16] = {{1, 2}, {1, 2}, {1, 2}};
	static uint8_t last_differs[3][16] = {{1, 2}, {1, 2}, {1, 3}};

	(void)state;
	assert_true(oq_sl2vl_rows_uniform(&m, same, 3));
	assert_true(oq_sl2vl_rows_uniform(&m, same, 3));
	assert_false(oq_sl2vl_rows_uniform(&m, last_differs, 3));
	assert_false(oq_sl2vl_rows_uniform(&m, last_differs, 3));
	assert_true(oq_sl2vl_rows_uniform(&m, last_differs, 2));
	assert_true(oq_sl2vl_rows_uniform(&m, last_differs, 1));
	assert_false(oq_sl2vl_rows_uniform(&m, last_differs, 3));
	assert_true(oq_sl2vl_rows_uniform(&m, same, 3));
}

/* `from: *` / `to: *` mean all ports, a CA's one table included; port
 * numbers name switch ports only.  A scope that covers no port of the
 * fabric is a warning at its location. */
static void test_sl2vl_wildcards_cover_cas(void **state)
{
	struct world *w = *state;
	static const uint8_t c[16] = {0, 0, 1, 1, 2, 2, 3, 3,
				      0, 0, 1, 1, 2, 2, 3, 3};
	static const uint8_t n[16] = {1, 1, 1, 1, 1, 1, 1, 1,
				      1, 1, 1, 1, 1, 1, 1, 1};
	struct oq_sl2vl_scope *s;
	const struct oq_port_tables *pt;
	size_t i;

	s = fx_sl2vl_scope(w->p, n); /* 0: h2, from 1: switch ports only */
	fx_ref(&s->groups, "h2", w->g_h2);
	fx_portsel(&s->from, 1, 1);
	s->loc.line = 7;
	s = fx_sl2vl_scope(w->p, c); /* 1: h1, from * to * */
	fx_ref(&s->groups, "h1", w->g_h1);
	s->from.given = s->from.all = true;
	s->to.given = s->to.all = true;
	s->loc.line = 9;
	compile(w, true);
	pt = tables_of(w, &w->h1->ports[1]);
	assert_memory_equal(pt->sl2vl[0], c, 16);
	assert_int_equal(pt->sl2vl_scope, 1);
	pt = tables_of(w, &w->h2->ports[1]);
	assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_TEMPLATE);
	/* Scope 0 covers nothing here: said at its line, once. */
	for (i = 0; i < w->d.n; i++)
		if (strstr(w->d.v[i].msg, "covers no port"))
			break;
	assert_true(i < w->d.n);
	assert_int_equal(w->d.v[i].loc.line, 7);
	assert_int_equal(w->d.v[i].sev, OQ_SEV_WARNING);
	assert_int_equal(w->d.n_warnings, 1);
}

/* `from: * to: *` over the switches: every table of every switch port,
 * port 0's included, one block for the ports with the same rows; a
 * scope before it that names an input port keeps that one table. */
static void test_sl2vl_from_all_every_table(void **state)
{
	struct world *w = *state;
	static const uint8_t x[16] = {1, 1, 1, 1, 1, 1, 1, 1,
				      1, 1, 1, 1, 1, 1, 1, 15};
	static const uint8_t y[16] = {0, 1, 2, 3, 4, 5, 6, 7,
				      7, 7, 7, 7, 7, 7, 7, 7};
	const struct oq_port_tables *pt, *p1;
	struct oq_sl2vl_scope *s;
	unsigned int i, in;

	s = fx_sl2vl_scope(w->p, x); /* 0: switch, from 1 to 2 */
	fx_ref(&s->groups, "switches", w->g_sw);
	fx_portsel(&s->from, 1, 1);
	fx_portsel(&s->to, 2, 2);
	s = fx_sl2vl_scope(w->p, y); /* 1: switch, from * to * */
	fx_ref(&s->groups, "switches", w->g_sw);
	s->from.given = s->from.all = true;
	s->to.given = s->to.all = true;
	compile(w, true);
	assert_int_equal(w->d.n, 0);
	p1 = tables_of(w, &w->sw->ports[1]);
	for (i = 0; i <= 4; i++) {
		pt = tables_of(w, &w->sw->ports[i]);
		assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_SCOPE);
		assert_int_equal(pt->sl2vl_scope, 1);
		assert_int_equal(pt->n_sl2vl, i ? 9 : 1);
		for (in = 0; in < pt->n_sl2vl; in++)
			assert_memory_equal(pt->sl2vl[in],
					    i == 2 && in == 1 ? x : y, 16);
		if (i != 2 && i)
			assert_ptr_equal(pt->sl2vl, p1->sl2vl);
	}
	assert_ptr_not_equal(tables_of(w, &w->sw->ports[2])->sl2vl, p1->sl2vl);
	/* A port that is down is not programmed. */
	assert_false(tables_of(w, &w->sw->ports[5])->has_sl2vl);
}

/* A policy of many sl2vl-scopes: the first covering one wins, the last
 * one's VL that h1 lacks is said once, and every scope counts as used. */
static void test_many_sl2vl_scopes(void **state)
{
	struct world *w = *state;
	uint8_t tbl[16];
	struct oq_sl2vl_scope *s;
	const struct oq_port_tables *pt;
	unsigned int k, lacks = 0;
	size_t i;

	for (k = 0; k < 40; k++) {
		memset(tbl, (int)(k % 8), sizeof(tbl));
		if (k == 39)
			tbl[0] = 5; /* h1 runs 4 VLs */
		s = fx_sl2vl_scope(w->p, tbl);
		fx_ref(&s->groups, k < 39 ? "h2" : "h1",
		       k < 39 ? w->g_h2 : w->g_h1);
		s->loc.line = 100 + k;
	}
	compile(w, true);
	pt = tables_of(w, &w->h2->ports[1]);
	assert_int_equal(pt->sl2vl_scope, 0);
	assert_int_equal(pt->sl2vl[0][3], 0);
	pt = tables_of(w, &w->h1->ports[1]);
	assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_TEMPLATE);
	for (i = 0; i < w->d.n; i++) {
		assert_null(strstr(w->d.v[i].msg, "covers no port"));
		if (strstr(w->d.v[i].msg, "runs 4 data VL(s)")) {
			assert_int_equal(w->d.v[i].loc.line, 139);
			lacks++;
		}
	}
	assert_int_equal(lacks, 1);
}

static void test_sl2vl_across_either_way(void **state)
{
	struct world *w = *state;
	static const uint8_t y[16] = {2};
	struct oq_sl2vl_scope *s = fx_sl2vl_scope(w->p, y);
	const struct oq_port_tables *pt;
	int both = fx_group(w->p, "both");

	fx_group_guids(w->p, both, 0x11, 0x11);
	fx_group_guids(w->p, both, 0x21, 0x21);
	fx_ref(&s->across, "both", both);
	compile(w, true);
	/* Toward a member: every input port. */
	pt = tables_of(w, &w->sw->ports[1]);
	assert_int_equal(pt->sl2vl[2][0], 2); /* h2 -> h1 */
	assert_int_equal(pt->sl2vl[3][0], 2); /* h3 -> h1 */
	assert_int_equal(pt->sl2vl[0][0], 2); /* port 0 -> h1 */
	/* Elsewhere: only from a member's port. */
	pt = tables_of(w, &w->sw->ports[4]);
	assert_int_equal(pt->sl2vl[2][0], 2); /* h2 -> rtr */
	assert_int_equal(pt->sl2vl[3][0], 0); /* h3 -> rtr: template */
	assert_int_equal(pt->sl2vl[0][0], 0);
	/* CA ports have no port numbers: across never covers them. */
	pt = tables_of(w, &w->h1->ports[1]);
	assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_TEMPLATE);
}

static void test_sl2vl_missing_vl_warns_per_port(void **state)
{
	struct world *w = *state;
	static const uint8_t t6[16] = {6, 6, 6, 6, 6, 6, 6, 6,
				       6, 6, 6, 6, 6, 6, 6, 15};
	struct oq_sl2vl_scope *s = fx_sl2vl_scope(w->p, t6);
	const struct oq_port_tables *pt;

	(void)s;
	w->sw->ports[3].oper_vls = 4;
	compile(w, true);
	/* h1 (4 VLs), h3 (1 VL) and switch port 3 (4 VLs) lack VL 6. */
	assert_int_equal(w->d.n_warnings, 3);
	pt = tables_of(w, &w->sw->ports[3]);
	assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_TEMPLATE);
	assert_int_equal(pt->sl2vl[1][0], 0);
	pt = tables_of(w, &w->sw->ports[2]);
	assert_memory_equal(pt->sl2vl[1], t6, 16);
	pt = tables_of(w, &w->h2->ports[1]);
	assert_memory_equal(pt->sl2vl[0], t6, 16);
}

static void test_defaults_without_templates(void **state)
{
	struct world *w = *state;
	struct oq_fabric_tables out;

	assert_int_equal(oq_tables_compile(NULL, w->f, NULL, &out, NULL), 0);
	assert_int_equal(
		out.ports[oq_port_index(w->f, &w->h2->ports[1])].sl2vl[0][15],
		7);
	oq_fabric_tables_free(&out);
	assert_int_equal(out.n, 0);
	assert_int_equal(oq_tables_compile(NULL, NULL, NULL, &out, NULL),
			 -EINVAL);
}

/* A row count outside 1..OQ_SL2VL_MAX_ROWS is refused and leaves the
 * port's rows as they were. */
static void test_sl2vl_row_count_checked(void **state)
{
	struct world *w = *state;
	union oq_sl2vl_scratch sc;
	struct oq_port_tables *pt;
	const uint8_t(*before)[16];

	compile(w, false);
	pt = &w->out.ports[oq_port_index(w->f, &w->sw->ports[1])];
	before = (const uint8_t(*)[16])pt->sl2vl;
	memset(&sc, 1, sizeof(sc));
	assert_int_equal(oq_port_tables_set_sl2vl(
				 &w->out, pt, (const uint8_t(*)[16])sc.row, 0),
			 -EINVAL);
	assert_int_equal(oq_port_tables_fill_sl2vl(&w->out, pt, sc.row[0],
						   OQ_SL2VL_MAX_ROWS + 1),
			 -EINVAL);
	assert_ptr_equal(pt->sl2vl, before);
	assert_int_equal(pt->n_sl2vl, 9);
	assert_int_equal(oq_port_tables_fill_sl2vl(&w->out, pt, sc.row[0],
						   OQ_SL2VL_MAX_ROWS),
			 0);
	assert_int_equal(pt->n_sl2vl, OQ_SL2VL_MAX_ROWS);
	assert_int_equal(pt->sl2vl[OQ_SL2VL_MAX_ROWS - 1][15], 1);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_template_ca_masked_like_opensm),
		T(test_template_vlarb_blocks),
		T(test_one_vl_has_no_vlarb),
		T(test_switch_ports),
		T(test_vlarb_scope_group_and_across),
		T(test_vlarb_scope_group_plus_across_is_union),
		T(test_vlarb_scope_missing_vl_keeps_template),
		T(test_vlarb_scope_clipped_to_cap),
		T(test_sl2vl_scopes),
		T(test_equal_rows_shared),
		T(test_tables_same),
		T(test_fill_shares_blocks),
		T(test_rows_uniform_memo),
		T(test_sl2vl_wildcards_cover_cas),
		T(test_sl2vl_from_all_every_table),
		T(test_many_sl2vl_scopes),
		T(test_sl2vl_across_either_way),
		T(test_sl2vl_missing_vl_warns_per_port),
		T(test_defaults_without_templates),
		T(test_sl2vl_row_count_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
