// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos status on a publish directory that holds no publication but the
 * copy of the policy the plugin would put in force.  Only the master
 * publishes; the osmqos of a standby SM writes that copy alone (it reads
 * the policy file every publish_interval= seconds and keeps the last good
 * one), and so has one whose opensm stopped before its first publication.
 * On a standby's host the question is which policy a failover would put
 * in force, and whether the policy file still holds it: that is said
 * here, with exit status 1 as for a stale publication.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/file.h>
#include <osmqos/json.h>

#include "cli.h"
#include "status.h"

static const char *const file_word[] = {
	[FILE_UNKNOWN] = "unknown",	[FILE_IN_FORCE] = "same",
	[FILE_REJECTED] = "edited",	[FILE_EDITED] = "edited",
	[FILE_MISSING] = "missing",	[FILE_RELATIVE] = "relative",
	[FILE_SPECIAL] = "not_regular",
};

/* The policy file now, against the copy, in words (text output). */
static void print_file(const struct st *s)
{
	if (!s->path) {
		printf("policy file: not known (%s/" OQ_PUB_IN_FORCE_SOURCE
		       " is missing or of another copy)\n",
		       s->dir);
		return;
	}
	switch (status_file_state(s)) {
	case FILE_IN_FORCE:
		printf("policy file: holds that policy\n");
		break;
	case FILE_REJECTED:
	case FILE_EDITED:
		printf("policy file: holds another content now (hash "
		       "0x%016" PRIx64 "): the standby reads the file every "
		       "publish_interval= seconds and writes the copy when it "
		       "takes a valid one; a copy that stays older means it "
		       "refused the edit (its log says why; osmqos check "
		       "%s)\n",
		       s->file_hash, s->path);
		break;
	case FILE_MISSING:
		printf("policy file: %s removed: a takeover keeps the policy "
		       "above; put the file back (from %s)\n",
		       s->path, s->copy);
		break;
	case FILE_SPECIAL:
		printf("policy file: %s is %s, not a regular file: it is not "
		       "read, the policy above stays; put the policy file "
		       "back there\n",
		       s->path, s->file_kind);
		break;
	case FILE_RELATIVE:
		printf("policy file: %s is relative (opensm's working "
		       "directory's): not read here\n",
		       s->path);
		break;
	default:
		printf("policy file: cannot be read here (%s)\n",
		       strerror(s->file_errno));
	}
}

static void json_str(const char *k, const char *v)
{
	printf(", \"%s\": ", k);
	if (v)
		oq_json_fstring(stdout, v);
	else
		printf("null");
}

int status_unpublished(const char *dir, double now, bool json)
{
	static const char fix[] = "run osmqos status on the master's host "
				  "(sminfo names its LID), and osmqos doctor "
				  "here";
	struct st s;
	char hash[24], w[96], *what = NULL;

	memset(&s, 0, sizeof(s));
	s.dir = dir;
	s.now = now;
	status_copy_of(&s);
	if (!s.have_copy && (s.copy_errno == EACCES || s.copy_errno == EPERM))
		return oq_usage_error(
			"status",
			"no publication in %s, and the copy of the policy its "
			"osmqos would put in force, %s, cannot be read here "
			"(%s); run status as root or opensm's user",
			dir, s.copy, strerror(s.copy_errno));
	if (!s.have_copy)
		return -1;
	snprintf(hash, sizeof(hash), "0x%016" PRIx64, s.copy_hash);
	s.hash = hash;
	/* The policy file it was read from: the source line beside it,
	 * when that is of this copy. */
	if (status_source_of(dir, hash, s.raw_path, sizeof(s.raw_path)))
		s.path = s.raw_path;
	status_file_of(&s);
	if (asprintf(&what,
		     "no publication in %s (no " OQ_PUB_PROM "), only the "
		     "policy this host's osmqos would put in force: its opensm "
		     "is a standby (only the master publishes), stopped "
		     "before its first publication, or cannot write it "
		     "there (its log says why)",
		     dir) < 0)
		what = NULL;
	if (json) {
		printf("{\"publish_dir\": ");
		oq_json_fstring(stdout, dir);
		printf(", \"published_at_epoch\": null, \"would_enforce\": {"
		       "\"hash\": \"%s\"",
		       hash);
		json_str("path", s.path);
		json_str("copy", s.copy);
		printf(", \"written_at_epoch\": %.3f, \"file\": \"%s\"}",
		       s.copy_mtime, file_word[status_file_state(&s)]);
		printf(", \"verdict\": {\"exit_status\": 1, \"causes\": [{"
		       "\"cause\": \"not_published\"");
		json_str("what", what ? what : "not_published");
		json_str("fix", fix);
		printf("}]}}\n");
	} else {
		printf("status: %s (exit 1): %s\n",
		       what ? what : "not_published", fix);
		status_when(w, sizeof(w), s.copy_mtime, now);
		printf("policy it would put in force: %s\n  hash %s, as "
		       "written %s at %s\n",
		       s.path ? s.path : "(policy file not known)", hash,
		       s.copy, w);
		print_file(&s);
	}
	free(what);
	return OQ_EXIT_FAIL;
}
