/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The policy file as the plugin sees it (policy_file.c): re-read every
 * heavy sweep, applied only when it changed and is valid, and shared by
 * reference with the sweep states built from it; and the copy of the last
 * good policy OpenSM's own parser reads (policy_copy.c).
 */
#ifndef OSMQOS_PLUGIN_POLICY_FILE_H
#define OSMQOS_PLUGIN_POLICY_FILE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <osmqos/file.h>
#include <osmqos/policy.h>

#include "osm/osm.h"
#include "options/options.h"

/* OpenSM reads a copy of the last good policy, this file in the publish
 * directory. */
#define OQ_POLICY_COPY_NAME "osmqos-last-good-policy.conf"
/* What OpenSM is pointed at while it would read the operator's path and
 * that is not a regular file: a name nothing writes, in a directory only
 * the SM's user can write (oq_policy_keep_opensm_off). */
#define OQ_POLICY_NONE_NAME "osmqos-no-policy-in-force.conf"
/* The directories that name is made in: the publish directory, OpenSM's
 * cache directory (else it is a path under /dev/null, which cannot
 * exist). */
enum { OQ_NONE_PUBLISH, OQ_NONE_CACHE, OQ_NONE_DIRS };
/* Next to the policy in force as written (OQ_PUB_IN_FORCE): its hash and
 * the policy file it was read from, one line "0xHASH PATH", so a start
 * that puts it in force again can say which file it was written for. */
#define OQ_POLICY_SOURCE_NAME "osmqos-policy-in-force.source"

/* A validated policy shared by the states built from it. */
struct oq_policy_ref {
	unsigned int refs; /* atomic (__atomic builtins) */
	struct oq_policy *p;
	uint64_t hash;	  /* FNV-1a of the bytes p came from */
	time_t loaded_at; /* when it was put in force */
};

/* The first error of a rejected edit, as logged (FILE:LINE:COL: ...). */
#define OQ_POLICY_REJECT_ERROR_LEN 512
/* What to do about it when that is not to fix the file's content. */
#define OQ_POLICY_REJECT_FIX_LEN 256

struct oq_in_force;

/* A policy file as last loaded: the parsed tree and what identified it. */
struct oq_policy_file {
	osm_opensm_t *osm;
	const struct oq_plugin_options *opts;
	pthread_mutex_t lock;	   /* the cur pointer */
	/* Everything else here: held by the SM thread through each sweep
	 * event, and by the standby's re-read (policy_standby.c). */
	pthread_mutex_t use_lock;
	struct oq_policy_ref *cur; /* last good policy; NULL if never good */
	uint64_t hash;	   /* FNV-1a of the content that produced `policy` */
	uint64_t bad_hash; /* content that failed last (logged once) */
	bool bad_reported;
	bool missing_reported;
	bool content_ok; /* the file's current content is the policy in force */
	int read_errno;	 /* the read failure last reported */
	time_t loaded_at;
	unsigned long loads_ok, loads_failed;

	/* The last content refused (published: path, hash, when, why). */
	bool rejected;	/* some content was refused since start */
	char *rej_path; /* the path it was read from */
	time_t rej_at;	/* when it was refused; its hash is bad_hash */
	char rej_error[OQ_POLICY_REJECT_ERROR_LEN];
	/* "": fix the file (osmqos check); else what to do instead, as the
	 * log line says: the content is valid, osmqos's setup refuses it. */
	char rej_fix[OQ_POLICY_REJECT_FIX_LEN];
	/* It was refused because OpenSM gets no copy (bandwidth intents):
	 * read again once it gets one, though unchanged. */
	bool rej_no_copy;

	/* The policy in force as written (policy_in_force.c): posted by
	 * the SM thread, written by the publisher's. */
	bool in_force_failed; /* SM thread: post it again next sweep */
	struct oq_in_force *in_force_post; /* posted, not taken (lock) */
	/* The publisher's thread only: the one kept written, whether it
	 * is (as in_force_id), the errno of the last failure (0: none). */
	struct oq_in_force *in_force_cur;
	bool in_force_written;
	int in_force_errno;
	struct oq_file_id in_force_id;

	/* OpenSM's copy of the last good policy (policy_copy.c). */
	char *operator_path; /* OpenSM's qos_policy_file as configured */
	char *copy_path;     /* what opt.qos_policy_file points at, or NULL */
	bool copy_enabled;   /* opensm_policy=copy (the default) */
	bool copy_failed;    /* the last write failed: retried each sweep */
	int copy_errno;	     /* its error, logged once */
	/* The policy whose copy's form (written again for OpenSM, or not
	 * writable for it at all) was last logged: said once per policy. */
	uint64_t copy_form_hash;
	/* The copy as written last: anything else at its path (a
	 * directory, a FIFO, an edit) is rewritten before OpenSM reads it. */
	struct oq_file_id copy_id;

	/* Start without a usable file (policy_file.c): the policy in force
	 * before the start was looked for once, and what OpenSM reads
	 * instead of a path it would hang or exit on, by directory (kept
	 * until unload: OpenSM may print any of them). */
	bool restore_tried;
	char *none_paths[OQ_NONE_DIRS];
	/* The policy in force was put back at the start (published until
	 * the file's own content is in force): the copy it came from, and
	 * the policy file that copy was written for (NULL: unknown). */
	char *restored_from, *restored_for;
	/* The policy file as the plugin reads it: made absolute at load. */
	char *path_abs;
	/* The policy file is one the plugin writes (set at load: what that
	 * file is; NULL: none): no policy is read from it, and the plugin
	 * never writes over it.  Refused once, said once. */
	const char *path_clash;
	bool clash_reported;
	/* The publish directory is writable by other users (without the
	 * sticky bit, or another user's): OpenSM reads no copy there and
	 * nothing is put back in force from it (policy_trust.c). */
	bool dir_open;
	/* The publish directory is another instance's: nothing of this
	 * one's is written or read back there. */
	bool dir_shared;

	/* OpenSM's own parse of the file it reads, as its QoS setup left
	 * it (policy_opensm.c): that file (NULL: not looked at: no policy
	 * in force here, or OpenSM pointed at none), and whether OpenSM
	 * holds no policy from it while osmqos has one in force, since
	 * when. */
	char *opensm_path;
	bool opensm_refused;
	time_t opensm_refused_since;

	/* While this SM is not master, the file is re-read every
	 * publish_interval= seconds (policy_standby.c). */
	pthread_t standby;
	pthread_cond_t standby_wake; /* CLOCK_MONOTONIC */
	bool standby_running, standby_stop;
	unsigned int standby_every; /* seconds */
	/* The file was still being written (policy_settle.c): said once
	 * until a read finds it settled; read again a second later. */
	bool unsettled_reported;
	bool retry_due;
};

/* At load: opensm_policy= is read (a bad value is logged). */
void oq_policy_file_init(struct oq_policy_file *pf, osm_opensm_t *osm,
			 const struct oq_plugin_options *opts);
/* At unload: OpenSM reads its own file again; the policy is dropped. */
void oq_policy_file_fini(struct oq_policy_file *pf);

/*
 * The policy in force as written, OQ_PUB_IN_FORCE in the publish
 * directory (policy_in_force.c).  The SM thread posts it when a policy is
 * put in force (a copy of its text: no file is touched there, storage
 * that stalls never stalls a sweep), and again when pending says so; the
 * publisher's thread writes it with the next publication (take_new),
 * and at each publish_interval= tick writes it again when the last write
 * failed or the file was removed or changed since.
 */
void oq_policy_in_force_update(struct oq_policy_file *pf,
			       const struct oq_policy *p,
			       const char *written_for);
bool oq_policy_in_force_pending(const struct oq_policy_file *pf);
void oq_policy_in_force_write(struct oq_policy_file *pf, bool take_new);
/* At unload, after the publisher's thread stopped. */
/* The publish directory was another's: what this instance wrote there
 * last is not there any more and may be older than the policy it holds;
 * only what is posted from now on is written.  Publisher stopped. */
void oq_policy_in_force_forget(struct oq_policy_file *pf);
void oq_policy_in_force_fini(struct oq_policy_file *pf);

/* policy_trust.c: is dir writable by another user than this process's
 * (group or others without the sticky bit, or owned by another user
 * than it or root)?  why says how. */
bool oq_policy_dir_open(const char *dir, char *why, size_t len);
/* Read back a file the plugin wrote in the publish directory: NULL with
 * errno, and why set when it is not a regular file of this user's (or
 * root's) with one link that no one else may write (errno EPERM). */
char *oq_policy_read_own(const char *path, size_t max, size_t *len, char *why,
			 size_t why_len);

/* While OpenSM has no copy to read: point it away from its
 * qos_policy_file when that is not a regular file (it would hang or
 * exit on it).  True when it was. */
bool oq_policy_keep_opensm_off(struct oq_policy_file *pf);
/* Is OpenSM pointed at one of those names now? */
bool oq_policy_opensm_kept_off(const struct oq_policy_file *pf);
/* No copy for OpenSM any more: it reads the operator's file again (stock
 * behaviour), unless it would hang or exit on it. */
void oq_policy_opensm_reads_operator(struct oq_policy_file *pf);

/* After OpenSM's QoS setup parsed its qos_policy_file (each
 * UCAST_ROUTING_DONE, state manager thread): does OpenSM hold a policy
 * from it while osmqos has one in force?  Logged when that changes. */
void oq_policy_opensm_check(struct oq_policy_file *pf);

/* policy=, else OpenSM's qos_policy_file; NULL when neither is set. */
const char *oq_policy_file_path(const struct oq_policy_file *pf);
/* Re-read the file (each heavy sweep): 1 a new policy is in force, 0 the
 * one in force stays, -1 none is. */
int oq_policy_file_refresh(struct oq_policy_file *pf);

/* policy_standby.c: a standby runs no sweep, yet takes over with the
 * policy it holds; from load on (after the first read) it re-reads the
 * file every publish_interval= seconds (30 with 0) while this SM is
 * neither master nor discovering, under use_lock. */
void oq_policy_standby_start(struct oq_policy_file *pf);
void oq_policy_standby_stop(struct oq_policy_file *pf);

/* Read the file again in a second: a heavy sweep is asked while this
 * SM sweeps, the standby's re-read runs else.  Under use_lock. */
void oq_policy_retry_soon(struct oq_policy_file *pf);

/* policy_settle.c: a new content is taken only once the file was last
 * modified OQ_POLICY_SETTLE_MS ago and did not change during the read:
 * a file rewritten in place is read again when it is that old, up to
 * OQ_POLICY_SETTLE_ROUNDS times in one call, which then fails with
 * EAGAIN (still being written).  Else as oq_file_read. */
#define OQ_POLICY_SETTLE_MS	1000
#define OQ_POLICY_SETTLE_ROUNDS 3
char *oq_policy_read_settled(struct oq_policy_file *pf, const char *path,
			     size_t *len);

/* The policy in force, referenced (NULL: none); put it when done.  Any
 * thread. */
struct oq_policy_ref *oq_policy_ref_get(struct oq_policy_file *pf);
void oq_policy_ref_put(struct oq_policy_ref *r);

#endif /* OSMQOS_PLUGIN_POLICY_FILE_H */
