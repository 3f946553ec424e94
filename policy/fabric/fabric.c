// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The fabric model: construction, finalization and the small helpers
 * (names, partition membership, command-line port specs).  Lookups live
 * in fabric_index.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>

#include "fabric_int.h"

struct oq_fabric *oq_fabric_new(void)
{
	return calloc(1, sizeof(struct oq_fabric));
}

/* A fabric lets go of a node: the last one frees it. */
void oq_fabric_node_put(struct oq_node *n)
{
	unsigned int i;

	if (!n || __atomic_sub_fetch(&n->refs, 1, __ATOMIC_ACQ_REL))
		return;
	for (i = 0; n->ports && i <= n->n_ports; i++)
		free(n->ports[i].pkeys);
	if (n->name != n->desc)
		free(n->name);
	free(n->ports);
	free(n);
}

void oq_lft_put(struct oq_lft *l)
{
	if (l && !__atomic_sub_fetch(&l->refs, 1, __ATOMIC_ACQ_REL))
		free(l);
}

void oq_node_print_desc(const char *desc, char out[64])
{
	size_t i;

	/* complib's clean_nodedesc() in the C locale OpenSM runs in. */
	for (i = 0; i < 63 && desc[i]; i++)
		out[i] = desc[i] >= 0x20 && desc[i] < 0x7f ? desc[i] : ' ';
	out[i] = '\0';
}

int oq_node_set_name(struct oq_node *n, const char *name)
{
	char clean[64], *copy;

	if (!name) {
		oq_node_print_desc(n->desc, clean);
		name = clean;
		if (!strcmp(clean, n->desc)) {
			if (n->name != n->desc)
				free(n->name);
			n->name = n->desc;
			return 0;
		}
	}
	copy = strdup(name);
	if (!copy)
		return -1;
	if (n->name != n->desc)
		free(n->name);
	n->name = copy;
	return 0;
}

void oq_fabric_free(struct oq_fabric *f)
{
	size_t i;

	if (!f)
		return;
	for (i = 0; i < f->n_nodes; i++)
		oq_fabric_node_put(f->nodes[i]);
	for (i = 0; i < f->n_node_ids; i++)
		oq_lft_put(f->lft[i]);
	free(f->nodes);
	free(f->ports);
	free(f->port_id_at);
	free(f->first_port);
	free(f->node_id_at);
	oq_fabric_index_free(f->idx);
	free(f->peer);
	free(f->port_pos);
	free(f->node_pos);
	free(f->lft);
	free(f);
}

/* *v from had to cap entries of size bytes, the new ones filled with
 * byte fill.  0, or -ENOMEM (*v as it was). */
static int grow(void **v, size_t size, uint32_t had, uint32_t cap, int fill)
{
	uint8_t *g = realloc(*v, (size_t)cap * size);

	if (!g)
		return -ENOMEM;
	memset(g + (size_t)had * size, fill, (size_t)(cap - had) * size);
	*v = g;
	return 0;
}

/* The capacity for n ids from cap (first when none yet). */
static uint32_t cap_for(uint32_t cap, uint32_t first, uint32_t n)
{
	if (!cap)
		cap = first;
	while (cap < n)
		cap *= 2;
	return cap;
}

/* Room in the by-id arrays for ids below n_ports and n_nodes: no
 * partner, route or position for the new ones.  0, or -ENOMEM. */
int oq_fabric_reserve_ids(struct oq_fabric *f, uint32_t n_ports,
			  uint32_t n_nodes)
{
	uint32_t cap;

	if (n_ports > f->cap_port_ids) {
		cap = cap_for(f->cap_port_ids, 256, n_ports);
		if (grow((void **)&f->peer, sizeof(*f->peer), f->cap_port_ids,
			 cap, 0) ||
		    grow((void **)&f->port_pos, sizeof(*f->port_pos),
			 f->cap_port_ids, cap, 0xff))
			return -ENOMEM;
		f->cap_port_ids = cap;
	}
	if (n_nodes > f->cap_node_ids) {
		cap = cap_for(f->cap_node_ids, 64, n_nodes);
		if (grow((void **)&f->lft, sizeof(*f->lft), f->cap_node_ids,
			 cap, 0) ||
		    grow((void **)&f->node_pos, sizeof(*f->node_pos),
			 f->cap_node_ids, cap, 0xff))
			return -ENOMEM;
		f->cap_node_ids = cap;
	}
	return 0;
}

int oq_fabric_nodes_room(struct oq_fabric *f)
{
	if (f->n_nodes == f->cap_nodes) {
		size_t cap = f->cap_nodes ? f->cap_nodes * 2 : 64;
		struct oq_node **v = realloc(f->nodes, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		f->nodes = v;
		f->cap_nodes = cap;
	}
	return 0;
}

struct oq_node *oq_fabric_add_node(struct oq_fabric *f, enum oq_node_type type,
				   uint64_t guid, const char *desc,
				   uint8_t n_ports)
{
	return oq_fabric_add_node_as(f, type, guid, desc, n_ports, NULL);
}

struct oq_node *oq_fabric_add_node_as(struct oq_fabric *f,
				      enum oq_node_type type, uint64_t guid,
				      const char *desc, uint8_t n_ports,
				      const struct oq_node *was)
{
	struct oq_node *n;
	unsigned int i;

	if (!f || f->finalized || oq_fabric_nodes_room(f))
		return NULL;
	/* Under the ids it had when it has the same ports: what a later
	 * state keeps by port id stays its own. */
	if (was && (was->n_ports != n_ports || was->id >= f->n_node_ids ||
		    was->ports[n_ports].id >= f->n_port_ids))
		was = NULL;
	if (!was && oq_fabric_reserve_ids(f, f->n_port_ids + n_ports + 1u,
					  f->n_node_ids + 1u))
		return NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return NULL;
	n->ports = calloc((size_t)n_ports + 1, sizeof(*n->ports));
	if (!n->ports) {
		free(n);
		return NULL;
	}
	n->type = type;
	n->guid = guid;
	n->n_ports = n_ports;
	if (desc) {
		/* NodeDescription is 64 bytes and need not be terminated. */
		size_t len = strnlen(desc, sizeof(n->desc) - 1);

		memcpy(n->desc, desc, len);
	}
	if (oq_node_set_name(n, NULL)) {
		free(n->ports);
		free(n);
		return NULL;
	}
	for (i = 0; i <= n_ports; i++) {
		n->ports[i].node = n;
		n->ports[i].num = (uint8_t)i;
		n->ports[i].id = was ? was->ports[i].id : f->n_port_ids++;
		f->peer[n->ports[i].id] = NULL;
	}
	n->id = was ? was->id : f->n_node_ids++;
	/* No routes until it is given some, whatever was had. */
	oq_lft_put(f->lft[n->id]);
	f->lft[n->id] = NULL;
	n->refs = 1;
	n->owner = f;
	if (type == OQ_NODE_SWITCH) {
		n->ports[0].present = true;
		n->ports[0].guid = guid;
	}
	f->nodes[f->n_nodes++] = n;
	return n;
}

void oq_fabric_link(struct oq_port *a, struct oq_port *b)
{
	if (a && b && a->node->owner == b->node->owner)
		oq_fabric_link_in(a->node->owner, a, b);
}

void oq_fabric_link_in(struct oq_fabric *f, struct oq_port *a,
		       struct oq_port *b)
{
	struct oq_port *pa, *pb;

	if (!f || !a || !b || a->id >= f->n_port_ids || b->id >= f->n_port_ids)
		return;
	/* A port another fabric's node holds is present already, or it
	 * would be written here and have no position. */
	if ((!a->present && !oq_fabric_owns(f, a->node)) ||
	    (!b->present && !oq_fabric_owns(f, b->node)))
		return;
	pa = f->peer[a->id];
	pb = f->peer[b->id];
	if (pa && f->peer[pa->id] == a)
		f->peer[pa->id] = NULL;
	if (pb && f->peer[pb->id] == b)
		f->peer[pb->id] = NULL;
	f->peer[a->id] = b;
	f->peer[b->id] = a;
	/* A shared node's ports are present already, and not written. */
	if (!a->present)
		a->present = true;
	if (!b->present)
		b->present = true;
}

int oq_port_set_pkeys(struct oq_port *p, const uint16_t *pkeys, size_t n)
{
	uint16_t *v = NULL;

	if (n > UINT16_MAX)
		return -EINVAL;
	if (n) {
		v = malloc(n * sizeof(*v));
		if (!v)
			return -ENOMEM;
		memcpy(v, pkeys, n * sizeof(*v));
	}
	free(p->pkeys);
	p->pkeys = v;
	p->n_pkeys = (uint16_t)n;
	return 0;
}

struct oq_lft *oq_lft_new(const uint8_t *v, size_t size)
{
	struct oq_lft *l = malloc(sizeof(*l) + size);

	if (!l)
		return NULL;
	l->refs = 1;
	l->size = (uint32_t)size;
	if (size)
		memcpy(l->v, v, size);
	return l;
}

/* The routes of a switch in f, replaced by l (may be NULL). */
static void lft_set(struct oq_fabric *f, const struct oq_node *n,
		    struct oq_lft *l)
{
	struct oq_lft **at = &f->lft[n->id];

	oq_lft_put(*at);
	*at = l;
}

int oq_fabric_set_lft(struct oq_fabric *f, const struct oq_node *n,
		      const uint8_t *lft, size_t size)
{
	struct oq_lft *l = NULL;

	if (!f || !n || n->type != OQ_NODE_SWITCH || n->id >= f->n_node_ids ||
	    size > (size_t)UINT16_MAX + 1 || (size && !lft))
		return -EINVAL;
	if (size) {
		l = oq_lft_new(lft, size);
		if (!l)
			return -ENOMEM;
	}
	lft_set(f, n, l);
	return 0;
}

int oq_node_set_lft(struct oq_node *n, const uint8_t *lft, size_t size)
{
	return oq_fabric_set_lft(n ? n->owner : NULL, n, lft, size);
}

int oq_node_set_lft_entry(struct oq_node *n, uint16_t lid, uint8_t port)
{
	struct oq_lft *l, *old;

	if (!n || n->type != OQ_NODE_SWITCH || !n->owner)
		return -EINVAL;
	old = n->owner->lft[n->id];
	if (!old || lid >= old->size ||
	    __atomic_load_n(&old->refs, __ATOMIC_ACQUIRE) > 1) {
		/* Grow in 64-LID blocks, as LFTs are programmed; a table
		 * another fabric shares is copied first. */
		uint32_t had = old ? old->size : 0, size = had;

		if (lid >= size)
			size = ((uint32_t)lid / 64 + 1) * 64;
		l = oq_lft_new(old ? old->v : NULL, had);
		if (l && size > had) {
			struct oq_lft *g = realloc(l, sizeof(*l) + size);

			if (!g) {
				free(l);
				l = NULL;
			} else {
				l = g;
				memset(l->v + had, OQ_LFT_NONE, size - had);
				l->size = size;
			}
		}
		if (!l)
			return -ENOMEM;
		lft_set(n->owner, n, l);
	}
	n->owner->lft[n->id]->v[lid] = port;
	return 0;
}

uint8_t oq_node_lft_port(const struct oq_fabric *f, const struct oq_node *n,
			 uint16_t lid)
{
	const struct oq_lft *l;

	if (!f || !n || n->id >= f->n_node_ids)
		return OQ_LFT_NONE;
	l = f->lft[n->id];
	return l && lid < l->size ? l->v[lid] : OQ_LFT_NONE;
}

/* Switch external ports carry port 0's GUID and LID (IBA: one LID and
 * one GUID per switch); fill them in when the builder left them out. */
void oq_node_inherit_port0(struct oq_node *n)
{
	unsigned int i;

	if (n->type != OQ_NODE_SWITCH)
		return;
	for (i = 1; i <= n->n_ports; i++) {
		struct oq_port *p = &n->ports[i];

		if (!p->guid)
			p->guid = n->ports[0].guid;
		if (!p->lid) {
			p->lid = n->ports[0].lid;
			p->lmc = n->ports[0].lmc;
		}
	}
}

int oq_fabric_positions_room(struct oq_fabric *f, size_t n_ports)
{
	free(f->ports);
	free(f->port_id_at);
	free(f->first_port);
	free(f->node_id_at);
	f->ports = malloc((n_ports ? n_ports : 1) * sizeof(*f->ports));
	f->port_id_at =
		malloc((n_ports ? n_ports : 1) * sizeof(*f->port_id_at));
	f->first_port = malloc((f->n_nodes + 1) * sizeof(*f->first_port));
	f->node_id_at = malloc((f->n_nodes + 1) * sizeof(*f->node_id_at));
	if (!f->ports || !f->port_id_at || !f->first_port || !f->node_id_at)
		return -ENOMEM;
	if (f->n_port_ids)
		memset(f->port_pos, 0xff, f->n_port_ids * sizeof(*f->port_pos));
	if (f->n_node_ids)
		memset(f->node_pos, 0xff, f->n_node_ids * sizeof(*f->node_pos));
	return 0;
}

size_t oq_fabric_place_ports(struct oq_fabric *f, struct oq_node *nd,
			     size_t n)
{
	unsigned int j;

	for (j = 0; j <= nd->n_ports; j++) {
		if (!nd->ports[j].present)
			continue;
		f->port_pos[nd->ports[j].id] = (uint32_t)n;
		f->port_id_at[n] = nd->ports[j].id;
		f->ports[n++] = &nd->ports[j];
	}
	return n;
}

/* Every node's and port's position, in node order. */
static int positions(struct oq_fabric *f)
{
	size_t i, n = 0;
	unsigned int j;

	for (i = 0; i < f->n_nodes; i++) {
		struct oq_node *nd = f->nodes[i];

		if (nd->owner == f)
			oq_node_inherit_port0(nd);
		for (j = 0; j <= nd->n_ports; j++)
			n += nd->ports[j].present;
	}
	if (oq_fabric_positions_room(f, n))
		return -ENOMEM;
	n = 0;
	for (i = 0; i < f->n_nodes; i++) {
		struct oq_node *nd = f->nodes[i];

		f->node_pos[nd->id] = (uint32_t)i;
		f->node_id_at[i] = nd->id;
		f->first_port[i] = (uint32_t)n;
		n = oq_fabric_place_ports(f, nd, n);
	}
	f->first_port[f->n_nodes] = (uint32_t)n;
	f->n_ports = n;
	return 0;
}

int oq_fabric_finalize(struct oq_fabric *f, struct oq_diags *diags)
{
	int rc;

	if (!f)
		return -EINVAL;
	rc = f->from ? oq_fabric_derive_positions(f, f->from) : positions(f);
	if (rc)
		return rc;
	if (f->from) {
		rc = oq_fabric_derive_check(f, f->from);
		if (rc)
			return rc;
	}
	oq_fabric_index_free(f->idx);
	f->idx = NULL;
	rc = f->from ? oq_fabric_index_derive(f, f->from) : -EAGAIN;
	if (rc == -EAGAIN)
		rc = oq_fabric_index_build(f, diags);
	if (rc)
		return rc;
	f->from = NULL;
	f->finalized = true;
	return 0;
}

/* Without snprintf: the SA front names the bottleneck link of every pair
 * it grants in the audit trail. */
int oq_port_name(const struct oq_port *p, char *buf, size_t len)
{
	char tail[16], *t = tail + sizeof(tail);
	const char *name = oq_node_name(p->node);
	size_t dl = strlen(name), tl, n, m;
	unsigned int v = p->num;

	do
		*--t = (char)('0' + v % 10);
	while (v /= 10);
	*--t = 'P';
	*--t = '/';
	tl = (size_t)(tail + sizeof(tail) - t);
	if (len) {
		n = dl < len - 1 ? dl : len - 1;
		m = tl < len - 1 - n ? tl : len - 1 - n;
		memcpy(buf, name, n);
		memcpy(buf + n, t, m);
		buf[n + m] = '\0';
	}
	return (int)(dl + tl);
}

int oq_port_pkey_membership(const struct oq_fabric *f, const struct oq_port *p,
			    uint16_t pkey)
{
	int best = 0;
	uint16_t i;

	(void)f;
	if (!(pkey & OQ_PKEY_MASK))
		return 0;
	for (i = 0; i < p->n_pkeys; i++) {
		if ((p->pkeys[i] & OQ_PKEY_MASK) != (pkey & OQ_PKEY_MASK))
			continue;
		if (p->pkeys[i] & OQ_PKEY_FULL)
			return 2;
		best = 1;
	}
	return best;
}

const char *oq_node_type_name(enum oq_node_type t)
{
	switch (t) {
	case OQ_NODE_CA:
		return "CA";
	case OQ_NODE_SWITCH:
		return "Switch";
	case OQ_NODE_ROUTER:
		return "Router";
	}
	return "Unknown";
}

const char *oq_speed_name(enum oq_speed s)
{
	static const char *const names[] = {
		[OQ_SPEED_UNKNOWN] = "unknown", [OQ_SPEED_SDR] = "SDR",
		[OQ_SPEED_DDR] = "DDR",		[OQ_SPEED_QDR] = "QDR",
		[OQ_SPEED_FDR10] = "FDR10",	[OQ_SPEED_FDR] = "FDR",
		[OQ_SPEED_EDR] = "EDR",		[OQ_SPEED_HDR] = "HDR",
		[OQ_SPEED_NDR] = "NDR",
	};

	if ((unsigned int)s >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[s];
}

/* Whole-string unsigned number (base 0, or 16 when hex forced). */
static int parse_u64(const char *s, int base, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, base);
	return errno || *end ? -1 : 0;
}

/*
 * A port as a user types it: a port GUID (or the node GUID of a CA or
 * router with exactly one port in the fabric), "lid:N", or
 * "NodeDescription/P<n>".
 */
struct oq_port *oq_fabric_parse_port(const struct oq_fabric *f,
				     const char *spec)
{
	uint64_t v;

	if (!f || !spec)
		return NULL;
	if ((spec[0] == '0' && (spec[1] == 'x' || spec[1] == 'X'))) {
		struct oq_port *p;
		struct oq_node *n;
		struct oq_port *only = NULL;
		unsigned int i, count = 0;

		if (parse_u64(spec + 2, 16, &v))
			return NULL;
		p = oq_fabric_port_by_guid(f, v);
		if (p)
			return p;
		n = oq_fabric_node_by_guid(f, v);
		if (!n)
			return NULL;
		if (n->type == OQ_NODE_SWITCH)
			return &n->ports[0];
		for (i = 1; i <= n->n_ports; i++) {
			if (n->ports[i].present) {
				only = &n->ports[i];
				count++;
			}
		}
		return count == 1 ? only : NULL;
	}
	if (!strncmp(spec, "lid:", 4)) {
		if (parse_u64(spec + 4, 0, &v) || !v || v > 0xffff)
			return NULL;
		return oq_fabric_port_by_lid(f, (uint16_t)v);
	}
	return oq_fabric_port_by_name(f, spec);
}
