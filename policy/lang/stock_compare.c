// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Stock OpenSM's reading of a file (stock_parse.c) set against osmqos's
 * (oq_policy), and the verdict `osmqos check` prints.  Two readings are
 * the same when everything that decides what either program does is the
 * same: the match rules in order (each one's port groups by what they
 * select, its ranges, its level's parameters), the DEFAULT level, and the
 * qos-setup scopes.  Names as such are not compared: a group OpenSM calls
 * "VirtualServers" where osmqos reads "Virtual Servers" is the same group
 * as long as every reference resolves alike (and when one does not,
 * OpenSM rejects the file: ERR AC12/AC13).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stock_int.h"

static bool ranges_eq(const struct oq_ranges *a, const struct oq_ranges *b)
{
	size_t i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->v[i].lo != b->v[i].lo || a->v[i].hi != b->v[i].hi)
			return false;
	return true;
}

/* osmqos's "NODE/P<n>" split as OpenSM splits a port-name. */
static bool split_pname(const char *name, char *node, size_t len,
			unsigned int *port)
{
	const char *slash = strrchr(name, '/');

	if (!slash || (size_t)(slash - name) >= len)
		return false;
	memcpy(node, name, (size_t)(slash - name));
	node[slash - name] = '\0';
	*port = slash[1] ? (unsigned int)strtoul(slash + 2, NULL, 0) : 0;
	return true;
}

/* The first way stock group g differs from osmqos's o, described in why
 * (with the location of what differs in *at); false when they agree. */
static bool group_differs(const struct oq_stock_group *g,
			  const struct oq_port_group *o, char *why, size_t len,
			  struct oq_loc *at)
{
	size_t i;

	*at = o->loc;
	if (g->n_pnames != o->n_port_names) {
		snprintf(why, len,
			 "port group '%s': stock OpenSM reads %zu port "
			 "name(s), osmqos %zu",
			 o->name, g->n_pnames, o->n_port_names);
		return true;
	}
	for (i = 0; i < g->n_pnames; i++) {
		char node[4096];
		unsigned int port;

		if (!split_pname(o->port_names[i].name, node, sizeof(node),
				 &port) ||
		    strcmp(node, g->pnames[i].node) ||
		    port != g->pnames[i].port) {
			*at = o->port_names[i].loc;
			snprintf(why, len,
				 "stock OpenSM reads port-name '%.200s' as "
				 "node '%.200s' port %lu (an unquoted name "
				 "loses its blanks), which is not the node "
				 "osmqos reads",
				 o->port_names[i].name, g->pnames[i].node,
				 g->pnames[i].port);
			return true;
		}
	}
	if (!ranges_eq(&g->guids, &o->guids)) {
		*at = o->guids_loc.line ? o->guids_loc : o->loc;
		snprintf(why, len,
			 "port group '%s': stock OpenSM reads other "
			 "port-guid values",
			 o->name);
		return true;
	}
	if (!ranges_eq(&g->pkeys, &o->pkeys)) {
		*at = o->pkeys_loc.line ? o->pkeys_loc : o->loc;
		snprintf(why, len,
			 "port group '%s': stock OpenSM reads other pkey "
			 "values",
			 o->name);
		return true;
	}
	if (g->n_partitions != o->partitions.n) {
		snprintf(why, len,
			 "port group '%s': stock OpenSM reads %zu "
			 "partition name(s), osmqos %zu",
			 o->name, g->n_partitions, o->partitions.n);
		return true;
	}
	for (i = 0; i < g->n_partitions; i++)
		if (strcmp(g->partitions[i], o->partitions.v[i].name)) {
			*at = o->partitions.v[i].loc;
			snprintf(why, len,
				 "stock OpenSM reads partition '%.200s' as "
				 "'%.200s' (an unquoted name loses its "
				 "blanks)",
				 o->partitions.v[i].name, g->partitions[i]);
			return true;
		}
	if (g->node_types != o->node_types) {
		*at = o->node_types_loc.line ? o->node_types_loc : o->loc;
		snprintf(why, len,
			 "port group '%s': stock OpenSM reads other node "
			 "types",
			 o->name);
		return true;
	}
	return false;
}

static bool level_eq(const struct oq_stock_level *l,
		     const struct oq_qos_level *o)
{
	return o->sl >= 0 && l->sl == (unsigned int)o->sl &&
	       l->mtu == o->mtu_limit && l->rate == o->rate_limit &&
	       l->life == o->packet_life &&
	       ranges_eq(&l->path_bits, &o->path_bits) &&
	       ranges_eq(&l->pkeys, &o->pkeys);
}

struct cmp {
	const struct oq_stock *s;
	const struct oq_policy *p;
	struct oq_diags *d;
	size_t n;
	/* Groups and levels already reported, by osmqos index. */
	unsigned char *group_seen, *level_seen;
};

static void differs(struct cmp *c, struct oq_loc at, const char *hint,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void differs(struct cmp *c, struct oq_loc at, const char *hint,
		    const char *fmt, ...)
{
	struct oq_diag *dg;
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dg = oq_warning(c->d, at, "%s", msg);
	if (hint)
		oq_diag_hint(dg, "%s", hint);
	c->n++;
}

/* Groups of a rule side or a scope: stock indexes against osmqos refs. */
static void groups_cmp(struct cmp *c, const size_t *sg, size_t n_sg,
		       const struct oq_refs *refs, struct oq_loc at,
		       const char *what)
{
	size_t i;

	if (n_sg != refs->n) {
		differs(c, at, NULL,
			"stock OpenSM reads %zu %s group(s) here, osmqos %zu",
			n_sg, what, refs->n);
		return;
	}
	for (i = 0; i < n_sg; i++) {
		const struct oq_stock_group *g = &c->s->groups[sg[i]];
		int oi = refs->v[i].idx;
		struct oq_loc gat;
		char why[600];

		if (oi < 0 || (size_t)oi >= c->p->n_groups) {
			differs(c, refs->v[i].loc, NULL,
				"stock OpenSM finds a port group for '%s' "
				"that osmqos does not",
				refs->v[i].name);
			continue;
		}
		if (c->group_seen[oi] || !group_differs(g, &c->p->groups[oi],
							why, sizeof(why), &gat))
			continue;
		c->group_seen[oi] = 1;
		differs(c, gat,
			"quote names with blanks (\"vs1 HCA-1/P1\"); `osmqos "
			"export` writes a copy stock OpenSM reads as osmqos "
			"does",
			"%s", why);
	}
}

static void level_cmp(struct cmp *c, size_t sl, int ol, struct oq_loc at)
{
	const struct oq_stock_level *l = &c->s->levels[sl];
	const struct oq_qos_level *o;

	if (ol < 0 || (size_t)ol >= c->p->n_levels) {
		differs(c, at, NULL,
			"stock OpenSM gives this rule level '%s'; osmqos none",
			l->name);
		return;
	}
	o = &c->p->levels[ol];
	if (c->level_seen[ol] || level_eq(l, o))
		return;
	c->level_seen[ol] = 1;
	differs(c, o->loc, NULL,
		"qos-level '%s': stock OpenSM reads sl %u, mtu-limit %d, "
		"rate-limit %d, packet-life %d (-1: none); osmqos sl %d, %d, "
		"%d, %d",
		o->name ? o->name : "?", l->sl, l->mtu, l->rate, l->life, o->sl,
		o->mtu_limit, o->rate_limit, o->packet_life);
}

static void rules_cmp(struct cmp *c)
{
	const struct oq_stock *s = c->s;
	const struct oq_policy *p = c->p;
	size_t i, n = s->n_rules < p->n_rules ? s->n_rules : p->n_rules;

	if (s->n_rules != p->n_rules)
		differs(c,
			n < p->n_rules	 ? p->rules[n].loc
			: n < s->n_rules ? s->rules[n].loc
					 : (struct oq_loc){p->file, 0, 0},
			NULL,
			"stock OpenSM reads %zu match rule(s) (qos-ulps "
			"lines included), osmqos %zu",
			s->n_rules, p->n_rules);
	for (i = 0; i < n; i++) {
		const struct oq_stock_rule *r = &s->rules[i];
		const struct oq_match_rule *o = &p->rules[i];

		groups_cmp(c, r->src, r->n_src, &o->sources, o->loc, "source");
		groups_cmp(c, r->dst, r->n_dst, &o->destinations, o->loc,
			   "destination");
		if (!ranges_eq(&r->sids, &o->service_ids))
			differs(c, o->loc, NULL,
				"stock OpenSM reads other service-id values "
				"for this rule");
		if (!ranges_eq(&r->classes, &o->qos_classes))
			differs(c, o->loc, NULL,
				"stock OpenSM reads other qos-class values "
				"for this rule");
		if (!ranges_eq(&r->pkeys, &o->pkeys))
			differs(c, o->loc, NULL,
				"stock OpenSM reads other pkey values for "
				"this rule");
		level_cmp(c, r->level, o->level.idx, o->loc);
	}
}

static void default_cmp(struct cmp *c)
{
	const struct oq_stock *s = c->s;
	const struct oq_policy *p = c->p;
	struct oq_loc at = {p->file, 0, 0};
	const struct oq_qos_level *o;

	if (p->default_level < 0)
		return;
	o = &p->levels[p->default_level];
	if (s->default_level >= 0) {
		level_cmp(c, (size_t)s->default_level, p->default_level,
			  o->loc);
		return;
	}
	if (o->sl != s->default_sl || o->mtu_limit >= 0 || o->rate_limit >= 0 ||
	    o->packet_life >= 0 || o->pkeys.n || o->path_bits.n)
		differs(c, o->loc.line ? o->loc : at, NULL,
			"stock OpenSM's DEFAULT level is the qos-ulps "
			"default (sl %d); osmqos reads another",
			s->default_sl);
}

/* A scope's group names, resolved as OpenSM would if it used them. */
static bool ref_before(const struct oq_ref *a, const struct oq_ref *b)
{
	return a->loc.line < b->loc.line ||
	       (a->loc.line == b->loc.line && a->loc.col < b->loc.col);
}

/* OpenSM appends a scope's `across:` groups and its `across-from:` (or
 * `across-to:`) groups to one list as the keys come in the file, where
 * osmqos keeps two lists: merged by where each name is written, they are
 * in OpenSM's order again.  Each list is in file order already. */
static void merge_in_file_order(struct oq_refs *all, const struct oq_refs *a,
				const struct oq_refs *b)
{
	size_t i = 0, j = 0, k = 0, nb = b ? b->n : 0;

	while (i < a->n || j < nb) {
		if (j == nb || (i < a->n && !ref_before(&b->v[j], &a->v[i])))
			all->v[k++] = a->v[i++];
		else
			all->v[k++] = b->v[j++];
	}
}

static void scope_groups(struct cmp *c, char **names, size_t n,
			 const struct oq_refs *refs, const struct oq_refs *more,
			 struct oq_loc at, const char *what)
{
	size_t i, m = refs->n + (more ? more->n : 0);
	size_t *idx;
	struct oq_refs all;

	if (n != m) {
		differs(c, at, NULL,
			"stock OpenSM reads %zu '%s' group(s) in this scope, "
			"osmqos %zu",
			n, what, m);
		return;
	}
	idx = calloc(n ? n : 1, sizeof(*idx));
	all.v = calloc(m ? m : 1, sizeof(*all.v));
	all.n = m;
	if (!idx || !all.v) {
		free(idx);
		free(all.v);
		c->n = (size_t)-1;
		return;
	}
	merge_in_file_order(&all, refs, more);
	for (i = 0; i < n; i++) {
		uint64_t steps;
		long g = c->s->index
				 ? oq_stock_lookup(c->s, true, names[i], &steps)
				 : -1;

		if (g < 0) {
			differs(c, at, NULL,
				"stock OpenSM reads group name '%.200s' in "
				"this scope, which names no port group "
				"(OpenSM never applies qos-setup, osmqos "
				"does)",
				names[i]);
			goto out;
		}
		idx[i] = (size_t)g;
	}
	groups_cmp(c, idx, n, &all, at, what);
out:
	free(idx);
	free(all.v);
}

static bool vlarb_eq(const struct oq_stock_pair *sp, size_t n,
		     const struct oq_vlarb_entry *e, size_t m)
{
	size_t i;

	if (n != m)
		return false;
	for (i = 0; i < n; i++)
		if (sp[i].a != e[i].vl || sp[i].b != e[i].weight)
			return false;
	return true;
}

static void portsel_bits(const struct oq_portsel *ps, uint8_t out[16])
{
	unsigned int b;

	memset(out, 0, 16);
	for (b = 0; b < 128; b++)
		if (ps->all || (ps->bits[b / 64] >> (b % 64) & 1))
			out[b / 8] |= (uint8_t)(1u << (b % 8));
}

static void scopes_cmp(struct cmp *c)
{
	const struct oq_stock *s = c->s;
	const struct oq_policy *p = c->p;
	size_t i;

	if (s->n_vlarb != p->n_vlarb || s->n_sl2vl != p->n_sl2vl) {
		differs(c, (struct oq_loc){p->file, 0, 0}, NULL,
			"stock OpenSM reads %zu vlarb-scope(s) and %zu "
			"sl2vl-scope(s), osmqos %zu and %zu",
			s->n_vlarb, s->n_sl2vl, p->n_vlarb, p->n_sl2vl);
		return;
	}
	for (i = 0; i < s->n_vlarb; i++) {
		const struct oq_stock_vlarb *v = &s->vlarb[i];
		const struct oq_vlarb_scope *o = &p->vlarb[i];

		scope_groups(c, v->groups, v->n_groups, &o->groups, NULL,
			     o->loc, "group");
		scope_groups(c, v->across, v->n_across, &o->across, NULL,
			     o->loc, "across");
		if (!vlarb_eq(v->high, v->n_high, o->high, o->n_high) ||
		    !vlarb_eq(v->low, v->n_low, o->low, o->n_low) ||
		    (v->limit_set ? (long)v->limit : -1L) !=
			    (long)o->vl_high_limit)
			differs(c, o->loc, NULL,
				"stock OpenSM reads this vlarb-scope's "
				"tables differently");
	}
	for (i = 0; i < s->n_sl2vl; i++) {
		const struct oq_stock_sl2vl *v = &s->sl2vl[i];
		const struct oq_sl2vl_scope *o = &p->sl2vl[i];
		uint8_t from[16], to[16];

		scope_groups(c, v->groups, v->n_groups, &o->groups, NULL,
			     o->loc, "group");
		scope_groups(c, v->across_from, v->n_across_from,
			     &o->across_from, &o->across, o->loc,
			     "across-from");
		scope_groups(c, v->across_to, v->n_across_to, &o->across_to,
			     &o->across, o->loc, "across-to");
		portsel_bits(&o->from, from);
		portsel_bits(&o->to, to);
		if (memcmp(from, v->from, 16) || memcmp(to, v->to, 16) ||
		    memcmp(o->sl2vl, v->table, 16))
			differs(c, o->loc, NULL,
				"stock OpenSM reads this sl2vl-scope's ports "
				"or table differently");
	}
}

static size_t compare(const struct oq_stock *s, const struct oq_policy *p,
		      struct oq_diags *d, bool scopes)
{
	struct cmp c = {s, p, d, 0, NULL, NULL};

	c.group_seen = calloc(p->n_groups + 1, 1);
	c.level_seen = calloc(p->n_levels + 1, 1);
	if (!c.group_seen || !c.level_seen) {
		free(c.group_seen);
		free(c.level_seen);
		return (size_t)-1;
	}
	rules_cmp(&c);
	default_cmp(&c);
	if (scopes && c.n != (size_t)-1)
		scopes_cmp(&c);
	free(c.group_seen);
	free(c.level_seen);
	return c.n;
}

size_t oq_stock_compare(const struct oq_stock *s, const struct oq_policy *p,
			struct oq_diags *d)
{
	return compare(s, p, d, true);
}

size_t oq_stock_compare_match(const struct oq_stock *s,
			      const struct oq_policy *p, struct oq_diags *d)
{
	return compare(s, p, d, false);
}

/* What the operator can do about a file stock OpenSM does not take. */
static const char *fix_hint(const struct oq_stock *s, const struct oq_policy *p)
{
	if (s->outcome == OQ_STOCK_STALLS)
		return "list the GUIDs the group needs instead of a range";
	if (p && p->n_ext_lines)
		return "the osmqos keys (bandwidth:, priority:, ...) are not "
		       "OpenSM's; `osmqos export` writes a copy stock OpenSM "
		       "reads, their tables as qos-setup scopes";
	if (p)
		return "`osmqos export` writes a copy stock OpenSM reads as "
		       "osmqos does";
	return NULL;
}

/* The osmqos key (bandwidth:, ...) on line of p, copied into key; false
 * when that line holds none. */
static bool ext_key_on_line(const struct oq_policy *p, unsigned int line,
			    char *key, size_t len)
{
	unsigned int l = 1;
	size_t i, at = 0;

	for (i = 0; p && i < p->n_ext_lines; i++) {
		size_t k, n;

		for (; at < p->ext_lines[i].start && at < p->text_len; at++)
			l += p->text[at] == '\n';
		if (l != line)
			continue;
		k = p->ext_lines[i].start;
		while (k < p->ext_lines[i].end &&
		       (p->text[k] == ' ' || p->text[k] == '\t'))
			k++;
		for (n = 0; k + n < p->ext_lines[i].end &&
			    p->text[k + n] != ':' && n + 2 < len;
		     n++)
			key[n] = p->text[k + n];
		key[n] = '\0';
		return true;
	}
	return false;
}

int oq_stock_verdict(const struct oq_stock *s, const struct oq_policy *p,
		     struct oq_diags *d)
{
	static const char *const said[] = {
		[OQ_STOCK_REJECTS] = "rejects this file (ERR AC03/AC04) and "
				     "runs with no QoS policy at all",
		[OQ_STOCK_ABORTS] = "aborts on this file",
		[OQ_STOCK_STALLS] = "stalls on this file",
	};
	struct oq_diag *dg;
	const char *hint;
	char key[32];
	size_t n;

	switch (s->outcome) {
	case OQ_STOCK_TAKES:
		if (!p)
			return OQ_STOCK_TAKEN;
		n = oq_stock_compare(s, p, d);
		if (n == (size_t)-1)
			return -1;
		return n ? OQ_STOCK_DIFFERENTLY : OQ_STOCK_AS_WRITTEN;
	case OQ_STOCK_REJECTS:
	case OQ_STOCK_ABORTS:
	case OQ_STOCK_STALLS:
		break;
	}
	if (s->outcome == OQ_STOCK_REJECTS &&
	    ext_key_on_line(p, s->where.line, key, sizeof(key)))
		dg = oq_warning(d, s->where,
				"stock %s %s: '%s:' is an osmqos key it does "
				"not know (its parser: %s)",
				OQ_STOCK_OPENSM, said[s->outcome], key, s->why);
	else
		dg = oq_warning(d, s->where, "stock %s %s: %s", OQ_STOCK_OPENSM,
				said[s->outcome], s->why);
	hint = fix_hint(s, p);
	if (dg && hint)
		oq_diag_hint(dg, "%s", hint);
	return s->outcome == OQ_STOCK_REJECTS  ? OQ_STOCK_REJECTED
	       : s->outcome == OQ_STOCK_ABORTS ? OQ_STOCK_ABORTED
					       : OQ_STOCK_STALLED;
}

const char *oq_stock_verdict_text(int verdict)
{
	switch (verdict) {
	case OQ_STOCK_AS_WRITTEN:
		return "reads it as written";
	case OQ_STOCK_DIFFERENTLY:
		return "takes it but reads it differently (see the warnings)";
	case OQ_STOCK_TAKEN:
		return "takes it";
	case OQ_STOCK_REJECTED:
		return "rejects it and runs with no QoS policy";
	case OQ_STOCK_ABORTED:
		return "aborts on it";
	case OQ_STOCK_STALLED:
		return "stalls on it";
	default:
		return "?";
	}
}
