// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos.prom between sweeps.  OpenSM runs a heavy sweep only when the
 * fabric changes, and the SA threads count answers, decision times and
 * audit drops all the time: a file written only at SUBNET UP would show
 * Prometheus counters frozen for days.  A thread of ours rewrites the file
 * every publish_interval= seconds: the live part (timestamp, counters) is
 * rendered fresh, the sweep part is the text the SM thread rendered at the
 * last publication.  It reads no OpenSM structure but the SM state byte,
 * and takes no OpenSM lock but the log's.
 *
 * Only a master refreshes: a standby never publishes, and an SM that lost
 * mastership stops (at its next wake-up, so an SM that is master again
 * within one interval may republish its old prediction once before its
 * first sweep replaces it), so its osmqos_publish_timestamp_seconds ages
 * and the dashboard shows it stale.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <osmqos/clock.h>

#include "publish.h"

/* publish_interval= in seconds; a bad value is logged and gives the
 * default.  Read once, at load. */
static unsigned int interval_of(struct oq_publisher *pub)
{
	char why[320];
	unsigned int n = oq_plugin_opt_interval(pub->opts, why, sizeof(why));

	if (*why)
		OQ_LOG(pub->osm, OSM_LOG_ERROR, "event_plugin_options: %s\n",
		       why);
	return n;
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

/* Caller holds prom_lock. */
static int write_file(struct oq_publisher *pub,
		      const struct oq_publish_doc *live, char *why,
		      size_t why_len)
{
	struct prom_parts p = {
		.live = live, .sweep = pub->sweep_part, .len = pub->sweep_len};

	return oq_publish_replace(oq_plugin_publish_dir(pub->opts),
				  OQ_PUBLISH_PROM_NAME, write_parts, &p, why,
				  why_len);
}

static bool is_master(struct oq_publisher *pub)
{
	/* A byte the SM thread writes; a stale read delays one refresh. */
	return __atomic_load_n(&pub->osm->subn.sm_state, __ATOMIC_RELAXED) ==
	       IB_SMINFO_STATE_MASTER;
}

/* Write the file with the counters and the time read now, under
 * prom_lock: whichever thread writes last writes the newest counters, so
 * a counter never goes back between two files.  Caller holds prom_lock. */
static int write_now(struct oq_publisher *pub, char *why, size_t why_len)
{
	struct oq_publish_counters *c = &pub->counters;
	struct oq_publish_counts counts;
	struct oq_publish_doc d;

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
	return write_file(pub, &d, why, why_len);
}

/* Caller holds prom_lock: one error state for the file, whichever
 * thread wrote it (a lasting cause is one ERROR line). */
static void report(struct oq_publisher *pub, int err, const char *why)
{
	oq_publish_report(pub, OQ_PUBLISH_PROM_NAME, &pub->prom_err, err, why);
}

int oq_publish_prom_file(struct oq_publisher *pub, char *sweep_part, size_t len,
			 uint64_t mads_total, char *why, size_t why_len)
{
	int err;

	pthread_mutex_lock(&pub->prom_lock);
	free(pub->sweep_part);
	pub->sweep_part = sweep_part;
	pub->sweep_len = len;
	pub->mads_total = mads_total;
	why[0] = '\0';
	err = write_now(pub, why, why_len);
	report(pub, err, why);
	pthread_mutex_unlock(&pub->prom_lock);
	return err;
}

void oq_publish_prom_forget(struct oq_publisher *pub, int err, const char *why)
{
	pthread_mutex_lock(&pub->prom_lock);
	free(pub->sweep_part);
	pub->sweep_part = NULL;
	pub->sweep_len = 0;
	if (err)
		report(pub, err, why);
	pthread_mutex_unlock(&pub->prom_lock);
}

static void *refresher(void *arg)
{
	struct oq_publisher *pub = arg;
	uint64_t every_ns = pub->interval * 1000000000ull; /* set before */
	struct timespec at;

	pthread_mutex_lock(&pub->prom_lock);
	while (!pub->stop) {
		/* From now, not from the last deadline: a slow write (a
		 * full disk, NFS) delays the next, never bunches them. */
		uint64_t due = oq_clock_ns() + every_ns;

		at.tv_sec = (time_t)(due / 1000000000ull);
		at.tv_nsec = (long)(due % 1000000000ull);
		while (!pub->stop &&
		       pthread_cond_timedwait(&pub->wake, &pub->prom_lock,
					      &at) != ETIMEDOUT)
			;
		if (pub->stop || !pub->sweep_part)
			continue;
		if (is_master(pub)) {
			char why[512] = "";

			report(pub, write_now(pub, why, sizeof(why)), why);
		} else {
			/* No longer master: the prediction kept is the old
			 * fabric's; never republish it with a fresh time.
			 * Master again, the SM sweeps and publishes anew. */
			free(pub->sweep_part);
			pub->sweep_part = NULL;
			pub->sweep_len = 0;
		}
	}
	pthread_mutex_unlock(&pub->prom_lock);
	return NULL;
}

void oq_publish_refresh_start(struct oq_publisher *pub)
{
	pthread_condattr_t a;
	unsigned int every;
	int err;

	pthread_mutex_init(&pub->prom_lock, NULL);
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&pub->wake, &a);
	pthread_condattr_destroy(&a);
	every = interval_of(pub);
	if (!every) {
		OQ_LOG(pub->osm, OSM_LOG_INFO,
		       "publish_interval=0: %s is written at SUBNET UP only\n",
		       OQ_PUBLISH_PROM_NAME);
		return;
	}
	pub->interval = every;
	err = pthread_create(&pub->refresher, NULL, refresher, pub);
	if (err) {
		OQ_LOG(pub->osm, OSM_LOG_ERROR,
		       "cannot start the thread refreshing %s (%s); its "
		       "counters change at SUBNET UP only\n",
		       OQ_PUBLISH_PROM_NAME, strerror(err));
		pub->interval = 0;
		return;
	}
	pub->refresher_running = true;
}

void oq_publish_refresh_stop(struct oq_publisher *pub)
{
	pthread_mutex_lock(&pub->prom_lock);
	pub->stop = true;
	pthread_cond_signal(&pub->wake);
	pthread_mutex_unlock(&pub->prom_lock);
	if (pub->refresher_running)
		pthread_join(pub->refresher, NULL);
	pub->refresher_running = false;
	free(pub->sweep_part);
	pub->sweep_part = NULL;
	pthread_cond_destroy(&pub->wake);
	pthread_mutex_destroy(&pub->prom_lock);
}
