// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * OpenSM 3.3.23's port-groups, qos-levels and qos-match-rules blocks
 * (osm_qos_parser_y.y), action for action: see stock_parse.c.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "stock_parse_int.h"

/* ---- port groups ---- */

/* A new group at the end of the list: OpenSM appends a group at its end
 * keyword, which comes before anything that could follow it in the list;
 * a group never finished only matters to a parse that fails anyway. */
long sp_new_group(struct sp *p, struct oq_loc at)
{
	struct oq_stock *s = p->s;

	if (!sp_grow(p, (void **)&s->groups, &p->cap_groups, s->n_groups,
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
		if (!sp_port_check(p, t, port)) {
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
	sp_clear_lists(p);
	return true;
}

static bool node_type_list(struct sp *p, long gi)
{
	unsigned int *nt = &p->s->groups[gi].node_types;

	for (;;) {
		switch (sp_peek(p)) {
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
			sp_syntax_error(p);
			return false;
		}
		sp_take(p);
		if (sp_peek(p) != STK_COMMA)
			return true;
		sp_take(p);
	}
}

static bool port_group(struct sp *p)
{
	long gi = sp_new_group(p, p->la.loc);
	bool use = false;

	sp_take(p);
	if (gi < 0)
		return false;
	for (;;) {
		struct oq_stock_group *g;
		enum oq_stk k = sp_peek(p);
		struct oq_loc at = p->la.loc;
		struct oq_ranges r;

		sp_clear_lists(p);
		if (k != STK_PORT_GROUP_END && k != STK_NAME && k != STK_USE &&
		    k != STK_PORT_GUID && k != STK_PORT_NAME && k != STK_PKEY &&
		    k != STK_PARTITION && k != STK_NODE_TYPE) {
			sp_syntax_error(p);
			return false;
		}
		sp_take(p);
		switch (k) {
		case STK_NAME:
			if (!sp_single_string(p))
				return false;
			g = &p->s->groups[gi];
			if (g->name) {
				reject(p, at,
				       "port-group has multiple 'name' "
				       "tags");
				return false;
			}
			g->name = sp_first_string(p);
			break;
		case STK_USE:
			if (!sp_single_string(p))
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
			if (!sp_ranges_key(p, &r, false))
				return false;
			sp_walk(p, sp_guid_steps(&r), at,
				"the port-guid ranges of this port group");
			if (!sp_merge_ranges(p, &p->s->groups[gi].guids, &r) ||
			    p->stop)
				return false;
			break;
		case STK_PORT_NAME:
			if (!sp_string_list(p) || !port_names(p, gi, at))
				return false;
			break;
		case STK_PKEY:
			memset(&r, 0, sizeof(r));
			if (!sp_ranges_key(p, &r, true))
				return false;
			sp_walk(p, sp_range_count(&r), at,
				"the P_Keys of this port group");
			if (!sp_merge_ranges(p, &p->s->groups[gi].pkeys, &r) ||
			    p->stop)
				return false;
			break;
		case STK_PARTITION:
			g = &p->s->groups[gi];
			if (!sp_string_list(p) ||
			    !sp_move_strings(p, &g->partitions,
					     &g->n_partitions))
				return false;
			break;
		case STK_NODE_TYPE:
			if (!node_type_list(p, gi))
				return false;
			break;
		default: /* STK_PORT_GROUP_END */
			oq_ranges_normalize(&p->s->groups[gi].guids);
			oq_ranges_normalize(&p->s->groups[gi].pkeys);
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

bool sp_port_groups(struct sp *p)
{
	size_t n = 0;

	sp_take(p);
	for (;;) {
		switch (sp_peek(p)) {
		case STK_PORT_GROUP_START:
			if (!port_group(p))
				return false;
			n++;
			break;
		case STK_PORT_GROUPS_END:
			if (!n) { /* port_groups: one or more */
				sp_syntax_error(p);
				return false;
			}
			sp_take(p);
			return true;
		default:
			sp_syntax_error(p);
			return false;
		}
	}
}

/* ---- qos-levels ---- */

long sp_new_level(struct sp *p, struct oq_loc at)
{
	struct oq_stock *s = p->s;
	struct oq_stock_level *l;

	if (!sp_grow(p, (void **)&s->levels, &p->cap_levels, s->n_levels,
		     sizeof(*s->levels)))
		return -1;
	l = &s->levels[s->n_levels];
	memset(l, 0, sizeof(*l));
	l->loc = at;
	l->mtu = l->rate = l->life = -1;
	return (long)s->n_levels++;
}

bool sp_level_number(struct sp *p, uint64_t *v)
{
	if (!sp_number(p))
		return false;
	*v = p->nums[0];
	sp_clear_lists(p);
	return true;
}

static bool qos_level(struct sp *p)
{
	long li = sp_new_level(p, p->la.loc);
	bool use = false, sl = false;

	sp_take(p);
	if (li < 0)
		return false;
	for (;;) {
		struct oq_stock_level *l;
		enum oq_stk k = sp_peek(p);
		struct oq_loc at = p->la.loc;
		struct oq_ranges r;
		uint64_t v;

		sp_clear_lists(p);
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
			sp_take(p);
			break;
		default:
			sp_syntax_error(p);
			return false;
		}
		switch (k) {
		case STK_NAME:
			if (!sp_single_string(p))
				return false;
			l = &p->s->levels[li];
			if (l->name) {
				reject(p, at,
				       "qos-level has multiple 'name' "
				       "tags");
				return false;
			}
			l->name = sp_first_string(p);
			break;
		case STK_USE:
			if (!sp_single_string(p))
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
			if (!sp_level_number(p, &v))
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

			if (!sp_level_number(p, &v))
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
			if (!sp_ranges_key(p, &r, k == STK_PKEY))
				return false;
			l = &p->s->levels[li];
			if (!sp_merge_ranges(p,
					     k == STK_PKEY ? &l->pkeys
							   : &l->path_bits,
					     &r))
				return false;
			break;
		default: /* STK_QOS_LEVEL_END */
			oq_ranges_normalize(&p->s->levels[li].pkeys);
			oq_ranges_normalize(&p->s->levels[li].path_bits);
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

bool sp_qos_levels(struct sp *p)
{
	sp_take(p);
	for (;;) {
		switch (sp_peek(p)) {
		case STK_QOS_LEVEL_START:
			if (!qos_level(p))
				return false;
			break;
		case STK_QOS_LEVELS_END:
			sp_take(p);
			return true;
		default:
			sp_syntax_error(p);
			return false;
		}
	}
}

/* ---- qos-match-rules ---- */

static long new_rule(struct sp *p, struct oq_loc at)
{
	struct oq_stock *s = p->s;

	if (!sp_grow(p, (void **)&s->rules, &p->cap_rules, s->n_rules,
		     sizeof(*s->rules)) ||
	    !sp_grow(p, (void **)&p->names, &p->cap_names, s->n_rules,
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

	sp_take(p);
	if (ri < 0)
		return false;
	for (;;) {
		struct rule_names *nm = &p->names[ri];
		struct oq_stock_rule *r = &p->s->rules[ri];
		enum oq_stk k = sp_peek(p);
		struct oq_loc at = p->la.loc;

		sp_clear_lists(p);
		switch (k) {
		case STK_USE:
		case STK_QOS_CLASS:
		case STK_QOS_LEVEL_NAME:
		case STK_SOURCE:
		case STK_DESTINATION:
		case STK_SERVICE_ID:
		case STK_PKEY:
		case STK_QOS_MATCH_RULE_END:
			sp_take(p);
			break;
		default:
			sp_syntax_error(p);
			return false;
		}
		switch (k) {
		case STK_USE:
			if (!sp_single_string(p))
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
			if (!sp_single_string(p))
				return false;
			if (nm->level) {
				reject(p, at,
				       "qos-match-rule has multiple "
				       "'qos-level-name' tags");
				return false;
			}
			nm->level = sp_first_string(p);
			break;
		case STK_SOURCE:
		case STK_DESTINATION:
			if (!sp_string_list(p))
				return false;
			if (!(k == STK_SOURCE
				      ? sp_move_strings(p, &nm->src, &nm->n_src)
				      : sp_move_strings(p, &nm->dst,
							&nm->n_dst)))
				return false;
			break;
		case STK_QOS_CLASS:
			if (!sp_ranges_key(p, &r->classes, false))
				return false;
			break;
		case STK_SERVICE_ID:
			if (!sp_ranges_key(p, &r->sids, false))
				return false;
			break;
		case STK_PKEY:
			if (!sp_ranges_key(p, &r->pkeys, true))
				return false;
			break;
		default: /* STK_QOS_MATCH_RULE_END */
			oq_ranges_normalize(&r->classes);
			oq_ranges_normalize(&r->sids);
			oq_ranges_normalize(&r->pkeys);
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

bool sp_match_rules(struct sp *p)
{
	sp_take(p);
	for (;;) {
		switch (sp_peek(p)) {
		case STK_QOS_MATCH_RULE_START:
			if (!match_rule(p))
				return false;
			break;
		case STK_QOS_MATCH_RULES_END:
			sp_take(p);
			return true;
		default:
			sp_syntax_error(p);
			return false;
		}
	}
}
