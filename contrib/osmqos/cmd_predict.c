// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos predict: per class of ports with equal predictions (per port
 * with --all or --port) and SL, the VL, priority and predicted bandwidth
 * the tables the plugin would program give (all SLs backlogged by
 * default), and with --path the guaranteed bandwidth of one SL along the
 * min-hop route between two end ports.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/model.h>
#include <osmqos/pred_class.h>
#include <osmqos/policy.h>

#include "cli.h"
#include "inputs.h"
#include "output_file.h"
#include "predict.h"
#include "svg.h"
#include "tables_classes.h"

#define CMD	  "predict"
#define BAR_WIDTH 40

struct predict_opts {
	struct oq_cli_common c;
	struct oq_mask active;
	bool alone, compact;
	struct oq_num in_port;
	const char *path[2];
};
OQ_OPTS_STRUCT(struct predict_opts);

#define OFF(field) offsetof(struct predict_opts, field)

static const struct oq_opt predict_opts[] = {
	OQ_USE_H(OQ_CO_POLICY, 0,
		 "the QoS policy (default: the templates only)"),
	OQ_USE_F(OQ_CO_FABRIC, OQ_OPT_REQUIRED),
	OQ_USE(OQ_CO_PORT),
	OQ_OPT("active", 0, OQ_OPT_SLS, "SLS",
	       "SLs with traffic, e.g. 0-3,7 (default: all 16 backlogged)",
	       OFF(active)),
	OQ_OPT("alone", 0, OQ_OPT_FLAG, NULL,
	       "each active SL alone on the link", OFF(alone)),
	OQ_OPT("in-port", 0, OQ_OPT_NUM, "N",
	       "switch egress: traffic from input port N only (default: every "
	       "input at once)",
	       OFF(in_port), .max = OQ_MAX_SW_PORTS),
	OQ_USE(OQ_CO_PROFILE),
	OQ_USE_H(OQ_CO_OPENSM_CONF, 0,
		 "per-port-type templates (qos_* keys) and routing_engine"),
	OQ_USE(OQ_CO_PARTITIONS),
	OQ_USE(OQ_CO_NODE_NAME_MAP),
	OQ_USE_H(OQ_CO_MTU_BYTES, 0, "packet size (default: the link's MTU)"),
	OQ_OPT("path", 0, OQ_OPT_PAIR, "SRC DST",
	       "guaranteed bandwidth of --sl N along the min-hop route (end "
	       "ports, same forms as --port; a switch, or a port of one, is "
	       "its port 0)",
	       OFF(path)),
	OQ_USE_H(OQ_CO_SL, 0, "the SL for --path (0-15)"),
	OQ_USE_H(OQ_CO_ALL, 0,
		 "every port, one by one (default: one entry per class of "
		 "ports with equal predictions, its port count and an "
		 "example)"),
	OQ_USE_H(OQ_CO_JSON, 0,
		 "one JSON object: port `classes` with their counts and an "
		 "example port (with --all or --port also `nodes` whose ports "
		 "refer to them and `ports` with each port's numbers; `path` "
		 "with --path; docs/json.md)"),
	OQ_OPT("compact", 0, OQ_OPT_FLAG, NULL,
	       "with --json: `classes` and `nodes`, no `ports` (the "
	       "published file's shape)",
	       OFF(compact)),
	OQ_USE_H(OQ_CO_SVG, 0,
		 "also draw the ports as stacked per-SL bars (Gb/s) into FILE, "
		 "one bar per port (-: standard output, the text then on "
		 "standard error)"),
	OQ_OPT_END,
};

static const char *const predict_forms[] = {
	"--fabric TOPO [--policy FILE] --path SRC DST --sl N [OPTIONS]",
	NULL,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_predict = {
	.name = CMD,
	.summary = "predicted per-SL bandwidth of every port",
	.about = "Predicted per-SL bandwidth of the linked ports from the "
		 "tables `osmqos tables` shows, with the VL arbiter model "
		 "(docs/model.md): one entry per class of ports with equal "
		 "predictions (--all: every port; --port: one port or "
		 "switch).",
	.forms = predict_forms,
	.opts = predict_opts,
	.exit_status = "0 ok, 1 invalid policy or no route for --path, 2 "
		       "usage or I/O error.",
	.run = run,
};

struct ctx {
	struct oq_cli_inputs in;
	bool have_in;
	struct oq_templates templates;
	struct oq_fabric_tables tables;
	bool have_tables;
};

static void ctx_free(struct ctx *c)
{
	if (c->have_tables)
		oq_fabric_tables_free(&c->tables);
	if (c->have_in)
		oq_cli_inputs_free(&c->in);
}

/* The same inputs and table compilation as `osmqos tables`. */
static int load(struct ctx *c, const struct oq_cli_common *o)
{
	int rc = oq_cli_load(CMD, o, &c->in);

	if (rc)
		return rc;
	c->have_in = true;
	rc = oq_cli_compile_tables(CMD, &c->in, o->opensm_conf,
				   &c->templates, &c->tables);
	if (rc == OQ_EXIT_OK)
		c->have_tables = true;
	return rc;
}

const char *oq_predict_vl_text(int vl, char *buf, size_t n)
{
	if (vl == OQ_VL_NONE)
		return "drop";
	if (vl == OQ_VL_MIXED)
		return "mixed";
	snprintf(buf, n, "%d", vl);
	return buf;
}

/* What the numbers assume: which SLs send, and from which inputs. */
static void scenario_text(const struct oq_predict_opts *o, char *buf,
			  size_t len)
{
	char sls[64] = "all 16 SLs";
	unsigned int s, lo;
	size_t at;

	if (o->active_sls && o->active_sls != 0xffff) {
		at = (size_t)snprintf(sls, sizeof(sls), "SLs");
		for (s = 0; s < 16; s++) {
			if (!(o->active_sls & (1u << s)))
				continue;
			for (lo = s;
			     s + 1 < 16 && (o->active_sls >> (s + 1)) & 1; s++)
				;
			at += (size_t)snprintf(sls + at, sizeof(sls) - at,
					       lo == s ? "%s%u" : "%s%u-%u",
					       at > 3 ? "," : " ", lo, s);
		}
	}
	snprintf(buf, len, "%s %s, from %s", sls,
		 o->scenario == OQ_SCEN_ALONE ? "each alone on the link"
					      : "backlogged",
		 o->in_port >= 0 ? "one input port (--in-port)"
				 : "every input port at once");
}

/* SLs with no share whose VL is in no table: one line for all of them. */
static void text_idle_sls(uint16_t idle)
{
	unsigned int s, lo;
	bool first = true;

	if (!idle)
		return;
	printf("  SL");
	for (s = 0; s < 16; s++) {
		if (!(idle & (1u << s)))
			continue;
		for (lo = s; s + 1 < 16 && (idle >> (s + 1)) & 1; s++)
			;
		printf(lo == s ? "%s%u" : "%s%u-%u", first ? "" : ",", lo, s);
		first = false;
	}
	printf("  0.00%%: their VLs have no weight in the VLArb tables\n");
}

/* A port's SL lines (pp's VLs as the classes give them: mixed where
 * some input drops the SL), dropped: the SLs some input sends to VL15,
 * which are guaranteed nothing here (as the JSON's dropped); folded: the
 * SLs that get nothing because their VL has no weight, on one line. */
static void text_sls(const struct oq_port_pred *pp, uint16_t dropped,
		     const struct oq_port_tables *t, bool folded)
{
	char vb[8], fb[48];
	unsigned int s, i;
	uint16_t idle = 0;

	if (t->sl2vl_unknown)
		printf("  (SL2VL set by the routing engine, known only to the "
		       "running opensm: SLs shown on VL 0; guarantee and "
		       "worst wait unknown)\n");
	for (s = 0; s < 16; s++) {
		const struct oq_sl_pred *sp = &pp->sl[s];
		double f = oq_frac_double(sp->share);
		unsigned int len = (unsigned int)(f * BAR_WIDTH + 0.5);

		if (!sp->active)
			continue;
		if (folded && sp->prio == OQ_PRIO_NONE && f == 0.0 &&
		    !sp->starve && !(dropped & (1u << s))) {
			idle |= (uint16_t)(1u << s);
			continue;
		}
		oq_frac_format(sp->share, fb, sizeof(fb));
		printf("  SL%-2u VL%-5s %-6s |", s,
		       oq_predict_vl_text(sp->vl, vb, sizeof(vb)),
		       oq_prio_name(sp->prio));
		for (i = 0; i < BAR_WIDTH; i++)
			putchar(i < len ? '#' : ' ');
		printf("| %6.2f%% %8.2f Gb/s  %s%s%s\n", f * 100, sp->gbps, fb,
		       sp->starve ? "  STARVES (limit 255, high traffic)" : "",
		       !(dropped & (1u << s)) ? ""
		       : sp->vl == OQ_VL_NONE
			       ? "  DROPPED (VL15 from every input)"
			       : "  DROPPED from some input (VL15): "
				 "guaranteed 0");
	}
	text_idle_sls(idle);
	if (pp->arb.approx)
		printf("  (arbiter period longer than the step cap: "
		       "long-run average)\n");
}

static void print_port_text(const struct oq_port *p,
			    const struct oq_port_pred *pp, uint16_t dropped,
			    const struct oq_port_tables *t)
{
	char name[96];

	oq_port_name(p, name, sizeof(name));
	printf("%s  guid 0x%016llx  %ux%s  %.2f Gb/s  MTU %u%s\n", name,
	       (unsigned long long)p->guid, p->width, oq_speed_name(p->speed),
	       pp->rate_gbps, pp->mtu_bytes,
	       pp->profile_applied ? "  [cx2-2k]" : "");
	text_sls(pp, dropped, t, false);
}

void oq_predict_json_sl_share(const struct oq_sl_pred *sp)
{
	char fb[48];

	oq_frac_format(sp->share, fb, sizeof(fb));
	printf("\"vl\": ");
	if (sp->vl >= 0)
		printf("%d", sp->vl);
	else
		printf("null");
	printf(", \"share\": %.12g, \"share_exact\": \"%s\", \"gbps\": %.6g, "
	       "\"priority\": \"%s\"",
	       oq_frac_double(sp->share), fb, sp->gbps, oq_prio_name(sp->prio));
}

/* One port in the per-port shape (`ports`, docs/json.md), kept for
 * scripts written against it. */
static void print_port_json(const struct oq_port *p,
			    const struct oq_port_pred *pp,
			    const struct oq_port_tables *t, bool first)
{
	char name[96];
	unsigned int s;
	bool f1 = true;

	oq_port_name(p, name, sizeof(name));
	printf("%s{\"guid\": \"0x%016llx\", \"port\": %u, \"node\": ",
	       first ? "" : ", ", (unsigned long long)p->guid, p->num);
	oq_json_fstring(stdout, p->node->desc);
	printf(", \"name\": ");
	oq_json_fstring(stdout, name);
	printf(", \"rate_gbps\": %.6g, \"mtu\": %u, \"sl2vl_origin\": \"%s\", "
	       "\"profile\": \"%s\", \"exact\": %s, \"sls\": [",
	       pp->rate_gbps, pp->mtu_bytes, oq_pred_sl2vl_origin(t),
	       pp->profile_applied ? "cx2-2k" : "iba",
	       pp->arb.approx ? "false" : "true");
	for (s = 0; s < 16; s++) {
		const struct oq_sl_pred *sp = &pp->sl[s];

		if (!sp->active)
			continue;
		printf("%s{\"sl\": %u, ", f1 ? "" : ", ", s);
		oq_predict_json_sl_share(sp);
		printf(", \"starve\": %s}", sp->starve ? "true" : "false");
		f1 = false;
	}
	printf("]}");
}

/* The ports the text, JSON and SVG outputs show: each class predicted
 * once (osmqos/pred_class.h), as the plugin's published file does. */
struct port_preds {
	struct oq_pred_classes classes;
	/* A switch as a whole: classes is a view of one node's ports in
	 * the whole fabric's classes, all (narrow_to_node). */
	struct oq_pred_classes all;
	bool narrowed;
	const struct oq_port **port;
	struct oq_port_pred *pred;
	size_t n;
};

static void port_preds_free(struct port_preds *pr)
{
	if (pr->narrowed) {
		free(pr->classes.v);
		free(pr->classes.of_port);
		oq_pred_classes_free(&pr->all);
	} else {
		oq_pred_classes_free(&pr->classes);
	}
	free(pr->port);
	free(pr->pred);
}

/*
 * The classes of node n's ports alone, taken from the whole fabric's:
 * what the class builder would give for just those ports, since it
 * numbers classes in the order of their first port by node GUID and port
 * number, and one node's ports come in port order.  The view borrows each
 * class's contents from all; only its v and of_port are its own.
 */
static int narrow_to_node(const struct oq_fabric *f,
			  const struct oq_pred_classes *all,
			  const struct oq_node *n, struct oq_pred_classes *out)
{
	uint32_t *map = malloc((all->n ? all->n : 1) * sizeof(*map));
	size_t i;

	*out = *all;
	out->v = calloc(all->n ? all->n : 1, sizeof(*out->v));
	out->of_port =
		malloc((all->n_ports ? all->n_ports : 1) * sizeof(*out->of_port));
	if (!map || !out->v || !out->of_port) {
		free(map);
		free(out->v);
		free(out->of_port);
		memset(out, 0, sizeof(*out));
		return -1;
	}
	out->n = out->n_classified = out->n_bad = 0;
	for (i = 0; i < all->n; i++)
		map[i] = OQ_PRED_CLASS_NONE;
	for (i = 0; i < all->n_ports; i++)
		out->of_port[i] = OQ_PRED_CLASS_NONE;
	for (i = 0; i <= n->n_ports; i++) {
		const struct oq_port *p = &n->ports[i];
		uint32_t k, pi;

		if (!p->present)
			continue;
		pi = oq_port_index(f, p);
		if (pi >= all->n_ports)
			continue;
		k = all->of_port[pi];
		if (k == OQ_PRED_CLASS_NONE) {
			out->n_bad += oq_pred_modeled(f, p);
			continue;
		}
		if (map[k] == OQ_PRED_CLASS_NONE) {
			map[k] = (uint32_t)out->n;
			out->v[out->n] = all->v[k];
			out->v[out->n].rep = pi;
			out->v[out->n].n_ports = 0;
			out->n++;
		}
		out->of_port[pi] = map[k];
		out->v[map[k]].n_ports++;
		out->n_classified++;
	}
	free(map);
	return 0;
}

/* Every port's prediction, or only's, or with whole every port of only's
 * switch. */
static int predict_all(struct ctx *c, const struct oq_port *only, bool whole,
		       const struct oq_predict_opts *o, struct port_preds *pr)
{
	size_t i, cap = c->in.fabric->n_ports ? c->in.fabric->n_ports : 1;
	int err;

	memset(pr, 0, sizeof(*pr));
	pr->port = calloc(cap, sizeof(*pr->port));
	pr->pred = calloc(cap, sizeof(*pr->pred));
	if (!pr->port || !pr->pred) {
		err = -1;
	} else if (whole) {
		err = oq_pred_classes_build(c->in.fabric, &c->tables, o, NULL,
					    &pr->all);
		if (!err) {
			err = narrow_to_node(c->in.fabric, &pr->all, only->node,
					     &pr->classes);
			if (err)
				oq_pred_classes_free(&pr->all);
			pr->narrowed = !err;
		}
	} else {
		err = oq_pred_classes_build(c->in.fabric, &c->tables, o, only,
					    &pr->classes);
	}
	if (err) {
		port_preds_free(pr);
		fprintf(stderr, "osmqos predict: out of memory; try --port "
				"to predict one port\n");
		return OQ_EXIT_USAGE;
	}
	for (i = 0; i < c->in.fabric->n_ports; i++) {
		const struct oq_pred_class *k =
			oq_pred_class_of(&pr->classes, i);
		unsigned int s;

		if (!k)
			continue;
		pr->port[pr->n] = c->in.fabric->ports[i];
		pr->pred[pr->n] = k->pred;
		/* The VL as the classes give it: mixed where some input
		 * drops the SL and others carry it. */
		for (s = 0; s < 16; s++)
			pr->pred[pr->n].sl[s].vl =
				(int8_t)oq_pred_class_sl_vl(k, s);
		pr->n++;
	}
	return OQ_EXIT_OK;
}

static int predict_ports(const struct port_preds *pr, const struct oq_fabric *f,
			 const struct oq_fabric_tables *tables, bool json,
			 bool compact, const struct oq_predict_opts *o)
{
	char sc[160], n1[32];
	size_t i;

	if (json) {
		/* The published file's members, then (unless --compact) the
		 * same numbers port by port. */
		printf("{\"schema\": %d, ", OQ_PRED_SCHEMA);
		oq_pred_classes_write_json(stdout, f, tables, &pr->classes);
		if (!compact) {
			printf(",\n \"ports\": [");
			for (i = 0; i < pr->n; i++)
				print_port_json(pr->port[i], &pr->pred[i],
						&tables->ports[oq_port_index(
							f, pr->port[i])],
						i == 0);
			printf("]");
		}
		printf("}\n");
	} else {
		/* What every number below assumes, as the summary says it. */
		scenario_text(o, sc, sizeof(sc));
		printf("%s port%s; %s\n", oq_count_text(pr->n, n1, sizeof(n1)),
		       pr->n == 1 ? "" : "s", sc);
		for (i = 0; i < pr->n; i++) {
			size_t pi = oq_port_index(f, pr->port[i]);
			const struct oq_pred_class *k =
				oq_pred_class_of(&pr->classes, pi);

			print_port_text(pr->port[i], &pr->pred[i],
					k ? k->guar.dropped : 0,
					&tables->ports[pi]);
		}
	}
	return OQ_EXIT_OK;
}

/* The default: each class once, with its port count and first port. */
static int predict_classes(const struct port_preds *pr,
			   const struct oq_fabric *f,
			   const struct oq_fabric_tables *tables, bool json,
			   const struct oq_predict_opts *o)
{
	const struct oq_pred_classes *c = &pr->classes;
	struct oq_port_pred sum;
	char sc[160], n1[32], name[128];
	unsigned int s;
	size_t k;

	scenario_text(o, sc, sizeof(sc));
	if (json) {
		printf("{\"schema\": %d, \"summary\": true, \"scenario\": ",
		       OQ_PRED_SCHEMA);
		oq_json_fstring(stdout, sc);
		printf(", \"ports_total\": %zu, ", c->n_classified);
		oq_pred_classes_write_json_classes(stdout, f, tables, c, true);
		printf("}\n");
	} else {
		printf("%s port%s in %zu class%s of equal predictions; %s "
		       "(--all lists every port, --port PORT one)\n",
		       oq_count_text(c->n_classified, n1, sizeof(n1)),
		       c->n_classified == 1 ? "" : "s", c->n,
		       c->n == 1 ? "" : "es", sc);
		for (k = 0; k < c->n; k++) {
			const struct oq_pred_class *cl = &c->v[k];
			const struct oq_port *p = f->ports[cl->rep];

			oq_port_name(p, name, sizeof(name));
			printf("class %zu: %s port%s (%ux%s  %.2f Gb/s  MTU "
			       "%u%s), e.g. %s (0x%016llx)\n",
			       k + 1, oq_count_text(cl->n_ports, n1, sizeof(n1)),
			       cl->n_ports == 1 ? "" : "s", p->width,
			       oq_speed_name(p->speed), cl->pred.rate_gbps,
			       cl->pred.mtu_bytes,
			       cl->pred.profile_applied ? "  [cx2-2k]" : "",
			       name, (unsigned long long)p->guid);
			/* Its VLs as --port and the JSON give them. */
			sum = cl->pred;
			for (s = 0; s < 16; s++)
				sum.sl[s].vl =
					(int8_t)oq_pred_class_sl_vl(cl, s);
			text_sls(&sum, cl->guar.dropped,
				 &tables->ports[cl->rep], true);
		}
	}
	return OQ_EXIT_OK;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* --svg FILE: the same ports and scenario as the text, as bars, drawn
 * whole in memory first: nothing to draw or no memory leaves FILE as it
 * was. */
static int predict_svg(const struct port_preds *pr,
		       const struct oq_predict_opts *o, const char *file,
		       const char *policy, const char *fabric)
{
	char title[512], *svg = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&svg, &len);
	int n, rc;

	if (!f)
		return oq_usage_error(CMD, "out of memory");
	snprintf(title, sizeof(title), "osmqos predict: %s on %s, %s",
		 policy ? base_name(policy) : "OpenSM templates",
		 base_name(fabric),
		 o->active_sls ? "--active SLs backlogged"
			       : "all SLs backlogged");
	n = oq_svg_predict_bars(f, title, pr->port, pr->pred, pr->n);
	if (fclose(f) || n < 0) {
		free(svg);
		return oq_usage_error(CMD, "out of memory drawing --svg");
	}
	if (!n) {
		free(svg);
		return oq_usage_error(CMD, "--svg: no linked port to draw; "
					   "check the topology's links");
	}
	rc = oq_cli_write_file(CMD, "--svg", file, svg, len);
	free(svg);
	if (!rc)
		fprintf(stderr, "wrote %s: %d port bar(s)\n",
			oq_cli_output_name(file), n);
	return rc;
}

/* The options' checks the table cannot express. */
static int check_opts(const struct predict_opts *o)
{
	if (o->path[0] && !o->c.sl.given)
		return oq_usage_error(CMD, "--path needs --sl N");
	if (!o->path[0] && o->c.sl.given)
		return oq_usage_error(CMD, "--sl goes with --path SRC DST");
	if (o->path[0] && o->c.port)
		return oq_usage_error(CMD, "--port and --path exclude each "
					   "other; pick one");
	if (o->compact && !o->c.json)
		return oq_usage_error(CMD, "--compact goes with --json");
	if (o->path[0] && o->c.svg)
		return oq_usage_error(CMD, "--svg draws per-port bars; drop "
					   "--path (or --svg)");
	return 0;
}

/* --in-port N names an input port of the switches predicted: beyond
 * every one of them it is a usage error, not a fabric of failed ports. */
static int check_in_port(const struct oq_fabric *f, const struct oq_port *only,
			 int in_port)
{
	unsigned int most = 0;
	size_t i;

	if (in_port < 0)
		return OQ_EXIT_OK;
	for (i = 0; i < f->n_nodes; i++) {
		const struct oq_node *n = f->nodes[i];

		if (n->type == OQ_NODE_SWITCH && (!only || only->node == n) &&
		    n->n_ports > most)
			most = n->n_ports;
	}
	if ((unsigned int)in_port <= most)
		return OQ_EXIT_OK;
	if (!most)
		return oq_usage_error(
			CMD,
			"--in-port %d: %s no switch; leave "
			"--in-port out",
			in_port, only ? "the port is on" : "the fabric has");
	return oq_usage_error(CMD,
			      "--in-port %d: %s has %u ports; give an input "
			      "port 0..%u",
			      in_port,
			      only ? "the switch" : "the largest switch", most,
			      most);
}

static int predict_fabric(struct ctx *c, const struct predict_opts *o,
			  const struct oq_predict_opts *po)
{
	const struct oq_port *only = NULL;
	bool whole = false;
	struct port_preds pr;
	int rc;

	if (o->c.port) {
		only = oq_cli_port(CMD, c->in.fabric, "--port", o->c.port,
				   &whole);
		if (!only)
			return OQ_EXIT_USAGE;
	}
	rc = check_in_port(c->in.fabric, only, po->in_port);
	if (rc)
		return rc;
	rc = predict_all(c, only, whole, po, &pr);
	if (rc)
		return rc;
	if (!o->c.all && !only && !o->compact)
		rc = predict_classes(&pr, c->in.fabric, &c->tables, o->c.json,
				     po);
	else
		rc = predict_ports(&pr, c->in.fabric, &c->tables, o->c.json,
				   o->compact, po);
	if (rc == OQ_EXIT_OK && pr.classes.n_bad)
		rc = oq_usage_error(
			CMD, "%zu port(s) could not be predicted%s",
			pr.classes.n_bad,
			po->in_port >= 0 ? ": their switches have fewer ports "
					   "than --in-port names; give a "
					   "smaller --in-port, or --port on a "
					   "switch that has it"
					 : " (the model refuses their tables); "
					   "osmqos tables --port shows them");
	if (rc == OQ_EXIT_OK && o->c.svg)
		rc = predict_svg(&pr, po, o->c.svg, o->c.policy, o->c.fabric);
	port_preds_free(&pr);
	return rc;
}

static int run(int argc, char **argv)
{
	struct predict_opts o = {0};
	struct oq_predict_opts po;
	struct ctx c;
	int rc = oq_cli_parse(&oq_spec_predict, argc, argv, &o);

	if (rc != OQ_CLI_RUN)
		return rc;
	if ((rc = check_opts(&o)))
		return rc;
	oq_predict_opts_init(&po);
	if (o.active.given)
		po.active_sls = o.active.bits;
	if (o.alone)
		po.scenario = OQ_SCEN_ALONE;
	if (o.in_port.given)
		po.in_port = (int)o.in_port.v;
	po.profile = (enum oq_profile)o.c.profile;
	if (o.c.mtu.given)
		po.mtu_bytes = (uint32_t)o.c.mtu.v;

	memset(&c, 0, sizeof(c));
	rc = load(&c, &o.c);
	if (rc == OQ_EXIT_OK && o.path[0])
		rc = oq_cli_predict_path(c.in.fabric, &c.tables, o.path[0],
					 o.path[1], (int)o.c.sl.v, &po,
					 o.c.json);
	else if (rc == OQ_EXIT_OK)
		rc = predict_fabric(&c, &o, &po);
	ctx_free(&c);
	return rc;
}
