// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos status, the files on disk: the policy file as it is now (its
 * hash, or what it is when not a regular file) and the copy of the
 * policy in force the plugin wrote beside its publication, each held
 * against what the plugin published.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <osmqos/file.h>
#include <osmqos/htab.h>
#include <osmqos/json.h>

#include "cli.h"
#include "status.h"

void status_when(char *buf, size_t len, double t, double now)
{
	time_t tt = (time_t)t;
	struct tm tm;
	char at[32];
	double ago = now - t;

	if (t <= 0) {
		snprintf(buf, len, "never");
		return;
	}
	gmtime_r(&tt, &tm);
	strftime(at, sizeof(at), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (ago < 120)
		snprintf(buf, len, "%s (%.0f s ago)", at, ago > 0 ? ago : 0);
	else if (ago < 7200)
		snprintf(buf, len, "%s (%.0f min ago)", at, ago / 60);
	else
		snprintf(buf, len, "%s (%.1f h ago)", at, ago / 3600);
}

/* A policy file's FNV-1a hash, as the plugin hashes what it reads;
 * false with errno set when it cannot be read. */
static bool hash_of(const char *path, uint64_t *h)
{
	size_t len = 0;
	char *t = oq_file_read(path, OQ_POLICY_MAX_BYTES, &len);

	if (!t)
		return false;
	*h = oq_fnv1a(t, len);
	free(t);
	return true;
}

/* Is h the hash "0x%016x" text says? */
static bool hash_is(uint64_t h, const char *text)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%016" PRIx64, h);
	return text && !strcmp(buf, text);
}

/*
 * Does the label text say raw?  The plugin writes a control character
 * and each byte that is not UTF-8 as U+FFFD (publish_escape.c), the
 * rest as it is.
 */
static bool label_says(const char *label, const char *raw)
{
	const unsigned char *r = (const unsigned char *)raw;
	size_t rep = strlen(OQ_UTF8_REPLACEMENT), n = strlen(raw), i = 0, k;

	while (i < n) {
		k = r[i] < 0x20 && r[i] != '\n' ? 0 : oq_utf8_seq(r + i, n - i);
		if (r[i] == 0x7f || !k) {
			if (strncmp(label, OQ_UTF8_REPLACEMENT, rep))
				return false;
			label += rep;
			i++;
			continue;
		}
		if (strncmp(label, raw + i, k))
			return false;
		label += k;
		i += k;
	}
	return !*label;
}

bool status_source_of(const char *dir, const char *hash, char *path, size_t len)
{
	char file[4096], *text, *sp, *nl;
	size_t n = 0;
	bool ok = false;

	if (!hash ||
	    !oq_pub_path(dir, OQ_PUB_IN_FORCE_SOURCE, file, sizeof(file)))
		return false;
	text = oq_file_read(file, 8192, &n);
	if (!text)
		return false;
	sp = strchr(text, ' ');
	nl = strchr(text, '\n');
	if (sp && nl > sp + 1 && strlen(text) == n &&
	    (size_t)(sp - text) == strlen(hash) &&
	    !strncmp(text, hash, (size_t)(sp - text)) &&
	    (size_t)(nl - sp) <= len) {
		*nl = '\0';
		memcpy(path, sp + 1, (size_t)(nl - sp));
		ok = true;
	}
	free(text);
	return ok;
}

/*
 * The policy file's own name when the label cannot say it (bytes that
 * are not UTF-8 became U+FFFD): the source line beside the copy holds
 * it, when it is of the published hash and the label is its text.
 * Else the file is not looked at: the label would name another file.
 */
void status_path_of(struct st *s)
{
	char raw[sizeof(s->raw_path)];

	if (!s->path || !strstr(s->path, OQ_UTF8_REPLACEMENT))
		return;
	s->path_unsure = true;
	if (status_source_of(s->dir, s->hash, raw, sizeof(raw)) &&
	    label_says(s->path, raw)) {
		memcpy(s->raw_path, raw, sizeof(raw));
		s->path = s->raw_path;
		s->path_unsure = false;
	}
}

/* The copy of the policy in force as written: present, its hash and
 * when it was written. */
void status_copy_of(struct st *s)
{
	struct stat st;

	if (!oq_pub_path(s->dir, OQ_PUB_IN_FORCE, s->copy, sizeof(s->copy)))
		return;
	if (!stat(s->copy, &st))
		s->copy_mtime = (double)st.st_mtim.tv_sec +
				(double)st.st_mtim.tv_nsec / 1e9;
	s->have_copy = hash_of(s->copy, &s->copy_hash);
	if (!s->have_copy)
		s->copy_errno = errno;
}

bool status_copy_matches(const struct st *s)
{
	return s->have_copy && hash_is(s->copy_hash, s->hash);
}

enum copy_state status_copy_state(const struct st *s)
{
	if (!s->in_force || status_copy_matches(s))
		return COPY_OK;
	if (s->have_copy)
		return s->copy_mtime > s->published ? COPY_CHANGING
						    : COPY_OTHER;
	return s->copy_errno == ENOENT ? COPY_MISSING : COPY_UNKNOWN;
}

/* What a file that is not a regular one is, in words. */
static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISSOCK(m))
		return "a socket";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	return "not a regular file";
}

/*
 * The policy file, read now: an edit not yet loaded (no SIGHUP since)
 * is told apart from the content in force and from the rejected one.
 * A relative path is opensm's, resolved against its own working
 * directory (/ under systemd): read from here it would be another file,
 * so it is not read.  A FIFO is not opened (it would block).
 */
void status_file_of(struct st *s)
{
	struct stat st;

	if (!s->path || *s->path != '/' || s->path_unsure)
		return;
	if (stat(s->path, &st)) {
		s->file_errno = errno;
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		s->file_kind = kind_of(st.st_mode);
		return;
	}
	s->have_file = hash_of(s->path, &s->file_hash);
	if (!s->have_file)
		s->file_errno = errno;
}

enum file_state status_file_state(const struct st *s)
{
	if (!s->have_file) {
		if (s->path && *s->path != '/')
			return FILE_RELATIVE;
		if (s->file_kind)
			return FILE_SPECIAL;
		return s->path && s->file_errno == ENOENT ? FILE_MISSING
							  : FILE_UNKNOWN;
	}
	if (hash_is(s->file_hash, s->hash))
		return FILE_IN_FORCE;
	if (s->rej_error && hash_is(s->file_hash, s->rej_hash))
		return FILE_REJECTED;
	return FILE_EDITED;
}
