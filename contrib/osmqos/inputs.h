/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The offline subcommands' inputs (check, match, tables, predict, synth,
 * query, audit): each input file read from its path or from standard input
 * ("-"), the policy, topology and partitions loaded with the CLI's
 * exit-code conventions, the tables compiled exactly as the plugin
 * compiles them, and the ports and levels named on the command line.
 */
#ifndef OSMQOS_CLI_INPUTS_H
#define OSMQOS_CLI_INPUTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>
#include <osmqos/json.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/synth.h>
#include <osmqos/tables.h>

#include "cli_opts.h"

/* What diagnostics call standard input. */
#define OQ_CLI_STDIN_NAME "<stdin>"

struct oq_cli_inputs {
	struct oq_diags diags;
	struct oq_fabric *fabric;
	struct oq_partitions parts;
	bool have_parts;
	struct oq_policy *policy; /* NULL when no --policy */
	struct oq_binding *binding;
	/* The policy's bandwidth intents on this fabric (filled by
	 * oq_cli_compile_tables; empty without intents). */
	struct oq_synth_plan synth;
	/* How the loaders report diagnostics: the command's --all, and the
	 * command that shows what they fold (oq_cli_show_all, or NULL). */
	bool all;
	char *show_all;
};

/*
 * Load c's fabric, partitions (optional) and policy (optional), validate
 * the policy and bind it.  Diagnostics (warnings too) go to stderr.
 * Returns OQ_EXIT_OK, OQ_EXIT_USAGE (unreadable or broken input file) or
 * OQ_EXIT_FAIL (invalid policy); after a failure the inputs are already
 * freed.
 */
int oq_cli_load(const char *cmd, const struct oq_cli_common *c,
		struct oq_cli_inputs *in);
void oq_cli_inputs_free(struct oq_cli_inputs *in);
/* The same for a fabric already in in->fabric (discovered live): the
 * partitions and policy of c on it.  Frees the inputs on failure. */
int oq_cli_load_on(const char *cmd, const struct oq_cli_common *c,
		   struct oq_cli_inputs *in);

/*
 * OQ_EXIT_OK when path is a regular file of at most max bytes (or "-",
 * standard input, read later), else a usage error naming what and why.
 * Never blocks: a FIFO given as an input is refused, not waited on.
 */
int oq_cli_need_file(const char *cmd, const char *what, const char *path,
		     size_t max);

/*
 * An input its command parses itself (doctor's opensm.conf files,
 * job-env's host lists and job map): path, or standard input for "-",
 * checked as oq_cli_need_file checks it (a FIFO is refused) and read as
 * the other inputs are, with their error wording.  *buf (malloc'd,
 * NUL-terminated) holds *len bytes; *name is what its diagnostics call it
 * (OQ_CLI_STDIN_NAME for "-", else path).  OQ_EXIT_OK, or OQ_EXIT_USAGE
 * after saying why.
 */
int oq_cli_read_input(const char *cmd, const char *what, const char *path,
		      size_t max, char **buf, size_t *len, const char **name);

/*
 * Each input read from path ("-": standard input, at most max bytes) and
 * parsed as its loader does, diagnostics into d.  Returns OQ_EXIT_OK once
 * the text was read (the parse's errors are in d; *out is NULL only out of
 * memory or when the parse gave up), or OQ_EXIT_USAGE after saying why
 * the text could not be read.
 */
int oq_cli_read_policy(const char *cmd, const char *path, struct oq_diags *d,
		       struct oq_policy **out);
int oq_cli_read_fabric(const char *cmd, const char *path, struct oq_diags *d,
		       struct oq_fabric **out);
/* Returns the parse's result (0 or -1) once read, OQ_EXIT_USAGE if not. */
int oq_cli_read_partitions(const char *cmd, const char *path,
			   struct oq_fabric *f, struct oq_diags *d,
			   struct oq_partitions *out);
int oq_cli_read_templates(const char *cmd, const char *path,
			  struct oq_diags *d, struct oq_templates *t);

/*
 * Templates (OpenSM's defaults, or the qos_* keys of opensm_conf when not
 * NULL) and the per-port tables, exactly as the plugin compiles them; used
 * by `tables` and `predict` so their dry runs cannot differ.  Diagnostics
 * (warnings too) go to stderr.  Returns OQ_EXIT_OK or OQ_EXIT_USAGE; the
 * inputs stay owned by the caller either way.
 */
int oq_cli_compile_tables(const char *cmd, struct oq_cli_inputs *in,
			  const char *opensm_conf, struct oq_templates *t,
			  struct oq_fabric_tables *out);

/*
 * The partitions file when --partitions is not given: the one
 * --opensm-conf names (partition_config_file; OpenSM's default file when
 * it names none or "(null)"), as the SM reads it, set into
 * c->partitions.  A file that does not exist is what OpenSM runs without:
 * the Default partition only (c->absent_partitions), and a warning
 * unless it is the default path or c->partitions_own_warning is set; one
 * that exists but cannot be read is an error.
 * The option parser calls it for every subcommand that takes both
 * options.  OQ_EXIT_OK, or OQ_EXIT_USAGE after saying why.
 */
int oq_cli_default_partitions(const char *cmd, struct oq_cli_common *c);

/*
 * Name the fabric's nodes as OpenSM names them: by --node-name-map, else
 * by the map --opensm-conf's node_name_map_name names (or OpenSM's
 * default map when it names none and that file exists), else by their
 * NodeDescriptions.  A map OpenSM would ignore (unreadable, a bad line)
 * is an error when given as --node-name-map, a warning when opensm.conf
 * names it (OpenSM runs without it).  A --node-name-map's diagnostics
 * go into into when it is not NULL (check reports them with its own,
 * JSON included), else to stderr; those of opensm.conf's map go to
 * stderr (OpenSM runs on without it: they fail no check).  OQ_EXIT_OK or
 * OQ_EXIT_USAGE.
 */
int oq_cli_node_names(const char *cmd, const struct oq_cli_common *c,
		      struct oq_fabric *f, struct oq_diags *into);

/*
 * Diagnostics to stderr, sorted, root causes first (inputs_diags.c).
 * What follows from a cause is folded under it and each kind capped,
 * ending in show_all (may be NULL), only when not all and none is an
 * error: a run an error fails shows every error.
 */
void oq_cli_print_diags(struct oq_diags *d, bool all, const char *show_all);
/*
 * "'osmqos check POLICY --fabric F ... --all' shows them": the command
 * that shows every diagnostic of c's inputs (tables when c has no
 * policy), with c's input files.  malloc'd; NULL when out of memory.
 */
char *oq_cli_show_all(const struct oq_cli_common *c);

/*
 * The port a command-line argument names (opt, e.g. "--port", for the
 * error), port_arg.c: the node's name (oq_node_name: a node-name map's
 * or the NodeDescription) with or without /P<n>, its host name (the
 * name's first word), a port or node GUID (0x...), or lid:N.  Without
 * /P<n> a node with one port means that port.  *whole (when not NULL)
 * says it names a switch as a whole (by GUID, LID or name without
 * /P<n>): the switch's port 0 is returned, and a command that lists
 * ports takes all of the switch's (tables, predict), one that needs an
 * end port its port 0 (match, predict --path).  NULL after the usage
 * error, which names the closest names on a miss.
 */
const struct oq_port *oq_cli_port(const char *cmd, const struct oq_fabric *f,
				  const char *opt, const char *spec,
				  bool *whole);

/* The name of QoS level `level` of p, or NULL (no policy, no level, or a
 * level without a name). */
const char *oq_cli_level_name(const struct oq_policy *p, int level);

#endif /* OSMQOS_CLI_INPUTS_H */
