// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the JSON nodes list kept from one fabric to the next
 * (oq_pred_nodes_keep) is, byte for byte, the list rendered afresh for
 * each fabric of chains of random changes (fabric_chain.c: nodes and
 * links that come and go, LIDs, LMCs, descriptions, duplicate port
 * GUIDs),
 * with classes that move and are renumbered; only the entries that
 * changed are rendered, none when nothing changed; a node's type or a
 * port's number alone changing renders the entry again; two nodes of one
 * GUID are each listed as rendered.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/pred_class.h>
#include <osmqos/tables.h>

#include "fabric_chain.h"

/* VLArb that differs by group, so that ports' classes differ by the
 * groups their nodes are in and move as GUIDs and links change. */
static const char policy_text[] =
	"port-groups\n"
	" port-group\n  name: sw\n  node-type: SWITCH\n end-port-group\n"
	" port-group\n  name: some\n  port-guid: 0x1000-0x1300\n"
	" end-port-group\n"
	"end-port-groups\n"
	"qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n"
	" end-qos-level\nend-qos-levels\n"
	"qos-setup\n vlarb-tables\n"
	"  vlarb-scope\n   group: some\n   vlarb-high: 2:16\n"
	"   vlarb-low: 0:32, 1:32, 2:32\n  end-vlarb-scope\n"
	"  vlarb-scope\n   across: some\n   vlarb-high: 1:64\n"
	"   vlarb-low: 0:64, 2:16\n  end-vlarb-scope\n"
	" end-vlarb-tables\n sl2vl-tables\n"
	"  sl2vl-scope\n   group: sw\n   across-from: some\n"
	"   sl2vl-table: 0,0,1,1,2,2,0,0,1,1,2,2,0,0,1,1\n"
	"  end-sl2vl-scope\n"
	" end-sl2vl-tables\nend-qos-setup\n";

static struct {
	size_t entries, rendered, unchanged_rendered;
	unsigned int steps, renumbered;
} seen;

/* A fabric's tables and classes, as the plugin predicts them. */
struct predicted {
	struct oq_fabric_tables t;
	struct oq_pred_classes c;
};

static void predict(const struct oq_policy *pol, const struct oq_fabric *f,
		    struct predicted *p)
{
	struct oq_binding *b = oq_bind(pol, f, NULL, NULL);
	struct oq_predict_opts o;

	assert_non_null(b);
	assert_int_equal(oq_tables_compile(b, f, NULL, &p->t, NULL), 0);
	oq_binding_free(b);
	oq_predict_opts_init(&o);
	assert_int_equal(oq_pred_classes_build(f, &p->t, &o, NULL, &p->c), 0);
}

static void predicted_free(struct predicted *p)
{
	oq_pred_classes_free(&p->c);
	oq_fabric_tables_free(&p->t);
}

static char *nodes_json(const struct oq_fabric *f,
			const struct oq_pred_classes *c,
			const struct oq_pred_nodes_kept *k)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(oq_pred_nodes_write_json(out, f, c, k), 0);
	assert_int_equal(fclose(out), 0);
	return buf;
}

/* k kept for f and c writes what a fresh render does. */
static void check_kept(struct oq_pred_nodes_kept *k, const struct oq_fabric *f,
		       const struct oq_pred_classes *c)
{
	char *fresh = nodes_json(f, c, NULL), *kept;

	assert_int_equal(oq_pred_nodes_keep(k, f, c), 0);
	kept = nodes_json(f, c, k);
	assert_string_equal(kept, fresh);
	assert_true(k->n_rendered <= k->n);
	free(kept);
	free(fresh);
}

static bool renumbered(const struct oq_fabric *a, const struct predicted *pa,
		       const struct oq_fabric *b, const struct predicted *pb)
{
	size_t i;

	for (i = 0; i < a->n_ports; i++) {
		const struct oq_port *p = a->ports[i];
		const struct oq_port *q = oq_fabric_port_by_guid(b, p->guid);

		if (!q || p->node->guid != q->node->guid)
			continue;
		if (i < pa->c.n_ports && oq_port_index(b, q) < pb->c.n_ports &&
		    pa->c.of_port[i] != OQ_PRED_CLASS_NONE &&
		    pb->c.of_port[oq_port_index(b, q)] != OQ_PRED_CLASS_NONE &&
		    pa->c.of_port[i] != pb->c.of_port[oq_port_index(b, q)])
			return true;
	}
	return false;
}

static void one_chain(unsigned int s, const struct oq_policy *pol)
{
	struct oq_pred_nodes_kept k = {0};
	struct predicted prev, next;
	struct chain c;
	int step;

	chain_start(&c, s);
	predict(pol, c.prev, &prev);
	check_kept(&k, c.prev, &prev.c);
	for (step = 0; step < 20; step++) {
		chain_next(&c);
		predict(pol, c.derived, &next);
		seen.renumbered += renumbered(c.prev, &prev, c.derived, &next);
		check_kept(&k, c.derived, &next.c);
		seen.entries += k.n;
		seen.rendered += k.n_rendered;
		seen.steps++;
		/* The same fabric again: every entry copied. */
		check_kept(&k, c.derived, &next.c);
		seen.unchanged_rendered += k.n_rendered;
		predicted_free(&prev);
		prev = next;
		chain_advance(&c);
	}
	predicted_free(&prev);
	oq_pred_nodes_kept_free(&k);
	chain_end(&c);
}

static int policy_setup(void **state)
{
	struct oq_diags d;
	struct oq_policy *pol;

	oq_diags_init(&d);
	pol = oq_policy_parse("nodes.conf", policy_text, strlen(policy_text),
			      &d);
	if (pol)
		oq_policy_validate(pol, &d);
	if (!pol || d.n_errors) {
		oq_policy_free(pol);
		pol = NULL;
	}
	oq_diags_free(&d);
	*state = pol;
	return pol ? 0 : -1;
}

static int policy_teardown(void **state)
{
	oq_policy_free(*state);
	return 0;
}

static void test_kept_equals_fresh(void **state)
{
	unsigned int s;

	memset(&seen, 0, sizeof(seen));
	for (s = 1; s <= 200; s++)
		one_chain(s, *state);
	print_message("nodes list: %zu of %zu entries rendered in %u steps "
		      "(%u with ports renumbered), %zu with no change\n",
		      seen.rendered, seen.entries, seen.steps, seen.renumbered,
		      seen.unchanged_rendered);
	/* The chains change a few nodes a step, and move classes. */
	assert_true(seen.rendered > 0);
	assert_true(seen.rendered * 3 < seen.entries);
	assert_true(seen.renumbered > 0);
	assert_int_equal(seen.unchanged_rendered, 0);
	assert_true(chain_seen.dups > 0);
}

/* An entry is rendered again when only its node's type, or only the
 * number of a port (same GUID, LID and class), changed. */
static void test_entry_inputs(void **state)
{
	struct oq_policy *pol = (struct oq_policy *)*state;
	struct oq_pred_nodes_kept k = {0};
	struct desc a, b;
	struct oq_fabric *f;
	struct predicted p;
	unsigned int step;

	memset(&a, 0, sizeof(a));
	chain_small_node(&a.n[0], 0x1000, OQ_NODE_SWITCH, 0);
	chain_small_node(&a.n[1], 0x2000, OQ_NODE_CA, 1);
	a.n[1].n_ports = 2;
	a.n[1].ports[2] = a.n[1].ports[1];
	a.n[1].ports[1].guid = 0x2001;
	a.n[1].ports[2].guid = 0x2002;
	a.n[1].ports[2].lid = 200;
	chain_link_ports(&a, &a.n[0], 1, &a.n[1], 1);
	/* a, one change, a again, the other change. */
	for (step = 0; step < 4; step++) {
		b = a;
		if (step == 1) {
			/* The link moves to port 2, which takes port 1's
			 * GUID and LID. */
			b.n[1].ports[1].guid = 0x2002;
			b.n[1].ports[1].lid = 200;
			b.n[1].ports[2].guid = 0x2001;
			b.n[1].ports[2].lid = a.n[1].ports[1].lid;
			chain_link_ports(&b, &b.n[0], 1, &b.n[1], 2);
		} else if (step == 3) {
			b.n[1].type = OQ_NODE_ROUTER;
		}
		f = chain_build_fresh(&b, NULL);
		predict(pol, f, &p);
		check_kept(&k, f, &p.c);
		assert_int_equal(k.n, 2);
		/* The first keep renders both; then the CA's entry only. */
		assert_int_equal(k.n_rendered, step ? 1 : 2);
		predicted_free(&p);
		oq_fabric_free(f);
	}
	oq_pred_nodes_kept_free(&k);
}

/* A port as the chains fill theirs. */
static void dup_port(struct oq_port *p, uint64_t guid, uint16_t lid)
{
	p->present = true;
	p->guid = guid;
	p->lid = lid;
	p->width = 4;
	p->vl_cap = 8;
	p->vlarb_high_cap = 8;
	p->vlarb_low_cap = 8;
	p->sl2vl_cap = true;
}

/* A switch and two CAs of node GUID 0x2000 on its ports 1 and 2 (added
 * in the order first, second), named a and b; the first CA's LID lid,
 * the second's node GUID b_guid. */
static struct oq_fabric *dup_fabric(const char *a, const char *b, bool b_first,
				    uint16_t lid, uint64_t b_guid)
{
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *sw, *ca[2];
	struct oq_diags d;
	unsigned int i;

	assert_non_null(f);
	sw = oq_fabric_add_node(f, OQ_NODE_SWITCH, 0x1000, "sw", 4);
	assert_non_null(sw);
	for (i = 0; i <= 4; i++)
		dup_port(&sw->ports[i], 0x1000, 1);
	for (i = 0; i < 2; i++) {
		unsigned int k = i ^ b_first;

		ca[k] = oq_fabric_add_node(f, OQ_NODE_CA, k ? b_guid : 0x2000,
					   k ? b : a, 1);
		assert_non_null(ca[k]);
		dup_port(&ca[k]->ports[1], 0x2001 + 0x100 * k, k ? 20 : lid);
	}
	oq_fabric_link(&sw->ports[1], &ca[0]->ports[1]);
	oq_fabric_link(&sw->ports[2], &ca[1]->ports[1]);
	oq_diags_init(&d);
	assert_int_equal(oq_fabric_finalize(f, &d), 0);
	oq_diags_free(&d);
	return f;
}

/* Two nodes of one GUID (a fabric with a duplicate): the list kept is
 * the one rendered whichever of them changes or comes first, or when
 * one takes a lower GUID, all else as it was. */
static void test_duplicate_node_guids(void **state)
{
	struct oq_policy *pol = (struct oq_policy *)*state;
	struct oq_pred_nodes_kept k = {0};
	struct oq_fabric *f;
	struct predicted p;
	unsigned int step;

	/* As added, the other's name, the other added first (and a LID),
	 * the other's GUID lower. */
	for (step = 0; step < 5; step++) {
		f = dup_fabric("ca-a", step == 1 ? "other" : "ca-b",
			       step == 2 || step == 3, step == 3 ? 30 : 10,
			       step == 4 ? 0x1800 : 0x2000);
		predict(pol, f, &p);
		check_kept(&k, f, &p.c);
		assert_int_equal(k.n, 3);
		/* A change renders an entry (a duplicate's may be rendered
		 * again though its own did not change). */
		assert_true(k.n_rendered >= 1);
		predicted_free(&p);
		oq_fabric_free(f);
	}
	oq_pred_nodes_kept_free(&k);
}

/* Without classes the list is empty, kept or not; a keep of it is a
 * list, of no entries. */
static void test_empty(void **state)
{
	struct oq_pred_nodes_kept k = {0};
	struct oq_pred_classes c = {0};
	struct oq_fabric *f = oq_fabric_new();
	char *s;

	(void)state;
	assert_non_null(f);
	assert_int_equal(oq_fabric_finalize(f, NULL), 0);
	s = nodes_json(f, &c, NULL);
	assert_string_equal(s, ",\n \"nodes\": []");
	free(s);
	assert_int_equal(oq_pred_nodes_keep(&k, f, &c), 0);
	assert_non_null(k.buf);
	assert_int_equal(k.n, 0);
	s = nodes_json(f, &c, &k);
	assert_string_equal(s, ",\n \"nodes\": []");
	free(s);
	oq_pred_nodes_kept_free(&k);
	assert_null(k.buf);
	s = nodes_json(NULL, NULL, NULL);
	assert_string_equal(s, ",\n \"nodes\": []");
	free(s);
	oq_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kept_equals_fresh),
		cmocka_unit_test(test_entry_inputs),
		cmocka_unit_test(test_duplicate_node_guids),
		cmocka_unit_test(test_empty),
	};

	return cmocka_run_group_tests(tests, policy_setup, policy_teardown);
}
