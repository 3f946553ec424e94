// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * OpenSM's own configuration as policy-core inputs: the per-port-type QoS
 * templates (opensm.conf qos_* options, as OpenSM holds them in memory) and
 * the partitions (partitions.conf, as OpenSM's partition manager built
 * them).
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opensm/osm_partition.h>

#include "osm.h"

static void put_opts(FILE *f, const char *prefix, const osm_qos_options_t *o)
{
	fprintf(f, "%smax_vls %u\n", prefix, o->max_vls);
	fprintf(f, "%shigh_limit %d\n", prefix, o->high_limit);
	fprintf(f, "%svlarb_high %s\n", prefix,
		o->vlarb_high ? o->vlarb_high : "(null)");
	fprintf(f, "%svlarb_low %s\n", prefix,
		o->vlarb_low ? o->vlarb_low : "(null)");
	fprintf(f, "%ssl2vl %s\n", prefix, o->sl2vl ? o->sl2vl : "(null)");
}

/*
 * The templates are rebuilt from OpenSM's in-memory options with the same
 * parser that reads an opensm.conf for `osmqos tables --opensm-conf`, so
 * the CLI's dry run and the plugin cannot disagree on them.  The text has
 * no fixed bound: OpenSM takes option values of any length (fifteen
 * 64-entry tables are legal), and dropping them would silently change the
 * tables.  What the parser finds goes into d, logged with the sweep's
 * other findings.  Returns 0, or -errno.
 */
int oq_templates_from_osm(osm_opensm_t *osm, struct oq_templates *t,
			  struct oq_diags *d)
{
	const osm_subn_opt_t *o = &osm->subn.opt;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	oq_templates_default(t);
	f = open_memstream(&buf, &len);
	if (!f)
		return -errno;
	put_opts(f, "qos_", &o->qos_options);
	put_opts(f, "qos_ca_", &o->qos_ca_options);
	put_opts(f, "qos_sw0_", &o->qos_sw0_options);
	put_opts(f, "qos_swe_", &o->qos_swe_options);
	put_opts(f, "qos_rtr_", &o->qos_rtr_options);
	if (fclose(f) || !buf) {
		int err = buf ? errno : ENOMEM;

		free(buf);
		return -err;
	}
	/* Its errors are diagnostics: a value the parser refuses leaves
	 * that template on OpenSM's default, as OpenSM itself does. */
	oq_templates_parse_opensm_conf(t, "opensm options", buf, len, d);
	free(buf);
	return 0;
}

/* The P_Keys the partition manager gave one port. */
struct membership {
	uint16_t *keys;
	uint16_t n, cap;
};

/*
 * One partition as the partitions pass read it, for the next sweep's pass
 * to tell what changed.  The member GUIDs as OpenSM's maps key them
 * (network byte order read as a host integer) and in their order, which
 * is ascending: full members first, then partial ones.
 */
struct kept_partition {
	char *name;
	uint16_t pkey;
	uint8_t sl;
	uint64_t *guids;
	size_t n_full, n_part;
};

struct oq_osm_partitions {
	struct kept_partition *v;
	size_t n;
	bool both; /* allow_both_pkeys */
	/* Every member list ascending, as a binary search needs. */
	bool sorted;
};

void oq_osm_partitions_free(struct oq_osm_partitions *r)
{
	size_t k;

	if (!r)
		return;
	for (k = 0; k < r->n; k++) {
		free(r->v[k].name);
		free(r->v[k].guids);
	}
	free(r->v);
	free(r);
}

/*
 * A port's membership of pkey.  As OpenSM's P_Key tables hold it: one
 * entry per P_Key where full wins over limited, or, with allow_both_pkeys,
 * a full and a limited entry apart (a "both" member), whose order the
 * SA's find_common_pkey() walks (policy/path/path_pkey.c).
 */
static int add_key(struct membership *x, uint16_t pkey, bool full, bool both)
{
	uint16_t k = pkey | (full ? OQ_PKEY_FULL : 0);
	size_t i;

	for (i = 0; i < x->n; i++) {
		if ((x->keys[i] & OQ_PKEY_MASK) != pkey)
			continue;
		if (x->keys[i] == k)
			return 0;
		if (!both) {
			x->keys[i] |= k; /* full wins over limited */
			return 0;
		}
	}
	if (x->n == UINT16_MAX)
		return 0;
	if (x->n == x->cap) {
		uint16_t cap = x->cap ? (x->cap > UINT16_MAX / 2 ? UINT16_MAX
								 : x->cap * 2)
				      : 4;
		uint16_t *v = realloc(x->keys, sizeof(*v) * cap);

		if (!v)
			return -ENOMEM;
		x->keys = v;
		x->cap = cap;
	}
	x->keys[x->n++] = k;
	return 0;
}

/* A port's table as x has it.  A node another fabric shares (one that
 * did not change since the last copy) is left alone where the table is
 * the same, and copied before it is written. */
static int set_port(struct oq_fabric *f, uint32_t at,
		    const struct membership *x)
{
	struct oq_port *p = f->ports[at];
	struct oq_node *n;

	if (p->n_pkeys == x->n &&
	    (!x->n || !memcmp(p->pkeys, x->keys, x->n * sizeof(*x->keys))))
		return 0;
	n = oq_fabric_node_own(f, p->node);
	if (!n)
		return -ENOMEM;
	return oq_port_set_pkeys(&n->ports[p->num], x->keys, x->n) ? -ENOMEM
								   : 0;
}

/* Every port's membership, from every member GUID of r. */
static int all_members(struct oq_fabric *f, const struct oq_osm_partitions *r)
{
	struct membership *m = calloc(f->n_ports ? f->n_ports : 1, sizeof(*m));
	size_t k, j;
	int rc = 0;

	if (!m)
		return -ENOMEM;
	for (k = 0; k < r->n && !rc; k++) {
		const struct kept_partition *kp = &r->v[k];

		for (j = 0; j < kp->n_full + kp->n_part && !rc; j++) {
			struct oq_port *p = oq_fabric_port_by_guid(
				f, cl_ntoh64(kp->guids[j]));

			if (p)
				rc = add_key(&m[oq_port_index(f, p)], kp->pkey,
					     j < kp->n_full, r->both);
		}
	}
	for (j = 0; j < f->n_ports && !rc; j++)
		rc = set_port(f, (uint32_t)j, &m[j]);
	for (j = 0; j < f->n_ports; j++)
		free(m[j].keys);
	free(m);
	return rc;
}

/* Positions of f's ports, a growing list. */
struct port_list {
	uint32_t *v;
	size_t n, cap;
};

static int port_list_add(struct port_list *l, uint32_t at)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		uint32_t *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = at;
	return 0;
}

/* The port of f whose GUID guid is (OpenSM's key order), if any. */
static int add_guid_port(struct port_list *l, const struct oq_fabric *f,
			 uint64_t guid)
{
	struct oq_port *p = oq_fabric_port_by_guid(f, cl_ntoh64(guid));

	return p ? port_list_add(l, oq_port_index(f, p)) : 0;
}

/* The ports of the GUIDs in exactly one of two ascending lists. */
static int add_changed(struct port_list *l, const struct oq_fabric *f,
		       const uint64_t *a, size_t na, const uint64_t *b,
		       size_t nb)
{
	size_t i = 0, j = 0;
	int rc = 0;

	while (!rc && (i < na || j < nb)) {
		if (j == nb || (i < na && a[i] < b[j]))
			rc = add_guid_port(l, f, a[i++]);
		else if (i == na || b[j] < a[i])
			rc = add_guid_port(l, f, b[j++]);
		else
			i++, j++;
	}
	return rc;
}

static bool has_guid(const uint64_t *v, size_t n, uint64_t guid)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid] == guid)
			return true;
		if (v[mid] < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The same membership as all_members(), for f derived from prev_f whose
 * ports hold the membership old gave them: the nodes f shares with prev_f
 * keep their tables unless a partition gained or lost their port's GUID;
 * the nodes read anew (no tables yet) and those ports get theirs from r.
 * No two ports have one GUID (the copies were clean): a GUID that is in
 * the same lists as before means the same port, with the same table.
 */
static int changed_members(struct oq_fabric *f, const struct oq_fabric *prev_f,
			   const struct oq_osm_partitions *old,
			   const struct oq_osm_partitions *r)
{
	struct port_list l = {0};
	struct membership x = {0};
	size_t k, i, j;
	int rc = 0;

	for (k = 0; k < r->n && !rc; k++) {
		const struct kept_partition *a = &old->v[k], *b = &r->v[k];

		rc = add_changed(&l, f, a->guids, a->n_full, b->guids,
				 b->n_full);
		if (!rc)
			rc = add_changed(&l, f, a->guids + a->n_full, a->n_part,
					 b->guids + b->n_full, b->n_part);
	}
	for (i = 0; i < f->n_nodes && !rc; i++) {
		uint32_t id = f->node_id_at[i], at;

		at = id < prev_f->n_node_ids ? prev_f->node_pos[id]
					     : UINT32_MAX;
		if (at < prev_f->n_nodes && prev_f->nodes[at] == f->nodes[i])
			continue;
		for (j = f->first_port[i]; j < f->first_port[i + 1] && !rc; j++)
			rc = port_list_add(&l, (uint32_t)j);
	}
	if (l.n)
		qsort(l.v, l.n, sizeof(*l.v), cmp_u32);
	for (i = 0; i < l.n && !rc; i++) {
		uint32_t at = l.v[i];
		const struct oq_port *p, *q;
		uint64_t guid;

		if (at >= f->n_ports || (i && l.v[i - 1] == at))
			continue;
		p = f->ports[at];
		guid = cl_hton64(p->guid);
		x.n = 0;
		/* By position: the index's port is f's current one, which
		 * may be the copy of a shared node this pass made. */
		q = oq_fabric_port_by_guid(f, p->guid);
		for (k = 0; q && oq_port_index(f, q) == at && k < r->n && !rc;
		     k++) {
			const struct kept_partition *b = &r->v[k];

			if (has_guid(b->guids, b->n_full, guid))
				rc = add_key(&x, b->pkey, true, r->both);
			if (!rc &&
			    has_guid(b->guids + b->n_full, b->n_part, guid))
				rc = add_key(&x, b->pkey, false, r->both);
		}
		if (!rc)
			rc = set_port(f, at, &x);
	}
	free(x.keys);
	free(l.v);
	return rc;
}

/* Whether r's partitions are old's but for their members. */
static bool same_partitions(const struct oq_osm_partitions *old,
			    const struct oq_osm_partitions *r)
{
	size_t k;

	if (!old->sorted || !r->sorted || old->n != r->n ||
	    old->both != r->both)
		return false;
	for (k = 0; k < r->n; k++)
		if (old->v[k].pkey != r->v[k].pkey ||
		    old->v[k].sl != r->v[k].sl ||
		    strcmp(old->v[k].name, r->v[k].name))
			return false;
	return true;
}

static void read_guids(const cl_map_t *m, uint64_t *v, size_t *n, bool *sorted)
{
	cl_map_iterator_t g;

	*n = 0;
	for (g = cl_map_head(m); g != cl_map_end(m); g = cl_map_next(g)) {
		uint64_t k = cl_map_key(g);

		if (*n && v[*n - 1] >= k)
			*sorted = false;
		v[(*n)++] = k;
	}
}

static int read_partitions(osm_opensm_t *osm, struct oq_partitions *parts,
			   struct oq_osm_partitions *r)
{
	cl_qmap_t *tbl = &osm->subn.prtn_pkey_tbl;
	size_t k = 0;
	cl_map_item_t *it;

	r->both = osm->subn.opt.allow_both_pkeys;
	r->sorted = true;
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl) && k < parts->n;
	     it = cl_qmap_next(it)) {
		const osm_prtn_t *pr = (const osm_prtn_t *)it;
		struct oq_partition *dst = &parts->v[k];
		struct kept_partition *kp = &r->v[k++];
		size_t nf = cl_map_count(&pr->full_guid_tbl);
		size_t np = cl_map_count(&pr->part_guid_tbl);

		r->n = k;
		dst->name = strndup(pr->name, sizeof(pr->name));
		dst->pkey = cl_ntoh16(pr->pkey) & OQ_PKEY_MASK;
		dst->sl = pr->sl;
		kp->name = strndup(pr->name, sizeof(pr->name));
		kp->pkey = dst->pkey;
		kp->sl = pr->sl;
		kp->guids = malloc((nf + np ? nf + np : 1) * sizeof(uint64_t));
		if (!dst->name || !kp->name || !kp->guids)
			return -ENOMEM;
		read_guids(&pr->full_guid_tbl, kp->guids, &kp->n_full,
			   &r->sorted);
		read_guids(&pr->part_guid_tbl, kp->guids + kp->n_full,
			   &kp->n_part, &r->sorted);
	}
	return 0;
}

/*
 * Partition names for `partition:` groups, and every end port's membership
 * as the partition manager decided it.  The membership replaces what the
 * snapshot read from the ports' PKey tables: those are last sweep's until
 * the pkey manager has run.
 *
 * The manager rebuilds its partitions each heavy sweep, and after one
 * port changed they differ from the last ones by that port at most: when
 * f derives from prev_f (old what prev_f's membership was made from, and
 * neither copy had duplicate GUIDs), only the ports whose membership can
 * differ get theirs anew.
 */
int oq_partitions_from_osm(osm_opensm_t *osm, struct oq_partitions *parts,
			   struct oq_fabric *f, const struct oq_fabric *prev_f,
			   const struct oq_osm_partitions *old,
			   struct oq_osm_partitions **read)
{
	size_t n = cl_qmap_count(&osm->subn.prtn_pkey_tbl);
	struct oq_osm_partitions *r;
	int rc;

	memset(parts, 0, sizeof(*parts));
	*read = NULL;
	if (!n)
		return 0; /* no partitions yet: keep the ports' own tables */
	parts->v = calloc(n, sizeof(*parts->v));
	r = calloc(1, sizeof(*r));
	if (r)
		r->v = calloc(n, sizeof(*r->v));
	if (!parts->v || !r || !r->v) {
		oq_osm_partitions_free(r);
		return -ENOMEM;
	}
	parts->n = n;
	rc = read_partitions(osm, parts, r);
	if (!rc && prev_f && old && f->derived && same_partitions(old, r))
		rc = changed_members(f, prev_f, old, r);
	else if (!rc)
		rc = all_members(f, r);
	if (rc) {
		oq_osm_partitions_free(r);
		return rc;
	}
	*read = r;
	return 0;
}

static void record_opts(struct oq_record *r, const osm_qos_options_t *o)
{
	int32_t v[2] = {(int32_t)o->max_vls, o->high_limit};

	oq_record_put(r, v, sizeof(v));
	oq_record_put_str(r, o->vlarb_high);
	oq_record_put_str(r, o->vlarb_low);
	oq_record_put_str(r, o->sl2vl);
}

static void record_guids(struct oq_record *r, const cl_map_t *m)
{
	uint64_t n = cl_map_count(m), k;
	cl_map_iterator_t it;

	oq_record_put(r, &n, sizeof(n));
	for (it = cl_map_head(m); it != cl_map_end(m); it = cl_map_next(it)) {
		k = cl_map_key(it);
		oq_record_put(r, &k, sizeof(k));
	}
}

void oq_inputs_record(osm_opensm_t *osm, struct oq_record *r)
{
	const osm_subn_opt_t *o = &osm->subn.opt;
	cl_qmap_t *tbl = &osm->subn.prtn_pkey_tbl;
	cl_map_item_t *it;

	record_opts(r, &o->qos_options);
	record_opts(r, &o->qos_ca_options);
	record_opts(r, &o->qos_sw0_options);
	record_opts(r, &o->qos_swe_options);
	record_opts(r, &o->qos_rtr_options);
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl);
	     it = cl_qmap_next(it)) {
		const osm_prtn_t *pr = (const osm_prtn_t *)it;
		uint16_t v[2] = {pr->pkey, pr->sl};

		oq_record_put(r, v, sizeof(v));
		oq_record_put(r, pr->name, sizeof(pr->name));
		record_guids(r, &pr->full_guid_tbl);
		record_guids(r, &pr->part_guid_tbl);
	}
}
