// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: audit record formatting (plugin/audit/audit_json.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "audit/audit.h"
#include "audit_test_util.h"

static void test_format_fields(void **state)
{
	struct oq_audit_record r;
	char buf[OQ_AUDIT_LINE_MAX + 1];
	size_t n;

	fill_record(&r, 42);
	n = oq_audit_format(&r, buf, OQ_AUDIT_LINE_MAX);
	assert_true(n > 0);
	assert_int_equal(buf[n - 1], '\n');
	assert_null(memchr(buf, '\n', n - 1));
	buf[n - 1] = 0;
	assert_true(json_line_ok(buf));
	assert_non_null(
		strstr(buf, "\"time\":\"2023-11-14T22:13:20.123456Z\""));
	assert_non_null(strstr(buf, "\"requester\":{\"guid\":"
				    "\"0x0002c90300001234\",\"lid\":42}"));
	assert_non_null(strstr(buf, "\"method\":\"GetTable\""));
	assert_non_null(strstr(buf, "\"attr\":\"PathRecord\""));
	assert_non_null(strstr(buf, "\"comp_mask\":4660"));
	assert_non_null(strstr(buf, "\"service_id\":\"0x1000000000000001\""));
	assert_non_null(strstr(buf, "\"qos_class\":7,\"pkey\":null,"
				    "\"sl\":null}"));
	/* The NodeDescription and, beside it, the port as OpenSM names
	 * it (by a node-name map's name), as the bottleneck does. */
	assert_non_null(strstr(buf, "\"src\":{\"guid\":\"0x0002c90300000001\","
				    "\"port\":1,\"node\":\"hca-a mlx4_0\","
				    "\"name\":\"hca-a/P1\"}"));
	assert_non_null(strstr(buf, "\"dst\":{\"guid\":\"0x0002c90300000002\","
				    "\"port\":2,\"node\":\"hca-b mlx4_0\","
				    "\"name\":\"hca-b/P2\"}"));
	assert_non_null(strstr(buf, "\"policy_hash\":\"0x00000000deadbeef\","
				    "\"rule\":3,\"use\":\"storage traffic\","
				    "\"level\":\"gold\""));
	assert_non_null(strstr(buf, "\"granted\":{\"sl\":2,\"mtu\":4096,"
				    "\"mtu_code\":5,\"rate_gbps\":40,"
				    "\"rate_code\":7,\"packet_life\":18,"
				    "\"pkey\":65535,\"slid\":0,\"dlid\":0,"
				    "\"records\":0}"));
	assert_non_null(strstr(buf, "\"sa_status\":0"));
	assert_non_null(strstr(buf, "\"predicted\":{\"gbps\":12.5,"
				    "\"basis\":\"sl\",\"ceiling_gbps\":40,"
				    "\"latency_us\":1.25,"
				    "\"bottleneck\":\"sw1/P3 -> hca-b/P2\"}"));
	/* too small a buffer: 0, never a cut line */
	assert_int_equal(oq_audit_format(&r, buf, n - 1), 0);
	assert_int_equal(oq_audit_format(&r, buf, n), n);
	/* A level with a bandwidth and a latency intent, on a VL it
	 * shares somewhere: the intents beside the guarantee, which says
	 * it is the VL group's; a wait that is a bound says so. */
	r.intent_bp = 1250;
	r.intent_gbps = 12.5;
	r.intent_lat_ns = 2500;
	r.predicted_shared = true;
	r.latency_bound = true;
	n = oq_audit_format(&r, buf, OQ_AUDIT_LINE_MAX);
	assert_true(n > 0);
	buf[n - 1] = 0;
	assert_true(json_line_ok(buf));
	assert_non_null(strstr(buf,
			       "\"predicted\":{\"gbps\":12.5,"
			       "\"basis\":\"vl-group\",\"ceiling_gbps\":40,"
			       "\"latency_us\":1.25,\"latency_is_bound\":true,"
			       "\"bottleneck\":\"sw1/P3 -> hca-b/P2\","
			       "\"intent\":{\"pct\":12.5,\"gbps\":12.5,"
			       "\"latency_us_per_hop\":2.5}}"));
	/* A wait not known: null. */
	r.latency_us = -1;
	n = oq_audit_format(&r, buf, OQ_AUDIT_LINE_MAX);
	buf[n - 1] = 0;
	assert_non_null(strstr(buf, "\"latency_us\":null"));
}

static void test_format_not_granted(void **state)
{
	struct oq_audit_record r;
	char buf[OQ_AUDIT_LINE_MAX];
	size_t n;

	fill_record(&r, 1);
	r.method = OQ_AUDIT_GETMULTI;
	r.attr = OQ_AUDIT_MULTIPATH_RECORD;
	r.has_sid = false;
	r.has_qos_class = false;
	r.has_pkey = true;
	r.pkey = 0x8001;
	r.has_sl = true;
	r.sl = 4;
	r.rule = -1;
	r.policy_hash = 0; /* no policy in force */
	r.use[0] = 0;
	r.granted = false;
	r.sa_status = 0x0200;
	n = oq_audit_format(&r, buf, sizeof(buf));
	assert_true(n > 0);
	buf[n - 1] = 0;
	assert_true(json_line_ok(buf));
	assert_non_null(strstr(buf, "\"method\":\"GetMulti\",\"attr\":"
				    "\"MultiPathRecord\""));
	assert_non_null(strstr(buf, "\"service_id\":null,\"qos_class\":null,"
				    "\"pkey\":32769,\"sl\":4}"));
	assert_non_null(
		strstr(buf, "\"policy_hash\":null,\"rule\":null,\"use\":null"));
	assert_non_null(
		strstr(buf, "\"granted\":null,\"sa_status\":512,"
			    "\"reason\":null,\"predicted\":null,\"count\":1}"));
	/* unknown codes and a NaN prediction become null, not garbage */
	r.granted = true;
	r.g_mtu = 9;
	r.g_rate = 200;
	r.predicted_gbps = 0.0 / 0.0;
	n = oq_audit_format(&r, buf, sizeof(buf));
	buf[n - 1] = 0;
	assert_true(json_line_ok(buf));
	assert_non_null(strstr(buf, "\"mtu\":null,\"mtu_code\":9,"
				    "\"rate_gbps\":null,\"rate_code\":200"));
	assert_non_null(strstr(buf, "\"predicted\":{\"gbps\":null"));
	/* the reason a pair got nothing; Gb/s to the Mb/s */
	r.granted = false;
	r.reason = "P_Key not allowed by the QoS level";
	n = oq_audit_format(&r, buf, sizeof(buf));
	buf[n - 1] = 0;
	assert_non_null(strstr(buf, "\"reason\":\"P_Key not allowed by the "
				    "QoS level\""));
	r.granted = true;
	r.predicted_gbps = 0.2857142;
	n = oq_audit_format(&r, buf, sizeof(buf));
	buf[n - 1] = 0;
	assert_non_null(strstr(buf, "\"gbps\":0.286,"));
	r.predicted_gbps = 25.6;
	n = oq_audit_format(&r, buf, sizeof(buf));
	buf[n - 1] = 0;
	assert_non_null(strstr(buf, "\"gbps\":25.6,"));
	r.predicted_gbps = 100;
	n = oq_audit_format(&r, buf, sizeof(buf));
	buf[n - 1] = 0;
	assert_non_null(strstr(buf, "\"gbps\":100,"));
}

static void test_format_escaping(void **state)
{
	struct oq_audit_record r;
	char buf[OQ_AUDIT_LINE_MAX];
	size_t n;

	fill_record(&r, 1);
	snprintf(r.src.desc, sizeof(r.src.desc),
		 "a\"b\\c\nd\te\x01"
		 "f\x7fg\xc3\xa9h\xffi\xc3");
	snprintf(r.use, sizeof(r.use), "x\r\"y\"");
	n = oq_audit_format(&r, buf, sizeof(buf));
	assert_true(n > 0);
	buf[n - 1] = 0;
	assert_true(json_line_ok(buf));
	assert_non_null(strstr(buf, "\"node\":\"a\\\"b\\\\c\\nd\\te\\u0001f"
				    "\\u007fg\xc3\xa9h\xef\xbf\xbd"
				    "i\xef\xbf\xbd\",\"name\":"));
	assert_non_null(strstr(buf, "\"use\":\"x\\r\\\"y\\\"\""));
}

static void test_format_worst_case_fits(void **state)
{
	struct oq_audit_record r;
	static char buf[OQ_AUDIT_LINE_MAX];
	size_t n;

	fill_record(&r, 65535);
	/* every byte escapes to \u00XX, and no NUL anywhere */
	memset(r.src.desc, 1, sizeof(r.src.desc));
	memset(r.dst.desc, 0x1f, sizeof(r.dst.desc));
	memset(r.src.name, 4, sizeof(r.src.name));
	memset(r.dst.name, 5, sizeof(r.dst.name));
	memset(r.use, 2, sizeof(r.use));
	memset(r.level, 3, sizeof(r.level));
	memset(r.bottleneck, 0x7f, sizeof(r.bottleneck));
	r.requester_guid = UINT64_MAX;
	r.comp_mask = UINT64_MAX;
	r.rule = 2147483647;
	r.predicted_gbps = 1e300;
	r.time.tv_sec = 253402300799; /* 9999-12-31T23:59:59Z */
	n = oq_audit_format(&r, buf, sizeof(buf));
	assert_true(n > 0 && n <= sizeof(buf));
	buf[n - 1] = 0;
	assert_non_null(strstr(buf, "9999-12-31T23:59:59.123456Z"));
	/* the arrays are read to their size, not beyond */
	assert_non_null(strstr(buf, "\"node\":\"\\u0001"));
	assert_non_null(strstr(buf, "\"name\":\"\\u0004"));
	assert_non_null(strstr(buf, "\"gbps\":1e+300,"));
	assert_true(json_line_ok(buf));
}

static void test_units(void **state)
{
	assert_int_equal(oq_audit_mtu_bytes(1), 256);
	assert_int_equal(oq_audit_mtu_bytes(4), 2048);
	assert_int_equal(oq_audit_mtu_bytes(0), 0);
	assert_int_equal(oq_audit_mtu_bytes(6), 0);
	assert_true(oq_audit_rate_gbps(2) == 2.5);
	assert_true(oq_audit_rate_gbps(3) == 10);
	assert_true(oq_audit_rate_gbps(16) == 100);
	assert_true(oq_audit_rate_gbps(0) == 0);
	assert_true(oq_audit_rate_gbps(255) == 0);
}
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_fields),
		cmocka_unit_test(test_format_not_granted),
		cmocka_unit_test(test_format_escaping),
		cmocka_unit_test(test_format_worst_case_fits),
		cmocka_unit_test(test_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
