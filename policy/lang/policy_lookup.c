// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Name lookups in a parsed policy, case-insensitive and first match in
 * OpenSM's order.  OpenSM keeps one list of port groups, in the order the
 * file defines them, qos-ulps' generated ones (_SRP_Targets_, ...)
 * included, and looks names up in it: a rule or scope may name those.  Its
 * levels lookup never finds the levels qos-ulps generated, so neither does
 * ours.  With tens of thousands of groups a linear lookup per reference
 * made loading quadratic, so validation sorts the names once and lookups
 * bisect.
 */
#include <stdlib.h>
#include <strings.h>

#include <osmqos/policy.h>

/* qsort has no context argument: the names being sorted, with where
 * each is defined (the generated groups come last in the array but may
 * come first in the file). */
struct named {
	const char *name;
	struct oq_loc loc;
	int idx;
};

#define CMP(a, b) (((a) > (b)) - ((a) < (b)))

static int named_cmp(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcasecmp(x->name, y->name);

	if (!c)
		c = CMP(x->loc.line, y->loc.line);
	if (!c)
		c = CMP(x->loc.col, y->loc.col);
	return c ? c : CMP(x->idx, y->idx);
}

static int build(int **out, size_t *n_out, size_t n,
		 const char *(*name_of)(const struct oq_policy *, size_t),
		 struct oq_loc (*loc_of)(const struct oq_policy *, size_t),
		 const struct oq_policy *p)
{
	struct named *v = malloc((n ? n : 1) * sizeof(*v));
	size_t i, k = 0;

	free(*out);
	*out = NULL;
	*n_out = 0;
	if (!v)
		return -1;
	for (i = 0; i < n; i++) {
		const char *s = name_of(p, i);

		if (s)
			v[k++] = (struct named){ s, loc_of(p, i), (int)i };
	}
	qsort(v, k, sizeof(*v), named_cmp);
	*out = malloc((k ? k : 1) * sizeof(**out));
	if (!*out) {
		free(v);
		return -1;
	}
	for (i = 0; i < k; i++)
		(*out)[i] = v[i].idx;
	*n_out = k;
	free(v);
	return 0;
}

static const char *group_name(const struct oq_policy *p, size_t i)
{
	return p->groups[i].name;
}

static struct oq_loc group_loc(const struct oq_policy *p, size_t i)
{
	return p->groups[i].loc;
}

static const char *level_name(const struct oq_policy *p, size_t i)
{
	return p->levels[i].from_ulp ? NULL : p->levels[i].name;
}

static struct oq_loc level_loc(const struct oq_policy *p, size_t i)
{
	return p->levels[i].loc;
}

int oq_policy_index_names(struct oq_policy *p)
{
	if (build(&p->group_by_name, &p->n_group_by_name, p->n_groups,
		  group_name, group_loc, p) ||
	    build(&p->level_by_name, &p->n_level_by_name, p->n_levels,
		  level_name, level_loc, p))
		return -1;
	return 0;
}

/* The first (lowest position) entry of idx[0..n) named name, or -1. */
static int bisect(const int *idx, size_t n, const char *name,
		  const char *(*name_of)(const struct oq_policy *, size_t),
		  const struct oq_policy *p)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcasecmp(name_of(p, (size_t)idx[mid]), name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n && !strcasecmp(name_of(p, (size_t)idx[lo]), name))
		return idx[lo];
	return -1;
}

/* Before the index exists: the match defined first in the file. */
static int linear(size_t n, const char *name,
		  const char *(*name_of)(const struct oq_policy *, size_t),
		  struct oq_loc (*loc_of)(const struct oq_policy *, size_t),
		  const struct oq_policy *p)
{
	struct named best = { NULL, { NULL, 0, 0 }, -1 }, cur;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *s = name_of(p, i);

		if (!s || strcasecmp(s, name))
			continue;
		cur = (struct named){ s, loc_of(p, i), (int)i };
		if (best.idx < 0 || named_cmp(&cur, &best) < 0)
			best = cur;
	}
	return best.idx;
}

int oq_policy_find_group(const struct oq_policy *p, const char *name)
{
	if (p->group_by_name)
		return bisect(p->group_by_name, p->n_group_by_name, name,
			      group_name, p);
	return linear(p->n_groups, name, group_name, group_loc, p);
}

int oq_policy_find_level(const struct oq_policy *p, const char *name)
{
	if (p->level_by_name)
		return bisect(p->level_by_name, p->n_level_by_name, name,
			      level_name, p);
	return linear(p->n_levels, name, level_name, level_loc, p);
}
