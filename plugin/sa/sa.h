/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The SA room: PathRecord and MultiPathRecord queries taken over from
 * OpenSM's dispatcher (sa_front.c) and answered under the policy
 * (sa_answer.c) from the SA's state of the sweep (sa_state.c), each
 * decided pair with its guaranteed bandwidth (sa_predict.c) in the audit
 * trail.
 */
#ifndef OSMQOS_PLUGIN_SA_H
#define OSMQOS_PLUGIN_SA_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/pred_class.h>
#include <osmqos/sa_path.h>

#include "audit/audit.h"
#include "documents/documents.h"
#include "sweep/sweep.h"
#include "sa_front.h"

/*
 * What the SA answers from and the publisher predicts from, built at
 * UCAST_ROUTING_DONE (routes final, every QoS Set answered) on that
 * sweep's state: immutable, reference counted, holding a reference to
 * its sweep state.
 */
struct oq_sa_state {
	unsigned int refs; /* atomic (__atomic builtins) */
	struct oq_sweep_state *sweep;
	/* false: pass every query to OpenSM (options it does not model). */
	bool ready;
	struct oq_alias *aliases; /* OpenSM's alias_port_guid_tbl */
	size_t n_aliases;
	/* front.alias_changes when the table was copied: another value
	 * now, and the copy is stale (an alias GUID set or deleted through
	 * the SA since). */
	unsigned long alias_gen;
	bool stale_said; /* __atomic: that it is stale was logged */
	struct oq_alias_index alias_index; /* aliases by port */
	struct oq_fabric_tables sl2vl;	   /* OpenSM's cached SL2VL */
	struct oq_sa_view view;
	/* One prediction per port class (osmqos/pred_class.h): the audit
	 * trail's path predictions and the published files. */
	struct oq_pred_classes classes;
	/* Which prediction of the classes: 1, 2, ... per prediction made,
	 * the same for the states that kept it (the published parts follow
	 * it). */
	uint64_t classes_id;
	/* Per QoS level of view.policy: its slot in the published answer
	 * counters, looked up by name at its first answer (__atomic;
	 * OQ_LEVEL_SLOT_UNSET until then).  NULL: look up every time. */
	int *level_slot;
};

#define OQ_LEVEL_SLOT_UNSET INT_MIN

/* The SA room of the plugin instance. */
struct oq_sa {
	osm_opensm_t *osm;
	struct oq_sweep *sweep; /* the sweep's phases */
	/* Where answers and decision times are counted, and each decided
	 * pair goes (NULL: no audit trail). */
	struct oq_publish_counters *counters;
	struct oq_audit *audit;
	/* An audit trail was asked for (audit= not off): without a writer,
	 * every decided pair is counted as a record dropped. */
	bool audit_wanted;
	/* The state in force; rw as the sweep's. */
	pthread_rwlock_t rw;
	struct oq_sa_state *cur;
	/* What cur was built from besides its sweep state. */
	struct oq_record inputs;
	/* The last read of OpenSM's cached SL2VL found no SL dropped
	 * (since then, only the ports Sets went to need reading). */
	bool sl2vl_clean;
	/* Our PR/MPR registrations and counters (sa_front.c). */
	struct oq_sa_front front;
	bool unmodelled_logged;
	uint64_t classes_made; /* the last classes_id (SM thread) */
	/* The state a new sweep state took out of force, until the next
	 * is built: what it predicted may still hold (SM thread). */
	struct oq_sa_state *retired;
};

/* sa_state.c */
void oq_sa_init(struct oq_sa *sa, osm_opensm_t *osm, struct oq_sweep *sweep,
		struct oq_publish_counters *counters);
void oq_sa_fini(struct oq_sa *sa);
/* The SA's state on the sweep state s (referenced); OpenSM's lock held.
 * The port classes are prev's (may be NULL) when s has prev's subnet copy
 * and the same tables, derived from prev's when s's tables were derived
 * from those prev's were built on.  NULL when it failed (logged). */
struct oq_sa_state *oq_sa_state_build(struct oq_sa *sa,
				      struct oq_sweep_state *s,
				      const struct oq_sa_state *prev);
/* The SA's state for the sweep state s: the one in force, referenced,
 * when nothing it answers from changed (kept: s is the sweep state in
 * force, kept rather than built this sweep; *reused: nothing to put in
 * force), else a new one as oq_sa_state_build() builds it. */
struct oq_sa_state *oq_sa_state_renew(struct oq_sa *sa,
				      struct oq_sweep_state *s, bool kept,
				      bool *reused);
/* Put s in force (taking the caller's reference), or none (NULL: queries
 * go to OpenSM until the next). */
void oq_sa_publish(struct oq_sa *sa, struct oq_sa_state *s);
/* A new sweep state is in force: none for queries until the SA's is
 * built on it (they go to OpenSM), the old one kept for that build. */
void oq_sa_retire(struct oq_sa *sa);
/* Has an alias GUID been set or deleted through the SA since s copied
 * OpenSM's table?  Then s answers no query (any thread). */
bool oq_sa_aliases_stale(struct oq_sa *sa, const struct oq_sa_state *s);
/* Is OpenSM handling a GuidInfoRecord Set or Delete now?  Then no state
 * answers: the table may be changing. */
bool oq_sa_aliases_busy(struct oq_sa *sa);
/* sa_front.c: a signature of OpenSM's alias GUID table (OpenSM's lock
 * held), and the one of the table a state copies (recorded under the
 * front's lock: a GuidInfoRecord after it compares with it). */
uint64_t oq_sa_alias_sig(osm_opensm_t *osm);
void oq_sa_alias_seen(struct oq_sa *sa, uint64_t sig);
/* The state in force, referenced (NULL: none); any thread. */
struct oq_sa_state *oq_sa_get(struct oq_sa *sa);
void oq_sa_put(struct oq_sa_state *s);

/* sa_answer.c: the front's answer (struct oq_sa_front). */
bool oq_sa_answer(struct oq_sa *sa, enum oq_sa_kind kind, void *madw);

/* sa_predict.c: what SL sl is guaranteed over the egress ports
 * eg[0..n-1] (in[i]: the input port at eg[i]) from the state's port
 * classes: the least share and the hop that gives it, the ceiling, the
 * sum of the hops' worst waits.  0, or -1 when the model cannot say. */
int oq_sa_path_guarantee(const struct oq_sa_state *s,
			 const struct oq_port *const *eg, const int *in,
			 size_t n, uint8_t sl, struct oq_path_guarantee *pg);

#endif /* OSMQOS_PLUGIN_SA_H */
