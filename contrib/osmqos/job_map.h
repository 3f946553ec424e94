/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The operator's job mapping file (docs/jobs.md): which class a job's
 * traffic gets from its scheduler attributes (Slurm partition, QOS,
 * account), the class of unmapped jobs, whether a job may choose its own
 * class or opt out, and the inputs `osmqos job-env` reads.  One setting
 * or map line per line, '#' comments, errors as FILE:LINE:COL.
 */
#ifndef OSMQOS_JOB_MAP_H
#define OSMQOS_JOB_MAP_H

#include <stdbool.h>
#include <stddef.h>

#include <osmqos/diag.h>

#include "job_class.h"
#include "job_decide.h"

/* job-env's --max-queries, and the map's max-queries. */
#define OQ_JOB_MAX_QUERIES_MAX 100000000

/* A mapping file is a few KiB; a larger one is a wrong file. */
#define OQ_JOB_MAP_MAX_BYTES (1u << 20)
#define OQ_JOB_MAP_LINE_MAX  4096

enum oq_job_attr { OQ_JA_PARTITION, OQ_JA_QOS, OQ_JA_ACCOUNT, OQ_JA_N };

struct oq_job_map_rule {
	char *attr[OQ_JA_N]; /* NULL: any value */
	struct oq_job_class cls;
	unsigned int line;
	unsigned int col; /* of the class's value ("0x0030" of pkey 0x0030) */
};

struct oq_job_map {
	char *file; /* as given; diagnostics point here */
	struct oq_job_map_rule *rules;
	size_t n_rules;
	struct oq_job_class dflt; /* unmapped jobs (none unless set) */
	unsigned int dflt_line, dflt_col;
	bool allow_opt_out, allow_override;
	struct oq_job_prefer prefer;
	bool has_prefer;
	/* Inputs (NULL when not set): job-env's --fabric, --policy,
	 * --partitions and --node-name-map; osmqos and spool are the Slurm
	 * scripts' own. */
	char *fabric, *policy, *partitions, *node_name_map, *osmqos, *spool;
	/* job-env's --all-pairs, --max-queries, --ca, --ca-port and
	 * --timeout, each used only when has_ (ca: non-NULL). */
	bool has_all_pairs, all_pairs;
	bool has_max_queries, has_ca_port, has_timeout;
	unsigned long long max_queries, ca_port, timeout;
	char *ca;
};

/* Parse text (len bytes) read from file; errors and warnings go into
 * diags.  Returns 0, or -1 when diags holds an error (or out of memory). */
int oq_job_map_parse(struct oq_job_map *m, const char *file, const char *text,
		     size_t len, struct oq_diags *diags);
/* Read and parse path (a regular file of at most OQ_JOB_MAP_MAX_BYTES;
 * a FIFO or directory is refused without blocking). */
int oq_job_map_load(struct oq_job_map *m, const char *path,
		    struct oq_diags *diags);
void oq_job_map_free(struct oq_job_map *m);

/* What a job gets, and why (for the output and the job's log). */
struct oq_job_map_result {
	struct oq_job_class cls;
	char why[256];	/* "map line 12 (partition=storage)", "default" */
	char note[512]; /* a job request not honoured, or empty */
	/* cls is the job's own request; map_cls and map_why are what the
	 * map gave before it, which the job keeps when the request turns
	 * out unusable (a level the policy lacks). */
	bool requested;
	struct oq_job_class map_cls;
	char map_why[256];
	/* Where the map writes map_cls (its value's column), 0 when no
	 * line does (no default): for errors about the class. */
	unsigned int map_line, map_col;
};

/*
 * The class of a job with these attributes (NULL: the job has none) and
 * its own request (the text of, say, its Slurm comment: a word
 * "osmqos=off" or "osmqos=KIND:VALUE" in it, honoured only when the map
 * allows it).  The first map line whose attributes all match wins, else
 * the default.  Never fails: a request that cannot be honoured becomes
 * the note.
 */
void oq_job_map_resolve(const struct oq_job_map *m,
			const char *const attr[OQ_JA_N], const char *request,
			struct oq_job_map_result *r);

/*
 * The job's request in r cannot be used (cause: why, as "the policy has
 * no qos-level named 'x'"): r goes back to the map's class, and the note
 * says what the job asked, why not, and what it keeps.  Nothing happens
 * when r's class is not a request.
 */
void oq_job_map_unrequest(struct oq_job_map_result *r, const char *cause);

#endif /* OSMQOS_JOB_MAP_H */
