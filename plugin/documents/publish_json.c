// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos-bandwidth.json: one JSON object per sweep (docs/json.md,
 * "Published prediction"): the sweep, the policy, the routing engine,
 * then the port classes and the nodes as oq_pred_classes_write_json()
 * writes them for `osmqos predict --json` too, so a script compares the
 * two with plain equality.
 */
#include <inttypes.h>
#include <stdio.h>

#include "documents.h"

static void jstr(FILE *out, const char *s, size_t max)
{
	putc('"', out);
	oq_json_fescape(out, s, max);
	putc('"', out);
}

static void jtime(FILE *out, const char *key, time_t t, bool valid)
{
	char iso[32];

	if (!valid) {
		fprintf(out, "\"%s\": null, \"%s_epoch\": null", key, key);
		return;
	}
	oq_publish_iso8601(t, iso, sizeof(iso));
	fprintf(out, "\"%s\": \"%s\", \"%s_epoch\": %lld", key, iso, key,
		(long long)t);
}

/* OpenSM's own parse of the file it reads: null when not looked at. */
static void write_opensm_parse(FILE *out, const struct oq_publish_doc *d)
{
	fputs(", \"opensm_parse\": ", out);
	if (!d->opensm_path) {
		fputs("null", out);
		return;
	}
	fputs("{\"path\": ", out);
	jstr(out, d->opensm_path, 4096);
	fprintf(out, ", \"refused\": %s, ",
		d->opensm_refused ? "true" : "false");
	jtime(out, "refused_since", d->opensm_refused_since, d->opensm_refused);
	putc('}', out);
}

static void write_policy(FILE *out, const struct oq_publish_doc *d)
{
	fputs("\"policy\": {\"path\": ", out);
	if (d->policy_path)
		jstr(out, d->policy_path, 4096);
	else
		fputs("null", out);
	if (d->policy_in_force)
		fprintf(out, ", \"hash\": \"0x%016" PRIx64 "\"",
			d->policy_hash);
	else
		fputs(", \"hash\": null", out);
	fprintf(out, ", \"in_force\": %s, \"load_success\": %s, ",
		d->policy_in_force ? "true" : "false",
		d->policy_load_success ? "true" : "false");
	jtime(out, "loaded_at", d->policy_loaded_at, d->policy_loaded_at != 0);
	fprintf(out, ", \"loads_ok\": %lu, \"loads_failed\": %lu", d->loads_ok,
		d->loads_failed);
	fputs(", \"restored_from\": ", out);
	if (d->restored_from) {
		fputs("{\"path\": ", out);
		jstr(out, d->restored_from, 4096);
		fputs(", \"written_for\": ", out);
		if (d->restored_for)
			jstr(out, d->restored_for, 4096);
		else
			fputs("null", out);
		putc('}', out);
	} else {
		fputs("null", out);
	}
	fputs(", \"rejected\": ", out);
	if (d->rejected_path) {
		fputs("{\"path\": ", out);
		jstr(out, d->rejected_path, 4096);
		fprintf(out, ", \"hash\": \"0x%016" PRIx64 "\", ",
			d->rejected_hash);
		jtime(out, "at", d->rejected_at, true);
		fputs(", \"error\": ", out);
		jstr(out, d->rejected_error ? d->rejected_error : "", 1024);
		fputs(", \"fix\": ", out);
		if (d->rejected_fix && *d->rejected_fix)
			jstr(out, d->rejected_fix, 1024);
		else
			fputs("null", out);
		putc('}', out);
	} else {
		fputs("null", out);
	}
	write_opensm_parse(out, d);
	putc('}', out);
}

int oq_publish_write_json_head(FILE *out, const struct oq_publish_doc *d)
{
	char iso[32];

	oq_publish_iso8601(d->now.tv_sec, iso, sizeof(iso));
	fprintf(out, "{\"schema\": %d, \"generator\": \"osmqos ",
		OQ_PUBLISH_SCHEMA);
	oq_json_fescape(out, d->version ? d->version : "", 64);
	fprintf(out, "\", \"sweep\": %lu, \"sweeps\": %lu, ", d->sweep,
		d->sweeps);
	fprintf(out, "\"time\": \"%s\", \"time_epoch\": %lld.%03ld,\n ", iso,
		(long long)d->now.tv_sec, d->now.tv_nsec / 1000000);
	fprintf(out, "\"qos_enabled\": %s, ",
		d->qos_disabled ? "false" : "true");
	write_policy(out, d);
	fprintf(out, ",\n \"qos_mads_sent\": %" PRIu64 ", ", d->mads_total);
	fputs("\"routing_engine\": {\"name\": \"", out);
	oq_json_fescape(out, d->engine ? d->engine : "", 32);
	fprintf(out, "\", \"sl2vl\": \"%s\"}, ",
		d->engine_sl2vl ? d->engine_sl2vl : "policy");
	fputs("\"model\": {\"scenario\": \"all SLs backlogged\", "
	      "\"guarantee\": \"every VL busy, MTU-size packets\", "
	      "\"profile\": \"iba\"},\n ",
	      out);
	return ferror(out) ? -1 : 0;
}

static bool has_classes(const struct oq_publish_doc *d)
{
	return d->classes && d->fabric && d->tables;
}

int oq_publish_write_json(FILE *out, const struct oq_publish_doc *d)
{
	int bad;

	oq_publish_write_json_head(out, d);
	if (d->json_predictions)
		fwrite(d->json_predictions, 1, d->json_predictions_len, out);
	else
		oq_publish_write_json_predictions(out, d);
	/* The nodes list kept with the parts is theirs, whatever classes
	 * this publication has at hand. */
	if (d->json_nodes)
		bad = oq_pred_nodes_write_json(out, NULL, NULL, d->json_nodes);
	else if (has_classes(d))
		bad = oq_pred_nodes_write_json(out, d->fabric, d->classes,
					       NULL);
	else
		bad = oq_pred_nodes_write_json(out, NULL, NULL, NULL);
	fputs("}\n", out);
	return bad || ferror(out) ? -1 : 0;
}

int oq_publish_write_json_predictions(FILE *out, const struct oq_publish_doc *d)
{
	oq_publish_intents_json(out, d);
	fputs(",\n ", out);
	if (has_classes(d))
		oq_pred_classes_write_json_classes(out, d->fabric, d->tables,
						   d->classes, false);
	else
		fputs("\"classes\": []", out);
	return ferror(out) ? -1 : 0;
}
