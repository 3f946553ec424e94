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

#include <osmqos/synth.h>

#include "publish_world.h"
#include "publish_promcheck.h"
#include "publish_jsoncheck.h"

/* A plan of classes of the synthesizer's verdicts: class k has ports[k]
 * ports, every SL share[k] of a 32 Gb/s link and a worst wait of wait[k]
 * bytes, its intents met when ok[k]. */
#define PLAN_MAX 4
struct hand_plan {
	struct oq_synth_plan pl;
	struct oq_synth_class v[PLAN_MAX];
};

static void hand_plan(struct hand_plan *h, size_t n, const size_t *ports,
		      const struct oq_frac *share, const uint64_t *wait,
		      const bool *ok)
{
	size_t k;
	unsigned int s;

	memset(h, 0, sizeof(*h));
	h->pl.v = h->v;
	h->pl.n = n;
	for (k = 0; k < n; k++) {
		h->v[k].n_ports = ports[k];
		h->v[k].in.rate_gbps = 32.0;
		h->v[k].r.status = ok[k] ? OQ_SYNTH_OK : OQ_SYNTH_INFEASIBLE;
		for (s = 0; s < 16; s++) {
			h->v[k].r.share[s] = share[k];
			h->v[k].r.wait[s] = wait[k];
		}
		if (!ok[k])
			h->pl.ports_missed += ports[k];
	}
}

/* Intents beside what the tables guarantee: the least share over the
 * checked ports, the ports below what the SL needs and the largest wait,
 * from the synthesizer's verdicts; the ports missed are the plan's. */
static void test_intents_published(void **state)
{
	static const size_t ports[] = {4, 2};
	static const uint64_t wait[] = {2048, 6144};
	static const bool ok[] = {true, false};
	const struct oq_frac share[] = {oq_frac_make(1, 2), oq_frac_make(1, 3)};
	struct world *w = *state;
	struct oq_publish_level lv[PUBLISH_WORLD_N_LEVELS];
	struct hand_plan h;
	char err[512], line[256];
	size_t total;

	publish_world_predict(w);
	hand_plan(&h, 2, ports, share, wait, ok);
	memcpy(lv, publish_world_levels, sizeof(lv));
	lv[0].intent_bp = lv[0].sl_need_bp = 500;  /* met everywhere */
	lv[1].intent_bp = lv[1].sl_need_bp = 4000; /* missed on 1/3 */
	lv[1].high = true;
	lv[1].latency_ns = 1000; /* 4000 bytes at 32 Gb/s */
	total = oq_publish_intent_stats(lv, 3, &w->classes, &h.pl);
	assert_int_equal(total, h.pl.ports_missed);
	assert_int_equal(total, 2);
	assert_true(fabs(lv[0].min_share - 1.0 / 3) < 1e-12);
	assert_int_equal(lv[0].ports_missed, 0);
	assert_int_equal(lv[1].ports_missed, 2);
	assert_int_equal(lv[1].lat_missed, 2);
	assert_true(fabs(lv[1].max_wait_us - 6144 * 8 / 32000.0) < 1e-9);
	w->doc.levels = lv;
	w->doc.intent_ports_missed = total;
	w->doc.intent_ports_unchecked = 3;
	publish_world_render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	assert_non_null(strstr(w->buf, "osmqos_level_intent_ratio{level="
				       "\"storage\",sl=\"1\"} 0.05\n"));
	assert_non_null(strstr(w->buf, "osmqos_level_intent_missed_ports{"
				       "level=\"bulk\",sl=\"0\"} 2\n"));
	assert_non_null(strstr(w->buf, "osmqos_level_intent_min_share_ratio{"
				       "level=\"bulk\",sl=\"0\"} 0.333333\n"));
	assert_non_null(strstr(w->buf, "osmqos_intent_missed_ports 2\n"));
	assert_non_null(strstr(w->buf, "osmqos_intent_unchecked_ports 3\n"));
	assert_null(strstr(w->buf, "also-sl1\",sl=\"1\"} 0"));
	publish_world_render(w, oq_publish_write_json);
	if (!oq_jsoncheck(w->buf, w->len))
		fail_msg("not JSON:\n%s", w->buf);
	snprintf(line, sizeof(line),
		 "\"intents\": {\"ports_missed\": 2, \"ports_unchecked\": 3, "
		 "\"levels\": [{\"level\": \"storage\", \"sl\": 1, "
		 "\"bandwidth_pct\": 5.00, \"sl_need_pct\": 5.00, "
		 "\"priority\": \"low\", \"min_guaranteed_pct\": 33.3333");
	assert_non_null(strstr(w->buf, line));
	/* Levels sharing an SL add up: 0.01% alone, and with a second
	 * level's 89.99% on SL 1 beside it, SL 1 needs 90% on every port. */
	lv[0].intent_bp = 1;
	lv[0].sl_need_bp = 1;
	oq_publish_intent_stats(lv, 3, &w->classes, &h.pl);
	assert_int_equal(lv[0].ports_missed, 0);
	lv[0].sl_need_bp = 9000;
	lv[2].intent_bp = 8999;
	lv[2].sl_need_bp = 9000;
	oq_publish_intent_stats(lv, 3, &w->classes, &h.pl);
	assert_int_equal(lv[0].ports_missed, 6);
	assert_int_equal(lv[2].ports_missed, 6);
	/* A latency-only level has a least share too (json.md: null only
	 * when no checked port carries it). */
	lv[2].intent_bp = -1;
	lv[2].latency_ns = 2000;
	oq_publish_intent_stats(lv, 3, &w->classes, &h.pl);
	assert_true(fabs(lv[2].min_share - 1.0 / 3) < 1e-12);
	assert_int_equal(lv[2].lat_missed, 0);
	/* Without the synthesizer's verdicts nothing is claimed: no least
	 * share, and no worst wait (not a wait of 0) in either file. */
	assert_int_equal(oq_publish_intent_stats(lv, 3, &w->classes, NULL), 0);
	assert_true(lv[2].min_share < 0);
	assert_true(lv[2].max_wait_us < 0);
	w->doc.levels = lv;
	publish_world_render(w, oq_publish_write_json);
	assert_non_null(strstr(w->buf, "\"max_hop_latency_us\": null, "
				       "\"latency_ports_missed\": 0"));
	publish_world_render(w, oq_publish_write_prom);
	assert_null(strstr(w->buf, "osmqos_level_latency_max_seconds{"));
	w->doc.levels = publish_world_levels;
}

/* A policy of two-switch.net's levels, as the plugin runs it: compiled,
 * the intents applied, the published classes predicted. */
struct live {
	struct oq_diags d;
	struct oq_fabric *f;
	struct oq_policy *p;
	struct oq_binding *b;
	struct oq_templates t;
	struct oq_engine e;
	struct oq_fabric_tables tables;
	struct oq_synth_plan plan;
	struct oq_pred_classes classes;
	struct oq_publish_level lv[3];
};

static void live_load(struct live *x, const char *low, const char *storage,
		      const char *lat)
{
	char text[2048];
	struct oq_predict_opts o;
	struct oq_sl_intents it;
	size_t i;
	int n;

	n = snprintf(
		text, sizeof(text),
		"port-groups\n port-group\n name: all\n node-type: ALL\n"
		" end-port-group\nend-port-groups\nqos-setup\n vlarb-tables\n"
		" vlarb-scope\n group: all\n vlarb-high: 0:0\n vlarb-low: %s\n"
		" vl-high-limit: 0\n end-vlarb-scope\n end-vlarb-tables\n"
		" sl2vl-tables\n sl2vl-scope\n group: all\n"
		" sl2vl-table: 0,1,2,0,0,0,0,0,0,0,0,0,0,0,0,0\n"
		" end-sl2vl-scope\n end-sl2vl-tables\nend-qos-setup\n"
		"qos-levels\n qos-level\n name: DEFAULT\n sl: 0\n"
		" end-qos-level\n qos-level\n name: storage\n sl: 1\n %s\n"
		" end-qos-level\n qos-level\n name: lat\n sl: 2\n %s\n"
		" end-qos-level\nend-qos-levels\nqos-match-rules\n"
		" qos-match-rule\n qos-class: 1\n qos-level-name: storage\n"
		" end-qos-match-rule\n qos-match-rule\n qos-class: 2\n"
		" qos-level-name: lat\n end-qos-match-rule\n"
		"end-qos-match-rules\n",
		low, storage, lat);
	assert_true(n > 0 && (size_t)n < sizeof(text));
	memset(x, 0, sizeof(*x));
	oq_diags_init(&x->d);
	x->f = oq_topology_load(OQ_SRCDIR "/contrib/fabrics/two-switch.net",
				&x->d);
	assert_non_null(x->f);
	x->p = oq_policy_parse("p.conf", text, (size_t)n, &x->d);
	assert_non_null(x->p);
	oq_policy_validate(x->p, &x->d);
	assert_false(oq_diags_has_errors(&x->d));
	x->b = oq_bind(x->p, x->f, NULL, &x->d);
	assert_non_null(x->b);
	oq_templates_default(&x->t);
	assert_int_equal(oq_engine_by_name(&x->e, "minhop"), 0);
	assert_int_equal(oq_tables_compile_engine(x->b, x->f, &x->t, &x->e,
						  &x->tables, &x->d),
			 0);
	assert_int_equal(
		oq_synth_apply(x->p, x->f, &x->e, &x->tables, &x->plan, &x->d),
		0);
	oq_predict_opts_init(&o);
	assert_int_equal(
		oq_pred_classes_build(x->f, &x->tables, &o, NULL, &x->classes),
		0);
	oq_policy_intents(x->p, &it);
	for (i = 0; i < 3; i++) {
		const struct oq_qos_level *l = &x->p->levels[i];

		x->lv[i].name = l->name;
		x->lv[i].sl = (uint8_t)l->sl;
		x->lv[i].intent_bp = l->bandwidth_bp;
		x->lv[i].sl_need_bp = it.need_bp[l->sl];
		x->lv[i].latency_ns = l->latency_ns;
	}
}

static void live_free(struct live *x)
{
	oq_pred_classes_free(&x->classes);
	oq_synth_plan_free(&x->plan);
	oq_fabric_tables_free(&x->tables);
	oq_binding_free(x->b);
	oq_policy_free(x->p);
	oq_fabric_free(x->f);
	oq_diags_free(&x->d);
}

/* The published intent figures are the synthesizer's, full packets
 * included: a weight one credit above an MTU-size packet sends one full
 * packet a turn, not two, so the bandwidth intent beside two VLs of the
 * MTU's weight gets a third of each port, and the latency intent is
 * passed by the full packets' extra bytes.  The ports missed are the
 * ports the plugin's log counts. */
static void test_intents_as_logged(void **state)
{
	struct live x;
	size_t total;

	(void)state;
	live_load(&x, "0:32,1:33,2:32", "bandwidth: 45%", "");
	assert_true(x.plan.ports_missed > 0);
	total = oq_publish_intent_stats(x.lv, 3, &x.classes, &x.plan);
	assert_int_equal(total, x.plan.ports_missed);
	assert_int_equal(x.lv[1].ports_missed, x.plan.ports_missed);
	assert_true(fabs(x.lv[1].min_share - 1.0 / 3) < 1e-9);
	live_free(&x);

	live_load(&x, "0:32,1:32,2:32", "", "latency: 1.6 us");
	assert_true(x.plan.ports_missed > 0);
	total = oq_publish_intent_stats(x.lv, 3, &x.classes, &x.plan);
	assert_int_equal(total, x.plan.ports_missed);
	assert_int_equal(x.lv[2].lat_missed, x.plan.ports_missed);
	assert_true(x.lv[2].max_wait_us > 1.6);
	assert_true(fabs(x.lv[2].max_wait_us - 1.631) < 0.001);
	live_free(&x);

	/* Met with full packets: weight 67 sends two a turn. */
	live_load(&x, "0:32,1:67,2:32", "bandwidth: 45%", "");
	assert_int_equal(x.plan.ports_missed, 0);
	assert_int_equal(oq_publish_intent_stats(x.lv, 3, &x.classes, &x.plan),
			 0);
	assert_true(x.lv[1].min_share >= 0.45);
	live_free(&x);
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
		oq_publish_intent_stats(lv, 3, &w->classes, NULL);
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
	static const size_t ports[] = {6};
	static const uint64_t wait[] = {2048};
	static const bool ok[] = {true};
	const struct oq_frac share[] = {oq_frac_make(1, 2)};
	struct world *w = *state;
	struct oq_publish_level lv[PUBLISH_WORLD_N_LEVELS];
	struct hand_plan h;
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
	hand_plan(&h, 1, ports, share, wait, ok);
	w->doc.intent_ports_missed =
		oq_publish_intent_stats(lv, 3, &w->classes, &h.pl);
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
		cmocka_unit_test(test_intents_as_logged),
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
