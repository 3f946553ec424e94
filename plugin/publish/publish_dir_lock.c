// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One plugin instance per publish directory.  Debian's opensm@GUID units
 * start one opensm per port with the same opensm.conf, so two SMs of two
 * fabrics default to the same cache directory: each would overwrite the
 * other's files and take the other's policy copy for an operator's edit.
 * The first instance holds a lock on a file there for its lifetime (the
 * kernel drops it when the process dies, so a crashed opensm leaves
 * nothing stale); the file holds its PID for the message of the second.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "publish.h"

int oq_publish_dir_claim(const char *dir, long *holder)
{
	char path[4096], buf[32];
	struct stat st;
	ssize_t n;
	int fd;

	*holder = 0;
	if (snprintf(path, sizeof(path), "%s/%s", dir, OQ_PUBLISH_LOCK_NAME) >=
	    (int)sizeof(path))
		return -2;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0) {
		if (errno != EEXIST)
			return -2;
		/* One left by an earlier opensm, or a file another user
		 * put there to silence this one, or a hard link to a file
		 * the PID would overwrite: only a lock file of ours. */
		fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
		if (fd < 0)
			return errno == ELOOP ? -3 : -2;
		if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
		    st.st_uid != geteuid() || st.st_nlink != 1) {
			close(fd);
			return -3;
		}
	}
	if (!flock(fd, LOCK_EX | LOCK_NB)) {
		n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
		if (ftruncate(fd, 0) || pwrite(fd, buf, (size_t)n, 0) != n) {
			/* The lock is what counts; the PID only names it. */
		}
		return fd;
	}
	if (errno == EWOULDBLOCK) {
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			*holder = strtol(buf, NULL, 10);
		}
		close(fd);
		return -1;
	}
	close(fd);
	return -2;
}
