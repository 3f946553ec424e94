// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SA's view of a sweep: the parts of OpenSM's subnet its PathRecord
 * answers depend on, copied at UCAST_ROUTING_DONE (routes computed, every
 * QoS Set answered) into the state SA threads read without OpenSM's lock:
 * the alias GUID table in OpenSM's map order, the SL2VL tables as OpenSM
 * caches them from the ports (what its SA checks SLs against), and the
 * options that change answers.  The LFTs come with the snapshot.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <osmqos/sa_memo.h>

#include "plugin.h"

#include <opensm/osm_port.h>
#include <opensm/osm_sa.h>
#include <opensm/osm_subnet.h>

/* Index of the fabric port snapshotted from physp, or -1. */
static long port_index(const struct oq_state *s, const void *physp)
{
	const struct oq_port_tables *t = oq_state_tables_of(s, physp);

	return t ? (long)(t - s->tables.ports) : -1;
}

static int copy_aliases(osm_opensm_t *osm, struct oq_state *s)
{
	cl_qmap_t *tbl = &osm->subn.alias_port_guid_tbl;
	size_t n = cl_qmap_count(tbl), k = 0;
	cl_map_item_t *it;

	s->aliases = calloc(n ? n : 1, sizeof(*s->aliases));
	if (!s->aliases)
		return -1;
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl) && k < n;
	     it = cl_qmap_next(it)) {
		const osm_alias_guid_t *a = (const osm_alias_guid_t *)it;
		long i;

		if (!a->p_base_port || !a->p_base_port->p_physp)
			continue;
		i = port_index(s, a->p_base_port->p_physp);
		if (i < 0)
			continue; /* not discovered in this sweep */
		s->aliases[k].guid = cl_ntoh64(a->alias_guid);
		s->aliases[k].port = s->fabric->ports[i];
		k++;
	}
	s->n_aliases = k;
	oq_alias_sort(s->aliases, k);
	return 0;
}

/* ib_slvl_table_get() for all 16 SLs at once (two per byte, the even SL
 * in the high nibble): this runs for every input port of every switch
 * port each sweep. */
static void unpack_slvl(const ib_slvl_table_t *t, uint8_t *out)
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		out[2 * i] = t->raw_vl_by_sl[i] >> 4;
		out[2 * i + 1] = t->raw_vl_by_sl[i] & 0x0f;
	}
}

/* The SL2VL tables OpenSM caches for a port, or 0 (none we read). */
static size_t slvl_tables(const osm_physp_t *physp)
{
	size_t n;

	if (!physp)
		return 0;
	n = cl_ptr_vector_get_size(&physp->slvl_by_port);
	return n > OQ_SL2VL_MAX_ROWS ? 0 : n;
}

/* Whether any SL of the port's tables goes to VL15 (dropped). */
static bool slvl_drops(const osm_physp_t *physp, size_t n)
{
	size_t in, i;

	for (in = 0; in < n; in++) {
		const ib_slvl_table_t *st =
			cl_ptr_vector_get(&physp->slvl_by_port, in);

		for (i = 0; st && i < 8; i++)
			if ((st->raw_vl_by_sl[i] & 0xf0) == 0xf0 ||
			    (st->raw_vl_by_sl[i] & 0x0f) == 0x0f)
				return true;
	}
	return false;
}

/*
 * A path check reads OpenSM's SL2VL only for the SLs they drop (VL15), so
 * while no port drops one there is no copy, and the SA's view has no
 * SL2VL (no path loses an SL).  Otherwise every port's rows, each
 * distinct block stored once (oq_port_tables_set_sl2vl()).  Either way
 * the copy allocates kilobytes, not a table per port pair.
 */
static int copy_sl2vl(struct oq_state *s)
{
	struct oq_fabric_tables *t = &s->sa_sl2vl;
	union oq_sl2vl_scratch sc;
	size_t i;

	for (i = 0; i < s->fabric->n_ports; i++) {
		const osm_physp_t *physp = s->fabric->ports[i]->user;

		if (slvl_drops(physp, slvl_tables(physp)))
			break;
	}
	if (i == s->fabric->n_ports)
		return 0;
	t->ports = calloc(s->fabric->n_ports ? s->fabric->n_ports : 1,
			  sizeof(*t->ports));
	if (!t->ports)
		return -1;
	t->n = s->fabric->n_ports;
	for (i = 0; i < t->n; i++) {
		const struct oq_port *p = s->fabric->ports[i];
		osm_physp_t *physp = p->user;
		struct oq_port_tables *pt = &t->ports[i];
		size_t n = slvl_tables(physp), in;

		pt->port = p;
		if (!n)
			continue;
		memset(sc.row, 0, 16 * n);
		for (in = 0; in < n; in++) {
			const ib_slvl_table_t *st =
				cl_ptr_vector_get(&physp->slvl_by_port, in);

			if (st)
				unpack_slvl(st, sc.row[in]);
		}
		if (oq_port_tables_set_sl2vl(t, pt,
					     (const uint8_t(*)[16])sc.row,
					     (unsigned int)n))
			return -1;
		pt->has_sl2vl = true;
	}
	/* Every PathRecord's path check reads these rows. */
	return oq_fabric_tables_index_drops(t);
}

/*
 * opensm.conf max_rate_enum as the SA view holds it: the limit
 * osm_sa_limit_rate() puts on record rates, 0 for none.  An OpenSM with
 * the option (3.3.24 on) limits rates while it is below SA_RATE_MAX_ENUM
 * (63, the default) and has turned use_original_extended_sa_rates_only
 * into max_rate_enum 18 (osm_subn_verify_config()); one without it has
 * no limit.
 */
static uint8_t sa_max_rate_enum(const osm_subn_opt_t *o)
{
#ifdef HAVE_OSM_SUBN_OPT_T_MAX_RATE_ENUM
	return o->max_rate_enum < SA_RATE_MAX_ENUM ? o->max_rate_enum : 0;
#else
	(void)o;
	return 0;
#endif
}

/* Answers OpenSM computes with options we do not model go to OpenSM. */
static const char *unmodelled_option(const osm_subn_opt_t *o)
{
	if (o->enable_quirks)
		return "enable_quirks";
#ifndef HAVE_OSM_SUBN_OPT_T_MAX_RATE_ENUM
	if (o->use_original_extended_sa_rates_only)
		return "use_original_extended_sa_rates_only";
#endif
	return NULL;
}

void oq_sa_cache_option(struct osmqos *q)
{
	const char *v = q->opts.sa_cache;
	unsigned long n;

	q->sa_memo_entries = OQ_SA_CACHE_DEFAULT;
	if (!v)
		return;
	if (!oq_plugin_option_number(v, OQ_SA_MEMO_MAX, &n)) {
		q->sa_memo_entries = n;
		return;
	}
	OQ_LOG(q, OSM_LOG_ERROR,
	       "event_plugin_options: sa_cache=%s is not a number of "
	       "answers from 0 to %d; using %d\n",
	       v, OQ_SA_MEMO_MAX, OQ_SA_CACHE_DEFAULT);
}

/* The state's memo of PathRecord answers.  None under an engine with its
 * own path_sl(): its answers depend on the engine's tables, not on the
 * state alone.  Without memory the SA answers every query in full. */
static void memo_create(struct osmqos *q, struct oq_state *s)
{
	if (!q->sa_memo_entries || s->view.path_sl)
		return;
	s->memo = oq_sa_memo_create(q->sa_memo_entries,
				    oq_sa_answer_memo_val_size());
	/* Once per run of failed sweeps, so a recovery is seen too. */
	if (s->memo) {
		if (q->sa_memo_oom_logged)
			OQ_LOG(q, OSM_LOG_INFO,
			       "memory for sa_cache=%zu kept PathRecord "
			       "answers again\n",
			       q->sa_memo_entries);
		q->sa_memo_oom_logged = false;
	} else if (!q->sa_memo_oom_logged) {
		OQ_LOG(q, OSM_LOG_ERROR,
		       "out of memory for sa_cache=%zu kept PathRecord "
		       "answers; every query is answered in full (lower "
		       "sa_cache)\n",
		       q->sa_memo_entries);
		q->sa_memo_oom_logged = true;
	}
}

int oq_sa_state_fill(struct osmqos *q, struct oq_state *s)
{
	osm_opensm_t *osm = q->osm;
	const osm_subn_opt_t *o = &osm->subn.opt;
	struct osm_routing_engine *re = osm->routing_engine_used;
	struct oq_sa_view *v = &s->view;
	const char *why;

	if (copy_aliases(osm, s) ||
	    oq_alias_index_build(&s->alias_index, s->aliases, s->n_aliases,
				 s->fabric->n_ports) ||
	    copy_sl2vl(s))
		return -1;
	if (s->pol && s->pol->p->n_levels) {
		size_t i, n = s->pol->p->n_levels;

		s->level_slot = malloc(n * sizeof(*s->level_slot));
		for (i = 0; s->level_slot && i < n; i++)
			s->level_slot[i] = OQ_LEVEL_SLOT_UNSET;
	}
	v->fabric = s->fabric;
	v->sl2vl = s->sa_sl2vl.ports ? &s->sa_sl2vl : NULL;
	v->policy = s->pol ? s->pol->p : NULL;
	v->matcher = s->matcher;
	v->parts = &s->parts;
	v->aliases = s->aliases;
	v->n_aliases = s->n_aliases;
	v->alias_index = &s->alias_index;
	v->subnet_prefix = cl_ntoh64(o->subnet_prefix);
	v->subnet_timeout = o->subnet_timeout;
	v->qos = o->qos;
	v->allow_both_pkeys = o->allow_both_pkeys;
	v->apply_path_bits = true;
	v->lmc = o->lmc;
	v->max_rate_enum = sa_max_rate_enum(o);
	if (re && re->path_sl) {
		v->path_sl = oq_sa_engine_path_sl;
		v->path_sl_ctx = q;
	}
	why = unmodelled_option(o);
	if (why) {
		if (!q->sa_unmodelled_logged)
			OQ_LOG(q, OSM_LOG_INFO,
			       "opensm.conf %s is set: PathRecord and "
			       "MultiPathRecord queries go to OpenSM's own "
			       "SA (no per-pair policy, no audit)\n",
			       why);
		q->sa_unmodelled_logged = true;
		return 0;
	}
	memo_create(q, s);
	s->sa_ready = true;
	return 0;
}

void oq_sa_state_free(struct oq_state *s)
{
	oq_sa_memo_free(s->memo);
	s->memo = NULL;
	oq_pred_classes_free(&s->classes);
	free(s->level_slot);
	s->level_slot = NULL;
	free(s->aliases);
	s->aliases = NULL;
	oq_alias_index_free(&s->alias_index);
	oq_fabric_tables_free(&s->sa_sl2vl);
}
