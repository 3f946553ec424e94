// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The compiled matcher.  A decision is "the first rule whose criteria all
 * hold", so we precompute, for every criterion, the set of rules it lets
 * through as a bitset over rule indices and AND them at query time:
 *
 *   src row(port)  rules without sources, plus rules naming a source group
 *                  the port is in;
 *   dst row(port)  the same for destinations;
 *   sid(x)         rules without service-id, plus rules whose ranges hold x
 *                  (the ranges' end points cut the 64-bit line into
 *                  intervals; each interval has one precomputed set, found
 *                  by binary search); without a service-id in the query,
 *                  only the rules without service-id;
 *   qos-class, pkey  likewise.
 *
 * The winner is the lowest set bit of the AND.  Each set has a summary,
 * one bit per word that is not zero; the summaries are ANDed first, so
 * only words nonzero in all five sets are read: a query that matches only
 * the last of 10k rules (its service-id set holds one rule) reads a few
 * summary words instead of 157 words of each set.  Port rows are
 * deduplicated (ports in the same groups share a row), which keeps memory
 * small on large fabrics.
 */
#include <stdlib.h>
#include <string.h>

#include <osmqos/htab.h>

#include "match_int.h"
#include "matcher_int.h"

/* Above this many bytes of bitsets the sparse matcher is used: its
 * queries are slower (tens of candidate checks instead of a few words
 * ANDed) but its memory is O(n log n) instead of rules x intervals. */
#define OQ_BITSET_MAX_BYTES (64u << 20)

struct crit_index {
	uint64_t *bounds; /* sorted, unique interval starts */
	size_t n_bounds;
	uint64_t *sets;	  /* (n_bounds + 1) sets; set i = interval i */
	uint64_t *absent; /* rules without this criterion */
	uint64_t *sets_sum, *absent_sum; /* their summaries */
};

struct oq_matcher {
	const struct oq_binding *b;
	size_t n_rules, words;
	size_t swords; /* words of a summary: one bit per set word */
	int *rule_level;
	unsigned int *rule_why;
	int default_level;
	struct oq_intern rows;	     /* distinct rows of `words` words */
	const uint64_t *row;	     /* the rows, by id, once built */
	uint64_t *rows_sum;	     /* a summary per row */
	uint32_t *src_row, *dst_row; /* by port index */
	uint32_t src_none, dst_none; /* for ports not in the fabric */
	struct crit_index sid, qos_class, pkey;
	struct oq_sparse *sparse; /* instead of the bitsets, when set */
};

/* ---- rows ---------------------------------------------------------- */

/* Intern a row; returns its id or -1 when out of memory.  Rows are all
 * `words` words long, so the intern table keeps them as an array. */
static long row_add(struct oq_matcher *m, const uint64_t *row)
{
	uint32_t id;

	if (oq_intern_add(&m->rows, row, m->words * sizeof(*row), &id) < 0)
		return -1;
	return (long)id;
}

/* Summaries of n sets of `words` words: bit w of a set's summary says
 * word w of the set is not zero.  NULL when out of memory. */
static uint64_t *summarize(const uint64_t *sets, size_t n, size_t words,
			   size_t swords)
{
	uint64_t *sum = calloc(n * swords + 1, sizeof(*sum));
	size_t i, w;

	if (!sum)
		return NULL;
	for (i = 0; i < n; i++)
		for (w = 0; w < words; w++)
			if (sets[i * words + w])
				oq_bit_set(sum + i * swords, w);
	return sum;
}

/* Rows for one side (sources or destinations) of every port. */
static int build_side(struct oq_matcher *m, bool src, uint32_t *out,
		      uint32_t *none)
{
	const struct oq_binding *b = m->b;
	const struct oq_policy *p = b->p;
	size_t words = m->words, n_ports = b->f->n_ports, g, r, i, w;
	uint64_t *tmp, *by_group, *base;
	int ret = -1;
	long id;

	base = calloc(words, sizeof(*base));
	by_group = calloc(b->n_groups * words + 1, sizeof(*by_group));
	tmp = calloc(n_ports * words + 1, sizeof(*tmp));
	if (!base || !by_group || !tmp)
		goto out;
	for (r = 0; r < m->n_rules; r++) {
		const struct oq_refs *refs =
			src ? &p->rules[r].sources : &p->rules[r].destinations;

		if (!refs->n) {
			oq_bit_set(base, r);
			continue;
		}
		for (i = 0; i < refs->n; i++) {
			int gi = refs->v[i].idx;

			if (gi >= 0 && (size_t)gi < b->n_groups)
				oq_bit_set(by_group + (size_t)gi * words, r);
		}
	}
	for (i = 0; i < n_ports; i++)
		memcpy(tmp + i * words, base, words * sizeof(*tmp));
	for (g = 0; g < b->n_groups; g++) {
		const uint64_t *rules = by_group + g * words;
		const uint64_t *set = b->sets + g * b->words;
		size_t pw;

		for (w = 0; w < words && !rules[w]; w++)
			;
		if (w == words)
			continue; /* no rule names this group on this side */
		for (pw = 0; pw < b->words; pw++) {
			uint64_t bits = set[pw];

			while (bits) {
				size_t port = pw * 64 + __builtin_ctzll(bits);
				uint64_t *row = tmp + port * words;

				bits &= bits - 1;
				for (w = 0; w < words; w++)
					row[w] |= rules[w];
			}
		}
	}
	for (i = 0; i < n_ports; i++) {
		id = row_add(m, tmp + i * words);
		if (id < 0)
			goto out;
		out[i] = (uint32_t)id;
	}
	id = row_add(m, base);
	if (id < 0)
		goto out;
	*none = (uint32_t)id;
	ret = 0;
out:
	free(base);
	free(by_group);
	free(tmp);
	return ret;
}

/* ---- range criteria ------------------------------------------------ */

/* Number of bounds <= x: the index of the interval holding x. */
static size_t crit_interval(const struct crit_index *c, uint64_t x)
{
	return oq_bounds_index(c->bounds, c->n_bounds, x);
}

static const struct oq_ranges *rule_ranges(const struct oq_match_rule *r,
					   int which)
{
	switch (which) {
	case 0:
		return &r->service_ids;
	case 1:
		return &r->qos_classes;
	default:
		return &r->pkeys;
	}
}

static int build_crit(struct oq_matcher *m, struct crit_index *c, int which)
{
	const struct oq_policy *p = m->b->p;
	size_t words = m->words, n = 0, r, i, k;

	c->absent = calloc(words + 1, sizeof(*c->absent));
	if (!c->absent)
		return -1;
	for (r = 0; r < m->n_rules; r++) {
		const struct oq_ranges *rg = rule_ranges(&p->rules[r], which);

		if (!rg->n)
			oq_bit_set(c->absent, r);
		n += rg->n * 2;
	}
	c->bounds = calloc(n + 1, sizeof(*c->bounds));
	if (!c->bounds)
		return -1;
	for (r = 0; r < m->n_rules; r++) {
		const struct oq_ranges *rg = rule_ranges(&p->rules[r], which);

		for (i = 0; i < rg->n; i++) {
			c->bounds[c->n_bounds++] = rg->v[i].lo;
			if (rg->v[i].hi != UINT64_MAX)
				c->bounds[c->n_bounds++] = rg->v[i].hi + 1;
		}
	}
	c->n_bounds = oq_bounds_sort_unique(c->bounds, c->n_bounds);

	c->sets = calloc((c->n_bounds + 1) * words + 1, sizeof(*c->sets));
	if (!c->sets)
		return -1;
	for (i = 0; i <= c->n_bounds; i++)
		memcpy(c->sets + i * words, c->absent,
		       words * sizeof(*c->sets));
	for (r = 0; r < m->n_rules; r++) {
		const struct oq_ranges *rg = rule_ranges(&p->rules[r], which);

		for (i = 0; i < rg->n; i++) {
			size_t a = crit_interval(c, rg->v[i].lo);
			size_t z = crit_interval(c, rg->v[i].hi);

			for (k = a; k <= z; k++)
				oq_bit_set(c->sets + k * words, r);
		}
	}
	c->sets_sum = summarize(c->sets, c->n_bounds + 1, words, m->swords);
	c->absent_sum = summarize(c->absent, 1, words, m->swords);
	return c->sets_sum && c->absent_sum ? 0 : -1;
}

/* The set of rules a criterion lets through for a query, and its
 * summary in *sum. */
static const uint64_t *crit_lookup(const struct crit_index *c, size_t words,
				   size_t swords, bool has, uint64_t x,
				   const uint64_t **sum)
{
	size_t i;

	if (!has) {
		*sum = c->absent_sum;
		return c->absent;
	}
	i = crit_interval(c, x);
	*sum = c->sets_sum + i * swords;
	return c->sets + i * words;
}

static void crit_free(struct crit_index *c)
{
	free(c->bounds);
	free(c->sets);
	free(c->absent);
	free(c->sets_sum);
	free(c->absent_sum);
}

/* ---- public -------------------------------------------------------- */

/* Bytes the bitsets would take: rows (two per port, deduplicated, so at
 * most that), one set per group while building, and one per range
 * interval of each criterion (two end points per range). */
static double bitset_bytes(const struct oq_binding *b, size_t words)
{
	const struct oq_policy *p = b->p;
	double sets = 2.0 * ((double)b->f->n_ports + 1) + (double)b->n_groups;
	size_t r;

	for (r = 0; r < p->n_rules; r++)
		sets += 2.0 * (double)(p->rules[r].service_ids.n +
				       p->rules[r].qos_classes.n +
				       p->rules[r].pkeys.n);
	return sets * (double)words * 8.0;
}

struct oq_matcher *oq_matcher_compile(const struct oq_binding *b)
{
	return oq_matcher_compile_mode(b, OQ_MATCHER_AUTO);
}

struct oq_matcher *oq_matcher_compile_mode(const struct oq_binding *b,
					   enum oq_matcher_mode mode)
{
	const struct oq_policy *p;
	struct oq_matcher *m;
	size_t r, n_ports;

	if (!b)
		return NULL;
	p = b->p;
	n_ports = b->f->n_ports;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->b = b;
	m->n_rules = p->n_rules;
	m->words = oq_bits_words(p->n_rules);
	m->swords = oq_bits_words(m->words);
	m->default_level = oq_level_idx(p, p->default_level);
	m->rule_level = calloc(m->n_rules + 1, sizeof(*m->rule_level));
	m->rule_why = calloc(m->n_rules + 1, sizeof(*m->rule_why));
	m->src_row = calloc(n_ports + 1, sizeof(*m->src_row));
	m->dst_row = calloc(n_ports + 1, sizeof(*m->dst_row));
	if (!m->rule_level || !m->rule_why || !m->src_row || !m->dst_row)
		goto fail;
	for (r = 0; r < m->n_rules; r++) {
		m->rule_level[r] = oq_level_idx(p, p->rules[r].level.idx);
		m->rule_why[r] = oq_rule_criteria(&p->rules[r]);
	}
	if (!m->words)
		return m; /* no rules: every query gets DEFAULT */
	if (mode == OQ_MATCHER_SPARSE ||
	    (mode == OQ_MATCHER_AUTO &&
	     bitset_bytes(b, m->words) > OQ_BITSET_MAX_BYTES)) {
		m->sparse = oq_sparse_compile(b);
		if (!m->sparse)
			goto fail;
		return m;
	}
	if (build_side(m, true, m->src_row, &m->src_none) ||
	    build_side(m, false, m->dst_row, &m->dst_none) ||
	    build_crit(m, &m->sid, 0) || build_crit(m, &m->qos_class, 1) ||
	    build_crit(m, &m->pkey, 2))
		goto fail;
	/* The index is only needed while building. */
	oq_intern_seal(&m->rows);
	m->row = oq_intern_keys(&m->rows);
	m->rows_sum = summarize(m->row, oq_intern_count(&m->rows), m->words,
				m->swords);
	if (!m->rows_sum)
		goto fail;
	return m;
fail:
	oq_matcher_free(m);
	return NULL;
}

void oq_matcher_free(struct oq_matcher *m)
{
	if (!m)
		return;
	free(m->rule_level);
	free(m->rule_why);
	oq_intern_free(&m->rows);
	free(m->rows_sum);
	free(m->src_row);
	free(m->dst_row);
	crit_free(&m->sid);
	crit_free(&m->qos_class);
	crit_free(&m->pkey);
	oq_sparse_free(m->sparse);
	free(m);
}

/* The lowest rule in all five sets, or -1.  Only the words whose
 * summary bits are set in all five summaries are read. */
static long first_common(const uint64_t *const set[5],
			 const uint64_t *const sum[5], size_t swords)
{
	size_t sw;

	for (sw = 0; sw < swords; sw++) {
		uint64_t cand = sum[0][sw] & sum[1][sw] & sum[2][sw] &
				sum[3][sw] & sum[4][sw];

		while (cand) {
			size_t w = sw * 64 + __builtin_ctzll(cand);
			uint64_t x = set[0][w] & set[1][w] & set[2][w] &
				     set[3][w] & set[4][w];

			if (x)
				return (long)(w * 64 + __builtin_ctzll(x));
			cand &= cand - 1;
		}
	}
	return -1;
}

void oq_match(const struct oq_matcher *m, const struct oq_query *q,
	      struct oq_decision *d)
{
	size_t words = m->words, sw = m->swords;
	const uint64_t *set[5], *sum[5];
	long r = -1;

	if (m->sparse) {
		r = oq_sparse_match(m->sparse, q);
	} else if (words) {
		size_t srow =
			oq_binding_owns_port(m->b, q->src)
				? m->src_row[oq_port_index(m->b->f, q->src)]
				: m->src_none;
		size_t drow =
			oq_binding_owns_port(m->b, q->dst)
				? m->dst_row[oq_port_index(m->b->f, q->dst)]
				: m->dst_none;

		set[0] = m->row + srow * words;
		sum[0] = m->rows_sum + srow * sw;
		set[1] = m->row + drow * words;
		sum[1] = m->rows_sum + drow * sw;
		set[2] = crit_lookup(&m->sid, words, sw, q->has_sid, q->sid,
				     &sum[2]);
		set[3] = crit_lookup(&m->qos_class, words, sw, q->has_qos_class,
				     q->qos_class, &sum[3]);
		set[4] = crit_lookup(&m->pkey, words, sw, q->has_pkey,
				     q->pkey & OQ_PKEY_MASK, &sum[4]);
		r = first_common(set, sum, sw);
	}
	if (r >= 0) {
		d->rule = (int)r;
		d->level = m->rule_level[r];
		d->why = m->rule_why[r];
		return;
	}
	d->rule = -1;
	d->level = m->default_level;
	d->why = OQ_WHY_DEFAULT;
}
