/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `osmqos plan`: what cmd_plan.c (the inputs, the tables' and the rules'
 * differences, the pairs) hands plan_out.c (the report, text or JSON).
 */
#ifndef OSMQOS_CLI_PLAN_H
#define OSMQOS_CLI_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/tables.h>

#include "cli_opts.h"
#include "inputs.h"
#include "plan_diff.h"

struct plan_opts {
	struct oq_cli_common c;
	const char *new_policy;
	bool live;
	struct oq_num pairs;
	char in_force_path[4096];
	bool in_force;
};

struct pclass {
	char *key;
	size_t example; /* port index in the tables */
	size_t ports;
	unsigned int sl2vl_sets, vlarb_sets, vlhl;
};

struct plan {
	const struct oq_fabric_tables *a, *b;
	struct plan_port *pp; /* per port index */
	size_t changed, programmed;
	unsigned int sl2vl_sets, vlarb_sets, vlhl;
	struct pclass *cl;
	size_t n_cl;
	/* rules */
	size_t rules_changed, rules_added, rules_removed;
	/* pairs */
	size_t pairs, queries, q_changed;
	bool sampled;
	unsigned int by_sl[17][17]; /* old SL (16: none) -> new SL */
};

struct pair_example {
	const struct oq_port *src, *dst;
	struct oq_query q;
	int old_sl, new_sl;
};

/* In cmd_plan.c: a port's kind as the report names it; the per-SL
 * guaranteed shares of a port's tables (0, or -1 when the model cannot
 * judge them); the rules whose level changes from policy a to b. */
const char *plan_role_of(const struct oq_port *p);
int plan_shares(const struct oq_port_tables *t, double out[16]);
void plan_rules_print(const struct oq_policy *a, const struct oq_policy *b,
		      bool json, bool all);
/* In plan_out.c: whether the plan changes anything, and
 * the report as text or JSON. */
bool plan_changes(const struct plan *pl);
void plan_print_text(const struct plan *pl, const struct plan_opts *o,
		     const struct oq_cli_inputs *a,
		     const struct oq_cli_inputs *b,
		     const struct pair_example *ex, size_t n_ex);
void plan_print_json(const struct plan *pl, const struct plan_opts *o,
		     const struct oq_cli_inputs *a,
		     const struct oq_cli_inputs *b,
		     const struct pair_example *ex, size_t n_ex);

#endif /* OSMQOS_CLI_PLAN_H */
