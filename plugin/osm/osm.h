/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What every room of the plugin reads from OpenSM the same way: its log,
 * its subnet copied into the core's fabric model (snapshot.c), and its
 * QoS templates and partitions as core inputs (osm_inputs.c).
 */
#ifndef OSMQOS_PLUGIN_OSM_H
#define OSMQOS_PLUGIN_OSM_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* osm_config.h first: it decides which OpenSM features (and message ids)
 * the other OpenSM headers declare. */
#include <opensm/osm_config.h>
#include <opensm/osm_log.h>
#include <opensm/osm_opensm.h>

#include <osmqos/fabric.h>
#include <osmqos/tables.h>

/* One line in OpenSM's log, "osmqos: " first. */
#define OQ_LOG(osm, level, fmt, ...)                                           \
	OSM_LOG(&(osm)->log, level, "osmqos: " fmt, ##__VA_ARGS__)

/*
 * The errno of a failed step: its -errno return, else errno as the failed
 * call left it (errno cleared before the call), else ENOMEM (the core's
 * NULL or -1 means an allocation failed).
 */
static inline int oq_failure_errno(int rc)
{
	if (rc < -1)
		return -rc;
	return errno ? errno : ENOMEM;
}

/* Building `what` failed at `step` with errno err; `then` says what
 * stays in force.  "out of memory" only when it was. */
#define OQ_LOG_BUILD_FAILED(osm, what, step, err, then)                        \
	OQ_LOG(osm, OSM_LOG_ERROR, "%s %s: %s%s%s; %s\n",                      \
	       (err) == ENOMEM ? "out of memory building" : "cannot build",    \
	       what, step, (err) == ENOMEM ? "" : ": ",                        \
	       (err) == ENOMEM ? "" : strerror(err), then)

/* OpenSM's per-port-type QoS templates (its qos_* options as it holds
 * them); what the parser finds goes into d.  0, or -errno. */
int oq_templates_from_osm(osm_opensm_t *osm, struct oq_templates *t,
			  struct oq_diags *d);

/*
 * OpenSM's partitions, and every end port's membership in f as its
 * partition manager decided it.  *read gets what was read of them (NULL
 * when OpenSM has none), for the next copy; oq_osm_partitions_free()
 * after it.  When f was derived from prev_f (not NULL) and old is what
 * prev_f's membership was made from, and neither fabric has two ports
 * with one GUID, only the ports whose membership may differ from prev_f's
 * are set.  0, or -errno (-ENOMEM).
 */
struct oq_osm_partitions;
int oq_partitions_from_osm(osm_opensm_t *osm, struct oq_partitions *parts,
			   struct oq_fabric *f, const struct oq_fabric *prev_f,
			   const struct oq_osm_partitions *old,
			   struct oq_osm_partitions **read);
void oq_osm_partitions_free(struct oq_osm_partitions *r);

/*
 * A record of the inputs a state was built from (record.c): each sweep
 * writes it anew between oq_record_begin() and oq_record_end(), which says
 * whether any byte differs from the last record.  Compared as it is
 * written, so an unchanged sweep allocates nothing.
 */
struct oq_record {
	uint8_t *buf;
	size_t len, cap; /* the last record, the buffer's size */
	size_t pos;	 /* where the record being written is */
	bool differs;	 /* the record being written differs already */
	bool invalid;	 /* no last record: the next one differs */
	/* Where the parts of the record being written begin (the
	 * snapshot's nodes), oq_record_mark(); marks_lost: a mark could
	 * not be stored, so the parts are not known. */
	uint32_t *marks;
	size_t n_marks, cap_marks;
	bool marks_lost;
};

void oq_record_begin(struct oq_record *r);
void oq_record_put(struct oq_record *r, const void *v, size_t n);
/* A string (NULL differs from ""). */
void oq_record_put_str(struct oq_record *r, const char *s);
/* Note where the next byte goes (r->marks). */
void oq_record_mark(struct oq_record *r);
/* Whether the record written since oq_record_begin() differs from the
 * last one (always after oq_record_forget() or a failed allocation). */
bool oq_record_end(struct oq_record *r);
/* The state built from the record failed: the next record differs. */
void oq_record_forget(struct oq_record *r);
void oq_record_free(struct oq_record *r);

/* Put into r what the snapshot knows of OpenSM's subnet (nodes, ports,
 * links, P_Key tables while OpenSM has no partitions, LFTs, OpenSM's node
 * and port objects), as OpenSM holds it: first, right after
 * oq_record_begin().  OpenSM's lock held. */
void oq_snapshot_record(osm_opensm_t *osm, struct oq_record *r);
/*
 * OpenSM's subnet as a finalized fabric model, from the record
 * oq_snapshot_record() just wrote at the start of r: the snapshot reads
 * OpenSM's nodes and ports only there, so the record holds every input it
 * has.  The caller still holds the lock it recorded under: each port's
 * `user` points at its osm_physp_t and each node's at its osm_node_t,
 * valid only while it does, for the plugin's own programming step.
 * with_lft also copies every switch's LFT as routing just computed it (the
 * SA's routes).
 *
 * prev (may be NULL) is what an earlier snapshot was read from, while its
 * fabric lives: the nodes whose part of the record is the same are shared
 * with that fabric, not read again, so a sweep after one port changed
 * reads the few nodes it touched.  *base gets what this one was read from
 * (oq_snapshot_base_free() after the fabric), *n_read how many nodes were
 * read.  Returns NULL with errno set on failure (ENOMEM, also for a
 * record an allocation failure left empty).
 */
struct oq_snapshot_base;
struct oq_fabric *oq_snapshot_build(const struct oq_record *r, bool with_lft,
				    const struct oq_snapshot_base *prev,
				    struct oq_snapshot_base **base,
				    size_t *n_read, struct oq_diags *diags);
void oq_snapshot_base_free(struct oq_snapshot_base *b);
/* Put into r what oq_templates_from_osm() and oq_partitions_from_osm()
 * read. */
void oq_inputs_record(osm_opensm_t *osm, struct oq_record *r);

/*
 * true when the running opensm was built with other layout-changing
 * options (the perf manager, complib debugging) than the headers this
 * plugin was compiled with; why says which and what to rebuild.  Reads
 * nothing of osm_opensm_t (build_options.c).
 */
bool oq_osm_build_mismatch(char *why, size_t len);

#endif /* OSMQOS_PLUGIN_OSM_H */
