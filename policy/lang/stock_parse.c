// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * OpenSM 3.3.23's QoS policy grammar (opensm/osm_qos_parser_y.y) and the
 * validation after it (osm_qos_policy_validate in osm_qos_policy.c), as a
 * recursive descent over the tokens of stock_lex.c.  The scanner's state
 * never depends on the parser's, so descending token by token accepts
 * exactly the language of OpenSM's LALR parser; each grammar action runs
 * where bison runs it (a completed key, a block's end keyword), with the
 * same checks, in the same order, giving the same outcome:
 *
 *   - a syntax error or an action's yyerror(): ERR AC03, no policy;
 *   - a check of osm_qos_policy_validate: ERR AC04, no policy;
 *   - strcat() past the 10 KiB string buffer: the fortified C library
 *     aborts the SM;
 *   - a loop over more values than OQ_STOCK_STALL_WALK (port-guid ranges
 *     walked one GUID at a time, P_Key ranges, name lookups that scan
 *     every group or level): the SM does nothing else for minutes.
 *
 * What OpenSM's actions keep (names, ranges merged, port names split at
 * their last '/', qos-ulps lines turned into groups, levels and rules) is
 * the reading oq_stock_compare() sets against osmqos's.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stock_int.h"

/* OpenSM's qos-ulps constants (osm_qos_policy.h). */
#define ULP_SDP_SID	    0x10000ULL
#define ULP_RDS_SID	    0x1060000ULL
#define ULP_RDS_PORT	    0x48CAULL
#define ULP_ISER_SID	    0x1060000ULL
#define ULP_ISER_PORT	    0x0CBCULL
#define MAX_PORTS_ON_SWITCH 128u

/* The names a qos-match-rule gives, until validation resolves them. */
struct rule_names {
	char *level;
	char **src, **dst;
	size_t n_src, n_dst;
};

struct sp {
	struct oq_slx lx;
	struct oq_stok la, last;
	bool have_la;
	struct oq_stock *s;
	const struct oq_stock_env *env;
	bool stop, oom;

	/* tmp_parser_struct */
	char str[OQ_STOCK_STR_MAX];
	size_t str_len;
	char **strs;
	size_t n_strs, cap_strs;
	uint64_t *nums;
	size_t n_nums, cap_nums;
	struct oq_range *pairs; /* as written, or low-high for ranges */
	size_t n_pairs, cap_pairs;

	size_t cap_groups, cap_levels, cap_rules, cap_vlarb, cap_sl2vl;
	/* The rules of qos-ulps lines, appended after the others. */
	struct oq_stock_rule *ulp;
	size_t n_ulp, cap_ulp;
	/* Parallel to s->rules while parsing. */
	struct rule_names *names;
	size_t n_names, cap_names;
};

/* Grow *v (of *cap elements of size) to hold n + 1. */
static bool grow(struct sp *p, void **v, size_t *cap, size_t n, size_t size)
{
	void *nv;
	size_t c;

	if (n < *cap)
		return true;
	c = *cap ? *cap * 2 : 8;
	if (c > SIZE_MAX / size) {
		p->oom = p->stop = true;
		return false;
	}
	nv = realloc(*v, c * size);
	if (!nv) {
		p->oom = p->stop = true;
		return false;
	}
	*v = nv;
	*cap = c;
	return true;
}

static char *dup_n(struct sp *p, const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (!d) {
		p->oom = p->stop = true;
		return NULL;
	}
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static enum oq_stk peek(struct sp *p)
{
	if (!p->have_la) {
		oq_slx_next(&p->lx, &p->la);
		p->have_la = true;
	}
	return p->la.t;
}

static void take(struct sp *p)
{
	peek(p);
	p->last = p->la;
	p->have_la = false;
}

static void stop_at(struct sp *p, enum oq_stock_outcome o, struct oq_loc at,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void stop_at(struct sp *p, enum oq_stock_outcome o, struct oq_loc at,
		    const char *fmt, ...)
{
	va_list ap;

	if (p->stop)
		return;
	p->stop = true;
	p->s->outcome = o;
	p->s->where = at;
	va_start(ap, fmt);
	vsnprintf(p->s->why, sizeof(p->s->why), fmt, ap);
	va_end(ap);
}

/* yyerror() from an action: ERR AC03 after "Syntax error: <msg>". */
#define reject(p, at, ...) stop_at(p, OQ_STOCK_REJECTS, at, __VA_ARGS__)

static void syntax_error(struct sp *p)
{
	const struct oq_stok *t = &p->la;
	char what[48];

	peek(p);
	if (t->t == STK_TEXT) {
		size_t i, n = t->len > 24 ? 24 : t->len;

		for (i = 0; i < n; i++)
			what[i] = isprint((unsigned char)t->val[i]) ? t->val[i]
								    : '?';
		what[n] = '\0';
		reject(p, t->loc, "syntax error: unexpected text '%s%s'", what,
		       t->len > n ? "..." : "");
	} else {
		reject(p, t->loc, "syntax error: unexpected %s",
		       oq_stk_spelling(t->t));
	}
	p->s->opensm_line = t->end_line;
	p->s->opensm_col = t->end_col;
}

static bool expect(struct sp *p, enum oq_stk t)
{
	if (peek(p) != t) {
		syntax_error(p);
		return false;
	}
	take(p);
	return true;
}

/* Steps of a loop OpenSM's parse runs; past the limit the SM stalls. */
static void walk(struct sp *p, uint64_t n, struct oq_loc at, const char *what)
{
	uint64_t w = p->s->walked;

	p->s->walked = w + n < w ? UINT64_MAX : w + n;
	if (p->s->walked < OQ_STOCK_STALL_WALK)
		return;
	if (p->s->walked == UINT64_MAX)
		stop_at(p, OQ_STOCK_STALLS, at,
			"%s: OpenSM's parser loops over them without end (a "
			"range that ends at the last GUID wraps around)",
			what);
	else
		stop_at(p, OQ_STOCK_STALLS, at,
			"%s: OpenSM's parser takes them one at a time, %llu "
			"steps with what came before, at every sweep "
			"(minutes)",
			what, (unsigned long long)p->s->walked);
}

/* strtoull(s, NULL, 0) of a NUMBER token (digits, or 0x and hex). */
static uint64_t str2u64(const char *s, size_t n)
{
	unsigned int base = 10;
	uint64_t v = 0;
	size_t i = 0;
	bool over = false;

	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		i = 2;
	} else if (n > 1 && s[0] == '0') {
		base = 8;
	}
	for (; i < n; i++) {
		unsigned int d =
			isdigit((unsigned char)s[i])
				? (unsigned int)(s[i] - '0')
				: (unsigned int)(tolower((unsigned char)s[i]) -
						 'a' + 10);

		if (d >= base)
			break; /* "08": strtoull stops at the 8 */
		if (v > (UINT64_MAX - d) / base)
			over = true;
		else
			v = v * base + d;
	}
	return over ? UINT64_MAX : v;
}

/* ---- the common part of the grammar ---- */

static bool take_number(struct sp *p, uint64_t *v)
{
	if (peek(p) != STK_NUMBER) {
		syntax_error(p);
		return false;
	}
	take(p);
	*v = str2u64(p->last.val, p->last.len);
	return true;
}

/* number: TK_NUMBER, pushed on num_list. */
static bool number(struct sp *p)
{
	uint64_t v;

	if (!take_number(p, &v) || !grow(p, (void **)&p->nums, &p->cap_nums,
					 p->n_nums, sizeof(*p->nums)))
		return false;
	p->nums[p->n_nums++] = v;
	return true;
}

static bool num_list(struct sp *p)
{
	for (;;) {
		if (!number(p))
			return false;
		if (peek(p) != STK_COMMA)
			return true;
		take(p);
	}
}

static bool push_pair(struct sp *p, uint64_t a, uint64_t b)
{
	if (!grow(p, (void **)&p->pairs, &p->cap_pairs, p->n_pairs,
		  sizeof(*p->pairs)))
		return false;
	p->pairs[p->n_pairs].lo = a;
	p->pairs[p->n_pairs].hi = b;
	p->n_pairs++;
	return true;
}

/* list_of_ranges: N or N-M, comma separated; a range is kept low-high. */
static bool list_of_ranges(struct sp *p)
{
	for (;;) {
		uint64_t a, b;

		if (!take_number(p, &a))
			return false;
		b = a;
		if (peek(p) == STK_DASH) {
			take(p);
			if (!take_number(p, &b))
				return false;
			if (a > b) {
				uint64_t t = a;

				a = b;
				b = t;
			}
		}
		if (!push_pair(p, a, b))
			return false;
		if (peek(p) != STK_COMMA)
			return true;
		take(p);
	}
}

/* num_list_with_dotdot: N:M, comma separated, kept as written. */
static bool list_of_pairs(struct sp *p)
{
	for (;;) {
		uint64_t a, b;

		if (!take_number(p, &a) || !expect(p, STK_DOTDOT) ||
		    !take_number(p, &b) || !push_pair(p, a, b))
			return false;
		if (peek(p) != STK_COMMA)
			return true;
		take(p);
	}
}

/* The pairs as normalized ranges (__rangelist2rangearr); for P_Keys
 * (__pkey_rangelist2rangearr) both ends lose bit 15 first. */
static bool pairs_to_ranges(struct sp *p, struct oq_ranges *out, bool pkey)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < p->n_pairs; i++) {
		uint64_t a = p->pairs[i].lo, b = p->pairs[i].hi;

		if (pkey) {
			a &= 0x7fff;
			b &= 0x7fff;
		}
		if (oq_ranges_add(out, a, b)) {
			oq_ranges_free(out);
			p->oom = p->stop = true;
			return false;
		}
	}
	p->n_pairs = 0;
	oq_ranges_normalize(out);
	return true;
}

/* Values in the ranges (saturating). */
static uint64_t range_count(const struct oq_ranges *r)
{
	uint64_t n = 0;
	size_t i;

	for (i = 0; i < r->n; i++) {
		uint64_t k = r->v[i].hi - r->v[i].lo;

		k = k == UINT64_MAX ? UINT64_MAX : k + 1;
		n = n + k < n ? UINT64_MAX : n + k;
	}
	return n;
}

/* Steps of OpenSM's `for (guid = lo; guid <= hi; guid++)` over port GUID
 * ranges: a range ending at the last GUID never ends (guid wraps to 0). */
static uint64_t guid_steps(const struct oq_ranges *r)
{
	if (r->n && r->v[r->n - 1].hi == UINT64_MAX)
		return UINT64_MAX;
	return range_count(r);
}

/* Add the ranges of add (freed) to into, merged (__merge_rangearr). */
static bool merge_ranges(struct sp *p, struct oq_ranges *into,
			 struct oq_ranges *add)
{
	size_t i;

	for (i = 0; i < add->n; i++)
		if (oq_ranges_add(into, add->v[i].lo, add->v[i].hi)) {
			oq_ranges_free(add);
			p->oom = p->stop = true;
			return false;
		}
	oq_ranges_free(add);
	oq_ranges_normalize(into);
	return true;
}

/* A list_of_ranges key's ranges, merged into into (P_Keys: pkey). */
static bool ranges_key(struct sp *p, struct oq_ranges *into, bool pkey)
{
	struct oq_ranges r;

	return list_of_ranges(p) && pairs_to_ranges(p, &r, pkey) &&
	       merge_ranges(p, into, &r);
}

/* single_string: TEXT tokens strcat'ed into the 10 KiB buffer, then
 * stripped of leading and trailing isspace() and pushed on str_list. */
static bool single_string(struct sp *p)
{
	char *s;
	size_t a, b;

	if (peek(p) != STK_TEXT) {
		syntax_error(p);
		return false;
	}
	p->str_len = 0;
	while (peek(p) == STK_TEXT) {
		take(p);
		if (p->last.corrupt) {
			stop_at(p, OQ_STOCK_ABORTS, p->last.loc,
				"a quoted string that starts with a NUL byte: "
				"OpenSM's scanner writes before the string it "
				"allocated (heap corruption)");
			return false;
		}
		if (p->str_len + p->last.len + 1 > OQ_STOCK_STR_MAX) {
			stop_at(p, OQ_STOCK_ABORTS, p->last.loc,
				"a string of more than %u bytes: OpenSM's "
				"parser copies it into a %u-byte buffer and "
				"the C library aborts the SM",
				OQ_STOCK_STR_MAX - 1, OQ_STOCK_STR_MAX);
			return false;
		}
		memcpy(p->str + p->str_len, p->last.val, p->last.len);
		p->str_len += p->last.len;
	}
	a = 0;
	b = p->str_len;
	while (a < b && isspace((unsigned char)p->str[a]))
		a++;
	while (b > a && isspace((unsigned char)p->str[b - 1]))
		b--;
	s = dup_n(p, p->str + a, b - a);
	if (!s || !grow(p, (void **)&p->strs, &p->cap_strs, p->n_strs,
			sizeof(*p->strs))) {
		free(s);
		return false;
	}
	p->strs[p->n_strs++] = s;
	return true;
}

static bool string_list(struct sp *p)
{
	for (;;) {
		if (!single_string(p))
			return false;
		if (peek(p) != STK_COMMA)
			return true;
		take(p);
	}
}

/* RESET_BUFFER, at each key. */
static void clear_lists(struct sp *p)
{
	size_t i;

	for (i = 0; i < p->n_strs; i++)
		free(p->strs[i]);
	p->n_strs = 0;
	p->n_nums = 0;
	p->n_pairs = 0;
	p->str_len = 0;
}

/* Move the strings of str_list to the end of (*v, *n). */
static bool move_strings(struct sp *p, char ***v, size_t *n)
{
	char **nv;
	size_t i;

	if (!p->n_strs)
		return true;
	nv = realloc(*v, (*n + p->n_strs) * sizeof(**v));
	if (!nv) {
		p->oom = p->stop = true;
		return false;
	}
	for (i = 0; i < p->n_strs; i++)
		nv[(*n)++] = p->strs[i];
	*v = nv;
	p->n_strs = 0;
	return true;
}

/* A `name:`-like key's one string, taken off str_list. */
static char *first_string(struct sp *p)
{
	char *s = p->strs[0];

	p->strs[0] = NULL;
	clear_lists(p);
	return s;
}

/* ---- the fabric checks ---- */

/* env's port_check(), or 1 (with the assumption counted) without one. */
static int port_check(struct sp *p, const char *desc, unsigned int port)
{
	if (!p->env || !p->env->port_check) {
		p->s->assumed++;
		return 1;
	}
	return p->env->port_check(p->env->ctx, desc, port);
}

/* __validate_pkeys(..., TRUE): every P_Key of an ipoib line names a
 * partition with at least two full members. */
static bool ipoib_pkeys(struct sp *p, const struct oq_ranges *r,
			struct oq_loc at)
{
	size_t i;

	walk(p, range_count(r), at, "the P_Keys of this ipoib line");
	if (p->stop)
		return false;
	if (!p->env || !p->env->pkey_full_members) {
		p->s->assumed++;
		return true;
	}
	for (i = 0; i < r->n; i++) {
		uint64_t k;

		for (k = r->v[i].lo; k <= r->v[i].hi; k++) {
			unsigned int key = (unsigned int)(k & 0x7fff);
			int full = p->env->pkey_full_members(p->env->ctx, key);

			if (full < 0) {
				reject(p, at,
				       "IPoIB partition, pkey 0x%04X - "
				       "partition doesn't exist",
				       key);
				return false;
			}
			if (full < 2) {
				reject(p, at,
				       "IPoIB partition, pkey 0x%04X - "
				       "partition has less than two full "
				       "members",
				       key);
				return false;
			}
		}
	}
	return true;
}

/* ---- port groups ---- */

/* A new group at the end of the list: OpenSM appends a group at its end
 * keyword, which comes before anything that could follow it in the list;
 * a group never finished only matters to a parse that fails anyway. */
static long new_group(struct sp *p, struct oq_loc at)
{
	struct oq_stock *s = p->s;

	if (!grow(p, (void **)&s->groups, &p->cap_groups, s->n_groups,
		  sizeof(*s->groups)))
		return -1;
	memset(&s->groups[s->n_groups], 0, sizeof(*s->groups));
	s->groups[s->n_groups].loc = at;
	return (long)s->n_groups++;
}

/* The port-name action: "NODE/P<n>" split at its last '/'. */
static bool port_names(struct sp *p, long gi, struct oq_loc at)
{
	struct oq_stock_group *g = &p->s->groups[gi];
	size_t i;

	for (i = 0; i < p->n_strs; i++) {
		char *t = p->strs[i], *slash = strrchr(t, '/');
		struct oq_stock_pname *v;
		unsigned int port;

		if (!slash || strlen(slash) < 3 ||
		    (slash[1] != 'p' && slash[1] != 'P')) {
			reject(p, at, "'%.200s' - illegal port name", t);
			return false;
		}
		port = (unsigned int)strtoul(slash + 2, NULL, 0);
		if (!port) {
			reject(p, at,
			       "'%.200s' - illegal port number in port name",
			       t);
			return false;
		}
		*slash = '\0';
		if (!port_check(p, t, port)) {
			/* A port number past the node's table is read
			 * past it (osm_node_get_physp_ptr() asserts only in
			 * debug builds): what lies there is mostly a port
			 * GUID of 0, an invalid port, as for a CA port
			 * OpenSM never discovered. */
			reject(p, at,
			       "'%.200s/P%u' - port number out of range in "
			       "port name",
			       t, port);
			return false;
		}
		v = realloc(g->pnames, (g->n_pnames + 1) * sizeof(*v));
		if (!v) {
			p->oom = p->stop = true;
			return false;
		}
		g->pnames = v;
		v[g->n_pnames].node = t;
		v[g->n_pnames].port = port;
		v[g->n_pnames].loc = at;
		g->n_pnames++;
		p->strs[i] = NULL;
	}
	clear_lists(p);
	return true;
}

static bool node_type_list(struct sp *p, long gi)
{
	unsigned int *nt = &p->s->groups[gi].node_types;

	for (;;) {
		switch (peek(p)) {
		case STK_NT_CA:
			*nt |= OQ_NT_CA;
			break;
		case STK_NT_SWITCH:
			*nt |= OQ_NT_SWITCH;
			break;
		case STK_NT_ROUTER:
			*nt |= OQ_NT_ROUTER;
			break;
		case STK_NT_ALL:
			*nt |= OQ_NT_ALL;
			break;
		case STK_NT_SELF:
			*nt |= OQ_NT_SELF;
			break;
		default:
			syntax_error(p);
			return false;
		}
		take(p);
		if (peek(p) != STK_COMMA)
			return true;
		take(p);
	}
}

static bool port_group(struct sp *p)
{
	long gi = new_group(p, p->la.loc);
	bool use = false;

	take(p);
	if (gi < 0)
		return false;
	for (;;) {
		struct oq_stock_group *g;
		enum oq_stk k = peek(p);
		struct oq_loc at = p->la.loc;
		struct oq_ranges r;

		clear_lists(p);
		if (k != STK_PORT_GROUP_END && k != STK_NAME && k != STK_USE &&
		    k != STK_PORT_GUID && k != STK_PORT_NAME && k != STK_PKEY &&
		    k != STK_PARTITION && k != STK_NODE_TYPE) {
			syntax_error(p);
			return false;
		}
		take(p);
		switch (k) {
		case STK_NAME:
			if (!single_string(p))
				return false;
			g = &p->s->groups[gi];
			if (g->name) {
				reject(p, at,
				       "port-group has multiple 'name' "
				       "tags");
				return false;
			}
			g->name = first_string(p);
			break;
		case STK_USE:
			if (!single_string(p))
				return false;
			if (use) {
				reject(p, at,
				       "port-group has multiple 'use' "
				       "tags");
				return false;
			}
			use = true;
			break;
		case STK_PORT_GUID:
			memset(&r, 0, sizeof(r));
			if (!ranges_key(p, &r, false))
				return false;
			walk(p, guid_steps(&r), at,
			     "the port-guid ranges of this port group");
			if (!merge_ranges(p, &p->s->groups[gi].guids, &r) ||
			    p->stop)
				return false;
			break;
		case STK_PORT_NAME:
			if (!string_list(p) || !port_names(p, gi, at))
				return false;
			break;
		case STK_PKEY:
			memset(&r, 0, sizeof(r));
			if (!ranges_key(p, &r, true))
				return false;
			walk(p, range_count(&r), at,
			     "the P_Keys of this port group");
			if (!merge_ranges(p, &p->s->groups[gi].pkeys, &r) ||
			    p->stop)
				return false;
			break;
		case STK_PARTITION:
			g = &p->s->groups[gi];
			if (!string_list(p) ||
			    !move_strings(p, &g->partitions, &g->n_partitions))
				return false;
			break;
		case STK_NODE_TYPE:
			if (!node_type_list(p, gi))
				return false;
			break;
		default: /* STK_PORT_GROUP_END */
			if (!p->s->groups[gi].name) {
				reject(p, at,
				       "port-group validation failed - no "
				       "port group name specified");
				return false;
			}
			return true;
		}
	}
}

static bool port_groups(struct sp *p)
{
	size_t n = 0;

	take(p);
	for (;;) {
		switch (peek(p)) {
		case STK_PORT_GROUP_START:
			if (!port_group(p))
				return false;
			n++;
			break;
		case STK_PORT_GROUPS_END:
			if (!n) { /* port_groups: one or more */
				syntax_error(p);
				return false;
			}
			take(p);
			return true;
		default:
			syntax_error(p);
			return false;
		}
	}
}

/* ---- qos-levels ---- */

static long new_level(struct sp *p, struct oq_loc at)
{
	struct oq_stock *s = p->s;
	struct oq_stock_level *l;

	if (!grow(p, (void **)&s->levels, &p->cap_levels, s->n_levels,
		  sizeof(*s->levels)))
		return -1;
	l = &s->levels[s->n_levels];
	memset(l, 0, sizeof(*l));
	l->loc = at;
	l->mtu = l->rate = l->life = -1;
	return (long)s->n_levels++;
}

static bool level_number(struct sp *p, uint64_t *v)
{
	if (!number(p))
		return false;
	*v = p->nums[0];
	clear_lists(p);
	return true;
}

static bool qos_level(struct sp *p)
{
	long li = new_level(p, p->la.loc);
	bool use = false, sl = false;

	take(p);
	if (li < 0)
		return false;
	for (;;) {
		struct oq_stock_level *l;
		enum oq_stk k = peek(p);
		struct oq_loc at = p->la.loc;
		struct oq_ranges r;
		uint64_t v;

		clear_lists(p);
		switch (k) {
		case STK_NAME:
		case STK_USE:
		case STK_SL:
		case STK_MTU_LIMIT:
		case STK_RATE_LIMIT:
		case STK_PACKET_LIFE:
		case STK_PATH_BITS:
		case STK_PKEY:
		case STK_QOS_LEVEL_END:
			take(p);
			break;
		default:
			syntax_error(p);
			return false;
		}
		switch (k) {
		case STK_NAME:
			if (!single_string(p))
				return false;
			l = &p->s->levels[li];
			if (l->name) {
				reject(p, at,
				       "qos-level has multiple 'name' "
				       "tags");
				return false;
			}
			l->name = first_string(p);
			break;
		case STK_USE:
			if (!single_string(p))
				return false;
			if (use) {
				reject(p, at,
				       "qos-level has multiple 'use' "
				       "tags");
				return false;
			}
			use = true;
			break;
		case STK_SL:
			if (!level_number(p, &v))
				return false;
			if (sl) {
				reject(p, at,
				       "'qos-level' has multiple 'sl' "
				       "tags");
				return false;
			}
			sl = true;
			p->s->levels[li].sl = (uint8_t)v;
			break;
		case STK_MTU_LIMIT:
		case STK_RATE_LIMIT:
		case STK_PACKET_LIFE: {
			const char *key = k == STK_MTU_LIMIT	? "mtu-limit"
					  : k == STK_RATE_LIMIT ? "rate-limit"
								: "packet-life";
			int *f;

			if (!level_number(p, &v))
				return false;
			l = &p->s->levels[li];
			f = k == STK_MTU_LIMIT	  ? &l->mtu
			    : k == STK_RATE_LIMIT ? &l->rate
						  : &l->life;
			if (*f >= 0) {
				reject(p, at,
				       "'qos-level' has multiple '%s' tags",
				       key);
				return false;
			}
			if ((k == STK_MTU_LIMIT && (v < 1 || v > 5)) ||
			    (k == STK_RATE_LIMIT && (v < 2 || v > 22))) {
				reject(p, at,
				       "%s limit is out of range, value: %d",
				       k == STK_MTU_LIMIT ? "mtu" : "rate",
				       (int)v);
				return false;
			}
			*f = (uint8_t)v;
			break;
		}
		case STK_PATH_BITS:
		case STK_PKEY:
			memset(&r, 0, sizeof(r));
			if (!ranges_key(p, &r, k == STK_PKEY))
				return false;
			l = &p->s->levels[li];
			if (!merge_ranges(p,
					  k == STK_PKEY ? &l->pkeys
							: &l->path_bits,
					  &r))
				return false;
			break;
		default: /* STK_QOS_LEVEL_END */
			if (!sl) {
				reject(p, at,
				       "qos-level validation failed - "
				       "no 'sl' specified");
				return false;
			}
			if (!p->s->levels[li].name) {
				reject(p, at,
				       "qos-level validation failed - "
				       "no 'name' specified");
				return false;
			}
			return true;
		}
	}
}

static bool qos_levels(struct sp *p)
{
	take(p);
	for (;;) {
		switch (peek(p)) {
		case STK_QOS_LEVEL_START:
			if (!qos_level(p))
				return false;
			break;
		case STK_QOS_LEVELS_END:
			take(p);
			return true;
		default:
			syntax_error(p);
			return false;
		}
	}
}

/* ---- qos-match-rules ---- */

static long new_rule(struct sp *p, struct oq_loc at)
{
	struct oq_stock *s = p->s;

	if (!grow(p, (void **)&s->rules, &p->cap_rules, s->n_rules,
		  sizeof(*s->rules)) ||
	    !grow(p, (void **)&p->names, &p->cap_names, s->n_rules,
		  sizeof(*p->names)))
		return -1;
	memset(&s->rules[s->n_rules], 0, sizeof(*s->rules));
	memset(&p->names[s->n_rules], 0, sizeof(*p->names));
	p->n_names = s->n_rules + 1;
	s->rules[s->n_rules].loc = at;
	return (long)s->n_rules++;
}

static bool match_rule(struct sp *p)
{
	long ri = new_rule(p, p->la.loc);
	bool use = false;

	take(p);
	if (ri < 0)
		return false;
	for (;;) {
		struct rule_names *nm = &p->names[ri];
		struct oq_stock_rule *r = &p->s->rules[ri];
		enum oq_stk k = peek(p);
		struct oq_loc at = p->la.loc;

		clear_lists(p);
		switch (k) {
		case STK_USE:
		case STK_QOS_CLASS:
		case STK_QOS_LEVEL_NAME:
		case STK_SOURCE:
		case STK_DESTINATION:
		case STK_SERVICE_ID:
		case STK_PKEY:
		case STK_QOS_MATCH_RULE_END:
			take(p);
			break;
		default:
			syntax_error(p);
			return false;
		}
		switch (k) {
		case STK_USE:
			if (!single_string(p))
				return false;
			if (use) {
				reject(p, at,
				       "'qos-match-rule' has multiple "
				       "'use' tags");
				return false;
			}
			use = true;
			break;
		case STK_QOS_LEVEL_NAME:
			if (!single_string(p))
				return false;
			if (nm->level) {
				reject(p, at,
				       "qos-match-rule has multiple "
				       "'qos-level-name' tags");
				return false;
			}
			nm->level = first_string(p);
			break;
		case STK_SOURCE:
		case STK_DESTINATION:
			if (!string_list(p))
				return false;
			if (!(k == STK_SOURCE
				      ? move_strings(p, &nm->src, &nm->n_src)
				      : move_strings(p, &nm->dst, &nm->n_dst)))
				return false;
			break;
		case STK_QOS_CLASS:
			if (!ranges_key(p, &r->classes, false))
				return false;
			break;
		case STK_SERVICE_ID:
			if (!ranges_key(p, &r->sids, false))
				return false;
			break;
		case STK_PKEY:
			if (!ranges_key(p, &r->pkeys, true))
				return false;
			break;
		default: /* STK_QOS_MATCH_RULE_END */
			if (!nm->level) {
				reject(p, at,
				       "match-rule validation failed - "
				       "no 'qos-level-name' specified");
				return false;
			}
			return true;
		}
	}
}

static bool match_rules(struct sp *p)
{
	take(p);
	for (;;) {
		switch (peek(p)) {
		case STK_QOS_MATCH_RULE_START:
			if (!match_rule(p))
				return false;
			break;
		case STK_QOS_MATCH_RULES_END:
			take(p);
			return true;
		default:
			syntax_error(p);
			return false;
		}
	}
}

/* ---- qos-setup ---- */

static bool vlarb_scope(struct sp *p)
{
	struct oq_stock *s = p->s;
	struct oq_stock_vlarb *v;
	size_t vi = s->n_vlarb;

	if (!grow(p, (void **)&s->vlarb, &p->cap_vlarb, s->n_vlarb,
		  sizeof(*s->vlarb)))
		return false;
	memset(&s->vlarb[vi], 0, sizeof(*s->vlarb));
	s->vlarb[vi].loc = p->la.loc;
	s->n_vlarb++;
	take(p);
	for (;;) {
		enum oq_stk k = peek(p);
		struct oq_loc at = p->la.loc;

		clear_lists(p);
		switch (k) {
		case STK_GROUP:
		case STK_ACROSS:
		case STK_VLARB_HIGH:
		case STK_VLARB_LOW:
		case STK_VLARB_HIGH_LIMIT:
		case STK_VLARB_SCOPE_END:
			take(p);
			break;
		default:
			syntax_error(p);
			return false;
		}
		v = &s->vlarb[vi];
		switch (k) {
		case STK_GROUP:
			if (!string_list(p) ||
			    !move_strings(p, &v->groups, &v->n_groups))
				return false;
			break;
		case STK_ACROSS:
			if (!string_list(p) ||
			    !move_strings(p, &v->across, &v->n_across))
				return false;
			break;
		case STK_VLARB_HIGH:
		case STK_VLARB_LOW: {
			struct oq_stock_pair **t =
				k == STK_VLARB_HIGH ? &v->high : &v->low;
			size_t *n = k == STK_VLARB_HIGH ? &v->n_high
							: &v->n_low,
			       i;
			struct oq_stock_pair *nt;

			if (!list_of_pairs(p))
				return false;
			nt = realloc(*t, (*n + p->n_pairs) * sizeof(**t));
			if (!nt) {
				p->oom = p->stop = true;
				return false;
			}
			for (i = 0; i < p->n_pairs; i++) {
				nt[*n].a = p->pairs[i].lo;
				nt[(*n)++].b = p->pairs[i].hi;
			}
			*t = nt;
			break;
		}
		case STK_VLARB_HIGH_LIMIT: {
			uint64_t x;

			if (!level_number(p, &x))
				return false;
			v->limit = (uint32_t)x;
			v->limit_set = true;
			break;
		}
		default: /* STK_VLARB_SCOPE_END */
			if (!v->n_groups && !v->n_across) {
				reject(p, at,
				       "vlarb-scope validation failed - no "
				       "port groups specified by 'group' or "
				       "by 'across'");
				return false;
			}
			return true;
		}
	}
}

/* from: / to: -- '*' or ranges of switch port numbers below 128. */
static bool port_list(struct sp *p, uint8_t *bits, const char *which,
		      struct oq_loc at)
{
	size_t i;

	if (peek(p) == STK_ASTERISK) {
		take(p);
		memset(bits, 0xff, 16);
		return true;
	}
	if (!list_of_ranges(p))
		return false;
	for (i = 0; i < p->n_pairs; i++) {
		uint64_t b;

		if (p->pairs[i].hi >= MAX_PORTS_ON_SWITCH) {
			reject(p, at, "port number out of range '%s' list",
			       which);
			return false;
		}
		for (b = p->pairs[i].lo; b <= p->pairs[i].hi; b++)
			bits[b / 8] |= (uint8_t)(1u << (b % 8));
	}
	p->n_pairs = 0;
	return true;
}

static bool sl2vl_scope(struct sp *p)
{
	struct oq_stock *s = p->s;
	struct oq_stock_sl2vl *v;
	size_t vi = s->n_sl2vl;
	bool table = false;

	if (!grow(p, (void **)&s->sl2vl, &p->cap_sl2vl, s->n_sl2vl,
		  sizeof(*s->sl2vl)))
		return false;
	memset(&s->sl2vl[vi], 0, sizeof(*s->sl2vl));
	s->sl2vl[vi].loc = p->la.loc;
	s->n_sl2vl++;
	take(p);
	for (;;) {
		enum oq_stk k = peek(p);
		struct oq_loc at = p->la.loc;
		size_t i;

		clear_lists(p);
		switch (k) {
		case STK_GROUP:
		case STK_ACROSS:
		case STK_ACROSS_FROM:
		case STK_ACROSS_TO:
		case STK_FROM:
		case STK_TO:
		case STK_SL2VL_TABLE:
		case STK_SL2VL_SCOPE_END:
			take(p);
			break;
		default:
			syntax_error(p);
			return false;
		}
		v = &s->sl2vl[vi];
		switch (k) {
		case STK_GROUP:
			if (!string_list(p) ||
			    !move_strings(p, &v->groups, &v->n_groups))
				return false;
			break;
		case STK_ACROSS:
			/* Copied into both lists. */
			if (!string_list(p))
				return false;
			for (i = 0; i < p->n_strs; i++) {
				char **a = realloc(v->across_to,
						   (v->n_across_to + 1) *
							   sizeof(*a));
				char *d;

				if (!a) {
					p->oom = p->stop = true;
					return false;
				}
				v->across_to = a;
				d = dup_n(p, p->strs[i], strlen(p->strs[i]));
				if (!d)
					return false;
				a[v->n_across_to++] = d;
			}
			if (!move_strings(p, &v->across_from,
					  &v->n_across_from))
				return false;
			break;
		case STK_ACROSS_FROM:
			if (!string_list(p) || !move_strings(p, &v->across_from,
							     &v->n_across_from))
				return false;
			break;
		case STK_ACROSS_TO:
			if (!string_list(p) ||
			    !move_strings(p, &v->across_to, &v->n_across_to))
				return false;
			break;
		case STK_FROM:
		case STK_TO:
			if (!port_list(p, k == STK_FROM ? v->from : v->to,
				       k == STK_FROM ? "from" : "to", at))
				return false;
			break;
		case STK_SL2VL_TABLE:
			if (!num_list(p))
				return false;
			if (table) {
				reject(p, at,
				       "sl2vl-scope has more than one "
				       "sl2vl-table");
				return false;
			}
			if (p->n_nums != 16) {
				reject(p, at,
				       "wrong number of values in "
				       "'sl2vl-table' (should be 16)");
				return false;
			}
			for (i = 0; i < 16; i++) {
				if (p->nums[i] >= 16) {
					reject(p, at,
					       "wrong VL value in "
					       "'sl2vl-table' (should "
					       "be 0 to 15)");
					return false;
				}
				v->table[i] = (uint8_t)p->nums[i];
			}
			table = true;
			break;
		default: /* STK_SL2VL_SCOPE_END */
			if (!table) {
				reject(p, at,
				       "sl2vl-scope validation failed - "
				       "no sl2vl table specified");
				return false;
			}
			if (!v->n_groups && !v->n_across_to &&
			    !v->n_across_from) {
				reject(p, at,
				       "sl2vl-scope validation failed - no "
				       "port groups specified by 'group', "
				       "'across-to' or 'across-from'");
				return false;
			}
			return true;
		}
	}
}

static bool qos_setup(struct sp *p)
{
	take(p);
	for (;;) {
		enum oq_stk k = peek(p);

		if (k == STK_QOS_SETUP_END) {
			take(p);
			return true;
		}
		if (k != STK_VLARB_TABLES_START &&
		    k != STK_SL2VL_TABLES_START) {
			syntax_error(p);
			return false;
		}
		take(p);
		for (;;) {
			enum oq_stk t = peek(p);

			if (t == (k == STK_VLARB_TABLES_START
					  ? STK_VLARB_TABLES_END
					  : STK_SL2VL_TABLES_END)) {
				take(p);
				break;
			}
			if (k == STK_VLARB_TABLES_START &&
			    t == STK_VLARB_SCOPE_START) {
				if (!vlarb_scope(p))
					return false;
			} else if (k == STK_SL2VL_TABLES_START &&
				   t == STK_SL2VL_SCOPE_START) {
				if (!sl2vl_scope(p))
					return false;
			} else {
				syntax_error(p);
				return false;
			}
		}
	}
}

/* ---- qos-ulps ---- */

/* A qos-ulps rule's group (_SRP_Targets_, ...) from the pairs. */
static long ulp_group(struct sp *p, const char *name, struct oq_loc at)
{
	struct oq_ranges r;
	long gi;

	if (!pairs_to_ranges(p, &r, false))
		return -1;
	walk(p, guid_steps(&r), at, "the port GUIDs of this qos-ulps line");
	gi = p->stop ? -1 : new_group(p, at);
	if (gi < 0) {
		oq_ranges_free(&r);
		return -1;
	}
	p->s->groups[gi].guids = r;
	p->s->groups[gi].from_ulp = true;
	p->s->groups[gi].name = dup_n(p, name, strlen(name));
	return p->s->groups[gi].name ? gi : -1;
}

static bool add_index(struct sp *p, size_t **v, size_t *n, size_t x)
{
	size_t *nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv) {
		p->oom = p->stop = true;
		return false;
	}
	nv[(*n)++] = x;
	*v = nv;
	return true;
}

/* Service IDs of the port-num forms: each port + base, ports <= 0xffff. */
static bool ulp_ports(struct sp *p, struct oq_stock_rule *r, uint64_t base,
		      struct oq_loc at)
{
	size_t i;

	for (i = 0; i < p->n_pairs; i++)
		if (p->pairs[i].lo > 0xffff || p->pairs[i].hi > 0xffff) {
			/* OpenSM says SDP for rds and iser too. */
			reject(p, at, "SDP port number out of range");
			return false;
		}
	if (!pairs_to_ranges(p, &r->sids, false))
		return false;
	for (i = 0; i < r->sids.n; i++) {
		r->sids.v[i].lo += base;
		r->sids.v[i].hi += base;
	}
	return true;
}

static bool qos_ulp(struct sp *p)
{
	enum oq_stk k = peek(p);
	struct oq_loc at = p->la.loc;
	struct oq_stock_rule r;
	uint64_t sl;
	long gi;
	bool list = k == STK_ULP_ANY_SERVICE_ID || k == STK_ULP_ANY_PKEY ||
		    k == STK_ULP_ANY_TARGET_PORT_GUID ||
		    k == STK_ULP_ANY_SOURCE_PORT_GUID ||
		    k == STK_ULP_ANY_SOURCE_TARGET_PORT_GUID ||
		    k == STK_ULP_SDP_PORT || k == STK_ULP_RDS_PORT ||
		    k == STK_ULP_ISER_PORT || k == STK_ULP_SRP_GUID ||
		    k == STK_ULP_IPOIB_PKEY;

	take(p);
	if (k == STK_ULP_DEFAULT) {
		if (!level_number(p, &sl))
			return false;
		if (sl > 15) {
			reject(p, at, "illegal SL value");
			return false;
		}
		p->s->default_sl = (int)sl;
		return true;
	}
	memset(&r, 0, sizeof(r));
	r.loc = at;
	r.from_ulp = true;
	if (list && (!list_of_ranges(p) || !expect(p, STK_DOTDOT)))
		goto fail;
	switch (k) {
	case STK_ULP_ANY_SERVICE_ID:
		if (!pairs_to_ranges(p, &r.sids, false))
			goto fail;
		break;
	case STK_ULP_ANY_PKEY:
		if (!pairs_to_ranges(p, &r.pkeys, true))
			goto fail;
		break;
	case STK_ULP_ANY_TARGET_PORT_GUID:
	case STK_ULP_SRP_GUID:
		gi = ulp_group(p,
			       k == STK_ULP_SRP_GUID ? "_SRP_Targets_"
						     : "_ULP_Targets_",
			       at);
		if (gi < 0 || !add_index(p, &r.dst, &r.n_dst, (size_t)gi))
			goto fail;
		break;
	case STK_ULP_ANY_SOURCE_PORT_GUID:
		gi = ulp_group(p, "_ULP_Sources_", at);
		if (gi < 0 || !add_index(p, &r.src, &r.n_src, (size_t)gi))
			goto fail;
		break;
	case STK_ULP_ANY_SOURCE_TARGET_PORT_GUID:
		gi = ulp_group(p, "_ULP_Sources_Targets_", at);
		if (gi < 0 || !add_index(p, &r.src, &r.n_src, (size_t)gi) ||
		    !add_index(p, &r.dst, &r.n_dst, (size_t)gi))
			goto fail;
		break;
	case STK_ULP_SDP_DEFAULT:
		if (oq_ranges_add(&r.sids, ULP_SDP_SID, ULP_SDP_SID + 0xffff))
			goto oom;
		break;
	case STK_ULP_SDP_PORT:
		if (!ulp_ports(p, &r, ULP_SDP_SID, at))
			goto fail;
		break;
	case STK_ULP_RDS_DEFAULT:
		if (oq_ranges_add(&r.sids, ULP_RDS_SID + ULP_RDS_PORT,
				  ULP_RDS_SID + ULP_RDS_PORT))
			goto oom;
		break;
	case STK_ULP_RDS_PORT:
		if (!ulp_ports(p, &r, ULP_RDS_SID, at))
			goto fail;
		break;
	case STK_ULP_ISER_DEFAULT:
		if (oq_ranges_add(&r.sids, ULP_ISER_SID + ULP_ISER_PORT,
				  ULP_ISER_SID + ULP_ISER_PORT))
			goto oom;
		break;
	case STK_ULP_ISER_PORT:
		if (!ulp_ports(p, &r, ULP_ISER_SID, at))
			goto fail;
		break;
	case STK_ULP_IPOIB_DEFAULT:
		if (oq_ranges_add(&r.pkeys, 0x7fff, 0x7fff))
			goto oom;
		if (!ipoib_pkeys(p, &r.pkeys, at))
			goto fail;
		break;
	case STK_ULP_IPOIB_PKEY:
		if (!pairs_to_ranges(p, &r.pkeys, true) ||
		    !ipoib_pkeys(p, &r.pkeys, at))
			goto fail;
		break;
	default:
		goto fail;
	}
	/* qos_ulp_sl */
	clear_lists(p);
	if (!level_number(p, &sl))
		goto fail;
	if (sl > 15) {
		reject(p, at, "illegal SL value");
		goto fail;
	}
	r.level = (size_t)sl; /* SimpleQoSLevel_SL<sl>, placed later */
	if (!grow(p, (void **)&p->ulp, &p->cap_ulp, p->n_ulp, sizeof(*p->ulp)))
		goto fail;
	p->ulp[p->n_ulp++] = r;
	return true;
oom:
	p->oom = p->stop = true;
fail:
	free(r.src);
	free(r.dst);
	oq_ranges_free(&r.sids);
	oq_ranges_free(&r.pkeys);
	return false;
}

static bool qos_ulps(struct sp *p)
{
	size_t n = 0;

	take(p);
	for (;;) {
		enum oq_stk k = peek(p);

		clear_lists(p);
		if (k == STK_QOS_ULPS_END && n) {
			take(p);
			return true;
		}
		if (k < STK_ULP_DEFAULT || k > STK_ULP_IPOIB_PKEY) {
			syntax_error(p);
			return false;
		}
		if (!qos_ulp(p))
			return false;
		n++;
	}
}

/* ---- after the grammar: osm_qos_policy_validate() ---- */

/* The first name in list order, case-insensitively; -1 when none.  Each
 * comparison is a step of OpenSM's linear search. */
static long find_name(struct sp *p, bool groups, const char *name,
		      struct oq_loc at)
{
	uint64_t steps;
	long i = oq_stock_lookup(p->s, groups, name, &steps);

	walk(p, steps, at, "name lookups");
	return i;
}

static void add_simple_levels(struct sp *p)
{
	struct oq_stock *s = p->s;
	unsigned int sl;

	s->n_explicit_levels = s->n_levels;
	for (sl = 0; sl < 16 && !p->stop; sl++) {
		long li = new_level(p, s->levels ? s->levels[0].loc
						 : (struct oq_loc){0});
		char name[32];

		if (li < 0)
			return;
		snprintf(name, sizeof(name), "SimpleQoSLevel_SL%u", sl);
		s->levels[li].name = dup_n(p, name, strlen(name));
		s->levels[li].sl = sl;
		s->levels[li].simple = true;
		s->levels[li].loc.line = s->levels[li].loc.col = 0;
	}
}

static bool resolve_groups(struct sp *p, char **names, size_t n, size_t **out,
			   size_t *n_out, size_t rule, const char *side,
			   int code)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct oq_loc at = p->s->rules[rule].loc;
		long g = find_name(p, true, names[i], at);

		if (p->stop)
			return false;
		if (g < 0) {
			reject(p, at,
			       "ERR AC%d: qos-match-rule num %zu: %s "
			       "port-group '%.200s' not found",
			       code, rule + 1, side, names[i]);
			return false;
		}
		if (!add_index(p, out, n_out, (size_t)g))
			return false;
	}
	return true;
}

static void validate(struct sp *p, size_t n_explicit_rules)
{
	struct oq_stock *s = p->s;
	size_t i;
	long d;

	d = find_name(p, false, "DEFAULT", (struct oq_loc){0});
	s->default_level = d;
	if (d < 0 && s->default_sl < 0) {
		reject(p, (struct oq_loc){p->lx.file, 0, 0},
		       "ERR AC10: Default qos-level (DEFAULT) not defined.");
		return;
	}
	for (i = 0; i < s->n_rules && !p->stop; i++) {
		struct oq_stock_rule *r = &s->rules[i];

		if (i < n_explicit_rules) {
			struct rule_names *nm = &p->names[i];
			long l = find_name(p, false, nm->level, r->loc);

			if (p->stop)
				return;
			if (l < 0) {
				reject(p, r->loc,
				       "ERR AC11: qos-match-rule num %zu: "
				       "qos-level '%.200s' not found",
				       i + 1, nm->level);
				return;
			}
			r->level = (size_t)l;
			if (!resolve_groups(p, nm->src, nm->n_src, &r->src,
					    &r->n_src, i, "source", 12) ||
			    !resolve_groups(p, nm->dst, nm->n_dst, &r->dst,
					    &r->n_dst, i, "destination", 13))
				return;
		}
		/* A log line (ERR AC14) per P_Key without a partition; the
		 * loop is a step per P_Key. */
		walk(p, range_count(&r->pkeys), r->loc,
		     "the P_Keys of this rule");
	}
}

static void free_names(struct sp *p, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		struct rule_names *nm = &p->names[i];

		free(nm->level);
		for (j = 0; j < nm->n_src; j++)
			free(nm->src[j]);
		for (j = 0; j < nm->n_dst; j++)
			free(nm->dst[j]);
		free(nm->src);
		free(nm->dst);
	}
	free(p->names);
}

static void free_rule(struct oq_stock_rule *r)
{
	free(r->src);
	free(r->dst);
	oq_ranges_free(&r->sids);
	oq_ranges_free(&r->classes);
	oq_ranges_free(&r->pkeys);
}

static void parse(struct sp *p)
{
	struct oq_stock *s = p->s;
	size_t i, n_explicit_rules;

	while (!p->stop) {
		enum oq_stk k = peek(p);
		bool ok;

		clear_lists(p);
		switch (k) {
		case STK_EOF:
			goto grammar_done;
		case STK_QOS_ULPS_START:
			ok = qos_ulps(p);
			break;
		case STK_PORT_GROUPS_START:
			ok = port_groups(p);
			break;
		case STK_QOS_SETUP_START:
			ok = qos_setup(p);
			break;
		case STK_QOS_LEVELS_START:
			ok = qos_levels(p);
			break;
		case STK_QOS_MATCH_RULES_START:
			ok = match_rules(p);
			break;
		default:
			syntax_error(p);
			ok = false;
			break;
		}
		if (!ok && !p->stop)
			syntax_error(p);
	}
	return;
grammar_done:
	/* The qos-ulps rules follow the others. */
	n_explicit_rules = s->n_rules;
	add_simple_levels(p);
	for (i = 0; i < p->n_ulp && !p->stop; i++) {
		if (!grow(p, (void **)&s->rules, &p->cap_rules, s->n_rules,
			  sizeof(*s->rules)))
			return;
		p->ulp[i].level += s->n_explicit_levels;
		s->rules[s->n_rules++] = p->ulp[i];
		p->ulp[i] = (struct oq_stock_rule){0};
	}
	if (!p->stop && oq_stock_index_build(s, s->n_explicit_levels))
		p->oom = p->stop = true;
	if (!p->stop)
		validate(p, n_explicit_rules);
	if (!p->stop)
		s->outcome = OQ_STOCK_TAKES;
}

struct oq_stock *oq_stock_read(const char *file, const char *text, size_t len,
			       const struct oq_stock_env *env)
{
	struct oq_stock *s = calloc(1, sizeof(*s));
	struct sp *p = calloc(1, sizeof(*p));
	size_t i;

	if (!s || !p) {
		free(s);
		free(p);
		return NULL;
	}
	s->default_level = -1;
	s->default_sl = -1;
	p->s = s;
	p->env = env;
	oq_slx_init(&p->lx, file, text, len);
	parse(p);
	clear_lists(p);
	free_names(p, p->n_names);
	for (i = 0; i < p->n_ulp; i++)
		free_rule(&p->ulp[i]);
	free(p->ulp);
	free(p->strs);
	free(p->nums);
	free(p->pairs);
	if (p->oom) {
		free(p);
		oq_stock_free(s);
		return NULL;
	}
	free(p);
	return s;
}

static void free_strings(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void oq_stock_free(struct oq_stock *s)
{
	size_t i, j;

	if (!s)
		return;
	for (i = 0; i < s->n_groups; i++) {
		struct oq_stock_group *g = &s->groups[i];

		free(g->name);
		oq_ranges_free(&g->guids);
		oq_ranges_free(&g->pkeys);
		for (j = 0; j < g->n_pnames; j++)
			free(g->pnames[j].node);
		free(g->pnames);
		free_strings(g->partitions, g->n_partitions);
	}
	free(s->groups);
	for (i = 0; i < s->n_levels; i++) {
		free(s->levels[i].name);
		oq_ranges_free(&s->levels[i].path_bits);
		oq_ranges_free(&s->levels[i].pkeys);
	}
	free(s->levels);
	for (i = 0; i < s->n_rules; i++)
		free_rule(&s->rules[i]);
	free(s->rules);
	for (i = 0; i < s->n_vlarb; i++) {
		free_strings(s->vlarb[i].groups, s->vlarb[i].n_groups);
		free_strings(s->vlarb[i].across, s->vlarb[i].n_across);
		free(s->vlarb[i].high);
		free(s->vlarb[i].low);
	}
	free(s->vlarb);
	for (i = 0; i < s->n_sl2vl; i++) {
		free_strings(s->sl2vl[i].groups, s->sl2vl[i].n_groups);
		free_strings(s->sl2vl[i].across_from,
			     s->sl2vl[i].n_across_from);
		free_strings(s->sl2vl[i].across_to, s->sl2vl[i].n_across_to);
	}
	free(s->sl2vl);
	oq_stock_index_free(s);
	free(s);
}
