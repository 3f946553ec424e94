/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The audit writer tests' shared parts (test_audit*.c): a fixture with a
 * fresh mkdtemp directory and a log capture, and readers of the trail
 * that assert every line is a JSON object.  Include after <cmocka.h>.
 */
#ifndef OSMQOS_TESTS_AUDIT_FIXTURE_H
#define OSMQOS_TESTS_AUDIT_FIXTURE_H

#include <pthread.h>

#include "audit/audit.h"

struct logcap {
	pthread_mutex_t lock;
	int n_error, n_info;
	char last_error[1024];
	char last_info[1024];
};

struct fixture {
	char dir[64];
	char path[128];
	struct logcap log;
};

/* The log_fn of every writer a test makes: counts and keeps the last
 * ERROR and INFO line in the fixture's logcap. */
void cap_log(void *ctx, enum oq_audit_log_level level, const char *msg);
/* cmocka setup/teardown: *state is a struct fixture. */
int setup(void **state);
int teardown(void **state);
/* Whole file as a NUL-terminated string (caller frees); NULL if missing. */
char *slurp(const char *path);
/* The answers a line stands for: its "count". */
int line_count(const char *line);
/* Count answers (each line's "count"), check each line is a JSON object;
 * lids[] gets the requester lid of each answer. */
int check_lines(const char *path, int *lids, int max);
/* submitted == written + dropped. */
void assert_accounted(struct oq_audit *w);
/* Submit one record with this lid and wait until it is written. */
void put_one(struct oq_audit *w, unsigned int lid);
/* The requester lid of the file's last answer, -1 if it has none. */
int last_lid(const char *path);

#endif /* OSMQOS_TESTS_AUDIT_FIXTURE_H */
