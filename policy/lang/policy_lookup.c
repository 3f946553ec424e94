// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Name lookups in a parsed policy: case-insensitive, and blind to the
 * groups and levels qos-ulps generated (no operator can name them).  With
 * tens of thousands of groups a linear lookup per reference made loading
 * quadratic, so validation sorts the names once and lookups bisect.
 */
#include <stdlib.h>
#include <strings.h>

#include <osmqos/policy.h>

/* qsort has no context argument: the names being sorted. */
struct named {
	const char *name;
	int idx;
};

static int named_cmp(const void *a, const void *b)
{
	const struct named *x = a, *y = b;
	int c = strcasecmp(x->name, y->name);

	return c ? c : (x->idx > y->idx) - (x->idx < y->idx);
}

static int build(int **out, size_t *n_out, size_t n,
		 const char *(*name_of)(const struct oq_policy *, size_t),
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
			v[k++] = (struct named){ s, (int)i };
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
	return p->groups[i].from_ulp ? NULL : p->groups[i].name;
}

static const char *level_name(const struct oq_policy *p, size_t i)
{
	return p->levels[i].from_ulp ? NULL : p->levels[i].name;
}

int oq_policy_index_names(struct oq_policy *p)
{
	if (build(&p->group_by_name, &p->n_group_by_name, p->n_groups,
		  group_name, p) ||
	    build(&p->level_by_name, &p->n_level_by_name, p->n_levels,
		  level_name, p))
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

static int linear(size_t n, const char *name,
		  const char *(*name_of)(const struct oq_policy *, size_t),
		  const struct oq_policy *p)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *s = name_of(p, i);

		if (s && !strcasecmp(s, name))
			return (int)i;
	}
	return -1;
}

int oq_policy_find_group(const struct oq_policy *p, const char *name)
{
	if (p->group_by_name)
		return bisect(p->group_by_name, p->n_group_by_name, name,
			      group_name, p);
	return linear(p->n_groups, name, group_name, p);
}

int oq_policy_find_level(const struct oq_policy *p, const char *name)
{
	if (p->level_by_name)
		return bisect(p->level_by_name, p->n_level_by_name, name,
			      level_name, p);
	return linear(p->n_levels, name, level_name, p);
}
