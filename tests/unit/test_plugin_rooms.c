// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the seams between the plugin's rooms, on a bare OpenSM
 * instance (its log only).  The policy file room shares the policy in
 * force by reference: a state keeps the policy it was built with across
 * a reload, and a bad edit keeps the last good one.  The sweep room
 * publishes one state at a time, tells whoever built on the old one
 * (the SA) when a new one is in force, and frees a state with its last
 * reference, whichever holder drops it.  A state that cannot be built
 * says which step failed and why, "out of memory" only when it was.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "policyfile/policy_file.h"
#include "sweep/sweep.h"

/* Exported by the opensm binary, not a library: the snapshot's, which
 * these tests never take. */
uint8_t osm_physp_calc_link_op_vls(osm_log_t *log, const osm_subn_t *subn,
				   const osm_physp_t *p, uint8_t current)
{
	(void)log;
	(void)subn;
	(void)p;
	fail_msg("the snapshot was taken");
	return current;
}

struct fixture {
	osm_opensm_t *osm;
	struct oq_plugin_options opts;
	struct oq_policy_file pf;
	char dir[64];
	char path[96];
};

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static const char good_a[] = "qos-ulps\n    default : 1\nend-qos-ulps\n";
static const char good_b[] = "qos-ulps\n    default : 2\nend-qos-ulps\n";
static const char bad[] = "qos-ulps\n    default : \nend-qos-ulps\n";

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	f->osm = calloc(1, sizeof(*f->osm));
	if (!f->osm)
		return -1;
	osm_log_construct(&f->osm->log);
	if (osm_log_init_v2(&f->osm->log, TRUE, OSM_LOG_ERROR | OSM_LOG_INFO,
			    "/dev/null", 0, FALSE))
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/oq-rooms-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/qos-policy.conf", f->dir);
	f->opts.policy = f->path;
	f->opts.publish_dir = f->dir;
	oq_policy_file_init(&f->pf, f->osm, &f->opts);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char copy[128];

	oq_policy_file_fini(&f->pf);
	snprintf(copy, sizeof(copy), "%s/%s", f->dir, OQ_POLICY_COPY_NAME);
	unlink(copy);
	unlink(f->path);
	rmdir(f->dir);
	osm_log_destroy(&f->osm->log);
	free(f->osm);
	free(f);
	return 0;
}

/* A reload replaces the policy in force; a state's reference keeps the
 * old one whole until it is dropped; a bad edit changes nothing. */
static void test_policy_reference_outlives_reload(void **state)
{
	struct fixture *f = *state;
	struct oq_policy_ref *held, *now;

	assert_null(oq_policy_ref_get(&f->pf));
	write_file(f->path, good_a);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 1);
	held = oq_policy_ref_get(&f->pf);
	assert_non_null(held);
	assert_int_equal(held->refs, 2); /* the file's and ours */
	assert_int_equal(oq_policy_file_refresh(&f->pf), 0); /* unchanged */

	write_file(f->path, good_b);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 1);
	now = oq_policy_ref_get(&f->pf);
	assert_ptr_not_equal(now, held);
	assert_int_equal(now->p->ulp_default_sl, 2);
	assert_int_equal(held->refs, 1);	      /* ours alone */
	assert_int_equal(held->p->ulp_default_sl, 1); /* still whole */
	oq_policy_ref_put(held);

	write_file(f->path, bad);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 0);
	held = oq_policy_ref_get(&f->pf);
	assert_ptr_equal(held, now); /* the last good one stays */
	assert_int_equal(f->pf.loads_ok, 2);
	assert_int_equal(f->pf.loads_failed, 1);
	oq_policy_ref_put(held);
	oq_policy_ref_put(now);
	assert_int_equal(now->refs, 1);
}

static unsigned int published_calls;

static void on_published(void *ctx)
{
	(void)ctx;
	published_calls++;
}

/* A state the test builds by hand: only what state_free() frees. */
static struct oq_sweep_state *bare_state(struct oq_policy_ref *pol)
{
	struct oq_sweep_state *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	s->refs = 1;
	s->pol = pol;
	return s;
}

/* One state in force at a time; `published` for each new one (not for
 * none); a state is freed with its last reference, observed through the
 * policy reference it holds. */
static void test_sweep_publication(void **state)
{
	struct fixture *f = *state;
	struct oq_sweep sw = {0};
	struct oq_sweep_state *a, *b, *got;
	struct oq_policy_ref *pol;

	write_file(f->path, good_a);
	assert_int_equal(oq_policy_file_refresh(&f->pf), 1);
	pol = oq_policy_ref_get(&f->pf); /* refs 2 */
	oq_sweep_init(&sw, f->osm, &f->pf);
	sw.published = on_published;
	published_calls = 0;
	assert_null(oq_sweep_get(&sw));

	a = bare_state(oq_policy_ref_get(&f->pf)); /* refs 3 */
	oq_sweep_publish(&sw, a);
	assert_int_equal(published_calls, 1);
	got = oq_sweep_get(&sw);
	assert_ptr_equal(got, a);
	assert_int_equal(a->refs, 2);

	b = bare_state(NULL);
	oq_sweep_publish(&sw, b);
	assert_int_equal(published_calls, 2);
	/* a is out of force but ours still: its policy is held. */
	assert_int_equal(a->refs, 1);
	assert_int_equal(pol->refs, 3);
	oq_sweep_put(got); /* the last reference to a: freed */
	assert_int_equal(pol->refs, 2);

	oq_sweep_publish(&sw, NULL);
	assert_int_equal(published_calls, 2);
	assert_null(oq_sweep_get(&sw));
	oq_sweep_fini(&sw);
	oq_policy_ref_put(pol);
	assert_int_equal(pol->refs, 1);
}

/* The SA builds on the routed state of the current routing run only. */
static void test_sweep_state_current(void **state)
{
	struct oq_sweep sw = {.routing_runs = 3};
	struct oq_sweep_state s = {.routed = true, .routing_gen = 3};

	(void)state;
	assert_true(oq_sweep_state_current(&sw, &s));
	s.routed = false; /* built before routing (optimized SL2VL) */
	assert_false(oq_sweep_state_current(&sw, &s));
	s.routed = true;
	sw.routing_runs = 4; /* routing ran again since */
	assert_false(oq_sweep_state_current(&sw, &s));
	assert_false(oq_sweep_state_current(&sw, NULL));
}

/* Read the log file back: does it hold want? */
static bool logged(const char *path, const char *want)
{
	char line[1024];
	bool hit = false;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (!hit && fgets(line, sizeof(line), f))
		hit = strstr(line, want) != NULL;
	fclose(f);
	return hit;
}

/* The cause of a failed step: a -errno return, else errno, else ENOMEM;
 * the log line says what failed and why. */
static void test_build_failure_cause(void **state)
{
	char path[] = "/tmp/oq-rooms-log-XXXXXX";
	osm_opensm_t osm;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	memset(&osm, 0, sizeof(osm));
	osm_log_construct(&osm.log);
	assert_int_equal(
		osm_log_init_v2(&osm.log, TRUE, OSM_LOG_ERROR, path, 0, FALSE),
		0);
	assert_int_equal(oq_failure_errno(-EINVAL), EINVAL);
	errno = 0;
	assert_int_equal(oq_failure_errno(-1), ENOMEM);
	errno = EMFILE;
	assert_int_equal(oq_failure_errno(-1), EMFILE);

	OQ_LOG_BUILD_FAILED(&osm, "the sweep state", "binding the policy",
			    ENOMEM, "keeping the previous one");
	OQ_LOG_BUILD_FAILED(&osm, "the sweep state", "reading templates",
			    EMFILE, "keeping the previous one");
	osm_log_destroy(&osm.log);
	assert_true(logged(path, "osmqos: out of memory building the sweep "
				 "state: binding the policy; keeping the "
				 "previous one"));
	assert_true(logged(path, "osmqos: cannot build the sweep state: "
				 "reading templates: Too many open files; "
				 "keeping the previous one"));
	assert_false(logged(path, "out of memory building the sweep state: "
				  "reading"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_policy_reference_outlives_reload, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sweep_publication, setup,
						teardown),
		cmocka_unit_test(test_sweep_state_current),
		cmocka_unit_test(test_build_failure_cause),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
