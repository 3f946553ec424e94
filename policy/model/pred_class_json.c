// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The class table as JSON (docs/json.md, "Port classes"): the published
 * osmqos-bandwidth.json and `osmqos predict --json` both write these
 * members with this code, so a script compares the two with plain
 * equality.  Numbers: %.6g Gb/s, %.12g shares, exact "p/q" shares.  Each
 * class carries the per-SL prediction once; each node (by GUID) lists its
 * modelled ports as {port, guid, lid, lmc, class} (pred_nodes_json.c).  One
 * node per line, so a 10,000-port fabric is well under a megabyte.
 */
#include <inttypes.h>
#include <math.h>

#include <osmqos/json.h>
#include <osmqos/pred_class.h>

/* %.6g; JSON has no NaN or infinity. */
static void jgbps(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
}

/* A list of SLs: [1, 9]. */
static void write_sls(FILE *out, uint16_t m)
{
	unsigned int s;
	bool first = true;

	fputc('[', out);
	for (s = 0; s < 16; s++)
		if (m & (1u << s)) {
			fprintf(out, "%s%u", first ? "" : ", ", s);
			first = false;
		}
	fputc(']', out);
}

static void write_sl(FILE *out, const struct oq_pred_class *c, unsigned int s,
		     bool first)
{
	const struct oq_sl_pred *sp = &c->pred.sl[s];
	const struct oq_port_guarantee *g = &c->guar;
	char fb[48];
	double us;

	oq_frac_format(sp->share, fb, sizeof(fb));
	fprintf(out, "%s{\"sl\": %u, \"vl\": ", first ? "" : ", ", s);
	if (oq_pred_class_sl_vl(c, s) >= 0)
		fprintf(out, "%d", sp->vl);
	else
		fputs("null", out);
	fputs(", \"vls\": ", out);
	write_sls(out, sp->vls);
	fprintf(out,
		", \"priority\": \"%s\", \"share\": %.12g, "
		"\"share_exact\": \"%s\", \"predicted_gbps\": ",
		oq_prio_name(sp->prio), oq_frac_double(sp->share), fb);
	jgbps(out, sp->gbps);
	fputs(", \"guaranteed_gbps\": ", out);
	/* An SL2VL not known: no guarantee, no wait (null). */
	if (g->unknown) {
		fputs("null, \"guaranteed_exact\": null", out);
	} else {
		jgbps(out, c->guaranteed_gbps[s]);
		oq_frac_format(g->share[s], fb, sizeof(fb));
		fprintf(out, ", \"guaranteed_exact\": \"%s\"", fb);
	}
	fputs(", \"shared_with\": ", out);
	write_sls(out, g->shared_with[s]);
	fputs(", \"ceiling_gbps\": ", out);
	jgbps(out, oq_frac_double(g->ceiling[s]) * c->pred.rate_gbps);
	/* The worst wait here over the VLs the SL reaches; null where it
	 * is unbounded or was not computed (the state cap). */
	us = (g->sl_vls[s] & g->wait_capped)
		     ? -1.0
		     : oq_wait_us(g->wait[s], c->pred.rate_gbps);
	fputs(", \"latency_us\": ", out);
	if (us >= 0)
		fprintf(out, "%.6g", us);
	else
		fputs("null", out);
	fprintf(out,
		", \"latency_is_bound\": %s, \"starve\": %s, "
		"\"dropped\": %s}",
		(g->sl_vls[s] & g->wait_bound) ? "true" : "false",
		sp->starve ? "true" : "false",
		(g->dropped & (1u << s)) ? "true" : "false");
}

static void write_example(FILE *out, const struct oq_port *p)
{
	char name[128];

	oq_port_name(p, name, sizeof(name));
	fprintf(out,
		", \"example\": {\"port\": %u, \"guid\": \"0x%016" PRIx64
		"\", \"lid\": %u, \"node\": ",
		p->num, p->guid, p->lid);
	oq_json_fstring(out, p->node->desc);
	fputs(", \"name\": ", out);
	oq_json_fstring(out, name);
	fputc('}', out);
}

static void write_class(FILE *out, const struct oq_fabric *f,
			const struct oq_fabric_tables *tables,
			const struct oq_pred_class *c, size_t id, bool example)
{
	const struct oq_port *p = f->ports[c->rep];
	const struct oq_port_tables *t = &tables->ports[c->rep];
	unsigned int s;
	bool f1 = true;

	fprintf(out,
		"%s\n  {\"class\": %zu, \"ports\": %zu, \"link\": \"%ux%s\", "
		"\"width\": %u, \"speed\": \"%s\", \"rate_gbps\": ",
		id ? "," : "", id, c->n_ports, p->width,
		oq_speed_name(p->speed), p->width, oq_speed_name(p->speed));
	jgbps(out, c->pred.rate_gbps);
	fprintf(out, ", \"mtu\": %u, \"sl2vl_origin\": \"%s\"",
		c->pred.mtu_bytes, oq_pred_sl2vl_origin(t));
	if (example)
		write_example(out, p);
	fputs(", \"vl_high_limit\": ", out);
	if (t->has_vlarb)
		fprintf(out, "%u", t->vl_high_limit);
	else
		fputs("null", out);
	fprintf(out, ", \"profile\": \"%s\", \"exact\": %s, \"sls\": [",
		c->pred.profile_applied ? "cx2-2k" : "iba",
		c->pred.arb.approx ? "false" : "true");
	for (s = 0; s < 16; s++) {
		if (!c->pred.sl[s].active)
			continue;
		write_sl(out, c, s, f1);
		f1 = false;
	}
	fputs("]}", out);
}

int oq_pred_classes_write_json_classes(FILE *out, const struct oq_fabric *f,
				       const struct oq_fabric_tables *tables,
				       const struct oq_pred_classes *c,
				       bool example)
{
	size_t i;

	fputs("\"classes\": [", out);
	for (i = 0; i < c->n; i++)
		write_class(out, f, tables, &c->v[i], i, example);
	fputs("]", out);
	return ferror(out) ? -1 : 0;
}

int oq_pred_classes_write_json(FILE *out, const struct oq_fabric *f,
			       const struct oq_fabric_tables *tables,
			       const struct oq_pred_classes *c)
{
	oq_pred_classes_write_json_classes(out, f, tables, c, false);
	return oq_pred_nodes_write_json(out, f, c, NULL);
}
