// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* osmqos predict: placeholder until the module behind it lands. */
#include <stdio.h>

#include "cli.h"

void oq_usage_predict(FILE *out)
{
	fprintf(out, "Usage: osmqos predict ... (not available in this build yet)\n");
}

int oq_cmd_predict(int argc, char **argv)
{
	fprintf(stderr, "osmqos predict: not available in this build yet\n");
	return OQ_EXIT_USAGE;
}
