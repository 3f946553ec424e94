/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A job's nodes on the fabric, and which of their pairs `osmqos job-env`
 * asks about.  A host is every HCA port whose NodeDescription begins with
 * the host's name as a word ("cn01 mlx5_0": rdma-ndd's default "%h %d",
 * and OpenSM's and ibnetdiscover's node names).  The policy decides a
 * pair from its ports' port groups and P_Keys, so ports with the same
 * groups and P_Key table form a class, and one pair per (source class,
 * destination class) stands for all of them: a job of thousands of hosts
 * on a few classes costs a few questions, not n^2.
 */
#ifndef OSMQOS_JOB_PAIRS_H
#define OSMQOS_JOB_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/fabric.h>
#include <osmqos/match.h>

struct oq_job_port {
	const struct oq_port *port;
	uint32_t host; /* index in the plan's hosts */
	uint32_t cls;  /* port class */
};

/* One question: a representative pair and what it stands for. */
struct oq_job_pair {
	uint32_t src, dst; /* indexes in the plan's ports */
	uint64_t weight;   /* port pairs of the job with these classes */
};

struct oq_job_plan {
	const char *const *hosts; /* borrowed */
	size_t n_hosts;
	struct oq_job_port *ports; /* by host, then node, then port */
	size_t n_ports;
	size_t n_classes;
	struct oq_job_pair *pairs;
	size_t n_pairs;
	/* Ordered port pairs on different hosts (1 for a single host: its
	 * loopback path is what is asked). */
	uint64_t port_pairs;
	bool all_pairs; /* every port pair asked, no classes */
	bool grouped;	/* classes from the policy's groups */
	/* One host: the only question is its loopback path, which the job's
	 * own traffic (shared memory between its ranks) never takes. */
	bool loopback;
};

/*
 * The ports of the hosts (distinct names) into pl, which is initialized
 * here (free an earlier plan first).  Returns 0, or -1 with a sentence in
 * err naming a host no port matches.
 */
int oq_job_plan_ports(struct oq_job_plan *pl, const struct oq_fabric *f,
		      const char *const *hosts, size_t n, char *err,
		      size_t errlen);

/*
 * The questions: with a binding, one per pair of port classes (or every
 * port pair when all_pairs); without one, every port pair.  More than
 * max_pairs questions is refused (-1 with err saying how many); 0 on
 * success.
 */
int oq_job_plan_pairs(struct oq_job_plan *pl, const struct oq_binding *b,
		      bool all_pairs, size_t max_pairs, char *err,
		      size_t errlen);
void oq_job_plan_free(struct oq_job_plan *pl);

/* "cn01 HCA-1/P1": the port's name for messages (oq_port_name). */
void oq_job_port_name(const struct oq_job_plan *pl, uint32_t i, char *buf,
		      size_t len);

#endif /* OSMQOS_JOB_PAIRS_H */
