/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `osmqos doctor`'s report, shared by its checks: cmd_doctor.c (the
 * opensm.conf, the library, the policy, the routing engine, the
 * standby).
 */
#ifndef OSMQOS_CLI_DOCTOR_H
#define OSMQOS_CLI_DOCTOR_H

#include <stdbool.h>

enum doctor_level { DOCTOR_OK, DOCTOR_WARN, DOCTOR_ERR };

struct doctor_report {
	bool json, first;
	enum doctor_level worst;
};

/* One check's line (or JSON object): its level, name, message and, when
 * not ok, the fix. */
void doctor_check(struct doctor_report *r, enum doctor_level l,
		  const char *name, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

#endif /* OSMQOS_CLI_DOCTOR_H */
