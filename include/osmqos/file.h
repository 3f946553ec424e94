/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Files: reading a whole input file (policy, topology, partitions,
 * opensm.conf), replacing an output file atomically (published files,
 * OpenSM's policy copy), and OpenSM's cache directory where they live.
 */
#ifndef OSMQOS_FILE_H
#define OSMQOS_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

/* Inputs larger than this are refused before they are read: a runaway or
 * wrong file must not exhaust the SM's memory. */
#define OQ_FILE_MAX_BYTES (256u << 20)

/*
 * Read the regular file at path into a NUL-terminated buffer (the NUL is
 * not counted in *len).  Returns NULL with errno set: the open/read error,
 * EFBIG above max bytes, EINVAL for a directory or device, ENOMEM.
 */
char *oq_file_read(const char *path, size_t max, size_t *len);
/* The same from an open file of size bytes (as fstat saw them), which
 * the caller has checked and closes: NULL with errno EFBIG beyond max,
 * ENOMEM, or read()'s. */
char *oq_file_read_fd(int fd, unsigned long long size, size_t max, size_t *len);

/* A policy is a few KiB; a larger file is a wrong one.  The plugin and
 * `osmqos check` refuse the same files. */
#define OQ_POLICY_MAX_BYTES (16u << 20)

/*
 * Whether oq_file_read(path, max) would take the file, without reading it
 * and without blocking (a FIFO at the path is refused, not waited on).
 * Returns 0 or the errno oq_file_read would set.
 */
int oq_file_probe(const char *path, size_t max);

/*
 * What path is when reading it as a plain fopen() and fgets() loop does
 * (OpenSM's node-name map reader) would hang its reader: "FIFO" (fopen()
 * waits for a writer), "character device" or "block device" (/dev/zero
 * never ends, a disk is read whole); NULL for anything else, or nothing,
 * at path.  Follows symbolic links, as fopen() does; never opens it.
 */
const char *oq_file_endless(const char *path);

/*
 * Whether two paths name the same file, existing or not: their directories
 * resolved (symbolic links, "..", relative paths) and the last components
 * equal, or both existing with the same device and inode (not following a
 * symbolic link in the last component).
 */
bool oq_file_same(const char *a, const char *b);

/* The reason for an oq_file_read/oq_file_probe errno, as a phrase: "not a
 * regular file (a directory, FIFO or device)", "larger than the 16 MiB
 * limit", or strerror(err).  Uses buf when it needs to format. */
const char *oq_file_error(int err, size_t max, char *buf, size_t len);

/*
 * OpenSM's cache directory: $OSM_CACHE_DIR, else OQ_DEFAULT_CACHE_DIR
 * (OpenSM's OSM_DEFAULT_CACHE_DIR; its own cache files follow the same
 * rule, osm_db_files.c).
 */
#define OQ_DEFAULT_CACHE_DIR "/var/cache/opensm"
const char *oq_cache_dir(void);

/* What the plugin publishes in its publish directory (docs/publish.md),
 * which `osmqos status`, `drift --in-force` and `plan` read. */
#define OQ_PUB_JSON "osmqos-bandwidth.json"
#define OQ_PUB_PROM "osmqos.prom"
/* OpenSM's copy of the policy in force (intent keys commented out). */
#define OQ_PUB_OPENSM_COPY "osmqos-last-good-policy.conf"
/* The policy in force as the operator wrote it, byte for byte. */
#define OQ_PUB_IN_FORCE "osmqos-policy-in-force.conf"
/* Beside it, "0xHASH PATH\n": the policy file it was read from, byte for
 * byte (the plugin's OQ_POLICY_SOURCE_NAME; the published labels carry
 * U+FFFD for a byte that is not UTF-8). */
#define OQ_PUB_IN_FORCE_SOURCE "osmqos-policy-in-force.source"

/* What a file written by us was when written: another file at its path
 * later (replaced, edited, a directory, a FIFO) differs in one of these. */
struct oq_file_id {
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	bool known;
};

/* Take path's identity (lstat); id->known false when it cannot be read. */
void oq_file_id_take(const char *path, struct oq_file_id *id);
/* Is the file at path still a regular file with that identity?  false
 * for an unknown identity. */
bool oq_file_id_same(const char *path, const struct oq_file_id *id);

/* Writes a whole file's content to out; non-zero (errno set) on failure. */
typedef int (*oq_file_writer_fn)(FILE *out, const void *ctx);

/*
 * Replace dir/name with what fn writes: a temp file ".name.XXXXXX" is
 * created in dir (O_EXCL|O_NOFOLLOW, given mode whatever the umask),
 * written, fsync'ed and renamed over name.  A symlink at name is replaced,
 * never followed; the directory itself is opened once and every step is
 * relative to it.  On failure the temp file is removed and the old file
 * stays.  Returns 0, or an errno value with a sentence (without the errno
 * text) in why.
 */
int oq_file_replace(const char *dir, const char *name, mode_t mode,
		    oq_file_writer_fn fn, const void *ctx, char *why,
		    size_t len);
/* The same with the len bytes at text as the file's content. */
int oq_file_replace_text(const char *dir, const char *name, mode_t mode,
			 const char *text, size_t len, char *why,
			 size_t why_len);
/*
 * Remove the temp files ".name.XXXXXX" a replacement left in dir when the
 * process died before its rename (regular files of this process's user,
 * a minute old or more: another process may be writing one now).
 * Returns how many were removed.
 */
size_t oq_file_replace_clean(const char *dir, const char *name);

#endif /* OSMQOS_FILE_H */
