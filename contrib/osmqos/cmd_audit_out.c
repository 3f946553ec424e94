// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos audit` output: the drift list, one text line per drift plus a
 * summary, or one JSON object (docs/json.md, "osmqos audit").
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_audit.h"
#include "cmd_audit_out.h"
#include "inputs.h"

static void text_end(const struct oq_port *p)
{
	printf("0x%016" PRIx64 " \"%s\" port %u (lid %u)", p->guid,
	       p->node->desc, p->num, p->lid);
}

static void text_drift(const struct audit_drift *d, const struct oq_policy *pol)
{
	const char *lvl;

	printf("DRIFT %s ", d->kind);
	if (d->port) {
		printf("0x%016" PRIx64 " \"%s\" port %u", d->port->guid,
		       d->port->node->desc, d->port->num);
		if (d->in_port >= 0)
			printf(" in %d", d->in_port);
		printf(" lid %u", d->port->lid);
	} else {
		text_end(d->src);
		printf(" -> ");
		text_end(d->dst);
		lvl = oq_cli_level_name(pol, d->level);
		printf(" level %s", lvl ? lvl : "(none)");
	}
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

static void json_drift(const struct audit_drift *d, const struct oq_policy *pol,
		       bool first)
{
	printf("%s\n    {\"kind\": \"%s\", ", first ? "" : ",", d->kind);
	if (d->port) {
		printf("\"guid\": \"0x%016" PRIx64 "\", \"node_guid\": "
		       "\"0x%016" PRIx64 "\", \"node\": ",
		       d->port->guid, d->port->node->guid);
		oq_json_fstring(stdout, d->port->node->desc);
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
	printf(", \"expected\": %s, \"found\": %s}", d->exp_json, d->got_json);
}

void audit_print(const struct audit_report *r, bool json)
{
	size_t i, n_tab = 0, n_sa = 0;
	bool first;

	for (i = 0; i < r->drifts->n; i++) {
		if (r->drifts->v[i].port)
			n_tab++;
		else
			n_sa++;
	}
	if (!json) {
		for (i = 0; i < r->drifts->n; i++)
			text_drift(&r->drifts->v[i], r->policy);
		printf("audit: %zu nodes, %u ports audited, %lu SMPs; %u SA "
		       "pairs (%u QoS levels); %zu table drift%s, %zu SA "
		       "drift%s%s\n",
		       r->nodes, r->ports_audited, r->smps, r->sa.pairs,
		       r->sa.levels, n_tab, n_tab == 1 ? "" : "s", n_sa,
		       n_sa == 1 ? "" : "s",
		       r->vlhl_checked ? "" : "; VLHighLimit not checked");
		return;
	}
	printf("{\"policy\": ");
	oq_json_fstring(stdout, r->policy_path);
	printf(", \"local_port\": {\"ca\": ");
	oq_json_fstring(stdout, r->ca);
	printf(", \"port\": %d, \"guid\": \"0x%016" PRIx64 "\"}", r->port,
	       r->port_guid);
	printf(", \"nodes\": %zu, \"ports_audited\": %u, \"smps\": %lu, "
	       "\"sa_pairs\": %u, \"sa_levels\": %u, "
	       "\"vl_high_limit_checked\": %s, \"notes\": [",
	       r->nodes, r->ports_audited, r->smps, r->sa.pairs, r->sa.levels,
	       r->vlhl_checked ? "true" : "false");
	for (i = 0; i < r->n_notes; i++) {
		printf("%s", i ? ", " : "");
		oq_json_fstring(stdout, r->notes[i]);
	}
	printf("], \"drifts\": [");
	for (first = true, i = 0; i < r->drifts->n; i++) {
		if (!r->drifts->v[i].port)
			continue;
		json_drift(&r->drifts->v[i], r->policy, first);
		first = false;
	}
	printf("%s], \"sa_drifts\": [", first ? "" : "\n  ");
	for (first = true, i = 0; i < r->drifts->n; i++) {
		if (r->drifts->v[i].port)
			continue;
		json_drift(&r->drifts->v[i], r->policy, first);
		first = false;
	}
	printf("%s], \"drift_count\": %zu, \"clean\": %s}\n",
	       first ? "" : "\n  ", r->drifts->n,
	       r->drifts->n ? "false" : "true");
}
