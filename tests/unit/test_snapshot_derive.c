// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: a snapshot built from the last one (oq_snapshot_build with
 * prev) equals the one built afresh from the same record, through chains
 * of random changes to a hand-built OpenSM subnet: links made and cut,
 * descriptions and node-name map names, routes, widths, VLCaps, P_Keys
 * and LMCs changed, nodes discovery did not see, nodes removed and added,
 * a node back under its GUID with another port count, and a node's memory
 * taken by another node (the address OpenSM's node had is what the
 * snapshot knows it by), now and then two ports on one GUID or LID.  The
 * nodes whose part of the record did not change are prev's very nodes,
 * and only the others are read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <opensm/osm_opensm.h>
#include <opensm/osm_node.h>
#include <opensm/osm_switch.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>

#include "osm/osm.h"

#define N_SLOTS	  16
#define MAX_PHYSP 6 /* port 0 and up to 5 external ports */
#define LFT_SIZE  64
#define N_CHAINS  60
#define N_STEPS	  40

/* Where OpenSM's nodes live: a node is in a slot until it is removed. */
struct slot {
	osm_node_t *node; /* NULL: none */
	osm_switch_t sw;
	uint8_t lft[LFT_SIZE];
	ib_pkey_table_t pk[MAX_PHYSP];
	/* Its part of the record may have changed this step (its routes
	 * aside): it must be read, not shared. */
	bool dirty;
	bool seen_before; /* seen by the last step's snapshot */
};

static osm_opensm_t osm;
static struct slot slots[N_SLOTS];
/* Memory of removed nodes, taken again last first, so that a node comes
 * back at an address another node had. */
static osm_node_t *spare[N_CHAINS * N_STEPS * 2 + N_SLOTS];
static size_t n_spare;
static char map_names[3][8] = {"map-0", "map-1", "shared"};

/* What the chains went through, so that a test that runs none of a case
 * says so. */
static struct {
	unsigned int other_port_count, reused_address, unseen, dups;
	unsigned int steps, small_reads, fallbacks;
} seen_cases;

static unsigned int seed;

static unsigned int rnd(unsigned int n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) % n;
}

static int slot_of(const osm_node_t *n)
{
	int i;

	for (i = 0; i < N_SLOTS; i++)
		if (slots[i].node == n)
			return i;
	return -1;
}

static void mark_dirty(const osm_node_t *n)
{
	int i = slot_of(n);

	if (i >= 0)
		slots[i].dirty = true;
}

static void unlink_physp(osm_physp_t *p)
{
	osm_physp_t *q = p->p_remote_physp;

	if (!q)
		return;
	mark_dirty(p->p_node);
	mark_dirty(q->p_node);
	q->p_remote_physp = NULL;
	p->p_remote_physp = NULL;
}

static void node_release(osm_node_t *n)
{
	unsigned int k;

	for (k = 0; k < MAX_PHYSP; k++)
		cl_ptr_vector_destroy(&n->physp_table[k].pkeys.blocks);
}

/* Room for any node, so that any node fits a removed one's memory. */
static osm_node_t *node_alloc(void)
{
	osm_node_t *n;

	if (n_spare) {
		n = spare[--n_spare];
		node_release(n);
		memset(n, 0, sizeof(*n) + MAX_PHYSP * sizeof(osm_physp_t));
		seen_cases.reused_address++;
		return n;
	}
	n = calloc(1, sizeof(*n) + MAX_PHYSP * sizeof(osm_physp_t));
	assert_non_null(n);
	return n;
}

static uint16_t lid_of(int i, unsigned int k)
{
	/* Room for LMC 2 between ports. */
	return (uint16_t)(4 * (1 + i * MAX_PHYSP + (int)k));
}

static void name_node(osm_node_t *n, int i)
{
	char *d = (char *)n->node_desc.description;

	/* Names of their own mostly, some shared with other nodes. */
	if (rnd(5))
		snprintf(d, IB_NODE_DESCRIPTION_SIZE, "n%d-%u", i, rnd(2));
	else
		snprintf(d, IB_NODE_DESCRIPTION_SIZE, "shared-%u", rnd(2));
	n->print_desc = rnd(6) ? NULL : map_names[rnd(3)];
}

/* A node in slot i with GUID guid and n_physp ports (port 0 included). */
static void make_node(int i, uint64_t guid, uint32_t n_physp)
{
	struct slot *s = &slots[i];
	uint8_t type = rnd(3) ? IB_NODE_TYPE_CA : IB_NODE_TYPE_SWITCH;
	osm_node_t *n = node_alloc();
	uint32_t k;

	n->node_info.node_type = type;
	n->node_info.node_guid = cl_hton64(guid);
	n->node_info.num_ports = (uint8_t)(n_physp - 1);
	n->physp_tbl_size = n_physp;
	n->discovery_count = 1;
	name_node(n, i);
	for (k = 0; k < n_physp; k++) {
		osm_physp_t *p = &n->physp_table[k];

		p->p_node = n;
		p->port_num = (uint8_t)k;
		if (k == 0 && type != IB_NODE_TYPE_SWITCH)
			continue;
		p->port_guid = cl_hton64(
			type == IB_NODE_TYPE_SWITCH ? guid : guid * 16 + k);
		p->port_info.base_lid = cl_hton16(lid_of(i, k));
		p->port_info.mkey_lmc = (uint8_t)rnd(3);
		p->port_info.vl_cap = (uint8_t)((1 + rnd(4)) << 4);
		p->port_info.link_width_active = IB_LINK_WIDTH_ACTIVE_4X;
		if (!k)
			p->port_info.capability_mask =
				rnd(2) ? IB_PORT_CAP_HAS_EXT_SPEEDS : 0;
		memset(&s->pk[k], 0, sizeof(s->pk[k]));
		s->pk[k].pkey_entry[0] = cl_hton16(0xffff);
		s->pk[k].pkey_entry[1] = cl_hton16((uint16_t)(0x8001 + rnd(2)));
		assert_int_equal(cl_ptr_vector_init(&p->pkeys.blocks, 1, 1),
				 CL_SUCCESS);
		assert_int_equal(
			cl_ptr_vector_set(&p->pkeys.blocks, 0, &s->pk[k]),
			CL_SUCCESS);
	}
	if (type == IB_NODE_TYPE_SWITCH) {
		memset(&s->sw, 0, sizeof(s->sw));
		for (k = 0; k < LFT_SIZE; k++)
			s->lft[k] = (uint8_t)rnd(n_physp);
		s->sw.new_lft = s->lft;
		s->sw.lft_size = LFT_SIZE;
		s->sw.max_lid_ho = LFT_SIZE - 1;
		s->sw.switch_info.flags = rnd(2) ? 0x08 : 0; /* enhanced 0 */
		n->sw = &s->sw;
	}
	s->node = n;
	s->dirty = true;
	cl_qmap_insert(&osm.subn.node_guid_tbl, n->node_info.node_guid,
		       &n->map_item);
}

static uint64_t new_guid(int i)
{
	return 0x1000 + (uint64_t)i * 64 + rnd(2);
}

static void remove_node(int i)
{
	osm_node_t *n = slots[i].node;
	uint32_t k;

	for (k = 0; k < n->physp_tbl_size; k++)
		unlink_physp(&n->physp_table[k]);
	cl_qmap_remove_item(&osm.subn.node_guid_tbl, &n->map_item);
	spare[n_spare++] = n;
	slots[i].node = NULL;
	slots[i].dirty = true;
}

/* An external port of n. */
static osm_physp_t *ext_port(osm_node_t *n)
{
	return &n->physp_table[1 + rnd(n->physp_tbl_size - 1)];
}

/* Any two ports, of one node too (a loopback cable). */
static void random_link(void)
{
	osm_node_t *a = slots[rnd(N_SLOTS)].node, *b = slots[rnd(N_SLOTS)].node;
	osm_physp_t *p, *q;

	if (!a || !b)
		return;
	p = ext_port(a);
	q = ext_port(b);
	if (p == q)
		return;
	unlink_physp(p);
	unlink_physp(q);
	p->p_remote_physp = q;
	q->p_remote_physp = p;
	mark_dirty(a);
	mark_dirty(b);
}

/* An end port's LID or GUID made another end port's. */
static void make_dup(osm_node_t *n)
{
	osm_node_t *o = slots[rnd(N_SLOTS)].node;
	unsigned int k = n->node_info.node_type == IB_NODE_TYPE_SWITCH ? 0 : 1;
	unsigned int l = 0;

	if (!o || o == n)
		return;
	if (o->node_info.node_type != IB_NODE_TYPE_SWITCH)
		l = 1;
	if (rnd(2))
		n->physp_table[k].port_info.base_lid =
			o->physp_table[l].port_info.base_lid;
	else
		n->physp_table[k].port_guid = o->physp_table[l].port_guid;
	seen_cases.dups++;
	mark_dirty(n);
}

static void random_change(void)
{
	int i = (int)rnd(N_SLOTS), j;
	osm_node_t *n = slots[i].node;
	osm_physp_t *p;
	uint32_t np;
	uint64_t guid;

	switch (rnd(13)) {
	case 0:
		if (n)
			remove_node(i);
		else
			make_node(i, new_guid(i), 2 + rnd(MAX_PHYSP - 1));
		break;
	case 1:
		random_link();
		break;
	case 2:
		if (n)
			unlink_physp(ext_port(n));
		break;
	case 3:
		/* Routes only: the node is still shared. */
		if (n && n->sw)
			slots[i].lft[rnd(LFT_SIZE)] =
				(uint8_t)rnd(n->physp_tbl_size);
		break;
	case 4:
		if (n) {
			name_node(n, i);
			mark_dirty(n);
		}
		break;
	case 5:
		if (n) {
			n->discovery_count = rnd(3) ? 1 : 0;
			mark_dirty(n);
		}
		break;
	case 6:
		if (n) {
			ext_port(n)->port_info.link_width_active =
				rnd(2) ? IB_LINK_WIDTH_ACTIVE_4X
				       : IB_LINK_WIDTH_ACTIVE_1X;
			mark_dirty(n);
		}
		break;
	case 7:
		/* The partner's OperVLs follow: its record changes too. */
		if (n) {
			p = ext_port(n);
			p->port_info.vl_cap = (uint8_t)((1 + rnd(4)) << 4);
			mark_dirty(n);
			if (p->p_remote_physp)
				mark_dirty(p->p_remote_physp->p_node);
		}
		break;
	case 8:
		if (n) {
			slots[i].pk[1].pkey_entry[1] =
				cl_hton16((uint16_t)(rnd(2) ? 0x8001 : 0x0002));
			mark_dirty(n);
		}
		break;
	case 9:
		if (n) {
			n->physp_table[1].port_info.mkey_lmc = (uint8_t)rnd(3);
			mark_dirty(n);
		}
		break;
	case 10:
		/* Back under its GUID with another port count. */
		if (!n)
			break;
		guid = cl_ntoh64(n->node_info.node_guid);
		np = n->physp_tbl_size;
		remove_node(i);
		make_node(i, guid,
			  2 + (np - 2 + 1 + rnd(MAX_PHYSP - 2)) %
					  (MAX_PHYSP - 1));
		if (slots[i].seen_before)
			seen_cases.other_port_count++;
		break;
	case 11:
		/* Another node in its memory, in its slot or another. */
		if (!n)
			break;
		remove_node(i);
		j = (int)rnd(N_SLOTS);
		if (!slots[j].node)
			make_node(j, new_guid(j), 2 + rnd(MAX_PHYSP - 1));
		break;
	default:
		if (n && !rnd(3))
			make_dup(n);
		break;
	}
}

/* The diagnostics, one a line. */
static void dump_diags(char *s, size_t *len, size_t cap,
		       const struct oq_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		*len += (size_t)oq_diag_format(&d->v[i], s + *len, cap - *len);
		*len += (size_t)snprintf(s + *len, cap - *len, "\n");
	}
}

static void dump_name(char *s, size_t *len, size_t cap,
		      const struct oq_fabric *f, const char *name)
{
	size_t same;
	const struct oq_node *n =
		oq_fabric_node_by_name(f, name, strlen(name), &same);

	if (n)
		*len += (size_t)snprintf(s + *len, cap - *len,
					 "name %s %lx %zu\n", name,
					 (unsigned long)n->guid, same);
}

/* Every key a node or port could have, and what answers to it: a key
 * left behind by a node that went away answers too. */
static void dump_lookups(char *s, size_t *len, size_t cap,
			 const struct oq_fabric *f)
{
	const struct oq_port *p;
	const struct oq_node *n;
	char name[16];
	unsigned int lid, i, g, k;
	uint64_t guid;

	for (lid = 1; lid <= lid_of(N_SLOTS, 0) + 4u; lid++) {
		p = oq_fabric_port_by_lid(f, (uint16_t)lid);
		if (p)
			*len += (size_t)snprintf(
				s + *len, cap - *len, "lid %u %lx/%u\n", lid,
				(unsigned long)p->node->guid, p->num);
	}
	for (i = 0; i < N_SLOTS; i++)
		for (g = 0; g < 2; g++) {
			guid = 0x1000 + (uint64_t)i * 64 + g;
			n = oq_fabric_node_by_guid(f, guid);
			if (n)
				*len += (size_t)snprintf(s + *len, cap - *len,
							 "node guid %lx %s\n",
							 (unsigned long)guid,
							 oq_node_name(n));
			for (k = 0; k < MAX_PHYSP; k++) {
				p = oq_fabric_port_by_guid(f, k ? guid * 16 + k
								: guid);
				if (p)
					*len += (size_t)snprintf(
						s + *len, cap - *len,
						"port guid %lx/%u %lx/%u\n",
						(unsigned long)guid, k,
						(unsigned long)p->node->guid,
						p->num);
			}
		}
	/* The names name_node() gives, the map's after them. */
	for (i = 0; i < N_SLOTS + 1; i++)
		for (g = 0; g < 2; g++) {
			if (i < N_SLOTS)
				snprintf(name, sizeof(name), "n%u-%u", i, g);
			else
				snprintf(name, sizeof(name), "shared-%u", g);
			dump_name(s, len, cap, f, name);
		}
	for (i = 0; i < 3; i++)
		dump_name(s, len, cap, f, map_names[i]);
}

/* Everything a reader of f can see, as text. */
static char *dump(const struct oq_fabric *f, const struct oq_diags *d)
{
	size_t cap = 1 << 17, len = 0, i, np, j;
	char *s = malloc(cap), name[96];
	unsigned int k, l;

	assert_non_null(s);
#define PUT(...) len += (size_t)snprintf(s + len, cap - len, __VA_ARGS__)
	PUT("%zu nodes %zu ports %lx %lx\n", f->n_nodes, f->n_ports,
	    (unsigned long)f->sm_port_guid, (unsigned long)f->subnet_prefix);
	dump_diags(s, &len, cap, d);
	dump_lookups(s, &len, cap, f);
	for (i = 0; i < f->n_nodes; i++) {
		const struct oq_node *n = f->nodes[i], *o;
		size_t same;

		assert_int_equal(oq_node_index(f, n), i);
		PUT("node %lx %d %s|%s %u e%d user %p\n",
		    (unsigned long)n->guid, n->type, n->desc, oq_node_name(n),
		    n->n_ports, n->enhanced_port0, n->user);
		PUT("by guid %d same name",
		    oq_fabric_node_by_guid(f, n->guid) == n);
		o = oq_fabric_node_by_name(f, oq_node_name(n),
					   strlen(oq_node_name(n)), &same);
		PUT(" %zu:", same);
		for (; o; o = oq_fabric_node_next_same_name(f, o))
			PUT(" %lx", (unsigned long)o->guid);
		for (l = 0; n->type == OQ_NODE_SWITCH && l < LFT_SIZE + 4; l++)
			PUT("%s%u", l ? "," : "\n lft ",
			    oq_node_lft_port(f, n, (uint16_t)l));
		for (k = 0; k <= n->n_ports; k++) {
			const struct oq_port *p = &n->ports[k];
			const struct oq_port *q = oq_port_peer(f, p);
			const uint16_t *keys = oq_port_pkeys(f, p, &np);

			PUT("\n p%u %d %lx %u/%u w%u s%d m%u vl%u/%u arb%u/%u "
			    "sl%d c%x/%x pos %u user %p",
			    k, p->present, (unsigned long)p->guid, p->lid,
			    p->lmc, p->width, p->speed, p->mtu_cap, p->vl_cap,
			    p->oper_vls, p->vlarb_high_cap, p->vlarb_low_cap,
			    p->sl2vl_cap, p->cap_mask, p->cap_mask2,
			    oq_port_index(f, p), p->user);
			/* The partner is a port of f's and p's partner in
			 * turn: not one of a node f no longer holds. */
			if (q) {
				assert_true(oq_node_index(f, q->node) <
					    f->n_nodes);
				assert_ptr_equal(
					f->nodes[oq_node_index(f, q->node)],
					q->node);
				assert_ptr_equal(oq_port_peer(f, q), p);
				PUT(" peer %lx/%u",
				    (unsigned long)q->node->guid, q->num);
			}
			for (j = 0; j < np; j++)
				PUT(" k%x", keys[j]);
			if (!p->present)
				continue;
			oq_port_name(p, name, sizeof(name));
			PUT(" by name %d",
			    oq_fabric_port_by_name(f, name) == p);
			if (!oq_port_is_endport(p))
				continue;
			PUT(" by guid %d lids",
			    oq_fabric_port_by_guid(f, p->guid) == p);
			for (l = 0; l < 1u << p->lmc && p->lid; l++) {
				const struct oq_port *by =
					oq_fabric_port_by_lid(
						f, (uint16_t)(p->lid + l));

				if (by)
					PUT(" %lx/%u",
					    (unsigned long)by->node->guid,
					    by->num);
			}
		}
		PUT("\n");
		assert_true(len < cap - 1024);
	}
	for (i = 0; i < f->n_ports; i++)
		assert_int_equal(oq_port_index(f, f->ports[i]), i);
#undef PUT
	return s;
}

/* Nodes of slots that did not change this step are prev's very nodes;
 * no more nodes were read than changed.  Unless the build read it all
 * again, as it does when a link of a node it would share leads to a node
 * it lacks. */
static void check_shared(const struct oq_fabric *prev,
			 const struct oq_fabric *f, size_t n_read)
{
	size_t n_dirty = 0, k;
	int i;

	for (i = 0; i < N_SLOTS; i++)
		if (slots[i].node && slots[i].node->discovery_count &&
		    slots[i].dirty)
			n_dirty++;
	seen_cases.steps++;
	if (n_read * 4 <= f->n_nodes)
		seen_cases.small_reads++;
	if (n_read == f->n_nodes && n_dirty < f->n_nodes) {
		seen_cases.fallbacks++;
		return;
	}
	assert_true(n_read <= n_dirty);
	/* An id prev gave a node is that node's still, or no node's: what a
	 * later stage keeps by id must not pass to another node, such as
	 * one OpenSM made in the memory of one it removed. */
	for (k = 0; k < f->n_nodes; k++) {
		const struct oq_node *q = f->nodes[k];
		uint32_t at = oq_node_index(prev, q);

		if (at < prev->n_nodes)
			assert_int_equal(prev->nodes[at]->guid, q->guid);
	}
	for (i = 0; i < N_SLOTS; i++) {
		const osm_node_t *n = slots[i].node;
		uint64_t guid;

		if (!n || slots[i].dirty || !slots[i].seen_before)
			continue;
		guid = cl_ntoh64(n->node_info.node_guid);
		assert_non_null(oq_fabric_node_by_guid(f, guid));
		assert_ptr_equal(oq_fabric_node_by_guid(f, guid),
				 oq_fabric_node_by_guid(prev, guid));
	}
}

static void free_nodes(void)
{
	int i;

	for (i = 0; i < N_SLOTS; i++) {
		if (!slots[i].node)
			continue;
		node_release(slots[i].node);
		free(slots[i].node);
		slots[i].node = NULL;
	}
	while (n_spare) {
		node_release(spare[--n_spare]);
		free(spare[n_spare]);
	}
}

static void one_chain(unsigned int s)
{
	struct oq_record r = {0};
	struct oq_snapshot_base *base = NULL, *b2, *bf;
	struct oq_fabric *prev = NULL, *f, *fresh;
	struct oq_diags dd, df;
	size_t n_read, n_fresh;
	char *x, *y;
	int i, step;

	seed = s;
	memset(&osm, 0, sizeof(osm));
	cl_qmap_init(&osm.subn.node_guid_tbl);
	cl_qmap_init(&osm.subn.prtn_pkey_tbl);
	osm.subn.opt.max_op_vls = 5;
	osm.subn.sm_port_guid = cl_hton64(0x1001);
	for (i = 0; i < N_SLOTS; i++)
		if (rnd(4))
			make_node(i, new_guid(i), 2 + rnd(MAX_PHYSP - 1));
	for (i = 0; i < 2 * N_SLOTS; i++)
		random_link();
	for (step = 0; step < N_STEPS; step++) {
		int c, n_changes = 1 + (int)rnd(2), n_unseen = 0;

		for (i = 0; i < N_SLOTS; i++) {
			slots[i].seen_before = step && slots[i].node &&
					       slots[i].node->discovery_count;
			slots[i].dirty = false;
		}
		for (c = 0; step && c < n_changes; c++)
			random_change();
		for (i = 0; i < N_SLOTS; i++)
			n_unseen += slots[i].node &&
				    !slots[i].node->discovery_count;
		seen_cases.unseen += n_unseen > 0;
		oq_record_begin(&r);
		oq_snapshot_record(&osm, &r);
		oq_record_end(&r);
		oq_diags_init(&dd);
		oq_diags_init(&df);
		f = oq_snapshot_build(&r, true, base, &b2, &n_read, &dd);
		assert_non_null(f);
		fresh = oq_snapshot_build(&r, true, NULL, &bf, &n_fresh, &df);
		assert_non_null(fresh);
		assert_int_equal(n_fresh, fresh->n_nodes);
		x = dump(fresh, &df);
		y = dump(f, &dd);
		if (strcmp(x, y))
			print_message("seed %u step %d\n", s, step);
		assert_string_equal(x, y);
		free(x);
		free(y);
		if (prev)
			check_shared(prev, f, n_read);
		oq_diags_free(&dd);
		oq_diags_free(&df);
		oq_fabric_free(fresh);
		oq_snapshot_base_free(bf);
		oq_fabric_free(prev);
		oq_snapshot_base_free(base);
		prev = f;
		base = b2;
	}
	oq_fabric_free(prev);
	oq_snapshot_base_free(base);
	oq_record_free(&r);
	free_nodes();
}

static void test_derived_equals_fresh(void **state)
{
	unsigned int s;

	(void)state;
	memset(&seen_cases, 0, sizeof(seen_cases));
	for (s = 1; s <= N_CHAINS; s++)
		one_chain(s);
	print_message("%u steps: %u read a quarter of the nodes or less, %u "
		      "read all again\n",
		      seen_cases.steps, seen_cases.small_reads,
		      seen_cases.fallbacks);
	/* The chains went through every case. */
	assert_true(seen_cases.other_port_count > 0);
	assert_true(seen_cases.reused_address > 0);
	assert_true(seen_cases.unseen > 0);
	assert_true(seen_cases.dups > 0);
	/* A sweep after a change or two reads a few nodes. */
	assert_true(seen_cases.small_reads * 4 > seen_cases.steps * 3);
	assert_true(seen_cases.fallbacks * 20 < seen_cases.steps);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derived_equals_fresh),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
