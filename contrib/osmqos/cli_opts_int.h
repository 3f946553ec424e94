/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* What the option parser (cli_opts.c) and the --help writer (cli_usage.c)
 * share of an option table. */
#ifndef OSMQOS_CLI_OPTS_INT_H
#define OSMQOS_CLI_OPTS_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "cli_opts.h"

static inline bool oq_opt_is_end(const struct oq_opt *e)
{
	return !e->name && !e->common && !e->help;
}

static inline bool oq_opt_is_heading(const struct oq_opt *e)
{
	return !e->name && !e->common && e->help;
}

static inline bool oq_opt_takes_arg(const struct oq_opt *o)
{
	return o->kind != OQ_OPT_FLAG;
}

/* The table's entries with the shared ones filled in (headings kept);
 * NULL when out of memory. */
struct oq_opt *oq_cli_opts_resolve(const struct oq_cmd_spec *s, size_t *n);

/* An option's argument as --help and errors name it ("FILE", "A B"). */
const char *oq_cli_opt_arg_text(const struct oq_opt *o);

#endif /* OSMQOS_CLI_OPTS_INT_H */
