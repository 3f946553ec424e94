/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The environment that makes a job's communication stacks use an SL (and
 * a P_Key): the variables each stack reads, as shell export lines (what a
 * Slurm TaskProlog prints) or a JSON object.  docs/jobs.md lists the
 * variables with the documentation of each.  Pure code.
 */
#ifndef OSMQOS_JOB_ENV_OUT_H
#define OSMQOS_JOB_ENV_OUT_H

#include <stddef.h>
#include <stdio.h>

struct oq_job_env {
	int sl;		/* 0..15 */
	int pkey;	/* 0..0x7fff, -1: the job exports no P_Key */
	int pkey_index; /* in the local port's table, -1: not known */
};

struct oq_env_var {
	const char *name;
	char value[16];
	const char *stack; /* who reads it, for messages */
};

/* At most this many variables. */
#define OQ_JOB_ENV_MAX_VARS 16

/* The variables for e, in a fixed order: the SL ones, then the P_Key
 * ones when e->pkey >= 0 (NCCL_IB_PKEY, an index, only when it is
 * known).  Returns how many were written to out. */
size_t oq_job_env_vars(const struct oq_job_env *e, struct oq_env_var *out,
		       size_t max);
/* "export NAME=VALUE" lines; values are numbers, nothing to quote. */
void oq_job_env_write_exports(FILE *out, const struct oq_env_var *v, size_t n);
/* {"NAME": "VALUE", ...} */
void oq_job_env_write_json(FILE *out, const struct oq_env_var *v, size_t n);

#endif /* OSMQOS_JOB_ENV_OUT_H */
