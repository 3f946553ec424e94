// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos doctor`: what opensm's user may do with a path, asked as that
 * user.  access(2) answers for the process that calls it: doctor run as
 * root would find every policy readable and every directory writable,
 * whoever opensm runs as.  So when opensm's user is another, doctor run
 * as root asks a child that has become that user (its uid, its primary
 * group and the supplementary groups of its passwd and group entries, as
 * opensm's service manager sets them): modes, ACLs and each directory
 * above are then judged as opensm's own open() judges them.
 */
#include <config.h>

#include <errno.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doctor.h"

/* What the walk found: err (0 none) at path's first at bytes; dropped
 * false when the child could not become the user (err says why). */
struct verdict {
	int err;
	size_t at;
	bool dropped;
};

const char *doctor_user_name(uid_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, len, "uid %u (%s)", (unsigned int)uid,
			 pw->pw_name);
	else
		snprintf(buf, len, "uid %u", (unsigned int)uid);
	return buf;
}

/* Search permission on "/" and every directory above path, then mode on
 * path itself, as this process: the first refusal names where it was,
 * which is the directory the fix is for. */
static struct verdict walk(const char *path, int mode)
{
	struct verdict v = {0, 0, true};
	size_t len = strlen(path), i, end;
	char buf[PATH_MAX];

	if (len >= sizeof(buf)) {
		v.err = ENAMETOOLONG;
		v.at = len;
		return v;
	}
	memcpy(buf, path, len + 1);
	for (i = 0; i < len; i++) {
		if (path[i] != '/' || (i && path[i - 1] == '/'))
			continue;
		/* The directory this slash ends: "/" for the first. */
		end = i ? i : 1;
		buf[end] = '\0';
		if (access(buf, X_OK)) {
			v.err = errno;
			v.at = end;
			return v;
		}
		buf[end] = path[end];
	}
	if (access(path, mode)) {
		v.err = errno;
		v.at = len;
	}
	return v;
}

/* The walk in a child become pw's user; -1 when there is no child to ask
 * (why says so). */
static int child_walk(const struct passwd *pw, const char *path, int mode,
		      struct verdict *v, char *why, size_t wlen)
{
	int n = 0, fds[2], status, err;
	gid_t *groups, none;
	ssize_t got;
	pid_t pid;

	getgrouplist(pw->pw_name, pw->pw_gid, &none, &n);
	groups = calloc(n > 0 ? n : 1, sizeof(*groups));
	if (!groups || getgrouplist(pw->pw_name, pw->pw_gid, groups, &n) < 0) {
		snprintf(why, wlen, "cannot list the groups of %s",
			 pw->pw_name);
		free(groups);
		return -1;
	}
	if (pipe(fds)) {
		snprintf(why, wlen, "cannot make a pipe: %s", strerror(errno));
		free(groups);
		return -1;
	}
	pid = fork();
	if (!pid) {
		close(fds[0]);
		if (setgroups(n, groups) || setgid(pw->pw_gid) ||
		    setuid(pw->pw_uid))
			*v = (struct verdict){errno, 0, false};
		else
			*v = walk(path, mode);
		/* _exit(): the report buffered so far is the parent's to
		 * write, once. */
		_exit(write(fds[1], v, sizeof(*v)) != sizeof(*v));
	}
	err = errno;
	free(groups);
	close(fds[1]);
	if (pid < 0) {
		snprintf(why, wlen, "cannot fork: %s", strerror(err));
		close(fds[0]);
		return -1;
	}
	do
		got = read(fds[0], v, sizeof(*v));
	while (got < 0 && errno == EINTR);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (got != sizeof(*v)) {
		snprintf(why, wlen, "its child did not answer");
		return -1;
	}
	if (!v->dropped) {
		snprintf(why, wlen, "doctor cannot become %s: %s", pw->pw_name,
			 strerror(v->err));
		return -1;
	}
	return 0;
}

int doctor_access_as(const struct doctor_sm_user *u, const char *path, int mode,
		     size_t *at, char *why, size_t wlen)
{
	uid_t self = geteuid();
	struct passwd *pw;
	struct verdict v;
	char who[96];

	if (self == u->uid || (self == 0 && u->uid == 0)) {
		v = walk(path, mode);
	} else if (u->uid == 0) {
		/* Root may do whatever another user may, not the reverse:
		 * only a refusal other than the permission's is an answer. */
		v = walk(path, mode);
		if (v.err == EACCES || v.err == EPERM) {
			snprintf(why, wlen, "doctor runs as %s, which cannot",
				 doctor_user_name(self, who, sizeof(who)));
			return -1;
		}
	} else if (self != 0) {
		snprintf(why, wlen,
			 "doctor runs as %s, neither root nor that "
			 "user",
			 doctor_user_name(self, who, sizeof(who)));
		return -1;
	} else {
		pw = getpwuid(u->uid);
		if (!pw) {
			snprintf(why, wlen,
				 "uid %u has no passwd entry, so its groups "
				 "are unknown",
				 (unsigned int)u->uid);
			return -1;
		}
		if (child_walk(pw, path, mode, &v, why, wlen))
			return -1;
	}
	*at = v.at;
	return v.err;
}

void doctor_as_fix(const struct doctor_sm_user *u, char *fix, size_t len)
{
	if (u->uid == 0)
		snprintf(fix, len,
			 "run osmqos doctor as root, opensm's user (or give "
			 "--sm-user)");
	else if (geteuid() == 0)
		snprintf(fix, len, "run osmqos doctor as %s, opensm's user",
			 u->name);
	else
		snprintf(fix, len,
			 "run osmqos doctor as root, or as %s (opensm's user)",
			 u->name);
}
