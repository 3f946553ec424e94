// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A standby SM runs no heavy sweep: OpenSM stops its sweep before
 * HEAVY_SWEEP_DONE once it finds a master, and then only polls that
 * master, reporting no event to the plugin.  Yet when the master goes,
 * the standby's first sweep as master programs the fabric with the
 * policy the plugin holds then.  Read only at that sweep, a bad edit
 * made meanwhile would leave it with none (OpenSM's templates on every
 * port).  So the policy is read at load, and re-read here every
 * publish_interval= seconds while this SM is a standby (or not active):
 * it holds the last good policy, a bad edit is logged once when it is
 * made, not at takeover, and the policy in force it would enforce is
 * written to its own publish directory as a master's is.
 *
 * The sweep events and this thread take use_lock, so a takeover's first
 * refresh never runs beside a re-read.  The thread also reads again a
 * file found still being written (policy_settle.c), a second later.
 */
#include <config.h>

#include <errno.h>
#include <string.h>
#include <time.h>

#include <osmqos/clock.h>

#include "policy_file.h"

/* What the re-read may not run beside: the SM thread sweeps only as
 * master or discovering. */
static bool not_sweeping(struct oq_policy_file *pf)
{
	uint8_t st = __atomic_load_n(&pf->osm->subn.sm_state, __ATOMIC_RELAXED);

	return st == IB_SMINFO_STATE_STANDBY || st == IB_SMINFO_STATE_NOTACTIVE;
}

static void after(struct timespec *at, uint64_t ns)
{
	uint64_t due = oq_clock_ns() + ns;

	at->tv_sec = (time_t)(due / 1000000000ull);
	at->tv_nsec = (long)(due % 1000000000ull);
}

static bool earlier(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* A file still being written (policy_settle.c), a second on: read again
 * here while this SM does not sweep, else in a heavy sweep asked as the
 * console's "resweep heavy" asks it. */
static void retry(struct oq_policy_file *pf)
{
	if (not_sweeping(pf)) {
		oq_policy_file_refresh(pf);
		return;
	}
	pf->osm->subn.force_heavy_sweep = TRUE;
	osm_sm_sweep(&pf->osm->sm);
}

static void *reader(void *arg)
{
	struct oq_policy_file *pf = arg;
	struct timespec at, retry_at, *wake;
	bool retry_set = false;

	pthread_setname_np(pthread_self(), "osmqos-policy");
	pthread_mutex_lock(&pf->use_lock);
	after(&at, pf->standby_every * 1000000000ull);
	while (!pf->standby_stop) {
		if (pf->retry_due && !retry_set) {
			after(&retry_at, OQ_POLICY_SETTLE_MS * 1000000ull);
			retry_set = true;
		}
		wake = retry_set && earlier(&retry_at, &at) ? &retry_at : &at;
		if (pthread_cond_timedwait(&pf->standby_wake, &pf->use_lock,
					   wake) != ETIMEDOUT ||
		    pf->standby_stop)
			continue;
		/* The state is read under the lock: a takeover's sweep
		 * event waits for this read, and none starts within it. */
		if (wake == &retry_at) {
			retry_set = pf->retry_due = false;
			retry(pf);
			continue;
		}
		if (not_sweeping(pf))
			oq_policy_file_refresh(pf);
		after(&at, pf->standby_every * 1000000000ull);
	}
	pthread_mutex_unlock(&pf->use_lock);
	return NULL;
}

void oq_policy_standby_start(struct oq_policy_file *pf)
{
	pthread_condattr_t a;
	char why[320];
	int err;

	pf->standby_every = oq_plugin_opt_interval(pf->opts, why, sizeof(why));
	if (!pf->standby_every)
		pf->standby_every = OQ_PUBLISH_INTERVAL_DEFAULT;
	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&pf->standby_wake, &a);
	pthread_condattr_destroy(&a);
	pf->standby_stop = false;
	err = pthread_create(&pf->standby, NULL, reader, pf);
	if (err) {
		pthread_cond_destroy(&pf->standby_wake);
		OQ_LOG(pf->osm, OSM_LOG_ERROR,
		       "cannot start the thread re-reading the policy file "
		       "while this SM is a standby (%s): a standby taking "
		       "over uses the policy read at load; restart opensm "
		       "to have it re-read\n",
		       strerror(err));
		return;
	}
	pf->standby_running = true;
}

void oq_policy_standby_stop(struct oq_policy_file *pf)
{
	if (!pf->standby_running)
		return;
	pthread_mutex_lock(&pf->use_lock);
	pf->standby_stop = true;
	pthread_cond_signal(&pf->standby_wake);
	pthread_mutex_unlock(&pf->use_lock);
	pthread_join(pf->standby, NULL);
	pthread_cond_destroy(&pf->standby_wake);
	pf->standby_running = false;
}
