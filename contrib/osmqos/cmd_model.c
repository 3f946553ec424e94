// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* osmqos model: placeholder until the module behind it lands. */
#include <stdio.h>

#include "cli.h"

void oq_usage_model(FILE *out)
{
	fprintf(out, "Usage: osmqos model ... (not available in this build yet)\n");
}

int oq_cmd_model(int argc, char **argv)
{
	fprintf(stderr, "osmqos model: not available in this build yet\n");
	return OQ_EXIT_USAGE;
}
