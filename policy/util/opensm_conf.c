// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The file paths an opensm.conf names: see osmqos/opensm_conf.h. */
#include <config.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/opensm_conf.h>

char *oq_opensm_conf_clean_val(char *v)
{
	char *p;

	while (isspace((unsigned char)*v))
		v++;
	if (!*v)
		return v;
	p = v + strlen(v) - 1;
	while (p > v && isspace((unsigned char)*p))
		p--;
	p[1] = '\0';
	if (p > v && ((*v == '"' && *p == '"') || (*v == '\'' && *p == '\''))) {
		v++;
		*p = '\0';
	}
	return v;
}

int oq_opensm_conf_split(char *line, char **key, char **val)
{
	char *hash = strchr(line, '#'), *k, *v;

	if (hash)
		*hash = '\0';
	k = line + strspn(line, " \t\n");
	if (!*k)
		return 0;
	v = k + strcspn(k, " \t\n");
	if (*v)
		*v++ = '\0';
	*key = k;
	*val = oq_opensm_conf_clean_val(v);
	return 1;
}

/* A line of opensm.conf: *path set when it is KEY's.  0, or -1 when out
 * of memory. */
static int conf_line(char *line, const char *key, char **path)
{
	char *k, *val;

	if (!oq_opensm_conf_split(line, &k, &val) || strcmp(k, key))
		return 0;
	free(*path);
	*path = NULL;
	if (!strcmp(val, "(null)"))
		return 0;
	*path = strdup(val);
	return *path ? 0 : -1;
}

int oq_opensm_conf_path(const char *text, size_t len, const char *key,
			char **path)
{
	size_t pos = 0, klen = strlen(key);
	char *buf = NULL;

	*path = NULL;
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		char *b;

		/* Only lines that name the key are copied. */
		if (!memmem(text + pos, n, key, klen)) {
			pos += n + (nl ? 1 : 0);
			continue;
		}
		b = realloc(buf, n + 1);
		if (!b)
			goto oom;
		buf = b;
		memcpy(buf, text + pos, n);
		buf[n] = '\0';
		pos += n + (nl ? 1 : 0);
		if (conf_line(buf, key, path))
			goto oom;
	}
	free(buf);
	return 0;
oom:
	free(buf);
	free(*path);
	*path = NULL;
	return -1;
}
