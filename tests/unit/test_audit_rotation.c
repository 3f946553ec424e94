// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the audit writer follows its path (plugin/audit/audit.c):
 * reopen on request after a rename, rotation noticed without a call,
 * a missing path tried again, an idle writer asleep, a deleted open
 * file's records dropped. */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "audit/audit.h"
#include "audit/audit_test.h"
#include "audit_fixture.h"
#include "audit_test_util.h"

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

	/* reopen while idle: the writer is woken for it, no submit
	 * needed */
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

/* The audit writer's thread, by the name it gives itself; exactly one. */
static long writer_thread(void)
{
	char path[300], comm[32];
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	long found = 0, n = 0;
	FILE *f;

	assert_non_null(d);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f) &&
		    !strcmp(comm, "osmqos-audit\n")) {
			found = strtol(e->d_name, NULL, 10);
			n++;
		}
		fclose(f);
	}
	closedir(d);
	assert_int_equal(n, 1);
	return found;
}

/* The voluntary context switches of thread tid so far (its wake-ups);
 * *asleep: it is sleeping now (State: S). */
static long wakeups(long tid, bool *asleep)
{
	char path[64], line[128], state = 0;
	long n = -1, v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%ld/status", tid);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1)
			n = v;
		else
			sscanf(line, "State: %c", &state);
	}
	fclose(f);
	assert_true(n >= 0);
	assert_true(state != 0);
	*asleep = state == 'S';
	return n;
}

/* An idle writer sleeps (no wake-up in 1.5 s: each costs opensm a
 * context switch), and the first record after the file was rotated away
 * meanwhile goes to the new file, none to the old. */
static void test_idle_writer_sleeps(void **state)
{
	struct fixture *f = *state;
	struct oq_audit *w;
	char rotated[160];
	long tid, before, now, i;
	bool asleep;

	snprintf(rotated, sizeof(rotated), "%s.1", f->path);
	w = oq_audit_create(f->path, 128, cap_log, &f->log);
	assert_non_null(w);
	put_one(w, 1); /* the writer has named itself by then */
	tid = writer_thread();
	/* Back asleep after the batch: sleeping, and no wake-up in 200 ms
	 * (on a loaded machine it may take a while to get there). */
	before = wakeups(tid, &asleep);
	for (i = 0; i < 50; i++) {
		usleep(200000);
		now = wakeups(tid, &asleep);
		if (now == before && asleep)
			break;
		before = now;
	}
	assert_true(asleep);
	usleep(1500000);
	assert_int_equal(wakeups(tid, &asleep) - before, 0);

	assert_int_equal(rename(f->path, rotated), 0);
	put_one(w, 2);
	oq_audit_destroy(w);
	assert_int_equal(check_lines(rotated, NULL, 0), 1);
	assert_int_equal(last_lid(rotated), 1);
	assert_int_equal(check_lines(f->path, NULL, 0), 1);
	assert_int_equal(last_lid(f->path), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reopen_after_rename, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_rotation_followed_without_signal, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_path_retried,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_writer_sleeps, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_deleted_file_not_written,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
