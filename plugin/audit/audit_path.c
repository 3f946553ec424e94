// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What audit= may name, in the words the plugin logs: the writer refuses
 * with them when it opens the path (audit.c), and `osmqos doctor` says
 * the same of the path before opensm starts, so the two cannot disagree.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "audit.h"

int oq_audit_dir_len(const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	return (int)n;
}

/* audit= naming a directory: a file in it, e.g. DIR/osmqos-audit.log. */
static void dir_advice(const char *path, char *why, size_t len)
{
	snprintf(why, len,
		 "%s is a directory; give audit= a file path, e.g. "
		 "%.*s/" OQ_AUDIT_DEFAULT_NAME,
		 path, oq_audit_dir_len(path), path);
}

void oq_audit_why_not_file(const char *path, mode_t mode, char *why, size_t len)
{
	if (S_ISLNK(mode))
		snprintf(why, len,
			 "%s is a symbolic link; the audit log is never "
			 "written through one, give audit= the real file",
			 path);
	else if (S_ISDIR(mode))
		dir_advice(path, why, len);
	else if (S_ISFIFO(mode) || S_ISSOCK(mode))
		snprintf(why, len,
			 "%s is not a regular file (a FIFO or a socket); "
			 "give audit= a plain file path",
			 path);
	else
		snprintf(why, len,
			 "%s is not a regular file; give audit= a plain file "
			 "path",
			 path);
}

/*
 * Whether the regular file sb starts like a trail: its first byte is a
 * JSON line's '{' (lines are only ever appended whole).  A file that
 * cannot be read, or is no longer the one at the path, cannot tell: true.
 */
static bool starts_like_trail(const char *path, const struct stat *sb)
{
	struct stat rs;
	bool ok = true;
	char c;
	int fd;

	if (!sb->st_size)
		return true;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return true;
	if (!fstat(fd, &rs) && rs.st_dev == sb->st_dev &&
	    rs.st_ino == sb->st_ino && pread(fd, &c, 1, 0) == 1)
		ok = c == '{';
	close(fd);
	return ok;
}

bool oq_audit_file_fits(const char *path, const struct stat *sb, uid_t uid,
			char *why, size_t len)
{
	/* A file someone else owns (planted in a directory others may
	 * write, /tmp say) could be read or cut short by them: the trail
	 * is appended only to a file of opensm's user, or root's (what
	 * logrotate's create line makes). */
	if (sb->st_uid != uid && sb->st_uid != 0) {
		snprintf(why, len,
			 "%s belongs to uid %u, not to opensm's user (uid "
			 "%u) or root: that user could read or truncate the "
			 "trail; remove it, or give audit= a file in a "
			 "directory only opensm's user can write",
			 path, (unsigned int)sb->st_uid, (unsigned int)uid);
		return false;
	}
	/* A file with something else in it (audit= naming OpenSM's
	 * partition file, say) would be broken for its reader by the
	 * lines appended. */
	if (!starts_like_trail(path, sb)) {
		snprintf(why, len,
			 "%s is not an osmqos audit trail (its first line is "
			 "not JSON); give audit= a file of its own",
			 path);
		return false;
	}
	return true;
}
