// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the published documents: node descriptions are raw fabric bytes and
 * QoS level names come from the policy, so for any of them the JSON must
 * be valid JSON and the Prometheus text must pass the strict checker.
 * Input: two 64-byte descriptions, a level name, latency bytes, tables
 * bytes (SL2VL rows and a VLHighLimit).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "documents/documents.h"
#include "publish_jsoncheck.h"
#include "publish_promcheck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
	const uint8_t *p;
	size_t n;
};

static void take(struct input *in, void *dst, size_t len)
{
	size_t k = in->n < len ? in->n : len;

	memset(dst, 0, len);
	memcpy(dst, in->p, k);
	in->p += k;
	in->n -= k;
}

static struct oq_node *node(struct oq_fabric *f, enum oq_node_type t,
			    uint64_t guid, const char *desc, unsigned int n)
{
	struct oq_node *nd = oq_fabric_add_node(f, t, guid, desc, (uint8_t)n);
	unsigned int i;

	for (i = t == OQ_NODE_SWITCH ? 0 : 1; nd && i <= n; i++) {
		struct oq_port *p = &nd->ports[i];

		p->guid = guid + (t == OQ_NODE_SWITCH ? 0 : i);
		p->lid = (uint16_t)(guid & 0xff);
		p->vl_cap = p->oper_vls = 8;
		p->vlarb_high_cap = p->vlarb_low_cap = 8;
		p->sl2vl_cap = true;
		p->mtu_cap = 4;
		p->width = 4;
		p->speed = OQ_SPEED_EDR;
		if (t != OQ_NODE_SWITCH)
			p->present = true;
	}
	return nd;
}

static void render(int (*fn)(FILE *, const struct oq_publish_doc *),
		   const struct oq_publish_doc *d, bool json)
{
	char *buf = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	if (fn(f, d))
		abort();
	fclose(f);
	if (json && !oq_jsoncheck(buf, len)) {
		fprintf(stderr, "invalid JSON:\n%s\n", buf);
		abort();
	}
	if (!json && oq_promcheck(buf, len, err, sizeof(err)) < 0) {
		fprintf(stderr, "promcheck: %s\n%s\n", err, buf);
		abort();
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = {data, size};
	char d1[65], d2[65], level[80], path[40];
	uint8_t lat[4], rows[3][16], vlhl;
	struct oq_publish_counters ctr;
	struct oq_publish_counts counts;
	struct oq_pred_classes classes = {0};
	struct oq_publish_level lv;
	struct oq_predict_opts o;
	struct oq_publish_doc doc;
	struct oq_fabric_tables tables = {0};
	struct oq_templates tmpl;
	struct oq_fabric *f;
	struct oq_node *sw, *a, *b;
	size_t i;
	unsigned int r, s;

	take(&in, d1, 64);
	take(&in, d2, 64);
	d1[64] = d2[64] = '\0';
	take(&in, level, sizeof(level) - 1);
	level[sizeof(level) - 1] = '\0';
	take(&in, lat, sizeof(lat));
	take(&in, rows, sizeof(rows));
	take(&in, &vlhl, 1);
	take(&in, path, sizeof(path) - 1);
	path[sizeof(path) - 1] = '\0';

	f = oq_fabric_new();
	if (!f)
		return 0;
	sw = node(f, OQ_NODE_SWITCH, 0x100, d1, 3);
	a = node(f, OQ_NODE_CA, 0x200, d2, 1);
	b = node(f, OQ_NODE_CA, 0x300, d1, 1);
	if (!sw || !a || !b)
		goto out;
	oq_fabric_link(&a->ports[1], &sw->ports[1]);
	oq_fabric_link(&b->ports[1], &sw->ports[2]);
	sw->ports[3].present = true; /* down */
	if (oq_fabric_finalize(f, NULL))
		goto out;
	oq_templates_default(&tmpl);
	if (oq_tables_compile(NULL, f, &tmpl, &tables, NULL))
		goto out;
	/* Arbitrary SL2VL rows (VL 0..15) and VLHighLimit on the switch. */
	for (i = 0; i < tables.n; i++) {
		struct oq_port_tables *t = &tables.ports[i];
		union oq_sl2vl_scratch sc;

		if (t->port->node != sw)
			continue;
		t->vl_high_limit = vlhl;
		if (!t->sl2vl)
			continue;
		memcpy(sc.row, t->sl2vl, 16 * (size_t)t->n_sl2vl);
		for (r = 0; r < t->n_sl2vl && r < 3; r++)
			for (s = 0; s < 16; s++)
				sc.row[r][s] = rows[r][s] & 15;
		if (oq_port_tables_set_sl2vl(&tables, t,
					     (const uint8_t(*)[16])sc.row,
					     t->n_sl2vl))
			goto out;
	}
	oq_predict_opts_init(&o);
	if (oq_pred_classes_build(f, &tables, &o, NULL, &classes))
		goto out;
	/* A guarantee (the SL's VL with every VL busy) and a prediction
	 * (all SLs busy) are never above the ceiling (the SL alone on the
	 * link). */
	for (i = 0; i < classes.n; i++)
		for (s = 0; s < 16; s++) {
			const struct oq_pred_class *c = &classes.v[i];
			double g = c->guaranteed_gbps[s],
			       top = oq_frac_double(c->guar.ceiling[s]) *
				     c->pred.rate_gbps;

			if (!(g >= 0 && g <= top * (1 + 1e-12)))
				abort();
			if (!(c->pred.sl[s].gbps <= top * (1 + 1e-12)))
				abort();
		}
	/* One level, with a bandwidth intent on some inputs (every field
	 * set: the writers read them all). */
	memset(&lv, 0, sizeof(lv));
	lv.name = level;
	lv.sl = vlhl & 15;
	lv.intent_bp = vlhl & 0x10 ? (int)(vlhl >> 5) * 1250 + 1 : -1;
	lv.high = vlhl & 0x20;
	lv.sl_need_bp = lv.intent_bp > 0 ? (uint32_t)lv.intent_bp : 0;

	oq_publish_counters_init(&ctr);
	oq_publish_count_answer(&ctr, level);
	oq_publish_count_answer(&ctr, d1);
	oq_publish_count_answer(&ctr, NULL);
	for (i = 0; i < sizeof(lat); i++)
		oq_publish_observe_latency(&ctr, lat[i] * 1e-5);
	oq_publish_counters_read(&ctr, &counts);

	memset(&doc, 0, sizeof(doc));
	doc.version = "fuzz";
	doc.sweep = 1;
	doc.now.tv_sec = 1700000000;
	doc.policy_path = path;
	doc.policy_in_force = vlhl & 1;
	doc.policy_loaded_at = vlhl;
	doc.fabric = f;
	doc.tables = &tables;
	doc.classes = &classes;
	doc.levels = &lv;
	doc.n_levels = 1;
	doc.intent_ports_missed =
		oq_publish_intent_stats(&lv, 1, &classes, NULL);
	doc.detail_ports = vlhl & 2;
	doc.counts = &counts;
	render(oq_publish_write_json, &doc, true);
	render(oq_publish_write_prom, &doc, false);
	oq_publish_counters_destroy(&ctr);
out:
	oq_pred_classes_free(&classes);
	oq_fabric_tables_free(&tables);
	oq_fabric_free(f);
	return 0;
}
