// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos check POLICY [--fabric TOPO] [--partitions FILE]
 *                     [--opensm-conf FILE]
 *
 * Parse and validate a QoS policy; every diagnostic goes to stderr as
 * FILE:LINE:COL: error|warning: text, sorted by position.  Exit 0 when the
 * policy is valid (warnings allowed), 1 when it has errors, 2 on usage or
 * I/O errors.  A valid policy gets a one-line summary on stdout.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/synth.h>
#include <osmqos/tables.h>

#include "cli.h"

void oq_usage_check(FILE *out)
{
	fprintf(out,
		"Usage: osmqos check POLICY [--fabric TOPO] [--partitions FILE]\n"
		"                    [--opensm-conf FILE]\n"
		"\n"
		"Parse and validate an OpenSM QoS policy file "
		"(qos-policy.conf).\n"
		"Diagnostics go to stderr as FILE:LINE:COL: error|warning: "
		"text.\n"
		"\n"
		"Options:\n"
		"  --fabric TOPO        also resolve port groups against a "
		"topology\n"
		"                       (ibnetdiscover or ibsim net file) and "
		"warn\n"
		"                       about groups that match no port\n"
		"  --partitions FILE    partitions.conf for 'partition:' keys "
		"(checked\n"
		"                       alone without --fabric)\n"
		"  --opensm-conf FILE   check the qos_* table templates of an\n"
		"                       opensm.conf as well\n"
		"  -h, --help           this text\n"
		"\n"
		"Exit status: 0 valid (warnings allowed), 1 invalid, 2 usage or "
		"I/O error.\n");
}

struct check_opts {
	const char *policy, *fabric, *partitions, *opensm_conf;
};

static int parse_args(int argc, char **argv, struct check_opts *o)
{
	static const struct option longopts[] = {
		{ "fabric", required_argument, NULL, 'f' },
		{ "partitions", required_argument, NULL, 'p' },
		{ "opensm-conf", required_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			o->fabric = optarg;
			break;
		case 'p':
			o->partitions = optarg;
			break;
		case 'c':
			o->opensm_conf = optarg;
			break;
		case 'h':
			oq_usage_check(stdout);
			return OQ_EXIT_OK + 100;
		default:
			return oq_getopt_error("check", c, argv);
		}
	}
	if (optind >= argc)
		return oq_usage_error("check", "no policy file given");
	o->policy = argv[optind++];
	if (optind < argc)
		return oq_usage_error("check", "unexpected argument '%s'",
				      argv[optind]);
	return -1;
}

/*
 * The fabric-aware part: bind the policy's port groups to a topology so
 * that groups, port names and GUIDs that resolve to no port are reported.
 * Only runs on a policy without errors.  Returns OQ_EXIT_USAGE when an
 * input file cannot be used, else OQ_EXIT_OK.
 */
static int check_against_fabric(const struct check_opts *o,
				const struct oq_policy *p,
				const struct oq_templates *t,
				struct oq_partitions *parts,
				struct oq_diags *diags)
{
	struct oq_engine engine;
	struct oq_fabric_tables tables;
	struct oq_fabric *f;
	struct oq_binding *b;
	size_t errs = diags->n_errors;

	f = oq_topology_load(o->fabric, diags);
	if (!f || diags->n_errors > errs) {
		oq_fabric_free(f);
		return OQ_EXIT_USAGE;
	}
	/* Partition membership for pkey:/partition: groups.  Without a
	 * partitions.conf OpenSM still has its Default partition (0x7fff,
	 * every end port a full member), and so do we.  The caller frees
	 * parts after printing: diagnostics point at its file name. */
	errs = diags->n_errors;
	if (o->partitions)
		oq_partitions_load(parts, o->partitions, f, diags);
	else
		oq_partitions_no_file(parts, f, diags);
	if (diags->n_errors > errs) {
		oq_fabric_free(f);
		return OQ_EXIT_USAGE;
	}
	b = oq_bind(p, f, parts, diags);
	/* The scopes against this fabric and the routing engine that
	 * opensm.conf names, as `tables` and the plugin see them (a scope
	 * covering no port, a VL a port lacks, a VL starved). */
	oq_engine_by_name(&engine, t->routing_engine);
	if (b && !oq_tables_compile_engine(b, f, t, &engine, &tables, diags)) {
		struct oq_synth_plan plan;

		/* Intents: feasible on every port class of this fabric? */
		if (oq_synth_apply(p, f, &engine, &tables, &plan, diags)) {
			oq_fabric_tables_free(&tables);
			oq_binding_free(b);
			oq_fabric_free(f);
			fprintf(stderr, "osmqos check: out of memory checking "
					"the intents; free memory or check a "
					"smaller fabric\n");
			return OQ_EXIT_USAGE;
		}
		oq_synth_plan_free(&plan);
		oq_fabric_tables_free(&tables);
	}
	oq_binding_free(b);
	oq_fabric_free(f);
	return OQ_EXIT_OK;
}

/*
 * --partitions without --fabric: the file is read as the plugin reads
 * OpenSM's (its errors make the input unusable), and every `partition:`
 * name must be one it defines; membership needs a fabric.
 */
static int check_partitions_file(const char *path, const struct oq_policy *p,
				 struct oq_partitions *parts,
				 struct oq_diags *diags)
{
	size_t errs = diags->n_errors, i, j;

	if (oq_partitions_load(parts, path, NULL, diags) ||
	    diags->n_errors > errs)
		return OQ_EXIT_USAGE;
	for (i = 0; i < p->n_explicit_groups; i++)
		for (j = 0; j < p->groups[i].partitions.n; j++) {
			const struct oq_ref *r = &p->groups[i].partitions.v[j];

			if (!oq_partition_by_name(parts, r->name))
				oq_warning(diags, r->loc,
					   "partition '%s' is not defined in "
					   "%s",
					   r->name, path);
		}
	/* ipoib lines OpenSM would refuse (full members need a fabric). */
	oq_check_ipoib_partitions(p, NULL, parts, diags);
	return OQ_EXIT_OK;
}

static int check_opensm_conf(const char *path, struct oq_templates *t,
			     struct oq_diags *diags)
{
	size_t errs = diags->n_errors;

	if (oq_templates_load_opensm_conf(t, path, diags) ||
	    diags->n_errors > errs)
		return OQ_EXIT_USAGE;
	return OQ_EXIT_OK;
}

static void print_summary(const struct oq_policy *p,
			  const struct oq_diags *diags)
{
	size_t ulp_rules = p->n_rules - p->n_explicit_rules;

	printf("%s: valid: %zu port group%s, %zu qos-level%s, %zu match "
	       "rule%s (%zu from qos-ulps), %zu vlarb-scope%s, "
	       "%zu sl2vl-scope%s, %zu warning%s\n",
	       p->file, p->n_explicit_groups,
	       p->n_explicit_groups == 1 ? "" : "s", p->n_explicit_levels,
	       p->n_explicit_levels == 1 ? "" : "s", p->n_rules,
	       p->n_rules == 1 ? "" : "s", ulp_rules, p->n_vlarb,
	       p->n_vlarb == 1 ? "" : "s", p->n_sl2vl,
	       p->n_sl2vl == 1 ? "" : "s", diags->n_warnings,
	       diags->n_warnings == 1 ? "" : "s");
}

int oq_cmd_check(int argc, char **argv)
{
	struct oq_partitions parts;
	struct oq_templates t;
	struct check_opts o;
	struct oq_diags diags;
	struct oq_policy *p;
	bool on_fabric = false;
	int rc = parse_args(argc, argv, &o);

	if (rc == OQ_EXIT_OK + 100)
		return OQ_EXIT_OK;
	if (rc >= 0)
		return rc;

	oq_diags_init(&diags);
	memset(&parts, 0, sizeof(parts));
	p = oq_policy_load(o.policy, &diags);
	if (!p) {
		oq_diags_print(&diags, stderr);
		fprintf(stderr, "osmqos check: cannot read the policy file; "
				"check the path and its permissions\n");
		oq_diags_free(&diags);
		return OQ_EXIT_USAGE;
	}
	oq_policy_validate(p, &diags);
	rc = oq_diags_has_errors(&diags) ? OQ_EXIT_FAIL : OQ_EXIT_OK;

	oq_templates_default(&t);
	if (o.opensm_conf &&
	    check_opensm_conf(o.opensm_conf, &t, &diags) != OQ_EXIT_OK)
		rc = OQ_EXIT_USAGE;
	if (rc == OQ_EXIT_OK && o.fabric) {
		if (check_against_fabric(&o, p, &t, &parts, &diags) !=
		    OQ_EXIT_OK)
			rc = OQ_EXIT_USAGE;
		else if (oq_diags_has_errors(&diags))
			on_fabric = true;
	} else if (rc != OQ_EXIT_USAGE && !o.fabric && o.partitions) {
		if (check_partitions_file(o.partitions, p, &parts, &diags) !=
		    OQ_EXIT_OK)
			rc = OQ_EXIT_USAGE;
		else if (rc == OQ_EXIT_OK && oq_diags_has_errors(&diags))
			on_fabric = true;
	}
	if (on_fabric)
		rc = OQ_EXIT_FAIL;

	oq_diags_sort(&diags);
	oq_diags_print(&diags, stderr);
	if (rc == OQ_EXIT_OK)
		print_summary(p, &diags);
	else if (on_fabric)
		fprintf(stderr,
			"%s: %zu error%s, %zu warning%s against the fabric "
			"or partitions given (each says what the plugin and "
			"OpenSM do); fix them\n",
			p->file, diags.n_errors, diags.n_errors == 1 ? "" : "s",
			diags.n_warnings, diags.n_warnings == 1 ? "" : "s");
	else if (rc == OQ_EXIT_FAIL)
		fprintf(stderr, "%s: %zu error%s, %zu warning%s; fix the "
				"errors above (OpenSM would reject this "
				"policy)\n",
			p->file, diags.n_errors,
			diags.n_errors == 1 ? "" : "s", diags.n_warnings,
			diags.n_warnings == 1 ? "" : "s");
	else
		fprintf(stderr, "osmqos check: an input file could not be "
				"used; fix the problems reported above\n");
	/* Diagnostics point at p->file and parts.file: print them before
	 * freeing those. */
	oq_diags_free(&diags);
	oq_partitions_free(&parts);
	oq_policy_free(p);
	return rc;
}
