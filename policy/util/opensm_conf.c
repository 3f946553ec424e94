// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* opensm.conf as OpenSM reads it: see osmqos/opensm_conf.h. */
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

int oq_opensm_conf_lines(const char *text, size_t len,
			 oq_opensm_conf_line_fn fn, void *ctx)
{
	size_t pos = 0;
	unsigned int n = 1;
	char *buf = NULL;
	int rc = 0;

	while (pos < len && !rc) {
		size_t max = len - pos < OQ_OPENSM_CONF_LINE_MAX
				     ? len - pos
				     : OQ_OPENSM_CONF_LINE_MAX;
		const char *nl = memchr(text + pos, '\n', max);
		/* As fgets() reads it: up to its newline or the limit. */
		size_t l = nl ? (size_t)(nl - (text + pos)) : max;
		char *b = realloc(buf, l + 1);

		if (!b) {
			rc = -1;
			break;
		}
		buf = b;
		memcpy(buf, text + pos, l);
		buf[l] = '\0';
		pos += l + (nl ? 1 : 0);
		rc = fn(buf, n, ctx);
		if (nl)
			n++;
	}
	free(buf);
	return rc;
}

int oq_opensm_conf_long_line(const char *text, size_t len, unsigned int *n,
			     size_t *line_len, char *key, size_t keylen)
{
	size_t pos = 0, k;
	unsigned int ln = 1;

	while (pos < len) {
		const char *p = text + pos;
		const char *nl = memchr(p, '\n', len - pos);
		size_t l = nl ? (size_t)(nl - p) : len - pos;

		if (l > OQ_OPENSM_CONF_LINE_MAX) {
			*n = ln;
			*line_len = l;
			p += strspn(p, " \t");
			k = strcspn(p, " \t\n");
			if (k >= keylen)
				k = keylen - 1;
			memcpy(key, p, k);
			key[k] = '\0';
			return 1;
		}
		pos += l + 1;
		ln++;
	}
	return 0;
}

struct path_of {
	const char *key;
	char *path;
};

/* A line of opensm.conf: the path set when it is the key's.  0, or -1
 * when out of memory. */
static int path_line(char *line, unsigned int n, void *ctx)
{
	struct path_of *po = ctx;
	char *k, *val;

	(void)n;
	if (!oq_opensm_conf_split(line, &k, &val) || strcmp(k, po->key))
		return 0;
	free(po->path);
	po->path = NULL;
	if (!strcmp(val, "(null)"))
		return 0;
	po->path = strdup(val);
	return po->path ? 0 : -1;
}

int oq_opensm_conf_path(const char *text, size_t len, const char *key,
			char **path)
{
	struct path_of po = {key, NULL};

	if (oq_opensm_conf_lines(text, len, path_line, &po)) {
		free(po.path);
		*path = NULL;
		return -1;
	}
	*path = po.path;
	return 0;
}
