// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * --help and --version of every subcommand, written from its option
 * table alone (cli_opts.h): the usage lines, then each option with its
 * letter, argument and help, wrapped to 79 columns.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/osm_release.h>

#include "cli.h"
#include "cli_opts.h"
#include "cli_opts_int.h"

#define HELP_WIDTH  79
#define OPT_COL_MAX 26

/* Words of text from column col on, continuation lines at indent; '\n'
 * breaks the line.  Returns the column after the last word. */
static size_t wrap(FILE *out, const char *text, size_t col, size_t indent)
{
	const char *p = text;
	bool first = true;

	while (*p) {
		size_t len = strcspn(p, " \n");

		if (!first && col + 1 + len > HELP_WIDTH) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, len, out);
		col += len;
		first = false;
		p += len;
		if (*p == '\n') {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
			first = true;
			p++;
		}
		while (*p == ' ')
			p++;
	}
	return col;
}

const char *oq_cli_opt_arg_text(const struct oq_opt *o)
{
	if (o->kind == OQ_OPT_PAIR)
		return o->arg ? o->arg : "A B";
	return o->arg ? o->arg : "ARG";
}

/* "-p, --policy FILE" or "    --port PORT" into buf. */
static void left_column(const struct oq_opt *o, char *buf, size_t len)
{
	int n;

	if (o->letter)
		n = snprintf(buf, len, "-%c, --%s", o->letter, o->name);
	else
		n = snprintf(buf, len, "    --%s", o->name);
	if (oq_opt_takes_arg(o) && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, " %s",
			 oq_cli_opt_arg_text(o));
}

static void usage_line(const struct oq_cmd_spec *s, const struct oq_opt *v,
		       size_t n, FILE *out)
{
	size_t indent = strlen("Usage: osmqos ") + strlen(s->name) + 1;
	size_t i, col = indent - 1;
	char buf[128];

	fprintf(out, "Usage: osmqos %s", s->name);
	for (i = 0; i < n; i++) {
		const struct oq_opt *o = &v[i];

		if (!o->name)
			continue;
		if (!(o->flags & OQ_OPT_REQUIRED))
			continue;
		if (s->operand && o->off == s->operand_off)
			snprintf(buf, sizeof(buf), "%s", s->operand);
		else if (oq_opt_takes_arg(o))
			snprintf(buf, sizeof(buf), "--%s %s", o->name,
				 oq_cli_opt_arg_text(o));
		else
			snprintf(buf, sizeof(buf), "--%s", o->name);
		fputc(' ', out);
		col = wrap(out, buf, col + 1, indent);
	}
	/* -h and -V at least are optional. */
	fputc(' ', out);
	wrap(out, "[OPTIONS]", col + 1, indent);
	fputc('\n', out);
	for (i = 0; s->forms && s->forms[i]; i++) {
		fprintf(out, "       osmqos %s ", s->name);
		wrap(out, s->forms[i], indent, indent);
		fputc('\n', out);
	}
}

/* "; also --a, --b" for the aliases "a,b". */
static void aliases(const char *alias, char *buf, size_t len)
{
	size_t n = 0;

	*buf = '\0';
	while (alias && *alias && n < len) {
		size_t k = strcspn(alias, ",");

		n += (size_t)snprintf(buf + n, len - n, "%s--%.*s",
				      n ? ", " : " (also ", (int)k, alias);
		alias += k + (alias[k] == ',');
	}
	if (*buf && n < len)
		snprintf(buf + n, len - n, ")");
}

static void option_line(const struct oq_opt *o, size_t col, FILE *out)
{
	char left[96], help[512], also[128];
	size_t len;

	left_column(o, left, sizeof(left));
	fprintf(out, "  %s", left);
	len = 2 + strlen(left);
	if (len + 2 > col)
		fprintf(out, "\n%*s", (int)col, "");
	else
		fprintf(out, "%*s", (int)(col - len), "");
	aliases(o->alias, also, sizeof(also));
	snprintf(help, sizeof(help), "%s%s%s", o->help ? o->help : "", also,
		 o->flags & OQ_OPT_REPEATABLE ? "; may be repeated" : "");
	wrap(out, help, col, col);
	fputc('\n', out);
}

void oq_cli_version(FILE *out)
{
	fprintf(out, "osmqos %s (models %s)\n", PACKAGE_VERSION,
		oq_osm_release()->name);
}

void oq_cli_usage(const struct oq_cmd_spec *s, FILE *out)
{
	static const struct oq_opt help =
		OQ_OPT("help", 'h', OQ_OPT_FLAG, NULL, "this text", 0);
	static const struct oq_opt version = OQ_OPT(
		"version", 'V', OQ_OPT_FLAG, NULL, "osmqos's version", 0);
	struct oq_opt *v;
	size_t n, i, col = 0;
	bool stdin_ok = false;
	char left[96];

	v = oq_cli_opts_resolve(s, &n);
	if (!v) {
		fprintf(out, "osmqos %s: out of memory\n", s->name);
		return;
	}
	usage_line(s, v, n, out);
	if (s->about) {
		fputc('\n', out);
		wrap(out, s->about, 0, 0);
		fputc('\n', out);
	}
	for (i = 0; i < n; i++) {
		if (!v[i].name)
			continue;
		left_column(&v[i], left, sizeof(left));
		if (2 + strlen(left) + 2 <= OPT_COL_MAX &&
		    2 + strlen(left) + 2 > col)
			col = 2 + strlen(left) + 2;
		stdin_ok |= v[i].kind == OQ_OPT_INPUT;
	}
	if (col < 20)
		col = 20;
	fprintf(out, "\nOptions:\n");
	for (i = 0; i < n; i++) {
		if (oq_opt_is_heading(&v[i]))
			fprintf(out, "%s\n", v[i].help);
		else
			option_line(&v[i], col, out);
	}
	option_line(&help, col, out);
	option_line(&version, col, out);
	fputc('\n', out);
	if (s->notes) {
		wrap(out, s->notes, 0, 0);
		fputc('\n', out);
	}
	if (stdin_ok)
		fprintf(out,
			"A FILE or TOPO of '-' is read from standard input "
			"(one of them at most).\n");
	fprintf(out, "Exit status: ");
	wrap(out, s->exit_status, strlen("Exit status: "), 0);
	fputc('\n', out);
	free(v);
}
