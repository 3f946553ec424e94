// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* What the policy grants a job's pairs, offline: see job_ask.h. */
#include <stdio.h>
#include <string.h>

#include "job_ask.h"

int oq_job_ask_level(struct oq_job_ask *a, char *err, size_t errlen)
{
	const struct oq_qos_level *l;
	int i;

	a->level = a->level_sl = a->level_pkey = -1;
	if (!a->pol) {
		snprintf(err, errlen,
			 "level %s: a level is looked up in the policy; give "
			 "--policy",
			 a->cls.level);
		return -1;
	}
	i = oq_policy_find_level(a->pol, a->cls.level);
	if (i < 0) {
		snprintf(err, errlen,
			 "the policy has no qos-level named '%s'; see its "
			 "qos-levels section",
			 a->cls.level);
		return -1;
	}
	l = &a->pol->levels[i];
	if (l->sl < 0) {
		snprintf(err, errlen,
			 "qos-level '%s' sets no sl, so it names no SL for "
			 "a job; give it 'sl: N' or map the job to another "
			 "class",
			 a->cls.level);
		return -1;
	}
	a->level = i;
	a->level_sl = l->sl;
	if (l->pkeys.n == 1 && l->pkeys.v[0].lo == l->pkeys.v[0].hi)
		a->level_pkey = (int)(l->pkeys.v[0].lo & 0x7fff);
	return 0;
}

void oq_job_ask_query(const struct oq_job_ask *a, const struct oq_port *src,
		      const struct oq_port *dst, struct oq_query *q)
{
	memset(q, 0, sizeof(*q));
	q->src = src;
	q->dst = dst;
	switch (a->cls.kind) {
	case OQ_JC_SID:
		q->has_sid = true;
		q->sid = a->cls.value;
		break;
	case OQ_JC_QOS_CLASS:
		q->has_qos_class = true;
		q->qos_class = (uint16_t)a->cls.value;
		break;
	case OQ_JC_PKEY:
		q->has_pkey = true;
		q->pkey = (uint16_t)a->cls.value;
		break;
	case OQ_JC_LEVEL:
		if (a->level_pkey >= 0) {
			q->has_pkey = true;
			q->pkey = (uint16_t)a->level_pkey;
		}
		break;
	default:
		break;
	}
}

/* The P_Key the class's query carries, -1 none. */
static int query_pkey(const struct oq_job_ask *a)
{
	if (a->cls.kind == OQ_JC_PKEY)
		return (int)a->cls.value;
	if (a->cls.kind == OQ_JC_LEVEL)
		return a->level_pkey;
	return -1;
}

static bool shared(const struct oq_fabric *f, const struct oq_port *s,
		   const struct oq_port *d, uint16_t k)
{
	int ms = oq_port_pkey_membership(f, s, k);
	int md = oq_port_pkey_membership(f, d, k);

	return ms && md && (ms == 2 || md == 2);
}

static bool level_allows(const struct oq_qos_level *l, uint16_t k)
{
	return !l || !l->pkeys.n || oq_ranges_contains(&l->pkeys, k) ||
	       oq_ranges_contains(&l->pkeys, k | 0x8000u);
}

bool oq_job_ask_pkey_rule(const struct oq_job_ask *a, const struct oq_port *src,
			  const struct oq_port *dst, int level, int *pkey_out,
			  char *why, size_t len)
{
	const struct oq_qos_level *l =
		a->pol && level >= 0 ? &a->pol->levels[level] : NULL;
	int qk = query_pkey(a), best = -1;
	const uint16_t *src_pkeys;
	size_t n_src_pkeys, i;

	*pkey_out = qk >= 0 ? qk : 0x7fff;
	if (qk >= 0 && !level_allows(l, (uint16_t)qk)) {
		snprintf(why, len,
			 "the pair's qos-level %s does not allow P_Key 0x%04x",
			 l->name ? l->name : "?", qk);
		return false;
	}
	if (!a->have_pkeys)
		return true;
	if (qk >= 0) {
		if (shared(a->fabric, src, dst, (uint16_t)qk))
			return true;
		snprintf(why, len,
			 "the ports share no partition with P_Key 0x%04x (one "
			 "of them a full member)",
			 qk);
		return false;
	}
	src_pkeys = oq_port_pkeys(a->fabric, src, &n_src_pkeys);
	for (i = 0; i < n_src_pkeys; i++) {
		uint16_t k = src_pkeys[i] & 0x7fff;

		if ((best < 0 || k < best) && shared(a->fabric, src, dst, k) &&
		    level_allows(l, k))
			best = k;
	}
	if (best >= 0) {
		*pkey_out = best;
		return true;
	}
	if (l && l->pkeys.n)
		snprintf(why, len,
			 "the ports share no partition the pair's qos-level "
			 "%s allows",
			 l->name ? l->name : "?");
	else
		snprintf(why, len,
			 "the ports share no partition (P_Key) with one of "
			 "them a full member: partition isolation");
	return false;
}

bool oq_job_ask_exports_pkey(const struct oq_job_ask *a, int level)
{
	if (a->cls.kind == OQ_JC_PKEY)
		return true;
	if (a->cls.kind == OQ_JC_LEVEL)
		level = a->level;
	return a->pol && level >= 0 && a->pol->levels[level].pkeys.n;
}

/* The partition's sl= for pkey, -1 when it has none. */
static int partition_sl(const struct oq_job_ask *a, int pkey)
{
	size_t i;

	for (i = 0; a->parts && i < a->parts->n; i++)
		if (a->parts->v[i].pkey == (uint16_t)pkey)
			return a->parts->v[i].sl;
	return -1;
}

static void one(const struct oq_job_ask *a, const struct oq_job_pair *p,
		struct oq_job_answer *ans)
{
	const struct oq_port *src = a->plan->ports[p->src].port;
	const struct oq_port *dst = a->plan->ports[p->dst].port;
	const struct oq_qos_level *l;
	struct oq_decision d;
	struct oq_query q;
	int pkey, sl;

	memset(ans, 0, sizeof(*ans));
	ans->g.weight = p->weight;
	oq_job_ask_query(a, src, dst, &q);
	oq_match(a->m, &q, &d);
	ans->level = d.level;
	l = d.level >= 0 ? &a->pol->levels[d.level] : NULL;
	if (a->cls.kind == OQ_JC_LEVEL && l && l->sl >= 0 &&
	    l->sl != a->level_sl) {
		ans->g.denied = true;
		snprintf(ans->why, sizeof(ans->why),
			 "the policy gives this pair qos-level %s (SL %d), not "
			 "%s (SL %d)",
			 l->name ? l->name : "?", l->sl, a->cls.level,
			 a->level_sl);
		return;
	}
	if (!oq_job_ask_pkey_rule(a, src, dst, d.level, &pkey, ans->why,
				  sizeof(ans->why))) {
		ans->g.denied = true;
		return;
	}
	if (a->cls.kind == OQ_JC_LEVEL)
		sl = a->level_sl;
	else if (l && l->sl >= 0)
		sl = l->sl;
	else
		sl = partition_sl(a, pkey) >= 0 ? partition_sl(a, pkey) : 0;
	ans->g.sl = sl;
	ans->g.pkey = pkey;
	ans->g.pkey_restricted = oq_job_ask_exports_pkey(a, d.level);
}

void oq_job_ask_offline(const struct oq_job_ask *a, struct oq_job_answer *out)
{
	size_t i;

	for (i = 0; i < a->plan->n_pairs; i++)
		one(a, &a->plan->pairs[i], &out[i]);
}
