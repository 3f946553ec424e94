// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The reference matcher: a first-match scan over the rules, written to read
 * like OpenSM 3.3.23's __qos_policy_get_match_rule_by_params() so the two
 * can be compared line by line.  The compiled matcher (matcher.c) must give
 * the same answer for every query; tests and the benchmark check that.
 */
#include "match_int.h"

unsigned int oq_rule_criteria(const struct oq_match_rule *r)
{
	unsigned int why = 0;

	if (r->sources.n)
		why |= OQ_WHY_SOURCE;
	if (r->destinations.n)
		why |= OQ_WHY_DESTINATION;
	if (r->service_ids.n)
		why |= OQ_WHY_SERVICE_ID;
	if (r->qos_classes.n)
		why |= OQ_WHY_QOS_CLASS;
	if (r->pkeys.n)
		why |= OQ_WHY_PKEY;
	return why;
}

bool oq_rule_matches(const struct oq_binding *b, const struct oq_match_rule *r,
		     const struct oq_query *q)
{
	/* Sources only: the source must be in one of them; destinations
	 * only: likewise the destination; both: source in a source group
	 * AND destination in a destination group. */
	if (r->sources.n && !oq_binding_in_any(b, &r->sources, q->src))
		return false;
	if (r->destinations.n &&
	    !oq_binding_in_any(b, &r->destinations, q->dst))
		return false;
	/* A criterion the query does not carry never matches. */
	if (r->qos_classes.n &&
	    (!q->has_qos_class ||
	     !oq_ranges_contains(&r->qos_classes, q->qos_class)))
		return false;
	if (r->service_ids.n &&
	    (!q->has_sid || !oq_ranges_contains(&r->service_ids, q->sid)))
		return false;
	if (r->pkeys.n &&
	    (!q->has_pkey ||
	     !oq_ranges_contains(&r->pkeys, q->pkey & OQ_PKEY_MASK)))
		return false;
	return true;
}

void oq_match_naive(const struct oq_binding *b, const struct oq_query *q,
		    struct oq_decision *d)
{
	const struct oq_policy *p = b->p;
	size_t i;

	for (i = 0; i < p->n_rules; i++) {
		const struct oq_match_rule *r = &p->rules[i];

		if (!oq_rule_matches(b, r, q))
			continue;
		d->rule = (int)i;
		d->level = oq_level_idx(p, r->level.idx);
		d->why = oq_rule_criteria(r);
		return;
	}
	d->rule = -1;
	d->level = oq_level_idx(p, p->default_level);
	d->why = OQ_WHY_DEFAULT;
}
