// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Policy load benchmark: what the plugin does with a new policy (parse,
 * validate, and the copy for OpenSM's own parser: the model of that
 * parser, oq_stock_copy(), which `osmqos check` runs too) and then every
 * heavy sweep (bind to the fabric, compile the matcher and the tables),
 * on generated policies of 12,500 to 100,000 port groups, of 25,000 to
 * 100,000 Service-ID rules and of as many rules whose Service-ID ranges
 * overlap without one holding another, or each hold all earlier ones (the
 * shadowed-rule check's worst cases), and of one port group of 25,000 to
 * 100,000 port-guid keys, each in
 * a child process so that its peak RSS is its own.  Prints per size the time of
 * each step, the peak RSS and its ratio to the policy's bytes, and the
 * time ratio to the previous size: near 2 per doubling is linear, 4 is
 * quadratic.  Exits 1 when a policy under the plugin's 16 MiB limit takes
 * 2 s or more, or when over a series (4x or 8x the size) time or memory
 * grows more than twice as fast as the size (quadratic would be 16x-64x;
 * single doublings are too noisy on a shared machine to judge).
 *
 * Usage: bench_policy_load [FABRIC]  (default contrib/fabrics/fat-tree-16.net)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <osmqos/fabric.h>
#include <osmqos/file.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/stock.h>
#include <osmqos/tables.h>

#ifndef OQ_SRCDIR
#define OQ_SRCDIR "."
#endif

struct result {
	double parse, validate, stock, bind, matcher, tables;
	size_t bytes;
	int ok;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* groups 1: n port groups and one rule per group (source g_i,
 * destination g_7i); 0: 16 levels and n rules of one Service ID each; 2:
 * the same with ranges [7i, 7i + 10^6], each overlapping the next 142,857
 * rules' and holding none; 3: ranges [n - i, 2n], each holding all
 * earlier ones; 4: one port group of n port-guid keys, one GUID each, and
 * a rule from it. */
static char *gen(int groups, size_t n, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	size_t i;

	if (!f)
		return NULL;
	if (groups == 4) {
		fputs("port-groups\n port-group\n  name: g\n", f);
		for (i = 0; i < n; i++)
			fprintf(f, "  port-guid: 0x%zx\n", 0x10000 + 7 * i);
		fputs(" end-port-group\nend-port-groups\nqos-levels\n "
		      "qos-level\n  name: DEFAULT\n  sl: 0\n end-qos-level\n"
		      " qos-level\n  name: L1\n  sl: 1\n end-qos-level\n"
		      "end-qos-levels\nqos-match-rules\n qos-match-rule\n"
		      "  source: g\n  qos-level-name: L1\n"
		      " end-qos-match-rule\n",
		      f);
	} else if (groups == 1) {
		fputs("port-groups\n", f);
		for (i = 0; i < n; i++)
			fprintf(f, " port-group\n  name: g%zu\n  port-guid: "
				   "0x%zx\n end-port-group\n",
				i, 0x10000 + i);
		fputs("end-port-groups\nqos-levels\n qos-level\n  name: "
		      "DEFAULT\n  sl: 0\n end-qos-level\n qos-level\n  name: "
		      "L1\n  sl: 1\n end-qos-level\nend-qos-levels\n"
		      "qos-match-rules\n", f);
		for (i = 0; i < n; i++)
			fprintf(f, " qos-match-rule\n  source: g%zu\n  "
				   "destination: g%zu\n  qos-level-name: L1\n"
				   " end-qos-match-rule\n",
				i, i * 7 % n);
	} else {
		fputs("qos-levels\n qos-level\n  name: DEFAULT\n  sl: 0\n"
		      " end-qos-level\n", f);
		for (i = 0; i < 16; i++)
			fprintf(f, " qos-level\n  name: L%zu\n  sl: %zu\n"
				   " end-qos-level\n", i, i);
		fputs("end-qos-levels\nqos-match-rules\n", f);
		for (i = 0; i < n; i++)
			if (groups >= 2)
				fprintf(f,
					" qos-match-rule\n  service-id: "
					"0x%zx-0x%zx\n  qos-level-name: "
					"L%zu\n end-qos-match-rule\n",
					groups == 2 ? i * 7 : n - i,
					groups == 2 ? i * 7 + 1000000 : 2 * n,
					i % 16);
			else
				fprintf(f,
					" qos-match-rule\n  service-id: "
					"0x%zx\n  qos-level-name: L%zu\n"
					" end-qos-match-rule\n",
					0x1000000 + i * 3, i % 16);
	}
	fputs("end-qos-match-rules\n", f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void run(const char *fabric, int groups, size_t n, struct result *r)
{
	struct oq_fabric_tables t;
	struct oq_diags d;
	struct oq_policy *p;
	struct oq_binding *b;
	struct oq_matcher *m;
	struct oq_fabric *f;
	char *text;
	double t0;

	memset(r, 0, sizeof(*r));
	oq_diags_init(&d);
	f = oq_topology_load(fabric, &d);
	text = gen(groups, n, &r->bytes);
	if (!f || !text)
		return;
	t0 = now_s();
	p = oq_policy_parse("bench.conf", text, r->bytes, &d);
	r->parse = now_s() - t0;
	t0 = now_s();
	oq_policy_validate(p, &d);
	r->validate = now_s() - t0;
	t0 = now_s();
	{
		enum oq_stock_copy_form form;
		char why[256];
		size_t len;

		free(oq_stock_copy(p, &len, &form, why, sizeof(why)));
	}
	r->stock = now_s() - t0;
	t0 = now_s();
	b = oq_bind(p, f, NULL, &d);
	r->bind = now_s() - t0;
	t0 = now_s();
	m = oq_matcher_compile(b);
	r->matcher = now_s() - t0;
	t0 = now_s();
	r->ok = m && !oq_tables_compile(b, f, NULL, &t, &d) &&
		!oq_diags_has_errors(&d);
	r->tables = now_s() - t0;
}

/* The child writes its figures here; the parent reads them. */
static struct result *mmap_result(void)
{
	void *p = mmap(NULL, sizeof(struct result), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

int main(int argc, char **argv)
{
	const char *fabric = argc > 1 ? argv[1]
				      : OQ_SRCDIR
				"/contrib/fabrics/fat-tree-16.net";
	static const struct {
		int groups;
		size_t n;
	} cases[] = {
		{1, 12500},  {1, 25000},  {1, 50000},  {1, 100000},
		{0, 25000},  {0, 50000},  {0, 100000}, {2, 25000},
		{2, 50000},  {2, 100000}, {3, 25000},  {3, 50000},
		{3, 100000}, {4, 25000},  {4, 50000},  {4, 100000},
	};
	double prev_t = 0, first_t = 0, first_rss = 0;
	size_t first_n = 0;
	int fail = 0;
	size_t i;

	printf("%-22s %9s %7s %7s %7s %7s %7s %7s %7s %8s %6s %7s\n", "policy",
	       "bytes", "parse", "valid", "stock", "bind", "match", "tables",
	       "total", "RSS MiB", "RSS/B", "t ratio");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct result *r = mmap_result();
		struct rusage ru;
		double total, rss;
		pid_t pid;
		int st;
		char name[32], ratio[16] = "";

		if (!r)
			return 1;
		pid = fork();
		if (pid == 0) {
			run(fabric, cases[i].groups, cases[i].n, r);
			_exit(r->ok ? 0 : 1);
		}
		if (pid < 0 || wait4(pid, &st, 0, &ru) != pid ||
		    !WIFEXITED(st) || WEXITSTATUS(st)) {
			printf("case %zu failed\n", i);
			return 1;
		}
		total = r->parse + r->validate + r->stock + r->bind +
			r->matcher + r->tables;
		rss = (double)ru.ru_maxrss / 1024.0;
		snprintf(name, sizeof(name), "%zu %s", cases[i].n,
			 cases[i].groups == 1	? "groups+rules"
			 : cases[i].groups == 2 ? "overlapping sids"
			 : cases[i].groups == 3 ? "widening sids"
			 : cases[i].groups == 4 ? "port-guid keys"
						: "sid rules");
		if (i && cases[i].groups == cases[i - 1].groups) {
			double grow = (double)cases[i].n / (double)first_n;

			snprintf(ratio, sizeof(ratio), "%.2f", total / prev_t);
			if (total / first_t > 2 * grow ||
			    rss / first_rss > 2 * grow)
				fail = 1;
		} else {
			first_t = total;
			first_rss = rss;
			first_n = cases[i].n;
		}
		printf("%-22s %9zu %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f %7.3f "
		       "%8.1f %6.1f %7s\n",
		       name, r->bytes, r->parse, r->validate, r->stock, r->bind,
		       r->matcher, r->tables, total, rss,
		       (double)ru.ru_maxrss * 1024.0 / (double)r->bytes, ratio);
		if (r->bytes <= OQ_POLICY_MAX_BYTES && total >= 2.0)
			fail = 1;
		munmap(r, sizeof(*r));
		prev_t = total;
	}
	printf("%s\n", fail ? "FAIL: 2 s or more, or faster than linear growth"
			    : "ok: every policy under 16 MiB loads in < 2 s, "
			      "growth linear");
	return fail;
}
