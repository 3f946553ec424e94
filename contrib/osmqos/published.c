// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Reading what the plugin publishes (published.h).  The Prometheus file
 * is the plugin's live record: the master rewrites its counters every
 * publish_interval seconds, where the JSON is written at sweeps only.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <osmqos/file.h>

#include "cli.h"
#include "published.h"

const char *oq_pub_dir(const char *given)
{
	return given ? given : oq_cache_dir();
}

bool oq_pub_path(const char *dir, const char *name, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	return n > 0 && (size_t)n < len;
}

int oq_pub_in_force(const char *cmd, const char *publish_dir, char *buf,
		    size_t len, const char *instead)
{
	const char *dir = oq_pub_dir(publish_dir);

	if (!oq_pub_path(dir, OQ_PUB_IN_FORCE, buf, len))
		return oq_usage_error(cmd, "--publish-dir '%s' is too long",
				      dir);
	if (access(buf, F_OK))
		return oq_usage_error(
			cmd,
			"no policy in force published in %s (the plugin "
			"writes %s there once a policy is good: is it loaded, "
			"and is its publish_dir= that directory?); give "
			"--publish-dir DIR, or %s",
			dir, OQ_PUB_IN_FORCE, instead);
	return OQ_EXIT_OK;
}

/* A label value up to its closing quote, unescaped in place (\\, \", \n);
 * returns the byte after the quote, or NULL. */
static char *label_value(char *s, char **val)
{
	char *w = s;

	*val = s;
	for (; *s && *s != '"'; s++) {
		if (*s == '\\' && s[1]) {
			s++;
			*w++ = *s == 'n' ? '\n' : *s;
		} else {
			*w++ = *s;
		}
	}
	if (*s != '"')
		return NULL;
	*w = '\0';
	return s + 1;
}

/* One sample line, parsed in place (line stays owned by the caller). */
static int parse_sample(char *line, struct oq_prom_sample *out)
{
	char *s = line, *end;

	memset(out, 0, sizeof(*out));
	while (*s && *s != '{' && *s != ' ')
		s++;
	out->name = strndup(line, (size_t)(s - line));
	if (!out->name)
		return -1;
	if (*s == '{') {
		s++;
		while (*s && *s != '}') {
			struct oq_prom_label *nl;
			char *key = s, *val;

			while (*s && *s != '=')
				s++;
			if (s[0] != '=' || s[1] != '"')
				return -1;
			*s = '\0';
			s = label_value(s + 2, &val);
			if (!s)
				return -1;
			nl = realloc(out->labels,
				     (out->n_labels + 1) * sizeof(*nl));
			if (!nl)
				return -1;
			out->labels = nl;
			nl[out->n_labels].key = strdup(key);
			nl[out->n_labels].val = strdup(val);
			out->n_labels++;
			if (!nl[out->n_labels - 1].key ||
			    !nl[out->n_labels - 1].val)
				return -1;
			if (*s == ',')
				s++;
		}
		if (*s != '}')
			return -1;
		s++;
	}
	while (*s == ' ')
		s++;
	errno = 0;
	out->value = strtod(s, &end);
	if (end == s || errno)
		return -1;
	return 0;
}

static void sample_free(struct oq_prom_sample *s)
{
	size_t i;

	for (i = 0; i < s->n_labels; i++) {
		free(s->labels[i].key);
		free(s->labels[i].val);
	}
	free(s->labels);
	free(s->name);
}

int oq_prom_load(const char *path, struct oq_prom *out, size_t *bad_line)
{
	size_t len = 0, cap = 0, no = 0;
	char *text = oq_file_read(path, OQ_FILE_MAX_BYTES, &len), *line, *next;

	memset(out, 0, sizeof(*out));
	*bad_line = 0;
	if (!text)
		return -1;
	for (line = text; line && *line; line = next) {
		struct oq_prom_sample s;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		no++;
		if (!*line || *line == '#')
			continue;
		if (out->n == cap) {
			struct oq_prom_sample *v;

			cap = cap ? cap * 2 : 64;
			v = realloc(out->v, cap * sizeof(*v));
			if (!v)
				goto fail;
			out->v = v;
		}
		if (parse_sample(line, &s)) {
			sample_free(&s);
			*bad_line = no;
			errno = EINVAL;
			goto fail;
		}
		out->v[out->n++] = s;
	}
	free(text);
	return 0;
fail:
	free(text);
	oq_prom_free(out);
	return -1;
}

void oq_prom_free(struct oq_prom *p)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		sample_free(&p->v[i]);
	free(p->v);
	memset(p, 0, sizeof(*p));
}

const char *oq_prom_label(const struct oq_prom_sample *s, const char *key)
{
	size_t i;

	for (i = 0; i < s->n_labels; i++)
		if (!strcmp(s->labels[i].key, key))
			return s->labels[i].val;
	return NULL;
}

const struct oq_prom_sample *oq_prom_find(const struct oq_prom *p,
					  const char *name, const char *key,
					  const char *val)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		const char *l;

		if (strcmp(p->v[i].name, name))
			continue;
		if (!key)
			return &p->v[i];
		l = oq_prom_label(&p->v[i], key);
		if (l && (!val || !strcmp(l, val)))
			return &p->v[i];
	}
	return NULL;
}

/* Slack for a busy host, on top of two missed intervals. */
#define STALE_SLACK_S 5.0

bool oq_pub_stale(double published, double interval, double now)
{
	return interval > 0 && now - published > 2 * interval + STALE_SLACK_S;
}

bool oq_prom_stale(const struct oq_prom *p, double now, double *age)
{
	const struct oq_prom_sample *t, *i;

	t = oq_prom_find(p, "osmqos_publish_timestamp_seconds", NULL, NULL);
	i = oq_prom_find(p, "osmqos_publish_interval_seconds", NULL, NULL);
	if (age)
		*age = now - (t ? t->value : 0);
	return oq_pub_stale(t ? t->value : 0, i ? i->value : -1, now);
}
