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
void parse_text(struct parsed *r, const char *text, bool validate);
void parsed_free(struct parsed *r);

/* Print the diagnostics, for a failing test's log. */
void dump_diags(const struct oq_diags *d);

/* Is there a diagnostic of this severity at line:col whose message
 * contains sub?  (line 0: any line, col 0: any column) */
bool has_diag(const struct oq_diags *d, enum oq_severity sev, unsigned int line,
	      unsigned int col, const char *sub);

#define assert_diag(d, sev, line, col, sub)                                    \
	do {                                                                   \
		if (!has_diag(d, sev, line, col, sub)) {                       \
			dump_diags(d);                                         \
			fail_msg("no diagnostic %u:%u '%s'", (unsigned)line,   \
				 (unsigned)col, sub);                          \
		}                                                              \
	} while (0)
#define assert_error(d, line, col, sub)                                        \
	assert_diag(d, OQ_SEV_ERROR, line, col, sub)
#define assert_warning(d, line, col, sub)                                      \
	assert_diag(d, OQ_SEV_WARNING, line, col, sub)

/* Warnings of the unused-* codes (a level or group nothing names) are
 * about the test's small policies, not what they test. */
size_t count_unused(const struct oq_diags *d);

#define assert_clean(d)                                                        \
	do {                                                                   \
		if ((d)->n_errors || (d)->n_warnings != count_unused(d)) {     \
			dump_diags(d);                                         \
			fail_msg("unexpected diagnostics");                    \
		}                                                              \
	} while (0)

void assert_range(const struct oq_ranges *r, size_t i, uint64_t lo,
		  uint64_t hi);

#define LEVELS_DEFAULT                                                         \
	"qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n end-qos-level\n"   \
	"end-qos-levels\n"

#endif
