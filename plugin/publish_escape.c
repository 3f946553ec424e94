// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Text in the published files.  NodeDescriptions come from the fabric:
 * any 64 bytes a node chooses to report, quotes, backslashes, newlines and
 * invalid UTF-8 included.  Both formats require valid UTF-8, so invalid
 * bytes become U+FFFD; each format's own special characters are escaped
 * the way its parser expects.
 */
#include <string.h>

#include "publish.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

/*
 * Length of the valid UTF-8 sequence starting at s (at most n bytes), or 0
 * when it is invalid: a stray continuation byte, a cut sequence, an
 * overlong form, a surrogate, or a code point above U+10FFFF.
 */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned int cp;
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

static size_t bounded_len(const char *s, size_t max)
{
	const char *z = memchr(s, '\0', max);

	return z ? (size_t)(z - s) : max;
}

void oq_publish_json_text(FILE *out, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = s ? bounded_len(s, max) : 0, i = 0, k;

	while (i < n) {
		unsigned char c = p[i];

		switch (c) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		default:
			if (c < 0x20 || c == 0x7f) {
				fprintf(out, "\\u%04x", c);
				break;
			}
			k = utf8_len(p + i, n - i);
			if (!k) {
				fputs(REPLACEMENT, out);
				break;
			}
			fwrite(p + i, 1, k, out);
			i += k;
			continue;
		}
		i++;
	}
}

void oq_publish_prom_text(FILE *out, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = s ? bounded_len(s, max) : 0, i = 0, k;

	while (i < n) {
		unsigned char c = p[i];

		if (c == '"') {
			fputs("\\\"", out);
		} else if (c == '\\') {
			fputs("\\\\", out);
		} else if (c == '\n') {
			fputs("\\n", out);
		} else if (c < 0x20 || c == 0x7f) {
			/* Allowed raw by the format, but a tab or CR in a
			 * label breaks line-based tools reading the file. */
			fputs(REPLACEMENT, out);
		} else {
			k = utf8_len(p + i, n - i);
			if (!k) {
				fputs(REPLACEMENT, out);
			} else {
				fwrite(p + i, 1, k, out);
				i += k;
				continue;
			}
		}
		i++;
	}
}

void oq_publish_iso8601(time_t t, char *buf, size_t len)
{
	struct tm tm;

	if (!len)
		return;
	if (!gmtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm))
		buf[0] = '\0';
}
