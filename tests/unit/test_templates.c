// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: OpenSM QoS templates (defaults and opensm.conf). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/match.h>
#include <osmqos/model.h>
#include <osmqos/tables.h>

static int parse(struct oq_templates *t, const char *text,
		 struct oq_diags *d)
{
	return oq_templates_parse_opensm_conf(t, "opensm.conf", text,
					      strlen(text), d);
}

static bool has_diag(const struct oq_diags *d, enum oq_severity sev,
		     unsigned int line, const char *frag)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].sev == sev && d->v[i].loc.line == line &&
		    strstr(d->v[i].msg, frag))
			return true;
	return false;
}

static void check_default(const struct oq_qos_template *t)
{
	int i;

	assert_int_equal(t->max_vls, 15);
	assert_int_equal(t->high_limit, 0);
	assert_int_equal(t->vlarb_high.n, 15);
	assert_int_equal(t->vlarb_low.n, 15);
	assert_int_equal(t->vlarb_high.e[0].vl, 0);
	assert_int_equal(t->vlarb_high.e[0].weight, 4);
	assert_int_equal(t->vlarb_low.e[0].weight, 0);
	for (i = 1; i < 15; i++) {
		assert_int_equal(t->vlarb_high.e[i].vl, i);
		assert_int_equal(t->vlarb_high.e[i].weight, 0);
		assert_int_equal(t->vlarb_low.e[i].vl, i);
		assert_int_equal(t->vlarb_low.e[i].weight, 4);
	}
	for (i = 15; i < OQ_VLARB_MAX; i++)
		assert_int_equal(t->vlarb_low.e[i].weight, 0);
	for (i = 0; i < 15; i++)
		assert_int_equal(t->sl2vl[i], i);
	assert_int_equal(t->sl2vl[15], 7);
}

static void test_defaults(void **state)
{
	struct oq_templates t;
	int k;

	memset(&t, 0xaa, sizeof(t));
	oq_templates_default(&t);
	for (k = 0; k < OQ_KIND_MAX; k++)
		check_default(&t.t[k]);
}

static void test_fallback_chain(void **state)
{
	static const char text[] =
		"# OpenSM configuration\n"
		"qos TRUE\n"
		"qos_max_vls 8\n"
		"qos_high_limit 10\n"
		"qos_vlarb_high 0:64,1:32\n"
		"qos_vlarb_low (null)\n"
		"qos_sl2vl 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7\n"
		"qos_ca_max_vls 4\n"
		"qos_ca_high_limit -1\n"
		"qos_ca_vlarb_low \"0:8,1:8\"\n"
		"qos_swe_high_limit 255   # comment\n"
		"qos_sw0_sl2vl (null)\n"
		"qos_rtr_max_vls 0\n"
		"qos_policy_file /etc/opensm/qos-policy.conf\n";
	struct oq_templates t;
	struct oq_diags d;

	oq_diags_init(&d);
	assert_int_equal(parse(&t, text, &d), 0);
	assert_int_equal(d.n_errors + d.n_warnings, 0);
	/* CA: own max_vls and vlarb_low; generic limit and high table. */
	assert_int_equal(t.t[OQ_KIND_CA].max_vls, 4);
	assert_int_equal(t.t[OQ_KIND_CA].high_limit, 10);
	assert_int_equal(t.t[OQ_KIND_CA].vlarb_high.n, 2);
	assert_int_equal(t.t[OQ_KIND_CA].vlarb_high.e[0].weight, 64);
	assert_int_equal(t.t[OQ_KIND_CA].vlarb_high.e[1].vl, 1);
	assert_int_equal(t.t[OQ_KIND_CA].vlarb_low.n, 2);
	assert_int_equal(t.t[OQ_KIND_CA].vlarb_low.e[1].weight, 8);
	assert_int_equal(t.t[OQ_KIND_CA].sl2vl[8], 0);
	/* Switch external: own limit, the rest generic / default. */
	assert_int_equal(t.t[OQ_KIND_SWE].high_limit, 255);
	assert_int_equal(t.t[OQ_KIND_SWE].max_vls, 8);
	assert_int_equal(t.t[OQ_KIND_SWE].vlarb_low.n, 15);
	assert_int_equal(t.t[OQ_KIND_SWE].vlarb_low.e[3].weight, 4);
	/* "(null)" per type falls back to the generic one. */
	assert_int_equal(t.t[OQ_KIND_SW0].sl2vl[15], 7);
	assert_int_equal(t.t[OQ_KIND_SW0].sl2vl[9], 1);
	assert_int_equal(t.t[OQ_KIND_RTR].max_vls, 8);
	oq_diags_free(&d);
}

static void test_lenient_tables(void **state)
{
	/* parse_vlarb_entry(): VL modulo 15, weight truncated to 8 bits,
	 * one bad character skipped; missing entries are (0, 0). */
	static const char text[] = "qos_vlarb_high 16:300,x,2:5\n"
				   "qos_sl2vl 1,17,2\n";
	struct oq_templates t;
	struct oq_diags d;

	oq_diags_init(&d);
	assert_int_equal(parse(&t, text, &d), 0);
	assert_int_equal(t.t[OQ_KIND_CA].vlarb_high.e[0].vl, 1);
	assert_int_equal(t.t[OQ_KIND_CA].vlarb_high.e[0].weight, 300 & 0xff);
	/* "x," reads as VL 0 (skip 'x'), weight 0 (skip ','). */
	assert_int_equal(t.t[OQ_KIND_CA].vlarb_high.e[1].vl, 0);
	assert_int_equal(t.t[OQ_KIND_CA].vlarb_high.e[1].weight, 0);
	assert_int_equal(t.t[OQ_KIND_CA].vlarb_high.e[2].vl, 2);
	assert_int_equal(t.t[OQ_KIND_CA].vlarb_high.e[2].weight, 5);
	assert_int_equal(t.t[OQ_KIND_CA].vlarb_high.n, 3);
	assert_int_equal(t.t[OQ_KIND_CA].sl2vl[0], 1);
	assert_int_equal(t.t[OQ_KIND_CA].sl2vl[1], 1); /* 17 & 0xf */
	assert_int_equal(t.t[OQ_KIND_CA].sl2vl[2], 2);
	assert_int_equal(t.t[OQ_KIND_CA].sl2vl[3], 0);
	assert_true(has_diag(&d, OQ_SEV_WARNING, 1, "out of range 0..14"));
	assert_true(has_diag(&d, OQ_SEV_WARNING, 1, "not VL:WEIGHT"));
	assert_true(has_diag(&d, OQ_SEV_WARNING, 2, "3 VLs listed"));
	oq_diags_free(&d);
}

static void test_bad_values(void **state)
{
	static const char text[] = "qos_max_vls many\n"
				   "qos_ca_max_vls 16\n"
				   "qos_sw0_high_limit 300\n"
				   "qos_ca_sl2v1 1,2\n";
	struct oq_templates t;
	struct oq_diags d;

	oq_diags_init(&d);
	assert_int_equal(parse(&t, text, &d), -EBADMSG);
	assert_true(has_diag(&d, OQ_SEV_ERROR, 1, "expected a number"));
	assert_true(has_diag(&d, OQ_SEV_WARNING, 2, "invalid"));
	assert_true(has_diag(&d, OQ_SEV_WARNING, 3, "invalid"));
	assert_true(has_diag(&d, OQ_SEV_WARNING, 4, "unknown QoS option"));
	assert_int_equal(t.t[OQ_KIND_CA].max_vls, 15);
	assert_int_equal(t.t[OQ_KIND_SW0].high_limit, 0);
	oq_diags_free(&d);
	assert_int_equal(
		oq_templates_load_opensm_conf(&t, "/nonexistent/x", NULL),
		-ENOENT);
	check_default(&t.t[OQ_KIND_CA]);
}

/*
 * OpenSM 3.3.23 under ibsim with these options programmed (smpquery):
 * CA port: VLArb high 0:64,1:32 (generic), low 2:8,3:16 (qos_ca_), SL2VL
 * 0..7,0..7 (generic); switch port 1: SL2VL 7..0,7..0 (qos_swe_) for
 * every input port, VLArb low the compiled-in 0:0,1:4,...
 */
static void test_matches_opensm(void **state)
{
	static const char text[] =
		"qos TRUE\nqos_max_vls 8\nqos_vlarb_high 0:64,1:32\n"
		"qos_ca_vlarb_low 2:8,3:16\n"
		"qos_sl2vl 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7\n"
		"qos_swe_sl2vl 7,6,5,4,3,2,1,0,7,6,5,4,3,2,1,0\n"
		"qos_ca_high_limit 5\n";
	const struct oq_qos_template *ca, *swe;
	struct oq_templates t;
	int i;

	assert_int_equal(parse(&t, text, NULL), 0);
	ca = &t.t[OQ_KIND_CA];
	swe = &t.t[OQ_KIND_SWE];
	assert_int_equal(ca->vlarb_high.e[0].weight, 0x40);
	assert_int_equal(ca->vlarb_high.e[1].weight, 0x20);
	assert_int_equal(ca->vlarb_low.e[0].vl, 2);
	assert_int_equal(ca->vlarb_low.e[1].weight, 0x10);
	assert_int_equal(ca->vlarb_low.e[2].weight, 0);
	assert_int_equal(ca->high_limit, 5);
	assert_int_equal(swe->high_limit, 0);
	for (i = 0; i < 16; i++) {
		assert_int_equal(ca->sl2vl[i], i % 8);
		assert_int_equal(swe->sl2vl[i], 7 - i % 8);
	}
	for (i = 1; i < 8; i++)
		assert_int_equal(swe->vlarb_low.e[i].weight, 4);
	assert_int_equal(swe->vlarb_high.e[0].weight, 0x40);
	assert_int_equal(swe->max_vls, 8);
}

static void test_port_kind(void **state)
{
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *sw = oq_fabric_add_node(f, OQ_NODE_SWITCH, 1, "s", 2);
	struct oq_node *ca = oq_fabric_add_node(f, OQ_NODE_CA, 2, "c", 1);
	struct oq_node *rt = oq_fabric_add_node(f, OQ_NODE_ROUTER, 3, "r", 1);

	assert_int_equal(oq_port_kind(&sw->ports[0]), OQ_KIND_SW0);
	assert_int_equal(oq_port_kind(&sw->ports[2]), OQ_KIND_SWE);
	assert_int_equal(oq_port_kind(&ca->ports[1]), OQ_KIND_CA);
	assert_int_equal(oq_port_kind(&rt->ports[1]), OQ_KIND_RTR);
	oq_fabric_free(f);
}

/* routing_engine as OpenSM reads it: split on ", \t", no_fallback and
 * unknown names skipped, the first known one used. */
static void test_routing_engine(void **state)
{
	static const struct {
		const char *line, *want;
		size_t warnings;
	} cases[] = {
		{"routing_engine dfsssp\n", "dfsssp", 0},
		{"routing_engine no_fallback,lash\n", "lash", 0},
		{"routing_engine torus-2QoS ,minhop\n", "torus-2QoS", 0},
		{"routing_engine ftree updn\n", "ftree", 0},
		{"routing_engine bogus,nue # comment\n", "nue", 1},
		{"routing_engine Minhop\n", "", 1},
		{"routing_engine (null)\n", "", 0},
		{"qos TRUE\n", "", 0},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct oq_templates t;
		struct oq_diags d;

		oq_diags_init(&d);
		assert_int_equal(parse(&t, cases[i].line, &d), 0);
		assert_string_equal(t.routing_engine, cases[i].want);
		assert_int_equal(d.n_warnings, cases[i].warnings);
		oq_diags_free(&d);
	}
}

/* max_op_vls as OpenSM parses it (strtoul base 0, up to 255; a bad value
 * ignored with a warning, the last line wins) and the cap its link manager
 * puts on a link's OperVLs: linked ports only, their VLCap when they have
 * no OperVLs. */
static void test_max_op_vls(void **state)
{
	static const struct {
		const char *text;
		uint8_t want;
		size_t warnings;
	} cases[] = {
		{"qos TRUE\n", 5, 0},
		{"max_op_vls 2\n", 2, 0},
		{"max_op_vls 0x3\n", 3, 0},
		{"max_op_vls 2\nmax_op_vls 4\n", 4, 0},
		{"max_op_vls 3\nmax_op_vls two\n", 3, 1},
		{"max_op_vls 256\n", 5, 1},
		{"max_op_vls\n", 5, 1},
		{"max_op_vls 0\n", 0, 1},
	};
	struct oq_templates t;
	struct oq_fabric *f;
	struct oq_node *sw, *a, *b;
	struct oq_diags d;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		oq_diags_init(&d);
		assert_int_equal(parse(&t, cases[i].text, &d), 0);
		assert_int_equal(t.max_op_vls, cases[i].want);
		assert_int_equal(d.n_warnings, cases[i].warnings);
		oq_diags_free(&d);
	}

	f = oq_fabric_new();
	sw = oq_fabric_add_node(f, OQ_NODE_SWITCH, 1, "s", 3);
	a = oq_fabric_add_node(f, OQ_NODE_CA, 2, "a", 1);
	b = oq_fabric_add_node(f, OQ_NODE_CA, 3, "b", 1);
	oq_fabric_link(&a->ports[1], &sw->ports[1]);
	oq_fabric_link(&b->ports[1], &sw->ports[2]);
	sw->ports[3].present = true;
	a->ports[1].vl_cap = sw->ports[1].vl_cap = 8;
	a->ports[1].oper_vls = sw->ports[1].oper_vls = 8;
	b->ports[1].vl_cap = sw->ports[2].vl_cap = 4;	 /* no OperVLs */
	sw->ports[3].vl_cap = sw->ports[3].oper_vls = 8; /* down */
	assert_int_equal(oq_fabric_finalize(f, NULL), 0);

	oq_diags_init(&d);
	assert_int_equal(parse(&t, "max_op_vls 3\n", &d), 0);
	oq_diags_free(&d);
	oq_fabric_cap_oper_vls(f, t.max_op_vls);
	assert_int_equal(a->ports[1].oper_vls, 4);
	assert_int_equal(sw->ports[1].oper_vls, 4);
	assert_int_equal(b->ports[1].oper_vls, 0); /* VLCap 4: no cap */
	assert_int_equal(sw->ports[3].oper_vls, 8);

	/* 0 caps nothing the model can use: the links keep their VLs. */
	t.max_op_vls = 0;
	a->ports[1].oper_vls = 8;
	oq_fabric_cap_oper_vls(f, t.max_op_vls);
	assert_int_equal(a->ports[1].oper_vls, 8);

	t.max_op_vls = 1;
	oq_fabric_cap_oper_vls(f, t.max_op_vls);
	assert_int_equal(a->ports[1].oper_vls, 1);
	assert_int_equal(b->ports[1].oper_vls, 1);
	oq_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_fallback_chain),
		cmocka_unit_test(test_lenient_tables),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_matches_opensm),
		cmocka_unit_test(test_port_kind),
		cmocka_unit_test(test_routing_engine),
		cmocka_unit_test(test_max_op_vls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
