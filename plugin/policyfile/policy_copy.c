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
 * osmqos-only intent keys, commented out (oq_policy_opensm_copy) -- unless
 * OpenSM's parser would read those bytes otherwise than osmqos does (a
 * quoted node-type, a name that is one of its keywords): then it is the
 * policy written again in the form OpenSM reads as meant (oq_stock_copy).
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
#include <osmqos/stock.h>

#include "policy_copy.h"

/* Only the SM (root) reads it: the operator's policy may be private. */
#define OQ_POLICY_COPY_MODE 0600

void oq_policy_copy_init(struct oq_policy_file *pf)
{
	char why[320];

	pf->operator_path = pf->osm->subn.opt.qos_policy_file;
	pf->copy_enabled = oq_plugin_opt_copy(pf->opts, why, sizeof(why));
	/* Temp files an opensm that died mid-write left, before any new
	 * one is written. */
	oq_file_replace_clean(oq_plugin_publish_dir(pf->opts),
			      OQ_POLICY_COPY_NAME);
	oq_file_replace_clean(oq_plugin_publish_dir(pf->opts), OQ_PUB_IN_FORCE);
	oq_file_replace_clean(oq_plugin_publish_dir(pf->opts),
			      OQ_POLICY_SOURCE_NAME);
	/* A bad value: logged at load with the other options' checks. */
}

void oq_policy_opensm_reads_operator(struct oq_policy_file *pf)
{
	const char *now = pf->osm->subn.opt.qos_policy_file;

	if (oq_policy_keep_opensm_off(pf))
		return;
	if ((pf->copy_path && now == pf->copy_path) ||
	    oq_policy_opensm_kept_off(pf))
		pf->osm->subn.opt.qos_policy_file = pf->operator_path;
}

/*
 * Each heavy sweep, before the policy file is read: in a publish
 * directory another user can write (policy_trust.c) that user could
 * rename a file of theirs over the copy between the plugin's check and
 * OpenSM's read, so OpenSM reads the operator's file itself there, as
 * with opensm_policy=direct, until the directory is closed again.  Said
 * when it changes.
 */
void oq_policy_copy_dir_check(struct oq_policy_file *pf)
{
	const char *dir = oq_plugin_publish_dir(pf->opts);
	char why[160], opt_why[320];
	bool open;

	if (pf->dir_shared)
		return;
	open = oq_policy_dir_open(dir, why, sizeof(why));
	if (open) {
		/* Also after reclaim_publish_dir turned the copy on. */
		pf->copy_enabled = false;
		oq_policy_opensm_reads_operator(pf);
		if (!pf->dir_open)
			OQ_LOG(pf->osm, OSM_LOG_ERROR,
			       "publish directory %s %s: another user could "
			       "choose the policy in force there, so OpenSM "
			       "reads %s itself (no copy) and no policy in "
			       "force before a start is put back from it; "
			       "make %s writable by its owner only (chmod "
			       "go-w, or chmod +t) or set publish_dir= to "
			       "such a directory\n",
			       dir, why,
			       pf->operator_path ? pf->operator_path
						 : "its policy file",
			       dir);
	} else if (pf->dir_open) {
		pf->copy_enabled =
			oq_plugin_opt_copy(pf->opts, opt_why, sizeof(opt_why));
		/* Written at this sweep's refresh, as after a failed write. */
		pf->copy_failed = pf->copy_enabled;
		OQ_LOG(pf->osm, OSM_LOG_INFO,
		       "publish directory %s is no longer open to other "
		       "users%s\n",
		       dir,
		       pf->copy_enabled ? ": OpenSM reads its policy copy"
					: "");
	}
	pf->dir_open = open;
}

/* At unload: OpenSM's own string again, before ours are freed. */
static void give_opensm_its_path(struct oq_policy_file *pf)
{
	const char *now = pf->osm->subn.opt.qos_policy_file;

	if ((pf->copy_path && now == pf->copy_path) ||
	    oq_policy_opensm_kept_off(pf))
		pf->osm->subn.opt.qos_policy_file = pf->operator_path;
}

/* opensm_policy=direct: OpenSM reads the operator's bytes, and its lexer
 * rejects blanks osmqos takes (opensm_text.c).  Said once per policy. */
static void warn_direct(struct oq_policy_file *pf, const struct oq_policy *p,
			const char *path)
{
	const char *text = p->text;
	size_t len = p->text_len, i;

	for (i = 0; i < len; i++)
		if (text[i] == '\r' || text[i] == '\f' || text[i] == '\v')
			break;
	if (i == len)
		return;
	OQ_LOG(pf->osm, OSM_LOG_ERROR,
	       "policy %s has %s; OpenSM's own parser rejects that (ERR "
	       "AC03) and runs without its policy, while osmqos applies "
	       "it: convert the file (sed -i 's/\\r$//' FILE for CRLF) or "
	       "drop opensm_policy=direct\n",
	       path,
	       text[i] == '\r' ? "CR line ends"
			       : "form feeds or vertical tabs");
}

/* The copy's text: OpenSM's lexer knows fewer blanks than osmqos, none
 * of its extension keys, and reads some constructs otherwise
 * (stock_copy.c).  NULL with why set, *unreadable when no form of the
 * policy is read by OpenSM as osmqos reads it. */
static char *copy_text(struct oq_policy_file *pf, const struct oq_policy *p,
		       const char *path, size_t *len, bool *unreadable,
		       char *why, size_t why_len)
{
	enum oq_stock_copy_form form;
	char finding[384];
	char *text = oq_stock_copy(p, len, &form, finding, sizeof(finding));
	bool tell = pf->copy_form_hash != pf->cur->hash;

	*unreadable = !text && *finding;
	if (!text) {
		snprintf(why, why_len,
			 *unreadable ? "OpenSM's own parser would not read the "
				       "policy as osmqos does, as written or "
				       "written again: %s"
				     : "no memory for its text%s",
			 *unreadable ? finding : "");
		return NULL;
	}
	if (form == OQ_COPY_REWRITTEN && tell)
		OQ_LOG(pf->osm, OSM_LOG_INFO,
		       "OpenSM's own parser would read policy %s otherwise "
		       "than osmqos (%s): OpenSM reads it written again in the "
		       "form it takes, %s, whose line numbers are not the "
		       "file's; write that construct as osmqos check "
		       "suggests\n",
		       path, finding, pf->copy_path);
	pf->copy_form_hash = pf->cur->hash;
	return text;
}

/*
 * After a policy was installed, or while the last write failed: write
 * text (the content of the policy in force) as OpenSM's copy and point
 * OpenSM at it.  Runs in the sweeper thread before osm_qos_setup, which
 * parses the copy in the same sweep: unlike the published files it
 * cannot wait for the publisher's thread, so storage that takes no
 * writes stalls the SM here (docs/publish.md, "Storage that stops
 * answering"; osmqos doctor warns about network storage).
 */
void oq_policy_copy_update(struct oq_policy_file *pf, const struct oq_policy *p,
			   const char *path)
{
	const char *dir = oq_plugin_publish_dir(pf->opts);
	char why[512], *opensm_text;
	bool unreadable = false;
	size_t len = 0;
	int err;

	if (!pf->copy_enabled) {
		warn_direct(pf, p, path);
		return;
	}
	if (!pf->copy_path) {
		size_t n = strlen(dir) + sizeof(OQ_POLICY_COPY_NAME) + 2;

		pf->copy_path = malloc(n);
		if (!pf->copy_path)
			return;
		snprintf(pf->copy_path, n, "%s/%s", dir, OQ_POLICY_COPY_NAME);
	}
	opensm_text =
		copy_text(pf, p, path, &len, &unreadable, why, sizeof(why));
	if (opensm_text) {
		err = oq_file_replace_text(dir, OQ_POLICY_COPY_NAME,
					   OQ_POLICY_COPY_MODE, opensm_text,
					   len, why, sizeof(why));
		free(opensm_text);
	} else {
		err = unreadable ? EINVAL : ENOMEM;
	}
	if (err) {
		bool keep =
			(p->n_ext_lines || unreadable) && pf->copy_path &&
			pf->osm->subn.opt.qos_policy_file == pf->copy_path &&
			oq_file_id_same(pf->copy_path, &pf->copy_id);

		/* An older copy must not outlive the policy in force --
		 * unless OpenSM cannot parse the policy in force (intent
		 * keys, or a construct it reads otherwise): reading the
		 * operator's file it would run without any policy of its
		 * own, or another one. */
		if (!keep)
			oq_policy_opensm_reads_operator(pf);
		if (unreadable) {
			/* Said once per policy, never retried: the same
			 * policy gives the same text. */
			if (pf->copy_form_hash != pf->cur->hash)
				OQ_LOG(pf->osm, OSM_LOG_ERROR,
				       "policy %s: %s; OpenSM %s until it "
				       "changes: write that construct as "
				       "osmqos check %s suggests\n",
				       path, why,
				       keep ? "keeps reading the previous "
					      "copy"
					    : "reads the file itself",
				       path);
			pf->copy_form_hash = pf->cur->hash;
			pf->copy_failed = false;
			return;
		}
		if (keep && (!pf->copy_failed || pf->copy_errno != err))
			OQ_LOG(pf->osm, OSM_LOG_ERROR,
			       "cannot write %s: %s (%s); OpenSM keeps reading "
			       "the previous copy until this works (the policy "
			       "in force has bandwidth intents, which OpenSM's "
			       "own parser would reject)\n",
			       pf->copy_path, why, strerror(err));
		else if (!pf->copy_failed || pf->copy_errno != err)
			OQ_LOG(pf->osm, OSM_LOG_ERROR,
			       "cannot write %s: %s (%s); OpenSM reads %s "
			       "itself until this works, %s\n",
			       pf->copy_path, why, strerror(err),
			       pf->operator_path ? pf->operator_path : "(none)",
			       p->n_ext_lines
				       ? "and rejects it (bandwidth intents "
					 "are "
					 "osmqos keys): OpenSM runs without a "
					 "policy of its own"
				       : "so a bad edit drops OpenSM's own "
					 "policy");
		pf->copy_failed = true;
		pf->copy_errno = err;
		return;
	}
	oq_file_id_take(pf->copy_path, &pf->copy_id);
	if (pf->osm->subn.opt.qos_policy_file != pf->copy_path) {
		pf->osm->subn.opt.qos_policy_file = pf->copy_path;
		OQ_LOG(pf->osm, OSM_LOG_INFO,
		       "OpenSM now reads the last good policy from %s, so "
		       "a bad edit of %s changes nothing (set "
		       "opensm_policy=direct to let it read the file "
		       "itself)\n",
		       pf->copy_path,
		       pf->operator_path ? pf->operator_path : "(none)");
	}
	pf->copy_failed = false;
}

bool oq_policy_copy_pending(const struct oq_policy_file *pf)
{
	return pf->copy_enabled && pf->copy_failed;
}

bool oq_policy_copy_changed(struct oq_policy_file *pf)
{
	struct stat st;
	const char *what;

	if (!pf->copy_path ||
	    pf->osm->subn.opt.qos_policy_file != pf->copy_path)
		return false;
	/* The common case first: one lstat per sweep. */
	if (oq_file_id_same(pf->copy_path, &pf->copy_id))
		return false;
	if (lstat(pf->copy_path, &st))
		return true; /* removed (a cache cleaner): rewritten quietly */
	/* OpenSM would block the sweep on a FIFO, exit on a directory, and
	 * parse an edit osmqos never checked. */
	what = S_ISDIR(st.st_mode)    ? "was replaced by a directory"
	       : S_ISFIFO(st.st_mode) ? "was replaced by a FIFO"
	       : S_ISLNK(st.st_mode)  ? "was replaced by a symlink"
	       : !S_ISREG(st.st_mode) ? "was replaced by a special file"
				      : "was edited";
	OQ_LOG(pf->osm, OSM_LOG_ERROR,
	       "OpenSM's copy of the policy %s %s, not by osmqos; osmqos "
	       "writes it again from the policy in force before OpenSM reads "
	       "it, or points OpenSM at %s while it cannot (edit that file "
	       "instead: osmqos owns the copy)\n",
	       pf->copy_path, what,
	       pf->operator_path ? pf->operator_path : "the policy file");
	return true;
}

void oq_policy_copy_fini(struct oq_policy_file *pf)
{
	size_t i;

	give_opensm_its_path(pf);
	free(pf->copy_path);
	pf->copy_path = NULL;
	for (i = 0; i < OQ_NONE_DIRS; i++) {
		free(pf->none_paths[i]);
		pf->none_paths[i] = NULL;
	}
}
