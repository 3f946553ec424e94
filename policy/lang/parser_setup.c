// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * qos-setup: vlarb-scope and sl2vl-scope keys.  OpenSM parses this section
 * and ignores it; osmqos compiles it into per-port tables, so the values
 * are checked against what the hardware tables can hold.
 */
#include <stdlib.h>
#include <string.h>

#include "parser_int.h"

#define OQ_MAX_PORT 254		/* switch port numbers */
#define OQ_OPENSM_MAX_PORT 127	/* OSM_QOS_POLICY_MAX_PORTS_ON_SWITCH - 1 */

static int read_vlarb(struct oq_pstate *ps, struct oq_vlarb_entry **tab,
		      size_t *n)
{
	struct oq_lx *lx = &ps->lx;

	for (;;) {
		struct oq_vlarb_entry *v;
		struct oq_loc loc;
		uint64_t vl, w;

		oq_lx_skip_blank(lx);
		loc = oq_lx_loc(lx);
		if (oq_lx_number(lx, &vl, "VL"))
			return -1;
		if (vl > 14) {
			oq_diag_hint(oq_error(ps->d, loc,
					      "VL %llu is out of range 0-14",
					      (unsigned long long)vl),
				     "VLArb entries name data VLs 0-14");
			return -1;
		}
		oq_lx_skip_blank(lx);
		if (oq_lx_peek(lx) != ':') {
			oq_diag_hint(oq_error(ps->d, oq_lx_loc(lx),
					      "expected ':' after VL %llu",
					      (unsigned long long)vl),
				     "VLArb entries are VL:weight, e.g. "
				     "0:32,1:64");
			return -1;
		}
		oq_lx_adv(lx);
		oq_lx_skip_blank(lx);
		loc = oq_lx_loc(lx);
		if (oq_lx_number(lx, &w, "weight"))
			return -1;
		if (w > 255) {
			oq_diag_hint(oq_error(ps->d, loc,
					      "weight %llu is out of range "
					      "0-255",
					      (unsigned long long)w),
				     "weights count 64-byte credits, at most "
				     "255 per entry");
			return -1;
		}
		v = oq_ps_grow(ps, *tab, n, sizeof(*v));
		if (!v)
			return -1;
		*tab = v;
		v[*n - 1].vl = (uint8_t)vl;
		v[*n - 1].weight = (uint8_t)w;
		oq_lx_skip_blank(lx);
		if (oq_lx_peek(lx) != ',')
			return 0;
		oq_lx_adv(lx);
		if (!oq_ps_list_next(ps))
			return -1;
	}
}

static int read_portsel(struct oq_pstate *ps, struct oq_portsel *sel,
			const char *key, struct oq_loc key_loc)
{
	struct oq_ranges r = { NULL, 0 };
	size_t i;
	uint64_t x;

	sel->given = true;
	oq_lx_skip_blank(&ps->lx);
	if (oq_lx_peek(&ps->lx) == '*') {
		oq_lx_adv(&ps->lx);
		sel->all = true;
		return 0;
	}
	if (oq_ps_ranges(ps, &r, "port number", OQ_MAX_PORT, 0)) {
		oq_ranges_free(&r);
		return -1;
	}
	for (i = 0; i < r.n; i++)
		for (x = r.v[i].lo; x <= r.v[i].hi; x++)
			sel->bits[x / 64] |= 1ULL << (x % 64);
	if (r.n && r.v[r.n - 1].hi > OQ_OPENSM_MAX_PORT)
		oq_diag_hint(oq_warning(ps->d, key_loc,
					"'%s' port %llu is above 127, which "
					"OpenSM 3.3.23 rejects",
					key,
					(unsigned long long)r.v[r.n - 1].hi),
			     "with 'qos TRUE' OpenSM would fail to parse this "
			     "policy file and run without a policy");
	oq_ranges_free(&r);
	return 0;
}

static int vlarb_key(struct oq_pstate *ps, const char *key, struct oq_loc loc)
{
	struct oq_vlarb_scope *s = &ps->p->vlarb[ps->p->n_vlarb - 1];
	uint64_t v;

	if (!strcmp(key, "group"))
		return oq_ps_refs(ps, &s->groups, "port group name");
	if (!strcmp(key, "across"))
		return oq_ps_refs(ps, &s->across, "port group name");
	if (!strcmp(key, "vlarb-high")) {
		s->has_high = true;
		return read_vlarb(ps, &s->high, &s->n_high);
	}
	if (!strcmp(key, "vlarb-low")) {
		s->has_low = true;
		return read_vlarb(ps, &s->low, &s->n_low);
	}
	/* vl-high-limit: OpenSM keeps the last one. */
	if (ps->seen & OQ_SEEN_HIGH_LIMIT)
		oq_diag_hint(oq_warning(ps->d, loc, "duplicate 'vl-high-limit'"),
			     "the last one wins");
	ps->seen |= OQ_SEEN_HIGH_LIMIT;
	if (oq_ps_single(ps, &v, "vl-high-limit", 0, 255))
		return -1;
	s->vl_high_limit = (int)v;
	return 0;
}

static int read_sl2vl_table(struct oq_pstate *ps, struct oq_sl2vl_scope *s,
			    struct oq_loc loc)
{
	struct oq_lx *lx = &ps->lx;
	uint8_t tab[16];
	size_t n = 0;

	if (ps->seen & OQ_SEEN_TABLE) {
		oq_diag_hint(oq_error(ps->d, loc, "duplicate 'sl2vl-table'"),
			     "an sl2vl-scope has one table of 16 VLs");
		return -1;
	}
	ps->seen |= OQ_SEEN_TABLE;
	for (;;) {
		struct oq_loc vloc;
		uint64_t vl;

		oq_lx_skip_blank(lx);
		vloc = oq_lx_loc(lx);
		if (oq_lx_number(lx, &vl, "VL"))
			return -1;
		if (vl > 15) {
			oq_diag_hint(oq_error(ps->d, vloc,
					      "VL %llu is out of range 0-15",
					      (unsigned long long)vl),
				     "VL 15 in an SL2VL table drops the SL");
			return -1;
		}
		if (n < 16)
			tab[n] = (uint8_t)vl;
		n++;
		oq_lx_skip_blank(lx);
		if (oq_lx_peek(lx) != ',')
			break;
		oq_lx_adv(lx);
		if (!oq_ps_list_next(ps))
			return -1;
	}
	if (n != 16) {
		oq_diag_hint(oq_error(ps->d, loc,
				      "sl2vl-table has %zu values; it needs 16",
				      n),
			     "list the VL of each SL 0-15 in order");
		return -1;
	}
	memcpy(s->sl2vl, tab, sizeof(tab));
	s->has_table = true;
	return 0;
}

static int sl2vl_key(struct oq_pstate *ps, const char *key, struct oq_loc loc)
{
	struct oq_sl2vl_scope *s = &ps->p->sl2vl[ps->p->n_sl2vl - 1];

	if (!strcmp(key, "group"))
		return oq_ps_refs(ps, &s->groups, "port group name");
	if (!strcmp(key, "across"))
		return oq_ps_refs(ps, &s->across, "port group name");
	if (!strcmp(key, "across-from"))
		return oq_ps_refs(ps, &s->across_from, "port group name");
	if (!strcmp(key, "across-to"))
		return oq_ps_refs(ps, &s->across_to, "port group name");
	if (!strcmp(key, "from"))
		return read_portsel(ps, &s->from, key, loc);
	if (!strcmp(key, "to"))
		return read_portsel(ps, &s->to, key, loc);
	return read_sl2vl_table(ps, s, loc);
}

int oq_parse_setup_key(struct oq_pstate *ps, const char *key,
		       struct oq_loc loc)
{
	if (oq_ps_blk(ps) == OQ_B_VLARB_SCOPE)
		return ps->p->n_vlarb ? vlarb_key(ps, key, loc) : -1;
	return ps->p->n_sl2vl ? sl2vl_key(ps, key, loc) : -1;
}

void oq_setup_scope_end(struct oq_pstate *ps, enum oq_blk blk)
{
	struct oq_loc loc = ps->stack[ps->depth].loc;

	if (blk == OQ_B_VLARB_SCOPE) {
		struct oq_vlarb_scope *s;

		if (!ps->p->n_vlarb)
			return;
		s = &ps->p->vlarb[ps->p->n_vlarb - 1];
		if (!s->groups.n && !s->across.n)
			oq_diag_hint(oq_error(ps->d, loc,
					      "vlarb-scope has no 'group' or "
					      "'across'"),
				     "say which port groups the tables are "
				     "for");
		return;
	}
	if (!ps->p->n_sl2vl)
		return;
	{
		struct oq_sl2vl_scope *s = &ps->p->sl2vl[ps->p->n_sl2vl - 1];

		if (!(ps->seen & OQ_SEEN_TABLE))
			oq_diag_hint(oq_error(ps->d, loc,
					      "sl2vl-scope has no "
					      "'sl2vl-table'"),
				     "add 'sl2vl-table:' with 16 VLs");
		if (!s->groups.n && !s->across.n && !s->across_from.n &&
		    !s->across_to.n)
			oq_diag_hint(oq_error(ps->d, loc,
					      "sl2vl-scope has no 'group', "
					      "'across', 'across-from' or "
					      "'across-to'"),
				     "say which port groups the table is "
				     "for");
	}
}
