/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The plugin instance and the per-sweep state it publishes.  Only files in
 * plugin/ include this (it pulls in OpenSM headers).
 */
#ifndef OSMQOS_PLUGIN_H
#define OSMQOS_PLUGIN_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_log.h>
#include <opensm/osm_event_plugin.h>

#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/sa_path.h>
#include <osmqos/synth.h>

#include "options.h"
#include "publish.h"
#include "sa_front.h"

struct oq_audit;

/* A validated policy shared by the states built from it. */
struct oq_policy_ref {
	unsigned int refs; /* guarded by osmqos.state_lock */
	struct oq_policy *p;
};

/* A policy file as last loaded: the parsed tree and what identified it. */
struct oq_policy_file {
	struct oq_policy_ref *cur; /* last good policy; NULL if never good */
	uint64_t hash;	/* FNV-1a of the content that produced `policy` */
	uint64_t bad_hash; /* content that failed last (logged once) */
	bool bad_reported;
	bool missing_reported;
	bool content_ok; /* the file's current content is the policy in force */
	int read_errno; /* the read failure last reported */
	time_t loaded_at;
	unsigned long loads_ok, loads_failed;

	/* OpenSM's copy of the last good policy (policy_copy.c). */
	char *operator_path; /* OpenSM's qos_policy_file as configured */
	char *copy_path;     /* what opt.qos_policy_file points at, or NULL */
	bool copy_enabled;   /* opensm_policy=copy (the default) */
	bool copy_failed;    /* the last write failed: retried each sweep */
	int copy_errno;	     /* its error, logged once */
};

/*
 * Everything one sweep decided, immutable once published.  SA threads and
 * the routing-engine hooks take a reference; the sweep swaps in a new one.
 */
/* state.c.  A state holds the sweep's tables (OQ_STATE_TABLES), also
 * the LFTs (OQ_STATE_ROUTED: osm_qos_setup runs after routing), or also
 * the SA's parts (OQ_STATE_SA, UCAST_ROUTING_DONE). */
enum oq_state_kind {
	OQ_STATE_TABLES = 0,
	OQ_STATE_ROUTED,
	OQ_STATE_SA,
};

struct oq_state {
	unsigned int refs; /* atomic (__atomic builtins) */
	/* An SA state built on the sweep's routed state shares that
	 * state's snapshot, policy, binding, matcher, tables and map, and
	 * holds a reference to it; NULL: it owns them. */
	struct oq_state *base;
	enum oq_state_kind kind;
	unsigned long sweep;
	/* Routing runs (UCAST_ROUTING_DONE events) before this state was
	 * built: an SA state builds on a routed state of the same run. */
	unsigned long routing_gen;
	struct oq_fabric *fabric;
	struct oq_partitions parts;
	struct oq_policy_ref *pol; /* NULL: no good policy, templates only */
	struct oq_binding *binding;
	struct oq_matcher *matcher;
	struct oq_fabric_tables tables;
	struct oq_templates templates;
	struct oq_engine engine; /* the routing engine the tables are for */
	/* The policy's bandwidth intents on this fabric, applied to tables
	 * (empty when the policy states none). */
	struct oq_synth_plan synth;
	/* osm_physp_t * -> index into tables.ports (open addressing). */
	const void **map_key;
	uint32_t *map_val;
	size_t map_cap;
	double build_ms;
	/* Its parts, for the sweep's phases line: OpenSM's subnet copied,
	 * the policy bound and the tables compiled, the port classes
	 * predicted (SA state only). */
	double snapshot_ms, compile_ms, classes_ms;

	/* Built at UCAST_ROUTING_DONE only (sa_state.c): what the SA front
	 * answers from.  sa_ready false: pass queries to OpenSM. */
	bool sa_ready;
	struct oq_alias *aliases; /* OpenSM's alias_port_guid_tbl */
	size_t n_aliases;
	struct oq_alias_index alias_index; /* aliases by port */
	struct oq_fabric_tables sa_sl2vl; /* OpenSM's cached SL2VL */
	struct oq_sa_view view;
	/* One prediction per port class (osmqos/pred_class.h): the audit
	 * trail's path predictions and the published files. */
	struct oq_pred_classes classes;
	/* Per QoS level of view.policy: its slot in the published answer
	 * counters, looked up by name at its first answer (__atomic;
	 * OQ_LEVEL_SLOT_UNSET until then).  NULL: look up every time. */
	int *level_slot;
	/* PathRecord answers given on this state, to give again
	 * (sa_answer.c).  NULL: none kept (sa_cache=0, no memory, or a
	 * routing engine with its own path_sl()). */
	struct oq_sa_memo *memo;
};

#define OQ_LEVEL_SLOT_UNSET INT_MIN

/* The publisher's per-instance state (publish.c). */
struct oq_publisher {
	/* Filled by the SA threads (atomics), read at each publish. */
	struct oq_publish_counters counters;
	/* State-manager thread only: the errno last logged for the JSON
	 * (osmqos.prom's is prom_err below, shared with the refresher), and
	 * whether running out of memory was logged. */
	int json_err;
	bool oom_reported;
	bool detail_reported; /* a bad publish_detail= was logged */
	/* osmqos.prom between sweeps (publish_refresh.c): prom_lock
	 * serializes writing the file and guards the fields after it. */
	pthread_mutex_t prom_lock;
	pthread_cond_t wake; /* with prom_lock: stop now */
	bool stop;
	bool refresher_running;
	unsigned int interval; /* seconds, set before the thread starts */
	pthread_t refresher;
	char *sweep_part; /* the last publication's sweep part; NULL: none */
	size_t sweep_len;
	uint64_t mads_total; /* QoS Set MADs as of the last publication */
	int prom_err;	     /* the errno last logged for osmqos.prom */
};

/* Where the plugin's time went in the current sweep (the "phases" line
 * logged after publishing; SM thread only). */
struct oq_phases {
	unsigned int states; /* sweep states built */
	double snapshot_ms;  /* OpenSM's subnet copied, all states */
	double compile_ms;   /* policy bound, tables compiled, all states */
	double classes_ms;   /* port classes predicted (SA state) */
	uint64_t hook_ns;    /* in the SL2VL/VLArb hooks (the QoS MADs) */
	unsigned long hook_calls;
	uint64_t audit_cpu_ns; /* audit writer CPU at the last phases line */
	double trim_ms;	       /* freed memory returned to the system */
};

struct osmqos {
	osm_opensm_t *osm;
	struct oq_plugin_options opts;
	unsigned long events[OSM_EVENT_ID_MAX];
	unsigned long subnet_up;
	unsigned long sweeps;
	unsigned long routing_runs; /* UCAST_ROUTING_DONE events handled */

	struct oq_policy_file pf;

	pthread_mutex_t state_lock; /* policy references (policy_file.c) */
	pthread_rwlock_t state_rw;  /* the state pointer (state.c) */
	struct oq_state *state;

	/* Routing-engine hooks (hooks.c). */
	struct oq_hooked_engine *hooked;
	unsigned long mads_predicted; /* QoS Sets expected this sweep */
	unsigned long mads_total;
	bool engine_sl2vl_logged;
	uint64_t last_diags_hash;
	unsigned long qos_setup_sweep; /* sweep whose state hooks rebuilt */
	unsigned long mads_presend;	/* optimized SL2VL Sets we sent */
	struct oq_state *hook_state;	/* the hooks' reference this sweep */
	const void *hook_last_p;	/* last osm_physp_t the hooks saw */
	const struct oq_port_tables *hook_last_t; /* ... and its tables */
	struct oq_phases phases;

	/* SA front (sa_front.c): our PR/MPR registrations and counters. */
	struct oq_sa_front sa_front;
	bool sa_unmodelled_logged;
	size_t sa_memo_entries; /* sa_cache=: 0 keeps no answers */
	bool sa_memo_oom_logged;
	/* Audit trail of every decided pair (audit.c); NULL: off. */
	struct oq_audit *audit;
	struct oq_publisher pub;
};

/* The one plugin instance (OpenSM loads a plugin once per process); the
 * routing-engine hooks have no context pointer of their own to reach it. */
extern struct osmqos *oq_plugin;

#define OQ_LOG(q, level, fmt, ...) \
	OSM_LOG(&(q)->osm->log, level, "osmqos: " fmt, ##__VA_ARGS__)

/* policy_file.c */
const char *oq_policy_file_path(const struct osmqos *q);
int oq_policy_file_refresh(struct osmqos *q);
void oq_policy_file_free(struct osmqos *q);
struct oq_policy_ref *oq_policy_ref_get(struct osmqos *q);
void oq_policy_ref_put(struct osmqos *q, struct oq_policy_ref *r);

/* policy_copy.c: OpenSM reads a copy of the last good policy, this file in
 * the publish directory. */
#define OQ_POLICY_COPY_NAME "osmqos-last-good-policy.conf"
void oq_policy_copy_init(struct osmqos *q);
/* Write p (the policy in force) as OpenSM's copy: its text with CRLF
 * made LF and its osmqos-only keys commented out. */
void oq_policy_copy_update(struct osmqos *q, const struct oq_policy *p);
bool oq_policy_copy_pending(const struct osmqos *q);
bool oq_policy_copy_missing(const struct osmqos *q);
void oq_policy_copy_fini(struct osmqos *q);

/* osm_inputs.c: OpenSM's own configuration as policy-core inputs. */
int oq_templates_from_osm(struct osmqos *q, struct oq_templates *t,
			  struct oq_diags *d);
int oq_partitions_from_osm(struct osmqos *q, struct oq_partitions *parts,
			   struct oq_fabric *f);

/* state.c */
struct oq_state *oq_state_build(struct osmqos *q, enum oq_state_kind kind);
/* The SA state on a routed state of this sweep: its snapshot, binding,
 * matcher and tables shared (base is referenced), the SA's parts
 * added. */
struct oq_state *oq_state_build_sa(struct osmqos *q, struct oq_state *base);
void oq_state_publish(struct osmqos *q, struct oq_state *s);
struct oq_state *oq_state_get(struct osmqos *q);
void oq_state_put(struct osmqos *q, struct oq_state *s);
const struct oq_port_tables *oq_state_tables_of(const struct oq_state *s,
						const void *physp);

/* hooks.c */
void oq_hooks_install(struct osmqos *q);
void oq_hooks_remove(struct osmqos *q);
/* Drop the hooks' reference to the sweep state (UCAST_ROUTING_DONE). */
void oq_hooks_release_state(struct osmqos *q);
/* The routing engine of this sweep's tables, with its live table hooks
 * once it has routed; returns its kind. */
enum oq_engine_kind oq_hooks_engine(struct osmqos *q, struct oq_engine *e);

/* sa_state.c: the SA view of a state built for_sa (OpenSM's lock held). */
int oq_sa_state_fill(struct osmqos *q, struct oq_state *s);
void oq_sa_state_free(struct oq_state *s);
/* sa_cache= into q->sa_memo_entries (a bad value is logged: default). */
void oq_sa_cache_option(struct osmqos *q);

/* sa_predict.c: what SL sl is guaranteed over the egress ports
 * eg[0..n-1] (in[i]: the input port at eg[i]) from the state's port
 * classes: the least share and the hop that gives it, the ceiling, the
 * sum of the hops' worst waits.  0, or -1 when the model cannot say. */
int oq_sa_path_guarantee(const struct oq_state *s,
			 const struct oq_port *const *eg, const int *in,
			 size_t n, uint8_t sl, struct oq_path_guarantee *pg);

/* sa_answer.c */
bool oq_sa_answer(struct osmqos *q, enum oq_sa_kind kind, void *madw);
/* The size of one kept answer in the state's memo. */
size_t oq_sa_answer_memo_val_size(void);
uint8_t oq_sa_engine_path_sl(void *ctx, uint8_t hint, uint16_t slid,
			     uint16_t dlid);

/* sl2vl_presend.c */
unsigned int oq_sl2vl_presend(struct osmqos *q, const struct oq_state *s);

/* sl2vl_count.c: OpenSM's own SL2VL Sets under an engine without an
 * update_sl2vl hook, decided as osm_qos.c decides them (call before it
 * sends: from the VLArb hook of the node's first live external port, or
 * of the end port). */
bool oq_sl2vl_count_first_port(osm_node_t *node, const osm_physp_t *p);
/* Would osm_qos.c's sl2vl_update_table() send table row (16 VLs, masked
 * with the port's OperVLs there) for (input in, output p)? */
bool oq_sl2vl_would_send(osm_physp_t *p, uint8_t in, const uint8_t *row,
			 bool force);
unsigned int oq_sl2vl_count_switch(struct osmqos *q, const struct oq_state *s,
				   osm_node_t *node);
unsigned int oq_sl2vl_count_endport(struct osmqos *q, const struct oq_state *s,
				    osm_physp_t *p);

#endif /* OSMQOS_PLUGIN_H */
