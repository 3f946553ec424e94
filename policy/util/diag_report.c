// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The diagnostics report (diag.h): root causes in order of position, what
 * follows from each folded under it, each kind capped with a count.  The
 * text and the JSON report show the same diagnostics: both walk one plan.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/diag.h>
#include <osmqos/json.h>

#define NONE ((size_t)-1)

struct plan {
	size_t n;
	size_t *root;	/* per diagnostic: the index of its root cause */
	size_t *kind;	/* per diagnostic: its index in d->tally */
	bool *shown;	/* roots the report prints */
	size_t *more;	/* per shown root: "and N more like it" after it */
	size_t *first;	/* per root: start of its consequences in conseq */
	size_t *conseq; /* indices of consequences, by root, by position */
	size_t *orphan; /* per kind: left out with no root shown to say so */
};

static void plan_free(struct plan *pl)
{
	free(pl->root);
	free(pl->kind);
	free(pl->shown);
	free(pl->more);
	free(pl->first);
	free(pl->conseq);
	free(pl->orphan);
}

static size_t kind_index(const struct oq_diags *d, const char *kind)
{
	size_t k;

	for (k = 0; k < d->n_tally; k++)
		if (d->tally[k].kind == kind)
			return k;
	return NONE;
}

static int plan_build(const struct oq_diags *d, bool all, struct plan *pl)
{
	size_t n = d->n, nk = d->n_tally + 1, i, k, *by_id = NULL;
	size_t *roots_of = NULL, *seen = NULL, *last = NULL;
	unsigned int id;

	memset(pl, 0, sizeof(*pl));
	pl->n = n;
	pl->root = calloc(n + 1, sizeof(size_t));
	pl->kind = calloc(n + 1, sizeof(size_t));
	pl->shown = calloc(n + 1, sizeof(bool));
	pl->more = calloc(n + 1, sizeof(size_t));
	pl->first = calloc(n + 2, sizeof(size_t));
	pl->conseq = calloc(n + 1, sizeof(size_t));
	pl->orphan = calloc(nk, sizeof(size_t));
	by_id = calloc((size_t)d->next_id + 1, sizeof(size_t));
	roots_of = calloc(nk, sizeof(size_t));
	seen = calloc(nk, sizeof(size_t));
	last = calloc(nk, sizeof(size_t));
	if (!pl->root || !pl->kind || !pl->shown || !pl->more || !pl->first ||
	    !pl->conseq || !pl->orphan || !by_id || !roots_of || !seen || !last)
		goto oom;
	for (id = 0; id <= d->next_id; id++)
		by_id[id] = NONE;
	for (i = 0; i < n; i++)
		if (d->v[i].id <= d->next_id)
			by_id[d->v[i].id] = i;
	/* A cause has a smaller id than what follows from it: in id order
	 * every cause's root is known before it is needed. */
	for (id = 1; id <= d->next_id; id++) {
		size_t c;

		i = by_id[id];
		if (i == NONE)
			continue;
		c = d->v[i].cause && d->v[i].cause < id ? by_id[d->v[i].cause]
							: NONE;
		pl->root[i] = c == NONE ? i : pl->root[c];
	}
	for (i = 0; i < n; i++) {
		k = kind_index(d, d->v[i].kind);
		pl->kind[i] = k == NONE ? d->n_tally : k;
		if (pl->root[i] == i)
			roots_of[pl->kind[i]]++;
		else
			pl->first[pl->root[i] + 1]++;
	}
	for (i = 0; i < n; i++)
		pl->first[i + 1] += pl->first[i];
	pl->first[n + 1] = pl->first[n];
	{
		size_t *fill = calloc(n + 1, sizeof(size_t));

		if (!fill)
			goto oom;
		for (i = 0; i < n; i++)
			if (pl->root[i] != i)
				pl->conseq[pl->first[pl->root[i]] +
					   fill[pl->root[i]]++] = i;
		free(fill);
	}
	for (k = 0; k < nk; k++)
		last[k] = NONE;
	for (i = 0; i < n; i++) {
		if (pl->root[i] != i)
			continue;
		k = pl->kind[i];
		if (!all && seen[k] >= OQ_DIAGS_SHOWN)
			continue;
		seen[k]++;
		pl->shown[i] = true;
		last[k] = i;
	}
	for (k = 0; k < nk; k++) {
		size_t rest = roots_of[k] - seen[k];

		if (k < d->n_tally)
			rest += d->tally[k].n - d->tally[k].kept;
		if (!rest)
			continue;
		if (last[k] != NONE)
			pl->more[last[k]] = rest;
		else
			pl->orphan[k] = rest;
	}
	free(by_id);
	free(roots_of);
	free(seen);
	free(last);
	return 0;
oom:
	free(by_id);
	free(roots_of);
	free(seen);
	free(last);
	plan_free(pl);
	return -1;
}

/* 21990 as "21,990". */
static const char *count_text(size_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%zu", v), i, j = 0;

	for (i = 0; i < n && (size_t)j + 1 < len; i++) {
		if (i && (n - i) % 3 == 0 && (size_t)j + 2 < len)
			buf[j++] = ',';
		buf[j++] = tmp[i];
	}
	buf[j] = '\0';
	return buf;
}

static void print_one(FILE *f, const struct oq_diag *g, const char *prefix)
{
	char buf[1024];

	oq_diag_format(g, buf, sizeof(buf));
	fprintf(f, "%s%s\n", prefix, buf);
}

static void print_followers(FILE *f, const struct oq_diags *d,
			    const struct plan *pl, size_t r, bool all,
			    const char *how_all)
{
	size_t a = pl->first[r], b = pl->first[r + 1], j, errs = 0, warns = 0;
	char c1[32], c2[32];

	if (a == b)
		return;
	if (all) {
		for (j = a; j < b; j++)
			print_one(f, &d->v[pl->conseq[j]],
				  "  follows from it: ");
		return;
	}
	for (j = a; j < b; j++) {
		if (d->v[pl->conseq[j]].sev == OQ_SEV_ERROR)
			errs++;
		else
			warns++;
	}
	count_text(errs, c1, sizeof(c1));
	count_text(warns, c2, sizeof(c2));
	if (errs && warns)
		fprintf(f, "  %s more error%s and %s warning%s follow from it",
			c1, errs == 1 ? "" : "s", c2, warns == 1 ? "" : "s");
	else
		fprintf(f, "  %s more %s%s follow%s from it", errs ? c1 : c2,
			errs ? "error" : "warning",
			(errs ? errs : warns) == 1 ? "" : "s",
			(errs ? errs : warns) == 1 ? "s" : "");
	fprintf(f, "%s%s\n", how_all ? "; " : "", how_all ? how_all : "");
}

static void print_plain(const struct oq_diags *d, FILE *f)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		print_one(f, &d->v[i], "");
		if (d->v[i].hint)
			fprintf(f, "  hint: %s\n", d->v[i].hint);
	}
	if (d->n_dropped)
		fprintf(f, "(%zu more diagnostics not kept)\n", d->n_dropped);
}

void oq_diags_report(const struct oq_diags *d, void *stdio_file, bool all,
		     const char *how_all)
{
	FILE *f = stdio_file;
	const char **last_hint;
	struct plan pl;
	size_t i, k;
	char cnt[32];

	last_hint = calloc(d->n_tally + 1, sizeof(*last_hint));
	if (!last_hint || plan_build(d, all, &pl)) {
		free(last_hint);
		print_plain(d, f);
		return;
	}
	for (i = 0; i < d->n; i++) {
		const struct oq_diag *g = &d->v[i];

		if (!pl.shown[i])
			continue;
		print_one(f, g, "");
		k = pl.kind[i];
		/* The same hint again for the next one of a kind says
		 * nothing new. */
		if (g->hint && (!last_hint[k] || strcmp(last_hint[k], g->hint)))
			fprintf(f, "  hint: %s\n", g->hint);
		last_hint[k] = g->hint;
		print_followers(f, d, &pl, i, all, how_all);
		if (pl.more[i])
			fprintf(f, "  and %s more like it%s%s\n",
				count_text(pl.more[i], cnt, sizeof(cnt)),
				all	  ? " (not kept)"
				: how_all ? "; "
					  : "",
				all || !how_all ? "" : how_all);
	}
	for (k = 0; k < d->n_tally; k++)
		if (pl.orphan[k]) {
			char code[64];

			oq_diag_code_of(d->tally[k].kind, code, sizeof(code));
			fprintf(f,
				"(%s more diagnostics of kind %s not kept)\n",
				count_text(pl.orphan[k], cnt, sizeof(cnt)),
				code);
		}
	plan_free(&pl);
	free(last_hint);
}

void oq_diags_print(const struct oq_diags *d, void *stdio_file)
{
	oq_diags_report(d, stdio_file, true, NULL);
}

size_t oq_diags_roots(const struct oq_diags *d, enum oq_severity sev)
{
	struct plan pl;
	size_t i, n = 0;

	if (plan_build(d, true, &pl)) {
		for (i = 0; i < d->n; i++)
			n += d->v[i].sev == sev;
		return n;
	}
	for (i = 0; i < d->n; i++)
		n += pl.root[i] == i && d->v[i].sev == sev;
	plan_free(&pl);
	return n;
}

static void json_one(FILE *f, const struct oq_diags *d, const struct plan *pl,
		     size_t i, bool *first)
{
	const struct oq_diag *g = &d->v[i];
	char code[64];

	fprintf(f, "%s\n    {\"id\": %u, \"file\": ", *first ? "" : ",", g->id);
	*first = false;
	oq_json_fstring(f, g->loc.file);
	fprintf(f,
		", \"line\": %u, \"col\": %u, \"severity\": \"%s\", "
		"\"code\": ",
		g->loc.line, g->loc.col, oq_severity_name(g->sev));
	oq_json_fstring(f, oq_diag_code(g, code, sizeof(code)));
	fputs(", \"message\": ", f);
	oq_json_fstring(f, g->msg);
	fputs(", \"hint\": ", f);
	oq_json_fstring(f, g->hint);
	if (pl->root[i] == i)
		fputs(", \"cause\": null}", f);
	else
		fprintf(f, ", \"cause\": %u}", d->v[pl->root[i]].id);
}

void oq_diags_write_json(const struct oq_diags *d, void *stdio_file, bool all)
{
	FILE *f = stdio_file;
	bool first = true;
	struct plan pl;
	size_t i, j, k, *omit;

	omit = calloc(d->n_tally + 1, sizeof(*omit));
	if (!omit || plan_build(d, all, &pl)) {
		free(omit);
		fputs("\"diagnostics\": [], \"omitted\": [], "
		      "\"error\": \"out of memory\"",
		      f);
		return;
	}
	fputs("\"diagnostics\": [", f);
	for (i = 0; i < d->n; i++) {
		if (!pl.shown[i])
			continue;
		json_one(f, d, &pl, i, &first);
		for (j = pl.first[i]; j < pl.first[i + 1]; j++)
			json_one(f, d, &pl, pl.conseq[j], &first);
		if (pl.more[i])
			omit[pl.kind[i]] += pl.more[i];
	}
	fputs(first ? "],\n" : "\n  ],\n", f);
	fputs("  \"omitted\": [", f);
	first = true;
	for (k = 0; k < d->n_tally; k++) {
		char code[64];
		size_t n = omit[k] + pl.orphan[k];

		if (!n)
			continue;
		oq_diag_code_of(d->tally[k].kind, code, sizeof(code));
		fprintf(f, "%s{\"code\": ", first ? "" : ", ");
		oq_json_fstring(f, code);
		fprintf(f, ", \"count\": %zu}", n);
		first = false;
	}
	fputs("]", f);
	plan_free(&pl);
	free(omit);
}
