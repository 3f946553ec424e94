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

#define OQ_VLARB_MAX_ENTRIES 64

static const char *closest_group(const struct oq_policy *p, const char *name)
{
	const char *best = NULL;
	unsigned int best_d = (unsigned int)strlen(name) / 3 + 2, d;
	size_t i;

	for (i = 0; i < p->n_groups; i++) {
		if (p->groups[i].from_ulp || !p->groups[i].name)
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
		hint = closest_group(p, r->name);
		if (hint)
			oq_diag_hint(dg, "did you mean '%s'?", hint);
		else
			oq_diag_hint(dg, "define it in a port-group block "
					 "(names are case insensitive)");
	}
}

static void check_duplicate_names(const struct oq_policy *p,
				  struct oq_diags *d)
{
	size_t i, j;

	for (i = 0; i < p->n_explicit_groups; i++) {
		if (!p->groups[i].name)
			continue;
		for (j = 0; j < i; j++) {
			if (!p->groups[j].name ||
			    strcasecmp(p->groups[i].name, p->groups[j].name))
				continue;
			oq_diag_hint(oq_error(d, p->groups[i].loc,
					      "duplicate port group name '%s'",
					      p->groups[i].name),
				     "the first one is at line %u (names are "
				     "case insensitive)",
				     p->groups[j].loc.line);
			break;
		}
	}
	for (i = 0; i < p->n_explicit_levels; i++) {
		if (!p->levels[i].name)
			continue;
		for (j = 0; j < i; j++) {
			if (!p->levels[j].name ||
			    strcasecmp(p->levels[i].name, p->levels[j].name))
				continue;
			oq_diag_hint(oq_error(d, p->levels[i].loc,
					      "duplicate qos-level name '%s'",
					      p->levels[i].name),
				     "the first one is at line %u (names are "
				     "case insensitive)",
				     p->levels[j].loc.line);
			break;
		}
	}
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

/* Every group of inner is one of outer's (compared by resolved index). */
static bool refs_subset(const struct oq_refs *inner,
			const struct oq_refs *outer)
{
	size_t i, j;

	for (i = 0; i < inner->n; i++) {
		if (inner->v[i].idx < 0)
			return false;
		for (j = 0; j < outer->n; j++)
			if (outer->v[j].idx == inner->v[i].idx)
				break;
		if (j == outer->n)
			return false;
	}
	return true;
}

static bool refs_resolved(const struct oq_refs *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (r->v[i].idx < 0)
			return false;
	return true;
}

/*
 * Does rule a match every query rule b matches?  Each criterion a has must
 * be implied by b's criterion of the same kind (a query without the
 * component never matches a rule that has it), so: b's groups a subset of
 * a's, b's ranges contained in a's.  Conservative: different groups with
 * the same ports are not recognized.
 */
static bool rule_covers(const struct oq_match_rule *a,
			const struct oq_match_rule *b)
{
	if (!refs_resolved(&a->sources) || !refs_resolved(&a->destinations))
		return false;
	if (a->sources.n &&
	    (!b->sources.n || !refs_subset(&b->sources, &a->sources)))
		return false;
	if (a->destinations.n &&
	    (!b->destinations.n ||
	     !refs_subset(&b->destinations, &a->destinations)))
		return false;
	if (a->service_ids.n &&
	    (!b->service_ids.n ||
	     !oq_ranges_subset(&b->service_ids, &a->service_ids)))
		return false;
	if (a->qos_classes.n &&
	    (!b->qos_classes.n ||
	     !oq_ranges_subset(&b->qos_classes, &a->qos_classes)))
		return false;
	if (a->pkeys.n &&
	    (!b->pkeys.n || !oq_ranges_subset(&b->pkeys, &a->pkeys)))
		return false;
	return true;
}

static void check_shadowed(const struct oq_policy *p, struct oq_diags *d)
{
	size_t i, j;

	for (j = 1; j < p->n_rules; j++) {
		const struct oq_match_rule *b = &p->rules[j];

		for (i = 0; i < j; i++) {
			const struct oq_match_rule *a = &p->rules[i];
			struct oq_diag *dg;

			if (!rule_covers(a, b))
				continue;
			if (b->from_ulp)
				dg = oq_warning(d, b->loc,
						"qos-ulps line '%s' can never "
						"match: the %s at line %u "
						"matches all of its queries",
						b->use ? b->use : "",
						a->from_ulp ? "qos-ulps line" :
							      "qos-match-rule",
						a->loc.line);
			else
				dg = oq_warning(d, b->loc,
						"qos-match-rule can never "
						"match: the %s at line %u "
						"matches all of its queries",
						a->from_ulp ? "qos-ulps line" :
							      "qos-match-rule",
						a->loc.line);
			oq_diag_hint(dg, "rules are tried in order and the "
					 "first match wins; move this one up "
					 "or remove it");
			break;
		}
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

size_t oq_policy_validate(struct oq_policy *p, struct oq_diags *d)
{
	size_t before = d->n_errors, i;

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

		if (p->n_explicit_levels)
			loc = p->levels[0].loc;
		oq_diag_hint(oq_error(d, loc, "no DEFAULT qos-level"),
			     "add a qos-level named DEFAULT, or 'default : SL' "
			     "in qos-ulps; it applies to queries no rule "
			     "matches");
	}
	check_vlarb_sizes(p, d);
	check_shadowed(p, d);
	check_scope_overlap(p, d);
	return d->n_errors - before;
}
