// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos synth --policy P --fabric T [--partitions F] [--opensm-conf F]
 *              [-o FILE] [--report | --json]
 *
 * Bandwidth intents (bandwidth:, priority: in qos-levels) to tables for
 * every port class of the fabric, as the plugin computes them each sweep
 * (policy/synth/), and the policy lowered to OpenSM's grammar with those
 * tables as qos-setup scopes (synth_lower.c).  --report shows the proof:
 * per class, each level's SL, VL, priority, intent and the share the
 * model guarantees, as an exact fraction, in % and in Gb/s.
 */
#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/file.h>
#include <osmqos/model.h>

#include "cli.h"
#include "inputs.h"
#include "synth_lower.h"

#define CMD "synth"

struct synth_opts {
	struct oq_cli_common c;
	const char *output;
	bool report;
};
OQ_OPTS_STRUCT(struct synth_opts);

static const struct oq_opt synth_opts[] = {
	OQ_USE_H(OQ_CO_POLICY, OQ_OPT_REQUIRED, "the QoS policy with intents"),
	OQ_USE_F(OQ_CO_FABRIC, OQ_OPT_REQUIRED),
	OQ_USE(OQ_CO_PARTITIONS),
	OQ_USE(OQ_CO_NODE_NAME_MAP),
	OQ_USE_H(OQ_CO_OPENSM_CONF, 0,
		 "opensm.conf: templates and routing_engine (an engine that "
		 "owns SL2VL keeps it; VLArb is chosen around it)"),
	OQ_OPT("output", 'o', OQ_OPT_OUTPUT, "FILE",
	       "write the lowered policy to FILE (replaced atomically); "
	       "without -o it goes to stdout unless --report/--json",
	       offsetof(struct synth_opts, output)),
	OQ_OPT("report", 0, OQ_OPT_FLAG, NULL,
	       "per class: each level's SL, VL, priority, intent, guaranteed "
	       "share (exact and %), Gb/s and slack",
	       offsetof(struct synth_opts, report)),
	OQ_USE_H(OQ_CO_JSON, 0, "the same as one JSON object"),
	OQ_OPT_END,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_synth = {
	.name = CMD,
	.summary = "tables from bandwidth intents, proved; lowered policy",
	.about = "Synthesize SL2VL, VLArb and VLHighLimit for every port "
		 "class of the fabric from the policy's bandwidth intents "
		 "(bandwidth:, priority: in qos-levels), check them with the "
		 "arbitration model, and write the policy lowered to OpenSM's "
		 "grammar (intent keys commented out, the tables as qos-setup "
		 "scopes).",
	.opts = synth_opts,
	.exit_status = "0 no class infeasible (a vlarb-scope that misses an "
		       "intent is a warning), 1 invalid policy or an intent no "
		       "tables can meet (nothing written), 2 usage or I/O "
		       "error.",
	.run = run,
};

/* The VL an SL uses on a class ("-" dropped, "mixed" when the kept rows
 * differ). */
static void sl_vl(const struct oq_synth_class *c, unsigned int s, char *buf,
		  size_t len)
{
	size_t r;
	unsigned int v = c->r.sl2vl[s];

	if (!c->in.has_sl2vl)
		v = 0;
	for (r = 1; c->in.sl2vl_fixed && r < c->in.n_rows; r++)
		if (c->in.rows[r][s] != v) {
			snprintf(buf, len, "mixed");
			return;
		}
	if (v >= OQ_MAX_VLS)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%u", v);
}

static const char *prio_of(const struct oq_synth_class *c, unsigned int s)
{
	unsigned int v = c->in.has_sl2vl ? c->r.sl2vl[s] : 0, i;
	bool hi = false, lo = false;

	if (!c->in.has_vlarb)
		return "single";
	for (i = 0; i < c->r.high.n; i++)
		hi |= c->r.high.e[i].vl == v && c->r.high.e[i].weight;
	for (i = 0; i < c->r.low.n; i++)
		lo |= c->r.low.e[i].vl == v && c->r.low.e[i].weight;
	return hi && lo ? "both" : hi ? "high" : lo ? "low" : "none";
}

static const char *class_status(const struct oq_synth_class *c)
{
	if (c->r.status == OQ_SYNTH_OK)
		return "ok";
	return c->vlarb_kept ? "missed" : "infeasible";
}

static double class_gbps(const struct oq_cli_inputs *in,
			 const struct oq_synth_class *c)
{
	return oq_port_data_gbps(in->fabric->ports[c->rep]);
}

static double best_effort(const struct oq_synth_plan *pl,
			  const struct oq_synth_class *c)
{
	double be = 0;
	unsigned int s;

	for (s = 0; s < 16; s++)
		if (!(pl->intents.sls & (1u << s)))
			be += oq_frac_double(c->r.share[s]);
	return be;
}

static void print_table_text(const char *key, const struct oq_vlarb_table *t)
{
	unsigned int i;
	bool any = false;

	printf("    %-13s", key);
	for (i = 0; i < t->n; i++)
		if (t->e[i].weight) {
			printf(" %u:%u", t->e[i].vl, t->e[i].weight);
			any = true;
		}
	printf("%s\n", any ? "" : " (empty)");
}

static void report_text(const struct oq_cli_inputs *in)
{
	const struct oq_synth_plan *pl = &in->synth;
	const struct oq_policy *p = in->policy;
	size_t i, l;

	printf("intents: %u.%02u%% of every link in all, %d SL(s) with an "
	       "intent, %d best effort\n",
	       pl->intents.total_bp / 100, pl->intents.total_bp % 100,
	       __builtin_popcount(pl->intents.sls),
	       16 - __builtin_popcount(pl->intents.sls));
	for (i = 0; i < pl->n; i++) {
		const struct oq_synth_class *c = &pl->v[i];
		const struct oq_port *rep = in->fabric->ports[c->rep];
		double gbps = class_gbps(in, c);
		char name[96];
		unsigned int s;

		if (oq_port_name(rep, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "port %u", rep->num);
		printf("\nclass %zu: %zu port(s) like %s (0x%016" PRIx64
		       "): %u data VL(s), MTU %u, %ux %s (%.2f Gb/s), "
		       "VLArb %u/%u entries\n",
		       i + 1, c->n_ports, name, rep->guid, c->in.vls, c->in.mtu,
		       c->width, oq_speed_name(c->speed), gbps, c->in.cap_high,
		       c->in.cap_low);
		printf("  SL2VL %s, VLArb %s: %s%s%s\n",
		       c->in.sl2vl_fixed ? "kept" : "synthesized",
		       c->vlarb_kept ? "kept (a vlarb-scope)" : "synthesized",
		       class_status(c), c->r.why[0] ? ": " : "", c->r.why);
		printf("  %-20s %2s %5s %-6s %8s  %-22s %9s %8s\n", "level",
		       "SL", "VL", "prio", "intent", "guaranteed", "Gb/s",
		       "slack");
		for (l = 0; l < p->n_levels; l++) {
			const struct oq_qos_level *lv = &p->levels[l];
			char vl[8], frac[48], exact[24];
			double sh;

			if (lv->bandwidth_bp <= 0 || lv->sl < 0)
				continue;
			s = (unsigned int)lv->sl;
			sh = oq_frac_double(c->r.share[s]);
			sl_vl(c, s, vl, sizeof(vl));
			oq_frac_format(c->r.share[s], exact, sizeof(exact));
			snprintf(frac, sizeof(frac), "%s (%.2f%%)", exact,
				 sh * 100.0);
			printf("  %-20.20s %2u %5s %-6s %7.2f%%  %-22s %9.2f "
			       "%+7.2f%%\n",
			       lv->name ? lv->name : "?", s, vl, prio_of(c, s),
			       lv->bandwidth_bp / 100.0, frac, sh * gbps,
			       (sh - pl->intents.need_bp[s] / 10000.0) * 100.0);
		}
		{
			char be[32], pc[32];

			snprintf(be, sizeof(be), "(best effort, %d SLs)",
				 16 - __builtin_popcount(pl->intents.sls));
			snprintf(pc, sizeof(pc), "%.2f%% together",
				 best_effort(pl, c) * 100.0);
			printf("  %-27s %-6s %8s  %-22s %9.2f\n", be, "", "-",
			       pc, best_effort(pl, c) * gbps);
		}
		if (c->in.has_sl2vl) {
			printf("    %-13s", "sl2vl");
			for (s = 0; s < 16; s++) {
				char vl[8];

				sl_vl(c, s, vl, sizeof(vl));
				printf("%s%s", s ? "," : " ", vl);
			}
			printf("\n");
		}
		if (c->in.has_vlarb) {
			print_table_text("vlarb-high", &c->r.high);
			print_table_text("vlarb-low", &c->r.low);
			printf("    %-13s %u\n", "vl-high-limit", c->r.limit);
		}
	}
}

static void json_table(const char *key, const struct oq_vlarb_table *t)
{
	unsigned int i;
	bool first = true;

	printf(", \"%s\": [", key);
	for (i = 0; i < t->n; i++)
		if (t->e[i].weight) {
			printf("%s{\"vl\": %u, \"weight\": %u}",
			       first ? "" : ", ", t->e[i].vl, t->e[i].weight);
			first = false;
		}
	printf("]");
}

static void report_json(const struct oq_cli_inputs *in, const char *engine,
			const struct oq_lower_check *chk)
{
	const struct oq_synth_plan *pl = &in->synth;
	const struct oq_policy *p = in->policy;
	size_t i, l;
	bool first = true;

	printf("{\"policy\": ");
	oq_json_fstring(stdout, p->file);
	printf(", \"routing_engine\": ");
	oq_json_fstring(stdout, engine);
	printf(", \"feasible\": %s, \"intents\": [",
	       pl->n_infeasible ? "false" : "true");
	for (l = 0; l < p->n_levels; l++) {
		const struct oq_qos_level *lv = &p->levels[l];

		if (lv->bandwidth_bp <= 0 || lv->sl < 0)
			continue;
		printf("%s{\"level\": ", first ? "" : ", ");
		oq_json_fstring(stdout, lv->name ? lv->name : "");
		printf(", \"sl\": %d, \"bandwidth_pct\": %.2f, \"priority\": "
		       "\"%s\"}",
		       lv->sl, lv->bandwidth_bp / 100.0,
		       lv->prio_high ? "high" : "low");
		first = false;
	}
	printf("], \"missed_ports\": %zu, \"unchecked_ports\": %zu",
	       pl->ports_missed, pl->n_unchecked);
	printf(", \"lowered\": {\"ports\": %zu, \"differ\": %zu}", chk->n_ports,
	       chk->n_diff);
	printf(", \"classes\": [");
	for (i = 0; i < pl->n; i++) {
		const struct oq_synth_class *c = &pl->v[i];
		const struct oq_port *rep = in->fabric->ports[c->rep];
		double gbps = class_gbps(in, c);
		char name[96];
		unsigned int s;

		if (oq_port_name(rep, name, sizeof(name)) < 0)
			name[0] = '\0';
		printf("%s\n {\"class\": %zu, \"ports\": %zu, \"example\": ",
		       i ? "," : "", i + 1, c->n_ports);
		oq_json_fstring(stdout, name);
		printf(", \"example_guid\": \"0x%016" PRIx64 "\", \"vls\": %u, "
		       "\"mtu\": %u, \"rate_gbps\": %.3f, \"vlarb_high_cap\": "
		       "%u, \"vlarb_low_cap\": %u, \"sl2vl\": \"%s\", "
		       "\"vlarb\": \"%s\", \"status\": \"%s\", \"why\": ",
		       rep->guid, c->in.vls, c->in.mtu, gbps, c->in.cap_high,
		       c->in.cap_low,
		       c->in.sl2vl_fixed ? "kept" : "synthesized",
		       c->vlarb_kept ? "kept" : "synthesized", class_status(c));
		oq_json_fstring(stdout, c->r.why);
		printf(", \"tables\": {\"sl2vl\": [");
		for (s = 0; s < 16; s++)
			printf("%s%u", s ? ", " : "",
			       c->in.has_sl2vl ? c->r.sl2vl[s] : 0);
		printf("]");
		json_table("vlarb_high", &c->r.high);
		json_table("vlarb_low", &c->r.low);
		printf(", \"vl_high_limit\": %u}, \"levels\": [", c->r.limit);
		first = true;
		for (l = 0; l < p->n_levels; l++) {
			const struct oq_qos_level *lv = &p->levels[l];
			char exact[24], vl[8];
			double sh;

			if (lv->bandwidth_bp <= 0 || lv->sl < 0)
				continue;
			s = (unsigned int)lv->sl;
			sh = oq_frac_double(c->r.share[s]);
			sl_vl(c, s, vl, sizeof(vl));
			oq_frac_format(c->r.share[s], exact, sizeof(exact));
			printf("%s{\"level\": ", first ? "" : ", ");
			oq_json_fstring(stdout, lv->name ? lv->name : "");
			printf(", \"sl\": %u, \"vl\": \"%s\", \"priority\": "
			       "\"%s\", \"intent_pct\": %.2f, \"share\": "
			       "\"%s\", \"share_pct\": %.4f, \"gbps\": %.3f, "
			       "\"slack_pct\": %.4f, \"met\": %s}",
			       s, vl, prio_of(c, s), lv->bandwidth_bp / 100.0,
			       exact, sh * 100.0, sh * gbps,
			       (sh - pl->intents.need_bp[s] / 10000.0) * 100.0,
			       oq_frac_meets_bp(c->r.share[s],
						pl->intents.need_bp[s])
				       ? "true"
				       : "false");
			first = false;
		}
		printf("], \"best_effort_pct\": %.4f}",
		       best_effort(pl, c) * 100.0);
	}
	printf("\n]}\n");
}

struct text {
	const char *s;
	size_t len;
};

static int write_text(FILE *out, const void *ctx)
{
	const struct text *t = ctx;

	return fwrite(t->s, 1, t->len, out) == t->len ? 0 : -1;
}

static int write_output(const char *path, const char *s, size_t len)
{
	char *d = strdup(path), *b = strdup(path), why[128];
	struct text t = {s, len};
	int rc;

	if (!d || !b) {
		free(d);
		free(b);
		return oq_usage_error(CMD, "out of memory");
	}
	rc = oq_file_replace(dirname(d), basename(b), 0644, write_text, &t, why,
			     sizeof(why));
	if (rc)
		rc = oq_usage_error(CMD,
				    "cannot write '%s': %s; check the "
				    "directory exists and is writable",
				    path, why);
	free(d);
	free(b);
	return rc;
}

static int run(int argc, char **argv)
{
	struct oq_fabric_tables tables;
	struct oq_lower_check chk;
	struct oq_templates t;
	struct oq_cli_inputs in;
	struct synth_opts o = {0};
	struct oq_engine e;
	struct oq_diags d;
	char *text = NULL, cmdline[512];
	size_t len = 0;
	FILE *mem;
	int rc = oq_cli_parse(&oq_spec_synth, argc, argv, &o);

	if (rc != OQ_CLI_RUN)
		return rc;
	if (o.report && o.c.json)
		return oq_usage_error(CMD, "--report and --json both write "
					   "to stdout; give one");
	rc = oq_cli_load(CMD, &o.c, &in);
	if (rc)
		return rc;
	if (!in.policy->n_intent_levels) {
		oq_cli_inputs_free(&in);
		fprintf(stderr,
			"osmqos synth: '%s' states no bandwidth intent; add "
			"'bandwidth: N%%' (and 'priority: high' for latency) "
			"to the qos-levels that need a guarantee "
			"(osmqos-policy(5), Intents)\n",
			o.c.policy);
		return OQ_EXIT_FAIL;
	}
	rc = oq_cli_compile_tables(CMD, &in, o.c.opensm_conf, &t, &tables);
	if (rc) {
		oq_cli_inputs_free(&in);
		return rc;
	}
	oq_engine_by_name(&e, t.routing_engine);
	snprintf(cmdline, sizeof(cmdline), "osmqos synth --fabric %s%s%s%s%s",
		 o.c.fabric, o.c.partitions ? " --partitions " : "",
		 o.c.partitions ? o.c.partitions : "",
		 o.c.opensm_conf ? " --opensm-conf " : "",
		 o.c.opensm_conf ? o.c.opensm_conf : "");
	/* It goes into a comment: no line break or control byte may end
	 * the comment early. */
	for (len = 0; cmdline[len]; len++)
		if ((unsigned char)cmdline[len] < 0x20 || cmdline[len] == 0x7f)
			cmdline[len] = '?';
	mem = open_memstream(&text, &len);
	if (!mem || oq_synth_lower_write(mem, &in, cmdline) || fclose(mem)) {
		free(text);
		oq_fabric_tables_free(&tables);
		oq_cli_inputs_free(&in);
		return oq_usage_error(CMD, "out of memory writing the lowered "
					   "policy; free memory and retry");
	}
	oq_diags_init(&d);
	if (oq_synth_lower_check(text, len, &in, &t, &tables, &chk, &d) ||
	    chk.parse_failed) {
		oq_diags_print(&d, stderr);
		fprintf(stderr,
			"osmqos synth: internal error: the lowered "
			"policy does not compile; please report it with "
			"the policy and fabric\n");
		rc = OQ_EXIT_USAGE;
		goto out;
	}
	if (chk.n_diff) {
		char name[96];

		if (oq_port_name(chk.first_diff, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "port %u",
				 chk.first_diff->num);
		fprintf(stderr,
			"osmqos synth: warning: the lowered policy gives %zu "
			"of %zu programmed port(s) other tables than "
			"synthesized (first: %s): a switch whose ports need "
			"different tables can only be keyed whole; the plugin "
			"programs the synthesized tables\n",
			chk.n_diff, chk.n_ports, name);
	}
	if (o.report)
		report_text(&in);
	else if (o.c.json)
		report_json(&in, e.name, &chk);
	rc = in.synth.n_infeasible ? OQ_EXIT_FAIL : OQ_EXIT_OK;
	if (rc) {
		fprintf(stderr,
			"osmqos synth: %zu port class(es) cannot meet the "
			"intents (errors above); nothing written: lower the "
			"intents or give those ports more VLs, and see the "
			"best "
			"share per class with --report\n",
			in.synth.n_infeasible);
		goto out;
	}
	if (o.output)
		rc = write_output(o.output, text, len);
	else if (!o.report && !o.c.json)
		fwrite(text, 1, len, stdout);
out:
	oq_diags_free(&d);
	free(text);
	oq_fabric_tables_free(&tables);
	oq_cli_inputs_free(&in);
	return rc;
}
