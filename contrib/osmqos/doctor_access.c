// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos doctor`: who may write the files the plugin trusts.  The
 * plugin reads its policy file, and at start restores the policy in force
 * from its publish directory; the audit trail goes to a directory of its
 * own choosing.  A file someone else can write, or create in one of those
 * directories, is a policy someone else can make opensm apply; a file
 * opensm's user cannot read, or a directory it cannot write, is a plugin
 * with no policy or nowhere to publish.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "audit/audit.h"
#include "doctor.h"

/* What the plugin's files need, at least, to grow for a while. */
#define MIN_FREE_BYTES (64ULL << 20)

/* Is uid one opensm's files may belong to? */
static bool trusted(const struct doctor_sm_user *u, uid_t uid)
{
	return uid == 0 || uid == u->uid;
}

/*
 * The option key a fix sets, as it is set: publish_dir= names the
 * directory itself, audit= a file in it (the plugin refuses a directory
 * there).  set: "KEY=DIR to a directory", own: "KEY= a directory of its
 * own", each with what follows.
 */
static const char *set_dir(const char *key, char *buf, size_t len)
{
	if (!strcmp(key, "audit"))
		snprintf(buf, len, "audit=DIR/" OQ_AUDIT_DEFAULT_NAME " in");
	else
		snprintf(buf, len, "%s=DIR to", key);
	return buf;
}

static const char *own_dir(const char *key, char *buf, size_t len)
{
	if (!strcmp(key, "audit"))
		snprintf(buf, len, "audit= a file in");
	else
		snprintf(buf, len, "%s= a directory of", key);
	return buf;
}

/*
 * Who besides opensm's user can create files in the directory st: a
 * warning into msg/fix (planted: what the plugin would read there), or
 * false for nobody.
 */
static bool dir_shared(const struct doctor_sm_user *u, const struct stat *st,
		       const char *dir, const char *what, const char *key,
		       const char *planted, char *msg, size_t mlen, char *fix,
		       size_t flen)
{
	unsigned int mode = st->st_mode & 07777;
	char who[96], opt[64];

	if ((mode & S_IWOTH) && (mode & S_ISVTX) && st->st_uid == 0) {
		snprintf(msg, mlen,
			 "%s %s is shared (mode %04o, like /tmp): other users "
			 "can create files there before opensm does (%s)",
			 what, dir, mode, planted);
		snprintf(fix, flen,
			 "give %s a directory of its own, writable by "
			 "opensm's user alone (e.g. mkdir -m 0755 "
			 "/var/lib/osmqos)",
			 own_dir(key, opt, sizeof(opt)));
		return true;
	}
	if (mode & (S_IWGRP | S_IWOTH)) {
		snprintf(msg, mlen,
			 "%s %s is writable by %s (mode %04o): any of them "
			 "can plant files there (%s)",
			 what, dir,
			 (mode & S_IWOTH) ? "every local user" : "its group",
			 mode, planted);
		snprintf(fix, flen,
			 "chmod go-w %s (and chown it to opensm's user), or "
			 "give %s a directory of its own",
			 dir, own_dir(key, opt, sizeof(opt)));
		return true;
	}
	if (!trusted(u, st->st_uid)) {
		snprintf(msg, mlen,
			 "%s %s belongs to %s, neither root nor opensm's "
			 "user (%s): its owner can plant files there (%s)",
			 what, dir,
			 doctor_user_name(st->st_uid, who, sizeof(who)),
			 u->name, planted);
		snprintf(fix, flen,
			 "chown %s %s, or give %s a directory of its own",
			 u->name, dir, own_dir(key, opt, sizeof(opt)));
		return true;
	}
	return false;
}

/* What a file planted in the directory of key would do. */
static const char *planted_in(const char *key)
{
	if (!strcmp(key, "publish_dir"))
		return "osmqos-policy-in-force.conf among them, which the "
		       "plugin restores as the policy in force at start";
	return "the audit trail's file among them, or a link where it "
	       "goes";
}

void doctor_dir(struct doctor_report *r, const struct doctor_sm_user *u,
		const char *name, const char *dir, const char *what,
		const char *key)
{
	struct statvfs vfs;
	struct stat st;
	char fix[512], msg[768], why[160], opt[64];
	unsigned long long avail;
	bool shared;
	size_t at;
	int err;

	snprintf(fix, sizeof(fix),
		 "create %s writable by opensm (%s), or set "
		 "event_plugin_options %s a directory that is",
		 dir, u->name, set_dir(key, opt, sizeof(opt)));
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		doctor_check(r, DOCTOR_ERR, name, fix, "%s %s: %s", what, dir,
			     errno == ENOENT ? "does not exist"
					     : "is not a directory");
		return;
	}
	err = doctor_access_as(u, dir, W_OK | X_OK, &at, why, sizeof(why));
	if (err < 0) {
		doctor_as_fix(u, fix, sizeof(fix));
		doctor_check(r, DOCTOR_WARN, name, fix,
			     "%s %s: cannot check whether opensm's user (%s) "
			     "can write there: %s",
			     what, dir, u->name, why);
		return;
	}
	if (err && at < strlen(dir)) {
		snprintf(fix, sizeof(fix),
			 "let %s search %.*s (e.g. chmod o+x %.*s), or set "
			 "event_plugin_options %s a directory it can reach "
			 "and write",
			 u->name, (int)at, dir, (int)at, dir,
			 set_dir(key, opt, sizeof(opt)));
		doctor_check(r, DOCTOR_ERR, name, fix,
			     "%s %s: opensm's user (%s) cannot reach it: %.*s: "
			     "%s",
			     what, dir, u->name, (int)at, dir, strerror(err));
		return;
	}
	if (err) {
		/* Root is refused by the file system alone: no owner to
		 * change there. */
		if (err == EACCES && u->uid)
			snprintf(fix, sizeof(fix),
				 "chown %s %s, or set event_plugin_options "
				 "%s a directory it can write",
				 u->name, dir, set_dir(key, opt, sizeof(opt)));
		doctor_check(r, DOCTOR_ERR, name, fix,
			     "%s %s is not writable by opensm's user (%s): %s",
			     what, dir, u->name, strerror(err));
		return;
	}
	shared = dir_shared(u, &st, dir, what, key, planted_in(key), msg,
			    sizeof(msg), fix, sizeof(fix));
	if (shared)
		doctor_check(r, DOCTOR_WARN, name, fix, "%s", msg);
	if (statvfs(dir, &vfs)) {
		doctor_check(r, DOCTOR_WARN, name, NULL,
			     "%s %s: free space unknown (%s)", what, dir,
			     strerror(errno));
		return;
	}
	avail = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
	if (avail < MIN_FREE_BYTES) {
		doctor_check(r, DOCTOR_WARN, name,
			     "free space there, or point the option elsewhere",
			     "%s %s: only %llu MiB free", what, dir,
			     avail >> 20);
		return;
	}
	if (!shared)
		doctor_check(r, DOCTOR_OK, name, NULL,
			     "%s %s: writable, %llu MiB free", what, dir,
			     avail >> 20);
}

void doctor_policy_access(struct doctor_report *r,
			  const struct doctor_sm_user *u, const char *path,
			  const char *key)
{
	unsigned int mode;
	struct stat st;
	char fix[512], who[96];

	/* Missing, relative, unreadable: the policy checks say so. */
	if (*path != '/' || stat(path, &st) || !S_ISREG(st.st_mode))
		return;
	mode = st.st_mode & 07777;
	if (mode & (S_IWGRP | S_IWOTH)) {
		snprintf(fix, sizeof(fix), "chmod go-w %s", path);
		doctor_check(r, DOCTOR_WARN, "policy-owner", fix,
			     "%s (%s) is writable by %s (mode %04o): any of "
			     "them can change the policy opensm loads",
			     path, key,
			     (mode & S_IWOTH) ? "every local user"
					      : "its group",
			     mode);
	} else if (!trusted(u, st.st_uid)) {
		snprintf(fix, sizeof(fix), "chown %s %s", u->name, path);
		doctor_check(r, DOCTOR_WARN, "policy-owner", fix,
			     "%s (%s) belongs to %s, neither root nor "
			     "opensm's user (%s): its owner can change the "
			     "policy opensm loads",
			     path, key,
			     doctor_user_name(st.st_uid, who, sizeof(who)),
			     u->name);
	} else {
		doctor_check(r, DOCTOR_OK, "policy-owner", NULL,
			     "%s: %s's, writable by no one else", path,
			     doctor_user_name(st.st_uid, who, sizeof(who)));
	}
}

void doctor_policy_read(struct doctor_report *r, const struct doctor_sm_user *u,
			const char *path)
{
	char fix[512], why[160];
	struct stat st;
	size_t at;
	int err;

	/* Missing, relative, unreadable: the policy checks say so. */
	if (*path != '/' || stat(path, &st) || !S_ISREG(st.st_mode))
		return;
	err = doctor_access_as(u, path, R_OK, &at, why, sizeof(why));
	if (err < 0) {
		doctor_as_fix(u, fix, sizeof(fix));
		doctor_check(r, DOCTOR_WARN, "policy-read", fix,
			     "%s: cannot check whether opensm's user (%s) can "
			     "read it: %s",
			     path, u->name, why);
	} else if (err && at < strlen(path)) {
		snprintf(fix, sizeof(fix),
			 "let %s search %.*s (e.g. chmod o+x %.*s), or keep "
			 "the policy where it can",
			 u->name, (int)at, path, (int)at, path);
		doctor_check(r, DOCTOR_ERR, "policy-read", fix,
			     "opensm's user (%s) cannot reach %s: %.*s: %s; "
			     "the plugin keeps the last good policy, or runs "
			     "none",
			     u->name, path, (int)at, path, strerror(err));
	} else if (err) {
		snprintf(fix, sizeof(fix),
			 "chown %s %s, or chmod a+r %s (root may keep it)",
			 u->name, path, path);
		doctor_check(r, DOCTOR_ERR, "policy-read", fix,
			     "%s is not readable by opensm's user (%s): %s; "
			     "the plugin keeps the last good policy, or runs "
			     "none",
			     path, u->name, strerror(err));
	} else {
		doctor_check(r, DOCTOR_OK, "policy-read", NULL,
			     "%s: readable by opensm's user (%s)", path,
			     u->name);
	}
}
