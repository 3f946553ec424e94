// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Snapshot of OpenSM's subnet as the policy core's fabric model.  Built
 * once per sweep under OpenSM's read lock; after that the policy core works
 * on the copy and never touches osm_subn_t, so SA threads and the sweep do
 * not contend for OpenSM's lock while QoS decisions are computed.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_pkey.h>
#include <opensm/osm_switch.h>

#include <osmqos/model.h>

#include "osm.h"

/*
 * A switch's external ports report CapabilityMask 0: whether extended
 * speeds (FDR, EDR, HDR) apply is port 0's capability, as OpenSM's link
 * manager and SA read it.  p0: port 0 for a switch port, else NULL.
 */
static enum oq_speed speed_of(const osm_physp_t *p, const osm_physp_t *p0)
{
	const ib_port_info_t *pi = &p->port_info;
	const ib_port_info_t *cap = p0 ? &p0->port_info : pi;

	return oq_speed_from_ib(
		ib_port_info_get_link_speed_active(pi),
		ib_port_info_get_link_speed_ext_active(pi),
		cap->capability_mask & IB_PORT_CAP_HAS_EXT_SPEEDS,
		p->ext_port_info.link_speed_active & FDR10);
}

static int copy_pkeys(struct oq_port *port, const osm_physp_t *p)
{
	const osm_pkey_tbl_t *tbl = osm_physp_get_pkey_tbl(p);
	uint16_t blocks = osm_pkey_tbl_get_num_blocks(tbl);
	uint16_t *keys, b, i;
	size_t n = 0;
	int rc;

	if (!blocks)
		return 0;
	keys = malloc(sizeof(*keys) * blocks * IB_NUM_PKEY_ELEMENTS_IN_BLOCK);
	if (!keys)
		return -1;
	for (b = 0; b < blocks; b++) {
		const ib_pkey_table_t *blk = osm_pkey_tbl_block_get(tbl, b);

		if (!blk)
			continue;
		for (i = 0; i < IB_NUM_PKEY_ELEMENTS_IN_BLOCK; i++) {
			uint16_t k = cl_ntoh16(blk->pkey_entry[i]);

			if (k & OQ_PKEY_MASK)
				keys[n++] = k;
		}
	}
	rc = oq_port_set_pkeys(port, keys, n);
	free(keys);
	return rc;
}

/*
 * The OperVLs the link will run: what the link manager is going to set
 * (VLCap of both ends, capped by max_op_vls), not what a port that just
 * came up reports.  Compiling against the final value keeps the first
 * sweep's tables the same as every later sweep's.
 */
static uint8_t link_oper_vls(osm_opensm_t *osm, const osm_physp_t *p)
{
	uint8_t cur = ib_port_info_get_op_vls(&p->port_info);

	if (!p->p_remote_physp)
		return oq_vls_from_enc(cur);
	return oq_vls_from_enc(
		osm_physp_calc_link_op_vls(&osm->log, &osm->subn, p, cur));
}

/* What this reads of OpenSM is also in the record of the port
 * (record_port() below): a new input goes there too, or a change to it
 * goes unseen. */
static void fill_port(osm_opensm_t *osm, struct oq_port *port,
		      const osm_node_t *node, const osm_physp_t *p,
		      const osm_physp_t *p0)
{
	const ib_port_info_t *pi = &p->port_info;
	/* Switch external ports carry no LID/GUID of their own: use port 0. */
	const osm_physp_t *id = p0 ? p0 : p;

	port->present = true;
	port->guid = cl_ntoh64(osm_physp_get_port_guid(id));
	port->lid = cl_ntoh16(osm_physp_get_base_lid(id));
	port->lmc = ib_port_info_get_lmc(&id->port_info);
	port->width = oq_lanes_from_width(pi->link_width_active);
	port->speed = speed_of(p, p0);
	port->mtu_cap = ib_port_info_get_mtu_cap(pi);
	port->vl_cap = oq_vls_from_enc(ib_port_info_get_vl_cap(pi));
	port->oper_vls = link_oper_vls(osm, p);
	port->vlarb_high_cap = pi->vl_arb_high_cap;
	port->vlarb_low_cap = pi->vl_arb_low_cap;
	if (osm_node_get_type(node) == IB_NODE_TYPE_SWITCH)
		port->sl2vl_cap = true;
	else
		port->sl2vl_cap =
			!!(pi->capability_mask & IB_PORT_CAP_HAS_SL_MAP);
	port->cap_mask = cl_ntoh32(pi->capability_mask);
	port->cap_mask2 = cl_ntoh16(pi->capability_mask2);
	port->user = (void *)p;
}

/*
 * The record of a port (oq_snapshot_record): what fill_port() and
 * copy_pkeys() read of it, as read (the PortInfo fields, its GUID and
 * extended speed, the link partner, and for link_oper_vls() the
 * partner's VLCap or, without a partner, the port's current OperVLs; the
 * P_Key blocks while OpenSM has no partitions, which is only before its
 * first P_Key manager run: it always makes the Default partition), not
 * what they make of it: reading costs less than computing that for every
 * port each sweep, and a field they do not read (the port's state, a
 * linked port's current OperVLs) changing is no change.
 */
struct port_record {
	const void *physp, *remote, *remote_node;
	uint64_t guid;
	uint32_t cap_mask;
	uint16_t lid, cap_mask2, pkey_blocks;
	uint8_t width, lmc, speed, speed_ext, speed_ext_active, mtu_cap, vl_cap,
		vlarb_high_cap, vlarb_low_cap, remote_num, remote_vl_cap,
		op_vls, pad[2];
};

static void record_port(struct oq_record *r, const osm_physp_t *p,
			bool with_pkeys)
{
	const osm_pkey_tbl_t *tbl = osm_physp_get_pkey_tbl(p);
	const osm_physp_t *rp = p->p_remote_physp;
	const ib_port_info_t *pi = &p->port_info;
	struct port_record pr;
	uint16_t b;

	memset(&pr, 0, sizeof(pr));
	pr.physp = p;
	if (rp && osm_physp_is_valid(rp)) {
		pr.remote = rp;
		pr.remote_node = rp->p_node;
		pr.remote_num = rp->port_num;
	}
	if (rp)
		pr.remote_vl_cap = ib_port_info_get_vl_cap(&rp->port_info);
	else
		pr.op_vls = ib_port_info_get_op_vls(pi);
	pr.guid = osm_physp_get_port_guid(p);
	pr.cap_mask = pi->capability_mask;
	pr.lid = pi->base_lid;
	pr.cap_mask2 = pi->capability_mask2;
	pr.width = pi->link_width_active;
	pr.lmc = ib_port_info_get_lmc(pi);
	pr.speed = ib_port_info_get_link_speed_active(pi);
	pr.speed_ext = ib_port_info_get_link_speed_ext_active(pi);
	pr.speed_ext_active = p->ext_port_info.link_speed_active;
	pr.mtu_cap = ib_port_info_get_mtu_cap(pi);
	pr.vl_cap = ib_port_info_get_vl_cap(pi);
	pr.vlarb_high_cap = pi->vl_arb_high_cap;
	pr.vlarb_low_cap = pi->vl_arb_low_cap;
	pr.pkey_blocks = with_pkeys ? osm_pkey_tbl_get_num_blocks(tbl) : 0;
	oq_record_put(r, &pr, sizeof(pr));
	for (b = 0; b < pr.pkey_blocks; b++) {
		static const ib_pkey_table_t none;
		const ib_pkey_table_t *blk = osm_pkey_tbl_block_get(tbl, b);

		oq_record_put(r, blk ? blk : &none, sizeof(*blk));
	}
}

/* The record of a node: what add_node() reads, its ports included. */
static void record_node(struct oq_record *r, const osm_node_t *node,
			bool with_pkeys)
{
	uint32_t n_physp = osm_node_get_num_physp(node), i;
	struct {
		const void *node, *sw;
		uint64_t guid;
		uint32_t n_physp, lft_n;
		uint8_t type, seen, enhanced, pad[5];
	} nr;

	memset(&nr, 0, sizeof(nr));
	nr.node = node;
	nr.seen = node->discovery_count != 0;
	if (!nr.seen) {
		oq_record_put(r, &nr, sizeof(nr));
		return;
	}
	nr.sw = node->sw;
	nr.guid = osm_node_get_node_guid(node);
	nr.n_physp = n_physp;
	nr.type = osm_node_get_type(node);
	if (node->sw) {
		nr.enhanced = ib_switch_info_is_enhanced_port0(
			&node->sw->switch_info);
		if (node->sw->new_lft)
			nr.lft_n = (size_t)node->sw->max_lid_ho + 1 <
						   node->sw->lft_size
					   ? node->sw->max_lid_ho + 1u
					   : node->sw->lft_size;
	}
	oq_record_put(r, &nr, sizeof(nr));
	oq_record_put(r, node->node_desc.description, IB_NODE_DESCRIPTION_SIZE);
	oq_record_put_str(r, node->print_desc);
	if (nr.lft_n)
		oq_record_put(r, node->sw->new_lft, nr.lft_n);
	for (i = 0; i < n_physp; i++) {
		const osm_physp_t *p =
			osm_node_get_physp_ptr((osm_node_t *)node, i);

		if (!p || !osm_physp_is_valid(p) ||
		    (nr.type != IB_NODE_TYPE_SWITCH && i == 0)) {
			static const struct port_record none;

			oq_record_put(r, &none, sizeof(none));
			continue;
		}
		record_port(r, p, with_pkeys);
	}
}

void oq_snapshot_record(osm_opensm_t *osm, struct oq_record *r)
{
	cl_qmap_t *tbl = &osm->subn.node_guid_tbl;
	/* The ports' P_Key tables are read only without partitions, as
	 * oq_snapshot_build() reads them. */
	bool with_pkeys = !cl_qmap_count(&osm->subn.prtn_pkey_tbl);
	/* The SM's port, the prefix, the cap on the links' OperVLs, and
	 * whether the P_Key tables follow. */
	uint64_t ids[4] = {osm->subn.sm_port_guid, osm->subn.opt.subnet_prefix,
			   osm->subn.opt.max_op_vls, with_pkeys};
	cl_map_item_t *it;

	oq_record_put(r, ids, sizeof(ids));
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl);
	     it = cl_qmap_next(it))
		record_node(r, (const osm_node_t *)it, with_pkeys);
}

struct node_pair {
	const osm_node_t *osm;
	struct oq_node *oq;
};

static int pair_cmp(const void *a, const void *b)
{
	const osm_node_t *x = ((const struct node_pair *)a)->osm;
	const osm_node_t *y = ((const struct node_pair *)b)->osm;

	return x < y ? -1 : x > y;
}

static struct oq_node *find_node(struct node_pair *v, size_t n,
				 const osm_node_t *key)
{
	struct node_pair k = {key, NULL}, *hit;

	hit = bsearch(&k, v, n, sizeof(*v), pair_cmp);
	return hit ? hit->oq : NULL;
}

static int add_node(osm_opensm_t *osm, struct oq_fabric *f,
		    const osm_node_t *node, struct node_pair *pair,
		    bool with_lft, bool with_pkeys)
{
	uint8_t type = osm_node_get_type(node);
	uint32_t n_physp = osm_node_get_num_physp(node), i;
	const osm_physp_t *p0 = NULL;
	char desc[IB_NODE_DESCRIPTION_SIZE + 1];
	struct oq_node *qn;

	memcpy(desc, node->node_desc.description, IB_NODE_DESCRIPTION_SIZE);
	desc[IB_NODE_DESCRIPTION_SIZE] = '\0';
	qn = oq_fabric_add_node(f, (enum oq_node_type)type,
				cl_ntoh64(osm_node_get_node_guid(node)), desc,
				(uint8_t)(n_physp ? n_physp - 1 : 0));
	if (!qn)
		return -1;
	/* The name OpenSM's QoS parser matches port-names against: the
	 * node-name map's, else the printable NodeDescription. */
	if (node->print_desc && oq_node_set_name(qn, node->print_desc))
		return -1;
	pair->osm = node;
	pair->oq = qn;
	qn->user = (void *)node;
	if (type == IB_NODE_TYPE_SWITCH) {
		p0 = osm_node_get_physp_ptr((osm_node_t *)node, 0);
		qn->enhanced_port0 =
			node->sw && ib_switch_info_is_enhanced_port0(
					    &node->sw->switch_info);
		/* The routes the SA follows: the LFT routing just computed
		 * (osm_switch_get_route_by_lid() reads new_lft). */
		if (with_lft && node->sw && node->sw->new_lft &&
		    oq_node_set_lft(qn, node->sw->new_lft,
				    (size_t)node->sw->max_lid_ho + 1 <
						    node->sw->lft_size
					    ? (size_t)node->sw->max_lid_ho + 1
					    : node->sw->lft_size))
			return -1;
	}
	for (i = 0; i < n_physp; i++) {
		const osm_physp_t *p =
			osm_node_get_physp_ptr((osm_node_t *)node, i);

		if (!p || !osm_physp_is_valid(p))
			continue;
		if (type != IB_NODE_TYPE_SWITCH && i == 0)
			continue;
		fill_port(osm, &qn->ports[i], node, p, i ? p0 : NULL);
		if (with_pkeys && copy_pkeys(&qn->ports[i], p))
			return -1;
	}
	return 0;
}

static void link_ports(struct node_pair *pairs, size_t n)
{
	size_t k;
	uint8_t i;

	for (k = 0; k < n; k++) {
		struct oq_node *qn = pairs[k].oq;

		for (i = 1; i <= qn->n_ports; i++) {
			const osm_physp_t *p = qn->ports[i].user, *r;
			struct oq_node *rn;

			if (!p || qn->ports[i].peer)
				continue;
			r = p->p_remote_physp;
			if (!r || !osm_physp_is_valid(r) || !r->p_node)
				continue;
			rn = find_node(pairs, n, r->p_node);
			if (rn && r->port_num <= rn->n_ports &&
			    rn->ports[r->port_num].present)
				oq_fabric_link(&qn->ports[i],
					       &rn->ports[r->port_num]);
		}
	}
}

struct oq_fabric *oq_snapshot_build(osm_opensm_t *osm, bool with_lft,
				    struct oq_diags *diags)
{
	cl_qmap_t *tbl = &osm->subn.node_guid_tbl;
	size_t n = cl_qmap_count(tbl), k = 0;
	struct node_pair *pairs;
	struct oq_fabric *f;
	cl_map_item_t *it;
	bool with_pkeys;

	f = oq_fabric_new();
	pairs = calloc(n ? n : 1, sizeof(*pairs));
	if (!f || !pairs)
		goto fail;
	/* The ports' PKey tables are last sweep's until the pkey manager has
	 * run; once OpenSM has partitions, oq_partitions_from_osm() sets
	 * every port's membership from them instead. */
	with_pkeys = !cl_qmap_count(&osm->subn.prtn_pkey_tbl);
	f->sm_port_guid = cl_ntoh64(osm->subn.sm_port_guid);
	f->subnet_prefix = cl_ntoh64(osm->subn.opt.subnet_prefix);
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl) && k < n;
	     it = cl_qmap_next(it)) {
		const osm_node_t *node = (const osm_node_t *)it;

		/* Not seen by this sweep's discovery: the drop manager is
		 * about to remove it. */
		if (!node->discovery_count)
			continue;
		if (add_node(osm, f, node, &pairs[k++], with_lft, with_pkeys))
			goto fail;
	}
	qsort(pairs, k, sizeof(*pairs), pair_cmp);
	link_ports(pairs, k);
	free(pairs);
	if (oq_fabric_finalize(f, diags))
		goto fail_fabric;
	return f;
fail:
	free(pairs);
fail_fabric:
	oq_fabric_free(f);
	errno = ENOMEM; /* every failure above is an allocation's */
	return NULL;
}
