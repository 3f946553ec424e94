// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the published documents (plugin/documents/publish_json.c,
 * publish_prom.c, publish_prom_fabric.c) on a small fabric whose node
 * descriptions carry quotes, backslashes, newlines, control bytes and
 * invalid UTF-8.  The JSON is checked with the strict JSON validator of
 * publish_jsoncheck.c (itself tested, with the escaping, in
 * test_publish_escape.c), the Prometheus text with the strict checker in
 * publish_promcheck.c; the numbers against direct model calls.  The
 * policy's levels in them are test_publish_levels.c's; the fabric and
 * helpers both use are publish_world.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "match_fixture.h"
#include "documents/documents.h"
#include "publish_promcheck.h"
#include "publish_jsoncheck.h"

#include "publish_world.h"

/* ---- the numbers ------------------------------------------------------- */

static void test_predictions_match_model(void **state)
{
	struct world *w = *state;
	struct oq_predict_opts o;
	struct oq_port_pred pp;
	size_t i, k = 0;
	unsigned int s;

	publish_world_predict(w);
	/* Linked ports only: 3 CA ports and 3 switch ports. */
	assert_int_equal(w->classes.n_classified, 6);
	oq_predict_opts_init(&o);
	for (i = 0; i < w->f->n_ports; i++) {
		const struct oq_port *p = w->f->ports[i];
		const struct oq_pred_class *c;

		if (!p->present || !oq_port_peer(w->f, p)) {
			assert_null(oq_pred_class_of(&w->classes, i));
			continue;
		}
		c = publish_world_class(w, p);
		assert_int_equal(oq_predict_port(w->f, &w->tables.ports[i],
						 -1.0, &o, &pp),
				 0);
		for (s = 0; s < 16; s++) {
			assert_true(c->pred.sl[s].gbps == pp.sl[s].gbps);
			assert_int_equal(oq_frac_cmp(c->pred.sl[s].share,
						     pp.sl[s].share),
					 0);
			/* The guarantee: the SL's VL's share with every
			 * VL busy, never below the all-SLs what-if. */
			assert_true(c->guaranteed_gbps[s] >= pp.sl[s].gbps);
			assert_true(c->guaranteed_gbps[s] ==
				    oq_frac_double(
					    c->guar.vl_share[c->pred.sl[s].vl]) *
					    pp.rate_gbps);
		}
		k++;
	}
	assert_int_equal(k, 6);
}

/* One input port dropping SL 3 and another mapping SL 5 elsewhere: the
 * guarantee is the least over the inputs that exist of the SL's VL's
 * share with every VL any input reaches busy. */
static void test_guaranteed_is_min_over_inputs(void **state)
{
	struct world *w = *state;
	struct oq_port_tables *t = NULL;
	const struct oq_pred_class *pub;
	struct oq_arb_config cfg;
	struct oq_arb_result arb;
	size_t i;
	unsigned int s, in;
	uint16_t busy = 0;
	double want[16];
	union oq_sl2vl_scratch sc;

	for (i = 0; i < w->tables.n; i++)
		if (w->tables.ports[i].port == &w->sw->ports[1])
			t = &w->tables.ports[i];
	assert_non_null(t);
	assert_int_equal(t->n_sl2vl, 5);
	memcpy(sc.row, t->sl2vl, 16 * (size_t)t->n_sl2vl);
	sc.row[2][3] = OQ_VL_DROP; /* from h2: SL 3 dropped */
	sc.row[3][5] = 7;	   /* from h3: SL 5 on VL 7 */
	sc.row[1][6] = OQ_VL_DROP; /* the egress itself: not an input */
	sc.row[4][6] = OQ_VL_DROP; /* port 4 is down: not an input */
	assert_int_equal(oq_port_tables_set_sl2vl(&w->tables, t,
						  (const uint8_t(*)[16])sc.row,
						  t->n_sl2vl),
			 0);

	publish_world_predict(w);
	pub = publish_world_class(w, &w->sw->ports[1]);
	for (in = 0; in <= 3; in++)
		for (s = 0; s < 16 && in != 1; s++)
			if (t->sl2vl[in][s] < 15)
				busy |= (uint16_t)(1u << t->sl2vl[in][s]);
	oq_arb_config_init(&cfg, &t->vlarb_high, &t->vlarb_low,
			   t->vl_high_limit, oq_port_mtu_bytes(w->f, t->port));
	cfg.backlog = busy;
	assert_int_equal(oq_arb_run(&cfg, &arb), 0);
	for (s = 0; s < 16; s++) {
		want[s] = 1e9;
		for (in = 0; in <= 3; in++) {
			unsigned int v = t->sl2vl[in][s];
			double g;

			if (in == 1)
				continue;
			g = v < 15 ? oq_frac_double(arb.share[v]) *
					     pub->pred.rate_gbps
				   : 0;
			if (g < want[s])
				want[s] = g;
		}
	}
	for (s = 0; s < 16; s++)
		assert_true(pub->guaranteed_gbps[s] == want[s]);
	assert_true(pub->pred.sl[3].gbps > 0);
	assert_true(pub->guaranteed_gbps[3] == 0);
	assert_true(pub->guaranteed_gbps[6] > 0);
	/* Its own class: no other port has these tables. */
	assert_int_equal(pub->n_ports, 1);
}

/* An SL one input sends to VL15 is dropped at that port, whatever the
 * other inputs do: the port counts in osmqos_sl_dropped_ports, and its
 * series say the SL is on no one VL there. */
static void test_prom_dropped_from_one_input(void **state)
{
	struct world *w = *state;
	struct oq_port_tables *t = NULL;
	const struct oq_pred_class *pub;
	union oq_sl2vl_scratch sc;
	char err[512], line[256];
	size_t i;

	for (i = 0; i < w->tables.n; i++)
		if (w->tables.ports[i].port == &w->sw->ports[1])
			t = &w->tables.ports[i];
	assert_non_null(t);
	memcpy(sc.row, t->sl2vl, 16 * (size_t)t->n_sl2vl);
	sc.row[2][3] = OQ_VL_DROP; /* from h2: SL 3 dropped */
	assert_int_equal(oq_port_tables_set_sl2vl(&w->tables, t,
						  (const uint8_t(*)[16])sc.row,
						  t->n_sl2vl),
			 0);
	publish_world_predict(w);
	pub = publish_world_class(w, &w->sw->ports[1]);
	assert_true(pub->pred.sl[3].gbps > 0);
	w->doc.detail_ports = true;
	publish_world_render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	assert_non_null(
		strstr(w->buf, "osmqos_sl_dropped_ports{sl=\"3\"} 1\n"));
	assert_non_null(
		strstr(w->buf, "osmqos_sl_dropped_ports{sl=\"5\"} 0\n"));
	snprintf(line, sizeof(line),
		 "osmqos_class_guaranteed_bandwidth_gbps{class=\"%u\",sl=\"3\","
		 "vl=\"mixed\"} 0\n",
		 w->classes.of_port[oq_port_index(w->f, &w->sw->ports[1])]);
	assert_non_null(strstr(w->buf, line));
	snprintf(line, sizeof(line),
		 "osmqos_predicted_bandwidth_gbps{node_guid=\"0x%016llx\","
		 "node=\"sw\",port=\"1\",sl=\"3\",vl=\"mixed\"} %.6g\n",
		 0x100ull, pub->pred.sl[3].gbps);
	assert_non_null(strstr(w->buf, line));
	/* The class's two series and the port's three; every other port
	 * carries SL 3 on its VL. */
	assert_int_equal(publish_world_count(w->buf, "sl=\"3\",vl=\"mixed\"}"),
			 5);
}

/* ---- JSON --------------------------------------------------------------- */

static void test_json_document(void **state)
{
	struct world *w = *state;
	char want[512];

	publish_world_predict(w);
	publish_world_render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_int_equal(w->buf[w->len - 1], '\n');
	assert_non_null(strstr(w->buf, "\"schema\": 3,"));
	assert_non_null(strstr(w->buf, "\"sweep\": 3, \"sweeps\": 4"));
	assert_non_null(strstr(w->buf, "\"time\": \"2023-11-14T22:13:20Z\", "
				       "\"time_epoch\": 1700000000.250"));
	assert_non_null(strstr(w->buf, "\"path\": \"/etc/opensm/q\\\"os\\\\"
				       "policy.conf\""));
	assert_non_null(strstr(w->buf, "\"hash\": \"0x0123456789abcdef\""));
	assert_non_null(strstr(w->buf, "\"loaded_at\": \"2023-11-14T22:13:19Z"
				       "\", \"loaded_at_epoch\": 1699999999"));
	assert_non_null(strstr(w->buf, "\"qos_mads_sent\": 42"));
	assert_non_null(strstr(w->buf, "\"node\": \"ev\\\"il\\\\x\\ny \xc3\xa9 "
				       "\\u0001 \xef\xbf\xbd end\""));
	snprintf(want, sizeof(want),
		 "{\"port\": 1, \"guid\": \"0x0000000000000011\", "
		 "\"lid\": 10, \"lmc\": 0, \"class\": %u}",
		 w->classes.of_port[oq_port_index(w->f, &w->h1->ports[1])]);
	assert_non_null(strstr(w->buf, want));
	assert_non_null(strstr(w->buf, "\"link\": \"4xQDR\", \"width\": 4, "
				       "\"speed\": \"QDR\", \"rate_gbps\": "
				       "32, \"mtu\": 4096"));
	/* Each class's 16 SLs once; each port once, by reference. */
	assert_int_equal(publish_world_count(w->buf, "\"predicted_gbps\": "),
			 16 * w->classes.n);
	assert_int_equal(publish_world_count(w->buf, "\"guaranteed_gbps\": "),
			 16 * w->classes.n);
	assert_true(w->classes.n < 6);
	assert_int_equal(publish_world_count(w->buf, "\"lmc\": "), 6);
	assert_int_equal(publish_world_count(w->buf, "\"node_type\": "), 4);
	/* h1's SL 5, formatted exactly like osmqos predict --json. */
	{
		const struct oq_pred_class *pp =
			publish_world_class(w, &w->h1->ports[1]);
		const struct oq_sl_pred *sp = &pp->pred.sl[5];
		char fb[48], gb[48];

		oq_frac_format(sp->share, fb, sizeof(fb));
		oq_frac_format(pp->guar.share[5], gb, sizeof(gb));
		/* No policy: every SL counts as granted, and the template
		 * puts SL 5 on a VL with others. */
		assert_true(pp->guar.shared_with[5] != 0);
		snprintf(want, sizeof(want),
			 "{\"sl\": 5, \"vl\": %d, \"vls\": [%d], "
			 "\"priority\": \"%s\", \"share\": %.12g, "
			 "\"share_exact\": \"%s\", \"predicted_gbps\": "
			 "%.6g, \"guaranteed_gbps\": %.6g, "
			 "\"guaranteed_exact\": \"%s\", \"shared_with\": [",
			 sp->vl, sp->vl, oq_prio_name(sp->prio),
			 oq_frac_double(sp->share), fb, sp->gbps,
			 pp->guaranteed_gbps[5], gb);
		assert_non_null(strstr(w->buf, want));
		assert_true(sp->gbps > 0);
	}
}

/* The parts kept for a state carry their nodes list: a publication of
 * that state with no classes at hand writes the document rendered with
 * them, nodes and all. */
static void test_json_kept_parts_without_classes(void **state)
{
	struct world *w = *state;
	struct oq_pred_nodes_kept k = {0};
	struct oq_publish_doc d;
	char *whole, *part = NULL;
	size_t part_len = 0;
	FILE *f;

	publish_world_predict(w);
	publish_world_render(w, oq_publish_write_json);
	whole = strdup(w->buf);
	assert_non_null(whole);
	assert_non_null(strstr(whole, "\"ports\": [{\"port\""));
	f = open_memstream(&part, &part_len);
	assert_non_null(f);
	assert_int_equal(oq_publish_write_json_predictions(f, &w->doc), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(oq_pred_nodes_keep(&k, w->f, &w->classes), 0);
	d = w->doc;
	w->doc.json_predictions = part;
	w->doc.json_predictions_len = part_len;
	w->doc.json_nodes = &k;
	w->doc.classes = NULL;
	publish_world_render(w, oq_publish_write_json);
	assert_string_equal(w->buf, whole);
	w->doc = d;
	oq_pred_nodes_kept_free(&k);
	free(part);
	free(whole);
}

static void test_json_no_policy_no_ports(void **state)
{
	struct world *w = *state;

	publish_world_predict(w);
	w->doc.policy_path = NULL;
	w->doc.policy_in_force = false;
	w->doc.policy_load_success = false;
	w->doc.policy_loaded_at = 0;
	w->doc.classes = NULL;
	w->doc.counts = NULL;
	publish_world_render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(w->buf, "\"path\": null, \"hash\": null, "
				       "\"in_force\": false, \"load_success\":"
				       " false, \"loaded_at\": null, "
				       "\"loaded_at_epoch\": null"));
	assert_non_null(strstr(w->buf, "\"classes\": [],\n \"nodes\": []}"));
}

/* The last rejected edit, in both documents: path, hash, when, its first
 * error (escaped as each format wants); none: null and no sample. */
static void test_rejected_edit_published(void **state)
{
	struct world *w = *state;
	char err[512];

	publish_world_predict(w);
	publish_world_render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(w->buf,
			       "\"loads_failed\": 1, \"restored_from\": null, "
			       "\"rejected\": null, \"opensm_parse\": null}"));
	publish_world_render(w, oq_publish_write_prom);
	assert_null(strstr(w->buf, "osmqos_policy_rejected_info{"));
	assert_non_null(
		strstr(w->buf, "osmqos_policy_rejected_timestamp_seconds 0\n"));

	w->doc.rejected_path = "/etc/opensm/qos-policy.conf";
	w->doc.rejected_hash = 0xfedcba9876543210ull;
	w->doc.rejected_at = 1700000001;
	w->doc.rejected_error = "/etc/opensm/qos-policy.conf:3:5: error: "
				"unknown keyword 'qos-levle' \"x\"";
	publish_world_render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(
		w->buf,
		"\"rejected\": {\"path\": \"/etc/opensm/qos-policy.conf\", "
		"\"hash\": \"0xfedcba9876543210\", \"at\": "
		"\"2023-11-14T22:13:21Z\", \"at_epoch\": 1700000001, "
		"\"error\": \"/etc/opensm/qos-policy.conf:3:5: error: "
		"unknown keyword 'qos-levle' \\\"x\\\"\", \"fix\": null}, "
		"\"opensm_parse\": null}"));
	publish_world_render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	assert_non_null(strstr(
		w->buf, "osmqos_policy_rejected_info{path=\"/etc/opensm/"
			"qos-policy.conf\",hash=\"0xfedcba9876543210\",error=\""
			"/etc/opensm/qos-policy.conf:3:5: error: unknown "
			"keyword 'qos-levle' \\\"x\\\"\",fix=\"\"} 1\n"));
	assert_non_null(strstr(
		w->buf,
		"osmqos_policy_rejected_timestamp_seconds 1700000001\n"));

	/* A valid file the plugin's setup refuses: what to change. */
	w->doc.rejected_fix = "drop opensm_policy=direct and restart opensm";
	publish_world_render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(w->buf, "\"fix\": \"drop opensm_policy=direct "
				       "and restart opensm\"}"));
	publish_world_render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	assert_non_null(strstr(w->buf, ",fix=\"drop opensm_policy=direct and "
				       "restart opensm\"} 1\n"));
}

/* The policy in force put back at start: the copy it came from and the
 * file it was written for, in both documents (the file unknown: null,
 * an empty label); none: null and no sample. */
static void test_restored_policy_published(void **state)
{
	struct world *w = *state;
	char err[512];

	publish_world_predict(w);
	publish_world_render(w, oq_publish_write_prom);
	assert_null(strstr(w->buf, "osmqos_policy_restored_info{"));
	assert_non_null(strstr(w->buf, "# TYPE osmqos_policy_restored_info "
				       "gauge\n"));

	w->doc.restored_from = "/var/cache/opensm/osmqos-policy-in-force.conf";
	w->doc.restored_for = "/etc/opensm/\"old\".conf";
	publish_world_render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(
		w->buf, "\"restored_from\": {\"path\": \"/var/cache/opensm/"
			"osmqos-policy-in-force.conf\", \"written_for\": "
			"\"/etc/opensm/\\\"old\\\".conf\"}, \"rejected\""));
	publish_world_render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	assert_non_null(strstr(
		w->buf, "osmqos_policy_restored_info{path=\"/var/cache/opensm/"
			"osmqos-policy-in-force.conf\",written_for=\"/etc/"
			"opensm/\\\"old\\\".conf\"} 1\n"));

	w->doc.restored_for = NULL;
	publish_world_render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(w->buf, "\"written_for\": null}"));
	publish_world_render(w, oq_publish_write_prom);
	assert_non_null(strstr(w->buf, "written_for=\"\"} 1\n"));

	/* No policy in force: nothing restored is said. */
	w->doc.policy_in_force = false;
	publish_world_render(w, oq_publish_write_prom);
	assert_null(strstr(w->buf, "osmqos_policy_restored_info{"));
}

/* OpenSM's own parse of the file it reads, in both documents: not looked
 * at (null, no sample, timestamp 0), taken (refused false, 0), refused
 * (true, 1, since when). */
static void test_opensm_parse_published(void **state)
{
	struct world *w = *state;
	char err[512];

	publish_world_predict(w);
	publish_world_render(w, oq_publish_write_prom);
	assert_null(strstr(w->buf, "osmqos_policy_opensm_refused{"));
	assert_non_null(strstr(w->buf, "# TYPE osmqos_policy_opensm_refused "
				       "gauge\n"));
	assert_non_null(strstr(
		w->buf, "osmqos_policy_opensm_refused_timestamp_seconds 0\n"));

	w->doc.opensm_path = "/var/cache/opensm/\"copy\".conf";
	w->doc.opensm_refused = false;
	w->doc.opensm_refused_since = 1700000001;
	publish_world_render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(
		w->buf, "\"opensm_parse\": {\"path\": \"/var/cache/opensm/"
			"\\\"copy\\\".conf\", \"refused\": false, "
			"\"refused_since\": null, \"refused_since_epoch\": "
			"null}}"));
	publish_world_render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	assert_non_null(strstr(w->buf, "osmqos_policy_opensm_refused{path=\""
				       "/var/cache/opensm/\\\"copy\\\".conf\"} "
				       "0\n"));
	assert_non_null(strstr(
		w->buf, "osmqos_policy_opensm_refused_timestamp_seconds 0\n"));

	w->doc.opensm_refused = true;
	publish_world_render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(
		w->buf, "\"refused\": true, \"refused_since\": "
			"\"2023-11-14T22:13:21Z\", \"refused_since_epoch\": "
			"1700000001}}"));
	publish_world_render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	assert_non_null(strstr(w->buf, "/var/cache/opensm/\\\"copy\\\".conf\"} "
				       "1\n"));
	assert_non_null(strstr(
		w->buf,
		"osmqos_policy_opensm_refused_timestamp_seconds 1700000001\n"));
}

/* ---- Prometheus -------------------------------------------------------- */

static void test_prom_document(void **state)
{
	struct world *w = *state;
	char err[512], line[512];
	long n;
	int k;

	oq_publish_count_answer(&w->ctr, "storage");
	oq_publish_count_answer(&w->ctr, "storage");
	oq_publish_count_answer(&w->ctr, "we\"ird\\level\n");
	oq_publish_count_answer(&w->ctr, NULL);
	for (k = 0; k < 5; k++)
		oq_publish_observe_latency(&w->ctr, 3e-6);
	oq_publish_observe_latency(&w->ctr, 1.0);
	oq_publish_set_audit_dropped(&w->ctr, 7);
	publish_world_predict(w);
	w->doc.detail_ports = true;
	publish_world_render(w, oq_publish_write_prom);
	n = oq_promcheck(w->buf, w->len, err, sizeof(err));
	if (n < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	/* 6 ports x 16 SLs x 3 per-SL families, plus the rest. */
	assert_true(n > 6 * 16 * 3);
	assert_non_null(strstr(w->buf, "osmqos_predicted_bandwidth_gbps{"
				       "node_guid=\"0x0000000000000010\",node="
				       "\"ev\\\"il\\\\x\\ny \xc3\xa9 "
				       "\xef\xbf\xbd \xef\xbf\xbd end\",port="
				       "\"1\",sl=\"0\",vl=\"0\"} "));
	{
		const struct oq_pred_class *pp =
			publish_world_class(w, &w->h2->ports[1]);

		snprintf(
			line, sizeof(line),
			"osmqos_guaranteed_bandwidth_gbps{node_guid=\"0x%016llx"
			"\",node=\"h2\",port=\"1\",sl=\"1\",vl=\"%d\"} "
			"%.6g\n",
			0x20ull, pp->pred.sl[1].vl, pp->guaranteed_gbps[1]);
		assert_non_null(strstr(w->buf, line));
	}
	assert_non_null(strstr(w->buf, "osmqos_policy_load_success 1\n"));
	assert_non_null(strstr(w->buf, "osmqos_policy_last_load_timestamp_"
				       "seconds 1699999999\n"));
	assert_non_null(strstr(w->buf, "osmqos_qos_mads_sent_total 42\n"));
	assert_non_null(strstr(w->buf, "osmqos_sa_pr_answered_total{level="
				       "\"storage\"} 2\n"));
	assert_non_null(strstr(w->buf, "osmqos_sa_pr_answered_total{level="
				       "\"we\\\"ird\\\\level\\n\"} 1\n"));
	assert_non_null(strstr(w->buf, "osmqos_sa_pr_answered_total{level="
				       "\"(none)\"} 1\n"));
	assert_non_null(strstr(w->buf, "osmqos_audit_dropped_total 7\n"));
	assert_non_null(strstr(w->buf, "osmqos_sa_decision_seconds_bucket{le="
				       "\"2.5e-06\"} 0\n"));
	assert_non_null(strstr(w->buf, "osmqos_sa_decision_seconds_bucket{le="
				       "\"5e-06\"} 5\n"));
	assert_non_null(strstr(w->buf, "osmqos_sa_decision_seconds_bucket{le="
				       "\"0.01\"} 5\n"));
	assert_non_null(strstr(w->buf, "osmqos_sa_decision_seconds_bucket{le="
				       "\"+Inf\"} 6\n"));
	assert_non_null(strstr(w->buf, "osmqos_sa_decision_seconds_count 6\n"));
	assert_non_null(strstr(w->buf, "osmqos_policy_info{path=\"/etc/opensm"
				       "/q\\\"os\\\\policy.conf\",hash="
				       "\"0x0123456789abcdef\"} 1\n"));
	assert_int_equal(publish_world_count(w->buf, "# TYPE "),
			 publish_world_count(w->buf, "# HELP "));
}

static void test_prom_without_counters_or_policy(void **state)
{
	struct world *w = *state;
	char err[512];

	publish_world_predict(w);
	w->doc.counts = NULL;
	w->doc.policy_in_force = false;
	w->doc.policy_load_success = false;
	w->doc.classes = NULL;
	publish_world_render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	assert_null(strstr(w->buf, "osmqos_policy_info{"));
	assert_non_null(strstr(w->buf, "osmqos_policy_load_success 0\n"));
	assert_non_null(strstr(w->buf, "osmqos_sa_decision_seconds_count 0\n"));
	assert_non_null(strstr(w->buf, "osmqos_port_classes 0\n"));
	assert_non_null(strstr(w->buf, "osmqos_linked_ports 0\n"));
}

/* opensm.conf's qos switch, in both files: with qos FALSE no policy is
 * loaded, and the files say why rather than only that none applies. */
static void test_qos_switch_published(void **state)
{
	struct world *w = *state;

	publish_world_predict(w);
	publish_world_render(w, oq_publish_write_prom);
	assert_non_null(strstr(w->buf, "\nosmqos_qos_enabled 1\n"));
	publish_world_render(w, oq_publish_write_json);
	assert_non_null(strstr(w->buf, "\"qos_enabled\": true, \"policy\""));
	w->doc.qos_disabled = true;
	w->doc.policy_in_force = false;
	w->doc.policy_load_success = false;
	publish_world_render(w, oq_publish_write_prom);
	assert_non_null(strstr(w->buf, "\nosmqos_qos_enabled 0\n"));
	publish_world_render(w, oq_publish_write_json);
	assert_non_null(strstr(w->buf, "\"qos_enabled\": false, \"policy\""));
}

/* The opensm.conf opensm runs with, for the CLI's live commands: its
 * path as a label, escaped; no sample when it is not known. */
static void test_opensm_conf_published(void **state)
{
	struct world *w = *state;

	publish_world_predict(w);
	w->doc.opensm_conf = "/etc/opensm/a \"b\".conf";
	publish_world_render(w, oq_publish_write_prom);
	assert_non_null(strstr(w->buf,
			       "\nosmqos_opensm_config_info{path="
			       "\"/etc/opensm/a \\\"b\\\".conf\"} 1\n"));
	w->doc.opensm_conf = NULL;
	publish_world_render(w, oq_publish_write_prom);
	assert_null(strstr(w->buf, "osmqos_opensm_config_info{"));
}

/* The file in two parts: counters and timestamp live, the rest per sweep;
 * together they are the whole file, and a refresh that renders the live
 * part from a doc holding only counters (as the refresher's does) gives
 * the same bytes. */
static void test_prom_live_and_sweep_parts(void **state)
{
	struct world *w = *state;
	struct oq_publish_doc live = {0};
	char *whole, *both, err[512];
	size_t wlen, llen;

	oq_publish_count_answer(&w->ctr, "storage");
	oq_publish_observe_latency(&w->ctr, 3e-6);
	publish_world_predict(w);
	publish_world_render(w, oq_publish_write_prom);
	whole = w->buf;
	wlen = w->len;
	w->buf = NULL;
	live.now = w->doc.now;
	live.mads_total = w->doc.mads_total;
	live.counts = w->doc.counts;
	w->doc = live;
	publish_world_render(w, oq_publish_write_prom_live);
	llen = w->len;
	both = w->buf;
	w->buf = NULL;
	assert_true(llen < wlen);
	assert_memory_equal(both, whole, llen);
	assert_null(strstr(both, "osmqos_sweep "));
	assert_null(strstr(both, "osmqos_policy_"));
	assert_null(strstr(both, "_bandwidth_gbps"));
	assert_non_null(strstr(both, "osmqos_sa_pr_answered_total{level="
				     "\"storage\"} 1\n"));
	assert_non_null(strstr(both, "osmqos_publish_timestamp_seconds "));
	/* The rest is the sweep part, and alone it passes the checker. */
	publish_world_predict(w);
	publish_world_render(w, oq_publish_write_prom_sweep);
	assert_int_equal(w->len, wlen - llen);
	assert_memory_equal(w->buf, whole + llen, w->len);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck (sweep part): %s", err);
	if (oq_promcheck(both, llen, err, sizeof(err)) < 0)
		fail_msg("promcheck (live part): %s", err);
	assert_null(strstr(w->buf, "osmqos_sa_"));
	assert_null(strstr(w->buf, "osmqos_audit_"));
	free(whole);
	free(both);
}

/* A writer error reaches the caller. */
static void test_writers_report_stream_errors(void **state)
{
	struct world *w = *state;
	FILE *f = fopen("/dev/full", "w");

	if (!f)
		skip();
	publish_world_predict(w);
	setvbuf(f, NULL, _IONBF, 0);
	assert_int_equal(oq_publish_write_json(f, &w->doc), -1);
	clearerr(f);
	assert_int_equal(oq_publish_write_prom(f, &w->doc), -1);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_predictions_match_model,
						publish_world_setup,
						publish_world_teardown),
		cmocka_unit_test_setup_teardown(
			test_guaranteed_is_min_over_inputs, publish_world_setup,
			publish_world_teardown),
		cmocka_unit_test_setup_teardown(
			test_prom_dropped_from_one_input, publish_world_setup,
			publish_world_teardown),
		cmocka_unit_test_setup_teardown(test_json_document,
						publish_world_setup,
						publish_world_teardown),
		cmocka_unit_test_setup_teardown(
			test_json_kept_parts_without_classes,
			publish_world_setup, publish_world_teardown),
		cmocka_unit_test_setup_teardown(test_json_no_policy_no_ports,
						publish_world_setup,
						publish_world_teardown),
		cmocka_unit_test_setup_teardown(test_rejected_edit_published,
						publish_world_setup,
						publish_world_teardown),
		cmocka_unit_test_setup_teardown(test_opensm_parse_published,
						publish_world_setup,
						publish_world_teardown),
		cmocka_unit_test_setup_teardown(test_restored_policy_published,
						publish_world_setup,
						publish_world_teardown),
		cmocka_unit_test_setup_teardown(test_prom_document,
						publish_world_setup,
						publish_world_teardown),
		cmocka_unit_test_setup_teardown(
			test_prom_without_counters_or_policy,
			publish_world_setup, publish_world_teardown),
		cmocka_unit_test_setup_teardown(test_qos_switch_published,
						publish_world_setup,
						publish_world_teardown),
		cmocka_unit_test_setup_teardown(test_opensm_conf_published,
						publish_world_setup,
						publish_world_teardown),
		cmocka_unit_test_setup_teardown(test_prom_live_and_sweep_parts,
						publish_world_setup,
						publish_world_teardown),
		cmocka_unit_test_setup_teardown(
			test_writers_report_stream_errors, publish_world_setup,
			publish_world_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
