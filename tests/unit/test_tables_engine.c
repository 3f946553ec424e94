// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the table compiler with a routing engine (whose SL2VL is in
 * force, the engine's own table hooks, torus-2QoS offline) and the guard
 * against VLArb that starves a VL a used SL maps to.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/model.h>

#include "match_fixture.h"

struct world {
	struct oq_fabric *f;
	struct oq_node *s1, *s2, *h1, *h2;
	struct oq_policy *p;
	struct oq_templates t;
	struct oq_fabric_tables out;
	struct oq_diags d;
	int g_sw, g_ca;
};

/* s1 (4 ports) 1-h1, 3-s2 port 3; s2 (4 ports) 1-h2.  8 VLs everywhere,
 * VLArb caps 8 (64 on h2: blocks 0 and 1 of each table). */
static int setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));

	w->f = oq_fabric_new();
	w->s1 = fx_switch(w->f, 0x100, "s1", 4, 1);
	w->s2 = fx_switch(w->f, 0x200, "s2", 4, 2);
	w->h1 = fx_ca(w->f, 0x10, "h1", 1, 10);
	w->h2 = fx_ca(w->f, 0x20, "h2", 1, 20);
	fx_caps(&w->h2->ports[1], 8, 64, 64);
	oq_fabric_link(&w->h1->ports[1], &w->s1->ports[1]);
	oq_fabric_link(&w->h2->ports[1], &w->s2->ports[1]);
	oq_fabric_link(&w->s1->ports[3], &w->s2->ports[3]);
	assert_int_equal(oq_fabric_finalize(w->f, NULL), 0);
	oq_templates_default(&w->t);
	w->p = fx_policy_new();
	fx_level(w->p, "DEFAULT", 0);
	w->g_sw = fx_group(w->p, "switches");
	fx_group_types(w->p, w->g_sw, OQ_NT_SWITCH);
	w->g_ca = fx_group(w->p, "hosts");
	fx_group_types(w->p, w->g_ca, OQ_NT_CA);
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

static void compile(struct world *w, const struct oq_engine *e)
{
	struct oq_binding *b = oq_bind(w->p, w->f, NULL, &w->d);

	oq_fabric_tables_free(&w->out);
	assert_non_null(b);
	assert_int_equal(
		oq_tables_compile_engine(b, w->f, &w->t, e, &w->out, &w->d), 0);
	oq_binding_free(b);
}

static const struct oq_port_tables *tables_of(struct world *w,
					      const struct oq_port *p)
{
	assert_ptr_equal(w->out.ports[oq_port_index(w->f, p)].port, p);
	return &w->out.ports[oq_port_index(w->f, p)];
}

static const struct oq_diag *only_error(struct world *w)
{
	size_t i;
	const struct oq_diag *e = NULL;

	assert_int_equal(w->d.n_errors, 1);
	for (i = 0; i < w->d.n; i++)
		if (w->d.v[i].sev == OQ_SEV_ERROR)
			e = &w->d.v[i];
	assert_non_null(e);
	return e;
}

static void test_engine_names(void **state)
{
	struct oq_engine e;

	(void)state;
	assert_int_equal(oq_engine_by_name(&e, NULL), 0);
	assert_string_equal(e.name, "minhop");
	assert_int_equal(e.kind, OQ_ENGINE_QOS);
	assert_int_equal(oq_engine_by_name(&e, "ftree"), 0);
	assert_int_equal(e.kind, OQ_ENGINE_QOS);
	assert_int_equal(oq_engine_by_name(&e, "sssp"), 0);
	assert_int_equal(e.kind, OQ_ENGINE_QOS);
	assert_int_equal(oq_engine_by_name(&e, "dfsssp"), 0);
	assert_int_equal(e.kind, OQ_ENGINE_PATH_SL);
	assert_int_equal(oq_engine_by_name(&e, "lash"), 0);
	assert_int_equal(e.kind, OQ_ENGINE_PATH_SL);
	assert_int_equal(oq_engine_by_name(&e, "nue"), 0);
	assert_int_equal(e.kind, OQ_ENGINE_PATH_SL);
	assert_int_equal(oq_engine_by_name(&e, "torus-2QoS"), 0);
	assert_int_equal(e.kind, OQ_ENGINE_OWN);
	/* OpenSM matches names exactly. */
	assert_int_equal(oq_engine_by_name(&e, "Torus-2qos"), -1);
	assert_int_equal(e.kind, OQ_ENGINE_QOS);
	assert_string_equal(e.name, "Torus-2qos");
}

/* A level on SL 5 and a switch VLArb that weights VLs 0-3: SL 5 maps to
 * VL 5 (template), so the scope is withheld on every switch port. */
static void test_guard_withholds_starving_scope(void **state)
{
	struct world *w = *state;
	struct oq_vlarb_scope *s = fx_vlarb_scope(w->p);
	const struct oq_port_tables *pt;
	const struct oq_diag *e;

	fx_level(w->p, "bulk", 5);
	fx_ref(&s->groups, "switches", w->g_sw);
	fx_vlarb_set(&s->high, &s->n_high, &s->has_high, "0:8");
	fx_vlarb_set(&s->low, &s->n_low, &s->has_low, "1:8,2:8,3:8");
	s->vl_high_limit = 7;
	compile(w, NULL);
	e = only_error(w);
	assert_int_equal(e->loc.line, 700);
	/* s1/P1, s1/P3, s2/P1, s2/P3 and both enhanced ports 0. */
	assert_non_null(strstr(e->msg, "would starve VL 5 on 6 port(s)"));
	assert_non_null(strstr(e->msg, "SL 5"));
	assert_non_null(strstr(e->msg, "template"));
	pt = tables_of(w, &w->s1->ports[3]);
	assert_int_equal(pt->vlarb_origin, OQ_ORIGIN_TEMPLATE);
	assert_int_equal(pt->vlarb_scope, -1);
	assert_int_equal(pt->vl_high_limit, 0); /* the template's */
	assert_int_equal(pt->vlarb_low.e[5].vl, 5);
	assert_int_equal(pt->vlarb_low.e[5].weight, 4);
}

/* Inputs of one switch port that map alike and one that does not: the
 * VL only that live input maps SL 0 to starves the port; a row of an
 * input port that is down does not count. */
static void test_guard_reads_every_live_input(void **state)
{
	struct world *w = *state;
	static const uint8_t all2[16] = {2, 2, 2, 2, 2, 2, 2, 2,
					 2, 2, 2, 2, 2, 2, 2, 2};
	struct oq_vlarb_scope *s = fx_vlarb_scope(w->p);
	struct oq_sl2vl_scope *s2;
	const struct oq_diag *e;

	fx_ref(&s->groups, "switches", w->g_sw);
	fx_vlarb_set(&s->low, &s->n_low, &s->has_low, "0:8");
	fx_vlarb_set(&s->high, &s->n_high, &s->has_high, "0:0");
	s2 = fx_sl2vl_scope(w->p, all2); /* from the other switch */
	fx_ref(&s2->groups, "switches", w->g_sw);
	fx_portsel(&s2->from, 3, 3);
	fx_portsel(&s2->to, 1, 1);
	s2 = fx_sl2vl_scope(w->p, all2); /* from port 2, which is down */
	fx_ref(&s2->groups, "switches", w->g_sw);
	fx_portsel(&s2->from, 2, 2);
	fx_portsel(&s2->to, 3, 3);
	compile(w, NULL);
	e = only_error(w);
	assert_int_equal(e->loc.line, 700);
	assert_non_null(strstr(e->msg, "would starve VL 2 on 2 port(s)"));
	assert_int_equal(tables_of(w, &w->s1->ports[1])->vlarb_origin,
			 OQ_ORIGIN_TEMPLATE);
	assert_int_equal(tables_of(w, &w->s2->ports[1])->vlarb_origin,
			 OQ_ORIGIN_TEMPLATE);
	assert_int_equal(tables_of(w, &w->s1->ports[3])->vlarb_origin,
			 OQ_ORIGIN_SCOPE);
	assert_int_equal(tables_of(w, &w->s1->ports[3])->sl2vl[2][0], 2);
}

/* The same scope with every VL weighted is programmed, quietly. */
static void test_guard_quiet_when_weighted(void **state)
{
	struct world *w = *state;
	struct oq_vlarb_scope *s = fx_vlarb_scope(w->p);

	fx_level(w->p, "bulk", 5);
	fx_ref(&s->groups, "switches", w->g_sw);
	fx_vlarb_set(&s->low, &s->n_low, &s->has_low,
		     "0:8,1:8,2:8,3:8,4:1,5:1,6:1,7:1");
	compile(w, NULL);
	assert_int_equal(w->d.n_errors, 0);
	assert_int_equal(tables_of(w, &w->s1->ports[3])->vlarb_origin,
			 OQ_ORIGIN_SCOPE);
	/* Only SLs 0 and 5 are used: VL 6 may go unweighted on a CA. */
	s = fx_vlarb_scope(w->p);
	fx_ref(&s->groups, "hosts", w->g_ca);
	fx_vlarb_set(&s->low, &s->n_low, &s->has_low, "0:8,5:8");
	fx_vlarb_set(&s->high, &s->n_high, &s->has_high, "0:0");
	compile(w, NULL);
	assert_int_equal(w->d.n_errors, 0);
	assert_int_equal(tables_of(w, &w->h1->ports[1])->vlarb_origin,
			 OQ_ORIGIN_SCOPE);
}

/* A policy SL2VL that moves the used SL 0 onto a VL the template VLArb
 * does not weight: the SL2VL scope is withheld instead. */
static void test_guard_withholds_sl2vl_scope(void **state)
{
	struct world *w = *state;
	static const uint8_t all6[16] = {6, 6, 6, 6, 6, 6, 6, 6,
					 6, 6, 6, 6, 6, 6, 6, 6};
	struct oq_sl2vl_scope *s2;
	const struct oq_diag *e;

	/* CA template: low 0:0,1:4..., high 0:4 -- VL 6 has weight 4; make
	 * the CA template weight VLs 0-1 only. */
	w->t.t[OQ_KIND_CA].vlarb_low.n = 2;
	w->t.t[OQ_KIND_CA].vlarb_high.n = 1;
	s2 = fx_sl2vl_scope(w->p, all6);
	fx_ref(&s2->groups, "hosts", w->g_ca);
	compile(w, NULL);
	e = only_error(w);
	assert_int_equal(e->loc.line, 800);
	assert_non_null(strstr(e->msg, "sl2vl-scope would starve VL 6"));
	/* The SL2VL named is the scope's (it maps SL 0 to VL 6). */
	assert_non_null(strstr(e->msg, "SL2VL of the sl2vl-scope at "));
	assert_int_equal(tables_of(w, &w->h1->ports[1])->sl2vl_origin,
			 OQ_ORIGIN_TEMPLATE);
	assert_int_equal(tables_of(w, &w->h1->ports[1])->sl2vl[0][0], 0);
}

/* Both tables from scopes, and only the SL2VL scope starves: the VLArb
 * scope stays once the SL2VL is the template's again. */
/* On the hosts: a CA template weighting VLs 0-1, an sl2vl-scope mapping
 * every SL to VL 3 (at line 800) and a vlarb-scope weighting VL 0 only
 * (line 700). */
static void hosts_on_vl3(struct world *w)
{
	static const uint8_t all3[16] = {3, 3, 3, 3, 3, 3, 3, 3,
					 3, 3, 3, 3, 3, 3, 3, 3};
	struct oq_sl2vl_scope *s2 = fx_sl2vl_scope(w->p, all3);
	struct oq_vlarb_scope *s = fx_vlarb_scope(w->p);

	w->t.t[OQ_KIND_CA].vlarb_low.n = 2;  /* 0:0, 1:4 */
	w->t.t[OQ_KIND_CA].vlarb_high.n = 1; /* 0:4 */
	fx_ref(&s2->groups, "hosts", w->g_ca);
	fx_ref(&s->groups, "hosts", w->g_ca);
	fx_vlarb_set(&s->low, &s->n_low, &s->has_low, "0:8");
	fx_vlarb_set(&s->high, &s->n_high, &s->has_high, "0:0");
}

static void test_guard_withholds_least(void **state)
{
	struct world *w = *state;
	const struct oq_port_tables *pt;

	hosts_on_vl3(w);
	compile(w, NULL);
	assert_int_equal(only_error(w)->loc.line, 800);
	assert_non_null(strstr(only_error(w)->msg,
			       "sl2vl-scope would starve VL 3 on 2 port(s)"));
	assert_non_null(strstr(only_error(w)->msg, "SL2VL of the sl2vl-scope"));
	pt = tables_of(w, &w->h1->ports[1]);
	assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_TEMPLATE);
	assert_int_equal(pt->vlarb_origin, OQ_ORIGIN_SCOPE);
	assert_int_equal(pt->vlarb_low.e[0].weight, 8);
}

/* When the templates starve too, the scopes stay withheld and are named,
 * and the template finding is a warning. */
static void test_guard_templates_starve_too(void **state)
{
	struct world *w = *state;
	size_t i, warned = 0;

	fx_level(w->p, "bulk", 5); /* SL 5 -> VL 5: no table weights it */
	hosts_on_vl3(w);
	compile(w, NULL);
	assert_int_equal(w->d.n_errors, 2);
	for (i = 0; i < w->d.n; i++)
		if (w->d.v[i].sev == OQ_SEV_WARNING &&
		    strstr(w->d.v[i].msg, "stock OpenSM programs the same"))
			warned++;
	assert_int_equal(warned, 1);
	assert_int_equal(tables_of(w, &w->h1->ports[1])->sl2vl_origin,
			 OQ_ORIGIN_TEMPLATE);
	assert_int_equal(tables_of(w, &w->h1->ports[1])->vlarb_origin,
			 OQ_ORIGIN_TEMPLATE);
}

/* dfsssp chooses SLs: sl2vl-scopes do not apply (a warning), every SL
 * counts, so weighting VLs 0-3 starves VL 4 under the template. */
static void test_path_sl_engine(void **state)
{
	struct world *w = *state;
	static const uint8_t zero[16];
	struct oq_sl2vl_scope *s2 = fx_sl2vl_scope(w->p, zero);
	struct oq_vlarb_scope *s = fx_vlarb_scope(w->p);
	struct oq_engine e;
	const struct oq_diag *err;
	size_t i;
	bool warned = false;

	fx_ref(&s2->groups, "switches", w->g_sw);
	fx_ref(&s->groups, "hosts", w->g_ca);
	fx_vlarb_set(&s->low, &s->n_low, &s->has_low, "0:8,1:8,2:8,3:8");
	assert_int_equal(oq_engine_by_name(&e, "dfsssp"), 0);
	compile(w, &e);
	for (i = 0; i < w->d.n; i++)
		if (w->d.v[i].sev == OQ_SEV_WARNING &&
		    strstr(w->d.v[i].msg, "sl2vl-scope does not apply: "
					  "routing engine dfsssp"))
			warned = true;
	assert_true(warned);
	assert_int_equal(tables_of(w, &w->s1->ports[3])->sl2vl_origin,
			 OQ_ORIGIN_TEMPLATE);
	assert_int_equal(tables_of(w, &w->s1->ports[3])->sl2vl[1][4], 4);
	err = only_error(w);
	/* Every VL it starves, each with an SL that maps to it. */
	assert_non_null(strstr(err->msg, "would starve VLs 4, 5, 6 and 7 on "
					 "2 port(s)"));
	assert_non_null(strstr(err->msg, "SL 4 maps to VL 4, SL 5 to VL 5, "
					 "SL 6 to VL 6 and SL 7 to VL 7"));
	assert_non_null(strstr(err->msg, "dfsssp can give a path any SL"));
	/* Without the engine SL 4 is unused and the scope applies. */
	oq_diags_clear(&w->d);
	compile(w, NULL);
	assert_int_equal(w->d.n_errors, 0);
	assert_int_equal(tables_of(w, &w->h1->ports[1])->vlarb_origin,
			 OQ_ORIGIN_SCOPE);
}

struct fake {
	unsigned int sl2vl_calls, vlarb_calls, blocks;
	const struct oq_fabric *fabric; /* the ports' links */
};

/* A torus-like engine: VL = SL bit 3 everywhere; VLArb: VL 4 -> 1. */
static int fake_sl2vl(void *ctx, const struct oq_port *p, unsigned int in,
		      uint8_t row[16])
{
	struct fake *f = ctx;
	unsigned int sl;

	(void)p;
	(void)in;
	f->sl2vl_calls++;
	for (sl = 0; sl < 16; sl++)
		row[sl] = (uint8_t)((sl >> 3) & 1);
	return 0;
}

static void fake_vlarb(void *ctx, const struct oq_port *p,
		       unsigned int block_num, struct oq_vlarb_table *t,
		       unsigned int first, unsigned int n)
{
	struct fake *f = ctx;
	const struct oq_port *peer = oq_port_peer(f->fabric, p);
	unsigned int i;

	f->vlarb_calls++;
	f->blocks |= 1u << block_num;
	/* As torus-2QoS: only on switch ports facing end ports. */
	if (p->node->type != OQ_NODE_SWITCH || !p->num || !peer ||
	    peer->node->type == OQ_NODE_SWITCH)
		return;
	for (i = first; i < first + n; i++)
		if (t->e[i].vl == 4)
			t->e[i].vl = 1;
}

static void test_live_engine_hooks(void **state)
{
	struct world *w = *state;
	struct oq_vlarb_scope *s = fx_vlarb_scope(w->p);
	struct fake fk = {0, 0, 0, w->f};
	const struct oq_port_tables *pt;
	struct oq_engine e;

	oq_engine_by_name(&e, "torus-2QoS");
	e.sl2vl = fake_sl2vl;
	e.vlarb = fake_vlarb;
	e.ctx = &fk;
	fx_ref(&s->groups, "switches", w->g_sw);
	fx_vlarb_set(&s->low, &s->n_low, &s->has_low, "0:8,1:8,4:8");
	compile(w, &e);
	assert_int_equal(w->d.n_errors, 0);
	pt = tables_of(w, &w->s1->ports[3]);
	assert_int_equal(pt->vlarb_low.e[2].vl, 4); /* not rewritten */
	assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_ENGINE);
	assert_int_equal(pt->sl2vl[2][8], 1);
	assert_int_equal(pt->sl2vl[2][7], 0);
	/* s1 and s2: 5 tables on each of 2 external ports, 1 on port 0;
	 * h1, h2: 1 each. */
	assert_int_equal(fk.sl2vl_calls, 2 * (2 * 5 + 1) + 2);
	/* h2 has 64-entry tables: blocks 0-3 (OpenSM writes 32 + 0: block 1
	 * and 3 only when cap % 32, so not for 64). */
	assert_int_equal(fk.blocks, 0x5);
	/* The engine's rewrite is in the tables of the switch port facing
	 * h1: 4:8 became 1:8 (and the scope stays: VLs 0 and 1 served). */
	pt = tables_of(w, &w->s1->ports[1]);
	assert_int_equal(pt->vlarb_origin, OQ_ORIGIN_SCOPE);
	assert_int_equal(pt->vlarb_low.e[2].vl, 1);
	assert_int_equal(pt->vlarb_low.e[2].weight, 8);
	/* Weighting VL 0 only starves VL 1 on every switch port (enhanced
	 * port 0 included): withheld, and the template gets the engine's
	 * rewrite again where it applies. */
	fx_vlarb_set(&s->low, &s->n_low, &s->has_low, "0:8");
	fx_vlarb_set(&s->high, &s->n_high, &s->has_high, "0:8");
	compile(w, &e);
	assert_non_null(
		strstr(only_error(w)->msg, "would starve VL 1 on 6 port(s)"));
	pt = tables_of(w, &w->s1->ports[1]);
	assert_int_equal(pt->vlarb_origin, OQ_ORIGIN_TEMPLATE);
	assert_int_equal(pt->vlarb_low.e[4].vl, 1); /* template 4:4 -> 1:4 */
	pt = tables_of(w, &w->s1->ports[3]);
	assert_int_equal(pt->vlarb_low.e[4].vl, 4); /* not facing a CA */
}

/* torus-2QoS offline: CA links carry SL bit 3, switch links are the
 * engine's (unknown); switch ports facing CAs get the VLArb rewrite. */
static void test_offline_torus(void **state)
{
	struct world *w = *state;
	const struct oq_port_tables *pt;
	struct oq_engine e;

	oq_engine_by_name(&e, "torus-2QoS");
	compile(w, &e);
	pt = tables_of(w, &w->h1->ports[1]);
	assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_ENGINE);
	assert_int_equal(pt->sl2vl[0][7], 0);
	assert_int_equal(pt->sl2vl[0][8], 1);
	pt = tables_of(w, &w->s1->ports[1]); /* faces h1 */
	assert_true(pt->has_sl2vl);
	assert_int_equal(pt->sl2vl[3][9], 1);
	/* Template low 0:0,1:4,2:4,...: VL 0 kept, VL 4 -> 1, rest zeroed
	 * and compressed. */
	assert_int_equal(pt->vlarb_low.e[0].vl, 0);
	assert_int_equal(pt->vlarb_low.e[1].vl, 1);
	assert_int_equal(pt->vlarb_low.e[1].weight, 4);
	assert_int_equal(pt->vlarb_low.e[2].weight, 0);
	pt = tables_of(w, &w->s1->ports[3]); /* to s2 */
	assert_false(pt->has_sl2vl);
	assert_true(pt->sl2vl_unknown);
	assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_ENGINE);
	assert_int_equal(pt->vlarb_low.e[2].vl, 2); /* not rewritten */
	/* VLArb on VLs 0-3 over the switches: the unknown tables between
	 * switches may use any of 8 VLs (VL 4 starves), and on ports facing
	 * CAs the rewrite leaves VL 0 only (VL 1 starves); port 0 keeps
	 * it (VLs 0 and 1). */
	{
		struct oq_vlarb_scope *s = fx_vlarb_scope(w->p);

		fx_ref(&s->groups, "switches", w->g_sw);
		fx_vlarb_set(&s->low, &s->n_low, &s->has_low,
			     "0:8,1:8,2:8,3:8");
		fx_vlarb_set(&s->high, &s->n_high, &s->has_high, "0:0");
		compile(w, &e);
		assert_non_null(strstr(only_error(w)->msg,
				       "would starve VLs 1, 4, 5, 6 and 7 on "
				       "4 port(s)"));
		assert_int_equal(tables_of(w, &w->s1->ports[1])->vlarb_origin,
				 OQ_ORIGIN_TEMPLATE);
		assert_int_equal(tables_of(w, &w->s1->ports[3])->vlarb_origin,
				 OQ_ORIGIN_TEMPLATE);
		assert_int_equal(tables_of(w, &w->s1->ports[0])->vlarb_origin,
				 OQ_ORIGIN_SCOPE);
	}
}

/* A port whose SL2VL the engine sets unseen (torus-2QoS between
 * switches) is guaranteed nothing the model could prove: its shares and
 * waits are unknown, and so is a path's through it, whatever the other
 * hops give; a port with known tables keeps its figures. */
static void test_offline_torus_guarantee_unknown(void **state)
{
	struct world *w = *state;
	struct oq_guarantee_opts o;
	struct oq_port_guarantee g;
	struct oq_hop_guarantee h[2];
	struct oq_path_guarantee pg;
	struct oq_engine e;
	unsigned int s;

	oq_engine_by_name(&e, "torus-2QoS");
	compile(w, &e);
	oq_guarantee_opts_init(&o);
	assert_int_equal(
		oq_port_guarantee(w->f, tables_of(w, &w->s1->ports[3]), &o, &g),
		0);
	assert_true(g.unknown);
	for (s = 0; s < 16; s++) {
		assert_int_equal(g.share[s].num, 0);
		assert_true(g.wait[s] == OQ_WAIT_UNBOUNDED);
	}
	assert_int_equal(
		oq_port_guarantee(w->f, tables_of(w, &w->h1->ports[1]), &o, &g),
		0);
	assert_false(g.unknown);
	assert_true(g.share[0].num > 0);
	assert_int_equal(
		oq_port_hop(w->f, tables_of(w, &w->h1->ports[1]), 0, 1, &h[0]),
		0);
	assert_int_equal(
		oq_port_hop(w->f, tables_of(w, &w->s1->ports[3]), 1, 1, &h[1]),
		0);
	assert_false(h[0].unknown);
	assert_true(h[0].gbps > 0 && h[0].wait_us >= 0);
	assert_true(h[1].unknown);
	memset(&pg, 0, sizeof(pg));
	oq_path_guarantee_add(&pg, &h[0]);
	assert_false(pg.unknown);
	oq_path_guarantee_add(&pg, &h[1]);
	assert_true(pg.unknown);
	assert_true(pg.wait_us < 0);
	assert_int_equal(pg.n_hops, 2);
	/* An unknown hop first: the known one still sets gbps. */
	memset(&pg, 0, sizeof(pg));
	oq_path_guarantee_add(&pg, &h[1]);
	oq_path_guarantee_add(&pg, &h[0]);
	assert_true(pg.unknown && pg.wait_us < 0);
	assert_true(pg.gbps == h[0].gbps && pg.bottleneck == 1);
}

/* OpenSM hands torus-2QoS the unmasked template and masks after its
 * rewrite: on a 4-VL switch port facing a CA, template 4:4 becomes 1:4
 * (VL 1 carries QoS level 1 there), not 0:4 masked first. */
static void test_torus_rewrite_before_mask(void **state)
{
	struct world *w = *state;
	const struct oq_port_tables *pt;
	struct oq_engine e;

	w->s1->ports[1].vl_cap = w->s1->ports[1].oper_vls = 4;
	oq_engine_by_name(&e, "torus-2QoS");
	compile(w, &e);
	pt = tables_of(w, &w->s1->ports[1]);
	assert_int_equal(pt->vlarb_low.e[0].vl, 0);
	assert_int_equal(pt->vlarb_low.e[0].weight, 0);
	assert_int_equal(pt->vlarb_low.e[1].vl, 1);
	assert_int_equal(pt->vlarb_low.e[1].weight, 4);
	assert_int_equal(pt->vlarb_low.e[2].weight, 0);
	assert_int_equal(w->d.n_warnings, 0); /* nothing starves */
	/* Without an engine the template is masked as OpenSM masks it:
	 * VL 5 becomes VL 1 on this 4-VL port. */
	compile(w, NULL);
	assert_int_equal(tables_of(w, &w->s1->ports[1])->vlarb_low.e[5].vl, 1);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_engine_names),
		T(test_guard_withholds_starving_scope),
		T(test_guard_reads_every_live_input),
		T(test_guard_quiet_when_weighted),
		T(test_guard_withholds_sl2vl_scope),
		T(test_guard_withholds_least),
		T(test_guard_templates_starve_too),
		T(test_path_sl_engine),
		T(test_live_engine_hooks),
		T(test_offline_torus),
		T(test_offline_torus_guarantee_unknown),
		T(test_torus_rewrite_before_mask),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
