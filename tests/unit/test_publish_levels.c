// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the policy's QoS levels in the published documents -- the
 * bandwidth and latency intents per level, and level names as labels:
 * names that render alike merged, long names whole, names that share a
 * long prefix each a series of their own.  The Prometheus text is checked
 * with the strict checker of publish_promcheck.c, the JSON with that of
 * publish_jsoncheck.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "publish_world.h"
#include "publish_promcheck.h"
#include "publish_jsoncheck.h"

/* Intents beside what the tables guarantee: the least share over the
 * linked ports and the ports below the intent, from the model directly. */
static void test_intents_published(void **state)
{
	struct world *w = *state;
	struct oq_publish_level lv[PUBLISH_WORLD_N_LEVELS];
	double min_share[2] = {1.0, 1.0};
	size_t missed[2] = {0, 0}, below90 = 0, below1 = 0, any = 0, i, total;
	char err[512], line[256];
	const int bp[2] = {500, 6000}; /* met, and missed somewhere */

	publish_world_predict(w);
	memcpy(lv, publish_world_levels, sizeof(lv));
	lv[0].intent_bp = bp[0];
	lv[0].sl_need_bp = (uint32_t)bp[0];
	lv[1].intent_bp = bp[1];
	lv[1].sl_need_bp = (uint32_t)bp[1];
	lv[1].high = true;
	for (i = 0; i < w->f->n_ports; i++) {
		const struct oq_pred_class *c =
			oq_pred_class_of(&w->classes, i);
		bool m = false;
		unsigned int k;

		if (!c)
			continue;
		for (k = 0; k < 2; k++) {
			struct oq_port_pred pred;
			struct oq_predict_opts o;
			double sh;

			oq_predict_opts_init(&o);
			assert_int_equal(oq_predict_port(&w->tables.ports[i],
							 -1.0, &o, &pred),
					 0);
			sh = c->guaranteed_gbps[lv[k].sl] / pred.rate_gbps;
			if (sh < min_share[k])
				min_share[k] = sh;
			if (sh * 10000.0 < bp[k] - 1e-6) {
				missed[k]++;
				m = true;
			}
			if (k == 0 && sh * 10000.0 < 9000 - 1e-6)
				below90++;
			if (k == 0 && sh * 10000.0 < 1 - 1e-6)
				below1++;
		}
		any += m;
	}
	total = oq_publish_intent_stats(lv, 3, &w->classes);
	assert_int_equal(total, any);
	assert_true(missed[1] > 0);
	for (i = 0; i < 2; i++) {
		assert_true(fabs(lv[i].min_share - min_share[i]) < 1e-12);
		assert_int_equal(lv[i].ports_missed, missed[i]);
	}
	w->doc.levels = lv;
	w->doc.intent_ports_missed = total;
	publish_world_render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	assert_non_null(strstr(w->buf, "osmqos_level_intent_ratio{level="
				       "\"storage\",sl=\"1\"} 0.05\n"));
	snprintf(line, sizeof(line),
		 "osmqos_level_intent_missed_ports{level=\"bulk\",sl=\"0\"} "
		 "%zu\n",
		 missed[1]);
	assert_non_null(strstr(w->buf, line));
	snprintf(line, sizeof(line), "osmqos_intent_missed_ports %zu\n", any);
	assert_non_null(strstr(w->buf, line));
	assert_null(strstr(w->buf, "also-sl1\",sl=\"1\"} 0"));
	publish_world_render(w, oq_publish_write_json);
	if (!oq_jsoncheck(w->buf, w->len))
		fail_msg("not JSON:\n%s", w->buf);
	snprintf(line, sizeof(line),
		 "\"intents\": {\"ports_missed\": %zu, \"levels\": "
		 "[{\"level\": \"storage\", \"sl\": 1, \"bandwidth_pct\": "
		 "5.00, \"sl_need_pct\": 5.00, \"priority\": \"low\"",
		 any);
	assert_non_null(strstr(w->buf, line));
	/* Levels sharing an SL add up: 0.01% alone, and with a second
	 * level's 89.99% on SL 1 beside it, SL 1 needs 90% on every port. */
	lv[0].intent_bp = 1;
	lv[0].sl_need_bp = 1;
	oq_publish_intent_stats(lv, 3, &w->classes);
	assert_int_equal(lv[0].ports_missed, below1);
	lv[0].sl_need_bp = 9000;
	lv[2].intent_bp = 8999;
	lv[2].sl_need_bp = 9000;
	oq_publish_intent_stats(lv, 3, &w->classes);
	assert_true(below90 > below1);
	assert_int_equal(lv[0].ports_missed, below90);
	assert_int_equal(lv[2].ports_missed, below90);
	w->doc.levels = publish_world_levels;
}

/* Level names the label cannot tell apart give one series, summed. */
static void test_prom_merges_indistinct_levels(void **state)
{
	struct world *w = *state;
	char err[512];

	oq_publish_count_answer(&w->ctr, "bad\xff");
	oq_publish_count_answer(&w->ctr, "bad\xfe");
	oq_publish_count_answer(&w->ctr, "bad\xfe");
	oq_publish_count_answer(&w->ctr, OQ_PUBLISH_LEVEL_NONE);
	oq_publish_count_answer(&w->ctr, NULL);
	publish_world_predict(w);
	publish_world_render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s", err);
	assert_non_null(strstr(w->buf, "osmqos_sa_pr_answered_total{level="
				       "\"bad\xef\xbf\xbd\"} 3\n"));
	assert_non_null(strstr(w->buf, "osmqos_sa_pr_answered_total{level="
				       "\"(none)\"} 2\n"));
	assert_int_equal(
		publish_world_count(w->buf, "osmqos_sa_pr_answered_total{"), 2);
}

/* A level name of 300 bytes that each render as three (invalid UTF-8
 * becomes U+FFFD) is written whole, never cut, in every per-level
 * family, intents included. */
static void test_prom_longest_level_label(void **state)
{
	struct world *w = *state;
	struct oq_publish_level lv[PUBLISH_WORLD_N_LEVELS];
	char name[301], want[sizeof(name) * 3 + 16];
	char err[512];
	size_t i;

	memset(name, 0xff, sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	strcpy(want, "{level=\"");
	for (i = 0; i < sizeof(name) - 1; i++)
		strcat(want, "\xef\xbf\xbd");
	strcat(want, "\"");
	oq_publish_count_answer(&w->ctr, name);
	publish_world_predict(w);
	memcpy(lv, publish_world_levels, sizeof(lv));
	lv[0].name = name;
	lv[0].intent_bp = 500;
	lv[0].sl_need_bp = 500;
	w->doc.levels = lv;
	w->doc.intent_ports_missed =
		oq_publish_intent_stats(lv, 3, &w->classes);
	publish_world_render(w, oq_publish_write_prom);
	w->doc.levels = publish_world_levels;
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s", err);
	assert_non_null(strstr(w->buf, "osmqos_level_intent_ratio"));
	/* In the answered, guaranteed and intent families alike. */
	assert_true(publish_world_count(w->buf, want) >= 4);
	assert_non_null(strstr(w->buf, "osmqos_sa_pr_answered_total"));
}

/* The families of a level, by the label value of each series. */
static size_t level_series(const char *buf, const char *family,
			   const char *label)
{
	char needle[512];

	snprintf(needle, sizeof(needle), "\n%s{level=\"%s\"", family, label);
	return publish_world_count(buf, needle);
}

/* Two levels whose names share their first 70 bytes are two levels in
 * both files: each with its own answers, its own series in every
 * per-level family under its whole name, and its own entry in the JSON's
 * intents. */
static void test_levels_sharing_a_long_prefix(void **state)
{
	static const char *const fams[] = {
		"osmqos_level_guaranteed_bandwidth_gbps",
		"osmqos_level_intent_ratio",
		"osmqos_level_intent_min_share_ratio",
		"osmqos_level_intent_missed_ports",
		"osmqos_level_intent_shared_ports",
		"osmqos_level_latency_max_seconds",
	};
	struct world *w = *state;
	struct oq_publish_level lv[PUBLISH_WORLD_N_LEVELS];
	char a[128], b[128], err[512], line[512];
	size_t i;

	memset(a, 'p', 70);
	strcpy(a + 70, "_storage");
	memset(b, 'p', 70);
	strcpy(b + 70, "_mpi");
	oq_publish_count_answer(&w->ctr, a);
	oq_publish_count_answer(&w->ctr, a);
	oq_publish_count_answer(&w->ctr, b);
	publish_world_predict(w);
	memcpy(lv, publish_world_levels, sizeof(lv));
	lv[0].name = a;
	lv[0].intent_bp = lv[0].sl_need_bp = 3000;
	lv[2].name = b;
	lv[2].sl = 2;
	lv[2].intent_bp = lv[2].sl_need_bp = 2000;
	w->doc.levels = lv;
	w->doc.intent_ports_missed =
		oq_publish_intent_stats(lv, 3, &w->classes);
	publish_world_render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s", err);
	snprintf(line, sizeof(line),
		 "osmqos_sa_pr_answered_total{level=\"%s\"} 2\n", a);
	assert_non_null(strstr(w->buf, line));
	snprintf(line, sizeof(line),
		 "osmqos_sa_pr_answered_total{level=\"%s\"} 1\n", b);
	assert_non_null(strstr(w->buf, line));
	for (i = 0; i < sizeof(fams) / sizeof(fams[0]); i++) {
		size_t n = i ? 1 : 3; /* min, median, max */

		assert_int_equal(level_series(w->buf, fams[i], a), n);
		assert_int_equal(level_series(w->buf, fams[i], b), n);
	}
	/* Those, and the answers: nothing else, nothing merged. */
	assert_int_equal(publish_world_count(w->buf, "{level=\"pppp"),
			 2 + 2 * (3 + 5));
	publish_world_render(w, oq_publish_write_json);
	w->doc.levels = publish_world_levels;
	if (!oq_jsoncheck(w->buf, w->len))
		fail_msg("not JSON:\n%s", w->buf);
	snprintf(line, sizeof(line), "{\"level\": \"%s\", \"sl\": 1,", a);
	assert_non_null(strstr(w->buf, line));
	snprintf(line, sizeof(line), "{\"level\": \"%s\", \"sl\": 2,", b);
	assert_non_null(strstr(w->buf, line));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_intents_published,
						publish_world_setup,
						publish_world_teardown),
		cmocka_unit_test_setup_teardown(
			test_prom_merges_indistinct_levels, publish_world_setup,
			publish_world_teardown),
		cmocka_unit_test_setup_teardown(test_prom_longest_level_label,
						publish_world_setup,
						publish_world_teardown),
		cmocka_unit_test_setup_teardown(
			test_levels_sharing_a_long_prefix, publish_world_setup,
			publish_world_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
