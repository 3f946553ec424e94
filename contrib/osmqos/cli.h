/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* The osmqos CLI: one file per subcommand, this header ties them together. */
#ifndef OSMQOS_CLI_H
#define OSMQOS_CLI_H

#include <stdint.h>
#include <stdio.h>

/* Exit codes shared by every subcommand (osmqos(8)). */
#define OQ_EXIT_OK 0
#define OQ_EXIT_FAIL 1	/* invalid policy, drift found, ... */
#define OQ_EXIT_USAGE 2 /* bad arguments, unreadable file, I/O error */

struct oq_cmd {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv); /* argv[0] is the subcommand */
	void (*usage)(FILE *out);
};

int oq_cmd_check(int argc, char **argv);
void oq_usage_check(FILE *out);
int oq_cmd_match(int argc, char **argv);
void oq_usage_match(FILE *out);
int oq_cmd_tables(int argc, char **argv);
void oq_usage_tables(FILE *out);
int oq_cmd_predict(int argc, char **argv);
void oq_usage_predict(FILE *out);
int oq_cmd_model(int argc, char **argv);
void oq_usage_model(FILE *out);
int oq_cmd_query(int argc, char **argv); void oq_usage_query(FILE *out);
int oq_cmd_audit(int argc, char **argv);
void oq_usage_audit(FILE *out);
int oq_cmd_synth(int argc, char **argv);
void oq_usage_synth(FILE *out);
int oq_cmd_job_env(int argc, char **argv);
void oq_usage_job_env(FILE *out);

/* "osmqos CMD: message" on stderr plus a line that says what to do next;
 * returns OQ_EXIT_USAGE so callers can `return oq_usage_error(...)`. */
int oq_usage_error(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Parse an unsigned number, decimal or 0x hex, fully; 0 ok, -1 bad. */
int oq_parse_u64(const char *s, unsigned long long *out);

/* The usage error for what getopt_long() returned as c (':' = missing
 * argument, anything else = unknown option); run with opterr = 0 and a
 * leading ':' in the short options.  Returns OQ_EXIT_USAGE. */
int oq_getopt_error(const char *cmd, int c, char **argv);

/* "0,3,7" -> bit mask; each number 0..max.  what names the items in the
 * error ("an SL (0-15)").  0 ok, else OQ_EXIT_USAGE after the message. */
int oq_parse_mask(const char *cmd, const char *opt, const char *s,
		  unsigned int max, const char *what, uint16_t *mask);

#endif /* OSMQOS_CLI_H */
