// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Releasing a policy tree. */
#include <stdlib.h>

#include <osmqos/policy.h>

static void refs_free(struct oq_refs *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->v[i].name);
	free(r->v);
}

static void group_free(struct oq_port_group *g)
{
	size_t i;

	free(g->name);
	free(g->use);
	oq_ranges_free(&g->guids);
	for (i = 0; i < g->n_port_names; i++)
		free(g->port_names[i].name);
	free(g->port_names);
	oq_ranges_free(&g->pkeys);
	refs_free(&g->partitions);
}

static void rule_free(struct oq_match_rule *r)
{
	free(r->use);
	refs_free(&r->sources);
	refs_free(&r->destinations);
	oq_ranges_free(&r->service_ids);
	oq_ranges_free(&r->qos_classes);
	oq_ranges_free(&r->pkeys);
	free(r->level.name);
}

void oq_policy_free(struct oq_policy *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n_groups; i++)
		group_free(&p->groups[i]);
	free(p->groups);
	for (i = 0; i < p->n_vlarb; i++) {
		refs_free(&p->vlarb[i].groups);
		refs_free(&p->vlarb[i].across);
		free(p->vlarb[i].high);
		free(p->vlarb[i].low);
	}
	free(p->vlarb);
	for (i = 0; i < p->n_sl2vl; i++) {
		refs_free(&p->sl2vl[i].groups);
		refs_free(&p->sl2vl[i].across);
		refs_free(&p->sl2vl[i].across_from);
		refs_free(&p->sl2vl[i].across_to);
	}
	free(p->sl2vl);
	for (i = 0; i < p->n_levels; i++) {
		free(p->levels[i].name);
		free(p->levels[i].use);
		oq_ranges_free(&p->levels[i].path_bits);
		oq_ranges_free(&p->levels[i].pkeys);
	}
	free(p->levels);
	free(p->ext_lines);
	for (i = 0; i < p->n_rules; i++)
		rule_free(&p->rules[i]);
	free(p->rules);
	free(p->group_by_name);
	free(p->level_by_name);
	free(p->file);
	free(p->text);
	free(p);
}
