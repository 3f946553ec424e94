// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos match --policy P --fabric T --src PORT --dst PORT [--sid N]
 *              [--qos-class N] [--pkey N] [--partitions F] [--json]
 *
 * Which match rule and QoS level a PathRecord query gets, decided as
 * OpenSM's SA does (first matching rule, DEFAULT otherwise) by the same
 * compiled matcher the plugin uses.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/model.h>

#include "cli.h"
#include "inputs.h"

#define CMD "match"

struct match_opts {
	struct oq_cli_common c;
	const char *src, *dst;
};
OQ_OPTS_STRUCT(struct match_opts);

static const struct oq_opt match_opts[] = {
	OQ_USE_F(OQ_CO_POLICY, OQ_OPT_REQUIRED),
	OQ_USE_F(OQ_CO_FABRIC, OQ_OPT_REQUIRED),
	OQ_OPT("src", 0, OQ_OPT_PORT, "PORT",
	       "source port: GUID (0x...), lid:N or \"NodeDescription/P<n>\"",
	       offsetof(struct match_opts, src), .flags = OQ_OPT_REQUIRED),
	OQ_OPT("dst", 0, OQ_OPT_PORT, "PORT", "destination port, same forms",
	       offsetof(struct match_opts, dst), .flags = OQ_OPT_REQUIRED),
	OQ_USE_H(OQ_CO_SID, 0, "the query carries this ServiceID"),
	OQ_USE_H(OQ_CO_QOS_CLASS, 0,
		 "the query carries this QoS class (0-4095)"),
	OQ_USE_H(OQ_CO_PKEY, 0,
		 "the query carries this P_Key (membership bit ignored)"),
	OQ_USE(OQ_CO_PARTITIONS),
	OQ_USE_H(OQ_CO_OPENSM_CONF, 0,
		 "an opensm.conf, for the node-name map its "
		 "node_name_map_name names"),
	OQ_USE(OQ_CO_NODE_NAME_MAP),
	OQ_USE_H(OQ_CO_JSON, 0,
		 "one JSON object: rule (null for DEFAULT), use, level, sl, "
		 "mtu_limit, rate_limit, packet_life, pkeys, why"),
	OQ_OPT_END,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_match = {
	.name = CMD,
	.summary = "which rule and QoS level a path query gets",
	.about = "Show the match rule and QoS level (SL, MTU/rate limits, "
		 "packet life, pkeys) a path query between two ports gets.",
	.opts = match_opts,
	.notes = "A criterion the query does not carry never matches a rule "
		 "that has it.\nA switch port stands for its switch (port 0): "
		 "path queries name end ports.\nRules are numbered from 0: "
		 "qos-match-rules, then qos-ulps lines.",
	.exit_status = "0 ok, 1 invalid policy, 2 usage or I/O error.",
	.run = run,
};

/* The end port a query names: a switch is addressed through port 0. */
static const struct oq_port *query_port(const struct oq_fabric *f,
					const char *spec, const char *opt)
{
	const struct oq_port *p = oq_cli_port(CMD, f, opt, spec, NULL);

	if (p && !oq_port_is_endport(p))
		p = &p->node->ports[0];
	return p;
}

static const char *const why_names[] = {
	"source", "destination", "service-id", "qos-class", "pkey", "default",
};

static void print_pkeys_json(const struct oq_ranges *r)
{
	size_t i;
	uint64_t k;
	bool first = true;

	putchar('[');
	for (i = 0; i < r->n; i++) {
		for (k = r->v[i].lo; k <= r->v[i].hi && k <= 0xffff; k++) {
			printf("%s%" PRIu64, first ? "" : ", ", k);
			first = false;
		}
	}
	putchar(']');
}

static void print_int_or_null(const char *key, int v, bool comma)
{
	if (v < 0)
		printf("\"%s\": null", key);
	else
		printf("\"%s\": %d", key, v);
	if (comma)
		fputs(", ", stdout);
}

static void print_json(const struct oq_policy *p, const struct oq_query *q,
		       const struct oq_decision *d)
{
	const struct oq_qos_level *l =
		d->level >= 0 ? &p->levels[d->level] : NULL;
	const struct oq_match_rule *r =
		d->rule >= 0 ? &p->rules[d->rule] : NULL;
	char loc[512];
	unsigned int i;
	bool first = true;

	printf("{\"src\": \"0x%016" PRIx64 "\", \"dst\": \"0x%016" PRIx64
	       "\", ",
	       q->src->guid, q->dst->guid);
	if (r) {
		oq_loc_format(&r->loc, loc, sizeof(loc));
		printf("\"rule\": %d, \"use\": ", d->rule);
		oq_json_fstring(stdout, r->use);
		printf(", \"rule_location\": ");
		oq_json_fstring(stdout, loc);
		printf(", \"from_ulp\": %s, ", r->from_ulp ? "true" : "false");
	} else {
		printf("\"rule\": null, \"use\": null, "
		       "\"rule_location\": null, \"from_ulp\": false, ");
	}
	printf("\"level\": ");
	oq_json_fstring(stdout, l ? l->name : NULL);
	printf(", ");
	print_int_or_null("sl", l ? l->sl : -1, true);
	print_int_or_null("mtu_limit", l ? l->mtu_limit : -1, true);
	print_int_or_null("rate_limit", l ? l->rate_limit : -1, true);
	print_int_or_null("packet_life", l ? l->packet_life : -1, true);
	printf("\"pkeys\": ");
	if (l)
		print_pkeys_json(&l->pkeys);
	else
		printf("[]");
	printf(", \"why\": [");
	for (i = 0; i < sizeof(why_names) / sizeof(why_names[0]); i++) {
		if (!(d->why & (1u << i)))
			continue;
		printf("%s\"%s\"", first ? "" : ", ", why_names[i]);
		first = false;
	}
	printf("]}\n");
}

static void print_text(const struct oq_policy *p, const struct oq_query *q,
		       const struct oq_decision *d)
{
	const struct oq_qos_level *l =
		d->level >= 0 ? &p->levels[d->level] : NULL;
	char loc[512];
	unsigned int i;
	bool first = true;

	if (d->rule >= 0) {
		const struct oq_match_rule *r = &p->rules[d->rule];

		oq_loc_format(&r->loc, loc, sizeof(loc));
		printf("rule:   %d%s (%s)%s%s%s\n", d->rule,
		       r->from_ulp ? " [qos-ulps]" : "", loc,
		       r->use ? " use: \"" : "", r->use ? r->use : "",
		       r->use ? "\"" : "");
	} else {
		printf("rule:   none (the DEFAULT level applies)\n");
	}
	if (!l) {
		printf("level:  none\n");
	} else {
		printf("level:  %s", l->name ? l->name : "?");
		if (l->use)
			printf(" (use: \"%s\")", l->use);
		putchar('\n');
		if (l->sl >= 0)
			printf("sl:     %d\n", l->sl);
		else
			printf("sl:     unset\n");
		if (l->mtu_limit >= 0)
			printf("mtu-limit:   %d (%u bytes)\n", l->mtu_limit,
			       oq_mtu_bytes((uint8_t)l->mtu_limit));
		if (l->rate_limit >= 0)
			printf("rate-limit:  %d (%g Gb/s)\n", l->rate_limit,
			       oq_rate_enum_gbps((uint8_t)l->rate_limit));
		if (l->packet_life >= 0)
			printf("packet-life: %d\n", l->packet_life);
		if (l->pkeys.n) {
			size_t k;

			printf("pkeys:  ");
			for (k = 0; k < l->pkeys.n; k++) {
				printf("%s0x%04" PRIx64, k ? ", " : "",
				       l->pkeys.v[k].lo);
				if (l->pkeys.v[k].hi != l->pkeys.v[k].lo)
					printf("-0x%04" PRIx64,
					       l->pkeys.v[k].hi);
			}
			putchar('\n');
		}
	}
	printf("why:    ");
	for (i = 0; i < sizeof(why_names) / sizeof(why_names[0]); i++) {
		if (!(d->why & (1u << i)))
			continue;
		printf("%s%s", first ? "" : ", ", why_names[i]);
		first = false;
	}
	if (first)
		printf("the rule has no criteria (matches every query)");
	putchar('\n');
}

static int run(int argc, char **argv)
{
	struct oq_cli_inputs in;
	struct oq_matcher *m;
	struct oq_decision d;
	struct match_opts o = {0};
	struct oq_query q = {0};
	int rc = oq_cli_parse(&oq_spec_match, argc, argv, &o);

	if (rc != OQ_CLI_RUN)
		return rc;
	q.has_sid = o.c.sid.given;
	q.sid = o.c.sid.v;
	q.has_qos_class = o.c.qos_class.given;
	q.qos_class = (uint16_t)o.c.qos_class.v;
	q.has_pkey = o.c.pkey.given;
	q.pkey = (uint16_t)o.c.pkey.v;
	rc = oq_cli_load(CMD, &o.c, &in);
	if (rc)
		return rc;
	q.src = query_port(in.fabric, o.src, "--src");
	q.dst = q.src ? query_port(in.fabric, o.dst, "--dst") : NULL;
	if (!q.src || !q.dst) {
		oq_cli_inputs_free(&in);
		return OQ_EXIT_USAGE;
	}
	m = oq_matcher_compile(in.binding);
	if (!m) {
		fprintf(stderr, "osmqos match: out of memory compiling the "
				"matcher; free memory or try a smaller "
				"fabric\n");
		oq_cli_inputs_free(&in);
		return OQ_EXIT_USAGE;
	}
	oq_match(m, &q, &d);
	if (o.c.json)
		print_json(in.policy, &q, &d);
	else
		print_text(in.policy, &q, &d);
	oq_matcher_free(m);
	oq_cli_inputs_free(&in);
	return OQ_EXIT_OK;
}
