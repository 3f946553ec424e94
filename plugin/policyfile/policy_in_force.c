// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The policy in force as the operator wrote it, byte for byte (intent keys
 * included), in the publish directory: after a bad edit the operator's
 * file no longer holds it, and OpenSM's copy has the intents commented
 * out, so `osmqos drift`, `plan` and `status` read this one.  Its FNV-1a
 * hash is the one the published files and the audit trail carry.  Written
 * whatever opensm_policy= says.  Next to it, OQ_POLICY_SOURCE_NAME says
 * which policy file it was read from: a start that puts it in force
 * again (policy_file.c) publishes that, since the file at the path may
 * never have held it.
 *
 * The SM thread only posts it; the publisher's thread writes it, with the
 * publication of the sweep that put it in force (so it is never newer
 * than osmqos_policy_info but while that publication is being written),
 * and writes it again at its ticks when a write failed or something
 * removed or changed the file (a cache cleaner).  A copy that cannot be
 * written is removed with its source line: a restart must never put back
 * a policy that is no longer in force.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <osmqos/file.h>

#include "policy_file.h"

/* As OpenSM's copy: only the SM (root) reads it. */
#define OQ_IN_FORCE_MODE 0600

/* A policy to write: its text, hash and the file it was read from. */
struct oq_in_force {
	char *text;
	size_t len;
	uint64_t hash;
	char *written_for; /* NULL: not known */
};

static void in_force_free(struct oq_in_force *f)
{
	if (!f)
		return;
	free(f->text);
	free(f->written_for);
	free(f);
}

bool oq_policy_in_force_pending(const struct oq_policy_file *pf)
{
	return pf->in_force_failed;
}

void oq_policy_in_force_update(struct oq_policy_file *pf,
			       const struct oq_policy *p,
			       const char *written_for)
{
	struct oq_in_force *f = calloc(1, sizeof(*f)), *old;

	if (f) {
		f->text = malloc(p->text_len ? p->text_len : 1);
		f->written_for = written_for ? strdup(written_for) : NULL;
	}
	if (!f || !f->text || (written_for && !f->written_for)) {
		in_force_free(f);
		OQ_LOG(pf->osm, OSM_LOG_ERROR,
		       "out of memory writing %s; tried again next sweep\n",
		       OQ_PUB_IN_FORCE);
		pf->in_force_failed = true;
		return;
	}
	memcpy(f->text, p->text, p->text_len);
	f->len = p->text_len;
	f->hash = pf->hash;
	pthread_mutex_lock(&pf->lock);
	old = pf->in_force_post;
	pf->in_force_post = f;
	pthread_mutex_unlock(&pf->lock);
	/* Superseded before it was written: the newer one is in force. */
	in_force_free(old);
	pf->in_force_failed = false;
}

/* The source line, "0xHASH PATH": best effort (a start without it says
 * it does not know the file), a path with a line end is not written.
 * One that cannot be written is removed: it would name another copy. */
static void write_source(struct oq_policy_file *pf, const char *dir,
			 const struct oq_in_force *f)
{
	char line[4200], path[4096], why[512];
	int n;

	n = f->written_for && !strchr(f->written_for, '\n')
		    ? snprintf(line, sizeof(line), "0x%016" PRIx64 " %s\n",
			       f->hash, f->written_for)
		    : -1;
	if (n >= 0 && n < (int)sizeof(line) &&
	    !oq_file_replace_text(dir, OQ_POLICY_SOURCE_NAME, OQ_IN_FORCE_MODE,
				  line, (size_t)n, why, sizeof(why)))
		return;
	if (snprintf(path, sizeof(path), "%s/%s", dir, OQ_POLICY_SOURCE_NAME) <
	    (int)sizeof(path))
		unlink(path);
}

/* The write failed (err, why): the copy there is an older policy's, or
 * none.  Removed (unlink works on a full disk) so that a restart meanwhile
 * puts back no policy that is not in force; said once per errno. */
static void write_failed(struct oq_policy_file *pf, const char *dir, int err,
			 const char *why)
{
	const char *names[] = {OQ_PUB_IN_FORCE, OQ_POLICY_SOURCE_NAME};
	char path[4096], gone[160] = "";
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (snprintf(path, sizeof(path), "%s/%s", dir, names[i]) <
			    (int)sizeof(path) &&
		    unlink(path) && errno != ENOENT && !*gone)
			snprintf(gone, sizeof(gone),
				 "; the older copy there cannot be removed "
				 "either (%s): a restart before this works "
				 "puts that older policy back in force",
				 strerror(errno));
	pf->in_force_written = false;
	if (pf->in_force_errno == err)
		return;
	pf->in_force_errno = err;
	OQ_LOG(pf->osm, OSM_LOG_ERROR,
	       "cannot write %s/%s: %s (%s); no copy of the policy in force "
	       "is left there, so a restart meanwhile puts back no policy "
	       "(osmqos drift and plan need --policy, osmqos status exits "
	       "1)%s; written again every publish_interval= seconds and at "
	       "each publication until this works\n",
	       dir, OQ_PUB_IN_FORCE, why, strerror(err), gone);
}

void oq_policy_in_force_write(struct oq_policy_file *pf, bool take_new)
{
	const char *dir = oq_plugin_publish_dir(pf->opts);
	struct oq_in_force *f = NULL;
	char why[512], path[4096];
	int err;

	if (take_new) {
		pthread_mutex_lock(&pf->lock);
		f = pf->in_force_post;
		pf->in_force_post = NULL;
		pthread_mutex_unlock(&pf->lock);
	}
	if (snprintf(path, sizeof(path), "%s/%s", dir, OQ_PUB_IN_FORCE) >=
	    (int)sizeof(path))
		return;
	if (f) {
		in_force_free(pf->in_force_cur);
		pf->in_force_cur = f;
	} else if (!pf->in_force_cur ||
		   (pf->in_force_written &&
		    oq_file_id_same(path, &pf->in_force_id))) {
		/* Nothing new, and what is there is what was written. */
		return;
	}
	f = pf->in_force_cur;
	err = oq_file_replace_text(dir, OQ_PUB_IN_FORCE, OQ_IN_FORCE_MODE,
				   f->text, f->len, why, sizeof(why));
	if (err) {
		write_failed(pf, dir, err, why);
		return;
	}
	write_source(pf, dir, f);
	if (pf->in_force_errno)
		OQ_LOG(pf->osm, OSM_LOG_INFO, "writing %s/%s works again\n",
		       dir, OQ_PUB_IN_FORCE);
	pf->in_force_errno = 0;
	pf->in_force_written = true;
	oq_file_id_take(path, &pf->in_force_id);
}

void oq_policy_in_force_forget(struct oq_policy_file *pf)
{
	in_force_free(pf->in_force_cur);
	pf->in_force_cur = NULL;
	pf->in_force_written = false;
}

void oq_policy_in_force_fini(struct oq_policy_file *pf)
{
	in_force_free(pf->in_force_post);
	in_force_free(pf->in_force_cur);
	pf->in_force_post = pf->in_force_cur = NULL;
}
