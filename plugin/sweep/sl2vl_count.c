// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SL2VL Sets OpenSM sends by itself.  For an engine that chooses path
 * SLs but has no update_sl2vl hook (dfsssp, lash, nue) SL2VL is the
 * template and the plugin leaves that hook unset: wrapping it would turn
 * off OpenSM's one-MAD optimized SL2VL path (osm_qos.c uses it only
 * without the hook).  To count those Sets anyway, this decides them as
 * osm_qos.c does (the raw template of the port's kind masked with its
 * OperVLs, against OpenSM's cache, or a pending update), from the first
 * VLArb hook osm_qos_setup() calls for the node, which comes before the
 * node's SL2VL part.  A switch port whose VLArb hook never comes (one
 * data VL, no VLArb capability) is counted with its switch, from the
 * switch's first external port that has the hook.  Not counted: a CA or
 * router port that gets no VLArb hook, and the external ports of a switch
 * none of whose external ports gets one -- no call comes before OpenSM
 * decides their SL2VL, and by the next one OpenSM's cache of it is
 * already rewritten.
 */
#include <config.h>

#include <string.h>

#include <opensm/osm_node.h>
#include <opensm/osm_switch.h>

#include "sl2vl_count.h"
#include "sweep.h"

static bool live(const osm_physp_t *p)
{
	return p && ib_port_info_get_port_state(&p->port_info) != IB_LINK_DOWN;
}

/* vlarb_update() calls update_vlarb for this port (at least one block). */
static bool gets_vlarb_hook(const osm_physp_t *p)
{
	const ib_port_info_t *pi = &p->port_info;

	return ib_port_info_get_vl_cap(pi) != 1 &&
	       (pi->vl_arb_low_cap || pi->vl_arb_high_cap);
}

/* The template OpenSM's qcfg holds for the port: switch external ports
 * swe, switch port 0 sw0, routers rtr, CAs ca. */
static const uint8_t *template_of(const struct oq_sweep_state *s,
				  const osm_physp_t *p)
{
	osm_node_t *node = osm_physp_get_node_ptr(p);
	enum oq_port_kind k = OQ_KIND_CA;

	if (node->sw)
		k = p->port_num ? OQ_KIND_SWE : OQ_KIND_SW0;
	else if (osm_node_get_type(node) == IB_NODE_TYPE_ROUTER)
		k = OQ_KIND_RTR;
	return s->templates.t[k].sl2vl;
}

/* sl2vl_update_table(): would it queue a Set of table tmpl for (in, p)? */
bool oq_sl2vl_would_send(osm_physp_t *p, uint8_t in, const uint8_t *tmpl,
			 bool force)
{
	return oq_sl2vl_would_send_packed(p, in, oq_sl2vl_pack(tmpl), force);
}

/* Is this the first port of its switch whose VLArb hook OpenSM calls? */
bool oq_sl2vl_count_first_port(osm_node_t *node, const osm_physp_t *p)
{
	unsigned int out, n = osm_node_get_num_physp(node);

	for (out = 1; out < n; out++) {
		osm_physp_t *x = osm_node_get_physp_ptr(node, out);

		if (live(x) && gets_vlarb_hook(x))
			return x == p;
	}
	return false;
}

/* osm_qos_setup's vlarb_only: the optimized Set of the external ports
 * also wrote port 0 when the two templates' SL2VL agree. */
static bool port0_vlarb_only(struct oq_sweep *sw,
			     const struct oq_sweep_state *s, osm_node_t *node)
{
	return ib_switch_info_get_opt_sl2vlmapping(&node->sw->switch_info) &&
	       sw->osm->subn.opt.use_optimized_slvl &&
	       !memcmp(s->templates.t[OQ_KIND_SWE].sl2vl,
		       s->templates.t[OQ_KIND_SW0].sl2vl, 16);
}

/* qos_endport_setup(), SL2VL part; zeroed: the external ports' loop has
 * just queued (0, 0) (which zeroes OpenSM's cache of it). */
static unsigned int endport(struct oq_sweep *sw, const struct oq_sweep_state *s,
			    osm_physp_t *p, bool zeroed)
{
	osm_node_t *node = osm_physp_get_node_ptr(p);

	if (node->sw && port0_vlarb_only(sw, s, node))
		return 0;
	if (!(p->port_info.capability_mask & IB_PORT_CAP_HAS_SL_MAP))
		return 0;
	return zeroed || oq_sl2vl_would_send(p, 0, template_of(s, p),
					     p->need_update ||
						     sw->osm->subn.need_update)
		       ? 1
		       : 0;
}

/* qos_extports_setup(), SL2VL part, and port 0 when its own VLArb hook
 * will not come. */
unsigned int oq_sl2vl_count_switch(struct oq_sweep *sw,
				   const struct oq_sweep_state *s,
				   osm_node_t *node)
{
	unsigned int n = osm_node_get_num_physp(node), out, in, sent = 0;
	osm_physp_t *p0 = osm_node_get_physp_ptr(node, 0), *p;
	const uint8_t *swe = s->templates.t[OQ_KIND_SWE].sl2vl;
	bool subn_force = sw->osm->subn.need_update, force, zeroed = false;
	bool enhanced =
		ib_switch_info_is_enhanced_port0(&node->sw->switch_info);

	if (!(p0->port_info.capability_mask & IB_PORT_CAP_HAS_SL_MAP))
		goto port0;
	if (ib_switch_info_get_opt_sl2vlmapping(&node->sw->switch_info) &&
	    sw->osm->subn.opt.use_optimized_slvl) {
		uint8_t arr[16], common = 0, max = 0;
		osm_physp_t *pc = osm_node_get_physp_ptr(node, 1);

		memset(arr, 0, sizeof(arr));
		for (out = 1; out < n; out++) {
			uint8_t ops;

			p = osm_node_get_physp_ptr(node, out);
			if (!live(p))
				continue;
			ops = ib_port_info_get_op_vls(&p->port_info) & 15;
			if (++arr[ops] > max) {
				max = arr[ops];
				common = ops;
				pc = p;
			}
		}
		if (!pc)
			goto port0;
		force = node->sw->need_update || subn_force;
		if (oq_sl2vl_would_send(pc, pc->port_num, swe, force))
			sent++;
		for (out = 1; out < n; out++) {
			p = osm_node_get_physp_ptr(node, out);
			if (!live(p))
				continue;
			force = p->need_update || force;
			if (ib_port_info_get_op_vls(&p->port_info) != common &&
			    oq_sl2vl_would_send(p, p->port_num, swe, force))
				sent++;
		}
		goto port0;
	}
	for (out = enhanced ? 0 : 1; out < n; out++) {
		p = osm_node_get_physp_ptr(node, out);
		if (!live(p))
			continue;
		force = p->need_update || subn_force;
		for (in = 0; in < n; in++)
			if (oq_sl2vl_would_send(p, (uint8_t)in, swe, force)) {
				sent++;
				zeroed |= !out && !in;
			}
	}
port0:
	if (enhanced && !gets_vlarb_hook(p0))
		sent += endport(sw, s, p0, zeroed);
	return sent;
}

unsigned int oq_sl2vl_count_endport(struct oq_sweep *sw,
				    const struct oq_sweep_state *s,
				    osm_physp_t *p)
{
	/* Called after the external ports' part for a switch port 0: any
	 * (0, 0) Set queued there already zeroed the cache compared here. */
	return endport(sw, s, p, false);
}
