// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SL2VL Sets OpenSM sends by itself.  For an engine that chooses path
 * SLs but has no update_sl2vl hook (dfsssp, lash, nue) SL2VL is the
 * template and the plugin leaves that hook unset: wrapping it would turn
 * off OpenSM's one-MAD optimized SL2VL path (osm_qos.c uses it only
 * without the hook).  To count those Sets anyway, this decides them as
 * osm_qos.c does (masked template against OpenSM's cache, or a pending
 * update), from the VLArb hook that osm_qos_setup() calls for the same
 * node just before its SL2VL part: the node's first live external port
 * for a switch, the port itself for an end port.
 */
#include <config.h>

#include <string.h>

#include <opensm/osm_node.h>
#include <opensm/osm_switch.h>

#include "plugin.h"

static bool live(const osm_physp_t *p)
{
	return p &&
	       ib_port_info_get_port_state(&p->port_info) != IB_LINK_DOWN;
}

/* sl2vl_update_table(): would it queue a Set? */
static bool differs(osm_physp_t *p, uint8_t in, const uint8_t *row,
		    bool force)
{
	unsigned int ops = ib_port_info_get_op_vls(&p->port_info);
	unsigned int mask = ops ? (1u << (ops - 1)) - 1 : 0, sl;
	const ib_slvl_table_t *cur = osm_physp_get_slvl_tbl(p, in);

	if (force)
		return true;
	for (sl = 0; sl < 16; sl++) {
		unsigned int v = row[sl];

		if (v != 15)
			v &= mask;
		if (ib_slvl_table_get(cur, (uint8_t)sl) != v)
			return true;
	}
	return false;
}

/* The template row the compiler gave the port (the same for every input
 * under such an engine), or NULL. */
static const uint8_t *row_of(const struct oq_state *s, const osm_physp_t *p)
{
	const struct oq_port_tables *t = oq_state_tables_of(s, p);

	return t && t->has_sl2vl && t->n_sl2vl ? t->sl2vl[0] : NULL;
}

/* The first live external port: osm_qos_setup asks its VLArb first. */
bool oq_sl2vl_count_first_port(osm_node_t *node, const osm_physp_t *p)
{
	unsigned int out, n = osm_node_get_num_physp(node);

	for (out = 1; out < n; out++) {
		osm_physp_t *x = osm_node_get_physp_ptr(node, out);

		if (live(x))
			return x == p;
	}
	return false;
}

/* qos_extports_setup(), SL2VL part, for an engine without the hook. */
unsigned int oq_sl2vl_count_switch(struct osmqos *q, const struct oq_state *s,
				   osm_node_t *node)
{
	unsigned int n = osm_node_get_num_physp(node), out, in, sent = 0;
	osm_physp_t *p0 = osm_node_get_physp_ptr(node, 0), *p;
	const osm_subn_opt_t *o = &q->osm->subn.opt;
	bool subn_force = q->osm->subn.need_update, force;
	const uint8_t *row;

	if (!(p0->port_info.capability_mask & IB_PORT_CAP_HAS_SL_MAP))
		return 0;
	if (ib_switch_info_get_opt_sl2vlmapping(&node->sw->switch_info) &&
	    o->use_optimized_slvl) {
		uint8_t arr[16], common = 0, max = 0;

		memset(arr, 0, sizeof(arr));
		p0 = osm_node_get_physp_ptr(node, 1);
		for (out = 1; out < n; out++) {
			uint8_t ops;

			p = osm_node_get_physp_ptr(node, out);
			if (!live(p))
				continue;
			ops = ib_port_info_get_op_vls(&p->port_info) & 15;
			if (++arr[ops] > max) {
				max = arr[ops];
				common = ops;
				p0 = p;
			}
		}
		if (!p0)
			return 0;
		force = node->sw->need_update || subn_force;
		row = row_of(s, p0);
		if (row && differs(p0, p0->port_num, row, force))
			sent++;
		for (out = 1; out < n; out++) {
			p = osm_node_get_physp_ptr(node, out);
			if (!live(p))
				continue;
			force = p->need_update || force;
			row = row_of(s, p);
			if (ib_port_info_get_op_vls(&p->port_info) != common &&
			    row && differs(p, p->port_num, row, force))
				sent++;
		}
		return sent;
	}
	out = ib_switch_info_is_enhanced_port0(&node->sw->switch_info) ? 0 : 1;
	for (; out < n; out++) {
		p = osm_node_get_physp_ptr(node, out);
		if (!live(p))
			continue;
		force = p->need_update || subn_force;
		row = row_of(s, p);
		for (in = 0; row && in < n; in++)
			if (differs(p, (uint8_t)in, row, force))
				sent++;
	}
	return sent;
}

/* qos_endport_setup(), SL2VL part: a CA or router port, or an enhanced
 * switch port 0 (skipped when the optimized path covered it). */
unsigned int oq_sl2vl_count_endport(struct osmqos *q, const struct oq_state *s,
				    osm_physp_t *p)
{
	osm_node_t *node = osm_physp_get_node_ptr(p);
	const uint8_t *row = row_of(s, p);

	/* osm_qos_setup's vlarb_only: the optimized Set of the external
	 * ports also wrote port 0 when the two templates' SL2VL agree. */
	if (node->sw &&
	    ib_switch_info_get_opt_sl2vlmapping(&node->sw->switch_info) &&
	    q->osm->subn.opt.use_optimized_slvl &&
	    !memcmp(s->templates.t[OQ_KIND_SWE].sl2vl,
		    s->templates.t[OQ_KIND_SW0].sl2vl, 16))
		return 0;
	if (!(p->port_info.capability_mask & IB_PORT_CAP_HAS_SL_MAP) || !row)
		return 0;
	return differs(p, 0, row,
		       p->need_update || q->osm->subn.need_update) ? 1 : 0;
}
