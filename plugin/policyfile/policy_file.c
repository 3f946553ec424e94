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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <osmqos/file.h>
#include <osmqos/htab.h>

#include "policy_copy.h"
#include "policy_file.h"

/* policy=, else the qos_policy_file OpenSM was configured with (not the
 * copy policy_copy.c may have pointed it at since), made absolute at
 * load: the name published is the file read, wherever it is read from. */
const char *oq_policy_file_path(const struct oq_policy_file *pf)
{
	const char *p = pf->opts->policy ? pf->opts->policy : pf->operator_path;

	if (pf->path_abs)
		return pf->path_abs;
	return p && *p ? p : NULL;
}

static void log_diags(struct oq_policy_file *pf, const struct oq_diags *d,
		      osm_log_level_t err_level)
{
	char line[1024];
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct oq_diag *g = &d->v[i];
		osm_log_level_t lvl =
			g->sev == OQ_SEV_ERROR ? err_level : OSM_LOG_INFO;

		oq_diag_format(g, line, sizeof(line));
		OQ_LOG(pf->osm, lvl, "%s\n", line);
		if (g->hint)
			OQ_LOG(pf->osm, lvl, "  hint: %s\n", g->hint);
	}
}

/* The pointer is read under the lock; a reference is counted
 * atomically, so a state dropping its policy needs no lock. */
struct oq_policy_ref *oq_policy_ref_get(struct oq_policy_file *pf)
{
	struct oq_policy_ref *r;

	pthread_mutex_lock(&pf->lock);
	r = pf->cur;
	if (r)
		__atomic_add_fetch(&r->refs, 1, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&pf->lock);
	return r;
}

void oq_policy_ref_put(struct oq_policy_ref *r)
{
	if (r && __atomic_sub_fetch(&r->refs, 1, __ATOMIC_ACQ_REL) == 0) {
		oq_policy_free(r->p);
		free(r);
	}
}

/* Takes p and text, the bytes p came from (freed: p keeps its own copy,
 * which OpenSM's copy is written from). */
static void install(struct oq_policy_file *pf, struct oq_policy *p,
		    uint64_t hash, char *text)
{
	struct oq_policy_ref *r = calloc(1, sizeof(*r)), *old;

	if (!r) {
		oq_policy_free(p);
		free(text);
		OQ_LOG(pf->osm, OSM_LOG_ERROR,
		       "out of memory; keeping the previous policy\n");
		return;
	}
	r->p = p;
	r->refs = 1;
	r->hash = hash;
	r->loaded_at = time(NULL);
	free(pf->restored_from);
	free(pf->restored_for);
	pf->restored_from = pf->restored_for = NULL;
	pthread_mutex_lock(&pf->lock);
	old = pf->cur;
	pf->cur = r;
	pthread_mutex_unlock(&pf->lock);
	oq_policy_ref_put(old);
	pf->hash = hash;
	pf->loaded_at = r->loaded_at;
	pf->loads_ok++;
	pf->bad_reported = false;
	pf->content_ok = true;
	free(text);
}

/* The last rejected content, published until a later one loads: path,
 * hash (0 when the file could not be read), when; rej_error is set by the
 * caller. */
static void record_rejection(struct oq_policy_file *pf, const char *path,
			     uint64_t hash)
{
	if (!pf->rej_path || strcmp(pf->rej_path, path)) {
		char *copy = strdup(path);

		if (copy) {
			free(pf->rej_path);
			pf->rej_path = copy;
		}
	}
	pf->rejected = true;
	pf->rej_at = time(NULL);
	pf->bad_hash = hash;
	pf->loads_failed++;
}

static int restore_in_force(struct oq_policy_file *pf, const char *path);

/* A content that was refused (and logged): remembered, so the same bytes
 * are not parsed and logged again every sweep, and published (path, hash,
 * when, why: the first error of d, else why; fix: what to do when that is
 * not to fix the content, else NULL). */
static int refuse(struct oq_policy_file *pf, struct oq_diags *d,
		  struct oq_policy *p, char *text, uint64_t hash,
		  const char *path, const char *why, const char *fix)
{
	size_t i;

	pf->rej_error[0] = '\0';
	snprintf(pf->rej_fix, sizeof(pf->rej_fix), "%s", fix ? fix : "");
	pf->rej_no_copy = false;
	for (i = 0; i < d->n; i++)
		if (d->v[i].sev == OQ_SEV_ERROR) {
			oq_diag_format(&d->v[i], pf->rej_error,
				       sizeof(pf->rej_error));
			break;
		}
	if (!pf->rej_error[0])
		snprintf(pf->rej_error, sizeof(pf->rej_error), "%s: %s", path,
			 why);
	record_rejection(pf, path, hash);
	oq_diags_free(d);
	oq_policy_free(p);
	free(text);
	pf->bad_reported = true;
	return restore_in_force(pf, path);
}

/* Parse and validate text (taken); NULL with d's errors when it is not a
 * policy the plugin can put in force (logged by the caller). */
static struct oq_policy *parse_policy(struct oq_policy_file *pf,
				      const char *path, char *text, size_t len,
				      struct oq_diags *d)
{
	struct oq_policy *p = oq_policy_parse(path, text, len, d);

	if (p && !oq_diags_has_errors(d))
		oq_policy_validate(p, d);
	oq_diags_sort(d);
	if (p && !oq_diags_has_errors(d) &&
	    !(p->n_intent_levels && !pf->copy_enabled))
		return p;
	oq_policy_free(p);
	return NULL;
}

/* Whether a refusal now is followed by the try to put the policy in
 * force before the start back (restore_in_force). */
static bool restore_ahead(const struct oq_policy_file *pf)
{
	return !pf->cur && !pf->restore_tried && !pf->dir_shared &&
	       !pf->dir_open;
}

/* What a refusal leaves in force, for its log line. */
static const char *after_refusal(const struct oq_policy_file *pf)
{
	if (pf->cur)
		return "the last good policy stays in force";
	if (restore_ahead(pf))
		return "the policy in force before this start is put in "
		       "force again if osmqos wrote one (next line)";
	return "NO POLICY IN FORCE: the fabric stays on OpenSM's "
	       "per-port-type templates until the file is fixed";
}

/* The policy file the copy of the policy in force (hash) was written
 * for, from its source line; NULL when unknown (an older plugin wrote
 * the copy, or the line is of another copy or not the plugin's). */
static char *restored_for(struct oq_policy_file *pf, const char *dir,
			  uint64_t hash)
{
	char file[4096], why[160], *text, *sp, *nl, *end;
	size_t len = 0;
	uint64_t h;

	if (snprintf(file, sizeof(file), "%s/%s", dir, OQ_POLICY_SOURCE_NAME) >=
	    (int)sizeof(file))
		return NULL;
	text = oq_policy_read_own(file, 8192, &len, why, sizeof(why));
	if (!text)
		return NULL;
	h = strtoull(text, &end, 16);
	sp = end;
	nl = strchr(text, '\n');
	if (h != hash || *sp != ' ' || !nl || sp[1] == '\n') {
		free(text);
		return NULL;
	}
	*nl = '\0';
	memmove(text, sp + 1, strlen(sp + 1) + 1);
	return text;
}

/*
 * No policy yet, and the operator's file cannot be read or is refused:
 * an opensm restarted after a bad edit nobody noticed.  The policy that
 * was in force before the start, as the plugin wrote it to the publish
 * directory, is put in force again instead of leaving the fabric on
 * OpenSM's templates (once per start; 1 when it was) -- if the plugin
 * wrote it: another user's file there would choose the policy in force.
 */
static int restore_in_force(struct oq_policy_file *pf, const char *path)
{
	const char *dir = oq_plugin_publish_dir(pf->opts);
	bool bad_reported = pf->bad_reported;
	char file[4096], why[160], *text, *from, *wrote_for;
	struct oq_policy *p;
	struct oq_diags d;
	uint64_t hash;
	size_t len = 0;

	if (!restore_ahead(pf))
		return pf->cur ? 0 : -1;
	pf->restore_tried = true;
	if (snprintf(file, sizeof(file), "%s/%s", dir, OQ_PUB_IN_FORCE) >=
	    (int)sizeof(file))
		return -1;
	text = oq_policy_read_own(file, OQ_POLICY_MAX_BYTES, &len, why,
				  sizeof(why));
	if (!text && *why) {
		OQ_LOG(pf->osm, OSM_LOG_ERROR,
		       "%s is %s, not the policy in force osmqos wrote "
		       "before this start: it is not put in force (another "
		       "user may have written it); NO POLICY IN FORCE: the "
		       "fabric stays on OpenSM's per-port-type templates "
		       "until %s is fixed; remove %s, and make %s writable "
		       "by its owner only (chmod go-w)\n",
		       file, why, path, file, dir);
		return -1;
	}
	if (!text) {
		int err = errno;

		OQ_LOG(pf->osm, OSM_LOG_ERROR,
		       "no policy in force before this start to put in force "
		       "again (%s: %s): NO POLICY IN FORCE: the fabric stays "
		       "on OpenSM's per-port-type templates until %s is "
		       "fixed\n",
		       file,
		       oq_file_error(err, OQ_POLICY_MAX_BYTES, why,
				     sizeof(why)),
		       path);
		return -1;
	}
	hash = oq_fnv1a(text, len);
	oq_diags_init(&d);
	p = parse_policy(pf, file, text, len, &d);
	oq_diags_free(&d);
	if (!p) {
		free(text);
		OQ_LOG(pf->osm, OSM_LOG_ERROR,
		       "%s, the policy in force before this start, is no "
		       "longer a valid policy either: NO POLICY IN FORCE "
		       "until %s is fixed\n",
		       file, path);
		return -1;
	}
	wrote_for = restored_for(pf, dir, hash);
	from = strdup(file);
	OQ_LOG(pf->osm, OSM_LOG_ERROR,
	       "policy %s cannot be put in force (above): the policy in "
	       "force before this start, %s (hash 0x%016" PRIx64 ", written "
	       "for %s), is in force again until the file is fixed\n",
	       path, file, hash, wrote_for ? wrote_for : "a file not known");
	install(pf, p, hash, text);
	pf->restored_from = from;
	pf->restored_for = from ? wrote_for : NULL;
	if (!from)
		free(wrote_for);
	/* The operator's file is still not the policy in force, and its
	 * refusal was said. */
	pf->content_ok = false;
	pf->bad_reported = bad_reported;
	return 1;
}

/* A path that cannot exist (/dev/null is no directory) and that no user
 * but root can make exist: static, OpenSM may print it at any time. */
static char nowhere[] = "/dev/null/" OQ_POLICY_NONE_NAME;

/* A directory no user but this process's (or root) can put a name into;
 * the sticky bit does not stop another user creating a new one. */
static bool dir_private(const char *dir)
{
	struct stat st;

	return dir && *dir && !stat(dir, &st) && S_ISDIR(st.st_mode) &&
	       (st.st_uid == geteuid() || st.st_uid == 0) &&
	       !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* The name OpenSM reads instead of the operator's path: never one another
 * user could create (OpenSM would parse their file).  The publish
 * directory's when it is this opensm's and private, else OpenSM's cache
 * directory's when that is private, else one under /dev/null. */
static char *none_path_for(struct oq_policy_file *pf, bool *in_dir)
{
	const char *dirs[OQ_NONE_DIRS] = {oq_plugin_publish_dir(pf->opts),
					  oq_cache_dir()};
	const char *policy = oq_policy_file_path(pf);
	int where;
	size_t n;

	*in_dir = true;
	for (where = 0; where < OQ_NONE_DIRS; where++) {
		if ((where == OQ_NONE_PUBLISH && pf->dir_shared) ||
		    !dir_private(dirs[where]))
			continue;
		if (!pf->none_paths[where]) {
			n = strlen(dirs[where]) + sizeof(OQ_POLICY_NONE_NAME) +
			    2;
			pf->none_paths[where] = malloc(n);
			if (!pf->none_paths[where])
				continue;
			snprintf(pf->none_paths[where], n, "%s/%s", dirs[where],
				 OQ_POLICY_NONE_NAME);
		}
		/* Never the operator's policy file (it is removed). */
		if (!policy || !oq_file_same(pf->none_paths[where], policy))
			return pf->none_paths[where];
	}
	*in_dir = false;
	return nowhere;
}

bool oq_policy_opensm_kept_off(const struct oq_policy_file *pf)
{
	const char *now = pf->osm->subn.opt.qos_policy_file;
	size_t i;

	if (!now)
		return false;
	if (now == nowhere)
		return true;
	for (i = 0; i < OQ_NONE_DIRS; i++)
		if (pf->none_paths[i] && now == pf->none_paths[i])
			return true;
	return false;
}

/* Whatever policy= and opensm_policy= say, and wherever the publish
 * directory is, OpenSM reads its qos_policy_file (the operator's) while
 * it has no copy: when that is not a regular file its parser hangs (a
 * FIFO: in open(), deaf to SIGTERM) or exits (a directory), so it is
 * pointed at a name that does not exist, which it reports and runs on
 * its templates (as with no file at all). */
bool oq_policy_keep_opensm_off(struct oq_policy_file *pf)
{
	const char *path = pf->operator_path;
	struct stat st;
	char *none;
	bool in_dir;

	if (!path || !*path)
		return false;
	if (stat(path, &st) || S_ISREG(st.st_mode)) {
		/* Fixed (or gone: OpenSM says so itself): its own again. */
		if (oq_policy_opensm_kept_off(pf))
			pf->osm->subn.opt.qos_policy_file = pf->operator_path;
		return false;
	}
	none = none_path_for(pf, &in_dir);
	/* Something made since (a cache cleaner's restore) is not parsed. */
	if (in_dir)
		unlink(none);
	if (pf->osm->subn.opt.qos_policy_file == none)
		return true;
	pf->osm->subn.opt.qos_policy_file = none;
	OQ_LOG(pf->osm, OSM_LOG_ERROR,
	       "OpenSM's parser hangs or exits on %s (not a regular file): "
	       "OpenSM reads %s, which does not exist, until %s is a "
	       "regular file again%s (it runs on its templates)\n",
	       path, none, path,
	       pf->copy_enabled ? " or OpenSM has a copy of the policy in "
				  "force"
				: "");
	return true;
}

/* The policy file could not be read (logged): published as the last
 * rejected edit, with no hash, until a content is loaded. */
static void record_unreadable(struct oq_policy_file *pf, const char *path,
			      const char *why)
{
	snprintf(pf->rej_error, sizeof(pf->rej_error), "%s: cannot read: %s",
		 path, why);
	pf->rej_fix[0] = '\0';
	pf->rej_no_copy = false;
	record_rejection(pf, path, 0);
}

/*
 * A valid policy with bandwidth intents while OpenSM gets no copy: OpenSM
 * would reject the file and run without its policy.  The cause and its
 * fix go to the log and, in the same words, to the published rejection,
 * which `osmqos status` shows: the content is valid (osmqos check says
 * so), the setup is what to change.
 */
static int refuse_no_copy(struct oq_policy_file *pf, struct oq_diags *d,
			  struct oq_policy *p, char *text, uint64_t hash,
			  const char *path)
{
	const char *cause, *fix;
	char why[256];
	int rc;

	if (pf->dir_shared) {
		cause = "OpenSM reads the file itself: the publish directory "
			"is another opensm's osmqos's";
		fix = "give this opensm its own publish_dir= and restart "
		      "opensm";
	} else if (pf->dir_open) {
		cause = "OpenSM reads the file itself: other users can write "
			"the publish directory";
		fix = "make the publish directory writable by its owner only "
		      "(chmod go-w), then kill -HUP opensm";
	} else {
		cause = "opensm_policy=direct lets OpenSM read the file itself";
		fix = "drop opensm_policy=direct and restart opensm";
	}
	OQ_LOG(pf->osm, OSM_LOG_ERROR,
	       "policy %s rejected: it states bandwidth intents (bandwidth:, "
	       "priority:), which OpenSM's own parser does not know, and %s; "
	       "%s (OpenSM then reads a copy with the intents commented "
	       "out); %s\n",
	       path, cause, fix, after_refusal(pf));
	snprintf(why, sizeof(why),
		 "it states bandwidth intents (bandwidth:, priority:), which "
		 "OpenSM's own parser does not know, and %s",
		 cause);
	rc = refuse(pf, d, p, text, hash, path, why, fix);
	pf->rej_no_copy = true;
	return rc;
}

/*
 * The policy file names a file the plugin writes (its copy for OpenSM, the
 * policy in force as written, a published document...): read, the
 * plugin's next write would replace the operator's policy (its intents
 * commented out, loaded at the next HUP).  Nothing is read from it, not
 * even the policy in force before the start (that would be written back
 * over it): no policy is in force until opensm is restarted with another
 * path.  Published as a rejection of the content, with what to do.
 */
static int refuse_clash(struct oq_policy_file *pf, const char *path)
{
	const char *opt = pf->opts->policy ? "policy=" : "qos_policy_file";
	size_t len = 0;
	char *text;

	pf->restore_tried = true;
	if (pf->clash_reported)
		return -1;
	pf->clash_reported = true;
	OQ_LOG(pf->osm, OSM_LOG_ERROR,
	       "%s names a file osmqos writes; copy it elsewhere and point "
	       "%s there, then restart opensm: %s is %s, so no policy is "
	       "read from it and osmqos does not write it; NO POLICY IN "
	       "FORCE: the fabric stays on OpenSM's per-port-type "
	       "templates\n",
	       opt, opt, path, pf->path_clash);
	/* Its hash, for status to tell this content from a later one. */
	text = oq_file_read(path, OQ_POLICY_MAX_BYTES, &len);
	snprintf(pf->rej_error, sizeof(pf->rej_error),
		 "%s: %s names %s, a file osmqos writes", path, opt,
		 pf->path_clash);
	snprintf(pf->rej_fix, sizeof(pf->rej_fix),
		 "copy it elsewhere, point %s there and restart opensm", opt);
	pf->rej_no_copy = false;
	record_rejection(pf, path, text ? oq_fnv1a(text, len) : 0);
	free(text);
	return -1;
}

/* The thread that reads it again (policy_standby.c) is told here, so
 * what links this file alone needs none of OpenSM's SM functions. */
void oq_policy_retry_soon(struct oq_policy_file *pf)
{
	pf->retry_due = true;
	if (pf->standby_running)
		pthread_cond_signal(&pf->standby_wake);
}

static int refresh(struct oq_policy_file *pf)
{
	const char *path = oq_policy_file_path(pf);
	struct oq_diags d;
	struct oq_policy *p;
	uint64_t hash;
	size_t len = 0, i, n_bw = 0, n_lat = 0;
	char *text, why[64], counts[256];

	pf->content_ok = false; /* until this content proves good */
	if (!path || !*path) {
		if (!pf->missing_reported)
			OQ_LOG(pf->osm, OSM_LOG_ERROR,
			       "no policy file: set qos_policy_file or "
			       "event_plugin_options policy=FILE\n");
		pf->missing_reported = true;
		return pf->cur ? 0 : -1;
	}
	if (pf->path_clash)
		return refuse_clash(pf, path);
	text = oq_policy_read_settled(pf, path, &len);
	if (!text && errno == EAGAIN) {
		/* Not an error: an edit in progress, taken once it is whole. */
		if (!pf->unsettled_reported)
			OQ_LOG(pf->osm, OSM_LOG_INFO,
			       "policy %s is being written (modified less "
			       "than %d ms before each of %d reads): not taken "
			       "now; %s; read again in a second (write a new "
			       "policy to a temporary file and rename it over "
			       "this one: a rename is never read half-"
			       "written)\n",
			       path, OQ_POLICY_SETTLE_MS,
			       OQ_POLICY_SETTLE_ROUNDS + 1,
			       pf->cur ? "the last good policy stays in force"
				       : "no policy is in force until then");
		pf->unsettled_reported = true;
		oq_policy_retry_soon(pf);
		return pf->cur ? 0 : -1;
	}
	if (!text) {
		/* Taken before any call that may change errno (logging). */
		int err = errno;
		/* Like OpenSM: no file at the default path is a normal setup
		 * (QoS from the templates alone), anything else an error.
		 * The default is config.h's, the one the CLI and the
		 * examples use (osm_base.h's depends on osm_config.h having
		 * been included before it). */
		bool quiet = err == ENOENT && !pf->opts->policy && !pf->cur &&
			     !strcmp(path, OQ_OSM_QOS_POLICY_FILE);

		/* Once per failure: a different one (removed, then too
		 * big) is news and logged again. */
		if (!pf->missing_reported || err != pf->read_errno) {
			const char *reason = oq_file_error(
				err, OQ_POLICY_MAX_BYTES, why, sizeof(why));

			OQ_LOG(pf->osm, quiet ? OSM_LOG_INFO : OSM_LOG_ERROR,
			       "cannot read policy %s: %s; %s\n", path, reason,
			       pf->cur ? "keeping the last good policy"
			       : quiet ? "fabric stays on OpenSM's templates"
				       : after_refusal(pf));
			/* Published like a rejected edit: the file no
			 * longer says what is in force. */
			if (!quiet)
				record_unreadable(pf, path, reason);
		}
		pf->missing_reported = true;
		pf->read_errno = err;
		return quiet ? -1 : restore_in_force(pf, path);
	}
	pf->missing_reported = false;
	hash = oq_fnv1a(text, len);
	if (pf->cur && hash == pf->hash) {
		free(text);
		pf->content_ok = true;
		/* A bad edit reverted: made again, it is news and logged. */
		pf->bad_reported = false;
		if (pf->restored_from) {
			/* The file holds the policy put back at the start:
			 * it is where the policy in force comes from now
			 * (the source line is written again). */
			free(pf->restored_from);
			free(pf->restored_for);
			pf->restored_from = pf->restored_for = NULL;
			pf->in_force_failed = true;
		}
		return 0;
	}
	/* The same bad content: reported already -- unless it was refused
	 * only because OpenSM got no copy, and now it does (the publish
	 * directory closed, or this opensm's again). */
	if (pf->bad_reported && hash == pf->bad_hash &&
	    !(pf->rej_no_copy && pf->copy_enabled)) {
		free(text);
		return pf->cur ? 0 : -1;
	}

	oq_diags_init(&d);
	p = oq_policy_parse(path, text, len, &d);
	if (p && !oq_diags_has_errors(&d))
		oq_policy_validate(p, &d);
	oq_diags_sort(&d);
	if (!p || oq_diags_has_errors(&d)) {
		log_diags(pf, &d, OSM_LOG_ERROR);
		OQ_LOG(pf->osm, OSM_LOG_ERROR,
		       "policy %s rejected (%zu errors); %s\n", path,
		       d.n_errors, after_refusal(pf));
		return refuse(pf, &d, p, text, hash, path, "rejected", NULL);
	}
	if (p->n_intent_levels && !pf->copy_enabled)
		return refuse_no_copy(pf, &d, p, text, hash, path);
	log_diags(pf, &d, OSM_LOG_ERROR); /* warnings, at INFO */
	oq_diags_free(&d);
	/* Counted as `osmqos check` counts (qos-ulps apart). */
	oq_policy_counts(p, counts, sizeof(counts));
	for (i = 0; i < p->n_levels; i++) {
		n_bw += p->levels[i].bandwidth_bp > 0;
		n_lat += p->levels[i].latency_ns != 0;
	}
	OQ_LOG(pf->osm, OSM_LOG_INFO,
	       "policy %s loaded: %s, %zu levels with an intent (%zu with "
	       "bandwidth:, %zu with latency:); hash 0x%016" PRIx64 "\n",
	       path, counts, p->n_intent_levels, n_bw, n_lat, hash);
	install(pf, p, hash, text);
	return 1;
}

/*
 * Returns 1 when a new policy took effect, 0 when nothing changed (or the
 * change was refused), -1 when there has never been a good policy.
 */
int oq_policy_file_refresh(struct oq_policy_file *pf)
{
	int rc;

	oq_policy_copy_dir_check(pf);
	rc = refresh(pf);

	/* The policy in force before the start is put in force again only
	 * at the start, whatever path its first read took. */
	pf->restore_tried = true;
	/* Without a copy OpenSM reads the operator's path. */
	if (!pf->cur || !pf->copy_enabled)
		oq_policy_keep_opensm_off(pf);

	/* OpenSM's copy: written for a new policy, retried after a failed
	 * write, rewritten when something removed, replaced or edited it. */
	if (pf->cur && (rc == 1 || oq_policy_copy_pending(pf) ||
			oq_policy_copy_changed(pf)))
		oq_policy_copy_update(pf, pf->cur->p, oq_policy_file_path(pf));
	/* The policy in force as written, for drift, plan and status. */
	if (pf->cur && !pf->dir_shared &&
	    (rc == 1 || oq_policy_in_force_pending(pf)))
		oq_policy_in_force_update(pf, pf->cur->p,
					  pf->restored_from
						  ? pf->restored_for
						  : oq_policy_file_path(pf));
	return rc;
}

void oq_policy_file_init(struct oq_policy_file *pf, osm_opensm_t *osm,
			 const struct oq_plugin_options *opts)
{
	pf->osm = osm;
	pf->opts = opts;
	pthread_mutex_init(&pf->lock, NULL);
	pthread_mutex_init(&pf->use_lock, NULL);
	oq_policy_copy_init(pf);
	if (!pf->opts->policy && pf->operator_path && *pf->operator_path &&
	    pf->operator_path[0] != '/') {
		pf->path_abs = oq_plugin_path_absolute(pf->operator_path);
		if (pf->path_abs)
			OQ_LOG(pf->osm, OSM_LOG_INFO,
			       "qos_policy_file %s is relative to opensm's "
			       "working directory: osmqos reads and publishes "
			       "it as %s\n",
			       pf->operator_path, pf->path_abs);
	}
}

void oq_policy_file_fini(struct oq_policy_file *pf)
{
	struct oq_policy_ref *r;

	pthread_mutex_lock(&pf->lock);
	r = pf->cur;
	pf->cur = NULL;
	pthread_mutex_unlock(&pf->lock);
	oq_policy_ref_put(r);
	oq_policy_in_force_fini(pf);
	oq_policy_copy_fini(pf);
	free(pf->rej_path);
	pf->rej_path = NULL;
	free(pf->restored_from);
	free(pf->restored_for);
	free(pf->path_abs);
	free(pf->opensm_path);
	pf->restored_from = pf->restored_for = pf->path_abs = NULL;
	pf->opensm_path = NULL;
	pthread_mutex_destroy(&pf->lock);
	pthread_mutex_destroy(&pf->use_lock);
}
