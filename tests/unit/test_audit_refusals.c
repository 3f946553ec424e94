// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the file the audit writer opens (plugin/audit/audit.c):
 * symlinks, FIFOs, directories, devices, other users' files and files
 * that are not a trail refused; the mode a new file gets. */
#include <errno.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_symlink_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_foreign_owner_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_non_regular_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_non_trail_refused, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_file_mode, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
