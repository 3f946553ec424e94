/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* OpenSM's copy of the last good policy (policy_copy.c), for
 * policy_file.c. */
#ifndef OSMQOS_PLUGIN_POLICY_COPY_H
#define OSMQOS_PLUGIN_POLICY_COPY_H

#include <stdbool.h>

#include "policy_file.h"

void oq_policy_copy_init(struct oq_policy_file *pf);
/* Write p (the policy in force, read from path) as OpenSM's copy: its text
 * with CRLF made LF and its osmqos-only keys commented out. */
void oq_policy_copy_update(struct oq_policy_file *pf, const struct oq_policy *p,
			   const char *path);
bool oq_policy_copy_pending(const struct oq_policy_file *pf);
/* Each heavy sweep: no copy for OpenSM in a publish directory other
 * users can write (said when that changes). */
void oq_policy_copy_dir_check(struct oq_policy_file *pf);
/* OpenSM reads the copy and something else stands at its path now
 * (removed, a directory, a FIFO, an edit): write it again.  Logged, but
 * for a removal. */
bool oq_policy_copy_changed(struct oq_policy_file *pf);
void oq_policy_copy_fini(struct oq_policy_file *pf);

#endif /* OSMQOS_PLUGIN_POLICY_COPY_H */
