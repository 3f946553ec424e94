/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * osmqos status: what it gathers (struct st), from what the plugin
 * publishes (cmd_status.c) and from the files on disk themselves
 * (status_files.c: the policy file as it is now, and the copy of the
 * policy in force as written).
 */
#ifndef OSMQOS_CLI_STATUS_H
#define OSMQOS_CLI_STATUS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "published.h"

struct st {
	const char *dir;
	double published, now;
	double interval; /* publish_interval= seconds; < 0: not published */
	bool in_force, load_success;
	/* osmqos_qos_enabled: 1 qos TRUE, 0 qos FALSE, -1 not published */
	double qos;
	const char *path, *hash;
	/* The path as the policy file's name, byte for byte, when the
	 * label carries U+FFFD and the source line says it; path_unsure:
	 * it does not, so the label may name another file. */
	char raw_path[4096];
	bool path_unsure;
	double loaded;
	const char *rej_path, *rej_hash, *rej_error;
	/* What to do about the rejection when that is not to fix the file
	 * (a valid policy the plugin's setup refuses), NULL: fix it. */
	const char *rej_fix;
	double rejected;
	/* The policy in force was put back at start: from this copy,
	 * written for that file ("": not known). */
	const char *restored_from, *restored_for;
	/* OpenSM's own parse of the file it reads (osm_path NULL: the
	 * plugin does not say), refused since osm_since. */
	const char *osm_path;
	bool osm_refused;
	double osm_since;
	double sweep, mads, dropped, answers;
	const char *engine, *sl2vl;
	char copy[4096];
	bool have_copy;
	uint64_t copy_hash;
	int copy_errno;	   /* why there is no copy's hash */
	double copy_mtime; /* when the copy was written */
	/* The policy file as it is now, read here: its hash, or why not. */
	bool have_file;
	uint64_t file_hash;
	int file_errno;
	const char *file_kind; /* not a regular file: what it is */
	const struct oq_prom *prom;
};

/* What the policy file holds now, against what the plugin published. */
enum file_state {
	FILE_UNKNOWN,  /* not readable here (not root?): the plugin's word */
	FILE_IN_FORCE, /* the content in force */
	FILE_REJECTED, /* the content the plugin rejected */
	FILE_EDITED,   /* another content: the plugin has not read it yet */
	FILE_MISSING,  /* no file: the plugin keeps the last good policy */
	FILE_RELATIVE, /* a relative path: opensm's working directory's */
	FILE_SPECIAL,  /* a directory, a FIFO...: not read */
};

/* The copy as written against the policy in force.  The plugin writes
 * the copy of a new policy just before the publication naming it: a
 * copy newer than the publication is that change under way, an older
 * one holding another policy (or none at all) a write that failed. */
enum copy_state {
	COPY_OK,       /* it holds the policy in force (or none is) */
	COPY_CHANGING, /* another, newer than the publication */
	COPY_OTHER,    /* another, older: the last write failed */
	COPY_MISSING,  /* none: the last write failed */
	COPY_UNKNOWN,  /* not readable here (not root?) */
};

/* "2026-01-02T03:04:05Z (5 s ago)", or "never" for t <= 0. */
void status_when(char *buf, size_t len, double t, double now);
/* The policy file the copy in dir was written for, byte for byte, from
 * the source line beside it, into path: only when that line is of hash
 * ("0x%016x"; else it names another copy's file).  false: none. */
bool status_source_of(const char *dir, const char *hash, char *path,
		      size_t len);
/* The policy file's own name when the published label cannot say it
 * (bytes that are not UTF-8): from the source line beside the copy. */
void status_path_of(struct st *s);
/* The copy of the policy in force as written: present, hash, time. */
void status_copy_of(struct st *s);
bool status_copy_matches(const struct st *s);
enum copy_state status_copy_state(const struct st *s);
/* The policy file, read now (not a relative path, not a FIFO). */
void status_file_of(struct st *s);
enum file_state status_file_state(const struct st *s);

/* A directory with no publication but the copy of the policy the plugin
 * would put in force (a standby's): said, exit status 1; a copy this
 * user cannot read, a usage error (2); -1 when there is no copy either
 * (nothing published there). */
int status_unpublished(const char *dir, double now, bool json);

#endif /* OSMQOS_CLI_STATUS_H */
