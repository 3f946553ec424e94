// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos tables --policy P --fabric T [--port PORT] [--opensm-conf F]
 *               [--partitions F] [--all] [--json]
 *
 * The SL2VL (per input port on switch external ports), VLArb high/low
 * and VLHighLimit the table compiler produces for the plugin: qos-setup
 * scopes where they apply, OpenSM's per-port-type templates elsewhere.
 * By default one entry per class of ports with equal tables (count and
 * an example port); --all and --port list ports one by one.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "inputs.h"
#include "tables_classes.h"

#define CMD "tables"

struct tables_opts {
	struct oq_cli_common c;
};
OQ_OPTS_STRUCT(struct tables_opts);

static const struct oq_opt tables_opts[] = {
	OQ_USE_H(OQ_CO_POLICY, 0,
		 "the QoS policy; without it, only the templates"),
	OQ_USE_F(OQ_CO_FABRIC, OQ_OPT_REQUIRED),
	OQ_USE(OQ_CO_PORT),
	OQ_USE_H(OQ_CO_OPENSM_CONF, 0,
		 "take the qos_* templates and routing_engine from this "
		 "opensm.conf (default: OpenSM's compiled-in values)"),
	OQ_USE(OQ_CO_PARTITIONS),
	OQ_USE(OQ_CO_NODE_NAME_MAP),
	OQ_USE_H(OQ_CO_ALL, 0,
		 "every port, one by one (default: one entry per class of "
		 "ports with equal tables, its port count and an example)"),
	OQ_USE_H(OQ_CO_JSON, 0,
		 "one JSON object: `classes` (with --all or --port: a "
		 "`ports` list; docs/json.md)"),
	OQ_OPT_END,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_tables = {
	.name = CMD,
	.summary = "SL2VL/VLArb/VLHighLimit the plugin would program",
	.about = "Print the SL2VL, VLArb high/low and VLHighLimit the "
		 "plugin would program: one entry per class of ports with "
		 "equal tables (--all: every port).",
	.opts = tables_opts,
	.exit_status = "0 ok, 1 invalid policy, 2 usage or I/O error.",
	.run = run,
};

static const char *kind_name(const struct oq_port *p)
{
	switch (oq_port_kind(p)) {
	case OQ_KIND_SWE:
		return "switch external port";
	case OQ_KIND_SW0:
		return p->node->enhanced_port0 ? "switch enhanced port 0"
					       : "switch base port 0";
	case OQ_KIND_RTR:
		return "router port";
	default:
		return "CA port";
	}
}

/* The input port table most input ports share (lowest input on ties):
 * what a switch port's `sl2vl` shows. */
static unsigned int common_table(const struct oq_port_tables *pt)
{
	unsigned int best = 0, best_n = 0, i, j, n;

	for (i = 0; i < pt->n_sl2vl; i++) {
		for (n = 0, j = 0; j < pt->n_sl2vl; j++)
			n += !memcmp(pt->sl2vl[i], pt->sl2vl[j], 16);
		if (n > best_n) {
			best_n = n;
			best = i;
		}
	}
	return best;
}

static void json_sl2vl(const uint8_t *t)
{
	int sl;

	putchar('[');
	for (sl = 0; sl < 16; sl++)
		printf("%s%u", sl ? ", " : "", t[sl]);
	putchar(']');
}

static void json_vlarb(const struct oq_vlarb_table *t)
{
	unsigned int i;

	putchar('[');
	for (i = 0; i < t->n; i++)
		printf("%s[%u, %u]", i ? ", " : "", t->e[i].vl, t->e[i].weight);
	putchar(']');
}

static void json_scope(const char *key, int idx, const struct oq_loc *loc)
{
	char buf[512];

	if (idx < 0) {
		printf("\"%s\": null, \"%s_location\": null", key, key);
		return;
	}
	oq_loc_format(loc, buf, sizeof(buf));
	printf("\"%s\": %d, \"%s_location\": ", key, idx, key);
	oq_json_fstring(stdout, buf);
}

/* "guid", "port", "node" (its NodeDescription), "node_guid", "lid" and
 * "name" (the port as OpenSM names it: a node-name map's name) of a
 * port. */
static void json_port_id(const struct oq_port *port)
{
	char name[128];

	printf("\"guid\": \"0x%016" PRIx64 "\", \"port\": %u, \"node\": ",
	       port->guid, port->num);
	oq_json_fstring(stdout, port->node->desc);
	printf(", \"node_guid\": \"0x%016" PRIx64 "\", \"lid\": %u, "
	       "\"name\": ",
	       port->node->guid, port->lid);
	oq_port_name(port, name, sizeof(name));
	oq_json_fstring(stdout, name);
}

/* The tables of a port, from "kind" on; folded: one SL2VL row stands for
 * every input port's (they are the same). */
static void json_tables(const struct oq_port_tables *pt,
			const struct oq_policy *p, bool folded)
{
	const struct oq_port *port = pt->port;
	unsigned int i;

	printf("\"kind\": \"%s\", \"vls\": %u, ", kind_name(port),
	       port->oper_vls ? port->oper_vls : port->vl_cap);
	printf("\"sl2vl\": ");
	if (pt->has_sl2vl)
		json_sl2vl(pt->sl2vl[folded ? 0 : common_table(pt)]);
	else
		printf("null");
	if (folded && pt->has_sl2vl)
		printf(", \"sl2vl_every_input\": true");
	else if (pt->has_sl2vl && pt->n_sl2vl > 1) {
		printf(", \"sl2vl_by_in\": {");
		for (i = 0; i < pt->n_sl2vl; i++) {
			printf("%s\"%u\": ", i ? ", " : "", i);
			json_sl2vl(pt->sl2vl[i]);
		}
		putchar('}');
	}
	printf(", \"vlarb_high\": ");
	if (pt->has_vlarb)
		json_vlarb(&pt->vlarb_high);
	else
		printf("null");
	printf(", \"vlarb_low\": ");
	if (pt->has_vlarb)
		json_vlarb(&pt->vlarb_low);
	else
		printf("null");
	printf(", \"vl_high_limit\": %u, \"origin\": {\"sl2vl\": \"%s\", "
	       "\"vlarb\": \"%s\", ",
	       pt->vl_high_limit, oq_table_origin_name(pt->sl2vl_origin),
	       oq_table_origin_name(pt->vlarb_origin));
	json_scope("sl2vl_scope", pt->sl2vl_scope,
		   pt->sl2vl_scope >= 0 ? &p->sl2vl[pt->sl2vl_scope].loc
					: NULL);
	printf(", ");
	json_scope("vlarb_scope", pt->vlarb_scope,
		   pt->vlarb_scope >= 0 ? &p->vlarb[pt->vlarb_scope].loc
					: NULL);
	printf("}");
}

static void print_port_json(const struct oq_port_tables *pt,
			    const struct oq_policy *p, bool first)
{
	printf("%s\n  {", first ? "" : ",");
	json_port_id(pt->port);
	printf(", ");
	json_tables(pt, p, false);
	printf("}");
}

static void text_sl2vl(const uint8_t *t)
{
	int sl;

	for (sl = 0; sl < 16; sl++)
		printf(" %2u", t[sl]);
}

static void text_vlarb(const char *name, const struct oq_vlarb_table *t)
{
	unsigned int i;

	printf("  %-11s", name);
	if (!t->n)
		printf(" (empty)");
	for (i = 0; i < t->n; i++)
		printf(" %u:%u", t->e[i].vl, t->e[i].weight);
	putchar('\n');
}

static void text_origin(enum oq_table_origin o, int scope,
			const struct oq_loc *loc)
{
	char buf[512];

	if (scope < 0) {
		printf("  [%s]\n", oq_table_origin_name(o));
		return;
	}
	oq_loc_format(loc, buf, sizeof(buf));
	printf("  [%s #%d at %s]\n", oq_table_origin_name(o), scope, buf);
}

static void text_port_id(const struct oq_port *port)
{
	printf("0x%016" PRIx64 " \"%s\" port %u lid %u (%s, %u VLs)\n",
	       port->guid, oq_node_name(port->node), port->num, port->lid,
	       kind_name(port), port->oper_vls ? port->oper_vls : port->vl_cap);
}

/* The tables under a port's or a class's first line; folded: one row
 * for every input port (they are the same). */
static void text_tables(const struct oq_port_tables *pt,
			const struct oq_policy *p, bool folded)
{
	unsigned int i, j;

	if (pt->sl2vl_unknown) {
		printf("  sl2vl       set by the routing engine (known only to "
		       "the running opensm)\n");
	} else if (!pt->has_sl2vl) {
		printf("  sl2vl       none (not programmed)\n");
	} else {
		printf("  sl2vl       SL:");
		for (i = 0; i < 16; i++)
			printf(" %2u", i);
		text_origin(pt->sl2vl_origin, pt->sl2vl_scope,
			    pt->sl2vl_scope >= 0
				    ? &p->sl2vl[pt->sl2vl_scope].loc
				    : NULL);
		if (folded && pt->n_sl2vl > 1) {
			printf("  every input VL:");
			text_sl2vl(pt->sl2vl[0]);
			putchar('\n');
		}
		/* Runs of identical input-port tables on one line. */
		for (i = 0; i < pt->n_sl2vl && !(folded && pt->n_sl2vl > 1);
		     i = j) {
			for (j = i + 1; j < pt->n_sl2vl &&
					!memcmp(pt->sl2vl[i], pt->sl2vl[j], 16);
			     j++)
				;
			if (pt->n_sl2vl == 1)
				printf("         VL:");
			else if (j - i == 1)
				printf("  in %-7u VL:", i);
			else
				printf("  in %3u-%-3u VL:", i, j - 1);
			text_sl2vl(pt->sl2vl[i]);
			putchar('\n');
		}
	}
	if (!pt->has_vlarb) {
		printf("  vlarb       none (not programmed)\n");
		return;
	}
	text_vlarb("vlarb-high", &pt->vlarb_high);
	text_vlarb("vlarb-low", &pt->vlarb_low);
	printf("  vl-high-limit %u", pt->vl_high_limit);
	text_origin(pt->vlarb_origin, pt->vlarb_scope,
		    pt->vlarb_scope >= 0 ? &p->vlarb[pt->vlarb_scope].loc
					 : NULL);
}

static void print_port_text(const struct oq_port_tables *pt,
			    const struct oq_policy *p)
{
	text_port_id(pt->port);
	text_tables(pt, p, false);
}

/* One entry per class: its port count, an example port, its tables. */
static void print_classes(const struct oq_fabric_tables *out,
			  const struct oq_tables_classes *tc,
			  const struct oq_policy *p, bool json)
{
	char n1[32], n2[32], name[128];
	size_t k;

	if (!json)
		printf("%s port%s in %zu class%s of equal tables (--all "
		       "lists every port, --port PORT one)\n",
		       oq_count_text(tc->n_ports, n1, sizeof(n1)),
		       tc->n_ports == 1 ? "" : "s", tc->n,
		       tc->n == 1 ? "" : "es");
	for (k = 0; k < tc->n; k++) {
		const struct oq_tables_class *c = &tc->v[k];
		const struct oq_port_tables *pt = &out->ports[c->rep];

		if (json) {
			printf("%s\n  {\"class\": %zu, \"ports\": %zu, "
			       "\"example\": {",
			       k ? "," : "", k, c->n_ports);
			json_port_id(pt->port);
			printf("}, ");
			json_tables(pt, p, c->uniform);
			printf("}");
			continue;
		}
		oq_port_name(pt->port, name, sizeof(name));
		printf("class %zu: %s port%s (%s, %u VLs), e.g. %s "
		       "(0x%016" PRIx64 ")\n",
		       k + 1, oq_count_text(c->n_ports, n2, sizeof(n2)),
		       c->n_ports == 1 ? "" : "s", kind_name(pt->port),
		       pt->port->oper_vls ? pt->port->oper_vls
					  : pt->port->vl_cap,
		       name, pt->port->guid);
		text_tables(pt, p, c->uniform);
	}
}

struct selection {
	const struct oq_fabric_tables *out;
	const struct oq_port *sel;
	bool whole;
};

/* Ports --port selects: one port, or every port of a switch named as a
 * whole (oq_cli_port). */
static bool selected(const struct oq_port *sel, bool whole_switch,
		     const struct oq_port *p)
{
	if (!sel)
		return true;
	if (whole_switch)
		return p->node == sel->node;
	return p == sel;
}

static bool keep_selected(size_t i, const void *ctx)
{
	const struct selection *s = ctx;

	return selected(s->sel, s->whole, s->out->ports[i].port);
}

static int run(int argc, char **argv)
{
	static const struct oq_policy no_policy;
	struct oq_fabric_tables out;
	struct oq_templates t;
	struct oq_cli_inputs in;
	struct tables_opts o = {0};
	const struct oq_port *sel = NULL;
	bool whole_switch = false, first = true;
	size_t i;
	int rc = oq_cli_parse(&oq_spec_tables, argc, argv, &o);

	if (rc != OQ_CLI_RUN)
		return rc;
	rc = oq_cli_load(CMD, &o.c, &in);
	if (rc)
		return rc;
	if (o.c.port) {
		sel = oq_cli_port(CMD, in.fabric, "--port", o.c.port,
				  &whole_switch);
		if (!sel) {
			oq_cli_inputs_free(&in);
			return OQ_EXIT_USAGE;
		}
	}
	rc = oq_cli_compile_tables(CMD, &in, o.c.opensm_conf, &t, &out);
	if (rc) {
		oq_cli_inputs_free(&in);
		return rc;
	}
	if (o.c.json) {
		struct oq_engine e;

		oq_engine_by_name(&e, t.routing_engine);
		printf("{\"policy\": ");
		oq_json_fstring(stdout, o.c.policy);
		printf(", \"routing_engine\": ");
		oq_json_fstring(stdout, e.name);
		printf(", \"engine_chooses_sls\": %s, ",
		       e.kind != OQ_ENGINE_QOS ? "true" : "false");
	}
	if (!o.c.all && !sel) {
		struct oq_tables_classes tc;
		struct selection sn = {&out, sel, whole_switch};

		if (oq_tables_classes_build(&out, keep_selected, &sn, &tc)) {
			oq_fabric_tables_free(&out);
			oq_cli_inputs_free(&in);
			fprintf(stderr, "osmqos tables: out of memory grouping "
					"the ports; try --all\n");
			return OQ_EXIT_USAGE;
		}
		if (o.c.json)
			printf("\"ports_total\": %zu, \"classes\": [",
			       tc.n_ports);
		print_classes(&out, &tc, in.policy ? in.policy : &no_policy,
			      o.c.json);
		if (o.c.json)
			printf("\n]}\n");
		oq_tables_classes_free(&tc);
		oq_fabric_tables_free(&out);
		oq_cli_inputs_free(&in);
		return OQ_EXIT_OK;
	}
	if (o.c.json)
		printf("\"ports\": [");
	for (i = 0; i < out.n; i++) {
		const struct oq_port_tables *pt = &out.ports[i];

		if (!selected(sel, whole_switch, pt->port))
			continue;
		if (o.c.json)
			print_port_json(pt, in.policy ? in.policy : &no_policy,
					first);
		else
			print_port_text(pt, in.policy ? in.policy : &no_policy);
		first = false;
	}
	if (o.c.json)
		printf("\n]}\n");
	oq_fabric_tables_free(&out);
	oq_cli_inputs_free(&in);
	return OQ_EXIT_OK;
}
