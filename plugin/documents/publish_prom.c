// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos.prom: the prediction and the plugin's counters in the Prometheus
 * text exposition format 0.0.4, for node_exporter's textfile collector
 * (docs/publish.md lists every metric).  Rules kept here: one HELP and
 * one TYPE line per family before its samples, a family's samples
 * together, label values escaped (\\ \" \n) and valid UTF-8, counters
 * named *_total, histogram buckets cumulative and ending in le="+Inf"
 * equal to _count.  No timestamps: the collector stamps the scrape.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "documents.h"

void oq_publish_prom_family(FILE *out, const char *name, const char *type,
			    const char *help)
{
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void policy_families(FILE *out, const struct oq_publish_doc *d)
{
	oq_publish_prom_family(
		out, "osmqos_routing_engine_info", "gauge",
		"The routing engine the tables are for (value 1) and whose "
		"SL2VL is in force: policy, template or engine.");
	fputs("osmqos_routing_engine_info{engine=\"", out);
	oq_publish_prom_text(out, d->engine ? d->engine : "", 32);
	fprintf(out, "\",sl2vl=\"%s\"} 1\n",
		d->engine_sl2vl ? d->engine_sl2vl : "policy");
	oq_publish_prom_family(
		out, "osmqos_policy_info", "gauge",
		"The policy in force (value 1): file and FNV-1a hash of its "
		"content.");
	if (d->policy_in_force) {
		fputs("osmqos_policy_info{path=\"", out);
		oq_publish_prom_text(out, d->policy_path ? d->policy_path : "",
				     4096);
		fprintf(out, "\",hash=\"0x%016" PRIx64 "\"} 1\n",
			d->policy_hash);
	}
	oq_publish_prom_family(
		out, "osmqos_policy_restored_info", "gauge",
		"The policy in force was put back at start from the copy "
		"osmqos wrote before (value 1): that copy, and the policy "
		"file it was written for (empty: not known).");
	if (d->policy_in_force && d->restored_from) {
		fputs("osmqos_policy_restored_info{path=\"", out);
		oq_publish_prom_text(out, d->restored_from, 4096);
		fputs("\",written_for=\"", out);
		oq_publish_prom_text(
			out, d->restored_for ? d->restored_for : "", 4096);
		fputs("\"} 1\n", out);
	}
	oq_publish_prom_family(
		out, "osmqos_opensm_config_info", "gauge",
		"The opensm.conf opensm runs with (value 1): osmqos drift "
		"and plan read its templates, node-name map and partitions "
		"when not given one.");
	if (d->opensm_conf) {
		fputs("osmqos_opensm_config_info{path=\"", out);
		oq_publish_prom_text(out, d->opensm_conf, 4096);
		fputs("\"} 1\n", out);
	}
	oq_publish_prom_family(
		out, "osmqos_qos_enabled", "gauge",
		"1 when opensm.conf has qos TRUE, 0 with qos FALSE: OpenSM "
		"then programs no QoS tables and osmqos loads no policy.");
	fprintf(out, "osmqos_qos_enabled %d\n", d->qos_disabled ? 0 : 1);
	oq_publish_prom_family(
		out, "osmqos_policy_load_success", "gauge",
		"1 when the policy file's current content is in force, 0 when "
		"it is missing or was rejected.");
	fprintf(out, "osmqos_policy_load_success %d\n",
		d->policy_load_success ? 1 : 0);
	oq_publish_prom_family(
		out, "osmqos_policy_last_load_timestamp_seconds", "gauge",
		"Unix time the policy in force was loaded (0: never).");
	fprintf(out, "osmqos_policy_last_load_timestamp_seconds %lld\n",
		(long long)d->policy_loaded_at);
	oq_publish_prom_family(
		out, "osmqos_policy_rejected_info", "gauge",
		"The last policy content the plugin refused (value 1): file, "
		"FNV-1a hash, its first error, and what to do when that is "
		"not to fix the file (empty: fix it).");
	if (d->rejected_path) {
		fputs("osmqos_policy_rejected_info{path=\"", out);
		oq_publish_prom_text(out, d->rejected_path, 4096);
		fprintf(out, "\",hash=\"0x%016" PRIx64 "\",error=\"",
			d->rejected_hash);
		oq_publish_prom_text(
			out, d->rejected_error ? d->rejected_error : "", 1024);
		fputs("\",fix=\"", out);
		oq_publish_prom_text(
			out, d->rejected_fix ? d->rejected_fix : "", 1024);
		fputs("\"} 1\n", out);
	}
	oq_publish_prom_family(
		out, "osmqos_policy_rejected_timestamp_seconds", "gauge",
		"Unix time the plugin last refused a policy content (0: "
		"never since it started).");
	fprintf(out, "osmqos_policy_rejected_timestamp_seconds %lld\n",
		(long long)(d->rejected_path ? d->rejected_at : 0));
	oq_publish_prom_family(
		out, "osmqos_policy_opensm_refused", "gauge",
		"1 while OpenSM's own parser refuses the policy file it reads "
		"(path: osmqos's copy of the policy in force, or the file "
		"itself) and runs without a policy of its own; 0 while it "
		"holds it.");
	if (d->opensm_path) {
		fputs("osmqos_policy_opensm_refused{path=\"", out);
		oq_publish_prom_text(out, d->opensm_path, 4096);
		fprintf(out, "\"} %d\n", d->opensm_refused ? 1 : 0);
	}
	oq_publish_prom_family(
		out, "osmqos_policy_opensm_refused_timestamp_seconds", "gauge",
		"Unix time OpenSM's own parser began refusing the file it "
		"reads (0: it does not).");
	fprintf(out, "osmqos_policy_opensm_refused_timestamp_seconds %lld\n",
		(long long)(d->opensm_path && d->opensm_refused
				    ? d->opensm_refused_since
				    : 0));
	oq_publish_prom_family(
		out, "osmqos_policy_loads_total", "counter",
		"Policy file contents loaded (ok) or rejected (failed).");
	fprintf(out,
		"osmqos_policy_loads_total{result=\"ok\"} %lu\n"
		"osmqos_policy_loads_total{result=\"failed\"} %lu\n",
		d->loads_ok, d->loads_failed);
}

/* One answered-count series, its label value as it will be written. */
struct level_row {
	char *label;
	uint64_t n;
};

static void add_row(struct level_row *rows, unsigned int *n, const char *name,
		    uint64_t count)
{
	struct level_row *r = &rows[*n];
	unsigned int i;

	/* Out of memory for the label: the series is left out this time,
	 * the count kept for the next file. */
	r->label = oq_publish_prom_label(name);
	if (!r->label)
		return;
	/* Names that differ only in bytes the label cannot carry (invalid
	 * UTF-8), or a level called "(none)", would give one series twice:
	 * merge them. */
	for (i = 0; i < *n; i++)
		if (!strcmp(rows[i].label, r->label)) {
			rows[i].n += count;
			free(r->label);
			return;
		}
	r->n = count;
	(*n)++;
}

static void answered_family(FILE *out, const struct oq_publish_counts *c)
{
	struct level_row rows[OQ_PUBLISH_LEVELS_MAX + 2];
	unsigned int i, n = 0;

	add_row(rows, &n, OQ_PUBLISH_LEVEL_NONE, c->answered_none);
	for (i = 0; i < c->n_levels && c->level; i++)
		add_row(rows, &n, c->level[i], c->answered[i]);
	if (c->answered_other)
		add_row(rows, &n, OQ_PUBLISH_LEVEL_OTHER, c->answered_other);
	oq_publish_prom_family(
		out, "osmqos_sa_pr_answered_total", "counter",
		"PathRecord/MultiPathRecord answers by QoS level ((none): no "
		"level applied).");
	for (i = 0; i < n; i++) {
		fprintf(out,
			"osmqos_sa_pr_answered_total{level=\"%s\"} %" PRIu64
			"\n",
			rows[i].label, rows[i].n);
		free(rows[i].label);
	}
}

static void counter_families(FILE *out, const struct oq_publish_doc *d)
{
	static const struct oq_publish_counts zero;
	const struct oq_publish_counts *c = d->counts ? d->counts : &zero;
	unsigned int i;

	oq_publish_prom_family(
		out, "osmqos_qos_mads_sent_total", "counter",
		"QoS Set MADs (SL2VL, VLArb) sent for the plugin's tables.");
	fprintf(out, "osmqos_qos_mads_sent_total %" PRIu64 "\n", d->mads_total);
	answered_family(out, c);
	oq_publish_prom_family(
		out, "osmqos_audit_dropped_total", "counter",
		"Audit log records never written (queue full, write "
		"errors, or no audit file: it could not be opened).");
	fprintf(out, "osmqos_audit_dropped_total %" PRIu64 "\n",
		c->audit_dropped);
	oq_publish_prom_family(
		out, "osmqos_sa_decision_seconds", "histogram",
		"Time the SA front took to decide one PathRecord query.");
	for (i = 0; i < OQ_PUBLISH_LAT_BUCKETS; i++)
		fprintf(out,
			"osmqos_sa_decision_seconds_bucket{le=\"%g\"} %" PRIu64
			"\n",
			oq_publish_lat_bounds[i], c->lat_cum[i]);
	fprintf(out,
		"osmqos_sa_decision_seconds_bucket{le=\"+Inf\"} %" PRIu64 "\n"
		"osmqos_sa_decision_seconds_sum %.9g\n"
		"osmqos_sa_decision_seconds_count %" PRIu64 "\n",
		c->lat_cum[OQ_PUBLISH_LAT_BUCKETS], c->lat_sum,
		c->lat_cum[OQ_PUBLISH_LAT_BUCKETS]);
}

/* What the SA threads' counters change between sweeps: written at each
 * publication and at each refresh (publish_interval=). */
int oq_publish_write_prom_live(FILE *out, const struct oq_publish_doc *d)
{
	oq_publish_prom_family(out, "osmqos_publish_timestamp_seconds", "gauge",
			       "Unix time this file was written.");
	fprintf(out, "osmqos_publish_timestamp_seconds %lld.%03ld\n",
		(long long)d->now.tv_sec, d->now.tv_nsec / 1000000);
	/* What makes the timestamp readable as stale (osmqos status, the
	 * dashboard): without it an SM that died looks like one that has
	 * nothing new to say. */
	oq_publish_prom_family(
		out, "osmqos_publish_interval_seconds", "gauge",
		"Seconds between rewrites of this file while the SM is master "
		"(0: written at SUBNET UP only).");
	fprintf(out, "osmqos_publish_interval_seconds %u\n", d->interval);
	counter_families(out, d);
	return ferror(out) ? -1 : 0;
}

/* What only a sweep changes: the policy, the tables' prediction. */
int oq_publish_write_prom_sweep(FILE *out, const struct oq_publish_doc *d)
{
	oq_publish_prom_family(
		out, "osmqos_sweep", "gauge",
		"Heavy sweep whose tables the prediction describes.");
	fprintf(out, "osmqos_sweep %lu\n", d->sweep);
	policy_families(out, d);
	if (d->prom_fabric)
		fwrite(d->prom_fabric, 1, d->prom_fabric_len, out);
	else
		oq_publish_prom_fabric(out, d);
	return ferror(out) ? -1 : 0;
}

int oq_publish_write_prom(FILE *out, const struct oq_publish_doc *d)
{
	if (oq_publish_write_prom_live(out, d))
		return -1;
	return oq_publish_write_prom_sweep(out, d);
}
