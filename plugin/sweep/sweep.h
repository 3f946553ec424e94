/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The sweep: once per heavy sweep the plugin copies OpenSM's subnet, binds
 * the policy and compiles every port's tables into one sweep state
 * (state.c), which the routing engines' hooks hand to osm_qos_setup
 * (hooks.c, sl2vl_count.c; where SL2VL Sets went: sl2vl_dirty.c) and,
 * with use_optimized_slvl, one optimized SL2VL Set per uniform switch
 * sends ahead (sl2vl_presend.c).  The SA and the publisher build on the
 * same state.
 */
#ifndef OSMQOS_PLUGIN_SWEEP_H
#define OSMQOS_PLUGIN_SWEEP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <osmqos/fabric.h>
#include <osmqos/htab.h>
#include <osmqos/match.h>
#include <osmqos/synth.h>
#include <osmqos/tables.h>

#include "osm/osm.h"
#include "policyfile/policy_file.h"

/*
 * OpenSM's subnet as a state copied it: the fabric, and the partitions set
 * on its ports.  Read only once copied, reference counted: a state built
 * from the same record (a policy edit, another routing engine) shares it
 * instead of copying the subnet again.
 */
struct oq_sweep_subnet {
	unsigned int refs; /* atomic (__atomic builtins) */
	struct oq_fabric *fabric;
	struct oq_partitions parts;
	bool routed; /* copied after routing: the switches' LFTs are in */
	bool clean;  /* the copy had nothing to report (no diagnostics) */
	/* What the fabric was read from, for the next copy to share what
	 * did not change. */
	struct oq_snapshot_base *base;
	/* What parts and the ports' membership were made from (NULL: OpenSM
	 * had no partitions), for the next copy to set only what changed. */
	struct oq_osm_partitions *osm_parts;
};

/*
 * Everything one sweep decided: immutable once built, reference counted
 * (the hooks, the SA's state and the publisher each hold one), freed with
 * its last reference.
 */
struct oq_sweep_state {
	unsigned int refs; /* atomic (__atomic builtins) */
	uint64_t id;	   /* 1, 2, ...: never the same for two states */
	unsigned long sweep;
	/* Routing runs (UCAST_ROUTING_DONE events) before it was built. */
	unsigned long routing_gen;
	/* Built after routing: the fabric has the switches' new LFTs. */
	bool routed;
	struct oq_sweep_subnet *subnet;
	struct oq_fabric *fabric;  /* subnet->fabric */
	struct oq_policy_ref *pol; /* NULL: no good policy, templates only */
	struct oq_binding *binding;
	struct oq_matcher *matcher;
	struct oq_fabric_tables tables;
	struct oq_templates templates;
	struct oq_engine engine; /* the routing engine the tables are for */
	/* The policy's bandwidth intents on this fabric, applied to tables
	 * (empty when the policy states none). */
	struct oq_synth_plan synth;
	/* osm_physp_t * -> index into tables.ports. */
	struct oq_htab port_of_physp;
	/* The state whose tables these were derived from (tables.kept
	 * says which ports kept theirs); 0: compiled in full. */
	uint64_t tables_from;
	/* Its build: all of it, OpenSM's subnet copied, the policy bound and
	 * the tables compiled. */
	double build_ms, snapshot_ms, compile_ms;
};

/* Where the plugin's time went in the current sweep (the "phases" line
 * logged after publishing; SM thread only). */
struct oq_phases {
	double inputs_ms;    /* OpenSM's inputs compared with the record */
	unsigned int reused; /* times the sweep state in force was kept */
	bool sa_reused;	     /* the SA's state in force was kept */
	double sa_ms;	     /* SA state built or kept, predictions included */
	/* Thread CPU of the plugin's event handlers and sweep-state
	 * renewals this sweep, and of the handler running now from
	 * cpu_entry_ns (the hooks' own time is oq_phases_hook_ns()). */
	uint64_t cpu_ns, cpu_entry_ns;
	unsigned int states; /* sweep and SA states built */
	/* Sweep states that shared the subnet copy of the state before
	 * (no snapshot), SA states that kept its predictions. */
	unsigned int subnets_shared, classes_kept;
	double snapshot_ms;  /* OpenSM's subnet copied, all states */
	/* Nodes the copies read from the record, and had in all (the
	 * others shared with the copy before). */
	size_t nodes_read, nodes;
	double compile_ms;   /* policy bound, tables compiled, all states */
	/* Ports whose tables the compiles made, and had in all (the
	 * others' taken from the state before's). */
	size_t ports_compiled, ports;
	double classes_ms;   /* port classes predicted (SA state) */
	/* Ports the class builds keyed, and had in all (the others took
	 * their class from the SA state before's). */
	size_t classes_keyed, classes_ports;
	/* Ports whose SL2VL the SA read from OpenSM's cache: those Sets
	 * went to, or all of them (sl2vl_all). */
	size_t sl2vl_ports;
	bool sl2vl_all;
	/* The SL2VL/VLArb hooks (the QoS MADs): calls, and the time of
	 * the calls sampled (hooks.c; oq_phases_hook_ns() the estimate). */
	unsigned long hook_calls, hook_samples;
	int64_t hook_sampled_ns; /* less a clock read each: may be < 0 */
};

/* The hooks' time in the sweep, estimated from the sampled calls. */
static inline uint64_t oq_phases_hook_ns(const struct oq_phases *ph)
{
	if (!ph->hook_samples || ph->hook_sampled_ns <= 0)
		return 0;
	return (uint64_t)((double)ph->hook_sampled_ns * ph->hook_calls /
			  ph->hook_samples);
}

struct oq_hooked_engine;

/* The ports QoS Sets rewrote OpenSM's cached SL2VL of since the SA last
 * read it (sl2vl_dirty.c), as osm_physp_t pointers: keys, looked up
 * among a state's ports before they are read. */
struct oq_sl2vl_dirty {
	const void **physp;
	size_t n, cap;
	bool all; /* a Set went unrecorded: every port may have changed */
};

/* The hooks' SL2VL rows, packed per distinct block (hook_rows.c). */
struct oq_hook_rows {
	uint64_t state_id;	 /* the sweep state they are of */
	struct oq_htab of_block; /* block (row pointer) -> packed[] index */
	uint64_t *packed;
	size_t n, cap;
};

/* The sweep room of the plugin instance.  SM thread only, but for the
 * state pointer (any thread, under rw). */
struct oq_sweep {
	osm_opensm_t *osm;
	struct oq_policy_file *pf;  /* the policy the states are built with */
	unsigned long sweeps;	    /* HEAVY_SWEEP_DONE events */
	unsigned long routing_runs; /* UCAST_ROUTING_DONE events handled */

	/* The state in force.  rw (prefers the writer) guards the pointer,
	 * a state's refs count is atomic. */
	pthread_rwlock_t rw;
	struct oq_sweep_state *cur;
	/* What cur was built from (OpenSM's subnet, partitions, templates),
	 * and the routing run and sweep that last built or kept it. */
	struct oq_record inputs;
	unsigned long cur_gen, cur_sweep;
	bool cur_kept; /* cur was kept, not built, at its last renewal */
	/* Called after a new state is in force (not for NULL): what was
	 * built on the one before is stale now. */
	void (*published)(void *ctx);
	void *published_ctx;
	uint64_t last_diags_hash; /* the compile findings last logged */

	/* Routing-engine hooks (hooks.c). */
	struct oq_hooked_engine *hooked;
	unsigned long mads_predicted;	   /* QoS Sets expected this sweep */
	unsigned long mads_presend;	   /* optimized SL2VL Sets we sent */
	unsigned long mads_total;	   /* QoS Sets since start */
	unsigned long qos_setup_sweep;	   /* sweep whose state hooks rebuilt */
	struct oq_sl2vl_dirty sl2vl_dirty; /* SL2VL Sets since the SA read */
	bool sl2vl_hooked; /* the SL2VL hook ran since UCAST_ROUTING_DONE */
	struct oq_sweep_state *hook_state; /* the hooks' reference */
	const void *hook_last_p;	   /* last osm_physp_t the hooks saw */
	const struct oq_port_tables *hook_last_t; /* ... and its tables */
	const uint64_t *hook_last_rows;		  /* ... packed, or NULL */
	struct oq_hook_rows hook_rows;
	uint64_t states_built; /* the last state's id */
	struct oq_phases phases;
};

/* state.c */
void oq_sweep_init(struct oq_sweep *sw, osm_opensm_t *osm,
		   struct oq_policy_file *pf);
/* At unload, after the hooks are removed: the state goes. */
void oq_sweep_fini(struct oq_sweep *sw);
/* A reader/writer lock that prefers the writer: a new state must not wait
 * for an SA storm to pause.  For every published pointer of the plugin. */
void oq_sweep_rwlock_init(pthread_rwlock_t *rw);
/* HEAVY_SWEEP_DONE: a new sweep, its counters and phases from zero. */
void oq_sweep_begin(struct oq_sweep *sw);

/* The state for this point of the sweep: the one in force, referenced,
 * when OpenSM's inputs, the policy and the engine are what it was built
 * from (*reused: nothing to put in force), else a new one built from
 * OpenSM's subnet (the caller holds OpenSM's lock, read or exclusive;
 * routed: after routing, with the LFTs), or NULL when that failed
 * (logged; the caller keeps what is in force). */
struct oq_sweep_state *oq_sweep_state_renew(struct oq_sweep *sw, bool routed,
					    bool *reused);
/* Put s in force (taking the caller's reference), or none (NULL). */
void oq_sweep_publish(struct oq_sweep *sw, struct oq_sweep_state *s);
/* The state in force, referenced (NULL: none); any thread. */
struct oq_sweep_state *oq_sweep_get(struct oq_sweep *sw);
void oq_sweep_put(struct oq_sweep_state *s);
/* One more reference to a state the caller holds. */
struct oq_sweep_state *oq_sweep_ref(struct oq_sweep_state *s);
/* Is s the routed state of the current routing run? */
bool oq_sweep_state_current(const struct oq_sweep *sw,
			    const struct oq_sweep_state *s);
/* The tables compiled for OpenSM's port physp (an osm_physp_t *), or
 * NULL. */
const struct oq_port_tables *oq_sweep_tables_of(const struct oq_sweep_state *s,
						const void *physp);
/* The same, trying first the port after prev (tables of s, or NULL): the
 * hooks are called port after port of a switch, in the order the
 * snapshot lists them, so the next port is mostly the next index and its
 * lookup reads memory next to the last one, where the hash's slot is a
 * cache miss. */
const struct oq_port_tables *
oq_sweep_tables_after(const struct oq_sweep_state *s, const void *physp,
		      const struct oq_port_tables *prev);

/* hooks.c */
void oq_hooks_install(struct oq_sweep *sw);
void oq_hooks_remove(struct oq_sweep *sw);
/* Drop the hooks' reference to the sweep state (UCAST_ROUTING_DONE). */
void oq_hooks_release_state(struct oq_sweep *sw);
/* The routing engine of this sweep's tables, with its live table hooks
 * once it has routed; returns its kind. */
enum oq_engine_kind oq_hooks_engine(struct oq_sweep *sw, struct oq_engine *e);

/* hook_rows.c: the rows of t packed for the SL2VL hook, t->n_sl2vl of
 * them (NULL: out of memory), valid until the next call. */
const uint64_t *oq_hook_rows_of(struct oq_hook_rows *r,
				const struct oq_sweep_state *s,
				const struct oq_port_tables *t);
void oq_hook_rows_free(struct oq_hook_rows *r);
/* One SL2VL row (16 VLs) packed as OpenSM keeps it. */
uint64_t oq_sl2vl_pack(const uint8_t row[16]);
/* A packed row's VLs masked with mask as OpenSM's sl2vl_update_table()
 * masks them with the port's OperVLs: VL15 stays VL15.  Every nibble at
 * once, inline: OpenSM asks this for every port pair each sweep. */
#define OQ_SL2VL_NIBBLE_ONES 0x1111111111111111ull

/* Bit 0 of each nibble of a packed row set where its SL goes to VL15. */
static inline uint64_t oq_sl2vl_vl15_bits(uint64_t v)
{
	return v & (v >> 1) & (v >> 2) & (v >> 3) & OQ_SL2VL_NIBBLE_ONES;
}

static inline uint64_t oq_sl2vl_mask_packed(uint64_t v, unsigned int mask)
{
	return (v & (OQ_SL2VL_NIBBLE_ONES * (mask & 15))) |
	       (oq_sl2vl_vl15_bits(v) * 15);
}

/* sl2vl_dirty.c: a port a Set went to; every port (a Set went
 * unrecorded, or more than OQ_SL2VL_DIRTY_MAX noted); none (the SA has
 * read them). */
#define OQ_SL2VL_DIRTY_MAX (1u << 20)
void oq_sl2vl_dirty_add(struct oq_sl2vl_dirty *d, const void *physp);
void oq_sl2vl_dirty_all(struct oq_sl2vl_dirty *d);
void oq_sl2vl_dirty_clear(struct oq_sl2vl_dirty *d);
void oq_sl2vl_dirty_free(struct oq_sl2vl_dirty *d);

/* sl2vl_presend.c: the optimized SL2VL Sets for uniform switches; how
 * many were sent. */
unsigned int oq_sl2vl_presend(struct oq_sweep *sw,
			      const struct oq_sweep_state *s);

#endif /* OSMQOS_PLUGIN_SWEEP_H */
