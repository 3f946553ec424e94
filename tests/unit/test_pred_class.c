// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: port classes (policy/model/pred_class.c).  On random
 * fabrics with random tables, every classified port's class prediction
 * equals the model run on the port itself, field by field, its guarantee
 * equals each SL's VL share with every reached VL busy (the least over
 * the port's own input rows, computed here from the arbiter), and every
 * hop equals the model's; a uniform fat tree has a handful
 * of classes whatever its size; the JSON lists every port exactly once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/model.h>
#include <osmqos/port_class.h>
#include <osmqos/pred_class.h>

#include "match_fixture.h"

static void assert_pred_equal(const struct oq_port_pred *a,
			      const struct oq_port_pred *b)
{
	unsigned int s, v;

	assert_true(a->rate_gbps == b->rate_gbps);
	assert_int_equal(a->mtu_bytes, b->mtu_bytes);
	assert_int_equal(a->profile_applied, b->profile_applied);
	assert_int_equal(a->arb.approx, b->arb.approx);
	assert_int_equal(a->arb.cycle_bytes, b->arb.cycle_bytes);
	for (v = 0; v < OQ_MAX_VLS; v++)
		assert_int_equal(oq_frac_cmp(a->arb.share[v], b->arb.share[v]),
				 0);
	for (s = 0; s < 16; s++) {
		const struct oq_sl_pred *x = &a->sl[s], *y = &b->sl[s];

		assert_int_equal(x->vl, y->vl);
		assert_int_equal(x->vls, y->vls);
		assert_int_equal(x->prio, y->prio);
		assert_int_equal(x->active, y->active);
		assert_int_equal(x->starve, y->starve);
		assert_int_equal(oq_frac_cmp(x->share, y->share), 0);
		assert_true(x->gbps == y->gbps);
	}
}

/* Input ports whose view the guaranteed minimum is taken over. */
static bool counts(const struct oq_fabric *f, const struct oq_port *eg,
		   unsigned int in)
{
	const struct oq_node *n = eg->node;

	if (in == eg->num)
		return false;
	return in == 0 || (in <= n->n_ports && n->ports[in].present &&
			   oq_port_peer(f, &n->ports[in]));
}

static void random_vlarb(uint64_t *seed, struct oq_vlarb_table *t)
{
	unsigned int i;

	t->n = (uint8_t)fx_below(seed, 5);
	for (i = 0; i < t->n; i++) {
		t->e[i].vl = (uint8_t)fx_below(seed, 4);
		t->e[i].weight = (uint8_t)fx_below(seed, 3) * 32;
	}
}

/* Random tables drawn from a few choices, so classes repeat. */
static void randomize(uint64_t *seed, struct oq_fabric_tables *ft)
{
	static const uint8_t rows[3][16] = {
		{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3},
		{0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 2, 2, 3, 15},
		{1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 3, 2, 1, 0, 3, 2},
	};
	size_t i;
	unsigned int r;

	for (i = 0; i < ft->n; i++) {
		struct oq_port_tables *t = &ft->ports[i];
		union oq_sl2vl_scratch sc;

		if (fx_below(seed, 3) == 0)
			t->vl_high_limit = (uint8_t)fx_below(seed, 3) * 127;
		if (fx_below(seed, 4) == 0) {
			random_vlarb(seed, &t->vlarb_high);
			random_vlarb(seed, &t->vlarb_low);
		}
		if (!t->sl2vl || fx_below(seed, 2))
			continue;
		for (r = 0; r < t->n_sl2vl; r++)
			memcpy(sc.row[r], rows[fx_below(seed, 3)], 16);
		assert_int_equal(oq_port_tables_set_sl2vl(
					 ft, t, (const uint8_t(*)[16])sc.row,
					 t->n_sl2vl),
				 0);
	}
}

/* Switches in a ring with CAs hanging off them; random speeds/MTUs. */
static struct oq_fabric *random_fabric(uint64_t *seed)
{
	static const enum oq_speed speeds[] = {OQ_SPEED_QDR, OQ_SPEED_FDR,
					       OQ_SPEED_EDR};
	struct oq_fabric *f = oq_fabric_new();
	unsigned int n_sw = 2 + (unsigned int)fx_below(seed, 4), s, c, k;
	struct oq_node *sw[6];
	char name[32];

	for (s = 0; s < n_sw; s++) {
		snprintf(name, sizeof(name), "sw%u", s);
		sw[s] = fx_switch(f, 0x1000 + s * 0x10, name, 8,
				  (uint16_t)(1 + s));
	}
	for (s = 0; s < n_sw; s++)
		oq_fabric_link(&sw[s]->ports[1], &sw[(s + 1) % n_sw]->ports[2]);
	for (s = 0; s < n_sw; s++) {
		unsigned int n_ca = 1 + (unsigned int)fx_below(seed, 5);

		for (c = 0; c < n_ca; c++) {
			struct oq_node *ca;

			snprintf(name, sizeof(name), "h%u-%u", s, c);
			ca = fx_ca(f, 0x100000 + s * 0x100 + c * 4, name, 1,
				   (uint16_t)(100 + s * 10 + c));
			k = (unsigned int)fx_below(seed, 3);
			ca->ports[1].speed = speeds[k];
			ca->ports[1].mtu_cap = (uint8_t)(3 + fx_below(seed, 3));
			oq_fabric_link(&ca->ports[1], &sw[s]->ports[3 + c]);
			sw[s]->ports[3 + c].speed = speeds[k];
		}
	}
	assert_int_equal(oq_fabric_finalize(f, NULL), 0);
	return f;
}

/* The guarantee the classes must publish, from the arbiter directly:
 * every VL some counted input row reaches backlogged, each SL the least
 * share over the VLs its rows send it to (0 where one drops it). */
static void direct_guarantee(const struct oq_fabric *f, const struct oq_port *p,
			     const struct oq_port_tables *t,
			     struct oq_frac share[16])
{
	static const struct oq_vlarb_table vl0 = {.e = {{0, 255}}, .n = 1};
	uint8_t rows[256][16];
	size_t n = 0, r;
	uint16_t busy = 0;
	struct oq_arb_config cfg;
	struct oq_arb_result res;
	unsigned int s, in;

	for (in = 0; t->has_sl2vl && in < t->n_sl2vl; in++)
		if (t->n_sl2vl == 1 || counts(f, p, in))
			memcpy(rows[n++], t->sl2vl[in], 16);
	if (!t->has_sl2vl || !t->n_sl2vl) {
		memset(rows[0], 0, 16);
		n = 1;
	}
	for (r = 0; r < n; r++)
		for (s = 0; s < 16; s++)
			if (rows[r][s] < 15)
				busy |= (uint16_t)(1u
						   << (t->has_vlarb ? rows[r][s]
								    : 0));
	if (t->has_vlarb)
		oq_arb_config_init(&cfg, &t->vlarb_high, &t->vlarb_low,
				   t->vl_high_limit, oq_port_mtu_bytes(f, p));
	else
		oq_arb_config_init(&cfg, NULL, &vl0, 0,
				   oq_port_mtu_bytes(f, p));
	cfg.backlog = busy;
	assert_int_equal(oq_arb_run(&cfg, &res), 0);
	for (s = 0; s < 16; s++) {
		share[s] = oq_frac_make(1, 1);
		for (r = 0; r < n; r++) {
			unsigned int v = rows[r][s];
			struct oq_frac x;

			if (v < 15 && !t->has_vlarb)
				v = 0;
			x = v < 15 ? res.share[v] : oq_frac_make(0, 1);
			if (oq_frac_cmp(x, share[s]) < 0)
				share[s] = x;
		}
	}
}

/* SLs some counted input row of the port sends to VL15 or beyond. */
static uint16_t direct_drops(const struct oq_fabric *f, const struct oq_port *p,
			     const struct oq_port_tables *t)
{
	uint16_t m = 0;
	unsigned int s, in;

	for (in = 0; t->has_sl2vl && in < t->n_sl2vl; in++)
		if (t->n_sl2vl == 1 || counts(f, p, in))
			for (s = 0; s < 16; s++)
				if (t->sl2vl[in][s] >= 15)
					m |= (uint16_t)(1u << s);
	return m;
}

/* SLs seen dropped from some inputs of a port and carried from others. */
static size_t partly_dropped_seen;

/* What the published files say of each SL of port p's class k: the VL
 * (mixed where some input drops the SL and others carry it), the drop,
 * and a ceiling (the SL alone on the link) never below what the SL is
 * predicted or guaranteed. */
static void check_sl_summary(const struct oq_fabric *f, const struct oq_port *p,
			     const struct oq_port_tables *t,
			     const struct oq_pred_class *k,
			     const struct oq_port_pred *direct)
{
	uint16_t drops = direct_drops(f, p, t);
	unsigned int s;

	assert_int_equal(k->guar.dropped, drops);
	for (s = 0; s < 16; s++) {
		const struct oq_sl_pred *sp = &direct->sl[s];
		double top =
			oq_frac_double(k->guar.ceiling[s]) * direct->rate_gbps;
		int want = sp->vl;

		if ((drops & (1u << s)) && sp->vls) {
			want = OQ_VL_MIXED;
			partly_dropped_seen++;
		}
		assert_int_equal(oq_pred_class_sl_vl(k, s), want);
		assert_true(sp->gbps <= top * (1 + 1e-12));
		assert_true(k->guaranteed_gbps[s] <= top * (1 + 1e-12));
		/* Zero only where no input sends it to a served VL. */
		if (sp->gbps > 0)
			assert_true(top == direct->rate_gbps);
	}
}

/* The model run on one port, for all its hops. */
struct direct_port_hops {
	struct oq_port_guarantee g;
	double rate_gbps;
	bool checked;
};

static void direct_hops(const struct oq_fabric *f,
			const struct oq_port_tables *t,
			struct direct_port_hops *h)
{
	struct oq_guarantee_opts o;

	oq_guarantee_opts_init(&o);
	o.wait_states = OQ_PRED_WAIT_STATES;
	assert_int_equal(oq_port_guarantee(f, t, &o, &h->g), 0);
	h->rate_gbps = oq_port_data_gbps(t->port);
	h->checked = false;
}

static void assert_hop_is_port_hop(const struct oq_fabric *f,
				   const struct oq_port_tables *t, int in,
				   uint8_t sl, const struct oq_hop_guarantee *b)
{
	struct oq_hop_guarantee h;

	assert_int_equal(oq_port_hop(f, t, in, sl, &h), 0);
	assert_int_equal(h.vl, b->vl);
	assert_true(h.gbps == b->gbps);
	assert_true(h.wait == b->wait);
	assert_int_equal(h.shared_with, b->shared_with);
}

static void check_fabric(const struct oq_fabric *f,
			 const struct oq_fabric_tables *ft)
{
	struct direct_port_hops hops;
	struct oq_predict_opts o;
	struct oq_pred_classes c;
	struct oq_port_pred direct;
	size_t i, classified = 0;
	unsigned int s, in;

	oq_predict_opts_init(&o);
	assert_int_equal(oq_pred_classes_build(f, ft, &o, NULL, &c), 0);
	assert_int_equal(c.n_bad, 0);
	for (i = 0; i < f->n_ports; i++) {
		const struct oq_port *p = f->ports[i];
		const struct oq_port_tables *t = &ft->ports[i];
		const struct oq_pred_class *k = oq_pred_class_of(&c, i);
		struct oq_frac g[16];

		if (!oq_pred_modeled(f, p)) {
			assert_null(k);
			continue;
		}
		assert_non_null(k);
		classified++;
		assert_int_equal(oq_predict_port(f, t, -1.0, &o, &direct), 0);
		assert_pred_equal(&k->pred, &direct);
		check_sl_summary(f, p, t, k, &direct);
		direct_guarantee(f, p, t, g);
		for (s = 0; s < 16; s++) {
			assert_int_equal(oq_frac_cmp(k->guar.share[s], g[s]),
					 0);
			assert_true(k->guaranteed_gbps[s] ==
				    oq_frac_double(g[s]) * direct.rate_gbps);
		}
		/* Each hop: the SL's VL under that input's row, that VL's
		 * share and wait, as the model run on the port says.  The
		 * port's model is run once (a hop is its guarantee read at
		 * one VL), and checked against oq_port_hop at one hop. */
		direct_hops(f, t, &hops);
		for (in = 0; in < t->n_sl2vl; in++) {
			struct oq_hop_guarantee a, b;

			if (t->n_sl2vl > 1 && !counts(f, p, in))
				continue;
			for (s = 0; s < 16; s++) {
				assert_int_equal(
					oq_pred_classes_hop(&c, ft, i, (int)in,
							    (uint8_t)s, &a),
					0);
				assert_int_equal(
					oq_hop_from_guarantee(
						t, &hops.g, hops.rate_gbps,
						(int)in, (uint8_t)s, &b),
					0);
				if (!hops.checked) {
					assert_hop_is_port_hop(f, t, (int)in,
							       (uint8_t)s, &b);
					hops.checked = true;
				}
				assert_int_equal(a.vl, b.vl);
				assert_true(a.gbps == b.gbps);
				assert_true(a.wait == b.wait);
				assert_int_equal(a.shared_with, b.shared_with);
				if (a.vl >= 0)
					assert_int_equal(
						a.vl,
						t->sl2vl[in][s] < 15 &&
								t->has_vlarb
							? t->sl2vl[in][s]
							: 0);
			}
		}
	}
	assert_int_equal(c.n_classified, classified);
	for (i = 0; i < c.n; i++)
		classified -= c.v[i].n_ports;
	assert_int_equal(classified, 0);
	oq_pred_classes_free(&c);
}

static void test_classes_equal_the_model(void **state)
{
	uint64_t seed = 0x5eed1234abcdull;
	struct oq_templates tpl;
	int round;

	(void)state;
	oq_templates_default(&tpl);
	for (round = 0; round < 200; round++) {
		struct oq_fabric *f = random_fabric(&seed);
		struct oq_fabric_tables ft;

		assert_int_equal(oq_tables_compile(NULL, f, &tpl, &ft, NULL),
				 0);
		randomize(&seed, &ft);
		check_fabric(f, &ft);
		oq_fabric_tables_free(&ft);
		oq_fabric_free(f);
	}
	/* The random rows drop SL 15 from some inputs only, often. */
	assert_true(partly_dropped_seen > 0);
}

/* A two-level fat tree with uniform tables: classes do not grow with
 * its size. */
static size_t fat_tree_classes(unsigned int leaves, unsigned int hpl)
{
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *spine[2], *leaf;
	struct oq_templates tpl;
	struct oq_fabric_tables ft;
	struct oq_predict_opts o;
	struct oq_pred_classes c;
	unsigned int l, h;
	size_t n;
	char name[32];

	spine[0] = fx_switch(f, 0x10, "s0", (uint8_t)leaves, 1);
	spine[1] = fx_switch(f, 0x20, "s1", (uint8_t)leaves, 2);
	for (l = 0; l < leaves; l++) {
		snprintf(name, sizeof(name), "l%u", l);
		leaf = fx_switch(f, 0x1000 + l * 0x10, name, hpl + 2,
				 (uint16_t)(10 + l));
		oq_fabric_link(&leaf->ports[hpl + 1], &spine[0]->ports[l + 1]);
		oq_fabric_link(&leaf->ports[hpl + 2], &spine[1]->ports[l + 1]);
		for (h = 0; h < hpl; h++) {
			struct oq_node *ca;

			snprintf(name, sizeof(name), "h%u-%u", l, h);
			ca = fx_ca(f, 0x100000 + (l * 64 + h) * 4, name, 1,
				   (uint16_t)(1000 + l * 64 + h));
			oq_fabric_link(&ca->ports[1], &leaf->ports[h + 1]);
		}
	}
	assert_int_equal(oq_fabric_finalize(f, NULL), 0);
	oq_templates_default(&tpl);
	assert_int_equal(oq_tables_compile(NULL, f, &tpl, &ft, NULL), 0);
	oq_predict_opts_init(&o);
	assert_int_equal(oq_pred_classes_build(f, &ft, &o, NULL, &c), 0);
	assert_int_equal(c.n_classified, 2 * leaves * hpl + 4 * leaves);
	n = c.n;
	check_fabric(f, &ft);
	oq_pred_classes_free(&c);
	oq_fabric_tables_free(&ft);
	oq_fabric_free(f);
	return n;
}

static void test_fat_tree_classes_flat(void **state)
{
	size_t small = fat_tree_classes(4, 4), big = fat_tree_classes(32, 30);

	(void)state;
	assert_true(small <= 4);
	assert_int_equal(small, big);
}

/* A switch egress is classed by the rows of the inputs that feed it: one
 * whose rows are all alike shares its class with one whose only other
 * row is its own input's or an absent port's, not with one that a linked
 * input maps otherwise.  The rows drop SL 15 (VL15). */
static void test_uniform_rows_class_with_equal_inputs(void **state)
{
	static const uint8_t r[16] = {0, 1, 2, 3, 4, 5, 6, 7,
				      7, 7, 7, 7, 7, 7, 7, 15};
	static const uint8_t s[16] = {1, 1, 1, 1, 1, 1, 1, 1,
				      0, 0, 0, 0, 0, 0, 0, 0};
	/* Per switch port 1-4: the input whose row is s, 0 for none. */
	static const unsigned int other[5] = {0, 0, 2, 7, 1};
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *sw = fx_switch(f, 0x10, "sw", 8, 1), *ca;
	struct oq_templates tpl;
	struct oq_fabric_tables ft;
	struct oq_predict_opts o;
	struct oq_pred_classes c;
	const struct oq_pred_class *k[5];
	unsigned int i, in;
	char name[16];

	(void)state;
	for (i = 1; i <= 4; i++) {
		snprintf(name, sizeof(name), "h%u", i);
		ca = fx_ca(f, 0x100 * i, name, 1, (uint16_t)(10 + i));
		oq_fabric_link(&ca->ports[1], &sw->ports[i]);
	}
	sw->ports[5].present = true; /* down */
	assert_int_equal(oq_fabric_finalize(f, NULL), 0);
	oq_templates_default(&tpl);
	assert_int_equal(oq_tables_compile(NULL, f, &tpl, &ft, NULL), 0);
	for (i = 1; i <= 4; i++) {
		struct oq_port_tables *t =
			&ft.ports[oq_port_index(f, &sw->ports[i])];
		union oq_sl2vl_scratch sc;

		assert_int_equal(t->n_sl2vl, 9);
		for (in = 0; in < 9; in++)
			memcpy(sc.row[in], in == other[i] && in ? s : r, 16);
		assert_int_equal(
			oq_port_tables_set_sl2vl(
				&ft, t, (const uint8_t(*)[16])sc.row, 9),
			0);
	}
	oq_predict_opts_init(&o);
	assert_int_equal(oq_pred_classes_build(f, &ft, &o, NULL, &c), 0);
	for (i = 1; i <= 4; i++) {
		k[i] = oq_pred_class_of(&c, oq_port_index(f, &sw->ports[i]));
		assert_non_null(k[i]);
	}
	assert_ptr_equal(k[1], k[2]);
	assert_ptr_equal(k[1], k[3]);
	assert_ptr_not_equal(k[1], k[4]);
	assert_int_equal(k[1]->pred.sl[15].vls, 0);
	check_fabric(f, &ft);
	oq_pred_classes_free(&c);
	oq_fabric_tables_free(&ft);
	oq_fabric_free(f);
}

struct by_guid {
	uint64_t guid;
	unsigned int num;
	size_t idx;
};

static int by_guid_cmp(const void *a, const void *b)
{
	const struct by_guid *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Every modelled port is classified, and classes are numbered as their
 * first port comes by node GUID, port number and fabric index, that port
 * the class's example. */
static void check_numbering(const struct oq_fabric *f,
			    const struct oq_pred_classes *c)
{
	struct by_guid *v = calloc(f->n_ports, sizeof(*v));
	size_t i;
	uint32_t next = 0;

	assert_non_null(v);
	for (i = 0; i < f->n_ports; i++) {
		v[i].guid = f->ports[i]->node->guid;
		v[i].num = f->ports[i]->num;
		v[i].idx = i;
	}
	qsort(v, f->n_ports, sizeof(*v), by_guid_cmp);
	for (i = 0; i < f->n_ports; i++) {
		uint32_t k = c->of_port[v[i].idx];

		if (k == OQ_PRED_CLASS_NONE) {
			assert_false(oq_pred_modeled(f, f->ports[v[i].idx]));
			continue;
		}
		assert_true(k <= next);
		if (k == next) {
			assert_int_equal(c->v[k].rep, v[i].idx);
			next++;
		}
	}
	assert_int_equal(next, c->n);
	free(v);
}

/* Nodes in no GUID order, CAs of two ports, some sharing a GUID (the
 * fabric is wrong, its classes still numbered alike however its nodes
 * come). */
static void test_classes_numbered_by_guid(void **state)
{
	uint64_t seed = 0xc1a55e5ull;
	struct oq_templates tpl;
	int round;

	(void)state;
	oq_templates_default(&tpl);
	for (round = 0; round < 50; round++) {
		struct oq_fabric *f = oq_fabric_new();
		unsigned int n_sw = 2 + (unsigned int)fx_below(&seed, 3), s, c;
		struct oq_node *sw[4], *ca;
		struct oq_fabric_tables ft;
		struct oq_predict_opts o;
		struct oq_pred_classes cl;
		uint64_t guid;
		char name[32];

		for (s = 0; s < n_sw; s++) {
			snprintf(name, sizeof(name), "sw%u", s);
			sw[s] = fx_switch(
				f, 0x9000 - s * 0x10 - fx_below(&seed, 8), name,
				8, (uint16_t)(1 + s));
		}
		for (s = 0; s + 1 < n_sw; s++)
			oq_fabric_link(&sw[s]->ports[1], &sw[s + 1]->ports[2]);
		for (s = 0; s < n_sw; s++)
			for (c = 0; c < 3; c++) {
				guid = fx_below(&seed, 4) == 0
					       ? 0x500
					       : 0x100 * fx_below(&seed, 64);
				snprintf(name, sizeof(name), "h%u-%u", s, c);
				ca = fx_ca(f, guid, name, 2,
					   (uint16_t)(100 + s * 10 + 2 * c));
				oq_fabric_link(&ca->ports[1],
					       &sw[s]->ports[3 + 2 * c]);
				oq_fabric_link(&ca->ports[2],
					       &sw[s]->ports[4 + 2 * c]);
			}
		assert_int_equal(oq_fabric_finalize(f, NULL), 0);
		if (round % 10 == 9) {
			/* A port list out of step with the nodes' ports. */
			struct oq_port *x = f->ports[0];

			f->ports[0] = f->ports[f->n_ports - 1];
			f->ports[f->n_ports - 1] = x;
		}
		assert_int_equal(oq_tables_compile(NULL, f, &tpl, &ft, NULL),
				 0);
		randomize(&seed, &ft);
		oq_predict_opts_init(&o);
		assert_int_equal(oq_pred_classes_build(f, &ft, &o, NULL, &cl),
				 0);
		check_numbering(f, &cl);
		oq_pred_classes_free(&cl);
		oq_fabric_tables_free(&ft);
		oq_fabric_free(f);
	}
}

/* Key k built from s (len bytes), looked up: 1 new (given value v),
 * else 0 with its value. */
static int key_find(struct oq_class_keys *k, const char *s, size_t len,
		    uint32_t v, uint32_t *val)
{
	int rc;

	oq_class_key_start(k);
	oq_class_key_put(k, s, len);
	rc = oq_class_key_find(k, val);
	if (rc == 1)
		oq_class_key_set(k, v);
	return rc;
}

/* The class keys: each distinct key once, its value found again however
 * the keys before it went (the same key, a longer one, another). */
static void test_class_keys(void **state)
{
	struct oq_class_keys k = {0};
	uint32_t v = 0;

	(void)state;
	assert_int_equal(key_find(&k, "abc", 3, 10, &v), 1);
	assert_int_equal(key_find(&k, "abc", 3, 0, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(key_find(&k, "abd", 3, 11, &v), 1);
	assert_int_equal(key_find(&k, "abc", 3, 0, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(key_find(&k, "ab", 2, 12, &v), 1);
	assert_int_equal(key_find(&k, "ab", 2, 0, &v), 0);
	assert_int_equal(v, 12);
	assert_int_equal(key_find(&k, "abc", 3, 0, &v), 0);
	assert_int_equal(v, 10);
	assert_int_equal(key_find(&k, "", 0, 13, &v), 1);
	assert_int_equal(key_find(&k, "", 0, 0, &v), 0);
	assert_int_equal(v, 13);
	assert_int_equal(key_find(&k, "abd", 3, 0, &v), 0);
	assert_int_equal(v, 11);
	assert_int_equal(oq_intern_count(&k.keys), 4);
	oq_class_keys_free(&k);
}

/* The classes' JSON (malloc'd, *len bytes). */
static char *classes_json(const struct oq_fabric *f,
			  const struct oq_fabric_tables *ft,
			  const struct oq_pred_classes *c, size_t *len)
{
	char *buf = NULL;
	FILE *out = open_memstream(&buf, len);

	assert_non_null(out);
	assert_int_equal(oq_pred_classes_write_json(out, f, ft, c), 0);
	assert_int_equal(fclose(out), 0);
	return buf;
}

/* Every classified port appears once in "nodes", with its class. */
static void test_json_lists_every_port_once(void **state)
{
	uint64_t seed = 42;
	struct oq_fabric *f = random_fabric(&seed);
	struct oq_templates tpl;
	struct oq_fabric_tables ft;
	struct oq_predict_opts o;
	struct oq_pred_classes c;
	char *buf, *p;
	size_t len = 0, refs = 0;

	(void)state;
	oq_templates_default(&tpl);
	assert_int_equal(oq_tables_compile(NULL, f, &tpl, &ft, NULL), 0);
	oq_predict_opts_init(&o);
	assert_int_equal(oq_pred_classes_build(f, &ft, &o, NULL, &c), 0);
	buf = classes_json(f, &ft, &c, &len);
	for (p = buf; (p = strstr(p, "\"lmc\": ")); p++)
		refs++;
	assert_int_equal(refs, c.n_classified);
	refs = 0;
	for (p = buf; (p = strstr(p, "{\"class\": ")); p++)
		refs++;
	assert_int_equal(refs, c.n);
	free(buf);
	oq_pred_classes_free(&c);
	oq_fabric_tables_free(&ft);
	oq_fabric_free(f);
}

/* A copy of the classes writes the same JSON as the classes it is of, and
 * lives on after them. */
static void test_copy_writes_the_same(void **state)
{
	uint64_t seed = 7;
	struct oq_fabric *f = random_fabric(&seed);
	struct oq_templates tpl;
	struct oq_fabric_tables ft;
	struct oq_predict_opts o;
	struct oq_pred_classes c, copy;
	char *a, *b;
	size_t alen = 0, blen = 0;

	(void)state;
	oq_templates_default(&tpl);
	assert_int_equal(oq_tables_compile(NULL, f, &tpl, &ft, NULL), 0);
	oq_predict_opts_init(&o);
	assert_int_equal(oq_pred_classes_build(f, &ft, &o, NULL, &c), 0);
	assert_true(c.n > 1);
	assert_int_equal(oq_pred_classes_copy(&copy, &c), 0);
	assert_ptr_not_equal(copy.v, c.v);
	assert_ptr_not_equal(copy.of_port, c.of_port);
	a = classes_json(f, &ft, &c, &alen);
	oq_pred_classes_free(&c);
	b = classes_json(f, &ft, &copy, &blen);
	assert_int_equal(alen, blen);
	assert_memory_equal(a, b, alen);
	free(a);
	free(b);
	oq_pred_classes_free(&copy);
	oq_fabric_tables_free(&ft);
	oq_fabric_free(f);
}

/* A switch egress whose input from port 2 sends SL 3 to VL15 while the
 * others carry it on its VL, and whose every input drops SL 4: SL 3 is
 * dropped there (from that input), on no one VL, guaranteed nothing, and
 * alone on the link gets the whole link -- as much as or more than it is
 * predicted; SL 4 is dropped from every input and gets nothing.  The
 * class JSON (published file and `osmqos predict --json` alike) says so. */
static void test_sl_dropped_from_one_input(void **state)
{
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *sw = fx_switch(f, 0x100, "sw", 4, 1);
	struct oq_node *h[3];
	struct oq_templates tpl;
	struct oq_fabric_tables ft;
	struct oq_port_tables *t = NULL;
	struct oq_predict_opts o;
	struct oq_pred_classes c;
	const struct oq_pred_class *k;
	union oq_sl2vl_scratch sc;
	unsigned int i, in;
	size_t len = 0;
	char *buf, want[96];

	(void)state;
	for (i = 0; i < 3; i++) {
		snprintf(want, sizeof(want), "h%u", i);
		h[i] = fx_ca(f, 0x10 * (i + 1), want, 1, (uint16_t)(10 + i));
		oq_fabric_link(&h[i]->ports[1], &sw->ports[i + 1]);
	}
	assert_int_equal(oq_fabric_finalize(f, NULL), 0);
	oq_templates_default(&tpl);
	assert_int_equal(oq_tables_compile(NULL, f, &tpl, &ft, NULL), 0);
	for (i = 0; i < ft.n; i++)
		if (ft.ports[i].port == &sw->ports[1])
			t = &ft.ports[i];
	assert_non_null(t);
	memcpy(sc.row, t->sl2vl, 16 * (size_t)t->n_sl2vl);
	sc.row[2][3] = 15;
	for (in = 0; in < t->n_sl2vl; in++)
		sc.row[in][4] = 15;
	assert_int_equal(oq_port_tables_set_sl2vl(&ft, t,
						  (const uint8_t(*)[16])sc.row,
						  t->n_sl2vl),
			 0);
	oq_predict_opts_init(&o);
	assert_int_equal(oq_pred_classes_build(f, &ft, &o, NULL, &c), 0);
	k = oq_pred_class_of(&c, oq_port_index(f, &sw->ports[1]));
	assert_non_null(k);
	assert_int_equal(k->n_ports, 1);

	assert_true(k->pred.sl[3].vl >= 0); /* the all-inputs view */
	assert_true(k->pred.sl[3].gbps > 0);
	assert_int_equal(oq_pred_class_sl_vl(k, 3), OQ_VL_MIXED);
	assert_true(k->guar.dropped & (1u << 3));
	assert_true(k->guaranteed_gbps[3] == 0);
	assert_int_equal(oq_frac_cmp(k->guar.ceiling[3], oq_frac_make(1, 1)),
			 0);

	assert_int_equal(oq_pred_class_sl_vl(k, 4), OQ_VL_NONE);
	assert_true(k->guar.dropped & (1u << 4));
	assert_true(k->pred.sl[4].gbps == 0);
	assert_int_equal(oq_frac_cmp(k->guar.ceiling[4], oq_frac_make(0, 1)),
			 0);

	/* SL 5, carried on one VL from every input: as before. */
	assert_int_equal(oq_pred_class_sl_vl(k, 5), k->pred.sl[5].vl);
	assert_false(k->guar.dropped & (1u << 5));

	buf = classes_json(f, &ft, &c, &len);
	snprintf(want, sizeof(want), "{\"sl\": 3, \"vl\": null, \"vls\": [%d]",
		 __builtin_ctz(k->pred.sl[3].vls));
	assert_non_null(strstr(buf, want));
	assert_non_null(strstr(buf, "{\"sl\": 4, \"vl\": null, \"vls\": []"));
	assert_non_null(strstr(buf, "\"ceiling_gbps\": 32, \"latency_us\": "
				    "null, \"latency_is_bound\": false, "
				    "\"starve\": false, \"dropped\": true}"));
	free(buf);
	oq_pred_classes_free(&c);
	oq_fabric_tables_free(&ft);
	oq_fabric_free(f);
}

/* The one-port form (`osmqos predict --port`) classifies only that port,
 * linked or not; an input port out of range is refused and counted. */
static void test_only_and_bad_options(void **state)
{
	uint64_t seed = 7;
	struct oq_fabric *f = random_fabric(&seed);
	struct oq_templates tpl;
	struct oq_fabric_tables ft;
	struct oq_predict_opts o;
	struct oq_pred_classes c;
	const struct oq_port *sw0 = &f->nodes[0]->ports[0];

	(void)state;
	oq_templates_default(&tpl);
	assert_int_equal(oq_tables_compile(NULL, f, &tpl, &ft, NULL), 0);
	oq_predict_opts_init(&o);
	assert_int_equal(oq_pred_classes_build(f, &ft, &o, sw0, &c), 0);
	assert_int_equal(c.n_classified, 1);
	assert_non_null(oq_pred_class_of(&c, oq_port_index(f, sw0)));
	oq_pred_classes_free(&c);
	o.in_port = 200;
	assert_int_equal(oq_pred_classes_build(f, &ft, &o, NULL, &c), 0);
	assert_true(c.n_bad > 0);
	oq_pred_classes_free(&c);
	oq_fabric_tables_free(&ft);
	oq_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classes_equal_the_model),
		cmocka_unit_test(test_fat_tree_classes_flat),
		cmocka_unit_test(test_uniform_rows_class_with_equal_inputs),
		cmocka_unit_test(test_classes_numbered_by_guid),
		cmocka_unit_test(test_class_keys),
		cmocka_unit_test(test_json_lists_every_port_once),
		cmocka_unit_test(test_copy_writes_the_same),
		cmocka_unit_test(test_sl_dropped_from_one_input),
		cmocka_unit_test(test_only_and_bad_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
