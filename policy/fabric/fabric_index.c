// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Lookup indexes of a finalized fabric: port GUID, node GUID, LID (every
 * LID of an LMC range) and node name, each an open-addressing hash table,
 * so that every lookup is O(1) however large the fabric.  The plugin's SA
 * front resolves two ports per PathRecord with these, so they must not
 * degrade into scans.  Nodes that share a name are chained in OpenSM's
 * node table order, whose first is the one OpenSM's QoS parser picks.
 */
#include <endian.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>
#include <osmqos/keyidx.h>

#include "fabric_int.h"

/* uint64 key -> dense index.  vals hold index + 1; 0 marks a free slot. */
struct u64map {
	uint64_t *keys;
	uint32_t *vals;
	size_t mask;
};

struct oq_fabric_index {
	struct u64map port_guid; /* end ports only (switch port 0) */
	struct u64map node_guid;
	struct u64map lid;
	uint32_t *desc; /* node index + 1 of a name's first node, by name */
	size_t desc_mask;
	uint32_t *same_next;  /* per node: the next of its name, index + 1 */
	uint32_t *same_count; /* per first node of a name: nodes with it */
};

static uint64_t mix64(uint64_t x)
{
	/* splitmix64's finalizer: GUIDs and LIDs are sequential, so the
	 * low bits alone would cluster. */
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

static size_t table_size(size_t n)
{
	size_t cap = 16;

	while (cap < 2 * n + 1)
		cap <<= 1;
	return cap;
}

static int u64map_init(struct u64map *m, size_t n)
{
	size_t cap = table_size(n);

	m->keys = calloc(cap, sizeof(*m->keys));
	m->vals = calloc(cap, sizeof(*m->vals));
	m->mask = cap - 1;
	return m->keys && m->vals ? 0 : -1;
}

static void u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
}

/* Insert unless present.  Returns the index already stored for the key
 * (the caller reports the duplicate), or -1 when the key was new. */
static int64_t u64map_insert(struct u64map *m, uint64_t key, uint32_t val)
{
	size_t i = mix64(key) & m->mask;

	while (m->vals[i]) {
		if (m->keys[i] == key)
			return (int64_t)m->vals[i] - 1;
		i = (i + 1) & m->mask;
	}
	m->keys[i] = key;
	m->vals[i] = val + 1;
	return -1;
}

static int64_t u64map_get(const struct u64map *m, uint64_t key)
{
	size_t i;

	if (!m->vals)
		return -1;
	i = mix64(key) & m->mask;
	while (m->vals[i]) {
		if (m->keys[i] == key)
			return (int64_t)m->vals[i] - 1;
		i = (i + 1) & m->mask;
	}
	return -1;
}

static struct oq_loc no_loc(void)
{
	struct oq_loc l = { NULL, 0, 0 };

	return l;
}

int oq_node_guid_table_cmp(uint64_t a, uint64_t b)
{
	/* OpenSM keys node_guid_tbl (a cl_qmap, ordered by its uint64 key)
	 * by the GUID as it came in the MAD: network byte order. */
	uint64_t x = htobe64(a), y = htobe64(b);

	return x < y ? -1 : x > y;
}

struct named {
	const char *name;
	uint64_t guid;
	uint32_t node;
};

static int name_order(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : oq_node_guid_table_cmp(x->guid, y->guid);
}

/* Sort the nodes by name, then by OpenSM's table order, and chain each
 * run of one name; its first node goes into the hash table. */
static int index_names(struct oq_fabric_index *idx, const struct oq_fabric *f)
{
	struct named *v = malloc((f->n_nodes ? f->n_nodes : 1) * sizeof(*v));
	size_t n, run;

	if (!v)
		return -1;
	for (n = 0; n < f->n_nodes; n++) {
		v[n].name = oq_node_name(f->nodes[n]);
		v[n].guid = f->nodes[n]->guid;
		v[n].node = (uint32_t)n;
	}
	qsort(v, f->n_nodes, sizeof(*v), name_order);
	memset(idx->desc, 0, (idx->desc_mask + 1) * sizeof(*idx->desc));
	for (n = 0; n < f->n_nodes; n = run) {
		size_t i = oq_fnv1a_str(v[n].name) & idx->desc_mask;

		for (run = n + 1;
		     run < f->n_nodes && !strcmp(v[run].name, v[n].name); run++)
			idx->same_next[v[run - 1].node] = v[run].node + 1;
		idx->same_next[v[run - 1].node] = 0;
		idx->same_count[v[n].node] = (uint32_t)(run - n);
		while (idx->desc[i])
			i = (i + 1) & idx->desc_mask;
		idx->desc[i] = v[n].node + 1;
	}
	free(v);
	return 0;
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
			int64_t old = u64map_insert(&idx->lid, p->lid + j,
						    (uint32_t)k);

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
	size_t k, n_lids = 0;

	if (!idx)
		return -1;
	for (k = 0; k < f->n_ports; k++)
		if (oq_port_is_endport(f->ports[k]) && f->ports[k]->lid)
			n_lids += 1u << (f->ports[k]->lmc & 7);
	idx->desc_mask = table_size(f->n_nodes) - 1;
	idx->desc = calloc(idx->desc_mask + 1, sizeof(*idx->desc));
	idx->same_next = calloc(f->n_nodes + 1, sizeof(*idx->same_next));
	idx->same_count = calloc(f->n_nodes + 1, sizeof(*idx->same_count));
	if (!idx->desc || !idx->same_next || !idx->same_count ||
	    u64map_init(&idx->port_guid, f->n_ports) ||
	    u64map_init(&idx->node_guid, f->n_nodes) ||
	    u64map_init(&idx->lid, n_lids)) {
		oq_fabric_index_free(idx);
		return -1;
	}
	for (k = 0; k < f->n_nodes; k++) {
		int64_t old = u64map_insert(&idx->node_guid, f->nodes[k]->guid,
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
		old = u64map_insert(&idx->port_guid, p->guid, (uint32_t)k);
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
	if (index_names(idx, f)) {
		oq_fabric_index_free(idx);
		return -1;
	}
	f->idx = idx;
	return 0;
}

int oq_fabric_index_names(struct oq_fabric *f)
{
	return f->idx ? index_names(f->idx, f) : -1;
}

void oq_fabric_index_free(struct oq_fabric_index *idx)
{
	if (!idx)
		return;
	u64map_free(&idx->port_guid);
	u64map_free(&idx->node_guid);
	u64map_free(&idx->lid);
	free(idx->desc);
	free(idx->same_next);
	free(idx->same_count);
	free(idx);
}

struct oq_port *oq_fabric_port_by_guid(const struct oq_fabric *f,
				       uint64_t guid)
{
	int64_t i;

	if (!f || !f->idx)
		return NULL;
	i = u64map_get(&f->idx->port_guid, guid);
	return i < 0 ? NULL : f->ports[i];
}

struct oq_node *oq_fabric_node_by_guid(const struct oq_fabric *f,
				       uint64_t guid)
{
	int64_t i;

	if (!f || !f->idx)
		return NULL;
	i = u64map_get(&f->idx->node_guid, guid);
	return i < 0 ? NULL : f->nodes[i];
}

struct oq_port *oq_fabric_port_by_lid(const struct oq_fabric *f, uint16_t lid)
{
	int64_t i;

	if (!f || !f->idx || !lid)
		return NULL;
	i = u64map_get(&f->idx->lid, lid);
	return i < 0 ? NULL : f->ports[i];
}

struct oq_node *oq_fabric_node_by_name(const struct oq_fabric *f,
				       const char *name, size_t len,
				       size_t *n_same)
{
	size_t i;

	if (n_same)
		*n_same = 0;
	if (!f || !f->idx || !name)
		return NULL;
	i = oq_fnv1a(name, len) & f->idx->desc_mask;
	while (f->idx->desc[i]) {
		uint32_t k = f->idx->desc[i] - 1;
		const char *d = oq_node_name(f->nodes[k]);

		if (!strncmp(d, name, len) && d[len] == '\0') {
			if (n_same)
				*n_same = f->idx->same_count[k];
			return f->nodes[k];
		}
		i = (i + 1) & f->idx->desc_mask;
	}
	return NULL;
}

struct oq_node *oq_fabric_node_next_same_name(const struct oq_fabric *f,
					      const struct oq_node *n)
{
	uint32_t next;

	if (!f || !f->idx || !n || n->index >= f->n_nodes ||
	    f->nodes[n->index] != n)
		return NULL;
	next = f->idx->same_next[n->index];
	return next ? f->nodes[next - 1] : NULL;
}

/*
 * "NAME/P<n>".  Names may contain spaces and slashes, so the port number
 * is the last "/P" followed only by digits.  When several nodes share a
 * name the one OpenSM's QoS parser picks answers
 * (oq_fabric_node_by_name; docs/fabric-model.md).
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
	n = oq_fabric_node_by_name(f, name, (size_t)(split - name), NULL);
	if (!n || num > n->n_ports || !n->ports[num].present)
		return NULL;
	if (n->type != OQ_NODE_SWITCH && num == 0)
		return NULL;
	return &n->ports[num];
}
