// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the hash table, the intern table and the hash functions
 * (osmqos/htab.h). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/htab.h>

/* GUID-like keys: sequential, key 0 included, through every growth. */
static void test_map_put_get(void **state)
{
	struct oq_htab t = {0};
	uint64_t base = 0x0002c90300001000ull;
	uint32_t old = 7, i;

	(void)state;
	assert_int_equal(oq_htab_get(&t, 0), -1); /* empty, nothing allocated */
	assert_int_equal(oq_htab_put(&t, 0, 5, &old), 1);
	assert_int_equal(old, 7); /* untouched when added */
	for (i = 0; i < 5000; i++)
		assert_int_equal(oq_htab_put(&t, base + i, i, NULL), 1);
	assert_int_equal(t.n, 5001);
	assert_true(t.mask + 1 >= 2 * t.n);
	assert_int_equal(oq_htab_get(&t, 0), 5);
	for (i = 0; i < 5000; i++)
		assert_int_equal(oq_htab_get(&t, base + i), i);
	assert_int_equal(oq_htab_get(&t, base + 5000), -1);
	assert_int_equal(oq_htab_get(&t, base - 1), -1);
	/* A second put keeps the first value and reports it. */
	assert_int_equal(oq_htab_put(&t, base + 42, 9999, &old), 0);
	assert_int_equal(old, 42);
	assert_int_equal(oq_htab_get(&t, base + 42), 42);
	assert_int_equal(t.n, 5001);
	oq_htab_free(&t);
	assert_null(t.slot);
	assert_int_equal(oq_htab_get(&t, base), -1);
}

/* Sized up front, adding that many never moves the slots. */
static void test_reserve(void **state)
{
	struct oq_htab t = {0};
	struct oq_hslot *slots;
	uint64_t i;

	(void)state;
	assert_int_equal(oq_htab_reserve(&t, 1000), 0);
	assert_int_equal(t.mask + 1, 2048);
	slots = t.slot;
	for (i = 0; i < 1000; i++)
		assert_int_equal(
			oq_htab_put(&t, i * 0x10000, (uint32_t)i, NULL), 1);
	assert_ptr_equal(t.slot, slots);
	/* Reserving less than there is changes nothing. */
	assert_int_equal(oq_htab_reserve(&t, 10), 0);
	assert_ptr_equal(t.slot, slots);
	for (i = 0; i < 1000; i++)
		assert_int_equal(oq_htab_get(&t, i * 0x10000), i);
	oq_htab_free(&t);
	/* Zero entries: the smallest table. */
	assert_int_equal(oq_htab_reserve(&t, 0), 0);
	assert_int_equal(t.mask + 1, 64);
	oq_htab_free(&t);
}

/* The caller's entries: strings, compared by the caller. */
struct entries {
	char key[600][16];
	size_t n;
	uint64_t (*hash)(const char *);
	const char *want;
	unsigned int asked; /* same() calls */
};

static bool same_entry(const void *ctx, uint32_t val)
{
	struct entries *e = (struct entries *)ctx;

	e->asked++;
	assert_true(val < e->n);
	return !strcmp(e->key[val], e->want);
}

static uint64_t str_hash(const char *k)
{
	return oq_fnv1a_str(k);
}

/* Every key on one probe chain: only same() tells them apart. */
static uint64_t one_hash(const char *k)
{
	(void)k;
	return 42;
}

static uint32_t number(struct oq_htab *t, struct entries *e, const char *k)
{
	uint32_t got = UINT32_MAX;
	int rc;

	e->want = k;
	rc = oq_htab_find_or_add(t, e->hash(k), same_entry, e, (uint32_t)e->n,
				 &got);
	assert_true(rc == 0 || rc == 1);
	if (rc == 1) {
		snprintf(e->key[e->n], sizeof(e->key[0]), "%s", k);
		return (uint32_t)e->n++;
	}
	return got;
}

static void number_many(uint64_t (*hash)(const char *), size_t n_keys)
{
	static struct entries e;
	struct oq_htab t = {0};
	uint32_t first[600];
	size_t i, round;
	char k[16];

	memset(&e, 0, sizeof(e));
	e.hash = hash;
	for (i = 0; i < n_keys; i++)
		first[i] = UINT32_MAX;
	for (round = 0; round < 3; round++) {
		for (i = 0; i < n_keys; i++) {
			size_t key = (i * 7919 + round * 13) % n_keys;
			uint32_t got;

			snprintf(k, sizeof(k), "k%zu", key);
			got = number(&t, &e, k);
			if (first[key] == UINT32_MAX)
				first[key] = got;
			assert_int_equal(got, first[key]);
			assert_string_equal(e.key[got], k);
			e.want = k;
			assert_int_equal(
				oq_htab_find(&t, hash(k), same_entry, &e), got);
		}
	}
	assert_int_equal(e.n, n_keys);
	e.want = "absent";
	assert_int_equal(oq_htab_find(&t, hash("absent"), same_entry, &e), -1);
	oq_htab_free(&t);
}

static void test_caller_compared(void **state)
{
	(void)state;
	number_many(str_hash, 599);
}

static void test_colliding_hashes(void **state)
{
	static struct entries e;
	struct oq_htab t = {0};

	(void)state;
	number_many(one_hash, 300);
	/* Equal hashes of different keys: same() decides; with another
	 * hash same() is not asked at all. */
	memset(&e, 0, sizeof(e));
	e.hash = one_hash;
	assert_int_equal(number(&t, &e, "a"), 0);
	assert_int_equal(number(&t, &e, "b"), 1);
	e.asked = 0;
	e.want = "b";
	assert_int_equal(oq_htab_find(&t, 43, same_entry, &e), -1);
	assert_int_equal(e.asked, 0);
	oq_htab_free(&t);
}

/*
 * Entries removed and added at random, many on the same first slot and
 * across the end of the table, against a plain array: every key still
 * there is found with its value, every key removed is gone, and a copy
 * taken midway answers as the table did then.
 */
static void test_del_and_copy(void **state)
{
	enum { KEYS = 96 };
	struct oq_htab t = {0}, c;
	int64_t have[KEYS], then[KEYS];
	unsigned int seed = 1, step, k;

	(void)state;
	for (k = 0; k < KEYS; k++)
		have[k] = -1;
	for (step = 0; step < 20000; step++) {
		seed = seed * 1103515245u + 12345u;
		/* Keys k and k + 32 collide often in a small table. */
		k = (seed >> 8) % KEYS;
		if (have[k] >= 0 && (seed >> 20) % 2) {
			assert_false(oq_htab_del(&t, k, (uint32_t)have[k] + 1));
			assert_true(oq_htab_del(&t, k, (uint32_t)have[k]));
			have[k] = -1;
		} else if (have[k] < 0) {
			have[k] = (int64_t)(seed >> 16) % 1000;
			assert_int_equal(
				oq_htab_put(&t, k, (uint32_t)have[k], NULL), 1);
		}
		if (step == 10000) {
			assert_int_equal(oq_htab_copy(&c, &t), 0);
			memcpy(then, have, sizeof(then));
		}
		for (k = 0; k < KEYS; k++)
			assert_int_equal(oq_htab_get(&t, k), have[k]);
	}
	for (k = 0; k < KEYS; k++)
		assert_int_equal(oq_htab_get(&c, k), then[k]);
	assert_false(oq_htab_del(&c, KEYS + 1, 0));
	oq_htab_free(&c);
	oq_htab_free(&t);
}

/* Cleared, a table is empty and takes new entries in the same slots. */
static void test_clear(void **state)
{
	struct oq_htab t = {0};
	struct oq_hslot *slots;
	uint32_t i;

	(void)state;
	oq_htab_clear(&t); /* never used: nothing to do */
	for (i = 0; i < 100; i++)
		assert_int_equal(oq_htab_put(&t, i, i, NULL), 1);
	slots = t.slot;
	oq_htab_clear(&t);
	assert_int_equal(t.n, 0);
	for (i = 0; i < 100; i++)
		assert_int_equal(oq_htab_get(&t, i), -1);
	assert_int_equal(oq_htab_put(&t, 7, 70, NULL), 1);
	assert_int_equal(oq_htab_get(&t, 7), 70);
	assert_ptr_equal(t.slot, slots);
	oq_htab_free(&t);
}

/* Pointers as keys (the plugin maps OpenSM's ports this way). */
static void test_pointer_keys(void **state)
{
	static int obj[256];
	struct oq_htab t = {0};
	uint32_t i;

	(void)state;
	for (i = 0; i < 256; i++)
		assert_int_equal(oq_htab_put(&t, (uintptr_t)&obj[i], i, NULL),
				 1);
	for (i = 0; i < 256; i++)
		assert_int_equal(oq_htab_get(&t, (uintptr_t)&obj[i]), i);
	assert_int_equal(oq_htab_get(&t, (uintptr_t)(obj + 256)), -1);
	oq_htab_free(&t);
}

static void test_intern_numbers_and_stores(void **state)
{
	struct oq_intern in = {0};
	char k[32];
	uint32_t id, i;

	(void)state;
	assert_int_equal(oq_intern_find(&in, "x", 1), -1);
	for (i = 0; i < 3000; i++) {
		int n = snprintf(k, sizeof(k), "node-%u", i % 1000);

		assert_int_equal(oq_intern_add(&in, k, (size_t)n + 1, &id),
				 i < 1000);
		assert_int_equal(id, i % 1000);
	}
	assert_int_equal(oq_intern_count(&in), 1000);
	for (i = 0; i < 1000; i++) {
		snprintf(k, sizeof(k), "node-%u", i);
		assert_string_equal(oq_intern_key(&in, i), k);
		assert_int_equal(oq_intern_len(&in, i), strlen(k) + 1);
		assert_int_equal(oq_intern_find(&in, k, strlen(k) + 1), i);
		/* A prefix of the bytes is another key. */
		assert_int_equal(oq_intern_find(&in, k, strlen(k)), -1);
	}
	/* The empty key is a key like any other. */
	assert_int_equal(oq_intern_add(&in, "", 0, &id), 1);
	assert_int_equal(id, 1000);
	assert_int_equal(oq_intern_len(&in, 1000), 0);
	assert_int_equal(oq_intern_find(&in, "", 0), 1000);
	oq_intern_free(&in);
	assert_int_equal(oq_intern_count(&in), 0);
	assert_int_equal(oq_intern_find(&in, "", 0), -1);
}

/* A key added again at once, after a longer or a shorter one with the
 * same first bytes, or after another: the same id each time. */
static void test_intern_runs(void **state)
{
	struct oq_intern in = {0};
	uint32_t id;

	(void)state;
	assert_int_equal(oq_intern_add(&in, "abc", 3, &id), 1);
	assert_int_equal(id, 0);
	assert_int_equal(oq_intern_add(&in, "abc", 3, &id), 0);
	assert_int_equal(id, 0);
	assert_int_equal(oq_intern_add(&in, "ab", 2, &id), 1);
	assert_int_equal(id, 1);
	assert_int_equal(oq_intern_add(&in, "abc", 3, &id), 0);
	assert_int_equal(id, 0);
	assert_int_equal(oq_intern_add(&in, "abcd", 4, &id), 1);
	assert_int_equal(id, 2);
	assert_int_equal(oq_intern_add(&in, "abd", 3, &id), 1);
	assert_int_equal(id, 3);
	assert_int_equal(oq_intern_add(&in, "abd", 3, &id), 0);
	assert_int_equal(id, 3);
	assert_int_equal(oq_intern_add(&in, "x", 0, &id), 1);
	assert_int_equal(id, 4);
	assert_int_equal(oq_intern_add(&in, "", 0, &id), 0);
	assert_int_equal(id, 4);
	assert_int_equal(oq_intern_add(&in, "ab", 2, &id), 0);
	assert_int_equal(id, 1);
	assert_int_equal(oq_intern_count(&in), 5);
	oq_intern_free(&in);
	assert_int_equal(oq_intern_add(&in, "abc", 3, &id), 1);
	assert_int_equal(id, 0);
	oq_intern_free(&in);
}

/* Keys of one length lie as an array; sealed, they stay readable. */
static void test_intern_rows(void **state)
{
	struct oq_intern in = {0};
	uint64_t row[4];
	const uint64_t *all;
	uint32_t id, i;

	(void)state;
	for (i = 0; i < 500; i++) {
		row[0] = i % 100;
		row[1] = ~row[0];
		row[2] = row[0] << 40;
		row[3] = 0;
		assert_true(oq_intern_add(&in, row, sizeof(row), &id) >= 0);
		assert_int_equal(id, i % 100);
	}
	oq_intern_seal(&in);
	assert_int_equal(oq_intern_find(&in, row, sizeof(row)), -1);
	all = oq_intern_keys(&in);
	assert_int_equal((uintptr_t)all % 8, 0);
	for (i = 0; i < 100; i++) {
		assert_int_equal(all[4 * i], i);
		assert_true(all[4 * i + 1] == ~(uint64_t)i);
		assert_true(all[4 * i + 2] == (uint64_t)i << 40);
	}
	oq_intern_free(&in);
}

static void test_hash_bytes(void **state)
{
	uint64_t w[3] = {0x0102030405060708ull, 42, 0};
	char buf[32];

	(void)state;
	/* Any alignment, the same value. */
	memcpy(buf + 1, w, sizeof(w));
	assert_true(oq_hash_bytes(w, sizeof(w)) ==
		    oq_hash_bytes(buf + 1, sizeof(w)));
	/* The length counts: trailing zero bytes make another key. */
	assert_true(oq_hash_bytes("a", 1) != oq_hash_bytes("a", 2));
	assert_true(oq_hash_bytes(w, 16) != oq_hash_bytes(w, 24));
	assert_true(oq_hash_bytes("", 0) != oq_hash_bytes("\0", 1));
	/* One bit apart, far apart in the low bits the table uses. */
	assert_true((oq_hash_mix64(0x1000) & 0xffff) !=
		    (oq_hash_mix64(0x1001) & 0xffff));
	assert_true(oq_hash_words(w, 2) != oq_hash_words(w, 3));
}

static void test_fnv1a_reference(void **state)
{
	(void)state;
	/* FNV-1a 64 reference values. */
	assert_true(oq_fnv1a("", 0) == 0xcbf29ce484222325ull);
	assert_true(oq_fnv1a("a", 1) == 0xaf63dc4c8601ec8cull);
	assert_true(oq_fnv1a("foobar", 6) == 0x85944171f73967e8ull);
	/* The same by string, and continued over pieces. */
	assert_true(oq_fnv1a_str("") == 0xcbf29ce484222325ull);
	assert_true(oq_fnv1a_str("foobar") == 0x85944171f73967e8ull);
	assert_true(oq_fnv1a_add(oq_fnv1a("foo", 3), "bar", 3) ==
		    0x85944171f73967e8ull);
	assert_true(oq_fnv1a_add(OQ_FNV1A_INIT, "a", 1) ==
		    0xaf63dc4c8601ec8cull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_map_put_get),
		cmocka_unit_test(test_reserve),
		cmocka_unit_test(test_caller_compared),
		cmocka_unit_test(test_colliding_hashes),
		cmocka_unit_test(test_clear),
		cmocka_unit_test(test_pointer_keys),
		cmocka_unit_test(test_intern_numbers_and_stores),
		cmocka_unit_test(test_intern_runs),
		cmocka_unit_test(test_intern_rows),
		cmocka_unit_test(test_hash_bytes),
		cmocka_unit_test(test_del_and_copy),
		cmocka_unit_test(test_fnv1a_reference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
