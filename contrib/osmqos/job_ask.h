/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the policy grants each question of a job's plan (job_pairs.h):
 * live, by real PathRecord queries the SA (the osmqos plugin) answers and
 * records in its audit trail, or offline, by the compiled matcher
 * `osmqos match` uses and the partitions' P_Key rules.
 */
#ifndef OSMQOS_JOB_ASK_H
#define OSMQOS_JOB_ASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>

#include "job_class.h"
#include "job_decide.h"
#include "job_pairs.h"

struct oq_job_ask {
	const struct oq_job_plan *plan;
	struct oq_job_class cls;
	/* With a policy (offline always; live for the P_Key rule below). */
	const struct oq_policy *pol;
	const struct oq_matcher *m;
	/* P_Key tables are known (partitions.conf given): offline denies a
	 * pair without a shared partition, live explains a denial. */
	bool have_pkeys;
	const struct oq_partitions *parts;
	/* OQ_JC_LEVEL: the level (index in pol), its SL and its one P_Key
	 * (-1 when it sets none or several). */
	int level, level_sl, level_pkey;
	/* The fabric the plan's ports come from: their partition tables
	 * are read in it, and live it tells a denial from an end the
	 * subnet does not have (oq_job_ask_sa). */
	const struct oq_fabric *fabric;
	const char *fabric_file;
	/* The host job-env runs on (SLURMD_NODENAME), NULL when unknown:
	 * named when the local port is not in the fabric file. */
	const char *local_host;
};

struct oq_job_answer {
	struct oq_job_grant g; /* denied or (sl, pkey), weight */
	uint16_t sa_status;    /* live: the MAD status (0 granted) */
	int level;	       /* the pair's level (offline), -1 unknown */
	char why[512];	       /* a denial's reason (and a cabling note) */
};

/*
 * The level of the class (OQ_JC_LEVEL): sets a->level, level_sl and
 * level_pkey.  Returns 0, or -1 with err (no such level, or it sets no
 * SL, so it cannot name one).
 */
int oq_job_ask_level(struct oq_job_ask *a, char *err, size_t errlen);

/* The query the class makes for pair (src, dst), for the matcher. */
void oq_job_ask_query(const struct oq_job_ask *a, const struct oq_port *src,
		      const struct oq_port *dst, struct oq_query *q);

/* Offline: every answer from the matcher.  Needs a->pol and a->m. */
void oq_job_ask_offline(const struct oq_job_ask *a, struct oq_job_answer *out);

/*
 * Whether src and dst may have a path under the P_Key rules (OpenSM's:
 * a partition both are in, one of them a full member; the query's P_Key
 * if it has one; one the pair's level allows if it lists any): true with
 * the P_Key the SA picks in *pkey_out (the lowest such), or false with
 * the reason in why.  Without P_Key tables: true, *pkey_out the query's
 * P_Key or 0x7fff.
 */
bool oq_job_ask_pkey_rule(const struct oq_job_ask *a, const struct oq_port *src,
			  const struct oq_port *dst, int level, int *pkey_out,
			  char *why, size_t len);

/* Whether the job exports a P_Key: its class is one, or the pair's level
 * restricts P_Keys. */
bool oq_job_ask_exports_pkey(const struct oq_job_ask *a, int level);

/* The local port live answers came through (requester of the queries). */
struct oq_job_local {
	char ca[32];
	int port;
	uint64_t guid;
	uint16_t lid;
};

/* oq_job_ask_sa: the fabric file is stale (err names the port). */
#define OQ_JOB_ASK_STALE (-2)

/*
 * Live: one SubnAdmGet(PathRecord) per question, by GID, with the
 * class's component (ServiceID, QoS class, P_Key; a level's SL and its
 * one P_Key).  Returns 0 with every answer filled, or -1 with err when
 * the SA cannot be asked (no port, no SM, a timeout, an error status
 * other than "no records"): nothing is half answered.
 *
 * The SA answers a GID it does not know as it answers a denied pair, with
 * no record.  So after a denial the ends are checked against the subnet
 * (with a->fabric): the local port must be in the fabric file, and each
 * end of a denied pair must answer a NodeInfo SMP, sent by directed route
 * along the fabric file's links, with its own port GUID.  When a port the
 * file does not have answers there (an HCA replaced), returns
 * OQ_JOB_ASK_STALE with err naming it.  When a port the file has at
 * another place answers (cables moved), the denial stands and its why
 * says the file's cabling is out of date there.  An end that cannot be
 * reached (no route in the file, no answer) leaves the denial as it is.
 */
int oq_job_ask_sa(const struct oq_job_ask *a, const char *ca, int port,
		  int timeout_ms, struct oq_job_answer *out,
		  struct oq_job_local *local, size_t *n_queries, char *err,
		  size_t errlen);

/*
 * The index of P_Key pkey (a full membership entry preferred) in the
 * local port's P_Key table, read by SMP: >= 0, or -1 with err.
 */
int oq_job_local_pkey_index(const char *ca, int port, int pkey, char *err,
			    size_t errlen);

/* job_stale.c: after the SA denied some pairs, whether the fabric file
 * is stale instead (OQ_JOB_ASK_STALE with err), else 0 (with a note in
 * the why of denied pairs whose end the file has cabled elsewhere). */
int oq_job_check_denied(const struct oq_job_ask *a, int timeout_ms,
			const struct oq_job_local *local,
			struct oq_job_answer *out, char *err, size_t errlen);

#endif /* OSMQOS_JOB_ASK_H */
