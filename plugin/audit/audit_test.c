// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The audit writer's test seams (audit_test.h): built into a library for
 * the unit tests only, never into the plugin.
 */
#include <pthread.h>
#include <stdatomic.h>

#include "audit_int.h"
#include "audit_test.h"

void oq_audit_test_pause(struct oq_audit *w, bool paused)
{
	pthread_mutex_lock(&w->lock);
	w->paused = paused;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
}

void oq_audit_test_fail_writes(struct oq_audit *w, int err)
{
	atomic_store(&w->fail_errno, err);
}

void oq_audit_test_follow_path(struct oq_audit *w, bool follow)
{
	atomic_store(&w->no_path_check, !follow);
}

void oq_audit_test_reopen(struct oq_audit *w)
{
	pthread_mutex_lock(&w->lock);
	atomic_store(&w->reopen_req, true);
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
}
