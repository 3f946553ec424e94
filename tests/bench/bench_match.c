// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Matcher benchmark: 1000 rules, ~10k ports.  Prints the median ns per
 * decision of the compiled matcher next to the naive first-match scan's,
 * both measured in this run on the same queries, and checks that the two
 * agree on every query.  Target: compiled median < 200 ns.
 *
 * The policy is built so that most queries scan deep: rules are specific
 * (a small source or destination group plus a narrow service-id range),
 * and a good share of queries match nothing and get DEFAULT, which is the
 * naive scan's worst case.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "match_fixture.h"

#define N_RULES	  1000
#define N_GROUPS  200
#define N_QUERIES 4096
#define ROUNDS	  31
#define TARGET_NS 200.0

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static struct oq_policy *bench_policy(uint64_t *rng, const struct oq_fabric *f)
{
	struct oq_policy *p = fx_policy_new();
	size_t i;
	char name[32];

	fx_level(p, "DEFAULT", 0);
	for (i = 1; i < 8; i++) {
		snprintf(name, sizeof(name), "L%zu", i);
		fx_level(p, name, (int)i);
	}
	for (i = 0; i < N_GROUPS; i++) {
		int g;
		uint64_t lo = 0x1000 + fx_below(rng, 2 * f->n_ports);

		snprintf(name, sizeof(name), "G%zu", i);
		g = fx_group(p, name);
		fx_group_guids(p, g, lo, lo + 2 * fx_below(rng, 50));
	}
	for (i = 0; i < N_RULES; i++) {
		int r = fx_rule(p, 1 + (int)fx_below(rng, 7));
		uint64_t sid = fx_below(rng, 1u << 16);

		switch (fx_below(rng, 4)) {
		case 0:
			fx_rule_src(p, r, (int)fx_below(rng, N_GROUPS));
			break;
		case 1:
			fx_rule_dst(p, r, (int)fx_below(rng, N_GROUPS));
			break;
		case 2:
			fx_rule_src(p, r, (int)fx_below(rng, N_GROUPS));
			fx_rule_dst(p, r, (int)fx_below(rng, N_GROUPS));
			break;
		default:
			fx_add_range(&p->rules[r].qos_classes,
				     fx_below(rng, 4096), fx_below(rng, 4096));
		}
		fx_add_range(&p->rules[r].service_ids, sid,
			     sid + fx_below(rng, 64));
		if (!fx_below(rng, 8))
			fx_add_range(&p->rules[r].pkeys, 1 + fx_below(rng, 8),
				     1 + fx_below(rng, 8));
	}
	return p;
}

static void bench_queries(uint64_t *rng, const struct oq_fabric *f,
			  struct oq_query *q)
{
	size_t i;

	for (i = 0; i < N_QUERIES; i++) {
		memset(&q[i], 0, sizeof(q[i]));
		do
			q[i].src = f->ports[fx_below(rng, f->n_ports)];
		while (!oq_port_is_endport(q[i].src));
		do
			q[i].dst = f->ports[fx_below(rng, f->n_ports)];
		while (!oq_port_is_endport(q[i].dst));
		q[i].has_sid = fx_below(rng, 8) != 0;
		q[i].sid = fx_below(rng, 1u << 16);
		q[i].has_qos_class = fx_below(rng, 2);
		q[i].qos_class = (uint16_t)fx_below(rng, 4096);
		q[i].has_pkey = fx_below(rng, 2);
		q[i].pkey = (uint16_t)(0x8000 | fx_below(rng, 10));
	}
}

/* Median over ROUNDS of the mean ns per decision over all queries. */
static double run(const struct oq_matcher *m, const struct oq_binding *b,
		  const struct oq_query *q, unsigned *sink)
{
	double per[ROUNDS];
	int r;
	size_t i;

	for (r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();

		for (i = 0; i < N_QUERIES; i++) {
			struct oq_decision d;

			if (m)
				oq_match(m, &q[i], &d);
			else
				oq_match_naive(b, &q[i], &d);
			*sink += (unsigned)d.rule;
		}
		per[r] = (now_ns() - t0) / N_QUERIES;
	}
	qsort(per, ROUNDS, sizeof(per[0]), cmp_double);
	return per[ROUNDS / 2];
}

int main(void)
{
	uint64_t rng = 0x0123456789abcdefull;
	struct oq_fabric *f = fx_random_fabric(&rng, 5000, 150, 36);
	struct oq_policy *p = bench_policy(&rng, f);
	struct oq_query *q = calloc(N_QUERIES, sizeof(*q));
	struct oq_binding *b;
	struct oq_matcher *m;
	double t0, t_compile, fast, naive;
	size_t i, mismatches = 0, defaults = 0;
	unsigned sink = 0;

	b = oq_bind(p, f, NULL, NULL);
	t0 = now_ns();
	m = oq_matcher_compile(b);
	t_compile = now_ns() - t0;
	if (!b || !m || !q) {
		fprintf(stderr, "bench_match: setup failed (out of memory)\n");
		return 1;
	}
	bench_queries(&rng, f, q);
	for (i = 0; i < N_QUERIES; i++) {
		struct oq_decision x, y;

		oq_match_naive(b, &q[i], &x);
		oq_match(m, &q[i], &y);
		mismatches += x.rule != y.rule || x.level != y.level ||
			      x.why != y.why;
		defaults += x.rule < 0;
	}
	fast = run(m, b, q, &sink);
	naive = run(NULL, b, q, &sink);
	printf("bench_match: %zu rules, %zu ports, %zu groups, %d queries "
	       "(%zu%% DEFAULT)\n",
	       p->n_rules, f->n_ports, p->n_groups, N_QUERIES,
	       defaults * 100 / N_QUERIES);
	printf("  compile: %.1f ms\n", t_compile / 1e6);
	printf("  compiled matcher: median %.1f ns/decision\n", fast);
	printf("  naive scan:       median %.1f ns/decision (%.0fx slower)\n",
	       naive, fast > 0 ? naive / fast : 0);
	printf("  agreement: %zu mismatches (sink %u)\n", mismatches, sink & 1);
	oq_matcher_free(m);
	oq_binding_free(b);
	fx_policy_free(p);
	oq_fabric_free(f);
	free(q);
	if (mismatches) {
		fprintf(stderr, "bench_match: compiled and naive disagree\n");
		return 1;
	}
	if (fast >= TARGET_NS) {
		fprintf(stderr,
			"bench_match: median %.1f ns >= target %.0f "
			"ns\n",
			fast, TARGET_NS);
		return 1;
	}
	return 0;
}
