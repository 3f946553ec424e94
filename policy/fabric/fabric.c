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

static void free_node(struct oq_node *n)
{
	unsigned int i;

	if (!n)
		return;
	for (i = 0; n->ports && i <= n->n_ports; i++)
		free(n->ports[i].pkeys);
	if (n->name != n->desc)
		free(n->name);
	free(n->ports);
	free(n->lft);
	free(n);
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
		free_node(f->nodes[i]);
	free(f->nodes);
	free(f->ports);
	oq_fabric_index_free(f->idx);
	free(f);
}

struct oq_node *oq_fabric_add_node(struct oq_fabric *f, enum oq_node_type type,
				   uint64_t guid, const char *desc,
				   uint8_t n_ports)
{
	struct oq_node *n;
	unsigned int i;

	if (!f || f->finalized)
		return NULL;
	if (f->n_nodes == f->cap_nodes) {
		size_t cap = f->cap_nodes ? f->cap_nodes * 2 : 64;
		struct oq_node **v = realloc(f->nodes, cap * sizeof(*v));

		if (!v)
			return NULL;
		f->nodes = v;
		f->cap_nodes = cap;
	}
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
	}
	if (type == OQ_NODE_SWITCH) {
		n->ports[0].present = true;
		n->ports[0].guid = guid;
	}
	n->index = (uint32_t)f->n_nodes;
	f->nodes[f->n_nodes++] = n;
	return n;
}

void oq_fabric_link(struct oq_port *a, struct oq_port *b)
{
	if (!a || !b)
		return;
	if (a->peer && a->peer->peer == a)
		a->peer->peer = NULL;
	if (b->peer && b->peer->peer == b)
		b->peer->peer = NULL;
	a->peer = b;
	b->peer = a;
	a->present = true;
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

int oq_node_set_lft(struct oq_node *n, const uint8_t *lft, size_t size)
{
	uint8_t *v = NULL;

	if (!n || n->type != OQ_NODE_SWITCH || size > (size_t)UINT16_MAX + 1 ||
	    (size && !lft))
		return -EINVAL;
	if (size) {
		v = malloc(size);
		if (!v)
			return -ENOMEM;
		memcpy(v, lft, size);
	}
	free(n->lft);
	n->lft = v;
	n->lft_size = (uint32_t)size;
	return 0;
}

int oq_node_set_lft_entry(struct oq_node *n, uint16_t lid, uint8_t port)
{
	if (!n || n->type != OQ_NODE_SWITCH)
		return -EINVAL;
	if (lid >= n->lft_size) {
		/* Grow in 64-LID blocks, as LFTs are programmed. */
		uint32_t size = ((uint32_t)lid / 64 + 1) * 64;
		uint8_t *v = realloc(n->lft, size);

		if (!v)
			return -ENOMEM;
		memset(v + n->lft_size, OQ_LFT_NONE, size - n->lft_size);
		n->lft = v;
		n->lft_size = size;
	}
	n->lft[lid] = port;
	return 0;
}

uint8_t oq_node_lft_port(const struct oq_fabric *f, const struct oq_node *n,
			 uint16_t lid)
{
	(void)f;
	if (!n || !n->lft || lid >= n->lft_size)
		return OQ_LFT_NONE;
	return n->lft[lid];
}

/* Switch external ports carry port 0's GUID and LID (IBA: one LID and
 * one GUID per switch); fill them in when the builder left them out. */
static void inherit_port0(struct oq_node *n)
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

int oq_fabric_finalize(struct oq_fabric *f, struct oq_diags *diags)
{
	size_t i, n = 0;
	unsigned int j;
	struct oq_port **v;
	int rc;

	if (!f)
		return -EINVAL;
	for (i = 0; i < f->n_nodes; i++) {
		struct oq_node *nd = f->nodes[i];

		nd->index = (uint32_t)i;
		inherit_port0(nd);
		for (j = 0; j <= nd->n_ports; j++)
			n += nd->ports[j].present;
	}
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	n = 0;
	for (i = 0; i < f->n_nodes; i++) {
		struct oq_node *nd = f->nodes[i];

		for (j = 0; j <= nd->n_ports; j++) {
			if (!nd->ports[j].present)
				continue;
			nd->ports[j].index = (uint32_t)n;
			v[n++] = &nd->ports[j];
		}
	}
	free(f->ports);
	f->ports = v;
	f->n_ports = n;
	oq_fabric_index_free(f->idx);
	f->idx = NULL;
	rc = oq_fabric_index_build(f, diags);
	if (rc)
		return rc;
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

int oq_port_pkey_membership(const struct oq_fabric *f,
			    const struct oq_port *p, uint16_t pkey)
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
