// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The policy in force as the operator wrote it, byte for byte (intent keys
 * included), in the publish directory: after a bad edit the operator's
 * file no longer holds it, and OpenSM's copy has the intents commented
 * out, so `osmqos drift`, `plan` and `status` read this one.  Its FNV-1a
 * hash is the one the published files and the audit trail carry.  Written
 * whatever opensm_policy= says; rewritten when a write failed or the file
 * went away (a cache cleaner).  Next to it, OQ_POLICY_SOURCE_NAME says
 * which policy file it was read from: a start that puts it in force
 * again (policy_file.c) publishes that, since the file at the path may
 * never have held it.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <osmqos/file.h>

#include "policy_file.h"

/* As OpenSM's copy: only the SM (root) reads it. */
#define OQ_IN_FORCE_MODE 0600

bool oq_policy_in_force_pending(const struct oq_policy_file *pf)
{
	const char *dir = oq_plugin_publish_dir(pf->opts);
	char path[4096];

	if (pf->in_force_failed)
		return true;
	if (!pf->in_force_written)
		return false;
	/* Removed, replaced or edited since (drift --in-force and status
	 * would read another policy as the one in force): written again. */
	if (snprintf(path, sizeof(path), "%s/%s", dir, OQ_PUB_IN_FORCE) >=
	    (int)sizeof(path))
		return false;
	return !oq_file_id_same(path, &pf->in_force_id);
}

/* The source line, "0xHASH PATH": best effort (a start without it says
 * it does not know the file), a path with a line end is not written. */
static void write_source(struct oq_policy_file *pf, const char *written_for)
{
	const char *dir = oq_plugin_publish_dir(pf->opts);
	char line[4200], why[512];
	int n;

	if (!written_for || strchr(written_for, '\n'))
		return;
	n = snprintf(line, sizeof(line), "0x%016" PRIx64 " %s\n", pf->hash,
		     written_for);
	if (n < 0 || n >= (int)sizeof(line))
		return;
	oq_file_replace_text(dir, OQ_POLICY_SOURCE_NAME, OQ_IN_FORCE_MODE, line,
			     (size_t)n, why, sizeof(why));
}

void oq_policy_in_force_update(struct oq_policy_file *pf,
			       const struct oq_policy *p,
			       const char *written_for)
{
	const char *dir = oq_plugin_publish_dir(pf->opts);
	char why[512], path[4096];
	int err;

	err = oq_file_replace_text(dir, OQ_PUB_IN_FORCE, OQ_IN_FORCE_MODE,
				   p->text, p->text_len, why, sizeof(why));
	if (err) {
		if (!pf->in_force_failed || pf->in_force_errno != err)
			OQ_LOG(pf->osm, OSM_LOG_ERROR,
			       "cannot write %s/%s: %s (%s); osmqos drift and "
			       "plan cannot find the policy in force until "
			       "this works (give them --policy)\n",
			       dir, OQ_PUB_IN_FORCE, why, strerror(err));
		pf->in_force_failed = true;
		pf->in_force_errno = err;
		return;
	}
	write_source(pf, written_for);
	pf->in_force_failed = false;
	pf->in_force_written = true;
	if (snprintf(path, sizeof(path), "%s/%s", dir, OQ_PUB_IN_FORCE) <
	    (int)sizeof(path))
		oq_file_id_take(path, &pf->in_force_id);
}
