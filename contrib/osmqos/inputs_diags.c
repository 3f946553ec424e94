// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The diagnostics of a command's inputs on standard error, and the
 * command that shows what the report folds.  See inputs.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inputs.h"

/* One argument as a shell reads it back: as it is when that is safe,
 * else in double quotes. */
static size_t put_arg(char *buf, const char *s)
{
	size_t n = 0;
	const char *p;

	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwx"
			    "yz0123456789_./:=+,@%-") == strlen(s)) {
		n = strlen(s);
		memcpy(buf, s, n);
		return n;
	}
	buf[n++] = '"';
	for (p = s; *p; p++) {
		if (strchr("\"\\$`", *p))
			buf[n++] = '\\';
		buf[n++] = *p;
	}
	buf[n++] = '"';
	return n;
}

static size_t put_opt(char *buf, const char *opt, const char *val)
{
	size_t n;

	if (!val)
		return 0;
	n = (size_t)sprintf(buf, " %s ", opt);
	return n + put_arg(buf + n, val);
}

char *oq_cli_show_all(const struct oq_cli_common *c)
{
	const char *vals[] = {c->policy, c->fabric, c->partitions,
			      c->opensm_conf, c->node_name_map};
	size_t cap = 128, i, n;
	char *buf;

	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		cap += vals[i] ? 2 * strlen(vals[i]) + 24 : 0;
	buf = malloc(cap);
	if (!buf)
		return NULL;
	/* check shows every diagnostic of a policy on these inputs; without
	 * a policy, tables reads the same fabric, map and partitions and
	 * takes --all too. */
	n = (size_t)sprintf(buf, "'osmqos %s", c->policy ? "check" : "tables");
	if (c->policy) {
		buf[n++] = ' ';
		n += put_arg(buf + n, c->policy);
	}
	/* A fabric discovered live has no file: name the one to give. */
	n += c->fabric ? put_opt(buf + n, "--fabric", c->fabric)
		       : (size_t)sprintf(buf + n, " --fabric TOPO");
	n += put_opt(buf + n, "--partitions", c->partitions);
	n += put_opt(buf + n, "--opensm-conf", c->opensm_conf);
	n += put_opt(buf + n, "--node-name-map", c->node_name_map);
	sprintf(buf + n, " --all' shows them%s",
		c->fabric ? "" : " (TOPO: ibnetdiscover's output)");
	return buf;
}

void oq_cli_print_diags(struct oq_diags *d, bool all, const char *show_all)
{
	/* A run an error fails shows every error: folded under a warning
	 * it would be reported "above" but never seen. */
	bool fold = !all && !oq_diags_has_errors(d);

	oq_diags_sort(d);
	oq_diags_report(d, stderr, !fold, fold ? show_all : NULL);
}
