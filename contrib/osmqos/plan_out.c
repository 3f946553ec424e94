// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos plan`'s report (cmd_plan.c computes it): the QoS Sets per
 * port and per class of changed ports with the shares before and after,
 * the rules added, removed, moved or given another level (plan_rules.c
 * pairs them), the pairs whose SL changes; text or JSON (docs/json.md).
 */
#include <config.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <osmqos/file.h>
#include <osmqos/htab.h>
#include <osmqos/model.h>
#include "cli.h"
#include "cmd_drift.h"
#include "inputs.h"
#include "plan_diff.h"
#include "plan.h"
#include "published.h"

#define CMD "plan"

/* "name (lid N)"; a topology file without LIDs: "name". */
static void port_name(const struct oq_port *p, char *buf, size_t len)
{
	int n = oq_port_name(p, buf, len);

	if (n < 0)
		n = snprintf(buf, len, "port %u", p->num);
	if (p->lid && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " (lid %u)", p->lid);
}

static void query_text(const struct oq_query *q, char *buf, size_t len)
{
	if (q->has_sid)
		snprintf(buf, len, "service-id 0x%" PRIx64, q->sid);
	else if (q->has_qos_class)
		snprintf(buf, len, "qos-class %u", q->qos_class);
	else if (q->has_pkey)
		snprintf(buf, len, "pkey 0x%04x", q->pkey);
	else
		snprintf(buf, len, "no Service ID, class or P_Key");
}

static void text_class(const struct oq_fabric *f, const struct plan *pl,
		       const struct pclass *c, bool all)
{
	const struct oq_port_tables *a = &pl->a->ports[c->example],
				    *b = &pl->b->ports[c->example];
	const char *k = strchr(c->key, ';');
	double sa[16], sb[16];
	char name[128];
	unsigned int s;
	bool any = false;

	port_name(b->port, name, sizeof(name));
	printf("  %zu %s%s, like %s: %u SL2VL Set%s, %u VLArb "
	       "Set%s%s\n   %s\n",
	       c->ports, plan_role_of(b->port), c->ports == 1 ? "" : "s", name,
	       c->sl2vl_sets, c->sl2vl_sets == 1 ? "" : "s", c->vlarb_sets,
	       c->vlarb_sets == 1 ? "" : "s",
	       c->vlhl ? ", VLHighLimit changes" : "", k ? k + 1 : "");
	if (!plan_shares(f, a, sa) && !plan_shares(f, b, sb)) {
		for (s = 0; s < 16; s++) {
			if (sa[s] == sb[s])
				continue;
			printf("%s SL%u %.2f%% -> %.2f%%",
			       any ? "," : "   predicted share:", s,
			       sa[s] * 100, sb[s] * 100);
			any = true;
		}
		if (any)
			printf(" (of the link, all SLs backlogged, a VL's "
			       "share split equally among its SLs)\n");
	}
	(void)all;
}

static void json_class(const struct oq_fabric *fab, const struct plan *pl,
		       const struct pclass *c, bool first)
{
	const struct oq_port_tables *a = &pl->a->ports[c->example],
				    *b = &pl->b->ports[c->example];
	const char *k = strchr(c->key, ';');
	double sa[16], sb[16];
	char name[128];
	unsigned int s;
	bool f = true;

	if (oq_port_name(b->port, name, sizeof(name)) < 0)
		name[0] = '\0';
	printf("%s\n    {\"role\": \"%s\", \"ports\": %zu, \"sl2vl_sets\": "
	       "%u, \"vlarb_sets\": %u, \"vl_high_limit_changes\": %u, "
	       "\"example\": {\"name\": ",
	       first ? "" : ",", plan_role_of(b->port), c->ports, c->sl2vl_sets,
	       c->vlarb_sets, c->vlhl);
	oq_json_fstring(stdout, name);
	printf(", \"guid\": \"0x%016" PRIx64 "\", \"lid\": %u}, \"change\": ",
	       b->port->guid, b->port->lid);
	oq_json_fstring(stdout, k ? k + 1 : "");
	printf(", \"shares\": [");
	if (!plan_shares(fab, a, sa) && !plan_shares(fab, b, sb))
		for (s = 0; s < 16; s++) {
			if (sa[s] == sb[s])
				continue;
			printf("%s{\"sl\": %u, \"before_pct\": %.4f, "
			       "\"after_pct\": %.4f}",
			       f ? "" : ", ", s, sa[s] * 100, sb[s] * 100);
			f = false;
		}
	printf("]}");
}

/* ---- rules ---- */

/* "NAME (SL n)" of a rule's level. */
static void text_level(const struct oq_policy *p, size_t rule)
{
	int l = p->rules[rule].level.idx;

	if (l < 0 || (size_t)l >= p->n_levels)
		printf("(none)");
	else
		printf("%s (SL %d)", p->levels[l].name, p->levels[l].sl);
}

/* "rule N (FILE:LINE, use): " */
static void text_rule(const char *what, const struct oq_policy *p, size_t rule)
{
	const struct oq_match_rule *r = &p->rules[rule];

	printf("  %srule %zu (%s:%u%s%s): ", what, rule, p->file, r->loc.line,
	       r->use ? ", " : "", r->use ? r->use : "");
}

/* A NEW rule's edit: added, another level, moved. */
static void text_edit(const struct plan_rules *r, const struct oq_policy *a,
		      const struct oq_policy *b, size_t i)
{
	long o = r->old_of_new[i];

	text_rule("", b, i);
	if (r->edit[i] & PLAN_RULE_ADDED) {
		printf("added, level ");
		text_level(b, i);
		putchar('\n');
		return;
	}
	if (r->edit[i] & PLAN_RULE_LEVEL) {
		printf("level ");
		text_level(a, (size_t)o);
		printf(" -> ");
		text_level(b, i);
	}
	if (r->edit[i] & PLAN_RULE_MOVED)
		printf("%smoved, was rule %ld",
		       r->edit[i] & PLAN_RULE_LEVEL ? "; " : "", o);
	else if ((size_t)o != i)
		printf("; was rule %ld", o);
	putchar('\n');
}

/* The summary, then each rule edited (the first 10 unless all): NEW's
 * rules in order, then OLD's removed ones. */
static void text_rules(const struct plan_rules *r, const struct oq_policy *a,
		       const struct oq_policy *b, bool all)
{
	size_t i, k = 0;

	printf("rules: %zu added, %zu removed, %zu change their QoS level, "
	       "%zu move%s\n",
	       r->added, r->removed, r->changed, r->moved,
	       !r->moved ? ""
	       : r->order_unchecked
		       ? ": not checked whether a rule now comes before or "
			 "after one of another level (too many rules moved "
			 "among too many to compare); counted as a change, "
			 "since it may be one (the pairs below say which SLs "
			 "change)"
	       : r->order_matters ? ": a rule now comes before or after one "
				    "of another level, so a query may get "
				    "another level (the pairs below say "
				    "which SLs change)"
				  : ", each only past rules of its own level: "
				    "no query gets another level");
	for (i = 0; i < b->n_rules; i++)
		if (r->edit[i] && (all || k++ < 10))
			text_edit(r, a, b, i);
	for (i = 0; i < a->n_rules; i++) {
		if (r->new_of_old[i] >= 0 || !(all || k++ < 10))
			continue;
		text_rule("old ", a, i);
		printf("removed, level ");
		text_level(a, i);
		putchar('\n');
	}
	if (!all && k > 10)
		printf("  ... and %zu more (--all lists them)\n", k - 10);
}

static void json_level(const char *key, const struct oq_policy *p, size_t rule)
{
	int l = p->rules[rule].level.idx;
	bool ok = l >= 0 && (size_t)l < p->n_levels;

	printf(", \"%s_level\": ", key);
	oq_json_fstring(stdout, ok ? p->levels[l].name : NULL);
	printf(", \"%s_sl\": %d", key, ok ? p->levels[l].sl : -1);
}

/* One entry of rule_edits: where the rule is written (NEW's file, OLD's
 * when removed) and its level there. */
static void json_edit(const char *edit, const struct oq_policy *p, size_t rule,
		      long new_rule, long old_rule, bool first)
{
	const struct oq_match_rule *r = &p->rules[rule];
	int l = r->level.idx;
	bool ok = l >= 0 && (size_t)l < p->n_levels;

	printf("%s\n    {\"edit\": \"%s\", \"rule\": ", first ? "" : ",", edit);
	if (new_rule < 0)
		printf("null");
	else
		printf("%ld", new_rule);
	printf(", \"old_rule\": ");
	if (old_rule < 0)
		printf("null");
	else
		printf("%ld", old_rule);
	printf(", \"file\": ");
	oq_json_fstring(stdout, p->file);
	printf(", \"line\": %u, \"use\": ", r->loc.line);
	oq_json_fstring(stdout, r->use);
	printf(", \"level\": ");
	oq_json_fstring(stdout, ok ? p->levels[l].name : NULL);
	printf(", \"sl\": %d}", ok ? p->levels[l].sl : -1);
}

/* rules (those given another level), the counts, rule_edits (those
 * added, moved or removed). */
static void json_rules(const struct plan_rules *r, const struct oq_policy *a,
		       const struct oq_policy *b)
{
	size_t i, k = 0;

	printf(", \"rules\": [");
	for (i = 0; i < b->n_rules; i++) {
		size_t o = (size_t)r->old_of_new[i];

		if (!(r->edit[i] & PLAN_RULE_LEVEL))
			continue;
		printf("%s\n    {\"rule\": %zu, \"old_rule\": %zu, \"use\": ",
		       k++ ? "," : "", i, o);
		oq_json_fstring(stdout, b->rules[i].use);
		printf(", \"line\": %u, \"old_line\": %u", b->rules[i].loc.line,
		       a->rules[o].loc.line);
		json_level("old", a, o);
		json_level("new", b, i);
		printf("}");
	}
	printf("%s]", k ? "\n  " : "");
	printf(", \"rules_added\": %zu, \"rules_removed\": %zu, "
	       "\"rules_moved\": %zu, \"rule_order_changes_levels\": %s, "
	       "\"rule_edits\": [",
	       r->added, r->removed, r->moved,
	       r->order_unchecked ? "null"
	       : r->order_matters ? "true"
				  : "false");
	k = 0;
	for (i = 0; i < b->n_rules; i++) {
		if (r->edit[i] & PLAN_RULE_ADDED)
			json_edit("added", b, i, (long)i, -1, !k++);
		else if (r->edit[i] & PLAN_RULE_MOVED)
			json_edit("moved", b, i, (long)i, r->old_of_new[i],
				  !k++);
	}
	for (i = 0; i < a->n_rules; i++)
		if (r->new_of_old[i] < 0)
			json_edit("removed", a, i, -1, (long)i, !k++);
	printf("%s]", k ? "\n  " : "");
}

bool plan_changes(const struct plan *pl)
{
	return pl->changed || pl->rules.changed || pl->rules.added ||
	       pl->rules.removed || pl->rules.order_matters || pl->q_changed;
}

void plan_print_text(const struct plan *pl, const struct plan_opts *o,
		     const struct oq_cli_inputs *a,
		     const struct oq_cli_inputs *b,
		     const struct pair_example *ex, size_t n_ex)
{
	size_t i;
	char sn[128], dn[128], qt[64];

	printf("plan: %s replacing %s%s (hash 0x%016" PRIx64 " -> 0x%016" PRIx64
	       ") on %s\n",
	       b->policy->file, a->policy->file,
	       o->in_force ? ", the policy in force," : "",
	       oq_fnv1a(a->policy->text, a->policy->text_len),
	       oq_fnv1a(b->policy->text, b->policy->text_len),
	       o->live ? "the live fabric" : o->c.fabric);
	printf("tables: %zu of %zu programmed ports change: %u SL2VL Set%s + "
	       "%u VLArb Set%s = %u QoS Set MADs at the next heavy sweep; "
	       "VLHighLimit changes on %u port%s (PortInfo Sets)\n",
	       pl->changed, pl->programmed, pl->sl2vl_sets,
	       pl->sl2vl_sets == 1 ? "" : "s", pl->vlarb_sets,
	       pl->vlarb_sets == 1 ? "" : "s", pl->sl2vl_sets + pl->vlarb_sets,
	       pl->vlhl, pl->vlhl == 1 ? "" : "s");
	if (o->c.all) {
		for (i = 0; i < pl->b->n; i++) {
			const struct plan_port *pp = &pl->pp[i];

			if (!pp->sl2vl_sets && !pp->vlarb_sets &&
			    !pp->vl_high_limit)
				continue;
			port_name(pl->b->ports[i].port, sn, sizeof(sn));
			printf("  %s: %u SL2VL, %u VLArb%s\n", sn,
			       pp->sl2vl_sets, pp->vlarb_sets,
			       pp->vl_high_limit ? ", VLHighLimit" : "");
		}
	} else {
		for (i = 0; i < pl->n_cl; i++)
			text_class(b->fabric, pl, &pl->cl[i], false);
	}
	text_rules(&pl->rules, a->policy, b->policy, o->c.all);
	printf("pairs: %zu CA port pair%s%s, %zu queries: %zu get another "
	       "SL\n",
	       pl->pairs, pl->pairs == 1 ? "" : "s",
	       pl->sampled ? " (a sample: --pairs N for more)" : " (all)",
	       pl->queries, pl->q_changed);
	for (i = 0; i < n_ex; i++) {
		port_name(ex[i].src, sn, sizeof(sn));
		port_name(ex[i].dst, dn, sizeof(dn));
		query_text(&ex[i].q, qt, sizeof(qt));
		printf("  %s -> %s, %s: SL %d -> %d\n", sn, dn, qt,
		       ex[i].old_sl, ex[i].new_sl);
	}
	if (!o->c.all && pl->q_changed > n_ex)
		printf("  ... and %zu more (--all lists them)\n",
		       pl->q_changed - n_ex);
	printf("%s\n", plan_changes(pl) ? "the edit changes the fabric"
					: "the edit changes nothing");
}

static void json_port(const struct oq_port *p)
{
	char name[128];

	if (oq_port_name(p, name, sizeof(name)) < 0)
		name[0] = '\0';
	printf("{\"name\": ");
	oq_json_fstring(stdout, name);
	printf(", \"guid\": \"0x%016" PRIx64 "\", \"lid\": %u, \"port\": %u}",
	       p->guid, p->lid, p->num);
}

void plan_print_json(const struct plan *pl, const struct plan_opts *o,
		     const struct oq_cli_inputs *a,
		     const struct oq_cli_inputs *b,
		     const struct pair_example *ex, size_t n_ex)
{
	size_t i;
	bool first = true;

	printf("{\"old\": {\"path\": ");
	oq_json_fstring(stdout, a->policy->file);
	printf(", \"hash\": \"0x%016" PRIx64 "\", \"in_force\": %s}",
	       oq_fnv1a(a->policy->text, a->policy->text_len),
	       o->in_force ? "true" : "false");
	printf(", \"new\": {\"path\": ");
	oq_json_fstring(stdout, b->policy->file);
	printf(", \"hash\": \"0x%016" PRIx64 "\"}",
	       oq_fnv1a(b->policy->text, b->policy->text_len));
	printf(", \"ports_programmed\": %zu, \"ports_changed\": %zu, "
	       "\"mads\": {\"sl2vl\": %u, \"vlarb\": %u, \"total\": %u}, "
	       "\"vl_high_limit_changes\": %u, \"classes\": [",
	       pl->programmed, pl->changed, pl->sl2vl_sets, pl->vlarb_sets,
	       pl->sl2vl_sets + pl->vlarb_sets, pl->vlhl);
	for (i = 0; i < pl->n_cl; i++)
		json_class(b->fabric, pl, &pl->cl[i], i == 0);
	printf("%s]", pl->n_cl ? "\n  " : "");
	if (o->c.all) {
		printf(", \"ports\": [");
		for (i = 0; i < pl->b->n; i++) {
			const struct plan_port *pp = &pl->pp[i];

			if (!pp->sl2vl_sets && !pp->vlarb_sets &&
			    !pp->vl_high_limit)
				continue;
			printf("%s\n    {\"port\": ", first ? "" : ",");
			json_port(pl->b->ports[i].port);
			printf(", \"role\": \"%s\"",
			       plan_role_of(pl->b->ports[i].port));
			printf(", \"sl2vl_sets\": %u, \"vlarb_sets\": %u, "
			       "\"vl_high_limit\": %s}",
			       pp->sl2vl_sets, pp->vlarb_sets,
			       pp->vl_high_limit ? "true" : "false");
			first = false;
		}
		printf("%s]", first ? "" : "\n  ");
	}
	json_rules(&pl->rules, a->policy, b->policy);
	printf(", \"pairs\": {\"checked\": %zu, \"sampled\": %s, \"queries\": "
	       "%zu, \"changed\": %zu, \"examples\": [",
	       pl->pairs, pl->sampled ? "true" : "false", pl->queries,
	       pl->q_changed);
	for (i = 0; i < n_ex; i++) {
		printf("%s\n    {\"src\": ", i ? "," : "");
		json_port(ex[i].src);
		printf(", \"dst\": ");
		json_port(ex[i].dst);
		printf(", \"service_id\": ");
		if (ex[i].q.has_sid)
			printf("\"0x%016" PRIx64 "\"", ex[i].q.sid);
		else
			printf("null");
		printf(", \"qos_class\": ");
		if (ex[i].q.has_qos_class)
			printf("%u", ex[i].q.qos_class);
		else
			printf("null");
		printf(", \"pkey\": ");
		if (ex[i].q.has_pkey)
			printf("%u", ex[i].q.pkey);
		else
			printf("null");
		printf(", \"old_sl\": %d, \"new_sl\": %d}", ex[i].old_sl,
		       ex[i].new_sl);
	}
	printf("%s]}, \"changes\": %s}\n", n_ex ? "\n  " : "",
	       plan_changes(pl) ? "true" : "false");
}
