// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos doctor`: the audit trail's file.  The plugin refuses to write
 * the trail to a directory, through a symbolic link, into a FIFO or a
 * device, onto a file that is not a trail, or into another user's file:
 * it logs why and keeps no trail at all.  Its own checks
 * (plugin/audit/audit_path.c) judge the path here, in its own words, so
 * doctor passes no audit= the plugin refuses.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit/audit.h"
#include "doctor.h"

/* path without its trailing slashes and last component: its directory. */
static void parent_of(const char *path, char *dir, size_t len)
{
	char *slash;

	snprintf(dir, len, "%s", path);
	slash = strrchr(dir, '/');
	if (slash && slash != dir)
		*slash = '\0';
	else if (slash)
		slash[1] = '\0';
}

/* What to do about a path that is not a regular file (mode its type). */
static void not_file_fix(const struct doctor_sm_user *u, const char *path,
			 mode_t mode, char *fix, size_t len)
{
	if (S_ISDIR(mode))
		snprintf(fix, len,
			 "set event_plugin_options "
			 "audit=%.*s/" OQ_AUDIT_DEFAULT_NAME
			 " (a file in that directory)",
			 oq_audit_dir_len(path), path);
	else if (S_ISLNK(mode))
		snprintf(fix, len,
			 "set event_plugin_options audit= to the file the "
			 "link names (readlink -f %s), or remove the link: "
			 "the plugin then creates the file",
			 path);
	else
		/* Not "remove it": a device or a FIFO is someone's. */
		snprintf(fix, len,
			 "set event_plugin_options "
			 "audit=DIR/" OQ_AUDIT_DEFAULT_NAME
			 " in a directory writable by "
			 "opensm's user (%s): a plain file the plugin creates",
			 u->name);
}

/* The regular file st at path: one the plugin takes, writable by
 * opensm's user. */
static void check_file(struct doctor_report *r, const struct doctor_sm_user *u,
		       const char *path, const struct stat *st)
{
	char why[768], fix[512], who[96];
	size_t at;
	int err;

	if (!oq_audit_file_fits(path, st, u->uid, why, sizeof(why))) {
		if (st->st_uid != u->uid && st->st_uid != 0)
			snprintf(fix, sizeof(fix),
				 "chown %s %s, or remove it (the plugin then "
				 "creates it, mode 0%o)",
				 u->name, path, OQ_AUDIT_FILE_MODE);
		else
			snprintf(fix, sizeof(fix),
				 "set event_plugin_options "
				 "audit=DIR/" OQ_AUDIT_DEFAULT_NAME
				 " in a directory "
				 "writable by opensm's user (%s), a file of "
				 "the trail's own; leave %s as it is",
				 u->name, path);
		doctor_check(r, DOCTOR_ERR, "audit-file", fix,
			     "the plugin refuses it and keeps no audit trail: "
			     "%s",
			     why);
		return;
	}
	err = doctor_access_as(u, path, W_OK, &at, why, sizeof(why));
	if (err < 0) {
		doctor_as_fix(u, fix, sizeof(fix));
		doctor_check(r, DOCTOR_WARN, "audit-file", fix,
			     "audit trail %s: cannot check whether opensm's "
			     "user (%s) can write it: %s",
			     path, u->name, why);
		return;
	}
	if (err && at == strlen(path)) {
		snprintf(fix, sizeof(fix), "chown %s %s", u->name, path);
		doctor_check(r, DOCTOR_ERR, "audit-file", fix,
			     "audit trail %s is not writable by opensm's user "
			     "(%s): %s; the plugin keeps no audit trail",
			     path, u->name, strerror(err));
		return;
	}
	/* A directory above it refused: the directory check says so. */
	if (err)
		return;
	doctor_check(r, DOCTOR_OK, "audit-file", NULL,
		     "audit trail %s: %s of %s, writable by opensm's user "
		     "(%s)",
		     path, st->st_size ? "an osmqos audit trail" : "empty",
		     doctor_user_name(st->st_uid, who, sizeof(who)), u->name);
}

void doctor_audit(struct doctor_report *r, const struct doctor_sm_user *u,
		  const char *path)
{
	char dir[4096], why[768], fix[512];
	struct stat st;

	parent_of(path, dir, sizeof(dir));
	/* Missing (the plugin creates it), or not to be looked at (a
	 * directory above it missing or not searchable): its directory's
	 * check says what matters. */
	if (!lstat(path, &st)) {
		if (!S_ISREG(st.st_mode)) {
			oq_audit_why_not_file(path, st.st_mode, why,
					      sizeof(why));
			not_file_fix(u, path, st.st_mode, fix, sizeof(fix));
			doctor_check(r, DOCTOR_ERR, "audit-file", fix,
				     "the plugin refuses it and keeps no "
				     "audit trail: %s",
				     why);
			/* Its parent is not where the trail would go. */
			if (S_ISDIR(st.st_mode))
				return;
		} else {
			check_file(r, u, path, &st);
		}
	}
	doctor_dir(r, u, "audit-dir", dir, "audit trail directory", "audit");
}
