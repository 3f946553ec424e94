/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `osmqos plan`: what cmd_plan.c (the inputs, the tables' differences,
 * the pairs) and plan_rules.c (the rules' differences) hand plan_out.c
 * (the report, text or JSON).
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
#include "published.h"
#include "plan_diff.h"

struct plan_opts {
	struct oq_cli_common c;
	const char *new_policy;
	bool live;
	struct oq_num pairs;
	char in_force_path[4096];
	bool in_force;
	struct oq_pub_live sm; /* the SM's opensm.conf and publish_dir= */
};

struct pclass {
	char *key;
	size_t example; /* port index in the tables */
	size_t ports;
	unsigned int sl2vl_sets, vlarb_sets, vlhl;
};

/* What a NEW rule is to OLD (plan_rules.c). */
enum {
	PLAN_RULE_ADDED = 1, /* no OLD rule matches what it matches */
	PLAN_RULE_LEVEL = 2, /* its OLD rule had another QoS level */
	PLAN_RULE_MOVED = 4, /* out of OLD's first-match order */
};

/* The rules of OLD and NEW paired by what they match. */
struct plan_rules {
	long *new_of_old;    /* per OLD rule: its NEW rule, -1 removed */
	long *old_of_new;    /* per NEW rule: its OLD rule, -1 added */
	unsigned char *edit; /* per NEW rule: PLAN_RULE_* */
	size_t added, removed, changed, moved;
	/* a rule moved past one of another level, or not checked */
	bool order_matters;
	bool order_unchecked; /* past order_matters()'s bound on the work */
};

struct plan {
	const struct oq_fabric_tables *a, *b;
	struct plan_port *pp; /* per port index */
	size_t changed, programmed;
	unsigned int sl2vl_sets, vlarb_sets, vlhl;
	struct pclass *cl;
	size_t n_cl;
	struct plan_rules rules;
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
 * judge them). */
const char *plan_role_of(const struct oq_port *p);
int plan_shares(const struct oq_fabric *f, const struct oq_port_tables *t,
		double out[16]);
/* In plan_rules.c: pair the rules of a (OLD) and b (NEW); 0, or -1 out
 * of memory (free r all the same). */
int plan_rules_diff(struct plan_rules *r, const struct oq_policy *a,
		    const struct oq_policy *b);
void plan_rules_free(struct plan_rules *r);
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
