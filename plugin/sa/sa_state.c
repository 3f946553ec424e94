// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SA's state of a sweep: the parts of OpenSM's subnet its PathRecord
 * answers depend on, copied at UCAST_ROUTING_DONE (routes computed, every
 * QoS Set answered) into the state SA threads read without OpenSM's lock:
 * the alias GUID table in OpenSM's map order, the SL2VL tables as OpenSM
 * caches them from the ports (what its SA checks SLs against), and the
 * options that change answers; and the port classes the audit trail and
 * the published files predict from.  The LFTs, the policy and the tables
 * are the sweep state's, which it references.
 */
#include <config.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/clock.h>

#include "sa.h"

#include <opensm/osm_port.h>
#include <opensm/osm_sa.h>
#include <opensm/osm_subnet.h>

/* Index of the fabric port snapshotted from physp, or -1. */
static long port_index(const struct oq_sweep_state *s, const void *physp)
{
	const struct oq_port_tables *t = oq_sweep_tables_of(s, physp);

	return t ? (long)(t - s->tables.ports) : -1;
}

static int copy_aliases(osm_opensm_t *osm, struct oq_sa_state *s)
{
	const struct oq_sweep_state *sw = s->sweep;
	cl_qmap_t *tbl = &osm->subn.alias_port_guid_tbl;
	size_t n = cl_qmap_count(tbl), k = 0;
	cl_map_item_t *it;

	s->aliases = calloc(n ? n : 1, sizeof(*s->aliases));
	if (!s->aliases)
		return -ENOMEM;
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl) && k < n;
	     it = cl_qmap_next(it)) {
		const osm_alias_guid_t *a = (const osm_alias_guid_t *)it;
		long i;

		if (!a->p_base_port || !a->p_base_port->p_physp)
			continue;
		i = port_index(sw, a->p_base_port->p_physp);
		if (i < 0)
			continue; /* not discovered in this sweep */
		s->aliases[k].guid = cl_ntoh64(a->alias_guid);
		s->aliases[k].port = sw->fabric->ports[i];
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

/* Whether any SL of the port's tables goes to VL15 (dropped): a nibble
 * with all four bits set, for the 16 SLs of a table at once (this runs
 * for every input port of every switch port each sweep). */
static bool slvl_drops(const osm_physp_t *physp, size_t n)
{
	size_t in;
	uint64_t v;

	for (in = 0; in < n; in++) {
		const ib_slvl_table_t *st =
			cl_ptr_vector_get(&physp->slvl_by_port, in);

		if (!st)
			continue;
		memcpy(&v, st->raw_vl_by_sl, sizeof(v));
		if (oq_sl2vl_vl15_bits(v))
			return true;
	}
	return false;
}

/* May OpenSM's cached SL2VL have changed since the SA last read it?
 * When Sets went to some port since, or may have without being noted
 * (build_sa_state() marks every port then: OpenSM set SL2VL without the
 * plugin's hook, as under a path-SL engine). */
static bool sl2vl_may_have_changed(const struct oq_sa *sa)
{
	const struct oq_sl2vl_dirty *d = &sa->sweep->sl2vl_dirty;

	return d->n || d->all;
}

/*
 * Whether a port the Sets went to drops an SL now.  Only asked when the
 * SA's last read found none dropped anywhere: every other port's cache
 * is as it was then, or new and zeroed (no SL on VL15).  *n: the ports
 * read, each once.  -ENOMEM: not known.
 */
static int sets_drop(const struct oq_sweep_state *sw,
		     const struct oq_sl2vl_dirty *d, size_t *n)
{
	size_t n_ports = sw->fabric->n_ports, i, k;
	uint64_t *seen = calloc(n_ports / 64 + 1, sizeof(*seen));

	if (!seen)
		return -ENOMEM;
	for (i = 0; i < d->n; i++) {
		const struct oq_port_tables *t =
			oq_sweep_tables_of(sw, d->physp[i]);
		const osm_physp_t *physp = d->physp[i];

		/* A port gone since is not read: its pointer may dangle. */
		if (!t)
			continue;
		k = (size_t)(t - sw->tables.ports);
		if (seen[k / 64] & (1ull << (k % 64)))
			continue;
		seen[k / 64] |= 1ull << (k % 64);
		++*n;
		if (slvl_drops(physp, slvl_tables(physp)))
			break;
	}
	free(seen);
	return i < d->n;
}

/*
 * A path check reads OpenSM's SL2VL only for the SLs they drop (VL15), so
 * while no port drops one there is no copy, and the SA's view has no
 * SL2VL (no path loses an SL).  Otherwise every port's rows, each
 * distinct block stored once (oq_port_tables_set_sl2vl()).  Either way
 * the copy allocates kilobytes, not a table per port pair.
 */
static int copy_sl2vl(struct oq_sa *sa, struct oq_sa_state *s)
{
	const struct oq_fabric *f = s->sweep->fabric;
	struct oq_sl2vl_dirty *dirty = &sa->sweep->sl2vl_dirty;
	struct oq_phases *ph = &sa->sweep->phases;
	struct oq_fabric_tables *t = &s->sl2vl;
	union oq_sl2vl_scratch sc;
	size_t i;
	int rc;

	/* OpenSM's cache changes only with a Set's answer (or zeroed, for a
	 * new port or a Set queued): with none since a read that found no
	 * drop, there is none now; with some, only their ports can. */
	if (sa->sl2vl_clean && !sl2vl_may_have_changed(sa))
		return 0;
	rc = 1; /* every port to read */
	if (sa->sl2vl_clean && !dirty->all)
		rc = sets_drop(s->sweep, dirty, &ph->sl2vl_ports);
	if (!rc) {
		oq_sl2vl_dirty_clear(dirty);
		return 0;
	}
	for (i = 0; i < f->n_ports; i++) {
		const osm_physp_t *physp = f->ports[i]->user;

		if (slvl_drops(physp, slvl_tables(physp)))
			break;
	}
	ph->sl2vl_ports = f->n_ports;
	ph->sl2vl_all = true;
	sa->sl2vl_clean = i == f->n_ports;
	oq_sl2vl_dirty_clear(dirty);
	if (i == f->n_ports)
		return 0;
	t->ports = calloc(f->n_ports ? f->n_ports : 1, sizeof(*t->ports));
	if (!t->ports)
		return -ENOMEM;
	t->n = f->n_ports;
	for (i = 0; i < t->n; i++) {
		const struct oq_port *p = f->ports[i];
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
		errno = 0;
		rc = oq_port_tables_set_sl2vl(
			t, pt, (const uint8_t(*)[16])sc.row, (unsigned int)n);
		if (rc)
			return -oq_failure_errno(rc);
		pt->has_sl2vl = true;
	}
	/* Every PathRecord's path check reads these rows. */
	errno = 0;
	rc = oq_fabric_tables_index_drops(t);
	return rc ? -oq_failure_errno(rc) : 0;
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

/* The routing engine's path_sl() reads the engine's own tables, which the
 * sweep rewrites under OpenSM's lock: consult it under the read lock. */
static uint8_t engine_path_sl(void *ctx, uint8_t hint, uint16_t slid,
			      uint16_t dlid)
{
	osm_opensm_t *osm = ctx;
	struct osm_routing_engine *re;
	uint8_t sl = hint;

	cl_plock_acquire(&osm->lock);
	re = osm->routing_engine_used;
	if (re && re->path_sl)
		sl = re->path_sl(re->context, hint, cl_hton16(slid),
				 cl_hton16(dlid));
	cl_plock_release(&osm->lock);
	return sl;
}

/* OpenSM's SA inputs and options into the view.  0, or -errno with
 * *step set. */
static int fill_view(struct oq_sa *sa, struct oq_sa_state *s, const char **step)
{
	osm_opensm_t *osm = sa->osm;
	const osm_subn_opt_t *o = &osm->subn.opt;
	struct osm_routing_engine *re = osm->routing_engine_used;
	const struct oq_sweep_state *sw = s->sweep;
	const struct oq_policy *pol = sw->pol ? sw->pol->p : NULL;
	struct oq_sa_view *v = &s->view;
	const char *why;
	int rc;

	/* Read before the copy (OpenSM's read lock is held: no change can
	 * be applied during it; one applied after it is counted after). */
	s->alias_gen =
		__atomic_load_n(&sa->front.alias_changes, __ATOMIC_ACQUIRE);
	oq_sa_alias_seen(sa, oq_sa_alias_sig(osm));
	rc = copy_aliases(osm, s);
	if (rc) {
		*step = "copying OpenSM's alias GUIDs";
		return rc;
	}
	errno = 0;
	rc = oq_alias_index_build(sw->fabric, &s->alias_index, s->aliases,
				  s->n_aliases, sw->fabric->n_ports);
	if (rc) {
		*step = "indexing the alias GUIDs";
		return -oq_failure_errno(rc);
	}
	rc = copy_sl2vl(sa, s);
	if (rc) {
		*step = "copying OpenSM's SL2VL tables";
		return rc;
	}
	if (pol && pol->n_levels) {
		size_t i, n = pol->n_levels;

		s->level_slot = malloc(n * sizeof(*s->level_slot));
		for (i = 0; s->level_slot && i < n; i++)
			s->level_slot[i] = OQ_LEVEL_SLOT_UNSET;
	}
	v->fabric = sw->fabric;
	v->sl2vl = s->sl2vl.ports ? &s->sl2vl : NULL;
	v->policy = pol;
	v->matcher = sw->matcher;
	v->parts = &sw->subnet->parts;
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
		v->path_sl = engine_path_sl;
		v->path_sl_ctx = osm;
	}
	why = unmodelled_option(o);
	if (why) {
		if (!sa->unmodelled_logged)
			OQ_LOG(osm, OSM_LOG_INFO,
			       "opensm.conf %s is set: PathRecord and "
			       "MultiPathRecord queries go to OpenSM's own "
			       "SA (no per-pair policy, no audit)\n",
			       why);
		sa->unmodelled_logged = true;
		return 0;
	}
	s->ready = true;
	return 0;
}

static void state_free(struct oq_sa_state *s)
{
	if (!s)
		return;
	oq_pred_classes_free(&s->classes);
	free(s->level_slot);
	free(s->aliases);
	oq_alias_index_free(&s->alias_index);
	oq_fabric_tables_free(&s->sl2vl);
	oq_sweep_put(s->sweep);
	free(s);
}

/* Are sw's tables derived from those prev's classes were built on, so
 * that sw's classes derive from prev's?  Only a routed state gets an SA
 * state of its own (one copied before routing for the SL2VL sent first
 * does not). */
static bool may_derive_classes(const struct oq_sa_state *prev,
			       const struct oq_sweep_state *sw)
{
	return prev && sw && sw->routed && sw->tables_from &&
	       sw->tables_from == prev->sweep->id && sw->tables.kept &&
	       prev->classes.of_port;
}

/* Could prev's classes be those of a state on sw (the same copy of the
 * subnet), or be what sw's derive from?  Else it is only memory. */
static bool may_keep_classes(const struct oq_sa_state *prev,
			     const struct oq_sweep_state *sw)
{
	return prev && sw &&
	       (prev->sweep->subnet == sw->subnet ||
		may_derive_classes(prev, sw));
}

/* The port classes of prev, when they are this sweep state's too: the
 * same copy of the subnet (not one equal to it: the classes name ports by
 * index) and the same tables, as after a policy edit that changed no
 * table.  0 when copied, else not. */
static int keep_classes(struct oq_sa_state *s, const struct oq_sa_state *prev)
{
	const struct oq_sweep_state *a = prev ? prev->sweep : NULL;
	const struct oq_sweep_state *b = s->sweep;

	if (!prev || prev->sweep->subnet != b->subnet || !prev->classes_id ||
	    (a != b && !oq_fabric_tables_same(&a->tables, &b->tables)) ||
	    oq_pred_classes_copy(&s->classes, &prev->classes))
		return -1;
	s->classes_id = prev->classes_id;
	return 0;
}

/* The port classes the audit trail and the published files predict
 * from, then OpenSM's SA inputs. */
struct oq_sa_state *oq_sa_state_build(struct oq_sa *sa,
				      struct oq_sweep_state *sw,
				      const struct oq_sa_state *prev)
{
	struct oq_sa_state *s = calloc(1, sizeof(*s));
	const char *step = "allocating it";
	uint64_t t = oq_clock_ns();
	struct oq_predict_opts o;
	double classes_ms;
	size_t n_keyed = 0, n_ports = 0;
	bool kept = false;
	int rc = -ENOMEM;

	if (!s)
		goto fail;
	s->refs = 1;
	s->sweep = oq_sweep_ref(sw);
	kept = !keep_classes(s, prev);
	if (!kept) {
		oq_predict_opts_init(&o);
		errno = 0;
		n_keyed = SIZE_MAX;
		/* After a change that kept most ports' tables, the classes
		 * of the state before with the changed ports keyed. */
		if (may_derive_classes(prev, sw))
			rc = oq_pred_classes_derive(
				sw->fabric, &sw->tables, &o,
				prev->sweep->fabric, &prev->sweep->tables,
				&prev->classes, &s->classes, &n_keyed);
		else
			rc = oq_pred_classes_build(sw->fabric, &sw->tables, &o,
						   NULL, &s->classes);
		if (rc) {
			step = "predicting the port classes";
			rc = -oq_failure_errno(rc);
			goto fail;
		}
		s->classes_id = ++sa->classes_made;
		n_ports = s->classes.n_classified + s->classes.n_bad;
		if (n_keyed == SIZE_MAX)
			n_keyed = n_ports;
	}
	classes_ms = oq_ms_since(t);
	rc = fill_view(sa, s, &step);
	if (rc)
		goto fail;
	sa->sweep->phases.states++;
	sa->sweep->phases.classes_keyed += n_keyed;
	sa->sweep->phases.classes_ports += n_ports;
	sa->sweep->phases.classes_kept += kept;
	sa->sweep->phases.classes_ms += classes_ms;
	return s;
fail:
	OQ_LOG_BUILD_FAILED(sa->osm, "the SA's state", step, -rc,
			    "PathRecords are answered from the state in "
			    "force, or by OpenSM's SA without one");
	state_free(s);
	return NULL;
}

/* What fill_view() reads of OpenSM besides the sweep state: the alias
 * GUIDs, the options that change answers, the engine's path_sl. */
static void record_inputs(osm_opensm_t *osm, struct oq_record *r)
{
	const osm_subn_opt_t *o = &osm->subn.opt;
	const struct osm_routing_engine *re = osm->routing_engine_used;
	cl_qmap_t *tbl = &osm->subn.alias_port_guid_tbl;
	struct {
		const void *path_sl;
		uint64_t prefix;
		uint8_t timeout, qos, both, lmc, rate, unmodelled, pad[2];
	} v;
	cl_map_item_t *it;

	memset(&v, 0, sizeof(v));
	v.path_sl = re && re->path_sl ? (const void *)re : NULL;
	v.prefix = o->subnet_prefix;
	v.timeout = o->subnet_timeout;
	v.qos = o->qos;
	v.both = o->allow_both_pkeys;
	v.lmc = o->lmc;
	v.rate = sa_max_rate_enum(o);
	v.unmodelled = unmodelled_option(o) != NULL;
	oq_record_put(r, &v, sizeof(v));
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl);
	     it = cl_qmap_next(it)) {
		const osm_alias_guid_t *a = (const osm_alias_guid_t *)it;
		const void *e[3] = {
			(const void *)(uintptr_t)a->alias_guid, a->p_base_port,
			a->p_base_port ? a->p_base_port->p_physp : NULL};

		oq_record_put(r, e, sizeof(e));
	}
}

/*
 * The SA's state in force still answers for the sweep state sw when sw
 * was kept (OpenSM's subnet, policy and engine unchanged: *kept*), the
 * SA's other inputs are as recorded, and no SL2VL Set went out since its
 * read of OpenSM's cached SL2VL, which the SA's copy mirrors and which
 * changes only with a Set's answer.  The hooks note every SL2VL Set only
 * while they program SL2VL; a routing run without them (a path-SL
 * engine) counts as Sets to every port, so only then is it kept.
 */
struct oq_sa_state *oq_sa_state_renew(struct oq_sa *sa,
				      struct oq_sweep_state *sw, bool kept,
				      bool *reused)
{
	struct oq_sa_state *cur = oq_sa_get(sa), *prev, *s;
	bool same;

	oq_record_begin(&sa->inputs);
	record_inputs(sa->osm, &sa->inputs);
	same = !oq_record_end(&sa->inputs);
	*reused = same && kept && cur && cur->sweep == sw &&
		  !sl2vl_may_have_changed(sa) && !oq_sa_aliases_stale(sa, cur);
	if (*reused)
		return cur;
	/* The state whose classes may be this one's: the one in force, else
	 * the one a new sweep state took out of force. */
	prev = cur;
	if (sa->retired) {
		if (!prev)
			prev = sa->retired;
		else
			oq_sa_put(sa->retired);
		sa->retired = NULL;
	}
	/* One that cannot lend them goes before the build, which would
	 * otherwise hold the states of two subnets at once. */
	if (!may_keep_classes(prev, sw)) {
		oq_sa_put(prev);
		prev = NULL;
	}
	s = oq_sa_state_build(sa, sw, prev);
	oq_sa_put(prev);
	if (!s)
		oq_record_forget(&sa->inputs);
	return s;
}

bool oq_sa_aliases_stale(struct oq_sa *sa, const struct oq_sa_state *s)
{
	return s->alias_gen !=
	       __atomic_load_n(&sa->front.alias_changes, __ATOMIC_ACQUIRE);
}

bool oq_sa_aliases_busy(struct oq_sa *sa)
{
	return __atomic_load_n(&sa->front.alias_busy, __ATOMIC_ACQUIRE) != 0;
}

void oq_sa_retire(struct oq_sa *sa)
{
	struct oq_sa_state *old;

	pthread_rwlock_wrlock(&sa->rw);
	old = sa->cur;
	sa->cur = NULL;
	pthread_rwlock_unlock(&sa->rw);
	if (!old)
		return;
	oq_sa_put(sa->retired);
	sa->retired = NULL;
	/* sw->cur is the state that took it out of force (SM thread). */
	if (may_keep_classes(old, sa->sweep->cur))
		sa->retired = old;
	else
		oq_sa_put(old);
}

void oq_sa_publish(struct oq_sa *sa, struct oq_sa_state *s)
{
	struct oq_sa_state *old;

	pthread_rwlock_wrlock(&sa->rw);
	old = sa->cur;
	sa->cur = s;
	pthread_rwlock_unlock(&sa->rw);
	oq_sa_put(old);
	/* The next build has s to take classes from: one retired after s
	 * was built (the sweep state s is on put in force after it) is
	 * only memory. */
	oq_sa_put(sa->retired);
	sa->retired = NULL;
}

struct oq_sa_state *oq_sa_get(struct oq_sa *sa)
{
	struct oq_sa_state *s;

	pthread_rwlock_rdlock(&sa->rw);
	s = sa->cur;
	if (s)
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
	pthread_rwlock_unlock(&sa->rw);
	return s;
}

void oq_sa_put(struct oq_sa_state *s)
{
	if (s && __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0)
		state_free(s);
}

void oq_sa_init(struct oq_sa *sa, osm_opensm_t *osm, struct oq_sweep *sweep,
		struct oq_publish_counters *counters)
{
	sa->osm = osm;
	sa->sweep = sweep;
	sa->counters = counters;
	oq_sweep_rwlock_init(&sa->rw);
	pthread_mutex_init(&sa->front.alias_lock, NULL);
	sa->front.answer = oq_sa_answer;
}

void oq_sa_fini(struct oq_sa *sa)
{
	oq_sa_publish(sa, NULL);
	oq_sa_put(sa->retired);
	sa->retired = NULL;
	oq_record_free(&sa->inputs);
	pthread_rwlock_destroy(&sa->rw);
	pthread_mutex_destroy(&sa->front.alias_lock);
}
