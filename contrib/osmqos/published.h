/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the plugin publishes, read back: the publish directory, the policy
 * in force as the operator wrote it, and the Prometheus textfile's
 * samples (`osmqos status`, `drift --in-force`, `plan`, `doctor`).
 */
#ifndef OSMQOS_CLI_PUBLISHED_H
#define OSMQOS_CLI_PUBLISHED_H

#include <stdbool.h>
#include <stddef.h>

/* The directory given, else OpenSM's cache directory (the plugin's
 * default publish_dir=). */
const char *oq_pub_dir(const char *given);

/* dir/name into buf; false when it does not fit. */
bool oq_pub_path(const char *dir, const char *name, char *buf, size_t len);

/* The path of the policy in force the plugin publishes in publish_dir
 * (NULL: the default directory), into buf.  OQ_EXIT_OK, or a usage
 * error of cmd (exit status) when the path is too long or no such file
 * is there; instead says what the operator can give in its place. */
int oq_pub_in_force(const char *cmd, const char *publish_dir, char *buf,
		    size_t len, const char *instead);

struct oq_cli_common;

/* What oq_pub_live_inputs() found (zeroed by the caller, kept while c
 * points into it). */
struct oq_pub_live {
	char *dir;	 /* publish_dir= of the --opensm-conf given */
	char conf[4096]; /* the opensm.conf the plugin publishes */
	/* What the command assumes of the SM's opensm.conf, to say with
	 * its notes ("": it was given). */
	char note[4400];
};

/* Without --publish-dir: the publish_dir= of the --opensm-conf given
 * (for status, which compiles nothing).  OQ_EXIT_OK or a usage error. */
int oq_pub_live_dir(const char *cmd, struct oq_cli_common *c,
		    struct oq_pub_live *l);
/*
 * The running SM's inputs for a command that compiles tables to compare
 * with it: oq_pub_live_dir(), then without --opensm-conf the opensm.conf
 * opensm runs with, as the plugin publishes it in the publish directory
 * (l->note says which, or that there is none: OpenSM's built-in
 * templates are then assumed).  OQ_EXIT_OK, or a usage error of cmd (a
 * published opensm.conf this user cannot read, an --opensm-conf that
 * cannot be read).
 */
int oq_pub_live_inputs(const char *cmd, struct oq_cli_common *c,
		       struct oq_pub_live *l);
void oq_pub_live_free(struct oq_pub_live *l);

/* One sample of a Prometheus text file: name, labels, value. */
struct oq_prom_label {
	char *key, *val;
};

struct oq_prom_sample {
	char *name;
	struct oq_prom_label *labels;
	size_t n_labels;
	double value;
};

struct oq_prom {
	struct oq_prom_sample *v;
	size_t n;
};

/*
 * Parse a text exposition file (format 0.0.4; comments skipped, label
 * values unescaped).  0, or -1 with errno (unreadable; EINVAL: a line
 * that is not a sample, *bad_line its number).
 */
int oq_prom_load(const char *path, struct oq_prom *out, size_t *bad_line);
void oq_prom_free(struct oq_prom *p);

/* The first sample named name whose label key (NULL: any) is val (NULL:
 * any value); NULL when none. */
const struct oq_prom_sample *oq_prom_find(const struct oq_prom *p,
					  const char *name, const char *key,
					  const char *val);
/* A sample's label, or NULL. */
const char *oq_prom_label(const struct oq_prom_sample *s, const char *key);

/*
 * Has the master stopped rewriting the publication?  It does every
 * interval seconds (publish_interval=) while it runs; two intervals and
 * some slack for a busy host missed say it no longer does: opensm
 * stopped or hung, it is a standby now, or it cannot write here.  Without
 * an interval (<= 0: a plugin that does not publish one) the age alone
 * says nothing: false.  published and now in seconds since the epoch.
 */
bool oq_pub_stale(double published, double interval, double now);
/* The same, of p's osmqos_publish_timestamp_seconds and
 * osmqos_publish_interval_seconds; *age (may be NULL) the seconds since it
 * was written. */
bool oq_prom_stale(const struct oq_prom *p, double now, double *age);
/* What to do about a stale publication (status and doctor say it alike). */
#define OQ_PUB_STALE_FIX                                                       \
	"check that opensm runs and is the master (a standby publishes "       \
	"nothing), and its log"

#endif /* OSMQOS_CLI_PUBLISHED_H */
