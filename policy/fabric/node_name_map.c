// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * OpenSM's node-name map, read as complib's cl_nodenamemap.c reads it
 * (node_name_map.h), and the names it gives a fabric's nodes.
 */
#include <config.h>

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/node_name_map.h>

#include "fabric_int.h"

struct entry {
	uint64_t guid;
	char *name;
	unsigned int line; /* for the duplicate warning */
};

struct oq_node_name_map {
	struct entry *v; /* sorted by GUID once parsed; first line wins */
	size_t n, cap;
};

void oq_node_name_map_free(struct oq_node_name_map *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	free(m);
}

size_t oq_node_name_map_size(const struct oq_node_name_map *m)
{
	return m ? m->n : 0;
}

const char *oq_node_name_map_get(const struct oq_node_name_map *m,
				 uint64_t guid)
{
	size_t lo = 0, hi;

	if (!m)
		return NULL;
	hi = m->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->n && m->v[lo].guid == guid ? m->v[lo].name : NULL;
}

/* isspace() in the C locale OpenSM runs in. */
static bool c_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	       c == '\r';
}

/* strtoull(p, &end, 0) as glibc does it, blanks already skipped: a sign,
 * then 0x hex, 0 octal or decimal; an overflow saturates.  *end == p
 * when no digit was read. */
static uint64_t c_strtoull(const char *p, const char **end)
{
	const char *s = p, *digits;
	unsigned int base = 10;
	bool neg = false, over = false;
	uint64_t v = 0;

	if (*s == '+' || *s == '-')
		neg = *s++ == '-';
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
	    ((s[2] >= '0' && s[2] <= '9') || (s[2] >= 'a' && s[2] <= 'f') ||
	     (s[2] >= 'A' && s[2] <= 'F'))) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	digits = s;
	for (;; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (*s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (*s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			break;
		if (d >= base)
			break;
		if (v > (UINT64_MAX - d) / base)
			over = true;
		v = v * base + d;
	}
	if (s == digits) {
		*end = p;
		return 0;
	}
	*end = s;
	if (over)
		return UINT64_MAX;
	return neg ? (uint64_t)0 - v : v;
}

static struct oq_loc at(const char *file, unsigned int line, size_t col)
{
	struct oq_loc l = {file, line, (unsigned int)col + 1};

	return l;
}

static int add(struct oq_node_name_map *m, uint64_t guid, const char *name,
	       size_t len, unsigned int line)
{
	struct entry *e;

	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;

		e = realloc(m->v, cap * sizeof(*e));
		if (!e)
			return -1;
		m->v = e;
		m->cap = cap;
	}
	e = &m->v[m->n];
	e->name = strndup(name, len);
	if (!e->name)
		return -1;
	e->guid = guid;
	e->line = line;
	m->n++;
	return 0;
}

static int by_guid_then_line(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Sort, keep the first line of each GUID (cl_qmap_insert keeps the
 * item already there), warn about the others. */
static void finish(struct oq_node_name_map *m, const char *file,
		   struct oq_diags *diags)
{
	size_t i, k = 0;

	if (m->n > 1)
		qsort(m->v, m->n, sizeof(*m->v), by_guid_then_line);
	for (i = 0; i < m->n; i++) {
		if (k && m->v[k - 1].guid == m->v[i].guid) {
			oq_diag_hint(
				oq_warning(diags, at(file, m->v[i].line, 0),
					   "GUID 0x%016llx is named again; "
					   "OpenSM keeps the name of "
					   "line %u, '%s'",
					   (unsigned long long)m->v[i].guid,
					   m->v[k - 1].line, m->v[k - 1].name),
				"remove one of the two lines");
			free(m->v[i].name);
			continue;
		}
		m->v[k++] = m->v[i];
	}
	m->n = k;
}

/*
 * A name OpenSM ends early, where a writer meant it to go on: at a '#'
 * inside quotes (a '"' follows it), or at a NUL byte with more of the
 * line after it (C string functions stop there).  Warn with the name
 * OpenSM uses, and return true.  end is the end of the piece's bytes.
 */
static bool cut_name(struct oq_diags *diags, struct oq_loc loc, uint64_t guid,
		     const char *name, const char *stop, const char *end)
{
	const char *why;
	struct oq_diag *d;

	if (*stop == '#' && name[-1] == '"' &&
	    memchr(stop, '"', (size_t)(end - stop)))
		why = "'#'";
	else if (!*stop && stop + 1 < end &&
		 stop[1 + strspn(stop + 1, " \t\r\n")] != '\0')
		why = "a NUL byte";
	else
		return false;
	d = oq_warning(diags, loc,
		       "OpenSM ends the name of GUID 0x%016llx at %s: the "
		       "node is named '%.*s'",
		       (unsigned long long)guid, why, (int)(stop - name), name);
	oq_diag_hint(d,
		     "remove the %s (OpenSM reads none in a name, quoted or "
		     "not)",
		     *stop ? "'#'" : "NUL byte");
	return true;
}

/*
 * One piece as fgets() returned it (at most 255 bytes, up to and with a
 * newline; a NUL ends the string early), parsed as parse_node_map_wrap()
 * and map_name() parse it.  col0 is the piece's column in its line, n its
 * length in bytes (a NUL may come before).
 * Returns 0, 1 when OpenSM would fail the whole map here (reported), or
 * -1 when out of memory.
 */
static int piece(struct oq_node_name_map *m, const char *file,
		 unsigned int line, size_t col0, const char *s, size_t n,
		 struct oq_diags *diags)
{
	const char *p = s, *e, *name, *stop;
	uint64_t guid;
	size_t len;
	bool cut;

	while (c_space(*p))
		p++;
	if (!*p || *p == '#')
		return 0;
	guid = c_strtoull(p, &e);
	if (e == p || (!c_space(*e) && *e != '#' && *e)) {
		const char *bad = e == p ? p : e;
		struct oq_diag *d = oq_error(
			diags, at(file, line, col0 + (size_t)(bad - s)),
			e == p ? "expected a node GUID, found '%.*s'"
			       : "the GUID runs into '%.*s'",
			(int)strcspn(bad, " \t\r\n#\""), bad);

		oq_diag_set_code(d, "node-name-map-bad-line");
		oq_diag_hint(d,
			     "OpenSM then ignores the whole map (\"failed to "
			     "parse node name map\") and names every node "
			     "by its NodeDescription; a line is GUID \"name\"");
		return 1;
	}
	p = e;
	while (c_space(*p))
		p++;
	len = strcspn(p, "\n");
	/* map_name(): strtok(p, "\"#"), the first run of bytes that are
	 * neither '"' nor '#'. */
	name = p + strspn(p, "\"#");
	if (name >= p + len)
		return 0; /* no name: OpenSM adds no entry */
	if (memchr(p, '#', (size_t)(name - p)))
		oq_diag_hint(
			oq_warning(diags,
				   at(file, line, col0 + (size_t)(p - s)),
				   "a '#' after GUID 0x%016llx: OpenSM takes "
				   "the text after it as the node's name",
				   (unsigned long long)guid),
			"write GUID \"name\" # comment, or put the comment "
			"on a line of its own");
	stop = name + strcspn(name, "\"#");
	if (stop > p + len)
		stop = p + len;
	/* A cut is the news, not the blanks it leaves at the end. */
	cut = cut_name(diags, at(file, line, col0 + (size_t)(stop - s)), guid,
		       name, stop, s + n);
	if (!cut && stop[-1] == '\r' && *stop != '"')
		oq_diag_hint(
			oq_warning(
				diags,
				at(file, line, col0 + (size_t)(name - s)),
				"the name of GUID 0x%016llx ends in a "
				"carriage return (a CRLF file), which OpenSM "
				"keeps in the name",
				(unsigned long long)guid),
			"quote the names (\"name\") or convert the file to "
			"LF line ends");
	else if (!cut && *stop != '"' && (stop[-1] == ' ' || stop[-1] == '\t'))
		oq_diag_hint(
			oq_warning(diags,
				   at(file, line, col0 + (size_t)(name - s)),
				   "the name of GUID 0x%016llx ends in blanks, "
				   "which OpenSM keeps in the name",
				   (unsigned long long)guid),
			"quote the name (\"name\") or remove the blanks");
	return add(m, guid, name, (size_t)(stop - name), line) ? -1 : 0;
}

/* A piece past the first 255 bytes of a line: what OpenSM makes of it
 * follows from the line's length. */
static int continued(struct oq_node_name_map *m, const char *file,
		     unsigned int line, size_t col, const char *s, size_t n,
		     struct oq_diags *diags)
{
	unsigned int cause = diags->cause;
	struct oq_diag *d;
	int rc;

	if (!col || !s[strspn(s, " \t\v\f\r\n")])
		return piece(m, file, line, col, s, n, diags);
	d = oq_warning(diags, at(file, line, col),
		       "line %u is longer than 255 bytes: OpenSM reads it in "
		       "pieces and the rest, from column %zu, as a line of "
		       "its own",
		       line, col + 1);
	oq_diag_hint(d, "shorten the line; a name of at most 200 bytes fits");
	diags->cause = oq_diag_id(d);
	rc = piece(m, file, line, col, s, n, diags);
	diags->cause = cause;
	return rc;
}

struct oq_node_name_map *oq_node_name_map_parse(const char *file,
						const char *text, size_t len,
						struct oq_diags *diags,
						int *oom)
{
	struct oq_node_name_map *m = calloc(1, sizeof(*m));
	char buf[OQ_NODE_NAME_MAP_LINE];
	unsigned int line = 1;
	size_t pos = 0, col = 0;

	*oom = 0;
	if (!m) {
		*oom = 1;
		return NULL;
	}
	while (pos < len) {
		size_t n = 0;
		bool nl = false;
		int rc;

		/* fgets(line, 256, f): at most 255 bytes, newline kept. */
		while (pos + n < len && n < sizeof(buf) - 1) {
			buf[n] = text[pos + n];
			if (buf[n++] == '\n') {
				nl = true;
				break;
			}
		}
		buf[n] = '\0';
		rc = continued(m, file, line, col, buf, n, diags);
		if (rc) {
			oq_node_name_map_free(m);
			*oom = rc < 0;
			return NULL;
		}
		pos += n;
		if (nl) {
			line++;
			col = 0;
		} else {
			col += n;
		}
	}
	finish(m, file, diags);
	return m;
}

int oq_fabric_apply_node_names(struct oq_fabric *f,
			       const struct oq_node_name_map *m)
{
	size_t i;

	for (i = 0; i < f->n_nodes; i++) {
		struct oq_node *n = f->nodes[i];

		if (oq_node_set_name(n, oq_node_name_map_get(m, n->guid)))
			return -1;
	}
	return f->finalized ? oq_fabric_index_names(f) : 0;
}

struct oq_node *oq_fabric_node_renamed(const struct oq_fabric *f,
				       const char *text, size_t len, bool host)
{
	size_t i;

	/* A scan: it runs once, after a lookup by name has failed. */
	for (i = 0; f && i < f->n_nodes; i++) {
		struct oq_node *n = f->nodes[i];
		char desc[64];
		size_t h;

		oq_node_print_desc(n->desc, desc);
		if (!strcmp(desc, oq_node_name(n)))
			continue;
		h = strcspn(desc, " \t");
		if ((strlen(desc) == len || (host && h == len)) &&
		    !strncmp(desc, text, len))
			return n;
	}
	return NULL;
}
