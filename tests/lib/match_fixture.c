// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Test fixtures for the binding, matcher and table compiler
 * (match_fixture.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "match_fixture.h"

/* Append one zeroed element to arr, which holds n. */
#define FX_GROW(arr, n)                                                        \
	do {                                                                   \
		arr = realloc(arr, ((n) + 1) * sizeof(*(arr)));                \
		memset(&(arr)[n], 0, sizeof(*(arr)));                          \
	} while (0)

uint64_t fx_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Dull;
}

uint64_t fx_below(uint64_t *s, uint64_t n)
{
	return n ? fx_rand(s) % n : 0;
}

void fx_caps(struct oq_port *p, unsigned vls, unsigned hcap, unsigned lcap)
{
	p->vl_cap = (uint8_t)vls;
	p->oper_vls = (uint8_t)vls;
	p->vlarb_high_cap = (uint8_t)hcap;
	p->vlarb_low_cap = (uint8_t)lcap;
	p->sl2vl_cap = true;
	p->mtu_cap = 5;
	p->width = 4;
	p->speed = OQ_SPEED_QDR;
}

struct oq_node *fx_ca(struct oq_fabric *f, uint64_t guid, const char *desc,
		      unsigned n_ports, uint16_t lid)
{
	struct oq_node *n =
		oq_fabric_add_node(f, OQ_NODE_CA, guid, desc, (uint8_t)n_ports);
	unsigned i;

	for (i = 1; n && i <= n_ports; i++) {
		n->ports[i].present = true;
		n->ports[i].guid = guid + i;
		n->ports[i].lid = (uint16_t)(lid + i - 1);
		fx_caps(&n->ports[i], 8, 8, 8);
	}
	return n;
}

struct oq_node *fx_router(struct oq_fabric *f, uint64_t guid, const char *desc,
			  uint16_t lid)
{
	struct oq_node *n =
		oq_fabric_add_node(f, OQ_NODE_ROUTER, guid, desc, 1);

	if (n) {
		n->ports[1].present = true;
		n->ports[1].guid = guid + 1;
		n->ports[1].lid = lid;
		fx_caps(&n->ports[1], 8, 8, 8);
	}
	return n;
}

struct oq_node *fx_switch(struct oq_fabric *f, uint64_t guid, const char *desc,
			  unsigned n_ports, uint16_t lid)
{
	struct oq_node *n = oq_fabric_add_node(f, OQ_NODE_SWITCH, guid, desc,
					       (uint8_t)n_ports);
	unsigned i;

	if (!n)
		return NULL;
	n->enhanced_port0 = true;
	n->ports[0].lid = lid;
	for (i = 0; i <= n_ports; i++)
		fx_caps(&n->ports[i], 8, 8, 8);
	return n;
}

uint16_t *fx_pkeys1(uint16_t *buf, uint16_t a)
{
	buf[0] = a;
	return buf;
}

char *fx_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

struct oq_policy *fx_policy_new(void)
{
	struct oq_policy *p = calloc(1, sizeof(*p));

	p->file = fx_strdup("fixture.conf");
	p->default_level = -1;
	return p;
}

int fx_group(struct oq_policy *p, const char *name)
{
	FX_GROW(p->groups, p->n_groups);
	p->groups[p->n_groups].name = fx_strdup(name);
	p->groups[p->n_groups].loc =
		(struct oq_loc){p->file, (unsigned)p->n_groups + 1, 1};
	p->n_explicit_groups = p->n_groups + 1;
	return (int)p->n_groups++;
}

void fx_group_guids(struct oq_policy *p, int g, uint64_t lo, uint64_t hi)
{
	oq_ranges_add(&p->groups[g].guids, lo, hi);
	oq_ranges_normalize(&p->groups[g].guids);
}

void fx_group_pkeys(struct oq_policy *p, int g, uint64_t lo, uint64_t hi)
{
	oq_ranges_add(&p->groups[g].pkeys, lo, hi);
	oq_ranges_normalize(&p->groups[g].pkeys);
}

void fx_group_types(struct oq_policy *p, int g, unsigned t)
{
	p->groups[g].node_types |= t;
}

void fx_group_name(struct oq_policy *p, int g, const char *nm)
{
	struct oq_port_group *gr = &p->groups[g];

	FX_GROW(gr->port_names, gr->n_port_names);
	gr->port_names[gr->n_port_names].name = fx_strdup(nm);
	gr->port_names[gr->n_port_names].loc =
		(struct oq_loc){p->file, 100 + (unsigned)g, 3};
	gr->n_port_names++;
}

void fx_ref(struct oq_refs *r, const char *name, int idx)
{
	FX_GROW(r->v, r->n);
	r->v[r->n].name = fx_strdup(name);
	r->v[r->n].idx = idx;
	r->n++;
}

void fx_group_partition(struct oq_policy *p, int g, const char *name)
{
	fx_ref(&p->groups[g].partitions, name, -1);
}

int fx_level(struct oq_policy *p, const char *name, int sl)
{
	struct oq_qos_level *l;

	FX_GROW(p->levels, p->n_levels);
	l = &p->levels[p->n_levels];
	l->name = fx_strdup(name);
	l->sl = sl;
	l->mtu_limit = l->rate_limit = l->packet_life = -1;
	if (!strcmp(name, "DEFAULT"))
		p->default_level = (int)p->n_levels;
	p->n_explicit_levels = p->n_levels + 1;
	return (int)p->n_levels++;
}

int fx_rule(struct oq_policy *p, int level)
{
	struct oq_match_rule *r;

	FX_GROW(p->rules, p->n_rules);
	r = &p->rules[p->n_rules];
	r->level.idx = level;
	r->level.name = fx_strdup(level >= 0 ? p->levels[level].name : "?");
	r->loc = (struct oq_loc){p->file, 500 + (unsigned)p->n_rules, 5};
	p->n_explicit_rules = p->n_rules + 1;
	return (int)p->n_rules++;
}

void fx_rule_src(struct oq_policy *p, int r, int g)
{
	fx_ref(&p->rules[r].sources, p->groups[g].name, g);
}

void fx_rule_dst(struct oq_policy *p, int r, int g)
{
	fx_ref(&p->rules[r].destinations, p->groups[g].name, g);
}

void fx_add_range(struct oq_ranges *rg, uint64_t lo, uint64_t hi)
{
	oq_ranges_add(rg, lo, hi);
	oq_ranges_normalize(rg);
}

void fx_refs_free(struct oq_refs *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->v[i].name);
	free(r->v);
}

void fx_policy_free(struct oq_policy *p)
{
	size_t i, j;

	if (!p)
		return;
	for (i = 0; i < p->n_groups; i++) {
		struct oq_port_group *g = &p->groups[i];

		free(g->name);
		free(g->guids.v);
		free(g->pkeys.v);
		for (j = 0; j < g->n_port_names; j++)
			free(g->port_names[j].name);
		free(g->port_names);
		fx_refs_free(&g->partitions);
	}
	free(p->groups);
	for (i = 0; i < p->n_levels; i++) {
		free(p->levels[i].name);
		free(p->levels[i].pkeys.v);
	}
	free(p->levels);
	for (i = 0; i < p->n_rules; i++) {
		struct oq_match_rule *r = &p->rules[i];

		free(r->level.name);
		fx_refs_free(&r->sources);
		fx_refs_free(&r->destinations);
		free(r->service_ids.v);
		free(r->qos_classes.v);
		free(r->pkeys.v);
	}
	free(p->rules);
	for (i = 0; i < p->n_vlarb; i++) {
		fx_refs_free(&p->vlarb[i].groups);
		fx_refs_free(&p->vlarb[i].across);
		free(p->vlarb[i].high);
		free(p->vlarb[i].low);
	}
	free(p->vlarb);
	for (i = 0; i < p->n_sl2vl; i++) {
		fx_refs_free(&p->sl2vl[i].groups);
		fx_refs_free(&p->sl2vl[i].across);
		fx_refs_free(&p->sl2vl[i].across_from);
		fx_refs_free(&p->sl2vl[i].across_to);
	}
	free(p->sl2vl);
	free(p->file);
	free(p);
}

struct oq_vlarb_scope *fx_vlarb_scope(struct oq_policy *p)
{
	struct oq_vlarb_scope *s;

	FX_GROW(p->vlarb, p->n_vlarb);
	s = &p->vlarb[p->n_vlarb];
	s->loc = (struct oq_loc){p->file, 700 + (unsigned)p->n_vlarb, 9};
	s->vl_high_limit = -1;
	p->n_vlarb++;
	return s;
}

void fx_vlarb_set(struct oq_vlarb_entry **e, size_t *n, bool *has,
		  const char *spec)
{
	const char *s = spec;

	free(*e); /* a scope's table set again */
	*e = NULL;
	*n = 0;
	*has = true;
	while (*s) {
		char *end;
		unsigned long vl = strtoul(s, &end, 0), w = 0;

		if (*end == ':')
			w = strtoul(end + 1, &end, 0);
		*e = realloc(*e, (*n + 1) * sizeof(**e));
		(*e)[*n].vl = (uint8_t)vl;
		(*e)[*n].weight = (uint8_t)w;
		(*n)++;
		s = *end == ',' ? end + 1 : end;
		if (s == spec)
			break;
	}
}

struct oq_sl2vl_scope *fx_sl2vl_scope(struct oq_policy *p, const uint8_t *tbl)
{
	struct oq_sl2vl_scope *s;

	FX_GROW(p->sl2vl, p->n_sl2vl);
	s = &p->sl2vl[p->n_sl2vl];
	s->loc = (struct oq_loc){p->file, 800 + (unsigned)p->n_sl2vl, 9};
	memcpy(s->sl2vl, tbl, 16);
	s->has_table = true;
	p->n_sl2vl++;
	return s;
}

void fx_portsel(struct oq_portsel *sel, unsigned lo, unsigned hi)
{
	unsigned i;

	sel->given = true;
	for (i = lo; i <= hi && i < 256; i++)
		sel->bits[i / 64] |= UINT64_C(1) << (i % 64);
}

struct oq_fabric *fx_random_fabric(uint64_t *rng, size_t n_cas, size_t n_sw,
				   unsigned radix)
{
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node **sw = calloc(n_sw ? n_sw : 1, sizeof(*sw));
	unsigned *used = calloc(n_sw ? n_sw : 1, sizeof(*used));
	size_t i;
	char desc[64];

	for (i = 0; i < n_sw; i++) {
		snprintf(desc, sizeof(desc), "sw%zu", i);
		sw[i] = fx_switch(f, 0x500000 + i, desc, radix,
				  (uint16_t)(1 + i));
		sw[i]->ports[0].guid = 0x500000 + i;
	}
	for (i = 0; i + 1 < n_sw; i++) {
		if (used[i] < radix && used[i + 1] < radix)
			oq_fabric_link(&sw[i]->ports[++used[i]],
				       &sw[i + 1]->ports[++used[i + 1]]);
	}
	for (i = 0; i < n_cas; i++) {
		struct oq_node *ca;
		uint16_t pk[3];

		snprintf(desc, sizeof(desc), "h%zu", i);
		ca = fx_ca(f, 0x1000 + 2 * i, desc, 1,
			   (uint16_t)(1000 + i % 60000));
		pk[0] = (uint16_t)(0x8000 | (1 + fx_below(rng, 8)));
		pk[1] = (uint16_t)(1 + fx_below(rng, 8));
		pk[2] = 0xffff;
		oq_port_set_pkeys(&ca->ports[1], pk, 1 + fx_below(rng, 3));
		if (n_sw) {
			size_t s = i % n_sw;

			if (used[s] < radix)
				oq_fabric_link(&ca->ports[1],
					       &sw[s]->ports[++used[s]]);
		}
	}
	for (i = 0; i < n_sw; i++) {
		uint16_t pk = (uint16_t)(0x8000 | (1 + fx_below(rng, 8)));

		oq_port_set_pkeys(&sw[i]->ports[0], &pk, 1);
	}
	if (n_cas)
		f->sm_port_guid = 0x1000 + 1;
	oq_fabric_finalize(f, NULL);
	free(sw);
	free(used);
	return f;
}

void fx_random_ranges(uint64_t *rng, struct oq_ranges *r, uint64_t space,
		      unsigned max_n)
{
	unsigned n = 1 + (unsigned)fx_below(rng, max_n), i;

	for (i = 0; i < n; i++) {
		uint64_t lo = fx_below(rng, space);
		uint64_t len =
			fx_below(rng, 4) ? 0 : fx_below(rng, space / 8 + 1);

		oq_ranges_add(r, lo, lo + len < lo ? UINT64_MAX : lo + len);
	}
	oq_ranges_normalize(r);
}

void fx_random_rules(uint64_t *rng, struct oq_policy *p, size_t n_rules)
{
	size_t i, n_levels = p->n_levels, n_groups = p->n_groups;

	for (i = 0; i < n_rules; i++) {
		int r = fx_rule(p, (int)fx_below(rng, n_levels));
		unsigned k, mask = (unsigned)fx_below(rng, 32);

		if (n_groups && (mask & 1))
			for (k = 0; k <= fx_below(rng, 2); k++)
				fx_rule_src(p, r, (int)fx_below(rng, n_groups));
		if (n_groups && (mask & 2))
			for (k = 0; k <= fx_below(rng, 2); k++)
				fx_rule_dst(p, r, (int)fx_below(rng, n_groups));
		if (mask & 4)
			fx_random_ranges(rng, &p->rules[r].service_ids, 64, 3);
		if (mask & 8)
			fx_random_ranges(rng, &p->rules[r].qos_classes, 32, 3);
		if (mask & 16)
			fx_random_ranges(rng, &p->rules[r].pkeys, 16, 2);
		/* Rules with no criterion match everything; keep them rare
		 * so later rules stay reachable. */
		if (!mask && fx_below(rng, 8))
			fx_random_ranges(rng, &p->rules[r].service_ids, 64, 2);
	}
}

void fx_unreachable_rules(struct oq_policy *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int r = fx_rule(p, 1);

		fx_add_range(&p->rules[r].service_ids, 0x100000 + i,
			     0x100000 + i);
	}
}

struct oq_policy *fx_random_policy(uint64_t *rng, const struct oq_fabric *f,
				   size_t n_groups, size_t n_rules)
{
	struct oq_policy *p = fx_policy_new();
	size_t i, n_levels = 8;
	char name[64];

	fx_level(p, "DEFAULT", 0);
	for (i = 1; i < n_levels; i++) {
		snprintf(name, sizeof(name), "L%zu", i);
		fx_level(p, name, (int)i);
	}
	for (i = 0; i < n_groups; i++) {
		int g;

		snprintf(name, sizeof(name), "G%zu", i);
		g = fx_group(p, name);
		switch (fx_below(rng, 5)) {
		case 0:
			fx_group_types(p, g,
				       1u << fx_below(rng, 4)); /* incl. SELF */
			break;
		case 1:
			fx_group_pkeys(p, g, 1 + fx_below(rng, 8),
				       1 + fx_below(rng, 8));
			break;
		case 2:
			if (f->n_ports) {
				const struct oq_port *pt =
					f->ports[fx_below(rng, f->n_ports)];
				char pn[96];

				snprintf(pn, sizeof(pn), "%s/P%u",
					 pt->node->desc, pt->num ? pt->num : 1);
				fx_group_name(p, g, pn);
			}
			/* fall through */
		default: {
			uint64_t lo =
				0x1000 + fx_below(rng, 2 * f->n_ports + 8);

			fx_group_guids(p, g, lo, lo + fx_below(rng, 40));
			if (fx_below(rng, 3) == 0)
				fx_group_guids(p, g, 0x500000,
					       0x500000 + fx_below(rng, 16));
		}
		}
	}
	fx_random_rules(rng, p, n_rules);
	return p;
}

void fx_random_query(uint64_t *rng, const struct oq_fabric *f,
		     struct oq_query *q)
{
	memset(q, 0, sizeof(*q));
	do
		q->src = f->ports[fx_below(rng, f->n_ports)];
	while (!oq_port_is_endport(q->src) && fx_below(rng, 4));
	do
		q->dst = f->ports[fx_below(rng, f->n_ports)];
	while (!oq_port_is_endport(q->dst) && fx_below(rng, 4));
	q->has_sid = fx_below(rng, 2);
	q->sid = fx_below(rng, 72);
	q->has_qos_class = fx_below(rng, 2);
	q->qos_class = (uint16_t)fx_below(rng, 40);
	q->has_pkey = fx_below(rng, 2);
	q->pkey = (uint16_t)(fx_below(rng, 20) | (fx_below(rng, 2) << 15));
}
