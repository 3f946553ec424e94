// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * OpenSM re-parses qos_policy_file itself in every sweep (osm_qos_setup),
 * for the requests it still answers (multicast, off-subnet, enable_quirks)
 * and its own template pass.  Reading the operator's file directly it
 * drops its policy on every bad edit, blocks the sweep under the exclusive
 * lock when the path is a FIFO and exits when it is a directory (flex's
 * "input in flex scanner failed").  So once osmqos has a good policy,
 * OpenSM reads a copy of the bytes that policy came from, written next to
 * the published files; a bad edit then changes nothing for either.  The
 * copy differs only in blanks OpenSM's lexer does not know and in the
 * osmqos-only intent keys, commented out (oq_policy_opensm_copy).
 *
 * opt.qos_policy_file is swapped, never freed while OpenSM runs: the
 * console may print it from another thread.  The operator's string is
 * kept and put back at unload (before osm_subn_destroy frees it).
 * opensm_policy=direct turns all of this off.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <osmqos/file.h>

#include "plugin.h"

/* Only the SM (root) reads it: the operator's policy may be private. */
#define OQ_POLICY_COPY_MODE 0600

struct copy_text {
	const char *text;
	size_t len;
};

static int write_text(FILE *out, const void *ctx)
{
	const struct copy_text *t = ctx;

	return fwrite(t->text, 1, t->len, out) == t->len ? 0 : -1;
}

void oq_policy_copy_init(struct osmqos *q)
{
	const char *mode = q->opts.opensm_policy;

	q->pf.operator_path = q->osm->subn.opt.qos_policy_file;
	q->pf.copy_enabled = true;
	if (!mode || !strcmp(mode, "copy"))
		return;
	if (!strcmp(mode, "direct")) {
		q->pf.copy_enabled = false;
		return;
	}
	OQ_LOG(q, OSM_LOG_ERROR,
	       "event_plugin_options: opensm_policy=%s is neither 'copy' nor "
	       "'direct'; using copy\n",
	       mode);
}

/* OpenSM reads the operator's file again (stock behaviour). */
static void point_opensm_at_operator(struct osmqos *q)
{
	if (q->pf.copy_path &&
	    q->osm->subn.opt.qos_policy_file == q->pf.copy_path)
		q->osm->subn.opt.qos_policy_file = q->pf.operator_path;
}

/* opensm_policy=direct: OpenSM reads the operator's bytes, and its lexer
 * rejects blanks osmqos takes (opensm_text.c).  Said once per policy. */
static void warn_direct(struct osmqos *q, const struct oq_policy *p)
{
	const char *text = p->text;
	size_t len = p->text_len, i;

	for (i = 0; i < len; i++)
		if (text[i] == '\r' || text[i] == '\f' || text[i] == '\v')
			break;
	if (i == len)
		return;
	OQ_LOG(q, OSM_LOG_ERROR,
	       "policy %s has %s; OpenSM's own parser rejects that (ERR "
	       "AC03) and runs without its policy, while osmqos applies "
	       "it: convert the file (sed -i 's/\\r$//' FILE for CRLF) or "
	       "drop opensm_policy=direct\n",
	       oq_policy_file_path(q),
	       text[i] == '\r' ? "CR line ends" : "form feeds or vertical tabs");
}

/*
 * After a policy was installed, or while the last write failed: write
 * text (the content of the policy in force) as OpenSM's copy and point
 * OpenSM at it.  Runs in the sweeper thread before osm_qos_setup.
 */
void oq_policy_copy_update(struct osmqos *q, const struct oq_policy *p)
{
	const char *dir = oq_plugin_publish_dir(&q->opts);
	struct copy_text t = { NULL, 0 };
	char why[512], *opensm_text;
	int err;

	if (!q->pf.copy_enabled) {
		warn_direct(q, p);
		return;
	}
	if (!q->pf.copy_path) {
		size_t n = strlen(dir) + sizeof(OQ_POLICY_COPY_NAME) + 2;

		q->pf.copy_path = malloc(n);
		if (!q->pf.copy_path)
			return;
		snprintf(q->pf.copy_path, n, "%s/%s", dir,
			 OQ_POLICY_COPY_NAME);
	}
	/* OpenSM's lexer knows fewer blanks than osmqos, and none of its
	 * extension keys (opensm_text.c). */
	opensm_text = oq_policy_opensm_copy(p, &t.len);
	t.text = opensm_text;
	if (opensm_text) {
		err = oq_file_replace(dir, OQ_POLICY_COPY_NAME,
				      OQ_POLICY_COPY_MODE, write_text, &t, why,
				      sizeof(why));
		free(opensm_text);
	} else {
		err = ENOMEM;
		snprintf(why, sizeof(why), "no memory for its text");
	}
	if (err) {
		bool keep =
			p->n_ext_lines && q->pf.copy_path &&
			q->osm->subn.opt.qos_policy_file == q->pf.copy_path &&
			!oq_policy_copy_missing(q);

		/* An older copy must not outlive the policy in force --
		 * unless the policy in force has intent keys, which OpenSM
		 * cannot parse: reading the operator's file it would run
		 * without any policy of its own. */
		if (!keep)
			point_opensm_at_operator(q);
		if (keep && (!q->pf.copy_failed || q->pf.copy_errno != err))
			OQ_LOG(q, OSM_LOG_ERROR,
			       "cannot write %s: %s (%s); OpenSM keeps reading "
			       "the previous copy until this works (the policy "
			       "in force has bandwidth intents, which OpenSM's "
			       "own parser would reject)\n",
			       q->pf.copy_path, why, strerror(err));
		else if (!q->pf.copy_failed || q->pf.copy_errno != err)
			OQ_LOG(q, OSM_LOG_ERROR,
			       "cannot write %s: %s (%s); OpenSM reads %s "
			       "itself until this works, %s\n",
			       q->pf.copy_path, why, strerror(err),
			       q->pf.operator_path ? q->pf.operator_path
						   : "(none)",
			       p->n_ext_lines
				       ? "and rejects it (bandwidth intents "
					 "are "
					 "osmqos keys): OpenSM runs without a "
					 "policy of its own"
				       : "so a bad edit drops OpenSM's own "
					 "policy");
		q->pf.copy_failed = true;
		q->pf.copy_errno = err;
		return;
	}
	if (q->osm->subn.opt.qos_policy_file != q->pf.copy_path) {
		q->osm->subn.opt.qos_policy_file = q->pf.copy_path;
		OQ_LOG(q, OSM_LOG_INFO,
		       "OpenSM now reads the last good policy from %s, so "
		       "a bad edit of %s changes nothing (set "
		       "opensm_policy=direct to let it read the file "
		       "itself)\n",
		       q->pf.copy_path,
		       q->pf.operator_path ? q->pf.operator_path : "(none)");
	}
	q->pf.copy_failed = false;
}

bool oq_policy_copy_pending(const struct osmqos *q)
{
	return q->pf.copy_enabled && q->pf.copy_failed;
}

bool oq_policy_copy_missing(const struct osmqos *q)
{
	struct stat st;

	return q->pf.copy_path &&
	       q->osm->subn.opt.qos_policy_file == q->pf.copy_path &&
	       lstat(q->pf.copy_path, &st) && errno == ENOENT;
}

void oq_policy_copy_fini(struct osmqos *q)
{
	if (q->pf.copy_path &&
	    q->osm->subn.opt.qos_policy_file == q->pf.copy_path)
		q->osm->subn.opt.qos_policy_file = q->pf.operator_path;
	free(q->pf.copy_path);
	q->pf.copy_path = NULL;
}
