// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos drift` output.  By default one entry per class of drift: the
 * drifts of one kind, on one role of port (CA port, switch external
 * port, ...), with the same expected and found tables (or, for the SA,
 * the same level and values), counted, with an example; a change that
 * touches every port of a kind is then one line, not thousands.  --all
 * lists each drift on its own line.  Text or one JSON object
 * (docs/json.md, "osmqos drift").
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_drift.h"
#include "cmd_drift_out.h"
#include "inputs.h"

static const char *role_of(const struct oq_port *p)
{
	if (p->node->type != OQ_NODE_SWITCH)
		return p->node->type == OQ_NODE_ROUTER ? "router port"
						       : "CA port";
	return p->num ? "switch external port" : "switch port 0";
}

/* The level a drift's pair got, for grouping and printing. */
static const char *level_of(const struct drift *d, const struct oq_policy *pol)
{
	const char *l = oq_cli_level_name(pol, d->level);

	return l ? l : "(none)";
}

struct by_class {
	const struct drift_list *dl;
	const struct oq_policy *pol;
};

static const struct by_class *sort_ctx;

static int class_cmp(const void *a, const void *b)
{
	const struct drift *x = &sort_ctx->dl->v[*(const size_t *)a];
	const struct drift *y = &sort_ctx->dl->v[*(const size_t *)b];
	int c = strcmp(x->kind, y->kind);

	if (c)
		return c;
	if (x->port && y->port)
		c = strcmp(role_of(x->port), role_of(y->port));
	else
		c = strcmp(level_of(x, sort_ctx->pol),
			   level_of(y, sort_ctx->pol));
	if (!c)
		c = strcmp(x->exp_text, y->exp_text);
	if (!c)
		c = strcmp(x->got_text, y->got_text);
	if (!c) /* stable: the first drift found is the example */
		c = *(const size_t *)a < *(const size_t *)b ? -1 : 1;
	return c;
}

static bool same_class(const struct drift *x, const struct drift *y,
		       const struct oq_policy *pol)
{
	if (strcmp(x->kind, y->kind) || strcmp(x->exp_text, y->exp_text) ||
	    strcmp(x->got_text, y->got_text))
		return false;
	if (x->port && y->port)
		return !strcmp(role_of(x->port), role_of(y->port));
	return !strcmp(level_of(x, pol), level_of(y, pol));
}

int drift_classes(const struct drift_list *dl, const struct oq_policy *pol,
		  struct drift_classes *out)
{
	struct by_class ctx = {dl, pol};
	size_t i, *order;

	memset(out, 0, sizeof(*out));
	if (!dl->n)
		return 0;
	order = malloc(dl->n * sizeof(*order));
	out->v = calloc(dl->n, sizeof(*out->v));
	if (!order || !out->v) {
		free(order);
		free(out->v);
		out->v = NULL;
		return -1;
	}
	for (i = 0; i < dl->n; i++)
		order[i] = i;
	sort_ctx = &ctx;
	qsort(order, dl->n, sizeof(*order), class_cmp);
	sort_ctx = NULL;
	for (i = 0; i < dl->n; i++) {
		const struct drift *d = &dl->v[order[i]];
		struct drift_class *c;

		if (!out->n ||
		    !same_class(&dl->v[out->v[out->n - 1].example], d, pol)) {
			c = &out->v[out->n++];
			c->example = order[i];
			c->entries = 0;
			c->ports = 0;
			c->last_port = NULL;
		}
		c = &out->v[out->n - 1];
		c->entries++;
		if (!d->port || d->port != c->last_port)
			c->ports++;
		c->last_port = d->port;
	}
	free(order);
	return 0;
}

void drift_classes_free(struct drift_classes *c)
{
	free(c->v);
	memset(c, 0, sizeof(*c));
}

static void text_end(const struct oq_port *p)
{
	printf("0x%016" PRIx64 " \"%s\" port %u (lid %u)", p->guid,
	       oq_node_name(p->node), p->num, p->lid);
}

static void text_where(const struct drift *d, const struct oq_policy *pol)
{
	if (d->port) {
		printf("0x%016" PRIx64 " \"%s\" port %u", d->port->guid,
		       oq_node_name(d->port->node), d->port->num);
		if (d->in_port >= 0)
			printf(" in %d", d->in_port);
		printf(" lid %u", d->port->lid);
	} else {
		text_end(d->src);
		printf(" -> ");
		text_end(d->dst);
		printf(" level %s", level_of(d, pol));
	}
}

static void text_drift(const struct drift *d, const struct oq_policy *pol)
{
	printf("DRIFT %s ", d->kind);
	text_where(d, pol);
	printf(": expected %s found %s\n", d->exp_text, d->got_text);
}

static void text_class(const struct drift_list *dl, const struct drift_class *c,
		       const struct oq_policy *pol)
{
	const struct drift *d = &dl->v[c->example];

	printf("DRIFT %s: ", d->kind);
	if (d->port) {
		const char *role = role_of(d->port);

		if (c->entries != c->ports)
			printf("%zu tables on ", c->entries);
		printf("%zu %s%s, like ", c->ports, role,
		       c->ports == 1 ? "" : "s");
	} else {
		printf("%zu pair%s at level %s, like ", c->entries,
		       c->entries == 1 ? "" : "s", level_of(d, pol));
	}
	text_where(d, pol);
	printf(": expected %s found %s\n", d->exp_text, d->got_text);
}

static void json_end(const char *key, const struct oq_port *p)
{
	char name[128];

	if (oq_port_name(p, name, sizeof(name)) < 0)
		name[0] = '\0';
	printf("\"%s\": \"0x%016" PRIx64 "\", \"%s_name\": ", key, p->guid,
	       key);
	oq_json_fstring(stdout, name);
	printf(", \"%s_lid\": %u", key, p->lid);
}

/* A drift's members without the braces. */
static void json_members(const struct drift *d, const struct oq_policy *pol)
{
	printf("\"kind\": \"%s\", ", d->kind);
	if (d->port) {
		char name[128];

		/* "node" the NodeDescription, "name" the port as OpenSM
		 * names it (a node-name map's), as in `tables`. */
		printf("\"guid\": \"0x%016" PRIx64 "\", \"node_guid\": "
		       "\"0x%016" PRIx64 "\", \"node\": ",
		       d->port->guid, d->port->node->guid);
		oq_json_fstring(stdout, d->port->node->desc);
		if (oq_port_name(d->port, name, sizeof(name)) < 0)
			name[0] = '\0';
		printf(", \"name\": ");
		oq_json_fstring(stdout, name);
		printf(", \"port\": %u, \"lid\": %u, \"in_port\": ",
		       d->port->num, d->port->lid);
		if (d->in_port >= 0)
			printf("%d", d->in_port);
		else
			printf("null");
	} else {
		json_end("src", d->src);
		printf(", ");
		json_end("dst", d->dst);
		printf(", \"rule\": ");
		if (d->rule >= 0)
			printf("%d", d->rule);
		else
			printf("null");
		printf(", \"level\": ");
		oq_json_fstring(stdout, oq_cli_level_name(pol, d->level));
	}
	printf(", \"expected\": %s, \"found\": %s", d->exp_json, d->got_json);
}

static void json_list(const struct drift_list *dl, const struct oq_policy *pol,
		      bool tables)
{
	bool first = true;
	size_t i;

	for (i = 0; i < dl->n; i++) {
		if (!dl->v[i].port != !tables)
			continue;
		printf("%s\n    {", first ? "" : ",");
		json_members(&dl->v[i], pol);
		printf("}");
		first = false;
	}
	printf("%s]", first ? "" : "\n  ");
}

static void json_classes(const struct drift_list *dl,
			 const struct drift_classes *cl,
			 const struct oq_policy *pol, bool tables)
{
	bool first = true;
	size_t i;

	for (i = 0; i < cl->n; i++) {
		const struct drift *d = &dl->v[cl->v[i].example];

		if (!d->port != !tables)
			continue;
		printf("%s\n    {\"kind\": \"%s\", ", first ? "" : ",",
		       d->kind);
		if (tables)
			printf("\"role\": \"%s\", \"ports\": %zu, \"tables\": "
			       "%zu, ",
			       role_of(d->port), cl->v[i].ports,
			       cl->v[i].entries);
		else {
			printf("\"level\": ");
			oq_json_fstring(stdout,
					oq_cli_level_name(pol, d->level));
			printf(", \"pairs\": %zu, ", cl->v[i].entries);
		}
		printf("\"expected\": %s, \"found\": %s, \"example\": {",
		       d->exp_json, d->got_json);
		json_members(d, pol);
		printf("}}");
		first = false;
	}
	printf("%s]", first ? "" : "\n  ");
}

/*
 * How to repair SL2VL and VLArb drifts.  OpenSM sends those tables only
 * when they differ from its cache of what it last wrote, not from the
 * port, so a resweep (SIGHUP) leaves a changed table as it is; it sends
 * them all again for a port whose link went down and up, and on its first
 * sweep as master (docs/drift.md).  VLHighLimit, in PortInfo, is compared
 * with what the port reports, so it is left out.
 */
static const char *repair_advice(const struct drift_list *dl)
{
	size_t i;

	for (i = 0; i < dl->n; i++)
		if (dl->v[i].port && strcmp(dl->v[i].kind, "vl_high_limit"))
			return "a resweep (SIGHUP) rewrites no SL2VL or VLArb "
			       "table: OpenSM compares with its cache of what "
			       "it wrote, not with the port; bounce each "
			       "drifted port's link (`ibportstate LID PORT "
			       "reset`, with its DRIFT line's lid and port) or "
			       "restart opensm, and OpenSM sets the tables "
			       "again";
	return NULL;
}

void drift_print(const struct drift_report *r, bool json, bool all)
{
	const char *fix = repair_advice(r->drifts);
	const struct drift_list *dl = r->drifts;
	struct drift_classes cl;
	size_t i, n_tab = 0, n_sa = 0, c_tab = 0, c_sa = 0;
	bool classes = drift_classes(dl, r->policy, &cl) == 0;

	for (i = 0; i < dl->n; i++) {
		if (dl->v[i].port)
			n_tab++;
		else
			n_sa++;
	}
	for (i = 0; classes && i < cl.n; i++) {
		if (dl->v[cl.v[i].example].port)
			c_tab++;
		else
			c_sa++;
	}
	/* Out of memory for the classes: each drift on its own. */
	all |= !classes;
	if (!json) {
		for (i = 0; all && i < dl->n; i++)
			text_drift(&dl->v[i], r->policy);
		for (i = 0; !all && i < cl.n; i++)
			text_class(dl, &cl.v[i], r->policy);
		printf("drift: %zu nodes, %u ports compared, %lu SMPs; %u SA "
		       "pairs (%u QoS levels); %zu table drift%s, %zu SA "
		       "drift%s",
		       r->nodes, r->ports_compared, r->smps, r->sa.pairs,
		       r->sa.levels, n_tab, n_tab == 1 ? "" : "s", n_sa,
		       n_sa == 1 ? "" : "s");
		if (!all && dl->n)
			printf(" in %zu class%s (--all lists each)",
			       c_tab + c_sa, c_tab + c_sa == 1 ? "" : "es");
		printf("%s%s\n",
		       r->vlhl_checked ? "" : "; VLHighLimit not checked",
		       r->sa_error ? "; the SA check failed (its error is on "
				     "stderr)"
				   : "");
		if (fix)
			printf("drift: %s\n", fix);
		drift_classes_free(&cl);
		return;
	}
	printf("{\"policy\": ");
	oq_json_fstring(stdout, r->policy_path);
	printf(", \"policy_hash\": \"0x%016" PRIx64 "\", \"in_force\": %s",
	       r->policy_hash, r->in_force ? "true" : "false");
	printf(", \"local_port\": {\"ca\": ");
	oq_json_fstring(stdout, r->ca);
	printf(", \"port\": %d, \"guid\": \"0x%016" PRIx64 "\"}", r->port,
	       r->port_guid);
	printf(", \"nodes\": %zu, \"ports_compared\": %u, \"smps\": %lu, "
	       "\"sa_pairs\": %u, \"sa_levels\": %u, "
	       "\"vl_high_limit_checked\": %s, \"notes\": [",
	       r->nodes, r->ports_compared, r->smps, r->sa.pairs, r->sa.levels,
	       r->vlhl_checked ? "true" : "false");
	for (i = 0; i < r->n_notes; i++) {
		printf("%s", i ? ", " : "");
		oq_json_fstring(stdout, r->notes[i]);
	}
	printf("], \"sa_error\": ");
	if (r->sa_error)
		oq_json_fstring(stdout, r->sa_error);
	else
		printf("null");
	printf(", \"classes\": [");
	json_classes(dl, &cl, r->policy, true);
	printf(", \"sa_classes\": [");
	json_classes(dl, &cl, r->policy, false);
	if (all) {
		printf(", \"drifts\": [");
		json_list(dl, r->policy, true);
		printf(", \"sa_drifts\": [");
		json_list(dl, r->policy, false);
	}
	printf(", \"drift_count\": %zu, \"clean\": %s, \"fix\": ", dl->n,
	       dl->n || r->sa_error ? "false" : "true");
	if (fix)
		oq_json_fstring(stdout, fix);
	else
		printf("null");
	printf("}\n");
	drift_classes_free(&cl);
}
