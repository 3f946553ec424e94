/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A strict checker for the Prometheus text exposition format 0.0.4, as
 * the published osmqos.prom must follow it (promtool is not always
 * installed).  Stricter than the format where osmqos promises more: every
 * family has HELP and TYPE before its samples, a family's lines are
 * together, counters end in _total and are >= 0, histograms are complete
 * and cumulative, no series appears twice, the whole file is UTF-8 and
 * ends in a newline.
 */
#ifndef OSMQOS_TESTS_PUBLISH_PROMCHECK_H
#define OSMQOS_TESTS_PUBLISH_PROMCHECK_H

#include <stddef.h>

/* Check text[0..len).  Returns the number of samples (>= 0), or -1 with
 * "line N: what" in err. */
long oq_promcheck(const char *text, size_t len, char *err, size_t errlen);

#endif /* OSMQOS_TESTS_PUBLISH_PROMCHECK_H */
