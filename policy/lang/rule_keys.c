// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Which criterion to index match rules by: see oq_policy_rule_keys() in
 * osmqos/policy.h.  Keying every rule of "source: All, service-id: N" on
 * its source would make every lookup read every rule.
 */
#include <stdlib.h>
#include <string.h>

#include <osmqos/policy.h>

unsigned int oq_rule_crit_set(const struct oq_match_rule *r)
{
	return (r->sources.n ? 1u << OQ_CRIT_SRC : 0) |
	       (r->destinations.n ? 1u << OQ_CRIT_DST : 0) |
	       (r->service_ids.n ? 1u << OQ_CRIT_SID : 0) |
	       (r->pkeys.n ? 1u << OQ_CRIT_PKEY : 0) |
	       (r->qos_classes.n ? 1u << OQ_CRIT_QOS : 0);
}

const struct oq_refs *oq_rule_refs(const struct oq_match_rule *r, int k)
{
	return k == OQ_CRIT_SRC ? &r->sources : &r->destinations;
}

const struct oq_ranges *oq_rule_ranges(const struct oq_match_rule *r, int k)
{
	return k == OQ_CRIT_SID ? &r->service_ids
	       : k == OQ_CRIT_PKEY ? &r->pkeys
				   : &r->qos_classes;
}

/* One value of one criterion of one rule, for choose_keys. */
struct kval {
	unsigned int bucket;
	int kind;
	uint64_t v;
};

static int kval_cmp(const void *x, const void *y)
{
	const struct kval *a = x, *b = y;

	if (a->bucket != b->bucket)
		return a->bucket < b->bucket ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	return (a->v > b->v) - (a->v < b->v);
}

/*
 * Key each bucket on the criterion whose values are shared by the fewest
 * rules (the longest run of one value): with "source: All" on every rule,
 * the source key would make every query read every rule.
 */
int oq_policy_rule_keys(const struct oq_policy *p, int key_of[32])
{
	size_t n = 0, i, j, r, run;
	size_t worst[32][OQ_CRIT_N];
	struct kval *v;
	int k;

	memset(worst, 0, sizeof(worst));
	for (r = 0; r < p->n_rules; r++)
		n += p->rules[r].sources.n + p->rules[r].destinations.n +
		     p->rules[r].service_ids.n + p->rules[r].pkeys.n +
		     p->rules[r].qos_classes.n;
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -1;
	n = 0;
	for (r = 0; r < p->n_rules; r++) {
		const struct oq_match_rule *m = &p->rules[r];
		unsigned int b = oq_rule_crit_set(m);

		for (k = 0; k < OQ_CRIT_N; k++) {
			if (!(b & (1u << k)))
				continue;
			if (k <= OQ_CRIT_DST) {
				for (i = 0; i < oq_rule_refs(m, k)->n; i++)
					v[n++] = (struct kval){
						b, k,
						(uint64_t)oq_rule_refs(m, k)->v[i].idx };
			} else {
				for (i = 0; i < oq_rule_ranges(m, k)->n; i++)
					v[n++] = (struct kval){
						b, k, oq_rule_ranges(m, k)->v[i].lo };
			}
		}
	}
	qsort(v, n, sizeof(*v), kval_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && !kval_cmp(&v[i], &v[j]); j++)
			;
		run = j - i;
		if (run > worst[v[i].bucket][v[i].kind])
			worst[v[i].bucket][v[i].kind] = run;
	}
	free(v);
	key_of[0] = -1;
	for (i = 1; i < 32; i++) {
		key_of[i] = -1;
		for (k = 0; k < OQ_CRIT_N; k++)
			if ((i & (1u << k)) &&
			    (key_of[i] < 0 || worst[i][k] < worst[i][key_of[i]]))
				key_of[i] = k;
	}
	return 0;
}

