// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the published documents (plugin/documents/publish_json.c,
 * publish_prom.c, publish_prom_fabric.c) on a small fabric whose node
 * descriptions carry quotes, backslashes, newlines, control bytes and
 * invalid UTF-8.  The JSON is checked with the strict JSON validator of
 * publish_jsoncheck.c (itself tested, with the escaping, in
 * test_publish_escape.c), the Prometheus text with the strict checker in
 * publish_promcheck.c; the numbers against direct model calls.
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

/* ---- fixture ----------------------------------------------------------- */

/* Quote, backslash, newline, U+00E9, a control byte, invalid UTF-8. */
#define EVIL_DESC "ev\"il\\x\ny \xc3\xa9 \x01 \xff end"

struct world {
	struct oq_fabric *f;
	struct oq_node *sw, *h1, *h2, *h3;
	struct oq_templates t;
	struct oq_fabric_tables tables;
	struct oq_pred_classes classes;
	struct oq_publish_counters ctr;
	struct oq_publish_counts counts;
	struct oq_publish_doc doc;
	char *buf;
	size_t len;
};

/* sw (4 ports): 1-h1 (evil description), 2-h2, 3-h3; port 4 down. */
static int setup(void **state)
{
	struct world *w = calloc(1, sizeof(*w));

	assert_non_null(w);
	w->f = oq_fabric_new();
	w->sw = fx_switch(w->f, 0x100, "sw", 4, 1);
	w->h1 = fx_ca(w->f, 0x10, EVIL_DESC, 1, 10);
	w->h2 = fx_ca(w->f, 0x20, "h2", 1, 20);
	w->h3 = fx_ca(w->f, 0x30, "h3", 1, 30);
	oq_fabric_link(&w->h1->ports[1], &w->sw->ports[1]);
	oq_fabric_link(&w->h2->ports[1], &w->sw->ports[2]);
	oq_fabric_link(&w->h3->ports[1], &w->sw->ports[3]);
	assert_int_equal(oq_fabric_finalize(w->f, NULL), 0);
	oq_templates_default(&w->t);
	assert_int_equal(oq_tables_compile(NULL, w->f, &w->t, &w->tables, NULL),
			 0);
	oq_publish_counters_init(&w->ctr);
	*state = w;
	return 0;
}

static int teardown(void **state)
{
	struct world *w = *state;

	free(w->buf);
	oq_pred_classes_free(&w->classes);
	oq_publish_counters_destroy(&w->ctr);
	oq_fabric_tables_free(&w->tables);
	oq_fabric_free(w->f);
	free(w);
	return 0;
}

static const struct oq_publish_level levels[] = {
	{.name = "storage", .sl = 1, .intent_bp = -1},
	{.name = "bulk", .sl = 0, .intent_bp = -1},
	{.name = "also-sl1", .sl = 1, .intent_bp = -1},
};

static void predict(struct world *w)
{
	struct oq_predict_opts o;

	oq_pred_classes_free(&w->classes);
	oq_predict_opts_init(&o);
	assert_int_equal(
		oq_pred_classes_build(w->f, &w->tables, &o, NULL, &w->classes),
		0);
	memset(&w->doc, 0, sizeof(w->doc));
	w->doc.version = "0.1.0";
	w->doc.sweep = 3;
	w->doc.sweeps = 4;
	w->doc.now.tv_sec = 1700000000;
	w->doc.now.tv_nsec = 250000000;
	w->doc.policy_path = "/etc/opensm/q\"os\\policy.conf";
	w->doc.policy_in_force = true;
	w->doc.policy_load_success = true;
	w->doc.policy_hash = 0x0123456789abcdefull;
	w->doc.policy_loaded_at = 1699999999;
	w->doc.loads_ok = 2;
	w->doc.loads_failed = 1;
	w->doc.mads_total = 42;
	w->doc.fabric = w->f;
	w->doc.tables = &w->tables;
	w->doc.classes = &w->classes;
	w->doc.levels = levels;
	w->doc.n_levels = sizeof(levels) / sizeof(levels[0]);
	oq_publish_counters_read(&w->ctr, &w->counts);
	w->doc.counts = &w->counts;
}

static void render(struct world *w,
		   int (*fn)(FILE *, const struct oq_publish_doc *))
{
	FILE *f;

	free(w->buf);
	w->buf = NULL;
	f = open_memstream(&w->buf, &w->len);
	assert_non_null(f);
	assert_int_equal(fn(f, &w->doc), 0);
	assert_int_equal(fclose(f), 0);
}

static const struct oq_pred_class *find_pub(const struct world *w,
					    const struct oq_port *p)
{
	const struct oq_pred_class *c = oq_pred_class_of(&w->classes, p->index);

	if (!c)
		fail_msg("port not published");
	return c;
}

static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;
	const char *p = hay;

	while ((p = strstr(p, needle))) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/* ---- the numbers ------------------------------------------------------- */

static void test_predictions_match_model(void **state)
{
	struct world *w = *state;
	struct oq_predict_opts o;
	struct oq_port_pred pp;
	size_t i, k = 0;
	unsigned int s;

	predict(w);
	/* Linked ports only: 3 CA ports and 3 switch ports. */
	assert_int_equal(w->classes.n_classified, 6);
	oq_predict_opts_init(&o);
	for (i = 0; i < w->f->n_ports; i++) {
		const struct oq_port *p = w->f->ports[i];
		const struct oq_pred_class *c;

		if (!p->present || !p->peer) {
			assert_null(oq_pred_class_of(&w->classes, i));
			continue;
		}
		c = find_pub(w, p);
		assert_int_equal(
			oq_predict_port(&w->tables.ports[i], -1.0, &o, &pp), 0);
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

	predict(w);
	pub = find_pub(w, &w->sw->ports[1]);
	for (in = 0; in <= 3; in++)
		for (s = 0; s < 16 && in != 1; s++)
			if (t->sl2vl[in][s] < 15)
				busy |= (uint16_t)(1u << t->sl2vl[in][s]);
	oq_arb_config_init(&cfg, &t->vlarb_high, &t->vlarb_low,
			   t->vl_high_limit, oq_port_mtu_bytes(t->port));
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
	predict(w);
	pub = find_pub(w, &w->sw->ports[1]);
	assert_true(pub->pred.sl[3].gbps > 0);
	w->doc.detail_ports = true;
	render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	assert_non_null(
		strstr(w->buf, "osmqos_sl_dropped_ports{sl=\"3\"} 1\n"));
	assert_non_null(
		strstr(w->buf, "osmqos_sl_dropped_ports{sl=\"5\"} 0\n"));
	snprintf(line, sizeof(line),
		 "osmqos_class_guaranteed_bandwidth_gbps{class=\"%u\",sl=\"3\","
		 "vl=\"mixed\"} 0\n",
		 w->classes.of_port[w->sw->ports[1].index]);
	assert_non_null(strstr(w->buf, line));
	snprintf(line, sizeof(line),
		 "osmqos_predicted_bandwidth_gbps{node_guid=\"0x%016llx\","
		 "node=\"sw\",port=\"1\",sl=\"3\",vl=\"mixed\"} %.6g\n",
		 0x100ull, pub->pred.sl[3].gbps);
	assert_non_null(strstr(w->buf, line));
	/* The class's two series and the port's three; every other port
	 * carries SL 3 on its VL. */
	assert_int_equal(count_of(w->buf, "sl=\"3\",vl=\"mixed\"}"), 5);
}

/* ---- JSON --------------------------------------------------------------- */

static void test_json_document(void **state)
{
	struct world *w = *state;
	char want[512];

	predict(w);
	render(w, oq_publish_write_json);
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
		 w->classes.of_port[w->h1->ports[1].index]);
	assert_non_null(strstr(w->buf, want));
	assert_non_null(strstr(w->buf, "\"link\": \"4xQDR\", \"width\": 4, "
				       "\"speed\": \"QDR\", \"rate_gbps\": "
				       "32, \"mtu\": 4096"));
	/* Each class's 16 SLs once; each port once, by reference. */
	assert_int_equal(count_of(w->buf, "\"predicted_gbps\": "),
			 16 * w->classes.n);
	assert_int_equal(count_of(w->buf, "\"guaranteed_gbps\": "),
			 16 * w->classes.n);
	assert_true(w->classes.n < 6);
	assert_int_equal(count_of(w->buf, "\"lmc\": "), 6);
	assert_int_equal(count_of(w->buf, "\"node_type\": "), 4);
	/* h1's SL 5, formatted exactly like osmqos predict --json. */
	{
		const struct oq_pred_class *pp = find_pub(w, &w->h1->ports[1]);
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

static void test_json_no_policy_no_ports(void **state)
{
	struct world *w = *state;

	predict(w);
	w->doc.policy_path = NULL;
	w->doc.policy_in_force = false;
	w->doc.policy_load_success = false;
	w->doc.policy_loaded_at = 0;
	w->doc.classes = NULL;
	w->doc.counts = NULL;
	render(w, oq_publish_write_json);
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

	predict(w);
	render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(w->buf,
			       "\"loads_failed\": 1, \"restored_from\": null, "
			       "\"rejected\": null, \"opensm_parse\": null}"));
	render(w, oq_publish_write_prom);
	assert_null(strstr(w->buf, "osmqos_policy_rejected_info{"));
	assert_non_null(
		strstr(w->buf, "osmqos_policy_rejected_timestamp_seconds 0\n"));

	w->doc.rejected_path = "/etc/opensm/qos-policy.conf";
	w->doc.rejected_hash = 0xfedcba9876543210ull;
	w->doc.rejected_at = 1700000001;
	w->doc.rejected_error = "/etc/opensm/qos-policy.conf:3:5: error: "
				"unknown keyword 'qos-levle' \"x\"";
	render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(
		w->buf,
		"\"rejected\": {\"path\": \"/etc/opensm/qos-policy.conf\", "
		"\"hash\": \"0xfedcba9876543210\", \"at\": "
		"\"2023-11-14T22:13:21Z\", \"at_epoch\": 1700000001, "
		"\"error\": \"/etc/opensm/qos-policy.conf:3:5: error: "
		"unknown keyword 'qos-levle' \\\"x\\\"\", \"fix\": null}, "
		"\"opensm_parse\": null}"));
	render(w, oq_publish_write_prom);
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
	render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(w->buf, "\"fix\": \"drop opensm_policy=direct "
				       "and restart opensm\"}"));
	render(w, oq_publish_write_prom);
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

	predict(w);
	render(w, oq_publish_write_prom);
	assert_null(strstr(w->buf, "osmqos_policy_restored_info{"));
	assert_non_null(strstr(w->buf, "# TYPE osmqos_policy_restored_info "
				       "gauge\n"));

	w->doc.restored_from = "/var/cache/opensm/osmqos-policy-in-force.conf";
	w->doc.restored_for = "/etc/opensm/\"old\".conf";
	render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(
		w->buf, "\"restored_from\": {\"path\": \"/var/cache/opensm/"
			"osmqos-policy-in-force.conf\", \"written_for\": "
			"\"/etc/opensm/\\\"old\\\".conf\"}, \"rejected\""));
	render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	assert_non_null(strstr(
		w->buf, "osmqos_policy_restored_info{path=\"/var/cache/opensm/"
			"osmqos-policy-in-force.conf\",written_for=\"/etc/"
			"opensm/\\\"old\\\".conf\"} 1\n"));

	w->doc.restored_for = NULL;
	render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(w->buf, "\"written_for\": null}"));
	render(w, oq_publish_write_prom);
	assert_non_null(strstr(w->buf, "written_for=\"\"} 1\n"));

	/* No policy in force: nothing restored is said. */
	w->doc.policy_in_force = false;
	render(w, oq_publish_write_prom);
	assert_null(strstr(w->buf, "osmqos_policy_restored_info{"));
}

/* OpenSM's own parse of the file it reads, in both documents: not looked
 * at (null, no sample, timestamp 0), taken (refused false, 0), refused
 * (true, 1, since when). */
static void test_opensm_parse_published(void **state)
{
	struct world *w = *state;
	char err[512];

	predict(w);
	render(w, oq_publish_write_prom);
	assert_null(strstr(w->buf, "osmqos_policy_opensm_refused{"));
	assert_non_null(strstr(w->buf, "# TYPE osmqos_policy_opensm_refused "
				       "gauge\n"));
	assert_non_null(strstr(
		w->buf, "osmqos_policy_opensm_refused_timestamp_seconds 0\n"));

	w->doc.opensm_path = "/var/cache/opensm/\"copy\".conf";
	w->doc.opensm_refused = false;
	w->doc.opensm_refused_since = 1700000001;
	render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(
		w->buf, "\"opensm_parse\": {\"path\": \"/var/cache/opensm/"
			"\\\"copy\\\".conf\", \"refused\": false, "
			"\"refused_since\": null, \"refused_since_epoch\": "
			"null}}"));
	render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s\n%s", err, w->buf);
	assert_non_null(strstr(w->buf, "osmqos_policy_opensm_refused{path=\""
				       "/var/cache/opensm/\\\"copy\\\".conf\"} "
				       "0\n"));
	assert_non_null(strstr(
		w->buf, "osmqos_policy_opensm_refused_timestamp_seconds 0\n"));

	w->doc.opensm_refused = true;
	render(w, oq_publish_write_json);
	assert_true(oq_jsoncheck(w->buf, w->len));
	assert_non_null(strstr(
		w->buf, "\"refused\": true, \"refused_since\": "
			"\"2023-11-14T22:13:21Z\", \"refused_since_epoch\": "
			"1700000001}}"));
	render(w, oq_publish_write_prom);
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
	predict(w);
	w->doc.detail_ports = true;
	render(w, oq_publish_write_prom);
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
		const struct oq_pred_class *pp = find_pub(w, &w->h2->ports[1]);

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
	assert_int_equal(count_of(w->buf, "# TYPE "),
			 count_of(w->buf, "# HELP "));
}

/* Intents beside what the tables guarantee: the least share over the
 * linked ports and the ports below the intent, from the model directly. */
static void test_intents_published(void **state)
{
	struct world *w = *state;
	struct oq_publish_level lv[3];
	double min_share[2] = {1.0, 1.0};
	size_t missed[2] = {0, 0}, below90 = 0, below1 = 0, any = 0, i, total;
	char err[512], line[256];
	const int bp[2] = {500, 6000}; /* met, and missed somewhere */

	predict(w);
	memcpy(lv, levels, sizeof(lv));
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
	render(w, oq_publish_write_prom);
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
	render(w, oq_publish_write_json);
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
	w->doc.levels = levels;
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
	predict(w);
	render(w, oq_publish_write_prom);
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s", err);
	assert_non_null(strstr(w->buf, "osmqos_sa_pr_answered_total{level="
				       "\"bad\xef\xbf\xbd\"} 3\n"));
	assert_non_null(strstr(w->buf, "osmqos_sa_pr_answered_total{level="
				       "\"(none)\"} 2\n"));
	assert_int_equal(count_of(w->buf, "osmqos_sa_pr_answered_total{"), 2);
}

/* A level name of 300 bytes that each render as three (invalid UTF-8
 * becomes U+FFFD) is written whole, never cut, in every per-level
 * family, intents included. */
static void test_prom_longest_level_label(void **state)
{
	struct world *w = *state;
	struct oq_publish_level lv[3];
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
	predict(w);
	memcpy(lv, levels, sizeof(lv));
	lv[0].name = name;
	lv[0].intent_bp = 500;
	lv[0].sl_need_bp = 500;
	w->doc.levels = lv;
	w->doc.intent_ports_missed =
		oq_publish_intent_stats(lv, 3, &w->classes);
	render(w, oq_publish_write_prom);
	w->doc.levels = levels;
	if (oq_promcheck(w->buf, w->len, err, sizeof(err)) < 0)
		fail_msg("promcheck: %s", err);
	assert_non_null(strstr(w->buf, "osmqos_level_intent_ratio"));
	/* In the answered, guaranteed and intent families alike. */
	assert_true(count_of(w->buf, want) >= 4);
	assert_non_null(strstr(w->buf, "osmqos_sa_pr_answered_total"));
}

/* The families of a level, by the label value of each series. */
static size_t level_series(const char *buf, const char *family,
			   const char *label)
{
	char needle[512];

	snprintf(needle, sizeof(needle), "\n%s{level=\"%s\"", family, label);
	return count_of(buf, needle);
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
	struct oq_publish_level lv[3];
	char a[128], b[128], err[512], line[512];
	size_t i;

	memset(a, 'p', 70);
	strcpy(a + 70, "_storage");
	memset(b, 'p', 70);
	strcpy(b + 70, "_mpi");
	oq_publish_count_answer(&w->ctr, a);
	oq_publish_count_answer(&w->ctr, a);
	oq_publish_count_answer(&w->ctr, b);
	predict(w);
	memcpy(lv, levels, sizeof(lv));
	lv[0].name = a;
	lv[0].intent_bp = lv[0].sl_need_bp = 3000;
	lv[2].name = b;
	lv[2].sl = 2;
	lv[2].intent_bp = lv[2].sl_need_bp = 2000;
	w->doc.levels = lv;
	w->doc.intent_ports_missed =
		oq_publish_intent_stats(lv, 3, &w->classes);
	render(w, oq_publish_write_prom);
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
	assert_int_equal(count_of(w->buf, "{level=\"pppp"), 2 + 2 * (3 + 5));
	render(w, oq_publish_write_json);
	w->doc.levels = levels;
	if (!oq_jsoncheck(w->buf, w->len))
		fail_msg("not JSON:\n%s", w->buf);
	snprintf(line, sizeof(line), "{\"level\": \"%s\", \"sl\": 1,", a);
	assert_non_null(strstr(w->buf, line));
	snprintf(line, sizeof(line), "{\"level\": \"%s\", \"sl\": 2,", b);
	assert_non_null(strstr(w->buf, line));
}

static void test_prom_without_counters_or_policy(void **state)
{
	struct world *w = *state;
	char err[512];

	predict(w);
	w->doc.counts = NULL;
	w->doc.policy_in_force = false;
	w->doc.policy_load_success = false;
	w->doc.classes = NULL;
	render(w, oq_publish_write_prom);
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

	predict(w);
	render(w, oq_publish_write_prom);
	assert_non_null(strstr(w->buf, "\nosmqos_qos_enabled 1\n"));
	render(w, oq_publish_write_json);
	assert_non_null(strstr(w->buf, "\"qos_enabled\": true, \"policy\""));
	w->doc.qos_disabled = true;
	w->doc.policy_in_force = false;
	w->doc.policy_load_success = false;
	render(w, oq_publish_write_prom);
	assert_non_null(strstr(w->buf, "\nosmqos_qos_enabled 0\n"));
	render(w, oq_publish_write_json);
	assert_non_null(strstr(w->buf, "\"qos_enabled\": false, \"policy\""));
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
	predict(w);
	render(w, oq_publish_write_prom);
	whole = w->buf;
	wlen = w->len;
	w->buf = NULL;
	live.now = w->doc.now;
	live.mads_total = w->doc.mads_total;
	live.counts = w->doc.counts;
	w->doc = live;
	render(w, oq_publish_write_prom_live);
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
	predict(w);
	render(w, oq_publish_write_prom_sweep);
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
	predict(w);
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
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_guaranteed_is_min_over_inputs, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_prom_dropped_from_one_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_json_document, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_json_no_policy_no_ports,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_rejected_edit_published,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_opensm_parse_published,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_restored_policy_published,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_prom_document, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_prom_merges_indistinct_levels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prom_longest_level_label,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_levels_sharing_a_long_prefix, setup, teardown),
		cmocka_unit_test_setup_teardown(test_intents_published, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_prom_without_counters_or_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_qos_switch_published,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_prom_live_and_sweep_parts,
						setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_writers_report_stream_errors, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
