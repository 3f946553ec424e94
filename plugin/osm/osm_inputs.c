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

/*
 * A port's membership of pkey.  As OpenSM's P_Key tables hold it: one
 * entry per P_Key where full wins over limited, or, with allow_both_pkeys,
 * a full and a limited entry apart (a "both" member), whose order the
 * SA's find_common_pkey() walks (policy/path/path_pkey.c).
 */
static int add_member(struct oq_fabric *f, uint64_t guid, uint16_t pkey,
		      bool full, bool both)
{
	struct oq_port *p = oq_fabric_port_by_guid(f, guid);
	uint16_t *keys, k = pkey | (full ? OQ_PKEY_FULL : 0);
	size_t i;

	if (!p)
		return 0;
	for (i = 0; i < p->n_pkeys; i++) {
		if ((p->pkeys[i] & OQ_PKEY_MASK) != pkey)
			continue;
		if (p->pkeys[i] == k)
			return 0;
		if (!both) {
			p->pkeys[i] |= k; /* full wins over limited */
			return 0;
		}
	}
	keys = realloc(p->pkeys, sizeof(*keys) * (p->n_pkeys + 1u));
	if (!keys)
		return -ENOMEM;
	keys[p->n_pkeys++] = k;
	p->pkeys = keys;
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
	cl_qmap_t *tbl = &osm->subn.prtn_pkey_tbl;
	size_t n = cl_qmap_count(tbl), k = 0, i;
	bool both = osm->subn.opt.allow_both_pkeys;
	cl_map_item_t *it;

	memset(parts, 0, sizeof(*parts));
	if (!n)
		return 0; /* no partitions yet: keep the ports' own tables */
	parts->v = calloc(n, sizeof(*parts->v));
	if (!parts->v)
		return -ENOMEM;
	for (i = 0; i < f->n_ports; i++) {
		free(f->ports[i]->pkeys);
		f->ports[i]->pkeys = NULL;
		f->ports[i]->n_pkeys = 0;
	}
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl) && k < n;
	     it = cl_qmap_next(it)) {
		const osm_prtn_t *pr = (const osm_prtn_t *)it;
		uint16_t pkey = cl_ntoh16(pr->pkey) & OQ_PKEY_MASK;
		struct oq_partition *dst = &parts->v[k++];
		cl_map_iterator_t m;

		dst->name = strndup(pr->name, sizeof(pr->name));
		dst->pkey = pkey;
		dst->sl = pr->sl;
		for (m = cl_map_head(&pr->full_guid_tbl);
		     m != cl_map_end(&pr->full_guid_tbl); m = cl_map_next(m))
			if (add_member(f, cl_ntoh64(cl_map_key(m)), pkey, true,
				       both))
				return -ENOMEM;
		for (m = cl_map_head(&pr->part_guid_tbl);
		     m != cl_map_end(&pr->part_guid_tbl); m = cl_map_next(m))
			if (add_member(f, cl_ntoh64(cl_map_key(m)), pkey, false,
				       both))
				return -ENOMEM;
	}
	parts->n = k;
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
