// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Snapshot of OpenSM's subnet as the policy core's fabric model.  Every
 * sweep records what it reads of OpenSM's nodes and ports (compared with
 * the last record, it says whether anything changed); when a new state is
 * needed, the fabric is built from that record, read in order, instead of
 * from OpenSM's objects a second time.  After that the policy core works on the
 * copy and never touches osm_subn_t, so SA threads and the sweep do not
 * contend for OpenSM's lock while QoS decisions are computed.
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
 * The record of a port (oq_snapshot_record), and all the snapshot knows of
 * it: the PortInfo fields, its GUID and extended speed, the link partner,
 * and for the link's OperVLs the partner's VLCap or, without a partner,
 * the port's current OperVLs; the P_Key blocks follow while OpenSM has no
 * partitions, which is only before its first P_Key manager run: it always
 * makes the Default partition.  Fields as read, not what fill_port() makes
 * of them: reading costs less than computing that for every port each
 * sweep, and a field not read (the port's state, a linked port's current
 * OperVLs) changing is no change.
 */
struct port_record {
	const void *physp, *remote, *remote_node;
	uint64_t guid;
	uint32_t cap_mask;
	uint16_t lid, cap_mask2, pkey_blocks;
	uint8_t width, lmc, speed, speed_ext, speed_ext_active, mtu_cap, vl_cap,
		vlarb_high_cap, vlarb_low_cap, remote_num, remote_vl_cap,
		op_vls, remote_any, pad;
};

/* The record of a node, its ports' after it. */
struct node_record {
	const void *node, *sw;
	uint64_t guid;
	uint32_t n_physp, lft_n;
	uint8_t type, seen, enhanced, pad[5];
};

/* The record's head: the SM's port, the prefix, the cap on the links'
 * OperVLs, whether the P_Key tables follow, and the nodes that do. */
struct subnet_record {
	uint64_t sm_port_guid, subnet_prefix, max_op_vls, with_pkeys, n_nodes;
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
	/* As osm_physp_calc_link_op_vls() reads them. */
	pr.remote_any = !!rp;
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

static void record_node(struct oq_record *r, const osm_node_t *node,
			bool with_pkeys)
{
	uint32_t n_physp = osm_node_get_num_physp(node), i;
	struct node_record nr;

	memset(&nr, 0, sizeof(nr));
	nr.node = node;
	/* Not seen by this sweep's discovery: the drop manager is about to
	 * remove it. */
	nr.seen = node->discovery_count != 0;
	if (!nr.seen) {
		oq_record_put(r, &nr, sizeof(nr));
		return;
	}
	nr.sw = node->sw;
	nr.guid = osm_node_get_node_guid(node);
	nr.n_physp = n_physp;
	nr.type = osm_node_get_type(node);
	if (nr.type == IB_NODE_TYPE_SWITCH && node->sw) {
		nr.enhanced = ib_switch_info_is_enhanced_port0(
			&node->sw->switch_info);
		/* The routes the SA follows: the LFT routing just computed
		 * (osm_switch_get_route_by_lid() reads new_lft). */
		if (node->sw->new_lft)
			nr.lft_n = (size_t)node->sw->max_lid_ho + 1 <
						   node->sw->lft_size
					   ? node->sw->max_lid_ho + 1u
					   : node->sw->lft_size;
	}
	oq_record_put(r, &nr, sizeof(nr));
	oq_record_put(r, node->node_desc.description, IB_NODE_DESCRIPTION_SIZE);
	/* The name OpenSM's QoS parser matches port-names against: the
	 * node-name map's, else the printable NodeDescription. */
	oq_record_put_str(r, node->print_desc);
	if (nr.lft_n)
		oq_record_put(r, node->sw->new_lft, nr.lft_n);
	for (i = 0; i < n_physp; i++) {
		const osm_physp_t *p =
			osm_node_get_physp_ptr((osm_node_t *)node, i);

		/* Valid ports only (osm_node_get_physp_ptr() hands out no
		 * other); a switch's port 0 stands for its external ports'
		 * GUID, LID and capabilities, a CA's is none. */
		if (!p || (nr.type != IB_NODE_TYPE_SWITCH && !i)) {
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
	struct subnet_record sr = {
		.sm_port_guid = cl_ntoh64(osm->subn.sm_port_guid),
		.subnet_prefix = cl_ntoh64(osm->subn.opt.subnet_prefix),
		.max_op_vls = osm->subn.opt.max_op_vls,
		/* The ports' P_Key tables are last sweep's until the P_Key
		 * manager has run; once OpenSM has partitions,
		 * oq_partitions_from_osm() sets every port's membership
		 * from them instead. */
		.with_pkeys = !cl_qmap_count(&osm->subn.prtn_pkey_tbl),
		.n_nodes = cl_qmap_count(tbl),
	};
	cl_map_item_t *it;

	oq_record_put(r, &sr, sizeof(sr));
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl);
	     it = cl_qmap_next(it))
		record_node(r, (const osm_node_t *)it, sr.with_pkeys);
}

/* The record read back in the order it was written. */
struct reader {
	const uint8_t *p, *end;
};

static const void *take(struct reader *rd, size_t n)
{
	const void *v = rd->p;

	if ((size_t)(rd->end - rd->p) < n)
		return NULL;
	rd->p += n;
	return v;
}

static bool take_copy(struct reader *rd, void *dst, size_t n)
{
	const void *v = take(rd, n);

	if (v)
		memcpy(dst, v, n);
	return v != NULL;
}

/* A string oq_record_put_str() wrote, in place (*s NULL for a NULL
 * string). */
static bool take_str(struct reader *rd, const char **s)
{
	uint32_t n;

	if (!take_copy(rd, &n, sizeof(n)))
		return false;
	*s = NULL;
	if (n == UINT32_MAX)
		return true;
	*s = take(rd, (size_t)n + 1);
	return *s && !(*s)[n];
}

/*
 * The OperVLs the link will run: what the link manager is going to set
 * (osm_physp_calc_link_op_vls(): VLCap of both ends, at least VL0, capped
 * by max_op_vls), not what a port that just came up reports.  Compiling
 * against the final value keeps the first sweep's tables the same as
 * every later sweep's.
 */
static uint8_t link_oper_vls(const struct port_record *pr, uint64_t max_op_vls)
{
	uint8_t op;

	if (!pr->remote_any)
		return oq_vls_from_enc(pr->op_vls);
	op = pr->vl_cap < pr->remote_vl_cap ? pr->vl_cap : pr->remote_vl_cap;
	if (!op)
		op = 1;
	if (op > max_op_vls)
		op = (uint8_t)max_op_vls;
	return oq_vls_from_enc(op);
}

/*
 * A switch's external ports report CapabilityMask 0: whether extended
 * speeds (FDR, EDR, HDR) apply is port 0's capability, as OpenSM's link
 * manager and SA read it.  p0: port 0 for a switch port, else NULL.
 */
static enum oq_speed speed_of(const struct port_record *pr,
			      const struct port_record *p0)
{
	const struct port_record *cap = p0 ? p0 : pr;

	return oq_speed_from_ib(pr->speed, pr->speed_ext,
				cap->cap_mask & IB_PORT_CAP_HAS_EXT_SPEEDS,
				pr->speed_ext_active & FDR10);
}

static void fill_port(struct oq_port *port, enum oq_node_type type,
		      const struct port_record *pr,
		      const struct port_record *p0, uint64_t max_op_vls)
{
	/* Switch external ports carry no LID/GUID of their own: use port 0. */
	const struct port_record *id = p0 ? p0 : pr;

	port->present = true;
	port->guid = cl_ntoh64(id->guid);
	port->lid = cl_ntoh16(id->lid);
	port->lmc = id->lmc;
	port->width = oq_lanes_from_width(pr->width);
	port->speed = speed_of(pr, p0);
	port->mtu_cap = pr->mtu_cap;
	port->vl_cap = oq_vls_from_enc(pr->vl_cap);
	port->oper_vls = link_oper_vls(pr, max_op_vls);
	port->vlarb_high_cap = pr->vlarb_high_cap;
	port->vlarb_low_cap = pr->vlarb_low_cap;
	port->sl2vl_cap = type == OQ_NODE_SWITCH ||
			  (pr->cap_mask & IB_PORT_CAP_HAS_SL_MAP);
	port->cap_mask = cl_ntoh32(pr->cap_mask);
	port->cap_mask2 = cl_ntoh16(pr->cap_mask2);
	port->user = (void *)pr->physp;
}

/* The P_Keys of a port's blocks, membership bit and all. */
static int take_pkeys(struct reader *rd, struct oq_port *port, uint16_t blocks)
{
	uint16_t *keys, b, i;
	size_t n = 0;
	int rc;

	if (!blocks)
		return 0;
	keys = malloc(sizeof(*keys) * blocks * IB_NUM_PKEY_ELEMENTS_IN_BLOCK);
	if (!keys)
		return -1;
	for (b = 0; b < blocks; b++) {
		ib_pkey_table_t blk;

		if (!take_copy(rd, &blk, sizeof(blk))) {
			free(keys);
			return -1;
		}
		for (i = 0; i < IB_NUM_PKEY_ELEMENTS_IN_BLOCK; i++) {
			uint16_t k = cl_ntoh16(blk.pkey_entry[i]);

			if (k & OQ_PKEY_MASK)
				keys[n++] = k;
		}
	}
	rc = oq_port_set_pkeys(port, keys, n);
	free(keys);
	return rc;
}

/* A port's link partner, for link_ports(). */
struct link_partner {
	const void *node;
	uint8_t num;
};

/* The nodes by OpenSM's node object, and where their ports' partners
 * start (one per port number). */
struct node_pair {
	const void *osm;
	struct oq_node *oq;
	size_t first_partner;
};

/* What reading the record back needs besides the fabric. */
struct decoder {
	struct subnet_record sr;
	bool with_lft;
	struct node_pair *pairs;
	size_t n_pairs;
	struct link_partner *partners;
	size_t n_partners, cap_partners;
};

static struct link_partner *partners_add(struct decoder *dec, size_t n)
{
	if (dec->n_partners + n > dec->cap_partners) {
		size_t cap = dec->cap_partners ? dec->cap_partners : 4096;
		struct link_partner *v;

		while (cap < dec->n_partners + n)
			cap *= 2;
		v = realloc(dec->partners, cap * sizeof(*v));
		if (!v)
			return NULL;
		dec->partners = v;
		dec->cap_partners = cap;
	}
	dec->n_partners += n;
	return memset(dec->partners + dec->n_partners - n, 0,
		      n * sizeof(*dec->partners));
}

static int add_ports(struct reader *rd, struct decoder *dec,
		     const struct node_record *nr, struct oq_node *qn,
		     struct link_partner *partners)
{
	struct port_record pr, p0;
	bool has_p0 = false;
	uint32_t i;

	for (i = 0; i < nr->n_physp; i++) {
		if (!take_copy(rd, &pr, sizeof(pr)))
			return -1;
		if (!pr.physp)
			continue;
		if (nr->type == IB_NODE_TYPE_SWITCH && !i) {
			p0 = pr;
			has_p0 = true;
		}
		fill_port(&qn->ports[i], qn->type, &pr,
			  i && has_p0 ? &p0 : NULL, dec->sr.max_op_vls);
		partners[i].node = pr.remote_node;
		partners[i].num = pr.remote_num;
		if (take_pkeys(rd, &qn->ports[i], pr.pkey_blocks))
			return -1;
	}
	return 0;
}

static int add_node(struct reader *rd, struct oq_fabric *f, struct decoder *dec)
{
	char desc[IB_NODE_DESCRIPTION_SIZE + 1];
	const uint8_t *lft = NULL;
	struct node_record nr;
	struct node_pair *pair;
	struct oq_node *qn;
	struct link_partner *partners;
	const char *name; /* print_desc */

	if (!take_copy(rd, &nr, sizeof(nr)))
		return -1;
	if (!nr.seen)
		return 0;
	/* OpenSM's nodes have at most 255 ports and port 0. */
	if (nr.n_physp > 256)
		return -1;
	if (!take_copy(rd, desc, IB_NODE_DESCRIPTION_SIZE) ||
	    !take_str(rd, &name) || (nr.lft_n && !(lft = take(rd, nr.lft_n))))
		return -1;
	desc[IB_NODE_DESCRIPTION_SIZE] = '\0';
	qn = oq_fabric_add_node(f, (enum oq_node_type)nr.type,
				cl_ntoh64(nr.guid), desc,
				(uint8_t)(nr.n_physp ? nr.n_physp - 1 : 0));
	if (!qn || (name && oq_node_set_name(qn, name)))
		return -1;
	qn->user = (void *)nr.node;
	qn->enhanced_port0 = nr.enhanced;
	if (dec->with_lft && lft && oq_node_set_lft(qn, lft, nr.lft_n))
		return -1;
	pair = &dec->pairs[dec->n_pairs++];
	pair->osm = nr.node;
	pair->oq = qn;
	pair->first_partner = dec->n_partners;
	partners = partners_add(dec, (size_t)qn->n_ports + 1);
	if (!partners)
		return -1;
	return add_ports(rd, dec, &nr, qn, partners);
}

static int pair_cmp(const void *a, const void *b)
{
	const void *x = ((const struct node_pair *)a)->osm;
	const void *y = ((const struct node_pair *)b)->osm;

	return x < y ? -1 : x > y;
}

static struct oq_node *find_node(const struct decoder *dec, const void *key)
{
	struct node_pair k = {key, NULL, 0}, *hit;

	hit = bsearch(&k, dec->pairs, dec->n_pairs, sizeof(k), pair_cmp);
	return hit ? hit->oq : NULL;
}

static void link_ports(struct oq_fabric *f, struct decoder *dec)
{
	size_t k;
	uint8_t i;

	qsort(dec->pairs, dec->n_pairs, sizeof(*dec->pairs), pair_cmp);
	for (k = 0; k < dec->n_pairs; k++) {
		struct oq_node *qn = dec->pairs[k].oq;
		const struct link_partner *partners =
			dec->partners + dec->pairs[k].first_partner;

		for (i = 1; i <= qn->n_ports; i++) {
			struct oq_node *rn;

			if (!qn->ports[i].user ||
			    oq_port_peer(f, &qn->ports[i]) ||
			    !partners[i].node)
				continue;
			rn = find_node(dec, partners[i].node);
			if (rn && partners[i].num <= rn->n_ports &&
			    rn->ports[partners[i].num].present)
				oq_fabric_link(&qn->ports[i],
					       &rn->ports[partners[i].num]);
		}
	}
}

struct oq_fabric *oq_snapshot_build(const struct oq_record *r, bool with_lft,
				    struct oq_diags *diags)
{
	struct reader rd;
	struct decoder dec = {.with_lft = with_lft};
	struct oq_fabric *f = NULL;
	uint64_t k;

	/* The record is whole unless an allocation failed writing it (then
	 * it is empty).  The snapshot's part comes first. */
	if (!r->len)
		goto fail;
	rd.p = r->buf;
	rd.end = r->buf + r->len;
	if (!take_copy(&rd, &dec.sr, sizeof(dec.sr)) ||
	    dec.sr.n_nodes >
		    (size_t)(rd.end - rd.p) / sizeof(struct node_record))
		goto fail;
	f = oq_fabric_new();
	dec.pairs =
		calloc(dec.sr.n_nodes ? dec.sr.n_nodes : 1, sizeof(*dec.pairs));
	if (!f || !dec.pairs)
		goto fail;
	f->sm_port_guid = dec.sr.sm_port_guid;
	f->subnet_prefix = dec.sr.subnet_prefix;
	f->live = true;
	for (k = 0; k < dec.sr.n_nodes; k++)
		if (add_node(&rd, f, &dec))
			goto fail;
	link_ports(f, &dec);
	free(dec.pairs);
	free(dec.partners);
	if (oq_fabric_finalize(f, diags))
		goto fail_fabric;
	return f;
fail:
	free(dec.pairs);
	free(dec.partners);
fail_fabric:
	oq_fabric_free(f);
	/* Every failure above is an allocation's: a record cut short is one
	 * that could not be written whole, and OpenSM's nodes keep within
	 * the bounds checked. */
	errno = ENOMEM;
	return NULL;
}
