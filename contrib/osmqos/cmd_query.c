// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos query: send a real PathRecord (Get/GetTable) or MultiPathRecord
 * (GetMulti) query to the SA and print the records; with --policy, also
 * which rule and QoS level the policy gives each (source, destination)
 * pair, i.e. what SL the application should have got.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/model.h>

#include "cli.h"
#include "inputs.h"
#include "mad/sa_client.h"
#include "options/options.h"

#define CMD "query"

/* "[<|>|=]N" */
struct sel_opt {
	uint8_t sel, v;
	bool has_sel, given;
};

struct gid_opt {
	uint8_t gid[16];
	bool guid_only, given; /* guid_only: needs the local subnet prefix */
};

struct counts_opt {
	uint8_t s, d;
	bool given;
};

struct query_opts {
	struct oq_cli_common c;
	struct oq_num slid, dlid, numb, flow, hop, tclass, indep;
	struct oq_num comp_mask, method;
	struct gid_opt sgid, dgid;
	struct sel_opt mtu, rate, life;
	bool reversible, raw, get, mpr;
	const char *sgids, *dgids;
	struct counts_opt counts;
	/* The request the options make (build_req). */
	struct oq_sa_req req;
	/* MPR GIDs given as a bare GUID need the local subnet prefix. */
	bool mpr_guid[OQ_SA_MPR_MAX_GIDS];
};
OQ_OPTS_STRUCT(struct query_opts);

static int parse_sel(void *value, const char *s, const struct oq_opt *o);
static int parse_gid_opt(void *value, const char *s, const struct oq_opt *o);
static int parse_counts(void *value, const char *s, const struct oq_opt *o);

/* The rate range as the model knows it, for the help ("2..24"). */
#define RATE_RANGE OQ_STR(OQ_RATE_MIN) ".." OQ_STR(OQ_RATE_MAX)

#define OFF(field) offsetof(struct query_opts, field)
#define NUM(nm, let, text, field, most, also)                              \
	OQ_OPT(nm, let, OQ_OPT_NUM, "N", text, OFF(field), .max = most,     \
	       .alias = also)

static const struct oq_opt query_opts[] = {
	OQ_HEADING("PathRecord components (each sets its component-mask bit):"),
	NUM("slid", 0, "source LID", slid, 0xffff, NULL),
	NUM("dlid", 0, "destination LID", dlid, 0xffff, NULL),
	OQ_OPT("sgid", 0, OQ_OPT_CUSTOM, "GID",
	       "source GID (IPv6 form, or 0xGUID with the local port's subnet "
	       "prefix)",
	       OFF(sgid), .parse = parse_gid_opt),
	OQ_OPT("dgid", 0, OQ_OPT_CUSTOM, "GID",
	       "destination GID, the same forms", OFF(dgid),
	       .parse = parse_gid_opt),
	OQ_USE(OQ_CO_SID),
	OQ_USE(OQ_CO_QOS_CLASS),
	OQ_USE_H(OQ_CO_PKEY, 0, "P_Key"),
	OQ_USE(OQ_CO_SL),
	/* Each selector option has its field's own range (.min, .max): the
	 * SA refuses a value outside it only after the round trip. */
	OQ_OPT("mtu", 'M', OQ_OPT_CUSTOM, "[<|>|=]N",
	       "MTU enum 1..5 (256..4096), with selector", OFF(mtu),
	       .parse = parse_sel, .min = 1, .max = 5),
	OQ_OPT("rate", 'R', OQ_OPT_CUSTOM, "[<|>|=]N",
	       "rate enum " RATE_RANGE " (2 = 2.5 Gb/s, 3 = 10, 7 = 40, 16 "
	       "= 100, ...), with selector",
	       OFF(rate), .parse = parse_sel, .min = OQ_RATE_MIN,
	       .max = OQ_RATE_MAX),
	OQ_OPT("pkt-life", 0, OQ_OPT_CUSTOM, "[<|>|=]N",
	       "packet lifetime 0..63, with selector", OFF(life),
	       .parse = parse_sel, .min = 0, .max = 63,
	       .alias = "pkt_lifetime"),
	NUM("numb-path", 'n', "NumbPath 0..127", numb, 127, "numb_path"),
	OQ_OPT("reversible", 'r', OQ_OPT_FLAG, NULL, "only reversible paths",
	       OFF(reversible)),
	OQ_OPT("raw-traffic", 0, OQ_OPT_FLAG, NULL, "RawTraffic bit", OFF(raw)),
	NUM("flow-label", 0, "GRH flow label", flow, 0xfffff, "flow_label"),
	NUM("hop-limit", 0, "GRH hop limit", hop, 0xff, "hop_limit"),
	NUM("tclass", 0, "GRH traffic class", tclass, 0xff, NULL),
	OQ_OPT("get", 0, OQ_OPT_FLAG, NULL,
	       "SubnAdmGet instead of GetTable (one record)", OFF(get)),
	OQ_OPT("mpr", 0, OQ_OPT_FLAG, NULL,
	       "MultiPathRecord query (GetMulti); needs --sgids and --dgids "
	       "(at most 11 GIDs in all), no LIDs",
	       OFF(mpr)),
	OQ_OPT("sgids", 0, OQ_OPT_TEXT, "GID,...", "MPR source GIDs",
	       OFF(sgids)),
	OQ_OPT("dgids", 0, OQ_OPT_TEXT, "GID,...", "MPR destination GIDs",
	       OFF(dgids)),
	NUM("independence", 0, "MPR IndependenceSelector", indep, 0xff, NULL),
	OQ_HEADING("Testing an SA's error handling (sent as given):"),
	NUM("comp-mask", 0, "this component mask instead of the options' bits",
	    comp_mask, UINT64_MAX, NULL),
	NUM("method", 0, "this SA method (e.g. 0x02 Set)", method, 0x7f, NULL),
	OQ_OPT("gid-counts", 0, OQ_OPT_CUSTOM, "S,D",
	       "MPR: these SGIDCount/DGIDCount bytes", OFF(counts),
	       .parse = parse_counts),
	OQ_HEADING("Transport:"),
	OQ_USE(OQ_CO_CA),
	OQ_USE(OQ_CO_CA_PORT),
	OQ_USE_H(OQ_CO_TIMEOUT, 0,
		 "wait this long for the SA, in ms (default 1000)"),
	OQ_HEADING("Output:"),
	OQ_USE_H(OQ_CO_JSON, 0, "one JSON object: method, status, records[]"),
	OQ_USE_H(OQ_CO_POLICY, 0,
		 "also show the policy's rule/level per record (needs "
		 "--fabric)"),
	OQ_USE_H(OQ_CO_FABRIC, 0,
		 "an ibnetdiscover output of this fabric, for --policy"),
	OQ_USE_H(OQ_CO_PARTITIONS, 0, "partitions.conf for the policy"),
	OQ_USE(OQ_CO_NODE_NAME_MAP),
	OQ_OPT_END,
};

static const char *const query_forms[] = {
	"[--slid N --dlid N | --sgid GID --dgid GID] [OPTIONS]",
	"--mpr --sgids GID,... --dgids GID,... [--independence N] [OPTIONS]",
	NULL,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_query = {
	.name = CMD,
	.summary = "live SA path query (PR/MPR)",
	.about = "Ask the SA for PathRecords (GetTable, or Get with --get) "
		 "or, with --mpr, a MultiPathRecord (GetMulti), and print the "
		 "records.  With --policy, also print the rule and QoS level "
		 "the policy gives each pair.",
	.forms = query_forms,
	.opts = query_opts,
	.notes = "Under ibsim, run with LD_PRELOAD=libumad2sim.so (SIM_HOST "
		 "picks the attachment point); answers longer than one MAD "
		 "are cut there (two records).",
	.exit_status = "0 records printed, 1 the SA answered an error status "
		       "(ERR_NO_RECORDS, ...) or an invalid policy, 2 usage, "
		       "input or transport error.",
	.run = run,
};

/* "[<|>|=]N": the selector sets its own component bit, as in saquery. */
static int parse_sel(void *value, const char *arg, const struct oq_opt *o)
{
	struct sel_opt *s = value;
	unsigned long long v;

	s->has_sel = true;
	switch (arg[0]) {
	case '>':
		s->sel = OQ_SEL_GT;
		break;
	case '<':
		s->sel = OQ_SEL_LT;
		break;
	case '=':
		s->sel = OQ_SEL_EQ;
		break;
	default:
		s->has_sel = false;
	}
	if (oq_parse_u64(arg + (s->has_sel ? 1 : 0), &v) || v < o->min ||
	    v > o->max)
		return oq_usage_error(CMD,
				      "--%s '%s' is not [<|>|=]N with N in "
				      "%llu..%llu (decimal or 0x hex, no "
				      "leading 0)",
				      o->name, arg, o->min, o->max);
	s->v = (uint8_t)v;
	s->given = true;
	return 0;
}

static int parse_gid(const char *opt, const char *s, uint8_t gid[16],
		     bool *guid_only)
{
	if (oq_sa_parse_gid(s, gid, guid_only))
		return oq_usage_error(CMD,
				      "%s '%s' is not a GID; give the IPv6 "
				      "form (fe80::2:c903:0:1) or a port "
				      "GUID (0x0002c90300000001)",
				      opt, s);
	return 0;
}

static int parse_gid_opt(void *value, const char *s, const struct oq_opt *o)
{
	struct gid_opt *g = value;
	char opt[32];

	snprintf(opt, sizeof(opt), "--%s", o->name);
	g->given = true;
	return parse_gid(opt, s, g->gid, &g->guid_only);
}

static int parse_counts(void *value, const char *arg, const struct oq_opt *o)
{
	struct counts_opt *c = value;
	unsigned int a, b;
	char tail;

	(void)o;
	if (sscanf(arg, "%u,%u%c", &a, &b, &tail) != 2 || a > 255 || b > 255)
		return oq_usage_error(CMD,
				      "--gid-counts '%s': give "
				      "SGIDCOUNT,DGIDCOUNT (0..255 each)",
				      arg);
	c->s = (uint8_t)a;
	c->d = (uint8_t)b;
	c->given = true;
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
		return oq_usage_error(CMD, "out of memory");
	*count = 0;
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (n >= OQ_SA_MPR_MAX_GIDS) {
			rc = oq_usage_error(CMD,
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
		rc = oq_usage_error(CMD, "%s needs at least one GID", opt);
	free(copy);
	return rc;
}

/* A number option into a request field and its component bit. */
#define NUM_FIELD(opt, dst, bit)                                           \
	do {                                                               \
		if ((opt).given) {                                         \
			(dst) = (opt).v;                                   \
			r->fields |= (bit);                                \
		}                                                          \
	} while (0)

static void sel_field(const struct sel_opt *s, uint8_t *sel, uint8_t *v,
		      unsigned int bit, unsigned int sel_bit,
		      unsigned int *fields)
{
	if (!s->given)
		return;
	*v = s->v;
	*sel = s->sel;
	*fields |= bit | (s->has_sel ? sel_bit : 0);
}

/* The request the options describe. */
static void build_req(struct query_opts *o)
{
	struct oq_sa_req *r = &o->req;
	struct oq_path_rec *pr = &r->pr;

	NUM_FIELD(o->slid, pr->slid, OQ_SAF_SLID);
	NUM_FIELD(o->dlid, pr->dlid, OQ_SAF_DLID);
	if (o->sgid.given) {
		memcpy(pr->sgid, o->sgid.gid, 16);
		r->fields |= OQ_SAF_SGID;
	}
	if (o->dgid.given) {
		memcpy(pr->dgid, o->dgid.gid, 16);
		r->fields |= OQ_SAF_DGID;
	}
	NUM_FIELD(o->c.sid, pr->service_id, OQ_SAF_SERVICE_ID);
	NUM_FIELD(o->c.qos_class, pr->qos_class, OQ_SAF_QOS_CLASS);
	NUM_FIELD(o->c.pkey, pr->pkey, OQ_SAF_PKEY);
	NUM_FIELD(o->c.sl, pr->sl, OQ_SAF_SL);
	sel_field(&o->mtu, &pr->mtu_sel, &pr->mtu, OQ_SAF_MTU,
		  OQ_SAF_MTU_SEL, &r->fields);
	sel_field(&o->rate, &pr->rate_sel, &pr->rate, OQ_SAF_RATE,
		  OQ_SAF_RATE_SEL, &r->fields);
	sel_field(&o->life, &pr->pkt_life_sel, &pr->pkt_life,
		  OQ_SAF_PKT_LIFE, OQ_SAF_PKT_LIFE_SEL, &r->fields);
	NUM_FIELD(o->numb, pr->numb_path, OQ_SAF_NUMB_PATH);
	if (o->reversible) {
		pr->reversible = true;
		r->fields |= OQ_SAF_REVERSIBLE;
	}
	if (o->raw) {
		pr->raw_traffic = true;
		r->fields |= OQ_SAF_RAW_TRAFFIC;
	}
	NUM_FIELD(o->flow, pr->flow_label, OQ_SAF_FLOW_LABEL);
	NUM_FIELD(o->hop, pr->hop_limit, OQ_SAF_HOP_LIMIT);
	NUM_FIELD(o->tclass, pr->tclass, OQ_SAF_TCLASS);
	NUM_FIELD(o->indep, r->independence, OQ_SAF_INDEPENDENCE);
	if (o->get)
		r->method = OQ_SA_METHOD_GET;
	r->mpr = o->mpr;
	if (o->comp_mask.given) {
		r->raw_comp_mask = true;
		r->comp_mask = o->comp_mask.v;
	}
	if (o->method.given) {
		r->raw_method = true;
		r->method = (uint8_t)o->method.v;
	}
	if (o->counts.given) {
		r->raw_counts = true;
		r->raw_sgid_count = o->counts.s;
		r->raw_dgid_count = o->counts.d;
	}
}

/* The request's rules the table cannot express. */
static int check_req(struct query_opts *o)
{
	const unsigned int pr_only =
		OQ_SAF_SLID | OQ_SAF_DLID | OQ_SAF_SGID | OQ_SAF_DGID;

	if (!!o->c.policy != !!o->c.fabric)
		return oq_usage_error(CMD, "--policy and --fabric go "
					   "together (the fabric maps the "
					   "records' LIDs to ports)");
	if (!o->req.mpr) {
		if (o->sgids || o->dgids)
			return oq_usage_error(CMD, "--sgids/--dgids need "
						   "--mpr");
		if (o->req.fields & OQ_SAF_INDEPENDENCE)
			return oq_usage_error(CMD, "--independence needs "
						   "--mpr");
		return 0;
	}
	if (o->req.fields & pr_only)
		return oq_usage_error(CMD,
				      "--mpr takes --sgids/--dgids, not "
				      "--slid/--dlid/--sgid/--dgid");
	if (o->get)
		return oq_usage_error(CMD, "--get and --mpr exclude each "
					   "other (MPR uses GetMulti)");
	if (!o->sgids || !o->dgids)
		return oq_usage_error(CMD, "--mpr needs --sgids and --dgids");
	if (parse_gid_list(o, "--sgids", o->sgids, &o->req.sgid_count) ||
	    parse_gid_list(o, "--dgids", o->dgids, &o->req.dgid_count))
		return OQ_EXIT_USAGE;
	return 0;
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
	if (oq_sa_open(o->c.ca, (int)o->c.ca_port.v, &port, err,
		       sizeof(err))) {
		fprintf(stderr, "osmqos query: %s\n", err);
		return OQ_EXIT_USAGE;
	}
	fill_prefix(o->req.pr.sgid, o->sgid.guid_only, port.u.gid_prefix);
	fill_prefix(o->req.pr.dgid, o->dgid.guid_only, port.u.gid_prefix);
	for (i = 0; i < OQ_SA_MPR_MAX_GIDS; i++)
		fill_prefix(o->req.gids[i], o->mpr_guid[i], port.u.gid_prefix);
	if (oq_sa_query(&port, &o->req, (int)o->c.timeout.v, resp, err,
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
		if (o->c.json)
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

static int run(int argc, char **argv)
{
	struct oq_cli_inputs in;
	struct oq_matcher *m = NULL;
	struct verdict *v = NULL;
	struct oq_sa_resp resp;
	struct query_opts o = {0};
	size_t i;
	int rc;

	o.c.timeout.v = 1000;
	rc = oq_cli_parse(&oq_spec_query, argc, argv, &o);
	if (rc != OQ_CLI_RUN)
		return rc;
	build_req(&o);
	if ((rc = check_req(&o)))
		return rc;
	/* Load the offline inputs first: a typo should not cost a MAD. */
	memset(&in, 0, sizeof(in));
	if (o.c.policy) {
		rc = oq_cli_load(CMD, &o.c, &in);
		if (rc)
			return rc;
		m = oq_matcher_compile(in.binding);
		if (!m) {
			fprintf(stderr, "osmqos query: out of memory compiling "
					"the matcher; free memory or try a "
					"smaller fabric\n");
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
		if (o.c.json)
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
	if (o.c.policy)
		oq_cli_inputs_free(&in);
	return rc;
}
