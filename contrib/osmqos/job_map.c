// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* The job mapping file: see job_map.h and docs/jobs.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/file.h>
#include <osmqos/json.h>

#include "cli.h"
#include "job_map.h"

#define MAX_TOKENS 16

static const char *const attr_names[OQ_JA_N] = {"partition", "qos", "account"};

enum setting {
	S_FABRIC,
	S_POLICY,
	S_PARTITIONS,
	S_NODE_NAME_MAP,
	S_OSMQOS,
	S_SPOOL,
	S_DEFAULT,
	S_PREFER,
	S_OPT_OUT,
	S_OVERRIDE,
	S_ALL_PAIRS,
	S_MAX_QUERIES,
	S_CA,
	S_CA_PORT,
	S_TIMEOUT,
	S_N
};

static const char *const setting_names[S_N] = {
	"fabric",
	"policy",
	"partitions",
	"node-name-map",
	"osmqos",
	"spool",
	"default",
	"prefer",
	"allow-opt-out",
	"allow-override",
	"all-pairs",
	"max-queries",
	"ca",
	"ca-port",
	"timeout",
};

struct tok {
	const char *s; /* NUL-terminated copy */
	unsigned int col;
};

struct line_ctx {
	struct oq_job_map *m;
	struct oq_diags *diags;
	unsigned int line;
	struct tok t[MAX_TOKENS];
	size_t n;
	/* Where each setting was first given (0: not yet). */
	unsigned int seen[S_N];
};

static struct oq_loc loc_at(const struct line_ctx *c, unsigned int col)
{
	struct oq_loc l = {c->m->file, c->line, col};

	return l;
}

/* The line's text is valid UTF-8 without control bytes but tab: 0, or
 * the 1-based column of the first bad byte. */
static unsigned int bad_byte(const char *s, size_t n)
{
	size_t i = 0, k;

	while (i < n) {
		unsigned char ch = (unsigned char)s[i];

		if ((ch < 0x20 && ch != '\t') || ch == 0x7f)
			return (unsigned int)i + 1;
		k = oq_utf8_seq((const unsigned char *)s + i, n - i);
		if (!k)
			return (unsigned int)i + 1;
		i += k;
	}
	return 0;
}

/* The class from word at on, and the column of its value (or of its
 * kind when it has none) into *col. */
static int class_of(struct line_ctx *c, size_t at, struct oq_job_class *cls,
		    unsigned int *col)
{
	char err[256];
	struct oq_diag *d;

	if (at >= c->n) {
		d = oq_error(c->diags, loc_at(c, c->t[c->n - 1].col),
			     "'%s' needs a class", c->t[0].s);
		oq_diag_hint(d, "give sid N, qos-class N, pkey N, level NAME, "
				"plain or none");
		return -1;
	}
	if (at + 2 < c->n) {
		oq_error(c->diags, loc_at(c, c->t[at + 2].col),
			 "unexpected '%s' after the class", c->t[at + 2].s);
		return -1;
	}
	if (oq_job_class_parse(c->t[at].s,
			       at + 1 < c->n ? c->t[at + 1].s : NULL, cls, err,
			       sizeof(err))) {
		oq_error(c->diags, loc_at(c, c->t[at].col), "%s", err);
		return -1;
	}
	*col = c->t[at + 1 < c->n ? at + 1 : at].col;
	return 0;
}

static int yes_no(struct line_ctx *c, bool *out)
{
	if (c->n == 2 && !strcmp(c->t[1].s, "yes")) {
		*out = true;
		return 0;
	}
	if (c->n == 2 && !strcmp(c->t[1].s, "no")) {
		*out = false;
		return 0;
	}
	oq_error(c->diags, loc_at(c, c->n > 1 ? c->t[1].col : c->t[0].col),
		 "'%s' takes yes or no", c->t[0].s);
	return -1;
}

static int path_value(struct line_ctx *c, char **out)
{
	if (c->n != 2) {
		struct oq_diag *d = oq_error(
			c->diags,
			loc_at(c, c->n > 2 ? c->t[2].col : c->t[0].col),
			"'%s' takes one path", c->t[0].s);

		oq_diag_hint(d, "a path without blanks or '#'");
		return -1;
	}
	/* Relative to what?  The Slurm scripts and job-env run in whatever
	 * directory slurmd has. */
	if (c->t[1].s[0] != '/') {
		oq_error(c->diags, loc_at(c, c->t[1].col),
			 "'%s' is given the relative path '%.200s': give an "
			 "absolute path (starting with '/')",
			 c->t[0].s, c->t[1].s);
		return -1;
	}
	*out = strdup(c->t[1].s);
	return *out ? 0 : -1;
}

/* One number in min..max, as job-env's option of the same name takes. */
static int num_value(struct line_ctx *c, unsigned long long min,
		     unsigned long long max, unsigned long long *out)
{
	if (c->n == 2 && !oq_parse_u64(c->t[1].s, out) && *out >= min &&
	    *out <= max)
		return 0;
	if (c->n == 2)
		oq_error(c->diags, loc_at(c, c->t[1].col),
			 "%s '%.80s' is not a number in %llu..%llu (decimal "
			 "or 0x hex, no leading 0)",
			 c->t[0].s, c->t[1].s, min, max);
	else
		oq_error(c->diags,
			 loc_at(c, c->n > 2 ? c->t[2].col : c->t[0].col),
			 "'%s' takes one number in %llu..%llu", c->t[0].s, min,
			 max);
	return -1;
}

static int map_line(struct line_ctx *c)
{
	struct oq_job_map *m = c->m;
	struct oq_job_map_rule r, *grown;
	size_t i;
	int k;

	memset(&r, 0, sizeof(r));
	r.line = c->line;
	for (i = 1; i < c->n && strchr(c->t[i].s, '='); i++) {
		const char *eq = strchr(c->t[i].s, '=');
		size_t klen = (size_t)(eq - c->t[i].s);

		for (k = 0; k < OQ_JA_N; k++)
			if (strlen(attr_names[k]) == klen &&
			    !strncmp(c->t[i].s, attr_names[k], klen))
				break;
		if (k == OQ_JA_N) {
			struct oq_diag *d =
				oq_error(c->diags, loc_at(c, c->t[i].col),
					 "unknown job attribute '%.*s'",
					 (int)klen, c->t[i].s);

			oq_diag_hint(d, "map lines match partition=, qos= "
					"and account=");
			goto fail;
		}
		if (!eq[1]) {
			oq_error(c->diags, loc_at(c, c->t[i].col),
				 "'%s=' needs a value", attr_names[k]);
			goto fail;
		}
		if (r.attr[k]) {
			oq_error(c->diags, loc_at(c, c->t[i].col),
				 "'%s=' given twice on one map line",
				 attr_names[k]);
			goto fail;
		}
		r.attr[k] = strdup(eq + 1);
		if (!r.attr[k])
			goto fail;
	}
	if (i == 1) {
		struct oq_diag *d = oq_error(
			c->diags,
			loc_at(c, c->n > 1 ? c->t[1].col : c->t[0].col),
			"a map line needs at least one job attribute");

		oq_diag_hint(d, "map partition=NAME qos=NAME account=NAME "
				"CLASS (any of the three)");
		goto fail;
	}
	if (class_of(c, i, &r.cls, &r.col))
		goto fail;
	grown = realloc(m->rules, (m->n_rules + 1) * sizeof(*grown));
	if (!grown)
		goto fail;
	m->rules = grown;
	m->rules[m->n_rules++] = r;
	return 0;
fail:
	for (k = 0; k < OQ_JA_N; k++)
		free(r.attr[k]);
	return -1;
}

static int setting(struct line_ctx *c, enum setting s)
{
	struct oq_job_map *m = c->m;
	char err[256];

	if (c->seen[s]) {
		oq_error(c->diags, loc_at(c, c->t[0].col),
			 "'%s' is set twice (first on line %u)",
			 setting_names[s], c->seen[s]);
		return -1;
	}
	c->seen[s] = c->line;
	switch (s) {
	case S_FABRIC:
		return path_value(c, &m->fabric);
	case S_POLICY:
		return path_value(c, &m->policy);
	case S_PARTITIONS:
		return path_value(c, &m->partitions);
	case S_NODE_NAME_MAP:
		return path_value(c, &m->node_name_map);
	case S_OSMQOS:
		return path_value(c, &m->osmqos);
	case S_SPOOL:
		return path_value(c, &m->spool);
	case S_DEFAULT:
		m->dflt_line = c->line;
		return class_of(c, 1, &m->dflt, &m->dflt_col);
	case S_PREFER:
		if (c->n != 2 || oq_job_prefer_parse(c->t[1].s, &m->prefer, err,
						     sizeof(err))) {
			oq_error(
				c->diags,
				loc_at(c, c->n > 1 ? c->t[1].col : c->t[0].col),
				"%s",
				c->n == 2 ? err
					  : "'prefer' takes one word: fail, "
					    "most, lowest, highest or an SL");
			return -1;
		}
		m->has_prefer = true;
		return 0;
	case S_OPT_OUT:
		return yes_no(c, &m->allow_opt_out);
	case S_OVERRIDE:
		return yes_no(c, &m->allow_override);
	case S_ALL_PAIRS:
		m->has_all_pairs = true;
		return yes_no(c, &m->all_pairs);
	case S_MAX_QUERIES:
		m->has_max_queries = true;
		return num_value(c, 1, OQ_JOB_MAX_QUERIES_MAX, &m->max_queries);
	case S_CA:
		if (c->n != 2) {
			oq_error(
				c->diags,
				loc_at(c, c->n > 2 ? c->t[2].col : c->t[0].col),
				"'ca' takes one CA name (ibstat lists them)");
			return -1;
		}
		m->ca = strdup(c->t[1].s);
		return m->ca ? 0 : -1;
	case S_CA_PORT:
		m->has_ca_port = true;
		return num_value(c, 0, OQ_CA_PORT_MAX, &m->ca_port);
	default: /* S_TIMEOUT */
		m->has_timeout = true;
		return num_value(c, 1, OQ_TIMEOUT_MS_MAX, &m->timeout);
	}
}

static int one_line(struct line_ctx *c, char *text, size_t len)
{
	unsigned int bad;
	size_t i = 0;
	int s;

	if (len && text[len - 1] == '\r')
		len--; /* CRLF */
	if (len > OQ_JOB_MAP_LINE_MAX) {
		oq_error(c->diags, loc_at(c, OQ_JOB_MAP_LINE_MAX + 1),
			 "line longer than %d bytes", OQ_JOB_MAP_LINE_MAX);
		return -1;
	}
	bad = bad_byte(text, len);
	if (bad) {
		struct oq_diag *d = oq_error(
			c->diags, loc_at(c, bad),
			"byte 0x%02x: the file must be UTF-8 text without "
			"control characters",
			(unsigned char)text[bad - 1]);

		oq_diag_hint(d, "edit the line; a comment starts with '#'");
		return -1;
	}
	text[len] = '\0';
	c->n = 0;
	while (i < len && text[i] != '#') {
		if (text[i] == ' ' || text[i] == '\t') {
			text[i++] = '\0';
			continue;
		}
		if (c->n == MAX_TOKENS) {
			oq_error(c->diags, loc_at(c, (unsigned int)i + 1),
				 "more than %d words on a line", MAX_TOKENS);
			return -1;
		}
		c->t[c->n].s = text + i;
		c->t[c->n++].col = (unsigned int)i + 1;
		while (i < len && text[i] != ' ' && text[i] != '\t' &&
		       text[i] != '#')
			i++;
	}
	if (i < len)
		text[i] = '\0'; /* the comment */
	if (!c->n)
		return 0;
	if (!strcmp(c->t[0].s, "map"))
		return map_line(c);
	for (s = 0; s < S_N; s++)
		if (!strcmp(c->t[0].s, setting_names[s]))
			return setting(c, (enum setting)s);
	{
		struct oq_diag *d =
			oq_error(c->diags, loc_at(c, c->t[0].col),
				 "unknown keyword '%.64s'", c->t[0].s);

		oq_diag_hint(d, "a line is map ..., default, prefer, "
				"allow-opt-out, allow-override, fabric, "
				"policy, partitions, node-name-map, osmqos, "
				"spool, all-pairs, max-queries, ca, ca-port "
				"or timeout");
	}
	return -1;
}

int oq_job_map_parse(struct oq_job_map *m, const char *file, const char *text,
		     size_t len, struct oq_diags *diags)
{
	struct line_ctx c;
	size_t start = 0, errors = diags->n_errors;
	char *line = NULL;

	memset(m, 0, sizeof(*m));
	memset(&c, 0, sizeof(c));
	m->file = strdup(file ? file : "<map>");
	if (!m->file)
		return -1;
	c.m = m;
	c.diags = diags;
	/* A byte order mark some editors put first is no part of line 1. */
	if (len >= 3 && !memcmp(text, "\xef\xbb\xbf", 3))
		start = 3;
	while (start < len) {
		const char *nl = memchr(text + start, '\n', len - start);
		size_t n = nl ? (size_t)(nl - text - start) : len - start;
		char *grown;

		c.line++;
		/* A long line is reported, not copied whole. */
		grown = realloc(line, (n > OQ_JOB_MAP_LINE_MAX + 2
					       ? OQ_JOB_MAP_LINE_MAX + 2
					       : n) +
					      1);
		if (!grown) {
			free(line);
			return -1;
		}
		line = grown;
		if (n > OQ_JOB_MAP_LINE_MAX + 1) {
			oq_error(diags, loc_at(&c, OQ_JOB_MAP_LINE_MAX + 1),
				 "line longer than %d bytes",
				 OQ_JOB_MAP_LINE_MAX);
		} else {
			memcpy(line, text + start, n);
			one_line(&c, line, n);
		}
		start += n + 1;
	}
	free(line);
	if (diags->n_errors == errors && !m->n_rules && !m->dflt_line) {
		struct oq_loc l = {m->file, 0, 0};
		struct oq_diag *d =
			oq_warning(diags, l,
				   "no map line and no default: no job gets "
				   "an SL");

		oq_diag_hint(d, "add 'map partition=NAME CLASS' lines or "
				"'default level DEFAULT'");
	}
	return diags->n_errors == errors ? 0 : -1;
}

int oq_job_map_load(struct oq_job_map *m, const char *path,
		    struct oq_diags *diags)
{
	size_t len;
	char *text = oq_file_read(path, OQ_JOB_MAP_MAX_BYTES, &len);
	int rc;

	if (!text) {
		char why[64];
		struct oq_loc l = {path, 0, 0};
		struct oq_diag *d;
		int err = errno;

		memset(m, 0, sizeof(*m));
		d = oq_error(diags, l, "cannot read the job map: %s",
			     oq_file_error(err, OQ_JOB_MAP_MAX_BYTES, why,
					   sizeof(why)));
		oq_diag_hint(d, "give the path of a regular file");
		return -1;
	}
	rc = oq_job_map_parse(m, path, text, len, diags);
	free(text);
	return rc;
}

void oq_job_map_free(struct oq_job_map *m)
{
	size_t i;
	int k;

	for (i = 0; i < m->n_rules; i++)
		for (k = 0; k < OQ_JA_N; k++)
			free(m->rules[i].attr[k]);
	free(m->rules);
	free(m->file);
	free(m->fabric);
	free(m->policy);
	free(m->partitions);
	free(m->node_name_map);
	free(m->osmqos);
	free(m->spool);
	free(m->ca);
	memset(m, 0, sizeof(*m));
}

/* Request text is the job's own: quote at most 80 printable bytes. */
/* The longest osmqos= word a job may give: longer ones are no class, not
 * a class read from their first bytes. */
#define REQUEST_WORD_MAX 80

static void quoted(const char *s, size_t n, char *buf, size_t len)
{
	size_t i, o = 0;

	for (i = 0; i < n && i < REQUEST_WORD_MAX && o + 2 < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		buf[o++] = (ch >= 0x20 && ch < 0x7f) ? (char)ch : '?';
	}
	buf[o] = '\0';
}

/* The one "osmqos=..." word of the request: 1 found (*w, *n), 0 none,
 * -1 more than one. */
static int request_word(const char *req, const char **w, size_t *n)
{
	const char *p = req;
	int found = 0;

	while (p && *p) {
		size_t len;

		while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' ||
		       *p == ',' || *p == ';')
			p++;
		len = strcspn(p, " \t\n\r,;");
		if (len > 7 && !strncmp(p, "osmqos=", 7)) {
			if (found)
				return -1;
			found = 1;
			*w = p + 7;
			*n = len - 7;
		}
		p += len;
	}
	return found;
}

static void apply_request(const struct oq_job_map *m, const char *req,
			  struct oq_job_map_result *r)
{
	struct oq_job_class cls;
	char word[128], err[256], cur[96];
	const char *w;
	size_t n;
	int found = request_word(req, &w, &n);

	if (!found)
		return;
	if (found < 0) {
		snprintf(r->note, sizeof(r->note),
			 "the job's request names osmqos= more than once; "
			 "none of them is honoured");
		return;
	}
	quoted(w, n, word, sizeof(word));
	oq_job_class_format(&r->cls, cur, sizeof(cur));
	memset(&cls, 0, sizeof(cls));
	if (strcmp(word, "off") &&
	    (n > REQUEST_WORD_MAX ||
	     oq_job_class_parse_word(word, &cls, err, sizeof(err)))) {
		snprintf(r->note, sizeof(r->note),
			 "the job's request osmqos=%s%s is no class (%.200s): "
			 "it keeps %s",
			 word, n > REQUEST_WORD_MAX ? "..." : "",
			 n > REQUEST_WORD_MAX ? "too long" : err, cur);
		return;
	}
	/* Class none exports nothing, as off does: where opting out is
	 * forbidden, choosing none must be too. */
	if (cls.kind == OQ_JC_NONE) {
		if (!m->allow_opt_out) {
			snprintf(r->note, sizeof(r->note),
				 "the job asked for osmqos=%s, but the map "
				 "does not allow opting out (allow-opt-out "
				 "no): it keeps %s",
				 word, cur);
			return;
		}
		r->cls = cls;
		r->requested = true;
		snprintf(r->why, sizeof(r->why),
			 "the job opted out (osmqos=%s)", word);
		return;
	}
	if (!m->allow_override) {
		snprintf(r->note, sizeof(r->note),
			 "the job asked for osmqos=%s, but the map does not "
			 "allow jobs to choose (allow-override no): it keeps "
			 "%s",
			 word, cur);
		return;
	}
	r->cls = cls;
	r->requested = true;
	snprintf(r->why, sizeof(r->why), "the job's request osmqos=%s", word);
}

void oq_job_map_unrequest(struct oq_job_map_result *r, const char *cause)
{
	char req[96], cur[96], *sp;

	if (!r->requested)
		return;
	oq_job_class_format(&r->cls, req, sizeof(req));
	/* As the job wrote it: "level:gold". */
	sp = strchr(req, ' ');
	if (sp)
		*sp = ':';
	r->cls = r->map_cls;
	memcpy(r->why, r->map_why, sizeof(r->why));
	r->requested = false;
	oq_job_class_format(&r->cls, cur, sizeof(cur));
	snprintf(r->note, sizeof(r->note),
		 "the job asked for osmqos=%s, but %.250s: it keeps %s", req,
		 cause, cur);
}

void oq_job_map_resolve(const struct oq_job_map *m,
			const char *const attr[OQ_JA_N], const char *request,
			struct oq_job_map_result *r)
{
	size_t i;
	int k;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < m->n_rules; i++) {
		const struct oq_job_map_rule *rule = &m->rules[i];
		size_t o = 0;

		for (k = 0; k < OQ_JA_N; k++)
			if (rule->attr[k] &&
			    (!attr[k] || strcmp(attr[k], rule->attr[k])))
				break;
		if (k < OQ_JA_N)
			continue;
		r->cls = rule->cls;
		r->map_line = rule->line;
		r->map_col = rule->col;
		o += (size_t)snprintf(r->why, sizeof(r->why), "%s:%u (",
				      m->file, rule->line);
		for (k = 0; k < OQ_JA_N && o < sizeof(r->why); k++)
			if (rule->attr[k])
				o += (size_t)snprintf(
					r->why + o, sizeof(r->why) - o,
					"%s%s=%s",
					r->why[o - 1] == '(' ? "" : " ",
					attr_names[k], rule->attr[k]);
		if (o < sizeof(r->why))
			snprintf(r->why + o, sizeof(r->why) - o, ")");
		break;
	}
	if (i == m->n_rules) {
		r->cls = m->dflt;
		r->map_line = m->dflt_line;
		r->map_col = m->dflt_col;
		if (m->dflt_line)
			snprintf(r->why, sizeof(r->why),
				 "%s:%u (default: no map line matches)",
				 m->file, m->dflt_line);
		else
			snprintf(r->why, sizeof(r->why),
				 "no map line matches and the map sets no "
				 "default");
	}
	r->map_cls = r->cls;
	memcpy(r->map_why, r->why, sizeof(r->map_why));
	if (request)
		apply_request(m, request, r);
}
