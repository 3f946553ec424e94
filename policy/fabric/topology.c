// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Topology files: ibnetdiscover output and ibsim net files, which are the
 * same grammar (ibsim reads ibnetdiscover output).  This file reads lines
 * and node records the way ibsim's sim_net.c does, so that a file means
 * here what it means to the simulator; topology_ibsim.c turns the records
 * into a fabric.  Every malformed line becomes a FILE:LINE:COL diagnostic.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>

#include "topology_int.h"
#include <osmqos/file.h>
#include <osmqos/htab.h>

#define MAX_ID 64   /* ibsim NODEIDLEN - 1 */
#define MAX_DESC 63 /* ibsim keeps nodedesc[64], NUL-terminated */
#define LID_UCAST_END 0xbfff /* IBA: unicast LIDs are 1..0xBFFF */

struct reader {
	const char *text;
	size_t len, pos;
	unsigned int lineno;
	char *buf;
	size_t cap;
};

struct oq_loc topo_loc(const struct topo *t, unsigned int line,
		       unsigned int col)
{
	struct oq_loc l = { t->file, line, col };

	return l;
}

static unsigned int col_of(const char *line, const char *p)
{
	return (unsigned int)(p - line) + 1;
}

/* Next line, NUL-terminated without its newline (and a DOS '\r').
 * NULs inside a line end it early, as they do for ibsim's string code. */
static const char *next_line(struct reader *r)
{
	size_t start = r->pos, n;
	const char *nl;

	if (r->pos >= r->len)
		return NULL;
	nl = memchr(r->text + start, '\n', r->len - start);
	n = nl ? (size_t)(nl - (r->text + start)) : r->len - start;
	r->pos = start + n + (nl ? 1 : 0);
	r->lineno++;
	if (n + 1 > r->cap) {
		size_t cap = n + 1 < 256 ? 256 : n + 1;
		char *b = realloc(r->buf, cap);

		if (!b)
			return NULL;
		r->buf = b;
		r->cap = cap;
	}
	memcpy(r->buf, r->text + start, n);
	if (n && r->buf[n - 1] == '\r')
		n--;
	r->buf[n] = '\0';
	return r->buf;
}

/* Intern a node id (kept NUL-terminated): its number, or UINT32_MAX
 * when out of memory. */
static uint32_t id_add(struct topo *t, const char *s, size_t len)
{
	char buf[MAX_ID + 1];
	uint32_t id;

	memcpy(buf, s, len);
	buf[len] = '\0';
	if (oq_intern_add(&t->ids, buf, len + 1, &id) < 0)
		return UINT32_MAX;
	if (id >= t->node_of_cap) {
		size_t cap = t->node_of_cap ? 2 * t->node_of_cap : 64;
		uint32_t *v = realloc(t->node_of, cap * sizeof(*v));

		if (!v)
			return UINT32_MAX;
		memset(v + t->node_of_cap, 0,
		       (cap - t->node_of_cap) * sizeof(*v));
		t->node_of = v;
		t->node_of_cap = cap;
	}
	return id;
}

struct topo_node *topo_find(const struct topo *t, uint32_t id)
{
	uint32_t n = id < t->node_of_cap ? t->node_of[id] : 0;

	return n ? &t->nodes[n - 1] : NULL;
}

static void nomem(struct topo *t, unsigned int line)
{
	oq_error(t->d, topo_loc(t, line, 0), "out of memory");
}

/* The quoted string starting at the first '"' at or after s. */
static const char *quoted(const char *s, const char **end)
{
	const char *a = strchr(s, '"'), *b;

	if (!a)
		return NULL;
	b = strchr(a + 1, '"');
	if (!b)
		return NULL;
	*end = b;
	return a + 1;
}

/* What ibnetdiscover prints after a node's description: nothing (CAs,
 * routers) or a switch's port 0 (" enhanced port 0 lid N lmc N"). */
static bool ibnd_trailer(const char *s)
{
	const char *t = s + strspn(s, " \t\r");

	return !*t || !strncmp(s, " enhanced port ", 15) ||
	       !strncmp(s, " base port ", 11);
}

/* The closing quote of an ibnetdiscover description starting at h: the
 * last '"' that only a trailer follows, else the first. */
static const char *ibnd_desc_end(const char *h)
{
	const char *q, *first = strchr(h, '"');

	for (q = h + strlen(h); q > h; q--)
		if (q[-1] == '"' && ibnd_trailer(q))
			return q - 1;
	return first;
}

/*
 * NodeDescription as ibsim's parse_node_desc() finds it: after '#', a
 * quoted string, or the words up to " enhanced port ", " base port ",
 * " lid " or " lmc ".  ibnetdiscover prints the description between quotes
 * without escaping any, so in its output (ibnd) a quoted description ends
 * at the last '"' that only the trailer follows (nothing, or a switch's
 * " enhanced port 0 lid N lmc N"): "a "b" lid c" is the node's a "b" lid c,
 * as OpenSM holds it.  Returns where the rest of the line starts.
 */
static const char *parse_desc(const char *s, char *desc, size_t cap,
			      size_t *full_len, bool ibnd)
{
	const char *h = strchr(s, '#'), *e = NULL, *rest;
	static const char *const stops[] = { " enhanced port ", " base port ",
					     " lid ", " lmc " };
	size_t n, k;

	*full_len = 0;
	desc[0] = '\0';
	if (!h)
		return s;
	h++;
	while (isspace((unsigned char)*h))
		h++;
	if (*h == '"') {
		h++;
		e = ibnd ? ibnd_desc_end(h) : strchr(h, '"');
		rest = e ? e + 1 : h + strlen(h);
		n = e ? (size_t)(e - h) : strlen(h);
	} else {
		for (k = 0; k < sizeof(stops) / sizeof(stops[0]) && !e; k++)
			e = strstr(h, stops[k]);
		n = e ? (size_t)(e - h) : strlen(h);
		rest = e ? e + 1 : h + n;
	}
	*full_len = n;
	if (n > cap - 1)
		n = cap - 1;
	memcpy(desc, h, n);
	desc[n] = '\0';
	return rest;
}

/*
 * The number the trailer gives after "lid " (a port's LID) or "lmc "
 * (its LMC) at num.  OpenSM assigns unicast LIDs 1..0xBFFF and LMCs
 * 0..7 only: a LID above that (multicast, the permissive 0xFFFF, or more
 * than 16 bits) would name the port in lid:N lookups as no real port is
 * named, so the port gets none (0); an LMC above 7 is 0.  Each with a
 * warning quoting the number as written, like the annotation's other
 * values a reader cannot use.
 */
uint16_t topo_lid(struct topo *t, const char *line, const char *num,
		  unsigned int lineno)
{
	char *end;
	unsigned long v = strtoul(num, &end, 0);
	const char *what;

	if (v <= LID_UCAST_END)
		return (uint16_t)v;
	what = v == 0xffff  ? "the permissive LID"
	       : v > 0xffff ? "wider than 16 bits"
			    : "a multicast LID";
	oq_warning(t->d, topo_loc(t, lineno, col_of(line, num)),
		   "LID %.*s is %s, not a unicast LID (1 to 0xBFFF); the "
		   "port is taken to have no LID (0)",
		   (int)(end - num), num, what);
	return 0;
}

uint8_t topo_lmc(struct topo *t, const char *line, const char *num,
		 unsigned int lineno)
{
	char *end;
	unsigned long v = strtoul(num, &end, 0);

	if (v <= 7)
		return (uint8_t)v;
	oq_warning(t->d, topo_loc(t, lineno, col_of(line, num)),
		   "LMC %.*s is above 7; the port is taken to have LMC 0",
		   (int)(end - num), num);
	return 0;
}

/* "Switch N "id" # "desc" ...", "Hca N ...", "Ca N ...", "Rt N ...". */
static struct topo_node *parse_header(struct topo *t, const char *line,
				      unsigned int lineno, size_t kwlen,
				      enum oq_node_type type)
{
	const char *p = line + kwlen, *id, *id_end, *rest, *src;
	struct topo_node *n;
	unsigned long nports;
	size_t idlen, desclen, len;
	char *end;
	unsigned int i, maxp = type == OQ_NODE_SWITCH ? OQ_MAX_SW_PORTS : 255;
	char desc[MAX_DESC + 1];

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p)) {
		oq_error(t->d, topo_loc(t, lineno, col_of(line, p)),
			 "expected the number of ports after '%.*s'",
			 (int)kwlen, line);
		return NULL;
	}
	errno = 0;
	nports = strtoul(p, &end, 0);
	if (errno || !nports || nports > maxp) {
		oq_error(t->d, topo_loc(t, lineno, col_of(line, p)),
			 "a %s has 1 to %u ports, not '%.*s'",
			 oq_node_type_name(type), maxp, (int)(end - p), p);
		return NULL;
	}
	id = quoted(end, &id_end);
	if (!id) {
		end += strspn(end, " \t");
		oq_error(t->d, topo_loc(t, lineno, col_of(line, end)),
			 "expected a quoted node id, e.g. \"sw1\"");
		return NULL;
	}
	idlen = (size_t)(id_end - id);
	if (!idlen || idlen > MAX_ID || memchr(id, '#', idlen) ||
	    memchr(id, '@', idlen)) {
		struct oq_diag *dg = oq_error(
			t->d, topo_loc(t, lineno, col_of(line, id)),
			"bad node id \"%.*s\"", (int)(idlen > 80 ? 80 : idlen),
			id);
		oq_diag_hint(dg, "ids are 1 to %d characters without '#' "
				 "or '@' (ibsim reserves them)", MAX_ID);
		return NULL;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct topo_node *v = realloc(t->nodes, cap * sizeof(*v));

		if (!v) {
			nomem(t, lineno);
			return NULL;
		}
		t->nodes = v;
		t->cap = cap;
	}
	n = &t->nodes[t->n];
	memset(n, 0, sizeof(*n));
	n->id = id_add(t, id, idlen);
	if (n->id == UINT32_MAX) {
		nomem(t, lineno);
		return NULL;
	}
	if (topo_find(t, n->id)) {
		oq_error(t->d, topo_loc(t, lineno, col_of(line, id)),
			 "node id \"%s\" is already used", topo_str(t, n->id));
		return NULL;
	}
	n->ports = calloc(nports + 1, sizeof(*n->ports));
	if (!n->ports) {
		nomem(t, lineno);
		return NULL;
	}
	n->type = type;
	n->n_ports = (uint8_t)nports;
	n->line = lineno;
	rest = parse_desc(id_end + 1, desc, sizeof(desc), &desclen,
			  t->ibnd);
	if (desclen > MAX_DESC)
		oq_warning(t->d, topo_loc(t, lineno, 0),
			   "NodeDescription longer than %d characters is "
			   "cut (as ibsim does)",
			   MAX_DESC);
	src = desc[0] ? desc : topo_str(t, n->id);
	len = strnlen(src, sizeof(n->desc) - 1);
	memcpy(n->desc, src, len);
	n->desc[len] = '\0';
	if (type == OQ_NODE_SWITCH) {
		const char *k;

		n->enh0 = strstr(rest, "enhanced port 0") != NULL;
		k = strstr(rest, "lid ");
		if (k)
			n->lid0 = topo_lid(t, line, k + 4, lineno);
		k = strstr(rest, "lmc ");
		if (k)
			n->lmc0 = topo_lmc(t, line, k + 4, lineno);
	}
	/* ibsim: a switch takes one GUID, an end node one per port + 1. */
	n->guid = t->guids[type];
	t->guids[type] += type == OQ_NODE_SWITCH ? 1 : nports + 1;
	for (i = 0; i <= nports; i++)
		topo_port_defaults(t, &n->ports[i]);
	t->node_of[n->id] = (uint32_t)++t->n;
	return n;
}

/* "[p](guid) "remote"[rp] ..." (and the switch form without "(guid)"). */
static int parse_port_line(struct topo *t, struct topo_node *n,
			   const char *line, unsigned int lineno)
{
	const char *p = line + 1, *id, *id_end, *after;
	unsigned long num, rnum = 1;
	struct topo_port *tp;
	char *end;

	if (line[0] == '@') {
		oq_error(t->d, topo_loc(t, lineno, 1),
			 "ibsim port aliases ('@') are not supported");
		return -1;
	}
	if (!isdigit((unsigned char)*p)) {
		oq_error(t->d, topo_loc(t, lineno, 2),
			 "expected a port number after '['");
		return -1;
	}
	errno = 0;
	num = strtoul(p, &end, 10);
	if (errno || num < 1 || num > n->n_ports) {
		oq_error(t->d, topo_loc(t, lineno, 2),
			 "port %.*s is out of range: \"%s\" has ports 1 to %u",
			 (int)(end - p > 12 ? 12 : end - p), p,
			 topo_str(t, n->id), n->n_ports);
		return -1;
	}
	tp = &n->ports[num];
	if (tp->listed) {
		oq_error(t->d, topo_loc(t, lineno, 2),
			 "port %lu of \"%s\" is already listed on line %u", num,
			 topo_str(t, n->id), tp->line);
		return -1;
	}
	/* ibnetdiscover's CA form names the local port GUID: [1](guid). */
	if (*end == ']' && end[1] == '(') {
		char *gend;
		uint64_t g = strtoull(end + 2, &gend, 16);

		if (*gend == ')' && gend > end + 2)
			tp->guid = g;
	}
	id = quoted(end, &id_end);
	if (!id) {
		const char *w = end + (*end == ']');

		w += strspn(w, " \t");
		oq_error(t->d, topo_loc(t, lineno, col_of(line, w)),
			 "expected the quoted id of the remote node");
		return -1;
	}
	after = id_end + 1;
	if (*after == '[') {
		long v = strtol(after + 1, NULL, 10);

		if (v <= 0 || v > 255) {
			oq_error(t->d, topo_loc(t, lineno, col_of(line, after)),
				 "bad remote port number");
			return -1;
		}
		rnum = (unsigned long)v;
	}
	if (id_end - id > MAX_ID) {
		oq_error(t->d, topo_loc(t, lineno, col_of(line, id)),
			 "remote node id longer than %d characters", MAX_ID);
		return -1;
	}
	tp->remote = id_add(t, id, (size_t)(id_end - id));
	if (tp->remote == UINT32_MAX) {
		nomem(t, lineno);
		return -1;
	}
	tp->listed = true;
	tp->remote_port = (uint16_t)rnum;
	tp->line = lineno;
	tp->col = 1;
	if (topo_port_options(t, tp, line, after, lineno))
		return -1;
	topo_port_connection(t, tp, n->type, line, after, lineno);
	return 0;
}

enum kw {
	KW_NONE,
	KW_SWITCH,
	KW_HCA,
	KW_CA,
	KW_RT,
	KW_SWGUID,
	KW_CAGUID,
	KW_RTGUID,
	KW_WIDTH,
	KW_SPEED,
	KW_EXTSPEED,
	KW_MODULE,
	KW_INCLUDE,
	KW_DO,
	KW_IGNORED, /* vendid, devid, sysimgguid, pdebug */
};

/* The same prefix tests, in the same order, as ibsim's parse_netconf(). */
static enum kw keyword(const char *l)
{
	static const struct {
		const char *s;
		enum kw kw;
	} tbl[] = {
		{ "Switch", KW_SWITCH },     { "Hca", KW_HCA },
		{ "Ca", KW_CA },	     { "Rt", KW_RT },
		{ "switchguid", KW_SWGUID }, { "hcaguids", KW_CAGUID },
		{ "caguid", KW_CAGUID },     { "rtguid", KW_RTGUID },
		{ "vendid", KW_IGNORED },    { "devid", KW_IGNORED },
		{ "sysimgguid", KW_IGNORED }, { "width", KW_WIDTH },
		{ "speed", KW_SPEED },	     { "extspeed", KW_EXTSPEED },
		{ "module", KW_MODULE },     { "include", KW_INCLUDE },
		{ "pdebug", KW_IGNORED },    { "do", KW_DO },
	};
	size_t i;

	for (i = 0; i < sizeof(tbl) / sizeof(tbl[0]); i++)
		if (!strncmp(l, tbl[i].s, strlen(tbl[i].s)))
			return tbl[i].kw;
	return KW_NONE;
}

static int parse_guidbase(struct topo *t, const char *line,
			  unsigned int lineno, int type)
{
	const char *s = strchr(line, '=');
	uint64_t v;

	if (!s)
		s = strchr(line, '+');
	if (!s) {
		oq_error(t->d, topo_loc(t, lineno, 1),
			 "expected '=' or '+' in a GUID base line");
		return -1;
	}
	v = strtoull(s + 1, NULL, 0);
	if (*s == '=') {
		t->absguids[type] = v;
		v = 0;
	}
	t->guids[type] = t->absguids[type] + v;
	return 0;
}

static int parse_setting(struct topo *t, const char *line, unsigned int lineno,
			 enum kw kw)
{
	const char *s = strchr(line, '=');
	long v, lo = kw == KW_EXTSPEED ? 0 : 1;
	long hi = kw == KW_WIDTH ? 31 : kw == KW_SPEED ? 7 : 15;

	if (!s) {
		oq_error(t->d, topo_loc(t, lineno, 1),
			 "expected '=' and a value");
		return -1;
	}
	v = strtol(s + 1, NULL, 0);
	if (v < lo || v > hi) {
		oq_error(t->d, topo_loc(t, lineno, col_of(line, s + 1)),
			 "value %ld is out of range %ld..%ld", v, lo, hi);
		return -1;
	}
	if (kw == KW_WIDTH)
		t->netwidth = (uint8_t)v;
	else if (kw == KW_SPEED)
		t->netspeed = (uint8_t)v;
	else
		t->netspeedext = (uint8_t)v;
	return 0;
}

static void parse_comment(struct topo *t, const char *line)
{
	const char *p = strstr(line, "Initiated from node ");
	const char *q;

	if (!p)
		return;
	t->ibnd = true;
	q = strstr(p, " port ");
	if (q)
		t->from_port = strtoull(q + 6, NULL, 16);
}

/* One top-level line.  Returns the node whose record starts here. */
static struct topo_node *top_line(struct topo *t, const char *line,
				  unsigned int lineno, enum kw kw)
{
	switch (kw) {
	case KW_SWITCH:
		return parse_header(t, line, lineno, 6, OQ_NODE_SWITCH);
	case KW_HCA:
		return parse_header(t, line, lineno, 3, OQ_NODE_CA);
	case KW_CA:
		return parse_header(t, line, lineno, 2, OQ_NODE_CA);
	case KW_RT:
		return parse_header(t, line, lineno, 2, OQ_NODE_ROUTER);
	case KW_SWGUID:
		parse_guidbase(t, line, lineno, OQ_NODE_SWITCH);
		t->ibnd = true;
		break;
	case KW_CAGUID:
		parse_guidbase(t, line, lineno, OQ_NODE_CA);
		t->ibnd = true;
		break;
	case KW_RTGUID:
		parse_guidbase(t, line, lineno, OQ_NODE_ROUTER);
		t->ibnd = true;
		break;
	case KW_WIDTH:
	case KW_SPEED:
	case KW_EXTSPEED:
		parse_setting(t, line, lineno, kw);
		break;
	case KW_MODULE:
		oq_warning(t->d, topo_loc(t, lineno, 1),
			   "'module' name prefixes are ignored");
		break;
	case KW_INCLUDE:
		oq_diag_hint(oq_warning(t->d, topo_loc(t, lineno, 1),
					"'include' is not followed; the nodes "
					"of the included file are missing"),
			     "concatenate the files into one");
		break;
	case KW_DO:
	case KW_IGNORED:
	case KW_NONE:
		if (line[0] == '#')
			parse_comment(t, line);
		break;
	}
	return NULL;
}

static void topo_free(struct topo *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->nodes[i].ports);
	free(t->nodes);
	oq_intern_free(&t->ids);
	free(t->node_of);
}

/* A node's port lines, at most one per port as in ibsim's parse_ports().
 * Returns the line that ended the record early (already read, as ibsim
 * reads it), or NULL at the end of the input or of the record. */
static const char *parse_record(struct topo *t, struct reader *r,
				struct topo_node *n)
{
	unsigned int left = n->n_ports;
	const char *line;

	while (left && (line = next_line(r))) {
		if (line[0] == '#')
			continue;
		if (line[0] != '[' && line[0] != '@')
			return line;
		parse_port_line(t, n, line, r->lineno);
		left--;
	}
	return NULL;
}

struct oq_fabric *oq_topology_parse(const char *file, const char *text,
				    size_t len, struct oq_diags *diags)
{
	struct reader r = { text, len, 0, 0, NULL, 0 };
	struct topo t;
	struct oq_diags local;
	struct oq_fabric *f = NULL;
	const char *line, *nul;
	size_t errors;

	if (!diags) {
		oq_diags_init(&local);
		diags = &local;
	}
	errors = diags->n_errors;
	nul = memchr(text, '\0', len);
	if (nul) {
		/* Text formats have no NUL: an executable or an image given
		 * by mistake, said once instead of a warning per line. */
		oq_diag_hint(oq_error(diags, (struct oq_loc){ file, 0, 0 },
				      "a binary file (NUL byte at offset "
				      "%zu), not a topology",
				      (size_t)(nul - text)),
			     "give an ibnetdiscover output or an ibsim net "
			     "file");
		if (diags == &local)
			oq_diags_free(&local);
		return NULL;
	}
	memset(&t, 0, sizeof(t));
	t.file = file;
	t.d = diags;
	t.guids[OQ_NODE_CA] = t.absguids[OQ_NODE_CA] = 0x100000;
	t.guids[OQ_NODE_SWITCH] = t.absguids[OQ_NODE_SWITCH] = 0x200000;
	/* ibsim's counter array has no initializer for routers: 0. */
	t.netwidth = TW_4X;
	t.netspeed = TS_SDR;
	t.netspeedext = 0;
	line = next_line(&r);
	while (line) {
		struct topo_node *n =
			top_line(&t, line, r.lineno, keyword(line));
		enum kw k2;

		if (!n) {
			if (line[0] == '[' || line[0] == '@')
				oq_warning(diags, topo_loc(&t, r.lineno, 1),
					   "port line outside a node's record "
					   "(more lines than the node has "
					   "ports?); ibsim ignores it");
			line = next_line(&r);
			continue;
		}
		line = parse_record(&t, &r, n);
		if (!line) {
			line = next_line(&r);
			continue;
		}
		/* ibsim consumes the line that ends a record.  Mostly it is
		 * empty; when it says something, read it anyway but warn
		 * that the simulator would not. */
		k2 = keyword(line);
		if (k2 == KW_NONE || k2 == KW_IGNORED || k2 == KW_DO) {
			line = next_line(&r);
			continue;
		}
		oq_diag_hint(oq_warning(diags, topo_loc(&t, r.lineno, 1),
					"ibsim skips this line: it directly "
					"follows a node's port lines"),
			     "put an empty line before it");
	}
	free(r.buf);
	/* An empty file, a binary or a policy given by mistake parses to
	 * nothing; a fabric of no node is never what the operator meant. */
	if (!t.n && diags->n_errors == errors)
		oq_diag_hint(oq_error(diags, (struct oq_loc){ file, 0, 0 },
				      "no node (Switch, Ca or Rt record) in "
				      "this file"),
			     "give an ibnetdiscover output or an ibsim net "
			     "file");
	if (diags->n_errors == errors)
		f = topo_build(&t);
	topo_free(&t);
	if (diags == &local)
		oq_diags_free(&local);
	return f;
}

struct oq_fabric *oq_topology_load(const char *path, struct oq_diags *diags)
{
	struct oq_fabric *f;
	size_t len = 0;
	char *buf = oq_file_read(path, OQ_FILE_MAX_BYTES, &len), why[64];

	if (!buf) {
		if (diags)
			oq_diag_hint(oq_error(diags,
					      (struct oq_loc){ path, 0, 0 },
					      "cannot read topology file: %s",
					      oq_file_error(errno,
							    OQ_FILE_MAX_BYTES,
							    why, sizeof(why))),
				     "give an ibnetdiscover output or an ibsim "
				     "net file");
		return NULL;
	}
	f = oq_topology_parse(path, buf, len, diags);
	free(buf);
	return f;
}
