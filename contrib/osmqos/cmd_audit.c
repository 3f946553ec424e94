// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos audit --policy P [--opensm-conf F] [--partitions F] [--sample N]
 *              [--no-vlhl] [--no-sl2vl] [--ca NAME] [--port N]
 *              [--timeout MS] [--json]
 *
 * Live drift audit: discover the fabric with directed-route SMPs, compile
 * the policy against what was found (the same compiler the plugin uses),
 * read every programmed port's SL2VL, VLArb and VLHighLimit back and
 * compare; then ask the SA for a sample of CA pairs and check its answers
 * against the policy's QoS levels.  docs/audit-live.md has the why.
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/file.h>

#include "cli.h"
#include "cmd_audit.h"
#include "cmd_audit_out.h"
#include "inputs.h"
#include "mad/smp_discover.h"
#include "mad/smp_tables.h"

void oq_usage_audit(FILE *out)
{
	fprintf(out,
		"Usage: osmqos audit --policy POLICY [--opensm-conf FILE] "
		"[--partitions FILE]\n"
		"                    [--sample N] [--no-vlhl] [--no-sl2vl] "
		"[--ca NAME]\n"
		"                    [--port N] [--timeout MS] [--json]\n"
		"\n"
		"Walk the live fabric with SMPs, read every port's SL2VL, "
		"VLArb and\nVLHighLimit, and compare them with what the "
		"policy compiles to; check\nthe SA's PathRecords for a sample "
		"of CA pairs against the policy's levels.\n"
		"\n"
		"Options:\n"
		"  --policy FILE       the QoS policy the SM runs (required)\n"
		"  --opensm-conf FILE  the SM's opensm.conf (its qos_* "
		"templates);\n"
		"                      default: OpenSM's compiled-in values\n"
		"  --partitions FILE   the SM's partitions.conf\n"
		"  --sample N          CA pairs to check with the SA (default "
		"16, 0: none)\n"
		"  --no-vlhl           do not compare VLHighLimit\n"
		"  --no-sl2vl          do not compare SL2VL (a routing engine "
		"such as\n"
		"                      torus-2QoS or nue owns it)\n"
		"  -C, --ca NAME       local CA (default: the first active "
		"port)\n"
		"  -P, --port N        local port number\n"
		"  --timeout MS        per MAD (default 1000)\n"
		"  --json              one JSON object (docs/json.md)\n"
		"  -h, --help          this text\n"
		"\n"
		"Under ibsim run with LD_PRELOAD=libumad2sim.so (SIM_HOST "
		"picks the\nattachment point); ibsim does not store "
		"VLHighLimit, so when every port\nreads 0 there it is "
		"reported as not checked.\n"
		"Exit status: 0 no drift, 1 drift found, 2 usage, input or "
		"fabric error.\n");
}

struct audit_opts {
	const char *policy, *opensm_conf, *partitions, *ca;
	int port, timeout_ms;
	unsigned int sample;
	bool json, no_vlhl, no_sl2vl;
};

enum {
	O_POLICY = 256,
	O_CONF,
	O_PARTS,
	O_SAMPLE,
	O_NO_VLHL,
	O_NO_SL2VL,
	O_TIMEOUT,
	O_JSON,
};

static int number(const char *opt, const char *arg, unsigned long long max,
		  unsigned long long *v)
{
	if (oq_parse_u64(arg, v) || *v > max)
		return oq_usage_error("audit",
				      "%s '%s' is not a number in 0..%llu", opt,
				      arg, max);
	return 0;
}

/* -1: go on; -2: --help printed; otherwise an exit code. */
static int parse_args(int argc, char **argv, struct audit_opts *o)
{
	static const struct option longopts[] = {
		{"policy", required_argument, NULL, O_POLICY},
		{"opensm-conf", required_argument, NULL, O_CONF},
		{"partitions", required_argument, NULL, O_PARTS},
		{"sample", required_argument, NULL, O_SAMPLE},
		{"no-vlhl", no_argument, NULL, O_NO_VLHL},
		{"no-sl2vl", no_argument, NULL, O_NO_SL2VL},
		{"ca", required_argument, NULL, 'C'},
		{"port", required_argument, NULL, 'P'},
		{"timeout", required_argument, NULL, O_TIMEOUT},
		{"json", no_argument, NULL, O_JSON},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	unsigned long long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->sample = 16;
	o->timeout_ms = 1000;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hC:P:", longopts, NULL)) != -1) {
		switch (c) {
		case O_POLICY:
			o->policy = optarg;
			break;
		case O_CONF:
			o->opensm_conf = optarg;
			break;
		case O_PARTS:
			o->partitions = optarg;
			break;
		case O_SAMPLE:
			if (number("--sample", optarg, 1000000, &v))
				return OQ_EXIT_USAGE;
			o->sample = (unsigned int)v;
			break;
		case O_NO_VLHL:
			o->no_vlhl = true;
			break;
		case O_NO_SL2VL:
			o->no_sl2vl = true;
			break;
		case 'C':
			o->ca = optarg;
			break;
		case 'P':
			if (number("--port", optarg, 254, &v))
				return OQ_EXIT_USAGE;
			o->port = (int)v;
			break;
		case O_TIMEOUT:
			if (number("--timeout", optarg, 600000, &v))
				return OQ_EXIT_USAGE;
			if (!v)
				return oq_usage_error("audit", "--timeout must "
							       "be at least 1 "
							       "ms");
			o->timeout_ms = (int)v;
			break;
		case O_JSON:
			o->json = true;
			break;
		case 'h':
			oq_usage_audit(stdout);
			return -2;
		default:
			return oq_getopt_error("audit", c, argv);
		}
	}
	if (optind < argc)
		return oq_usage_error("audit", "unexpected argument '%s'",
				      argv[optind]);
	if (!o->policy)
		return oq_usage_error("audit",
				      "--policy is required (the file the SM "
				      "runs, qos_policy_file in opensm.conf)");
	return -1;
}

static void print_diags(struct oq_diags *d)
{
	oq_diags_sort(d);
	oq_diags_print(d, stderr);
	oq_diags_clear(d);
}

static int readable(const char *what, const char *path, size_t max)
{
	return path ? oq_cli_need_file("audit", what, path, max) : 0;
}

/* The policy, before any MAD: a typo should not cost a fabric walk. */
static int load_policy(const struct audit_opts *o, struct oq_cli_inputs *in)
{
	if (readable("policy", o->policy, OQ_POLICY_MAX_BYTES) ||
	    readable("partitions file", o->partitions, OQ_FILE_MAX_BYTES) ||
	    readable("opensm.conf", o->opensm_conf, OQ_FILE_MAX_BYTES))
		return OQ_EXIT_USAGE;
	in->policy = oq_policy_load(o->policy, &in->diags);
	if (in->policy && !oq_diags_has_errors(&in->diags))
		oq_policy_validate(in->policy, &in->diags);
	if (!in->policy || oq_diags_has_errors(&in->diags)) {
		print_diags(&in->diags);
		fprintf(stderr,
			"osmqos audit: the policy '%s' is invalid; fix the "
			"errors above (osmqos check %s shows them too)\n",
			o->policy, o->policy);
		return OQ_EXIT_USAGE;
	}
	return OQ_EXIT_OK;
}

/* Partitions and the binding on the discovered fabric (as oq_cli_load
 * does for a topology file). */
static int bind_policy(const struct audit_opts *o, struct oq_cli_inputs *in)
{
	int rc;

	in->have_parts = true;
	if (o->partitions)
		rc = oq_partitions_load(&in->parts, o->partitions, in->fabric,
					&in->diags);
	else
		rc = oq_partitions_no_file(&in->parts, in->fabric, &in->diags);
	if (rc || oq_diags_has_errors(&in->diags)) {
		print_diags(&in->diags);
		fprintf(stderr,
			"osmqos audit: the partitions file '%s' has errors; "
			"fix them (OpenSM partitions.conf syntax)\n",
			o->partitions ? o->partitions : "(none)");
		return OQ_EXIT_USAGE;
	}
	in->binding = oq_bind(in->policy, in->fabric, &in->parts, &in->diags);
	if (!in->binding || oq_diags_has_errors(&in->diags)) {
		print_diags(&in->diags);
		fprintf(stderr,
			"osmqos audit: the policy '%s' cannot be bound "
			"to the live fabric; fix the errors above\n",
			o->policy);
		return OQ_EXIT_USAGE;
	}
	print_diags(&in->diags);
	return OQ_EXIT_OK;
}

static int discover(const struct audit_opts *o, struct oq_smp_port *smp,
		    struct oq_live_fabric *lf, struct oq_cli_inputs *in)
{
	char err[768];

	if (oq_smp_open(o->ca, o->port, smp, err, sizeof(err))) {
		fprintf(stderr, "osmqos audit: %s\n", err);
		return OQ_EXIT_USAGE;
	}
	smp->timeout_ms = o->timeout_ms;
	if (oq_live_discover(smp, lf, err, sizeof(err))) {
		fprintf(stderr, "osmqos audit: %s\n", err);
		return OQ_EXIT_USAGE;
	}
	if (lf->errors) {
		/* A partial model compiles other tables: compare nothing. */
		fprintf(stderr,
			"osmqos audit: discovery incomplete, %u SMP%s failed "
			"(first: %s); nothing was compared, since a partial "
			"fabric compiles different tables. Rerun when the "
			"fabric is stable, or check that port.\n",
			lf->errors, lf->errors == 1 ? "" : "s",
			lf->first_error);
		return OQ_EXIT_USAGE;
	}
	if (oq_live_build(lf, &in->diags) || oq_diags_has_errors(&in->diags)) {
		print_diags(&in->diags);
		fprintf(stderr, "osmqos audit: the discovered fabric is not "
				"consistent (see above); fix the duplicate "
				"GUIDs or LIDs first\n");
		return OQ_EXIT_USAGE;
	}
	/* The model is owned by the inputs from here on. */
	in->fabric = lf->fabric;
	lf->fabric = NULL;
	return OQ_EXIT_OK;
}

struct vlhl_view {
	unsigned int ports, nonzero_want, nonzero_got;
};

/* Read and compare every port the compiler gives tables. */
static int compare_all(struct oq_smp_port *smp, bool no_sl2vl,
		       const struct oq_fabric_tables *want,
		       struct audit_drifts *drifts, struct audit_drifts *vlhl,
		       struct vlhl_view *vv, unsigned int *audited)
{
	char err[768];
	size_t i;

	for (i = 0; i < want->n; i++) {
		struct oq_port_tables w = want->ports[i], got;
		int rc;

		if (no_sl2vl)
			w.has_sl2vl = false;
		if (!w.has_sl2vl && !w.has_vlarb)
			continue;
		if (oq_smp_read_tables(smp, &w, &got, err, sizeof(err))) {
			fprintf(stderr, "osmqos audit: %s\n", err);
			return OQ_EXIT_USAGE;
		}
		rc = audit_compare_port(&w, &got, drifts, vlhl);
		if (w.has_vlarb) {
			vv->ports++;
			vv->nonzero_want += !!w.vl_high_limit;
			vv->nonzero_got += !!got.vl_high_limit;
		}
		oq_smp_tables_free(&got);
		if (rc) {
			fprintf(stderr, "osmqos audit: out of memory\n");
			return OQ_EXIT_USAGE;
		}
		(*audited)++;
	}
	return OQ_EXIT_OK;
}

/* Keep the VLHighLimit drifts, or say why they cannot be trusted. */
static int settle_vlhl(const struct audit_opts *o, const struct vlhl_view *vv,
		       const struct audit_drifts *vlhl,
		       struct audit_drifts *drifts, struct audit_report *r)
{
	size_t i;

	r->vlhl_checked = false;
	if (o->no_vlhl) {
		r->notes[r->n_notes++] = "VLHighLimit not compared "
					 "(--no-vlhl)";
		return 0;
	}
	if (oq_under_umad2sim() && vv->nonzero_want && !vv->nonzero_got) {
		r->notes[r->n_notes++] =
			"VLHighLimit not compared: every port reads 0 and "
			"this is ibsim (umad2sim), which ignores VLHighLimit "
			"in PortInfo Sets; tests/e2e/program.sh checks it "
			"from the SMPs OpenSM sends";
		return 0;
	}
	r->vlhl_checked = true;
	for (i = 0; i < vlhl->n; i++) {
		struct audit_drift *d = audit_drift_add(drifts, NULL);

		if (!d)
			return -1;
		*d = vlhl->v[i];
	}
	return 0;
}

static int sa_part(const struct audit_opts *o, struct oq_cli_inputs *in,
		   struct audit_drifts *drifts, struct audit_report *r)
{
	struct oq_matcher *m;
	char err[768];
	int rc;

	if (!o->sample) {
		r->notes[r->n_notes++] = "SA not checked (--sample 0)";
		return OQ_EXIT_OK;
	}
	m = oq_matcher_compile(in->binding);
	if (!m) {
		fprintf(stderr, "osmqos audit: out of memory\n");
		return OQ_EXIT_USAGE;
	}
	rc = audit_sa_check(in->fabric, in->policy, m, o->ca, o->port,
			    o->timeout_ms, o->sample, drifts, &r->sa, err,
			    sizeof(err));
	oq_matcher_free(m);
	if (rc) {
		fprintf(stderr,
			"osmqos audit: SA check: %s (--sample 0 skips the SA "
			"check)\n",
			err);
		return OQ_EXIT_USAGE;
	}
	return OQ_EXIT_OK;
}

static int audit(const struct audit_opts *o, struct oq_cli_inputs *in,
		 struct oq_live_fabric *lf)
{
	struct audit_drifts drifts = {0}, vlhl = {0};
	struct audit_report r;
	struct oq_fabric_tables want = {0};
	struct oq_templates t;
	struct oq_smp_port smp;
	struct vlhl_view vv = {0};
	bool smp_open;
	int rc;

	memset(&r, 0, sizeof(r));
	rc = discover(o, &smp, lf, in);
	smp_open = smp.u.agent >= 0;
	if (!rc)
		rc = bind_policy(o, in);
	if (!rc)
		rc = oq_cli_compile_tables("audit", in, o->opensm_conf, &t,
					   &want);
	if (!rc)
		rc = compare_all(&smp, o->no_sl2vl, &want, &drifts, &vlhl, &vv,
				 &r.ports_audited);
	r.smps = smp.sent;
	r.ca = smp.u.ca;
	r.port = smp.u.port;
	r.port_guid = smp.u.port_guid;
	/* Close before the SA client opens its own agent: one MAD consumer
	 * at a time, so neither sees the other's answers. */
	if (smp_open)
		oq_smp_close(&smp);
	if (!rc && settle_vlhl(o, &vv, &vlhl, &drifts, &r)) {
		fprintf(stderr, "osmqos audit: out of memory\n");
		rc = OQ_EXIT_USAGE;
	}
	if (!rc)
		rc = sa_part(o, in, &drifts, &r);
	if (!rc) {
		size_t i;

		r.policy_path = o->policy;
		r.policy = in->policy;
		r.nodes = lf->n;
		r.drifts = &drifts;
		for (i = 0; !o->json && i < r.n_notes; i++)
			fprintf(stderr, "osmqos audit: note: %s\n", r.notes[i]);
		audit_print(&r, o->json);
		rc = drifts.n ? OQ_EXIT_FAIL : OQ_EXIT_OK;
	}
	oq_fabric_tables_free(&want);
	audit_drifts_free(&drifts);
	audit_drifts_free(&vlhl);
	return rc;
}

int oq_cmd_audit(int argc, char **argv)
{
	struct oq_live_fabric lf;
	struct oq_cli_inputs in;
	struct audit_opts o;
	int rc = parse_args(argc, argv, &o);

	if (rc == -2)
		return OQ_EXIT_OK;
	if (rc >= 0)
		return rc;
	memset(&in, 0, sizeof(in));
	memset(&lf, 0, sizeof(lf));
	oq_diags_init(&in.diags);
	rc = load_policy(&o, &in);
	if (!rc)
		rc = audit(&o, &in, &lf);
	oq_cli_inputs_free(&in);
	oq_live_free(&lf);
	return rc;
}
