// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Matcher benchmark: the compiled matchers (bitsets, sparse index) side by
 * side on the same policies and queries, against the naive first-match
 * scan, which every answer is checked against.
 *
 * Workloads:
 *   storm   gen-rules-policy.sh's policies (RULES - 1 filler rules, then
 *           the one the queries match; what `make bench-sa` loads) on a
 *           generated fat tree of 2,700 nodes; CA to CA queries with the
 *           matching Service ID: the SA storm's question.
 *   mixed   the same policies; any end ports, a quarter of the queries
 *           without Service ID (DEFAULT), a quarter with the last rule's,
 *           half with a filler's (a rule at a random depth).
 *   groups  random rules naming port groups, Service IDs, QoS classes and
 *           P_Keys together (match_fixture.c) on a random fabric of 5,000
 *           CAs: the policies the bitsets' summaries were written for.
 *
 * For each, at 20 / 1,000 / 10,000 / 100,000 rules (groups: 1,000 and
 * 10,000): compile time, the bytes the compiled matcher holds (malloc's
 * count), and the median ns per decision over the rounds, which alternate
 * the two matchers.  Exits 1 when an answer differs from the naive
 * scan's, or when the bitsets' median on groups at 1,000 rules is not
 * below TARGET_NS.  For instruction counts, run one case under callgrind:
 *
 *   bench_match --only storm:1000:bitset --rounds 1
 *
 * Usage: bench_match [--only WORKLOAD:RULES:bitset|sparse] [--rounds N]
 */
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/clock.h>
#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>

#include "cmd_output.h"
#include "match_fixture.h"

#ifndef OQ_SRCDIR
#define OQ_SRCDIR "."
#endif
#ifndef OQ_BUILDDIR
#define OQ_BUILDDIR "."
#endif

#define N_QUERIES  4096
#define MAX_ROUNDS 31
#define TARGET_NS  200.0
#define HIT_SID	   0x1000000000000001ull
#define FILLER_SID 0x2000000000000000ull
#define GEN_FABRIC                                                             \
	OQ_BUILDDIR "/contrib/fabrics/gen-fattree --spines 36 --leaves 72 "    \
		    "--hcas-per-leaf 36 --storage-per-leaf 1"

enum workload { STORM, MIXED, GROUPS };
static const char *const workload_name[] = {"storm", "mixed", "groups"};
static const char *const mode_name[] = {"bitset", "sparse"};
static const enum oq_matcher_mode modes[] = {OQ_MATCHER_BITSET,
					     OQ_MATCHER_SPARSE};

struct bcase {
	enum workload w;
	size_t rules;
};

static const struct bcase cases[] = {
	{STORM, 20},	{STORM, 1000},	 {STORM, 10000}, {STORM, 100000},
	{MIXED, 20},	{MIXED, 1000},	 {MIXED, 10000}, {MIXED, 100000},
	{GROUPS, 1000}, {GROUPS, 10000},
};

struct only {
	bool set;
	enum workload w;
	size_t rules;
	int mode;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Bytes malloc has handed out and not taken back. */
static size_t heap_bytes(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static struct oq_policy *rules_policy(size_t rules)
{
	char cmd[512], *text;
	struct oq_policy *p;
	struct oq_diags d;
	size_t len;

	snprintf(cmd, sizeof(cmd),
		 "bash " OQ_SRCDIR "/tests/bench/gen-rules-policy.sh %zu "
		 "0x%llx",
		 rules, (unsigned long long)HIT_SID);
	text = fx_cmd_output(cmd, &len);
	if (!text)
		return NULL;
	oq_diags_init(&d);
	p = oq_policy_parse("bench.conf", text, len, &d);
	if (p)
		oq_policy_validate(p, &d);
	if (!p || oq_diags_has_errors(&d)) {
		oq_diags_print(&d, stderr);
		oq_policy_free(p);
		p = NULL;
	}
	oq_diags_free(&d);
	free(text);
	return p;
}

/* The policy of the old single-workload benchmark, at any size: specific
 * rules (small groups, narrow Service-ID ranges) so queries scan deep. */
static struct oq_policy *groups_policy(uint64_t *rng, const struct oq_fabric *f,
				       size_t rules)
{
	size_t i, n_groups = rules / 5;
	struct oq_policy *p = fx_policy_new();
	char name[32];

	fx_level(p, "DEFAULT", 0);
	for (i = 1; i < 8; i++) {
		snprintf(name, sizeof(name), "L%zu", i);
		fx_level(p, name, (int)i);
	}
	for (i = 0; i < n_groups; i++) {
		uint64_t lo = 0x1000 + fx_below(rng, 2 * f->n_ports);
		int g;

		snprintf(name, sizeof(name), "G%zu", i);
		g = fx_group(p, name);
		fx_group_guids(p, g, lo, lo + 2 * fx_below(rng, 50));
	}
	for (i = 0; i < rules; i++) {
		int r = fx_rule(p, 1 + (int)fx_below(rng, 7));
		uint64_t sid = fx_below(rng, 1u << 16);

		switch (fx_below(rng, 4)) {
		case 0:
			fx_rule_src(p, r, (int)fx_below(rng, n_groups));
			break;
		case 1:
			fx_rule_dst(p, r, (int)fx_below(rng, n_groups));
			break;
		case 2:
			fx_rule_src(p, r, (int)fx_below(rng, n_groups));
			fx_rule_dst(p, r, (int)fx_below(rng, n_groups));
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

static const struct oq_port *random_end(uint64_t *rng,
					const struct oq_fabric *f, bool ca)
{
	const struct oq_port *p;

	do
		p = f->ports[fx_below(rng, f->n_ports)];
	while (!oq_port_is_endport(p) || (ca && p->node->type != OQ_NODE_CA));
	return p;
}

static void make_queries(enum workload w, size_t rules, uint64_t *rng,
			 const struct oq_fabric *f, struct oq_query *q)
{
	size_t i;

	for (i = 0; i < N_QUERIES; i++) {
		memset(&q[i], 0, sizeof(q[i]));
		q[i].src = random_end(rng, f, w == STORM);
		q[i].dst = random_end(rng, f, w == STORM);
		switch (w) {
		case STORM:
			q[i].has_sid = true;
			q[i].sid = HIT_SID;
			break;
		case MIXED:
			switch (fx_below(rng, 4)) {
			case 0:
				break;
			case 1:
				q[i].has_sid = true;
				q[i].sid = HIT_SID;
				break;
			default:
				q[i].has_sid = true;
				q[i].sid = FILLER_SID +
					   fx_below(rng,
						    rules > 1 ? rules - 1 : 1);
			}
			break;
		case GROUPS:
			q[i].has_sid = fx_below(rng, 8) != 0;
			q[i].sid = fx_below(rng, 1u << 16);
			q[i].has_qos_class = fx_below(rng, 2);
			q[i].qos_class = (uint16_t)fx_below(rng, 4096);
			q[i].has_pkey = fx_below(rng, 2);
			q[i].pkey = (uint16_t)(0x8000 | fx_below(rng, 10));
			break;
		}
	}
}

/* One round: mean ns per decision over all queries. */
static double round_ns(const struct oq_matcher *m, const struct oq_query *q,
		       unsigned int *sink)
{
	uint64_t t0 = oq_clock_ns();
	size_t i;

	for (i = 0; i < N_QUERIES; i++) {
		struct oq_decision d;

		oq_match(m, &q[i], &d);
		*sink += (unsigned int)d.rule;
	}
	return (double)(oq_clock_ns() - t0) / N_QUERIES;
}

/* Queries whose compiled answers differ from the naive scan's (all
 * queries; at 100,000 rules, where a naive decision takes a scan of
 * them all, one in eight). */
static size_t disagreements(const struct oq_matcher *m,
			    const struct oq_binding *b,
			    const struct oq_query *q, size_t rules)
{
	size_t i, bad = 0, step = rules >= 100000 ? 8 : 1;

	for (i = 0; i < N_QUERIES; i += step) {
		struct oq_decision x, y;

		oq_match_naive(b, &q[i], &x);
		oq_match(m, &q[i], &y);
		bad += x.rule != y.rule || x.level != y.level || x.why != y.why;
	}
	return bad;
}

struct measure {
	double compile_ms, mib, ns;
	bool done;
};

static int run_case(const struct bcase *c, const struct oq_fabric *big,
		    const struct only *only, int rounds)
{
	uint64_t rng = 0x0123456789abcdefull;
	struct oq_fabric *rand_f = NULL;
	const struct oq_fabric *f = big;
	struct oq_matcher *m[2] = {NULL, NULL};
	struct measure res[2];
	double per[2][MAX_ROUNDS];
	struct oq_query *q = calloc(N_QUERIES, sizeof(*q));
	struct oq_policy *p;
	struct oq_binding *b;
	size_t bad = 0, defaults = 0, i;
	unsigned int sink = 0;
	int k, r, rc = 0;

	memset(res, 0, sizeof(res));
	if (c->w == GROUPS) {
		rand_f = fx_random_fabric(&rng, 5000, 150, 36);
		f = rand_f;
		p = groups_policy(&rng, f, c->rules);
	} else {
		p = rules_policy(c->rules);
	}
	b = p && q ? oq_bind(p, f, NULL, NULL) : NULL;
	if (!b) {
		fprintf(stderr, "bench_match: %s at %zu rules: setup failed\n",
			workload_name[c->w], c->rules);
		return 1;
	}
	make_queries(c->w, c->rules, &rng, f, q);
	for (k = 0; k < 2; k++) {
		size_t before;
		uint64_t t0;

		if (only->set && only->mode != k)
			continue;
		before = heap_bytes();
		t0 = oq_clock_ns();
		m[k] = oq_matcher_compile_mode(b, modes[k]);
		res[k].compile_ms = (double)(oq_clock_ns() - t0) / 1e6;
		res[k].mib = (double)(heap_bytes() - before) / (1 << 20);
		if (!m[k]) {
			fprintf(stderr,
				"bench_match: %s matcher at %zu rules: "
				"out of memory\n",
				mode_name[k], c->rules);
			rc = 1;
			continue;
		}
		res[k].done = true;
		bad += disagreements(m[k], b, q, c->rules);
	}
	for (r = 0; r < rounds; r++)
		for (k = 0; k < 2; k++)
			if (m[k])
				per[k][r] = round_ns(m[k], q, &sink);
	for (k = 0; k < 2; k++) {
		if (!m[k])
			continue;
		qsort(per[k], (size_t)rounds, sizeof(per[k][0]), cmp_double);
		res[k].ns = per[k][rounds / 2];
	}
	for (i = 0; i < N_QUERIES; i++) {
		struct oq_decision d;

		oq_match(m[0] ? m[0] : m[1], &q[i], &d);
		defaults += d.rule < 0;
	}
	printf("%-6s %7zu %4zu%%", workload_name[c->w], c->rules,
	       defaults * 100 / N_QUERIES);
	for (k = 0; k < 2; k++) {
		if (res[k].done)
			printf(" | %9.1f %9.2f %8.1f", res[k].compile_ms,
			       res[k].mib, res[k].ns);
		else
			printf(" | %9s %9s %8s", "-", "-", "-");
	}
	if (res[0].done && res[1].done && res[0].ns > 0)
		printf(" | %5.2f", res[1].ns / res[0].ns);
	printf("\n");
	fflush(stdout);
	if (bad) {
		fprintf(stderr,
			"bench_match: %s at %zu rules: %zu answers differ "
			"from the naive scan's (sink %u)\n",
			workload_name[c->w], c->rules, bad, sink & 1);
		rc = 1;
	}
	if (c->w == GROUPS && c->rules == 1000 && res[0].done &&
	    res[0].ns >= TARGET_NS) {
		fprintf(stderr,
			"bench_match: bitset median %.1f ns >= target %.0f ns "
			"(groups, 1,000 rules)\n",
			res[0].ns, TARGET_NS);
		rc = 1;
	}
	for (k = 0; k < 2; k++)
		oq_matcher_free(m[k]);
	oq_binding_free(b);
	if (c->w == GROUPS)
		fx_policy_free(p);
	else
		oq_policy_free(p);
	oq_fabric_free(rand_f);
	free(q);
	return rc;
}

static int parse_only(const char *s, struct only *o)
{
	char w[16], m[16];
	int k;

	if (sscanf(s, "%15[a-z]:%zu:%15[a-z]", w, &o->rules, m) != 3 ||
	    !o->rules)
		return -1;
	for (k = 0; k < 3 && strcmp(w, workload_name[k]); k++)
		;
	if (k == 3)
		return -1;
	o->w = (enum workload)k;
	o->mode = !strcmp(m, "bitset") ? 0 : !strcmp(m, "sparse") ? 1 : -1;
	o->set = true;
	return o->mode < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct only only = {false, STORM, 0, 0};
	struct oq_fabric *big;
	struct oq_diags d;
	int rounds = 15, i, rc = 0;
	size_t len, k;
	char *text;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--only") && i + 1 < argc) {
			if (parse_only(argv[++i], &only))
				goto usage;
		} else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) {
			rounds = atoi(argv[++i]);
			if (rounds < 1 || rounds > MAX_ROUNDS)
				goto usage;
		} else {
			goto usage;
		}
	}
	text = fx_cmd_output(GEN_FABRIC, &len);
	oq_diags_init(&d);
	big = text ? oq_topology_parse("fat-tree.net", text, len, &d) : NULL;
	free(text);
	oq_diags_free(&d);
	if (!big) {
		fprintf(stderr, "bench_match: cannot build the fat tree\n");
		return 1;
	}
	printf("bench_match: %d queries per round, median of %d rounds; "
	       "fat tree of %zu nodes, %zu ports\n",
	       N_QUERIES, rounds, big->n_nodes, big->n_ports);
	printf("%-6s %7s %5s | %9s %9s %8s | %9s %9s %8s | %5s\n", "", "", "",
	       "bitset", "", "", "sparse", "", "", "");
	printf("%-6s %7s %5s | %9s %9s %8s | %9s %9s %8s | %5s\n", "load",
	       "rules", "DEF", "compile", "MiB", "ns/query", "compile", "MiB",
	       "ns/query", "s/b");
	if (only.set) {
		struct bcase c = {only.w, only.rules};

		rc = run_case(&c, big, &only, rounds);
	}
	for (k = 0; !only.set && k < sizeof(cases) / sizeof(cases[0]); k++)
		rc |= run_case(&cases[k], big, &only, rounds);
	oq_fabric_free(big);
	return rc;
usage:
	fprintf(stderr,
		"usage: bench_match [--only WORKLOAD:RULES:bitset|"
		"sparse] [--rounds 1-%d]\n",
		MAX_ROUNDS);
	return 2;
}
