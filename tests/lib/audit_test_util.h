/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Shared by the audit unit tests and fuzz target: a tiny JSON validator
 * and a sample record (audit_test_util.c). */
#ifndef OSMQOS_TESTS_AUDIT_TEST_UTIL_H
#define OSMQOS_TESTS_AUDIT_TEST_UTIL_H

#include <stdbool.h>

struct oq_audit_record;

/* Is the line one well-formed JSON object? */
bool json_line_ok(const char *line);

/* A sample granted PathRecord answer, record number n. */
void fill_record(struct oq_audit_record *r, unsigned int n);

#endif /* OSMQOS_TESTS_AUDIT_TEST_UTIL_H */
