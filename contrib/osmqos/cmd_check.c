// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos check POLICY [--fabric TOPO] [--partitions FILE]
 *                     [--opensm-conf FILE] [--node-name-map FILE]
 *                     [--all] [--json]
 *
 * Parse and validate a QoS policy; diagnostics go to stderr as
 * FILE:LINE:COL: error|warning: text, root causes first (what follows
 * from one folded under it), each kind capped unless --all; --json puts
 * them on stdout as one object instead (docs/json.md).  Exit 0 when the
 * policy is valid (warnings allowed), 1 when it has errors, 2 on usage or
 * I/O errors.  A valid policy gets a one-line summary on stdout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>
#include <osmqos/file.h>
#include <osmqos/json.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/stock.h>
#include <osmqos/synth.h>
#include <osmqos/tables.h>

#include "cli.h"
#include "inputs.h"

#define CMD "check"

struct check_opts {
	struct oq_cli_common c;
};
OQ_OPTS_STRUCT(struct check_opts);

static const struct oq_opt check_opts[] = {
	OQ_USE_H(OQ_CO_POLICY, OQ_OPT_REQUIRED,
		 "the policy, when not given as POLICY"),
	OQ_USE_H(OQ_CO_FABRIC, 0,
		 "also resolve port groups against a topology (ibnetdiscover "
		 "output or ibsim net file), warn about groups that match no "
		 "port, and compile the tables and intents for it"),
	OQ_USE_H(OQ_CO_PARTITIONS, 0,
		 "partitions.conf for 'partition:' keys (checked alone without "
		 "--fabric; default: the one --opensm-conf names)"),
	OQ_USE_H(OQ_CO_OPENSM_CONF, 0,
		 "check the qos_* table templates of an opensm.conf as well "
		 "(and its routing_engine and node-name map with --fabric)"),
	OQ_USE(OQ_CO_NODE_NAME_MAP),
	OQ_USE_H(OQ_CO_ALL, 0,
		 "every diagnostic: no cap per kind, and what follows from "
		 "a root cause listed under it"),
	OQ_USE_H(OQ_CO_JSON, 0,
		 "the diagnostics as one JSON object on stdout, each with "
		 "file, line, col, severity, a stable code and its cause "
		 "(docs/json.md)"),
	OQ_OPT_END,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_check = {
	.name = CMD,
	.summary = "validate a policy (file:line:col diagnostics)",
	.about = "Parse and validate an OpenSM QoS policy file "
		 "(qos-policy.conf).\nDiagnostics go to stderr as "
		 "FILE:LINE:COL: error|warning: text, root causes first: what "
		 "follows from one is counted under it, and of one kind ten "
		 "are shown, then how many more (--all shows every one).",
	.operand = "POLICY",
	.operand_off = offsetof(struct oq_cli_common, policy),
	.opts = check_opts,
	.exit_status = "0 valid (warnings allowed), 1 invalid (or, with "
		       "--fabric, a scope withheld on this fabric), 2 usage "
		       "or I/O error.",
	.run = run,
};

/* Whether an error of d is on the line of at. */
static bool error_on_line(const struct oq_diags *d, const struct oq_loc *at)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].sev == OQ_SEV_ERROR && d->v[i].loc.line &&
		    d->v[i].loc.line == at->line && d->v[i].loc.file &&
		    at->file && !strcmp(d->v[i].loc.file, at->file))
			return true;
	return false;
}

/*
 * What stock OpenSM (the version osmqos was built against) does with the
 * file as written: takes it as osmqos reads it, takes it but reads some
 * construct differently, rejects it (and runs with no policy), aborts or
 * stalls on it.  Each construct gets a warning with file:line:col; the
 * verdict is *verdict (OQ_STOCK_*), and *assumed counts the fabric checks
 * OpenSM would make that no --fabric could answer.  p is NULL when osmqos
 * calls the policy invalid.  Returns -1 out of memory.
 */
static int stock_verdict(const struct oq_policy *text_of,
			 const struct oq_policy *p, const struct oq_fabric *f,
			 const struct oq_partitions *parts,
			 struct oq_diags *diags, int *verdict, size_t *assumed)
{
	struct oq_stock_fabric sf;
	struct oq_stock_env env;
	struct oq_stock *s;
	bool have_env = f && !oq_stock_env_fabric(&env, &sf, f, parts);

	s = oq_stock_read(text_of->file, text_of->text, text_of->text_len,
			  have_env ? &env : NULL);
	if (have_env)
		oq_stock_fabric_free(&sf);
	if (!s)
		return -1;
	if (!p && error_on_line(diags, &s->where)) {
		/* The construct stock OpenSM stops at is the one osmqos's
		 * error already points at: the closing line gives the
		 * verdict, one report of the place is enough. */
		struct oq_diags scratch;

		oq_diags_init(&scratch);
		*verdict = oq_stock_verdict(s, p, &scratch);
		oq_diags_free(&scratch);
	} else
		*verdict = oq_stock_verdict(s, p, diags);
	*assumed = s->assumed;
	oq_stock_free(s);
	return *verdict < 0 ? -1 : 0;
}

/*
 * The fabric-aware part: bind the policy's port groups to a topology so
 * that groups, port names and GUIDs that resolve to no port are reported,
 * and take stock OpenSM's verdict with the fabric's answers to its
 * checks.  Only runs on a policy without errors.  Returns OQ_EXIT_USAGE
 * when an input file cannot be used, else OQ_EXIT_OK.
 */
static int check_against_fabric(const struct oq_cli_common *o,
				const struct oq_policy *p,
				const struct oq_templates *t,
				struct oq_partitions *parts,
				struct oq_diags *diags, int *verdict,
				size_t *assumed)
{
	struct oq_engine engine;
	struct oq_fabric_tables tables;
	struct oq_fabric *f;
	struct oq_binding *b;
	size_t errs = diags->n_errors;

	if (oq_cli_read_fabric(CMD, o->fabric, diags, &f))
		return OQ_EXIT_USAGE;
	if (!f || diags->n_errors > errs ||
	    oq_cli_node_names(CMD, o, f, diags)) {
		oq_fabric_free(f);
		return OQ_EXIT_USAGE;
	}
	/* Partition membership for pkey:/partition: groups.  Without a
	 * partitions.conf OpenSM still has its Default partition (0x7fff,
	 * every end port a full member), and so do we.  The caller frees
	 * parts after printing: diagnostics point at its file name. */
	errs = diags->n_errors;
	if (o->partitions) {
		if (oq_cli_read_partitions(CMD, o->partitions, f, diags,
					   parts) == OQ_EXIT_USAGE) {
			oq_fabric_free(f);
			return OQ_EXIT_USAGE;
		}
	} else
		oq_partitions_no_file(parts, f, diags);
	if (diags->n_errors > errs) {
		oq_fabric_free(f);
		return OQ_EXIT_USAGE;
	}
	if (stock_verdict(p, p, f, parts, diags, verdict, assumed)) {
		oq_fabric_free(f);
		fprintf(stderr, "osmqos check: out of memory reading the policy "
				"as stock OpenSM would; free memory and "
				"retry\n");
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
/* The partition names the policy uses against path, or with none (the
 * file opensm.conf names does not exist) against what OpenSM then has:
 * its Default partition alone. */
static int check_partitions_file(const char *path, const struct oq_policy *p,
				 struct oq_partitions *parts,
				 struct oq_diags *diags)
{
	size_t errs = diags->n_errors, i, j;

	if (path ? oq_cli_read_partitions(CMD, path, NULL, diags, parts)
		 : oq_partitions_no_file(parts, NULL, diags))
		return OQ_EXIT_USAGE;
	if (diags->n_errors > errs)
		return OQ_EXIT_USAGE;
	for (i = 0; i < p->n_explicit_groups; i++)
		for (j = 0; j < p->groups[i].partitions.n; j++) {
			const struct oq_ref *r = &p->groups[i].partitions.v[j];

			if (!oq_partition_by_name(parts, r->name))
				oq_partition_undefined(diags, r->loc, r->name,
						       parts);
		}
	/* ipoib lines OpenSM would refuse (full members need a fabric). */
	oq_check_ipoib_partitions(p, NULL, parts, diags);
	return OQ_EXIT_OK;
}

static int check_opensm_conf(const char *path, struct oq_templates *t,
			     struct oq_diags *diags)
{
	size_t errs = diags->n_errors;

	if (oq_cli_read_templates(CMD, path, diags, t) ||
	    diags->n_errors > errs)
		return OQ_EXIT_USAGE;
	return OQ_EXIT_OK;
}

/* The stock verdict, one line: what happens without the plugin.  The
 * export command it advises must run as given: intents' tables depend on
 * the ports, so export refuses them without a fabric. */
static void print_stock(FILE *out, const struct oq_policy *p,
			const char *fabric, int verdict, size_t assumed)
{
	fprintf(out, "%s: stock %s %s", p->file, OQ_STOCK_OPENSM,
		oq_stock_verdict_text(verdict));
	switch (verdict) {
	case OQ_STOCK_AS_WRITTEN:
		break;
	case OQ_STOCK_TAKEN:
		fprintf(out, ", though osmqos does not");
		break;
	default:
		fprintf(out,
			"; for a rollback to stock OpenSM, `osmqos export "
			"-p %s%s%s -o FILE` writes a copy it reads as "
			"osmqos does",
			p->file, p->n_intent_levels ? " -f " : "",
			p->n_intent_levels ? (fabric ? fabric : "TOPO") : "");
		break;
	}
	if (assumed)
		fprintf(out, " (%zu lookup%s in the fabric assumed to "
			     "succeed: --fabric makes them)",
			assumed, assumed == 1 ? "" : "s");
	fputc('\n', out);
}

static void print_summary(const struct oq_policy *p,
			  const struct oq_diags *diags)
{
	char counts[256];

	oq_policy_counts(p, counts, sizeof(counts));
	printf("%s: valid: %s, %zu warning%s\n", p->file, counts,
	       diags->n_warnings, diags->n_warnings == 1 ? "" : "s");
}

/* What stock OpenSM does with a policy osmqos refuses. */
static const char *stock_short(int verdict)
{
	switch (verdict) {
	case OQ_STOCK_TAKEN:
		return "would take it as it is";
	case OQ_STOCK_REJECTED:
		return "would reject it too";
	case OQ_STOCK_ABORTED:
		return "would abort on it";
	case OQ_STOCK_STALLED:
		return "would stall on it";
	default:
		return "was not asked";
	}
}

/* Stable names of the verdicts, for --json. */
static const char *stock_key(int verdict)
{
	switch (verdict) {
	case OQ_STOCK_AS_WRITTEN:
		return "as_written";
	case OQ_STOCK_DIFFERENTLY:
		return "differently";
	case OQ_STOCK_TAKEN:
		return "taken";
	case OQ_STOCK_REJECTED:
		return "rejected";
	case OQ_STOCK_ABORTED:
		return "aborted";
	case OQ_STOCK_STALLED:
		return "stalled";
	default:
		return NULL;
	}
}

/* "24 errors from 1 root cause" or "2 errors". */
static void error_count(const struct oq_diags *d, char *buf, size_t len)
{
	size_t roots = oq_diags_roots(d, OQ_SEV_ERROR);

	if (roots && roots < d->n_errors)
		snprintf(buf, len, "%zu error%s from %zu root cause%s",
			 d->n_errors, d->n_errors == 1 ? "" : "s", roots,
			 roots == 1 ? "" : "s");
	else
		snprintf(buf, len, "%zu error%s", d->n_errors,
			 d->n_errors == 1 ? "" : "s");
}

static void print_text(const struct oq_cli_common *o, const struct oq_policy *p,
		       struct oq_diags *diags, int rc, bool on_fabric,
		       int verdict, size_t assumed)
{
	char errs[96];

	/* An input the run cannot use fails it: every error shown, none
	 * folded under a warning. */
	bool all = o->all || rc == OQ_EXIT_USAGE;

	oq_diags_sort(diags);
	oq_diags_report(diags, stderr, all, all ? NULL : "--all shows them");
	error_count(diags, errs, sizeof(errs));
	if (rc == OQ_EXIT_OK) {
		print_summary(p, diags);
		print_stock(stdout, p, o->fabric, verdict, assumed);
	} else if (on_fabric)
		fprintf(stderr,
			"%s: %s, %zu warning%s against the fabric or "
			"partitions given (each says what the plugin and "
			"OpenSM do); fix them\n",
			p->file, errs, diags->n_warnings,
			diags->n_warnings == 1 ? "" : "s");
	else if (rc == OQ_EXIT_FAIL)
		fprintf(stderr,
			"%s: %s, %zu warning%s; fix the errors above "
			"(stock %s %s)\n",
			p->file, errs, diags->n_warnings,
			diags->n_warnings == 1 ? "" : "s", OQ_STOCK_OPENSM,
			stock_short(verdict));
	else
		fprintf(stderr, "osmqos check: an input file could not be "
				"used; fix the problems reported above\n");
}

static void json_count(const char *key, size_t n, size_t from_ulps)
{
	printf("\"%s\": %zu, \"%s_from_ulps\": %zu, ", key, n, key, from_ulps);
}

/* docs/json.md, "osmqos check --json". */
static void print_json(const struct oq_cli_common *o, const struct oq_policy *p,
		       struct oq_diags *diags, int rc, int verdict,
		       size_t assumed)
{
	const char *stock = stock_key(verdict);

	oq_diags_sort(diags);
	fputs("{\n  \"file\": ", stdout);
	oq_json_fstring(stdout, p->file);
	printf(",\n  \"valid\": %s,\n  \"exit_status\": %d,\n",
	       rc == OQ_EXIT_OK ? "true" : "false", rc);
	fputs("  \"counts\": {", stdout);
	json_count("port_groups", p->n_explicit_groups,
		   p->n_groups - p->n_explicit_groups);
	json_count("qos_levels", p->n_explicit_levels,
		   p->n_levels - p->n_explicit_levels);
	json_count("match_rules", p->n_explicit_rules,
		   p->n_rules - p->n_explicit_rules);
	printf("\"vlarb_scopes\": %zu, \"sl2vl_scopes\": %zu},\n", p->n_vlarb,
	       p->n_sl2vl);
	fputs("  \"stock\": ", stdout);
	if (stock)
		printf("{\"opensm\": \"%s\", \"verdict\": \"%s\", "
		       "\"assumed_lookups\": %zu},\n",
		       OQ_STOCK_OPENSM, stock, assumed);
	else
		fputs("null,\n", stdout);
	printf("  \"errors\": %zu,\n  \"root_errors\": %zu,\n"
	       "  \"warnings\": %zu,\n  ",
	       diags->n_errors, oq_diags_roots(diags, OQ_SEV_ERROR),
	       diags->n_warnings);
	oq_diags_write_json(diags, stdout, o->all);
	fputs("\n}\n", stdout);
}

/* Every input file usable before any is read. */
static int probe(const struct oq_cli_common *o)
{
	if (oq_cli_need_file(CMD, "policy", o->policy, OQ_POLICY_MAX_BYTES) ||
	    (o->fabric &&
	     oq_cli_need_file(CMD, "fabric", o->fabric, OQ_FILE_MAX_BYTES)) ||
	    (o->partitions &&
	     oq_cli_need_file(CMD, "partitions file", o->partitions,
			      OQ_FILE_MAX_BYTES)) ||
	    (o->opensm_conf &&
	     oq_cli_need_file(CMD, "opensm.conf", o->opensm_conf,
			      OQ_FILE_MAX_BYTES)) ||
	    (o->node_name_map &&
	     oq_cli_need_file(CMD, "node-name map", o->node_name_map,
			      OQ_FILE_MAX_BYTES)))
		return OQ_EXIT_USAGE;
	return OQ_EXIT_OK;
}

static int run(int argc, char **argv)
{
	struct oq_partitions parts;
	struct oq_templates t;
	struct check_opts opts = {0};
	const struct oq_cli_common *o = &opts.c;
	struct oq_diags diags;
	struct oq_policy *p;
	bool on_fabric = false;
	int verdict = -1;
	size_t assumed = 0;
	int rc;

	/* A missing partitions file is one of the warnings check counts. */
	opts.c.partitions_own_warning = true;
	rc = oq_cli_parse(&oq_spec_check, argc, argv, &opts);
	if (rc != OQ_CLI_RUN)
		return rc;
	if (probe(o))
		return OQ_EXIT_USAGE;

	oq_diags_init(&diags);
	if (o->all)
		diags.max = diags.max_kind = OQ_DIAGS_ALL;
	memset(&parts, 0, sizeof(parts));
	if (oq_cli_read_policy(CMD, o->policy, &diags, &p)) {
		oq_diags_free(&diags);
		return OQ_EXIT_USAGE;
	}
	if (!p) {
		oq_cli_print_diags(&diags, true, NULL);
		fprintf(stderr, "osmqos check: out of memory reading the "
				"policy; free memory and retry\n");
		oq_diags_free(&diags);
		return OQ_EXIT_USAGE;
	}
	oq_policy_validate(p, &diags);
	rc = oq_diags_has_errors(&diags) ? OQ_EXIT_FAIL : OQ_EXIT_OK;

	if (o->absent_partitions && o->absent_partitions_news)
		oq_diag_hint(oq_warning(&diags,
					(struct oq_loc){o->opensm_conf, 0, 0},
					"partitions file '%s' does not exist; "
					"OpenSM then has only its Default "
					"partition, and so does this check",
					o->absent_partitions),
			     "create it, or give --partitions FILE to read "
			     "another");
	oq_templates_default(&t);
	if (o->opensm_conf &&
	    check_opensm_conf(o->opensm_conf, &t, &diags) != OQ_EXIT_OK)
		rc = OQ_EXIT_USAGE;
	if (rc == OQ_EXIT_OK && o->fabric) {
		if (check_against_fabric(o, p, &t, &parts, &diags, &verdict,
					 &assumed) != OQ_EXIT_OK)
			rc = OQ_EXIT_USAGE;
		else if (oq_diags_has_errors(&diags))
			on_fabric = true;
	} else if (rc != OQ_EXIT_USAGE && !o->fabric &&
		   (o->partitions || o->absent_partitions)) {
		if (check_partitions_file(o->partitions, p, &parts, &diags) !=
		    OQ_EXIT_OK)
			rc = OQ_EXIT_USAGE;
		else if (rc == OQ_EXIT_OK && oq_diags_has_errors(&diags))
			on_fabric = true;
	}
	if (on_fabric)
		rc = OQ_EXIT_FAIL;
	if (verdict < 0 && rc != OQ_EXIT_USAGE &&
	    stock_verdict(p, rc == OQ_EXIT_OK ? p : NULL, NULL, NULL, &diags,
			  &verdict, &assumed)) {
		fprintf(stderr, "osmqos check: out of memory reading the policy "
				"as stock OpenSM would; free memory and "
				"retry\n");
		rc = OQ_EXIT_USAGE;
	}

	if (o->json)
		print_json(o, p, &diags, rc, verdict, assumed);
	else
		print_text(o, p, &diags, rc, on_fabric, verdict, assumed);
	/* Diagnostics point at p->file and parts.file: print them before
	 * freeing those. */
	oq_diags_free(&diags);
	oq_partitions_free(&parts);
	oq_policy_free(p);
	return rc;
}
