// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos.prom, the fabric's numbers (docs/publish.md).  By default only
 * aggregates, so the series count depends on the policy's levels and the
 * fabric's port classes, never on its port count:
 *
 *  - per SL and per QoS level: the minimum, median and maximum guaranteed
 *    Gb/s over the linked ports, and the ports where the SL starves or is
 *    dropped (from some input: its packets from there are lost);
 *  - per port class (the OQ_PUBLISH_PROM_CLASSES largest): its port count
 *    and link, and each SL's predicted and guaranteed Gb/s.
 *
 * publish_detail=ports adds the per-port series (about 50 per port).
 * Medians are the lower median over ports, each class counted once per
 * port it holds: O(classes log classes) per SL.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "documents.h"

static void value(FILE *out, double v)
{
	if (isnan(v))
		fputs(" NaN\n", out);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", out);
	else
		fprintf(out, " %.6g\n", v);
}

static void vl_label(FILE *out, int vl)
{
	if (vl >= 0)
		fprintf(out, "%d", vl);
	else
		fputs(vl == OQ_VL_MIXED ? "mixed" : "drop", out);
}

/* ---- aggregates over the linked ports -------------------------------- */

struct sl_stats {
	bool any; /* some linked port carries the SL */
	double min, median, max;
	size_t starved, dropped;
};

struct weighted {
	double v;
	size_t n;
};

static int weighted_cmp(const void *a, const void *b)
{
	const struct weighted *x = a, *y = b;

	return (x->v > y->v) - (x->v < y->v);
}

/* The SL's guaranteed Gb/s over every classified port; w has room for
 * one entry per class. */
static void sl_stats(const struct oq_pred_classes *c, unsigned int sl,
		     struct weighted *w, struct sl_stats *st)
{
	size_t i, k = 0, total = 0, seen = 0;

	memset(st, 0, sizeof(*st));
	for (i = 0; i < c->n; i++) {
		const struct oq_pred_class *cl = &c->v[i];
		const struct oq_sl_pred *sp = &cl->pred.sl[sl];

		/* No guarantee is known where the SL2VL is not. */
		if (!sp->active || !cl->n_ports || cl->guar.unknown)
			continue;
		w[k].v = cl->guaranteed_gbps[sl];
		w[k++].n = cl->n_ports;
		total += cl->n_ports;
		if (sp->starve)
			st->starved += cl->n_ports;
		/* Dropped from some input is dropped: its packets from
		 * there are lost at this port, whatever the others do. */
		if (cl->guar.dropped & (1u << sl))
			st->dropped += cl->n_ports;
	}
	if (!k)
		return;
	qsort(w, k, sizeof(*w), weighted_cmp);
	st->any = true;
	st->min = w[0].v;
	st->max = w[k - 1].v;
	for (i = 0; i < k; i++) {
		seen += w[i].n;
		if (seen * 2 >= total) {
			st->median = w[i].v;
			break;
		}
	}
}

static void stat_rows(FILE *out, const char *name, const char *level,
		      unsigned int sl, const struct sl_stats *st)
{
	static const char *const stat[3] = {"min", "median", "max"};
	double v[3] = {st->min, st->median, st->max};
	int i;

	for (i = 0; i < 3; i++) {
		fprintf(out, "%s{", name);
		if (level)
			fprintf(out, "level=\"%s\",", level);
		fprintf(out, "sl=\"%u\",stat=\"%s\"}", sl, stat[i]);
		value(out, v[i]);
	}
}

static void level_families(FILE *out, const struct oq_publish_doc *d,
			   const struct sl_stats *st)
{
	char *labels[OQ_PUBLISH_PROM_LEVELS];
	size_t i, j, n = 0;

	oq_publish_prom_family(
		out, "osmqos_level_guaranteed_bandwidth_gbps", "gauge",
		"Guaranteed Gb/s of a QoS level's SL over the linked ports "
		"(every VL busy, MTU-size packets): minimum, median and "
		"maximum (stat).");
	for (i = 0; i < d->n_levels && n < OQ_PUBLISH_PROM_LEVELS; i++) {
		const struct oq_publish_level *l = &d->levels[i];

		if (l->sl > 15 || !st[l->sl].any)
			continue;
		/* The whole name, as every per-level family gives it;
		 * out of memory, the level is left out of this file. */
		labels[n] = oq_publish_prom_label(l->name);
		if (!labels[n])
			continue;
		/* Names that differ only in bytes a label cannot carry
		 * would give one series twice: the first one stands. */
		for (j = 0; j < n; j++)
			if (!strcmp(labels[j], labels[n]))
				break;
		if (j < n) {
			free(labels[n]);
			continue;
		}
		stat_rows(out, "osmqos_level_guaranteed_bandwidth_gbps",
			  labels[n], l->sl, &st[l->sl]);
		n++;
	}
	for (j = 0; j < n; j++)
		free(labels[j]);
}

static void aggregate_families(FILE *out, const struct oq_publish_doc *d)
{
	const struct oq_pred_classes *c = d->classes;
	struct sl_stats st[16];
	struct weighted *w;
	unsigned int s;

	w = calloc(c->n ? c->n : 1, sizeof(*w));
	if (!w) {
		fputs("# osmqos: out of memory for the aggregates\n", out);
		return;
	}
	for (s = 0; s < 16; s++)
		sl_stats(c, s, w, &st[s]);
	free(w);

	oq_publish_prom_family(out, "osmqos_linked_ports", "gauge",
			       "Linked ports whose egress is predicted.");
	fprintf(out, "osmqos_linked_ports %zu\n", c->n_classified);
	oq_publish_prom_family(
		out, "osmqos_sl_guaranteed_bandwidth_gbps", "gauge",
		"Guaranteed Gb/s of the SL over the linked ports (every VL "
		"busy, MTU-size packets): minimum, median and maximum "
		"(stat).");
	for (s = 0; s < 16; s++)
		if (st[s].any)
			stat_rows(out, "osmqos_sl_guaranteed_bandwidth_gbps",
				  NULL, s, &st[s]);
	level_families(out, d, st);
	oq_publish_prom_family(
		out, "osmqos_sl_starved_ports", "gauge",
		"Linked ports where the SL starves: VLHighLimit 255, high "
		"traffic present, the SL only in the low table.");
	for (s = 0; s < 16; s++)
		if (st[s].any)
			fprintf(out, "osmqos_sl_starved_ports{sl=\"%u\"} %zu\n",
				s, st[s].starved);
	oq_publish_prom_family(
		out, "osmqos_sl_dropped_ports", "gauge",
		"Linked ports where the SL is dropped: the SL2VL of some "
		"input port that feeds the port's egress sends it to VL 15.");
	for (s = 0; s < 16; s++)
		if (st[s].any)
			fprintf(out, "osmqos_sl_dropped_ports{sl=\"%u\"} %zu\n",
				s, st[s].dropped);
}

/* ---- per class ------------------------------------------------------- */

/* Largest classes first; among equals, the lower id first. */
struct class_rank {
	size_t ports, id;
};

static int by_ports_desc(const void *a, const void *b)
{
	const struct class_rank *x = a, *y = b;

	if (x->ports != y->ports)
		return x->ports < y->ports ? 1 : -1;
	return (x->id > y->id) - (x->id < y->id);
}

enum class_metric { CLASS_PREDICTED, CLASS_GUARANTEED };

static void class_sl_family(FILE *out, const struct oq_publish_doc *d,
			    const size_t *ids, size_t n, enum class_metric m,
			    const char *name, const char *help)
{
	size_t i;
	unsigned int s;

	oq_publish_prom_family(out, name, "gauge", help);
	for (i = 0; i < n; i++) {
		const struct oq_pred_class *c = &d->classes->v[ids[i]];

		for (s = 0; s < 16; s++) {
			if (!c->pred.sl[s].active ||
			    (m == CLASS_GUARANTEED && c->guar.unknown))
				continue;
			fprintf(out, "%s{class=\"%zu\",sl=\"%u\",vl=\"", name,
				ids[i], s);
			vl_label(out, oq_pred_class_sl_vl(c, s));
			fputs("\"}", out);
			value(out, m == CLASS_PREDICTED
					   ? c->pred.sl[s].gbps
					   : c->guaranteed_gbps[s]);
		}
	}
}

static void class_families(FILE *out, const struct oq_publish_doc *d)
{
	const struct oq_pred_classes *c = d->classes;
	struct class_rank *rank;
	size_t *ids, i, n;

	oq_publish_prom_family(
		out, "osmqos_port_classes", "gauge",
		"Port classes: linked ports with equal prediction inputs "
		"share one (the JSON file lists them all).");
	fprintf(out, "osmqos_port_classes %zu\n", c->n);
	rank = malloc((c->n ? c->n : 1) * sizeof(*rank));
	ids = malloc((c->n ? c->n : 1) * sizeof(*ids));
	if (!rank || !ids) {
		free(rank);
		free(ids);
		return;
	}
	for (i = 0; i < c->n; i++) {
		rank[i].ports = c->v[i].n_ports;
		rank[i].id = i;
	}
	qsort(rank, c->n, sizeof(*rank), by_ports_desc);
	for (i = 0; i < c->n; i++)
		ids[i] = rank[i].id;
	free(rank);
	n = c->n < OQ_PUBLISH_PROM_CLASSES ? c->n : OQ_PUBLISH_PROM_CLASSES;
	oq_publish_prom_family(
		out, "osmqos_port_class_ports", "gauge",
		"Linked ports in the class, with its link, MTU and where its "
		"SL2VL came from (the largest classes).");
	for (i = 0; i < n; i++) {
		const struct oq_pred_class *k = &c->v[ids[i]];
		const struct oq_port *p = d->fabric->ports[k->rep];

		fprintf(out,
			"osmqos_port_class_ports{class=\"%zu\",link=\"%ux%s\","
			"mtu=\"%u\",sl2vl_origin=\"%s\"} %zu\n",
			ids[i], p->width, oq_speed_name(p->speed),
			k->pred.mtu_bytes,
			oq_pred_sl2vl_origin(&d->tables->ports[k->rep]),
			k->n_ports);
	}
	class_sl_family(out, d, ids, n, CLASS_PREDICTED,
			"osmqos_class_predicted_bandwidth_gbps",
			"Predicted Gb/s of the SL on the egress of every port "
			"of the class, all 16 SLs backlogged.");
	class_sl_family(out, d, ids, n, CLASS_GUARANTEED,
			"osmqos_class_guaranteed_bandwidth_gbps",
			"Lowest Gb/s the model gives the SL on the egress of "
			"every port of the class over each input's view (every "
			"VL busy, MTU-size packets).");
	free(ids);
}

/* ---- per port (publish_detail=ports) ----------------------------------- */

/* {node_guid="0x..",node="desc",port="N" -- the caller closes or adds. */
static void port_labels(FILE *out, const char *name, const struct oq_port *p)
{
	const struct oq_node *n = p->node;

	fprintf(out, "%s{node_guid=\"0x%016" PRIx64 "\",node=\"", name,
		n->guid);
	oq_publish_prom_text(out, n->desc, sizeof(n->desc));
	fprintf(out, "\",port=\"%u\"", p->num);
}

enum sl_metric { SL_PREDICTED, SL_GUARANTEED, SL_STARVED };

static void port_sl_family(FILE *out, const struct oq_publish_doc *d,
			   enum sl_metric m, const char *name, const char *help)
{
	size_t i;
	unsigned int s;

	oq_publish_prom_family(out, name, "gauge", help);
	for (i = 0; i < d->fabric->n_ports; i++) {
		const struct oq_pred_class *c = oq_pred_class_of(d->classes, i);

		if (!c)
			continue;
		for (s = 0; s < 16; s++) {
			const struct oq_sl_pred *sp = &c->pred.sl[s];

			if (!sp->active ||
			    (m == SL_GUARANTEED && c->guar.unknown))
				continue;
			port_labels(out, name, d->fabric->ports[i]);
			fprintf(out, ",sl=\"%u\",vl=\"", s);
			vl_label(out, oq_pred_class_sl_vl(c, s));
			fputs("\"}", out);
			value(out, m == SL_PREDICTED	? sp->gbps
				   : m == SL_GUARANTEED ? c->guaranteed_gbps[s]
							: (double)sp->starve);
		}
	}
}

static void port_families(FILE *out, const struct oq_publish_doc *d)
{
	size_t i;

	oq_publish_prom_family(
		out, "osmqos_port_info", "gauge",
		"Linked port whose egress is predicted (value 1), with its "
		"LID, link and class.");
	for (i = 0; i < d->fabric->n_ports; i++) {
		const struct oq_port *p = d->fabric->ports[i];

		if (!oq_pred_class_of(d->classes, i))
			continue;
		port_labels(out, "osmqos_port_info", p);
		fprintf(out,
			",guid=\"0x%016" PRIx64 "\",lid=\"%u\","
			"link=\"%ux%s\",node_type=\"%s\",class=\"%" PRIu32
			"\"} 1\n",
			p->guid, p->lid, p->width, oq_speed_name(p->speed),
			oq_node_type_name(p->node->type),
			d->classes->of_port[i]);
	}
	port_sl_family(out, d, SL_PREDICTED, "osmqos_predicted_bandwidth_gbps",
		       "Predicted Gb/s of the SL on the port's egress with all "
		       "16 SLs backlogged (osmqos predict).");
	port_sl_family(
		out, d, SL_GUARANTEED, "osmqos_guaranteed_bandwidth_gbps",
		"Lowest Gb/s the model gives the SL on the port's egress "
		"over every input port's view (every VL busy, MTU-size "
		"packets).");
	port_sl_family(out, d, SL_STARVED, "osmqos_sl_starved",
		       "1 when the SL starves on the port: VLHighLimit 255, "
		       "high traffic present, the SL only in the low table.");
}

void oq_publish_prom_fabric(FILE *out, const struct oq_publish_doc *d)
{
	static const struct oq_pred_classes none;
	struct oq_publish_doc e;

	if (!d->classes || !d->fabric || !d->tables) {
		e = *d;
		e.classes = &none;
		e.detail_ports = false;
		d = &e;
	}
	aggregate_families(out, d);
	oq_publish_intents_prom(out, d);
	class_families(out, d);
	if (d->detail_ports)
		port_families(out, d);
}
