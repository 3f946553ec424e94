// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * OpenSM 3.3.23's qos-setup and qos-ulps blocks (osm_qos_parser_y.y),
 * action for action: see stock_parse.c.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stock_parse_int.h"

/* OpenSM's qos-ulps constants (osm_qos_policy.h). */
#define ULP_SDP_SID	    0x10000ULL
#define ULP_RDS_SID	    0x1060000ULL
#define ULP_RDS_PORT	    0x48CAULL
#define ULP_ISER_SID	    0x1060000ULL
#define ULP_ISER_PORT	    0x0CBCULL
#define MAX_PORTS_ON_SWITCH 128u

/* ---- qos-setup ---- */

static bool vlarb_scope(struct sp *p)
{
	struct oq_stock *s = p->s;
	struct oq_stock_vlarb *v;
	size_t vi = s->n_vlarb;

	if (!sp_grow(p, (void **)&s->vlarb, &p->cap_vlarb, s->n_vlarb,
		     sizeof(*s->vlarb)))
		return false;
	memset(&s->vlarb[vi], 0, sizeof(*s->vlarb));
	s->vlarb[vi].loc = p->la.loc;
	s->n_vlarb++;
	sp_take(p);
	for (;;) {
		enum oq_stk k = sp_peek(p);
		struct oq_loc at = p->la.loc;

		sp_clear_lists(p);
		switch (k) {
		case STK_GROUP:
		case STK_ACROSS:
		case STK_VLARB_HIGH:
		case STK_VLARB_LOW:
		case STK_VLARB_HIGH_LIMIT:
		case STK_VLARB_SCOPE_END:
			sp_take(p);
			break;
		default:
			sp_syntax_error(p);
			return false;
		}
		v = &s->vlarb[vi];
		switch (k) {
		case STK_GROUP:
			if (!sp_string_list(p) ||
			    !sp_move_strings(p, &v->groups, &v->n_groups))
				return false;
			break;
		case STK_ACROSS:
			if (!sp_string_list(p) ||
			    !sp_move_strings(p, &v->across, &v->n_across))
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

			if (!sp_list_of_pairs(p))
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

			if (!sp_level_number(p, &x))
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

	if (sp_peek(p) == STK_ASTERISK) {
		sp_take(p);
		memset(bits, 0xff, 16);
		return true;
	}
	if (!sp_list_of_ranges(p))
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

	if (!sp_grow(p, (void **)&s->sl2vl, &p->cap_sl2vl, s->n_sl2vl,
		     sizeof(*s->sl2vl)))
		return false;
	memset(&s->sl2vl[vi], 0, sizeof(*s->sl2vl));
	s->sl2vl[vi].loc = p->la.loc;
	s->n_sl2vl++;
	sp_take(p);
	for (;;) {
		enum oq_stk k = sp_peek(p);
		struct oq_loc at = p->la.loc;
		size_t i;

		sp_clear_lists(p);
		switch (k) {
		case STK_GROUP:
		case STK_ACROSS:
		case STK_ACROSS_FROM:
		case STK_ACROSS_TO:
		case STK_FROM:
		case STK_TO:
		case STK_SL2VL_TABLE:
		case STK_SL2VL_SCOPE_END:
			sp_take(p);
			break;
		default:
			sp_syntax_error(p);
			return false;
		}
		v = &s->sl2vl[vi];
		switch (k) {
		case STK_GROUP:
			if (!sp_string_list(p) ||
			    !sp_move_strings(p, &v->groups, &v->n_groups))
				return false;
			break;
		case STK_ACROSS:
			/* Copied into both lists. */
			if (!sp_string_list(p))
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
				d = sp_dup_n(p, p->strs[i], strlen(p->strs[i]));
				if (!d)
					return false;
				a[v->n_across_to++] = d;
			}
			if (!sp_move_strings(p, &v->across_from,
					     &v->n_across_from))
				return false;
			break;
		case STK_ACROSS_FROM:
			if (!sp_string_list(p) ||
			    !sp_move_strings(p, &v->across_from,
					     &v->n_across_from))
				return false;
			break;
		case STK_ACROSS_TO:
			if (!sp_string_list(p) ||
			    !sp_move_strings(p, &v->across_to, &v->n_across_to))
				return false;
			break;
		case STK_FROM:
		case STK_TO:
			if (!port_list(p, k == STK_FROM ? v->from : v->to,
				       k == STK_FROM ? "from" : "to", at))
				return false;
			break;
		case STK_SL2VL_TABLE:
			if (!sp_num_list(p))
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

bool sp_qos_setup(struct sp *p)
{
	sp_take(p);
	for (;;) {
		enum oq_stk k = sp_peek(p);

		if (k == STK_QOS_SETUP_END) {
			sp_take(p);
			return true;
		}
		if (k != STK_VLARB_TABLES_START &&
		    k != STK_SL2VL_TABLES_START) {
			sp_syntax_error(p);
			return false;
		}
		sp_take(p);
		for (;;) {
			enum oq_stk t = sp_peek(p);

			if (t == (k == STK_VLARB_TABLES_START
					  ? STK_VLARB_TABLES_END
					  : STK_SL2VL_TABLES_END)) {
				sp_take(p);
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
				sp_syntax_error(p);
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

	if (!sp_pairs_to_ranges(p, &r, false))
		return -1;
	sp_walk(p, sp_guid_steps(&r), at,
		"the port GUIDs of this qos-ulps line");
	gi = p->stop ? -1 : sp_new_group(p, at);
	if (gi < 0) {
		oq_ranges_free(&r);
		return -1;
	}
	p->s->groups[gi].guids = r;
	p->s->groups[gi].from_ulp = true;
	p->s->groups[gi].name = sp_dup_n(p, name, strlen(name));
	return p->s->groups[gi].name ? gi : -1;
}

bool sp_add_index(struct sp *p, size_t **v, size_t *n, size_t x)
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
	if (!sp_pairs_to_ranges(p, &r->sids, false))
		return false;
	for (i = 0; i < r->sids.n; i++) {
		r->sids.v[i].lo += base;
		r->sids.v[i].hi += base;
	}
	return true;
}

static bool qos_ulp(struct sp *p)
{
	enum oq_stk k = sp_peek(p);
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

	sp_take(p);
	if (k == STK_ULP_DEFAULT) {
		if (!sp_level_number(p, &sl))
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
	if (list && (!sp_list_of_ranges(p) || !sp_expect(p, STK_DOTDOT)))
		goto fail;
	switch (k) {
	case STK_ULP_ANY_SERVICE_ID:
		if (!sp_pairs_to_ranges(p, &r.sids, false))
			goto fail;
		break;
	case STK_ULP_ANY_PKEY:
		if (!sp_pairs_to_ranges(p, &r.pkeys, true))
			goto fail;
		break;
	case STK_ULP_ANY_TARGET_PORT_GUID:
	case STK_ULP_SRP_GUID:
		gi = ulp_group(p,
			       k == STK_ULP_SRP_GUID ? "_SRP_Targets_"
						     : "_ULP_Targets_",
			       at);
		if (gi < 0 || !sp_add_index(p, &r.dst, &r.n_dst, (size_t)gi))
			goto fail;
		break;
	case STK_ULP_ANY_SOURCE_PORT_GUID:
		gi = ulp_group(p, "_ULP_Sources_", at);
		if (gi < 0 || !sp_add_index(p, &r.src, &r.n_src, (size_t)gi))
			goto fail;
		break;
	case STK_ULP_ANY_SOURCE_TARGET_PORT_GUID:
		gi = ulp_group(p, "_ULP_Sources_Targets_", at);
		if (gi < 0 || !sp_add_index(p, &r.src, &r.n_src, (size_t)gi) ||
		    !sp_add_index(p, &r.dst, &r.n_dst, (size_t)gi))
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
		if (!sp_ipoib_pkeys(p, &r.pkeys, at))
			goto fail;
		break;
	case STK_ULP_IPOIB_PKEY:
		if (!sp_pairs_to_ranges(p, &r.pkeys, true) ||
		    !sp_ipoib_pkeys(p, &r.pkeys, at))
			goto fail;
		break;
	default:
		goto fail;
	}
	/* qos_ulp_sl */
	sp_clear_lists(p);
	if (!sp_level_number(p, &sl))
		goto fail;
	if (sl > 15) {
		reject(p, at, "illegal SL value");
		goto fail;
	}
	r.level = (size_t)sl; /* SimpleQoSLevel_SL<sl>, placed later */
	if (!sp_grow(p, (void **)&p->ulp, &p->cap_ulp, p->n_ulp,
		     sizeof(*p->ulp)))
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

bool sp_qos_ulps(struct sp *p)
{
	size_t n = 0;

	sp_take(p);
	for (;;) {
		enum oq_stk k = sp_peek(p);

		sp_clear_lists(p);
		if (k == STK_QOS_ULPS_END && n) {
			sp_take(p);
			return true;
		}
		if (k < STK_ULP_DEFAULT || k > STK_ULP_IPOIB_PKEY) {
			sp_syntax_error(p);
			return false;
		}
		if (!qos_ulp(p))
			return false;
		n++;
	}
}
