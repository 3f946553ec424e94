/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Helpers shared by the parser, validator and qos-ulps unit tests. */
#ifndef OSMQOS_TEST_POLICY_UTIL_H
#define OSMQOS_TEST_POLICY_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/policy.h>

struct parsed {
	struct oq_policy *p;
	struct oq_diags d;
};

/* Parse (and validate when asked); the policy must come back. */
static inline void parse_text(struct parsed *r, const char *text,
			      bool validate)
{
	oq_diags_init(&r->d);
	r->p = oq_policy_parse("t.conf", text, strlen(text), &r->d);
	assert_non_null(r->p);
	if (validate)
		oq_policy_validate(r->p, &r->d);
}

static inline void parsed_free(struct parsed *r)
{
	oq_diags_free(&r->d);
	oq_policy_free(r->p);
}

/* Print the diagnostics, for a failing test's log. */
static inline void dump_diags(const struct oq_diags *d)
{
	oq_diags_print(d, stderr);
}

/* Is there a diagnostic of this severity at line:col whose message
 * contains sub?  (line 0: any line, col 0: any column) */
static inline bool has_diag(const struct oq_diags *d, enum oq_severity sev,
			    unsigned int line, unsigned int col,
			    const char *sub)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].sev == sev &&
		    (!line || d->v[i].loc.line == line) &&
		    (!col || d->v[i].loc.col == col) &&
		    strstr(d->v[i].msg, sub))
			return true;
	return false;
}

#define assert_diag(d, sev, line, col, sub)                                  \
	do {                                                                 \
		if (!has_diag(d, sev, line, col, sub)) {                     \
			dump_diags(d);                                       \
			fail_msg("no diagnostic %u:%u '%s'", (unsigned)line, \
				 (unsigned)col, sub);                        \
		}                                                            \
	} while (0)
#define assert_error(d, line, col, sub) \
	assert_diag(d, OQ_SEV_ERROR, line, col, sub)
#define assert_warning(d, line, col, sub) \
	assert_diag(d, OQ_SEV_WARNING, line, col, sub)

/* Warnings of the unused-* codes (a level or group nothing names) are
 * about the test's small policies, not what they test. */
static inline size_t count_unused(const struct oq_diags *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->v[i].code && !strncmp(d->v[i].code, "unused-", 7);
	return n;
}

#define assert_clean(d)                                                        \
	do {                                                                   \
		if ((d)->n_errors || (d)->n_warnings != count_unused(d)) {     \
			dump_diags(d);                                         \
			fail_msg("unexpected diagnostics");                    \
		}                                                              \
	} while (0)

static inline void assert_range(const struct oq_ranges *r, size_t i,
				uint64_t lo, uint64_t hi)
{
	assert_true(i < r->n);
	assert_int_equal(r->v[i].lo, lo);
	assert_int_equal(r->v[i].hi, hi);
}

#define LEVELS_DEFAULT                                                       \
	"qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n end-qos-level\n" \
	"end-qos-levels\n"

#endif
