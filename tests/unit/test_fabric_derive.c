// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: a fabric built from the one before it (oq_fabric_derive)
 * equals the fabric built afresh from the same description, through
 * chains of random changes (nodes added, removed and changed, links cut
 * and made, loopback cables among them, routes, partition tables and
 * LMCs changed, two ports on one GUID or LID now and then), with its
 * diagnostics; partitions set after finalize, as the plugin sets OpenSM's,
 * and the next fabric derived from that one; the fabric it derives from
 * is left as it was; a shared node is copied before it is written.  And
 * its tables: compiled from the last fabric's where the ports' nodes and
 * partners are the same (oq_tables_compile_derived), or in full where
 * that cannot give the full compile's findings, they equal the tables
 * compiled afresh, port by port.
 */
#include <errno.h>
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
#include <osmqos/tables.h>

#define MAX_NODES 24
#define MAX_PORTS 6
#define N_LIDS	  64

/* A fabric as a description: what a record would say of it. */
struct d_port {
	uint16_t lid;
	uint8_t lmc;
	uint64_t guid; /* 0: the node's own (node GUID + port number) */
	uint8_t width, vl_cap;
	uint64_t peer_guid; /* 0: no link */
	uint8_t peer_num;
	uint16_t pkeys[2];
	uint8_t n_pkeys;
};

struct d_node {
	uint64_t guid; /* 0: no node in this slot */
	enum oq_node_type type;
	char desc[16];
	uint8_t n_ports;
	struct d_port ports[MAX_PORTS + 1];
	uint8_t lft[N_LIDS];
	bool has_lft;
};

struct desc {
	struct d_node n[MAX_NODES]; /* in node order (GUID order) */
};

static unsigned int seed;

/* What the chains went through, so that a test that runs none of a case
 * says so. */
static struct {
	unsigned int loopbacks, dups, dup_diags, owned_copies, lmcs;
	/* Tables derived, compiled in full, and their ports. */
	unsigned int derived, full;
	size_t ports_compiled, ports_derived;
} seen_cases;

static unsigned int rnd(unsigned int n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) % n;
}

static struct d_node *node_of(struct desc *d, uint64_t guid)
{
	int i;

	for (i = 0; i < MAX_NODES; i++)
		if (d->n[i].guid == guid)
			return &d->n[i];
	return NULL;
}

static void unlink_port(struct desc *d, struct d_node *n, unsigned int k)
{
	struct d_port *p = &n->ports[k];
	struct d_node *o = p->peer_guid ? node_of(d, p->peer_guid) : NULL;

	if (o && o->ports[p->peer_num].peer_guid == n->guid &&
	    o->ports[p->peer_num].peer_num == k)
		o->ports[p->peer_num].peer_guid = 0;
	p->peer_guid = 0;
}

static void link_ports(struct desc *d, struct d_node *a, unsigned int i,
		       struct d_node *b, unsigned int j)
{
	/* A port to itself is no link; to another of its node's is. */
	if (a == b && i == j)
		return;
	seen_cases.loopbacks += a == b;
	unlink_port(d, a, i);
	unlink_port(d, b, j);
	a->ports[i].peer_guid = b->guid;
	a->ports[i].peer_num = (uint8_t)j;
	b->ports[j].peer_guid = a->guid;
	b->ports[j].peer_num = (uint8_t)i;
}

/* Names of their own mostly, some shared with other nodes. */
static void name_node(struct d_node *n, unsigned int slot)
{
	if (rnd(5))
		snprintf(n->desc, sizeof(n->desc), "n%u-%u", slot, rnd(3));
	else
		snprintf(n->desc, sizeof(n->desc), "shared-%u", rnd(2));
}

static void new_node(struct d_node *n, unsigned int slot)
{
	unsigned int k;

	memset(n, 0, sizeof(*n));
	n->guid = 0x1000 + slot * 64 + rnd(16);
	n->type = rnd(3) ? OQ_NODE_CA : OQ_NODE_SWITCH;
	name_node(n, slot);
	n->n_ports = (uint8_t)(1 + rnd(MAX_PORTS));
	for (k = 0; k <= n->n_ports; k++) {
		/* Room for LMC 2 between ports. */
		n->ports[k].lid = (uint16_t)(4 * (1 + slot * 8 + k));
		n->ports[k].lmc = (uint8_t)rnd(3);
		n->ports[k].width = 4;
		n->ports[k].vl_cap = 8;
	}
	n->has_lft = n->type == OQ_NODE_SWITCH;
	for (k = 0; k < N_LIDS; k++)
		n->lft[k] = (uint8_t)rnd(n->n_ports + 1);
}

static void remove_node(struct desc *d, struct d_node *n)
{
	unsigned int k;

	for (k = 1; k <= n->n_ports; k++)
		unlink_port(d, n, k);
	memset(n, 0, sizeof(*n));
}

static void random_link(struct desc *d)
{
	struct d_node *a = &d->n[rnd(MAX_NODES)], *b = &d->n[rnd(MAX_NODES)];

	if (a->guid && b->guid)
		link_ports(d, a, 1 + rnd(a->n_ports), b, 1 + rnd(b->n_ports));
}

static void random_fabric(struct desc *d)
{
	unsigned int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < MAX_NODES; i++)
		if (rnd(4))
			new_node(&d->n[i], i);
	for (i = 0; i < 2 * MAX_NODES; i++)
		random_link(d);
}

/* One change of the kinds a sweep sees. */
static void random_change(struct desc *d)
{
	struct d_node *n = &d->n[rnd(MAX_NODES)], *o;
	struct d_port *p;

	switch (rnd(rnd(20) ? 9 : 10)) {
	case 0:
		if (n->guid)
			remove_node(d, n);
		else
			new_node(n, (unsigned int)(n - d->n));
		break;
	case 1:
		random_link(d);
		break;
	case 2:
		if (n->guid)
			unlink_port(d, n, 1 + rnd(n->n_ports));
		break;
	case 3:
		if (n->guid && n->has_lft)
			n->lft[rnd(N_LIDS)] = (uint8_t)rnd(n->n_ports + 1);
		break;
	case 4:
		if (n->guid) {
			p = &n->ports[1 + rnd(n->n_ports)];
			p->n_pkeys = (uint8_t)rnd(3);
			p->pkeys[0] = 0xffff;
			p->pkeys[1] = (uint16_t)(0x8001 + rnd(3));
		}
		break;
	case 5:
		if (n->guid)
			n->ports[1 + rnd(n->n_ports)].width = rnd(2) ? 4 : 1;
		break;
	case 6:
		if (n->guid)
			name_node(n, (unsigned int)(n - d->n));
		break;
	case 7:
		if (n->guid) {
			n->ports[n->type == OQ_NODE_SWITCH ? 0 : 1].lmc =
				(uint8_t)rnd(3);
			seen_cases.lmcs++;
		}
		break;
	case 8:
		/* Fewer VLs than the policy's tables use, now and then: a
		 * finding. */
		if (n->guid)
			n->ports[1 + rnd(n->n_ports)].vl_cap = rnd(6) ? 8 : 2;
		break;
	default:
		/* Two ports on one GUID or LID (another node's end port):
		 * the index reports it afresh. */
		o = &d->n[rnd(MAX_NODES)];
		if (!n->guid || !o->guid || o == n)
			break;
		seen_cases.dups++;
		p = &n->ports[n->type == OQ_NODE_SWITCH ? 0 : 1];
		if (rnd(2))
			p->lid =
				o->ports[o->type == OQ_NODE_SWITCH ? 0 : 1].lid;
		else
			p->guid = o->type == OQ_NODE_SWITCH ? o->guid
							    : o->guid + 1;
		break;
	}
}

/* A node's own facts into f's new node q (its links come after). */
static void fill(struct oq_fabric *f, struct oq_node *q, const struct d_node *n)
{
	unsigned int k;

	for (k = q->type == OQ_NODE_SWITCH ? 0 : 1; k <= n->n_ports; k++) {
		struct oq_port *p = &q->ports[k];

		p->present = true;
		p->guid = q->type == OQ_NODE_SWITCH ? n->guid : n->guid + k;
		if (n->ports[k].guid)
			p->guid = n->ports[k].guid;
		p->lid = n->ports[k].lid;
		p->lmc = n->ports[k].lmc;
		p->width = n->ports[k].width;
		p->vl_cap = n->ports[k].vl_cap;
		p->vlarb_high_cap = 8;
		p->vlarb_low_cap = 8;
		p->sl2vl_cap = true;
		assert_int_equal(oq_port_set_pkeys(p, n->ports[k].pkeys,
						   n->ports[k].n_pkeys),
				 0);
	}
	if (n->has_lft)
		assert_int_equal(oq_fabric_set_lft(f, q, n->lft, N_LIDS), 0);
}

static struct oq_node *fab_node(const struct oq_fabric *f, uint64_t guid)
{
	size_t i;

	for (i = 0; i < f->n_nodes; i++)
		if (f->nodes[i]->guid == guid)
			return f->nodes[i];
	return NULL;
}

/* Links of the nodes in want (all: every node), as a builder makes
 * them: a port already linked stays. */
static void make_links(struct oq_fabric *f, const struct desc *d,
		       const bool *want)
{
	unsigned int i, k;

	for (i = 0; i < MAX_NODES; i++) {
		const struct d_node *n = &d->n[i];
		struct oq_node *q, *r;

		if (!n->guid || (want && !want[i]))
			continue;
		q = fab_node(f, n->guid);
		for (k = 1; k <= n->n_ports; k++) {
			if (!n->ports[k].peer_guid ||
			    oq_port_peer(f, &q->ports[k]))
				continue;
			r = fab_node(f, n->ports[k].peer_guid);
			assert_non_null(r);
			oq_fabric_link_in(f, &q->ports[k],
					  &r->ports[n->ports[k].peer_num]);
		}
	}
}

static struct oq_fabric *build_fresh(const struct desc *d,
				     struct oq_diags *diags)
{
	struct oq_fabric *f = oq_fabric_new();
	unsigned int i;

	for (i = 0; i < MAX_NODES; i++) {
		const struct d_node *n = &d->n[i];
		struct oq_node *q;

		if (!n->guid)
			continue;
		q = oq_fabric_add_node(f, n->type, n->guid, n->desc,
				       n->n_ports);
		assert_non_null(q);
		fill(f, q, n);
	}
	make_links(f, d, NULL);
	assert_int_equal(oq_fabric_finalize(f, diags), 0);
	return f;
}

static bool same_desc_node(const struct d_node *a, const struct d_node *b)
{
	return !memcmp(a, b, offsetof(struct d_node, lft));
}

/* prev (built from old) to a fabric for d: unchanged nodes shared. */
static struct oq_fabric *build_derived(const struct oq_fabric *prev,
				       const struct desc *old,
				       const struct desc *d, size_t *n_shared,
				       struct oq_diags *diags)
{
	struct oq_fabric *f = oq_fabric_derive(prev);
	bool changed[MAX_NODES] = {false};
	unsigned int i;

	assert_non_null(f);
	*n_shared = 0;
	for (i = 0; i < MAX_NODES; i++) {
		const struct d_node *n = &d->n[i];
		struct oq_node *was = n->guid ? fab_node(prev, n->guid) : NULL;
		struct oq_node *q;

		if (!n->guid)
			continue;
		if (was && same_desc_node(n, &old->n[i])) {
			assert_int_equal(oq_fabric_share_node(f, was), 0);
			(*n_shared)++;
			if (n->has_lft && memcmp(n->lft, old->n[i].lft, N_LIDS))
				assert_int_equal(oq_fabric_set_lft(f, was,
								   n->lft,
								   N_LIDS),
						 0);
			continue;
		}
		changed[i] = true;
		q = oq_fabric_add_node_as(f, n->type, n->guid, n->desc,
					  n->n_ports, was);
		assert_non_null(q);
		if (was && was->n_ports == n->n_ports)
			assert_int_equal(q->id, was->id);
		fill(f, q, n);
	}
	make_links(f, d, changed);
	assert_int_equal(oq_fabric_finalize(f, diags), 0);
	return f;
}

/* The partition tables of generation gen, a port's from its node's GUID
 * and its number: none, or the default partition and one of three. */
static size_t part_keys(const struct oq_node *n, unsigned int k,
			unsigned int gen, uint16_t keys[2])
{
	unsigned int h = (unsigned int)n->guid * 31u + k * 7u + gen * 13u;

	keys[0] = 0xffff;
	keys[1] = (uint16_t)(0x8001 + h % 3);
	return (h >> 2) % 3;
}

/*
 * Partitions on finalized f, as the plugin sets OpenSM's: a port whose
 * table differs gets its node made f's own (a copy when another fabric
 * shares it) and its table set; the others are left alone.
 */
static void set_partitions(struct oq_fabric *f, unsigned int gen)
{
	size_t i, n;
	uint16_t keys[2];

	for (i = 0; i < f->n_ports; i++) {
		struct oq_port *p = f->ports[i];
		struct oq_node *nd;

		n = part_keys(p->node, p->num, gen, keys);
		if (p->n_pkeys == n &&
		    (!n || !memcmp(p->pkeys, keys, n * sizeof(*keys))))
			continue;
		nd = oq_fabric_node_own(f, p->node);
		assert_non_null(nd);
		seen_cases.owned_copies += nd != p->node;
		assert_int_equal(oq_port_set_pkeys(&nd->ports[p->num], keys, n),
				 0);
	}
}

/* The diagnostics, one a line, and every LID and GUID a port could have
 * with what answers to it: a key left behind by a node that went away
 * answers too. */
static void dump_keys(char *s, size_t *len, size_t cap,
		      const struct oq_fabric *f, const struct oq_diags *d)
{
	const struct oq_port *p;
	unsigned int lid, i, g;
	size_t j;

	for (j = 0; d && j < d->n; j++) {
		*len += (size_t)oq_diag_format(&d->v[j], s + *len, cap - *len);
		*len += (size_t)snprintf(s + *len, cap - *len, "\n");
	}
	for (lid = 1; lid < 4 * (MAX_NODES + 1) * 8; lid++) {
		p = oq_fabric_port_by_lid(f, (uint16_t)lid);
		if (p)
			*len += (size_t)snprintf(
				s + *len, cap - *len, "lid %u %lx/%u\n", lid,
				(unsigned long)p->node->guid, p->num);
	}
	for (i = 0; i < MAX_NODES; i++)
		for (g = 0; g < 16 + MAX_PORTS + 1; g++) {
			p = oq_fabric_port_by_guid(f, 0x1000 + i * 64 + g);
			if (p)
				*len += (size_t)snprintf(
					s + *len, cap - *len,
					"guid %x %lx/%u\n", 0x1000 + i * 64 + g,
					(unsigned long)p->node->guid, p->num);
		}
}

/* Everything a reader of f can see, as text. */
static char *dump(const struct oq_fabric *f, const struct oq_diags *d)
{
	size_t cap = 1 << 16, len = 0, i;
	char *s = malloc(cap);
	unsigned int k, l;

	assert_non_null(s);
#define OUT(...) len += (size_t)snprintf(s + len, cap - len, __VA_ARGS__)
	OUT("%zu nodes %zu ports\n", f->n_nodes, f->n_ports);
	dump_keys(s, &len, cap, f, d);
	for (i = 0; i < f->n_nodes; i++) {
		const struct oq_node *n = f->nodes[i];

		assert_int_equal(oq_node_index(f, n), i);
		const struct oq_node *o;
		size_t same;

		OUT("node %zu %lx %d %s %s %u\n", i, (unsigned long)n->guid,
		    n->type, n->desc, oq_node_name(n), n->n_ports);
		/* The lookups: by GUID, and by name the first in table order
		 * and the ones after it. */
		assert_ptr_equal(oq_fabric_node_by_guid(f, n->guid), n);
		o = oq_fabric_node_by_name(f, n->desc, strlen(n->desc), &same);
		OUT("same name %zu:", same);
		for (; o; o = oq_fabric_node_next_same_name(f, o))
			OUT(" %lx", (unsigned long)o->guid);
		OUT("\n");
		for (l = 0; n->type == OQ_NODE_SWITCH && l < N_LIDS; l++)
			OUT("%u", oq_node_lft_port(f, n, (uint16_t)l));
		for (k = 0; k <= n->n_ports; k++) {
			const struct oq_port *p = &n->ports[k];
			const struct oq_port *q = oq_port_peer(f, p);
			size_t np, j;
			const uint16_t *keys = oq_port_pkeys(f, p, &np);

			OUT("\n port %u %d %lx %u/%u %u %u pos %u", k,
			    p->present, (unsigned long)p->guid, p->lid, p->lmc,
			    p->width, p->vl_cap, oq_port_index(f, p));
			/* The partner is a port of f's and p's partner in
			 * turn: not one of a node f no longer holds. */
			if (q) {
				assert_true(oq_node_index(f, q->node) <
					    f->n_nodes);
				assert_ptr_equal(
					f->nodes[oq_node_index(f, q->node)],
					q->node);
				assert_ptr_equal(oq_port_peer(f, q), p);
				OUT(" peer %lx/%u",
				    (unsigned long)q->node->guid, q->num);
			}
			for (j = 0; j < np; j++)
				OUT(" k%x", keys[j]);
			if (p->present && oq_port_is_endport(p)) {
				const struct oq_port *by =
					oq_fabric_port_by_lid(f, p->lid);

				OUT(" by guid %s",
				    oq_fabric_port_by_guid(f, p->guid) == p
					    ? "itself"
					    : "another");
				if (by)
					OUT(" by lid %lx/%u",
					    (unsigned long)by->node->guid,
					    by->num);
			}
		}
		OUT("\n");
		assert_true(len < cap - 1024);
	}
	for (i = 0; i < f->n_ports; i++)
		assert_int_equal(oq_port_index(f, f->ports[i]), i);
#undef OUT
	return s;
}

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
		seen_cases.derived++;
		seen_cases.ports_compiled += n_compiled;
		seen_cases.ports_derived += derived->n_ports;
		assert_true(tf.quiet);
	} else {
		seen_cases.full++;
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

static void one_chain(unsigned int s)
{
	struct desc a, b;
	struct oq_fabric *prev, *fresh, *derived;
	struct oq_fabric_tables prev_t, next_t;
	struct oq_policy *pol = test_policy("derive.conf", policy_text);
	struct oq_binding *bp;
	struct oq_diags df, dd;
	char *before, *x, *y;
	size_t shared, total_shared = 0;
	unsigned int gen = 0;
	bool parts;
	int step;

	seed = s;
	random_fabric(&a);
	/* Half the chains with partitions, which change now and then. */
	parts = rnd(2);
	prev = build_fresh(&a, NULL);
	if (parts)
		set_partitions(prev, gen);
	bp = oq_bind(pol, prev, NULL, NULL);
	assert_int_equal(oq_tables_compile(bp, prev, NULL, &prev_t, NULL), 0);
	oq_binding_free(bp);
	for (step = 0; step < 20; step++) {
		int c, n_changes = 1 + (int)rnd(3);

		b = a;
		for (c = 0; c < n_changes; c++)
			random_change(&b);
		gen += !rnd(3);
		before = dump(prev, NULL);
		oq_diags_init(&df);
		oq_diags_init(&dd);
		fresh = build_fresh(&b, &df);
		derived = build_derived(prev, &a, &b, &shared, &dd);
		seen_cases.dup_diags += df.n > 0;
		if (parts) {
			set_partitions(fresh, gen);
			set_partitions(derived, gen);
		}
		total_shared += shared;
		x = dump(fresh, &df);
		y = dump(derived, &dd);
		if (strcmp(x, y))
			print_message("seed %u step %d\n", s, step);
		assert_string_equal(x, y);
		free(x);
		check_tables(pol, prev, &prev_t, fresh, derived, &next_t);
		oq_fabric_tables_free(&prev_t);
		prev_t = next_t;
		/* What it derives from is as it was, and may go first. */
		x = dump(prev, NULL);
		assert_string_equal(before, x);
		free(x);
		free(before);
		free(y);
		oq_diags_free(&df);
		oq_diags_free(&dd);
		oq_fabric_free(prev);
		oq_fabric_free(fresh);
		prev = derived;
		a = b;
	}
	oq_fabric_tables_free(&prev_t);
	oq_fabric_free(prev);
	oq_policy_free(pol);
	/* Most nodes outlive a few changes: the chains did share. */
	assert_true(total_shared > 20 * MAX_NODES / 3);
}

static void test_derived_equals_fresh(void **state)
{
	unsigned int s;

	(void)state;
	memset(&seen_cases, 0, sizeof(seen_cases));
	for (s = 1; s <= 200; s++)
		one_chain(s);
	/* The chains went through every case. */
	assert_true(seen_cases.loopbacks > 0);
	assert_true(seen_cases.dups > 0);
	assert_true(seen_cases.dup_diags > 0);
	assert_true(seen_cases.owned_copies > 0);
	assert_true(seen_cases.lmcs > 0);
	/* Tables derived in most steps, compiling a few of their ports;
	 * compiled in full in some (a finding, a scope's port gone). */
	print_message("tables: %u derived (%zu of %zu ports compiled), "
		      "%u in full\n",
		      seen_cases.derived, seen_cases.ports_compiled,
		      seen_cases.ports_derived, seen_cases.full);
	assert_true(seen_cases.derived > seen_cases.full);
	assert_true(seen_cases.full > 0);
	assert_true(seen_cases.ports_compiled * 3 < seen_cases.ports_derived);
}

/* A node two fabrics share is copied before one of them writes it. */
static void test_own_copies_shared(void **state)
{
	struct desc a;
	struct oq_fabric *f0, *f1;
	struct oq_node *n0, *n1;
	uint16_t key = 0x8005;
	size_t shared, i, np;
	char *before, *after;

	(void)state;
	seed = 7;
	random_fabric(&a);
	f0 = build_fresh(&a, NULL);
	f1 = build_derived(f0, &a, &a, &shared, NULL);
	assert_int_equal(shared, f0->n_nodes);
	for (i = 0; i < f1->n_nodes && !f1->nodes[i]->ports[1].present; i++)
		;
	assert_true(i < f1->n_nodes);
	n0 = f1->nodes[i];
	before = dump(f0, NULL);
	n1 = oq_fabric_node_own(f1, n0);
	assert_non_null(n1);
	assert_ptr_not_equal(n0, n1);
	assert_int_equal(n1->id, n0->id);
	assert_ptr_equal(f1->nodes[i], n1);
	assert_ptr_equal(f1->ports[oq_port_index(f1, &n1->ports[1])],
			 &n1->ports[1]);
	if (oq_port_peer(f1, &n1->ports[1]))
		assert_ptr_equal(
			oq_port_peer(f1, oq_port_peer(f1, &n1->ports[1])),
			&n1->ports[1]);
	assert_int_equal(oq_port_set_pkeys(&n1->ports[1], &key, 1), 0);
	/* Its own now: asked again, the same node. */
	assert_ptr_equal(oq_fabric_node_own(f1, n1), n1);
	after = dump(f0, NULL);
	assert_string_equal(before, after);
	assert_int_equal(oq_port_pkeys(f1, &n1->ports[1], &np)[0], key);
	free(before);
	free(after);
	oq_fabric_free(f0);
	oq_fabric_free(f1);
}

/* A shared node's port left linked to a node that went away: the
 * builder missed a change, and finalize says so instead of keeping a
 * link to freed memory. */
static void test_dangling_link_refused(void **state)
{
	struct oq_fabric *f0 = oq_fabric_new(), *f1;
	struct oq_node *a, *b;

	(void)state;
	a = oq_fabric_add_node(f0, OQ_NODE_CA, 0x10, "a", 1);
	b = oq_fabric_add_node(f0, OQ_NODE_CA, 0x20, "b", 1);
	a->ports[1].guid = 0x11;
	b->ports[1].guid = 0x21;
	oq_fabric_link(&a->ports[1], &b->ports[1]);
	assert_int_equal(oq_fabric_finalize(f0, NULL), 0);
	f1 = oq_fabric_derive(f0);
	assert_int_equal(oq_fabric_share_node(f1, a), 0);
	assert_int_equal(oq_fabric_finalize(f1, NULL), -EINVAL);
	oq_fabric_free(f1);
	oq_fabric_free(f0);
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

static void small_node(struct d_node *n, uint64_t guid, enum oq_node_type type,
		       unsigned int slot)
{
	unsigned int k;

	memset(n, 0, sizeof(*n));
	n->guid = guid;
	n->type = type;
	snprintf(n->desc, sizeof(n->desc), "n%u", slot);
	n->n_ports = type == OQ_NODE_SWITCH ? 4 : 1;
	for (k = 0; k <= n->n_ports; k++) {
		n->ports[k].lid = (uint16_t)(4 * (1 + slot * 8 + k));
		n->ports[k].width = 4;
		n->ports[k].vl_cap = 8;
	}
}

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
	small_node(&a.n[0], 0x1000, OQ_NODE_SWITCH, 0);
	small_node(&a.n[1], 0x1100, OQ_NODE_CA, 1);
	small_node(&a.n[2], 0x5000, OQ_NODE_CA, 2);
	a.n[1].ports[1].pkeys[0] = key;
	a.n[1].ports[1].n_pkeys = 1;
	link_ports(&a, &a.n[1], 1, &a.n[0], 1);
	link_ports(&a, &a.n[2], 1, &a.n[0], 2);
	f0 = build_fresh(&a, NULL);
	b = oq_bind(pol, f0, NULL, NULL);
	assert_int_equal(oq_tables_compile(b, f0, &tpl, &t0, NULL), 0);
	oq_binding_free(b);
	assert_true(t0.quiet);

	/* Nothing changed: every port's tables are the last ones. */
	f1 = build_derived(f0, &a, &a, &shared, NULL);
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
	f1 = build_derived(f0, &a, &a, &shared, NULL);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derived_equals_fresh),
		cmocka_unit_test(test_own_copies_shared),
		cmocka_unit_test(test_dangling_link_refused),
		cmocka_unit_test(test_tables_not_derived_with_findings),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
