// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: job-env's check of a denied pair's ends against the subnet
 * (job_stale.c), with the SMP transport replaced by answers the test
 * gives: a new HCA where the fabric file puts an end makes the file
 * stale; a port the file has elsewhere (cables moved) keeps the denial,
 * with a note; unanswered ends stop the check after two.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/fabric.h>

#include "job_ask.h"
#include "mad/smp_transport.h"

/* sw with h1..h4 on ports 1..4 (port GUIDs 0x100001, 0x100004, 0x100007,
 * 0x10000a); h1 is the local host. */
static const char fabric_text[] =
	"Switch 8 \"sw\"\n"
	"[1] \"h1\"[1]\n[2] \"h2\"[1]\n[3] \"h3\"[1]\n[4] \"h4\"[1]\n\n"
	"Hca 2 \"h1\"\n[1] \"sw\"[1]\n\n"
	"Hca 2 \"h2\"\n[1] \"sw\"[2]\n\n"
	"Hca 2 \"h3\"\n[1] \"sw\"[3]\n\n"
	"Hca 2 \"h4\"\n[1] \"sw\"[4]\n";

/* The stub subnet: the port GUID behind each switch port (0: no answer),
 * and the NodeInfo queries sent. */
static uint64_t behind[9];
static unsigned int queries;

int oq_smp_open(const char *ca, int port, struct oq_smp_port *p, char *err,
		size_t errlen)
{
	(void)ca;
	(void)port;
	(void)err;
	(void)errlen;
	memset(p, 0, sizeof(*p));
	return 0;
}

void oq_smp_close(struct oq_smp_port *p)
{
	(void)p;
}

int oq_smp_query(struct oq_smp_port *p, uint8_t method,
		 const struct oq_dr_path *path, uint16_t attr, uint32_t mod,
		 uint8_t *data, char *err, size_t errlen)
{
	uint64_t g;
	int i;

	(void)p;
	(void)method;
	(void)mod;
	queries++;
	assert_int_equal(attr, OQ_SMP_ATTR_NODE_INFO);
	/* Out of h1's port 1 into sw, then out of the end's switch port. */
	assert_int_equal(path->cnt, 2);
	assert_int_equal(path->p[1], 1);
	g = behind[path->p[2]];
	if (!g) {
		snprintf(err, errlen, "timeout");
		return -1;
	}
	for (i = 0; i < 8; i++)
		data[20 + i] = (uint8_t)(g >> (56 - 8 * i));
	return 0;
}

struct env {
	struct oq_fabric *f;
	struct oq_job_plan pl;
	struct oq_job_pair pairs[2];
	struct oq_job_answer out[2];
	struct oq_job_ask a;
	struct oq_job_local local;
	char err[512];
};

static const char *const hosts[] = {"h1", "h2", "h3", "h4"};

/* Pairs h1 -> h2 and h3 -> h4, both denied, asked from h1; the subnet
 * as the file has it. */
static int setup(void **state)
{
	static struct env e;
	char err[256];

	memset(&e, 0, sizeof(e));
	e.f = oq_topology_parse("f.net", fabric_text, strlen(fabric_text),
				NULL);
	if (!e.f || oq_job_plan_ports(&e.pl, e.f, hosts, 4, err, sizeof(err)))
		return -1;
	assert_int_equal(e.pl.n_ports, 4);
	e.pairs[0] = (struct oq_job_pair){0, 1, 1};
	e.pairs[1] = (struct oq_job_pair){2, 3, 1};
	e.pl.pairs = e.pairs;
	e.pl.n_pairs = 2;
	e.out[0].g.denied = e.out[1].g.denied = true;
	strcpy(e.out[0].why, "the SA gave no path (no record)");
	strcpy(e.out[1].why, "the SA gave no path (no record)");
	e.a.plan = &e.pl;
	e.a.fabric = e.f;
	e.a.fabric_file = "f.ibnd";
	strcpy(e.local.ca, "mlx5_0");
	e.local.port = 1;
	e.local.guid = 0x100001;
	behind[1] = 0x100001;
	behind[2] = 0x100004;
	behind[3] = 0x100007;
	behind[4] = 0x10000a;
	queries = 0;
	*state = &e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	e->pl.pairs = NULL; /* the test's */
	e->pl.n_pairs = 0;
	oq_job_plan_free(&e->pl);
	oq_fabric_free(e->f);
	return 0;
}

static int check(struct env *e)
{
	return oq_job_check_denied(&e->a, 100, &e->local, e->out, e->err,
				   sizeof(e->err));
}

/* Every end where the file puts it: the denials stand, untouched. */
static void test_all_in_place(void **state)
{
	struct env *e = *state;

	assert_int_equal(check(e), 0);
	assert_int_equal(queries, 3);
	assert_string_equal(e->out[0].why, "the SA gave no path (no record)");
	assert_string_equal(e->out[1].why, "the SA gave no path (no record)");
}

/* A port the file does not have where h2 should be: h2's HCA replaced,
 * the file stale. */
static void test_new_hca_is_stale(void **state)
{
	struct env *e = *state;

	behind[2] = 0xbeef;
	assert_int_equal(check(e), OQ_JOB_ASK_STALE);
	assert_non_null(strstr(e->err, "the fabric file f.ibnd is stale: the "
				       "subnet has no port GUID "
				       "0x0000000000100004 of host h2"));
	assert_non_null(strstr(e->err, "has port GUID 0x000000000000beef"));
}

/* h2's and h3's cables swapped: each place answers with a GUID the file
 * has at the other, so nothing says the SA did not know h2; the denials
 * stand, each saying where the file's cabling is out of date. */
static void test_moved_keeps_denial(void **state)
{
	struct env *e = *state;

	behind[2] = 0x100007;
	behind[3] = 0x100004;
	assert_int_equal(check(e), 0);
	assert_int_equal(queries, 3);
	assert_non_null(strstr(e->out[0].why,
			       "the SA gave no path (no record); the fabric "
			       "file's cabling is out of date: at sw/P2, "
			       "where it has h2"));
	assert_non_null(strstr(e->out[0].why, "port GUID 0x0000000000100007"));
	/* The hint cites the installed man page, not the source's docs/. */
	assert_non_null(strstr(e->out[0].why, "refresh it (ibnetdiscover > "
					      "FILE; osmqos(8), job-env)"));
	assert_null(strstr(e->out[0].why, "at sw/P3"));
	assert_non_null(strstr(e->out[1].why, "at sw/P3, where it has h3"));
}

/* No end answers: two unanswered ends and the check stops, though the
 * second pair has two (each costs two timeouts). */
static void test_two_misses_stop(void **state)
{
	struct env *e = *state;

	behind[2] = behind[3] = behind[4] = 0;
	assert_int_equal(check(e), 0);
	assert_int_equal(queries, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_all_in_place, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_new_hca_is_stale, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_moved_keeps_denial, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_two_misses_stop, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
