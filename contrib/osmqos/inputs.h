/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The offline subcommands' inputs (match, tables, predict, audit): the
 * policy, topology and partitions loaded with the CLI's exit-code
 * conventions, and the tables compiled exactly as the plugin compiles
 * them.
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
};

/*
 * Load the topology, the partitions (optional) and the policy (optional),
 * validate the policy and bind it.  Diagnostics (warnings too) go to
 * stderr.  Returns OQ_EXIT_OK, OQ_EXIT_USAGE (unreadable or broken input
 * file) or OQ_EXIT_FAIL (invalid policy); after a failure the inputs are
 * already freed.
 */
int oq_cli_load(const char *cmd, const char *policy, const char *fabric,
		const char *partitions, struct oq_cli_inputs *in);
void oq_cli_inputs_free(struct oq_cli_inputs *in);

/*
 * OQ_EXIT_OK when path is a regular file of at most max bytes, else a
 * usage error naming what and why.  Never blocks: a FIFO given as an input
 * is refused, not waited on.
 */
int oq_cli_need_file(const char *cmd, const char *what, const char *path,
		     size_t max);

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


#endif /* OSMQOS_CLI_INPUTS_H */
