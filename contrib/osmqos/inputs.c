// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The offline subcommands' inputs: see inputs.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/file.h>

#include "cli.h"
#include "inputs.h"

static void print_diags(struct oq_diags *d)
{
	oq_diags_sort(d);
	oq_diags_print(d, stderr);
	oq_diags_clear(d);
}

int oq_cli_need_file(const char *cmd, const char *what, const char *path,
		     size_t max)
{
	int err = oq_file_probe(path, max);
	char why[64];

	if (err)
		return oq_usage_error(cmd, "cannot read %s '%s': %s; check "
				      "the path (a regular file)", what, path,
				      oq_file_error(err, max, why,
						    sizeof(why)));
	return OQ_EXIT_OK;
}

void oq_cli_inputs_free(struct oq_cli_inputs *in)
{
	oq_synth_plan_free(&in->synth);
	oq_binding_free(in->binding);
	oq_policy_free(in->policy);
	if (in->have_parts)
		oq_partitions_free(&in->parts);
	oq_fabric_free(in->fabric);
	oq_diags_free(&in->diags);
	memset(in, 0, sizeof(*in));
}

int oq_cli_load(const char *cmd, const char *policy, const char *fabric,
		const char *partitions, struct oq_cli_inputs *in)
{
	int rc;

	memset(in, 0, sizeof(*in));
	oq_diags_init(&in->diags);
	if ((rc = oq_cli_need_file(cmd, "fabric", fabric,
				   OQ_FILE_MAX_BYTES)) ||
	    (partitions &&
	     (rc = oq_cli_need_file(cmd, "partitions file", partitions,
				    OQ_FILE_MAX_BYTES))) ||
	    (policy && (rc = oq_cli_need_file(cmd, "policy", policy,
					      OQ_POLICY_MAX_BYTES))))
		goto fail;

	in->fabric = oq_topology_load(fabric, &in->diags);
	if (!in->fabric || oq_diags_has_errors(&in->diags)) {
		print_diags(&in->diags);
		fprintf(stderr,
			"osmqos %s: the fabric '%s' could not be loaded; fix "
			"the errors above (an ibnetdiscover output or ibsim "
			"net file is expected)\n",
			cmd, fabric);
		rc = OQ_EXIT_USAGE;
		goto fail;
	}
	if (!partitions) {
		/* Without partitions.conf OpenSM still has its Default
		 * partition (0x7fff, every end port a full member): pkey
		 * groups see it. */
		in->have_parts = true;
		if (oq_partitions_no_file(&in->parts, in->fabric, &in->diags)) {
			print_diags(&in->diags);
			rc = OQ_EXIT_USAGE;
			goto fail;
		}
	} else {
		in->have_parts = true;
		if (oq_partitions_load(&in->parts, partitions, in->fabric,
				       &in->diags) ||
		    oq_diags_has_errors(&in->diags)) {
			print_diags(&in->diags);
			fprintf(stderr,
				"osmqos %s: the partitions file '%s' has "
				"errors; fix them (OpenSM partitions.conf "
				"syntax)\n",
				cmd, partitions);
			rc = OQ_EXIT_USAGE;
			goto fail;
		}
	}
	if (!policy) {
		print_diags(&in->diags);
		return OQ_EXIT_OK;
	}
	in->policy = oq_policy_load(policy, &in->diags);
	if (!in->policy) {
		print_diags(&in->diags);
		fprintf(stderr, "osmqos %s: could not load '%s'\n", cmd,
			policy);
		rc = OQ_EXIT_USAGE;
		goto fail;
	}
	if (!oq_diags_has_errors(&in->diags))
		oq_policy_validate(in->policy, &in->diags);
	if (!oq_diags_has_errors(&in->diags)) {
		in->binding =
			oq_bind(in->policy, in->fabric,
				in->have_parts ? &in->parts : NULL, &in->diags);
		if (!in->binding) {
			fprintf(stderr, "osmqos %s: out of memory\n", cmd);
			rc = OQ_EXIT_USAGE;
			goto fail;
		}
	}
	if (oq_diags_has_errors(&in->diags)) {
		print_diags(&in->diags);
		fprintf(stderr,
			"osmqos %s: the policy '%s' is invalid; fix the errors "
			"above (osmqos check --fabric %s %s shows them too)\n",
			cmd, policy, fabric, policy);
		rc = OQ_EXIT_FAIL;
		goto fail;
	}
	print_diags(&in->diags);
	return OQ_EXIT_OK;
fail:
	oq_cli_inputs_free(in);
	return rc;
}

int oq_cli_compile_tables(const char *cmd, struct oq_cli_inputs *in,
			  const char *opensm_conf, struct oq_templates *t,
			  struct oq_fabric_tables *out)
{
	oq_templates_default(t);
	if (opensm_conf &&
	    (oq_templates_load_opensm_conf(t, opensm_conf, &in->diags) ||
	     oq_diags_has_errors(&in->diags))) {
		oq_diags_print(&in->diags, stderr);
		oq_diags_clear(&in->diags);
		fprintf(stderr,
			"osmqos %s: cannot use the templates of '%s'; check "
			"the path and its qos_* lines\n",
			cmd, opensm_conf);
		return OQ_EXIT_USAGE;
	}
	struct oq_engine engine;

	/* An unknown name was a warning of the opensm.conf parse. */
	oq_engine_by_name(&engine, t->routing_engine);
	if (oq_tables_compile_engine(in->binding, in->fabric, t, &engine, out,
				     &in->diags)) {
		fprintf(stderr, "osmqos %s: out of memory\n", cmd);
		return OQ_EXIT_USAGE;
	}
	/* Bandwidth intents replace what the templates would give. */
	oq_synth_plan_free(&in->synth);
	if (in->policy && oq_synth_apply(in->policy, in->fabric, &engine, out,
					 &in->synth, &in->diags)) {
		oq_fabric_tables_free(out);
		fprintf(stderr, "osmqos %s: out of memory\n", cmd);
		return OQ_EXIT_USAGE;
	}
	oq_diags_sort(&in->diags);
	oq_diags_print(&in->diags, stderr);
	oq_diags_clear(&in->diags);
	return OQ_EXIT_OK;
}
