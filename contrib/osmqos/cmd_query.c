// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos query: send a real PathRecord (Get/GetTable) or MultiPathRecord
 * (GetMulti) query to the SA and print the records; with --policy, also
 * which rule and QoS level the policy gives each (source, destination)
 * pair, i.e. what SL the application should have got.
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/model.h>

#include "cli.h"
#include "inputs.h"
#include "mad/sa_client.h"

void oq_usage_query(FILE *out)
{
	fprintf(out,
		"Usage: osmqos query [--slid N --dlid N | --sgid GID --dgid "
		"GID] [--sid N]\n"
		"         [--qos-class N] [--pkey N] [--sl N] [--mtu [<|>|=]N]"
		" [--rate [<|>|=]N]\n"
		"         [--pkt-life [<|>|=]N] [--numb-path N] [--reversible]"
		" [--get]\n"
		"         [--raw-traffic] [--flow-label N] [--hop-limit N] "
		"[--tclass N]\n"
		"         [--mpr --sgids GID,.. --dgids GID,.. "
		"[--independence N]]\n"
		"         [--ca NAME --port N] [--timeout MS] [--json]\n"
		"         [--policy P --fabric T [--partitions F]]\n"
		"\n"
		"Ask the SA for PathRecords (GetTable, or Get with --get) or, "
		"with --mpr,\n"
		"a MultiPathRecord (GetMulti), and print the records.  With "
		"--policy, also\n"
		"print the rule and QoS level the policy gives each pair.\n"
		"\n"
		"Options (PathRecord components; each sets its "
		"component-mask bit):\n"
		"  --slid N, --dlid N    source/destination LID\n"
		"  --sgid GID, --dgid GID  source/destination GID (IPv6 form, "
		"or 0xGUID\n"
		"                        with the local port's subnet prefix)\n"
		"  --sid N               ServiceID (alias --service_id)\n"
		"  --qos-class N         QoS class 0..4095 (alias "
		"--qos_class, -Q)\n"
		"  --pkey N              P_Key\n"
		"  --sl N                service level 0..15\n"
		"  --mtu [<|>|=]N        MTU enum 1..5 (256..4096), with "
		"selector (-M)\n"
		"  --rate [<|>|=]N       rate enum 2..; with selector (-R)\n"
		"  --pkt-life [<|>|=]N   packet lifetime 0..63, with "
		"selector\n"
		"  --numb-path N         NumbPath 0..127 (-n)\n"
		"  --reversible          only reversible paths (-r)\n"
		"  --raw-traffic         RawTraffic bit\n"
		"  --flow-label N, --hop-limit N, --tclass N  GRH fields\n"
		"  --get                 SubnAdmGet instead of GetTable (one "
		"record)\n"
		"  --mpr                 MultiPathRecord query (GetMulti); "
		"needs --sgids\n"
		"                        and --dgids (at most 11 GIDs in "
		"all), no LIDs\n"
		"  --independence N      MPR IndependenceSelector\n"
		"Testing an SA's error handling (sent as given):\n"
		"  --comp-mask N         this component mask instead of the "
		"options' bits\n"
		"  --method N            this SA method (e.g. 0x02 Set)\n"
		"  --gid-counts S,D      MPR: these SGIDCount/DGIDCount "
		"bytes\n"
		"Transport:\n"
		"  --ca NAME, --port N   local port (default: the first "
		"active one)\n"
		"  --timeout MS          wait this long for the SA (default "
		"1000)\n"
		"Output:\n"
		"  --json                one JSON object: method, status, "
		"records[]\n"
		"  --policy P --fabric T  also show the policy's rule/level "
		"per record;\n"
		"                        T is an ibnetdiscover output of this "
		"fabric\n"
		"  --partitions F        partitions.conf for the policy\n"
		"\n"
		"Under ibsim, run with LD_PRELOAD=libumad2sim.so (SIM_HOST "
		"picks the\n"
		"attachment point); answers longer than one MAD are cut there "
		"(3 records).\n"
		"Exit status: 0 records printed, 1 the SA answered an error "
		"status\n"
		"(ERR_NO_RECORDS, ...), 2 usage, input or transport error.\n");
}

struct query_opts {
	struct oq_sa_req req;
	const char *sgids, *dgids;
	const char *ca, *policy, *fabric, *partitions;
	int port;
	int timeout_ms;
	bool json;
	/* GIDs given as a bare GUID need the local subnet prefix. */
	bool sgid_guid, dgid_guid;
	bool mpr_guid[OQ_SA_MPR_MAX_GIDS];
};

static int number(const char *opt, const char *arg, unsigned long long max,
		  unsigned long long *v)
{
	if (oq_parse_u64(arg, v) || *v > max)
		return oq_usage_error("query",
				      "%s '%s' is not a number in 0..%llu "
				      "(decimal or 0x hex)",
				      opt, arg, max);
	return 0;
}

/* "[<|>|=]N": the selector sets its own component bit, as in saquery. */
static int selected(const char *opt, const char *arg, unsigned long long max,
		    uint8_t *sel, uint8_t *val, bool *has_sel)
{
	unsigned long long v;

	*has_sel = true;
	switch (arg[0]) {
	case '>':
		*sel = OQ_SEL_GT;
		break;
	case '<':
		*sel = OQ_SEL_LT;
		break;
	case '=':
		*sel = OQ_SEL_EQ;
		break;
	default:
		*has_sel = false;
	}
	if (oq_parse_u64(arg + (*has_sel ? 1 : 0), &v) || v > max)
		return oq_usage_error("query",
				      "%s '%s' is not [<|>|=]N with N in "
				      "0..%llu (decimal or 0x hex)",
				      opt, arg, max);
	*val = (uint8_t)v;
	return 0;
}

static int parse_gid(const char *opt, const char *s, uint8_t gid[16],
		     bool *guid_only)
{
	if (oq_sa_parse_gid(s, gid, guid_only))
		return oq_usage_error("query",
				      "%s '%s' is not a GID; give the IPv6 "
				      "form (fe80::2:c903:0:1) or a port "
				      "GUID (0x0002c90300000001)",
				      opt, s);
	return 0;
}

/* Comma-separated GIDs into req->gids from index *n on. */
static int parse_gid_list(struct query_opts *o, const char *opt,
			  const char *list, uint8_t *count)
{
	struct oq_sa_req *r = &o->req;
	char *copy = strdup(list), *tok, *save = NULL;
	unsigned int n = (unsigned int)r->sgid_count + r->dgid_count;
	int rc = 0;

	if (!copy)
		return oq_usage_error("query", "out of memory");
	*count = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n >= OQ_SA_MPR_MAX_GIDS) {
			rc = oq_usage_error("query",
					    "more than %d GIDs in --sgids and "
					    "--dgids together; one request "
					    "MAD holds %d, split the query",
					    OQ_SA_MPR_MAX_GIDS,
					    OQ_SA_MPR_MAX_GIDS);
			break;
		}
		rc = parse_gid(opt, tok, r->gids[n], &o->mpr_guid[n]);
		if (rc)
			break;
		n++;
		(*count)++;
	}
	if (!rc && !*count)
		rc = oq_usage_error("query", "%s needs at least one GID", opt);
	free(copy);
	return rc;
}

enum {
	O_SLID = 256,
	O_DLID,
	O_SGID,
	O_DGID,
	O_SID,
	O_QOS,
	O_PKEY,
	O_SL,
	O_MTU,
	O_RATE,
	O_LIFE,
	O_NUMB,
	O_REV,
	O_GET,
	O_MPR,
	O_SGIDS,
	O_DGIDS,
	O_INDEP,
	O_RAW,
	O_FLOW,
	O_HOP,
	O_TCLASS,
	O_CA,
	O_PORT,
	O_TIMEOUT,
	O_JSON,
	O_POLICY,
	O_FABRIC,
	O_PARTS,
	O_RAW_CM,
	O_RAW_METHOD,
	O_RAW_COUNTS,
};

static const struct option longopts[] = {
	{"slid", required_argument, NULL, O_SLID},
	{"dlid", required_argument, NULL, O_DLID},
	{"sgid", required_argument, NULL, O_SGID},
	{"dgid", required_argument, NULL, O_DGID},
	{"sid", required_argument, NULL, O_SID},
	{"service_id", required_argument, NULL, O_SID},
	{"service-id", required_argument, NULL, O_SID},
	{"qos-class", required_argument, NULL, O_QOS},
	{"qos_class", required_argument, NULL, O_QOS},
	{"pkey", required_argument, NULL, O_PKEY},
	{"sl", required_argument, NULL, O_SL},
	{"mtu", required_argument, NULL, O_MTU},
	{"rate", required_argument, NULL, O_RATE},
	{"pkt-life", required_argument, NULL, O_LIFE},
	{"pkt_lifetime", required_argument, NULL, O_LIFE},
	{"numb-path", required_argument, NULL, O_NUMB},
	{"numb_path", required_argument, NULL, O_NUMB},
	{"reversible", no_argument, NULL, O_REV},
	{"get", no_argument, NULL, O_GET},
	{"mpr", no_argument, NULL, O_MPR},
	{"sgids", required_argument, NULL, O_SGIDS},
	{"dgids", required_argument, NULL, O_DGIDS},
	{"independence", required_argument, NULL, O_INDEP},
	{"raw-traffic", no_argument, NULL, O_RAW},
	{"flow-label", required_argument, NULL, O_FLOW},
	{"flow_label", required_argument, NULL, O_FLOW},
	{"hop-limit", required_argument, NULL, O_HOP},
	{"hop_limit", required_argument, NULL, O_HOP},
	{"tclass", required_argument, NULL, O_TCLASS},
	{"ca", required_argument, NULL, O_CA},
	{"port", required_argument, NULL, O_PORT},
	{"timeout", required_argument, NULL, O_TIMEOUT},
	{"json", no_argument, NULL, O_JSON},
	{"policy", required_argument, NULL, O_POLICY},
	{"fabric", required_argument, NULL, O_FABRIC},
	{"partitions", required_argument, NULL, O_PARTS},
	{"comp-mask", required_argument, NULL, O_RAW_CM},
	{"method", required_argument, NULL, O_RAW_METHOD},
	{"gid-counts", required_argument, NULL, O_RAW_COUNTS},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

/* One option into o; OQ_EXIT_USAGE on a bad value. */
static int parse_one(int c, const char *arg, struct query_opts *o)
{
	struct oq_sa_req *r = &o->req;
	struct oq_path_rec *pr = &r->pr;
	unsigned long long v = 0;
	bool has_sel;

	switch (c) {
	case O_SLID:
	case O_DLID:
		if (number(c == O_SLID ? "--slid" : "--dlid", arg, 0xffff, &v))
			return OQ_EXIT_USAGE;
		if (c == O_SLID)
			pr->slid = (uint16_t)v;
		else
			pr->dlid = (uint16_t)v;
		r->fields |= c == O_SLID ? OQ_SAF_SLID : OQ_SAF_DLID;
		return 0;
	case O_SGID:
		r->fields |= OQ_SAF_SGID;
		return parse_gid("--sgid", arg, pr->sgid, &o->sgid_guid);
	case O_DGID:
		r->fields |= OQ_SAF_DGID;
		return parse_gid("--dgid", arg, pr->dgid, &o->dgid_guid);
	case O_SID:
		if (number("--sid", arg, UINT64_MAX, &v))
			return OQ_EXIT_USAGE;
		pr->service_id = v;
		r->fields |= OQ_SAF_SERVICE_ID;
		return 0;
	case O_QOS:
	case 'Q':
		if (number("--qos-class", arg, 0xfff, &v))
			return OQ_EXIT_USAGE;
		pr->qos_class = (uint16_t)v;
		r->fields |= OQ_SAF_QOS_CLASS;
		return 0;
	case O_PKEY:
		if (number("--pkey", arg, 0xffff, &v))
			return OQ_EXIT_USAGE;
		pr->pkey = (uint16_t)v;
		r->fields |= OQ_SAF_PKEY;
		return 0;
	case O_SL:
		if (number("--sl", arg, 15, &v))
			return OQ_EXIT_USAGE;
		pr->sl = (uint8_t)v;
		r->fields |= OQ_SAF_SL;
		return 0;
	case O_MTU:
	case 'M':
		if (selected("--mtu", arg, 63, &pr->mtu_sel, &pr->mtu,
			     &has_sel))
			return OQ_EXIT_USAGE;
		r->fields |= OQ_SAF_MTU | (has_sel ? OQ_SAF_MTU_SEL : 0);
		return 0;
	case O_RATE:
	case 'R':
		if (selected("--rate", arg, 63, &pr->rate_sel, &pr->rate,
			     &has_sel))
			return OQ_EXIT_USAGE;
		r->fields |= OQ_SAF_RATE | (has_sel ? OQ_SAF_RATE_SEL : 0);
		return 0;
	case O_LIFE:
		if (selected("--pkt-life", arg, 63, &pr->pkt_life_sel,
			     &pr->pkt_life, &has_sel))
			return OQ_EXIT_USAGE;
		r->fields |=
			OQ_SAF_PKT_LIFE | (has_sel ? OQ_SAF_PKT_LIFE_SEL : 0);
		return 0;
	case O_NUMB:
	case 'n':
		if (number("--numb-path", arg, 127, &v))
			return OQ_EXIT_USAGE;
		pr->numb_path = (uint8_t)v;
		r->fields |= OQ_SAF_NUMB_PATH;
		return 0;
	case O_REV:
	case 'r':
		pr->reversible = true;
		r->fields |= OQ_SAF_REVERSIBLE;
		return 0;
	case O_RAW:
		pr->raw_traffic = true;
		r->fields |= OQ_SAF_RAW_TRAFFIC;
		return 0;
	case O_FLOW:
		if (number("--flow-label", arg, 0xfffff, &v))
			return OQ_EXIT_USAGE;
		pr->flow_label = (uint32_t)v;
		r->fields |= OQ_SAF_FLOW_LABEL;
		return 0;
	case O_HOP:
		if (number("--hop-limit", arg, 0xff, &v))
			return OQ_EXIT_USAGE;
		pr->hop_limit = (uint8_t)v;
		r->fields |= OQ_SAF_HOP_LIMIT;
		return 0;
	case O_TCLASS:
		if (number("--tclass", arg, 0xff, &v))
			return OQ_EXIT_USAGE;
		pr->tclass = (uint8_t)v;
		r->fields |= OQ_SAF_TCLASS;
		return 0;
	case O_INDEP:
		if (number("--independence", arg, 0xff, &v))
			return OQ_EXIT_USAGE;
		r->independence = (uint8_t)v;
		r->fields |= OQ_SAF_INDEPENDENCE;
		return 0;
	case O_GET:
		r->method = OQ_SA_METHOD_GET;
		return 0;
	case O_MPR:
		r->mpr = true;
		return 0;
	case O_SGIDS:
		o->sgids = arg;
		return 0;
	case O_DGIDS:
		o->dgids = arg;
		return 0;
	case O_CA:
		o->ca = arg;
		return 0;
	case O_PORT:
		if (number("--port", arg, 254, &v))
			return OQ_EXIT_USAGE;
		o->port = (int)v;
		return 0;
	case O_TIMEOUT:
		if (number("--timeout", arg, 600000, &v) || !v)
			return v ? OQ_EXIT_USAGE
				 : oq_usage_error("query", "--timeout must be "
							   "at least 1 ms");
		o->timeout_ms = (int)v;
		return 0;
	case O_JSON:
		o->json = true;
		return 0;
	case O_POLICY:
		o->policy = arg;
		return 0;
	case O_FABRIC:
		o->fabric = arg;
		return 0;
	case O_PARTS:
		o->partitions = arg;
		return 0;
	case O_RAW_CM:
		if (number("--comp-mask", arg, UINT64_MAX, &v))
			return OQ_EXIT_USAGE;
		r->raw_comp_mask = true;
		r->comp_mask = v;
		return 0;
	case O_RAW_METHOD:
		if (number("--method", arg, 0x7f, &v))
			return OQ_EXIT_USAGE;
		r->raw_method = true;
		r->method = (uint8_t)v;
		return 0;
	case O_RAW_COUNTS: {
		unsigned int a, b;
		char tail;

		if (sscanf(arg, "%u,%u%c", &a, &b, &tail) != 2 || a > 255 ||
		    b > 255)
			return oq_usage_error("query",
					      "--gid-counts '%s': give "
					      "SGIDCOUNT,DGIDCOUNT (0..255 "
					      "each)",
					      arg);
		r->raw_counts = true;
		r->raw_sgid_count = (uint8_t)a;
		r->raw_dgid_count = (uint8_t)b;
		return 0;
	}
	}
	return OQ_EXIT_USAGE;
}

/* -1: go on; -2: --help printed; otherwise an exit code. */
static int parse_args(int argc, char **argv, struct query_opts *o)
{
	const unsigned int pr_only =
		OQ_SAF_SLID | OQ_SAF_DLID | OQ_SAF_SGID | OQ_SAF_DGID;
	int c;

	memset(o, 0, sizeof(*o));
	o->timeout_ms = 1000;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hQ:M:R:n:r", longopts, NULL)) !=
	       -1) {
		if (c == 'h') {
			oq_usage_query(stdout);
			return -2;
		}
		if (c == ':' || c == '?')
			return oq_getopt_error("query", c, argv);
		if (parse_one(c, optarg, o))
			return OQ_EXIT_USAGE;
	}
	if (optind < argc)
		return oq_usage_error("query", "unexpected argument '%s'",
				      argv[optind]);
	if (!!o->policy != !!o->fabric)
		return oq_usage_error("query", "--policy and --fabric go "
					       "together (the fabric maps the "
					       "records' LIDs to ports)");
	if (!o->req.mpr) {
		if (o->sgids || o->dgids)
			return oq_usage_error("query", "--sgids/--dgids need "
						       "--mpr");
		if (o->req.fields & OQ_SAF_INDEPENDENCE)
			return oq_usage_error("query", "--independence "
						       "needs --mpr");
		return -1;
	}
	if (o->req.fields & pr_only)
		return oq_usage_error("query",
				      "--mpr takes --sgids/--dgids, not "
				      "--slid/--dlid/--sgid/--dgid");
	if (o->req.method == OQ_SA_METHOD_GET)
		return oq_usage_error("query", "--get and --mpr exclude each "
					       "other (MPR uses GetMulti)");
	if (!o->sgids || !o->dgids)
		return oq_usage_error("query", "--mpr needs --sgids and "
					       "--dgids");
	if (parse_gid_list(o, "--sgids", o->sgids, &o->req.sgid_count) ||
	    parse_gid_list(o, "--dgids", o->dgids, &o->req.dgid_count))
		return OQ_EXIT_USAGE;
	return -1;
}

/* A GID given as 0xGUID gets the local port's subnet prefix. */
static void fill_prefix(uint8_t gid[16], bool guid_only, uint64_t prefix)
{
	int i;

	if (!guid_only)
		return;
	for (i = 0; i < 8; i++)
		gid[i] = (uint8_t)(prefix >> (56 - 8 * i));
}

static uint64_t gid_guid(const uint8_t gid[16])
{
	uint64_t g = 0;
	int i;

	for (i = 8; i < 16; i++)
		g = g << 8 | gid[i];
	return g;
}

/* The policy's verdict for one record. */
struct verdict {
	const struct oq_port *src, *dst;
	struct oq_decision d;
};

static const struct oq_port *record_port(const struct oq_fabric *f,
					 const uint8_t gid[16], uint16_t lid)
{
	const struct oq_port *p = oq_fabric_port_by_guid(f, gid_guid(gid));

	if (!p && lid)
		p = oq_fabric_port_by_lid(f, lid);
	if (p && !oq_port_is_endport(p))
		p = &p->node->ports[0];
	return p;
}

static void judge(const struct oq_fabric *f, const struct oq_matcher *m,
		  const struct oq_sa_req *r, const struct oq_path_rec *rec,
		  struct verdict *v)
{
	struct oq_query q;

	memset(v, 0, sizeof(*v));
	v->d.rule = v->d.level = -1;
	v->src = record_port(f, rec->sgid, rec->slid);
	v->dst = record_port(f, rec->dgid, rec->dlid);
	if (!v->src || !v->dst)
		return;
	/* The criteria OpenSM's SA takes from the request's comp mask. */
	memset(&q, 0, sizeof(q));
	q.src = v->src;
	q.dst = v->dst;
	q.has_sid = r->fields & OQ_SAF_SERVICE_ID;
	q.sid = r->pr.service_id;
	q.has_qos_class = r->fields & OQ_SAF_QOS_CLASS;
	q.qos_class = r->pr.qos_class;
	q.has_pkey = r->fields & OQ_SAF_PKEY;
	q.pkey = r->pr.pkey & OQ_PKEY_MASK;
	oq_match(m, &q, &v->d);
}

static void print_table(const struct oq_sa_resp *resp, const struct verdict *v,
			const struct oq_policy *pol)
{
	char sg[64], dg[64];
	size_t i;

	printf("%-6s %-6s %-3s %-10s %-13s %-8s %-7s %-3s %-4s %-4s %-5s "
	       "%s\n",
	       "SLID", "DLID", "SL", "MTU", "RATE", "PKT_LIFE", "PKEY", "HOP",
	       "REV", "PREF", "QOSC", "SGID -> DGID");
	for (i = 0; i < resp->n; i++) {
		const struct oq_path_rec *p = &resp->recs[i];
		char mtu[16], rate[24];

		snprintf(mtu, sizeof(mtu), "%u(%u)", p->mtu,
			 oq_mtu_bytes(p->mtu));
		snprintf(rate, sizeof(rate), "%u(%gG)", p->rate,
			 oq_rate_enum_gbps(p->rate));
		oq_sa_format_gid(p->sgid, sg, sizeof(sg));
		oq_sa_format_gid(p->dgid, dg, sizeof(dg));
		printf("%-6u %-6u %-3u %-10s %-13s %-8u 0x%04x  %-3u %-4s "
		       "%-4u %-5u %s -> %s\n",
		       p->slid, p->dlid, p->sl, mtu, rate, p->pkt_life, p->pkey,
		       p->hop_limit, p->reversible ? "yes" : "no",
		       p->preference, p->qos_class, sg, dg);
		if (!v)
			continue;
		if (!v[i].src || !v[i].dst) {
			printf("  policy: %s not in --fabric; give an "
			       "ibnetdiscover output of this fabric\n",
			       !v[i].src ? "source" : "destination");
			continue;
		}
		if (v[i].d.rule >= 0)
			printf("  policy: rule %d", v[i].d.rule);
		else
			printf("  policy: no rule (DEFAULT)");
		if (v[i].d.level >= 0) {
			const struct oq_qos_level *l =
				&pol->levels[v[i].d.level];

			printf(", level %s", l->name ? l->name : "?");
			if (l->sl >= 0)
				printf(", sl %d%s", l->sl,
				       l->sl == p->sl
					       ? ""
					       : " (differs from the record)");
		} else {
			printf(", no level (OpenSM's defaults)");
		}
		putchar('\n');
	}
	printf("%zu record%s\n", resp->n, resp->n == 1 ? "" : "s");
}

static void print_json_verdict(const struct verdict *v,
			       const struct oq_policy *pol,
			       const struct oq_path_rec *p)
{
	const struct oq_qos_level *l =
		v->d.level >= 0 ? &pol->levels[v->d.level] : NULL;

	printf(", \"policy\": {");
	if (!v->src || !v->dst) {
		printf("\"error\": \"%s not in the fabric\"}",
		       !v->src ? "source" : "destination");
		return;
	}
	printf("\"src\": \"0x%016" PRIx64 "\", \"dst\": \"0x%016" PRIx64 "\", ",
	       v->src->guid, v->dst->guid);
	if (v->d.rule >= 0)
		printf("\"rule\": %d, ", v->d.rule);
	else
		printf("\"rule\": null, ");
	printf("\"level\": ");
	oq_json_fstring(stdout, l ? l->name : NULL);
	if (l && l->sl >= 0)
		printf(", \"sl\": %d, \"sl_agrees\": %s}", l->sl,
		       l->sl == p->sl ? "true" : "false");
	else
		printf(", \"sl\": null, \"sl_agrees\": null}");
}

static void print_json(const struct oq_sa_req *r, const struct oq_sa_resp *resp,
		       const struct verdict *v, const struct oq_policy *pol)
{
	char sg[64], dg[64];
	size_t i;

	printf("{\"method\": \"%s\", \"status\": \"%s\", \"records\": [",
	       r->mpr			       ? "GetMulti"
	       : r->method == OQ_SA_METHOD_GET ? "Get"
					       : "GetTable",
	       oq_sa_status_name(resp->status));
	for (i = 0; i < resp->n; i++) {
		const struct oq_path_rec *p = &resp->recs[i];

		oq_sa_format_gid(p->sgid, sg, sizeof(sg));
		oq_sa_format_gid(p->dgid, dg, sizeof(dg));
		printf("%s{\"slid\": %u, \"dlid\": %u, \"sgid\": \"%s\", "
		       "\"dgid\": \"%s\", \"service_id\": \"0x%016" PRIx64
		       "\", \"sl\": %u, \"qos_class\": %u, \"pkey\": %u, "
		       "\"mtu\": %u, \"mtu_selector\": %u, \"rate\": %u, "
		       "\"rate_selector\": %u, \"pkt_life\": %u, "
		       "\"pkt_life_selector\": %u, \"hop_limit\": %u, "
		       "\"flow_label\": %u, \"tclass\": %u, \"raw_traffic\": "
		       "%s, \"reversible\": %s, \"numb_path\": %u, "
		       "\"preference\": %u",
		       i ? ", " : "", p->slid, p->dlid, sg, dg, p->service_id,
		       p->sl, p->qos_class, p->pkey, p->mtu, p->mtu_sel,
		       p->rate, p->rate_sel, p->pkt_life, p->pkt_life_sel,
		       p->hop_limit, p->flow_label, p->tclass,
		       p->raw_traffic ? "true" : "false",
		       p->reversible ? "true" : "false", p->numb_path,
		       p->preference);
		if (v)
			print_json_verdict(&v[i], pol, p);
		putchar('}');
	}
	printf("]}\n");
}

/* Ask the SA; OQ_EXIT_OK, OQ_EXIT_FAIL (SA error status) or USAGE. */
static int run_query(struct query_opts *o, struct oq_sa_resp *resp)
{
	struct oq_sa_port port;
	char err[512];
	unsigned int i;

	memset(resp, 0, sizeof(*resp));
	if (oq_sa_open(o->ca, o->port, &port, err, sizeof(err))) {
		fprintf(stderr, "osmqos query: %s\n", err);
		return OQ_EXIT_USAGE;
	}
	fill_prefix(o->req.pr.sgid, o->sgid_guid, port.u.gid_prefix);
	fill_prefix(o->req.pr.dgid, o->dgid_guid, port.u.gid_prefix);
	for (i = 0; i < OQ_SA_MPR_MAX_GIDS; i++)
		fill_prefix(o->req.gids[i], o->mpr_guid[i], port.u.gid_prefix);
	if (oq_sa_query(&port, &o->req, o->timeout_ms, resp, err,
			sizeof(err))) {
		fprintf(stderr, "osmqos query: %s\n", err);
		oq_sa_close(&port);
		return OQ_EXIT_USAGE;
	}
	oq_sa_close(&port);
	if (resp->cut)
		fprintf(stderr,
			"osmqos query: note: the answer had more records than "
			"the %zu shown; umad2sim has no RMPP, so narrow the "
			"query (a source and a destination) under ibsim\n",
			resp->n);
	if (resp->status) {
		if (o->json)
			printf("{\"method\": \"%s\", \"status\": \"%s\", "
			       "\"status_code\": %u, \"records\": []}\n",
			       o->req.mpr			   ? "GetMulti"
			       : o->req.method == OQ_SA_METHOD_GET ? "Get"
								   : "GetTable",
			       oq_sa_status_name(resp->status), resp->status);
		fprintf(stderr,
			"osmqos query: the SA answered %s (status "
			"0x%04x): %s\n",
			oq_sa_status_name(resp->status), resp->status,
			oq_sa_status_hint(resp->status));
		return OQ_EXIT_FAIL;
	}
	return OQ_EXIT_OK;
}

int oq_cmd_query(int argc, char **argv)
{
	struct oq_cli_inputs in;
	struct oq_matcher *m = NULL;
	struct verdict *v = NULL;
	struct oq_sa_resp resp;
	struct query_opts o;
	size_t i;
	int rc = parse_args(argc, argv, &o);

	if (rc == -2)
		return OQ_EXIT_OK;
	if (rc >= 0)
		return rc;
	/* Load the offline inputs first: a typo should not cost a MAD. */
	memset(&in, 0, sizeof(in));
	if (o.policy) {
		rc = oq_cli_load("query", o.policy, o.fabric, o.partitions,
				 &in);
		if (rc)
			return rc;
		m = oq_matcher_compile(in.binding);
		if (!m) {
			fprintf(stderr, "osmqos query: out of memory\n");
			oq_cli_inputs_free(&in);
			return OQ_EXIT_USAGE;
		}
	}
	rc = run_query(&o, &resp);
	if (rc == OQ_EXIT_OK && m && resp.n) {
		v = calloc(resp.n, sizeof(*v));
		if (!v) {
			fprintf(stderr, "osmqos query: out of memory\n");
			rc = OQ_EXIT_USAGE;
		}
		for (i = 0; v && i < resp.n; i++)
			judge(in.fabric, m, &o.req, &resp.recs[i], &v[i]);
	}
	if (rc == OQ_EXIT_OK) {
		if (o.json)
			print_json(&o.req, &resp, v, in.policy);
		else
			print_table(&resp, v, in.policy);
		/* GetTable/GetMulti answer "nothing" with an empty table,
		 * not ERR_NO_RECORDS; for the operator it is the same. */
		if (!resp.n) {
			fprintf(stderr,
				"osmqos query: the SA returned no "
				"records: %s\n",
				oq_sa_status_hint(0x0300));
			rc = OQ_EXIT_FAIL;
		}
	}
	free(v);
	oq_sa_resp_free(&resp);
	if (m)
		oq_matcher_free(m);
	if (o.policy)
		oq_cli_inputs_free(&in);
	return rc;
}
