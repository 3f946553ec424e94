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

#include "lexer.h"
#include "stock_parse_int.h"

/* Grow *v (of *cap elements of size) to hold n + 1. */
bool sp_grow(struct sp *p, void **v, size_t *cap, size_t n, size_t size)
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

char *sp_dup_n(struct sp *p, const char *s, size_t n)
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

enum oq_stk sp_peek(struct sp *p)
{
	if (!p->have_la) {
		oq_slx_next(&p->lx, &p->la);
		p->have_la = true;
	}
	return p->la.t;
}

void sp_take(struct sp *p)
{
	sp_peek(p);
	p->last = p->la;
	p->have_la = false;
}

void sp_stop_at(struct sp *p, enum oq_stock_outcome o, struct oq_loc at,
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

void sp_syntax_error(struct sp *p)
{
	const struct oq_stok *t = &p->la;

	sp_peek(p);
	if (t->t == STK_TEXT) {
		size_t n = t->len > 24 ? 24 : t->len;
		char *what = oq_lx_snippet(t->val, n);

		/* A CR is no blank to OpenSM's scanner: say why it is
		 * there. */
		reject(p, t->loc, "syntax error: unexpected text '%s%s'%s",
		       what ? what : "?", t->len > n ? "..." : "",
		       t->val[0] == '\r' ? " (a CR: the file has CRLF line "
					   "ends, which OpenSM's scanner does "
					   "not take)"
					 : "");
		free(what);
	} else {
		reject(p, t->loc, "syntax error: unexpected %s",
		       oq_stk_spelling(t->t));
	}
	p->s->opensm_line = t->end_line;
	p->s->opensm_col = t->end_col;
}

bool sp_expect(struct sp *p, enum oq_stk t)
{
	if (sp_peek(p) != t) {
		sp_syntax_error(p);
		return false;
	}
	sp_take(p);
	return true;
}

/* Steps of a loop OpenSM's parse runs; past the limit the SM stalls. */
void sp_walk(struct sp *p, uint64_t n, struct oq_loc at, const char *what)
{
	uint64_t w = p->s->walked;

	p->s->walked = w + n < w ? UINT64_MAX : w + n;
	if (p->s->walked < OQ_STOCK_STALL_WALK)
		return;
	if (p->s->walked == UINT64_MAX)
		sp_stop_at(p, OQ_STOCK_STALLS, at,
			   "%s: OpenSM's parser loops over them without end (a "
			   "range that ends at the last GUID wraps around)",
			   what);
	else
		sp_stop_at(p, OQ_STOCK_STALLS, at,
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
	if (sp_peek(p) != STK_NUMBER) {
		sp_syntax_error(p);
		return false;
	}
	sp_take(p);
	*v = str2u64(p->last.val, p->last.len);
	return true;
}

/* number: TK_NUMBER, pushed on num_list. */
bool sp_number(struct sp *p)
{
	uint64_t v;

	if (!take_number(p, &v) || !sp_grow(p, (void **)&p->nums, &p->cap_nums,
					    p->n_nums, sizeof(*p->nums)))
		return false;
	p->nums[p->n_nums++] = v;
	return true;
}

bool sp_num_list(struct sp *p)
{
	for (;;) {
		if (!sp_number(p))
			return false;
		if (sp_peek(p) != STK_COMMA)
			return true;
		sp_take(p);
	}
}

static bool push_pair(struct sp *p, uint64_t a, uint64_t b)
{
	if (!sp_grow(p, (void **)&p->pairs, &p->cap_pairs, p->n_pairs,
		     sizeof(*p->pairs)))
		return false;
	p->pairs[p->n_pairs].lo = a;
	p->pairs[p->n_pairs].hi = b;
	p->n_pairs++;
	return true;
}

/* list_of_ranges: N or N-M, comma separated; a range is kept low-high. */
bool sp_list_of_ranges(struct sp *p)
{
	for (;;) {
		uint64_t a, b;

		if (!take_number(p, &a))
			return false;
		b = a;
		if (sp_peek(p) == STK_DASH) {
			sp_take(p);
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
		if (sp_peek(p) != STK_COMMA)
			return true;
		sp_take(p);
	}
}

/* num_list_with_dotdot: N:M, comma separated, kept as written. */
bool sp_list_of_pairs(struct sp *p)
{
	for (;;) {
		uint64_t a, b;

		if (!take_number(p, &a) || !sp_expect(p, STK_DOTDOT) ||
		    !take_number(p, &b) || !push_pair(p, a, b))
			return false;
		if (sp_peek(p) != STK_COMMA)
			return true;
		sp_take(p);
	}
}

/* The pairs as normalized ranges (__rangelist2rangearr); for P_Keys
 * (__pkey_rangelist2rangearr) both ends lose bit 15 first. */
bool sp_pairs_to_ranges(struct sp *p, struct oq_ranges *out, bool pkey)
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
uint64_t sp_range_count(const struct oq_ranges *r)
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
uint64_t sp_guid_steps(const struct oq_ranges *r)
{
	if (r->n && r->v[r->n - 1].hi == UINT64_MAX)
		return UINT64_MAX;
	return sp_range_count(r);
}

/* Add the ranges of add (freed) to into.  They are merged as
 * __merge_rangearr merges them by oq_ranges_normalize() once, at the end
 * of the block: a merge per key made a block of many keys quadratic. */
bool sp_merge_ranges(struct sp *p, struct oq_ranges *into,
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
	return true;
}

/* A list_of_ranges key's ranges, merged among themselves, added to into
 * (P_Keys: pkey). */
bool sp_ranges_key(struct sp *p, struct oq_ranges *into, bool pkey)
{
	struct oq_ranges r;

	if (!sp_list_of_ranges(p) || !sp_pairs_to_ranges(p, &r, pkey))
		return false;
	oq_ranges_normalize(&r);
	return sp_merge_ranges(p, into, &r);
}

/* single_string: TEXT tokens strcat'ed into the 10 KiB buffer, then
 * stripped of leading and trailing isspace() and pushed on str_list. */
bool sp_single_string(struct sp *p)
{
	char *s;
	size_t a, b;

	if (sp_peek(p) != STK_TEXT) {
		sp_syntax_error(p);
		return false;
	}
	p->str_len = 0;
	while (sp_peek(p) == STK_TEXT) {
		sp_take(p);
		if (p->last.corrupt) {
			sp_stop_at(
				p, OQ_STOCK_ABORTS, p->last.loc,
				"a quoted string that starts with a NUL byte: "
				"OpenSM's scanner writes before the string it "
				"allocated (heap corruption)");
			return false;
		}
		if (p->str_len + p->last.len + 1 > OQ_STOCK_STR_MAX) {
			sp_stop_at(p, OQ_STOCK_ABORTS, p->last.loc,
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
	s = sp_dup_n(p, p->str + a, b - a);
	if (!s || !sp_grow(p, (void **)&p->strs, &p->cap_strs, p->n_strs,
			   sizeof(*p->strs))) {
		free(s);
		return false;
	}
	p->strs[p->n_strs++] = s;
	return true;
}

bool sp_string_list(struct sp *p)
{
	for (;;) {
		if (!sp_single_string(p))
			return false;
		if (sp_peek(p) != STK_COMMA)
			return true;
		sp_take(p);
	}
}

/* RESET_BUFFER, at each key. */
void sp_clear_lists(struct sp *p)
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
bool sp_move_strings(struct sp *p, char ***v, size_t *n)
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
char *sp_first_string(struct sp *p)
{
	char *s = p->strs[0];

	p->strs[0] = NULL;
	sp_clear_lists(p);
	return s;
}

/* ---- the fabric checks ---- */

/* env's sp_port_check(), or 1 (with the assumption counted) without one. */
int sp_port_check(struct sp *p, const char *desc, unsigned int port)
{
	if (!p->env || !p->env->port_check) {
		p->s->assumed++;
		return 1;
	}
	return p->env->port_check(p->env->ctx, desc, port);
}

/* __validate_pkeys(..., TRUE): every P_Key of an ipoib line names a
 * partition with at least two full members. */
bool sp_ipoib_pkeys(struct sp *p, const struct oq_ranges *r, struct oq_loc at)
{
	size_t i;

	sp_walk(p, sp_range_count(r), at, "the P_Keys of this ipoib line");
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

/* ---- after the grammar: osm_qos_policy_validate() ---- */

/* The first name in list order, case-insensitively; -1 when none.  Each
 * comparison is a step of OpenSM's linear search. */
static long find_name(struct sp *p, bool groups, const char *name,
		      struct oq_loc at)
{
	uint64_t steps;
	long i = oq_stock_lookup(p->s, groups, name, &steps);

	sp_walk(p, steps, at, "name lookups");
	return i;
}

static void add_simple_levels(struct sp *p)
{
	struct oq_stock *s = p->s;
	unsigned int sl;

	s->n_explicit_levels = s->n_levels;
	for (sl = 0; sl < 16 && !p->stop; sl++) {
		long li = sp_new_level(p, s->levels ? s->levels[0].loc
						    : (struct oq_loc){0});
		char name[32];

		if (li < 0)
			return;
		snprintf(name, sizeof(name), "SimpleQoSLevel_SL%u", sl);
		s->levels[li].name = sp_dup_n(p, name, strlen(name));
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
		if (!sp_add_index(p, out, n_out, (size_t)g))
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
		sp_walk(p, sp_range_count(&r->pkeys), r->loc,
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
		enum oq_stk k = sp_peek(p);
		bool ok;

		sp_clear_lists(p);
		switch (k) {
		case STK_EOF:
			goto grammar_done;
		case STK_QOS_ULPS_START:
			ok = sp_qos_ulps(p);
			break;
		case STK_PORT_GROUPS_START:
			ok = sp_port_groups(p);
			break;
		case STK_QOS_SETUP_START:
			ok = sp_qos_setup(p);
			break;
		case STK_QOS_LEVELS_START:
			ok = sp_qos_levels(p);
			break;
		case STK_QOS_MATCH_RULES_START:
			ok = sp_match_rules(p);
			break;
		default:
			sp_syntax_error(p);
			ok = false;
			break;
		}
		if (!ok && !p->stop)
			sp_syntax_error(p);
	}
	return;
grammar_done:
	/* The qos-ulps rules follow the others. */
	n_explicit_rules = s->n_rules;
	add_simple_levels(p);
	for (i = 0; i < p->n_ulp && !p->stop; i++) {
		if (!sp_grow(p, (void **)&s->rules, &p->cap_rules, s->n_rules,
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
	sp_clear_lists(p);
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
