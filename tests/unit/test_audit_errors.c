// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the audit writer on a failing disk (plugin/audit/audit.c):
 * ENOSPC and EIO injected, a real short write (RLIMIT_FSIZE), recovery,
 * exact counters and one ERROR per streak. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <cmocka.h>

#include "audit/audit.h"
#include "audit/audit_test.h"
#include "audit_fixture.h"
#include "audit_test_util.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_full_disk, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_short_write_keeps_lines_whole, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
