// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The per-sweep state: fabric snapshot, bound policy, compiled matcher and
 * per-port tables.  Built without holding anything but OpenSM's read lock,
 * published by swapping one pointer, and reference counted so a reader (an
 * SA thread, a hook) keeps the state it started with.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <osmqos/keyidx.h>

#include "plugin.h"
#include "snapshot.h"

static size_t map_slot(const struct oq_state *s, const void *key)
{
	uintptr_t h = (uintptr_t)key;

	h ^= h >> 17;
	h *= 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 7) & (s->map_cap - 1);
}

static int map_build(struct oq_state *s)
{
	size_t i, cap = 16;

	while (cap < s->fabric->n_ports * 2)
		cap <<= 1;
	s->map_cap = cap;
	s->map_key = calloc(cap, sizeof(*s->map_key));
	s->map_val = calloc(cap, sizeof(*s->map_val));
	if (!s->map_key || !s->map_val)
		return -1;
	for (i = 0; i < s->fabric->n_ports; i++) {
		const void *key = s->fabric->ports[i]->user;
		size_t j;

		if (!key)
			continue;
		for (j = map_slot(s, key); s->map_key[j];
		     j = (j + 1) & (cap - 1))
			;
		s->map_key[j] = key;
		s->map_val[j] = (uint32_t)i;
	}
	return 0;
}

const struct oq_port_tables *oq_state_tables_of(const struct oq_state *s,
						const void *physp)
{
	size_t j;

	if (!s || !s->map_cap || !s->tables.ports)
		return NULL;
	for (j = map_slot(s, physp); s->map_key[j];
	     j = (j + 1) & (s->map_cap - 1))
		if (s->map_key[j] == physp)
			return &s->tables.ports[s->map_val[j]];
	return NULL;
}

static void state_free(struct osmqos *q, struct oq_state *s)
{
	if (!s)
		return;
	oq_sa_state_free(s);
	oq_pred_classes_free(&s->classes);
	if (s->base) {
		/* Everything else is the base state's. */
		oq_state_put(q, s->base);
		free(s);
		return;
	}
	free(s->map_key);
	free(s->map_val);
	oq_synth_plan_free(&s->synth);
	oq_fabric_tables_free(&s->tables);
	oq_matcher_free(s->matcher);
	oq_binding_free(s->binding);
	oq_partitions_free(&s->parts);
	oq_fabric_free(s->fabric);
	oq_policy_ref_put(q, s->pol);
	free(s);
}

static double ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)(t1.tv_sec - t0->tv_sec) * 1e3 +
	       (double)(t1.tv_nsec - t0->tv_nsec) / 1e6;
}

static uint64_t diags_hash(const struct oq_diags *d)
{
	uint64_t h = OQ_FNV1A_INIT;
	size_t i;

	for (i = 0; i < d->n; i++)
		h = oq_fnv1a_add(h, d->v[i].msg, strlen(d->v[i].msg));
	return h;
}

static void log_compile_diags(struct osmqos *q, const struct oq_diags *d,
			      const struct oq_synth_plan *plan)
{
	char line[1024];
	uint64_t h = diags_hash(d);
	size_t i;

	/* The same findings every sweep would flood the log: say them when
	 * they change. */
	if (h == q->last_diags_hash)
		return;
	q->last_diags_hash = h;

	/* Fabric-dependent findings (a VL a port lacks, a group that
	 * resolves to nothing) are operator information, not SM errors. */
	for (i = 0; i < d->n; i++) {
		oq_diag_format(&d->v[i], line, sizeof(line));
		/* Errors here are scopes withheld from ports (a starved
		 * VL): the fabric runs other tables than the policy says. */
		OQ_LOG(q,
		       d->v[i].sev == OQ_SEV_ERROR ? OSM_LOG_ERROR
						   : OSM_LOG_INFO,
		       "%s\n", line);
	}
	/* A port short of an intent is an SM error whatever its cause. */
	if (plan->ports_missed)
		OQ_LOG(q, OSM_LOG_ERROR,
		       "bandwidth intents missed on %zu port(s): %zu port "
		       "class(es) under a vlarb-scope of the policy, %zu that "
		       "no tables within the ports' limits can serve (those "
		       "get the closest tables); the lines above name the "
		       "levels and ports\n",
		       plan->ports_missed, plan->n_missed, plan->n_infeasible);
}

/* Ports that cannot map SLs keep whatever they have; say so at debug. */
static void log_unmappable(struct osmqos *q, const struct oq_state *s)
{
	char name[96];
	size_t i;

	if (!osm_log_is_active(&q->osm->log, OSM_LOG_DEBUG))
		return;
	for (i = 0; i < s->fabric->n_ports; i++) {
		const struct oq_port *p = s->fabric->ports[i];

		if (p->sl2vl_cap || !oq_port_is_endport(p))
			continue;
		oq_port_name(p, name, sizeof(name));
		OQ_LOG(q, OSM_LOG_DEBUG,
		       "%s (0x%016" PRIx64 ") has no SL-to-VL mapping "
		       "capability: SL2VL skipped\n",
		       name, p->guid);
	}
}

/*
 * Build a state from OpenSM's subnet.  The caller holds OpenSM's lock (read
 * or exclusive).  Returns NULL on allocation failure, after logging.
 */
/* The SA's parts of a state: the port classes the audit trail and the
 * published files predict from, and OpenSM's SA inputs. */
static int add_sa_parts(struct osmqos *q, struct oq_state *s)
{
	struct oq_predict_opts o;
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	oq_predict_opts_init(&o);
	if (oq_pred_classes_build(s->fabric, &s->tables, &o, NULL, &s->classes))
		return -1;
	s->classes_ms = ms_since(&t);
	return oq_sa_state_fill(q, s);
}

static void count_phases(struct osmqos *q, const struct oq_state *s)
{
	q->phases.states++;
	q->phases.snapshot_ms += s->snapshot_ms;
	q->phases.compile_ms += s->compile_ms;
	q->phases.classes_ms += s->classes_ms;
}

struct oq_state *oq_state_build_sa(struct osmqos *q, struct oq_state *base)
{
	struct oq_state *s = calloc(1, sizeof(*s));
	struct timespec t0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (!s)
		goto oom;
	/* The base's compiled parts, field by field (its reference count
	 * is another thread's to touch). */
	s->refs = 1;
	s->base = base;
	s->kind = OQ_STATE_SA;
	s->sweep = base->sweep;
	s->routing_gen = base->routing_gen;
	s->fabric = base->fabric;
	s->parts = base->parts;
	s->pol = base->pol;
	s->binding = base->binding;
	s->matcher = base->matcher;
	s->synth = base->synth; /* the base's, freed with it */
	s->tables = base->tables;
	s->templates = base->templates;
	s->engine = base->engine;
	s->map_key = base->map_key;
	s->map_val = base->map_val;
	s->map_cap = base->map_cap;
	/* The caller holds a reference to base: it cannot go away. */
	__atomic_add_fetch(&base->refs, 1, __ATOMIC_RELAXED);
	if (add_sa_parts(q, s))
		goto oom;
	s->build_ms = ms_since(&t0);
	count_phases(q, s);
	return s;
oom:
	OQ_LOG(q, OSM_LOG_ERROR,
	       "out of memory building the SA's state; keeping the "
	       "previous one\n");
	state_free(q, s);
	return NULL;
}

struct oq_state *oq_state_build(struct osmqos *q, enum oq_state_kind kind)
{
	bool for_sa = kind == OQ_STATE_SA;
	struct oq_state *s = calloc(1, sizeof(*s));
	struct timespec t0, t;
	struct oq_diags d;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	oq_diags_init(&d);
	if (!s)
		goto oom;
	s->refs = 1;
	s->kind = kind;
	s->sweep = q->sweeps;
	s->routing_gen = q->routing_runs;
	s->fabric = oq_snapshot_build(q->osm, kind != OQ_STATE_TABLES, &d);
	if (!s->fabric)
		goto oom;
	if (oq_partitions_from_osm(q, &s->parts, s->fabric))
		goto oom;
	if (oq_templates_from_osm(q, &s->templates, &d))
		goto oom;
	s->snapshot_ms = ms_since(&t0);
	clock_gettime(CLOCK_MONOTONIC, &t);
	s->pol = oq_policy_ref_get(q);
	if (s->pol) {
		s->binding = oq_bind(s->pol->p, s->fabric, &s->parts, &d);
		if (!s->binding)
			goto oom;
		s->matcher = oq_matcher_compile(s->binding);
		if (!s->matcher)
			goto oom;
	}
	oq_hooks_engine(q, &s->engine);
	if (oq_tables_compile_engine(s->binding, s->fabric, &s->templates,
				     &s->engine, &s->tables, &d))
		goto oom;
	/* Bandwidth intents: tables for every port class of this sweep's
	 * fabric, a new class included. */
	if (s->pol && oq_synth_apply(s->pol->p, s->fabric, &s->engine,
				     &s->tables, &s->synth, &d))
		goto oom;
	if (map_build(s))
		goto oom;
	s->compile_ms = ms_since(&t);
	if (for_sa && add_sa_parts(q, s))
		goto oom;
	s->build_ms = ms_since(&t0);
	count_phases(q, s);
	log_unmappable(q, s);
	log_compile_diags(q, &d, &s->synth);
	oq_diags_free(&d);
	return s;
oom:
	OQ_LOG(q, OSM_LOG_ERROR,
	       "out of memory building the sweep state; keeping the "
	       "previous one\n");
	oq_diags_free(&d);
	state_free(q, s);
	return NULL;
}

/*
 * The current state's pointer is read under a reader lock and each state
 * counts its references atomically: every SA answer takes and drops one,
 * and with a mutex the SA dispatcher threads queued behind each other
 * (futex sleeps) in a PathRecord storm.  Readers never block readers; the
 * writer (a publish, a few per sweep) is preferred, so a storm cannot
 * hold a new state back.
 */
void oq_state_publish(struct osmqos *q, struct oq_state *s)
{
	struct oq_state *old;

	pthread_rwlock_wrlock(&q->state_rw);
	old = q->state;
	q->state = s;
	pthread_rwlock_unlock(&q->state_rw);
	oq_state_put(q, old);
}

struct oq_state *oq_state_get(struct osmqos *q)
{
	struct oq_state *s;

	pthread_rwlock_rdlock(&q->state_rw);
	s = q->state;
	if (s)
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
	pthread_rwlock_unlock(&q->state_rw);
	return s;
}

void oq_state_put(struct osmqos *q, struct oq_state *s)
{
	if (s && __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0)
		state_free(q, s);
}
