/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Publishing, plugin side: at SUBNET UP the sweep's predictions go to
 * osmqos-bandwidth.json and osmqos.prom in publish_dir= (publish.c, the
 * documents in plugin/documents/), written by the publisher's own thread,
 * which also rewrites osmqos.prom's counters between sweeps
 * (publish_writer.c).  docs/publish.md.
 */
#ifndef OSMQOS_PLUGIN_PUBLISH_H
#define OSMQOS_PLUGIN_PUBLISH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "audit/audit.h"
#include "documents/documents.h"
#include "options/options.h"
#include "osm/osm.h"
#include "policyfile/policy_file.h"
#include "sa/sa.h"
#include "sweep/sweep.h"

/* The state-only parts of the files, kept for the next publication of
 * the same sweep state, or of one with the same predictions and QoS
 * levels (publish_parts.c; writer thread). */
struct oq_publish_parts {
	uint64_t state_id; /* the sweep state's id; 0: nothing kept */
	uint64_t classes_id; /* the SA state's classes_id, 0: none */
	bool detail_ports;
	/* What the parts say of the policy's QoS levels (names, SLs,
	 * intents), as bytes to compare. */
	char *levels_key;
	size_t levels_len;
	char *json, *prom;
	size_t json_len, prom_len;
	size_t ports_missed, ports_unchecked, n_classified, n_classes;
	/* The JSON's nodes list, rendered with the parts; outlives them,
	 * so that the next render copies the entries that did not change. */
	struct oq_pred_nodes_kept nodes;
	bool nodes_ok; /* nodes is the parts' list (else render it) */
};

/*
 * The JSON as last written: its head with the sweep numbers and time left
 * out, the sweep state its predictions are of, the sweep that wrote it,
 * and the file it went to (one replaced, changed or removed since is
 * written again).
 */
struct oq_publish_json_last {
	char *key;
	size_t key_len;
	uint64_t state_id; /* 0: nothing to compare with */
	unsigned long sweep;
	dev_t dev;
	ino_t ino;
	off_t size;
	/* ctime too: a copy that keeps the mtime (cp -p, rsync -t) onto
	 * the same inode and size changes it, and nothing sets it back. */
	struct timespec mtime, ctime;
};

/*
 * A publication the SM thread asks of the writer thread: the states it is
 * of (references held), and what the SM thread alone may read, read at
 * SUBNET UP: the files' head (the policy file's status, the sweep
 * numbers, the QoS MADs sent; strings owned here) and the sweep's phases
 * with the SM thread's CPU in the plugin so far.
 */
struct oq_publish_req {
	struct oq_sa_state *sa;	    /* NULL: the SA has no state */
	struct oq_sweep_state *s;   /* NULL: no state */
	struct oq_publish_doc head; /* no state part yet */
	bool qos;		    /* opensm.conf qos (a HUP may reload it) */
	char *rej_path, *rej_error, *rej_fix, *policy_path, *restored_from,
		*restored_for, *opensm_path, *opensm_conf;
	struct oq_phases phases;
	uint64_t sm_cpu_ns;
	unsigned long sweeps;
};

/* The publishing room of the plugin instance. */
struct oq_publisher {
	osm_opensm_t *osm;
	const struct oq_plugin_options *opts;
	/* What a publication reads: the policy file's status, the sweep's
	 * state, counters and phases, the SA's state and its port classes,
	 * and the audit writer's drops and CPU (NULL: no audit trail). */
	struct oq_policy_file *pf;
	struct oq_sweep *sweep;
	struct oq_sa *sa;
	struct oq_audit *audit;
	/* Filled by the SA threads (atomics), read at each publish. */
	struct oq_publish_counters counters;
	/* Writer thread only (or the SM thread when the writer could not
	 * start): the errno last logged for the JSON (osmqos.prom's is
	 * prom_err below), and whether running out of memory was logged. */
	int json_err;
	bool oom_reported;
	bool post_oom_reported; /* SM thread: the same for oq_publish() */
	struct oq_publish_parts parts;
	bool parts_kept; /* the last publication used them as kept */
	struct oq_publish_json_last json_last;
	bool json_kept; /* the last publication left the JSON as it was */
	/* The JSON of the last publication when writing it failed, as
	 * rendered then (NULL: none waiting), written again at each tick
	 * while this SM is master: its key and state for json_last. */
	char *json_retry, *json_retry_key;
	size_t json_retry_len, json_retry_key_len;
	uint64_t json_retry_state;
	unsigned long json_retry_sweep;
	/* malloc_trim=1: the heap is trimmed after each publication. */
	bool trim;
	uint64_t audit_cpu_ns; /* audit writer CPU at the last phases line */
	/* The writer thread (publish_writer.c).  prom_lock guards req and
	 * stop, and is never held while a file is written: posting a
	 * publication never waits on storage. */
	pthread_mutex_t prom_lock;
	pthread_cond_t wake; /* with prom_lock: a publication, or stop */
	bool stop;
	struct oq_publish_req *req; /* the publication asked, not taken */
	bool writer_running;
	bool writer_set_up;    /* prom_lock and wake initialized */
	unsigned int interval; /* seconds, set before the thread starts */
	pthread_t writer;
	/* Writer thread only: osmqos.prom's last sweep part (NULL: none),
	 * the QoS MADs it was published with, its last errno logged. */
	char *sweep_part;
	size_t sweep_len;
	uint64_t mads_total; /* QoS Set MADs as of the last publication */
	int prom_err;	     /* the errno last logged for osmqos.prom */
};

/* At load: the counters, and publish_detail= and malloc_trim= read (a
 * bad value is logged). */
void oq_publish_init(struct oq_publisher *pub, osm_opensm_t *osm,
		     const struct oq_plugin_options *opts,
		     struct oq_policy_file *pf, struct oq_sweep *sweep,
		     struct oq_sa *sa);
/* At unload, after oq_publish_writer_stop(). */
void oq_publish_fini(struct oq_publisher *pub);

/*
 * Publish the current sweep state into publish_dir= (default: OpenSM's
 * cache dir, $OSM_CACHE_DIR or /var/cache/opensm).  Called by the SM
 * thread at SUBNET UP: it takes what the files say and hands it to the
 * writer thread, which renders and writes both files and logs the
 * publication and the sweep's phases.  Errors are logged once per
 * distinct errno and per file; the SM is never affected.
 */
void oq_publish(struct oq_publisher *pub);
/* The writer's side (publish_writer.c): hand req over (a publication
 * not yet taken is dropped for it); without a writer thread, run it
 * here. */
void oq_publish_post(struct oq_publisher *pub, struct oq_publish_req *req);
/* Render and write req's publication, log it, free req. */
void oq_publish_run(struct oq_publisher *pub, struct oq_publish_req *req);
void oq_publish_req_free(struct oq_publish_req *req);
/* publish_parts.c: are pp the parts of d, for state state_id with the
 * SA's prediction classes_id (0: none)?  They are when rendered for that
 * state, or for another with the same prediction, QoS levels and
 * publish_detail (a policy edit that changed no table): pp is then
 * state_id's.  Then d uses them, else renders them (and keeps them: d
 * uses them too unless out of memory). */
bool oq_publish_parts_kept(struct oq_publish_parts *pp, uint64_t state_id,
			   uint64_t classes_id, const struct oq_publish_doc *d);
void oq_publish_parts_use(const struct oq_publish_parts *pp,
			  struct oq_publish_doc *d);
void oq_publish_parts_render(struct oq_publish_parts *pp, uint64_t state_id,
			     uint64_t classes_id, struct oq_publish_doc *d);
void oq_publish_parts_free(struct oq_publish_parts *pp);
/* What of d the JSON's comparison reads: its head without the sweep
 * numbers and time (malloc'd, *len bytes; NULL: out of memory). */
char *oq_publish_json_key(const struct oq_publish_doc *d, size_t *len);
/* Does dir/name hold what was last written there, with the same key and
 * the predictions of state state_id? */
bool oq_publish_json_unchanged(const struct oq_publish_json_last *jl,
			       const char *dir, const char *name,
			       const char *key, size_t key_len,
			       uint64_t state_id);
/* dir/name was written by sweep with key (taken over; NULL: nothing to
 * compare with next time) and the predictions of state state_id (0: of
 * no state kept). */
void oq_publish_json_written(struct oq_publish_json_last *jl, const char *dir,
			     const char *name, char *key, size_t key_len,
			     uint64_t state_id, unsigned long sweep);
void oq_publish_json_forget(struct oq_publish_json_last *jl);

/* publish_detail=ports: per-port Prometheus series too.  Any other value
 * than classes or ports is logged (once) and taken as classes. */
bool oq_publish_detail_ports(struct oq_publisher *pub);
/* Log a failure to write file `name` once per errno (*last_err holds the
 * one logged), and say when writing it works again. */
void oq_publish_report(struct oq_publisher *pub, const char *name,
		       int *last_err, int err, const char *why);

/*
 * The writer thread (publish_writer.c): publications, and between sweeps
 * osmqos.prom rewritten every publish_interval= seconds (options.h's
 * default; 0: only at sweeps) with fresh counters and the last sweep's
 * part, while this SM is master.  Start at load, stop before the audit
 * writer closes (a publication still waiting is dropped).
 */
/* publish_dir_lock.c: the publish directory for this instance alone.  A
 * descriptor holding the lock (kept open while the plugin runs), -1 when
 * another process holds it (*holder: its PID, 0 unknown), -2 when no
 * lock could be taken (the directory's own problems are said by what
 * writes there), -3 when the lock file is not one the plugin wrote (not
 * a regular file of its user with one link). */
#define OQ_PUBLISH_LOCK_NAME ".osmqos.lock"
int oq_publish_dir_claim(const char *dir, long *holder);
void oq_publish_writer_start(struct oq_publisher *pub);
void oq_publish_writer_stop(struct oq_publisher *pub);
/* The publication's Prometheus file: `sweep_part` (the sweep's, rendered
 * by oq_publish_write_prom_sweep; taken over) after a live part read now.
 * Logs a failure once per errno (one state with the refreshes').  0, or
 * the errno.  Writer thread. */
int oq_publish_prom_file(struct oq_publisher *pub, char *sweep_part, size_t len,
			 uint64_t mads_total, char *why, size_t why_len);
/* A publication that failed before its Prometheus file: the sweep part
 * kept is an older sweep's, and is not refreshed any more; err (if not
 * 0) and why are logged as oq_publish_prom_file() logs its own. */
void oq_publish_prom_forget(struct oq_publisher *pub, int err, const char *why);
/* A tick of the writer thread: the JSON of the last publication written
 * again if that failed (master: write, else drop it).  Writer thread. */
void oq_publish_json_retry(struct oq_publisher *pub, bool master);
void oq_publish_json_retry_drop(struct oq_publisher *pub);

#endif /* OSMQOS_PLUGIN_PUBLISH_H */
