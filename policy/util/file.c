// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Whole-file reads for the loaders: see include/osmqos/file.h. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <osmqos/file.h>

char *oq_file_read_fd(int fd, unsigned long long size, size_t max, size_t *len)
{
	size_t got = 0;
	char *buf;
	int err;

	if (size > max) {
		errno = EFBIG;
		return NULL;
	}
	buf = malloc((size_t)size + 1);
	if (!buf) {
		errno = ENOMEM;
		return NULL;
	}
	/* The file may change under us: read what is there, up to the size
	 * fstat saw. */
	while (got < (size_t)size) {
		ssize_t n = read(fd, buf + got, (size_t)size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			free(buf);
			errno = err;
			return NULL;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

char *oq_file_read(const char *path, size_t max, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	int fd, err;

	/* O_NONBLOCK: a FIFO (or a device) at the path must not hang the
	 * caller in open(); it is refused below as not a regular file. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st))
		err = errno;
	else if (!S_ISREG(st.st_mode))
		err = EINVAL;
	else if ((buf = oq_file_read_fd(fd, (unsigned long long)st.st_size, max,
					len)))
		err = 0;
	else
		err = errno;
	close(fd);
	errno = err;
	return buf;
}

int oq_file_probe(const char *path, size_t max)
{
	struct stat st;
	int fd, err = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno;
	if (fstat(fd, &st))
		err = errno;
	else if (!S_ISREG(st.st_mode))
		err = EINVAL;
	else if ((unsigned long long)st.st_size > max)
		err = EFBIG;
	close(fd);
	return err;
}

const char *oq_file_endless(const char *path)
{
	struct stat st;

	/* stat(), not open(): opening a FIFO is what blocks. */
	if (stat(path, &st))
		return NULL;
	if (S_ISFIFO(st.st_mode))
		return "FIFO";
	if (S_ISCHR(st.st_mode))
		return "character device";
	if (S_ISBLK(st.st_mode))
		return "block device";
	return NULL;
}

const char *oq_file_error(int err, size_t max, char *buf, size_t len)
{
	if (err == EINVAL)
		return "not a regular file (a directory, FIFO or device)";
	if (err == EFBIG) {
		snprintf(buf, len, "larger than the %zu MiB limit",
			 max >> 20);
		return buf;
	}
	return strerror(err);
}

/* dirname(path) resolved, then "/" and basename(path); false when the
 * directory cannot be resolved. */
static bool resolve(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/'), *base;
	char dir[PATH_MAX], real[PATH_MAX];

	if (!slash) {
		snprintf(dir, sizeof(dir), ".");
		base = path;
	} else if (slash == path) {
		snprintf(dir, sizeof(dir), "/");
		base = slash + 1;
	} else {
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
		base = slash + 1;
	}
	if (!realpath(dir, real))
		return false;
	return (size_t)snprintf(out, len, "%s/%s", real, base) < len;
}

bool oq_file_same(const char *a, const char *b)
{
	char ra[PATH_MAX + 256], rb[PATH_MAX + 256];
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	/* lstat: two symbolic links to one target are two paths (the
	 * writers refuse links anyway); hard links are one file. */
	if (!lstat(a, &sa) && !lstat(b, &sb) && sa.st_dev == sb.st_dev &&
	    sa.st_ino == sb.st_ino)
		return true;
	return resolve(a, ra, sizeof(ra)) && resolve(b, rb, sizeof(rb)) &&
	       !strcmp(ra, rb);
}
