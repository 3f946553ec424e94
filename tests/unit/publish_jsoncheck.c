// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A strict JSON validator (RFC 8259 grammar; strings must be well-formed
 * UTF-8 without raw control characters) for the publish tests and fuzz
 * target.  Validates only; builds nothing.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "publish_jsoncheck.h"

struct js {
	const char *s;
	size_t n, i;
	int depth;
};

/* strchr() would also match the terminating NUL. */
static bool in_set(char c, const char *set)
{
	return c && strchr(set, c);
}

/* Length of the well-formed UTF-8 sequence at s (n bytes left), 0 if
 * none: no overlong forms, surrogates or code points above U+10FFFF. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned int cp;
	size_t len, k;

	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (k = 1; k < len; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[k] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return len;
}

static void ws(struct js *j)
{
	while (j->i < j->n && in_set(j->s[j->i], " \t\r\n"))
		j->i++;
}

static bool lit(struct js *j, const char *w)
{
	size_t l = strlen(w);

	if (j->n - j->i < l || memcmp(j->s + j->i, w, l))
		return false;
	j->i += l;
	return true;
}

static bool hex4(struct js *j)
{
	int k;

	for (k = 0; k < 4; k++, j->i++)
		if (j->i >= j->n ||
		    !in_set(j->s[j->i], "0123456789abcdefABCDEF"))
			return false;
	return true;
}

static bool jstring(struct js *j)
{
	if (j->i >= j->n || j->s[j->i] != '"')
		return false;
	j->i++;
	while (j->i < j->n && j->s[j->i] != '"') {
		unsigned char c = (unsigned char)j->s[j->i];

		if (c < 0x20)
			return false; /* raw control character */
		if (c == '\\') {
			j->i++;
			if (j->i >= j->n)
				return false;
			if (j->s[j->i] == 'u') {
				j->i++;
				if (!hex4(j))
					return false;
				continue;
			}
			if (!in_set(j->s[j->i], "\"\\/bfnrt"))
				return false;
		} else if (c >= 0x80) {
			size_t len =
				utf8_seq((const unsigned char *)j->s + j->i,
					 j->n - j->i);

			if (!len)
				return false;
			j->i += len;
			continue;
		}
		j->i++;
	}
	if (j->i >= j->n)
		return false;
	j->i++;
	return true;
}

static bool jnumber(struct js *j)
{
	size_t st = j->i;

	if (j->i < j->n && j->s[j->i] == '-')
		j->i++;
	if (j->i < j->n && j->s[j->i] == '0')
		j->i++;
	else if (j->i < j->n && j->s[j->i] >= '1' && j->s[j->i] <= '9')
		while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9')
			j->i++;
	else
		return false;
	if (j->i < j->n && j->s[j->i] == '.') {
		j->i++;
		if (j->i >= j->n || j->s[j->i] < '0' || j->s[j->i] > '9')
			return false;
		while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9')
			j->i++;
	}
	if (j->i < j->n && (j->s[j->i] == 'e' || j->s[j->i] == 'E')) {
		j->i++;
		if (j->i < j->n && (j->s[j->i] == '+' || j->s[j->i] == '-'))
			j->i++;
		if (j->i >= j->n || j->s[j->i] < '0' || j->s[j->i] > '9')
			return false;
		while (j->i < j->n && j->s[j->i] >= '0' && j->s[j->i] <= '9')
			j->i++;
	}
	return j->i > st;
}

static bool jvalue(struct js *j);

static bool jcontainer(struct js *j, char open, char close, bool object)
{
	j->i++;
	if (++j->depth > 64)
		return false;
	ws(j);
	if (j->i < j->n && j->s[j->i] == close) {
		j->i++;
		j->depth--;
		return true;
	}
	for (;;) {
		ws(j);
		if (object) {
			if (!jstring(j))
				return false;
			ws(j);
			if (j->i >= j->n || j->s[j->i++] != ':')
				return false;
		}
		if (!jvalue(j))
			return false;
		ws(j);
		if (j->i >= j->n)
			return false;
		if (j->s[j->i] == close) {
			j->i++;
			j->depth--;
			return true;
		}
		if (j->s[j->i++] != ',')
			return false;
	}
	(void)open;
}

static bool jvalue(struct js *j)
{
	ws(j);
	if (j->i >= j->n)
		return false;
	switch (j->s[j->i]) {
	case '{':
		return jcontainer(j, '{', '}', true);
	case '[':
		return jcontainer(j, '[', ']', false);
	case '"':
		return jstring(j);
	case 't':
		return lit(j, "true");
	case 'f':
		return lit(j, "false");
	case 'n':
		return lit(j, "null");
	default:
		return jnumber(j);
	}
}

bool oq_jsoncheck(const char *s, size_t n)
{
	struct js j = {s, n, 0, 0};

	if (!jvalue(&j))
		return false;
	ws(&j);
	return j.i == n;
}
