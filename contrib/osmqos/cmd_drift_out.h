/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `osmqos drift`: what the report holds and how it is printed. */
#ifndef OSMQOS_CMD_DRIFT_OUT_H
#define OSMQOS_CMD_DRIFT_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cmd_drift.h"

#define DRIFT_MAX_NOTES 5

struct drift_report {
	const char *policy_path;
	const struct oq_policy *policy;
	uint64_t policy_hash; /* FNV-1a of the policy file, as published */
	bool in_force;	      /* the policy in force, from the plugin */
	const char *ca;
	int port;
	uint64_t port_guid;
	size_t nodes;
	unsigned int ports_compared;
	unsigned long smps;
	struct drift_sa_stats sa;
	bool vlhl_checked;
	/* Why the SA check stopped (NULL: it ran, or --sample 0): the table
	 * comparison stands, but the fabric cannot be called clean. */
	const char *sa_error;
	const char *notes[DRIFT_MAX_NOTES];
	size_t n_notes;
	const struct drift_list *drifts;
};

/* One class of drifts: the same kind, port role (or SA level), expected
 * and found values; entries (tables or pairs) on ports, and the index of
 * the first one. */
struct drift_class {
	size_t example, entries, ports;
	const struct oq_port *last_port;
};

struct drift_classes {
	struct drift_class *v;
	size_t n;
};

/* The classes of dl; 0, or -1 out of memory. */
int drift_classes(const struct drift_list *dl, const struct oq_policy *pol,
		  struct drift_classes *out);
void drift_classes_free(struct drift_classes *c);

/* One line per class of drifts (all: per drift) and a summary line, or
 * one JSON object, on stdout. */
void drift_print(const struct drift_report *r, bool json, bool all);

#endif /* OSMQOS_CMD_DRIFT_OUT_H */
