/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The policy file as the plugin sees it (policy_file.c): re-read every
 * heavy sweep, applied only when it changed and is valid, and shared by
 * reference with the sweep states built from it; and the copy of the last
 * good policy OpenSM's own parser reads (policy_copy.c).
 */
#ifndef OSMQOS_PLUGIN_POLICY_FILE_H
#define OSMQOS_PLUGIN_POLICY_FILE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <osmqos/policy.h>

#include "osm/osm.h"
#include "options/options.h"

/* OpenSM reads a copy of the last good policy, this file in the publish
 * directory. */
#define OQ_POLICY_COPY_NAME "osmqos-last-good-policy.conf"

/* A validated policy shared by the states built from it. */
struct oq_policy_ref {
	unsigned int refs; /* atomic (__atomic builtins) */
	struct oq_policy *p;
};

/* A policy file as last loaded: the parsed tree and what identified it. */
struct oq_policy_file {
	osm_opensm_t *osm;
	const struct oq_plugin_options *opts;
	pthread_mutex_t lock;	   /* the cur pointer */
	struct oq_policy_ref *cur; /* last good policy; NULL if never good */
	uint64_t hash;	   /* FNV-1a of the content that produced `policy` */
	uint64_t bad_hash; /* content that failed last (logged once) */
	bool bad_reported;
	bool missing_reported;
	bool content_ok; /* the file's current content is the policy in force */
	int read_errno;	 /* the read failure last reported */
	time_t loaded_at;
	unsigned long loads_ok, loads_failed;

	/* OpenSM's copy of the last good policy (policy_copy.c). */
	char *operator_path; /* OpenSM's qos_policy_file as configured */
	char *copy_path;     /* what opt.qos_policy_file points at, or NULL */
	bool copy_enabled;   /* opensm_policy=copy (the default) */
	bool copy_failed;    /* the last write failed: retried each sweep */
	int copy_errno;	     /* its error, logged once */
};

/* At load: opensm_policy= is read (a bad value is logged). */
void oq_policy_file_init(struct oq_policy_file *pf, osm_opensm_t *osm,
			 const struct oq_plugin_options *opts);
/* At unload: OpenSM reads its own file again; the policy is dropped. */
void oq_policy_file_fini(struct oq_policy_file *pf);

/* policy=, else OpenSM's qos_policy_file; NULL when neither is set. */
const char *oq_policy_file_path(const struct oq_policy_file *pf);
/* Re-read the file (each heavy sweep): 1 a new policy is in force, 0 the
 * one in force stays, -1 none is. */
int oq_policy_file_refresh(struct oq_policy_file *pf);

/* The policy in force, referenced (NULL: none); put it when done.  Any
 * thread. */
struct oq_policy_ref *oq_policy_ref_get(struct oq_policy_file *pf);
void oq_policy_ref_put(struct oq_policy_ref *r);

#endif /* OSMQOS_PLUGIN_POLICY_FILE_H */
