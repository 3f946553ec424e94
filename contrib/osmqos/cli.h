/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The osmqos CLI: one file per subcommand, this header ties them together. */
#ifndef OSMQOS_CLI_H
#define OSMQOS_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "cli_opts.h"

/* Exit codes shared by every subcommand (osmqos(8)). */
#define OQ_EXIT_OK 0
#define OQ_EXIT_FAIL 1	/* invalid policy, drift found, ... */
#define OQ_EXIT_USAGE 2 /* bad arguments, unreadable file, I/O error */

/* Where the packages install docs/ (debian/osmqos.docs, the spec's %doc),
 * for messages that cite one of its documents: a directory, since Debian
 * compresses the files in it (X.md.gz) and the RPM does not.  `make
 * install` installs no docs/; the man pages it installs are cited too. */
#define OQ_DOCS_DIR "/usr/share/doc/osmqos/docs/"

/* The subcommands, in the order `osmqos --help` lists them. */
extern const struct oq_cmd_spec oq_spec_check, oq_spec_match, oq_spec_tables,
	oq_spec_predict, oq_spec_synth, oq_spec_export, oq_spec_model,
	oq_spec_query, oq_spec_drift, oq_spec_status, oq_spec_plan,
	oq_spec_doctor, oq_spec_job_env;

/* "osmqos CMD: message" on stderr plus a line that says what to do next;
 * returns OQ_EXIT_USAGE so callers can `return oq_usage_error(...)`. */
int oq_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The transport options' ranges (--ca-port, --timeout), which the job
 * map's ca-port and timeout share. */
#define OQ_CA_PORT_MAX	  254
#define OQ_TIMEOUT_MS_MAX 600000

/* Parse an unsigned number, decimal or 0x hex, fully, without a leading
 * 0 (octal to C and the policy language); 0 ok, -1 bad. */
int oq_parse_u64(const char *s, unsigned long long *out);

#endif /* OSMQOS_CLI_H */
