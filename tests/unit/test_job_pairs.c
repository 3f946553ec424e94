// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: a job's hosts on the fabric and the questions job-env asks
 * (contrib/osmqos/job_pairs.c), and the offline answers
 * (contrib/osmqos/job_ask.c): hosts by their HCAs' NodeDescription first
 * word (case, domain, two HCAs, switches ignored), port classes from the
 * policy's groups and the P_Key tables with weights that add up to every
 * port pair, the question limit, and the answers the SA would give: the
 * level's SL, partition isolation, a level class the policy does not give
 * a pair.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "job_ask.h"
#include "job_decide.h"
#include "job_pairs.h"

static const char policy_text[] =
	"port-groups\n"
	"  port-group\n"
	"    name: storage\n"
	"    port-name: \"stor1 HCA-1/P1\"\n"
	"  end-port-group\n"
	"  port-group\n"
	"    name: unused-in-rules\n"
	"    port-name: \"cn01 HCA-1/P1\"\n"
	"  end-port-group\n"
	"end-port-groups\n"
	"qos-levels\n"
	"  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\n"
	"  qos-level\n    name: storage\n    sl: 1\n  end-qos-level\n"
	"  qos-level\n    name: tenant\n    sl: 3\n    pkey: 0x0003\n"
	"  end-qos-level\n"
	"  qos-level\n    name: nosl\n  end-qos-level\n"
	"end-qos-levels\n"
	"qos-match-rules\n"
	"  qos-match-rule\n    destination: storage\n"
	"    qos-level-name: storage\n  end-qos-match-rule\n"
	"  qos-match-rule\n    pkey: 0x0003\n"
	"    qos-level-name: tenant\n  end-qos-match-rule\n"
	"  qos-match-rule\n    service-id: 0x99\n"
	"    qos-level-name: nosl\n  end-qos-match-rule\n"
	"end-qos-match-rules\n";

struct world {
	struct oq_fabric *f;
	struct oq_policy *pol;
	struct oq_binding *b;
	struct oq_matcher *m;
	struct oq_diags d;
	struct oq_job_plan pl;
	char err[600];
};

static struct world w;

static void ca(uint64_t guid, const char *desc, unsigned ports, uint16_t part)
{
	struct oq_node *n =
		oq_fabric_add_node(w.f, OQ_NODE_CA, guid, desc, (uint8_t)ports);
	uint16_t pk[2] = {0x7fff, (uint16_t)(0x8000 | part)};
	unsigned i;

	assert_non_null(n);
	for (i = 1; i <= ports; i++) {
		n->ports[i].present = true;
		n->ports[i].guid = guid + i;
		n->ports[i].lid = (uint16_t)(guid + i);
		assert_int_equal(oq_port_set_pkeys(&n->ports[i], pk, 2), 0);
	}
}

static int setup(void **state)
{
	(void)state;
	memset(&w, 0, sizeof(w));
	oq_diags_init(&w.d);
	w.f = oq_fabric_new();
	assert_non_null(w.f);
	/* A switch named like a host is no host. */
	assert_non_null(oq_fabric_add_node(w.f, OQ_NODE_SWITCH, 0x100,
					   "cn01 switch", 4));
	w.f->nodes[0]->ports[0].present = true;
	ca(0x1000, "cn01 HCA-1", 1, 2);
	ca(0x2000, "cn02 HCA-1", 1, 2);
	ca(0x3000, "cn03 mlx5_0", 1, 2); /* two HCAs, one host */
	ca(0x3100, "cn03 mlx5_1", 1, 2);
	ca(0x4000, "CN04 mlx5_0", 1, 2); /* case differs */
	ca(0x5000, "stor1 HCA-1", 1, 2);
	ca(0x6000, "ten1 HCA-1", 1, 3);
	ca(0x7000, "ten2 HCA-1", 1, 3);
	ca(0x8000, "cn0 HCA-1", 1, 2); /* a prefix of cn01 is another */
	assert_int_equal(oq_fabric_finalize(w.f, &w.d), 0);
	w.pol = oq_policy_parse("job.conf", policy_text, strlen(policy_text),
				&w.d);
	assert_non_null(w.pol);
	assert_int_equal(oq_policy_validate(w.pol, &w.d), 0);
	w.b = oq_bind(w.pol, w.f, NULL, &w.d);
	assert_non_null(w.b);
	w.m = oq_matcher_compile(w.b);
	assert_non_null(w.m);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	oq_job_plan_free(&w.pl);
	oq_matcher_free(w.m);
	oq_binding_free(w.b);
	oq_policy_free(w.pol);
	oq_fabric_free(w.f);
	oq_diags_free(&w.d);
	return 0;
}

static int plan(const char *const *hosts, size_t n, bool grouped, bool all,
		size_t max)
{
	oq_job_plan_free(&w.pl);
	if (oq_job_plan_ports(&w.pl, w.f, hosts, n, w.err, sizeof(w.err)))
		return -1;
	return oq_job_plan_pairs(&w.pl, grouped ? w.b : NULL, all, max, w.err,
				 sizeof(w.err));
}

static const char *pname(uint32_t i)
{
	static char buf[2][64];
	static int k;

	k ^= 1;
	oq_job_port_name(&w.pl, i, buf[k], sizeof(buf[k]));
	return buf[k];
}

static uint64_t weight_sum(void)
{
	uint64_t s = 0;
	size_t i;

	for (i = 0; i < w.pl.n_pairs; i++)
		s += w.pl.pairs[i].weight;
	return s;
}

static void test_hosts_to_ports(void **state)
{
	const char *hosts[] = {"cn01", "cn03", "cn04.example.org", "stor1"};
	const char *missing[] = {"cn01", "cn99", "cn98"};

	(void)state;
	assert_int_equal(plan(hosts, 4, true, false, 100), 0);
	assert_int_equal(w.pl.n_ports, 5);
	assert_string_equal(pname(0), "cn01 HCA-1/P1");
	assert_string_equal(pname(1), "cn03 mlx5_0/P1");
	assert_string_equal(pname(2), "cn03 mlx5_1/P1");
	assert_string_equal(pname(3), "CN04 mlx5_0/P1");
	assert_string_equal(pname(4), "stor1 HCA-1/P1");
	assert_int_equal(w.pl.ports[2].host, 1);
	oq_job_plan_free(&w.pl);
	assert_int_equal(
		oq_job_plan_ports(&w.pl, w.f, missing, 3, w.err, sizeof(w.err)),
		-1);
	assert_non_null(strstr(w.err, "2 of the 3 hosts match no HCA"));
	assert_non_null(strstr(w.err, "the first 'cn99'"));
	assert_int_equal(w.pl.n_ports, 0);
}

static void test_classes_and_weights(void **state)
{
	const char *hosts[] = {"cn01", "cn03", "cn04", "stor1"};
	size_t i;

	(void)state;
	assert_int_equal(plan(hosts, 4, true, false, 100), 0);
	/* Storage and the rest; the group rules never name is no split. */
	assert_int_equal(w.pl.n_classes, 2);
	assert_true(w.pl.grouped);
	/* 5 ports, 3 + 1 + ... : 25 minus the 1 + 4 + 1 + 1 same-host. */
	assert_int_equal(w.pl.port_pairs, 18);
	assert_int_equal(w.pl.n_pairs, 3); /* no stor1 -> stor1 */
	assert_int_equal(weight_sum(), w.pl.port_pairs);
	for (i = 0; i < w.pl.n_pairs; i++) {
		const struct oq_job_pair *p = &w.pl.pairs[i];

		assert_int_not_equal(w.pl.ports[p->src].host,
				     w.pl.ports[p->dst].host);
		if (w.pl.ports[p->src].cls == w.pl.ports[p->dst].cls)
			assert_int_equal(p->weight, 10);
		else
			assert_int_equal(p->weight, 4);
	}
}

static void test_class_on_one_host(void **state)
{
	/* cn03's two HCAs and cn01: the cn03 -> cn03 class pair is inside
	 * one host, but cn01 <-> cn03 pairs are not. */
	const char *hosts[] = {"cn03", "cn01"};

	(void)state;
	assert_int_equal(plan(hosts, 2, true, false, 100), 0);
	assert_int_equal(w.pl.n_classes, 1);
	assert_int_equal(w.pl.port_pairs, 4);
	assert_int_equal(w.pl.n_pairs, 1);
	assert_int_equal(weight_sum(), 4);
	assert_int_not_equal(w.pl.ports[w.pl.pairs[0].src].host,
			     w.pl.ports[w.pl.pairs[0].dst].host);
}

static void test_partitions_split_classes(void **state)
{
	const char *hosts[] = {"cn01", "cn02", "ten1", "ten2"};

	(void)state;
	assert_int_equal(plan(hosts, 4, true, false, 100), 0);
	assert_int_equal(w.pl.n_classes, 2);
	assert_int_equal(w.pl.n_pairs, 4);
	assert_int_equal(weight_sum(), 12);
}

static void test_all_pairs_and_limits(void **state)
{
	const char *hosts[] = {"cn01", "cn03", "cn04", "stor1"};
	const char *one[] = {"cn03"};

	(void)state;
	assert_int_equal(plan(hosts, 4, true, true, 100), 0);
	assert_true(w.pl.all_pairs);
	assert_int_equal(w.pl.n_pairs, 18);
	assert_int_equal(weight_sum(), 18);
	assert_int_equal(plan(hosts, 4, true, true, 17), -1);
	assert_non_null(strstr(w.err, "18 questions, more than 17"));
	/* No policy: every pair. */
	assert_int_equal(plan(hosts, 4, false, false, 18), 0);
	assert_true(w.pl.all_pairs);
	assert_int_equal(w.pl.n_pairs, 18);
	assert_int_equal(plan(hosts, 4, false, false, 10), -1);
	assert_non_null(strstr(w.err, "without --policy"));
	/* Classes: 2 classes need up to 4 questions. */
	assert_int_equal(plan(hosts, 4, true, false, 3), -1);
	assert_non_null(strstr(w.err, "2 port classes"));
	assert_int_equal(plan(hosts, 4, true, false, 4), 0);
	/* One host: its loopback path. */
	assert_int_equal(plan(one, 1, true, false, 1), 0);
	assert_int_equal(w.pl.n_pairs, 1);
	assert_int_equal(w.pl.pairs[0].src, w.pl.pairs[0].dst);
	assert_int_equal(w.pl.port_pairs, 1);
}

static void test_scale(void **state)
{
	/* 3000 hosts of one class: one question stands for 3000 * 2999. */
	enum { N = 3000 };
	struct oq_fabric *f = oq_fabric_new();
	struct oq_fabric *saved = w.f;
	struct oq_binding *b;
	char **names = calloc(N, sizeof(*names));
	size_t i;

	(void)state;
	assert_non_null(f);
	w.f = f;
	for (i = 0; i < N; i++) {
		char desc[32];

		snprintf(desc, sizeof(desc), "n%05zu HCA-1", i);
		ca(0x100000 + 0x10 * i, desc, 1, 2);
		names[i] = strdup(desc);
		names[i][6] = '\0';
	}
	assert_int_equal(oq_fabric_finalize(f, NULL), 0);
	oq_job_plan_free(&w.pl);
	assert_int_equal(oq_job_plan_ports(&w.pl, f, (const char *const *)names,
					   N, w.err, sizeof(w.err)),
			 0);
	/* No group of the policy has these ports: all are one class. */
	b = oq_bind(w.pol, f, NULL, &w.d);
	assert_non_null(b);
	assert_int_equal(
		oq_job_plan_pairs(&w.pl, b, false, 4096, w.err, sizeof(w.err)),
		0);
	assert_int_equal(w.pl.n_pairs, 1);
	assert_int_equal(w.pl.pairs[0].weight, (uint64_t)N * (N - 1));
	oq_job_plan_free(&w.pl);
	oq_binding_free(b);
	for (i = 0; i < N; i++)
		free(names[i]);
	free(names);
	oq_fabric_free(f);
	w.f = saved;
}

/* The offline answers for hosts under class word. */
static void answers(const char *const *hosts, size_t n, const char *kind,
		    const char *value, struct oq_job_answer *out,
		    struct oq_job_decision *d)
{
	struct oq_job_ask a;
	struct oq_job_grant g[16];
	size_t i;

	assert_int_equal(plan(hosts, n, true, false, 100), 0);
	memset(&a, 0, sizeof(a));
	a.plan = &w.pl;
	a.pol = w.pol;
	a.m = w.m;
	a.fabric = w.f;
	a.have_pkeys = true;
	a.level = a.level_sl = a.level_pkey = -1;
	assert_int_equal(
		oq_job_class_parse(kind, value, &a.cls, w.err, sizeof(w.err)),
		0);
	if (a.cls.kind == OQ_JC_LEVEL)
		assert_int_equal(oq_job_ask_level(&a, w.err, sizeof(w.err)), 0);
	assert_true(w.pl.n_pairs <= 16);
	oq_job_ask_offline(&a, out);
	for (i = 0; i < w.pl.n_pairs; i++)
		g[i] = out[i].g;
	assert_int_equal(oq_job_decide(g, w.pl.n_pairs, NULL, d), 0);
}

static void test_offline_answers(void **state)
{
	const char *tenant[] = {"ten1", "ten2"};
	const char *cross[] = {"cn01", "ten1"};
	const char *compute[] = {"cn01", "cn02"};
	const char *with_storage[] = {"cn01", "stor1"};
	struct oq_job_answer out[16];
	struct oq_job_decision d;

	(void)state;
	/* The tenant's P_Key: the tenant level's SL, and its P_Key. */
	answers(tenant, 2, "pkey", "0x8003", out, &d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_int_equal(d.sl, 3);
	assert_int_equal(d.pkey, 3);
	oq_job_decision_free(&d);
	/* Across partitions: no shared P_Key, whatever the class. */
	answers(cross, 2, "pkey", "0x0003", out, &d);
	assert_int_equal(d.verdict, OQ_JOB_DENIED);
	assert_non_null(strstr(out[d.first_denied].why,
			       "share no partition with P_Key 0x0003"));
	oq_job_decision_free(&d);
	answers(cross, 2, "plain", NULL, out, &d);
	assert_int_equal(d.verdict, OQ_JOB_DENIED);
	assert_non_null(strstr(out[d.first_denied].why, "partition isolation"));
	oq_job_decision_free(&d);
	/* Compute to compute: DEFAULT, no P_Key exported. */
	answers(compute, 2, "plain", NULL, out, &d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_int_equal(d.sl, 0);
	assert_int_equal(d.pkey, -1);
	oq_job_decision_free(&d);
	/* A level with no SL: the partition's (none: 0). */
	answers(compute, 2, "sid", "0x99", out, &d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_int_equal(d.sl, 0);
	oq_job_decision_free(&d);
	/* Toward storage SL 1, back SL 0: mixed. */
	answers(with_storage, 2, "plain", NULL, out, &d);
	assert_int_equal(d.verdict, OQ_JOB_MIXED);
	assert_int_equal(d.n_opts, 2);
	oq_job_decision_free(&d);
	/* A level the policy does not give every pair: refused, named. */
	answers(with_storage, 2, "level", "storage", out, &d);
	assert_int_equal(d.verdict, OQ_JOB_DENIED);
	assert_non_null(strstr(out[d.first_denied].why,
			       "qos-level DEFAULT (SL 0), not storage (SL 1)"));
	oq_job_decision_free(&d);
	/* The tenant level by name carries its P_Key in the query. */
	answers(tenant, 2, "level", "tenant", out, &d);
	assert_int_equal(d.verdict, OQ_JOB_OK);
	assert_int_equal(d.sl, 3);
	assert_int_equal(d.pkey, 3);
	oq_job_decision_free(&d);
}

static void test_level_lookup(void **state)
{
	struct oq_job_ask a;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.pol = w.pol;
	assert_int_equal(oq_job_class_parse("level", "nosuch", &a.cls, w.err,
					    sizeof(w.err)),
			 0);
	assert_int_equal(oq_job_ask_level(&a, w.err, sizeof(w.err)), -1);
	assert_non_null(strstr(w.err, "no qos-level named 'nosuch'"));
	assert_int_equal(oq_job_class_parse("level", "nosl", &a.cls, w.err,
					    sizeof(w.err)),
			 0);
	assert_int_equal(oq_job_ask_level(&a, w.err, sizeof(w.err)), -1);
	assert_non_null(strstr(w.err, "sets no sl"));
	/* Level names are case-insensitive, as in OpenSM. */
	assert_int_equal(oq_job_class_parse("level", "STORAGE", &a.cls, w.err,
					    sizeof(w.err)),
			 0);
	assert_int_equal(oq_job_ask_level(&a, w.err, sizeof(w.err)), 0);
	assert_int_equal(a.level_sl, 1);
	assert_int_equal(a.level_pkey, -1);
	a.pol = NULL;
	assert_int_equal(oq_job_ask_level(&a, w.err, sizeof(w.err)), -1);
	assert_non_null(strstr(w.err, "give --policy"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hosts_to_ports),
		cmocka_unit_test(test_classes_and_weights),
		cmocka_unit_test(test_class_on_one_host),
		cmocka_unit_test(test_partitions_split_classes),
		cmocka_unit_test(test_all_pairs_and_limits),
		cmocka_unit_test(test_scale),
		cmocka_unit_test(test_offline_answers),
		cmocka_unit_test(test_level_lookup),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
