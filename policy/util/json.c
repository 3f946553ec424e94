// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* JSON string text: see include/osmqos/json.h. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <osmqos/json.h>

/* Bytes copied as they are: printable ASCII but the two JSON escapes. */
static int plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

void oq_json_escape(const char *s, size_t max, oq_json_put_fn put, void *ctx)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = s ? strnlen(s, max) : 0, i = 0, run, k;
	char esc[8];

	while (i < n) {
		for (run = i; run < n && plain(u[run]); run++)
			;
		if (run > i) {
			put(ctx, s + i, run - i);
			i = run;
			continue;
		}
		switch (u[i]) {
		case '"':
			put(ctx, "\\\"", 2);
			break;
		case '\\':
			put(ctx, "\\\\", 2);
			break;
		case '\n':
			put(ctx, "\\n", 2);
			break;
		case '\r':
			put(ctx, "\\r", 2);
			break;
		case '\t':
			put(ctx, "\\t", 2);
			break;
		default:
			if (u[i] < 0x20 || u[i] == 0x7f) {
				snprintf(esc, sizeof(esc), "\\u%04x", u[i]);
				put(ctx, esc, 6);
				break;
			}
			k = oq_utf8_seq(u + i, n - i);
			if (!k) {
				put(ctx, OQ_UTF8_REPLACEMENT, 3);
				break;
			}
			put(ctx, s + i, k);
			i += k;
			continue;
		}
		i++;
	}
}

static void put_file(void *ctx, const char *b, size_t n)
{
	fwrite(b, 1, n, ctx);
}

void oq_json_fescape(FILE *out, const char *s, size_t max)
{
	oq_json_escape(s, max, put_file, out);
}

void oq_json_fstring(FILE *out, const char *s)
{
	if (!s) {
		fputs("null", out);
		return;
	}
	fputc('"', out);
	oq_json_fescape(out, s, SIZE_MAX);
	fputc('"', out);
}
