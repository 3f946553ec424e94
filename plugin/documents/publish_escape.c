// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Text in the Prometheus file (the JSON file's strings go through the
 * core's escaper, osmqos/json.h).  NodeDescriptions come from the fabric:
 * any 64 bytes a node chooses to report, quotes, backslashes, newlines and
 * invalid UTF-8 included.  Label values must be valid UTF-8, so invalid
 * bytes become U+FFFD; the format's own special characters are escaped
 * the way its parser expects.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/json.h>

#include "documents.h"

#define REPLACEMENT OQ_UTF8_REPLACEMENT

void oq_publish_prom_text(FILE *out, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = s ? strnlen(s, max) : 0, i = 0, k;

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

char *oq_publish_prom_label(const char *name)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	oq_publish_prom_text(f, name, SIZE_MAX);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}
