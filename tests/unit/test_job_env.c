// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: a job's environment (contrib/osmqos/job_env_out.c): the SL
 * variables always, the P_Key ones only with a P_Key, NCCL_IB_PKEY (an
 * index) only when the index is known, the value formats each stack
 * parses, and the export lines and JSON object exactly; the class words
 * (the invalid P_Key is none).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "job_class.h"
#include "job_env_out.h"

static size_t vars(int sl, int pkey, int index, struct oq_env_var *v)
{
	struct oq_job_env e = {sl, pkey, index};

	return oq_job_env_vars(&e, v, OQ_JOB_ENV_MAX_VARS);
}

static const char *value(const struct oq_env_var *v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return v[i].value;
	return NULL;
}

/* What a writer puts into a stream, as a string. */
static char *written(void (*fn)(FILE *, const struct oq_env_var *, size_t),
		     const struct oq_env_var *v, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, v, n);
	fclose(f);
	return buf;
}

static void test_sl_only(void **state)
{
	struct oq_env_var v[OQ_JOB_ENV_MAX_VARS];
	size_t n = vars(5, -1, 7, v);
	char *s;

	(void)state;
	assert_int_equal(n, 6);
	assert_string_equal(value(v, n, "UCX_IB_SL"), "5");
	assert_string_equal(value(v, n, "NCCL_IB_SL"), "5");
	assert_string_equal(value(v, n, "NVSHMEM_IB_SL"), "5");
	assert_string_equal(value(v, n, "MV2_DEFAULT_SERVICE_LEVEL"), "5");
	assert_string_equal(value(v, n, "OMPI_MCA_btl_openib_ib_service_level"),
			    "5");
	assert_string_equal(value(v, n, "OSMQOS_SL"), "5");
	assert_null(value(v, n, "UCX_IB_PKEY"));
	assert_null(value(v, n, "NCCL_IB_PKEY"));
	s = written(oq_job_env_write_exports, v, n);
	assert_string_equal(s,
			    "export OSMQOS_SL=5\n"
			    "export UCX_IB_SL=5\n"
			    "export NCCL_IB_SL=5\n"
			    "export NVSHMEM_IB_SL=5\n"
			    "export MV2_DEFAULT_SERVICE_LEVEL=5\n"
			    "export OMPI_MCA_btl_openib_ib_service_level=5\n");
	free(s);
}

static void test_pkey(void **state)
{
	struct oq_env_var v[OQ_JOB_ENV_MAX_VARS];
	size_t n;
	char *s;

	(void)state;
	/* A P_Key without its index: no NCCL_IB_PKEY (it takes an index). */
	n = vars(3, 0x0003, -1, v);
	assert_int_equal(n, 10);
	assert_string_equal(value(v, n, "UCX_IB_PKEY"), "0x0003");
	assert_string_equal(value(v, n, "MV2_DEFAULT_PKEY"), "0x0003");
	assert_string_equal(value(v, n, "OMPI_MCA_btl_openib_pkey"), "0x0003");
	assert_string_equal(value(v, n, "OSMQOS_PKEY"), "0x0003");
	assert_null(value(v, n, "NCCL_IB_PKEY"));
	/* With the index. */
	n = vars(3, 0x7fff, 2, v);
	assert_int_equal(n, 11);
	assert_string_equal(value(v, n, "UCX_IB_PKEY"), "0x7fff");
	assert_string_equal(value(v, n, "NCCL_IB_PKEY"), "2");
	s = written(oq_job_env_write_json, v, n);
	assert_string_equal(
		s, "{\"OSMQOS_SL\": \"3\", \"UCX_IB_SL\": \"3\", "
		   "\"NCCL_IB_SL\": \"3\", \"NVSHMEM_IB_SL\": \"3\", "
		   "\"MV2_DEFAULT_SERVICE_LEVEL\": \"3\", "
		   "\"OMPI_MCA_btl_openib_ib_service_level\": \"3\", "
		   "\"OSMQOS_PKEY\": \"0x7fff\", \"UCX_IB_PKEY\": \"0x7fff\", "
		   "\"MV2_DEFAULT_PKEY\": \"0x7fff\", "
		   "\"OMPI_MCA_btl_openib_pkey\": \"0x7fff\", "
		   "\"NCCL_IB_PKEY\": \"2\"}");
	free(s);
	/* The membership bit never reaches a variable. */
	n = vars(15, 0x8005, -1, v);
	assert_string_equal(value(v, n, "UCX_IB_PKEY"), "0x0005");
	assert_string_equal(value(v, n, "UCX_IB_SL"), "15");
}

static void test_bounded(void **state)
{
	struct oq_env_var v[3];
	struct oq_job_env e = {1, 1, 1};

	(void)state;
	assert_int_equal(oq_job_env_vars(&e, v, 3), 3);
	assert_int_equal(oq_job_env_vars(&e, v, 0), 0);
}

static void test_class_words(void **state)
{
	struct oq_job_class c;
	char err[256], buf[96];

	(void)state;
	assert_int_equal(
		oq_job_class_parse_word("sid:0x10", &c, err, sizeof(err)), 0);
	oq_job_class_format(&c, buf, sizeof(buf));
	assert_string_equal(buf, "sid 0x0000000000000010");
	assert_int_equal(
		oq_job_class_parse_word("pkey:0xffff", &c, err, sizeof(err)),
		0);
	oq_job_class_format(&c, buf, sizeof(buf));
	assert_string_equal(buf, "pkey 0x7fff");
	assert_int_equal(oq_job_class_parse_word("plain", &c, err, sizeof(err)),
			 0);
	assert_int_equal(c.kind, OQ_JC_PLAIN);
	assert_int_equal(
		oq_job_class_parse_word("level:", &c, err, sizeof(err)), -1);
	assert_int_equal(
		oq_job_class_parse_word("levelx:gold", &c, err, sizeof(err)),
		-1);
	assert_int_equal(oq_job_class_parse_word("verylongkindname:1", &c, err,
						 sizeof(err)),
			 -1);
	assert_int_equal(oq_job_class_parse("sid", " 1", &c, err, sizeof(err)),
			 -1);
	assert_int_equal(oq_job_class_parse("sid", "-1", &c, err, sizeof(err)),
			 -1);
	assert_int_equal(oq_job_class_parse("sid", "18446744073709551616", &c,
					    err, sizeof(err)),
			 -1);
	assert_int_equal(oq_job_class_parse("level",
					    "0123456789012345678901234567890123"
					    "456789012345678901234567890123",
					    &c, err, sizeof(err)),
			 -1);
	/* The invalid P_Key, with or without the membership bit, is no
	 * class: no partition can have it. */
	assert_int_equal(oq_job_class_parse("pkey", "0", &c, err, sizeof(err)),
			 -1);
	assert_non_null(strstr(err, "pkey 0x0000 is the invalid P_Key"));
	assert_int_equal(
		oq_job_class_parse("pkey", "0x8000", &c, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "pkey 0x8000 is the invalid P_Key"));
	assert_non_null(strstr(err, "give one of 0x0001..0x7fff"));
	assert_int_equal(
		oq_job_class_parse_word("pkey:0x8000", &c, err, sizeof(err)),
		-1);
	assert_int_equal(
		oq_job_class_parse("pkey", "0x8001", &c, err, sizeof(err)), 0);
	assert_int_equal(c.value, 1);
	assert_int_equal(oq_job_pkey_check(0x10000, err, sizeof(err)), -1);
	assert_int_equal(oq_job_pkey_check(0x7fff, err, sizeof(err)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sl_only),
		cmocka_unit_test(test_pkey),
		cmocka_unit_test(test_bounded),
		cmocka_unit_test(test_class_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
