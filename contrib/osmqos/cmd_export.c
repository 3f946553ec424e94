// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos export -p POLICY [-f TOPO [-k FILE] [-c FILE]] [-o FILE]
 *
 * The policy for stock OpenSM, for a rollback: written again from
 * osmqos's reading so that OpenSM's own parser takes it and reads it as
 * osmqos does (policy/lang/stock_write.c), with the tables synthesized for its
 * bandwidth intents as qos-setup scopes (synth_lower.c, which needs the
 * fabric).  Before anything is written the result is read back with the
 * model of OpenSM's parser (stock.h): it must be taken, read as osmqos
 * reads it, and match the operator's policy rule for rule.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/file.h>
#include <osmqos/stock.h>

#include "cli.h"
#include "inputs.h"
#include "output_file.h"
#include "synth_lower.h"

#define CMD "export"

struct export_opts {
	struct oq_cli_common c;
	const char *output;
};
OQ_OPTS_STRUCT(struct export_opts);

static const struct oq_opt export_opts[] = {
	OQ_USE_H(OQ_CO_POLICY, OQ_OPT_REQUIRED, "the policy osmqos runs"),
	OQ_USE_H(OQ_CO_FABRIC, 0,
		 "the fabric the SM runs (ibnetdiscover output or ibsim net "
		 "file): needed for a policy with bandwidth intents, whose "
		 "tables depend on the ports; it also makes OpenSM's port "
		 "and partition checks on it"),
	OQ_USE_H(OQ_CO_PARTITIONS, 0,
		 "the SM's partitions.conf (default: the one --opensm-conf "
		 "names)"),
	OQ_USE_H(OQ_CO_OPENSM_CONF, 0,
		 "the SM's opensm.conf (templates and routing_engine, for "
		 "the synthesized tables)"),
	OQ_USE(OQ_CO_NODE_NAME_MAP),
	OQ_OPT("output", 'o', OQ_OPT_OUTPUT, "FILE",
	       "write it to FILE (replaced atomically; -: standard "
	       "output); default: stdout",
	       offsetof(struct export_opts, output)),
	OQ_OPT_END,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_export = {
	.name = CMD,
	.summary = "the policy for stock OpenSM (rollback), checked",
	.about = "Write the policy so that stock OpenSM's own parser takes it "
		 "and reads it as osmqos does: one key per line, names "
		 "quoted, LF line ends, the sections in the file's order, "
		 "the osmqos keys (bandwidth:, "
		 "priority:, ...) as comments and the tables synthesized for "
		 "them as qos-setup scopes.  The result is read back with "
		 "the model of OpenSM's parser before it is written.",
	.opts = export_opts,
	.output_what = "the stock copy",
	.output_suffix = "stock",
	.notes = "Stock OpenSM parses qos-setup and path-bits but applies "
		 "neither: without the plugin the ports get opensm.conf's "
		 "qos_* templates, while PathRecords keep the policy's SLs, "
		 "limits and P_Keys.  The summary on stderr says so.",
	.exit_status = "0 written, 1 invalid policy or an intent no tables "
		       "can meet (nothing written), 2 usage or I/O error.",
	.run = run,
};

/* Only the policy (no fabric): read and validated. */
static int load_policy_only(const struct oq_cli_common *c,
			    struct oq_cli_inputs *in)
{
	memset(in, 0, sizeof(*in));
	oq_diags_init(&in->diags);
	if (oq_cli_need_file(CMD, "policy", c->policy, OQ_POLICY_MAX_BYTES) ||
	    (c->partitions &&
	     oq_cli_need_file(CMD, "partitions file", c->partitions,
			      OQ_FILE_MAX_BYTES)) ||
	    oq_cli_read_policy(CMD, c->policy, &in->diags, &in->policy)) {
		oq_cli_inputs_free(in);
		return OQ_EXIT_USAGE;
	}
	if (!in->policy) {
		oq_diags_print(&in->diags, stderr);
		oq_cli_inputs_free(in);
		return oq_usage_error(CMD, "out of memory reading the policy");
	}
	if (!oq_diags_has_errors(&in->diags))
		oq_policy_validate(in->policy, &in->diags);
	oq_diags_sort(&in->diags);
	oq_diags_print(&in->diags, stderr);
	if (oq_diags_has_errors(&in->diags)) {
		fprintf(stderr,
			"osmqos export: '%s' is invalid; fix the errors above "
			"(osmqos check %s)\n",
			c->policy, c->policy);
		oq_cli_inputs_free(in);
		return OQ_EXIT_FAIL;
	}
	oq_diags_clear(&in->diags);
	return OQ_EXIT_OK;
}

/* A path in a comment: nothing may end the comment's line early. */
static void comment_safe(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

/* The text, generated in memory. */
static int generate(const struct export_opts *o, struct oq_cli_inputs *in,
		    char **text, size_t *len)
{
	char header[1024], path[512], cmdline[600];
	FILE *m = open_memstream(text, len);
	int rc;

	if (!m)
		return -1;
	snprintf(path, sizeof(path), "%s", o->c.policy);
	comment_safe(path);
	snprintf(header, sizeof(header),
		 "# Written by osmqos export from %s for stock %s,\n# which "
		 "reads it as osmqos reads that file: names quoted, one key "
		 "per line;\n# the osmqos keys are comments, the tables "
		 "synthesized for them qos-setup\n# scopes.  Stock OpenSM "
		 "applies neither qos-setup nor path-bits.\n\n",
		 path, OQ_STOCK_OPENSM);
	rc = oq_stock_write(m, in->policy, header);
	if (!rc && in->policy->n_intent_levels) {
		snprintf(cmdline, sizeof(cmdline), "osmqos export --fabric %s",
			 o->c.fabric);
		comment_safe(cmdline);
		rc = oq_synth_lower_sections(m, in, cmdline);
	}
	return fclose(m) || rc ? -1 : 0;
}

/* Read text back as stock OpenSM and as osmqos; it must be taken, read
 * as osmqos reads it, and decide every query as the operator's policy.
 * The policy read back is handed to the caller: the summary counts what
 * the file holds, which differs from the source (intents become scopes). */
static int verify(const char *text, size_t len, struct oq_cli_inputs *in,
		  int *verdict, struct oq_policy **written)
{
	struct oq_stock_fabric sf;
	struct oq_stock_env env;
	struct oq_stock *s = NULL;
	struct oq_policy *p2;
	struct oq_diags d;
	bool have_env =
		in->fabric &&
		!oq_stock_env_fabric(&env, &sf, in->fabric,
				     in->have_parts ? &in->parts : NULL);
	size_t n;
	int rc = -1;

	*verdict = -1;
	oq_diags_init(&d);
	p2 = oq_policy_parse("exported policy", text, len, &d);
	if (p2 && !oq_diags_has_errors(&d))
		oq_policy_validate(p2, &d);
	if (!p2 || oq_diags_has_errors(&d))
		goto out;
	s = oq_stock_read("exported policy", text, len, have_env ? &env : NULL);
	if (!s)
		goto out;
	*verdict = oq_stock_verdict(s, p2, &d);
	if (*verdict != OQ_STOCK_AS_WRITTEN)
		goto out;
	n = in->policy->n_intent_levels
		    ? oq_stock_compare_match(s, in->policy, &d)
		    : oq_stock_compare(s, in->policy, &d);
	rc = n ? -1 : 0;
	if (!rc) {
		*written = p2;
		p2 = NULL;
	}
out:
	if (rc) {
		oq_diags_print(&d, stderr);
		fprintf(stderr,
			"osmqos export: internal error: the exported policy "
			"would not be read as the operator's (above); nothing "
			"written; please report it with the policy\n");
	}
	oq_stock_free(s);
	oq_policy_free(p2);
	oq_diags_free(&d);
	if (have_env)
		oq_stock_fabric_free(&sf);
	return rc;
}

/* The scopes give every port the synthesized tables, except where a
 * switch's ports need different ones (scopes key a switch whole). */
static void lower_check(const char *text, size_t len, struct oq_cli_inputs *in,
			const struct oq_templates *t,
			const struct oq_fabric_tables *tables)
{
	struct oq_lower_check chk;
	struct oq_diags d;
	char name[96];

	oq_diags_init(&d);
	if (!oq_synth_lower_check(text, len, in, t, tables, &chk, &d) &&
	    chk.n_diff) {
		if (oq_port_name(chk.first_diff, name, sizeof(name)) < 0)
			snprintf(name, sizeof(name), "port %u",
				 chk.first_diff->num);
		fprintf(stderr,
			"osmqos export: warning: the scopes give %zu of %zu "
			"programmed port(s) other tables than synthesized "
			"(first: %s): a switch whose ports need different "
			"tables can only be keyed whole\n",
			chk.n_diff, chk.n_ports, name);
	}
	oq_diags_free(&d);
}

/* The counts are the written file's, as `osmqos check` counts them:
 * intents' scopes and groups exist only there. */
static void summary(const struct export_opts *o, const struct oq_policy *p,
		    const struct oq_policy *written,
		    const struct oq_cli_inputs *in)
{
	char counts[256];

	oq_policy_counts(written, counts, sizeof(counts));
	fprintf(stderr,
		"osmqos export: %s%s: %s; stock %s reads it as osmqos reads "
		"%s\n",
		o->output ? "wrote " : "",
		o->output ? oq_cli_output_name(o->output) : "stdout", counts,
		OQ_STOCK_OPENSM, o->c.policy);
	if (p->n_intent_levels)
		fprintf(stderr,
			"osmqos export: the intents of %zu level(s) became "
			"comments and their tables qos-setup scopes, for %zu "
			"port class(es) of %s\n",
			p->n_intent_levels, in->synth.n, o->c.fabric);
	if (p->n_vlarb || p->n_sl2vl || p->n_intent_levels)
		fprintf(stderr,
			"osmqos export: stock OpenSM does not apply qos-setup: "
			"without the plugin, ports get opensm.conf's qos_* "
			"templates at the next heavy sweep; PathRecords keep "
			"the policy's SLs, limits and P_Keys\n");
}

static int run(int argc, char **argv)
{
	struct oq_fabric_tables tables = {0};
	struct oq_cli_inputs in;
	struct export_opts o = {0};
	struct oq_templates t;
	struct oq_policy *written = NULL;
	char *text = NULL;
	size_t len = 0;
	int verdict, rc = oq_cli_parse(&oq_spec_export, argc, argv, &o);

	if (rc != OQ_CLI_RUN)
		return rc;
	rc = o.c.fabric ? oq_cli_load(CMD, &o.c, &in)
			: load_policy_only(&o.c, &in);
	if (rc)
		return rc;
	if (in.policy->n_intent_levels && !o.c.fabric) {
		oq_cli_inputs_free(&in);
		return oq_usage_error(
			CMD,
			"'%s' states bandwidth intents, whose tables depend "
			"on the ports: give the fabric the SM runs with "
			"--fabric (ibnetdiscover output)",
			o.c.policy);
	}
	if (in.policy->n_intent_levels) {
		rc = oq_cli_compile_tables(CMD, &in, o.c.opensm_conf, &t,
					   &tables);
		if (rc)
			goto out;
		if (in.synth.n_infeasible) {
			fprintf(stderr,
				"osmqos export: %zu port class(es) cannot "
				"meet the intents (errors above); nothing "
				"written: `osmqos synth --report` shows the "
				"best share per class\n",
				in.synth.n_infeasible);
			rc = OQ_EXIT_FAIL;
			goto out;
		}
	}
	if (generate(&o, &in, &text, &len)) {
		rc = oq_usage_error(CMD, "out of memory writing the policy");
		goto out;
	}
	if (verify(text, len, &in, &verdict, &written)) {
		rc = OQ_EXIT_USAGE;
		goto out;
	}
	if (in.policy->n_intent_levels)
		lower_check(text, len, &in, &t, &tables);
	if (o.output)
		rc = oq_cli_write_file(CMD, "-o", o.output, text, len);
	/* Standard output that did not take it all: no summary of what was
	 * written, and the exit status oq_cli_stdout_done()'s (a reader that
	 * stopped reading is not an error, a full disk is). */
	else if (fwrite(text, 1, len, stdout) != len)
		goto out;
	if (!rc)
		summary(&o, in.policy, written, &in);
out:
	oq_policy_free(written);
	free(text);
	oq_fabric_tables_free(&tables);
	oq_cli_inputs_free(&in);
	return rc;
}
