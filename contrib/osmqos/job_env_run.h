/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * osmqos job-env's run: its options and what it gathers on the way from
 * the job's hosts to the environment (cmd_job_env.c), which
 * job_env_report.c prints.
 */
#ifndef OSMQOS_JOB_ENV_RUN_H
#define OSMQOS_JOB_ENV_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include <osmqos/match.h>

#include "cli_opts.h"
#include "hostlist.h"
#include "inputs.h"
#include "job_ask.h"
#include "job_decide.h"
#include "job_env_out.h"
#include "job_map.h"
#include "job_pairs.h"

#define OQ_JOB_ENV_CMD "job-env"

struct job_env_opts {
	struct oq_cli_common c; /* policy, fabric, partitions, class, port */
	const char *level;
	bool plain;
	const char *map, *attr[OQ_JA_N], *request;
	const char **nodes; /* --nodes, repeatable */
	size_t n_nodes;
	const char *nodes_file;
	bool offline, all_pairs;
	struct oq_num max_queries;
	struct oq_job_prefer prefer;
	bool has_prefer;
	/* Derived after parsing: the class given on the command line. */
	struct oq_job_class cls;
	int n_class;
};
OQ_OPTS_STRUCT(struct job_env_opts);

struct run {
	struct job_env_opts o;
	struct oq_job_map map;
	bool have_map;
	struct oq_job_map_result res;
	struct oq_cli_inputs in;
	bool have_in;
	struct oq_matcher *m;
	struct oq_hostlist hosts;
	struct oq_job_plan plan;
	struct oq_job_ask ask;
	struct oq_job_answer *ans;
	struct oq_job_decision dec;
	struct oq_job_local local;
	bool live;
	char fallback[512];
	size_t n_queries;
	struct oq_job_env env;
	char pkey_note[300];
	char unset[900]; /* OQ_JOB_UNSET: why no SL is set */
};

/*
 * What the run decided, on standard output (text, or JSON with --json),
 * and on standard error why it refused or set no SL.  The exit status:
 * OQ_EXIT_OK with an environment, OQ_EXIT_USAGE with no SL set (the job
 * runs with the stacks' defaults), OQ_EXIT_FAIL refused.
 */
int oq_job_env_output(struct run *r);

#endif /* OSMQOS_JOB_ENV_RUN_H */
