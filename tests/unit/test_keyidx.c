// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the key index (numbering distinct byte-string keys). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/keyidx.h>

#define MAX_ENTRIES 5000

/* The caller's side: entries with their key and hash. */
struct entries {
	char key[MAX_ENTRIES][16];
	uint64_t hash[MAX_ENTRIES];
	size_t n;
	uint64_t (*hash_fn)(const char *k);
};

static uint64_t fnv_hash(const char *k)
{
	return oq_fnv1a(k, strlen(k));
}

/* Every key on one probe chain: lookups must still tell them apart. */
static uint64_t one_hash(const char *k)
{
	(void)k;
	return 42;
}

static uint64_t hash_of(const void *ctx, size_t i)
{
	const struct entries *e = ctx;

	return e->hash[i];
}

/* The entry number of key k, added when new. */
static size_t number(struct oq_keyidx *x, struct entries *e, const char *k)
{
	uint64_t h = e->hash_fn(k);
	size_t j;

	assert_int_equal(oq_keyidx_reserve(x, e->n, hash_of, e), 0);
	assert_true((e->n + 1) * 2 <= x->cap);
	for (j = oq_keyidx_first(x, h); x->slot[j]; j = oq_keyidx_next(x, j))
		if (e->hash[x->slot[j] - 1] == h &&
		    !strcmp(e->key[x->slot[j] - 1], k))
			return x->slot[j] - 1;
	assert_true(e->n < MAX_ENTRIES);
	snprintf(e->key[e->n], sizeof(e->key[0]), "%s", k);
	e->hash[e->n] = h;
	x->slot[j] = (uint32_t)++e->n;
	return e->n - 1;
}

/* Keys k0..k(n-1) in a scrambled order, each several times: each gets
 * the number of its first appearance, through every growth. */
static void number_many(uint64_t (*hash_fn)(const char *), size_t n_keys)
{
	static struct entries e;
	struct oq_keyidx x = {0};
	size_t first[MAX_ENTRIES], i, round;
	char k[16];

	memset(&e, 0, sizeof(e));
	e.hash_fn = hash_fn;
	for (i = 0; i < n_keys; i++)
		first[i] = SIZE_MAX;
	for (round = 0; round < 3; round++) {
		for (i = 0; i < n_keys; i++) {
			size_t key = (i * 7919 + round * 13) % n_keys, got;

			snprintf(k, sizeof(k), "k%zu", key);
			got = number(&x, &e, k);
			if (first[key] == SIZE_MAX)
				first[key] = got;
			assert_int_equal(got, first[key]);
			assert_string_equal(e.key[got], k);
		}
	}
	assert_int_equal(e.n, n_keys);
	assert_true(x.cap >= 2 * n_keys);
	oq_keyidx_free(&x);
	assert_null(x.slot);
	assert_int_equal(x.cap, 0);
}

static void test_grows_and_keeps_numbers(void **state)
{
	(void)state;
	number_many(fnv_hash, 4999); /* 64 slots, doubled 8 times */
}

static void test_colliding_hashes(void **state)
{
	(void)state;
	number_many(one_hash, 300);
}

/* Reserving for many entries at once sizes the table in one step. */
static void test_reserve_large_n(void **state)
{
	static struct entries e;
	struct oq_keyidx x = {0};

	(void)state;
	memset(&e, 0, sizeof(e));
	assert_int_equal(oq_keyidx_reserve(&x, 0, hash_of, &e), 0);
	assert_int_equal(x.cap, 64);
	assert_int_equal(oq_keyidx_reserve(&x, 31, hash_of, &e), 0);
	assert_int_equal(x.cap, 64); /* 32 of 64: still half full */
	oq_keyidx_free(&x);
	/* From empty to room for a 1,001st entry: 2,048 slots, and the
	 * 1,000 entries (all hash 0 here) on one probe chain. */
	assert_int_equal(oq_keyidx_reserve(&x, 1000, hash_of, &e), 0);
	assert_int_equal(x.cap, 2048);
	for (size_t j = 0; j < 1000; j++)
		assert_int_equal(x.slot[j], j + 1);
	assert_int_equal(x.slot[1000], 0);
	oq_keyidx_free(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grows_and_keeps_numbers),
		cmocka_unit_test(test_colliding_hashes),
		cmocka_unit_test(test_reserve_large_n),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
