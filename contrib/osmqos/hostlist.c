// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Slurm host list expressions: see hostlist.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hostlist.h"

#define NUM_DIGITS_MAX 18 /* fits an unsigned long long with room */

struct range {
	unsigned long long lo, hi;
	int width; /* digits of the lower bound: the zero padding */
};

/* One piece of a host name pattern: literal text, then a range group. */
struct piece {
	const char *lit;
	size_t lit_len;
	struct range *r; /* NULL: no group after the literal */
	size_t n_r;
	unsigned long long count;
	/* Generation state. */
	size_t cur_r;
	unsigned long long cur;
};

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

static bool sep_char(char c)
{
	return c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void describe(char c, char *buf, size_t len)
{
	if ((unsigned char)c >= 0x21 && (unsigned char)c < 0x7f)
		snprintf(buf, len, "'%c'", c);
	else
		snprintf(buf, len, "byte 0x%02x", (unsigned char)c);
}

/* Digits at s into *v; the count of digits, 0 when none or too many. */
static size_t number(const char *s, unsigned long long *v)
{
	size_t n = 0;

	*v = 0;
	while (s[n] >= '0' && s[n] <= '9') {
		if (n == NUM_DIGITS_MAX)
			return 0;
		*v = *v * 10 + (unsigned long long)(s[n] - '0');
		n++;
	}
	return n;
}

/* The group "[...]" at expr + *pos (on '['): ranges appended to p. */
static int parse_group(const char *expr, size_t *pos, struct piece *p,
		       unsigned long long room, size_t max, char *err,
		       size_t errlen)
{
	size_t i = *pos + 1;
	char what[16];

	for (;;) {
		struct range r, *grown;
		size_t d;

		d = number(expr + i, &r.lo);
		if (!d) {
			if (expr[i] >= '0' && expr[i] <= '9')
				snprintf(err, errlen,
					 "at byte %zu: a number of more than "
					 "%d digits",
					 i + 1, NUM_DIGITS_MAX);
			else if (!expr[i])
				snprintf(err, errlen,
					 "at byte %zu: the list ends inside "
					 "'[' (opened at byte %zu); close it "
					 "with ']'",
					 i + 1, *pos + 1);
			else {
				describe(expr[i], what, sizeof(what));
				snprintf(err, errlen,
					 "at byte %zu: %s where a number of "
					 "the range was expected (\"cn[01-04,"
					 "07]\")",
					 i + 1, what);
			}
			return -1;
		}
		r.width = (int)d;
		r.hi = r.lo;
		i += d;
		if (expr[i] == '-') {
			d = number(expr + i + 1, &r.hi);
			if (!d) {
				snprintf(err, errlen,
					 "at byte %zu: '-' needs the upper "
					 "bound of the range (at most %d "
					 "digits)",
					 i + 2, NUM_DIGITS_MAX);
				return -1;
			}
			if (r.hi < r.lo) {
				snprintf(err, errlen,
					 "at byte %zu: the range %llu-%llu "
					 "runs backwards; write the lower "
					 "bound first",
					 i + 1, r.lo, r.hi);
				return -1;
			}
			i += d + 1;
		}
		if (r.hi - r.lo >= room ||
		    p->count + (r.hi - r.lo + 1) > room) {
			snprintf(err, errlen,
				 "at byte %zu: the list names more than %zu "
				 "hosts",
				 i, max);
			return -1;
		}
		grown = realloc(p->r, (p->n_r + 1) * sizeof(*p->r));
		if (!grown) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		p->r = grown;
		p->r[p->n_r++] = r;
		p->count += r.hi - r.lo + 1;
		if (expr[i] == ',') {
			i++;
			continue;
		}
		if (expr[i] == ']') {
			*pos = i + 1;
			return 0;
		}
		if (!expr[i]) {
			snprintf(err, errlen,
				 "at byte %zu: the list ends inside '[' "
				 "(opened at byte %zu); close it with ']'",
				 i + 1, *pos + 1);
			return -1;
		}
		describe(expr[i], what, sizeof(what));
		snprintf(err, errlen,
			 "at byte %zu: %s inside '[...]'; a range list holds "
			 "numbers, '-' and ','",
			 i + 1, what);
		return -1;
	}
}

static void free_pieces(struct piece *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(p[i].r);
	free(p);
}

static int push_name(struct oq_hostlist *hl, const char *name, char *err,
		     size_t errlen)
{
	char *dup;

	if (hl->n == hl->cap) {
		size_t cap = hl->cap ? hl->cap * 2 : 16;
		char **v = realloc(hl->v, cap * sizeof(*v));

		if (!v) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		hl->v = v;
		hl->cap = cap;
	}
	dup = strdup(name);
	if (!dup) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	hl->v[hl->n++] = dup;
	return 0;
}

/* Every name of the pattern p[0..n): an odometer over the groups, the
 * last group turning fastest (as `scontrol show hostnames` lists them). */
static int expand(struct oq_hostlist *hl, struct piece *p, size_t n, size_t at,
		  char *err, size_t errlen)
{
	char name[OQ_HOSTLIST_NAME_MAX + 32];
	size_t i;

	for (i = 0; i < n; i++) {
		p[i].cur_r = 0;
		p[i].cur = p[i].r ? p[i].r[0].lo : 0;
	}
	for (;;) {
		size_t len = 0;

		for (i = 0; i < n; i++) {
			if (len + p[i].lit_len > OQ_HOSTLIST_NAME_MAX)
				goto too_long;
			memcpy(name + len, p[i].lit, p[i].lit_len);
			len += p[i].lit_len;
			if (p[i].r) {
				int w = snprintf(name + len, sizeof(name) - len,
						 "%0*llu",
						 p[i].r[p[i].cur_r].width,
						 p[i].cur);

				len += (size_t)w;
				if (len > OQ_HOSTLIST_NAME_MAX)
					goto too_long;
			}
		}
		name[len] = '\0';
		if (!len) {
			snprintf(err, errlen, "at byte %zu: an empty host name",
				 at);
			return -1;
		}
		if (push_name(hl, name, err, errlen))
			return -1;
		/* Advance the odometer. */
		for (i = n; i-- > 0;) {
			struct piece *q = &p[i];

			if (!q->r)
				continue;
			if (q->cur < q->r[q->cur_r].hi) {
				q->cur++;
				break;
			}
			if (q->cur_r + 1 < q->n_r) {
				q->cur_r++;
				q->cur = q->r[q->cur_r].lo;
				break;
			}
			q->cur_r = 0;
			q->cur = q->r[0].lo;
		}
		if (i == (size_t)-1)
			return 0;
	}
too_long:
	snprintf(err, errlen, "at byte %zu: a host name longer than %d bytes",
		 at, OQ_HOSTLIST_NAME_MAX);
	return -1;
}

/* One name pattern, expr[*pos] up to the next separator outside '[]'. */
static int add_item(struct oq_hostlist *hl, const char *expr, size_t *pos,
		    size_t max, char *err, size_t errlen)
{
	struct piece *p = NULL, *grown;
	size_t n = 0, i = *pos, start = *pos + 1;
	unsigned long long total = 1, room = max - hl->n;
	char what[16];
	int rc = -1;

	while (expr[i] && !sep_char(expr[i])) {
		grown = realloc(p, (n + 1) * sizeof(*p));
		if (!grown) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		p = grown;
		memset(&p[n], 0, sizeof(p[n]));
		p[n].lit = expr + i;
		while (name_char(expr[i]))
			i++;
		p[n].lit_len = (size_t)(expr + i - p[n].lit);
		n++;
		if (expr[i] == '[') {
			if (parse_group(expr, &i, &p[n - 1], room, max, err,
					errlen))
				goto out;
			if (total > room / p[n - 1].count) {
				snprintf(err, errlen,
					 "at byte %zu: the list names more "
					 "than %zu hosts",
					 i, max);
				goto out;
			}
			total *= p[n - 1].count;
			continue;
		}
		if (expr[i] && !sep_char(expr[i])) {
			describe(expr[i], what, sizeof(what));
			snprintf(err, errlen,
				 "at byte %zu: %s cannot be in a host name "
				 "(letters, digits, '-', '_', '.', and "
				 "'[...]' ranges)",
				 i + 1, what);
			goto out;
		}
	}
	if (total > room) {
		snprintf(err, errlen, "the list names more than %zu hosts",
			 max);
		goto out;
	}
	rc = expand(hl, p, n, start, err, errlen);
out:
	free_pieces(p, n);
	*pos = i;
	return rc;
}

int oq_hostlist_add(struct oq_hostlist *hl, const char *expr, size_t max,
		    char *err, size_t errlen)
{
	size_t pos = 0, before = hl->n;

	if (!max || max > OQ_HOSTLIST_MAX_HOSTS)
		max = OQ_HOSTLIST_MAX_HOSTS;
	if (!expr)
		expr = "";
	for (;;) {
		while (sep_char(expr[pos]))
			pos++;
		if (!expr[pos])
			return 0;
		if (hl->n >= max) {
			snprintf(err, errlen,
				 "at byte %zu: the list names more than %zu "
				 "hosts",
				 pos + 1, max);
			break;
		}
		if (add_item(hl, expr, &pos, max, err, errlen))
			break;
	}
	while (hl->n > before)
		free(hl->v[--hl->n]);
	return -1;
}

static int cmp_name(const void *a, const void *b)
{
	return strcasecmp(*(char *const *)a, *(char *const *)b);
}

void oq_hostlist_uniq(struct oq_hostlist *hl)
{
	size_t i, out = 0;

	if (!hl->n)
		return;
	qsort(hl->v, hl->n, sizeof(*hl->v), cmp_name);
	for (i = 0; i < hl->n; i++) {
		if (out && !strcasecmp(hl->v[out - 1], hl->v[i])) {
			free(hl->v[i]);
			continue;
		}
		hl->v[out++] = hl->v[i];
	}
	hl->n = out;
}

void oq_hostlist_free(struct oq_hostlist *hl)
{
	size_t i;

	for (i = 0; i < hl->n; i++)
		free(hl->v[i]);
	free(hl->v);
	memset(hl, 0, sizeof(*hl));
}
