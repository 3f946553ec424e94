// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The policy file as the plugin sees it: re-read every heavy sweep, applied
 * only when it changed and is valid.  A bad edit is reported once, with the
 * same file:line:col diagnostics `osmqos check` prints, and the last good
 * policy stays in force; the fabric is never left without a policy once one
 * was good.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/file.h>
#include <osmqos/keyidx.h>

#include "plugin.h"

/* policy=, else the qos_policy_file OpenSM was configured with (not the
 * copy policy_copy.c may have pointed it at since). */
const char *oq_policy_file_path(const struct osmqos *q)
{
	const char *p = q->opts.policy ? q->opts.policy : q->pf.operator_path;

	return p && *p ? p : NULL;
}

static void log_diags(struct osmqos *q, const struct oq_diags *d,
		      osm_log_level_t err_level)
{
	char line[1024];
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct oq_diag *g = &d->v[i];
		osm_log_level_t lvl =
			g->sev == OQ_SEV_ERROR ? err_level : OSM_LOG_INFO;

		oq_diag_format(g, line, sizeof(line));
		OQ_LOG(q, lvl, "%s\n", line);
		if (g->hint)
			OQ_LOG(q, lvl, "  hint: %s\n", g->hint);
	}
}

struct oq_policy_ref *oq_policy_ref_get(struct osmqos *q)
{
	struct oq_policy_ref *r;

	pthread_mutex_lock(&q->state_lock);
	r = q->pf.cur;
	if (r)
		r->refs++;
	pthread_mutex_unlock(&q->state_lock);
	return r;
}

void oq_policy_ref_put(struct osmqos *q, struct oq_policy_ref *r)
{
	bool last;

	if (!r)
		return;
	pthread_mutex_lock(&q->state_lock);
	last = --r->refs == 0;
	pthread_mutex_unlock(&q->state_lock);
	if (last) {
		oq_policy_free(r->p);
		free(r);
	}
}

/* Takes p and text, the bytes p came from (freed: p keeps its own copy,
 * which OpenSM's copy is written from). */
static void install(struct osmqos *q, struct oq_policy *p, uint64_t hash,
		    char *text)
{
	struct oq_policy_ref *r = calloc(1, sizeof(*r)), *old;

	if (!r) {
		oq_policy_free(p);
		free(text);
		OQ_LOG(q, OSM_LOG_ERROR,
		       "out of memory; keeping the previous policy\n");
		return;
	}
	r->p = p;
	r->refs = 1;
	pthread_mutex_lock(&q->state_lock);
	old = q->pf.cur;
	q->pf.cur = r;
	pthread_mutex_unlock(&q->state_lock);
	oq_policy_ref_put(q, old);
	q->pf.hash = hash;
	q->pf.loaded_at = time(NULL);
	q->pf.loads_ok++;
	q->pf.bad_reported = false;
	q->pf.content_ok = true;
	free(text);
}

/* A content that was refused (and logged): remembered, so the same bytes
 * are not parsed and logged again every sweep. */
static int refuse(struct osmqos *q, struct oq_diags *d, struct oq_policy *p,
		  char *text, uint64_t hash)
{
	oq_diags_free(d);
	oq_policy_free(p);
	free(text);
	q->pf.bad_hash = hash;
	q->pf.bad_reported = true;
	q->pf.loads_failed++;
	return q->pf.cur ? 0 : -1;
}

static int refresh(struct osmqos *q)
{
	const char *path = oq_policy_file_path(q);
	struct oq_diags d;
	struct oq_policy *p;
	uint64_t hash;
	size_t len = 0;
	char *text, why[64], counts[256];

	q->pf.content_ok = false; /* until this content proves good */
	if (!path || !*path) {
		if (!q->pf.missing_reported)
			OQ_LOG(q, OSM_LOG_ERROR,
			       "no policy file: set qos_policy_file or "
			       "event_plugin_options policy=FILE\n");
		q->pf.missing_reported = true;
		return q->pf.cur ? 0 : -1;
	}
	text = oq_file_read(path, OQ_POLICY_MAX_BYTES, &len);
	if (!text) {
		/* Taken before any call that may change errno (logging). */
		int err = errno;
		/* Like OpenSM: no file at the default path is a normal setup
		 * (QoS from the templates alone), anything else an error. */
		bool quiet = err == ENOENT && !q->opts.policy && !q->pf.cur &&
			     !strcmp(path, OSM_DEFAULT_QOS_POLICY_FILE);

		/* Once per failure: a different one (removed, then too
		 * big) is news and logged again. */
		if (!q->pf.missing_reported || err != q->pf.read_errno)
			OQ_LOG(q, quiet ? OSM_LOG_INFO : OSM_LOG_ERROR,
			       "cannot read policy %s: %s; %s\n", path,
			       oq_file_error(err, OQ_POLICY_MAX_BYTES, why,
					     sizeof(why)),
			       q->pf.cur
				       ? "keeping the last good policy"
				       : "fabric stays on OpenSM's templates");
		q->pf.missing_reported = true;
		q->pf.read_errno = err;
		return q->pf.cur ? 0 : -1;
	}
	q->pf.missing_reported = false;
	hash = oq_fnv1a(text, len);
	if (q->pf.cur && hash == q->pf.hash) {
		free(text);
		q->pf.content_ok = true;
		/* A bad edit reverted: made again, it is news and logged. */
		q->pf.bad_reported = false;
		return 0;
	}
	if (q->pf.bad_reported && hash == q->pf.bad_hash) {
		free(text); /* the same bad content: reported already */
		return q->pf.cur ? 0 : -1;
	}

	oq_diags_init(&d);
	p = oq_policy_parse(path, text, len, &d);
	if (p && !oq_diags_has_errors(&d))
		oq_policy_validate(p, &d);
	oq_diags_sort(&d);
	if (!p || oq_diags_has_errors(&d)) {
		log_diags(q, &d, OSM_LOG_ERROR);
		OQ_LOG(q, OSM_LOG_ERROR,
		       "policy %s rejected (%zu errors); %s\n", path,
		       d.n_errors,
		       q->pf.cur ? "the last good policy stays in force"
				 : "NO POLICY IN FORCE: the fabric stays on "
				   "OpenSM's per-port-type templates until "
				   "the file is fixed");
		return refuse(q, &d, p, text, hash);
	}
	if (p->n_intent_levels && !q->pf.copy_enabled) {
		/* OpenSM would reject the file and run without its policy. */
		OQ_LOG(q, OSM_LOG_ERROR,
		       "policy %s rejected: it states bandwidth intents "
		       "(bandwidth:, priority:), which OpenSM's own parser "
		       "does not know, and opensm_policy=direct lets OpenSM "
		       "read the file itself; drop opensm_policy=direct "
		       "(OpenSM then reads a copy with the intents commented "
		       "out); %s\n",
		       path,
		       q->pf.cur ? "the last good policy stays in force"
				 : "NO POLICY IN FORCE: the fabric stays on "
				   "OpenSM's per-port-type templates");
		return refuse(q, &d, p, text, hash);
	}
	log_diags(q, &d, OSM_LOG_ERROR); /* warnings, at INFO */
	oq_diags_free(&d);
	/* Counted as `osmqos check` counts (qos-ulps apart). */
	oq_policy_counts(p, counts, sizeof(counts));
	OQ_LOG(q, OSM_LOG_INFO,
	       "policy %s loaded: %s, %zu levels with a bandwidth intent\n",
	       path, counts, p->n_intent_levels);
	install(q, p, hash, text);
	return 1;
}

/*
 * Returns 1 when a new policy took effect, 0 when nothing changed (or the
 * change was refused), -1 when there has never been a good policy.
 */
int oq_policy_file_refresh(struct osmqos *q)
{
	int rc = refresh(q);

	/* OpenSM's copy: written for a new policy, retried after a failed
	 * write, rewritten when something (a cache cleaner) removed it. */
	if (q->pf.cur &&
	    (rc == 1 || oq_policy_copy_pending(q) || oq_policy_copy_missing(q)))
		oq_policy_copy_update(q, q->pf.cur->p);
	return rc;
}

void oq_policy_file_free(struct osmqos *q)
{
	struct oq_policy_ref *r;

	pthread_mutex_lock(&q->state_lock);
	r = q->pf.cur;
	q->pf.cur = NULL;
	pthread_mutex_unlock(&q->state_lock);
	oq_policy_ref_put(q, r);
}
