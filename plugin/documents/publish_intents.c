// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Intents in the published files: each intent beside what the tables in
 * force guarantee its SL (the least share and the largest worst wait per
 * output port over the ports the synthesizer checked) and the ports
 * where that misses what the SL needs (the intents of the levels on it
 * added up), and the ports where the guarantee is the SL's VL group's.
 * The verdicts are the synthesizer's own (the sweep's plan): the worst
 * over MTU-size packets and full packets of MTU + 26 to MTU + 126 bytes,
 * so the ports missed here are the ports the plugin's log says miss an
 * intent, never a second, kinder model of MTU-size packets only.
 * Synthesized tables never miss one; a qos-setup scope of the
 * operator's, or a class no tables can serve, can.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "documents.h"

/* The class's worst wait of SL s at one port, us; -1 unknown. */
static double class_wait_us(const struct oq_synth_class *c, unsigned int s)
{
	return oq_wait_us(c->r.wait[s], c->in.rate_gbps);
}

static bool lat_missed(const struct oq_synth_class *c, unsigned int s,
		       uint64_t ns)
{
	return c->r.wait[s] == OQ_WAIT_UNBOUNDED ||
	       c->r.wait[s] > oq_synth_latency_bytes(c->in.rate_gbps, ns);
}

/* No class checked yet: no worst wait to publish (null, no sample). */
#define WAIT_NONE -2.0

/* A level the policy gives a bandwidth or latency intent, on an SL. */
static bool has_intent(const struct oq_publish_level *l)
{
	return (l->intent_bp > 0 || l->latency_ns) && l->sl < 16;
}

static void level_stats(struct oq_publish_level *l,
			const struct oq_synth_class *c)
{
	double us = class_wait_us(c, l->sl), sh;

	/* WAIT_NONE until a class is seen; -1 (unbounded) stays. */
	if (us < 0 || l->max_wait_us == -1.0)
		l->max_wait_us = -1.0;
	else if (l->max_wait_us == WAIT_NONE || us > l->max_wait_us)
		l->max_wait_us = us;
	if (l->latency_ns && lat_missed(c, l->sl, l->latency_ns))
		l->lat_missed += c->n_ports;
	sh = oq_frac_double(c->r.share[l->sl]);
	if (l->min_share < 0 || sh < l->min_share)
		l->min_share = sh;
	if (l->intent_bp > 0 &&
	    !oq_frac_meets_bp(c->r.share[l->sl], l->sl_need_bp))
		l->ports_missed += c->n_ports;
}

size_t oq_publish_intent_stats(struct oq_publish_level *levels, size_t n,
			       const struct oq_pred_classes *c,
			       const struct oq_synth_plan *plan)
{
	size_t i, k, total = 0;

	for (i = 0; i < n; i++) {
		levels[i].min_share = -1.0;
		levels[i].ports_missed = 0;
		levels[i].max_wait_us = WAIT_NONE;
		levels[i].lat_missed = levels[i].ports_shared = 0;
	}
	/* Whether an SL shares its VL is the SL2VL's, whatever the
	 * packets: the published classes say it. */
	for (k = 0; c && k < c->n; k++)
		for (i = 0; i < n; i++)
			if (has_intent(&levels[i]) &&
			    c->v[k].guar.shared_with[levels[i].sl])
				levels[i].ports_shared += c->v[k].n_ports;
	for (k = 0; plan && k < plan->n; k++) {
		const struct oq_synth_class *sc = &plan->v[k];

		if (!sc->n_ports)
			continue;
		for (i = 0; i < n; i++)
			if (has_intent(&levels[i]))
				level_stats(&levels[i], sc);
		/* The plan's own count (oq_synth_apply): what the log says. */
		if (sc->r.status != OQ_SYNTH_OK)
			total += sc->n_ports;
	}
	return total;
}

void oq_publish_intents_json(FILE *out, const struct oq_publish_doc *d)
{
	size_t i;
	bool first = true;

	fprintf(out,
		"\"intents\": {\"ports_missed\": %zu, \"ports_unchecked\": "
		"%zu, \"levels\": [",
		d->intent_ports_missed, d->intent_ports_unchecked);
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
				   "guarantee the level's SL over the checked "
				   "ports (its VL's share, every VL busy, "
				   "MTU-size or full packets, the worst)."},
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
				 "one checked port (every other VL busy, "
				 "packets up to MTU + 126 bytes)."},
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
	oq_publish_prom_family(out, "osmqos_intent_unchecked_ports", "gauge",
			       "Linked ports whose intents are not checked "
			       "(their SL2VL is not known here): in no "
			       "intent figure.");
	fprintf(out, "osmqos_intent_unchecked_ports %zu\n",
		d->intent_ports_unchecked);
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
