// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Strict Prometheus text-format (0.0.4) checker; see publish_promcheck.h.
 * Written independently of plugin/documents/publish_prom.c so it is an oracle for
 * it, not a mirror: it parses the text the way the format defines it.
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "publish_promcheck.h"

enum ftype { F_NONE, F_COUNTER, F_GAUGE, F_HISTOGRAM, F_SUMMARY, F_UNTYPED };

struct family {
	char *name;
	enum ftype type;
	bool help, typed, samples, closed;
};

struct hgroup { /* one histogram series (its labels without le) */
	char *key;
	double last_le;
	double last_count, inf_count, count;
	bool any_bucket, has_inf, has_sum, has_count;
};

struct label {
	char name[128];
	char *value;
};

struct ck {
	char *err;
	size_t errlen;
	unsigned long line;
	struct family *fam;
	size_t n_fam;
	size_t cur; /* family whose lines we are in, SIZE_MAX: none */
	char **series;
	size_t n_series;
	struct hgroup *hg;
	size_t n_hg;
	long samples;
};

static int fail(struct ck *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct ck *c, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(c->err, c->errlen, "line %lu: %s", c->line, msg);
	return -1;
}

static bool utf8_ok(const unsigned char *s, size_t n)
{
	size_t i = 0, k, len;
	unsigned int cp;

	while (i < n) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if (s[i] >= 0xc2 && s[i] <= 0xdf)
			len = 2, cp = s[i] & 0x1f;
		else if (s[i] >= 0xe0 && s[i] <= 0xef)
			len = 3, cp = s[i] & 0x0f;
		else if (s[i] >= 0xf0 && s[i] <= 0xf4)
			len = 4, cp = s[i] & 0x07;
		else
			return false;
		if (i + len > n)
			return false;
		for (k = 1; k < len; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = (cp << 6) | (s[i + k] & 0x3f);
		}
		if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
		    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
			return false;
		i += len;
	}
	return true;
}

static bool name_start(char ch, bool colon)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       ch == '_' || (colon && ch == ':');
}

static bool name_char(char ch, bool colon)
{
	return name_start(ch, colon) || (ch >= '0' && ch <= '9');
}

/* Length of a metric (colon) or label name at s, 0 if none. */
static size_t name_len(const char *s, size_t n, bool colon)
{
	size_t i = 0;

	if (!n || !name_start(s[0], colon))
		return 0;
	while (i < n && name_char(s[i], colon))
		i++;
	return i;
}

/* Go strconv.ParseFloat's text forms the format accepts. */
static bool parse_float(const char *s, size_t n, double *v)
{
	char buf[64], *end;
	size_t i = 0, digits = 0;

	if (!n || n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!strcmp(buf, "NaN")) {
		*v = NAN;
		return true;
	}
	if (!strcmp(buf, "+Inf") || !strcmp(buf, "Inf")) {
		*v = INFINITY;
		return true;
	}
	if (!strcmp(buf, "-Inf")) {
		*v = -INFINITY;
		return true;
	}
	if (buf[i] == '+' || buf[i] == '-')
		i++;
	while (buf[i] >= '0' && buf[i] <= '9')
		i++, digits++;
	if (buf[i] == '.') {
		i++;
		while (buf[i] >= '0' && buf[i] <= '9')
			i++, digits++;
	}
	if (!digits)
		return false;
	if (buf[i] == 'e' || buf[i] == 'E') {
		i++;
		if (buf[i] == '+' || buf[i] == '-')
			i++;
		if (!(buf[i] >= '0' && buf[i] <= '9'))
			return false;
		while (buf[i] >= '0' && buf[i] <= '9')
			i++;
	}
	if (buf[i])
		return false;
	*v = strtod(buf, &end);
	return *end == '\0';
}

static struct family *find_family(struct ck *c, const char *name, size_t n,
				  size_t *idx)
{
	size_t i;

	for (i = 0; i < c->n_fam; i++)
		if (strlen(c->fam[i].name) == n &&
		    !memcmp(c->fam[i].name, name, n)) {
			if (idx)
				*idx = i;
			return &c->fam[i];
		}
	return NULL;
}

/* Enter family idx: the previous one closes for good. */
static int enter(struct ck *c, size_t idx)
{
	if (c->cur == idx)
		return 0;
	if (c->fam[idx].closed)
		return fail(c, "lines of family %s are not together",
			    c->fam[idx].name);
	if (c->cur < c->n_fam)
		c->fam[c->cur].closed = true;
	c->cur = idx;
	return 0;
}

static int get_family(struct ck *c, const char *name, size_t n, size_t *idx)
{
	struct family *f = find_family(c, name, n, idx), *v;

	if (f)
		return enter(c, *idx);
	v = realloc(c->fam, (c->n_fam + 1) * sizeof(*v));
	if (!v)
		return fail(c, "out of memory");
	c->fam = v;
	f = &c->fam[c->n_fam];
	memset(f, 0, sizeof(*f));
	f->name = strndup(name, n);
	if (!f->name)
		return fail(c, "out of memory");
	*idx = c->n_fam++;
	return enter(c, *idx);
}

static int comment(struct ck *c, const char *s, size_t n)
{
	bool help = n > 7 && !memcmp(s, "# HELP ", 7);
	bool type = n > 7 && !memcmp(s, "# TYPE ", 7);
	const char *p = s + 7, *rest;
	size_t nl, idx = 0, i;
	struct family *f;

	if (!help && !type)
		return 0; /* a plain comment */
	nl = name_len(p, n - 7, true);
	if (!nl)
		return fail(c, "bad metric name after # %s",
			    help ? "HELP" : "TYPE");
	if (get_family(c, p, nl, &idx))
		return -1;
	f = &c->fam[idx];
	rest = p + nl;
	n -= 7 + nl;
	if (help) {
		if (f->help)
			return fail(c, "second HELP for %s", f->name);
		if (n && *rest != ' ')
			return fail(c, "no space after the HELP name");
		for (i = 1; i < n; i++)
			if (rest[i] == '\\' &&
			    (i + 1 >= n ||
			     (rest[i + 1] != '\\' && rest[i + 1] != 'n')))
				return fail(c, "bad escape in HELP of %s",
					    f->name);
			else if (rest[i] == '\\')
				i++;
		f->help = true;
		return 0;
	}
	if (f->typed)
		return fail(c, "second TYPE for %s", f->name);
	if (f->samples)
		return fail(c, "TYPE for %s after its samples", f->name);
	if (n < 2 || *rest != ' ')
		return fail(c, "TYPE %s has no type", f->name);
	rest++;
	n--;
#define IS(t) (n == strlen(t) && !memcmp(rest, t, n))
	f->type = IS("counter")	    ? F_COUNTER
		  : IS("gauge")	    ? F_GAUGE
		  : IS("histogram") ? F_HISTOGRAM
		  : IS("summary")   ? F_SUMMARY
		  : IS("untyped")   ? F_UNTYPED
				    : F_NONE;
#undef IS
	if (f->type == F_NONE)
		return fail(c, "unknown TYPE for %s", f->name);
	if (f->type == F_COUNTER &&
	    (strlen(f->name) < 6 ||
	     strcmp(f->name + strlen(f->name) - 6, "_total")))
		return fail(c, "counter %s does not end in _total", f->name);
	f->typed = true;
	return 0;
}

static int label_cmp(const void *a, const void *b)
{
	return strcmp(((const struct label *)a)->name,
		      ((const struct label *)b)->name);
}

/* "name|l1=v1|l2=v2" over sorted labels, skipping skip (may be NULL). */
static char *series_key(const char *name, struct label *l, size_t n,
			const char *skip)
{
	size_t len = strlen(name) + 1, i;
	char *k;

	for (i = 0; i < n; i++)
		len += strlen(l[i].name) + strlen(l[i].value) + 3;
	k = malloc(len);
	if (!k)
		return NULL;
	strcpy(k, name);
	for (i = 0; i < n; i++) {
		if (skip && !strcmp(l[i].name, skip))
			continue;
		strcat(k, "|");
		strcat(k, l[i].name);
		strcat(k, "=");
		strcat(k, l[i].value);
	}
	return k;
}

static int parse_labels(struct ck *c, const char *s, size_t n, size_t *pos,
			struct label *l, size_t *nl, size_t max)
{
	size_t i = *pos + 1, k, j;

	*nl = 0;
	while (i < n && s[i] != '}') {
		char *v;

		k = name_len(s + i, n - i, false);
		if (!k || k >= sizeof(l->name))
			return fail(c, "bad label name");
		if (*nl == max)
			return fail(c, "too many labels");
		memcpy(l[*nl].name, s + i, k);
		l[*nl].name[k] = '\0';
		if (!strncmp(l[*nl].name, "__", 2))
			return fail(c, "reserved label name %s", l[*nl].name);
		for (j = 0; j < *nl; j++)
			if (!strcmp(l[j].name, l[*nl].name))
				return fail(c, "label %s twice", l[j].name);
		i += k;
		if (i + 1 >= n || s[i] != '=' || s[i + 1] != '"')
			return fail(c, "label %s: expected =\"", l[*nl].name);
		i += 2;
		v = malloc(n - i + 1);
		if (!v)
			return fail(c, "out of memory");
		k = 0;
		while (i < n && s[i] != '"') {
			if (s[i] == '\\') {
				if (i + 1 >= n ||
				    (s[i + 1] != '\\' && s[i + 1] != '"' &&
				     s[i + 1] != 'n')) {
					free(v);
					return fail(c, "bad escape in label "
						       "value");
				}
				v[k++] = s[i + 1] == 'n' ? '\n' : s[i + 1];
				i += 2;
				continue;
			}
			v[k++] = s[i++];
		}
		v[k] = '\0';
		l[(*nl)++].value = v;
		if (i >= n)
			return fail(c, "unterminated label value");
		i++;
		if (i < n && s[i] == ',')
			i++;
		else if (i < n && s[i] != '}')
			return fail(c, "expected , or } after a label");
	}
	if (i >= n)
		return fail(c, "unterminated label set");
	*pos = i + 1;
	return 0;
}

static struct hgroup *hist_group(struct ck *c, char *key)
{
	struct hgroup *v;
	size_t i;

	for (i = 0; i < c->n_hg; i++)
		if (!strcmp(c->hg[i].key, key)) {
			free(key);
			return &c->hg[i];
		}
	v = realloc(c->hg, (c->n_hg + 1) * sizeof(*v));
	if (!v) {
		free(key);
		return NULL;
	}
	c->hg = v;
	memset(&c->hg[c->n_hg], 0, sizeof(*v));
	c->hg[c->n_hg].key = key;
	c->hg[c->n_hg].last_le = -INFINITY;
	return &c->hg[c->n_hg++];
}

static const char *suffix_of(const char *name, size_t n, size_t *base)
{
	static const char *const sfx[] = {"_bucket", "_sum", "_count"};
	size_t i, l;

	for (i = 0; i < 3; i++) {
		l = strlen(sfx[i]);
		if (n > l && !memcmp(name + n - l, sfx[i], l)) {
			*base = n - l;
			return sfx[i];
		}
	}
	return NULL;
}

static int histogram_sample(struct ck *c, struct family *f, const char *sfx,
			    struct label *l, size_t nl, double v)
{
	const char *le = NULL;
	struct hgroup *g;
	double bound;
	size_t i;

	for (i = 0; i < nl; i++)
		if (!strcmp(l[i].name, "le"))
			le = l[i].value;
	if (!sfx)
		return fail(c,
			    "histogram %s: sample without _bucket/_sum/"
			    "_count",
			    f->name);
	if (!strcmp(sfx, "_bucket") != !!le)
		return fail(c, "histogram %s: le goes on _bucket only",
			    f->name);
	g = hist_group(c, series_key(f->name, l, nl, "le"));
	if (!g)
		return fail(c, "out of memory");
	if (!strcmp(sfx, "_sum")) {
		g->has_sum = true;
		return 0;
	}
	if (isnan(v) || v < 0 || v != floor(v))
		return fail(c, "histogram %s: count %g is not a whole number",
			    f->name, v);
	if (!strcmp(sfx, "_count")) {
		g->has_count = true;
		g->count = v;
		return 0;
	}
	if (!parse_float(le, strlen(le), &bound) || isnan(bound))
		return fail(c, "histogram %s: bad le \"%s\"", f->name, le);
	if (g->has_inf || (g->any_bucket && bound <= g->last_le))
		return fail(c, "histogram %s: le %s not increasing", f->name,
			    le);
	if (g->any_bucket && v < g->last_count)
		return fail(c, "histogram %s: bucket le=%s not cumulative",
			    f->name, le);
	g->any_bucket = true;
	g->last_le = bound;
	g->last_count = v;
	if (isinf(bound)) {
		g->has_inf = true;
		g->inf_count = v;
	}
	return 0;
}

static int sample(struct ck *c, const char *s, size_t n)
{
	struct label l[32];
	size_t nm = name_len(s, n, true), pos, nl = 0, idx, base, i, t;
	const char *sfx = NULL;
	struct family *f;
	double v;
	char *key;
	int rc = -1;

	if (!nm)
		return fail(c, "bad metric name");
	f = find_family(c, s, nm, &idx);
	if (!f && (sfx = suffix_of(s, nm, &base)))
		f = find_family(c, s, base, &idx);
	if (!f)
		return fail(c, "sample %.*s without HELP and TYPE", (int)nm, s);
	if (f->type != F_HISTOGRAM && f->type != F_SUMMARY) {
		sfx = NULL;
		if (strlen(f->name) != nm)
			return fail(c, "sample %.*s without HELP and TYPE",
				    (int)nm, s);
	}
	if (!f->help || !f->typed)
		return fail(c, "%s needs HELP and TYPE before its samples",
			    f->name);
	if (enter(c, idx))
		return -1;
	f->samples = true;
	pos = nm;
	if (pos < n && s[pos] == '{' && parse_labels(c, s, n, &pos, l, &nl, 32))
		goto out;
	if (pos >= n || (s[pos] != ' ' && s[pos] != '\t')) {
		fail(c, "expected a space before the value");
		goto out;
	}
	while (pos < n && (s[pos] == ' ' || s[pos] == '\t'))
		pos++;
	for (t = pos; t < n && s[t] != ' ' && s[t] != '\t'; t++)
		;
	if (!parse_float(s + pos, t - pos, &v)) {
		fail(c, "bad value \"%.*s\"", (int)(t - pos), s + pos);
		goto out;
	}
	while (t < n && (s[t] == ' ' || s[t] == '\t'))
		t++;
	if (t < n) { /* a timestamp: an integer */
		i = t + (s[t] == '-');
		if (i >= n) {
			fail(c, "bad timestamp");
			goto out;
		}
		for (; i < n; i++)
			if (s[i] < '0' || s[i] > '9') {
				fail(c, "bad timestamp");
				goto out;
			}
	}
	if (f->type == F_COUNTER && (isnan(v) || v < 0)) {
		fail(c, "counter %s is %g", f->name, v);
		goto out;
	}
	qsort(l, nl, sizeof(l[0]), label_cmp);
	{
		char nbuf[256];

		snprintf(nbuf, sizeof(nbuf), "%.*s", (int)nm, s);
		key = series_key(nbuf, l, nl, NULL);
	}
	if (!key) {
		fail(c, "out of memory");
		goto out;
	}
	for (i = 0; i < c->n_series; i++)
		if (!strcmp(c->series[i], key)) {
			free(key);
			fail(c, "series %.*s{...} appears twice", (int)nm, s);
			goto out;
		}
	{
		char **sv = realloc(c->series, (c->n_series + 1) * sizeof(*sv));

		if (!sv) {
			free(key);
			fail(c, "out of memory");
			goto out;
		}
		c->series = sv;
		c->series[c->n_series++] = key;
	}
	if (f->type == F_HISTOGRAM && histogram_sample(c, f, sfx, l, nl, v))
		goto out;
	c->samples++;
	rc = 0;
out:
	for (i = 0; i < nl; i++)
		free(l[i].value);
	return rc;
}

static int finish(struct ck *c)
{
	size_t i;

	for (i = 0; i < c->n_hg; i++) {
		struct hgroup *g = &c->hg[i];

		if (!g->has_inf || !g->has_sum || !g->has_count)
			return fail(c, "histogram series %s lacks %s", g->key,
				    !g->has_inf	  ? "le=\"+Inf\""
				    : !g->has_sum ? "_sum"
						  : "_count");
		if (g->inf_count != g->count)
			return fail(c,
				    "histogram series %s: +Inf bucket %g "
				    "!= _count %g",
				    g->key, g->inf_count, g->count);
	}
	for (i = 0; i < c->n_fam; i++)
		if (!c->fam[i].samples && !c->fam[i].typed)
			return fail(c, "HELP for %s without TYPE",
				    c->fam[i].name);
	return 0;
}

long oq_promcheck(const char *text, size_t len, char *err, size_t errlen)
{
	struct ck c = {.err = err, .errlen = errlen};
	size_t pos = 0, i;
	int rc = 0;

	c.cur = (size_t)-1;
	if (!utf8_ok((const unsigned char *)text, len)) {
		snprintf(err, errlen, "not valid UTF-8");
		return -1;
	}
	if (len && text[len - 1] != '\n') {
		snprintf(err, errlen, "does not end in a newline");
		return -1;
	}
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "contains a NUL byte");
		return -1;
	}
	while (pos < len && !rc) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = (size_t)(nl - (text + pos));

		c.line++;
		if (n && text[pos] == '#')
			rc = comment(&c, text + pos, n);
		else if (n && strspn(text + pos, " \t") < n)
			rc = sample(&c, text + pos, n);
		pos += n + 1;
	}
	if (!rc)
		rc = finish(&c);
	for (i = 0; i < c.n_fam; i++)
		free(c.fam[i].name);
	free(c.fam);
	for (i = 0; i < c.n_series; i++)
		free(c.series[i]);
	free(c.series);
	for (i = 0; i < c.n_hg; i++)
		free(c.hg[i].key);
	free(c.hg);
	return rc ? -1 : c.samples;
}
