/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* `osmqos synth`'s lowered policy and its check (synth_lower.c). */
#ifndef OSMQOS_CLI_SYNTH_LOWER_H
#define OSMQOS_CLI_SYNTH_LOWER_H

#include <stdio.h>

#include <osmqos/synth.h>
#include <osmqos/tables.h>

#include "inputs.h"

/* Write the lowered policy for in->policy and in->synth (the plan of
 * oq_cli_compile_tables); cmdline is quoted in its header comment.
 * Returns 0, -1 on a stream error or out of memory. */
int oq_synth_lower_write(FILE *out, const struct oq_cli_inputs *in,
			 const char *cmdline);
/* Only the appended sections (a port-groups and a qos-setup section with
 * the synthesized tables), for `osmqos export`. */
int oq_synth_lower_sections(FILE *out, const struct oq_cli_inputs *in,
			    const char *cmdline);

struct oq_lower_check {
	bool parse_failed; /* the text is not a valid policy */
	size_t n_ports;	   /* programmed ports compared */
	size_t n_diff;	   /* whose tables differ */
	const struct oq_port *first_diff;
};

/* Compile the lowered text on in->fabric with templates t (no intents are
 * left in it) and compare every programmed port with want.  Diagnostics
 * of the text go to d.  Returns 0, -1 when out of memory. */
int oq_synth_lower_check(const char *text, size_t len,
			 const struct oq_cli_inputs *in,
			 const struct oq_templates *t,
			 const struct oq_fabric_tables *want,
			 struct oq_lower_check *chk, struct oq_diags *d);

#endif /* OSMQOS_CLI_SYNTH_LOWER_H */
