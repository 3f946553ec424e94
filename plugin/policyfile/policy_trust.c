// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the plugin reads back from the publish directory decides the
 * fabric's QoS: the policy in force before a start is put in force again
 * from there, and OpenSM parses the plugin's copy there every sweep.  So
 * only a file the plugin (or root) wrote is read back -- a regular file
 * of this user's or root's, with one link, which no one else may write --
 * and OpenSM is pointed at a copy only in a directory no other user can
 * put a file into (or rename one out of: the sticky bit).  Otherwise any
 * local user could choose the policy in force.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy_file.h"

bool oq_policy_dir_open(const char *dir, char *why, size_t len)
{
	struct stat st;

	*why = '\0';
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return false; /* the writes fail and say so themselves */
	if (st.st_uid != geteuid() && st.st_uid != 0) {
		snprintf(why, len, "is owned by uid %lu, not by this opensm's",
			 (unsigned long)st.st_uid);
		return true;
	}
	if ((st.st_mode & (S_IWGRP | S_IWOTH)) && !(st.st_mode & S_ISVTX)) {
		snprintf(why, len,
			 "is writable by %s (mode %04o) without the sticky "
			 "bit",
			 st.st_mode & S_IWOTH ? "every user" : "its group",
			 (unsigned int)(st.st_mode & 07777));
		return true;
	}
	return false;
}

/* Why st is not a file the plugin wrote, or NULL. */
static const char *not_ours(const struct stat *st)
{
	if (!S_ISREG(st->st_mode))
		return "not a regular file";
	if (st->st_uid != geteuid() && st->st_uid != 0)
		return "owned by another user";
	if (st->st_nlink != 1)
		return "a file with more than one link";
	if (st->st_mode & (S_IWGRP | S_IWOTH))
		return "writable by other users";
	return NULL;
}

char *oq_policy_read_own(const char *path, size_t max, size_t *len, char *why,
			 size_t why_len)
{
	const char *bad;
	struct stat st;
	char *buf;
	int fd, err;

	*why = '\0';
	/* O_NOFOLLOW: a symlink planted at the name is refused, never
	 * followed; O_NONBLOCK: a FIFO does not hang the SM. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		if (errno == ELOOP) {
			snprintf(why, why_len, "a symbolic link");
			errno = EPERM;
		}
		return NULL;
	}
	if (fstat(fd, &st)) {
		err = errno;
		goto fail;
	}
	bad = not_ours(&st);
	if (bad) {
		snprintf(why, why_len, "%s (uid %lu, mode %04o, %lu links)",
			 bad, (unsigned long)st.st_uid,
			 (unsigned int)(st.st_mode & 07777),
			 (unsigned long)st.st_nlink);
		err = EPERM;
		goto fail;
	}
	buf = oq_file_read_fd(fd, (unsigned long long)st.st_size, max, len);
	err = errno;
	close(fd);
	errno = err;
	return buf;
fail:
	close(fd);
	errno = err;
	return NULL;
}
