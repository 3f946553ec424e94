// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: audit log writer (plugin/audit/audit.c); formatting is in
 * test_audit_json.c. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "audit/audit.h"
#include "audit/audit_test.h"
#include "audit_test_util.h"

/* ---- helpers ---- */

struct logcap {
	pthread_mutex_t lock;
	int n_error, n_info;
	char last_error[1024];
	char last_info[1024];
};

static void cap_log(void *ctx, enum oq_audit_log_level level, const char *msg)
{
	struct logcap *c = ctx;

	pthread_mutex_lock(&c->lock);
	if (level == OQ_AUDIT_LOG_ERROR) {
		c->n_error++;
		snprintf(c->last_error, sizeof(c->last_error), "%s", msg);
	} else {
		c->n_info++;
		snprintf(c->last_info, sizeof(c->last_info), "%s", msg);
	}
	pthread_mutex_unlock(&c->lock);
}

struct fixture {
	char dir[64];
	char path[128];
	struct logcap log;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	strcpy(f->dir, "/tmp/oq-audit-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/audit.log", f->dir);
	pthread_mutex_init(&f->log.lock, NULL);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	pthread_mutex_destroy(&f->log.lock);
	free(f);
	return 0;
}

/* Whole file as a NUL-terminated string (caller frees); NULL if missing. */
static char *slurp(const char *path)
{
	FILE *fp = fopen(path, "r");
	char *buf;
	long len;

	if (!fp)
		return NULL;
	fseek(fp, 0, SEEK_END);
	len = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, fp), (size_t)len);
	buf[len] = 0;
	fclose(fp);
	return buf;
}

/* The answers a line stands for: its "count". */
static int line_count(const char *line)
{
	const char *c = strstr(line, "\"count\":");

	assert_non_null(c);
	return atoi(c + 8);
}

/* Count answers (each line's "count"), check each line is a JSON object;
 * lids[] gets the requester lid of each answer. */
static int check_lines(const char *path, int *lids, int max)
{
	char *buf = slurp(path), *line, *save = NULL;
	int n = 0;

	assert_non_null(buf);
	if (*buf)
		assert_int_equal(buf[strlen(buf) - 1], '\n');
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *l = strstr(line, "\"lid\":");

		int k, c;

		if (!json_line_ok(line))
			fail_msg("not a JSON object: %s", line);
		assert_non_null(l);
		c = line_count(line);
		assert_true(c >= 1);
		for (k = 0; k < c; k++, n++)
			if (lids && n < max)
				lids[n] = atoi(l + 6);
	}
	free(buf);
	return n;
}

static void assert_accounted(struct oq_audit *w)
{
	struct oq_audit_stats st;

	oq_audit_get_stats(w, &st);
	assert_int_equal(st.submitted, st.written + st.dropped);
}

/* ---- the writer ---- */

static void test_write_parse_back(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit_stats st;
	struct oq_audit *w;
	static int lids[1000];
	int i;

	w = oq_audit_create(f->path, 0, cap_log, &f->log);
	assert_non_null(w);
	for (i = 0; i < 1000; i++) {
		fill_record(&r, (unsigned int)i);
		if (i % 2)
			r.time.tv_sec = r.time.tv_nsec = 0; /* stamp now */
		assert_int_equal(oq_audit_submit(w, &r), 0);
	}
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.submitted, 1000);
	assert_int_equal(st.written, 1000);
	assert_int_equal(st.dropped, 0);
	assert_int_equal(st.write_errors, 0);
	oq_audit_destroy(w);

	assert_int_equal(check_lines(f->path, lids, 1000), 1000);
	for (i = 0; i < 1000; i++)
		assert_int_equal(lids[i], i);
	assert_int_equal(f->log.n_error, 0);
}

static void test_time_stamped_at_submit(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit *w;
	char *buf, *t, year[8];
	time_t now = time(NULL);
	struct tm tm;

	w = oq_audit_create(f->path, 8, cap_log, &f->log);
	assert_non_null(w);
	fill_record(&r, 1);
	r.time.tv_sec = r.time.tv_nsec = 0;
	oq_audit_submit(w, &r);
	oq_audit_destroy(w);
	buf = slurp(f->path);
	t = strstr(buf, "\"time\":\"");
	assert_non_null(t);
	gmtime_r(&now, &tm);
	strftime(year, sizeof(year), "%Y-", &tm);
	assert_memory_equal(t + 8, year, 5);
	/* YYYY-MM-DDTHH:MM:SS.uuuuuuZ */
	assert_int_equal(t[8 + 10], 'T');
	assert_int_equal(t[8 + 19], '.');
	assert_int_equal(t[8 + 26], 'Z');
	free(buf);
}

static void test_bounded_queue_drops(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit_stats st;
	struct timespec t0, t1;
	struct oq_audit *w;
	int i, ok = 0;
	double secs;

	w = oq_audit_create(f->path, 64, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_test_pause(w, true);
	fill_record(&r, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 100000; i++)
		ok += oq_audit_submit(w, &r) == 0;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) +
	       (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	/* a stalled writer must not slow submitters down: 100k submits on
	 * a full ring are pure counter bumps (loose bound for slow CI) */
	assert_true(secs < 2.0);
	assert_int_equal(ok, 64);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.submitted, 100000);
	assert_int_equal(st.dropped_full, 100000 - 64);
	assert_int_equal(st.dropped, 100000 - 64);
	assert_int_equal(st.written, 0);
	assert_int_equal(oq_audit_flush(w, 50), -1); /* still paused */

	oq_audit_test_pause(w, false);
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.written, 64);
	assert_accounted(w);
	/* room again once drained */
	assert_int_equal(oq_audit_submit(w, &r), 0);
	oq_audit_destroy(w);
	assert_int_equal(check_lines(f->path, NULL, 0), 65);
	/* the drops were logged */
	assert_true(f->log.n_error >= 1);
	assert_non_null(strstr(f->log.last_error, "99936 in total"));
}

static void test_destroy_flushes(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit *w;
	static int lids[500];
	int i;

	w = oq_audit_create(f->path, 1000, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_test_pause(w, true);
	for (i = 0; i < 500; i++) {
		fill_record(&r, (unsigned int)i);
		assert_int_equal(oq_audit_submit(w, &r), 0);
	}
	oq_audit_destroy(w); /* overrides the pause */
	assert_int_equal(check_lines(f->path, lids, 500), 500);
	for (i = 0; i < 500; i++)
		assert_int_equal(lids[i], i);
}

/* The counts oq_audit_close() returns include what was still queued. */
static void test_close_counts_the_last_batch(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit_stats st;
	struct oq_audit *w;
	static int lids[300];
	int i;

	w = oq_audit_create(f->path, 1000, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_test_pause(w, true);
	for (i = 0; i < 300; i++) {
		fill_record(&r, (unsigned int)i);
		assert_int_equal(oq_audit_submit(w, &r), 0);
	}
	memset(&st, 0xff, sizeof(st));
	oq_audit_close(w, &st);
	assert_int_equal(st.written, 300);
	assert_int_equal(st.dropped, 0);
	assert_int_equal(check_lines(f->path, lids, 300), (int)st.lines);
}

static void test_reopen_after_rename(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit_stats st;
	struct oq_audit *w;
	char rotated[160];
	struct stat sb;
	int i;

	snprintf(rotated, sizeof(rotated), "%s.1", f->path);
	w = oq_audit_create(f->path, 128, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_test_follow_path(w, false);
	fill_record(&r, 1);
	for (i = 0; i < 10; i++)
		oq_audit_submit(w, &r);
	assert_int_equal(oq_audit_flush(w, 10000), 0);

	/* logrotate: rename, then postrotate HUP */
	assert_int_equal(rename(f->path, rotated), 0);
	for (i = 0; i < 3; i++)
		oq_audit_submit(w, &r); /* before the HUP: old file */
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	oq_audit_test_reopen(w);
	fill_record(&r, 2);
	for (i = 0; i < 5; i++)
		oq_audit_submit(w, &r);
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.reopens, 1);
	assert_int_equal(st.written, 18);

	/* reopen while idle (as from a signal handler): picked up by the
	 * writer's idle wake-up, no submit needed */
	assert_int_equal(rename(f->path, rotated), 0);
	oq_audit_test_reopen(w);
	for (i = 0; i < 100 && stat(f->path, &sb); i++)
		usleep(20000);
	assert_int_equal(stat(f->path, &sb), 0);
	oq_audit_destroy(w);

	assert_int_equal(check_lines(rotated, NULL, 0), 5);
	assert_int_equal(check_lines(f->path, NULL, 0), 0);
	assert_int_equal(stat(f->path, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, OQ_AUDIT_FILE_MODE);
	assert_non_null(strstr(f->log.last_info, "reopened"));
}

/* Submit one record with this lid and wait until it is written. */
static void put_one(struct oq_audit *w, unsigned int lid)
{
	struct oq_audit_record r;

	fill_record(&r, lid);
	assert_int_equal(oq_audit_submit(w, &r), 0);
	assert_int_equal(oq_audit_flush(w, 10000), 0);
}

static int last_lid(const char *path)
{
	static int lids[4096];
	int n = check_lines(path, lids, 4096);

	return n ? lids[n - 1] : -1;
}

/* OpenSM keeps SIGHUP, so rotation must work with no reopen call. */
static void test_rotation_followed_without_signal(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_stats st;
	struct oq_audit *w;
	char rotated[160], target[160];
	struct stat sb;
	int i, n = 1, errors;

	snprintf(rotated, sizeof(rotated), "%s.1", f->path);
	snprintf(target, sizeof(target), "%s/target", f->dir);
	w = oq_audit_create(f->path, 128, cap_log, &f->log);
	assert_non_null(w);
	put_one(w, 1);

	/* logrotate without postrotate: rename only */
	assert_int_equal(rename(f->path, rotated), 0);
	for (i = 0; i < 250 && stat(f->path, &sb); i++, n++) {
		put_one(w, 2);
		usleep(20000);
	}
	assert_int_equal(stat(f->path, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, OQ_AUDIT_FILE_MODE);
	put_one(w, 3);
	n++;
	assert_int_equal(last_lid(f->path), 3);
	assert_int_equal(check_lines(rotated, NULL, 0) +
				 check_lines(f->path, NULL, 0),
			 n);
	assert_non_null(strstr(f->log.last_info, "moved"));

	/* logrotate "create": rename, new empty file with its own mode */
	assert_int_equal(rename(f->path, rotated), 0);
	close(open(f->path, O_WRONLY | O_CREAT | O_EXCL, 0600));
	for (i = 0; i < 250 && last_lid(f->path) != 4; i++) {
		put_one(w, 4);
		usleep(20000);
	}
	assert_int_equal(last_lid(f->path), 4);
	assert_int_equal(stat(f->path, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0600);

	/* a symlink planted at the path: refused, reported once, and the
	 * writer keeps the file it has */
	assert_int_equal(rename(f->path, rotated), 0);
	assert_int_equal(symlink(target, f->path), 0);
	errors = f->log.n_error;
	for (i = 0; i < 25; i++) {
		put_one(w, 5);
		usleep(100000);
	}
	assert_int_equal(f->log.n_error, errors + 1);
	assert_non_null(strstr(f->log.last_error, "symbolic link"));
	assert_int_equal(last_lid(rotated), 5);
	assert_int_not_equal(stat(target, &sb), 0);

	/* symlink removed: the path is free again and gets a new file */
	assert_int_equal(unlink(f->path), 0);
	for (i = 0; i < 250 && stat(f->path, &sb); i++) {
		put_one(w, 6);
		usleep(20000);
	}
	put_one(w, 7);
	assert_int_equal(last_lid(f->path), 7);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.reopens, 3);
	assert_int_equal(st.dropped, 0);
	oq_audit_destroy(w);
}

static void test_symlink_refused(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit *w;
	char target[160], rotated[160];
	struct stat sb;

	snprintf(target, sizeof(target), "%s/target", f->dir);
	snprintf(rotated, sizeof(rotated), "%s.1", f->path);

	/* dangling symlink: not created through it */
	assert_int_equal(symlink(target, f->path), 0);
	errno = 0;
	w = oq_audit_create(f->path, 8, cap_log, &f->log);
	assert_null(w);
	assert_int_equal(errno, ELOOP);
	assert_int_equal(f->log.n_error, 1);
	assert_non_null(strstr(f->log.last_error, "symbolic link"));
	assert_int_not_equal(stat(target, &sb), 0);

	/* symlink to an existing file: still refused, target untouched */
	close(open(target, O_WRONLY | O_CREAT, 0600));
	assert_null(oq_audit_create(f->path, 8, cap_log, &f->log));
	assert_int_equal(f->log.n_error, 2);
	assert_int_equal(stat(target, &sb), 0);
	assert_int_equal(sb.st_size, 0);

	/* a symlink planted at rotation time: reopen refuses it and keeps
	 * writing to the file it has */
	assert_int_equal(unlink(f->path), 0);
	w = oq_audit_create(f->path, 8, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_test_follow_path(w, false);
	assert_int_equal(rename(f->path, rotated), 0);
	assert_int_equal(symlink(target, f->path), 0);
	oq_audit_test_reopen(w);
	fill_record(&r, 7);
	oq_audit_submit(w, &r);
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	oq_audit_destroy(w);
	assert_int_equal(f->log.n_error, 3);
	assert_non_null(strstr(f->log.last_error, "reopen failed"));
	assert_non_null(strstr(f->log.last_error, "symbolic link"));
	assert_int_equal(check_lines(rotated, NULL, 0), 1);
	assert_int_equal(stat(target, &sb), 0);
	assert_int_equal(sb.st_size, 0);
}

/* The directory of the trail renamed away, then made again: the writer,
 * which failed to reopen the missing path once (said once), tries again
 * every second and writes to the new file; nothing more goes to the file
 * moved away (which logrotate may delete next). */
static void test_missing_path_retried(void **state)
{
	struct fixture *f = *state;
	struct oq_audit *w;
	char dir[160], path[200], away[160];
	struct stat sb;
	int i, errors;

	snprintf(dir, sizeof(dir), "%s/sub", f->dir);
	snprintf(path, sizeof(path), "%s/audit.log", dir);
	snprintf(away, sizeof(away), "%s/sub.old", f->dir);
	assert_int_equal(mkdir(dir, 0700), 0);
	w = oq_audit_create(path, 128, cap_log, &f->log);
	assert_non_null(w);
	put_one(w, 1);
	assert_int_equal(rename(dir, away), 0);
	errors = f->log.n_error;
	/* Missing for over two seconds: one error, however many tries. */
	for (i = 0; i < 25; i++) {
		put_one(w, 2);
		usleep(100000);
	}
	assert_int_equal(f->log.n_error, errors + 1);
	assert_non_null(strstr(f->log.last_error, "reopen failed"));
	assert_int_equal(mkdir(dir, 0700), 0);
	for (i = 0; i < 250 && stat(path, &sb); i++) {
		put_one(w, 3);
		usleep(20000);
	}
	put_one(w, 4);
	assert_int_equal(last_lid(path), 4);
	assert_int_equal(f->log.n_error, errors + 1);
	oq_audit_destroy(w);
}

/* The trail moved to another file system (copied, then unlinked) with a
 * symlink left at the path: the reopen refuses the symlink, and records
 * written to the open file would reach no file, so they count as dropped
 * (one ERROR says why) until the path can be opened again. */
static void test_deleted_file_not_written(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_stats st;
	struct oq_audit *w;
	char big[160], *text;
	int i, errors, fd;

	snprintf(big, sizeof(big), "%s/big.log", f->dir);
	w = oq_audit_create(f->path, 128, cap_log, &f->log);
	assert_non_null(w);
	put_one(w, 1);
	text = slurp(f->path);
	fd = open(big, O_WRONLY | O_CREAT | O_EXCL, 0640);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	free(text);
	assert_int_equal(unlink(f->path), 0);
	assert_int_equal(symlink(big, f->path), 0);
	errors = f->log.n_error;
	for (i = 0; i < 25; i++) {
		put_one(w, 2);
		usleep(100000);
	}
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.written, 1);
	assert_int_equal(st.dropped, 25);
	assert_int_equal(f->log.n_error, errors + 1);
	assert_non_null(strstr(f->log.last_error, "records are being lost"));
	assert_non_null(strstr(f->log.last_error, "symbolic link"));
	assert_int_equal(check_lines(big, NULL, 0), 1);

	/* the real file put back at the path: written again */
	assert_int_equal(unlink(f->path), 0);
	assert_int_equal(rename(big, f->path), 0);
	for (i = 0; i < 250 && last_lid(f->path) != 3; i++) {
		put_one(w, 3);
		usleep(20000);
	}
	assert_int_equal(last_lid(f->path), 3);
	assert_non_null(strstr(f->log.last_info, "records were lost"));
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.reopens, 1);
	assert_int_equal(st.submitted, st.written + st.dropped);
	assert_int_equal(f->log.n_error, errors + 1);
	oq_audit_destroy(w);
}

/* A file opensm's user does not own (planted in a directory others may
 * write): its owner could read or cut the trail, so it is refused.  Root
 * only (chown). */
static void test_foreign_owner_refused(void **state)
{
	struct fixture *f = *state;

	if (geteuid() != 0)
		skip();
	close(open(f->path, O_WRONLY | O_CREAT | O_EXCL, 0666));
	assert_int_equal(chown(f->path, 65534, 65534), 0);
	assert_null(oq_audit_create(f->path, 8, cap_log, &f->log));
	assert_non_null(strstr(f->log.last_error, "belongs to uid 65534"));
}

static void test_non_regular_refused(void **state)
{
	struct fixture *f = *state;
	char fifo[160], want[256];

	/* a FIFO nobody reads must not hang the open */
	snprintf(fifo, sizeof(fifo), "%s/fifo", f->dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_null(oq_audit_create(fifo, 8, cap_log, &f->log));
	assert_int_equal(f->log.n_error, 1);
	assert_non_null(
		strstr(f->log.last_error, "not a regular file (a FIFO"));
	/* a directory: a file in it is what to give */
	assert_null(oq_audit_create(f->dir, 8, cap_log, &f->log));
	assert_int_equal(f->log.n_error, 2);
	assert_int_equal(errno, EISDIR);
	snprintf(want, sizeof(want),
		 "%s is a directory; give audit= a file path, e.g. "
		 "%s/osmqos-audit.log",
		 f->dir, f->dir);
	assert_non_null(strstr(f->log.last_error, want));
	assert_null(strstr(f->log.last_error, "writable"));
	/* a character device */
	assert_null(oq_audit_create("/dev/null", 8, cap_log, &f->log));
	assert_int_equal(f->log.n_error, 3);
	assert_non_null(strstr(f->log.last_error, "not a regular file"));
	/* missing directory: says what to check */
	snprintf(fifo, sizeof(fifo), "%s/nodir/audit.log", f->dir);
	assert_null(oq_audit_create(fifo, 8, cap_log, &f->log));
	assert_non_null(strstr(f->log.last_error, "directory exists"));
	/* no path */
	assert_null(oq_audit_create("", 8, cap_log, &f->log));
	assert_null(oq_audit_create(NULL, 8, NULL, NULL));
}

/* A file that does not start like a trail (audit= naming OpenSM's
 * partition file, say) is refused and left as it is; an empty one or a
 * trail is appended to. */
static void test_non_trail_refused(void **state)
{
	struct fixture *f = *state;
	const char text[] = "Default=0x7fff, ipoib : ALL=full ;\n";
	struct oq_audit *w;
	char *got;
	int fd;

	fd = open(f->path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	errno = 0;
	assert_null(oq_audit_create(f->path, 8, cap_log, &f->log));
	assert_int_equal(errno, EINVAL);
	assert_non_null(strstr(f->log.last_error,
			       "is not an osmqos audit trail (its first line "
			       "is not JSON); give audit= a file of its own"));
	got = slurp(f->path);
	assert_string_equal(got, text);
	free(got);

	/* empty: taken (logrotate's create makes one), then a trail */
	assert_int_equal(truncate(f->path, 0), 0);
	w = oq_audit_create(f->path, 8, cap_log, &f->log);
	assert_non_null(w);
	put_one(w, 1);
	oq_audit_destroy(w);
	w = oq_audit_create(f->path, 8, cap_log, &f->log);
	assert_non_null(w);
	put_one(w, 2);
	oq_audit_destroy(w);
	assert_int_equal(check_lines(f->path, NULL, 0), 2);
}

static void test_file_mode(void **state)
{
	struct fixture *f = *state;
	struct oq_audit *w;
	struct stat sb;
	mode_t old;

	old = umask(0);
	w = oq_audit_create(f->path, 8, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_destroy(w);
	assert_int_equal(stat(f->path, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0640);
	assert_true(S_ISREG(sb.st_mode));

	/* created with the documented mode whatever the umask */
	unlink(f->path);
	umask(077);
	w = oq_audit_create(f->path, 8, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_destroy(w);
	assert_int_equal(stat(f->path, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0640);

	/* an existing file keeps the mode the admin gave it */
	assert_int_equal(chmod(f->path, 0600), 0);
	w = oq_audit_create(f->path, 8, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_destroy(w);
	assert_int_equal(stat(f->path, &sb), 0);
	assert_int_equal(sb.st_mode & 07777, 0600);
	umask(old);
}

static void test_appends_to_existing(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit *w;
	int k;

	fill_record(&r, 3);
	for (k = 0; k < 2; k++) {
		w = oq_audit_create(f->path, 8, cap_log, &f->log);
		assert_non_null(w);
		oq_audit_submit(w, &r);
		oq_audit_destroy(w);
	}
	assert_int_equal(check_lines(f->path, NULL, 0), 2);
}

static void test_full_disk(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit_stats st;
	struct oq_audit *w;
	static int lids[8];
	int i;

	w = oq_audit_create(f->path, 256, cap_log, &f->log);
	assert_non_null(w);
	fill_record(&r, 1);
	oq_audit_submit(w, &r);
	assert_int_equal(oq_audit_flush(w, 10000), 0);

	oq_audit_test_fail_writes(w, ENOSPC);
	for (i = 0; i < 200; i++) {
		/* submitters are unaffected by the failing disk */
		assert_int_equal(oq_audit_submit(w, &r), 0);
		if (i % 50 == 0)
			assert_int_equal(oq_audit_flush(w, 10000), 0);
	}
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.written, 1);
	assert_int_equal(st.dropped, 200);
	assert_int_equal(st.dropped_full, 0);
	assert_true(st.write_errors >= 1);
	assert_accounted(w);
	/* logged once for the whole streak, with the reason */
	assert_int_equal(f->log.n_error, 1);
	assert_non_null(strstr(f->log.last_error, strerror(ENOSPC)));

	/* the disk has room again: writing resumes by itself */
	oq_audit_test_fail_writes(w, 0);
	fill_record(&r, 2);
	for (i = 0; i < 3; i++)
		oq_audit_submit(w, &r);
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.written, 4);
	assert_non_null(strstr(f->log.last_info, "200 records were lost"));

	/* EIO is handled the same way */
	oq_audit_test_fail_writes(w, EIO);
	oq_audit_submit(w, &r);
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	assert_int_equal(f->log.n_error, 2);
	oq_audit_test_fail_writes(w, 0);
	oq_audit_destroy(w);

	assert_int_equal(check_lines(f->path, lids, 8), 4);
	assert_int_equal(lids[0], 1);
	assert_int_equal(lids[3], 2);
}

/* A real short write: RLIMIT_FSIZE cuts a write mid-line and the next one
 * fails with EFBIG, as a file system filling up does. */
static void test_short_write_keeps_lines_whole(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit_stats st;
	struct rlimit old, lim;
	struct oq_audit *w;
	char *buf, *line, *save = NULL;
	uint64_t written_cut;
	int i, valid = 0, invalid = 0, last_lid = -1;

	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	if (old.rlim_cur != RLIM_INFINITY && old.rlim_cur < (1 << 20))
		skip();
	signal(SIGXFSZ, SIG_IGN);
	w = oq_audit_create(f->path, 1024, cap_log, &f->log);
	assert_non_null(w);
	lim = old;
	lim.rlim_cur = 50000;
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	for (i = 0; i < 200; i++) {
		fill_record(&r, (unsigned int)i);
		oq_audit_submit(w, &r);
	}
	i = oq_audit_flush(w, 10000);
	setrlimit(RLIMIT_FSIZE, &old);
	assert_int_equal(i, 0);
	oq_audit_get_stats(w, &st);
	written_cut = st.written;
	assert_true(st.write_errors >= 1);
	assert_true(st.written > 0 && st.written < 200);
	assert_accounted(w);
	assert_int_equal(f->log.n_error, 1);
	assert_non_null(strstr(f->log.last_error, strerror(EFBIG)));

	fill_record(&r, 1000);
	for (i = 0; i < 3; i++)
		oq_audit_submit(w, &r);
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.written, written_cut + 3);
	oq_audit_destroy(w);

	/* every complete line parses, the cut one stands alone, and the
	 * answers of the good lines are exactly what the writer reported */
	buf = slurp(f->path);
	assert_non_null(buf);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (json_line_ok(line)) {
			valid += line_count(line);
			last_lid = atoi(strstr(line, "\"lid\":") + 6);
		} else {
			invalid++;
		}
	}
	free(buf);
	assert_true(invalid <= 1);
	assert_int_equal(valid, (int)st.written);
	assert_int_equal(last_lid, 1000);
}

struct submitter {
	struct oq_audit *w;
	unsigned int id;
	int accepted;
};

static void *submit_many(void *arg)
{
	struct submitter *s = arg;
	struct oq_audit_record r;
	int i;

	fill_record(&r, s->id);
	for (i = 0; i < 20000; i++)
		s->accepted += oq_audit_submit(s->w, &r) == 0;
	return NULL;
}

static void test_concurrent_submitters(void **state)
{
	struct fixture *f = *state;
	struct submitter s[4];
	pthread_t t[4];
	struct oq_audit_stats st;
	struct oq_audit *w;
	int i, accepted = 0;

	w = oq_audit_create(f->path, 512, cap_log, &f->log);
	assert_non_null(w);
	for (i = 0; i < 4; i++) {
		s[i] = (struct submitter){w, (unsigned int)i, 0};
		assert_int_equal(
			pthread_create(&t[i], NULL, submit_many, &s[i]), 0);
	}
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		accepted += s[i].accepted;
	}
	assert_int_equal(oq_audit_flush(w, 30000), 0);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.submitted, 80000);
	assert_int_equal(st.written, (uint64_t)accepted);
	assert_int_equal(st.dropped, st.dropped_full);
	assert_accounted(w);
	oq_audit_destroy(w);
	assert_int_equal(check_lines(f->path, NULL, 0), accepted);
}

/* Identical answers in one batch share a line with their count and last
 * time; different answers keep their own lines, in order; every record
 * is counted as written. */
static void test_identical_answers_share_a_line(void **state)
{
	struct fixture *f = *state;
	struct oq_audit_record r;
	struct oq_audit_stats st;
	struct oq_audit *w;
	char *text, *p;
	int i, lines = 0;

	w = oq_audit_create(f->path, 0, cap_log, &f->log);
	assert_non_null(w);
	oq_audit_test_pause(w, true);
	for (i = 0; i < 300; i++) {
		/* 100 x lid 1, then lid 2 and lid 1 alternating. */
		fill_record(&r, i < 100 || i % 2 ? 1u : 2u);
		r.time.tv_sec = 1700000000 + i;
		assert_int_equal(oq_audit_submit(w, &r), 0);
	}
	oq_audit_test_pause(w, false);
	assert_int_equal(oq_audit_flush(w, 10000), 0);
	oq_audit_get_stats(w, &st);
	assert_int_equal(st.submitted, 300);
	assert_int_equal(st.written, 300);
	assert_int_equal(st.lines, 2);
	assert_int_equal(st.dropped, 0);
	oq_audit_destroy(w);

	text = slurp(f->path);
	assert_non_null(text);
	for (p = text; *p; p++)
		lines += *p == '\n';
	assert_int_equal(lines, 2);
	/* lid 1: 100 + 100 answers, the last at +299; lid 2: 100, last at
	 * +298. */
	assert_non_null(strstr(text, "\"count\":200,\"time_last\":\"2023-11-"
				     "14T22:18:19.123456Z\"}\n"));
	assert_non_null(strstr(text, "\"count\":100,\"time_last\":\"2023-11-"
				     "14T22:18:18.123456Z\"}\n"));
	assert_true(strstr(text, "\"count\":200") <
		    strstr(text, "\"count\":100"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_parse_back, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_time_stamped_at_submit,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_bounded_queue_drops, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_close_counts_the_last_batch, setup, teardown),
		cmocka_unit_test_setup_teardown(test_destroy_flushes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_reopen_after_rename, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_rotation_followed_without_signal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_symlink_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_missing_path_retried,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_deleted_file_not_written,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_owner_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_non_regular_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_non_trail_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_file_mode, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_appends_to_existing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_full_disk, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_short_write_keeps_lines_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_identical_answers_share_a_line, setup, teardown),
		cmocka_unit_test_setup_teardown(test_concurrent_submitters,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
