// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * qos-ulps: the simplified policy.  Each line `ULP[, QUALIFIER VALUES] : SL`
 * becomes a match rule and the level SimpleQoSLevel_SL<SL>, exactly as
 * OpenSM's yacc actions build them (osm_qos_parser_y.y):
 *
 *   sdp                     service-id 0x10000-0x1ffff
 *   sdp, port-num P         service-id 0x10000 + P
 *   rds                     service-id 0x1060000 + 0x48CA
 *   rds, port-num P         service-id 0x1060000 + P
 *   iser                    service-id 0x1060000 + 0x0CBC
 *   iser, port-num P        service-id 0x1060000 + P
 *   srp, target-port-guid G destination group _SRP_Targets_ = G
 *   ipoib                   pkey 0x7fff
 *   ipoib, pkey P           pkey P (membership bit cleared)
 *   any, service-id S       service-id S
 *   any, pkey P             pkey P (membership bit cleared)
 *   any, target-port-guid G destination group _ULP_Targets_ = G
 *   any, source-port-guid G source group _ULP_Sources_ = G
 *   any, source-target-port-guid G
 *                           source AND destination group
 *                           _ULP_Sources_Targets_ = G (OpenSM puts the
 *                           group in both lists, so both ends must be in
 *                           it, although its documentation says "or")
 *   default                 the DEFAULT level, unless a qos-level is
 *                           named DEFAULT
 *
 * The rules follow every qos-match-rule, in file order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parser_int.h"

enum {
	ULP_DEFAULT,
	ULP_SDP,
	ULP_SDP_PORT,
	ULP_RDS,
	ULP_RDS_PORT,
	ULP_ISER,
	ULP_ISER_PORT,
	ULP_SRP_GUID,
	ULP_IPOIB,
	ULP_IPOIB_PKEY,
	ULP_ANY_SID,
	ULP_ANY_PKEY,
	ULP_ANY_TARGET,
	ULP_ANY_SOURCE,
	ULP_ANY_SOURCE_TARGET,
};

/* ULP name, its form without a qualifier (-1: none), and its qualifiers. */
static const struct {
	const char *name;
	int plain;
	struct {
		const char *word;
		int kind;
	} quals[5];
} ulps[] = {
	{ "default", ULP_DEFAULT, { { NULL, 0 } } },
	{ "sdp", ULP_SDP, { { "port-num", ULP_SDP_PORT } } },
	{ "rds", ULP_RDS, { { "port-num", ULP_RDS_PORT } } },
	{ "iser", ULP_ISER, { { "port-num", ULP_ISER_PORT } } },
	{ "srp", -1, { { "target-port-guid", ULP_SRP_GUID } } },
	{ "ipoib", ULP_IPOIB, { { "pkey", ULP_IPOIB_PKEY } } },
	{ "any",
	  -1,
	  { { "service-id", ULP_ANY_SID },
	    { "pkey", ULP_ANY_PKEY },
	    { "target-port-guid", ULP_ANY_TARGET },
	    { "source-port-guid", ULP_ANY_SOURCE },
	    { "source-target-port-guid", ULP_ANY_SOURCE_TARGET } } },
};
#define N_ULPS (sizeof(ulps) / sizeof(ulps[0]))

static void ulp_error(struct oq_pstate *ps, struct oq_loc loc, size_t u,
		      const char *found)
{
	struct oq_diag *dg;
	char forms[160];
	size_t i, len = 0;

	dg = oq_error(ps->d, loc, "expected %s after '%s'", found,
		      ulps[u].name);
	if (ulps[u].plain >= 0)
		len += (size_t)snprintf(forms, sizeof(forms), "'%s : SL'",
					ulps[u].name);
	for (i = 0; i < 5 && ulps[u].quals[i].word &&
		    len < sizeof(forms); i++)
		len += (size_t)snprintf(forms + len, sizeof(forms) - len,
					"%s'%s, %s ... : SL'", len ? ", " : "",
					ulps[u].name, ulps[u].quals[i].word);
	oq_diag_hint(dg, "forms: %s", forms);
}

/* Read the qualifier's values into l->values (as service IDs, pkeys or
 * GUIDs, already translated). */
static int read_values(struct oq_pstate *ps, struct oq_ulp_line *l)
{
	struct oq_ranges *r = &l->values;
	uint64_t base = 0;
	size_t i;

	switch (l->kind) {
	case ULP_IPOIB_PKEY:
	case ULP_ANY_PKEY:
		return oq_ps_pkeys(ps, r, ':');
	case ULP_SDP_PORT:
		base = OQ_ULP_SDP_SERVICE_ID;
		break;
	case ULP_RDS_PORT:
		base = OQ_ULP_RDS_SERVICE_ID;
		break;
	case ULP_ISER_PORT:
		base = OQ_ULP_ISER_SERVICE_ID;
		break;
	case ULP_ANY_SID:
		return oq_ps_ranges(ps, r, "service-id", UINT64_MAX, ':');
	default:
		return oq_ps_ranges(ps, r, "port GUID", UINT64_MAX, ':');
	}
	if (oq_ps_ranges(ps, r, "TCP/IP port number", 0xffff, ':'))
		return -1;
	for (i = 0; i < r->n; i++) {
		r->v[i].lo += base;
		r->v[i].hi += base;
	}
	return 0;
}

static void set_plain_values(struct oq_pstate *ps, struct oq_ulp_line *l)
{
	uint64_t lo, hi;

	switch (l->kind) {
	case ULP_SDP:
		lo = OQ_ULP_SDP_SERVICE_ID;
		hi = OQ_ULP_SDP_SERVICE_ID + 0xffff;
		break;
	case ULP_RDS:
		lo = hi = OQ_ULP_RDS_SERVICE_ID + OQ_ULP_RDS_PORT;
		break;
	case ULP_ISER:
		lo = hi = OQ_ULP_ISER_SERVICE_ID + OQ_ULP_ISER_PORT;
		break;
	case ULP_IPOIB:
		lo = hi = OQ_ULP_IPOIB_PKEY;
		break;
	default:
		return;
	}
	if (oq_ranges_add(&l->values, lo, hi))
		ps->oom = true;
}

/* The ULP a misspelt word was meant to be, or -1. */
static int near_ulp(const char *w, size_t n)
{
	char word[16];
	size_t u;
	int best = -1;

	if (n < 3 || n >= sizeof(word))
		return -1;
	memcpy(word, w, n);
	word[n] = '\0';
	/* Two edits on a long word (a swap: "defualt"), one on a short. */
	for (u = 0; u < N_ULPS; u++)
		if (oq_lx_distance(word, ulps[u].name, n >= 6 ? 3 : 2) <
		    (n >= 6 ? 3u : 2u)) {
			if (best >= 0)
				return -1; /* two as near: no guess */
			best = (int)u;
		}
	return best;
}

/* A failed `default` line: the policy's missing DEFAULT level follows
 * from it (validate.c reports that after). */
static void default_line_failed(struct oq_pstate *ps, unsigned int before)
{
	if (!ps->p->levels_error)
		ps->p->levels_error = oq_ps_first_error_since(ps->d, before);
}

static int find_ulp(const char *w, size_t n)
{
	size_t u;

	for (u = 0; u < N_ULPS; u++)
		if (strlen(ulps[u].name) == n && !strncasecmp(w, ulps[u].name, n))
			return (int)u;
	return -1;
}

void oq_parse_ulp_line(struct oq_pstate *ps)
{
	struct oq_lx *lx = &ps->lx;
	struct oq_loc loc = oq_lx_loc(lx), qloc;
	struct oq_ulp_line line, *v;
	const char *w, *start = lx->p, *text_end;
	size_t n = oq_lx_word(lx, &w), i;
	int u = find_ulp(w, n);
	unsigned int before = ps->d->next_id;
	uint64_t sl;

	ps->stack[ps->depth].n_children++;
	memset(&line, 0, sizeof(line));
	line.loc = loc;
	if (u < 0) {
		char *tok = oq_lx_snippet(w, n ? n : 1);
		int near = near_ulp(w, n);
		struct oq_diag *dg = oq_error(ps->d, loc, "unknown ULP '%s'",
					      tok ? tok : "");

		if (near >= 0)
			oq_diag_hint(dg, "did you mean '%s'?", ulps[near].name);
		else
			oq_diag_hint(dg, "qos-ulps lines start with default, "
					 "sdp, rds, iser, srp, ipoib or any");
		free(tok);
		if (near >= 0 && ulps[near].plain == ULP_DEFAULT)
			default_line_failed(ps, before);
		return;
	}
	oq_lx_skip_blank(lx);
	if (oq_lx_peek(lx) == ',') {
		oq_lx_adv(lx);
		oq_lx_skip_blank(lx);
		qloc = oq_lx_loc(lx);
		n = oq_lx_word(lx, &w);
		for (i = 0; i < 5 && ulps[u].quals[i].word; i++)
			if (strlen(ulps[u].quals[i].word) == n &&
			    !strncmp(w, ulps[u].quals[i].word, n))
				break;
		if (i == 5 || !ulps[u].quals[i].word) {
			ulp_error(ps, qloc, (size_t)u, "a known qualifier");
			return;
		}
		line.kind = ulps[u].quals[i].kind;
		if (read_values(ps, &line))
			goto fail;
	} else if (oq_lx_peek(lx) == ':' && ulps[u].plain >= 0) {
		line.kind = ulps[u].plain;
		set_plain_values(ps, &line);
	} else {
		ulp_error(ps, oq_lx_loc(lx), (size_t)u,
			  ulps[u].plain >= 0 ? "':' or ','" : "','");
		return;
	}
	text_end = lx->p;
	oq_lx_skip_blank(lx);
	if (oq_lx_peek(lx) != ':') {
		oq_diag_hint(oq_error(ps->d, oq_lx_loc(lx),
				      "expected ':' and the SL"),
			     "qos-ulps lines end with ': SL'");
		goto fail;
	}
	oq_lx_adv(lx);
	if (oq_ps_single(ps, &sl, "SL", 0, 15) ||
	    oq_ps_expect_eol(ps, "the SL"))
		goto fail;
	line.sl = (int)sl;
	oq_ranges_normalize(&line.values);

	if (line.kind == ULP_DEFAULT) {
		if (ps->p->ulp_default_sl >= 0)
			oq_diag_hint(oq_warning(ps->d, loc,
						"duplicate 'default' in "
						"qos-ulps"),
				     "the last one wins (SL %d replaces SL %d)",
				     line.sl, ps->p->ulp_default_sl);
		ps->p->ulp_default_sl = line.sl;
		ps->ulp_default_loc = loc;
		oq_ranges_free(&line.values);
		return;
	}
	while (text_end > start && (text_end[-1] == ' ' || text_end[-1] == '\t'))
		text_end--;
	line.text = malloc((size_t)(text_end - start) + 1);
	if (!line.text) {
		ps->oom = true;
		goto fail;
	}
	memcpy(line.text, start, (size_t)(text_end - start));
	line.text[text_end - start] = '\0';
	v = oq_ps_grow(ps, ps->ulps, &ps->n_ulps, sizeof(*v));
	if (!v) {
		free(line.text);
		goto fail;
	}
	ps->ulps = v;
	v[ps->n_ulps - 1] = line;
	return;
fail:
	if (ulps[u].plain == ULP_DEFAULT)
		default_line_failed(ps, before);
	oq_ranges_free(&line.values);
}

/* ---- expansion ------------------------------------------------------ */

static int new_level(struct oq_pstate *ps, const char *name, int sl,
		     struct oq_loc loc)
{
	struct oq_policy *p = ps->p;
	struct oq_qos_level *v;

	v = oq_ps_grow(ps, p->levels, &p->n_levels, sizeof(*v));
	if (!v)
		return -1;
	p->levels = v;
	v += p->n_levels - 1;
	v->name = oq_ps_strdup(ps, name);
	v->loc = loc;
	v->sl = sl;
	v->mtu_limit = v->rate_limit = v->packet_life = -1;
	v->bandwidth_bp = -1;
	v->from_ulp = true;
	return v->name ? (int)(p->n_levels - 1) : -1;
}

static int simple_level(struct oq_pstate *ps, int sl, struct oq_loc loc)
{
	struct oq_policy *p = ps->p;
	char name[32];
	size_t i;

	snprintf(name, sizeof(name), "SimpleQoSLevel_SL%d", sl);
	for (i = p->n_explicit_levels; i < p->n_levels; i++)
		if (!strcmp(p->levels[i].name, name))
			return (int)i;
	return new_level(ps, name, sl, loc);
}

static int add_ref(struct oq_pstate *ps, struct oq_refs *refs,
		   const char *name, struct oq_loc loc, int idx)
{
	struct oq_ref *v = oq_ps_grow(ps, refs->v, &refs->n, sizeof(*v));

	if (!v)
		return -1;
	refs->v = v;
	v += refs->n - 1;
	v->name = oq_ps_strdup(ps, name);
	v->loc = loc;
	v->idx = idx;
	return v->name ? 0 : -1;
}

/* The port group a GUID-based line creates; takes over the line's GUIDs. */
static int synth_group(struct oq_pstate *ps, struct oq_ulp_line *l,
		       const char *name)
{
	struct oq_policy *p = ps->p;
	struct oq_port_group *g;

	g = oq_ps_grow(ps, p->groups, &p->n_groups, sizeof(*g));
	if (!g)
		return -1;
	p->groups = g;
	g += p->n_groups - 1;
	g->name = oq_ps_strdup(ps, name);
	g->use = oq_ps_strdup(ps, "Generated from ULP rules");
	g->loc = l->loc;
	g->guids = l->values;
	g->guids_loc = l->loc;
	g->from_ulp = true;
	l->values.v = NULL;
	l->values.n = 0;
	return (g->name && g->use) ? (int)(p->n_groups - 1) : -1;
}

static int expand_line(struct oq_pstate *ps, struct oq_ulp_line *l)
{
	struct oq_policy *p = ps->p;
	struct oq_match_rule *r;
	int lvl = simple_level(ps, l->sl, l->loc), g;
	size_t ri;

	if (lvl < 0)
		return -1;
	r = oq_ps_grow(ps, p->rules, &p->n_rules, sizeof(*r));
	if (!r)
		return -1;
	p->rules = r;
	ri = p->n_rules - 1;
	r[ri].loc = l->loc;
	r[ri].from_ulp = true;
	r[ri].use = l->text;
	l->text = NULL;
	r[ri].level.name = oq_ps_strdup(ps, p->levels[lvl].name);
	r[ri].level.loc = l->loc;
	r[ri].level.idx = lvl;
	if (!r[ri].level.name)
		return -1;

	switch (l->kind) {
	case ULP_IPOIB:
	case ULP_IPOIB_PKEY:
	case ULP_ANY_PKEY:
		r[ri].ipoib = l->kind != ULP_ANY_PKEY;
		r[ri].pkeys = l->values;
		break;
	case ULP_SRP_GUID:
	case ULP_ANY_TARGET:
		g = synth_group(ps, l, l->kind == ULP_SRP_GUID ?
					       "_SRP_Targets_" :
					       "_ULP_Targets_");
		if (g < 0 || add_ref(ps, &p->rules[ri].destinations,
				     p->groups[g].name, l->loc, g))
			return -1;
		return 0;
	case ULP_ANY_SOURCE:
		g = synth_group(ps, l, "_ULP_Sources_");
		if (g < 0 || add_ref(ps, &p->rules[ri].sources,
				     p->groups[g].name, l->loc, g))
			return -1;
		return 0;
	case ULP_ANY_SOURCE_TARGET:
		g = synth_group(ps, l, "_ULP_Sources_Targets_");
		if (g < 0 ||
		    add_ref(ps, &p->rules[ri].sources, p->groups[g].name,
			    l->loc, g) ||
		    add_ref(ps, &p->rules[ri].destinations, p->groups[g].name,
			    l->loc, g))
			return -1;
		return 0;
	default:
		r[ri].service_ids = l->values;
		break;
	}
	l->values.v = NULL;
	l->values.n = 0;
	return 0;
}

int oq_ulps_expand(struct oq_pstate *ps)
{
	struct oq_policy *p = ps->p;
	size_t i;

	for (i = 0; i < ps->n_ulps; i++)
		if (expand_line(ps, &ps->ulps[i]))
			return -1;
	if (p->default_level < 0 && p->ulp_default_sl >= 0) {
		int l = new_level(ps, "SimpleQoSLevel_DEFAULT",
				  p->ulp_default_sl, ps->ulp_default_loc);

		if (l < 0)
			return -1;
		p->default_level = l;
	}
	return 0;
}

void oq_ulp_lines_free(struct oq_pstate *ps)
{
	size_t i;

	for (i = 0; i < ps->n_ulps; i++) {
		free(ps->ulps[i].text);
		oq_ranges_free(&ps->ulps[i].values);
	}
	free(ps->ulps);
	ps->ulps = NULL;
	ps->n_ulps = 0;
}
