// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The publisher's thread: every file the publisher writes is written here,
 * never in OpenSM's state-manager thread.  A publish directory on storage
 * that stalls (a hung NFS server, a frozen file system) then stalls this
 * thread only; OpenSM goes on sweeping, and a publication asked meanwhile
 * replaces the one still waiting, so the thread catches up with the
 * newest when the storage comes back.
 *
 * What a publication failed to write (storage full, read-only, the
 * directory removed and made again) is written again at each tick: the
 * JSON as rendered then, and the policy in force as written
 * (policy_in_force.c), so the files agree with each other again within
 * one publish_interval= of the storage coming back, not at the next
 * sweep.
 *
 * Besides publications, osmqos.prom between sweeps: OpenSM runs a heavy
 * sweep only when the fabric changes, and the SA threads count answers,
 * decision times and audit drops all the time; a file written only at
 * SUBNET UP would show Prometheus counters frozen for days.  So every
 * publish_interval= seconds the file is rewritten: the live part
 * (timestamp, counters) rendered fresh, the sweep part as the last
 * publication rendered it.  Reading no OpenSM structure but the SM state
 * byte, and taking no OpenSM lock but the log's.
 *
 * Only a master refreshes: a standby never publishes, and an SM that lost
 * mastership stops (at its next wake-up, so an SM that is master again
 * within one interval may republish its old prediction once before its
 * first sweep replaces it), so its osmqos_publish_timestamp_seconds ages
 * and the dashboard and `osmqos status` show it stale.
 */
#include <config.h>

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <osmqos/clock.h>
#include <osmqos/file.h>

#include "publish.h"

/* publish_interval= in seconds; a bad value gives the default (logged
 * at load, with the other options' checks). */
static unsigned int interval_of(struct oq_publisher *pub)
{
	char why[320];

	return oq_plugin_opt_interval(pub->opts, why, sizeof(why));
}

struct prom_parts {
	const struct oq_publish_doc *live;
	const char *sweep;
	size_t len;
};

static int write_parts(FILE *out, const void *ctx)
{
	const struct prom_parts *p = ctx;

	if (oq_publish_write_prom_live(out, p->live))
		return -1;
	if (p->len && fwrite(p->sweep, 1, p->len, out) != p->len)
		return -1;
	return ferror(out) ? -1 : 0;
}

static bool is_master(struct oq_publisher *pub)
{
	/* A byte the SM thread writes; a stale read delays one refresh. */
	return __atomic_load_n(&pub->osm->subn.sm_state, __ATOMIC_RELAXED) ==
	       IB_SMINFO_STATE_MASTER;
}

/* A standby (or an SM not active): it runs no sweep, so no publication
 * writes the policy it holds. */
static bool is_standby(struct oq_publisher *pub)
{
	uint8_t st = __atomic_load_n(&pub->osm->subn.sm_state, __ATOMIC_RELAXED);

	return st == IB_SMINFO_STATE_STANDBY || st == IB_SMINFO_STATE_NOTACTIVE;
}

/* Write the file with the counters and the time read now, around the
 * last publication's sweep part.  Writer thread only. */
static int write_now(struct oq_publisher *pub, char *why, size_t why_len)
{
	struct oq_publish_counters *c = &pub->counters;
	struct oq_publish_counts counts;
	struct oq_publish_doc d;
	struct prom_parts p = {
		.live = &d, .sweep = pub->sweep_part, .len = pub->sweep_len};

	if (pub->audit) {
		struct oq_audit_stats st;

		oq_audit_get_stats(pub->audit, &st);
		oq_publish_set_audit_dropped(c, st.dropped);
	}
	memset(&d, 0, sizeof(d));
	clock_gettime(CLOCK_REALTIME, &d.now);
	d.interval = pub->interval;
	d.mads_total = pub->mads_total;
	oq_publish_counters_read(c, &counts);
	d.counts = &counts;
	return oq_publish_replace(oq_plugin_publish_dir(pub->opts),
				  OQ_PUBLISH_PROM_NAME, write_parts, &p, why,
				  why_len);
}

/* One error state for the file, publications and refreshes alike (a
 * lasting cause is one ERROR line). */
static void report(struct oq_publisher *pub, int err, const char *why)
{
	oq_publish_report(pub, OQ_PUBLISH_PROM_NAME, &pub->prom_err, err, why);
}

int oq_publish_prom_file(struct oq_publisher *pub, char *sweep_part, size_t len,
			 uint64_t mads_total, char *why, size_t why_len)
{
	int err;

	free(pub->sweep_part);
	pub->sweep_part = sweep_part;
	pub->sweep_len = len;
	pub->mads_total = mads_total;
	why[0] = '\0';
	err = write_now(pub, why, why_len);
	report(pub, err, why);
	return err;
}

void oq_publish_prom_forget(struct oq_publisher *pub, int err, const char *why)
{
	free(pub->sweep_part);
	pub->sweep_part = NULL;
	pub->sweep_len = 0;
	if (err)
		report(pub, err, why);
}

/* Between publications: the counters, while this SM is master; then
 * what the last publication failed to write, in that order (the policy
 * in force as written last: never older than osmqos.prom's word of it
 * but while a write is under way). */
static void refresh(struct oq_publisher *pub)
{
	char why[512] = "";
	bool master = is_master(pub);

	if (pub->sweep_part && master) {
		report(pub, write_now(pub, why, sizeof(why)), why);
	} else if (pub->sweep_part) {
		/* No longer master: the prediction kept is the old fabric's;
		 * never republish it with a fresh time.  Master again, the
		 * SM sweeps and publishes anew. */
		free(pub->sweep_part);
		pub->sweep_part = NULL;
		pub->sweep_len = 0;
	}
	oq_publish_json_retry(pub, master);
	/* A standby publishes nothing, yet writes the policy it would
	 * enforce (policy_standby.c): the newest one it read, at each tick.
	 * A master's (and a discovering SM's) waits for its publication. */
	oq_policy_in_force_write(pub->pf, is_standby(pub));
}

/* The next wake-up: publish_interval= from now (a slow write delays the
 * next, never bunches them), or none with publish_interval=0. */
static void next_due(const struct oq_publisher *pub, struct timespec *at)
{
	uint64_t due = oq_clock_ns() + pub->interval * 1000000000ull;

	at->tv_sec = (time_t)(due / 1000000000ull);
	at->tv_nsec = (long)(due % 1000000000ull);
}

static void *writer(void *arg)
{
	struct oq_publisher *pub = arg;
	struct timespec at;
	sigset_t xfsz;

	pthread_setname_np(pthread_self(), "osmqos-publish");
	/* A file size limit (ulimit -f) is a write error here (EFBIG),
	 * never SIGXFSZ, which would end opensm. */
	sigemptyset(&xfsz);
	sigaddset(&xfsz, SIGXFSZ);
	pthread_sigmask(SIG_BLOCK, &xfsz, NULL);
	/* Temp files an opensm that died mid-write left (no rename). */
	oq_file_replace_clean(oq_plugin_publish_dir(pub->opts),
			      OQ_PUBLISH_JSON_NAME);
	oq_file_replace_clean(oq_plugin_publish_dir(pub->opts),
			      OQ_PUBLISH_PROM_NAME);
	/* The policy read at load, master or standby (the writer starts
	 * after that read). */
	oq_policy_in_force_write(pub->pf, true);
	pthread_mutex_lock(&pub->prom_lock);
	next_due(pub, &at);
	while (!pub->stop) {
		struct oq_publish_req *req = pub->req;
		bool due = false;

		if (!req) {
			int rc = pub->interval
					 ? pthread_cond_timedwait(
						   &pub->wake, &pub->prom_lock,
						   &at)
					 : pthread_cond_wait(&pub->wake,
							     &pub->prom_lock);

			due = rc == ETIMEDOUT;
			if (pub->stop || (!due && !pub->req))
				continue;
			req = pub->req;
		}
		pub->req = NULL;
		/* The lock is the mailbox's only: never held while writing,
		 * so the SM thread posting a publication never waits. */
		pthread_mutex_unlock(&pub->prom_lock);
		if (req)
			oq_publish_run(pub, req);
		else
			refresh(pub);
		pthread_mutex_lock(&pub->prom_lock);
		if (req || due)
			next_due(pub, &at);
	}
	pthread_mutex_unlock(&pub->prom_lock);
	return NULL;
}

void oq_publish_post(struct oq_publisher *pub, struct oq_publish_req *req)
{
	struct oq_publish_req *old;

	if (!pub->writer_running) {
		/* No thread (it could not start): written here, as before
		 * there was one. */
		oq_publish_run(pub, req);
		return;
	}
	pthread_mutex_lock(&pub->prom_lock);
	old = pub->req;
	pub->req = req;
	pthread_cond_signal(&pub->wake);
	pthread_mutex_unlock(&pub->prom_lock);
	/* Superseded before the writer took it: the newer one says more. */
	oq_publish_req_free(old);
}

void oq_publish_writer_start(struct oq_publisher *pub)
{
	pthread_condattr_t a;
	unsigned int every;
	int err;

	pthread_mutex_init(&pub->prom_lock, NULL);
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&pub->wake, &a);
	pthread_condattr_destroy(&a);
	pub->writer_set_up = true;
	/* Started again after a stop (the publish directory another
	 * opensm's for a while). */
	pub->stop = false;
	every = interval_of(pub);
	if (!every)
		OQ_LOG(pub->osm, OSM_LOG_INFO,
		       "publish_interval=0: %s is written at SUBNET UP only\n",
		       OQ_PUBLISH_PROM_NAME);
	pub->interval = every;
	err = pthread_create(&pub->writer, NULL, writer, pub);
	if (err) {
		OQ_LOG(pub->osm, OSM_LOG_ERROR,
		       "cannot start the thread writing %s and %s (%s); they "
		       "are written by the SM thread at SUBNET UP only\n",
		       OQ_PUBLISH_JSON_NAME, OQ_PUBLISH_PROM_NAME,
		       strerror(err));
		pub->interval = 0;
		return;
	}
	pub->writer_running = true;
}

void oq_publish_writer_stop(struct oq_publisher *pub)
{
	/* Never started: the publish directory was another instance's. */
	if (!pub->writer_set_up)
		return;
	pthread_mutex_lock(&pub->prom_lock);
	pub->stop = true;
	pthread_cond_signal(&pub->wake);
	pthread_mutex_unlock(&pub->prom_lock);
	if (pub->writer_running)
		pthread_join(pub->writer, NULL);
	pub->writer_running = false;
	/* A publication asked too late to be written. */
	oq_publish_req_free(pub->req);
	pub->req = NULL;
	free(pub->sweep_part);
	pub->sweep_part = NULL;
	oq_publish_json_retry_drop(pub);
	pthread_cond_destroy(&pub->wake);
	pthread_mutex_destroy(&pub->prom_lock);
	pub->writer_set_up = false;
}
