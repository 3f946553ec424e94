// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the path code counts the allocations it goes on without
 * (osmqos/path.h), per thread, so an answer computed without one is never
 * kept.  malloc() is wrapped (-Wl,--wrap=malloc) to fail on demand.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <osmqos/path.h>

static bool fail_malloc;

void *__real_malloc(size_t n);
void *__wrap_malloc(size_t n);

void *__wrap_malloc(size_t n)
{
	return fail_malloc ? NULL : __real_malloc(n);
}

/* Two ports sharing n full-member P_Keys. */
struct two_ports {
	uint16_t keys[32];
	struct oq_port a, b;
};

static void two_ports(struct two_ports *t, uint16_t n)
{
	uint16_t i;

	for (i = 0; i < n; i++)
		t->keys[i] = (uint16_t)(0x8000 | (i + 1));
	t->a = (struct oq_port){.pkeys = t->keys, .n_pkeys = n};
	t->b = (struct oq_port){.pkeys = t->keys, .n_pkeys = n};
}

static bool visible_without_memory(const struct two_ports *t)
{
	bool v;

	fail_malloc = true;
	v = oq_ports_pkey_visible(&t->a, &t->b, false);
	fail_malloc = false;
	return v;
}

/* A port with more P_Keys than the map keeps on the stack: without
 * memory the ports look as if they shared none, and the count says so. */
static void test_pkey_map_failure_counted(void **state)
{
	struct two_ports t;
	unsigned long before = oq_alloc_failures();

	(void)state;
	two_ports(&t, 20);
	assert_true(oq_ports_pkey_visible(&t.a, &t.b, false));
	assert_int_equal(oq_alloc_failures(), before);
	assert_false(visible_without_memory(&t));
	assert_true(oq_alloc_failures() > before);
}

/* A small table needs no allocation: nothing fails, nothing counted. */
static void test_small_table_allocates_nothing(void **state)
{
	struct two_ports t;
	unsigned long before = oq_alloc_failures();

	(void)state;
	two_ports(&t, 4);
	assert_true(visible_without_memory(&t));
	assert_int_equal(oq_alloc_failures(), before);
}

static void *count_in_thread(void *arg)
{
	*(unsigned long *)arg = oq_alloc_failures();
	return NULL;
}

/* The count is this thread's: another SA thread's failures do not make
 * this thread's answers look incomplete. */
static void test_count_per_thread(void **state)
{
	struct two_ports t;
	unsigned long other = 99;
	pthread_t th;

	(void)state;
	two_ports(&t, 20);
	assert_false(visible_without_memory(&t));
	assert_true(oq_alloc_failures() > 0);
	assert_int_equal(pthread_create(&th, NULL, count_in_thread, &other), 0);
	assert_int_equal(pthread_join(th, NULL), 0);
	assert_int_equal(other, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pkey_map_failure_counted),
		cmocka_unit_test(test_small_table_allocates_nothing),
		cmocka_unit_test(test_count_per_thread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
