// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos match --policy P --fabric T --src PORT --dst PORT [--sid N]
 *              [--qos-class N] [--pkey N] [--partitions F] [--json]
 *
 * Which match rule and QoS level a PathRecord query gets, decided as
 * OpenSM's SA does (first matching rule, DEFAULT otherwise) by the same
 * compiled matcher the plugin uses.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/model.h>

#include "cli.h"
#include "inputs.h"

void oq_usage_match(FILE *out)
{
	fprintf(out,
		"Usage: osmqos match --policy POLICY --fabric TOPO --src PORT "
		"--dst PORT\n"
		"                    [--sid N] [--qos-class N] [--pkey N]\n"
		"                    [--partitions FILE] [--json]\n"
		"\n"
		"Show the match rule and QoS level (SL, MTU/rate limits, "
		"packet "
		"life,\npkeys) a path query between two ports gets.\n"
		"\n"
		"Options:\n"
		"  --policy FILE      the QoS policy (qos-policy.conf)\n"
		"  --fabric TOPO      ibnetdiscover output or ibsim net file\n"
		"  --src PORT         source port: GUID (0x...), lid:N or\n"
		"                     \"NodeDescription/P<n>\"\n"
		"  --dst PORT         destination port, same forms\n"
		"  --sid N            the query carries this ServiceID\n"
		"  --qos-class N      the query carries this QoS class "
		"(0..4095)\n"
		"  --pkey N           the query carries this P_Key "
		"(membership bit ignored)\n"
		"  --partitions FILE  partitions.conf, for 'partition:' and "
		"pkey groups\n"
		"  --json             one JSON object: rule (null for "
		"DEFAULT), "
		"use, level,\n"
		"                     sl, mtu_limit, rate_limit, packet_life, "
		"pkeys, why\n"
		"  -h, --help         this text\n"
		"\n"
		"A criterion the query does not carry never matches a rule "
		"that has it.\n"
		"A switch port stands for its switch (port 0): path queries "
		"name end ports.\n"
		"Rules are numbered from 0: qos-match-rules, then qos-ulps "
		"lines.\n"
		"Exit status: 0 ok, 1 invalid policy, 2 usage or I/O error.\n");
}

struct match_opts {
	const char *policy, *fabric, *src, *dst, *partitions;
	struct oq_query q;
	bool json;
};

static int number(const char *opt, const char *arg, unsigned long long max,
		  unsigned long long *v)
{
	if (oq_parse_u64(arg, v) || *v > max)
		return oq_usage_error("match",
				      "%s '%s' is not a number in 0..%llu "
				      "(decimal or 0x hex)",
				      opt, arg, max);
	return 0;
}

static int parse_args(int argc, char **argv, struct match_opts *o)
{
	static const struct option longopts[] = {
		{"policy", required_argument, NULL, 'P'},
		{"fabric", required_argument, NULL, 'f'},
		{"src", required_argument, NULL, 's'},
		{"dst", required_argument, NULL, 'd'},
		{"sid", required_argument, NULL, 'S'},
		{"qos-class", required_argument, NULL, 'Q'},
		{"pkey", required_argument, NULL, 'k'},
		{"partitions", required_argument, NULL, 'p'},
		{"json", no_argument, NULL, 'j'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	unsigned long long v;
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'P':
			o->policy = optarg;
			break;
		case 'f':
			o->fabric = optarg;
			break;
		case 's':
			o->src = optarg;
			break;
		case 'd':
			o->dst = optarg;
			break;
		case 'S':
			if (number("--sid", optarg, UINT64_MAX, &v))
				return OQ_EXIT_USAGE;
			o->q.has_sid = true;
			o->q.sid = v;
			break;
		case 'Q':
			if (number("--qos-class", optarg, 0xfff, &v))
				return OQ_EXIT_USAGE;
			o->q.has_qos_class = true;
			o->q.qos_class = (uint16_t)v;
			break;
		case 'k':
			if (number("--pkey", optarg, 0xffff, &v))
				return OQ_EXIT_USAGE;
			o->q.has_pkey = true;
			o->q.pkey = (uint16_t)v;
			break;
		case 'p':
			o->partitions = optarg;
			break;
		case 'j':
			o->json = true;
			break;
		case 'h':
			oq_usage_match(stdout);
			return -2;
		default:
			return oq_getopt_error("match", c, argv);
		}
	}
	if (optind < argc)
		return oq_usage_error("match", "unexpected argument '%s'",
				      argv[optind]);
	if (!o->policy || !o->fabric)
		return oq_usage_error("match", "--policy and --fabric are "
					       "required");
	if (!o->src || !o->dst)
		return oq_usage_error("match", "--src and --dst are required");
	return -1;
}

/* The end port a query names: a switch is addressed through port 0. */
static const struct oq_port *query_port(const struct oq_fabric *f,
					const char *spec, const char *opt)
{
	const struct oq_port *p = oq_fabric_parse_port(f, spec);

	if (!p) {
		oq_usage_error("match",
			       "%s '%s': no such port in the fabric; give a "
			       "port GUID (0x...), lid:N or "
			       "\"NodeDescription/P<n>\"",
			       opt, spec);
		return NULL;
	}
	if (!oq_port_is_endport(p))
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

int oq_cmd_match(int argc, char **argv)
{
	struct oq_cli_inputs in;
	struct oq_matcher *m;
	struct oq_decision d;
	struct match_opts o;
	int rc = parse_args(argc, argv, &o);

	if (rc == -2)
		return OQ_EXIT_OK;
	if (rc >= 0)
		return rc;
	rc = oq_cli_load("match", o.policy, o.fabric, o.partitions, &in);
	if (rc)
		return rc;
	o.q.src = query_port(in.fabric, o.src, "--src");
	o.q.dst = o.q.src ? query_port(in.fabric, o.dst, "--dst") : NULL;
	if (!o.q.src || !o.q.dst) {
		oq_cli_inputs_free(&in);
		return OQ_EXIT_USAGE;
	}
	m = oq_matcher_compile(in.binding);
	if (!m) {
		fprintf(stderr, "osmqos match: out of memory\n");
		oq_cli_inputs_free(&in);
		return OQ_EXIT_USAGE;
	}
	oq_match(m, &o.q, &d);
	if (o.json)
		print_json(in.policy, &o.q, &d);
	else
		print_text(in.policy, &o.q, &d);
	oq_matcher_free(m);
	oq_cli_inputs_free(&in);
	return OQ_EXIT_OK;
}
