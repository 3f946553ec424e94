// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * osmqos job-env: the SL (and P_Key) the policy grants a job's traffic,
 * as the environment its communication stacks read (UCX_IB_SL,
 * NCCL_IB_SL, ...; docs/jobs.md).  The job's class comes from the command
 * line or the operator's job map; its hosts from a Slurm host list.  The
 * SA is asked live (its audit trail records every grant), once per pair of
 * port classes; offline, the policy's matcher decides.
 */
#include <config.h>

#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/file.h>

#include "cli.h"
#include "cli_opts.h"
#include "hostlist.h"
#include "inputs.h"
#include "job_ask.h"
#include "job_decide.h"
#include "job_env_out.h"
#include "job_env_run.h"
#include "job_map.h"
#include "job_pairs.h"
#include "mad/sa_client.h"

#define CMD		    OQ_JOB_ENV_CMD
#define DEFAULT_MAX_QUERIES 4096
/* Offline decisions cost no query; this bounds the memory (a matrix of
 * class pairs) and the time of a job of many distinct ports. */
#define OFFLINE_MAX_PAIRS (1u << 22)
#define NODES_FILE_MAX	  (16u << 20)
/* The local port: --ca-port, or 0 (the first active one). */
#define CA_PORT(r) ((r)->o.c.ca_port.given ? (int)(r)->o.c.ca_port.v : 0)

#define OFF(field) offsetof(struct job_env_opts, field)

static int parse_nodes(void *value, const char *arg, const struct oq_opt *o);
static int parse_prefer(void *value, const char *arg, const struct oq_opt *o);

static const struct oq_opt opts_table[] = {
	OQ_HEADING("The job's class (one of these, or --map):"),
	OQ_USE_H(OQ_CO_SID, 0, "the Service ID its queries would carry"),
	OQ_USE_H(OQ_CO_QOS_CLASS, 0, "the QoS class its queries would carry"),
	OQ_USE_H(OQ_CO_PKEY, 0, "the P_Key its queries would carry"),
	OQ_OPT("level", 0, OQ_OPT_TEXT, "NAME",
	       "a qos-level of the policy (its SL; the SA must grant that SL "
	       "to every pair)",
	       OFF(level)),
	OQ_OPT("plain", 0, OQ_OPT_FLAG, NULL, "a query with no class component",
	       OFF(plain)),
	OQ_OPT("map", 0, OQ_OPT_INPUT, "FILE",
	       "the operator's job map (its format: jobs.md in " OQ_DOCS_DIR
	       "): the class of a job with the attributes below",
	       OFF(map)),
	OQ_OPT("partition", 0, OQ_OPT_TEXT, "P",
	       "the job's Slurm partition, looked up in --map",
	       OFF(attr[OQ_JA_PARTITION])),
	OQ_OPT("qos", 0, OQ_OPT_TEXT, "Q",
	       "the job's Slurm QOS, looked up in --map", OFF(attr[OQ_JA_QOS])),
	OQ_OPT("account", 0, OQ_OPT_TEXT, "A",
	       "the job's Slurm account, looked up in --map",
	       OFF(attr[OQ_JA_ACCOUNT])),
	OQ_OPT("request", 0, OQ_OPT_TEXT, "TEXT",
	       "the job's own words (a Slurm comment): osmqos=off or "
	       "osmqos=KIND:VALUE, where the map allows it",
	       OFF(request)),
	OQ_HEADING("The job's hosts:"),
	OQ_OPT("nodes", 0, OQ_OPT_CUSTOM, "HOSTLIST",
	       "Slurm host list, \"cn[01-04,07]\"; a host is the first word "
	       "of its HCAs' NodeDescription",
	       OFF(nodes), .parse = parse_nodes, .flags = OQ_OPT_REPEATABLE),
	OQ_OPT("nodes-file", 0, OQ_OPT_INPUT, "FILE",
	       "host lists, one or more a line, '#' comments", OFF(nodes_file)),
	OQ_HEADING("Inputs (the map's fabric/policy/partitions/node-name-map "
		   "lines give defaults):"),
	OQ_USE_H(OQ_CO_FABRIC, 0,
		 "ibnetdiscover output of the fabric (or an ibsim net file)"),
	OQ_USE_H(OQ_CO_POLICY, 0,
		 "the plugin's qos-policy.conf: port classes, levels, and the "
		 "offline decision"),
	OQ_USE_H(OQ_CO_PARTITIONS, 0,
		 "OpenSM's partitions.conf: P_Keys of the ports"),
	OQ_USE_H(OQ_CO_NODE_NAME_MAP, 0,
		 "OpenSM's node-name map: the node names port-name keys "
		 "use"),
	OQ_HEADING(
		"Deciding (the map's all-pairs, max-queries and prefer lines "
		"give defaults):"),
	OQ_OPT("offline", 0, OQ_OPT_FLAG, NULL,
	       "do not ask the SA; the policy decides", OFF(offline)),
	OQ_OPT("all-pairs", 0, OQ_OPT_FLAG, NULL,
	       "ask every port pair, not one per class pair (for routing "
	       "engines that pick SLs per path)",
	       OFF(all_pairs)),
	OQ_OPT("max-queries", 0, OQ_OPT_NUM, "N",
	       "refuse a job that needs more SA queries (default 4096)",
	       OFF(max_queries), .min = 1, .max = OQ_JOB_MAX_QUERIES_MAX),
	OQ_OPT("prefer", 0, OQ_OPT_CUSTOM, "WORD",
	       "when pairs get different SLs or P_Keys: fail (default), most, "
	       "lowest, "
	       "highest, or an SL 0..15",
	       OFF(prefer), .parse = parse_prefer),
	OQ_HEADING("Transport (not with --offline; defaults: the map's ca, "
		   "ca-port, timeout):"),
	OQ_USE(OQ_CO_CA),
	OQ_USE(OQ_CO_CA_PORT),
	OQ_USE(OQ_CO_TIMEOUT),
	OQ_HEADING("Output:"),
	OQ_USE_H(OQ_CO_JSON, 0, "one JSON object: status, what was asked, env"),
	OQ_OPT_END,
};

static const char *const job_env_forms[] = {
	"--map FILE [--partition P] [--qos Q] [--account A] --nodes HOSTLIST "
	"[OPTIONS]",
	NULL,
};

static int run(int argc, char **argv);

const struct oq_cmd_spec oq_spec_job_env = {
	.name = CMD,
	.summary = "a job's SL for its stacks (UCX_IB_SL, NCCL_IB_SL, ...)",
	.about = "Print the environment that makes a job's communication "
		 "stacks (UCX, NCCL, NVSHMEM, MVAPICH2, Open MPI's openib) use "
		 "the SL the policy grants the job's node pairs: "
		 "`eval \"$(osmqos job-env ...)\"`.  The SA is asked live "
		 "(SubnAdmGet PathRecord, recorded in the plugin's audit "
		 "trail), one pair per pair of port classes (ports alike in "
		 "the policy's groups and P_Keys); if it cannot be reached, or "
		 "with --offline, the policy decides (the matcher of `osmqos "
		 "match`), and the output says so.",
	.forms = job_env_forms,
	.opts = opts_table,
	.exit_status = "0 the environment is printed (or the job's class is "
		       "none), 1 refused (a pair has no path, or pairs get "
		       "different SLs or P_Keys), 2 usage, input or transport "
		       "error, or no SL for a one-host job whose loopback "
		       "path is denied (it runs with the stacks' defaults).",
	.run = run,
};

static int parse_nodes(void *value, const char *arg, const struct oq_opt *o)
{
	struct job_env_opts *jo =
		(struct job_env_opts *)((char *)value - OFF(nodes));
	const char **grown;

	(void)o;
	grown = realloc(jo->nodes, (jo->n_nodes + 1) * sizeof(*grown));
	if (!grown)
		return oq_usage_error(CMD, "out of memory");
	jo->nodes = grown;
	jo->nodes[jo->n_nodes++] = arg;
	return 0;
}

static int parse_prefer(void *value, const char *arg, const struct oq_opt *o)
{
	struct job_env_opts *jo =
		(struct job_env_opts *)((char *)value - OFF(prefer));
	char err[256];

	(void)o;
	if (oq_job_prefer_parse(arg, &jo->prefer, err, sizeof(err)))
		return oq_usage_error(CMD, "--prefer: %s", err);
	jo->has_prefer = true;
	return 0;
}

/* The class the command line gives (at most one), into o->cls. */
static int class_of_args(struct job_env_opts *o)
{
	char err[256];

	if (o->c.sid.given) {
		o->cls.kind = OQ_JC_SID;
		o->cls.value = o->c.sid.v;
		o->n_class++;
	}
	if (o->c.qos_class.given) {
		o->cls.kind = OQ_JC_QOS_CLASS;
		o->cls.value = o->c.qos_class.v;
		o->n_class++;
	}
	if (o->c.pkey.given) {
		if (oq_job_pkey_check(o->c.pkey.v, err, sizeof(err)))
			return oq_usage_error(CMD, "--%s", err);
		o->cls.kind = OQ_JC_PKEY;
		o->cls.value = o->c.pkey.v & 0x7fff;
		o->n_class++;
	}
	if (o->level) {
		if (oq_job_class_parse("level", o->level, &o->cls, err,
				       sizeof(err)))
			return oq_usage_error(CMD, "--%s", err);
		o->n_class++;
	}
	if (o->plain) {
		o->cls.kind = OQ_JC_PLAIN;
		o->n_class++;
	}
	if (o->map)
		o->n_class++;
	return 0;
}

/* The options into o; OQ_CLI_RUN go on, else an exit code. */
static int parse_args(int argc, char **argv, struct job_env_opts *o)
{
	char given[64];
	int rc, n;

	o->max_queries.v = DEFAULT_MAX_QUERIES;
	o->c.timeout.v = 1000;
	rc = oq_cli_parse(&oq_spec_job_env, argc, argv, o);
	if (rc != OQ_CLI_RUN)
		return rc;
	rc = class_of_args(o);
	if (rc)
		return rc;
	if (!o->n_class)
		return oq_usage_error(CMD, "give the job's class (--sid, "
					   "--qos-class, --pkey, --level, "
					   "--plain) or --map");
	if (o->n_class > 1)
		return oq_usage_error(CMD, "give one class (or --map), not %d",
				      o->n_class);
	if (!o->map && (o->attr[0] || o->attr[1] || o->attr[2] || o->request))
		return oq_usage_error(CMD, "--partition, --qos, --account and "
					   "--request are looked up in --map");
	if (!o->n_nodes && !o->nodes_file)
		return oq_usage_error(CMD, "give the job's hosts: --nodes "
					   "HOSTLIST or --nodes-file FILE");
	if (o->offline &&
	    (n = oq_cli_local_port_opts(&o->c, given, sizeof(given))))
		return oq_usage_error(CMD,
				      "%s %s with asking the SA; --offline "
				      "asks nothing: drop %s or --offline",
				      given, n > 1 ? "go" : "goes",
				      n > 1 ? "them" : "it");
	return OQ_CLI_RUN;
}

/* Everything one run holds, freed in one place. */

static void run_free(struct run *r)
{
	oq_job_decision_free(&r->dec);
	free(r->ans);
	oq_job_plan_free(&r->plan);
	oq_hostlist_free(&r->hosts);
	if (r->m)
		oq_matcher_free(r->m);
	if (r->have_in)
		oq_cli_inputs_free(&r->in);
	if (r->have_map)
		oq_job_map_free(&r->map);
	free(r->o.nodes);
}

/* The map's class for the job, and its inputs where the command line
 * gives none. */
static int use_map(struct run *r)
{
	struct oq_diags d;
	const char *name;
	size_t len;
	char *text;
	int rc;

	if (oq_cli_read_input(CMD, "job map", r->o.map, OQ_JOB_MAP_MAX_BYTES,
			      &text, &len, &name))
		return OQ_EXIT_USAGE;
	oq_diags_init(&d);
	rc = oq_job_map_parse(&r->map, name, text, len, &d);
	free(text);
	oq_diags_sort(&d);
	oq_diags_print(&d, stderr);
	oq_diags_free(&d);
	if (rc) {
		oq_job_map_free(&r->map);
		fprintf(stderr,
			"osmqos %s: the job map '%s' has errors; fix them "
			"(osmqos(8), job-env --map; the format in full: "
			"jobs.md in " OQ_DOCS_DIR ")\n",
			CMD, name);
		return OQ_EXIT_USAGE;
	}
	r->have_map = true;
	oq_job_map_resolve(&r->map, r->o.attr, r->o.request, &r->res);
	if (!r->o.c.fabric)
		r->o.c.fabric = r->map.fabric;
	if (!r->o.c.policy)
		r->o.c.policy = r->map.policy;
	if (!r->o.c.partitions)
		r->o.c.partitions = r->map.partitions;
	if (!r->o.c.node_name_map)
		r->o.c.node_name_map = r->map.node_name_map;
	if (!r->o.has_prefer && r->map.has_prefer) {
		r->o.prefer = r->map.prefer;
		r->o.has_prefer = true;
	}
	/* A flag: the command line can only turn it on. */
	if (!r->o.all_pairs && r->map.has_all_pairs)
		r->o.all_pairs = r->map.all_pairs;
	if (!r->o.max_queries.given && r->map.has_max_queries)
		r->o.max_queries.v = r->map.max_queries;
	if (!r->o.c.ca)
		r->o.c.ca = r->map.ca;
	if (!r->o.c.ca_port.given && r->map.has_ca_port) {
		r->o.c.ca_port.v = r->map.ca_port;
		r->o.c.ca_port.given = true;
	}
	if (!r->o.c.timeout.given && r->map.has_timeout)
		r->o.c.timeout.v = r->map.timeout;
	return OQ_EXIT_OK;
}

static int read_hosts(struct run *r)
{
	char err[300];
	size_t i, len, line = 1;
	const char *name;
	char *text, *p;

	for (i = 0; i < r->o.n_nodes; i++)
		if (oq_hostlist_add(&r->hosts, r->o.nodes[i], 0, err,
				    sizeof(err)))
			return oq_usage_error(CMD, "--nodes '%.80s': %s",
					      r->o.nodes[i], err);
	if (r->o.nodes_file) {
		if (oq_cli_read_input(CMD, "hosts file", r->o.nodes_file,
				      NODES_FILE_MAX, &text, &len, &name))
			return OQ_EXIT_USAGE;
		if (strlen(text) != len) {
			free(text);
			return oq_usage_error(CMD,
					      "%s: a NUL byte; give a "
					      "text file of host names",
					      name);
		}
		for (p = text; p; line++) {
			char *nl = strchr(p, '\n'), *hash;

			if (nl)
				*nl = '\0';
			hash = strchr(p, '#');
			if (hash)
				*hash = '\0';
			if (oq_hostlist_add(&r->hosts, p, 0, err,
					    sizeof(err))) {
				free(text);
				return oq_usage_error(CMD, "%s:%zu: %s", name,
						      line, err);
			}
			p = nl ? nl + 1 : NULL;
		}
		free(text);
	}
	oq_hostlist_uniq(&r->hosts);
	if (!r->hosts.n)
		return oq_usage_error(CMD, "the host list is empty");
	return OQ_EXIT_OK;
}

/*
 * The job's class into the question, a level looked up in the policy.  A
 * level the job requested that the policy cannot give (no such level, no
 * SL) is the job's mistake, not the operator's: the job keeps the map's
 * class, told so in the note, as for any request the map does not allow.
 * Only a level the map or the command line names is an error.
 */
static int level_of(struct run *r)
{
	char err[300];

	r->ask.pol = r->in.policy;
	r->ask.cls = r->res.cls;
	r->ask.level = r->ask.level_sl = r->ask.level_pkey = -1;
	if (r->res.cls.kind != OQ_JC_LEVEL ||
	    !oq_job_ask_level(&r->ask, err, sizeof(err)))
		return OQ_EXIT_OK;
	if (!r->res.requested)
		return oq_usage_error(CMD, "%s", err);
	/* The cause without the operator's hint after ';'. */
	err[strcspn(err, ";")] = '\0';
	oq_job_map_unrequest(&r->res, err);
	r->ask.cls = r->res.cls;
	if (r->res.cls.kind == OQ_JC_LEVEL &&
	    oq_job_ask_level(&r->ask, err, sizeof(err)))
		return oq_usage_error(CMD, "%s", err);
	return OQ_EXIT_OK;
}

/* "Default=0x7fff, cluster=0x0002": the partitions' P_Keys as
 * partitions.conf writes them, for a hint (the first few). */
static void known_pkeys(const struct oq_partitions *p, char *buf, size_t len)
{
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < p->n && i < 6 && o < len; i++)
		o += (size_t)snprintf(
			buf + o, len - o, "%s%s=0x%04x", i ? ", " : "",
			p->v[i].name ? p->v[i].name : "?", p->v[i].pkey);
	if (i < p->n && o < len)
		snprintf(buf + o, len - o, ", and %zu more", p->n - i);
}

/*
 * A P_Key the map or the command line names that no partition has is the
 * operator's mistake, as a level the policy lacks is: an input error
 * (under the Prolog the job runs with the stacks' defaults), not the
 * refusal of every job it maps.  A job's own request is the job's
 * mistake: its pairs are refused as for any P_Key they do not share.
 * Without partitions.conf job-env cannot know (OpenSM then has only the
 * Default partition, but the SM may read a file job-env was not given).
 */
static int pkey_of(struct run *r)
{
	const struct oq_partitions *p = &r->in.parts;
	uint16_t k = (uint16_t)r->res.cls.value;
	struct oq_diag *dg;
	struct oq_diags d;
	char known[300];
	size_t i;

	if (r->res.cls.kind != OQ_JC_PKEY || r->res.requested ||
	    !r->o.c.partitions || !r->in.have_parts)
		return OQ_EXIT_OK;
	for (i = 0; i < p->n; i++)
		if (p->v[i].pkey == k)
			return OQ_EXIT_OK;
	known_pkeys(p, known, sizeof(known));
	if (!r->o.map)
		return oq_usage_error(CMD,
				      "--pkey 0x%04x: no partition of %s has "
				      "that P_Key; give one it defines (%s), "
				      "or define the partition there",
				      k, r->o.c.partitions, known);
	oq_diags_init(&d);
	dg = oq_error(
		&d,
		((struct oq_loc){r->map.file, r->res.map_line, r->res.map_col}),
		"pkey 0x%04x: no partition of %s has that P_Key", k,
		r->o.c.partitions);
	if (dg)
		oq_diag_hint(
			dg,
			"map the job to a P_Key it defines (%s), or define "
			"the partition there (the SM's partitions.conf "
			"too)",
			known);
	oq_diags_print(&d, stderr);
	oq_diags_free(&d);
	fprintf(stderr,
		"osmqos %s: the job map '%s' gives this job a P_Key no "
		"partition has; fix the map line (docs/jobs.md)\n",
		CMD, r->map.file);
	return OQ_EXIT_USAGE;
}

static int load_inputs(struct run *r)
{
	char err[600];
	int rc;

	if (!r->o.c.fabric)
		return oq_usage_error(CMD, "give --fabric (an ibnetdiscover "
					   "output of the fabric), or a "
					   "'fabric' line in the job map");
	if (r->o.offline && !r->o.c.policy)
		return oq_usage_error(CMD, "--offline decides by the policy; "
					   "give --policy");
	/* An invalid policy is an input error here, not a refusal: the
	 * Prolog runs the job on the stacks' defaults (2) instead of
	 * stopping its tasks (1), and the SM keeps its last good policy. */
	rc = oq_cli_load(CMD, &r->o.c, &r->in);
	if (rc)
		return rc == OQ_EXIT_FAIL ? OQ_EXIT_USAGE : rc;
	r->have_in = true;
	if (r->in.binding) {
		r->m = oq_matcher_compile(r->in.binding);
		if (!r->m)
			return oq_usage_error(CMD, "out of memory");
	}
	rc = level_of(r);
	if (!rc)
		rc = pkey_of(r);
	if (rc || r->res.cls.kind == OQ_JC_NONE)
		return rc;
	rc = read_hosts(r);
	if (rc)
		return rc;
	if (oq_job_plan_ports(&r->plan, r->in.fabric,
			      (const char *const *)r->hosts.v, r->hosts.n, err,
			      sizeof(err)))
		return oq_usage_error(CMD, "%s", err);
	if (oq_job_plan_pairs(&r->plan, r->in.binding, r->o.all_pairs,
			      r->o.offline ? OFFLINE_MAX_PAIRS
					   : (size_t)r->o.max_queries.v,
			      err, sizeof(err)))
		return oq_usage_error(
			CMD, "%s%s", err,
			r->o.offline ? " (the most job-env decides offline)"
			: r->have_map
				? " (--max-queries, or the job map's "
				  "max-queries): raise it, or decide offline "
				  "(--offline)"
				: " (--max-queries): raise it, or decide "
				  "offline (--offline)");
	r->ask.plan = &r->plan;
	r->ask.m = r->m;
	r->ask.fabric = r->in.fabric;
	r->ask.fabric_file = r->o.c.fabric;
	r->ask.local_host = getenv("SLURMD_NODENAME");
	r->ask.have_pkeys = r->o.c.partitions != NULL;
	r->ask.parts = r->in.have_parts ? &r->in.parts : NULL;
	r->ans = calloc(r->plan.n_pairs, sizeof(*r->ans));
	if (!r->ans)
		return oq_usage_error(CMD, "out of memory");
	return OQ_EXIT_OK;
}

/* Live unless --offline; offline also when the SA cannot be reached and
 * a policy can decide instead. */
static int ask(struct run *r)
{
	char err[1024];
	int rc;

	if (!r->o.offline) {
		rc = oq_job_ask_sa(&r->ask, r->o.c.ca, CA_PORT(r),
				   (int)r->o.c.timeout.v, r->ans, &r->local,
				   &r->n_queries, err, sizeof(err));
		if (!rc) {
			r->live = true;
			return OQ_EXIT_OK;
		}
		/* Not the policy's decision either: it would read the same
		 * stale file. */
		if (rc == OQ_JOB_ASK_STALE) {
			fprintf(stderr, "osmqos %s: %s\n", CMD, err);
			return OQ_EXIT_USAGE;
		}
		if (!r->m) {
			fprintf(stderr,
				"osmqos %s: the SA cannot be asked: %s\n"
				"(with --policy, the policy would decide "
				"instead)\n",
				CMD, err);
			return OQ_EXIT_USAGE;
		}
		snprintf(r->fallback, sizeof(r->fallback),
			 "the SA cannot be asked (%.400s); the policy "
			 "decided offline",
			 err);
		fprintf(stderr, "osmqos %s: note: %s\n", CMD, r->fallback);
	}
	oq_job_ask_offline(&r->ask, r->ans);
	return OQ_EXIT_OK;
}

static int decide(struct run *r)
{
	struct oq_job_grant *g = calloc(r->plan.n_pairs, sizeof(*g));
	char err[256];
	size_t i;
	int rc;

	if (!g)
		return oq_usage_error(CMD, "out of memory");
	for (i = 0; i < r->plan.n_pairs; i++)
		g[i] = r->ans[i].g;
	rc = oq_job_decide(g, r->plan.n_pairs,
			   r->o.has_prefer ? &r->o.prefer : NULL, &r->dec);
	free(g);
	if (rc)
		return oq_usage_error(CMD, "out of memory");
	if (r->plan.loopback)
		oq_job_decide_one_host(&r->dec);
	if (r->dec.verdict == OQ_JOB_UNSET) {
		char s[160];

		oq_job_port_name(&r->plan, r->plan.pairs[0].src, s, sizeof(s));
		snprintf(r->unset, sizeof(r->unset),
			 "no SL for a one-host job: %s has no loopback path "
			 "(%.500s); the job's ranks talk through shared "
			 "memory, not the fabric, so it runs with the stacks' "
			 "defaults (to give it an SL, make the port a full "
			 "member of a partition)",
			 s, r->ans[r->dec.first_denied].why);
	}
	if (r->dec.verdict != OQ_JOB_OK)
		return OQ_EXIT_OK;
	r->env.sl = r->dec.sl;
	r->env.pkey = r->dec.pkey;
	r->env.pkey_index = -1;
	if (r->env.pkey < 0)
		return OQ_EXIT_OK;
	if (!r->live) {
		snprintf(r->pkey_note, sizeof(r->pkey_note),
			 "NCCL_IB_PKEY is not set: it is an index in the "
			 "local port's P_Key table, read live");
		return OQ_EXIT_OK;
	}
	r->env.pkey_index = oq_job_local_pkey_index(
		r->o.c.ca, CA_PORT(r), r->env.pkey, err, sizeof(err));
	if (r->env.pkey_index < 0)
		snprintf(r->pkey_note, sizeof(r->pkey_note),
			 "NCCL_IB_PKEY is not set: %s", err);
	return OQ_EXIT_OK;
}

/* A job whose class is none: nothing to ask, nothing to export. */
static int no_class(const struct run *r)
{
	if (r->o.c.json) {
		printf("{\"status\": \"none\", \"class\": \"none\", \"why\": ");
		oq_json_fstring(stdout, r->res.why);
		printf(", \"note\": ");
		oq_json_fstring(stdout, r->res.note[0] ? r->res.note : NULL);
		printf(", \"env\": {}}\n");
	} else {
		printf("# osmqos job-env: class none (%s): no SL exported; the "
		       "stacks keep their defaults\n",
		       r->res.why);
		if (r->res.note[0])
			printf("# note: %s\n", r->res.note);
	}
	return OQ_EXIT_OK;
}

static int run(int argc, char **argv)
{
	struct run r;
	int rc;

	memset(&r, 0, sizeof(r));
	rc = parse_args(argc, argv, &r.o);
	if (rc != OQ_CLI_RUN) {
		free(r.o.nodes);
		return rc;
	}
	rc = OQ_EXIT_OK;
	if (r.o.map) {
		rc = use_map(&r);
	} else {
		r.res.cls = r.o.cls;
		snprintf(r.res.why, sizeof(r.res.why), "command line");
	}
	if (!rc && r.res.cls.kind != OQ_JC_NONE)
		rc = load_inputs(&r);
	/* Also a class none the job keeps when its request is unusable. */
	if (!rc && r.res.cls.kind == OQ_JC_NONE)
		rc = no_class(&r);
	else if (!rc && !(rc = ask(&r)) && !(rc = decide(&r)))
		rc = oq_job_env_output(&r);
	run_free(&r);
	return rc;
}
