/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Test seams of the audit writer, for the unit tests only (audit_test.c is
 * not part of the plugin).
 */
#ifndef OSMQOS_PLUGIN_AUDIT_TEST_H
#define OSMQOS_PLUGIN_AUDIT_TEST_H

#include <stdbool.h>

#include "audit.h"

/* paused: the writer takes no new batch (destroy overrides). */
void oq_audit_test_pause(struct oq_audit *w, bool paused);
/* Nonzero: every write(2) fails with that errno, as a full disk does; 0
 * restores normal writes. */
void oq_audit_test_fail_writes(struct oq_audit *w, int err);
/* follow false: no automatic reopen when the path is moved, so a test
 * controls exactly when reopens happen. */
void oq_audit_test_follow_path(struct oq_audit *w, bool follow);
/* Reopen the path before the next write, or at once when idle. */
void oq_audit_test_reopen(struct oq_audit *w);

#endif /* OSMQOS_PLUGIN_AUDIT_TEST_H */
