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
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>
#include <osmqos/htab.h>

#include "fabric_int.h"

/* Each maps its key to a port or node id, which a fabric built from this
 * one keeps for the nodes it shares (fabric_derive.c), so that its index
 * is this one's copied and changed where nodes changed. */
struct oq_fabric_index {
	struct oq_htab port_guid; /* end ports only (switch port 0) */
	struct oq_htab node_guid;
	struct oq_htab lid;
	struct oq_htab name;  /* hash of a name -> its first node */
	uint32_t *same_next;  /* per node id: the next of its name, id + 1 */
	uint32_t *same_count; /* per first node of a name: nodes with it */
	uint32_t n_ids;	      /* node ids same_next and same_count hold */
	bool dups;	      /* a GUID or LID was found twice */
};

static struct oq_port *port_of_id(const struct oq_fabric *f, uint32_t id)
{
	return f->ports[f->port_pos[id]];
}

static struct oq_node *node_of_id(const struct oq_fabric *f, uint32_t id)
{
	return f->nodes[f->node_pos[id]];
}

/* Map key to val unless there; the index already stored for the key
 * (the caller reports the duplicate), or -1 when the key was new.  The
 * tables are sized up front, so adding never allocates. */
static int64_t index_put(struct oq_htab *t, uint64_t key, uint32_t val)
{
	uint32_t old;

	return oq_htab_put(t, key, val, &old) ? -1 : (int64_t)old;
}

/* A name looked up or added: its bytes (not NUL-terminated) and length. */
struct name_key {
	const struct oq_fabric *f;
	const char *name;
	size_t len;
};

static bool same_name(const void *ctx, uint32_t node)
{
	const struct name_key *k = ctx;
	const char *d = oq_node_name(node_of_id(k->f, node));

	return !strncmp(d, k->name, k->len) && d[k->len] == '\0';
}

/*
 * Two nodes or ports with one GUID or LID: where the second is declared,
 * and the line of the first.  A file gives each its own; in a live fabric
 * (no file) the subnet itself carries the fault.  what says which number
 * ("node GUID 0x...", "LID 5"); a and b name the first and second holder;
 * code is the kind's code, the same in both wordings.
 */
static void report_dup(struct oq_diags *diags, const char *code,
		       struct oq_loc first, struct oq_loc second,
		       const char *what, const char *a, const char *b,
		       const char *fix)
{
	struct oq_diag *d;

	if (!second.file) {
		d = oq_error(diags, second,
			     "%s is used by both %s and %s in the fabric as "
			     "discovered",
			     what, a, b);
		oq_diag_hint(d, "in a live fabric two nodes with one GUID are "
				"a firmware or VPD fault, and one LID twice "
				"an SM fault: have the device reprogrammed, "
				"or let the SM sweep again");
		oq_diag_set_code(d, code);
		return;
	}
	d = oq_error(diags, second,
		     "%s of %s is also that of %s, first on "
		     "line %u",
		     what, b, a, first.line);
	oq_diag_hint(d, "%s", fix);
	oq_diag_set_code(d, code);
}

int oq_node_guid_table_cmp(uint64_t a, uint64_t b)
{
	/* OpenSM keys node_guid_tbl (a cl_qmap, ordered by its uint64 key)
	 * by the GUID as it came in the MAD: network byte order. */
	uint64_t x = htobe64(a), y = htobe64(b);

	return x < y ? -1 : x > y;
}

struct in_table {
	uint64_t key; /* the GUID as OpenSM's node table compares it */
	uint32_t node;
};

static int table_order(const void *a, const void *b)
{
	const struct in_table *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (x->node > y->node) - (x->node < y->node);
}

/* The nodes in OpenSM's table order (GUIDs sorted as OpenSM keys them,
 * equal GUIDs by position), each name's first into the hash table and the
 * others chained after it in that order.  A sort of the GUIDs and a hash
 * lookup per name, not a sort of the names. */
static int index_names(struct oq_fabric_index *idx, const struct oq_fabric *f)
{
	size_t n_nodes = f->n_nodes, n;
	struct in_table *v = malloc((n_nodes ? n_nodes : 1) * sizeof(*v));
	uint32_t *last =
		malloc((f->n_node_ids ? f->n_node_ids : 1) * sizeof(*last));

	if (!v || !last) {
		free(v);
		free(last);
		return -ENOMEM;
	}
	for (n = 0; n < n_nodes; n++) {
		v[n].key = htobe64(f->nodes[n]->guid);
		v[n].node = (uint32_t)n;
	}
	qsort(v, n_nodes, sizeof(*v), table_order);
	oq_htab_clear(&idx->name);
	memset(idx->same_next, 0, idx->n_ids * sizeof(*idx->same_next));
	memset(idx->same_count, 0, idx->n_ids * sizeof(*idx->same_count));
	for (n = 0; n < n_nodes; n++) {
		uint32_t node = f->nodes[v[n].node]->id, first;
		const char *name = oq_node_name(f->nodes[v[n].node]);
		struct name_key k = {f, name, strlen(name)};

		/* Room was reserved for every node: this cannot fail. */
		if (oq_htab_find_or_add(&idx->name,
					oq_hash_bytes(k.name, k.len), same_name,
					&k, node, &first) == 1) {
			idx->same_count[node] = 1;
			last[node] = node;
			continue;
		}
		idx->same_next[last[first]] = node + 1;
		last[first] = node;
		idx->same_count[first]++;
	}
	free(v);
	free(last);
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
			int64_t old = index_put(&idx->lid, p->lid + j, p->id);

			if (old >= 0)
				idx->dups = true;
			if (old >= 0 && diags) {
				char a[96], b[96], what[16];
				const struct oq_port *q =
					port_of_id(f, (uint32_t)old);

				oq_port_name(q, a, sizeof(a));
				oq_port_name(p, b, sizeof(b));
				snprintf(what, sizeof(what), "LID %u",
					 p->lid + j);
				report_dup(diags, "lid-is-used-by-both", q->loc,
					   p->loc, what, a, b,
					   "every port needs LIDs of its own "
					   "(base LID to base + 2^LMC - 1): "
					   "check the lid and lmc of the two "
					   "lines");
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
	idx->n_ids = f->n_node_ids;
	idx->same_next = calloc(idx->n_ids + 1, sizeof(*idx->same_next));
	idx->same_count = calloc(idx->n_ids + 1, sizeof(*idx->same_count));
	if (!idx->same_next || !idx->same_count ||
	    oq_htab_reserve(&idx->name, f->n_nodes) ||
	    oq_htab_reserve(&idx->port_guid, n_ends) ||
	    oq_htab_reserve(&idx->node_guid, f->n_nodes) ||
	    oq_htab_reserve(&idx->lid, n_lids)) {
		oq_fabric_index_free(idx);
		return -ENOMEM;
	}
	for (k = 0; k < f->n_nodes; k++) {
		int64_t old = index_put(&idx->node_guid, f->nodes[k]->guid,
					f->nodes[k]->id);

		if (old >= 0)
			idx->dups = true;
		if (old >= 0 && diags) {
			char a[80], b[80], what[40];
			const struct oq_node *o = node_of_id(f, (uint32_t)old);

			snprintf(a, sizeof(a), "\"%s\"", o->desc);
			snprintf(b, sizeof(b), "\"%s\"", f->nodes[k]->desc);
			snprintf(what, sizeof(what), "node GUID 0x%016" PRIx64,
				 f->nodes[k]->guid);
			report_dup(diags, "node-guid-is-used-by-both", o->loc,
				   f->nodes[k]->loc, what, a, b,
				   "every node needs its own GUID: check the "
				   "caguid=/switchguid= lines before the two "
				   "(each sets the GUIDs of the nodes after "
				   "it)");
		}
	}
	for (k = 0; k < f->n_ports; k++) {
		const struct oq_port *p = f->ports[k];
		int64_t old;

		if (!oq_port_is_endport(p))
			continue;
		old = index_put(&idx->port_guid, p->guid, p->id);
		if (old >= 0)
			idx->dups = true;
		if (old >= 0 && diags) {
			char a[96], b[96], what[40];
			const struct oq_port *q = port_of_id(f, (uint32_t)old);

			oq_port_name(q, a, sizeof(a));
			oq_port_name(p, b, sizeof(b));
			snprintf(what, sizeof(what), "port GUID 0x%016" PRIx64,
				 p->guid);
			report_dup(diags, "port-guid-is-used-by-both", q->loc,
				   p->loc, what, a, b,
				   "every end port needs its own GUID: check "
				   "the (GUID) of the two port lines and the "
				   "caguid=/switchguid= lines");
		}
	}
	index_lids(idx, f, diags);
	if (index_names(idx, f)) {
		oq_fabric_index_free(idx);
		return -ENOMEM;
	}
	f->idx = idx;
	return 0;
}

int oq_fabric_index_names(struct oq_fabric *f)
{
	return f->idx ? index_names(f->idx, f) : -EINVAL;
}

/* ---- a derived fabric's index: the one it derives from, changed ---- */

/* n's keys out of idx, as prev indexed them.  -EAGAIN when its name is
 * another node's too (the names are indexed again). */
static int unindex_node(struct oq_fabric_index *idx, const struct oq_node *n)
{
	const char *name = oq_node_name(n);
	unsigned int j, l;

	oq_htab_del(&idx->node_guid, n->guid, n->id);
	for (j = 0; j <= n->n_ports; j++) {
		const struct oq_port *p = &n->ports[j];

		if (!p->present || !oq_port_is_endport(p))
			continue;
		oq_htab_del(&idx->port_guid, p->guid, p->id);
		for (l = 0;
		     p->lid && l < 1u << (p->lmc & 7) && p->lid + l <= 0xffff;
		     l++)
			oq_htab_del(&idx->lid, p->lid + l, p->id);
	}
	if (idx->same_count[n->id] != 1 || idx->same_next[n->id])
		return -EAGAIN;
	oq_htab_del(&idx->name, oq_hash_bytes(name, strlen(name)), n->id);
	idx->same_count[n->id] = 0;
	return 0;
}

/* n's keys into idx, its name too unless the names are indexed again.
 * -EEXIST when one is taken (a duplicate: the fabric is indexed afresh,
 * which reports it), -EAGAIN when its name is taken (the names are
 * indexed again), -ENOMEM. */
static int index_node(struct oq_fabric_index *idx, const struct oq_fabric *f,
		      const struct oq_node *n, bool names_again)
{
	const char *name = oq_node_name(n);
	struct name_key k = {f, name, strlen(name)};
	uint32_t old;
	unsigned int j, l;
	int rc;

	rc = oq_htab_put(&idx->node_guid, n->guid, n->id, &old);
	if (rc <= 0)
		return rc ? rc : -EEXIST;
	for (j = 0; j <= n->n_ports; j++) {
		const struct oq_port *p = &n->ports[j];

		if (!p->present || !oq_port_is_endport(p))
			continue;
		rc = oq_htab_put(&idx->port_guid, p->guid, p->id, &old);
		if (rc <= 0)
			return rc ? rc : -EEXIST;
		for (l = 0;
		     p->lid && l < 1u << (p->lmc & 7) && p->lid + l <= 0xffff;
		     l++) {
			rc = oq_htab_put(&idx->lid, p->lid + l, p->id, &old);
			if (rc <= 0)
				return rc ? rc : -EEXIST;
		}
	}
	if (names_again)
		return 0;
	rc = oq_htab_find_or_add(&idx->name, oq_hash_bytes(k.name, k.len),
				 same_name, &k, n->id, &old);
	if (rc < 0)
		return rc;
	if (!rc)
		return -EAGAIN;
	idx->same_count[n->id] = 1;
	idx->same_next[n->id] = 0;
	return 0;
}

static int copy_index(struct oq_fabric_index *idx,
		      const struct oq_fabric_index *from, uint32_t n_ids)
{
	idx->n_ids = n_ids;
	idx->same_next = calloc(n_ids + 1, sizeof(*idx->same_next));
	idx->same_count = calloc(n_ids + 1, sizeof(*idx->same_count));
	if (!idx->same_next || !idx->same_count)
		return -ENOMEM;
	memcpy(idx->same_next, from->same_next,
	       from->n_ids * sizeof(*idx->same_next));
	memcpy(idx->same_count, from->same_count,
	       from->n_ids * sizeof(*idx->same_count));
	if (oq_htab_copy(&idx->port_guid, &from->port_guid) ||
	    oq_htab_copy(&idx->node_guid, &from->node_guid) ||
	    oq_htab_copy(&idx->lid, &from->lid) ||
	    oq_htab_copy(&idx->name, &from->name))
		return -ENOMEM;
	return 0;
}

int oq_fabric_index_derive(struct oq_fabric *f, const struct oq_fabric *prev)
{
	struct oq_fabric_index *idx;
	bool names_again = false;
	size_t i;
	int rc;

	if (!prev->idx || prev->idx->dups || f->n_node_ids < prev->idx->n_ids)
		return -EAGAIN;
	idx = calloc(1, sizeof(*idx));
	if (!idx)
		return -ENOMEM;
	rc = copy_index(idx, prev->idx, f->n_node_ids);
	for (i = 0; !rc && i < prev->n_nodes; i++)
		if (oq_fabric_node_at(f, prev->nodes[i]) == UINT32_MAX) {
			rc = unindex_node(idx, prev->nodes[i]);
			if (rc == -EAGAIN) {
				names_again = true;
				rc = 0;
			}
		}
	for (i = 0; !rc && i < f->n_nodes; i++)
		if (oq_fabric_node_at(prev, f->nodes[i]) == UINT32_MAX) {
			rc = index_node(idx, f, f->nodes[i], names_again);
			if (rc == -EAGAIN) {
				names_again = true;
				rc = 0;
			}
		}
	if (!rc && names_again)
		rc = index_names(idx, f);
	if (rc) {
		oq_fabric_index_free(idx);
		return rc == -ENOMEM ? rc : -EAGAIN;
	}
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
	oq_htab_free(&idx->name);
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
	i = oq_htab_get(&f->idx->port_guid, guid);
	return i < 0 ? NULL : port_of_id(f, (uint32_t)i);
}

struct oq_node *oq_fabric_node_by_guid(const struct oq_fabric *f,
				       uint64_t guid)
{
	int64_t i;

	if (!f || !f->idx)
		return NULL;
	i = oq_htab_get(&f->idx->node_guid, guid);
	return i < 0 ? NULL : node_of_id(f, (uint32_t)i);
}

struct oq_port *oq_fabric_port_by_lid(const struct oq_fabric *f, uint16_t lid)
{
	int64_t i;

	if (!f || !f->idx || !lid)
		return NULL;
	i = oq_htab_get(&f->idx->lid, lid);
	return i < 0 ? NULL : port_of_id(f, (uint32_t)i);
}

struct oq_node *oq_fabric_node_by_name(const struct oq_fabric *f,
				       const char *name, size_t len,
				       size_t *n_same)
{
	struct name_key k = {f, name, len};
	int64_t i;

	if (n_same)
		*n_same = 0;
	if (!f || !f->idx || !name)
		return NULL;
	i = oq_htab_find(&f->idx->name, oq_hash_bytes(name, len), same_name,
			 &k);
	if (i < 0)
		return NULL;
	if (n_same)
		*n_same = f->idx->same_count[i];
	return node_of_id(f, (uint32_t)i);
}

struct oq_node *oq_fabric_node_next_same_name(const struct oq_fabric *f,
					      const struct oq_node *n)
{
	uint32_t next;

	if (!f || !f->idx || !n || oq_fabric_node_at(f, n) == UINT32_MAX)
		return NULL;
	next = f->idx->same_next[n->id];
	return next ? node_of_id(f, next - 1) : NULL;
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
