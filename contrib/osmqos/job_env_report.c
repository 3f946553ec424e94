// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What osmqos job-env prints of its run: the summary of the job's pairs
 * and answers, the decision and the exports, or the refusal with the
 * pairs named; the same as one JSON object with --json.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <osmqos/json.h>

#include "cli.h"
#include "job_env_run.h"
#include "mad/sa_client.h"

#define CMD	       OQ_JOB_ENV_CMD
#define TEXT_ASKED_MAX 32 /* question lines in the text output */

static void pair_names(const struct run *r, size_t i, char *s, size_t sl,
		       char *d, size_t dl)
{
	oq_job_port_name(&r->plan, r->plan.pairs[i].src, s, sl);
	oq_job_port_name(&r->plan, r->plan.pairs[i].dst, d, dl);
}

static const char *pair_mode(const struct run *r)
{
	if (r->plan.n_hosts == 1)
		return "loopback";
	return r->plan.all_pairs ? "all" : "classes";
}

/* "# ..." lines: what was asked, of whom, and what came back. */
static void print_summary(const struct run *r, char cls[96])
{
	char s[160], d[160];
	size_t i;

	printf("# osmqos job-env: class %s (%s)\n", cls, r->res.why);
	if (r->res.note[0])
		printf("# note: %s\n", r->res.note);
	if (r->fallback[0])
		printf("# note: %s\n", r->fallback);
	if (r->unset[0])
		printf("# note: %s\n", r->unset);
	if (r->live)
		printf("# asked the SA %zu PathRecord quer%s (SubnAdmGet) "
		       "from %s/%d (port GUID 0x%016" PRIx64 ", LID %u)",
		       r->n_queries, r->n_queries == 1 ? "y" : "ies",
		       r->local.ca, r->local.port, r->local.guid, r->local.lid);
	else
		printf("# the SA was not asked: the policy decided %zu "
		       "pair%s offline%s",
		       r->plan.n_pairs, r->plan.n_pairs == 1 ? "" : "s",
		       r->fallback[0] ? " (the SA cannot be reached)" : "");
	printf(" for %llu port pair%s of %zu host%s",
	       (unsigned long long)r->plan.port_pairs,
	       r->plan.port_pairs == 1 ? "" : "s", r->plan.n_hosts,
	       r->plan.n_hosts == 1 ? "" : "s");
	if (!strcmp(pair_mode(r), "classes"))
		printf(" in %zu port class%s (one pair per pair of classes)",
		       r->plan.n_classes, r->plan.n_classes == 1 ? "" : "es");
	else if (!strcmp(pair_mode(r), "loopback"))
		printf(" (one host: its loopback path)");
	printf("\n");
	for (i = 0; i < r->plan.n_pairs && i < TEXT_ASKED_MAX; i++) {
		const struct oq_job_answer *a = &r->ans[i];

		pair_names(r, i, s, sizeof(s), d, sizeof(d));
		if (a->g.denied)
			printf("#   %s -> %s: no path (%llu port pair%s): "
			       "%s\n",
			       s, d, (unsigned long long)a->g.weight,
			       a->g.weight == 1 ? "" : "s", a->why);
		else if (r->dec.by_pkey && a->g.pkey >= 0)
			printf("#   %s -> %s: SL %d, P_Key 0x%04x (%llu port "
			       "pair%s)\n",
			       s, d, a->g.sl, a->g.pkey,
			       (unsigned long long)a->g.weight,
			       a->g.weight == 1 ? "" : "s");
		else
			printf("#   %s -> %s: SL %d (%llu port pair%s)\n", s, d,
			       a->g.sl, (unsigned long long)a->g.weight,
			       a->g.weight == 1 ? "" : "s");
	}
	if (r->plan.n_pairs > TEXT_ASKED_MAX)
		printf("#   ... %zu more (--json lists all)\n",
		       r->plan.n_pairs - TEXT_ASKED_MAX);
}

/* What mixed answers differ in: their SLs, their P_Keys (one SL, but
 * levels that restrict P_Keys give pairs different ones), or both. */
static const char *what_differs(const struct oq_job_decision *d)
{
	bool sls = false, pkeys = false;
	size_t i;

	for (i = 1; i < d->n_opts; i++) {
		sls |= d->opts[i].sl != d->opts[0].sl;
		pkeys |= d->opts[i].pkey != d->opts[0].pkey;
	}
	if (sls && pkeys)
		return "SLs and P_Keys";
	return pkeys ? "P_Keys" : "SLs";
}

static void refusal(const struct run *r)
{
	char s[160], d[160];
	size_t i;

	if (r->dec.verdict == OQ_JOB_DENIED) {
		const struct oq_job_answer *a = &r->ans[r->dec.first_denied];

		pair_names(r, r->dec.first_denied, s, sizeof(s), d, sizeof(d));
		fprintf(stderr,
			"osmqos %s: refused: no path for %s -> %s (%llu of "
			"the job's %llu port pairs have none): %s; change "
			"the job's hosts or class, or the policy\n",
			CMD, s, d, (unsigned long long)r->dec.denied_weight,
			(unsigned long long)r->plan.port_pairs, a->why);
		return;
	}
	fprintf(stderr,
		"osmqos %s: refused: the job's pairs get different %s:", CMD,
		what_differs(&r->dec));
	for (i = 0; i < r->dec.n_opts; i++) {
		const struct oq_job_option *o = &r->dec.opts[i];

		pair_names(r, o->first, s, sizeof(s), d, sizeof(d));
		fprintf(stderr, "%s SL %d", i ? ";" : "", o->sl);
		if (o->pkey >= 0)
			fprintf(stderr, " P_Key 0x%04x", o->pkey);
		fprintf(stderr, " for %llu port pairs (e.g. %s -> %s)",
			(unsigned long long)o->weight, s, d);
	}
	fprintf(stderr, "; give --prefer most|lowest|highest|SL (or "
			"'prefer' in the job map) to choose one\n");
}

static void json_answer(const struct run *r, size_t i)
{
	const struct oq_job_answer *a = &r->ans[i];
	const struct oq_port *src = r->plan.ports[r->plan.pairs[i].src].port;
	const struct oq_port *dst = r->plan.ports[r->plan.pairs[i].dst].port;
	char s[160], d[160];

	pair_names(r, i, s, sizeof(s), d, sizeof(d));
	printf("%s{\"src\": ", i ? ", " : "");
	oq_json_fstring(stdout, s);
	printf(", \"src_guid\": \"0x%016" PRIx64 "\", \"dst\": ", src->guid);
	oq_json_fstring(stdout, d);
	printf(", \"dst_guid\": \"0x%016" PRIx64 "\", \"port_pairs\": %llu, "
	       "\"granted\": %s, ",
	       dst->guid, (unsigned long long)a->g.weight,
	       a->g.denied ? "false" : "true");
	if (a->g.denied)
		printf("\"sl\": null, \"pkey\": null, ");
	else if (r->dec.by_pkey && a->g.pkey >= 0)
		printf("\"sl\": %d, \"pkey\": %d, ", a->g.sl, a->g.pkey);
	else
		printf("\"sl\": %d, \"pkey\": null, ", a->g.sl);
	printf("\"sa_status\": ");
	if (r->live)
		oq_json_fstring(stdout, oq_sa_status_name(a->sa_status));
	else
		printf("null");
	printf(", \"level\": ");
	oq_json_fstring(stdout, a->level >= 0 && r->in.policy
					? r->in.policy->levels[a->level].name
					: NULL);
	printf(", \"why\": ");
	oq_json_fstring(stdout, a->g.denied ? a->why : NULL);
	putchar('}');
}

/* The job's note and why no SL is set, in one string (or null). */
static void json_note(const struct run *r)
{
	char both[sizeof(r->res.note) + sizeof(r->unset) + 2];

	if (r->res.note[0] && r->unset[0]) {
		snprintf(both, sizeof(both), "%s; %s", r->res.note, r->unset);
		oq_json_fstring(stdout, both);
	} else if (r->res.note[0] || r->unset[0]) {
		oq_json_fstring(stdout,
				r->res.note[0] ? r->res.note : r->unset);
	} else {
		printf("null");
	}
}

static void print_json(const struct run *r, const char *status, const char *cls,
		       const struct oq_env_var *v, size_t n)
{
	size_t i;

	printf("{\"status\": \"%s\", \"class\": ", status);
	oq_json_fstring(stdout, cls);
	printf(", \"why\": ");
	oq_json_fstring(stdout, r->res.why);
	printf(", \"note\": ");
	json_note(r);
	printf(", \"decided_by\": \"%s\", \"fallback\": ",
	       r->live ? "sa" : "policy");
	oq_json_fstring(stdout, r->fallback[0] ? r->fallback : NULL);
	printf(", \"requester\": ");
	if (r->live) {
		printf("{\"ca\": ");
		oq_json_fstring(stdout, r->local.ca);
		printf(", \"port\": %d, \"guid\": \"0x%016" PRIx64
		       "\", \"lid\": %u}",
		       r->local.port, r->local.guid, r->local.lid);
	} else {
		printf("null");
	}
	printf(", \"hosts\": %zu, \"ports\": %zu, \"port_classes\": %zu, "
	       "\"port_pairs\": %llu, \"pair_mode\": \"%s\", \"queries\": "
	       "%zu, \"asked\": [",
	       r->plan.n_hosts, r->plan.n_ports, r->plan.n_classes,
	       (unsigned long long)r->plan.port_pairs, pair_mode(r),
	       r->n_queries);
	for (i = 0; i < r->plan.n_pairs; i++)
		json_answer(r, i);
	printf("], \"sl\": ");
	if (n)
		printf("%d, \"pkey\": ", r->env.sl);
	else
		printf("null, \"pkey\": ");
	if (n && r->env.pkey >= 0)
		printf("%d, ", r->env.pkey);
	else
		printf("null, ");
	if (n && r->env.pkey_index >= 0)
		printf("\"pkey_index\": %d, ", r->env.pkey_index);
	else
		printf("\"pkey_index\": null, ");
	printf("\"preferred\": %s, \"env\": ",
	       r->dec.preferred ? "true" : "false");
	oq_job_env_write_json(stdout, v, n);
	printf("}\n");
}

int oq_job_env_output(struct run *r)
{
	struct oq_env_var v[OQ_JOB_ENV_MAX_VARS];
	size_t n = 0;
	char cls[96];
	const char *status = "ok";

	oq_job_class_format(&r->res.cls, cls, sizeof(cls));
	if (r->dec.verdict == OQ_JOB_OK)
		n = oq_job_env_vars(&r->env, v, OQ_JOB_ENV_MAX_VARS);
	else if (r->dec.verdict == OQ_JOB_UNSET)
		status = "unset";
	else
		status = r->dec.verdict == OQ_JOB_DENIED ? "denied" : "mixed";
	if (r->o.c.json) {
		print_json(r, status, cls, v, n);
	} else {
		print_summary(r, cls);
		if (n) {
			printf("# decided: SL %d", r->env.sl);
			if (r->env.pkey >= 0)
				printf(", P_Key 0x%04x", r->env.pkey);
			if (r->dec.preferred)
				printf(" (the preferred of %zu answers)",
				       r->dec.n_opts);
			printf("\n");
			if (r->pkey_note[0])
				printf("# %s\n", r->pkey_note);
			oq_job_env_write_exports(stdout, v, n);
		} else if (r->unset[0]) {
			printf("# no SL set: nothing exported\n");
		} else {
			printf("# refused: nothing exported (see the error "
			       "on stderr)\n");
		}
	}
	if (r->dec.verdict == OQ_JOB_OK)
		return OQ_EXIT_OK;
	/* As for the other jobs that get no SL: exit 2, which the Prolog
	 * turns into a note, and the job runs. */
	if (r->unset[0]) {
		fprintf(stderr, "osmqos %s: %s\n", CMD, r->unset);
		return OQ_EXIT_USAGE;
	}
	refusal(r);
	return OQ_EXIT_FAIL;
}
