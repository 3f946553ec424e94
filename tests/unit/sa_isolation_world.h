/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Random worlds for the SA isolation property test (test_sa_isolation.c):
 * a reproducible generator (xorshift64*) of small fabrics -- a random tree
 * of switches with CAs, LIDs with LMC 0-2, LFTs routed over the tree,
 * random partition tables and partitions -- and of random policies, as
 * text in OpenSM's grammar parsed, validated, bound and compiled by the
 * real code.  Header-only, like sa_test_fixture.h.
 */
#ifndef OSMQOS_TEST_SA_ISOLATION_WORLD_H
#define OSMQOS_TEST_SA_ISOLATION_WORLD_H

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
#include <osmqos/path.h>
#include <osmqos/policy.h>
#include <osmqos/sa_path.h>

#define PREFIX 0xfec0000000001234ull

#define MAX_SW	   4
#define MAX_CA	   7
#define SW_PORTS   8
#define MAX_ENDS   (MAX_SW + MAX_CA)
#define MAX_ALIAS  (MAX_ENDS + MAX_CA)
#define MAX_PKEYS  3
#define MAX_LEVELS 6

/* ---- random numbers (xorshift64*: reproducible from the seed) -------- */

static uint64_t rng_state;

static uint64_t rnd64(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dull;
}

static unsigned int rnd(unsigned int n)
{
	return n ? (unsigned int)(rnd64() >> 33) % n : 0;
}

static bool chance(unsigned int percent)
{
	return rnd(100) < percent;
}

/* ---- the random world ------------------------------------------------- */

struct world {
	struct oq_fabric *f;
	struct oq_node *sw[MAX_SW];
	unsigned int n_sw, n_ca;
	struct oq_port *ends[MAX_ENDS]; /* switch port 0s, then CA ports */
	unsigned int n_ends;
	uint16_t lids[MAX_ENDS * 4]; /* every LID of every end port */
	unsigned int n_lids;
	struct oq_alias al[MAX_ALIAS];
	unsigned int n_al;
	uint16_t pool[MAX_PKEYS]; /* partition keys besides the default */
	unsigned int n_pool;
	struct oq_partition pv[MAX_PKEYS + 1];
	struct oq_partitions parts;
	bool allow_both;
	/* The policy of the moment. */
	char text[8192];
	size_t len;
	struct oq_policy *pol;
	struct oq_binding *bind;
	struct oq_matcher *m;
	struct oq_diags diags;
	struct oq_sa_view v;
};

/* What the checks found, over the whole run. */

static const char *const partition_names[] = {"Default", "PA", "PB", "PC"};

static void link_ports(struct oq_port *x, struct oq_port *y)
{
	oq_fabric_link(x, y);
	x->width = y->width = 4;
	x->speed = y->speed = OQ_SPEED_QDR;
}

static int free_port(const struct oq_node *n)
{
	int i;

	for (i = 1; i <= n->n_ports; i++)
		if (!n->ports[i].present)
			return i;
	return -1;
}

/* First-hop port from switch s towards switch t over the tree (BFS). */
static uint8_t first_hop(const struct world *w, unsigned int s, unsigned int t)
{
	unsigned int q[MAX_SW], head = 0, tail = 0, i, k;
	uint8_t hop[MAX_SW];
	bool seen[MAX_SW] = {false};

	seen[s] = true;
	hop[s] = 0;
	q[tail++] = s;
	while (head < tail) {
		unsigned int u = q[head++];

		for (k = 1; k <= SW_PORTS; k++) {
			const struct oq_port *p = &w->sw[u]->ports[k];

			if (!p->peer || p->peer->node->type != OQ_NODE_SWITCH)
				continue;
			for (i = 0; i < w->n_sw; i++)
				if (w->sw[i] == p->peer->node && !seen[i]) {
					seen[i] = true;
					hop[i] = u == s ? (uint8_t)k : hop[u];
					q[tail++] = i;
				}
		}
	}
	assert_true(seen[t]);
	return hop[t];
}

static unsigned int sw_index(const struct world *w, const struct oq_node *n)
{
	unsigned int i;

	for (i = 0; i < w->n_sw; i++)
		if (w->sw[i] == n)
			return i;
	fail_msg("node %s is not a switch of the world", n->desc);
	return 0;
}

static void route(struct world *w)
{
	unsigned int s, e, k;

	for (s = 0; s < w->n_sw; s++)
		for (e = 0; e < w->n_ends; e++) {
			const struct oq_port *p = w->ends[e];
			const struct oq_node *at; /* the switch p hangs off */
			uint8_t out;

			if (p->node->type == OQ_NODE_SWITCH) {
				at = p->node;
				out = at == w->sw[s] ? 0 : 0xff;
			} else {
				at = p->peer->node;
				out = at == w->sw[s] ? p->peer->num : 0xff;
			}
			if (out == 0xff)
				out = first_hop(w, s, sw_index(w, at));
			for (k = 0; k < 1u << p->lmc; k++)
				assert_int_equal(oq_node_set_lft_entry(
							 w->sw[s],
							 (uint16_t)(p->lid + k),
							 out),
						 0);
		}
}

/* A random partition table: the default key full, limited or absent,
 * each pool key absent, limited or full. */
static void random_pkeys(struct world *w, struct oq_port *p, bool sw)
{
	uint16_t v[MAX_PKEYS + 1];
	size_t n = 0, i;
	unsigned int r = rnd(100);

	if (sw && chance(80)) {
		v[n++] = 0xffff;
	} else {
		if (r < 65)
			v[n++] = 0xffff;
		else if (r < 80)
			v[n++] = 0x7fff;
		for (i = 0; i < w->n_pool; i++) {
			r = rnd(100);
			if (r < 40)
				continue;
			v[n++] = (uint16_t)(w->pool[i] | (r < 70 ? 0 : 0x8000));
		}
	}
	/* An empty table is legal: OpenSM's visibility "HACK" lets such a
	 * port see everything, the path checks still need a shared key. */
	if (n)
		assert_int_equal(oq_port_set_pkeys(p, v, n), 0);
}

static void fabric_build(struct world *w)
{
	struct oq_node *ca[MAX_CA];
	unsigned int i, k;
	uint16_t next = 1, span;

	w->f = oq_fabric_new();
	assert_non_null(w->f);
	w->n_sw = 1 + rnd(MAX_SW);
	w->n_ca = 2 + rnd(MAX_CA - 1);
	for (i = 0; i < w->n_sw; i++) {
		char d[16];

		snprintf(d, sizeof(d), "sw%u", i);
		w->sw[i] = oq_fabric_add_node(w->f, OQ_NODE_SWITCH,
					      0x1000 * (i + 1), d, SW_PORTS);
		assert_non_null(w->sw[i]);
		w->sw[i]->ports[0].guid = 0x1000 * (i + 1);
		w->sw[i]->ports[0].lid = next++;
		w->sw[i]->ports[0].width = 4;
		w->sw[i]->ports[0].speed = OQ_SPEED_SDR;
		for (k = 0; k <= SW_PORTS; k++)
			w->sw[i]->ports[k].mtu_cap = 5;
		if (i) { /* a random tree */
			struct oq_node *up = w->sw[rnd(i)];
			int a = free_port(w->sw[i]), b = free_port(up);

			assert_true(a > 0 && b > 0);
			link_ports(&w->sw[i]->ports[a], &up->ports[b]);
		}
	}
	for (i = 0; i < w->n_ca; i++) {
		struct oq_node *n, *sw;
		char d[16];
		int port, tries = 0;

		do {
			sw = w->sw[rnd(w->n_sw)];
			port = free_port(sw);
		} while (port < 0 && ++tries < 100);
		assert_true(port > 0);
		snprintf(d, sizeof(d), "ca%u", i);
		n = oq_fabric_add_node(w->f, OQ_NODE_CA, 0xa000 + 0x100 * i, d,
				       1);
		assert_non_null(n);
		n->ports[1].guid = 0xa001 + 0x100 * i;
		n->ports[1].mtu_cap = 5;
		n->ports[1].lmc = (uint8_t)rnd(3);
		span = (uint16_t)(1u << n->ports[1].lmc);
		next = (uint16_t)((next + span - 1) & ~(span - 1));
		n->ports[1].lid = next;
		next = (uint16_t)(next + span);
		ca[i] = n;
		link_ports(&n->ports[1], &sw->ports[port]);
	}
	assert_int_equal(oq_fabric_finalize(w->f, NULL), 0);

	w->n_ends = 0;
	w->n_lids = 0;
	for (i = 0; i < w->n_sw; i++)
		w->ends[w->n_ends++] = &w->sw[i]->ports[0];
	for (i = 0; i < w->n_ca; i++)
		w->ends[w->n_ends++] = &ca[i]->ports[1];
	for (i = 0; i < w->n_ends; i++)
		for (k = 0; k < 1u << w->ends[i]->lmc; k++)
			w->lids[w->n_lids++] = (uint16_t)(w->ends[i]->lid + k);
	route(w);

	/* Partitions. */
	w->n_pool = 1 + rnd(MAX_PKEYS);
	for (i = 0; i < w->n_pool; i++)
		w->pool[i] = (uint16_t)(1 + i + rnd(2) * 0x10);
	w->pv[0] = (struct oq_partition){.name = (char *)partition_names[0],
					 .pkey = 0x7fff,
					 .sl = chance(50) ? -1 : (int)rnd(8)};
	for (i = 0; i < w->n_pool; i++)
		w->pv[i + 1] = (struct oq_partition){
			.name = (char *)partition_names[i + 1],
			.pkey = w->pool[i],
			.sl = chance(40) ? -1 : (int)rnd(8)};
	w->parts.v = w->pv;
	w->parts.n = w->n_pool + 1;
	for (i = 0; i < w->n_ends; i++)
		random_pkeys(w, w->ends[i],
			     w->ends[i]->node->type == OQ_NODE_SWITCH);
	w->allow_both = chance(30);

	/* Aliases: every end port's GUID, and a second GUID for some CAs. */
	w->n_al = 0;
	for (i = 0; i < w->n_ends; i++) {
		w->al[w->n_al++] =
			(struct oq_alias){w->ends[i]->guid, w->ends[i]};
		if (w->ends[i]->node->type == OQ_NODE_CA && chance(25))
			w->al[w->n_al++] = (struct oq_alias){
				w->ends[i]->guid + 0x80, w->ends[i]};
	}
	oq_alias_sort(w->al, w->n_al);
}

/* ---- the random policy ---------------------------------------------- */

static void put(struct world *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct world *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(w->text + w->len, sizeof(w->text) - w->len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof(w->text) - w->len);
	w->len += (size_t)n;
}

static uint16_t random_pkey_value(const struct world *w)
{
	unsigned int r = rnd(100);

	if (r < 70)
		return w->pool[rnd(w->n_pool)];
	if (r < 85)
		return 0x7fff;
	return (uint16_t)(1 + rnd(0x30)); /* maybe no port has it */
}

static void policy_text(struct world *w)
{
	unsigned int n_groups = 1 + rnd(3), n_levels = 1 + rnd(MAX_LEVELS - 1);
	unsigned int n_rules = rnd(6), i, k;

	w->len = 0;
	put(w, "port-groups\n");
	for (i = 0; i < n_groups; i++) {
		put(w, "  port-group\n    name: G%u\n", i);
		if (chance(70)) {
			put(w, "    port-guid: 0x%llx",
			    (unsigned long long)w->ends[rnd(w->n_ends)]->guid);
			for (k = rnd(3); k; k--)
				put(w, ", 0x%llx",
				    (unsigned long long)w->ends[rnd(w->n_ends)]
					    ->guid);
			put(w, "\n");
		} else {
			put(w, "    pkey: 0x%x\n", random_pkey_value(w));
		}
		put(w, "  end-port-group\n");
	}
	put(w, "end-port-groups\nqos-levels\n");
	for (i = 0; i < n_levels; i++) {
		if (i)
			put(w, "  qos-level\n    name: L%u\n", i);
		else
			put(w, "  qos-level\n    name: DEFAULT\n");
		/* OpenSM requires an SL in every level. */
		put(w, "    sl: %u\n", rnd(16));
		if (chance(50)) {
			put(w, "    pkey: 0x%x", random_pkey_value(w));
			if (chance(40))
				put(w, ", 0x%x", random_pkey_value(w));
			put(w, "\n");
		}
		if (chance(35))
			put(w, "    path-bits: %s\n",
			    (const char *[]){"0", "1", "2-3", "0,2",
					     "1,3"}[rnd(5)]);
		put(w, "  end-qos-level\n");
	}
	put(w, "end-qos-levels\nqos-match-rules\n");
	for (i = 0; i < n_rules; i++) {
		bool any = false;

		put(w, "  qos-match-rule\n");
		if (chance(35)) {
			put(w, "    source: G%u\n", rnd(n_groups));
			any = true;
		}
		if (chance(35)) {
			put(w, "    destination: G%u\n", rnd(n_groups));
			any = true;
		}
		if (chance(40)) {
			unsigned int lo = 0x100 + rnd(4);

			put(w, "    service-id: 0x%x-0x%x\n", lo, lo + rnd(2));
			any = true;
		}
		if (chance(30)) {
			put(w, "    qos-class: %u\n", 1 + rnd(3));
			any = true;
		}
		if (!any || chance(30))
			put(w, "    pkey: 0x%x\n", random_pkey_value(w));
		k = rnd(n_levels);
		if (k)
			put(w, "    qos-level-name: L%u\n", k);
		else
			put(w, "    qos-level-name: DEFAULT\n");
		put(w, "  end-qos-match-rule\n");
	}
	put(w, "end-qos-match-rules\n");
}

static void policy_free(struct world *w)
{
	oq_matcher_free(w->m);
	oq_binding_free(w->bind);
	oq_policy_free(w->pol);
	oq_diags_free(&w->diags);
	w->m = NULL;
	w->bind = NULL;
	w->pol = NULL;
}

/* Parse, validate, bind and compile; false when the generator wrote
 * something the validator rejects (then another is drawn). */
static bool policy_build(struct world *w)
{
	policy_text(w);
	oq_diags_init(&w->diags);
	w->pol = oq_policy_parse("iso.conf", w->text, w->len, &w->diags);
	assert_non_null(w->pol);
	oq_policy_validate(w->pol, &w->diags);
	if (w->diags.n_errors) {
		if (getenv("OQ_ISO_VERBOSE"))
			oq_diags_print(&w->diags, stderr);
		policy_free(w);
		return false;
	}
	w->bind = oq_bind(w->pol, w->f, &w->parts, &w->diags);
	assert_non_null(w->bind);
	w->m = oq_matcher_compile(w->bind);
	assert_non_null(w->m);
	w->v = (struct oq_sa_view){
		.fabric = w->f,
		.policy = w->pol,
		.matcher = w->m,
		.parts = &w->parts,
		.aliases = w->al,
		.n_aliases = w->n_al,
		.subnet_prefix = PREFIX,
		.subnet_timeout = 18,
		.qos = true,
		.allow_both_pkeys = w->allow_both,
		.apply_path_bits = true,
		.lmc = 2,
	};
	return true;
}

#endif /* OSMQOS_TEST_SA_ISOLATION_WORLD_H */
