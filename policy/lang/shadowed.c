// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Match rules that an earlier rule shadows: rule b can never match when an
 * earlier rule a matches every query b matches (rule_covers).  Comparing
 * every pair was quadratic (50,000 rules: 31 s), so earlier rules are
 * indexed: a rule a can cover b only if every criterion a has, b has too,
 * so rules are bucketed by the set of criteria they have (32 sets), and
 * within a bucket by one criterion's values ("key"): a group a's list
 * holds (b's first group of that kind must be one of them), or a range
 * that contains b's first value of that kind.  Rules are checked in order
 * and their entries switched on after their own check, so a query sees
 * earlier rules only; a segment tree over the entries (in key order)
 * keeps per node the largest hi and the lowest rule switched on, so only
 * entries that hold b's first value whole and come from a rule below the
 * best so far are read, however many others overlap it.  The first
 * (lowest) covering rule is reported, as before.  What is left quadratic
 * (many earlier rules hold the value but differ in another criterion) is
 * bounded: past a budget of comparisons the check stops, with a warning.
 */
#include <stdlib.h>
#include <string.h>

#include "validate_int.h"

static bool refs_subset(const struct oq_refs *inner,
			const struct oq_refs *outer)
{
	size_t i, j;

	for (i = 0; i < inner->n; i++) {
		if (inner->v[i].idx < 0)
			return false;
		for (j = 0; j < outer->n; j++)
			if (outer->v[j].idx == inner->v[i].idx)
				break;
		if (j == outer->n)
			return false;
	}
	return true;
}

static bool refs_resolved(const struct oq_refs *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->v[i].idx < 0)
			return false;
	return true;
}

/*
 * Does rule a match every query rule b matches?  Each criterion a has must
 * be implied by b's criterion of the same kind (a query without the
 * component never matches a rule that has it), so: b's groups a subset of
 * a's, b's ranges contained in a's.  Conservative: different groups with
 * the same ports are not recognized.
 */
static bool rule_covers(const struct oq_match_rule *a,
			const struct oq_match_rule *b)
{
	if (!refs_resolved(&a->sources) || !refs_resolved(&a->destinations))
		return false;
	if (a->sources.n &&
	    (!b->sources.n || !refs_subset(&b->sources, &a->sources)))
		return false;
	if (a->destinations.n &&
	    (!b->destinations.n ||
	     !refs_subset(&b->destinations, &a->destinations)))
		return false;
	if (a->service_ids.n &&
	    (!b->service_ids.n ||
	     !oq_ranges_subset(&b->service_ids, &a->service_ids)))
		return false;
	if (a->qos_classes.n &&
	    (!b->qos_classes.n ||
	     !oq_ranges_subset(&b->qos_classes, &a->qos_classes)))
		return false;
	if (a->pkeys.n &&
	    (!b->pkeys.n || !oq_ranges_subset(&b->pkeys, &a->pkeys)))
		return false;
	return true;
}

/* One indexed value of one rule: a group index (lo = hi = idx) or a
 * range. */
struct entry {
	unsigned int bucket;
	uint64_t lo, hi;
	size_t rule;
};

static int entry_cmp(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;

	if (a->bucket != b->bucket)
		return a->bucket < b->bucket ? -1 : 1;
	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return (a->rule > b->rule) - (a->rule < b->rule);
}

struct index {
	struct entry *v;
	size_t n;
	int key_of[32]; /* the criterion each bucket is keyed on */
	size_t start[33]; /* bucket b's entries: [start[b], start[b + 1]) */
	size_t first_plain; /* first rule with no criterion, or SIZE_MAX */
	/* The segment tree over v (leaf i at sz + i): per node the largest
	 * hi and the lowest rule of the entries switched on under it
	 * (SIZE_MAX: none). */
	uint64_t *mx;
	size_t *mn;
	size_t sz;
	/* Each rule's entries (indexes into v): by_rule[at[r]..at[r + 1]). */
	size_t *by_rule, *at;
	size_t budget; /* comparisons left before the check stops */
};

static int index_build(const struct oq_policy *p, struct index *ix)
{
	size_t i, j, n = 0, k;
	unsigned int b;

	ix->first_plain = SIZE_MAX;
	if (oq_policy_rule_keys(p, ix->key_of))
		return -1;
	for (i = 0; i < p->n_rules; i++) {
		const struct oq_match_rule *r = &p->rules[i];
		int kk = oq_rule_crit_set(r) ? ix->key_of[oq_rule_crit_set(r)] : -1;

		if (kk < 0)
			continue;
		n += kk <= OQ_CRIT_DST ? oq_rule_refs(r, kk)->n : oq_rule_ranges(r, kk)->n;
	}
	ix->v = malloc((n ? n : 1) * sizeof(*ix->v));
	if (!ix->v)
		return -1;
	for (i = 0; i < p->n_rules; i++) {
		const struct oq_match_rule *r = &p->rules[i];
		unsigned int kinds = oq_rule_crit_set(r);
		int kk = kinds ? ix->key_of[kinds] : -1;

		if (kk < 0) {
			if (ix->first_plain == SIZE_MAX)
				ix->first_plain = i;
			continue;
		}
		if (kk <= OQ_CRIT_DST) {
			const struct oq_refs *rf = oq_rule_refs(r, kk);

			for (j = 0; j < rf->n; j++)
				if (rf->v[j].idx >= 0)
					ix->v[ix->n++] = (struct entry){
						kinds, (uint64_t)rf->v[j].idx,
						(uint64_t)rf->v[j].idx, i};
		} else {
			const struct oq_ranges *rg = oq_rule_ranges(r, kk);

			for (j = 0; j < rg->n; j++)
				ix->v[ix->n++] = (struct entry){
					kinds, rg->v[j].lo, rg->v[j].hi, i};
		}
	}
	qsort(ix->v, ix->n, sizeof(*ix->v), entry_cmp);
	for (b = 0, k = 0; b <= 32; b++) {
		while (k < ix->n && ix->v[k].bucket < b)
			k++;
		ix->start[b] = k;
	}
	for (ix->sz = 1; ix->sz < ix->n; ix->sz *= 2)
		;
	ix->mx = calloc(2 * ix->sz, sizeof(*ix->mx));
	ix->mn = malloc(2 * ix->sz * sizeof(*ix->mn));
	ix->at = calloc(p->n_rules + 1, sizeof(*ix->at));
	ix->by_rule = malloc((ix->n ? ix->n : 1) * sizeof(*ix->by_rule));
	if (!ix->mx || !ix->mn || !ix->at || !ix->by_rule)
		return -1;
	for (k = 0; k < 2 * ix->sz; k++)
		ix->mn[k] = SIZE_MAX;
	/* Entries by rule: counted, summed, placed. */
	for (k = 0; k < ix->n; k++)
		ix->at[ix->v[k].rule + 1]++;
	for (i = 0; i < p->n_rules; i++)
		ix->at[i + 1] += ix->at[i];
	for (k = 0; k < ix->n; k++)
		ix->by_rule[ix->at[ix->v[k].rule]++] = k;
	for (i = p->n_rules; i > 0; i--)
		ix->at[i] = ix->at[i - 1];
	ix->at[0] = 0;
	ix->budget = 32 * (ix->n + p->n_rules) + 1000000;
	return 0;
}

static void index_free(struct index *ix)
{
	free(ix->v);
	free(ix->mx);
	free(ix->mn);
	free(ix->at);
	free(ix->by_rule);
}

/* Rule r's entries are switched on: later queries see them. */
static void switch_on(struct index *ix, size_t r)
{
	size_t i, node;

	for (i = ix->at[r]; i < ix->at[r + 1]; i++) {
		node = ix->sz + ix->by_rule[i];
		ix->mx[node] = ix->v[ix->by_rule[i]].hi;
		ix->mn[node] = r;
		for (node /= 2; node >= 1; node /= 2) {
			size_t a = 2 * node, b = a + 1;

			ix->mn[node] =
				ix->mn[a] < ix->mn[b] ? ix->mn[a] : ix->mn[b];
			ix->mx[node] = ix->mn[a] == SIZE_MAX   ? ix->mx[b]
				       : ix->mn[b] == SIZE_MAX ? ix->mx[a]
				       : ix->mx[a] > ix->mx[b] ? ix->mx[a]
							       : ix->mx[b];
		}
	}
}

/* The first index in [l, r) of an entry switched on whose hi is >= y and
 * whose rule is below limit, or SIZE_MAX; node covers [nl, nr). */
static size_t first_reaching(const struct index *ix, size_t node, size_t nl,
			     size_t nr, size_t l, size_t r, uint64_t y,
			     size_t limit)
{
	size_t mid, e;

	if (nr <= l || nl >= r || ix->mn[node] >= limit || ix->mx[node] < y)
		return SIZE_MAX;
	if (nr - nl == 1)
		return nl;
	mid = nl + (nr - nl) / 2;
	e = first_reaching(ix, 2 * node, nl, mid, l, r, y, limit);
	return e != SIZE_MAX ? e
			     : first_reaching(ix, 2 * node + 1, mid, nr, l, r,
					      y, limit);
}

/* The first index in [lo, hi) whose entry's lo is > x. */
static size_t first_above(const struct entry *v, size_t lo, size_t hi,
			  uint64_t x)
{
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].lo <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The lowest rule switched on in bucket `bucket` that covers rule bi, or
 * `best` when none is lower. */
static size_t bucket_query(const struct oq_policy *p, struct index *ix,
			   unsigned int bucket, size_t bi, size_t best)
{
	const struct oq_match_rule *b = &p->rules[bi];
	int kk = ix->key_of[bucket];
	size_t lo = ix->start[bucket], hi = ix->start[bucket + 1], k, e;
	uint64_t x, y;

	if (kk <= OQ_CRIT_DST) {
		int g = oq_rule_refs(b, kk)->v[0].idx;

		if (g < 0)
			return best;
		x = y = (uint64_t)g;
	} else {
		x = oq_rule_ranges(b, kk)->v[0].lo;
		y = oq_rule_ranges(b, kk)->v[0].hi;
	}
	/* A covering rule holds b's first value of this kind whole in one
	 * of its entries (ranges are merged): lo <= x and hi >= y, among
	 * the entries [lo, k).  They are read from the lowest lo up (the
	 * widest first: a covering rule is often both), each from a rule
	 * below the best found so far. */
	k = first_above(ix->v, lo, hi, x);
	while (ix->budget && lo < k &&
	       (e = first_reaching(ix, 1, 0, ix->sz, lo, k, y,
				   best < bi ? best : bi)) != SIZE_MAX) {
		ix->budget--;
		if (rule_covers(&p->rules[ix->v[e].rule], b))
			best = ix->v[e].rule;
		lo = e + 1;
	}
	return best;
}

static void report(const struct oq_match_rule *a,
		   const struct oq_match_rule *b, struct oq_diags *d)
{
	struct oq_diag *dg;

	if (b->from_ulp)
		dg = oq_warning(d, b->loc,
				"qos-ulps line '%s' can never match: the %s at "
				"line %u matches all of its queries",
				b->use ? b->use : "",
				a->from_ulp ? "qos-ulps line"
					    : "qos-match-rule",
				a->loc.line);
	else
		dg = oq_warning(d, b->loc,
				"qos-match-rule can never match: the %s at "
				"line %u matches all of its queries",
				a->from_ulp ? "qos-ulps line"
					    : "qos-match-rule",
				a->loc.line);
	oq_diag_hint(dg, "rules are tried in order and the first match wins; "
			 "move this one up or remove it");
}

void oq_check_shadowed(const struct oq_policy *p, struct oq_diags *d)
{
	struct index ix = { 0 };
	unsigned int bucket;
	size_t j;

	if (p->n_rules < 2)
		return;
	if (index_build(p, &ix)) {
		oq_error(d, (struct oq_loc){ p->file, 0, 0 }, "out of memory");
		index_free(&ix);
		return;
	}
	switch_on(&ix, 0);
	for (j = 1; j < p->n_rules; j++) {
		unsigned int kb = oq_rule_crit_set(&p->rules[j]);
		size_t best = ix.first_plain < j ? ix.first_plain : SIZE_MAX;

		/* Buckets whose criteria b has too: the subsets of kb. */
		for (bucket = kb; bucket && ix.budget;
		     bucket = (bucket - 1) & kb)
			best = bucket_query(p, &ix, bucket, j, best);
		if (!ix.budget) {
			oq_diag_hint(
				oq_warning(d, p->rules[j].loc,
					   "the check for rules that can never "
					   "match stopped at this rule: %zu "
					   "rules overlap too much to compare "
					   "them all",
					   p->n_rules),
				"only the rules before this one were checked; "
				"what each rule matches is not affected");
			break;
		}
		if (best != SIZE_MAX)
			report(&p->rules[best], &p->rules[j], d);
		switch_on(&ix, j);
	}
	index_free(&ix);
}
