// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos-bandwidth.json: one JSON object per sweep (docs/json.md,
 * "Published prediction").  Numbers use the same formats as `osmqos
 * predict --json` (%.6g Gb/s, %.12g shares, exact "p/q" shares), so a
 * script compares the two with plain equality.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "publish.h"

static void jstr(FILE *out, const char *s, size_t max)
{
	putc('"', out);
	oq_json_fescape(out, s, max);
	putc('"', out);
}

/* %.6g like the CLI; JSON has no NaN or infinity. */
static void jgbps(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
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
	fprintf(out, ", \"loads_ok\": %lu, \"loads_failed\": %lu}", d->loads_ok,
		d->loads_failed);
}

static void write_sl(FILE *out, const struct oq_publish_port *pp,
		     unsigned int s, bool first)
{
	const struct oq_sl_pred *sp = &pp->pred.sl[s];
	char fb[48];
	unsigned int v;
	bool f1 = true;

	oq_frac_format(sp->share, fb, sizeof(fb));
	fprintf(out, "%s{\"sl\": %u, \"vl\": ", first ? "" : ", ", s);
	if (sp->vl >= 0)
		fprintf(out, "%d", sp->vl);
	else
		fputs("null", out);
	fputs(", \"vls\": [", out);
	for (v = 0; v < OQ_MAX_VLS; v++) {
		if (!(sp->vls & (1u << v)))
			continue;
		fprintf(out, "%s%u", f1 ? "" : ", ", v);
		f1 = false;
	}
	fprintf(out,
		"], \"priority\": \"%s\", \"share\": %.12g, "
		"\"share_exact\": \"%s\", \"predicted_gbps\": ",
		oq_prio_name(sp->prio), oq_frac_double(sp->share), fb);
	jgbps(out, sp->gbps);
	fputs(", \"guaranteed_gbps\": ", out);
	jgbps(out, pp->guaranteed_gbps[s]);
	fprintf(out, ", \"starve\": %s}", sp->starve ? "true" : "false");
}

static const char *sl2vl_origin(const struct oq_port_tables *t)
{
	return t && t->has_sl2vl ? oq_table_origin_name(t->sl2vl_origin)
				 : "none";
}

static void write_port(FILE *out, const struct oq_publish_port *pp, bool first)
{
	const struct oq_port *p = pp->port;
	const struct oq_node *n = p->node;
	char name[80]; /* a 64-byte description and "/P254" */
	unsigned int s;
	bool f1 = true;

	fprintf(out,
		"%s\n  {\"node_guid\": \"0x%016" PRIx64
		"\", \"guid\": \"0x%016" PRIx64 "\", \"node\": ",
		first ? "" : ",", n->guid, p->guid);
	jstr(out, n->desc, sizeof(n->desc));
	fprintf(out, ", \"node_type\": \"%s\", \"name\": ",
		oq_node_type_name(n->type));
	oq_port_name(p, name, sizeof(name));
	jstr(out, name, sizeof(name));
	fprintf(out, ", \"port\": %u, \"lid\": %u, \"lmc\": %u, ", p->num,
		p->lid, p->lmc);
	fprintf(out,
		"\"width\": %u, \"speed\": \"%s\", \"link\": \"%ux%s\", "
		"\"rate_gbps\": ",
		p->width, oq_speed_name(p->speed), p->width,
		oq_speed_name(p->speed));
	jgbps(out, pp->pred.rate_gbps);
	fprintf(out, ", \"mtu\": %u, \"sl2vl_origin\": \"%s\"",
		pp->pred.mtu_bytes, sl2vl_origin(pp->t));
	fputs(", \"vl_high_limit\": ", out);
	if (pp->t && pp->t->has_vlarb)
		fprintf(out, "%u", pp->t->vl_high_limit);
	else
		fputs("null", out);
	fprintf(out, ", \"profile\": \"%s\", \"exact\": %s, \"sls\": [",
		pp->pred.profile_applied ? "cx2-2k" : "iba",
		pp->pred.arb.approx ? "false" : "true");
	for (s = 0; s < 16; s++) {
		if (!pp->pred.sl[s].active)
			continue;
		write_sl(out, pp, s, f1);
		f1 = false;
	}
	fputs("]}", out);
}

int oq_publish_write_json(FILE *out, const struct oq_publish_doc *d)
{
	char iso[32];
	size_t i;

	oq_publish_iso8601(d->now.tv_sec, iso, sizeof(iso));
	fprintf(out, "{\"schema\": %d, \"generator\": \"osmqos ",
		OQ_PUBLISH_SCHEMA);
	oq_json_fescape(out, d->version ? d->version : "", 64);
	fprintf(out, "\", \"sweep\": %lu, \"sweeps\": %lu, ", d->sweep,
		d->sweeps);
	fprintf(out, "\"time\": \"%s\", \"time_epoch\": %lld.%03ld,\n ", iso,
		(long long)d->now.tv_sec, d->now.tv_nsec / 1000000);
	write_policy(out, d);
	fprintf(out, ",\n \"qos_mads_sent\": %" PRIu64 ", ", d->mads_total);
	fputs("\"routing_engine\": {\"name\": \"", out);
	oq_json_fescape(out, d->engine ? d->engine : "", 32);
	fprintf(out, "\", \"sl2vl\": \"%s\"}, ",
		d->engine_sl2vl ? d->engine_sl2vl : "policy");
	fputs("\"model\": {\"scenario\": \"all SLs backlogged\", "
	      "\"profile\": \"iba\"},\n \"ports\": [",
	      out);
	for (i = 0; i < d->n_ports; i++)
		write_port(out, &d->ports[i], i == 0);
	fputs("]}\n", out);
	return ferror(out) ? -1 : 0;
}
