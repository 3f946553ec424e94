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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/file.h>
#include <osmqos/model.h>

#include "cli.h"
#include "inputs.h"
#include "output_file.h"
#include "synth_lower.h"

#define CMD "synth"

struct synth_opts {
	struct oq_cli_common c;
	const char *output;
	bool report;
	struct oq_mask active; /* --active: the what-if's busy SLs */
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
	       "write the lowered policy to FILE (replaced atomically; -: "
	       "standard output, --report then on standard error); without "
	       "-o it goes to stdout unless --report/--json",
	       offsetof(struct synth_opts, output)),
	OQ_OPT("report", 0, OQ_OPT_FLAG, NULL,
	       "per class: each level's SL, VL, priority, intent, guaranteed "
	       "share (exact and %, every VL busy, the least with full "
	       "packets of MTU+26 to MTU+126 bytes or MTU-size ones; the VL "
	       "group's where SLs share a VL), Gb/s, slack, and the worst "
	       "wait at one port against a latency intent",
	       offsetof(struct synth_opts, report)),
	OQ_OPT("active", 0, OQ_OPT_SLS, "SLS",
	       "with --report/--json: also each level's share when only these "
	       "SLs have traffic, e.g. 0-3,7 (what an idle level leaves)",
	       offsetof(struct synth_opts, active)),
	OQ_USE_H(OQ_CO_JSON, 0, "the same as one JSON object"),
	OQ_OPT_END,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_synth = {
	.name = CMD,
	.summary = "tables from bandwidth intents, proved; lowered policy",
	.about = "Synthesize SL2VL, VLArb and VLHighLimit for every port "
		 "class of the fabric from the policy's bandwidth and latency "
		 "intents (bandwidth:, latency:, priority: in qos-levels), "
		 "check them with the "
		 "arbitration model, and write the policy lowered to OpenSM's "
		 "grammar (intent keys commented out, the tables as qos-setup "
		 "scopes).",
	.opts = synth_opts,
	.output_what = "the lowered policy",
	.output_suffix = "lowered",
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

/* Does an intent SL share a VL with any other SL (granted or not: a job
 * may set any SL itself)?  Then no level there has its intent alone. */
static bool class_shared(const struct oq_synth_plan *pl,
			 const struct oq_synth_class *c)
{
	unsigned int v;

	for (v = 0; v < OQ_MAX_VLS; v++)
		if ((c->r.vl_sls[v] & pl->intents.sls) &&
		    __builtin_popcount(c->r.vl_sls[v]) > 1)
			return true;
	return false;
}

static const char *class_status(const struct oq_synth_plan *pl,
				const struct oq_synth_class *c)
{
	if (c->r.status == OQ_SYNTH_OK)
		return class_shared(pl, c) ? "shared" : "ok";
	return c->vlarb_kept ? "missed" : "infeasible";
}

/* The VL best effort (the SLs without an intent) is on, -1 none. */
static int be_vl(const struct oq_synth_plan *pl, const struct oq_synth_class *c)
{
	unsigned int v;

	for (v = 0; v < OQ_MAX_VLS; v++)
		if (c->r.vl_sls[v] & ~pl->intents.sls)
			return (int)v;
	return -1;
}

/* Best effort's share: its VL's, every VL busy. */
static double best_effort(const struct oq_synth_plan *pl,
			  const struct oq_synth_class *c)
{
	int v = be_vl(pl, c);
	unsigned int s;

	for (s = 0; v >= 0 && s < 16; s++)
		if (c->r.vl_sls[v] & (1u << s))
			return oq_frac_double(c->r.share[s]);
	return 0;
}

/* The what-if: the share of every SL when only `active` have traffic
 * (a VL's share split equally among its busy SLs).  -1 when the model
 * refuses. */
static int what_if(const struct oq_synth_class *c, uint16_t active,
		   struct oq_port_pred *pp)
{
	uint8_t rows[OQ_SYNTH_MAX_ROWS][16];
	struct oq_port_tables t;
	struct oq_predict_opts o;

	oq_synth_class_tables(&c->in, &c->r, rows, &t);
	oq_predict_opts_init(&o);
	o.active_sls = active;
	o.mtu_bytes = c->in.mtu;
	/* The class's tables belong to no port: no fabric is read. */
	return oq_predict_port(NULL, &t, c->in.rate_gbps, &o, pp);
}

/* "1,9" (the other SLs on the level's VLs), "-" alone. */
static void shared_text(const struct oq_synth_class *c, unsigned int sl,
			char *buf, size_t len)
{
	uint16_t m = 0;
	unsigned int v, s;
	size_t k = 0;

	for (v = 0; v < OQ_MAX_VLS; v++)
		if (c->r.vl_sls[v] & (1u << sl))
			m |= c->r.vl_sls[v];
	m &= (uint16_t) ~(1u << sl);
	snprintf(buf, len, "-");
	for (s = 0; s < 16 && k < len; s++)
		if (m & (1u << s))
			k += (size_t)snprintf(buf + k, len - k, "%s%u",
					      k ? "," : "", s);
}

/* The worst wait at one port of the class, "-" unknown. */
static void wait_text(const struct oq_synth_class *c, unsigned int s, char *buf,
		      size_t len)
{
	double us = oq_wait_us(c->r.wait[s], c->in.rate_gbps);

	if (us < 0)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%s%.3f",
			 (c->r.wait_bound & (1u << s)) ? "<=" : "", us);
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

static void report_level_text(const struct oq_cli_inputs *in,
			      const struct oq_synth_class *c,
			      const struct oq_qos_level *lv,
			      const struct oq_port_pred *wi)
{
	const struct oq_synth_plan *pl = &in->synth;
	unsigned int s = (unsigned int)lv->sl;
	char vl[8], frac[48], exact[24], sh[40], lat[16], wt[16], bw[12];
	double share = oq_frac_double(c->r.share[s]);

	sl_vl(c, s, vl, sizeof(vl));
	oq_frac_format(c->r.share[s], exact, sizeof(exact));
	snprintf(frac, sizeof(frac), "%s (%.2f%%)", exact, share * 100.0);
	shared_text(c, s, sh, sizeof(sh));
	wait_text(c, s, wt, sizeof(wt));
	if (lv->latency_ns)
		snprintf(lat, sizeof(lat), "%.3f",
			 (double)lv->latency_ns / 1000.0);
	else
		snprintf(lat, sizeof(lat), "-");
	if (lv->bandwidth_bp > 0)
		snprintf(bw, sizeof(bw), "%.2f%%", lv->bandwidth_bp / 100.0);
	else
		snprintf(bw, sizeof(bw), "-");
	printf("  %-16.16s %2u %3s %-4s %7s  %-20s %8.2f %+7.2f%% %-7s "
	       "%8s %9s",
	       lv->name ? lv->name : "?", s, vl, prio_of(c, s), bw, frac,
	       share * c->in.rate_gbps,
	       (share - pl->intents.need_bp[s] / 10000.0) * 100.0, sh, lat, wt);
	if (wi)
		printf(" %8.2f%%", oq_frac_double(wi->sl[s].share) * 100.0);
	printf("\n");
}

static void report_text(const struct oq_cli_inputs *in, uint16_t active)
{
	const struct oq_synth_plan *pl = &in->synth;
	const struct oq_policy *p = in->policy;
	size_t i, l;

	printf("intents: %u.%02u%% of every link in all, %d SL(s) with an "
	       "intent, %d best effort\n",
	       pl->intents.total_bp / 100, pl->intents.total_bp % 100,
	       __builtin_popcount(pl->intents.sls),
	       16 - __builtin_popcount(pl->intents.sls));
	printf("guaranteed: the share of the level's VL with every VL busy "
	       "(another SL on the VL\n(shared) takes from the same "
	       "figure); wait: the longest a packet waits at one port;\n"
	       "both the worst with full packets on every VL (MTU+26 to "
	       "MTU+126 bytes) or MTU-size\nones (smaller packets can take "
	       "more: docs/intents.md)\n");
	for (i = 0; i < pl->n; i++) {
		const struct oq_synth_class *c = &pl->v[i];
		const struct oq_port *rep = in->fabric->ports[c->rep];
		struct oq_port_pred wi;
		bool have_wi = active && !what_if(c, active, &wi);
		char name[96];
		const char *why;
		unsigned int s;
		int be = be_vl(pl, c);

		if (oq_port_name(rep, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "port %u", rep->num);
		printf("\nclass %zu: %zu port(s) like %s (0x%016" PRIx64
		       "): %u data VL(s), MTU %u, %ux %s (%.2f Gb/s), "
		       "VLArb %u/%u entries\n",
		       i + 1, c->n_ports, name, rep->guid, c->in.vls, c->in.mtu,
		       c->width, oq_speed_name(c->speed), c->in.rate_gbps,
		       c->in.cap_high, c->in.cap_low);
		why = c->r.status == OQ_SYNTH_OK && class_shared(pl, c)
			      ? "the levels marked shared get their intents "
				"as a group only (another SL on the VL can "
				"take their share)"
			      : c->r.why;
		printf("  SL2VL %s, VLArb %s: %s%s%s\n",
		       oq_synth_class_sl2vl_kept(c) ? "kept" : "synthesized",
		       c->vlarb_kept ? "kept (a vlarb-scope)" : "synthesized",
		       class_status(pl, c), *why ? ": " : "", why);
		printf("  %-16s %2s %3s %-4s %7s  %-20s %8s %8s %-7s %8s "
		       "%9s%s\n",
		       "level", "SL", "VL", "prio", "intent", "guaranteed",
		       "Gb/s", "slack", "shared", "lat(us)", "wait(us)",
		       have_wi ? "  what-if" : "");
		for (l = 0; l < p->n_levels; l++) {
			const struct oq_qos_level *lv = &p->levels[l];

			if ((lv->bandwidth_bp <= 0 && !lv->latency_ns) ||
			    lv->sl < 0)
				continue;
			report_level_text(in, c, lv, have_wi ? &wi : NULL);
		}
		{
			char bel[32], pc[32];

			snprintf(bel, sizeof(bel), "(best effort, VL %d)", be);
			snprintf(pc, sizeof(pc), "%.2f%%",
				 best_effort(pl, c) * 100.0);
			printf("  %-29s %7s  %-20s %8.2f",
			       be >= 0 ? bel : "(no best effort)", "-", pc,
			       best_effort(pl, c) * c->in.rate_gbps);
			if (have_wi) {
				double w = 0;

				for (s = 0; s < 16; s++)
					if (!(pl->intents.sls & (1u << s)))
						w += oq_frac_double(
							wi.sl[s].share);
				printf("%37s %8.2f%%", "", w * 100.0);
			}
			printf("\n");
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
	if (active)
		printf("\nwhat-if: each level's share with only SL(s) 0x%04x "
		       "busy (a VL's share split equally among its busy SLs): "
		       "an idle level's share goes to the others\n",
		       active);
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

static void report_level_json(const struct oq_cli_inputs *in,
			      const struct oq_synth_class *c,
			      const struct oq_qos_level *lv,
			      const struct oq_port_pred *wi, bool first)
{
	const struct oq_synth_plan *pl = &in->synth;
	unsigned int s = (unsigned int)lv->sl, v;
	char exact[24], vl[8];
	double sh = oq_frac_double(c->r.share[s]),
	       us = oq_wait_us(c->r.wait[s], c->in.rate_gbps);
	uint16_t with = 0;
	bool met = oq_frac_meets_bp(c->r.share[s], pl->intents.need_bp[s]);

	for (v = 0; v < OQ_MAX_VLS; v++)
		if (c->r.vl_sls[v] & (1u << s))
			with |= c->r.vl_sls[v];
	with &= (uint16_t) ~(1u << s);
	sl_vl(c, s, vl, sizeof(vl));
	oq_frac_format(c->r.share[s], exact, sizeof(exact));
	printf("%s{\"level\": ", first ? "" : ", ");
	oq_json_fstring(stdout, lv->name ? lv->name : "");
	printf(", \"sl\": %u, \"vl\": \"%s\", \"priority\": \"%s\", "
	       "\"intent_pct\": ",
	       s, vl, prio_of(c, s));
	if (lv->bandwidth_bp > 0)
		printf("%.2f", lv->bandwidth_bp / 100.0);
	else
		printf("null");
	printf(", \"share\": \"%s\", \"share_pct\": %.4f, \"gbps\": %.3f, "
	       "\"slack_pct\": %.4f, \"shared_with\": [",
	       exact, sh * 100.0, sh * c->in.rate_gbps,
	       (sh - pl->intents.need_bp[s] / 10000.0) * 100.0);
	for (v = 0; v < 16; v++)
		if (with & (1u << v))
			printf("%s%u", (with & ((1u << v) - 1)) ? ", " : "", v);
	printf("], \"latency_us\": ");
	if (lv->latency_ns)
		printf("%.3f", (double)lv->latency_ns / 1000.0);
	else
		printf("null");
	printf(", \"wait_us\": ");
	if (us >= 0)
		printf("%.6g", us);
	else
		printf("null");
	if (lv->latency_ns && (us < 0 || us * 1000.0 > (double)lv->latency_ns))
		met = false;
	printf(", \"wait_is_bound\": %s",
	       (c->r.wait_bound & (1u << s)) ? "true" : "false");
	if (wi)
		printf(", \"what_if_pct\": %.4f",
		       oq_frac_double(wi->sl[s].share) * 100.0);
	printf(", \"met\": %s}", met ? "true" : "false");
}

static void report_json(const struct oq_cli_inputs *in, const char *engine,
			const struct oq_lower_check *chk, uint16_t active)
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

		if ((lv->bandwidth_bp <= 0 && !lv->latency_ns) || lv->sl < 0)
			continue;
		printf("%s{\"level\": ", first ? "" : ", ");
		oq_json_fstring(stdout, lv->name ? lv->name : "");
		printf(", \"sl\": %d, \"bandwidth_pct\": ", lv->sl);
		if (lv->bandwidth_bp > 0)
			printf("%.2f", lv->bandwidth_bp / 100.0);
		else
			printf("null");
		printf(", \"latency_us\": ");
		if (lv->latency_ns)
			printf("%.3f", (double)lv->latency_ns / 1000.0);
		else
			printf("null");
		printf(", \"priority\": \"%s\"}",
		       lv->prio_high ? "high" : "low");
		first = false;
	}
	printf("], \"missed_ports\": %zu, \"unchecked_ports\": %zu",
	       pl->ports_missed, pl->n_unchecked);
	printf(", \"lowered\": {\"ports\": %zu, \"differ\": %zu}", chk->n_ports,
	       chk->n_diff);
	if (active)
		printf(", \"active\": \"0x%04x\"", active);
	printf(", \"classes\": [");
	for (i = 0; i < pl->n; i++) {
		const struct oq_synth_class *c = &pl->v[i];
		const struct oq_port *rep = in->fabric->ports[c->rep];
		struct oq_port_pred wi;
		bool have_wi = active && !what_if(c, active, &wi);
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
		       rep->guid, c->in.vls, c->in.mtu, c->in.rate_gbps,
		       c->in.cap_high, c->in.cap_low,
		       oq_synth_class_sl2vl_kept(c) ? "kept" : "synthesized",
		       c->vlarb_kept ? "kept" : "synthesized",
		       class_status(pl, c));
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

			if ((lv->bandwidth_bp <= 0 && !lv->latency_ns) ||
			    lv->sl < 0)
				continue;
			report_level_json(in, c, lv, have_wi ? &wi : NULL,
					  first);
			first = false;
		}
		printf("], \"best_effort_vl\": %d, \"best_effort_pct\": %.4f",
		       be_vl(pl, c), best_effort(pl, c) * 100.0);
		if (have_wi) {
			double w = 0;

			for (s = 0; s < 16; s++)
				if (!(pl->intents.sls & (1u << s)))
					w += oq_frac_double(wi.sl[s].share);
			printf(", \"best_effort_what_if_pct\": %.4f",
			       w * 100.0);
		}
		printf("}");
	}
	printf("\n]}\n");
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
	if (o.active.given && !o.report && !o.c.json)
		return oq_usage_error(CMD, "--active shows a what-if in the "
					   "report: add --report or --json");
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
		report_text(&in, o.active.bits);
	else if (o.c.json)
		report_json(&in, e.name, &chk, o.active.bits);
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
		rc = oq_cli_write_file(CMD, "-o", o.output, text, len);
	else if (!o.report && !o.c.json)
		fwrite(text, 1, len, stdout);
out:
	oq_diags_free(&d);
	free(text);
	oq_fabric_tables_free(&tables);
	oq_cli_inputs_free(&in);
	return rc;
}
