// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos predict: per port and SL, the VL, priority and predicted
 * bandwidth the tables the plugin would program give (all SLs backlogged
 * by default), and with --path the guaranteed bandwidth of one SL along
 * the min-hop route between two end ports.
 */
#include <config.h>

#include <getopt.h>
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
#include "svg.h"

#define CMD	  "predict"
#define BAR_WIDTH 40

void oq_usage_predict(FILE *out)
{
	fprintf(out,
		"Usage: osmqos predict --fabric TOPO [--policy P] [--port "
		"PORT]\n"
		"                      [--active SL,...] [--alone] [--in-port "
		"N]\n"
		"                      [--profile iba|cx2-2k] [--opensm-conf "
		"F]\n"
		"                      [--partitions F] [--mtu BYTES] "
		"[--json [--compact]]\n"
		"                      [--svg FILE]\n"
		"       osmqos predict --fabric TOPO [--policy P] --path SRC "
		"DST --sl N\n\n"
		"Predicted per-SL bandwidth of every linked port (or one) from "
		"the tables\n"
		"`osmqos tables` shows, with the VL arbiter model "
		"(docs/model.md).\n\n"
		"  --policy P       QoS policy file (default: templates "
		"only)\n"
		"  --fabric TOPO    ibnetdiscover output or ibsim net file\n"
		"  --port PORT      one port: GUID (0x...), lid:N or "
		"\"Node/P<n>\"\n"
		"  --active SLs     SLs with traffic (default: all 16 "
		"backlogged)\n"
		"  --alone          each active SL alone on the link\n"
		"  --in-port N      switch egress: traffic from input port N "
		"only\n"
		"                   (default: every input at once)\n"
		"  --profile P      iba (default) or cx2-2k\n"
		"  --opensm-conf F  per-port-type templates (qos_* keys)\n"
		"  --partitions F   partitions.conf for `partition:` groups\n"
		"  --mtu BYTES      packet size (default: the link's MTU)\n"
		"  --path SRC DST   guaranteed bandwidth of --sl N along the "
		"min-hop\n"
		"                   route (end ports, same forms as "
		"--port)\n"
		"  --json           one JSON object: port `classes`, `nodes` "
		"whose ports\n"
		"                   refer to them, and `ports` with each "
		"port's numbers\n"
		"                   (or `path` with --path)\n"
		"  --compact        with --json: no `ports` (the published "
		"file's shape)\n"
		"  --svg FILE       also draw the ports as stacked per-SL "
		"bars (Gb/s)\n"
		"                   into FILE, one bar per port\n");
}

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
static int load(struct ctx *c, const char *policy, const char *fabric,
		const char *conf, const char *parts)
{
	int rc = oq_cli_load(CMD, policy, fabric, parts, &c->in);

	if (rc)
		return rc;
	c->have_in = true;
	rc = oq_cli_compile_tables(CMD, &c->in, conf, &c->templates,
				   &c->tables);
	if (rc == OQ_EXIT_OK)
		c->have_tables = true;
	return rc;
}

static const char *vl_text(int vl, char *buf, size_t n)
{
	if (vl == OQ_VL_NONE)
		return "drop";
	if (vl == OQ_VL_MIXED)
		return "mixed";
	snprintf(buf, n, "%d", vl);
	return buf;
}

static void print_port_text(const struct oq_port *p,
			    const struct oq_port_pred *pp,
			    const struct oq_port_tables *t)
{
	char name[96], vb[8], fb[48];
	unsigned int s, i;

	oq_port_name(p, name, sizeof(name));
	printf("%s  guid 0x%016llx  %ux%s  %.2f Gb/s  MTU %u%s\n", name,
	       (unsigned long long)p->guid, p->width, oq_speed_name(p->speed),
	       pp->rate_gbps, pp->mtu_bytes,
	       pp->profile_applied ? "  [cx2-2k]" : "");
	if (t->sl2vl_unknown)
		printf("  (SL2VL set by the routing engine, known only to the "
		       "running opensm: SLs shown on VL 0)\n");
	for (s = 0; s < 16; s++) {
		const struct oq_sl_pred *sp = &pp->sl[s];
		double f = oq_frac_double(sp->share);
		unsigned int len = (unsigned int)(f * BAR_WIDTH + 0.5);

		if (!sp->active)
			continue;
		oq_frac_format(sp->share, fb, sizeof(fb));
		printf("  SL%-2u VL%-5s %-6s |", s,
		       vl_text(sp->vl, vb, sizeof(vb)), oq_prio_name(sp->prio));
		for (i = 0; i < BAR_WIDTH; i++)
			putchar(i < len ? '#' : ' ');
		printf("| %6.2f%% %8.2f Gb/s  %s%s\n", f * 100, sp->gbps, fb,
		       sp->starve ? "  STARVES (limit 255, high traffic)" : "");
	}
	if (pp->arb.approx)
		printf("  (arbiter period longer than the step cap: "
		       "long-run average)\n");
}

/* One port in the per-port shape (`ports`, docs/json.md), kept for
 * scripts written against it. */
static void print_port_json(const struct oq_port *p,
			    const struct oq_port_pred *pp,
			    const struct oq_port_tables *t, bool first)
{
	char name[96], fb[48];
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
		oq_frac_format(sp->share, fb, sizeof(fb));
		printf("%s{\"sl\": %u, \"vl\": ", f1 ? "" : ", ", s);
		if (sp->vl >= 0)
			printf("%d", sp->vl);
		else
			printf("null");
		printf(", \"share\": %.12g, \"share_exact\": \"%s\", "
		       "\"gbps\": %.6g, \"priority\": \"%s\", \"starve\": %s}",
		       oq_frac_double(sp->share), fb, sp->gbps,
		       oq_prio_name(sp->prio), sp->starve ? "true" : "false");
		f1 = false;
	}
	printf("]}");
}

/* The ports the text, JSON and SVG outputs show: each class predicted
 * once (osmqos/pred_class.h), as the plugin's published file does. */
struct port_preds {
	struct oq_pred_classes classes;
	const struct oq_port **port;
	struct oq_port_pred *pred;
	size_t n;
};

static void port_preds_free(struct port_preds *pr)
{
	oq_pred_classes_free(&pr->classes);
	free(pr->port);
	free(pr->pred);
}

static int predict_all(struct ctx *c, const struct oq_port *only,
		       const struct oq_predict_opts *o, struct port_preds *pr)
{
	size_t i, cap = c->in.fabric->n_ports ? c->in.fabric->n_ports : 1;

	memset(pr, 0, sizeof(*pr));
	pr->port = calloc(cap, sizeof(*pr->port));
	pr->pred = calloc(cap, sizeof(*pr->pred));
	if (!pr->port || !pr->pred ||
	    oq_pred_classes_build(c->in.fabric, &c->tables, o, only,
				  &pr->classes)) {
		port_preds_free(pr);
		fprintf(stderr, "osmqos predict: out of memory; try --port "
				"to predict one port\n");
		return OQ_EXIT_USAGE;
	}
	for (i = 0; i < c->in.fabric->n_ports; i++) {
		const struct oq_pred_class *k =
			oq_pred_class_of(&pr->classes, i);

		if (!k)
			continue;
		pr->port[pr->n] = c->in.fabric->ports[i];
		pr->pred[pr->n++] = k->pred;
	}
	return OQ_EXIT_OK;
}

static int predict_ports(const struct port_preds *pr, const struct oq_fabric *f,
			 const struct oq_fabric_tables *tables, bool json,
			 bool compact)
{
	size_t i;

	if (json) {
		/* The published file's members, then (unless --compact) the
		 * same numbers port by port. */
		printf("{\"schema\": %d, ", OQ_PRED_SCHEMA);
		oq_pred_classes_write_json(stdout, f, tables, &pr->classes);
		if (!compact) {
			printf(",\n \"ports\": [");
			for (i = 0; i < pr->n; i++)
				print_port_json(
					pr->port[i], &pr->pred[i],
					&tables->ports[pr->port[i]->index],
					i == 0);
			printf("]");
		}
		printf("}\n");
	} else {
		for (i = 0; i < pr->n; i++)
			print_port_text(pr->port[i], &pr->pred[i],
					&tables->ports[pr->port[i]->index]);
	}
	if (pr->classes.n_bad) {
		fprintf(stderr,
			"osmqos predict: %zu port(s) could not be predicted "
			"(--in-port beyond the switch's ports, or a packet "
			"size of 0?)\n",
			pr->classes.n_bad);
		return OQ_EXIT_USAGE;
	}
	return OQ_EXIT_OK;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* --svg FILE: the same ports and scenario as the text, as bars. */
static int predict_svg(const struct port_preds *pr,
		       const struct oq_predict_opts *o, const char *file,
		       const char *policy, const char *fabric)
{
	char title[512];
	FILE *f = fopen(file, "w");
	int n;

	if (!f)
		return oq_usage_error(CMD,
				      "--svg: cannot write '%s'; check the "
				      "directory exists and is writable",
				      file);
	snprintf(title, sizeof(title), "osmqos predict: %s on %s, %s",
		 policy ? base_name(policy) : "OpenSM templates",
		 base_name(fabric),
		 o->active_sls ? "--active SLs backlogged"
			       : "all SLs backlogged");
	n = oq_svg_predict_bars(f, title, pr->port, pr->pred, pr->n);
	if (fclose(f) || n <= 0) {
		remove(file); /* no half-drawn picture */
		if (!n)
			return oq_usage_error(CMD,
					      "--svg: no linked port to draw; "
					      "check the topology's links");
		fprintf(stderr,
			"osmqos predict: error writing '%s'; check free "
			"space\n",
			file);
		return OQ_EXIT_USAGE;
	}
	fprintf(stderr, "wrote %s: %d port bar(s)\n", file, n);
	return OQ_EXIT_OK;
}

/* Min-hop route from src to dst over the fabric graph (BFS over nodes);
 * fills the egress ports and input port numbers.  Returns hops or -1. */
static int route(const struct oq_fabric *f, const struct oq_port *src,
		 const struct oq_port *dst, const struct oq_port **eg, int *in,
		 size_t max)
{
	size_t n = f->n_nodes, head = 0, tail = 0, k;
	const struct oq_port **via; /* port we left the previous node by */
	uint32_t *queue;
	int hops = -1;

	via = calloc(n, sizeof(*via));
	queue = calloc(n, sizeof(*queue));
	if (!via || !queue)
		goto out;
	if (!src->peer)
		goto out;
	if (src->node == dst->node) {
		hops = 0;
		goto out;
	}
	/* The source end port is the only way out of its node. */
	via[src->peer->node->index] = src;
	queue[tail++] = src->peer->node->index;
	while (head < tail && !via[dst->node->index]) {
		const struct oq_node *nd = f->nodes[queue[head++]];
		unsigned int pn;

		if (nd->type != OQ_NODE_SWITCH)
			continue; /* CAs do not forward */
		for (pn = 1; pn <= nd->n_ports; pn++) {
			const struct oq_port *p = &nd->ports[pn];
			uint32_t to;

			if (!p->present || !p->peer)
				continue;
			to = p->peer->node->index;
			if (via[to] || p->peer->node == src->node)
				continue;
			via[to] = p;
			queue[tail++] = to;
		}
	}
	if (!via[dst->node->index])
		goto out;
	/* Walk back from dst, then reverse. */
	k = 0;
	{
		const struct oq_node *nd = dst->node;

		while (nd != src->node && k < max) {
			const struct oq_port *p = via[nd->index];

			eg[k] = p;
			in[k] = 0;
			k++;
			nd = p->node;
		}
		if (nd != src->node)
			goto out;
	}
	for (size_t i = 0; i < k / 2; i++) {
		const struct oq_port *t = eg[i];

		eg[i] = eg[k - 1 - i];
		eg[k - 1 - i] = t;
	}
	for (size_t i = 1; i < k; i++)
		in[i] = eg[i - 1]->peer->num;
	hops = (int)k;
out:
	free(via);
	free(queue);
	return hops;
}

#define MAX_HOPS 64

static int predict_path(struct ctx *c, const char *s_src, const char *s_dst,
			int sl, const struct oq_predict_opts *o, bool json)
{
	const struct oq_port *src, *dst, *eg[MAX_HOPS];
	struct oq_path_hop hops[MAX_HOPS];
	struct oq_port_pred scratch;
	struct oq_path_pred pp;
	int in[MAX_HOPS], n, i;
	char name[96], fb[48];

	src = oq_fabric_parse_port(c->in.fabric, s_src);
	dst = oq_fabric_parse_port(c->in.fabric, s_dst);
	if (!src || !dst)
		return oq_usage_error(CMD,
				      "--path: no port '%s' in the fabric; "
				      "give a port GUID, lid:N or "
				      "\"Node/P<n>\"",
				      !src ? s_src : s_dst);
	if (!oq_port_is_endport(src) || !oq_port_is_endport(dst))
		return oq_usage_error(CMD, "--path: SRC and DST must be end "
					   "ports (CA ports or switch port "
					   "0)");
	if (src->node->type == OQ_NODE_SWITCH)
		return oq_usage_error(CMD, "--path: a switch as the source "
					   "is not modelled; start at a CA "
					   "port");
	n = route(c->in.fabric, src, dst, eg, in, MAX_HOPS);
	if (n < 0) {
		fprintf(stderr,
			"osmqos predict: no route from %s to %s in the "
			"topology (check both are connected)\n",
			s_src, s_dst);
		return OQ_EXIT_FAIL;
	}
	if (n == 0)
		return oq_usage_error(CMD, "--path: SRC and DST are on the "
					   "same node; nothing to predict");
	for (i = 0; i < n; i++) {
		hops[i].t = &c->tables.ports[eg[i]->index];
		hops[i].in_port = in[i];
		hops[i].rate_gbps = -1.0;
	}
	if (oq_predict_path(hops, (size_t)n, (uint8_t)sl, o, &pp, &scratch))
		return oq_usage_error(CMD, "--path: prediction failed (bad "
					   "--sl or packet size?)");
	if (json) {
		printf("{\"path\": {\"sl\": %d, \"guaranteed_gbps\": %.6g, "
		       "\"dropped\": %s, \"bottleneck\": %zu, \"hops\": [",
		       sl, pp.gbps, pp.dropped ? "true" : "false",
		       pp.bottleneck);
	} else {
		printf("SL%d from %s to %s, %d hop(s):\n", sl, s_src, s_dst, n);
	}
	for (i = 0; i < n; i++) {
		struct oq_predict_opts ho = *o;
		const struct oq_sl_pred *sp;
		char vb[8];

		ho.in_port = hops[i].t->n_sl2vl > 1 ? in[i] : OQ_IN_AGGREGATE;
		if (ho.active_sls)
			ho.active_sls |= (uint16_t)(1u << sl);
		oq_predict_port(hops[i].t, -1.0, &ho, &scratch);
		sp = &scratch.sl[sl];
		oq_port_name(eg[i], name, sizeof(name));
		oq_frac_format(sp->share, fb, sizeof(fb));
		if (json) {
			printf("%s{\"guid\": \"0x%016llx\", \"port\": %u, "
			       "\"name\": ",
			       i ? ", " : "", (unsigned long long)eg[i]->guid,
			       eg[i]->num);
			oq_json_fstring(stdout, name);
			printf(", \"in_port\": %d, \"rate_gbps\": %.6g, "
			       "\"vl\": ",
			       in[i], scratch.rate_gbps);
			if (sp->vl >= 0)
				printf("%d", sp->vl);
			else
				printf("null");
			printf(", \"share\": %.12g, \"share_exact\": \"%s\", "
			       "\"gbps\": %.6g, \"priority\": \"%s\"}",
			       oq_frac_double(sp->share), fb, sp->gbps,
			       oq_prio_name(sp->prio));
		} else {
			printf("  %c %-28s in %-3d %7.2f Gb/s  VL%-5s %-6s "
			       "share %-10s -> %8.2f Gb/s\n",
			       (size_t)i == pp.bottleneck ? '*' : ' ', name,
			       in[i], scratch.rate_gbps,
			       vl_text(sp->vl, vb, sizeof(vb)),
			       oq_prio_name(sp->prio), fb, sp->gbps);
		}
	}
	oq_port_name(eg[pp.bottleneck], name, sizeof(name));
	if (json) {
		printf("], \"bottleneck_port\": ");
		oq_json_fstring(stdout, name);
		printf("}}\n");
	} else {
		printf("guaranteed: %.2f Gb/s, bottleneck %s%s\n", pp.gbps,
		       name,
		       pp.dropped ? " (SL dropped on the way: VL15)" : "");
	}
	return OQ_EXIT_OK;
}

int oq_cmd_predict(int argc, char **argv)
{
	static const struct option opts[] = {
		{"policy", required_argument, NULL, 'p'},
		{"fabric", required_argument, NULL, 'f'},
		{"port", required_argument, NULL, 'P'},
		{"active", required_argument, NULL, 'a'},
		{"alone", no_argument, NULL, 'A'},
		{"in-port", required_argument, NULL, 'i'},
		{"profile", required_argument, NULL, 'r'},
		{"opensm-conf", required_argument, NULL, 'c'},
		{"partitions", required_argument, NULL, 'x'},
		{"mtu", required_argument, NULL, 'm'},
		{"path", required_argument, NULL, 'T'},
		{"sl", required_argument, NULL, 's'},
		{"json", no_argument, NULL, 'j'},
		{"compact", no_argument, NULL, 'C'},
		{"svg", required_argument, NULL, 'g'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	const char *policy = NULL, *fabric = NULL, *port = NULL;
	const char *conf = NULL, *parts = NULL, *psrc = NULL, *pdst = NULL;
	const char *svg = NULL;
	struct oq_predict_opts o;
	unsigned long long v;
	struct ctx c;
	bool json = false, compact = false;
	int ch, rc, sl = -1;

	oq_predict_opts_init(&o);
	optind = 1;
	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (ch) {
		case 'p':
			policy = optarg;
			break;
		case 'f':
			fabric = optarg;
			break;
		case 'P':
			port = optarg;
			break;
		case 'a':
			if ((rc = oq_parse_mask(CMD, "--active", optarg, 15,
						"an SL (0-15)",
						&o.active_sls)))
				return rc;
			break;
		case 'A':
			o.scenario = OQ_SCEN_ALONE;
			break;
		case 'i':
			if (oq_parse_u64(optarg, &v) || v > OQ_MAX_SW_PORTS)
				return oq_usage_error(CMD,
						      "--in-port: '%s' is not "
						      "a port number (0-254)",
						      optarg);
			o.in_port = (int)v;
			break;
		case 'r':
			if (!strcmp(optarg, "iba"))
				o.profile = OQ_PROFILE_IBA;
			else if (!strcmp(optarg, "cx2-2k"))
				o.profile = OQ_PROFILE_CX2_2K;
			else
				return oq_usage_error(CMD,
						      "--profile: unknown "
						      "'%s' (use iba or "
						      "cx2-2k)",
						      optarg);
			break;
		case 'c':
			conf = optarg;
			break;
		case 'x':
			parts = optarg;
			break;
		case 'm':
			if (oq_parse_u64(optarg, &v) || !v ||
			    v > OQ_ARB_MAX_PKT)
				return oq_usage_error(CMD,
						      "--mtu: '%s' is not a "
						      "size in bytes (e.g. "
						      "2048)",
						      optarg);
			o.mtu_bytes = (uint32_t)v;
			break;
		case 'T':
			psrc = optarg;
			if (optind >= argc || argv[optind][0] == '-')
				return oq_usage_error(CMD,
						      "--path needs two "
						      "ports: --path SRC DST");
			pdst = argv[optind++];
			break;
		case 's':
			if (oq_parse_u64(optarg, &v) || v > 15)
				return oq_usage_error(CMD,
						      "--sl: '%s' is not an SL "
						      "(0-15)",
						      optarg);
			sl = (int)v;
			break;
		case 'j':
			json = true;
			break;
		case 'C':
			compact = true;
			break;
		case 'g':
			svg = optarg;
			break;
		case 'h':
			oq_usage_predict(stdout);
			return OQ_EXIT_OK;
		default:
			return oq_getopt_error(CMD, ch, argv);
		}
	}
	if (optind < argc)
		return oq_usage_error(CMD, "unexpected argument '%s'",
				      argv[optind]);
	if (!fabric)
		return oq_usage_error(CMD, "--fabric TOPO is required");
	if (psrc && sl < 0)
		return oq_usage_error(CMD, "--path needs --sl N");
	if (!psrc && sl >= 0)
		return oq_usage_error(CMD, "--sl goes with --path SRC DST");
	if (psrc && port)
		return oq_usage_error(CMD, "--port and --path exclude each "
					   "other; pick one");
	if (compact && !json)
		return oq_usage_error(CMD, "--compact goes with --json");
	if (psrc && svg)
		return oq_usage_error(CMD, "--svg draws per-port bars; drop "
					   "--path (or --svg)");

	memset(&c, 0, sizeof(c));
	rc = load(&c, policy, fabric, conf, parts);
	if (rc == OQ_EXIT_OK) {
		if (psrc) {
			rc = predict_path(&c, psrc, pdst, sl, &o, json);
		} else {
			const struct oq_port *only = NULL;
			struct port_preds pr;

			if (port) {
				only = oq_fabric_parse_port(c.in.fabric, port);
				if (!only)
					rc = oq_usage_error(
						CMD,
						"--port: no port '%s' in the "
						"fabric; give a GUID (0x...), "
						"lid:N or \"Node/P<n>\"",
						port);
			}
			if (rc == OQ_EXIT_OK)
				rc = predict_all(&c, only, &o, &pr);
			if (rc == OQ_EXIT_OK) {
				rc = predict_ports(&pr, c.in.fabric, &c.tables,
						   json, compact);
				if (rc == OQ_EXIT_OK && svg)
					rc = predict_svg(&pr, &o, svg, policy,
							 fabric);
				port_preds_free(&pr);
			}
		}
	}
	ctx_free(&c);
	return rc;
}
