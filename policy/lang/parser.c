// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The qos-policy.conf parser: blocks (port-groups, qos-setup, qos-levels,
 * qos-match-rules, qos-ulps and their items) and the keys of port groups,
 * QoS levels and match rules.  qos-setup keys live in parser_setup.c and
 * qos-ulps lines in ulps.c.
 *
 * The language is line oriented: every line starts with a keyword, either
 * a block keyword (`port-group`, `end-port-group`, ...) or a `key: value`
 * pair.  Errors are reported with their line and column and the parser
 * carries on with the next line, so one run reports every problem; a
 * missing `end-...` closes the open blocks where the next block begins.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <errno.h>

#include "parser_int.h"
#include <osmqos/file.h>

#define FIELDS_MAX 11

struct blk_info {
	const char *start, *end; /* keywords that open and close it */
	enum oq_blk parent;
	const char *fields[FIELDS_MAX]; /* `key:` allowed inside */
};

static const struct blk_info blks[OQ_B_COUNT] = {
	[OQ_B_TOP] = {NULL, NULL, OQ_B_TOP, {NULL}},
	[OQ_B_PORT_GROUPS] = {"port-groups",
			      "end-port-groups",
			      OQ_B_TOP,
			      {NULL}},
	[OQ_B_PORT_GROUP] = {"port-group",
			     "end-port-group",
			     OQ_B_PORT_GROUPS,
			     {"name", "use", "port-guid", "port-name", "pkey",
			      "partition", "node-type"}},
	[OQ_B_QOS_SETUP] = {"qos-setup", "end-qos-setup", OQ_B_TOP, {NULL}},
	[OQ_B_VLARB_TABLES] = {"vlarb-tables",
			       "end-vlarb-tables",
			       OQ_B_QOS_SETUP,
			       {NULL}},
	[OQ_B_VLARB_SCOPE] = {"vlarb-scope",
			      "end-vlarb-scope",
			      OQ_B_VLARB_TABLES,
			      {"group", "across", "vlarb-high", "vlarb-low",
			       "vl-high-limit"}},
	[OQ_B_SL2VL_TABLES] = {"sl2vl-tables",
			       "end-sl2vl-tables",
			       OQ_B_QOS_SETUP,
			       {NULL}},
	[OQ_B_SL2VL_SCOPE] = {"sl2vl-scope",
			      "end-sl2vl-scope",
			      OQ_B_SL2VL_TABLES,
			      {"group", "across", "across-from", "across-to",
			       "from", "to", "sl2vl-table"}},
	[OQ_B_LEVELS] = {"qos-levels", "end-qos-levels", OQ_B_TOP, {NULL}},
	[OQ_B_LEVEL] = {"qos-level",
			"end-qos-level",
			OQ_B_LEVELS,
			{"name", "use", "sl", "mtu-limit", "rate-limit",
			 "packet-life", "path-bits", "pkey", "bandwidth",
			 "priority", "latency"}},
	[OQ_B_RULES] = {"qos-match-rules",
			"end-qos-match-rules",
			OQ_B_TOP,
			{NULL}},
	[OQ_B_RULE] = {"qos-match-rule",
		       "end-qos-match-rule",
		       OQ_B_RULES,
		       {"use", "source", "destination", "service-id",
			"qos-class", "pkey", "qos-level-name"}},
	[OQ_B_ULPS] = {"qos-ulps", "end-qos-ulps", OQ_B_TOP, {NULL}},
};

static const char *blk_name(enum oq_blk b)
{
	return b == OQ_B_TOP ? "the top level" : blks[b].start;
}

static int find_block_kw(const char *key, bool end)
{
	int b;

	for (b = 1; b < OQ_B_COUNT; b++)
		if (!strcmp(key, end ? blks[b].end : blks[b].start))
			return b;
	return -1;
}

static bool is_field(enum oq_blk b, const char *key)
{
	int i;

	for (i = 0; i < FIELDS_MAX && blks[b].fields[i]; i++)
		if (!strcmp(blks[b].fields[i], key))
			return true;
	return false;
}

static bool is_any_field(const char *key)
{
	int b;

	for (b = 0; b < OQ_B_COUNT; b++)
		if (is_field(b, key))
			return true;
	return false;
}

/* The lexer's is_key: "word:" after a blank is a key for OpenSM too. */
static bool key_word(const char *w, size_t n)
{
	char key[32];

	if (n >= sizeof(key))
		return false;
	memcpy(key, w, n);
	key[n] = '\0';
	return is_any_field(key);
}

static const char *const ulp_words[] = { "default", "sdp", "rds", "iser",
					 "srp", "ipoib", "any" };

/* Does the line under the cursor start with a keyword (used to stop a
 * list continuation from swallowing the next key)? */
static bool line_starts_keyword(struct oq_pstate *ps)
{
	struct oq_lx lx = ps->lx;
	const char *w;
	size_t n = oq_lx_word(&lx, &w), i;
	char key[32];

	if (!n || n >= sizeof(key))
		return false;
	memcpy(key, w, n);
	key[n] = '\0';
	if (find_block_kw(key, false) >= 0 || find_block_kw(key, true) >= 0)
		return true;
	oq_lx_skip_blank(&lx);
	if (oq_lx_peek(&lx) == ':' && is_any_field(key))
		return true;
	if (oq_ps_blk(ps) == OQ_B_ULPS)
		for (i = 0; i < sizeof(ulp_words) / sizeof(ulp_words[0]); i++)
			if (!strcasecmp(key, ulp_words[i]))
				return true;
	return false;
}

bool oq_ps_line_goes_on(struct oq_pstate *ps)
{
	struct oq_lx save;

	oq_lx_skip_blank(&ps->lx);
	if (!oq_lx_at_eol(&ps->lx))
		return true;
	save = ps->lx;
	if (oq_lx_skip_space(&ps->lx) && !line_starts_keyword(ps))
		return true;
	ps->lx = save;
	return false;
}

bool oq_ps_list_next(struct oq_pstate *ps)
{
	if (oq_ps_line_goes_on(ps))
		return true;
	oq_diag_hint(oq_error(ps->d, oq_lx_loc(&ps->lx),
			      "expected a value after ','"),
		     "remove the trailing ',' or continue the list on the "
		     "next line");
	return false;
}

/* ---- items ---------------------------------------------------------- */

static void item_new(struct oq_pstate *ps, enum oq_blk b, struct oq_loc loc)
{
	struct oq_policy *p = ps->p;

	ps->seen = 0;
	ps->item_first_diag = ps->d->next_id;
	switch (b) {
	case OQ_B_PORT_GROUP: {
		struct oq_port_group *v = oq_ps_grow(ps, p->groups, &p->n_groups,
						     sizeof(*v));
		if (v) {
			p->groups = v;
			v[p->n_groups - 1].loc = loc;
		}
		break;
	}
	case OQ_B_LEVEL: {
		struct oq_qos_level *v = oq_ps_grow(ps, p->levels, &p->n_levels,
						    sizeof(*v));
		if (v) {
			p->levels = v;
			v += p->n_levels - 1;
			v->loc = loc;
			v->sl = v->mtu_limit = v->rate_limit = -1;
			v->packet_life = v->bandwidth_bp = -1;
		}
		break;
	}
	case OQ_B_RULE: {
		struct oq_match_rule *v = oq_ps_grow(ps, p->rules, &p->n_rules,
						     sizeof(*v));
		if (v) {
			p->rules = v;
			v[p->n_rules - 1].loc = loc;
			v[p->n_rules - 1].level.idx = -1;
		}
		break;
	}
	case OQ_B_VLARB_SCOPE: {
		struct oq_vlarb_scope *v = oq_ps_grow(ps, p->vlarb, &p->n_vlarb,
						      sizeof(*v));
		if (v) {
			p->vlarb = v;
			v[p->n_vlarb - 1].loc = loc;
			v[p->n_vlarb - 1].vl_high_limit = -1;
		}
		break;
	}
	case OQ_B_SL2VL_SCOPE: {
		struct oq_sl2vl_scope *v = oq_ps_grow(ps, p->sl2vl, &p->n_sl2vl,
						      sizeof(*v));
		if (v) {
			p->sl2vl = v;
			v[p->n_sl2vl - 1].loc = loc;
		}
		break;
	}
	case OQ_B_PORT_GROUPS:
		p->has_port_groups = true;
		break;
	case OQ_B_QOS_SETUP:
		p->has_qos_setup = true;
		break;
	case OQ_B_LEVELS:
		if (!p->has_levels)
			ps->levels_loc = loc;
		p->has_levels = true;
		break;
	case OQ_B_RULES:
		p->has_rules = true;
		break;
	case OQ_B_ULPS:
		p->has_ulps = true;
		break;
	default:
		break;
	}
}

/* "ITEM has no 'KEY'", following from an error on the item's lines. */
static struct oq_diag *missing_key(struct oq_pstate *ps, struct oq_loc loc,
				   const char *msg)
{
	struct oq_diag *dg = oq_error(ps->d, loc, "%s", msg);

	oq_diag_follows(dg,
			oq_ps_first_error_since(ps->d, ps->item_first_diag));
	return dg;
}

static void item_end(struct oq_pstate *ps, enum oq_blk b)
{
	struct oq_policy *p = ps->p;
	struct oq_loc loc = ps->stack[ps->depth].loc;

	switch (b) {
	case OQ_B_PORT_GROUP:
		if (!p->n_groups)
			break;
		if (!(ps->seen & OQ_SEEN_NAME))
			oq_diag_hint(missing_key(ps, loc,
						 "port-group has no 'name'"),
				     "add 'name: GROUP' to the port-group");
		oq_ranges_normalize(&p->groups[p->n_groups - 1].guids);
		oq_ranges_normalize(&p->groups[p->n_groups - 1].pkeys);
		break;
	case OQ_B_LEVEL:
		if (!p->n_levels)
			break;
		if (!(ps->seen & OQ_SEEN_NAME))
			oq_diag_hint(
				missing_key(ps, loc, "qos-level has no 'name'"),
				"add 'name: LEVEL' to the qos-level");
		if (!(ps->seen & OQ_SEEN_SL))
			oq_diag_hint(
				missing_key(ps, loc, "qos-level has no 'sl'"),
				"every qos-level needs 'sl: 0-15'");
		oq_ranges_normalize(&p->levels[p->n_levels - 1].path_bits);
		oq_ranges_normalize(&p->levels[p->n_levels - 1].pkeys);
		break;
	case OQ_B_RULE: {
		struct oq_match_rule *r;

		if (!p->n_rules)
			break;
		r = &p->rules[p->n_rules - 1];
		if (!(ps->seen & OQ_SEEN_LEVEL_NAME))
			oq_diag_hint(missing_key(ps, loc,
						 "qos-match-rule has no "
						 "'qos-level-name'"),
				     "add 'qos-level-name: LEVEL' to the rule");
		oq_ranges_normalize(&r->service_ids);
		oq_ranges_normalize(&r->qos_classes);
		oq_ranges_normalize(&r->pkeys);
		break;
	}
	case OQ_B_VLARB_SCOPE:
	case OQ_B_SL2VL_SCOPE:
		oq_setup_scope_end(ps, b);
		break;
	case OQ_B_PORT_GROUPS:
	case OQ_B_ULPS:
		if (!ps->stack[ps->depth].n_children)
			oq_diag_hint(oq_error(ps->d, loc, "empty '%s' section",
					      blks[b].start),
				     "OpenSM's grammar needs at least one "
				     "entry here; remove the section or fill "
				     "it");
		break;
	default:
		break;
	}
}

static void pop(struct oq_pstate *ps)
{
	item_end(ps, oq_ps_blk(ps));
	ps->depth--;
}

static void push(struct oq_pstate *ps, enum oq_blk b, struct oq_loc loc)
{
	ps->stack[ps->depth].n_children++;
	ps->depth++;
	ps->stack[ps->depth].blk = b;
	ps->stack[ps->depth].loc = loc;
	ps->stack[ps->depth].n_children = 0;
	item_new(ps, b, loc);
}

static int stack_index(const struct oq_pstate *ps, enum oq_blk b)
{
	int i;

	for (i = ps->depth; i >= 0; i--)
		if (ps->stack[i].blk == b)
			return i;
	return -1;
}

static void open_block(struct oq_pstate *ps, enum oq_blk b, struct oq_loc loc)
{
	enum oq_blk chain[4];
	int n = 0, i, keep = 0;

	/* b's ancestors, innermost first; find the deepest open one. */
	for (chain[n++] = b; chain[n - 1] != OQ_B_TOP; n++)
		chain[n] = blks[chain[n - 1]].parent;
	for (i = 1; i < n; i++) {
		keep = stack_index(ps, chain[i]);
		if (keep >= 0)
			break;
	}
	if (keep < ps->depth)
		oq_diag_hint(oq_error(ps->d, loc, "missing '%s' before '%s'",
				      blks[oq_ps_blk(ps)].end, blks[b].start),
			     "'%s' at line %u is still open",
			     blks[oq_ps_blk(ps)].start,
			     ps->stack[ps->depth].loc.line);
	else if (i > 1)
		oq_diag_hint(oq_error(ps->d, loc, "'%s' outside of '%s'",
				      blks[b].start,
				      blks[blks[b].parent].start),
			     "put it inside a '%s' ... '%s' block",
			     blks[blks[b].parent].start,
			     blks[blks[b].parent].end);
	while (ps->depth > keep)
		pop(ps);
	/* Open the missing ancestors implicitly, then b. */
	while (--i >= 0)
		push(ps, chain[i], loc);
}

static void close_block(struct oq_pstate *ps, enum oq_blk b,
			struct oq_loc loc)
{
	int at = stack_index(ps, b);

	if (at < 0) {
		oq_diag_hint(oq_error(ps->d, loc, "'%s' without '%s'",
				      blks[b].end, blks[b].start),
			     "no '%s' block is open here", blks[b].start);
		return;
	}
	if (at < ps->depth)
		oq_diag_hint(oq_error(ps->d, loc, "missing '%s' before '%s'",
				      blks[oq_ps_blk(ps)].end, blks[b].end),
			     "'%s' at line %u is still open",
			     blks[oq_ps_blk(ps)].start,
			     ps->stack[ps->depth].loc.line);
	while (ps->depth >= at)
		pop(ps);
}

/* ---- the line loop -------------------------------------------------- */

static const char *closest_keyword(enum oq_blk b, const char *key)
{
	const char *best = NULL;
	unsigned int best_d = 3, d;
	int i, c;

	if (strlen(key) > 6)
		best_d = (unsigned int)strlen(key) / 3 + 1;
	/* Keys of this block first (a key that is a prefix of one counts
	 * as close: `qos-level:` for `qos-level-name:`), then every
	 * keyword. */
	for (i = 0; i < FIELDS_MAX && blks[b].fields[i]; i++) {
		d = oq_lx_distance(key, blks[b].fields[i], best_d);
		if (strlen(key) >= 3 &&
		    !strncmp(key, blks[b].fields[i], strlen(key)))
			d = 1;
		if (d < best_d) {
			best_d = d;
			best = blks[b].fields[i];
		}
	}
	if (best)
		return best;
	for (c = 1; c < OQ_B_COUNT; c++) {
		const char *cand[2] = { blks[c].start, blks[c].end };

		for (i = 0; i < 2; i++) {
			d = oq_lx_distance(key, cand[i], best_d);
			if (d < best_d) {
				best_d = d;
				best = cand[i];
			}
		}
		for (i = 0; i < FIELDS_MAX && blks[c].fields[i]; i++) {
			d = oq_lx_distance(key, blks[c].fields[i], best_d);
			if (d < best_d) {
				best_d = d;
				best = blks[c].fields[i];
			}
		}
	}
	return best;
}

/* A misspelled keyword of this place (a block that opens here, the end
 * of the open block, a key of this block), close enough to read the line
 * as it: the rest of the policy is then checked as meant, and nothing
 * follows from the typo.  NULL when none is close or two are. */
static const char *meant_keyword(const struct oq_pstate *ps, const char *key,
				 bool colon, int *blk, bool *end)
{
	enum oq_blk b = oq_ps_blk(ps);
	unsigned int limit = 3, d, best_d = 99;
	const char *best = NULL;
	size_t len = strlen(key);
	int c, i, ties = 0;

	if (len < 4)
		return NULL;
	if (len > 9)
		limit = (unsigned int)len / 4 + 1;
	for (c = 1; c < OQ_B_COUNT && !colon; c++) {
		const char *cand[2] = {blks[c].start, blks[c].end};

		for (i = 0; i < 2; i++) {
			if (i == 0 ? blks[c].parent != b : (int)b != c)
				continue;
			d = oq_lx_distance(key, cand[i], limit);
			if (d >= limit || d > best_d)
				continue;
			ties = d == best_d ? ties + 1 : 0;
			best_d = d;
			best = cand[i];
			*blk = c;
			*end = i == 1;
		}
	}
	for (i = 0; colon && i < 10 && blks[b].fields[i]; i++) {
		d = oq_lx_distance(key, blks[b].fields[i], limit);
		if (d >= limit || d > best_d)
			continue;
		ties = d == best_d ? ties + 1 : 0;
		best_d = d;
		best = blks[b].fields[i];
	}
	return ties ? NULL : best;
}

static const char *field_home(const char *key)
{
	int b;

	for (b = 1; b < OQ_B_COUNT; b++)
		if (is_field(b, key))
			return blks[b].start;
	return NULL;
}

static void unknown_keyword(struct oq_pstate *ps, const char *key,
			    struct oq_loc loc)
{
	struct oq_diag *dg = oq_error(ps->d, loc, "unknown keyword '%s'", key);
	const char *hint;

	/* A diagnostic past the list's cap is only counted: no hint. */
	if (!dg)
		return;
	hint = closest_keyword(oq_ps_blk(ps), key);
	if (hint)
		oq_diag_hint(dg, "did you mean '%s'?", hint);
}

/* The rest of the line is done with, unless a key waits on it. */
static void end_line(struct oq_pstate *ps)
{
	if (!ps->pending_key)
		oq_lx_skip_line(&ps->lx);
}

/* An unknown word where a block keyword or a key was due.  A close
 * keyword of this place is what was meant: say so and return it (the line
 * is read as it).  Else the word is reported; *lost says the lines of its
 * block will be read out of place. */
static const char *unknown_word(struct oq_pstate *ps, const char *key,
				struct oq_loc loc, bool colon, int *blk,
				bool *end)
{
	const char *meant = meant_keyword(ps, key, colon, blk, end);
	struct oq_diag *dg;

	if (!meant) {
		unknown_keyword(ps, key, loc);
		return NULL;
	}
	dg = oq_error(ps->d, loc, "unknown keyword '%s'", key);
	oq_diag_hint(dg, "did you mean '%s'? (this check reads it as '%s')",
		     meant, meant);
	ps->pending_cause = oq_diag_id(dg);
	return meant;
}

static void field(struct oq_pstate *ps, const char *key, struct oq_loc loc)
{
	enum oq_blk b = oq_ps_blk(ps);
	unsigned int cause = ps->d->cause;
	bool end = false;
	int rc, blk;

	oq_lx_skip_blank(&ps->lx);
	ps->key = key;
	if (oq_lx_peek(&ps->lx) != ':') {
		if (!is_any_field(key)) {
			unknown_keyword(ps, key, loc);
		} else {
			oq_diag_hint(oq_error(ps->d, oq_lx_loc(&ps->lx),
					      "expected ':' after '%s'", key),
				     "write '%s: VALUE'", key);
		}
		oq_lx_skip_line(&ps->lx);
		return;
	}
	oq_lx_adv(&ps->lx);
	if (!is_field(b, key)) {
		const char *meant = NULL;

		if (!is_any_field(key))
			meant = unknown_word(ps, key, loc, true, &blk, &end);
		else
			oq_diag_hint(oq_error(ps->d, loc,
					      "'%s' is not valid in %s", key,
					      blk_name(b)),
				     "'%s' is a key of '%s'", key,
				     field_home(key));
		if (!meant) {
			oq_lx_skip_line(&ps->lx);
			return;
		}
		/* Read the value as the key meant; what it gives follows
		 * from the typo. */
		key = meant;
		ps->key = key;
		ps->d->cause = ps->pending_cause;
	}
	if (b == OQ_B_VLARB_SCOPE || b == OQ_B_SL2VL_SCOPE)
		rc = oq_parse_setup_key(ps, key, loc);
	else
		rc = oq_parse_item_key(ps, key, loc);
	if (!rc && !ps->pending_key)
		rc = oq_ps_expect_eol(ps, key);
	ps->d->cause = cause;
	end_line(ps);
}

static void parse_line_once(struct oq_pstate *ps)
{
	struct oq_lx save = ps->lx;
	struct oq_loc loc = oq_lx_loc(&ps->lx);
	char key[40], lower[40];
	const char *w;
	size_t n = oq_lx_word(&ps->lx, &w), i;
	int b;

	if (!n || n >= sizeof(key)) {
		char *tok = oq_lx_snippet(w, n ? n : 1);

		oq_diag_hint(oq_error(ps->d, loc, "expected a keyword, found "
						  "'%s'", tok ? tok : ""),
			     "every line starts with a keyword such as "
			     "'port-group' or 'name:'");
		free(tok);
		oq_lx_skip_line(&ps->lx);
		return;
	}
	memcpy(key, w, n);
	key[n] = '\0';
	ps->key = NULL;
	for (i = 0; i <= n; i++)
		lower[i] = (char)((key[i] >= 'A' && key[i] <= 'Z') ?
					  key[i] - 'A' + 'a' :
					  key[i]);
	if (strcmp(key, lower) &&
	    (find_block_kw(lower, false) >= 0 ||
	     find_block_kw(lower, true) >= 0 || is_any_field(lower))) {
		/* OpenSM's keywords are case sensitive. */
		oq_diag_hint(oq_error(ps->d, loc,
				      "keywords are lower case: '%s'", key),
			     "write '%s'", lower);
		memcpy(key, lower, n + 1);
	}

	/* `qos-level: X` is a mistyped key, not a block keyword. */
	{
		struct oq_lx peek = ps->lx;

		oq_lx_skip_blank(&peek);
		if (oq_lx_peek(&peek) == ':' && !is_any_field(key) &&
		    oq_ps_blk(ps) != OQ_B_ULPS) {
			field(ps, key, loc);
			return;
		}
	}
	b = find_block_kw(key, false);
	if (b >= 0) {
		ps->lost = 0;
		open_block(ps, (enum oq_blk)b, loc);
		oq_ps_expect_eol(ps, key);
		end_line(ps);
		return;
	}
	b = find_block_kw(key, true);
	if (b >= 0) {
		bool was_lost = ps->lost && stack_index(ps, (enum oq_blk)b) < 0;

		close_block(ps, (enum oq_blk)b, loc);
		oq_ps_expect_eol(ps, key);
		end_line(ps);
		/* The end of the block the unknown word opened. */
		if (was_lost)
			ps->lost = 0;
		return;
	}
	if (oq_ps_blk(ps) == OQ_B_ULPS) {
		ps->lx = save;
		oq_parse_ulp_line(ps);
		oq_lx_skip_line(&ps->lx);
		return;
	}
	{
		struct oq_lx peek = ps->lx;
		bool end = false;
		int blk = -1;
		const char *meant;

		oq_lx_skip_blank(&peek);
		if (oq_lx_peek(&peek) != ':' && !is_any_field(key)) {
			/* A word alone: a block keyword was due. */
			meant = unknown_word(ps, key, loc, false, &blk, &end);
			if (meant && end) {
				close_block(ps, (enum oq_blk)blk, loc);
			} else if (meant) {
				ps->lost = 0;
				open_block(ps, (enum oq_blk)blk, loc);
			} else if (!ps->lost) {
				ps->lost = ps->d->next_id;
			}
			oq_ps_expect_eol(ps, key);
			end_line(ps);
			return;
		}
	}
	field(ps, key, loc);
}

/* The id of the first error added after id `after`, 0 if none (the
 * diagnostics of one line are at the end of the list). */

static void parse_line(struct oq_pstate *ps)
{
	unsigned int before = ps->d->next_id, cause = ps->d->cause;
	bool in_levels = stack_index(ps, OQ_B_LEVELS) >= 0;
	bool in_groups = stack_index(ps, OQ_B_PORT_GROUPS) >= 0;
	bool in_rules = stack_index(ps, OQ_B_RULES) >= 0;
	unsigned int lost = ps->lost;

	/* Inside a block the unknown word opened, everything follows from
	 * that word. */
	if (lost)
		ps->d->cause = lost;
	parse_line_once(ps);
	/* Keys that share a line, each parsed after the error that says
	 * so. */
	while (ps->pending_key) {
		struct oq_loc loc = oq_lx_loc(&ps->lx);
		const char *w;
		size_t n = oq_lx_word(&ps->lx, &w);
		char key[32];

		ps->pending_key = false;
		if (!n || n >= sizeof(key)) {
			oq_lx_skip_line(&ps->lx);
			break;
		}
		memcpy(key, w, n);
		key[n] = '\0';
		ps->d->cause = ps->pending_cause;
		field(ps, key, loc);
		ps->d->cause = lost ? lost : cause;
	}
	ps->d->cause = cause;
	if (ps->d->next_id == before)
		return;
	/* What validation misses in a section may follow from its first
	 * parse error. */
	in_levels |= stack_index(ps, OQ_B_LEVELS) >= 0;
	in_groups |= stack_index(ps, OQ_B_PORT_GROUPS) >= 0;
	if (in_levels && !ps->p->levels_error)
		ps->p->levels_error = oq_ps_first_error_since(ps->d, before);
	if (in_groups && !ps->p->groups_error)
		ps->p->groups_error = oq_ps_first_error_since(ps->d, before);
	in_rules |= stack_index(ps, OQ_B_RULES) >= 0;
	if (in_rules && !ps->p->rules_error)
		ps->p->rules_error = oq_ps_first_error_since(ps->d, before);
}

static void set_default_level(struct oq_pstate *ps)
{
	struct oq_policy *p = ps->p;
	size_t i;

	p->default_level = -1;
	for (i = 0; i < p->n_explicit_levels; i++) {
		if (p->levels[i].name &&
		    !strcasecmp(p->levels[i].name, "default")) {
			p->default_level = (int)i;
			break;
		}
	}
	if (p->default_level >= 0 && p->ulp_default_sl >= 0)
		oq_diag_hint(oq_warning(ps->d, ps->ulp_default_loc,
					"qos-ulps 'default' is ignored: the "
					"qos-level '%s' at line %u is the "
					"DEFAULT level",
					p->levels[p->default_level].name,
					p->levels[p->default_level].loc.line),
			     "OpenSM prefers a qos-level named DEFAULT; "
			     "remove one of the two");
}

static void finish(struct oq_pstate *ps)
{
	struct oq_policy *p = ps->p;

	while (ps->depth > 0) {
		enum oq_blk b = oq_ps_blk(ps);

		oq_diag_hint(oq_error(ps->d, ps->stack[ps->depth].loc,
				      "'%s' is never closed", blks[b].start),
			     "add '%s' after its last line", blks[b].end);
		pop(ps);
	}
	p->n_explicit_rules = p->n_rules;
	p->n_explicit_groups = p->n_groups;
	p->n_explicit_levels = p->n_levels;
	set_default_level(ps);
	if (oq_ulps_expand(ps))
		ps->oom = true;
}

struct oq_policy *oq_policy_parse(const char *file, const char *text,
				  size_t len, struct oq_diags *diags)
{
	struct oq_pstate ps;
	struct oq_policy *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->default_level = -1;
	p->ulp_default_sl = -1;
	p->file = strdup(file ? file : "<input>");
	p->text = malloc(len + 1);
	if (!p->file || !p->text) {
		oq_policy_free(p);
		return NULL;
	}
	if (len)
		memcpy(p->text, text, len);
	p->text[len] = '\0';
	p->text_len = len;

	memset(&ps, 0, sizeof(ps));
	ps.p = p;
	ps.d = diags;
	oq_lx_init(&ps.lx, p->file, p->text, len, diags);
	ps.lx.is_key = key_word;
	if (len >= 3 && !memcmp(p->text, OQ_UTF8_BOM, 3)) {
		struct oq_diag *d = oq_error(diags, oq_lx_loc(&ps.lx),
					     "the file starts with a UTF-8 "
					     "byte order mark (bytes EF BB "
					     "BF), which OpenSM's parser "
					     "cannot read");

		oq_diag_set_code(d, "utf8-bom");
		oq_diag_hint(d, "save the file without it, e.g. sed -i "
				"'1s/^\\xEF\\xBB\\xBF//' FILE (the rest is "
				"checked as if it were gone)");
		ps.lx.p += 3;
	}
	ps.stack[0].blk = OQ_B_TOP;
	ps.stack[0].loc = (struct oq_loc){ p->file, 1, 1 };

	while (oq_lx_skip_space(&ps.lx))
		parse_line(&ps);
	finish(&ps);
	oq_ulp_lines_free(&ps);
	if (ps.oom) {
		oq_policy_free(p);
		return NULL;
	}
	return p;
}

struct oq_policy *oq_policy_load(const char *path, struct oq_diags *diags)
{
	struct oq_loc loc = { path, 0, 0 };
	struct oq_policy *p;
	size_t len = 0;
	char *buf = oq_file_read(path, OQ_POLICY_MAX_BYTES, &len), why[64];

	if (!buf) {
		oq_error(diags, loc, "cannot read the policy: %s",
			 oq_file_error(errno, OQ_POLICY_MAX_BYTES, why,
				       sizeof(why)));
		return NULL;
	}
	p = oq_policy_parse(path, buf, len, diags);
	free(buf);
	if (!p)
		oq_error(diags, loc, "out of memory");
	return p;
}
