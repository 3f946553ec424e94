// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The sparse matcher, for policies too large for matcher.c's bitsets
 * (those take rules x (port rows + range intervals) bits: 100,000
 * Service-ID rules needed 2.5 GB).  Memory here is O(n log n) in the
 * rules' ranges plus the bound groups' sizes.
 *
 * A rule r can only match a query that carries every criterion r has, so
 * rules are split into classes by the set of criteria they have (32).  In
 * each class one criterion drives the search, the one whose values the
 * fewest of its rules share (oq_policy_rule_keys):
 *
 *   a range criterion (service-id, pkey, qos-class): the rules' ranges in
 *	a segment tree over the ranges' end points; the query's value
 *	stabs O(log n) nodes, each holding its rules in ascending order;
 *   else a group criterion (source, destination): per group, the rules
 *	naming it, ascending; the query's port is in a few groups.
 *
 * Every candidate is checked whole (oq_rule_matches, the reference
 * matcher's test), and since candidate lists are ascending each list is
 * read only up to its first match or the best rule so far.  The answer is
 * the lowest match over the classes: the first-match semantics of the
 * reference matcher, which the property tests compare it with.
 */
#include <stdlib.h>
#include <string.h>

#include "match_int.h"
#include "matcher_int.h"

/* Rules listed per key: lists[start[k] .. start[k + 1]). */
struct csr {
	size_t *start;
	uint32_t *v;
};

struct sclass {
	int driver; /* K_*, -1: the class is empty */
	/* Range driver: segment tree over n_leaf elementary intervals. */
	uint64_t *bounds;
	size_t n_bounds, size; /* leaves = n_bounds + 1, padded to size */
	struct csr nodes;      /* 2 * size nodes */
	/* Group driver: by group index. */
	struct csr groups;
};

struct oq_sparse {
	const struct oq_binding *b;
	uint32_t first_plain; /* lowest rule without criteria, or UINT32_MAX */
	struct sclass cls[32];
	struct csr port_groups; /* by port index: the groups it is in */
};

/* The elementary interval holding x. */
static size_t leaf_of(const struct sclass *c, uint64_t x)
{
	return oq_bounds_index(c->bounds, c->n_bounds, x);
}

/*
 * The canonical nodes of leaves [a, z] (iterative segment tree): fn is
 * called with each node.  Used twice, to count and to fill.
 */
static void for_nodes(const struct sclass *c, size_t a, size_t z,
		      void (*fn)(struct csr *, size_t, uint32_t, bool),
		      struct csr *csr, uint32_t rule, bool fill)
{
	size_t l = a + c->size, r = z + c->size + 1;

	while (l < r) {
		if (l & 1)
			fn(csr, l++, rule, fill);
		if (r & 1)
			fn(csr, --r, rule, fill);
		l >>= 1;
		r >>= 1;
	}
}

static void csr_put(struct csr *c, size_t key, uint32_t rule, bool fill)
{
	if (fill)
		c->v[c->start[key + 1]++] = rule;
	else
		c->start[key + 2]++;
}

/* start[] from the counts csr_put left at start[key + 2]: prefix sums so
 * that the fill pass's start[key + 1]++ writes key's slots in order. */
static int csr_alloc(struct csr *c, size_t n_keys)
{
	size_t k;

	for (k = 2; k < n_keys + 2; k++)
		c->start[k] += c->start[k - 1];
	c->v = malloc((c->start[n_keys + 1] + 1) * sizeof(*c->v));
	return c->v ? 0 : -1;
}

static int build_range_class(const struct oq_policy *p, struct sclass *c,
			     unsigned int cls)
{
	size_t n = 0, r, i, pass;

	for (r = 0; r < p->n_rules; r++)
		if (oq_rule_crit_set(&p->rules[r]) == cls)
			n += 2 * oq_rule_ranges(&p->rules[r], c->driver)->n;
	c->bounds = malloc((n + 1) * sizeof(*c->bounds));
	if (!c->bounds)
		return -1;
	for (r = 0; r < p->n_rules; r++) {
		const struct oq_ranges *rg = oq_rule_ranges(&p->rules[r], c->driver);

		if (oq_rule_crit_set(&p->rules[r]) != cls)
			continue;
		for (i = 0; i < rg->n; i++) {
			c->bounds[c->n_bounds++] = rg->v[i].lo;
			if (rg->v[i].hi != UINT64_MAX)
				c->bounds[c->n_bounds++] = rg->v[i].hi + 1;
		}
	}
	c->n_bounds = oq_bounds_sort_unique(c->bounds, c->n_bounds);
	for (c->size = 1; c->size < c->n_bounds + 1; c->size <<= 1)
		;
	c->nodes.start = calloc(2 * c->size + 2, sizeof(*c->nodes.start));
	if (!c->nodes.start)
		return -1;
	for (pass = 0; pass < 2; pass++) {
		if (pass && csr_alloc(&c->nodes, 2 * c->size))
			return -1;
		for (r = 0; r < p->n_rules; r++) {
			const struct oq_ranges *rg =
				oq_rule_ranges(&p->rules[r], c->driver);

			if (oq_rule_crit_set(&p->rules[r]) != cls)
				continue;
			for (i = 0; i < rg->n; i++)
				for_nodes(c, leaf_of(c, rg->v[i].lo),
					  leaf_of(c, rg->v[i].hi), csr_put,
					  &c->nodes, (uint32_t)r, pass);
		}
	}
	return 0;
}

static int build_group_class(const struct oq_binding *b, struct sclass *c,
			     unsigned int cls)
{
	const struct oq_policy *p = b->p;
	size_t r, i, pass;

	c->groups.start = calloc(b->n_groups + 2, sizeof(*c->groups.start));
	if (!c->groups.start)
		return -1;
	for (pass = 0; pass < 2; pass++) {
		if (pass && csr_alloc(&c->groups, b->n_groups))
			return -1;
		for (r = 0; r < p->n_rules; r++) {
			const struct oq_refs *rf = oq_rule_refs(&p->rules[r],
							   c->driver);

			if (oq_rule_crit_set(&p->rules[r]) != cls)
				continue;
			for (i = 0; i < rf->n; i++)
				if (rf->v[i].idx >= 0 &&
				    (size_t)rf->v[i].idx < b->n_groups)
					csr_put(&c->groups,
						(size_t)rf->v[i].idx,
						(uint32_t)r, pass);
		}
	}
	return 0;
}

/* Each port's groups, from the binding's port sets. */
static int build_port_groups(const struct oq_binding *b, struct csr *c)
{
	size_t n_ports = b->f->n_ports, g, w, pass;

	c->start = calloc(n_ports + 2, sizeof(*c->start));
	if (!c->start)
		return -1;
	for (pass = 0; pass < 2; pass++) {
		if (pass && csr_alloc(c, n_ports))
			return -1;
		for (g = 0; g < b->n_groups; g++) {
			const uint64_t *set = b->sets + g * b->words;

			for (w = 0; w < b->words; w++) {
				uint64_t bits = set[w];

				while (bits) {
					size_t port =
						w * 64 +
						(size_t)__builtin_ctzll(bits);

					bits &= bits - 1;
					csr_put(c, port, (uint32_t)g, pass);
				}
			}
		}
	}
	return 0;
}

void oq_sparse_free(struct oq_sparse *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < 32; i++) {
		free(s->cls[i].bounds);
		free(s->cls[i].nodes.start);
		free(s->cls[i].nodes.v);
		free(s->cls[i].groups.start);
		free(s->cls[i].groups.v);
	}
	free(s->port_groups.start);
	free(s->port_groups.v);
	free(s);
}

struct oq_sparse *oq_sparse_compile(const struct oq_binding *b)
{
	const struct oq_policy *p = b->p;
	struct oq_sparse *s = calloc(1, sizeof(*s));
	bool present[32] = { false };
	int driver[32];
	size_t r;
	unsigned int c;

	if (!s)
		return NULL;
	if (oq_policy_rule_keys(p, driver)) {
		free(s);
		return NULL;
	}
	s->b = b;
	s->first_plain = UINT32_MAX;
	for (r = 0; r < p->n_rules; r++) {
		unsigned int k = oq_rule_crit_set(&p->rules[r]);

		present[k] = true;
		if (!k && s->first_plain == UINT32_MAX)
			s->first_plain = (uint32_t)r;
	}
	for (c = 1; c < 32; c++) {
		struct sclass *sc = &s->cls[c];

		sc->driver = present[c] ? driver[c] : -1;
		if (sc->driver < 0)
			continue;
		if (sc->driver >= OQ_CRIT_SID ? build_range_class(p, sc, c)
					: build_group_class(b, sc, c))
			goto fail;
	}
	if (build_port_groups(b, &s->port_groups))
		goto fail;
	return s;
fail:
	oq_sparse_free(s);
	return NULL;
}

/* The first rule of list [v, v + n) below best that matches q, or best. */
static uint32_t scan(const struct oq_sparse *s, const uint32_t *v, size_t n,
		     const struct oq_query *q, uint32_t best)
{
	size_t i;

	for (i = 0; i < n && v[i] < best; i++)
		if (oq_rule_matches(s->b, &s->b->p->rules[v[i]], q))
			return v[i];
	return best;
}

static uint32_t class_query(const struct oq_sparse *s, const struct sclass *c,
			    const struct oq_query *q, uint32_t best)
{
	if (c->driver >= OQ_CRIT_SID) {
		bool has = c->driver == OQ_CRIT_SID	 ? q->has_sid
			   : c->driver == OQ_CRIT_PKEY ? q->has_pkey
						 : q->has_qos_class;
		uint64_t x = c->driver == OQ_CRIT_SID	   ? q->sid
			     : c->driver == OQ_CRIT_PKEY ? (uint64_t)(q->pkey &
								OQ_PKEY_MASK)
						   : q->qos_class;
		size_t node;

		if (!has)
			return best;
		for (node = leaf_of(c, x) + c->size; node; node >>= 1)
			best = scan(s, c->nodes.v + c->nodes.start[node],
				    c->nodes.start[node + 1] -
					    c->nodes.start[node],
				    q, best);
	} else {
		const struct oq_port *port =
			c->driver == OQ_CRIT_SRC ? q->src : q->dst;
		const struct csr *pg = &s->port_groups;
		size_t i, pi;

		if (!oq_binding_owns_port(s->b, port))
			return best;
		pi = oq_port_index(s->b->f, port);
		for (i = pg->start[pi]; i < pg->start[pi + 1]; i++) {
			uint32_t g = pg->v[i];

			best = scan(s, c->groups.v + c->groups.start[g],
				    c->groups.start[g + 1] - c->groups.start[g],
				    q, best);
		}
	}
	return best;
}

/* The lowest matching rule, or -1. */
int oq_sparse_match(const struct oq_sparse *s, const struct oq_query *q)
{
	uint32_t best = s->first_plain;
	unsigned int c;

	for (c = 1; c < 32; c++)
		if (s->cls[c].driver >= 0)
			best = class_query(s, &s->cls[c], q, best);
	return best == UINT32_MAX ? -1 : (int)best;
}
