// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A policy file rewritten in place (`cat > policy`, `cp new policy`, an
 * editor that does not rename) is truncated, then written piece by
 * piece: a read in between sees a prefix, and a prefix can be a valid
 * policy (the qos-levels alone, with no match rule), which would be put
 * in force.  So a new content is taken only once the file has settled:
 * fstat() agrees before and after the read (device, inode, size,
 * modification and change time) and the file was last modified at least
 * OQ_POLICY_SETTLE_MS ago.  A file written a moment ago is read again
 * when it is that old, within the same sweep: `cp new policy; kill -HUP`
 * still puts the edit in force in the HUP's sweep, a second later.  A
 * file still changing after OQ_POLICY_SETTLE_ROUNDS such waits is left
 * for a heavy sweep asked a second later (policy_standby.c); the last
 * good policy stays meanwhile.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <osmqos/file.h>
#include <osmqos/htab.h>

#include "policy_file.h"

/* One read: the text, and whether fstat() saw the file change during
 * it; *st as it was after the read. */
static char *read_once(const char *path, size_t *len, struct stat *st,
		       bool *changed)
{
	struct stat before;
	char *text = NULL;
	int fd, err;

	/* O_NONBLOCK: a FIFO at the path must not hang the SM in open(). */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &before))
		err = errno;
	else if (!S_ISREG(before.st_mode))
		err = EINVAL;
	else if ((text = oq_file_read_fd(fd, (unsigned long long)before.st_size,
					 OQ_POLICY_MAX_BYTES, len)))
		err = fstat(fd, st) ? errno : 0;
	else
		err = errno;
	close(fd);
	if (err) {
		free(text);
		errno = err;
		return NULL;
	}
	*changed = before.st_dev != st->st_dev || before.st_ino != st->st_ino ||
		   before.st_size != st->st_size ||
		   *len != (size_t)st->st_size ||
		   before.st_mtim.tv_sec != st->st_mtim.tv_sec ||
		   before.st_mtim.tv_nsec != st->st_mtim.tv_nsec ||
		   before.st_ctim.tv_sec != st->st_ctim.tv_sec ||
		   before.st_ctim.tv_nsec != st->st_ctim.tv_nsec;
	return text;
}

/* How long until the file is OQ_POLICY_SETTLE_MS old, in ns; 0 when it
 * is (or its time is ahead of this host's clock: judged by the read
 * alone). */
static long long settle_left_ns(const struct stat *st)
{
	struct timespec now;
	long long age;

	clock_gettime(CLOCK_REALTIME, &now);
	age = (now.tv_sec - st->st_mtim.tv_sec) * 1000000000ll +
	      (now.tv_nsec - st->st_mtim.tv_nsec);
	if (age < 0 || age >= OQ_POLICY_SETTLE_MS * 1000000ll)
		return 0;
	return OQ_POLICY_SETTLE_MS * 1000000ll - age;
}

char *oq_policy_read_settled(struct oq_policy_file *pf, const char *path,
			     size_t *len)
{
	struct timespec nap;
	long long left = 0;
	bool changed = false;
	struct stat st;
	unsigned int round;
	char *text;

	for (round = 0;; round++) {
		if (round) {
			/* Until it is old enough, at least 50 ms (a file
			 * that changed during the read). */
			if (left < 50000000ll)
				left = 50000000ll;
			nap.tv_sec = (time_t)(left / 1000000000ll);
			nap.tv_nsec = (long)(left % 1000000000ll);
			while (nanosleep(&nap, &nap) && errno == EINTR)
				;
		}
		text = read_once(path, len, &st, &changed);
		if (!text)
			return NULL;
		left = settle_left_ns(&st);
		if (!changed && !left)
			break;
		/* The policy in force, or a content already refused: the
		 * same whole or partial, nothing new is taken from it. */
		if (!changed &&
		    ((pf->cur && oq_fnv1a(text, *len) == pf->hash) ||
		     (pf->bad_reported &&
		      oq_fnv1a(text, *len) == pf->bad_hash)))
			break;
		if (round == OQ_POLICY_SETTLE_ROUNDS) {
			free(text);
			errno = EAGAIN;
			return NULL;
		}
		free(text);
	}
	pf->unsettled_reported = false;
	return text;
}
