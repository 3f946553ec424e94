/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The SA front: the plugin's own dispatcher registrations for PathRecord
 * and MultiPathRecord queries (docs/sa-front.md): each query goes to the
 * front's answer, or to OpenSM's handler unchanged, and is counted.
 */
#ifndef OSMQOS_SA_FRONT_H
#define OSMQOS_SA_FRONT_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <complib/cl_dispatcher.h>
#include <opensm/osm_log.h>

struct oq_sa;

/* One SA query type the front has taken over. */
struct oq_sa_hook {
	cl_disp_reg_handle_t h; /* our registration; INVALID: not ours */
	unsigned long queries;	/* __atomic: every query we saw */
	unsigned long passed;	/* __atomic: handed to OpenSM's handler */
	unsigned long answered; /* __atomic: answered by the plugin */
};

enum oq_sa_kind {
	OQ_SA_PR = 0,
	OQ_SA_MPR,
};

struct oq_sa_front {
	struct oq_sa_hook pr;  /* OSM_MSG_MAD_PATH_RECORD */
	struct oq_sa_hook mpr; /* OSM_MSG_MAD_MULTIPATH_RECORD */
	/* OSM_MSG_MAD_GUIDINFO_RECORD: answered by OpenSM's handler.  A
	 * Set or Delete is in flight (alias_busy, __atomic) while OpenSM
	 * handles it, and one that changed OpenSM's alias table (its
	 * signature, alias_sig under alias_lock, moved) is counted in
	 * alias_changes (__atomic): the SA state's copy is stale then,
	 * until the next heavy sweep copies the table again. */
	struct oq_sa_hook gir;
	unsigned long alias_changes;
	unsigned int alias_busy;
	pthread_mutex_t alias_lock;
	uint64_t alias_sig;
	/*
	 * Answers a query itself and returns true, or returns false to have
	 * it passed to OpenSM's handler.  NULL: pass everything (unit tests,
	 * or before the plugin set it).
	 */
	bool (*answer)(struct oq_sa *sa, enum oq_sa_kind kind, void *madw);
};

/*
 * Replace OpenSM's PathRecord/MultiPathRecord registrations with ours.
 * Idempotent; call where no SA MAD can arrive yet (create(): OpenSM binds
 * the SA port only after the plugins are loaded).  Returns how many of the
 * two are ours afterwards.
 */
int oq_sa_front_takeover(struct oq_sa *sa);

/*
 * Give OpenSM its own registrations back if ours are still live; does
 * nothing when OpenSM's shutdown has already unregistered them (the normal
 * case: osm_sa_shutdown() runs before the plugins are destroyed).
 */
void oq_sa_front_restore(struct oq_sa *sa);

/* Log the query counters at the given OpenSM log level. */
void oq_sa_front_log_counters(struct oq_sa *sa, osm_log_level_t level);

#endif /* OSMQOS_SA_FRONT_H */
