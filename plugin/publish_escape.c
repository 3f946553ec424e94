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
#include "utf8.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */

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
			k = oq_utf8_seq(p + i, n - i);
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
			k = oq_utf8_seq(p + i, n - i);
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
