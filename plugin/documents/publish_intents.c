// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Bandwidth intents in the published files: each intent beside the share
 * the tables in force guarantee its SL (the least over the linked ports,
 * from the port classes, i.e. the model) and the ports where that share
 * is below what the SL needs (the intents of the levels on it added up,
 * as the synthesizer and the plugin's log count them).  Synthesized tables
 * never miss one; a qos-setup scope of the operator's, or a class no tables can
 * serve, can.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "documents.h"

/* The class's guaranteed share of SL s (of its link's data rate). */
static double class_share(const struct oq_pred_class *cl, unsigned int s)
{
	return cl->pred.rate_gbps > 0
		       ? cl->guaranteed_gbps[s] / cl->pred.rate_gbps
		       : 0.0;
}

/* Below the intent, allowing for the rounding of Gb/s in doubles (shares
 * are exact fractions in the model; 1e-9 is far below one packet). */
static bool misses(double share, int bp)
{
	return share * 10000.0 < (double)bp - 1e-6;
}

size_t oq_publish_intent_stats(struct oq_publish_level *levels, size_t n,
			       const struct oq_pred_classes *c)
{
	size_t i, k, total = 0;

	for (i = 0; i < n; i++) {
		levels[i].min_share = -1.0;
		levels[i].ports_missed = 0;
	}
	if (!c)
		return 0;
	for (k = 0; k < c->n; k++) {
		const struct oq_pred_class *cl = &c->v[k];
		bool missed = false;

		if (!cl->n_ports)
			continue;
		for (i = 0; i < n; i++) {
			double sh;

			if (levels[i].intent_bp <= 0 || levels[i].sl > 15)
				continue;
			sh = class_share(cl, levels[i].sl);
			if (levels[i].min_share < 0 || sh < levels[i].min_share)
				levels[i].min_share = sh;
			if (misses(sh, (int)levels[i].sl_need_bp)) {
				levels[i].ports_missed += cl->n_ports;
				missed = true;
			}
		}
		if (missed)
			total += cl->n_ports;
	}
	return total;
}

void oq_publish_intents_json(FILE *out, const struct oq_publish_doc *d)
{
	size_t i;
	bool first = true;

	fprintf(out, "\"intents\": {\"ports_missed\": %zu, \"levels\": [",
		d->intent_ports_missed);
	for (i = 0; i < d->n_levels; i++) {
		const struct oq_publish_level *l = &d->levels[i];

		if (l->intent_bp <= 0)
			continue;
		fputs(first ? "" : ", ", out);
		fputs("{\"level\": \"", out);
		oq_json_fescape(out, l->name, OQ_PUBLISH_LEVEL_LEN);
		fprintf(out,
			"\", \"sl\": %u, \"bandwidth_pct\": %.2f, "
			"\"sl_need_pct\": %.2f, \"priority\": \"%s\", "
			"\"min_guaranteed_pct\": ",
			l->sl, l->intent_bp / 100.0, l->sl_need_bp / 100.0,
			l->high ? "high" : "low");
		if (l->min_share < 0)
			fputs("null", out);
		else
			fprintf(out, "%.4f", l->min_share * 100.0);
		fprintf(out, ", \"ports_missed\": %zu}", l->ports_missed);
		first = false;
	}
	fputs("]}", out);
}

void oq_publish_intents_prom(FILE *out, const struct oq_publish_doc *d)
{
	static char labels[OQ_PUBLISH_PROM_LEVELS][OQ_PUBLISH_LABEL_LEN];
	static const struct {
		const char *name, *help;
	} fams[] = {
		{"osmqos_level_intent_ratio",
		 "A QoS level's bandwidth intent: the share of every link "
		 "its SL is to be guaranteed."},
		{"osmqos_level_intent_min_share_ratio",
		 "The least share the tables in force guarantee the level's "
		 "SL over the linked ports."},
		{"osmqos_level_intent_missed_ports",
		 "Linked ports where the level's SL gets less than its "
		 "intent."},
	};
	size_t i, j, f, n = 0, idx[OQ_PUBLISH_PROM_LEVELS];

	/* Levels with an intent whose label renders distinctly (the first
	 * one stands, as for the other per-level families). */
	for (i = 0; i < d->n_levels && n < OQ_PUBLISH_PROM_LEVELS; i++) {
		if (d->levels[i].intent_bp <= 0 || d->levels[i].sl > 15)
			continue;
		oq_publish_prom_label(labels[n], sizeof(labels[n]),
				      d->levels[i].name);
		for (j = 0; j < n; j++)
			if (!strcmp(labels[j], labels[n]))
				break;
		if (j < n)
			continue;
		idx[n++] = i;
	}
	oq_publish_prom_family(out, "osmqos_intent_missed_ports", "gauge",
			       "Linked ports where some level gets less than "
			       "its bandwidth intent (0: every intent met).");
	fprintf(out, "osmqos_intent_missed_ports %zu\n",
		d->intent_ports_missed);
	if (!n)
		return;
	for (f = 0; f < sizeof(fams) / sizeof(fams[0]); f++) {
		oq_publish_prom_family(out, fams[f].name, "gauge",
				       fams[f].help);
		for (j = 0; j < n; j++) {
			const struct oq_publish_level *l = &d->levels[idx[j]];

			if (f == 1 && l->min_share < 0)
				continue;
			fprintf(out, "%s{level=\"%s\",sl=\"%u\"} ",
				fams[f].name, labels[j], l->sl);
			if (f == 0)
				fprintf(out, "%.6g\n", l->intent_bp / 10000.0);
			else if (f == 1)
				fprintf(out, "%.6g\n", l->min_share);
			else
				fprintf(out, "%zu\n", l->ports_missed);
		}
	}
}
