// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* osmqos tables: placeholder until the module behind it lands. */
#include <stdio.h>

#include "cli.h"

void oq_usage_tables(FILE *out)
{
	fprintf(out, "Usage: osmqos tables ... (not available in this build yet)\n");
}

int oq_cmd_tables(int argc, char **argv)
{
	fprintf(stderr, "osmqos tables: not available in this build yet\n");
	return OQ_EXIT_USAGE;
}
