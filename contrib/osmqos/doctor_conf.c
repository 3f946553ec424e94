// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* opensm.conf's "key value" lines (doctor_conf.h). */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/file.h>
#include <osmqos/opensm_conf.h>

#include "doctor_conf.h"

static struct oq_conf_item *find(const struct oq_conf *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].key, key))
			return &c->v[i];
	return NULL;
}

static int set(struct oq_conf *c, const char *k, size_t kl, const char *v,
	       size_t vl)
{
	char *key = strndup(k, kl), *val = strndup(v, vl);
	struct oq_conf_item *it, *nv;

	if (!key || !val)
		goto oom;
	it = find(c, key);
	if (it) {
		free(it->val);
		it->val = val;
		free(key);
		return 0;
	}
	nv = realloc(c->v, (c->n + 1) * sizeof(*nv));
	if (!nv)
		goto oom;
	c->v = nv;
	nv[c->n].key = key;
	nv[c->n].val = val;
	c->n++;
	return 0;
oom:
	free(key);
	free(val);
	errno = ENOMEM;
	return -1;
}

/* A line as OpenSM reads it: a later one wins. */
static int conf_line(char *line, unsigned int n, void *ctx)
{
	char *k, *v;

	(void)n;
	if (!oq_opensm_conf_split(line, &k, &v))
		return 0;
	return set(ctx, k, strlen(k), v, strlen(v));
}

int oq_conf_parse(const char *text, size_t len, struct oq_conf *c)
{
	memset(c, 0, sizeof(*c));
	if (oq_opensm_conf_lines(text, len, conf_line, c)) {
		oq_conf_free(c);
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void oq_conf_free(struct oq_conf *c)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		free(c->v[i].key);
		free(c->v[i].val);
	}
	free(c->v);
	memset(c, 0, sizeof(*c));
}

const char *oq_conf_get(const struct oq_conf *c, const char *key)
{
	const struct oq_conf_item *it = find(c, key);

	if (!it || !*it->val || !strcmp(it->val, "(null)"))
		return NULL;
	return it->val;
}
