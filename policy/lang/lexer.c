// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The lexical layer of the policy language.  OpenSM's flex scanner
 * (osm_qos_parser_l.l) is the model: '#' starts a comment up to the end of
 * the line, blanks separate tokens, numbers are read with strtoull(..., 0)
 * and "..." quotes a string.  Where OpenSM drops the blanks inside an
 * unquoted name ("vs1 HCA-1/P1" becomes "vs1HCA-1/P1") this scanner keeps
 * them, as the documentation means.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/json.h>
#include <osmqos/text.h>

#include "lexer.h"

void oq_lx_init(struct oq_lx *lx, const char *file, const char *text,
		size_t len, struct oq_diags *diags)
{
	lx->file = file;
	lx->p = text;
	lx->end = text + len;
	lx->line = 1;
	lx->col = 1;
	lx->diags = diags;
	lx->is_key = NULL;
	lx->cut = lx->cut_from = NULL;
}

void oq_lx_adv(struct oq_lx *lx)
{
	if (lx->p >= lx->end)
		return;
	if (*lx->p == '\n') {
		lx->line++;
		lx->col = 1;
	} else {
		lx->col++;
	}
	lx->p++;
}

static bool is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

void oq_lx_skip_blank(struct oq_lx *lx)
{
	while (is_blank(oq_lx_peek(lx)))
		oq_lx_adv(lx);
}

bool oq_lx_at_eol(const struct oq_lx *lx)
{
	int c = oq_lx_peek(lx);

	return c == -1 || c == '\n' || c == '#';
}

void oq_lx_skip_line(struct oq_lx *lx)
{
	int c;

	while ((c = oq_lx_peek(lx)) != -1) {
		oq_lx_adv(lx);
		if (c == '\n')
			break;
	}
}

bool oq_lx_skip_space(struct oq_lx *lx)
{
	for (;;) {
		int c = oq_lx_peek(lx);

		if (c == -1)
			return false;
		if (is_blank(c) || c == '\n')
			oq_lx_adv(lx);
		else if (c == '#')
			oq_lx_skip_line(lx);
		else
			return true;
	}
}

static bool is_word(int c)
{
	return c != -1 && (isalnum(c) || c == '-' || c == '_');
}

size_t oq_lx_word(struct oq_lx *lx, const char **start)
{
	size_t n = 0;

	*start = lx->p;
	while (is_word(oq_lx_peek(lx))) {
		oq_lx_adv(lx);
		n++;
	}
	return n;
}

/* A character that prints as a blank or as nothing (a no-break space
 * pasted from a web page, a zero-width space, a byte-order mark): its
 * code point, else 0. */
static unsigned int invisible(const unsigned char *c, size_t k)
{
	unsigned int cp = k == 2 ? (c[0] & 0x1fu) << 6 | (c[1] & 0x3fu)
			  : k == 3
				  ? (c[0] & 0x0fu) << 12 | (c[1] & 0x3fu) << 6 |
					    (c[2] & 0x3fu)
				  : 0;

	return cp == 0xa0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200b) ||
			       cp == 0x2028 || cp == 0x2029 || cp == 0x202f ||
			       cp == 0x205f || cp == 0x3000 || cp == 0xfeff
		       ? cp
		       : 0;
}

char *oq_lx_snippet(const char *start, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, j = 0, n = len > 40 ? 40 : len;
	char *s = malloc(4 * n + 4);

	if (!s)
		return NULL;
	/* Keep messages printable whatever the input holds: a character
	 * shows as itself, an invisible one as <U+XXXX>, a stray byte as
	 * \xNN. */
	for (i = 0; i < n;) {
		const unsigned char *c = (const unsigned char *)start + i;
		size_t k = *c >= 0x80 ? oq_utf8_seq(c, len - i) : 0;
		unsigned int cp = k && i + k <= len ? invisible(c, k) : 0;

		if (cp) {
			/* 8 bytes for 2 or 3: within 4 per byte. */
			j += (size_t)sprintf(s + j, "<U+%04X>", cp);
			i += k;
		} else if (k && i + k <= len) {
			memcpy(s + j, c, k);
			j += k;
			i += k;
		} else if (isprint(*c)) {
			s[j++] = (char)*c;
			i++;
		} else {
			s[j++] = '\\';
			s[j++] = 'x';
			s[j++] = hex[*c >> 4];
			s[j++] = hex[*c & 0xf];
			i++;
		}
	}
	if (len > n)
		memcpy(s + j, "...", 4);
	else
		s[j] = '\0';
	return s;
}

size_t oq_lx_typographic_quote(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	if (n >= 3 && u[0] == 0xe2 && u[1] == 0x80 &&
	    (u[2] == 0x98 || u[2] == 0x99 || u[2] == 0x9c || u[2] == 0x9d))
		return 3;
	return 0;
}

/* A typographic quote inside [s, e): an error at it. */
static bool typographic(struct oq_lx *lx, struct oq_loc loc, const char *s,
			const char *e, const char *what)
{
	const char *q;
	struct oq_diag *d;
	char *tok;

	for (q = s; q < e; q++)
		if (oq_lx_typographic_quote(q, (size_t)(e - q)))
			break;
	if (q >= e)
		return false;
	loc.col += (unsigned int)(q - s);
	tok = oq_lx_snippet(q, 3);
	d = oq_error(lx->diags, loc,
		     "typographic quote '%s' in %s: OpenSM's parser reads "
		     "only the ASCII quote '\"'",
		     tok ? tok : "", what);
	free(tok);
	oq_diag_set_code(d, "typographic-quote");
	oq_diag_hint(d,
		     "replace \u201c \u201d \u2018 \u2019 with \" (text pasted "
		     "from a document or a chat often has them)");
	return true;
}

/* The token under the cursor for an error message: up to a blank, a
 * separator or the end of the line. */
static char *token_snippet(const struct oq_lx *lx)
{
	const char *q = lx->p;

	while (q < lx->end && !is_blank((unsigned char)*q) && *q != '\n' &&
	       *q != '#' && *q != ',' && *q != ':')
		q++;
	if (q == lx->p && q < lx->end && *q != '\n' && *q != '#')
		q++;
	return oq_lx_snippet(lx->p, (size_t)(q - lx->p));
}

bool oq_lx_at_number(const struct oq_lx *lx)
{
	int c = oq_lx_peek(lx);

	return c != -1 && isdigit(c);
}

static int digit_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

int oq_lx_number(struct oq_lx *lx, uint64_t *v, const char *what)
{
	struct oq_loc loc = oq_lx_loc(lx);
	const char *start = lx->p;
	unsigned int base = 10;
	bool overflow = false, bad = false;
	uint64_t x = 0;
	size_t len, i = 0;
	char *tok;

	if (!oq_lx_at_number(lx)) {
		if (oq_lx_at_eol(lx)) {
			oq_diag_hint(
				oq_error(lx->diags, loc, "expected %s", what),
				"write the value after the ':' on the "
				"same line");
		} else {
			tok = token_snippet(lx);
			oq_error(lx->diags, loc, "expected %s, found '%s'", what,
				 tok ? tok : "");
			free(tok);
		}
		return -1;
	}
	while (oq_lx_peek(lx) != -1 &&
	       (isalnum(oq_lx_peek(lx)) || oq_lx_peek(lx) == '_'))
		oq_lx_adv(lx);
	len = (size_t)(lx->p - start);

	if (len >= 2 && start[0] == '0' &&
	    (start[1] == 'x' || start[1] == 'X')) {
		base = 16;
		i = 2;
		bad = len == 2; /* "0x" and no digit */
	} else if (len > 1 && start[0] == '0') {
		base = 8;
		i = 1;
	}
	for (; i < len; i++) {
		unsigned int d = (unsigned int)digit_value(start[i]);

		if (d >= base) {
			bad = true;
			break;
		}
		if (x > (UINT64_MAX - d) / base)
			overflow = true;
		x = x * base + d;
	}
	tok = oq_lx_snippet(start, len);
	if (bad) {
		struct oq_diag *dg = oq_error(lx->diags, loc, "invalid %s '%s'",
					      what, tok ? tok : "");

		if (base == 8)
			oq_diag_hint(dg, "a leading 0 makes a number octal "
					 "(OpenSM reads it with strtoull base 0)");
		else if (base == 16)
			oq_diag_hint(dg, "after 0x come hex digits (0-9, a-f)");
		else if (base == 10)
			oq_diag_hint(dg, "numbers are decimal or 0x hex");
		free(tok);
		return -1;
	}
	if (overflow) {
		oq_diag_hint(oq_error(lx->diags, loc,
				      "%s '%s' does not fit in 64 bits", what,
				      tok ? tok : ""),
			     "is a digit doubled, or a range written without "
			     "its '-'?");
		free(tok);
		return -1;
	}
	if (base == 8 && x != 0)
		oq_diag_hint(oq_warning(lx->diags, loc,
					"'%s' has a leading zero and is read as "
					"octal %llu, as OpenSM does",
					tok ? tok : "", (unsigned long long)x),
			     "drop the leading zero or write 0x%llx",
			     (unsigned long long)x);
	free(tok);
	*v = x;
	return 0;
}

static char *dup_range(const char *s, size_t n, bool *oom)
{
	char *r = malloc(n + 1);

	if (!r) {
		*oom = true;
		return NULL;
	}
	memcpy(r, s, n);
	r[n] = '\0';
	return r;
}

/* s without its NUL bytes, shown as a snippet. */
static char *without_nuls(const char *s, size_t n)
{
	char *t = malloc(n + 1), *r;
	size_t i, k = 0;

	if (!t)
		return NULL;
	for (i = 0; i < n; i++)
		if (s[i])
			t[k++] = s[i];
	r = oq_lx_snippet(t, k);
	free(t);
	return r;
}

/*
 * What OpenSM's own lexer must also be able to read: the plugin hands it
 * every policy osmqos takes.  It keeps one string (a name, a list item, a
 * use: text) in a 10 KiB buffer (OSM_QOS_POLICY_MAX_LINE_LEN, NUL
 * included) and aborts on a longer one; and its quoted strings run from a
 * '"' to the next one anywhere in the file, so a stray '"' swallows lines.
 */
static bool opensm_can_read(struct oq_lx *lx, struct oq_loc loc,
			    const char *s, size_t n, bool quoted,
			    const char *what)
{
	const char *q = quoted ? NULL : memchr(s, '"', n);
	const char *nul = memchr(s, '\0', n);

	if (nul) {
		struct oq_loc at = loc;
		char *kept = quoted ? oq_lx_snippet(s, (size_t)(nul - s))
				    : without_nuls(s, n);

		/* C strings end at the NUL: in a quoted string OpenSM's
		 * parser keeps only what precedes it, and a name cut short
		 * there (a level a rule names in full) fails its own
		 * checks; unquoted, its scanner copies each word piece by
		 * piece and drops the NUL.  Either way the bytes are not
		 * what the operator sees: taken by neither. */
		/* A quoted string's location is its opening quote. */
		at.col += (unsigned int)(nul - s) + (quoted ? 1 : 0);
		oq_diag_hint(oq_error(lx->diags, at,
				      quoted ? "a NUL byte inside %s: OpenSM's "
					       "own parser reads only '%s' of "
					       "it"
					     : "a NUL byte inside %s: OpenSM's "
					       "own parser drops it and reads "
					       "'%s'",
				      what, kept ? kept : ""),
			     "remove it; a NUL in a text file is usually "
			     "damage (a copy cut short, an editor's "
			     "encoding)");
		free(kept);
		return false;
	}
	if (n > OQ_OPENSM_MAX_STRING) {
		oq_diag_hint(oq_error(lx->diags, loc,
				      "%s of %zu bytes: OpenSM's own parser "
				      "holds at most %u in one string and "
				      "aborts on a longer one",
				      what, n, OQ_OPENSM_MAX_STRING),
			     "shorten it");
		return false;
	}
	if (q) {
		loc.col += (unsigned int)(q - s);
		oq_diag_hint(oq_error(lx->diags, loc,
				      "'\"' inside %s: OpenSM's own parser "
				      "reads it as a quoted string running to "
				      "the next '\"' in the file",
				      what),
			     "remove it; quotes may only enclose a whole "
			     "item (\"like this\")");
		return false;
	}
	return true;
}

/* At a blank: does "word:" follow, word a key (lx->is_key)?  Then
 * lx->cut points at the word. */
static bool key_follows(struct oq_lx *lx)
{
	const char *p = lx->p, *w;

	if (!lx->is_key)
		return false;
	while (p < lx->end && is_blank((unsigned char)*p))
		p++;
	w = p;
	while (p < lx->end && is_word((unsigned char)*p))
		p++;
	if (p == w)
		return false;
	while (p < lx->end && is_blank((unsigned char)*p))
		p++;
	if (p >= lx->end || *p != ':' || !lx->is_key(w, (size_t)(p - w)))
		return false;
	lx->cut = w;
	return true;
}

char *oq_lx_string(struct oq_lx *lx, int stop, const char *what, bool *oom)
{
	struct oq_loc loc;
	const char *start, *last;

	oq_lx_skip_blank(lx);
	loc = oq_lx_loc(lx);
	if (oq_lx_peek(lx) == '"') {
		oq_lx_adv(lx);
		start = lx->p;
		while (oq_lx_peek(lx) != -1 && oq_lx_peek(lx) != '"' &&
		       oq_lx_peek(lx) != '\n')
			oq_lx_adv(lx);
		if (oq_lx_peek(lx) != '"') {
			oq_diag_hint(oq_error(lx->diags, loc,
					      "unterminated quoted string"),
				     "close it with '\"' on the same line (a "
				     "quoted string does not continue on the "
				     "next)");
			return NULL;
		}
		last = lx->p;
		oq_lx_adv(lx);
		if (last == start) {
			oq_error(lx->diags, loc, "empty %s", what);
			return NULL;
		}
		oq_lx_skip_blank(lx);
		if (!opensm_can_read(lx, loc, start, (size_t)(last - start),
				     true, what))
			return NULL;
		return dup_range(start, (size_t)(last - start), oom);
	}
	start = lx->p;
	last = lx->p;
	while (!oq_lx_at_eol(lx) && (stop == 0 || oq_lx_peek(lx) != stop)) {
		if (is_blank(oq_lx_peek(lx)) && last > start &&
		    key_follows(lx)) {
			lx->cut_from = start;
			break;
		}
		if (!is_blank(oq_lx_peek(lx)))
			last = lx->p + 1;
		oq_lx_adv(lx);
	}
	if (last == start) {
		oq_diag_hint(oq_error(lx->diags, loc, "expected %s", what),
			     "write the value after the ':' on the same line");
		return NULL;
	}
	if (typographic(lx, loc, start, last, what))
		return NULL;
	if (!opensm_can_read(lx, loc, start, (size_t)(last - start), false,
			     what))
		return NULL;
	return dup_range(start, (size_t)(last - start), oom);
}

char *oq_lx_rest(struct oq_lx *lx, bool *oom)
{
	struct oq_loc loc;
	const char *start, *last;

	oq_lx_skip_blank(lx);
	loc = oq_lx_loc(lx);
	start = lx->p;
	last = lx->p;
	while (!oq_lx_at_eol(lx)) {
		if (!is_blank(oq_lx_peek(lx)))
			last = lx->p + 1;
		oq_lx_adv(lx);
	}
	/* OpenSM keeps a use: text's blanks before a '#' comment (and at
	 * the end of a file without a final newline): its buffer holds them
	 * too, so they count against its limit. */
	if ((size_t)(lx->p - start) > OQ_OPENSM_MAX_STRING &&
	    !opensm_can_read(lx, loc, start, (size_t)(lx->p - start), true,
			     "a use: text with its trailing blanks"))
		return NULL;
	if (last - start >= 2 && *start == '"' && last[-1] == '"' &&
	    !memchr(start + 1, '"', (size_t)(last - start - 2))) {
		if (!opensm_can_read(lx, loc, start + 1,
				     (size_t)(last - start - 2), true,
				     "a use: text"))
			return NULL;
		return dup_range(start + 1, (size_t)(last - start - 2), oom);
	}
	if (!opensm_can_read(lx, loc, start, (size_t)(last - start), false,
			     "a use: text"))
		return NULL;
	return dup_range(start, (size_t)(last - start), oom);
}

unsigned int oq_lx_distance(const char *a, const char *b,
			    unsigned int limit)
{
	/* Keywords and names of the policy are short: the old 63-byte
	 * bound of this table stays. */
	if (strlen(a) >= 63 || strlen(b) >= 63)
		return 99;
	return oq_text_distance(a, b, limit);
}
