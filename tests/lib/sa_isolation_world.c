// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Random worlds for the SA isolation property test
 * (sa_isolation_world.h). */
#include "sa_isolation_world.h"

uint64_t world_rng;

static const char *const partition_names[] = {"Default", "PA", "PB", "PC"};

uint64_t world_rnd64(void)
{
	world_rng ^= world_rng >> 12;
	world_rng ^= world_rng << 25;
	world_rng ^= world_rng >> 27;
	return world_rng * 0x2545f4914f6cdd1dull;
}

unsigned int world_rnd(unsigned int n)
{
	return n ? (unsigned int)(world_rnd64() >> 33) % n : 0;
}

bool world_chance(unsigned int percent)
{
	return world_rnd(100) < percent;
}

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
			const struct oq_port *peer = oq_port_peer(w->f, p);

			if (!peer || peer->node->type != OQ_NODE_SWITCH)
				continue;
			for (i = 0; i < w->n_sw; i++)
				if (w->sw[i] == peer->node && !seen[i]) {
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
				at = oq_port_peer(w->f, p)->node;
				out = at == w->sw[s]
					      ? oq_port_peer(w->f, p)->num
					      : 0xff;
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
	unsigned int r = world_rnd(100);

	if (sw && world_chance(80)) {
		v[n++] = 0xffff;
	} else {
		if (r < 65)
			v[n++] = 0xffff;
		else if (r < 80)
			v[n++] = 0x7fff;
		for (i = 0; i < w->n_pool; i++) {
			r = world_rnd(100);
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

void world_fabric_build(struct world *w)
{
	struct oq_node *ca[MAX_CA];
	unsigned int i, k;
	uint16_t next = 1, span;

	w->f = oq_fabric_new();
	assert_non_null(w->f);
	w->n_sw = 1 + world_rnd(MAX_SW);
	w->n_ca = 2 + world_rnd(MAX_CA - 1);
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
			struct oq_node *up = w->sw[world_rnd(i)];
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
			sw = w->sw[world_rnd(w->n_sw)];
			port = free_port(sw);
		} while (port < 0 && ++tries < 100);
		assert_true(port > 0);
		snprintf(d, sizeof(d), "ca%u", i);
		n = oq_fabric_add_node(w->f, OQ_NODE_CA, 0xa000 + 0x100 * i, d,
				       1);
		assert_non_null(n);
		n->ports[1].guid = 0xa001 + 0x100 * i;
		n->ports[1].mtu_cap = 5;
		n->ports[1].lmc = (uint8_t)world_rnd(3);
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
	w->n_pool = 1 + world_rnd(MAX_PKEYS);
	for (i = 0; i < w->n_pool; i++)
		w->pool[i] = (uint16_t)(1 + i + world_rnd(2) * 0x10);
	w->pv[0] = (struct oq_partition){
		.name = (char *)partition_names[0],
		.pkey = 0x7fff,
		.sl = world_chance(50) ? -1 : (int)world_rnd(8)};
	for (i = 0; i < w->n_pool; i++)
		w->pv[i + 1] = (struct oq_partition){
			.name = (char *)partition_names[i + 1],
			.pkey = w->pool[i],
			.sl = world_chance(40) ? -1 : (int)world_rnd(8)};
	w->parts.v = w->pv;
	w->parts.n = w->n_pool + 1;
	for (i = 0; i < w->n_ends; i++)
		random_pkeys(w, w->ends[i],
			     w->ends[i]->node->type == OQ_NODE_SWITCH);
	w->allow_both = world_chance(30);

	/* Aliases: every end port's GUID, and a second GUID for some CAs. */
	w->n_al = 0;
	for (i = 0; i < w->n_ends; i++) {
		w->al[w->n_al++] =
			(struct oq_alias){w->ends[i]->guid, w->ends[i]};
		if (w->ends[i]->node->type == OQ_NODE_CA && world_chance(25))
			w->al[w->n_al++] = (struct oq_alias){
				w->ends[i]->guid + 0x80, w->ends[i]};
	}
	oq_alias_sort(w->al, w->n_al);
}

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
	unsigned int r = world_rnd(100);

	if (r < 70)
		return w->pool[world_rnd(w->n_pool)];
	if (r < 85)
		return 0x7fff;
	return (uint16_t)(1 + world_rnd(0x30)); /* maybe no port has it */
}

static void policy_text(struct world *w)
{
	unsigned int n_groups = 1 + world_rnd(3),
		     n_levels = 1 + world_rnd(MAX_LEVELS - 1);
	unsigned int n_rules = world_rnd(6), i, k;

	w->len = 0;
	put(w, "port-groups\n");
	for (i = 0; i < n_groups; i++) {
		put(w, "  port-group\n    name: G%u\n", i);
		if (world_chance(70)) {
			put(w, "    port-guid: 0x%llx",
			    (unsigned long long)w->ends[world_rnd(w->n_ends)]
				    ->guid);
			for (k = world_rnd(3); k; k--)
				put(w, ", 0x%llx",
				    (unsigned long long)w
					    ->ends[world_rnd(w->n_ends)]
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
		put(w, "    sl: %u\n", world_rnd(16));
		if (world_chance(50)) {
			put(w, "    pkey: 0x%x", random_pkey_value(w));
			if (world_chance(40))
				put(w, ", 0x%x", random_pkey_value(w));
			put(w, "\n");
		}
		if (world_chance(35))
			put(w, "    path-bits: %s\n",
			    (const char *[]){"0", "1", "2-3", "0,2",
					     "1,3"}[world_rnd(5)]);
		put(w, "  end-qos-level\n");
	}
	put(w, "end-qos-levels\nqos-match-rules\n");
	for (i = 0; i < n_rules; i++) {
		bool any = false;

		put(w, "  qos-match-rule\n");
		if (world_chance(35)) {
			put(w, "    source: G%u\n", world_rnd(n_groups));
			any = true;
		}
		if (world_chance(35)) {
			put(w, "    destination: G%u\n", world_rnd(n_groups));
			any = true;
		}
		if (world_chance(40)) {
			unsigned int lo = 0x100 + world_rnd(4);

			put(w, "    service-id: 0x%x-0x%x\n", lo,
			    lo + world_rnd(2));
			any = true;
		}
		if (world_chance(30)) {
			put(w, "    qos-class: %u\n", 1 + world_rnd(3));
			any = true;
		}
		if (!any || world_chance(30))
			put(w, "    pkey: 0x%x\n", random_pkey_value(w));
		k = world_rnd(n_levels);
		if (k)
			put(w, "    qos-level-name: L%u\n", k);
		else
			put(w, "    qos-level-name: DEFAULT\n");
		put(w, "  end-qos-match-rule\n");
	}
	put(w, "end-qos-match-rules\n");
}

void world_policy_free(struct world *w)
{
	oq_matcher_free(w->m);
	oq_binding_free(w->bind);
	oq_policy_free(w->pol);
	oq_diags_free(&w->diags);
	w->m = NULL;
	w->bind = NULL;
	w->pol = NULL;
}

bool world_policy_build(struct world *w)
{
	policy_text(w);
	oq_diags_init(&w->diags);
	w->pol = oq_policy_parse("iso.conf", w->text, w->len, &w->diags);
	assert_non_null(w->pol);
	oq_policy_validate(w->pol, &w->diags);
	if (w->diags.n_errors) {
		if (getenv("OQ_ISO_VERBOSE"))
			oq_diags_print(&w->diags, stderr);
		world_policy_free(w);
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
