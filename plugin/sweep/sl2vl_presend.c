// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * First-sweep economy for switches: when a switch's compiled SL2VL is the
 * same for every input/output pair, one Set with the optimized attribute
 * modifier (all inputs, all outputs) programs it.  Our update_sl2vl hook
 * turns off OpenSM's own optimized path, so we send that one MAD ourselves
 * right after discovery; its response fills OpenSM's SL2VL cache for every
 * pair, and osm_qos_setup then finds nothing to send -- except on a sweep
 * where OpenSM forces every update (subn.need_update: its first sweep as
 * master), when it sends every pair anyway.  If the MAD fails, the cache
 * stays stale and osm_qos_setup sends the pairs one by one in the same
 * sweep: correctness never depends on this shortcut.
 */
#include <config.h>

#include <string.h>

#include <opensm/osm_madw.h>
#include <opensm/osm_node.h>
#include <opensm/osm_sm.h>
#include <opensm/osm_switch.h>

#include "sweep.h"

#define OQ_SLVL_ALL_IN_ALL_OUT 0x30000

/* The one table every pair of the switch uses, or NULL. */
static const uint8_t *uniform_table(const struct oq_sweep_state *s,
				    const struct oq_node *n)
{
	const uint8_t *row = NULL;
	unsigned int out, in; /* a switch may have 255 ports */

	for (out = 1; out <= n->n_ports; out++) {
		const struct oq_port *p = &n->ports[out];
		const struct oq_port_tables *t;

		if (!p->present || !oq_port_peer(s->fabric, p))
			continue;
		t = &s->tables.ports[oq_port_index(s->fabric, p)];
		if (!t->has_sl2vl || t->n_sl2vl != n->n_ports + 1u)
			return NULL;
		for (in = 0; in <= n->n_ports; in++) {
			if (!row)
				row = t->sl2vl[in];
			else if (memcmp(row, t->sl2vl[in], 16))
				return NULL;
		}
	}
	return row;
}

/* Would OpenSM send anything for this switch?  Same test as osm_qos.c. */
static bool needs_update(struct oq_sweep *sw, osm_node_t *node,
			 const ib_slvl_table_t *want)
{
	unsigned int in, out, n = osm_node_get_num_physp(node);

	if (sw->osm->subn.need_update || node->sw->need_update)
		return true;
	for (out = 1; out < n; out++) {
		osm_physp_t *p = osm_node_get_physp_ptr(node, out);

		if (!p ||
		    ib_port_info_get_port_state(&p->port_info) == IB_LINK_DOWN)
			continue;
		if (p->need_update)
			return true;
		for (in = 0; in < n; in++)
			if (memcmp(osm_physp_get_slvl_tbl(p, (uint8_t)in), want,
				   sizeof(*want)))
				return true;
	}
	return false;
}

/* All VLs of row below every live port's OperVLs (OpenSM would mask
 * otherwise, and then the per-port path must handle that port). */
static bool fits_oper_vls(osm_node_t *node, const uint8_t *row)
{
	unsigned int out, sl, n = osm_node_get_num_physp(node);

	for (out = 1; out < n; out++) {
		osm_physp_t *p = osm_node_get_physp_ptr(node, out);
		unsigned int ops;

		if (!p ||
		    ib_port_info_get_port_state(&p->port_info) == IB_LINK_DOWN)
			continue;
		ops = ib_port_info_get_op_vls(&p->port_info);
		for (sl = 0; sl < 16; sl++)
			if (row[sl] != 15 &&
			    (!ops || row[sl] > (1u << (ops - 1)) - 1))
				return false;
	}
	return true;
}

static osm_physp_t *first_live_port(osm_node_t *node)
{
	unsigned int out, n = osm_node_get_num_physp(node);

	for (out = 1; out < n; out++) {
		osm_physp_t *p = osm_node_get_physp_ptr(node, out);

		if (p &&
		    ib_port_info_get_port_state(&p->port_info) != IB_LINK_DOWN)
			return p;
	}
	return NULL;
}

static int send_one(struct oq_sweep *sw, osm_node_t *node, osm_physp_t *p,
		    const ib_slvl_table_t *tbl)
{
	osm_physp_t *p0 = osm_node_get_physp_ptr(node, 0);
	osm_madw_context_t ctx;

	memset(&ctx, 0, sizeof(ctx));
	ctx.slvl_context.node_guid = osm_node_get_node_guid(node);
	ctx.slvl_context.port_guid = osm_physp_get_port_guid(p);
	ctx.slvl_context.set_method = TRUE;
	return osm_req_set(&sw->osm->sm, osm_physp_get_dr_path_ptr(p),
			   (const uint8_t *)tbl, sizeof(*tbl),
			   IB_MAD_ATTR_SLVL_TABLE,
			   cl_hton32(OQ_SLVL_ALL_IN_ALL_OUT), FALSE,
			   ib_port_info_get_m_key(&p0->port_info),
			   sw->osm->subn.opt.long_transaction_timeout,
			   CL_DISP_MSGID_NONE, &ctx) == IB_SUCCESS
		       ? 0
		       : -1;
}

/* Caller holds OpenSM's lock.  Returns the number of MADs sent. */
unsigned int oq_sl2vl_presend(struct oq_sweep *sw,
			      const struct oq_sweep_state *s)
{
	struct oq_engine engine;
	unsigned int sent = 0;
	size_t i;

	if (!sw->osm->subn.opt.qos || !sw->osm->subn.opt.use_optimized_slvl)
		return 0;
	/* Only where the policy owns SL2VL: an engine's own differs per
	 * input port, and a template SL2VL takes OpenSM's own optimized
	 * path (no update_sl2vl hook there). */
	if (oq_hooks_engine(sw, &engine) != OQ_ENGINE_QOS)
		return 0;
	for (i = 0; i < s->fabric->n_nodes; i++) {
		const struct oq_node *n = s->fabric->nodes[i];
		osm_node_t *node = n->user;
		ib_slvl_table_t tbl;
		const uint8_t *row;
		osm_physp_t *p0, *p;
		unsigned int sl, out;

		if (n->type != OQ_NODE_SWITCH || !node || !node->sw)
			continue;
		p0 = osm_node_get_physp_ptr(node, 0);
		if (!(p0->port_info.capability_mask & IB_PORT_CAP_HAS_SL_MAP) ||
		    !ib_switch_info_get_opt_sl2vlmapping(
			    &node->sw->switch_info))
			continue;
		row = uniform_table(s, n);
		if (!row || !fits_oper_vls(node, row))
			continue;
		for (sl = 0; sl < 16; sl += 2)
			tbl.raw_vl_by_sl[sl / 2] =
				(uint8_t)(row[sl] << 4 | row[sl + 1]);
		if (!needs_update(sw, node, &tbl))
			continue;
		p = first_live_port(node);
		if (!p || send_one(sw, node, p, &tbl))
			continue;
		sent++;
		/* Its answer rewrites every port's cached SL2VL. */
		for (out = 0; out < osm_node_get_num_physp(node); out++) {
			p = osm_node_get_physp_ptr(node, out);
			if (p)
				oq_sl2vl_dirty_add(&sw->sl2vl_dirty, p);
		}
	}
	return sent;
}
