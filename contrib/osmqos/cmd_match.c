// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* osmqos match: placeholder until the module behind it lands. */
#include <stdio.h>

#include "cli.h"

void oq_usage_match(FILE *out)
{
	fprintf(out, "Usage: osmqos match ... (not available in this build yet)\n");
}

int oq_cmd_match(int argc, char **argv)
{
	fprintf(stderr, "osmqos match: not available in this build yet\n");
	return OQ_EXIT_USAGE;
}
