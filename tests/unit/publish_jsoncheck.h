/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Strict JSON validation for the publish tests (publish_jsoncheck.c). */
#ifndef OSMQOS_TESTS_PUBLISH_JSONCHECK_H
#define OSMQOS_TESTS_PUBLISH_JSONCHECK_H

#include <stdbool.h>
#include <stddef.h>

/* True when s[0..n) is exactly one JSON value (surrounding whitespace
 * allowed), nested at most 64 deep. */
bool oq_jsoncheck(const char *s, size_t n);

#endif /* OSMQOS_TESTS_PUBLISH_JSONCHECK_H */
