// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* osmqos: the operator CLI.  Dispatches to one subcommand per file. */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/osm_release.h>

#include "cli.h"

static const struct oq_cmd cmds[] = {
	{"check", "validate a policy (file:line:col diagnostics)", oq_cmd_check,
	 oq_usage_check},
	{"match", "which rule and QoS level a path query gets", oq_cmd_match,
	 oq_usage_match},
	{"tables", "SL2VL/VLArb/VLHighLimit the plugin would program",
	 oq_cmd_tables, oq_usage_tables},
	{"predict", "predicted per-SL bandwidth of every port", oq_cmd_predict,
	 oq_usage_predict},
	{"synth", "tables from bandwidth intents, proved; lowered policy",
	 oq_cmd_synth, oq_usage_synth},
	{"model", "the raw VL arbiter of one port", oq_cmd_model,
	 oq_usage_model},
	{"query", "live SA path query (PR/MPR)", oq_cmd_query, oq_usage_query},
	{"audit", "live drift audit: tables and SA answers vs the policy",
	 oq_cmd_audit, oq_usage_audit},
};
#define N_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: osmqos COMMAND [OPTIONS]\n"
		     "       osmqos COMMAND --help\n"
		     "       osmqos --version\n\n"
		     "Commands:\n");
	for (i = 0; i < N_CMDS; i++)
		fprintf(out, "  %-9s %s\n", cmds[i].name, cmds[i].summary);
	fprintf(out,
		"\nPathRecord answers and link rates follow %s, the OpenSM "
		"this\nosmqos was built for (its plugin loads into that "
		"opensm only).\n"
		"See osmqos(8) for details.\n",
		oq_osm_release()->name);
}

int oq_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "osmqos %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'osmqos %s --help' for the options.\n", cmd);
	return OQ_EXIT_USAGE;
}

int oq_parse_u64(const char *s, unsigned long long *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return (errno || *end) ? -1 : 0;
}

int oq_getopt_error(const char *cmd, int c, char **argv)
{
	const char *opt = optind > 0 ? argv[optind - 1] : "?";

	if (c == ':')
		return oq_usage_error(cmd, "option '%s' needs an argument",
				      opt);
	return oq_usage_error(cmd, "unknown option '%s'", opt);
}

int oq_parse_mask(const char *cmd, const char *opt, const char *s,
		  unsigned int max, const char *what, uint16_t *mask)
{
	char *dup = strdup(s), *tok, *save = NULL;
	int rc = 0;

	*mask = 0;
	if (!dup)
		return oq_usage_error(cmd, "out of memory");
	for (tok = strtok_r(dup, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		unsigned long long v;

		if (oq_parse_u64(tok, &v) || v > max) {
			rc = oq_usage_error(cmd, "%s: '%s' is not %s", opt, tok,
					    what);
			break;
		}
		*mask |= (uint16_t)(1u << v);
	}
	free(dup);
	return rc;
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return OQ_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(stdout);
		return OQ_EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		if (argc > 2) {
			fprintf(stderr, "osmqos: %s takes no argument; "
					"unexpected '%s'\n",
				argv[1], argv[2]);
			return OQ_EXIT_USAGE;
		}
		printf("osmqos %s (models %s)\n", PACKAGE_VERSION,
		       oq_osm_release()->name);
		return OQ_EXIT_OK;
	}
	for (i = 0; i < N_CMDS; i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		if (argc == 3 &&
		    (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			cmds[i].usage(stdout);
			return OQ_EXIT_OK;
		}
		return cmds[i].run(argc - 1, argv + 1);
	}
	fprintf(stderr,
		"osmqos: unknown command '%s'\n"
		"Run 'osmqos --help' for the list of commands.\n",
		argv[1]);
	return OQ_EXIT_USAGE;
}
