/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * JSON string text for every JSON document osmqos writes (the CLI's
 * --json outputs, the published JSON, the audit trail).  Their strings
 * come from the fabric and from files: a NodeDescription is any 64 bytes a
 * node reports, quotes, backslashes, newlines and invalid UTF-8 included.
 * JSON requires valid UTF-8, so invalid bytes become U+FFFD everywhere.
 */
#ifndef OSMQOS_JSON_H
#define OSMQOS_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* U+FFFD, what an invalid byte becomes. */
#define OQ_UTF8_REPLACEMENT "\xef\xbf\xbd"

/*
 * Length of the valid UTF-8 sequence starting at s (at most n bytes), or 0
 * when it is invalid: a stray continuation byte, a cut sequence, an
 * overlong form, a surrogate, or a code point above U+10FFFF.  Inline: the
 * audit formatter calls it per byte on the SA answer path.
 */
static inline size_t oq_utf8_seq(const unsigned char *s, size_t n)
{
	uint32_t cp;
	size_t len, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

/* Where escaped text goes: n bytes at b. */
typedef void (*oq_json_put_fn)(void *ctx, const char *b, size_t n);

/*
 * The inside of a JSON string for at most max bytes of s (it stops at a
 * NUL; s NULL is empty): '"' and '\' escaped, \n \r \t as such, other
 * control characters and DEL as \u00XX, invalid UTF-8 bytes as U+FFFD,
 * valid UTF-8 unchanged.  Runs of plain bytes reach put in one call.
 */
void oq_json_escape(const char *s, size_t max, oq_json_put_fn put, void *ctx);
/* The same into a stdio stream. */
void oq_json_fescape(FILE *out, const char *s, size_t max);
/* A whole JSON string value: quoted and escaped, or null for NULL. */
void oq_json_fstring(FILE *out, const char *s);

#endif /* OSMQOS_JSON_H */
