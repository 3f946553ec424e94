// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the SA answer memo (keys, values, replacement, threads). */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <osmqos/sa_memo.h>

/* About the size of the plugin's kept answer (a record and an audit
 * record), so a torn copy would show. */
#define VAL_SIZE 720

struct val {
	uint32_t id;
	unsigned char fill[VAL_SIZE - sizeof(uint32_t)];
};

static void val_of(struct val *v, uint32_t id)
{
	v->id = id;
	memset(v->fill, (int)(id * 37u + 11u), sizeof(v->fill));
}

static bool val_is(const struct val *v, uint32_t id)
{
	size_t i;

	if (v->id != id)
		return false;
	for (i = 0; i < sizeof(v->fill); i++)
		if (v->fill[i] != (unsigned char)(id * 37u + 11u))
			return false;
	return true;
}

/* A storm-like request: a PathRecord by LID pair with a ServiceID, the
 * pairs differing in a few bytes. */
static void key_of(struct oq_sa_memo_key *k, uint32_t id)
{
	uint8_t pr[OQ_PR_REC_SIZE] = {0};

	pr[0] = 0x10; /* ServiceID */
	pr[7] = 0x01;
	pr[40] = (uint8_t)(id >> 8); /* DLID */
	pr[41] = (uint8_t)id;
	pr[42] = (uint8_t)(id >> 24); /* SLID */
	pr[43] = (uint8_t)(id >> 16);
	oq_sa_memo_key_pr(k, OQ_SA_GET, 0x33, 7, pr);
}

static void test_create_limits(void **state)
{
	struct oq_sa_memo *m;

	(void)state;
	errno = 0;
	assert_null(oq_sa_memo_create(0, VAL_SIZE));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(oq_sa_memo_create(16, 0));
	assert_int_equal(errno, EINVAL);
	errno = 0;
	assert_null(oq_sa_memo_create(16, OQ_SA_MEMO_VAL_MAX + 1));
	assert_int_equal(errno, EINVAL);
	m = oq_sa_memo_create(2, OQ_SA_MEMO_VAL_MAX);
	assert_non_null(m);
	oq_sa_memo_free(m);
	m = oq_sa_memo_create(1000, VAL_SIZE);
	assert_non_null(m);
	assert_int_equal(oq_sa_memo_entries(m), 1024);
	oq_sa_memo_free(m);
	m = oq_sa_memo_create(1, 1);
	assert_int_equal(oq_sa_memo_entries(m), 1);
	oq_sa_memo_free(m);
	m = oq_sa_memo_create(OQ_SA_MEMO_MAX * 4, 8);
	assert_int_equal(oq_sa_memo_entries(m), OQ_SA_MEMO_MAX);
	oq_sa_memo_free(m);
	oq_sa_memo_free(NULL);
	assert_int_equal(oq_sa_memo_entries(NULL), 0);
}

static void test_null_memo(void **state)
{
	struct oq_sa_memo_key k;
	struct val v;

	(void)state;
	key_of(&k, 1);
	val_of(&v, 1);
	oq_sa_memo_put(NULL, &k, &v);
	assert_false(oq_sa_memo_get(NULL, &k, &v));
}

static void test_hit_after_put(void **state)
{
	struct oq_sa_memo *m = oq_sa_memo_create(64, sizeof(struct val));
	struct oq_sa_memo_key k;
	struct val v, got;

	(void)state;
	key_of(&k, 5);
	assert_false(oq_sa_memo_get(m, &k, &got));
	val_of(&v, 5);
	oq_sa_memo_put(m, &k, &v);
	memset(&got, 0, sizeof(got));
	assert_true(oq_sa_memo_get(m, &k, &got));
	assert_true(val_is(&got, 5));
	/* A new value for the same key replaces the old one. */
	val_of(&v, 6);
	oq_sa_memo_put(m, &k, &v);
	assert_true(oq_sa_memo_get(m, &k, &got));
	assert_true(val_is(&got, 6));
	oq_sa_memo_free(m);
}

/* The key is everything the caller gave and nothing else: the bytes a
 * key leaves unset (padding) do not make two equal requests differ. */
static void test_key_padding(void **state)
{
	struct oq_sa_memo *m = oq_sa_memo_create(64, sizeof(struct val));
	uint8_t pr[OQ_PR_REC_SIZE];
	struct oq_sa_memo_key a, b;
	struct val v, got;

	(void)state;
	memset(pr, 0x42, sizeof(pr));
	memset(&a, 0xaa, sizeof(a));
	memset(&b, 0x55, sizeof(b));
	oq_sa_memo_key_pr(&a, OQ_SA_GET_TABLE, 0x1033, 0x1234, pr);
	oq_sa_memo_key_pr(&b, OQ_SA_GET_TABLE, 0x1033, 0x1234, pr);
	val_of(&v, 9);
	oq_sa_memo_put(m, &a, &v);
	assert_true(oq_sa_memo_get(m, &b, &got));
	assert_true(val_is(&got, 9));
	oq_sa_memo_free(m);
}

/* Any difference in method, mask, requester or any request byte is
 * another request. */
static void test_key_tells_requests_apart(void **state)
{
	struct oq_sa_memo *m = oq_sa_memo_create(4096, sizeof(struct val));
	uint8_t pr[OQ_PR_REC_SIZE], other[OQ_PR_REC_SIZE];
	struct oq_sa_memo_key k;
	struct val v, got;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pr); i++)
		pr[i] = (uint8_t)(i * 3);
	oq_sa_memo_key_pr(&k, OQ_SA_GET, 0x1033, 0x1234, pr);
	val_of(&v, 1);
	oq_sa_memo_put(m, &k, &v);

	oq_sa_memo_key_pr(&k, OQ_SA_GET_TABLE, 0x1033, 0x1234, pr);
	assert_false(oq_sa_memo_get(m, &k, &got));
	oq_sa_memo_key_pr(&k, OQ_SA_GET, 0x1032, 0x1234, pr);
	assert_false(oq_sa_memo_get(m, &k, &got));
	oq_sa_memo_key_pr(&k, OQ_SA_GET, 0x1033ull | 1ull << 63, 0x1234, pr);
	assert_false(oq_sa_memo_get(m, &k, &got));
	oq_sa_memo_key_pr(&k, OQ_SA_GET, 0x1033, 0x1235, pr);
	assert_false(oq_sa_memo_get(m, &k, &got));
	for (i = 0; i < sizeof(pr); i++) {
		memcpy(other, pr, sizeof(pr));
		other[i] ^= 0x80;
		oq_sa_memo_key_pr(&k, OQ_SA_GET, 0x1033, 0x1234, other);
		assert_false(oq_sa_memo_get(m, &k, &got));
	}
	oq_sa_memo_key_pr(&k, OQ_SA_GET, 0x1033, 0x1234, pr);
	assert_true(oq_sa_memo_get(m, &k, &got));
	assert_true(val_is(&got, 1));
	oq_sa_memo_free(m);
}

/* One entry: each request replaces the one before. */
static void test_replacement(void **state)
{
	struct oq_sa_memo *m = oq_sa_memo_create(1, sizeof(struct val));
	struct oq_sa_memo_key a, b;
	struct val v, got;

	(void)state;
	key_of(&a, 1);
	key_of(&b, 2);
	val_of(&v, 1);
	oq_sa_memo_put(m, &a, &v);
	val_of(&v, 2);
	oq_sa_memo_put(m, &b, &v);
	assert_false(oq_sa_memo_get(m, &a, &got));
	assert_true(oq_sa_memo_get(m, &b, &got));
	assert_true(val_is(&got, 2));
	val_of(&v, 1);
	oq_sa_memo_put(m, &a, &v);
	assert_true(oq_sa_memo_get(m, &a, &got));
	assert_true(val_is(&got, 1));
	assert_false(oq_sa_memo_get(m, &b, &got));
	oq_sa_memo_free(m);
}

/* As many storm-like requests as entries: each hit is its own answer, and
 * the hash spreads LID pairs so that most stay (a uniform hash keeps
 * 1 - 1/e, 63%, of n keys in n entries; one slot for all would keep 1). */
static void test_spread(void **state)
{
	enum { N = 4096 };
	struct oq_sa_memo *m = oq_sa_memo_create(N, sizeof(struct val));
	struct oq_sa_memo_key k;
	struct val v;
	uint32_t i, hits = 0;

	(void)state;
	for (i = 0; i < N; i++) {
		/* LIDs 1..64 by 1..64, as a storm over 64 ports asks. */
		uint32_t id = (i % 64 + 1) << 16 | (i / 64 + 1);

		key_of(&k, id);
		val_of(&v, id);
		oq_sa_memo_put(m, &k, &v);
	}
	for (i = 0; i < N; i++) {
		uint32_t id = (i % 64 + 1) << 16 | (i / 64 + 1);

		key_of(&k, id);
		if (oq_sa_memo_get(m, &k, &v)) {
			assert_true(val_is(&v, id));
			hits++;
		}
	}
	assert_true(hits >= N / 2);
	oq_sa_memo_free(m);
}

/* Resident bytes of this process (/proc/self/statm). */
static long resident_bytes(void)
{
	long size = 0, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	assert_non_null(f);
	assert_int_equal(fscanf(f, "%ld %ld", &size, &res), 2);
	fclose(f);
	return res * sysconf(_SC_PAGESIZE);
}

/* Each sweep's state has a memo and most are never asked: an idle memo
 * takes no memory, and a used one only what its entries fill, however
 * often memos are made and freed (one per heavy sweep; with calloc(),
 * glibc would serve the third from reused heap and clear it all). */
static void test_idle_memo_takes_no_memory(void **state)
{
	enum { N = 16384 }; /* about 13 MiB of entries */
	struct oq_sa_memo *m;
	struct oq_sa_memo_key k;
	struct val v;
	long before;
	uint32_t i;
	int round;

	(void)state;
	for (round = 0; round < 3; round++) {
		before = resident_bytes();
		m = oq_sa_memo_create(N, sizeof(struct val));
		assert_non_null(m);
		assert_true(resident_bytes() - before < 1024 * 1024);
		for (i = 0; i < 100; i++) {
			key_of(&k, i + 1);
			val_of(&v, i + 1);
			oq_sa_memo_put(m, &k, &v);
		}
		/* 100 entries, each on at most two pages. */
		assert_true(resident_bytes() - before <
			    1024 * 1024 + 200 * sysconf(_SC_PAGESIZE));
		oq_sa_memo_free(m);
	}
}

/* Threads storing and reading the same few entries: every hit is the
 * whole value of its own key, never a mix of two stores. */
struct worker {
	struct oq_sa_memo *m;
	uint32_t seed;
	unsigned long hits, bad;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	struct oq_sa_memo_key k;
	struct val v;
	uint32_t x = w->seed;
	int i;

	for (i = 0; i < 200000; i++) {
		uint32_t id;

		x = x * 1103515245u + 12345u;
		id = (x >> 16) % 64 + 1;
		key_of(&k, id);
		if (x & 0x100) {
			val_of(&v, id);
			oq_sa_memo_put(w->m, &k, &v);
		} else if (oq_sa_memo_get(w->m, &k, &v)) {
			w->hits++;
			if (!val_is(&v, id))
				w->bad++;
		}
	}
	return NULL;
}

static void test_threads(void **state)
{
	struct oq_sa_memo *m = oq_sa_memo_create(8, sizeof(struct val));
	struct worker w[4];
	pthread_t t[4];
	int i;

	(void)state;
	for (i = 0; i < 4; i++) {
		w[i] = (struct worker){.m = m, .seed = (uint32_t)i * 7919u + 1};
		assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
	}
	for (i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(w[i].bad, 0);
		assert_true(w[i].hits > 0);
	}
	oq_sa_memo_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_create_limits),
		cmocka_unit_test(test_null_memo),
		cmocka_unit_test(test_hit_after_put),
		cmocka_unit_test(test_key_padding),
		cmocka_unit_test(test_key_tells_requests_apart),
		cmocka_unit_test(test_replacement),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_idle_memo_takes_no_memory),
		cmocka_unit_test(test_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
