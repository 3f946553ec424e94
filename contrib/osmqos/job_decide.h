/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Which SL (and P_Key) a job exports, from what the SA (or the policy)
 * answered for each pair class of its nodes: one answer for all, or the
 * one the operator prefers when they differ; none when a pair is denied.
 * Pure code.
 */
#ifndef OSMQOS_JOB_DECIDE_H
#define OSMQOS_JOB_DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What to do when the job's pairs get different SLs (or P_Keys). */
enum oq_job_prefer_mode {
	OQ_PREFER_FAIL,	   /* refuse the job, naming the pairs */
	OQ_PREFER_MOST,	   /* the answer most port pairs got */
	OQ_PREFER_LOWEST,  /* the lowest SL granted */
	OQ_PREFER_HIGHEST, /* the highest SL granted */
	OQ_PREFER_SL,	   /* this SL, when some pair got it */
};

struct oq_job_prefer {
	enum oq_job_prefer_mode mode;
	int sl; /* OQ_PREFER_SL */
};

/* "fail", "most", "lowest", "highest" or an SL 0..15: 0, or -1 with err. */
int oq_job_prefer_parse(const char *s, struct oq_job_prefer *p, char *err,
			size_t errlen);
/* The same words back ("most", "7"). */
void oq_job_prefer_format(const struct oq_job_prefer *p, char *buf, size_t len);

/*
 * One answer: for one pair class of the job.  pkey is the path's own
 * P_Key (the SA's, or the offline model's), whether or not the job
 * exports it: two pairs on one SL and one P_Key are one answer, however
 * their levels got there.  pkey_restricted says the pair's level (or the
 * class) restricts P_Keys, so the job must use this one.
 */
struct oq_job_grant {
	bool denied;	 /* no path: partition isolation, the policy */
	int sl;		 /* 0..15 when granted */
	int pkey;	 /* 0..0x7fff, -1 unknown */
	uint64_t weight; /* the port pairs of the job it stands for */
	bool pkey_restricted;
};

enum oq_job_verdict {
	OQ_JOB_OK,     /* export sl (and pkey) */
	OQ_JOB_DENIED, /* some pair has no path */
	OQ_JOB_MIXED,  /* several answers and no preference settles it */
	OQ_JOB_EMPTY,  /* no answer at all (no pair) */
	OQ_JOB_UNSET,  /* no SL: a one-host job's loopback has no path */
};

/* A distinct granted (SL, P_Key) and who got it. */
struct oq_job_option {
	int sl, pkey;	  /* pkey -1 unless the decision is by_pkey */
	bool restricted;  /* some answer of it has pkey_restricted */
	uint64_t weight;  /* port pairs */
	size_t n_answers; /* answers (pair classes) */
	size_t first;	  /* index of its first answer */
};

struct oq_job_decision {
	enum oq_job_verdict verdict;
	/* OQ_JOB_OK: the SL, and the P_Key when the chosen answer's pairs
	 * include one whose level restricts it (else -1). */
	int sl, pkey;
	bool preferred; /* picked by the preference among several */
	/* Some granted answer restricts P_Keys: the job's P_Key matters, so
	 * answers differ by P_Key as well as by SL (else by SL alone: a
	 * P_Key nothing restricts is the stacks' own choice). */
	bool by_pkey;
	/* Distinct answers by SL, then P_Key. */
	struct oq_job_option *opts;
	size_t n_opts;
	size_t n_denied;
	uint64_t denied_weight;
	size_t first_denied;
};

/* Decide; 0, or -1 when out of memory.  Free with oq_job_decision_free. */
int oq_job_decide(const struct oq_job_grant *g, size_t n,
		  const struct oq_job_prefer *prefer,
		  struct oq_job_decision *d);
void oq_job_decision_free(struct oq_job_decision *d);

/*
 * A job on one host, whose one question is its loopback path: its ranks
 * talk through shared memory, never that path, so a denial there says
 * nothing against the job.  OQ_JOB_DENIED becomes OQ_JOB_UNSET (no SL
 * exported, the stacks keep their defaults); other verdicts stand.
 */
void oq_job_decide_one_host(struct oq_job_decision *d);

#endif /* OSMQOS_JOB_DECIDE_H */
