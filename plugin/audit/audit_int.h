/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The audit writer's instance, private to audit.c and its unit-test seams
 * (audit_test.c).
 */
#ifndef OSMQOS_PLUGIN_AUDIT_INT_H
#define OSMQOS_PLUGIN_AUDIT_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#include "audit.h"

struct oq_audit {
	char *path;
	int fd;
	oq_audit_log_fn log_fn;
	void *log_ctx;
	pthread_t thread;

	pthread_mutex_t lock;
	pthread_cond_t wake;	/* writer: data, stop, pause, flush, reopen */
	pthread_cond_t drained; /* oq_audit_flush(): a batch was retired */
	struct oq_audit_record *ring;
	size_t cap, head, count;
	uint64_t enqueued, retired;
	bool stop, paused; /* paused: test seam, no new batch */
	struct oq_audit_stats st;

	/* Test seams (audit_test.c; the plugin leaves them zero): reopen
	 * before the next write, fail every write(2) with this errno, do
	 * not follow the path. */
	atomic_bool reopen_req;
	atomic_int fail_errno;
	atomic_bool no_path_check;

	/* Writer thread only. */
	char *buf;
	/* One batch's identical answers (write_batch): an open-addressing
	 * table of batch positions (+1, 0 empty; agg_cap slots), and per
	 * batch position the count, the last time, the distinct answers'
	 * positions, and per line of a chunk the records it stands for. */
	uint32_t *agg_slot;
	size_t agg_cap;
	uint32_t *agg_count;
	struct timespec *agg_last;
	uint32_t *agg_reps;
	uint32_t *line_recs;
	bool mid_line; /* a failed write left a partial line */
	bool in_error;
	uint64_t err_writes, err_lost;
	uint64_t logged_full;
	uint64_t last_full_log_ns;   /* oq_clock_ns() of the last drop line */
	uint64_t last_path_check_ns; /* ... of the last look at the path */
	/* What was at the path when a reopen last failed, so a bad path is
	 * reported once, not at every check. */
	bool bad_valid, bad_missing;
	dev_t bad_dev;
	ino_t bad_ino;
	/* The open file lost its last link (deleted, or moved to another
	 * file system: copied, then unlinked) and the path could not be
	 * opened again: batches are dropped, orphan_lost counts them. */
	bool orphaned;
	uint64_t orphan_lost;
};

#endif /* OSMQOS_PLUGIN_AUDIT_INT_H */
