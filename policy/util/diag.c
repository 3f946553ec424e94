// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Diagnostics collector: see include/osmqos/diag.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/diag.h>

#define OQ_DIAGS_DEFAULT_MAX 1000

void oq_diags_init(struct oq_diags *d)
{
	memset(d, 0, sizeof(*d));
}

void oq_diags_clear(struct oq_diags *d)
{
	size_t max = d->max;

	oq_diags_free(d);
	d->max = max;
}

void oq_diags_free(struct oq_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].msg);
		free(d->v[i].hint);
	}
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/*
 * Messages quote names taken from the policy file, which may hold any
 * byte: control characters become \xNN so a junk file cannot write raw
 * escape sequences into OpenSM's log or a terminal.
 */
static char *escape_controls(char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0, i, j;
	char *out;

	for (i = 0; s[i]; i++)
		n += (unsigned char)s[i] < 0x20 || s[i] == 0x7f;
	if (!n)
		return s;
	out = malloc(i + 3 * n + 1);
	if (!out) {
		for (j = 0; s[j]; j++)
			if ((unsigned char)s[j] < 0x20 || s[j] == 0x7f)
				s[j] = '?';
		return s;
	}
	for (i = j = 0; s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f) {
			out[j++] = '\\';
			out[j++] = 'x';
			out[j++] = hex[c >> 4];
			out[j++] = hex[c & 0xf];
		} else {
			out[j++] = (char)c;
		}
	}
	out[j] = '\0';
	free(s);
	return out;
}

static char *vformat(const char *fmt, va_list ap)
{
	va_list aq;
	char *s;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return NULL;
	s = malloc((size_t)n + 1);
	if (!s)
		return NULL;
	vsnprintf(s, (size_t)n + 1, fmt, ap);
	return escape_controls(s);
}

struct oq_diag *oq_diag_vadd(struct oq_diags *d, enum oq_severity sev,
			     struct oq_loc loc, const char *fmt, va_list ap)
{
	size_t max = d->max ? d->max : OQ_DIAGS_DEFAULT_MAX;
	struct oq_diag *diag;

	/* Counts stay exact even when the list itself is capped. */
	if (sev == OQ_SEV_ERROR)
		d->n_errors++;
	else if (sev == OQ_SEV_WARNING)
		d->n_warnings++;

	if (d->n >= max) {
		d->n_dropped++;
		return NULL;
	}
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		struct oq_diag *v = realloc(d->v, cap * sizeof(*v));

		if (!v) {
			d->n_dropped++;
			return NULL;
		}
		d->v = v;
		d->cap = cap;
	}
	diag = &d->v[d->n];
	diag->sev = sev;
	diag->loc = loc;
	diag->hint = NULL;
	diag->msg = vformat(fmt, ap);
	if (!diag->msg) {
		d->n_dropped++;
		return NULL;
	}
	d->n++;
	return diag;
}

struct oq_diag *oq_diag_add(struct oq_diags *d, enum oq_severity sev,
			    struct oq_loc loc, const char *fmt, ...)
{
	struct oq_diag *diag;
	va_list ap;

	va_start(ap, fmt);
	diag = oq_diag_vadd(d, sev, loc, fmt, ap);
	va_end(ap);
	return diag;
}

void oq_diag_hint(struct oq_diag *diag, const char *fmt, ...)
{
	va_list ap;

	if (!diag)
		return;
	va_start(ap, fmt);
	free(diag->hint);
	diag->hint = vformat(fmt, ap);
	va_end(ap);
}

static int loc_cmp(const struct oq_loc *a, const struct oq_loc *b)
{
	int c;

	if (a->file != b->file) {
		c = strcmp(a->file ? a->file : "", b->file ? b->file : "");
		if (c)
			return c;
	}
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->col != b->col)
		return a->col < b->col ? -1 : 1;
	return 0;
}

void oq_diags_sort(struct oq_diags *d)
{
	size_t i, j;

	/* Insertion sort: stable, and diagnostic lists are short. */
	for (i = 1; i < d->n; i++) {
		struct oq_diag tmp = d->v[i];

		for (j = i; j > 0 && loc_cmp(&d->v[j - 1].loc, &tmp.loc) > 0;
		     j--)
			d->v[j] = d->v[j - 1];
		d->v[j] = tmp;
	}
}

static const char *sev_name(enum oq_severity sev)
{
	switch (sev) {
	case OQ_SEV_ERROR:
		return "error";
	case OQ_SEV_WARNING:
		return "warning";
	default:
		return "note";
	}
}

int oq_diag_format(const struct oq_diag *diag, char *buf, size_t len)
{
	const char *file = diag->loc.file ? diag->loc.file : "<input>";

	if (diag->loc.line == 0)
		return snprintf(buf, len, "%s: %s: %s", file,
				sev_name(diag->sev), diag->msg);
	if (diag->loc.col == 0)
		return snprintf(buf, len, "%s:%u: %s: %s", file, diag->loc.line,
				sev_name(diag->sev), diag->msg);
	return snprintf(buf, len, "%s:%u:%u: %s: %s", file, diag->loc.line,
			diag->loc.col, sev_name(diag->sev), diag->msg);
}

void oq_diags_print(const struct oq_diags *d, void *stdio_file)
{
	FILE *f = stdio_file;
	char buf[1024];
	size_t i;

	for (i = 0; i < d->n; i++) {
		oq_diag_format(&d->v[i], buf, sizeof(buf));
		fprintf(f, "%s\n", buf);
		if (d->v[i].hint)
			fprintf(f, "  hint: %s\n", d->v[i].hint);
	}
	if (d->n_dropped)
		fprintf(f, "(%zu more diagnostics not shown)\n", d->n_dropped);
}

void oq_loc_format(const struct oq_loc *loc, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%u:%u", loc->file ? loc->file : "?", loc->line,
		 loc->col);
}
