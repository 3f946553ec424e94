// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* osmqos: the operator CLI.  Dispatches to one subcommand per file. */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <osmqos/osm_release.h>

#include "cli.h"
#include "output_file.h"

static const struct oq_cmd_spec *const cmds[] = {
	&oq_spec_check,	 &oq_spec_match,  &oq_spec_tables, &oq_spec_predict,
	&oq_spec_synth,	 &oq_spec_export, &oq_spec_model,  &oq_spec_query,
	&oq_spec_drift,	 &oq_spec_status, &oq_spec_plan,   &oq_spec_doctor,
	&oq_spec_job_env,
};
#define N_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static void usage(FILE *out)
{
	size_t i;

	fprintf(out, "Usage: osmqos COMMAND [OPTIONS]\n"
		     "       osmqos COMMAND --help\n"
		     "       osmqos help COMMAND\n"
		     "       osmqos --version\n\n"
		     "Commands:\n");
	for (i = 0; i < N_CMDS; i++)
		fprintf(out, "  %-9s %s\n", cmds[i]->name, cmds[i]->summary);
	fprintf(out,
		"\nPathRecord answers and link rates follow %s, the OpenSM "
		"this\nosmqos was built for (its plugin loads into that "
		"opensm only).\n"
		"See osmqos(8) for details; the docs/ it and --help cite are "
		"in\n" OQ_DOCS_DIR " when osmqos is installed "
		"from a package.\n",
		oq_osm_release()->name);
}

/* Former names, still accepted (not listed in the help). */
static const struct {
	const char *name;
	const struct oq_cmd_spec *spec;
} aliases[] = {
	/* `audit` was the live drift check; the audit trail is the
	 * plugin's record of granted paths, a different thing. */
	{ "audit", &oq_spec_drift },
};

static const struct oq_cmd_spec *find(const char *name)
{
	size_t i;

	for (i = 0; i < N_CMDS; i++)
		if (!strcmp(name, cmds[i]->name))
			return cmds[i];
	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(name, aliases[i].name))
			return aliases[i].spec;
	return NULL;
}

static int unknown(const char *name)
{
	fprintf(stderr,
		"osmqos: unknown command '%s'\n"
		"Run 'osmqos --help' for the list of commands.\n",
		name);
	return OQ_EXIT_USAGE;
}

/* osmqos help [COMMAND] */
static int help(int argc, char **argv)
{
	const struct oq_cmd_spec *s;

	if (argc < 3) {
		usage(stdout);
		return OQ_EXIT_OK;
	}
	if (argc > 3) {
		fprintf(stderr,
			"osmqos help: one command at a time; "
			"unexpected '%s'\n"
			"Run 'osmqos help %s'.\n",
			argv[3], argv[2]);
		return OQ_EXIT_USAGE;
	}
	s = find(argv[2]);
	if (!s)
		return unknown(argv[2]);
	oq_cli_usage(s, stdout);
	return OQ_EXIT_OK;
}

static int run(int argc, char **argv)
{
	const struct oq_cmd_spec *s;

	if (argc < 2) {
		usage(stderr);
		return OQ_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return argc == 2 ? (usage(stdout), OQ_EXIT_OK)
				 : help(argc, argv);
	if (!strcmp(argv[1], "help"))
		return help(argc, argv);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		if (argc > 2) {
			fprintf(stderr,
				"osmqos: %s takes no argument; "
				"unexpected '%s'\n"
				"Run 'osmqos %s'.\n",
				argv[1], argv[2], argv[1]);
			return OQ_EXIT_USAGE;
		}
		oq_cli_version(stdout);
		return OQ_EXIT_OK;
	}
	s = find(argv[1]);
	if (!s)
		return unknown(argv[1]);
	return s->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	int rc;

	oq_cli_stdout_watch();
	rc = run(argc, argv);
	return oq_cli_stdout_done(argc > 1 ? argv[1] : "", rc);
}
