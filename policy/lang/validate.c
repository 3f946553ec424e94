// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Checks that need the whole policy but no fabric: duplicate names,
 * references to groups and levels (resolving oq_ref.idx), the DEFAULT
 * level, VLArb table sizes, rules that an earlier rule shadows, and
 * qos-setup scopes that claim the same group twice.  Values were range
 * checked by the parser, where their exact column is known.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <osmqos/policy.h>

#include "lexer.h"
#include "validate_int.h"

#define OQ_VLARB_MAX_ENTRIES 64

static const char *closest_group(const struct oq_policy *p, const char *name)
{
	const char *best = NULL;
	unsigned int best_d = (unsigned int)strlen(name) / 3 + 2, d;
	size_t i;

	for (i = 0; i < p->n_groups; i++) {
		if (!p->groups[i].name)
			continue;
		d = oq_lx_distance(name, p->groups[i].name, best_d);
		if (d < best_d) {
			best_d = d;
			best = p->groups[i].name;
		}
	}
	return best;
}

static const char *closest_level(const struct oq_policy *p, const char *name)
{
	const char *best = NULL;
	unsigned int best_d = (unsigned int)strlen(name) / 3 + 2, d;
	size_t i;

	for (i = 0; i < p->n_levels; i++) {
		if (p->levels[i].from_ulp || !p->levels[i].name)
			continue;
		d = oq_lx_distance(name, p->levels[i].name, best_d);
		if (d < best_d) {
			best_d = d;
			best = p->levels[i].name;
		}
	}
	return best;
}

static void resolve_groups(const struct oq_policy *p, struct oq_refs *refs,
			   struct oq_diags *d)
{
	size_t i;

	for (i = 0; i < refs->n; i++) {
		struct oq_ref *r = &refs->v[i];
		const char *hint;
		struct oq_diag *dg;

		if (r->idx >= 0 && (size_t)r->idx < p->n_groups &&
		    p->groups[r->idx].from_ulp)
			continue; /* preset by the qos-ulps expansion */
		r->idx = oq_policy_find_group(p, r->name);
		if (r->idx >= 0)
			continue;
		dg = oq_error(d, r->loc, "undefined port group '%s'", r->name);
		if (!dg)
			continue; /* past the list's cap: counted, no hint */
		/* A broken port-groups section may have lost it. */
		oq_diag_follows(dg, p->groups_error);
		hint = closest_group(p, r->name);
		if (hint)
			oq_diag_hint(dg, "did you mean '%s'?", hint);
		else
			oq_diag_hint(dg, "define it in a port-group block "
					 "(names are case insensitive)");
	}
}

/* Names equal but for case, by the sorted name index: each run of equal
 * names is its first (lowest) object and the duplicates after it.  Only
 * the names the file writes count: OpenSM's qos-ulps may generate a group
 * name many times, and one a port-group also uses. */
static void
report_duplicates(const int *idx, size_t n,
		  const char *(*name)(const struct oq_policy *, int),
		  struct oq_loc (*loc)(const struct oq_policy *, int),
		  bool (*generated)(const struct oq_policy *, int),
		  const char *what, const struct oq_policy *p,
		  struct oq_diags *d)
{
	size_t i;
	int first = -1;

	for (i = 0; i < n; i++) {
		if (generated(p, idx[i]))
			continue;
		if (first < 0 || strcasecmp(name(p, idx[i]), name(p, first))) {
			first = idx[i];
			continue;
		}
		oq_diag_hint(oq_error(d, loc(p, idx[i]),
				      "duplicate %s name '%s'", what,
				      name(p, idx[i])),
			     "the first one is at line %u (names are case "
			     "insensitive)",
			     loc(p, first).line);
	}
}

static const char *group_name(const struct oq_policy *p, int i)
{
	return p->groups[i].name;
}

static struct oq_loc group_loc(const struct oq_policy *p, int i)
{
	return p->groups[i].loc;
}

static bool group_generated(const struct oq_policy *p, int i)
{
	return p->groups[i].from_ulp;
}

static const char *level_name(const struct oq_policy *p, int i)
{
	return p->levels[i].name;
}

static struct oq_loc level_loc(const struct oq_policy *p, int i)
{
	return p->levels[i].loc;
}

static bool level_generated(const struct oq_policy *p, int i)
{
	return p->levels[i].from_ulp;
}

static void check_duplicate_names(const struct oq_policy *p,
				  struct oq_diags *d)
{
	report_duplicates(p->group_by_name, p->n_group_by_name, group_name,
			  group_loc, group_generated, "port group", p, d);
	report_duplicates(p->level_by_name, p->n_level_by_name, level_name,
			  level_loc, level_generated, "qos-level", p, d);
}

static void resolve_rules(struct oq_policy *p, struct oq_diags *d)
{
	size_t i;

	for (i = 0; i < p->n_rules; i++) {
		struct oq_match_rule *r = &p->rules[i];
		struct oq_diag *dg;
		const char *hint;

		resolve_groups(p, &r->sources, d);
		resolve_groups(p, &r->destinations, d);
		if (r->from_ulp || !r->level.name)
			continue;
		r->level.idx = oq_policy_find_level(p, r->level.name);
		if (r->level.idx >= 0)
			continue;
		dg = oq_error(d, r->level.loc, "undefined qos-level '%s'",
			      r->level.name);
		if (!dg)
			continue; /* past the list's cap: counted, no hint */
		oq_diag_follows(dg, p->levels_error);
		hint = closest_level(p, r->level.name);
		if (hint)
			oq_diag_hint(dg, "did you mean '%s'?", hint);
		else
			oq_diag_hint(dg, "define it in the qos-levels section");
	}
}

static void check_vlarb_sizes(const struct oq_policy *p, struct oq_diags *d)
{
	size_t i;

	for (i = 0; i < p->n_vlarb; i++) {
		const struct oq_vlarb_scope *s = &p->vlarb[i];

		if (s->n_high > OQ_VLARB_MAX_ENTRIES)
			oq_diag_hint(oq_error(d, s->loc,
					      "vlarb-high has %zu entries; a "
					      "VLArb table holds at most 64",
					      s->n_high),
				     "merge entries of the same VL");
		if (s->n_low > OQ_VLARB_MAX_ENTRIES)
			oq_diag_hint(oq_error(d, s->loc,
					      "vlarb-low has %zu entries; a "
					      "VLArb table holds at most 64",
					      s->n_low),
				     "merge entries of the same VL");
	}
}

static bool portsel_overlap(const struct oq_portsel *a,
			    const struct oq_portsel *b)
{
	int i;

	if (!a->given || a->all || !b->given || b->all)
		return true;
	for (i = 0; i < 4; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

static const struct oq_ref *ref_with_idx(const struct oq_refs *r, int idx)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->v[i].idx == idx)
			return &r->v[i];
	return NULL;
}

static void overlap_warning(struct oq_diags *d, const struct oq_ref *r,
			    const char *key, const char *scope,
			    unsigned int first_line)
{
	oq_diag_hint(oq_warning(d, r->loc,
				"port group '%s' ('%s') is already in the "
				"%s at line %u",
				r->name, key, scope, first_line),
		     "scopes overlap; the first %s wins for these ports",
		     scope);
}

static void check_scope_overlap(const struct oq_policy *p,
				struct oq_diags *d)
{
	size_t i, j, k;

	for (j = 1; j < p->n_vlarb; j++) {
		const struct oq_vlarb_scope *b = &p->vlarb[j];

		for (k = 0; k < b->groups.n + b->across.n; k++) {
			bool grp = k < b->groups.n;
			const struct oq_ref *r =
				grp ? &b->groups.v[k] :
				      &b->across.v[k - b->groups.n];

			if (r->idx < 0)
				continue;
			for (i = 0; i < j; i++) {
				const struct oq_vlarb_scope *a = &p->vlarb[i];

				if (!ref_with_idx(grp ? &a->groups : &a->across,
						  r->idx))
					continue;
				overlap_warning(d, r, grp ? "group" : "across",
						"vlarb-scope", a->loc.line);
				break;
			}
		}
	}
	for (j = 1; j < p->n_sl2vl; j++) {
		const struct oq_sl2vl_scope *b = &p->sl2vl[j];

		for (k = 0; k < b->groups.n; k++) {
			const struct oq_ref *r = &b->groups.v[k];

			if (r->idx < 0)
				continue;
			for (i = 0; i < j; i++) {
				const struct oq_sl2vl_scope *a = &p->sl2vl[i];

				if (!ref_with_idx(&a->groups, r->idx) ||
				    !portsel_overlap(&a->from, &b->from) ||
				    !portsel_overlap(&a->to, &b->to))
					continue;
				overlap_warning(d, r, "group", "sl2vl-scope",
						a->loc.line);
				break;
			}
		}
	}
}

/*
 * OpenSM's parser (the plugin hands it a copy of the policy, which it
 * re-parses at every sweep) adds port-guid ranges to a group one GUID at
 * a time, with `guid <= hi` as the loop's test: a range ending at the
 * last GUID never ends, and 2^32 GUIDs take minutes.  Either would stall
 * the SM, so such a policy is refused.
 */
static void check_guid_walk(const struct oq_policy *p, struct oq_diags *d)
{
	uint64_t total = 0;
	size_t i, j;

	for (i = 0; i < p->n_groups; i++) {
		const struct oq_port_group *g = &p->groups[i];
		struct oq_loc at = g->guids_loc.line ? g->guids_loc : g->loc;

		for (j = 0; j < g->guids.n; j++) {
			uint64_t n = g->guids.v[j].hi - g->guids.v[j].lo;

			if (g->guids.v[j].hi == UINT64_MAX) {
				oq_diag_hint(
					oq_error(d, at,
						 "a port-guid range ending at "
						 "0xffffffffffffffff: OpenSM's "
						 "parser, which re-reads the "
						 "policy at every sweep, loops "
						 "over it without end"),
					"end the range one GUID lower");
				return;
			}
			total += n < UINT32_MAX ? n + 1 : (uint64_t)1 << 32;
			if (total >= (uint64_t)1 << 32) {
				oq_diag_hint(
					oq_error(d, at,
						 "port-guid ranges of 2^32 GUIDs "
						 "or more: OpenSM's parser, "
						 "which re-reads the policy at "
						 "every sweep, adds them one "
						 "GUID at a time and stalls the "
						 "SM for minutes"),
					"list the GUIDs the groups need, or "
					"narrow the ranges");
				return;
			}
		}
	}
}

static void mark_refs(const struct oq_refs *r, bool *used)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->v[i].idx >= 0)
			used[r->v[i].idx] = true;
}

/*
 * Levels no rule names (but DEFAULT) and groups no rule or scope names:
 * nothing in OpenSM or the plugin ever reads them, which is most often a
 * misspelled reference elsewhere or a leftover.
 */
static void check_unused(const struct oq_policy *p, struct oq_diags *d)
{
	bool *lv = calloc(p->n_levels + 1, sizeof(*lv));
	bool *gr = calloc(p->n_groups + 1, sizeof(*gr));
	size_t i;

	if (!lv || !gr)
		goto out;
	for (i = 0; i < p->n_rules; i++) {
		const struct oq_match_rule *r = &p->rules[i];

		if (r->level.idx >= 0 && (size_t)r->level.idx < p->n_levels)
			lv[r->level.idx] = true;
		mark_refs(&r->sources, gr);
		mark_refs(&r->destinations, gr);
	}
	for (i = 0; i < p->n_vlarb; i++) {
		mark_refs(&p->vlarb[i].groups, gr);
		mark_refs(&p->vlarb[i].across, gr);
	}
	for (i = 0; i < p->n_sl2vl; i++) {
		mark_refs(&p->sl2vl[i].groups, gr);
		mark_refs(&p->sl2vl[i].across, gr);
		mark_refs(&p->sl2vl[i].across_from, gr);
		mark_refs(&p->sl2vl[i].across_to, gr);
	}
	for (i = 0; i < p->n_explicit_levels; i++) {
		const struct oq_qos_level *l = &p->levels[i];
		struct oq_diag *dg;

		/* A duplicate name is an error of its own. */
		if (lv[i] || (int)i == p->default_level || !l->name ||
		    oq_policy_find_level(p, l->name) != (int)i)
			continue;
		dg = oq_warning(d, l->loc,
				"qos-level '%s' is never used: no "
				"qos-match-rule names it",
				l->name);
		oq_diag_set_code(dg, "unused-qos-level");
		/* A rule broken in the parse may be the one naming it. */
		oq_diag_follows(dg, p->rules_error);
		oq_diag_hint(dg,
			     "name it in a rule's qos-level-name, or "
			     "remove it%s",
			     l->bandwidth_bp > 0
				     ? " (its bandwidth intent still reserves "
				       "a share for its SL)"
				     : "");
	}
	for (i = 0; i < p->n_explicit_groups; i++) {
		const struct oq_port_group *g = &p->groups[i];
		struct oq_diag *dg;

		if (gr[i] || !g->name ||
		    oq_policy_find_group(p, g->name) != (int)i)
			continue;
		dg = oq_warning(d, g->loc,
				"port group '%s' is never used: no rule or "
				"qos-setup scope names it",
				g->name);
		oq_diag_set_code(dg, "unused-port-group");
		oq_diag_follows(dg, p->rules_error);
		oq_diag_hint(dg, "use it in a rule's source or destination or "
				 "in a scope, or remove it");
	}
out:
	free(lv);
	free(gr);
}

size_t oq_policy_validate(struct oq_policy *p, struct oq_diags *d)
{
	size_t before = d->n_errors, i;

	if (oq_policy_index_names(p))
		oq_error(d, (struct oq_loc){ p->file, 0, 0 }, "out of memory");
	check_duplicate_names(p, d);
	resolve_rules(p, d);
	for (i = 0; i < p->n_vlarb; i++) {
		resolve_groups(p, &p->vlarb[i].groups, d);
		resolve_groups(p, &p->vlarb[i].across, d);
	}
	for (i = 0; i < p->n_sl2vl; i++) {
		resolve_groups(p, &p->sl2vl[i].groups, d);
		resolve_groups(p, &p->sl2vl[i].across, d);
		resolve_groups(p, &p->sl2vl[i].across_from, d);
		resolve_groups(p, &p->sl2vl[i].across_to, d);
	}
	if (p->default_level < 0) {
		struct oq_loc loc = { p->file, 1, 1 };

		struct oq_diag *dg;

		if (p->n_explicit_levels)
			loc = p->levels[0].loc;
		dg = oq_error(d, loc, "no DEFAULT qos-level");
		oq_diag_hint(dg, "add a qos-level named DEFAULT, or 'default : "
				 "SL' in qos-ulps; it applies to queries no "
				 "rule matches");
		oq_diag_follows(dg, p->levels_error);
	}
	check_vlarb_sizes(p, d);
	check_unused(p, d);
	oq_check_shadowed(p, d);
	check_scope_overlap(p, d);
	oq_check_intents(p, d);
	check_guid_walk(p, d);
	return d->n_errors - before;
}
