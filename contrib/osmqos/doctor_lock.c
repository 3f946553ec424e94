// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos doctor`: is the publish directory another opensm's?  The first
 * osmqos to start there holds a lock on DIR/.osmqos.lock, which holds its
 * PID (plugin/publish/publish_dir_lock.c); a second opensm's osmqos then
 * publishes nothing and writes no policy copy.  Read here without taking
 * the lock (a lock taken even briefly could make a starting opensm think
 * the directory another's): the PID, whether it is a live opensm, and the
 * opensm.conf it was started with.
 */
#include <config.h>

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <osmqos/file.h>

#include "doctor.h"

/* plugin/publish/publish.h's OQ_PUBLISH_LOCK_NAME. */
#define LOCK_NAME ".osmqos.lock"

/* The fix the plugin's own message gives. */
#define SHARED_FIX                                                             \
	"give each opensm its own publish_dir= and audit= in "                 \
	"event_plugin_options (opensm@ units sharing one opensm.conf: set "    \
	"OSM_CACHE_DIR per unit)"

/* The PID in dir's lock file, or 0 (none, unreadable, not a number). */
static long lock_pid(const char *dir)
{
	char path[4096], buf[32];
	ssize_t n;
	int fd;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, LOCK_NAME) >=
	    sizeof(path))
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

/* Is pid a live process named opensm? */
static bool is_opensm(long pid)
{
	char path[64], comm[32] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	return !strcmp(comm, "opensm");
}

/*
 * The opensm.conf opensm pid was started with (-F FILE, -FFILE,
 * --config FILE, --config=FILE; else OpenSM's default), a relative one
 * resolved against its working directory, into out.  false when it
 * cannot be told (its command line or directory not readable here).
 */
static bool conf_of(long pid, char *out, size_t len)
{
	char path[64], cwd[PATH_MAX], buf[8192];
	const char *conf = OQ_OSM_CONF_FILE, *a, *end;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	end = buf + n;
	for (a = buf; a < end; a += strlen(a) + 1) {
		const char *next = a + strlen(a) + 1;

		if (!strcmp(a, "-F") || !strcmp(a, "--config")) {
			if (next < end)
				conf = next;
		} else if (!strncmp(a, "--config=", 9)) {
			conf = a + 9;
		} else if (!strncmp(a, "-F", 2)) {
			conf = a + 2;
		}
	}
	if (*conf == '/')
		return (size_t)snprintf(out, len, "%s", conf) < len;
	snprintf(path, sizeof(path), "/proc/%ld/cwd", pid);
	n = readlink(path, cwd, sizeof(cwd) - 1);
	if (n <= 0)
		return false;
	cwd[n] = '\0';
	return (size_t)snprintf(out, len, "%s/%s", cwd, conf) < len;
}

/* Do two paths name one file (both existing)? */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	if (stat(a, &sa) || stat(b, &sb))
		return oq_file_same(a, b);
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The other live opensm processes (not holder) started with conf: how
 * many, the first's PID in *first. */
static size_t others_with(const char *conf, long holder, long *first)
{
	char theirs[PATH_MAX + 256];
	struct dirent *e;
	size_t n = 0;
	DIR *d = opendir("/proc");

	*first = 0;
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		long pid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = strtol(e->d_name, NULL, 10);
		if (pid == holder || !is_opensm(pid) ||
		    !conf_of(pid, theirs, sizeof(theirs)) ||
		    !same_file(theirs, conf))
			continue;
		if (!n++)
			*first = pid;
	}
	closedir(d);
	return n;
}

void doctor_publish_lock(struct doctor_report *r, const char *dir,
			 const char *conf)
{
	char theirs[PATH_MAX + 256];
	long pid = lock_pid(dir), other;
	size_t n;

	/* No lock, or one a stopped opensm left (the kernel dropped its
	 * lock): the next osmqos to start takes the directory. */
	if (pid <= 0 || !is_opensm(pid))
		return;
	if (!conf_of(pid, theirs, sizeof(theirs))) {
		doctor_check(r, DOCTOR_WARN, "publish-owner", SHARED_FIX,
			     "publish directory %s is the osmqos of opensm pid "
			     "%ld, whose opensm.conf cannot be told here (run "
			     "doctor as root): if it is not the one %s starts, "
			     "that one's osmqos publishes nothing there",
			     dir, pid, conf);
		return;
	}
	if (strcmp(conf, "-") && !same_file(theirs, conf)) {
		doctor_check(r, DOCTOR_WARN, "publish-owner", SHARED_FIX,
			     "publish directory %s is the osmqos of another "
			     "opensm's (pid %ld, started with %s): the opensm "
			     "%s starts would publish nothing there and write "
			     "no policy copy (OpenSM then reads its policy "
			     "file itself)",
			     dir, pid, theirs, conf);
		return;
	}
	if (!strcmp(conf, "-")) {
		doctor_check(r, DOCTOR_WARN, "publish-owner", SHARED_FIX,
			     "publish directory %s is the osmqos of opensm pid "
			     "%ld (started with %s); doctor read opensm.conf "
			     "from standard input and cannot tell whether it "
			     "is that one",
			     dir, pid, theirs);
		return;
	}
	/* Two opensm@ units of one opensm.conf: the same directory. */
	n = others_with(theirs, pid, &other);
	if (n) {
		doctor_check(r, DOCTOR_WARN, "publish-owner", SHARED_FIX,
			     "publish directory %s is the osmqos of opensm pid "
			     "%ld; %zu other opensm (pid %ld%s) run%s with the "
			     "same %s and publish nothing there",
			     dir, pid, n, other, n > 1 ? ", ..." : "",
			     n > 1 ? "" : "s", conf);
		return;
	}
	doctor_check(r, DOCTOR_OK, "publish-owner", NULL,
		     "publish directory %s: its osmqos is opensm pid %ld's, "
		     "started with %s",
		     dir, pid, conf);
}
