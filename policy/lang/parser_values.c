// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Value readers shared by the section parsers: number ranges, pkeys (with
 * OpenSM's membership-bit handling), single numbers and name lists.  Lists
 * are comma separated; a comma at the end of a line continues the list on
 * the next line (OpenSM's grammar allows that as well).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "parser_int.h"

void *oq_ps_grow(struct oq_pstate *ps, void *arr, size_t *n, size_t size)
{
	char *v = arr;

	/* Capacity is 8, then doubles: grow when n reaches a power of two. */
	if (*n == 0 || (*n >= 8 && (*n & (*n - 1)) == 0)) {
		size_t cap = *n ? *n * 2 : 8;

		if (cap > SIZE_MAX / size) {
			ps->oom = true;
			return NULL;
		}
		v = realloc(arr, cap * size);
		if (!v) {
			ps->oom = true;
			return NULL;
		}
	}
	memset(v + *n * size, 0, size);
	(*n)++;
	return v;
}

char *oq_ps_strdup(struct oq_pstate *ps, const char *s)
{
	char *r = strdup(s);

	if (!r)
		ps->oom = true;
	return r;
}

/* "key: value" at the cursor, key one of the language's: report it as a
 * key on the line of another and leave it to be parsed. */
static bool key_on_line(struct oq_pstate *ps, const char *what)
{
	const char *after = ps->key ? ps->key : what;
	struct oq_lx *lx = &ps->lx;
	const char *w = lx->p, *e, *end;
	struct oq_diag *d;
	char *tok, *was;
	size_t n = 0;

	while (w + n < lx->end &&
	       (isalnum((unsigned char)w[n]) || w[n] == '-' || w[n] == '_'))
		n++;
	e = w + n;
	while (e < lx->end && (*e == ' ' || *e == '\t'))
		e++;
	/* qos-ulps lines have their own "word:" forms. */
	if (!n || e >= lx->end || *e != ':' || !lx->is_key ||
	    !lx->is_key(w, n) || oq_ps_blk(ps) == OQ_B_ULPS)
		return false;
	for (end = w; end < lx->end && *end != '\n' && *end != '#'; end++)
		;
	while (end > w &&
	       (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		end--;
	tok = oq_lx_snippet(w, (size_t)(end - w));
	if (lx->cut == w && lx->cut_from) {
		/* The value stopped at the key; read to the end of the line,
		 * as osmqos reads a value, it would have taken the key. */
		was = oq_lx_snippet(lx->cut_from, (size_t)(end - lx->cut_from));
		d = oq_error(ps->d, oq_lx_loc(lx),
			     "'%s' is on the line of '%s:', whose value would "
			     "swallow it: '%s'",
			     tok ? tok : "", after, was ? was : "");
		free(was);
	} else {
		d = oq_error(ps->d, oq_lx_loc(lx),
			     "'%s' is on the line of '%s%s'", tok ? tok : "",
			     after, ps->key ? ":" : "");
	}
	free(tok);
	oq_diag_set_code(d, "key-on-same-line");
	oq_diag_hint(d,
		     "one key per line: put '%.*s:' on a line of its own "
		     "(OpenSM reads it as a key of its own; so does this "
		     "check, to look at the rest)",
		     (int)n, w);
	ps->pending_key = true;
	ps->pending_cause = oq_diag_id(d);
	lx->cut = lx->cut_from = NULL;
	return true;
}

/* The first error added after the diagnostic numbered `after` (ids
 * count up from 1: ps->d->next_id read before a step), or 0. */
unsigned int oq_ps_first_error_since(const struct oq_diags *d,
				     unsigned int after)
{
	size_t i = d->n;

	while (i > 0 && d->v[i - 1].id > after)
		i--;
	for (; i < d->n; i++)
		if (d->v[i].sev == OQ_SEV_ERROR)
			return d->v[i].id;
	return 0;
}

int oq_ps_expect_eol(struct oq_pstate *ps, const char *after)
{
	const char *start;
	char *tok;

	oq_lx_skip_blank(&ps->lx);
	if (oq_lx_at_eol(&ps->lx))
		return 0;
	if (key_on_line(ps, after))
		return -1;
	start = ps->lx.p;
	while (start + 1 < ps->lx.end && start[1] != '\n' && start[1] != '#' &&
	       (size_t)(start - ps->lx.p) < 20)
		start++;
	tok = oq_lx_snippet(ps->lx.p, (size_t)(start - ps->lx.p) + 1);
	oq_diag_hint(oq_error(ps->d, oq_lx_loc(&ps->lx),
			      "unexpected '%s' after %s", tok ? tok : "", after),
		     "one key or keyword per line; '#' starts a comment");
	free(tok);
	return -1;
}

static void pkey_mask(struct oq_pstate *ps, struct oq_loc loc, uint64_t *lo,
		      uint64_t *hi)
{
	uint64_t a = *lo & 0x7fff, b = *hi & 0x7fff;

	/* OpenSM (__pkey_rangelist2rangearr) clears the membership bit of
	 * both ends and swaps them when needed; a range that spans the bit
	 * therefore turns into something else.  Do the same, but say so. */
	if (a > b) {
		uint64_t t = a;

		a = b;
		b = t;
	}
	if (*lo < 0x8000 && *hi >= 0x8000)
		oq_diag_hint(oq_warning(ps->d, loc,
					"pkey range 0x%04llx-0x%04llx spans the "
					"membership bit; it matches "
					"0x%04llx-0x%04llx",
					(unsigned long long)*lo,
					(unsigned long long)*hi,
					(unsigned long long)a,
					(unsigned long long)b),
			     "OpenSM ignores bit 15 of pkeys; write the "
			     "range with 15-bit pkeys");
	*lo = a;
	*hi = b;
}

static int read_ranges(struct oq_pstate *ps, struct oq_ranges *out,
		       const char *what, uint64_t max, int stop, bool pkey)
{
	struct oq_lx *lx = &ps->lx;

	for (;;) {
		struct oq_loc loc, hi_loc;
		uint64_t lo, hi;

		oq_lx_skip_blank(lx);
		loc = oq_lx_loc(lx);
		if (oq_lx_number(lx, &lo, what))
			return -1;
		hi = lo;
		hi_loc = loc;
		oq_lx_skip_blank(lx);
		if (oq_lx_peek(lx) == '-') {
			oq_lx_adv(lx);
			/* OpenSM's grammar ignores line ends: "0x1-" then
			 * "0x5" on the next line is the range 0x1-0x5. */
			if (!oq_ps_line_goes_on(ps)) {
				oq_diag_hint(oq_error(ps->d, oq_lx_loc(lx),
						      "expected the end of the "
						      "%s range after '-'",
						      what),
					     "write LO-HI, or continue the "
					     "range on the next line");
				return -1;
			}
			hi_loc = oq_lx_loc(lx);
			if (oq_lx_number(lx, &hi, what))
				return -1;
		}
		if (lo > max || hi > max) {
			struct oq_loc bad = lo > max ? loc : hi_loc;
			uint64_t v = lo > max ? lo : hi;

			oq_error(ps->d, bad,
				 "%s %llu (0x%llx) is out of range 0-%llu "
				 "(0x%llx)",
				 what, (unsigned long long)v,
				 (unsigned long long)v,
				 (unsigned long long)max,
				 (unsigned long long)max);
			return -1;
		}
		if (pkey)
			pkey_mask(ps, loc, &lo, &hi);
		if (oq_ranges_add(out, lo, hi)) {
			ps->oom = true;
			return -1;
		}
		oq_lx_skip_blank(lx);
		if (oq_lx_peek(lx) == ',') {
			oq_lx_adv(lx);
			if (!oq_ps_list_next(ps))
				return -1;
			continue;
		}
		if (oq_lx_at_eol(lx) || (stop && oq_lx_peek(lx) == stop))
			return 0;
		return oq_ps_expect_eol(ps, what);
	}
}

int oq_ps_ranges(struct oq_pstate *ps, struct oq_ranges *out,
		 const char *what, uint64_t max, int stop)
{
	return read_ranges(ps, out, what, max, stop, false);
}

int oq_ps_pkeys(struct oq_pstate *ps, struct oq_ranges *out, int stop)
{
	return read_ranges(ps, out, "pkey", 0xffff, stop, true);
}

int oq_ps_single(struct oq_pstate *ps, uint64_t *v, const char *what,
		 uint64_t min, uint64_t max)
{
	struct oq_loc loc;

	oq_lx_skip_blank(&ps->lx);
	loc = oq_lx_loc(&ps->lx);
	if (oq_lx_number(&ps->lx, v, what))
		return -1;
	if (*v < min || *v > max) {
		struct oq_diag *d = oq_error(
			ps->d, loc, "%s %llu is out of range %llu-%llu", what,
			(unsigned long long)*v, (unsigned long long)min,
			(unsigned long long)max);

		/* Bytes and Gb/s are what people write; the keys take
		 * IBA's codes, as OpenSM's parser does. */
		if (!strcmp(what, "mtu-limit"))
			oq_diag_hint(d, "mtu-limit is IBA's MTU code: 1 = 256, "
					"2 = 512, 3 = 1024, 4 = 2048, 5 = 4096 "
					"bytes");
		else if (!strcmp(what, "rate-limit"))
			oq_diag_hint(d, "rate-limit is IBA's rate code, not "
					"Gb/s: e.g. 3 = 10, 6 = 20, 7 = 40, "
					"12 = 56, 16 = 100, 17 = 200 Gb/s "
					"(osmqos-policy(5))");
		else if (!strcmp(what, "packet-life"))
			oq_diag_hint(d, "packet-life is IBA's exponent: 4.096 "
					"us x 2^value");
		return -1;
	}
	return 0;
}

int oq_ps_refs(struct oq_pstate *ps, struct oq_refs *out, const char *what)
{
	struct oq_lx *lx = &ps->lx;

	for (;;) {
		struct oq_ref *v;
		struct oq_loc loc;
		char *s;

		oq_lx_skip_blank(lx);
		loc = oq_lx_loc(lx);
		s = oq_lx_string(lx, ',', what, &ps->oom);
		if (!s)
			return -1;
		v = oq_ps_grow(ps, out->v, &out->n, sizeof(*v));
		if (!v) {
			free(s);
			return -1;
		}
		out->v = v;
		v[out->n - 1].name = s;
		v[out->n - 1].loc = loc;
		v[out->n - 1].idx = -1;
		oq_lx_skip_blank(lx);
		if (oq_lx_peek(lx) == ',') {
			oq_lx_adv(lx);
			if (!oq_ps_list_next(ps))
				return -1;
			continue;
		}
		return oq_ps_expect_eol(ps, what);
	}
}
