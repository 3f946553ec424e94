// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the SA front's takeover and restore on a real complib
 * dispatcher, with OpenSM's PR/MPR handlers replaced by recorders.  Covers
 * the shutdown order OpenSM really uses (its osm_sa_shutdown() unregisters
 * our handle before the plugin's delete() runs) as well as a live restore.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <osmqos/file.h>

#include "sa/sa.h"

#include <complib/cl_dispatcher.h>
#include <opensm/osm_msgdef.h>

/* Stand-ins for the opensm binary's handlers: record what they received. */
static void *pr_ctx, *mpr_ctx;
static unsigned long pr_calls, mpr_calls;

void osm_pr_rcv_process(void *context, void *data);
void osm_mpr_rcv_process(void *context, void *data);
void osm_gir_rcv_process(void *context, void *data);

/* GuidInfoRecord: the front only watches it (its alias changes). */
void osm_gir_rcv_process(void *context, void *data)
{
	(void)context;
	(void)data;
}

void osm_pr_rcv_process(void *context, void *data)
{
	pr_ctx = context;
	__atomic_fetch_add(&pr_calls, 1, __ATOMIC_SEQ_CST);
}

void osm_mpr_rcv_process(void *context, void *data)
{
	mpr_ctx = context;
	__atomic_fetch_add(&mpr_calls, 1, __ATOMIC_SEQ_CST);
}

static void other_handler(void *context, void *data)
{
}

struct fixture {
	osm_opensm_t *osm;
	struct oq_sa *q;
	cl_disp_reg_handle_t src; /* poster, like OpenSM's SA MAD receiver */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	osm_opensm_t *osm = calloc(1, sizeof(*osm));

	if (!f || !osm)
		return -1;
	osm_log_construct(&osm->log);
	if (osm_log_init_v2(&osm->log, TRUE,
			    OSM_LOG_ERROR | OSM_LOG_INFO | OSM_LOG_VERBOSE,
			    "/dev/null", 0, FALSE))
		return -1;
	cl_disp_construct(&osm->disp);
	if (cl_disp_init(&osm->disp, 2, "test_sa_front") != CL_SUCCESS)
		return -1;
	/* What osm_sa_init() does for these two ids. */
	osm->sa.pr_disp_h =
		cl_disp_register(&osm->disp, OSM_MSG_MAD_PATH_RECORD,
				 osm_pr_rcv_process, &osm->sa);
	osm->sa.mpr_disp_h =
		cl_disp_register(&osm->disp, OSM_MSG_MAD_MULTIPATH_RECORD,
				 osm_mpr_rcv_process, &osm->sa);
	f->src = cl_disp_register(&osm->disp, CL_DISP_MSGID_NONE, NULL, NULL);
	f->q = calloc(1, sizeof(*f->q));
	if (!f->q || !osm->sa.pr_disp_h || !osm->sa.mpr_disp_h || !f->src)
		return -1;
	f->q->osm = osm;
	f->osm = osm;
	pr_calls = mpr_calls = 0;
	pr_ctx = mpr_ctx = NULL;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	/* What osm_opensm_destroy() + destroy_finish() do. */
	cl_disp_unregister(f->src);
	cl_disp_unregister(f->osm->sa.pr_disp_h);
	cl_disp_unregister(f->osm->sa.mpr_disp_h);
	cl_disp_shutdown(&f->osm->disp);
	cl_disp_destroy(&f->osm->disp);
	osm_log_destroy(&f->osm->log);
	free(f->q);
	free(f->osm);
	free(f);
	return 0;
}

/* Post one message for msg_id and wait until *calls reaches want. */
static void post_and_wait(struct fixture *f, cl_disp_msgid_t id,
			  unsigned long *calls, unsigned long want)
{
	int i;

	assert_int_equal(cl_disp_post(f->src, id, NULL, NULL, NULL),
			 CL_SUCCESS);
	for (i = 0; i < 5000; i++) {
		if (__atomic_load_n(calls, __ATOMIC_SEQ_CST) >= want)
			return;
		usleep(1000);
	}
	fail_msg("message %u not delivered", id);
}

static void test_takeover_passes_through(void **state)
{
	struct fixture *f = *state;
	osm_sa_t *sa = &f->osm->sa;

	assert_int_equal(oq_sa_front_takeover(f->q), 2);
	/* Our handles are stored where OpenSM's shutdown will find them. */
	assert_ptr_equal(sa->pr_disp_h, f->q->front.pr.h);
	assert_ptr_equal(sa->mpr_disp_h, f->q->front.mpr.h);
	assert_ptr_equal(sa->pr_disp_h->context, f->q);
	assert_ptr_not_equal(sa->pr_disp_h->pfn_rcv_callback,
			     osm_pr_rcv_process);

	post_and_wait(f, OSM_MSG_MAD_PATH_RECORD, &pr_calls, 1);
	post_and_wait(f, OSM_MSG_MAD_PATH_RECORD, &pr_calls, 2);
	post_and_wait(f, OSM_MSG_MAD_MULTIPATH_RECORD, &mpr_calls, 1);
	/* OpenSM's handlers got the context OpenSM registered. */
	assert_ptr_equal(pr_ctx, sa);
	assert_ptr_equal(mpr_ctx, sa);
	assert_int_equal(f->q->front.pr.queries, 2);
	assert_int_equal(f->q->front.pr.passed, 2);
	assert_int_equal(f->q->front.mpr.queries, 1);
	oq_sa_front_log_counters(f->q, OSM_LOG_VERBOSE);
}

static void test_takeover_is_idempotent(void **state)
{
	struct fixture *f = *state;
	cl_disp_reg_handle_t pr, mpr;

	assert_int_equal(oq_sa_front_takeover(f->q), 2);
	pr = f->osm->sa.pr_disp_h;
	mpr = f->osm->sa.mpr_disp_h;
	assert_int_equal(oq_sa_front_takeover(f->q), 2);
	assert_ptr_equal(f->osm->sa.pr_disp_h, pr);
	assert_ptr_equal(f->osm->sa.mpr_disp_h, mpr);
	post_and_wait(f, OSM_MSG_MAD_PATH_RECORD, &pr_calls, 1);
	assert_int_equal(f->q->front.pr.queries, 1);
}

/* OpenSM's order: osm_sa_shutdown() unregisters ours, then delete(). */
static void test_restore_after_opensm_shutdown_does_nothing(void **state)
{
	struct fixture *f = *state;
	osm_sa_t *sa = &f->osm->sa;
	cl_disp_reg_handle_t h;

	assert_int_equal(oq_sa_front_takeover(f->q), 2);
	cl_disp_unregister(sa->pr_disp_h);
	cl_disp_unregister(sa->mpr_disp_h);
	oq_sa_front_restore(f->q); /* must not touch the freed handles */
	assert_ptr_equal(f->q->front.pr.h, CL_DISP_INVALID_HANDLE);
	assert_ptr_equal(f->q->front.mpr.h, CL_DISP_INVALID_HANDLE);
	/* Nothing was re-registered: the ids are free. */
	h = cl_disp_register(&f->osm->disp, OSM_MSG_MAD_PATH_RECORD,
			     other_handler, NULL);
	assert_ptr_not_equal(h, CL_DISP_INVALID_HANDLE);
	cl_disp_unregister(h);
	h = cl_disp_register(&f->osm->disp, OSM_MSG_MAD_MULTIPATH_RECORD,
			     other_handler, NULL);
	assert_ptr_not_equal(h, CL_DISP_INVALID_HANDLE);
	cl_disp_unregister(h);
	sa->pr_disp_h = sa->mpr_disp_h = CL_DISP_INVALID_HANDLE;
}

/* A delete() while OpenSM still runs gives OpenSM its handlers back. */
static void test_restore_while_live(void **state)
{
	struct fixture *f = *state;
	osm_sa_t *sa = &f->osm->sa;
	unsigned long seen;

	assert_int_equal(oq_sa_front_takeover(f->q), 2);
	post_and_wait(f, OSM_MSG_MAD_PATH_RECORD, &pr_calls, 1);
	oq_sa_front_restore(f->q);
	assert_ptr_equal(sa->pr_disp_h->pfn_rcv_callback, osm_pr_rcv_process);
	assert_ptr_equal(sa->pr_disp_h->context, sa);
	assert_ptr_equal(sa->mpr_disp_h->pfn_rcv_callback, osm_mpr_rcv_process);
	assert_ptr_equal(sa->mpr_disp_h->context, sa);
	seen = f->q->front.pr.queries;
	post_and_wait(f, OSM_MSG_MAD_PATH_RECORD, &pr_calls, 2);
	assert_int_equal(f->q->front.pr.queries, seen); /* not via us */
	/* Restoring twice is harmless; taking over again works. */
	oq_sa_front_restore(f->q);
	assert_ptr_equal(sa->pr_disp_h->pfn_rcv_callback, osm_pr_rcv_process);
	assert_int_equal(oq_sa_front_takeover(f->q), 2);
}

/* A registration that is not OpenSM's own is left alone. */
static void test_foreign_registration_left_alone(void **state)
{
	struct fixture *f = *state;
	osm_sa_t *sa = &f->osm->sa;
	cl_disp_reg_handle_t mine;

	cl_disp_unregister(sa->pr_disp_h);
	mine = cl_disp_register(&f->osm->disp, OSM_MSG_MAD_PATH_RECORD,
				other_handler, NULL);
	sa->pr_disp_h = mine;
	assert_int_equal(oq_sa_front_takeover(f->q), 1); /* MPR only */
	assert_ptr_equal(sa->pr_disp_h, mine);
	assert_ptr_equal(f->q->front.pr.h, CL_DISP_INVALID_HANDLE);
	oq_sa_front_restore(f->q);
	assert_ptr_equal(sa->pr_disp_h, mine);
	assert_ptr_equal(sa->mpr_disp_h->pfn_rcv_callback, osm_mpr_rcv_process);
}

static void test_unregistered_left_alone(void **state)
{
	struct fixture *f = *state;
	osm_sa_t *sa = &f->osm->sa;

	cl_disp_unregister(sa->mpr_disp_h);
	sa->mpr_disp_h = CL_DISP_INVALID_HANDLE;
	assert_int_equal(oq_sa_front_takeover(f->q), 1);
	assert_ptr_equal(sa->mpr_disp_h, CL_DISP_INVALID_HANDLE);
	oq_sa_front_restore(f->q);
	assert_ptr_equal(sa->mpr_disp_h, CL_DISP_INVALID_HANDLE);
}

/* The core (no OpenSM header) hard-codes OpenSM's cache directory. */
static void test_core_cache_dir_is_opensms(void **state)
{
	(void)state;
	assert_string_equal(OQ_DEFAULT_CACHE_DIR, OSM_DEFAULT_CACHE_DIR);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_takeover_passes_through,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_takeover_is_idempotent,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_restore_after_opensm_shutdown_does_nothing, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_restore_while_live, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_foreign_registration_left_alone, setup, teardown),
		cmocka_unit_test(test_core_cache_dir_is_opensms),
		cmocka_unit_test_setup_teardown(test_unregistered_left_alone,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
