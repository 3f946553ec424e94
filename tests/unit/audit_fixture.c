// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The audit writer tests' fixture and readers (audit_fixture.h). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "audit/audit.h"
#include "audit_fixture.h"
#include "audit_test_util.h"

void cap_log(void *ctx, enum oq_audit_log_level level, const char *msg)
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

int setup(void **state)
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

int teardown(void **state)
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
char *slurp(const char *path)
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
int line_count(const char *line)
{
	const char *c = strstr(line, "\"count\":");

	assert_non_null(c);
	return atoi(c + 8);
}

/* Count answers (each line's "count"), check each line is a JSON object;
 * lids[] gets the requester lid of each answer. */
int check_lines(const char *path, int *lids, int max)
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

void assert_accounted(struct oq_audit *w)
{
	struct oq_audit_stats st;

	oq_audit_get_stats(w, &st);
	assert_int_equal(st.submitted, st.written + st.dropped);
}

/* Submit one record with this lid and wait until it is written. */
void put_one(struct oq_audit *w, unsigned int lid)
{
	struct oq_audit_record r;

	fill_record(&r, lid);
	assert_int_equal(oq_audit_submit(w, &r), 0);
	assert_int_equal(oq_audit_flush(w, 10000), 0);
}

int last_lid(const char *path)
{
	static int lids[4096];
	int n = check_lines(path, lids, 4096);

	return n ? lids[n - 1] : -1;
}
