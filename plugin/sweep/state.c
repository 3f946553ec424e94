// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The per-sweep state: fabric snapshot, bound policy, compiled matcher and
 * per-port tables.  Built without holding anything but OpenSM's read lock,
 * published by swapping one pointer, and reference counted so a reader (a
 * hook, the SA's state, the publisher) keeps the state it started with.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/clock.h>
#include <osmqos/htab.h>

#include "sweep.h"

static int map_build(struct oq_sweep_state *s)
{
	size_t i;
	int rc;

	rc = oq_htab_reserve(&s->port_of_physp, s->fabric->n_ports);
	if (rc)
		return rc;
	for (i = 0; i < s->fabric->n_ports; i++) {
		const void *key = s->fabric->ports[i]->user;

		if (key)
			oq_htab_put(&s->port_of_physp, (uintptr_t)key,
				    (uint32_t)i, NULL);
	}
	return 0;
}

const struct oq_port_tables *oq_sweep_tables_of(const struct oq_sweep_state *s,
						const void *physp)
{
	int64_t i;

	if (!s || !s->tables.ports)
		return NULL;
	i = oq_htab_get(&s->port_of_physp, (uintptr_t)physp);
	return i < 0 ? NULL : &s->tables.ports[i];
}

const struct oq_port_tables *
oq_sweep_tables_after(const struct oq_sweep_state *s, const void *physp,
		      const struct oq_port_tables *prev)
{
	uintptr_t at = (uintptr_t)prev, first;
	size_t next;

	/* prev may be of another state's tables: compared as numbers. */
	if (s && prev && s->tables.ports) {
		first = (uintptr_t)s->tables.ports;
		next = (at - first) / sizeof(*prev) + 1;
		if (at >= first && next < s->tables.n &&
		    s->tables.ports[next].port &&
		    s->tables.ports[next].port->user == physp)
			return &s->tables.ports[next];
	}
	return oq_sweep_tables_of(s, physp);
}

static struct oq_sweep_subnet *subnet_ref(struct oq_sweep_subnet *n)
{
	__atomic_add_fetch(&n->refs, 1, __ATOMIC_RELAXED);
	return n;
}

static void subnet_put(struct oq_sweep_subnet *n)
{
	if (!n || __atomic_sub_fetch(&n->refs, 1, __ATOMIC_ACQ_REL))
		return;
	oq_partitions_free(&n->parts);
	oq_osm_partitions_free(n->osm_parts);
	oq_fabric_free(n->fabric);
	oq_snapshot_base_free(n->base);
	free(n);
}

static void state_free(struct oq_sweep_state *s)
{
	if (!s)
		return;
	oq_htab_free(&s->port_of_physp);
	oq_synth_plan_free(&s->synth);
	oq_fabric_tables_free(&s->tables);
	oq_matcher_free(s->matcher);
	oq_binding_free(s->binding);
	subnet_put(s->subnet);
	oq_policy_ref_put(s->pol);
	free(s);
}

static uint64_t diags_hash(const struct oq_diags *d)
{
	uint64_t h = OQ_FNV1A_INIT;
	size_t i;

	for (i = 0; i < d->n; i++)
		h = oq_fnv1a_add(h, d->v[i].msg, strlen(d->v[i].msg));
	return h;
}

static void log_compile_diags(struct oq_sweep *sw, const struct oq_diags *d,
			      const struct oq_synth_plan *plan)
{
	char line[1024];
	uint64_t h = diags_hash(d);
	size_t i;

	/* The same findings every sweep would flood the log: say them when
	 * they change. */
	if (h == sw->last_diags_hash)
		return;
	sw->last_diags_hash = h;

	/* Fabric-dependent findings (a VL a port lacks, a group that
	 * resolves to nothing) are operator information, not SM errors. */
	for (i = 0; i < d->n; i++) {
		int n = oq_diag_format(&d->v[i], line, sizeof(line));
		char *text = line, *big = NULL;

		/* A long finding (many levels on one VL) whole, not cut. */
		if (n >= (int)sizeof(line)) {
			big = malloc((size_t)n + 1);
			if (big) {
				oq_diag_format(&d->v[i], big, (size_t)n + 1);
				text = big;
			}
		}
		/* Errors here are scopes withheld from ports (a starved
		 * VL): the fabric runs other tables than the policy says. */
		OQ_LOG(sw->osm,
		       d->v[i].sev == OQ_SEV_ERROR ? OSM_LOG_ERROR
						   : OSM_LOG_INFO,
		       "%s\n", text);
		free(big);
	}
	/* A port short of an intent is an SM error whatever its cause. */
	if (plan->ports_missed)
		OQ_LOG(sw->osm, OSM_LOG_ERROR,
		       "intents missed on %zu port(s): %zu port "
		       "class(es) under a vlarb-scope of the policy, %zu that "
		       "no tables within the ports' limits can serve (those "
		       "get the closest tables); the lines above name the "
		       "levels and ports\n",
		       plan->ports_missed, plan->n_missed, plan->n_infeasible);
}

/* Ports that cannot map SLs keep whatever they have; say so at debug. */
static void log_unmappable(struct oq_sweep *sw, const struct oq_sweep_state *s)
{
	char name[96];
	size_t i;

	if (!osm_log_is_active(&sw->osm->log, OSM_LOG_DEBUG))
		return;
	for (i = 0; i < s->fabric->n_ports; i++) {
		const struct oq_port *p = s->fabric->ports[i];

		if (p->sl2vl_cap || !oq_port_is_endport(p))
			continue;
		oq_port_name(p, name, sizeof(name));
		OQ_LOG(sw->osm, OSM_LOG_DEBUG,
		       "%s (0x%016" PRIx64 ") has no SL-to-VL mapping "
		       "capability: SL2VL skipped\n",
		       name, p->guid);
	}
}

static void count_phases(struct oq_sweep *sw, const struct oq_sweep_state *s,
			 bool shared)
{
	sw->phases.states++;
	sw->phases.subnets_shared += shared;
	sw->phases.snapshot_ms += s->snapshot_ms;
	sw->phases.compile_ms += s->compile_ms;
}

/* The policy's parts: bound to the fabric, its matcher compiled (none
 * without a policy).  0, or -errno with *step set. */
static int bind_policy(struct oq_sweep_state *s, struct oq_diags *d,
		       const char **step)
{
	if (!s->pol)
		return 0;
	errno = 0;
	s->binding = oq_bind(s->pol->p, s->fabric, &s->subnet->parts, d);
	if (!s->binding) {
		*step = "binding the policy to the fabric";
		return -oq_failure_errno(-1);
	}
	errno = 0;
	s->matcher = oq_matcher_compile(s->binding);
	if (!s->matcher) {
		*step = "compiling the policy's matcher";
		return -oq_failure_errno(-1);
	}
	return 0;
}

static bool same_partitions(const struct oq_partitions *a,
			    const struct oq_partitions *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->v[i].pkey != b->v[i].pkey || a->v[i].sl != b->v[i].sl ||
		    strcmp(a->v[i].name, b->v[i].name))
			return false;
	return true;
}

/*
 * The tables from the state in force's, where s's subnet copy shares its
 * nodes with that state's (oq_tables_compile_derived(): only the ports
 * of changed nodes and their neighbours compiled), when nothing else the
 * compile reads differs: policy, partitions, templates, engine, and no
 * bandwidth intents (which rewrite tables after the compile).  0 done,
 * 1 compile in full, -ENOMEM.
 */
static int derive_tables(struct oq_sweep *sw, struct oq_sweep_state *s)
{
	const struct oq_sweep_state *cur = sw->cur;
	size_t n_compiled;
	int rc;

	if (!cur || !s->fabric->derived || s->pol != cur->pol ||
	    cur->synth.of_port || !cur->tables.covers || cur->engine.sl2vl ||
	    cur->engine.vlarb || s->engine.kind != cur->engine.kind ||
	    strcmp(s->engine.name, cur->engine.name) ||
	    memcmp(&s->templates, &cur->templates, sizeof(s->templates)) ||
	    !same_partitions(&s->subnet->parts, &cur->subnet->parts))
		return 1;
	rc = oq_tables_compile_derived(s->binding, s->fabric, &s->templates,
				       &s->engine, cur->fabric, &cur->tables,
				       &s->tables, &n_compiled);
	if (!rc) {
		sw->phases.ports_compiled += n_compiled;
		s->tables_from = cur->id;
	}
	return rc;
}

/* Every port's tables, with the policy's bandwidth intents, and the map
 * from OpenSM's ports to them.  0, or -errno with *step set. */
static int compile_tables(struct oq_sweep *sw, struct oq_sweep_state *s,
			  struct oq_diags *d, const char **step)
{
	int rc;

	oq_hooks_engine(sw, &s->engine);
	errno = 0;
	rc = derive_tables(sw, s);
	if (rc > 0) {
		rc = oq_tables_compile_engine(s->binding, s->fabric,
					      &s->templates, &s->engine,
					      &s->tables, d);
		if (!rc)
			sw->phases.ports_compiled += s->fabric->n_ports;
	}
	sw->phases.ports += s->fabric->n_ports;
	if (rc) {
		*step = "compiling the tables";
		return -oq_failure_errno(rc);
	}
	/* Bandwidth intents: tables for every port class of this sweep's
	 * fabric, a new class included. */
	if (s->pol) {
		errno = 0;
		rc = oq_synth_apply(s->pol->p, s->fabric, &s->engine,
				    &s->tables, &s->synth, d);
		if (rc) {
			*step = "applying the bandwidth intents";
			return -oq_failure_errno(rc);
		}
		/* Rewritten tables are not those kept. */
		if (s->synth.of_port) {
			free(s->tables.kept);
			s->tables.kept = NULL;
			s->tables_from = 0;
		}
	}
	rc = map_build(s);
	if (rc)
		*step = "indexing OpenSM's ports";
	return rc;
}

/* OpenSM's subnet and partitions, copied from the record, or shared with
 * the state in force when the record is what that was built from; then
 * OpenSM's templates.  0, or -errno with *step set. */
static int copy_osm(struct oq_sweep *sw, struct oq_sweep_state *s,
		    struct oq_sweep_subnet *same, struct oq_diags *d,
		    const char **step)
{
	const struct oq_snapshot_base *prev = NULL;
	struct oq_sweep_subnet *n, *was = NULL;
	size_t n_diags = d->n, n_read;
	int rc;

	if (same) {
		s->subnet = subnet_ref(same);
	} else {
		*step = "copying OpenSM's subnet";
		n = calloc(1, sizeof(*n));
		if (!n)
			return -ENOMEM;
		n->refs = 1;
		n->routed = s->routed;
		s->subnet = n;
		/* The copy in force, while the state in force holds it:
		 * the nodes that did not change are shared with it. */
		if (sw->cur) {
			was = sw->cur->subnet;
			prev = was->base;
		}
		errno = 0;
		n->fabric = oq_snapshot_build(&sw->inputs, s->routed, prev,
					      &n->base, &n_read, d);
		if (!n->fabric)
			return -oq_failure_errno(-1);
		sw->phases.nodes_read += n_read;
		sw->phases.nodes += n->fabric->n_nodes;
		n->clean = d->n == n_diags;
		/* Membership set only where it changed needs each GUID to
		 * be one port's in both copies: duplicates are findings. */
		if (!was || !was->clean || !n->clean)
			was = NULL;
		rc = oq_partitions_from_osm(
			sw->osm, &n->parts, n->fabric, was ? was->fabric : NULL,
			was ? was->osm_parts : NULL, &n->osm_parts);
		if (rc) {
			*step = "reading OpenSM's partitions";
			return rc;
		}
	}
	s->fabric = s->subnet->fabric;
	rc = oq_templates_from_osm(sw->osm, &s->templates, d);
	if (rc)
		*step = "reading OpenSM's QoS templates";
	return rc;
}

/* A new state from the record of OpenSM's inputs inputs_unchanged() just
 * wrote (its subnet that of same, when not NULL), the policy in force and
 * the engine. */
static struct oq_sweep_state *state_build(struct oq_sweep *sw, bool routed,
					  struct oq_sweep_subnet *same)
{
	struct oq_sweep_state *s = calloc(1, sizeof(*s));
	uint64_t t0 = oq_clock_ns(), t;
	const char *step = "allocating it";
	struct oq_diags d;
	int rc = -ENOMEM;

	oq_diags_init(&d);
	if (!s)
		goto fail;
	s->refs = 1;
	s->id = ++sw->states_built;
	s->routed = routed;
	s->sweep = sw->sweeps;
	s->routing_gen = sw->routing_runs;
	rc = copy_osm(sw, s, same, &d, &step);
	if (rc)
		goto fail;
	s->snapshot_ms = oq_ms_since(t0);
	t = oq_clock_ns();
	s->pol = oq_policy_ref_get(sw->pf);
	rc = bind_policy(s, &d, &step);
	if (!rc)
		rc = compile_tables(sw, s, &d, &step);
	if (rc)
		goto fail;
	s->compile_ms = oq_ms_since(t);
	s->build_ms = oq_ms_since(t0);
	count_phases(sw, s, same != NULL);
	log_unmappable(sw, s);
	log_compile_diags(sw, &d, &s->synth);
	oq_diags_free(&d);
	return s;
fail:
	OQ_LOG_BUILD_FAILED(sw->osm, "the sweep state", step, -rc,
			    "keeping the previous one");
	oq_diags_free(&d);
	state_free(s);
	return NULL;
}

/*
 * Would OpenSM's inputs now build the state in force again?  Its subnet,
 * partitions and templates as recorded when the state was built, the same
 * policy and the same routing engine.  An engine with table hooks of its
 * own (torus-2QoS) answers from tables it rebuilds each routing run, which
 * no record of OpenSM's sees: its sweeps always build.
 */
static bool inputs_unchanged(struct oq_sweep *sw, bool routed,
			     struct oq_sweep_subnet **subnet)
{
	const struct oq_sweep_state *cur = sw->cur;
	struct oq_policy_ref *pol;
	struct oq_engine e;
	bool same;

	*subnet = NULL;
	oq_record_begin(&sw->inputs);
	/* The subnet first: oq_snapshot_build() reads it from the start. */
	oq_snapshot_record(sw->osm, &sw->inputs);
	oq_inputs_record(sw->osm, &sw->inputs);
	same = !oq_record_end(&sw->inputs);
	/* The record is what cur was built from: a new state (another
	 * policy or engine) can share its copy of the subnet, unless that
	 * lacks the LFTs this one needs or its findings would go unsaid. */
	if (same && cur && cur->subnet->clean &&
	    (cur->subnet->routed || !routed))
		*subnet = cur->subnet;
	if (!same || !cur || (routed && !cur->routed))
		return false;
	oq_hooks_engine(sw, &e);
	if (e.sl2vl || e.vlarb || e.kind != cur->engine.kind ||
	    strcmp(e.name, cur->engine.name))
		return false;
	pol = oq_policy_ref_get(sw->pf);
	same = pol == cur->pol;
	oq_policy_ref_put(pol);
	return same;
}

struct oq_sweep_state *oq_sweep_state_renew(struct oq_sweep *sw, bool routed,
					    bool *reused)
{
	uint64_t t0 = oq_clock_ns();
	struct oq_sweep_subnet *same;
	struct oq_sweep_state *s;

	*reused = inputs_unchanged(sw, routed, &same);
	sw->phases.inputs_ms += oq_ms_since(t0);
	if (*reused) {
		sw->phases.reused++;
		/* Current for this routing run only once it has routed: a
		 * state kept before routing is checked again at the hooks. */
		if (routed)
			sw->cur_gen = sw->routing_runs;
		sw->cur_sweep = sw->sweeps;
		sw->cur_kept = true;
		return oq_sweep_ref(sw->cur);
	}
	s = state_build(sw, routed, same);
	if (!s)
		oq_record_forget(&sw->inputs);
	return s;
}

/*
 * The current state's pointer is read under a reader lock and each state
 * counts its references atomically: every SA answer's state holds one,
 * and with a mutex the SA dispatcher threads queued behind each other
 * (futex sleeps) in a PathRecord storm.  Readers never block readers; the
 * writer (a publish, a few per sweep) is preferred, so a storm cannot
 * hold a new state back.
 */
void oq_sweep_rwlock_init(pthread_rwlock_t *rw)
{
	pthread_rwlockattr_t a;

	pthread_rwlockattr_init(&a);
	pthread_rwlockattr_setkind_np(
		&a, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
	pthread_rwlock_init(rw, &a);
	pthread_rwlockattr_destroy(&a);
}

void oq_sweep_publish(struct oq_sweep *sw, struct oq_sweep_state *s)
{
	struct oq_sweep_state *old;

	pthread_rwlock_wrlock(&sw->rw);
	old = sw->cur;
	sw->cur = s;
	pthread_rwlock_unlock(&sw->rw);
	if (s) {
		sw->cur_gen = s->routing_gen;
		sw->cur_sweep = s->sweep;
		sw->cur_kept = false;
	} else {
		oq_record_forget(&sw->inputs);
	}
	oq_sweep_put(old);
	if (s && sw->published)
		sw->published(sw->published_ctx);
}

struct oq_sweep_state *oq_sweep_get(struct oq_sweep *sw)
{
	struct oq_sweep_state *s;

	pthread_rwlock_rdlock(&sw->rw);
	s = oq_sweep_ref(sw->cur);
	pthread_rwlock_unlock(&sw->rw);
	return s;
}

struct oq_sweep_state *oq_sweep_ref(struct oq_sweep_state *s)
{
	if (s)
		__atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
	return s;
}

void oq_sweep_put(struct oq_sweep_state *s)
{
	if (s && __atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) == 0)
		state_free(s);
}

bool oq_sweep_state_current(const struct oq_sweep *sw,
			    const struct oq_sweep_state *s)
{
	return s && s == sw->cur && s->routed &&
	       sw->cur_gen == sw->routing_runs;
}

void oq_sweep_init(struct oq_sweep *sw, osm_opensm_t *osm,
		   struct oq_policy_file *pf)
{
	sw->osm = osm;
	sw->pf = pf;
	oq_sweep_rwlock_init(&sw->rw);
}

void oq_sweep_fini(struct oq_sweep *sw)
{
	oq_hooks_release_state(sw);
	sw->published = NULL;
	oq_sweep_publish(sw, NULL);
	oq_record_free(&sw->inputs);
	oq_hook_rows_free(&sw->hook_rows);
	oq_sl2vl_dirty_free(&sw->sl2vl_dirty);
	pthread_rwlock_destroy(&sw->rw);
}

void oq_sweep_begin(struct oq_sweep *sw)
{
	sw->sweeps++;
	sw->mads_predicted = 0;
	sw->mads_presend = 0;
	sw->phases.states = 0;
	sw->phases.subnets_shared = sw->phases.classes_kept = 0;
	sw->phases.snapshot_ms = sw->phases.compile_ms = 0;
	sw->phases.nodes_read = sw->phases.nodes = 0;
	sw->phases.ports_compiled = sw->phases.ports = 0;
	sw->phases.classes_ms = 0;
	sw->phases.classes_keyed = sw->phases.classes_ports = 0;
	sw->phases.inputs_ms = 0;
	sw->phases.reused = 0;
	sw->phases.sa_ms = 0;
	sw->phases.sa_reused = false;
	sw->phases.sl2vl_ports = 0;
	sw->phases.sl2vl_all = false;
	sw->phases.cpu_ns = 0;
	sw->phases.hook_sampled_ns = 0;
	sw->phases.hook_samples = 0;
	sw->phases.hook_calls = 0;
}
