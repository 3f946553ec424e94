// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Atomic replacement of an output file (the published files, OpenSM's
 * policy copy).  Readers (node_exporter, a
 * script polling the JSON) must never see a half-written file, and the
 * SM, which runs as root, must never be tricked into writing through a
 * symlink someone planted at the target name.  So:
 *
 *  - the directory is opened once (O_DIRECTORY) and every later step is
 *    relative to that descriptor: the temp file and the rename are in the
 *    same directory even if the path is swapped meanwhile;
 *  - the temp file ".NAME.XXXXXX" is created with O_CREAT|O_EXCL|
 *    O_NOFOLLOW, so nothing pre-existing is ever opened, and given mode
 *    0644 with fchmod (the SM's umask does not apply).  Its name does not
 *    end in .prom, so the textfile collector ignores it;
 *  - it is written, fsync'ed and renamed over NAME.  rename(2) replaces a
 *    symlink at NAME itself; the link's target is never touched.
 *
 * A symlink as the directory itself is followed: it is the operator's
 * configuration (publish_dir=), like a symlinked /var/cache.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <osmqos/clock.h>
#include <osmqos/file.h>

#define TEMP_TRIES 64

/* Six characters a-z0-9 from a cheap mix of time, pid and a counter; a
 * collision only costs another O_EXCL try. */
static void temp_suffix(char out[7], unsigned int attempt)
{
	static const char al[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	static unsigned int seq;
	uint64_t x;
	int i;

	x = oq_clock_ns() ^ ((uint64_t)getpid() << 16) ^
	    ((uint64_t)__atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED) << 40) ^
	    ((uint64_t)attempt * 0x9e3779b97f4a7c15ull);
	for (i = 0; i < 6; i++) {
		x ^= x >> 33;
		x *= 0xff51afd7ed558ccdull;
		out[i] = al[x % (sizeof(al) - 1)];
	}
	out[6] = '\0';
}

static int create_temp(int dfd, const char *name, mode_t mode, char *tmp,
		       size_t tlen)
{
	unsigned int a;
	char sfx[7];
	int fd;

	for (a = 0; a < TEMP_TRIES; a++) {
		temp_suffix(sfx, a);
		snprintf(tmp, tlen, ".%s.%s", name, sfx);
		fd = openat(dfd, tmp,
			    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
				    O_CLOEXEC,
			    mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	errno = EEXIST;
	return -1;
}

int oq_file_replace(const char *dir, const char *name, mode_t mode,
		    oq_file_writer_fn fn, const void *ctx, char *why,
		    size_t len)
{
	char tmp[256];
	FILE *f = NULL;
	int dfd, fd, err = 0;

	if (!dir || !*dir || !name || !*name || strchr(name, '/') ||
	    strlen(name) > 200) {
		snprintf(why, len, "bad publish directory or file name");
		return EINVAL;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		err = errno;
		snprintf(why, len,
			 "cannot open the publish directory %s; create it "
			 "or set event_plugin_options publish_dir=DIR",
			 dir);
		return err;
	}
	fd = create_temp(dfd, name, mode, tmp, sizeof(tmp));
	if (fd < 0) {
		err = errno;
		snprintf(why, len,
			 "cannot create a temporary file in %s; check that "
			 "the directory is writable",
			 dir);
		close(dfd);
		return err;
	}
	if (fchmod(fd, mode)) {
		err = errno;
		snprintf(why, len, "cannot set mode 0%o on %s/%s",
			 (unsigned int)mode, dir, tmp);
		close(fd);
		goto fail;
	}
	f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		snprintf(why, len, "cannot write %s/%s", dir, tmp);
		close(fd);
		goto fail;
	}
	errno = 0;
	if (fn(f, ctx) || fflush(f) || fsync(fileno(f))) {
		err = errno ? errno : EIO;
		snprintf(why, len,
			 "cannot write %s/%s; free space on its file system "
			 "or check it for errors",
			 dir, tmp);
		fclose(f);
		goto fail;
	}
	if (fclose(f)) {
		err = errno;
		snprintf(why, len, "cannot write %s/%s", dir, tmp);
		goto fail;
	}
	if (renameat(dfd, tmp, dfd, name)) {
		err = errno;
		snprintf(why, len,
			 "cannot rename %s/%s over %s (is %s a directory?)",
			 dir, tmp, name, name);
		goto fail;
	}
	close(dfd);
	return 0;
fail:
	unlinkat(dfd, tmp, 0);
	close(dfd);
	return err;
}

struct text {
	const char *s;
	size_t len;
};

static int write_text(FILE *out, const void *ctx)
{
	const struct text *t = ctx;

	return fwrite(t->s, 1, t->len, out) == t->len ? 0 : -1;
}

int oq_file_replace_text(const char *dir, const char *name, mode_t mode,
			 const char *text, size_t len, char *why,
			 size_t why_len)
{
	struct text t = {text, len};

	return oq_file_replace(dir, name, mode, write_text, &t, why, why_len);
}

void oq_file_id_take(const char *path, struct oq_file_id *id)
{
	struct stat st;

	memset(id, 0, sizeof(*id));
	if (lstat(path, &st))
		return;
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->size = st.st_size;
	id->mtime = st.st_mtim;
	id->known = true;
}

bool oq_file_id_same(const char *path, const struct oq_file_id *id)
{
	struct stat st;

	return id->known && !lstat(path, &st) && S_ISREG(st.st_mode) &&
	       st.st_dev == id->dev && st.st_ino == id->ino &&
	       st.st_size == id->size &&
	       st.st_mtim.tv_sec == id->mtime.tv_sec &&
	       st.st_mtim.tv_nsec == id->mtime.tv_nsec;
}

/* The same rule as OpenSM's own cache files (osm_db_files.c). */
const char *oq_cache_dir(void)
{
	const char *d = getenv("OSM_CACHE_DIR");

	return d && *d ? d : OQ_DEFAULT_CACHE_DIR;
}

/* Is e ".name." followed by the six characters temp_suffix() writes? */
static bool is_temp_of(const char *e, const char *name)
{
	size_t n = strlen(name), i;

	if (e[0] != '.' || strncmp(e + 1, name, n) || e[1 + n] != '.' ||
	    strlen(e + 2 + n) != 6)
		return false;
	for (i = 2 + n; e[i]; i++)
		if (!((e[i] >= 'a' && e[i] <= 'z') ||
		      (e[i] >= '0' && e[i] <= '9')))
			return false;
	return true;
}

size_t oq_file_replace_clean(const char *dir, const char *name)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	size_t removed = 0;
	struct dirent *e;
	struct stat st;
	DIR *d;

	if (dfd < 0)
		return 0;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return 0;
	}
	while ((e = readdir(d))) {
		/* A minute old at least: another opensm sharing the
		 * directory may be writing one now. */
		if (!is_temp_of(e->d_name, name) ||
		    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
		    time(NULL) - st.st_mtime < 60)
			continue;
		if (!unlinkat(dfd, e->d_name, 0))
			removed++;
	}
	closedir(d);
	return removed;
}
