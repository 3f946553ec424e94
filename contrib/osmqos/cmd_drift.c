// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos drift [--policy P | --in-force [--publish-dir DIR]]
 *              [--opensm-conf F] [--partitions F] [--node-name-map F]
 *              [--sample N]
 *              [--no-vlhl] [--no-sl2vl] [--ca NAME] [--ca-port N]
 *              [--timeout MS] [--all] [--json]
 * (`osmqos audit`, its former name, still works.)
 *
 * Live drift check: discover the fabric with directed-route SMPs, compile
 * the policy against what was found (the same compiler the plugin uses,
 * bandwidth intents included), read every programmed port's SL2VL, VLArb
 * and VLHighLimit back and compare; then ask the SA for a sample of CA
 * pairs and check its answers against the policy's QoS levels.  Without
 * --policy the policy is the one in force: the copy the plugin keeps, as
 * written, in its publish directory.  docs/drift.md has the why.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <osmqos/file.h>
#include <osmqos/htab.h>

#include "cli.h"
#include "cmd_drift.h"
#include "cmd_drift_out.h"
#include "inputs.h"
#include "mad/smp_discover.h"
#include "published.h"
#include "mad/smp_tables.h"

#define CMD "drift"

struct drift_opts {
	struct oq_cli_common c;
	struct oq_num sample;
	bool no_vlhl, no_sl2vl, in_force;
	char in_force_path[4096];
	struct oq_pub_live live; /* the SM's opensm.conf and publish_dir= */
};
OQ_OPTS_STRUCT(struct drift_opts);

static const struct oq_opt drift_opts[] = {
	OQ_USE_H(OQ_CO_POLICY, 0,
		 "the QoS policy to compare with (default: the policy in "
		 "force, --in-force)"),
	OQ_OPT("in-force", 0, OQ_OPT_FLAG, NULL,
	       "compare with the policy in force: the copy, as written, the "
	       "plugin keeps in its publish directory (the default when no "
	       "--policy is given)",
	       offsetof(struct drift_opts, in_force)),
	OQ_USE(OQ_CO_PUBLISH_DIR),
	OQ_USE_H(OQ_CO_OPENSM_CONF, 0,
		 "the SM's opensm.conf (its qos_* templates, routing_engine, "
		 "node-name map and partitions, and publish_dir=; default: "
		 "the one opensm runs with, as the plugin publishes it, else "
		 "OpenSM's compiled-in values)"),
	OQ_USE_H(OQ_CO_PARTITIONS, 0,
		 "the SM's partitions.conf (default: the one --opensm-conf "
		 "names)"),
	OQ_USE(OQ_CO_NODE_NAME_MAP),
	OQ_OPT("sample", 0, OQ_OPT_NUM, "N",
	       "CA pairs to check with the SA (default 16, 0: none)",
	       offsetof(struct drift_opts, sample), .max = 1000000),
	OQ_OPT("no-vlhl", 0, OQ_OPT_FLAG, NULL, "do not compare VLHighLimit",
	       offsetof(struct drift_opts, no_vlhl)),
	OQ_OPT("no-sl2vl", 0, OQ_OPT_FLAG, NULL,
	       "do not compare SL2VL (a routing engine such as torus-2QoS or "
	       "nue owns it)",
	       offsetof(struct drift_opts, no_sl2vl)),
	OQ_USE(OQ_CO_CA),
	OQ_USE(OQ_CO_CA_PORT),
	OQ_USE_H(OQ_CO_TIMEOUT, 0, "per MAD, in ms (default 1000)"),
	OQ_USE(OQ_CO_ALL),
	OQ_USE(OQ_CO_JSON),
	OQ_OPT_END,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_drift = {
	.name = CMD,
	.summary = "live drift check: tables and SA answers vs the policy",
	.about = "Walk the live fabric with SMPs, read every port's SL2VL, "
		 "VLArb and VLHighLimit, and compare them with what the "
		 "policy compiles to (intents included); check the SA's "
		 "PathRecords for a sample of CA pairs against the policy's "
		 "levels.  Drifts are listed one line per class: the same "
		 "difference on the same kind of port, counted, with an "
		 "example.  `osmqos audit` is the same command.",
	.opts = drift_opts,
	.notes = "Without --policy the policy in force is used: "
		 "DIR/" OQ_PUB_IN_FORCE ", which the plugin writes whenever "
		 "a policy is loaded (intents included), so the check stays "
		 "right after a rejected edit.  Under ibsim run with "
		 "LD_PRELOAD=libumad2sim.so (SIM_HOST picks the attachment "
		 "point); ibsim does not store VLHighLimit, so when every port "
		 "reads 0 there it is reported as not checked.",
	.exit_status = "0 no drift, 1 drift found (also while the SA does "
		       "not answer) or an invalid policy, 2 usage, input or "
		       "fabric error, or no table drift while the SA did not "
		       "answer (no verdict: the tables are still reported).",
	.run = run,
};

static void print_diags(struct oq_diags *d)
{
	oq_diags_sort(d);
	oq_diags_print(d, stderr);
	oq_diags_clear(d);
}

static int readable(const char *what, const char *path, size_t max)
{
	return path ? oq_cli_need_file(CMD, what, path, max) : 0;
}

/* Which policy: --policy, else the copy of the policy in force. */
static int policy_path(struct drift_opts *o)
{
	int rc;

	if (o->c.policy && o->in_force)
		return oq_usage_error(CMD, "--policy and --in-force name two "
					   "policies; give one");
	if (o->c.policy)
		return OQ_EXIT_OK;
	rc = oq_pub_in_force(CMD, o->c.publish_dir, o->in_force_path,
			     sizeof(o->in_force_path), "--policy FILE");
	if (rc)
		return rc;
	o->in_force = true;
	o->c.policy = o->in_force_path;
	return OQ_EXIT_OK;
}

/* The policy, before any MAD: a typo should not cost a fabric walk.  An
 * invalid policy is a finding (exit 1), as for every subcommand. */
static int load_policy(const struct drift_opts *o, struct oq_cli_inputs *in)
{
	const struct oq_cli_common *c = &o->c;

	if (readable("policy", c->policy, OQ_POLICY_MAX_BYTES) ||
	    readable("partitions file", c->partitions, OQ_FILE_MAX_BYTES) ||
	    readable("opensm.conf", c->opensm_conf, OQ_FILE_MAX_BYTES) ||
	    readable("node-name map", c->node_name_map, OQ_FILE_MAX_BYTES) ||
	    oq_cli_read_policy(CMD, c->policy, &in->diags, &in->policy))
		return OQ_EXIT_USAGE;
	if (!in->policy) {
		print_diags(&in->diags);
		fprintf(stderr, "osmqos drift: out of memory reading the "
				"policy; free memory and retry\n");
		return OQ_EXIT_USAGE;
	}
	if (!oq_diags_has_errors(&in->diags))
		oq_policy_validate(in->policy, &in->diags);
	if (oq_diags_has_errors(&in->diags)) {
		print_diags(&in->diags);
		fprintf(stderr,
			"osmqos drift: the policy '%s' is invalid; fix the "
			"errors above (osmqos check %s shows them too)\n",
			c->policy, c->policy);
		return OQ_EXIT_FAIL;
	}
	if (o->in_force && !c->json)
		fprintf(stderr,
			"osmqos drift: the policy in force: %s (hash "
			"0x%016llx)\n",
			c->policy,
			(unsigned long long)oq_fnv1a(in->policy->text,
						     in->policy->text_len));
	return OQ_EXIT_OK;
}

/* Node names, partitions and the binding on the discovered fabric (as
 * oq_cli_load does for a topology file): the policy's port-names are
 * OpenSM's names, a node-name map's where the SM has one. */
static int bind_policy(const struct drift_opts *o, struct oq_cli_inputs *in)
{
	int rc = oq_cli_node_names(CMD, &o->c, in->fabric, NULL);

	if (rc)
		return rc;
	in->have_parts = true;
	if (o->c.partitions)
		rc = oq_cli_read_partitions(CMD, o->c.partitions, in->fabric,
					    &in->diags, &in->parts);
	else
		rc = oq_partitions_no_file(&in->parts, in->fabric, &in->diags);
	if (rc == OQ_EXIT_USAGE)
		return rc;
	if (rc || oq_diags_has_errors(&in->diags)) {
		print_diags(&in->diags);
		fprintf(stderr,
			"osmqos drift: the partitions file '%s' has errors; "
			"fix them (OpenSM partitions.conf syntax; OpenSM "
			"itself uses only its Default partition until they "
			"are fixed)\n",
			o->c.partitions ? o->c.partitions : "(none)");
		return OQ_EXIT_USAGE;
	}
	in->binding = oq_bind(in->policy, in->fabric, &in->parts, &in->diags);
	if (!in->binding) {
		fprintf(stderr, "osmqos drift: out of memory binding the "
				"policy; free memory and retry\n");
		return OQ_EXIT_USAGE;
	}
	if (oq_diags_has_errors(&in->diags)) {
		print_diags(&in->diags);
		fprintf(stderr,
			"osmqos drift: the policy '%s' is invalid on the live "
			"fabric; fix the errors above\n",
			o->c.policy);
		return OQ_EXIT_FAIL;
	}
	print_diags(&in->diags);
	return OQ_EXIT_OK;
}

int drift_discover(const char *cmd, const struct oq_cli_common *c,
		   struct oq_smp_port *smp, struct oq_live_fabric *lf,
		   struct oq_cli_inputs *in)
{
	char err[768];

	if (oq_smp_open(c->ca, (int)c->ca_port.v, smp, err, sizeof(err))) {
		fprintf(stderr, "osmqos %s: %s\n", cmd, err);
		return OQ_EXIT_USAGE;
	}
	smp->timeout_ms = (int)c->timeout.v;
	if (oq_live_discover(smp, lf, err, sizeof(err))) {
		fprintf(stderr, "osmqos %s: %s\n", cmd, err);
		return OQ_EXIT_USAGE;
	}
	if (lf->errors) {
		/* A partial model compiles other tables: use nothing. */
		fprintf(stderr,
			"osmqos %s: discovery incomplete, %u SMP%s failed "
			"(first: %s); nothing was compared, since a partial "
			"fabric compiles different tables. Rerun when the "
			"fabric is stable, or check that port.\n",
			cmd, lf->errors, lf->errors == 1 ? "" : "s",
			lf->first_error);
		return OQ_EXIT_USAGE;
	}
	if (oq_live_build(lf, &in->diags) || oq_diags_has_errors(&in->diags)) {
		print_diags(&in->diags);
		fprintf(stderr, "osmqos %s: the discovered fabric is not "
				"consistent (see above); fix the duplicate "
				"GUIDs or LIDs first\n",
			cmd);
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
		       struct drift_list *drifts, struct drift_list *vlhl,
		       struct vlhl_view *vv, unsigned int *compared)
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
			fprintf(stderr, "osmqos drift: %s\n", err);
			return OQ_EXIT_USAGE;
		}
		rc = drift_compare_port(&w, &got, drifts, vlhl);
		if (w.has_vlarb) {
			vv->ports++;
			vv->nonzero_want += !!w.vl_high_limit;
			vv->nonzero_got += !!got.vl_high_limit;
		}
		oq_smp_tables_free(&got);
		if (rc) {
			fprintf(stderr, "osmqos drift: out of memory\n");
			return OQ_EXIT_USAGE;
		}
		(*compared)++;
	}
	return OQ_EXIT_OK;
}

/* Keep the VLHighLimit drifts, or say why they cannot be trusted. */
static int settle_vlhl(const struct drift_opts *o, const struct vlhl_view *vv,
		       const struct drift_list *vlhl,
		       struct drift_list *drifts, struct drift_report *r)
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
		struct drift *d = drift_add(drifts, NULL);

		if (!d)
			return -1;
		*d = vlhl->v[i];
	}
	return 0;
}

/* The SA's answers against the policy's.  A failure of the SA (no SM
 * answering, a timeout) is reported in r->sa_error, kept in err: the
 * tables already read back are worth as much without it. */
static int sa_part(const struct drift_opts *o, struct oq_cli_inputs *in,
		   struct drift_list *drifts, struct drift_report *r, char *err,
		   size_t err_len)
{
	struct oq_matcher *m;
	int rc;

	if (!o->sample.v) {
		r->notes[r->n_notes++] = "SA not checked (--sample 0)";
		return OQ_EXIT_OK;
	}
	m = oq_matcher_compile(in->binding);
	if (!m) {
		fprintf(stderr, "osmqos drift: out of memory\n");
		return OQ_EXIT_USAGE;
	}
	rc = drift_sa_check(in->fabric, in->policy, m, o->c.ca,
			    (int)o->c.ca_port.v, (int)o->c.timeout.v,
			    (unsigned int)o->sample.v, drifts, &r->sa, err,
			    err_len);
	oq_matcher_free(m);
	if (rc) {
		r->sa_error = err;
		r->notes[r->n_notes++] =
			"the SA check failed (sa_error): the tables "
			"were compared, the SA's answers were not; is "
			"an SM running and master? (--sample 0 skips the SA "
			"check)";
	}
	return OQ_EXIT_OK;
}

static int check_drift(const struct drift_opts *o, struct oq_cli_inputs *in,
		 struct oq_live_fabric *lf)
{
	struct drift_list drifts = {0}, vlhl = {0};
	struct drift_report r;
	struct oq_fabric_tables want = {0};
	struct oq_templates t;
	struct oq_smp_port smp;
	struct vlhl_view vv = {0};
	char sa_err[768];
	bool smp_open;
	int rc;

	memset(&r, 0, sizeof(r));
	/* What it assumes of the SM's templates and node names first. */
	if (*o->live.note)
		r.notes[r.n_notes++] = o->live.note;
	rc = drift_discover(CMD, &o->c, &smp, lf, in);
	smp_open = smp.u.agent >= 0;
	if (!rc)
		rc = bind_policy(o, in);
	if (!rc)
		rc = oq_cli_compile_tables(CMD, in, o->c.opensm_conf, &t,
					   &want);
	if (!rc)
		rc = compare_all(&smp, o->no_sl2vl, &want, &drifts, &vlhl, &vv,
				 &r.ports_compared);
	r.smps = smp.sent;
	r.ca = smp.u.ca;
	r.port = smp.u.port;
	r.port_guid = smp.u.port_guid;
	/* Close before the SA client opens its own agent: one MAD consumer
	 * at a time, so neither sees the other's answers. */
	if (smp_open)
		oq_smp_close(&smp);
	if (!rc && settle_vlhl(o, &vv, &vlhl, &drifts, &r)) {
		fprintf(stderr, "osmqos drift: out of memory\n");
		rc = OQ_EXIT_USAGE;
	}
	if (!rc)
		rc = sa_part(o, in, &drifts, &r, sa_err, sizeof(sa_err));
	if (!rc && !o->c.partitions && r.n_notes < DRIFT_MAX_NOTES) {
		size_t i;

		/* Refusals are drift only where the model has the pair in
		 * one partition: without the SM's file, it has Default
		 * alone, and the SM's own partitions refuse such pairs. */
		for (i = 0; i < drifts.n; i++)
			if (!strcmp(drifts.v[i].kind, "sa_status"))
				break;
		if (i < drifts.n)
			r.notes[r.n_notes++] =
				"the SA refused pairs the model has in one "
				"partition, and the model knows only the "
				"Default partition (no --partitions, and no "
				"--opensm-conf naming one): give the SM's "
				"opensm.conf (-c) or partitions.conf (-k) "
				"before "
				"taking these for drift";
	}
	if (!rc) {
		size_t i;

		r.policy_path = o->c.policy;
		r.policy = in->policy;
		r.policy_hash = oq_fnv1a(in->policy->text,
					 in->policy->text_len);
		r.in_force = o->in_force;
		r.nodes = lf->n;
		r.drifts = &drifts;
		if (r.sa_error)
			fprintf(stderr, "osmqos drift: SA check: %s\n",
				r.sa_error);
		for (i = 0; !o->c.json && i < r.n_notes; i++)
			fprintf(stderr, "osmqos drift: note: %s\n", r.notes[i]);
		drift_print(&r, o->c.json, o->c.all);
		/* Drift found is drift whatever the SA did; none found
		 * with the SA unchecked is no verdict. */
		rc = drifts.n	  ? OQ_EXIT_FAIL
		     : r.sa_error ? OQ_EXIT_USAGE
				  : OQ_EXIT_OK;
	}
	oq_fabric_tables_free(&want);
	drift_list_free(&drifts);
	drift_list_free(&vlhl);
	return rc;
}

static int run(int argc, char **argv)
{
	struct oq_live_fabric lf;
	struct oq_cli_inputs in;
	struct drift_opts o = {0};
	int rc;

	o.sample.v = 16;
	o.c.timeout.v = 1000;
	rc = oq_cli_parse(&oq_spec_drift, argc, argv, &o);
	if (rc != OQ_CLI_RUN)
		return rc;
	rc = oq_pub_live_inputs(CMD, &o.c, &o.live);
	if (!rc)
		rc = policy_path(&o);
	if (rc) {
		oq_pub_live_free(&o.live);
		return rc;
	}
	memset(&in, 0, sizeof(in));
	memset(&lf, 0, sizeof(lf));
	oq_diags_init(&in.diags);
	rc = load_policy(&o, &in);
	if (!rc)
		rc = check_drift(&o, &in, &lf);
	oq_cli_inputs_free(&in);
	oq_live_free(&lf);
	oq_pub_live_free(&o.live);
	return rc;
}
