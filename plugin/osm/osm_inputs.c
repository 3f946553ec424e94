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
 * A port's membership of pkey.  As OpenSM's P_Key tables hold it: one
 * entry per P_Key where full wins over limited, or, with allow_both_pkeys,
 * a full and a limited entry apart (a "both" member), whose order the
 * SA's find_common_pkey() walks (policy/path/path_pkey.c).
 */
static int add_member(struct membership *m, const struct oq_fabric *f,
		      uint64_t guid, uint16_t pkey, bool full, bool both)
{
	struct oq_port *p = oq_fabric_port_by_guid(f, guid);
	uint16_t k = pkey | (full ? OQ_PKEY_FULL : 0);
	struct membership *x;
	size_t i;

	if (!p)
		return 0;
	x = &m[oq_port_index(f, p)];
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

/*
 * Every port's table as m has it.  A node another fabric shares (one
 * that did not change since the last copy) is left alone where its
 * tables are the same, and copied before one is written.
 */
static int set_members(struct oq_fabric *f, const struct membership *m)
{
	size_t i;

	for (i = 0; i < f->n_ports; i++) {
		struct oq_port *p = f->ports[i];
		struct oq_node *n;

		if (p->n_pkeys == m[i].n &&
		    (!m[i].n ||
		     !memcmp(p->pkeys, m[i].keys, m[i].n * sizeof(*m[i].keys))))
			continue;
		n = oq_fabric_node_own(f, p->node);
		if (!n)
			return -ENOMEM;
		if (oq_port_set_pkeys(&n->ports[p->num], m[i].keys, m[i].n))
			return -ENOMEM;
	}
	return 0;
}

static int read_members(osm_opensm_t *osm, struct oq_partitions *parts,
			const struct oq_fabric *f, struct membership *m)
{
	cl_qmap_t *tbl = &osm->subn.prtn_pkey_tbl;
	bool both = osm->subn.opt.allow_both_pkeys;
	size_t k = 0;
	cl_map_item_t *it;

	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl) && k < parts->n;
	     it = cl_qmap_next(it)) {
		const osm_prtn_t *pr = (const osm_prtn_t *)it;
		uint16_t pkey = cl_ntoh16(pr->pkey) & OQ_PKEY_MASK;
		struct oq_partition *dst = &parts->v[k++];
		cl_map_iterator_t g;

		dst->name = strndup(pr->name, sizeof(pr->name));
		dst->pkey = pkey;
		dst->sl = pr->sl;
		for (g = cl_map_head(&pr->full_guid_tbl);
		     g != cl_map_end(&pr->full_guid_tbl); g = cl_map_next(g))
			if (add_member(m, f, cl_ntoh64(cl_map_key(g)), pkey,
				       true, both))
				return -ENOMEM;
		for (g = cl_map_head(&pr->part_guid_tbl);
		     g != cl_map_end(&pr->part_guid_tbl); g = cl_map_next(g))
			if (add_member(m, f, cl_ntoh64(cl_map_key(g)), pkey,
				       false, both))
				return -ENOMEM;
	}
	return 0;
}

/*
 * Partition names for `partition:` groups, and every end port's membership
 * as the partition manager decided it.  The membership replaces what the
 * snapshot read from the ports' PKey tables: those are last sweep's until
 * the pkey manager has run.
 */
int oq_partitions_from_osm(osm_opensm_t *osm, struct oq_partitions *parts,
			   struct oq_fabric *f)
{
	size_t n = cl_qmap_count(&osm->subn.prtn_pkey_tbl), i;
	struct membership *m;
	int rc;

	memset(parts, 0, sizeof(*parts));
	if (!n)
		return 0; /* no partitions yet: keep the ports' own tables */
	parts->v = calloc(n, sizeof(*parts->v));
	m = calloc(f->n_ports ? f->n_ports : 1, sizeof(*m));
	if (!parts->v || !m) {
		free(m);
		return -ENOMEM;
	}
	parts->n = n;
	rc = read_members(osm, parts, f, m);
	if (!rc)
		rc = set_members(f, m);
	for (i = 0; i < f->n_ports; i++)
		free(m[i].keys);
	free(m);
	return rc;
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
