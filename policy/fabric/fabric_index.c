// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Lookup indexes of a finalized fabric: port GUID, node GUID, LID (every
 * LID of an LMC range) and NodeDescription, each an open-addressing hash
 * table, so that every lookup is O(1) however large the fabric.  The
 * plugin's SA front resolves two ports per PathRecord with these, so they
 * must not degrade into scans.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>
#include <osmqos/htab.h>

#include "fabric_int.h"

/* Each maps its key to a dense index (f->ports or f->nodes). */
struct oq_fabric_index {
	struct oq_htab port_guid; /* end ports only (switch port 0) */
	struct oq_htab node_guid;
	struct oq_htab lid;
	struct oq_htab desc; /* hash of a node's desc; the first node wins */
};

/* Map key to val unless there; the index already stored for the key
 * (the caller reports the duplicate), or -1 when the key was new.  The
 * tables are sized up front, so adding never allocates. */
static int64_t index_put(struct oq_htab *t, uint64_t key, uint32_t val)
{
	uint32_t old;

	return oq_htab_put(t, key, val, &old) ? -1 : (int64_t)old;
}

struct desc_key {
	const struct oq_fabric *f;
	const char *desc;
};

static bool same_desc(const void *ctx, uint32_t node)
{
	const struct desc_key *k = ctx;

	return !strcmp(k->f->nodes[node]->desc, k->desc);
}

static uint64_t desc_hash(const char *d, size_t len)
{
	return oq_hash_bytes(d, len);
}

static struct oq_loc no_loc(void)
{
	struct oq_loc l = { NULL, 0, 0 };

	return l;
}

static void index_desc(struct oq_fabric_index *idx,
		       const struct oq_fabric *f)
{
	struct desc_key k = {f, NULL};
	size_t n;

	for (n = 0; n < f->n_nodes; n++) {
		k.desc = f->nodes[n]->desc;
		/* Same description: keep the first in node order. */
		oq_htab_find_or_add(&idx->desc,
				    desc_hash(k.desc, strlen(k.desc)),
				    same_desc, &k, (uint32_t)n, NULL);
	}
}

static void index_lids(struct oq_fabric_index *idx, const struct oq_fabric *f,
		       struct oq_diags *diags)
{
	size_t k;

	for (k = 0; k < f->n_ports; k++) {
		const struct oq_port *p = f->ports[k];
		uint32_t n = 1u << (p->lmc & 7), j;

		if (!oq_port_is_endport(p) || !p->lid)
			continue;
		for (j = 0; j < n && p->lid + j <= 0xffff; j++) {
			int64_t old =
				index_put(&idx->lid, p->lid + j, (uint32_t)k);

			if (old >= 0 && diags) {
				char a[96], b[96];

				oq_port_name(f->ports[old], a, sizeof(a));
				oq_port_name(p, b, sizeof(b));
				oq_error(diags, no_loc(),
					 "LID %u is used by both %s and %s",
					 p->lid + j, a, b);
				break;
			}
		}
	}
}

int oq_fabric_index_build(struct oq_fabric *f, struct oq_diags *diags)
{
	struct oq_fabric_index *idx = calloc(1, sizeof(*idx));
	size_t k, n_ends = 0, n_lids = 0;

	if (!idx)
		return -ENOMEM;
	for (k = 0; k < f->n_ports; k++) {
		if (!oq_port_is_endport(f->ports[k]))
			continue;
		n_ends++;
		if (f->ports[k]->lid)
			n_lids += 1u << (f->ports[k]->lmc & 7);
	}
	if (oq_htab_reserve(&idx->desc, f->n_nodes) ||
	    oq_htab_reserve(&idx->port_guid, n_ends) ||
	    oq_htab_reserve(&idx->node_guid, f->n_nodes) ||
	    oq_htab_reserve(&idx->lid, n_lids)) {
		oq_fabric_index_free(idx);
		return -ENOMEM;
	}
	for (k = 0; k < f->n_nodes; k++) {
		int64_t old = index_put(&idx->node_guid, f->nodes[k]->guid,
					(uint32_t)k);

		if (old >= 0 && diags)
			oq_error(diags, no_loc(),
				 "node GUID 0x%016" PRIx64
				 " is used by both \"%s\" and \"%s\"",
				 f->nodes[k]->guid, f->nodes[old]->desc,
				 f->nodes[k]->desc);
	}
	for (k = 0; k < f->n_ports; k++) {
		const struct oq_port *p = f->ports[k];
		int64_t old;

		if (!oq_port_is_endport(p))
			continue;
		old = index_put(&idx->port_guid, p->guid, (uint32_t)k);
		if (old >= 0 && diags) {
			char a[96], b[96];

			oq_port_name(f->ports[old], a, sizeof(a));
			oq_port_name(p, b, sizeof(b));
			oq_error(diags, no_loc(),
				 "port GUID 0x%016" PRIx64
				 " is used by both %s and %s",
				 p->guid, a, b);
		}
	}
	index_lids(idx, f, diags);
	index_desc(idx, f);
	f->idx = idx;
	return 0;
}

void oq_fabric_index_free(struct oq_fabric_index *idx)
{
	if (!idx)
		return;
	oq_htab_free(&idx->port_guid);
	oq_htab_free(&idx->node_guid);
	oq_htab_free(&idx->lid);
	oq_htab_free(&idx->desc);
	free(idx);
}

struct oq_port *oq_fabric_port_by_guid(const struct oq_fabric *f,
				       uint64_t guid)
{
	int64_t i;

	if (!f || !f->idx)
		return NULL;
	i = oq_htab_get(&f->idx->port_guid, guid);
	return i < 0 ? NULL : f->ports[i];
}

struct oq_node *oq_fabric_node_by_guid(const struct oq_fabric *f,
				       uint64_t guid)
{
	int64_t i;

	if (!f || !f->idx)
		return NULL;
	i = oq_htab_get(&f->idx->node_guid, guid);
	return i < 0 ? NULL : f->nodes[i];
}

struct oq_port *oq_fabric_port_by_lid(const struct oq_fabric *f, uint16_t lid)
{
	int64_t i;

	if (!f || !f->idx || !lid)
		return NULL;
	i = oq_htab_get(&f->idx->lid, lid);
	return i < 0 ? NULL : f->ports[i];
}

static struct oq_node *node_by_desc(const struct oq_fabric *f, const char *d,
				    size_t len)
{
	char key[sizeof(((struct oq_node *)0)->desc)];
	struct desc_key k = {f, key};
	int64_t i;

	if (len >= sizeof(key))
		return NULL;
	memcpy(key, d, len);
	key[len] = '\0';
	i = oq_htab_find(&f->idx->desc, desc_hash(key, len), same_desc, &k);
	return i < 0 ? NULL : f->nodes[i];
}

/*
 * "desc/P<n>".  Descriptions may contain spaces and slashes, so the port
 * number is the last "/P" followed only by digits.  When several nodes
 * share a description the first in node order answers (OpenSM's
 * port-name matching has the same ambiguity; see docs/fabric-model.md).
 */
struct oq_port *oq_fabric_port_by_name(const struct oq_fabric *f,
				       const char *name)
{
	const char *p, *split = NULL;
	unsigned long num = 0;
	struct oq_node *n;

	if (!f || !f->idx || !name)
		return NULL;
	for (p = strstr(name, "/P"); p; p = strstr(p + 1, "/P")) {
		const char *q = p + 2;

		if (*q < '0' || *q > '9')
			continue;
		while (*q >= '0' && *q <= '9')
			q++;
		if (!*q)
			split = p;
	}
	if (!split)
		return NULL;
	for (p = split + 2; *p; p++) {
		num = num * 10 + (unsigned long)(*p - '0');
		if (num > 255)
			return NULL;
	}
	n = node_by_desc(f, name, (size_t)(split - name));
	if (!n || num > n->n_ports || !n->ports[num].present)
		return NULL;
	if (n->type != OQ_NODE_SWITCH && num == 0)
		return NULL;
	return &n->ports[num];
}
