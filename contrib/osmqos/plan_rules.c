// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos plan`: which rules an edit adds, removes, moves or gives another
 * QoS level.  A rule is known by what it matches, as written: its source
 * and destination groups and its Service ID, QoS class and P_Key ranges;
 * not by its position (inserting one rule would make every later one look
 * edited) nor by its use: text (a description).  Equal rules of the two
 * policies are paired by their level and use: text first, then in order
 * (pair_rules()); of the pairs, the longest run whose old positions
 * increase in the new order kept its first-match order, and the others
 * moved: OpenSM takes the first rule that matches, so a move past a rule
 * of another level can hand a query that level (the pairs plan decides
 * say which SLs that changes).
 */
#include <config.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plan.h"

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/* Ranges are normalized by the parser, so equal sets compare equal. */
static int ranges_cmp(const struct oq_ranges *a, const struct oq_ranges *b)
{
	int c = cmp_u64(a->n, b->n);
	size_t i;

	for (i = 0; !c && i < a->n; i++) {
		c = cmp_u64(a->v[i].lo, b->v[i].lo);
		if (!c)
			c = cmp_u64(a->v[i].hi, b->v[i].hi);
	}
	return c;
}

static const struct oq_port_group *group_of(const struct oq_policy *p,
					    const struct oq_ref *ref)
{
	if (ref->idx < 0 || (size_t)ref->idx >= p->n_groups)
		return NULL;
	return &p->groups[ref->idx];
}

/*
 * Groups by name, as the policy resolves them (case-insensitively); the
 * groups qos-ulps lines make by their GUIDs too, since every such line
 * names its group alike (_SRP_Targets_, _ULP_Targets_, ...).
 */
static int refs_cmp(const struct oq_policy *pa, const struct oq_refs *a,
		    const struct oq_policy *pb, const struct oq_refs *b)
{
	int c = cmp_u64(a->n, b->n);
	size_t i;

	for (i = 0; !c && i < a->n; i++) {
		const struct oq_port_group *ga = group_of(pa, &a->v[i]),
					   *gb = group_of(pb, &b->v[i]);
		bool ua = ga && ga->from_ulp, ub = gb && gb->from_ulp;

		c = strcasecmp(a->v[i].name ? a->v[i].name : "",
			       b->v[i].name ? b->v[i].name : "");
		if (!c)
			c = (int)ua - (int)ub;
		if (!c && ua)
			c = ranges_cmp(&ga->guids, &gb->guids);
	}
	return c;
}

/* One rule of either policy, as the sort sees it. */
struct rule_at {
	const struct oq_policy *p;
	size_t i;
	int side; /* 0 OLD, 1 NEW */
	unsigned char tier; /* pair_tier()'s key */
};

static int criteria_cmp(const struct rule_at *x, const struct rule_at *y)
{
	const struct oq_match_rule *a = &x->p->rules[x->i],
				   *b = &y->p->rules[y->i];
	int c = (int)a->from_ulp - (int)b->from_ulp;

	if (!c)
		c = refs_cmp(x->p, &a->sources, y->p, &b->sources);
	if (!c)
		c = refs_cmp(x->p, &a->destinations, y->p, &b->destinations);
	if (!c)
		c = ranges_cmp(&a->service_ids, &b->service_ids);
	if (!c)
		c = ranges_cmp(&a->qos_classes, &b->qos_classes);
	if (!c)
		c = ranges_cmp(&a->pkeys, &b->pkeys);
	return c;
}

/* Equal criteria together, OLD's first, each side in file order. */
static int rule_at_cmp(const void *l, const void *r)
{
	const struct rule_at *x = l, *y = r;
	int c = criteria_cmp(x, y);

	if (!c)
		c = x->side - y->side;
	if (!c)
		c = cmp_u64(x->i, y->i);
	return c;
}

static const struct oq_qos_level *level_of(const struct rule_at *x)
{
	int l = x->p->rules[x->i].level.idx;

	if (l < 0 || (size_t)l >= x->p->n_levels)
		return NULL;
	return &x->p->levels[l];
}

/* A total order whose equal levels are those level_same() finds equal. */
static int level_cmp(const struct rule_at *x, const struct rule_at *y)
{
	const struct oq_qos_level *a = level_of(x), *b = level_of(y);
	int c;

	if (!a || !b)
		return a   ? 1
		       : b ? -1
			   : x->p->rules[x->i].level.idx -
				       y->p->rules[y->i].level.idx;
	c = a->sl - b->sl;
	if (!c)
		c = a->mtu_limit - b->mtu_limit;
	if (!c)
		c = a->rate_limit - b->rate_limit;
	if (!c)
		c = a->packet_life - b->packet_life;
	if (!c)
		c = strcasecmp(a->name ? a->name : "", b->name ? b->name : "");
	return c;
}

static int use_cmp(const struct rule_at *x, const struct rule_at *y)
{
	const char *a = x->p->rules[x->i].use, *b = y->p->rules[y->i].use;

	return strcmp(a ? a : "", b ? b : "");
}

static int key_level_use(const struct rule_at *x, const struct rule_at *y)
{
	int c = level_cmp(x, y);

	return c ? c : use_cmp(x, y);
}

static int key_none(const struct rule_at *x, const struct rule_at *y)
{
	return 0;
}

/*
 * Rules of equal criteria are told apart by what else an edit is likely
 * to have kept: first both their level and use: text, then their level
 * (a duplicate of another level removed is not one rule removed and
 * another given its level), then their use: text (one of two duplicates
 * removed and the other given another level), and only then their order.
 */
static int (*const tier_key[])(const struct rule_at *,
			       const struct rule_at *) = {
	key_level_use,
	level_cmp,
	use_cmp,
	key_none,
};

/* A tier's key, then OLD's first, each in file order. */
static int tier_cmp(const void *l, const void *r)
{
	const struct rule_at *x = l, *y = r;
	int c = tier_key[x->tier](x, y);

	if (!c)
		c = x->side - y->side;
	if (!c)
		c = cmp_u64(x->i, y->i);
	return c;
}

static bool paired(const struct plan_rules *r, const struct rule_at *x)
{
	return (x->side ? r->old_of_new : r->new_of_old)[x->i] >= 0;
}

/*
 * Of v[0..n), rules of equal criteria, pair the unpaired ones that tier's
 * key finds equal: the k-th OLD rule of each such set with the k-th NEW.
 */
static void pair_tier(struct plan_rules *r, struct rule_at *v, size_t n,
		      unsigned char tier)
{
	size_t i, j, o, nw, news;

	for (i = 0; i < n; i++)
		v[i].tier = tier;
	qsort(v, n, sizeof(*v), tier_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !tier_key[tier](&v[i], &v[j]); j++)
			;
		for (news = i; news < j && !v[news].side; news++)
			;
		for (o = i, nw = news;; o++, nw++) {
			while (o < news && paired(r, &v[o]))
				o++;
			while (nw < j && paired(r, &v[nw]))
				nw++;
			if (o == news || nw == j)
				break;
			r->new_of_old[v[o].i] = (long)v[nw].i;
			r->old_of_new[v[nw].i] = (long)v[o].i;
		}
	}
}

/* Rules of equal criteria, OLD's with NEW's (pair_tier()). */
static int pair_rules(struct plan_rules *r, const struct oq_policy *a,
		      const struct oq_policy *b)
{
	size_t n = a->n_rules + b->n_rules, i, j;
	unsigned char t;
	struct rule_at *v = calloc(n + 1, sizeof(*v));

	if (!v)
		return -1;
	for (i = 0; i < a->n_rules; i++)
		v[i] = (struct rule_at){a, i, 0, 0};
	for (i = 0; i < b->n_rules; i++)
		v[a->n_rules + i] = (struct rule_at){b, i, 1, 0};
	qsort(v, n, sizeof(*v), rule_at_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !criteria_cmp(&v[i], &v[j]); j++)
			;
		/* One side only: nothing to pair. */
		if (v[i].side || !v[j - 1].side)
			continue;
		for (t = 0; t < sizeof(tier_key) / sizeof(*tier_key); t++)
			pair_tier(r, v + i, j - i, t);
	}
	free(v);
	return 0;
}

/*
 * Mark the paired NEW rules outside a longest run whose OLD positions
 * increase (patience sorting: O(n log n) for the thousands of rules a
 * qos-ulps section can expand to).
 */
static int mark_moved(struct plan_rules *r, size_t n)
{
	long *tail = calloc(n + 1, sizeof(*tail)); /* NEW index per length */
	long *prev = calloc(n + 1, sizeof(*prev));
	size_t len = 0, j, lo, hi;
	long t;

	if (!tail || !prev) {
		free(tail);
		free(prev);
		return -1;
	}
	for (j = 0; j < n; j++) {
		long o = r->old_of_new[j];

		if (o < 0)
			continue;
		for (lo = 0, hi = len; lo < hi;) {
			size_t mid = (lo + hi) / 2;

			if (r->old_of_new[tail[mid]] < o)
				lo = mid + 1;
			else
				hi = mid;
		}
		prev[j] = lo ? tail[lo - 1] : -1;
		tail[lo] = (long)j;
		len += lo == len;
		r->edit[j] |= PLAN_RULE_MOVED;
	}
	for (t = len ? tail[len - 1] : -1; t >= 0; t = prev[t])
		r->edit[t] &= (unsigned char)~PLAN_RULE_MOVED;
	free(tail);
	free(prev);
	return 0;
}

/* Moved rules times rules order_matters() compares at most. */
#define ORDER_WORK 50000000

static bool level_same(const struct oq_policy *pa, int la,
		       const struct oq_policy *pb, int lb)
{
	const struct oq_qos_level *a, *b;

	if (la < 0 || lb < 0 || (size_t)la >= pa->n_levels ||
	    (size_t)lb >= pb->n_levels)
		return la == lb;
	a = &pa->levels[la];
	b = &pb->levels[lb];
	return a->sl == b->sl && a->mtu_limit == b->mtu_limit &&
	       a->rate_limit == b->rate_limit &&
	       a->packet_life == b->packet_life &&
	       !strcasecmp(a->name ? a->name : "", b->name ? b->name : "");
}

/*
 * Whether a moved rule passed a rule of another level: a query both match
 * then gets the other level.  Rules in order keep their order among
 * themselves, so every pair that swapped holds a moved rule; the level
 * compared is NEW's (a rule whose level changed is reported as such).
 * Past a bound on the work (many rules moved among very many) this is not
 * checked, and the caller counts it as a change: a plan must not say an
 * edit changes nothing when it may.
 */
static bool order_matters(const struct plan_rules *r, const struct oq_policy *b)
{
	size_t n = b->n_rules, j, k;

	for (j = 0; j < n; j++) {
		long oj = r->old_of_new[j];

		if (!(r->edit[j] & PLAN_RULE_MOVED))
			continue;
		for (k = 0; k < n; k++) {
			long ok = r->old_of_new[k];

			if (ok < 0 || k == j || (k < j) == (ok < oj))
				continue;
			if (!level_same(b, b->rules[j].level.idx, b,
					b->rules[k].level.idx))
				return true;
		}
	}
	return false;
}

int plan_rules_diff(struct plan_rules *r, const struct oq_policy *a,
		    const struct oq_policy *b)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->new_of_old = malloc((a->n_rules + 1) * sizeof(*r->new_of_old));
	r->old_of_new = malloc((b->n_rules + 1) * sizeof(*r->old_of_new));
	r->edit = calloc(b->n_rules + 1, sizeof(*r->edit));
	if (!r->new_of_old || !r->old_of_new || !r->edit)
		return -1;
	for (i = 0; i < a->n_rules; i++)
		r->new_of_old[i] = -1;
	for (i = 0; i < b->n_rules; i++)
		r->old_of_new[i] = -1;
	if (pair_rules(r, a, b) || mark_moved(r, b->n_rules))
		return -1;
	for (i = 0; i < a->n_rules; i++)
		r->removed += r->new_of_old[i] < 0;
	for (i = 0; i < b->n_rules; i++) {
		long o = r->old_of_new[i];

		if (o < 0) {
			r->edit[i] |= PLAN_RULE_ADDED;
			r->added++;
			continue;
		}
		if (!level_same(a, a->rules[o].level.idx, b,
				b->rules[i].level.idx)) {
			r->edit[i] |= PLAN_RULE_LEVEL;
			r->changed++;
		}
		r->moved += !!(r->edit[i] & PLAN_RULE_MOVED);
	}
	r->order_unchecked = r->moved > ORDER_WORK / (b->n_rules + 1);
	r->order_matters =
		r->moved && (r->order_unchecked || order_matters(r, b));
	return 0;
}

void plan_rules_free(struct plan_rules *r)
{
	free(r->new_of_old);
	free(r->old_of_new);
	free(r->edit);
	memset(r, 0, sizeof(*r));
}
