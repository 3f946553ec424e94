// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Which SL a job exports: see job_decide.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "job_class.h"
#include "job_decide.h"

int oq_job_prefer_parse(const char *s, struct oq_job_prefer *p, char *err,
			size_t errlen)
{
	static const struct {
		const char *name;
		enum oq_job_prefer_mode mode;
	} words[] = {
		{"fail", OQ_PREFER_FAIL},
		{"most", OQ_PREFER_MOST},
		{"lowest", OQ_PREFER_LOWEST},
		{"highest", OQ_PREFER_HIGHEST},
	};
	unsigned long long v;
	size_t i;

	memset(p, 0, sizeof(*p));
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		if (!strcmp(s, words[i].name)) {
			p->mode = words[i].mode;
			return 0;
		}
	}
	if (oq_parse_u64(s, &v) || v > 15) {
		snprintf(err, errlen,
			 "'%.80s' is no preference; give fail, most, lowest, "
			 "highest or an SL 0..15",
			 s);
		return -1;
	}
	p->mode = OQ_PREFER_SL;
	p->sl = (int)v;
	return 0;
}

void oq_job_prefer_format(const struct oq_job_prefer *p, char *buf, size_t len)
{
	static const char *const names[] = {"fail", "most", "lowest",
					    "highest"};

	if (p->mode == OQ_PREFER_SL)
		snprintf(buf, len, "%d", p->sl);
	else
		snprintf(buf, len, "%s", names[p->mode]);
}

/* A granted answer's sort key: (SL, P_Key), then its position, so each
 * option's first answer is the lowest index among its own. */
struct key {
	int sl, pkey;
	size_t i;
};

static int cmp_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;

	if (x->sl != y->sl)
		return x->sl < y->sl ? -1 : 1;
	if (x->pkey != y->pkey)
		return x->pkey < y->pkey ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

static int collect(const struct oq_job_grant *g, size_t n,
		   struct oq_job_decision *d)
{
	struct key *k;
	size_t m = 0, i;

	k = malloc((n ? n : 1) * sizeof(*k));
	d->opts = malloc((n ? n : 1) * sizeof(*d->opts));
	if (!k || !d->opts) {
		free(k);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!g[i].denied && g[i].pkey_restricted)
			d->by_pkey = true;
	for (i = 0; i < n; i++) {
		if (g[i].denied) {
			if (!d->n_denied)
				d->first_denied = i;
			d->n_denied++;
			d->denied_weight += g[i].weight;
			continue;
		}
		k[m].sl = g[i].sl;
		k[m].pkey = d->by_pkey ? g[i].pkey : -1;
		k[m++].i = i;
	}
	qsort(k, m, sizeof(*k), cmp_key);
	for (i = 0; i < m; i++) {
		struct oq_job_option *o =
			d->n_opts ? &d->opts[d->n_opts - 1] : NULL;

		if (!o || o->sl != k[i].sl || o->pkey != k[i].pkey) {
			o = &d->opts[d->n_opts++];
			o->sl = k[i].sl;
			o->pkey = k[i].pkey;
			o->restricted = false;
			o->weight = 0;
			o->n_answers = 0;
			o->first = k[i].i;
		}
		o->weight += g[k[i].i].weight;
		o->restricted |= g[k[i].i].pkey_restricted;
		o->n_answers++;
	}
	free(k);
	return 0;
}

/* The option the preference picks, or -1. */
static long pick(const struct oq_job_decision *d, const struct oq_job_prefer *p)
{
	long best = -1;
	size_t i;

	for (i = 0; i < d->n_opts; i++) {
		const struct oq_job_option *o = &d->opts[i];

		switch (p->mode) {
		case OQ_PREFER_MOST:
			/* Ties go to the lower SL: options are sorted. */
			if (best < 0 || o->weight > d->opts[best].weight)
				best = (long)i;
			break;
		case OQ_PREFER_LOWEST:
			if (best < 0 || o->sl < d->opts[best].sl ||
			    (o->sl == d->opts[best].sl &&
			     o->weight > d->opts[best].weight))
				best = (long)i;
			break;
		case OQ_PREFER_HIGHEST:
			if (best < 0 || o->sl > d->opts[best].sl ||
			    (o->sl == d->opts[best].sl &&
			     o->weight > d->opts[best].weight))
				best = (long)i;
			break;
		case OQ_PREFER_SL:
			if (o->sl == p->sl &&
			    (best < 0 || o->weight > d->opts[best].weight))
				best = (long)i;
			break;
		default:
			return -1;
		}
	}
	return best;
}

int oq_job_decide(const struct oq_job_grant *g, size_t n,
		  const struct oq_job_prefer *prefer, struct oq_job_decision *d)
{
	static const struct oq_job_prefer fail = {OQ_PREFER_FAIL, 0};
	long best;

	memset(d, 0, sizeof(*d));
	d->sl = d->pkey = -1;
	if (collect(g, n, d)) {
		oq_job_decision_free(d);
		return -1;
	}
	if (d->n_denied) {
		d->verdict = OQ_JOB_DENIED;
		return 0;
	}
	if (!d->n_opts) {
		d->verdict = OQ_JOB_EMPTY;
		return 0;
	}
	if (d->n_opts == 1) {
		best = 0;
	} else {
		best = pick(d, prefer ? prefer : &fail);
		if (best < 0) {
			d->verdict = OQ_JOB_MIXED;
			return 0;
		}
		d->preferred = true;
	}
	d->verdict = OQ_JOB_OK;
	d->sl = d->opts[best].sl;
	d->pkey = d->opts[best].restricted ? d->opts[best].pkey : -1;
	return 0;
}

void oq_job_decide_one_host(struct oq_job_decision *d)
{
	if (d->verdict == OQ_JOB_DENIED)
		d->verdict = OQ_JOB_UNSET;
}

void oq_job_decision_free(struct oq_job_decision *d)
{
	free(d->opts);
	d->opts = NULL;
	d->n_opts = 0;
}
