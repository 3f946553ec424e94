/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Private to the policy validator (validate.c and the checks it splits
 * out).
 */
#ifndef OSMQOS_POLICY_VALIDATE_INT_H
#define OSMQOS_POLICY_VALIDATE_INT_H

#include <osmqos/policy.h>

/* Warn for every match rule an earlier rule shadows (shadowed.c). */
void oq_check_shadowed(const struct oq_policy *p, struct oq_diags *d);
/* bandwidth:/priority: keys (intents.c). */
void oq_check_intents(struct oq_policy *p, struct oq_diags *d);

#endif /* OSMQOS_POLICY_VALIDATE_INT_H */
