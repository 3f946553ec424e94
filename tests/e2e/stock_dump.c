// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The canonical dump of a policy reading (stock_dump.h) for the core's
 * two readings: the stock OpenSM model's and osmqos's.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stock_dump.h"

void sd_ranges(FILE *out, const struct oq_ranges *r)
{
	size_t i;

	if (!r->n) {
		fputc('-', out);
		return;
	}
	for (i = 0; i < r->n; i++)
		fprintf(out, "%s0x%" PRIx64 "-0x%" PRIx64, i ? "," : "",
			r->v[i].lo, r->v[i].hi);
}

void sd_level(FILE *out, unsigned int sl, int mtu, int rate, int life,
	      const struct oq_ranges *bits, const struct oq_ranges *pkeys)
{
	fprintf(out, "sl=%u mtu=%d rate=%d life=%d bits=", sl, mtu, rate, life);
	sd_ranges(out, bits);
	fputs(" pkeys=", out);
	sd_ranges(out, pkeys);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void sd_guids(FILE *out, uint64_t *g, size_t n)
{
	size_t i;

	qsort(g, n, sizeof(*g), u64_cmp);
	fputc('{', out);
	for (i = 0; i < n; i++) {
		if (i && g[i] == g[i - 1])
			continue;
		fprintf(out, "%s0x%016" PRIx64, i ? "," : "", g[i]);
	}
	fputc('}', out);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sd_sets(FILE *out, char **sets, size_t n)
{
	size_t i;

	qsort(sets, n, sizeof(*sets), str_cmp);
	for (i = 0; i < n; i++)
		fprintf(out, "[%s]", sets[i]);
	if (!n)
		fputc('-', out);
}

void sd_bits128(FILE *out, const uint8_t bits[16])
{
	int i;

	for (i = 15; i >= 0; i--)
		fprintf(out, "%02x", bits[i]);
}

/* ---- stock reading ---- */

static const struct oq_node *node_by_desc(const struct oq_fabric *f,
					  const char *desc)
{
	const struct oq_node *best = NULL;
	size_t i;

	for (i = 0; i < f->n_nodes; i++)
		if (!strcmp(f->nodes[i]->desc, desc) &&
		    (!best || f->nodes[i]->guid < best->guid))
			best = f->nodes[i];
	return best;
}

static bool has_pkey_in(const struct oq_fabric *f, const struct oq_port *p,
			const struct oq_ranges *r)
{
	size_t i, n;
	const uint16_t *pk = oq_port_pkeys(f, p, &n);

	for (i = 0; i < n; i++) {
		uint16_t k = pk[i] & OQ_PKEY_MASK;

		if (k && oq_ranges_contains(r, k))
			return true;
	}
	return false;
}

static bool stock_in_group(const struct oq_stock_group *g,
			   const struct oq_fabric *f,
			   const struct oq_partitions *parts,
			   const struct oq_port *p)
{
	size_t i;

	if (g->node_types & (1u << (p->node->type - 1)) & OQ_NT_ALL)
		return true;
	if ((g->node_types & OQ_NT_SELF) && p->guid == f->sm_port_guid)
		return true;
	if (oq_ranges_contains(&g->guids, p->guid))
		return true;
	for (i = 0; i < g->n_pnames; i++) {
		const struct oq_node *n = node_by_desc(f, g->pnames[i].node);

		if (n && g->pnames[i].port <= n->n_ports &&
		    n->ports[g->pnames[i].port].guid == p->guid)
			return true;
	}
	if (g->pkeys.n && has_pkey_in(f, p, &g->pkeys))
		return true;
	for (i = 0; parts && i < g->n_partitions; i++) {
		const struct oq_partition *pt =
			oq_partition_by_name(parts, g->partitions[i]);

		if (pt && oq_port_pkey_membership(f, p, pt->pkey))
			return true;
	}
	return false;
}

/* The end ports of f in any of the groups (stock indexes). */
static void stock_set(FILE *out, const struct oq_stock *s, const size_t *gi,
		      size_t n, const struct oq_fabric *f,
		      const struct oq_partitions *parts)
{
	uint64_t *g = malloc((f->n_ports + 1) * sizeof(*g));
	size_t i, j, k = 0;

	if (!n) {
		fputs("any", out);
		free(g);
		return;
	}
	for (i = 0; g && i < f->n_ports; i++) {
		const struct oq_port *p = f->ports[i];

		if (!oq_port_is_endport(p) || !p->present)
			continue;
		for (j = 0; j < n; j++)
			if (stock_in_group(&s->groups[gi[j]], f, parts, p)) {
				g[k++] = p->guid;
				break;
			}
	}
	sd_guids(out, g, k);
	free(g);
}

static void stock_level(FILE *out, const struct oq_stock_level *l)
{
	sd_level(out, l->sl, l->mtu, l->rate, l->life, &l->path_bits,
		 &l->pkeys);
}

/* Scope group names as OpenSM would look them up, each as its set. */
static void stock_scope_sets(FILE *out, const struct oq_stock *s, char **names,
			     size_t n, const struct oq_fabric *f,
			     const struct oq_partitions *parts)
{
	char **sets = calloc(n + 1, sizeof(*sets));
	size_t i, j;

	for (i = 0; sets && i < n; i++) {
		size_t len = 0;
		FILE *m = open_memstream(&sets[i], &len);

		for (j = 0; j < s->n_groups; j++)
			if (!strcasecmp(names[i], s->groups[j].name))
				break;
		if (j == s->n_groups)
			fprintf(m, "?%s", names[i]);
		else
			stock_set(m, s, &j, 1, f, parts);
		fclose(m);
	}
	if (sets)
		sd_sets(out, sets, n);
	for (i = 0; sets && i < n; i++)
		free(sets[i]);
	free(sets);
}

int sd_stock(FILE *out, const struct oq_stock *s, const struct oq_fabric *f,
	     const struct oq_partitions *parts)
{
	struct oq_ranges none = {0};
	size_t i;

	fputs("default ", out);
	if (s->default_level >= 0)
		stock_level(out, &s->levels[s->default_level]);
	else
		sd_level(out, (unsigned int)s->default_sl, -1, -1, -1, &none,
			 &none);
	fputc('\n', out);
	for (i = 0; i < s->n_rules; i++) {
		const struct oq_stock_rule *r = &s->rules[i];

		fprintf(out, "rule %zu src ", i);
		stock_set(out, s, r->src, r->n_src, f, parts);
		fputs(" dst ", out);
		stock_set(out, s, r->dst, r->n_dst, f, parts);
		fputs(" sid ", out);
		sd_ranges(out, &r->sids);
		fputs(" class ", out);
		sd_ranges(out, &r->classes);
		fputs(" pkey ", out);
		sd_ranges(out, &r->pkeys);
		fputs(" level ", out);
		stock_level(out, &s->levels[r->level]);
		fputc('\n', out);
	}
	for (i = 0; i < s->n_vlarb; i++) {
		const struct oq_stock_vlarb *v = &s->vlarb[i];
		size_t j;

		fprintf(out, "vlarb %zu group ", i);
		stock_scope_sets(out, s, v->groups, v->n_groups, f, parts);
		fputs(" across ", out);
		stock_scope_sets(out, s, v->across, v->n_across, f, parts);
		fputs(" high ", out);
		for (j = 0; j < v->n_high; j++)
			fprintf(out, "%s%" PRIu64 ":%" PRIu64, j ? "," : "",
				v->high[j].a, v->high[j].b);
		fputs(" low ", out);
		for (j = 0; j < v->n_low; j++)
			fprintf(out, "%s%" PRIu64 ":%" PRIu64, j ? "," : "",
				v->low[j].a, v->low[j].b);
		if (v->limit_set)
			fprintf(out, " limit %u\n", v->limit);
		else
			fputs(" limit -1\n", out);
	}
	for (i = 0; i < s->n_sl2vl; i++) {
		const struct oq_stock_sl2vl *v = &s->sl2vl[i];
		size_t j;

		fprintf(out, "sl2vl %zu group ", i);
		stock_scope_sets(out, s, v->groups, v->n_groups, f, parts);
		fputs(" from-groups ", out);
		stock_scope_sets(out, s, v->across_from, v->n_across_from, f,
				 parts);
		fputs(" to-groups ", out);
		stock_scope_sets(out, s, v->across_to, v->n_across_to, f,
				 parts);
		fputs(" from ", out);
		sd_bits128(out, v->from);
		fputs(" to ", out);
		sd_bits128(out, v->to);
		fputs(" table ", out);
		for (j = 0; j < 16; j++)
			fprintf(out, "%s%u", j ? "," : "", v->table[j]);
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}

/* ---- osmqos's reading ---- */

static void osmqos_set(FILE *out, const struct oq_binding *b,
		       const struct oq_refs *refs, const struct oq_fabric *f)
{
	uint64_t *g = malloc((f->n_ports + 1) * sizeof(*g));
	size_t i, k = 0;

	if (!refs->n) {
		fputs("any", out);
		free(g);
		return;
	}
	for (i = 0; g && i < f->n_ports; i++) {
		const struct oq_port *p = f->ports[i];

		if (oq_port_is_endport(p) && p->present &&
		    oq_binding_in_any(b, refs, p))
			g[k++] = p->guid;
	}
	sd_guids(out, g, k);
	free(g);
}

static void osmqos_level(FILE *out, const struct oq_qos_level *l)
{
	sd_level(out, (unsigned int)l->sl, l->mtu_limit, l->rate_limit,
		 l->packet_life, &l->path_bits, &l->pkeys);
}

/* Each group of refs (and more) as its own set. */
static void osmqos_scope_sets(FILE *out, const struct oq_binding *b,
			      const struct oq_refs *refs,
			      const struct oq_refs *more,
			      const struct oq_fabric *f)
{
	size_t n = refs->n + (more ? more->n : 0), i;
	char **sets = calloc(n + 1, sizeof(*sets));

	for (i = 0; sets && i < n; i++) {
		struct oq_refs one = {0};
		size_t len = 0;
		FILE *m = open_memstream(&sets[i], &len);

		one.n = 1;
		one.v = i < refs->n ? &refs->v[i] : &more->v[i - refs->n];
		osmqos_set(m, b, &one, f);
		fclose(m);
	}
	if (sets)
		sd_sets(out, sets, n);
	for (i = 0; sets && i < n; i++)
		free(sets[i]);
	free(sets);
}

int sd_osmqos(FILE *out, const struct oq_policy *p, const struct oq_binding *b,
	      const struct oq_fabric *f)
{
	size_t i;

	fputs("default ", out);
	osmqos_level(out, &p->levels[p->default_level]);
	fputc('\n', out);
	for (i = 0; i < p->n_rules; i++) {
		const struct oq_match_rule *r = &p->rules[i];

		fprintf(out, "rule %zu src ", i);
		osmqos_set(out, b, &r->sources, f);
		fputs(" dst ", out);
		osmqos_set(out, b, &r->destinations, f);
		fputs(" sid ", out);
		sd_ranges(out, &r->service_ids);
		fputs(" class ", out);
		sd_ranges(out, &r->qos_classes);
		fputs(" pkey ", out);
		sd_ranges(out, &r->pkeys);
		fputs(" level ", out);
		osmqos_level(out, &p->levels[r->level.idx]);
		fputc('\n', out);
	}
	for (i = 0; i < p->n_vlarb; i++) {
		const struct oq_vlarb_scope *v = &p->vlarb[i];
		size_t j;

		fprintf(out, "vlarb %zu group ", i);
		osmqos_scope_sets(out, b, &v->groups, NULL, f);
		fputs(" across ", out);
		osmqos_scope_sets(out, b, &v->across, NULL, f);
		fputs(" high ", out);
		for (j = 0; j < v->n_high; j++)
			fprintf(out, "%s%u:%u", j ? "," : "", v->high[j].vl,
				v->high[j].weight);
		fputs(" low ", out);
		for (j = 0; j < v->n_low; j++)
			fprintf(out, "%s%u:%u", j ? "," : "", v->low[j].vl,
				v->low[j].weight);
		fprintf(out, " limit %d\n", v->vl_high_limit);
	}
	for (i = 0; i < p->n_sl2vl; i++) {
		const struct oq_sl2vl_scope *v = &p->sl2vl[i];
		uint8_t from[16] = {0}, to[16] = {0};
		unsigned int k;
		size_t j;

		for (k = 0; k < 128; k++) {
			if (v->from.all ||
			    (v->from.bits[k / 64] >> (k % 64) & 1))
				from[k / 8] |= (uint8_t)(1u << (k % 8));
			if (v->to.all || (v->to.bits[k / 64] >> (k % 64) & 1))
				to[k / 8] |= (uint8_t)(1u << (k % 8));
		}
		fprintf(out, "sl2vl %zu group ", i);
		osmqos_scope_sets(out, b, &v->groups, NULL, f);
		fputs(" from-groups ", out);
		osmqos_scope_sets(out, b, &v->across_from, &v->across, f);
		fputs(" to-groups ", out);
		osmqos_scope_sets(out, b, &v->across_to, &v->across, f);
		fputs(" from ", out);
		sd_bits128(out, from);
		fputs(" to ", out);
		sd_bits128(out, to);
		fputs(" table ", out);
		for (j = 0; j < 16; j++)
			fprintf(out, "%s%u", j ? "," : "", v->sl2vl[j]);
		fputc('\n', out);
	}
	return ferror(out) ? -1 : 0;
}
