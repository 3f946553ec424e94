/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `osmqos export`: a valid policy written again for stock OpenSM. */
#ifndef OSMQOS_CLI_EXPORT_WRITE_H
#define OSMQOS_CLI_EXPORT_WRITE_H

#include <stdio.h>

#include <osmqos/policy.h>

/*
 * Write p (valid) in the form stock OpenSM reads as osmqos does, after
 * header (comment lines).  The osmqos keys become comments.  Returns 0,
 * or -1 on a stream error or a qos-ulps rule whose line cannot be told.
 */
int oq_export_write(FILE *out, const struct oq_policy *p, const char *header);

#endif /* OSMQOS_CLI_EXPORT_WRITE_H */
