// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * partitions.conf, read with OpenSM 3.3.23's rules (osm_prtn_config.c,
 * osm_prtn.c, doc/partition-config.txt), and applied to the fabric's end
 * ports as OpenSM's partition manager would:
 *
 *  - before the file, the Default partition 0x7fff holds every end port
 *    as a limited member and the SM's port as a full member;
 *  - "Name=PKey,flag,flag=val: member, member=full ;" where keywords and
 *    flags match by prefix (OpenSM compares strncmp(word, KEYWORD,
 *    strlen(word))), a repeated P_Key merges into the first definition,
 *    and within a partition the last membership given for a port wins;
 *  - "both" counts as full (OpenSM's allow_both_pkeys is FALSE by default);
 *  - OpenSM stops reading at the first error and falls back to
 *    "Default=0x7fff: ALL=full;" alone, so that is what the ports get
 *    when this returns -1.
 *
 * Only end ports (CA/router ports, switch port 0) get partition tables
 * here; switch external ports are OpenSM's enforcement business and are
 * left as they are.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>
#include <osmqos/file.h>

#define DEFAULT_PKEY 0x7fff

enum member { M_NONE = 0, M_LIMITED = 1, M_FULL = 2 };

struct prtn {
	uint8_t *mem; /* per fabric port index, enum member */
};

struct pctx {
	struct oq_partitions *parts;
	struct prtn *pv; /* parallel to parts->v */
	size_t cap;
	const struct oq_fabric *f;
	struct oq_diags *d;
	uint32_t *by_pkey; /* [0..0x7fff]: index in parts->v + 1, 0 none */
	uint16_t counter;  /* OpenSM's global_pkey_counter */
	/* The open definition (between its header and ';'). */
	int cur;	    /* index in parts->v, -1 none */
	enum member defm; /* defmember= */
	int sl;
	unsigned int line;
	int errors;
	unsigned int chunks; /* not blank: OpenSM parsed something */
};

static struct oq_loc at(const struct pctx *c, unsigned int col)
{
	struct oq_loc l = { c->parts->file, c->line, col };

	return l;
}

static bool prefix_of(const char *word, const char *keyword)
{
	return !strncmp(word, keyword, strlen(word));
}

static int find_pkey(const struct pctx *c, uint16_t pkey)
{
	return (int)c->by_pkey[pkey & DEFAULT_PKEY] - 1;
}

static int new_partition(struct pctx *c, const char *name, uint16_t pkey,
			 struct oq_loc loc)
{
	struct oq_partition *p;
	char buf[8];

	if (c->parts->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 8;
		struct oq_partition *v =
			realloc(c->parts->v, cap * sizeof(*v));
		struct prtn *pv;

		if (!v)
			return -1;
		c->parts->v = v;
		pv = realloc(c->pv, cap * sizeof(*pv));
		if (!pv)
			return -1;
		c->pv = pv;
		c->cap = cap;
	}
	if (!name || !*name) {
		snprintf(buf, sizeof(buf), "%04x", pkey);
		name = buf;
	}
	p = &c->parts->v[c->parts->n];
	p->name = strdup(name);
	p->pkey = pkey;
	p->sl = -1;
	p->loc = loc;
	c->pv[c->parts->n].mem = NULL;
	if (!p->name)
		return -1;
	if (c->f && c->f->n_ports) {
		c->pv[c->parts->n].mem = calloc(c->f->n_ports, 1);
		if (!c->pv[c->parts->n].mem) {
			free(p->name);
			return -1;
		}
	}
	c->by_pkey[pkey & DEFAULT_PKEY] = (uint32_t)c->parts->n + 1;
	return (int)c->parts->n++;
}

/* osm_prtn_make_new(): pkey 0 means "by name, else generate one". */
static int make_partition(struct pctx *c, const char *name, uint16_t pkey,
			  unsigned int col)
{
	int i;

	pkey &= DEFAULT_PKEY;
	if (!pkey) {
		size_t k;

		for (k = 0; name && *name && k < c->parts->n; k++)
			if (!strcmp(c->parts->v[k].name, name))
				return (int)k;
		do {
			if (c->counter >= DEFAULT_PKEY - 1)
				return -1;
			pkey = ++c->counter;
		} while (find_pkey(c, pkey) >= 0);
	}
	i = find_pkey(c, pkey);
	if (i >= 0)
		return i; /* merged: the first name stays */
	return new_partition(c, name, pkey, at(c, col));
}

static void set_member(struct pctx *c, int part, const struct oq_port *p,
		       enum member m)
{
	if (c->pv[part].mem)
		c->pv[part].mem[oq_port_index(c->f, p)] = (uint8_t)m;
}

static void add_all(struct pctx *c, int part, int type, enum member m)
{
	size_t k;

	if (!c->f)
		return;
	for (k = 0; k < c->f->n_ports; k++) {
		const struct oq_port *p = c->f->ports[k];

		if (oq_port_is_endport(p) &&
		    (!type || (int)p->node->type == type))
			set_member(c, part, p, m);
	}
}

static void add_guid(struct pctx *c, int part, uint64_t guid, enum member m,
		     unsigned int col, bool self)
{
	const struct oq_port *p;

	if (!c->f)
		return;
	p = oq_fabric_port_by_guid(c->f, guid);
	if (!p) {
		if (self)
			oq_warning(c->d, at(c, col),
				   "SELF: the fabric names no SM port");
		else if (c->f->live)
			/* Discovered from the subnet: it has no such port. */
			oq_warning(c->d, at(c, col),
				   "port GUID 0x%016" PRIx64
				   " is not an end port of the subnet; OpenSM "
				   "ignores it",
				   guid);
		else
			/* A file, not the SM's subnet: the GUID may be live
			 * and the file stale. */
			oq_diag_hint(
				oq_warning(c->d, at(c, col),
					   "port GUID 0x%016" PRIx64
					   " is not an end port in the fabric "
					   "file",
					   guid),
				"OpenSM ignores a GUID its subnet does not "
				"have; if the subnet has this one, the fabric "
				"file is stale: refresh it (ibnetdiscover)");
		return;
	}
	set_member(c, part, p, m);
}

/* Split "name=value" (either may be empty), trimming blanks. */
static void name_value(char *s, char **name, char **val)
{
	char *eq = strchr(s, '='), *e;

	*val = NULL;
	if (eq) {
		*eq = '\0';
		*val = eq + 1;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	*name = s;
	if (*val) {
		s = *val;
		while (*s == ' ' || *s == '\t')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		*val = s;
	}
}

static unsigned int col(const struct pctx *c, const char *line, const char *p)
{
	(void)c;
	return (unsigned int)(p - line) + 1;
}

/* osm_prtn_config.c partition_add_flag() + parse_group_flag(). */
static void header_flag(struct pctx *c, const char *line, char *flag,
			char *val)
{
	unsigned int k = col(c, line, flag);
	static const char *const group[] = { "mtu", "rate", "scope", "Q_Key",
					     "TClass" };
	size_t i;

	for (i = 0; i < sizeof(group) / sizeof(group[0]); i++)
		if (prefix_of(flag, group[i]))
			return; /* multicast group settings: not QoS */
	if (prefix_of(flag, "sl")) {
		char *end;
		unsigned long sl = val ? strtoul(val, &end, 0) : 16;

		if (!val || !*val || sl > 15 || *end)
			oq_warning(c->d, at(c, k),
				   "flag 'sl' needs a value 0..15; OpenSM "
				   "skips it");
		else
			c->sl = (int)sl;
		return;
	}
	if (prefix_of(flag, "FlowLabel"))
		return;
	if (prefix_of(flag, "ipoib"))
		return;
	if (prefix_of(flag, "defmember")) {
		if (!val ||
		    (!prefix_of(val, "limited") && !prefix_of(val, "both") &&
		     !prefix_of(val, "full")))
			oq_warning(c->d, at(c, k),
				   "flag 'defmember' needs full, limited or "
				   "both; OpenSM skips it");
		else if (prefix_of(val, "full") || prefix_of(val, "both"))
			c->defm = M_FULL;
		else
			c->defm = M_LIMITED;
		return;
	}
	if (!strcmp(flag, "indx0"))
		return;
	oq_warning(c->d, at(c, k),
		   "unknown partition flag '%s'; OpenSM ignores it", flag);
}

/* "Name=PKey,flags" (the text before ':'). */
static int header(struct pctx *c, const char *line, char *hdr)
{
	char *name, *id, *flag, *val, *comma = strchr(hdr, ',');
	char *next;
	uint16_t pkey = 0;
	int part;

	if (comma)
		*comma = '\0';
	name_value(hdr, &name, &id);
	c->defm = M_LIMITED;
	c->sl = -1;
	for (next = comma ? comma + 1 : NULL; next;) {
		char *tok = next;

		comma = strchr(tok, ',');
		if (comma)
			*comma = '\0';
		next = comma ? comma + 1 : NULL;
		name_value(tok, &flag, &val);
		header_flag(c, line, flag, val);
	}
	if (!id && isdigit((unsigned char)*name)) {
		id = name;
		name = NULL;
	}
	if (id) {
		char *end;
		unsigned long v;

		errno = 0;
		v = strtoul(id, &end, 0);
		if (end == id || *end || errno) {
			oq_diag_hint(oq_error(c->d, at(c, col(c, line, id)),
					      "bad P_Key '%s'", id),
				     "write Name=0x8001: members ;");
			return -1;
		}
		pkey = (uint16_t)v;
	}
	part = make_partition(c, name, pkey, col(c, line, hdr));
	if (part < 0) {
		oq_error(c->d, at(c, col(c, line, hdr)),
			 "cannot create this partition (out of P_Keys or "
			 "memory)");
		return -1;
	}
	/* Every definition sets the partition's SL, as OpenSM does. */
	c->parts->v[part].sl = c->sl;
	c->cur = part;
	return 0;
}

static int member(struct pctx *c, const char *line, char *tok)
{
	char *name, *flag;
	enum member m;
	unsigned int k;

	name_value(tok, &name, &flag);
	k = col(c, line, name);
	if (!*name || prefix_of(name, "NONE"))
		return 0;
	m = c->defm;
	if (flag) {
		m = M_LIMITED;
		if (prefix_of(flag, "full") || prefix_of(flag, "both"))
			m = M_FULL;
		else if (!prefix_of(flag, "limited"))
			oq_warning(c->d, at(c, col(c, line, flag)),
				   "unknown membership '%s'; OpenSM assumes "
				   "limited",
				   flag);
	}
	if (prefix_of(name, "ALL")) {
		add_all(c, c->cur, 0, m);
	} else if (prefix_of(name, "ALL_CAS")) {
		add_all(c, c->cur, OQ_NODE_CA, m);
	} else if (prefix_of(name, "ALL_SWITCHES")) {
		add_all(c, c->cur, OQ_NODE_SWITCH, m);
	} else if (prefix_of(name, "ALL_ROUTERS")) {
		add_all(c, c->cur, OQ_NODE_ROUTER, m);
	} else if (prefix_of(name, "SELF")) {
		add_guid(c, c->cur, c->f ? c->f->sm_port_guid : 0, m, k, true);
	} else {
		char *end;
		uint64_t guid;

		errno = 0;
		guid = strtoull(name, &end, 0);
		if (!guid || *end || errno) {
			oq_diag_hint(oq_error(c->d, at(c, k),
					      "bad port GUID '%s'", name),
				     "members are port GUIDs (0x...), ALL, "
				     "ALL_CAS, ALL_SWITCHES, ALL_ROUTERS or "
				     "SELF");
			return -1;
		}
		add_guid(c, c->cur, guid, m, k, false);
	}
	return 0;
}

/* Text between ';'s on one line.  Returns -1 on a parse error. */
static int chunk(struct pctx *c, const char *line, char *s)
{
	char *next;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (!*s)
		return 0;
	c->chunks++;
	if (c->cur < 0) {
		char *colon = strchr(s, ':');

		if (!colon) {
			oq_diag_hint(oq_error(c->d, at(c, col(c, line, s)),
					      "no partition definition found"),
				     "a definition starts with Name=PKey: on "
				     "one line");
			return -1;
		}
		*colon = '\0';
		if (header(c, line, s))
			return -1;
		s = colon + 1;
	}
	for (next = s; next;) {
		char *tok = next, *comma = strchr(tok, ','), *t;

		if (comma)
			*comma = '\0';
		next = comma ? comma + 1 : NULL;
		t = tok + strspn(tok, " \t\r");
		if (!strncmp(t, "mgid", 4) &&
		    (t[4] == '=' || t[4] == ' ' || t[4] == '\t'))
			return 0; /* a multicast group takes the rest */
		if (member(c, line, tok))
			return -1;
	}
	return 0;
}

static void apply(struct pctx *c, bool fallback)
{
	size_t k, j, n = c->parts->n;
	uint16_t *tbl;

	if (!c->f || !c->f->n_ports)
		return;
	tbl = malloc((n ? n : 1) * sizeof(*tbl));
	if (!tbl)
		return;
	for (k = 0; k < c->f->n_ports; k++) {
		struct oq_port *p = c->f->ports[k];
		size_t m = 0;

		if (!oq_port_is_endport(p))
			continue;
		for (j = 0; j < n; j++) {
			uint8_t v = c->pv[j].mem ? c->pv[j].mem[k] : 0;

			if (fallback && c->parts->v[j].pkey == DEFAULT_PKEY)
				v = M_FULL;
			if (v)
				tbl[m++] = (uint16_t)(c->parts->v[j].pkey |
						      (v == M_FULL ?
							       OQ_PKEY_FULL :
							       0));
		}
		oq_port_set_pkeys(p, tbl, m);
	}
	free(tbl);
}

/* After an error OpenSM keeps only "Default=0x7fff: ALL=full". */
static void fall_back(struct pctx *c)
{
	size_t i, keep = 0;

	for (i = 0; i < c->parts->n; i++) {
		if (c->parts->v[i].pkey == DEFAULT_PKEY) {
			c->parts->v[keep] = c->parts->v[i];
			c->pv[keep++] = c->pv[i];
		} else {
			free(c->parts->v[i].name);
			free(c->pv[i].mem);
		}
	}
	c->parts->n = keep;
}

int oq_partitions_parse(struct oq_partitions *parts, const char *file,
			const char *text, size_t len, struct oq_fabric *f,
			struct oq_diags *diags)
{
	struct pctx c;
	struct oq_diags local;
	size_t pos = 0, i;
	char *buf = NULL;
	int part;

	memset(parts, 0, sizeof(*parts));
	memset(&c, 0, sizeof(c));
	if (!diags) {
		oq_diags_init(&local);
		diags = &local;
	}
	parts->file = strdup(file ? file : "<partitions>");
	c.parts = parts;
	c.f = f && f->finalized ? f : NULL;
	c.d = diags;
	c.cur = -1;
	c.by_pkey = calloc(DEFAULT_PKEY + 1, sizeof(*c.by_pkey));
	if (!parts->file || !c.by_pkey)
		goto nomem;
	/* prtn_make_default(): all end ports limited, the SM's port full. */
	part = make_partition(&c, "Default", DEFAULT_PKEY, 0);
	if (part < 0)
		goto nomem;
	add_all(&c, part, 0, M_LIMITED);
	if (c.f && c.f->sm_port_guid) {
		const struct oq_port *sm =
			oq_fabric_port_by_guid(c.f, c.f->sm_port_guid);

		if (sm)
			set_member(&c, part, sm, M_FULL);
	}
	while (pos < len && !c.errors) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		char *b = realloc(buf, n + 1), *s, *hash;

		if (!b)
			goto nomem;
		buf = b;
		memcpy(buf, text + pos, n);
		buf[n] = '\0';
		pos += n + (nl ? 1 : 0);
		c.line++;
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		for (s = buf; s;) {
			char *semi = strchr(s, ';');

			if (semi)
				*semi = '\0';
			if (chunk(&c, buf, s)) {
				c.errors++;
				break;
			}
			if (semi)
				c.cur = -1;
			s = semi ? semi + 1 : NULL;
		}
	}
	free(buf);
	buf = NULL;
	if (c.errors) {
		oq_diag_add(diags, OQ_SEV_NOTE, at(&c, 0),
			    "OpenSM stops reading here and uses only "
			    "\"Default=0x7fff: ALL=full;\"");
		fall_back(&c);
	} else if (c.cur >= 0) {
		oq_warning(diags, at(&c, 0),
			   "the last partition definition has no ';'");
	} else if (!c.chunks) {
		/* osm_prtn_config_parse_file() reports a file without a
		 * definition as failed, and OpenSM falls back. */
		oq_diag_hint(oq_warning(diags,
					(struct oq_loc){parts->file, 0, 0},
					"no partition definition: OpenSM logs "
					"the file as in error and uses only "
					"\"Default=0x7fff: ALL=full;\""),
			     "define the partitions, or remove the file");
	}
	apply(&c, c.errors != 0 || !c.chunks);
	for (i = 0; i < parts->n; i++)
		free(c.pv[i].mem);
	free(c.pv);
	free(c.by_pkey);
	if (diags == &local)
		oq_diags_free(&local);
	return c.errors ? -EBADMSG : 0;
nomem:
	free(buf);
	for (i = 0; i < parts->n; i++)
		free(c.pv[i].mem);
	free(c.pv);
	free(c.by_pkey);
	oq_error(diags, (struct oq_loc){ parts->file, 0, 0 }, "out of memory");
	if (diags == &local)
		oq_diags_free(&local);
	return -ENOMEM;
}

void oq_partition_undefined(struct oq_diags *diags, struct oq_loc loc,
			    const char *name, const struct oq_partitions *parts)
{
	if (parts->file && !strcmp(parts->file, OQ_PARTITIONS_NO_FILE))
		oq_warning(diags, loc,
			   "partition '%s' is not defined: there is no "
			   "partitions file, and OpenSM then has only its "
			   "Default partition",
			   name);
	else
		oq_warning(diags, loc, "partition '%s' is not defined in %s",
			   name,
			   parts->file ? parts->file : "the partitions file");
}

int oq_partitions_no_file(struct oq_partitions *parts, struct oq_fabric *f,
			  struct oq_diags *diags)
{
	/* prtn_make_default(no_config = TRUE): ALL full, as this line. */
	static const char text[] = "Default=0x7fff: ALL=full;\n";

	return oq_partitions_parse(parts, OQ_PARTITIONS_NO_FILE, text,
				   sizeof(text) - 1, f, diags);
}

int oq_partitions_load(struct oq_partitions *parts, const char *path,
		       struct oq_fabric *f, struct oq_diags *diags)
{
	size_t len = 0;
	char *buf = oq_file_read(path, OQ_FILE_MAX_BYTES, &len), why[64];
	int r, err;

	if (!buf) {
		err = errno;
		memset(parts, 0, sizeof(*parts));
		if (diags)
			oq_diag_hint(
				oq_error(diags, (struct oq_loc){path, 0, 0},
					 "cannot read partitions file: %s",
					 oq_file_error(err, OQ_FILE_MAX_BYTES,
						       why, sizeof(why))),
				"give OpenSM's partitions.conf (usually "
				"%s)",
				OQ_OSM_PARTITIONS_FILE);
		return -err;
	}
	r = oq_partitions_parse(parts, path, buf, len, f, diags);
	free(buf);
	return r;
}

void oq_partitions_free(struct oq_partitions *parts)
{
	size_t i;

	if (!parts)
		return;
	for (i = 0; i < parts->n; i++)
		free(parts->v[i].name);
	free(parts->v);
	free(parts->file);
	memset(parts, 0, sizeof(*parts));
}

const struct oq_partition *oq_partition_by_name(const struct oq_partitions *p,
						const char *name)
{
	size_t i;

	if (!p || !name)
		return NULL;
	for (i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].name, name))
			return &p->v[i];
	return NULL;
}
