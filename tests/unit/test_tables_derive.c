// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the tables of a fabric derived from the one before it,
 * compiled from the last fabric's where the ports' nodes and partners
 * are the same (oq_tables_compile_derived), or in full where that cannot
 * give the full compile's findings, equal the tables compiled in full on
 * the fabric built afresh, port by port with the findings, through
 * chains of random changes (fabric_chain.c); a port made to starve a VL
 * or to clip a scope's entries is compiled in full.  The port classes
 * derived from the last fabric's (oq_pred_classes_derive) equal those
 * built in full, through the same chains and where a partner's MTU
 * changed under tables kept.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/pred_class.h>
#include <osmqos/tables.h>

#include "fabric_chain.h"

/* What the chains' tables went through: derived, compiled in full, and
 * the derived ones' ports. */
static struct {
	unsigned int derived, full, classes_derived, classes_changed;
	size_t ports_compiled, ports_derived, ports_keyed, ports_classified;
	size_t ports_refused;
} seen;

/* Scopes with every kind of key, on groups by node type, GUID, P_Key
 * and port name (a name some nodes share), in VLs 0 to 2 (the template weights
 * every VL).  Most random fabrics have a port of every group, so most compiles
 * say nothing. */
static const char policy_text[] =
	"port-groups\n"
	" port-group\n  name: sw\n  node-type: SWITCH\n end-port-group\n"
	" port-group\n  name: some\n  port-guid: 0x1000-0x1300\n"
	" end-port-group\n"
	" port-group\n  name: pk\n  pkey: 0x8002\n end-port-group\n"
	" port-group\n  name: named\n  port-name: shared-0/P1\n"
	"  port-name: shared-1/P2\n end-port-group\n"
	"end-port-groups\n"
	"qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n"
	" end-qos-level\nend-qos-levels\n"
	"qos-setup\n vlarb-tables\n"
	"  vlarb-scope\n   group: named\n   vlarb-high: 2:16\n"
	"   vlarb-low: 0:32, 1:32, 2:32\n  end-vlarb-scope\n"
	"  vlarb-scope\n   across: pk, some, named\n   vlarb-high: 1:64\n"
	"   vlarb-low: 0:64, 2:16\n   vl-high-limit: 8\n  end-vlarb-scope\n"
	"  vlarb-scope\n   group: sw\n   group: some\n   vlarb-high: 1:32\n"
	"   vlarb-low: 0:64, 2:8\n  end-vlarb-scope\n"
	" end-vlarb-tables\n sl2vl-tables\n"
	"  sl2vl-scope\n   group: sw\n   from: 1\n   to: 2-4\n"
	"   sl2vl-table: 0,1,2,0,1,2,0,1,2,0,1,2,0,1,2,15\n"
	"  end-sl2vl-scope\n"
	"  sl2vl-scope\n   group: sw\n   across-from: some\n"
	"   sl2vl-table: 0,0,1,1,2,2,0,0,1,1,2,2,0,0,1,1\n"
	"  end-sl2vl-scope\n"
	"  sl2vl-scope\n   group: some\n   group: named\n"
	"   sl2vl-table: 0,2,2,2,1,1,1,0,0,0,2,2,2,1,1,1\n"
	"  end-sl2vl-scope\n"
	"  sl2vl-scope\n   group: pk\n   group: sw\n   across: some\n"
	"   sl2vl-table: 0,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2\n"
	"  end-sl2vl-scope\n"
	" end-sl2vl-tables\nend-qos-setup\n";

/* Every port's tables, in fabric order, and the compile's findings. */
static char *dump_tables(const struct oq_fabric *f,
			 const struct oq_fabric_tables *t,
			 const struct oq_diags *d)
{
	size_t cap = 1 << 18, len = 0, i, j;
	char *s = malloc(cap);
	unsigned int r, k;

	assert_non_null(s);
	assert_int_equal(t->n, f->n_ports);
	for (j = 0; d && j < d->n; j++) {
		len += (size_t)oq_diag_format(&d->v[j], s + len, cap - len);
		len += (size_t)snprintf(s + len, cap - len, "\n");
	}
	len += (size_t)snprintf(s + len, cap - len, "quiet %d\n", t->quiet);
	for (i = 0; i < t->n; i++) {
		const struct oq_port_tables *pt = &t->ports[i];

		assert_ptr_equal(pt->port, f->ports[i]);
		len += (size_t)snprintf(
			s + len, cap - len,
			"%lx/%u vlarb %d %d/%d %d/%d limit %u sl2vl %d %d/%d "
			"unknown %d rows %u:",
			(unsigned long)pt->port->node->guid, pt->port->num,
			pt->has_vlarb, pt->vlarb_origin, pt->vlarb_scope,
			pt->vlarb_high.n, pt->vlarb_low.n, pt->vl_high_limit,
			pt->has_sl2vl, pt->sl2vl_origin, pt->sl2vl_scope,
			pt->sl2vl_unknown, pt->n_sl2vl);
		for (k = 0; k < pt->vlarb_high.n; k++)
			len += (size_t)snprintf(s + len, cap - len, " h%u:%u",
						pt->vlarb_high.e[k].vl,
						pt->vlarb_high.e[k].weight);
		for (k = 0; k < pt->vlarb_low.n; k++)
			len += (size_t)snprintf(s + len, cap - len, " l%u:%u",
						pt->vlarb_low.e[k].vl,
						pt->vlarb_low.e[k].weight);
		for (r = 0; pt->sl2vl && r < pt->n_sl2vl; r++) {
			len += (size_t)snprintf(s + len, cap - len, " ");
			for (k = 0; k < 16; k++)
				len += (size_t)snprintf(s + len, cap - len,
							"%x", pt->sl2vl[r][k]);
		}
		len += (size_t)snprintf(s + len, cap - len, "\n");
		assert_true(len < cap - 4096);
	}
	return s;
}

/* derived's tables from prev's (compiled for prev_f), as the plugin
 * compiles them: derived where it can be, else in full.  They equal
 * fresh's, compiled in full; a derived compile is one whose full compile
 * says nothing.  Returns derived's tables (the next step's prev). */
static void
check_tables(const struct oq_policy *pol, const struct oq_fabric *prev_f,
	     const struct oq_fabric_tables *prev, const struct oq_fabric *fresh,
	     const struct oq_fabric *derived, struct oq_fabric_tables *out)
{
	struct oq_binding *bf = oq_bind(pol, fresh, NULL, NULL);
	struct oq_binding *bd = oq_bind(pol, derived, NULL, NULL);
	struct oq_fabric_tables tf;
	struct oq_templates tpl;
	struct oq_engine e;
	struct oq_diags df, dd;
	size_t n_compiled;
	char *x, *y;
	int rc;

	assert_non_null(bf);
	assert_non_null(bd);
	oq_templates_default(&tpl);
	oq_engine_by_name(&e, NULL);
	oq_diags_init(&df);
	oq_diags_init(&dd);
	assert_int_equal(oq_tables_compile(bf, fresh, &tpl, &tf, &df), 0);
	rc = oq_tables_compile_derived(bd, derived, &tpl, &e, prev_f, prev, out,
				       &n_compiled);
	assert_true(rc == 0 || rc == 1);
	if (rc == 0) {
		seen.derived++;
		seen.ports_compiled += n_compiled;
		seen.ports_derived += derived->n_ports;
		assert_true(tf.quiet);
	} else {
		seen.full++;
		assert_int_equal(oq_tables_compile(bd, derived, &tpl, out, &dd),
				 0);
	}
	x = dump_tables(fresh, &tf, &df);
	y = dump_tables(derived, out, &dd);
	assert_string_equal(x, y);
	free(x);
	free(y);
	oq_diags_free(&df);
	oq_diags_free(&dd);
	oq_fabric_tables_free(&tf);
	oq_binding_free(bf);
	oq_binding_free(bd);
}

static struct oq_policy *test_policy(const char *file, const char *text)
{
	struct oq_diags d;
	struct oq_policy *p;

	oq_diags_init(&d);
	p = oq_policy_parse(file, text, strlen(text), &d);
	assert_non_null(p);
	oq_policy_validate(p, &d);
	assert_int_equal(d.n_errors, 0);
	oq_diags_free(&d);
	return p;
}

static void assert_classes_equal(const struct oq_pred_classes *a,
				 const struct oq_pred_classes *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->n_ports, b->n_ports);
	assert_int_equal(a->n_classified, b->n_classified);
	assert_int_equal(a->n_bad, b->n_bad);
	assert_int_equal(a->aggregate, b->aggregate);
	assert_memory_equal(a->of_port, b->of_port,
			    a->n_ports * sizeof(*a->of_port));
	if (a->n)
		assert_memory_equal(a->v, b->v, a->n * sizeof(*a->v));
}

/* derived's classes (tables t) from prev's (prev_f, prev_t), built with
 * options o, as the SA's state builds them: those of the full build,
 * into out (the next step's prev). */
static void check_classes(const struct oq_fabric *prev_f,
			  const struct oq_fabric_tables *prev_t,
			  const struct oq_pred_classes *prev,
			  const struct oq_fabric *derived,
			  const struct oq_fabric_tables *t,
			  const struct oq_predict_opts *o,
			  struct oq_pred_classes *out)
{
	struct oq_pred_classes full;
	size_t n_keyed;

	assert_int_equal(oq_pred_classes_build(derived, t, o, NULL, &full), 0);
	assert_int_equal(oq_pred_classes_derive(derived, t, o, prev_f, prev_t,
						prev, out, &n_keyed),
			 0);
	assert_classes_equal(out, &full);
	if (t->kept) {
		seen.classes_derived++;
		seen.ports_keyed += n_keyed;
		seen.ports_classified += full.n_classified;
		seen.classes_changed += full.n != prev->n;
		seen.ports_refused += full.n_bad;
	} else {
		assert_true(n_keyed >= full.n_classified);
	}
	oq_pred_classes_free(&full);
}

static void one_chain(unsigned int s, const struct oq_policy *pol)
{
	struct oq_fabric_tables prev_t, next_t;
	struct oq_pred_classes prev_c, next_c;
	struct oq_predict_opts o;
	struct oq_binding *bp;
	struct chain c;
	int step;

	chain_start(&c, s);
	bp = oq_bind(pol, c.prev, NULL, NULL);
	assert_int_equal(oq_tables_compile(bp, c.prev, NULL, &prev_t, NULL), 0);
	oq_binding_free(bp);
	/* Half the chains predict for traffic from input port 3, which
	 * the model refuses for ports with fewer inputs. */
	oq_predict_opts_init(&o);
	if (s % 2)
		o.in_port = 3;
	assert_int_equal(
		oq_pred_classes_build(c.prev, &prev_t, &o, NULL, &prev_c), 0);
	for (step = 0; step < 20; step++) {
		chain_next(&c);
		check_tables(pol, c.prev, &prev_t, c.fresh, c.derived, &next_t);
		check_classes(c.prev, &prev_t, &prev_c, c.derived, &next_t, &o,
			      &next_c);
		oq_fabric_tables_free(&prev_t);
		oq_pred_classes_free(&prev_c);
		prev_t = next_t;
		prev_c = next_c;
		chain_advance(&c);
	}
	oq_fabric_tables_free(&prev_t);
	oq_pred_classes_free(&prev_c);
	chain_end(&c);
}

static void test_derived_equals_full(void **state)
{
	struct oq_policy *pol = test_policy("derive.conf", policy_text);
	unsigned int s;

	(void)state;
	memset(&seen, 0, sizeof(seen));
	for (s = 1; s <= 200; s++)
		one_chain(s, pol);
	oq_policy_free(pol);
	/* Tables derived in most steps, compiling a few of their ports;
	 * compiled in full in some (a finding, a scope's port gone). */
	print_message("tables: %u derived (%zu of %zu ports compiled), "
		      "%u in full; classes: %u derived (%zu of %zu ports "
		      "keyed, %zu refused, %u with classes more or "
		      "fewer)\n",
		      seen.derived, seen.ports_compiled, seen.ports_derived,
		      seen.full, seen.classes_derived, seen.ports_keyed,
		      seen.ports_classified, seen.ports_refused,
		      seen.classes_changed);
	assert_true(seen.derived > seen.full);
	assert_true(seen.full > 0);
	assert_true(seen.ports_compiled * 3 < seen.ports_derived);
	assert_int_equal(seen.classes_derived, seen.derived);
	assert_true(seen.ports_keyed * 2 < seen.ports_classified);
	assert_true(seen.classes_changed > 0);
	assert_true(seen.ports_refused > 0);
}

/* A policy whose VLArb starves SL 0's VL where its SL2VL does not move
 * the SL: a port of group pk outside group some. */
static const char starve_text[] =
	"port-groups\n"
	" port-group\n  name: some\n  port-guid: 0x1000-0x1300\n"
	" end-port-group\n"
	" port-group\n  name: pk\n  pkey: 0x8002\n end-port-group\n"
	"end-port-groups\n"
	"qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n"
	" end-qos-level\nend-qos-levels\n"
	"qos-setup\n vlarb-tables\n"
	"  vlarb-scope\n   group: pk\n   vlarb-high: 1:32\n"
	"   vlarb-low: 1:64\n  end-vlarb-scope\n"
	" end-vlarb-tables\n sl2vl-tables\n"
	"  sl2vl-scope\n   group: some\n"
	"   sl2vl-table: 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n"
	"  end-sl2vl-scope\n"
	" end-sl2vl-tables\nend-qos-setup\n";

/* A port compiled anew whose tables would starve a VL (the full compile
 * withholds a scope from it and says so) or clip a scope's entries (said
 * too): the tables are not derived.  With no change they are, compiling
 * no port. */
static void test_tables_not_derived_with_findings(void **state)
{
	struct oq_diags d;
	struct oq_policy *pol;
	struct oq_fabric *f0, *f1;
	struct oq_fabric_tables t0, t1;
	struct oq_binding *b;
	struct oq_templates tpl;
	struct oq_engine e;
	struct oq_node *nb;
	struct desc a;
	size_t shared, n_compiled, i;
	uint16_t key = 0x8002;

	(void)state;
	oq_diags_init(&d);
	pol = test_policy("starve.conf", starve_text);
	oq_templates_default(&tpl);
	oq_engine_by_name(&e, NULL);
	memset(&a, 0, sizeof(a));
	chain_small_node(&a.n[0], 0x1000, OQ_NODE_SWITCH, 0);
	chain_small_node(&a.n[1], 0x1100, OQ_NODE_CA, 1);
	chain_small_node(&a.n[2], 0x5000, OQ_NODE_CA, 2);
	a.n[1].ports[1].pkeys[0] = key;
	a.n[1].ports[1].n_pkeys = 1;
	chain_link_ports(&a, &a.n[1], 1, &a.n[0], 1);
	chain_link_ports(&a, &a.n[2], 1, &a.n[0], 2);
	f0 = chain_build_fresh(&a, NULL);
	b = oq_bind(pol, f0, NULL, NULL);
	assert_int_equal(oq_tables_compile(b, f0, &tpl, &t0, NULL), 0);
	oq_binding_free(b);
	assert_true(t0.quiet);

	/* Nothing changed: every port's tables are the last ones. */
	f1 = chain_build_derived(f0, &a, &a, &shared, NULL);
	b = oq_bind(pol, f1, NULL, NULL);
	assert_int_equal(oq_tables_compile_derived(b, f1, &tpl, &e, f0, &t0,
						   &t1, &n_compiled),
			 0);
	assert_int_equal(n_compiled, 0);
	oq_binding_free(b);
	oq_fabric_tables_free(&t1);

	/* The CA outside group some joins pk: its VLArb would starve VL 0,
	 * where SL 0 goes. */
	for (i = 0; i < f1->n_nodes && f1->nodes[i]->guid != 0x5000; i++)
		;
	assert_true(i < f1->n_nodes);
	nb = oq_fabric_node_own(f1, f1->nodes[i]);
	assert_non_null(nb);
	assert_int_equal(oq_port_set_pkeys(&nb->ports[1], &key, 1), 0);
	b = oq_bind(pol, f1, NULL, NULL);
	assert_int_equal(oq_tables_compile_derived(b, f1, &tpl, &e, f0, &t0,
						   &t1, &n_compiled),
			 1);
	assert_int_equal(oq_tables_compile(b, f1, &tpl, &t1, &d), 0);
	assert_false(t1.quiet);
	assert_true(d.n_errors > 0);
	oq_binding_free(b);
	oq_fabric_tables_free(&t1);
	oq_fabric_free(f1);

	/* The CA in both groups has room for no high-priority entry: its
	 * scope's entry is clipped, which the full compile says. */
	f1 = chain_build_derived(f0, &a, &a, &shared, NULL);
	for (i = 0; i < f1->n_nodes && f1->nodes[i]->guid != 0x1100; i++)
		;
	assert_true(i < f1->n_nodes);
	nb = oq_fabric_node_own(f1, f1->nodes[i]);
	assert_non_null(nb);
	nb->ports[1].vlarb_high_cap = 0;
	b = oq_bind(pol, f1, NULL, NULL);
	assert_int_equal(oq_tables_compile_derived(b, f1, &tpl, &e, f0, &t0,
						   &t1, &n_compiled),
			 1);
	oq_diags_free(&d);
	oq_diags_init(&d);
	assert_int_equal(oq_tables_compile(b, f1, &tpl, &t1, &d), 0);
	assert_false(t1.quiet);
	assert_true(d.n_warnings > 0);
	oq_binding_free(b);
	oq_fabric_tables_free(&t1);
	oq_fabric_tables_free(&t0);
	oq_fabric_free(f1);
	oq_fabric_free(f0);
	oq_policy_free(pol);
	oq_diags_free(&d);
}

/* A partner read again with another MTU, in the same groups: the tables
 * of the switch port facing it are kept, its class is not. */
static void test_classes_partner_mtu(void **state)
{
	static const char text[] = "qos-levels\n qos-level\n  name: DEFAULT\n"
				   "  sl: 0\n end-qos-level\nend-qos-levels\n";
	struct oq_policy *pol = test_policy("mtu.conf", text);
	struct oq_fabric_tables t0, t1;
	struct oq_pred_classes c0, c1;
	struct oq_fabric *f0, *f1;
	struct oq_predict_opts o;
	struct oq_binding *b;
	struct oq_engine e;
	struct oq_port *sp;
	struct desc a, d;
	size_t shared, n_compiled;
	uint32_t at;

	(void)state;
	oq_engine_by_name(&e, NULL);
	oq_predict_opts_init(&o);
	memset(&a, 0, sizeof(a));
	chain_small_node(&a.n[0], 0x1000, OQ_NODE_SWITCH, 0);
	chain_small_node(&a.n[1], 0x2000, OQ_NODE_CA, 1);
	a.n[0].ports[1].mtu_cap = 5;
	a.n[1].ports[1].mtu_cap = 5;
	chain_link_ports(&a, &a.n[1], 1, &a.n[0], 1);
	d = a;
	d.n[1].ports[1].mtu_cap = 3;
	f0 = chain_build_fresh(&a, NULL);
	f1 = chain_build_derived(f0, &a, &d, &shared, NULL);
	assert_int_equal(shared, 1);
	b = oq_bind(pol, f0, NULL, NULL);
	assert_int_equal(oq_tables_compile(b, f0, NULL, &t0, NULL), 0);
	oq_binding_free(b);
	assert_int_equal(oq_pred_classes_build(f0, &t0, &o, NULL, &c0), 0);
	b = oq_bind(pol, f1, NULL, NULL);
	assert_int_equal(oq_tables_compile_derived(b, f1, NULL, &e, f0, &t0,
						   &t1, &n_compiled),
			 0);
	oq_binding_free(b);
	sp = &chain_node(f1, 0x1000)->ports[1];
	at = oq_port_index(f1, sp);
	assert_true(t1.kept[at]);
	check_classes(f0, &t0, &c0, f1, &t1, &o, &c1);
	assert_int_equal(c1.v[c1.of_port[at]].pred.mtu_bytes, 1024);
	assert_int_equal(c0.v[c0.of_port[oq_port_index(f0, sp)]].pred.mtu_bytes,
			 4096);
	oq_pred_classes_free(&c0);
	oq_pred_classes_free(&c1);
	oq_fabric_tables_free(&t0);
	oq_fabric_tables_free(&t1);
	oq_fabric_free(f1);
	oq_fabric_free(f0);
	oq_policy_free(pol);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derived_equals_full),
		cmocka_unit_test(test_tables_not_derived_with_findings),
		cmocka_unit_test(test_classes_partner_mtu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
