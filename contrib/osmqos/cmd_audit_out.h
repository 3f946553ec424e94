/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `osmqos audit`: what the report holds and how it is printed. */
#ifndef OSMQOS_CMD_AUDIT_OUT_H
#define OSMQOS_CMD_AUDIT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd_audit.h"

#define AUDIT_MAX_NOTES 4

struct audit_report {
	const char *policy_path;
	const struct oq_policy *policy;
	const char *ca;
	int port;
	uint64_t port_guid;
	size_t nodes;
	unsigned int ports_audited;
	unsigned long smps;
	struct audit_sa_stats sa;
	bool vlhl_checked;
	const char *notes[AUDIT_MAX_NOTES];
	size_t n_notes;
	const struct audit_drifts *drifts;
};

/* Drift lines and a summary line, or one JSON object, on stdout. */
void audit_print(const struct audit_report *r, bool json);

#endif /* OSMQOS_CMD_AUDIT_OUT_H */
