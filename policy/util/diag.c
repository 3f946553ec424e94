// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Diagnostics collector: see include/osmqos/diag.h. */
#include <stdbool.h>
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
	size_t max = d->max, max_kind = d->max_kind;

	oq_diags_free(d);
	d->max = max;
	d->max_kind = max_kind;
}

void oq_diags_free(struct oq_diags *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		free(d->v[i].msg);
		free(d->v[i].hint);
	}
	free(d->v);
	free(d->tally);
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

static struct oq_diag_tally *tally_of(struct oq_diags *d, const char *kind)
{
	struct oq_diag_tally *t;
	size_t i;

	for (i = 0; i < d->n_tally; i++)
		if (d->tally[i].kind == kind)
			return &d->tally[i];
	if (d->n_tally == d->cap_tally) {
		size_t cap = d->cap_tally ? d->cap_tally * 2 : 8;

		t = realloc(d->tally, cap * sizeof(*t));
		if (!t)
			return NULL;
		d->tally = t;
		d->cap_tally = cap;
	}
	t = &d->tally[d->n_tally++];
	t->kind = kind;
	t->n = t->kept = 0;
	return t;
}

struct oq_diag *oq_diag_vadd(struct oq_diags *d, enum oq_severity sev,
			     struct oq_loc loc, const char *fmt, va_list ap)
{
	size_t max = d->max ? d->max : OQ_DIAGS_MAX;
	size_t max_kind = d->max_kind ? d->max_kind : OQ_DIAGS_KIND_MAX;
	struct oq_diag_tally *t;
	struct oq_diag *diag;

	/* Counts stay exact even when the list itself is capped. */
	if (sev == OQ_SEV_ERROR)
		d->n_errors++;
	else if (sev == OQ_SEV_WARNING)
		d->n_warnings++;
	d->next_id++;

	t = tally_of(d, fmt);
	if (t)
		t->n++;
	if (d->n >= max || !t || t->kept >= max_kind) {
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
	diag->kind = fmt;
	diag->code = NULL;
	diag->id = d->next_id;
	diag->cause = d->cause < diag->id ? d->cause : 0;
	diag->msg = vformat(fmt, ap);
	if (!diag->msg) {
		d->n_dropped++;
		return NULL;
	}
	t->kept++;
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

static int diag_cmp(const void *a, const void *b)
{
	const struct oq_diag *x = a, *y = b;
	int c = loc_cmp(&x->loc, &y->loc);

	if (c)
		return c;
	/* Ids are unique: equal positions keep the order they came in. */
	return x->id < y->id ? -1 : x->id > y->id;
}

void oq_diags_sort(struct oq_diags *d)
{
	if (d->n > 1)
		qsort(d->v, d->n, sizeof(*d->v), diag_cmp);
}

void oq_diag_set_code(struct oq_diag *diag, const char *code)
{
	if (diag)
		diag->code = code;
}

/* Past a printf conversion starting at '%'. */
static const char *skip_conversion(const char *p)
{
	p++;
	while (*p && strchr("-+ #0123456789.*'", *p))
		p++;
	while (*p && strchr("hlLqjzt", *p))
		p++;
	return *p ? p + 1 : p;
}

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_';
}

void oq_diag_code_of(const char *fmt, char *buf, size_t len)
{
	const char *p = fmt ? fmt : "";
	size_t n = 0, words = 0;

	if (!len)
		return;
	while (*p && words < 6) {
		char c = *p;

		if (c == '%') {
			p = skip_conversion(p);
			continue;
		}
		if (c == '\'' || c == '"') {
			/* A quoted part is a name the message quotes unless
			 * its text is fixed ('sl'): only fixed words count. */
			const char *e = strchr(p + 1, c);

			if (!e)
				e = p + strlen(p);
			if (memchr(p + 1, '%', (size_t)(e - p - 1))) {
				p = *e ? e + 1 : e;
				continue;
			}
			p++;
			continue;
		}
		if ((c == ':' || c == ';' || c == '(') && words >= 3)
			break;
		if (!word_char(c) || c == '-' || c == '_') {
			p++;
			continue;
		}
		{
			const char *w = p;
			size_t wl = 0, i;

			while (word_char(w[wl]))
				wl++;
			p = w + wl;
			/* "0x%llx": a conversion's prefix, not a word. */
			if (*p == '%')
				continue;
			if (n && n + 1 < len)
				buf[n++] = '-';
			for (i = 0; i < wl && n + 1 < len; i++)
				buf[n++] = (char)(w[i] >= 'A' && w[i] <= 'Z'
							  ? w[i] - 'A' + 'a'
							  : w[i]);
			words++;
		}
	}
	/* A word may end in '-' ("0x-"): no empty parts. */
	while (n && buf[n - 1] == '-')
		n--;
	if (!n) {
		snprintf(buf, len, "diagnostic");
		return;
	}
	buf[n] = '\0';
}

const char *oq_diag_code(const struct oq_diag *diag, char *buf, size_t len)
{
	if (diag->code)
		snprintf(buf, len, "%s", diag->code);
	else
		oq_diag_code_of(diag->kind, buf, len);
	return buf;
}

const char *oq_severity_name(enum oq_severity sev)
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
				oq_severity_name(diag->sev), diag->msg);
	if (diag->loc.col == 0)
		return snprintf(buf, len, "%s:%u: %s: %s", file, diag->loc.line,
				oq_severity_name(diag->sev), diag->msg);
	return snprintf(buf, len, "%s:%u:%u: %s: %s", file, diag->loc.line,
			diag->loc.col, oq_severity_name(diag->sev), diag->msg);
}

void oq_loc_format(const struct oq_loc *loc, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%u:%u", loc->file ? loc->file : "?", loc->line,
		 loc->col);
}
