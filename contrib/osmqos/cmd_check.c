// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* osmqos check: placeholder until the module behind it lands. */
#include <stdio.h>

#include "cli.h"

void oq_usage_check(FILE *out)
{
	fprintf(out, "Usage: osmqos check ... (not available in this build yet)\n");
}

int oq_cmd_check(int argc, char **argv)
{
	fprintf(stderr, "osmqos check: not available in this build yet\n");
	return OQ_EXIT_USAGE;
}
