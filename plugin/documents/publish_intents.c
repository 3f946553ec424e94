// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Intents in the published files: each intent beside what the tables in
 * force guarantee its SL (the least share and the largest worst wait per
 * output port over the linked ports, from the port classes, i.e. the
 * model) and the ports where that misses what the SL needs (the intents
 * of the levels on it added up, as the synthesizer and the plugin's log
 * count them), and the ports where the guarantee is the SL's VL group's.
 * Synthesized tables never miss one; a qos-setup scope of the
 * operator's, or a class no tables can serve, can.
 */
#include <stdint.h>
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

/* The class's worst wait of SL s at one port, us; -1 unknown. */
static double class_wait_us(const struct oq_pred_class *cl, unsigned int s)
{
	if (cl->guar.sl_vls[s] & cl->guar.wait_capped)
		return -1.0;
	return oq_wait_us(cl->guar.wait[s], cl->pred.rate_gbps);
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
		levels[i].max_wait_us = 0;
		levels[i].lat_missed = levels[i].ports_shared = 0;
	}
	if (!c)
		return 0;
	for (k = 0; k < c->n; k++) {
		const struct oq_pred_class *cl = &c->v[k];
		bool missed = false;

		if (!cl->n_ports)
			continue;
		for (i = 0; i < n; i++) {
			struct oq_publish_level *l = &levels[i];
			double sh, us;

			if ((l->intent_bp <= 0 && !l->latency_ns) || l->sl > 15)
				continue;
			if (cl->guar.shared_with[l->sl])
				l->ports_shared += cl->n_ports;
			us = class_wait_us(cl, l->sl);
			if (us < 0 || l->max_wait_us < 0)
				l->max_wait_us = -1;
			else if (us > l->max_wait_us)
				l->max_wait_us = us;
			if (l->latency_ns &&
			    (us < 0 || us * 1000.0 > (double)l->latency_ns)) {
				l->lat_missed += cl->n_ports;
				missed = true;
			}
			if (l->intent_bp <= 0)
				continue;
			sh = class_share(cl, l->sl);
			if (l->min_share < 0 || sh < l->min_share)
				l->min_share = sh;
			if (misses(sh, (int)l->sl_need_bp)) {
				l->ports_missed += cl->n_ports;
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

		if (l->intent_bp <= 0 && !l->latency_ns)
			continue;
		fputs(first ? "" : ", ", out);
		fputs("{\"level\": \"", out);
		oq_json_fescape(out, l->name, SIZE_MAX);
		fprintf(out, "\", \"sl\": %u, \"bandwidth_pct\": ", l->sl);
		if (l->intent_bp > 0)
			fprintf(out, "%.2f", l->intent_bp / 100.0);
		else
			fputs("null", out);
		fprintf(out,
			", \"sl_need_pct\": %.2f, \"priority\": \"%s\", "
			"\"min_guaranteed_pct\": ",
			l->sl_need_bp / 100.0, l->high ? "high" : "low");
		if (l->min_share < 0)
			fputs("null", out);
		else
			fprintf(out, "%.4f", l->min_share * 100.0);
		fprintf(out, ", \"ports_missed\": %zu, \"latency_us\": ",
			l->ports_missed);
		if (l->latency_ns)
			fprintf(out, "%.3f", (double)l->latency_ns / 1000.0);
		else
			fputs("null", out);
		fputs(", \"max_hop_latency_us\": ", out);
		if (l->max_wait_us >= 0)
			fprintf(out, "%.6g", l->max_wait_us);
		else
			fputs("null", out);
		fprintf(out,
			", \"latency_ports_missed\": %zu, \"shared_ports\": "
			"%zu}",
			l->lat_missed, l->ports_shared);
		first = false;
	}
	fputs("]}", out);
}

enum fam {
	FAM_INTENT,
	FAM_MIN_SHARE,
	FAM_MISSED,
	FAM_SHARED,
	FAM_LAT_INTENT,
	FAM_LAT_MAX,
	FAM_LAT_MISSED,
	FAM_N,
};

/* The value of family f for level l; false: no sample. */
static bool fam_value(enum fam f, const struct oq_publish_level *l, double *v)
{
	switch (f) {
	case FAM_INTENT:
		*v = l->intent_bp / 10000.0;
		return l->intent_bp > 0;
	case FAM_MIN_SHARE:
		*v = l->min_share;
		return l->intent_bp > 0 && l->min_share >= 0;
	case FAM_MISSED:
		*v = (double)l->ports_missed;
		return l->intent_bp > 0;
	case FAM_SHARED:
		*v = (double)l->ports_shared;
		return true;
	case FAM_LAT_INTENT:
		*v = (double)l->latency_ns / 1e9;
		return l->latency_ns != 0;
	case FAM_LAT_MAX:
		*v = l->max_wait_us / 1e6;
		return l->max_wait_us >= 0;
	case FAM_LAT_MISSED:
		*v = (double)l->lat_missed;
		return l->latency_ns != 0;
	case FAM_N:
		break;
	}
	return false;
}

void oq_publish_intents_prom(FILE *out, const struct oq_publish_doc *d)
{
	char *labels[OQ_PUBLISH_PROM_LEVELS];
	static const struct {
		const char *name, *help;
	} fams[FAM_N] = {
		[FAM_INTENT] = {"osmqos_level_intent_ratio",
				"A QoS level's bandwidth intent: the share of "
				"every link its SL is to be guaranteed."},
		[FAM_MIN_SHARE] = {"osmqos_level_intent_min_share_ratio",
				   "The least share the tables in force "
				   "guarantee the level's SL over the linked "
				   "ports (its VL's share, every VL busy)."},
		[FAM_MISSED] = {"osmqos_level_intent_missed_ports",
				"Linked ports where the level's SL gets less "
				"than its intent."},
		[FAM_SHARED] = {"osmqos_level_intent_shared_ports",
				"Linked ports where the level's guarantee is "
				"its VL group's: other SLs the policy grants "
				"are on the VL."},
		[FAM_LAT_INTENT] = {"osmqos_level_intent_latency_seconds",
				    "A QoS level's latency intent: the "
				    "longest wait at one output port."},
		[FAM_LAT_MAX] = {"osmqos_level_latency_max_seconds",
				 "The largest worst wait of the level's SL at "
				 "one linked port (every other VL busy)."},
		[FAM_LAT_MISSED] = {"osmqos_level_latency_missed_ports",
				    "Linked ports where the level's worst "
				    "wait passes its latency intent (or is "
				    "not known)."},
	};
	size_t i, j, n = 0, idx[OQ_PUBLISH_PROM_LEVELS];
	unsigned int f;

	/* Levels with an intent whose label renders distinctly (the first
	 * one stands, as for the other per-level families). */
	for (i = 0; i < d->n_levels && n < OQ_PUBLISH_PROM_LEVELS; i++) {
		if ((d->levels[i].intent_bp <= 0 && !d->levels[i].latency_ns) ||
		    d->levels[i].sl > 15)
			continue;
		/* Out of memory for the label: left out of this file. */
		labels[n] = oq_publish_prom_label(d->levels[i].name);
		if (!labels[n])
			continue;
		for (j = 0; j < n; j++)
			if (!strcmp(labels[j], labels[n]))
				break;
		if (j < n) {
			free(labels[n]);
			continue;
		}
		idx[n++] = i;
	}
	oq_publish_prom_family(out, "osmqos_intent_missed_ports", "gauge",
			       "Linked ports where some level gets less than "
			       "its bandwidth intent or waits longer than its "
			       "latency intent (0: every intent met).");
	fprintf(out, "osmqos_intent_missed_ports %zu\n",
		d->intent_ports_missed);
	for (f = 0; f < FAM_N && n; f++) {
		bool any = false;
		double v;

		for (j = 0; j < n && !any; j++)
			any = fam_value(f, &d->levels[idx[j]], &v);
		if (!any)
			continue;
		oq_publish_prom_family(out, fams[f].name, "gauge",
				       fams[f].help);
		for (j = 0; j < n; j++) {
			const struct oq_publish_level *l = &d->levels[idx[j]];

			if (!fam_value(f, l, &v))
				continue;
			fprintf(out, "%s{level=\"%s\",sl=\"%u\"} %.6g\n",
				fams[f].name, labels[j], l->sl, v);
		}
	}
	for (j = 0; j < n; j++)
		free(labels[j]);
}
