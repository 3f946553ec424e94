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
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_node.h>
#include <opensm/osm_port.h>
#include <opensm/osm_pkey.h>
#include <opensm/osm_switch.h>

#include <osmqos/htab.h>
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
	/* Three marks a node: where it, its LFT and its ports begin. */
	oq_record_mark(r);
	/* Not seen by this sweep's discovery: the drop manager is about to
	 * remove it. */
	nr.seen = node->discovery_count != 0;
	if (!nr.seen) {
		oq_record_put(r, &nr, sizeof(nr));
		oq_record_mark(r);
		oq_record_mark(r);
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
	oq_record_mark(r);
	if (nr.lft_n)
		oq_record_put(r, node->sw->new_lft, nr.lft_n);
	oq_record_mark(r);
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
	oq_record_mark(r); /* the nodes' end */
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

/*
 * A node's part of the record: OpenSM's node object, the model's node's id
 * (NO_NODE for a node discovery did not see), and where the node's
 * record, its LFT, its ports and the next node begin.  By id, not by
 * pointer: a node the partitions changed is replaced in its fabric.
 */
struct base_node {
	const void *osm;
	uint32_t id;
	uint32_t start, lft, ports, end;
};

#define NO_NODE UINT32_MAX

struct oq_snapshot_base {
	const struct oq_fabric *fabric; /* the fabric read from it */
	uint8_t *buf;			/* the record's nodes, copied */
	struct subnet_record sr;
	struct base_node *nodes; /* in the record's order */
	size_t n;
	/* OpenSM's node object -> the model's node id, for the nodes seen;
	 * and a node id's place in nodes. */
	struct oq_htab by_osm;
	uint32_t *at_of_id;
	bool with_lft;
};

/* A node read from the record this time, and where its ports' partners
 * start (one per port number). */
struct read_node {
	const void *osm;
	struct oq_node *oq;
	size_t first_partner;
};

/* What reading the record back needs besides the fabric. */
struct decoder {
	const uint8_t *buf;
	size_t len;
	struct oq_fabric *f;
	bool with_lft;
	/* prev was read with routes and this one without, or the other
	 * way round: every shared switch's routes are set anew. */
	bool lft_again;
	uint64_t max_op_vls;
	struct oq_snapshot_base *base; /* being made */
	struct oq_node **at; /* f's node of each base node, for the links */
	struct read_node *read;
	size_t n_read;
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
			  i && has_p0 ? &p0 : NULL, dec->max_op_vls);
		partners[i].node = pr.remote_node;
		partners[i].num = pr.remote_num;
		if (take_pkeys(rd, &qn->ports[i], pr.pkey_blocks))
			return -1;
	}
	return 0;
}

/* A node from its part of the record (bn), under was's ids when it
 * stands for a node of the fabric this one derives from. */
static int read_node(struct decoder *dec, struct base_node *bn,
		     const struct node_record *nr, const struct oq_node *was)
{
	char desc[IB_NODE_DESCRIPTION_SIZE + 1];
	struct reader rd = {dec->buf + bn->start + sizeof(*nr),
			    dec->buf + bn->end};
	const uint8_t *lft = NULL;
	struct read_node *rn;
	struct oq_node *qn;
	struct link_partner *partners;
	const char *name; /* print_desc */

	/* OpenSM's nodes have at most 255 ports and port 0. */
	if (nr->n_physp > 256)
		return -1;
	if (!take_copy(&rd, desc, IB_NODE_DESCRIPTION_SIZE) ||
	    !take_str(&rd, &name) || rd.p != dec->buf + bn->lft ||
	    bn->ports - bn->lft != nr->lft_n)
		return -1;
	if (nr->lft_n)
		lft = dec->buf + bn->lft;
	rd.p = dec->buf + bn->ports;
	desc[IB_NODE_DESCRIPTION_SIZE] = '\0';
	qn = oq_fabric_add_node_as(
		dec->f, (enum oq_node_type)nr->type, cl_ntoh64(nr->guid), desc,
		(uint8_t)(nr->n_physp ? nr->n_physp - 1 : 0), was);
	if (!qn || (name && oq_node_set_name(qn, name)))
		return -1;
	qn->user = (void *)nr->node;
	qn->enhanced_port0 = nr->enhanced;
	/* Under was's ids it has was's routes until told otherwise. */
	if (qn->type == OQ_NODE_SWITCH &&
	    oq_fabric_set_lft(dec->f, qn, dec->with_lft ? lft : NULL,
			      dec->with_lft && lft ? nr->lft_n : 0))
		return -1;
	bn->id = qn->id;
	rn = &dec->read[dec->n_read++];
	rn->osm = nr->node;
	rn->oq = qn;
	rn->first_partner = dec->n_partners;
	partners = partners_add(dec, (size_t)qn->n_ports + 1);
	if (!partners)
		return -1;
	return add_ports(&rd, dec, nr, qn, partners);
}

/* The model's node id of OpenSM's node object osm in b, NO_NODE when b
 * saw none. */
static uint32_t base_id(const struct oq_snapshot_base *b, const void *osm)
{
	int64_t id = oq_htab_get(&b->by_osm, (uint64_t)(uintptr_t)osm);

	return id < 0 ? NO_NODE : (uint32_t)id;
}

static int read_cmp(const void *a, const void *b)
{
	const void *x = ((const struct read_node *)a)->osm;
	const void *y = ((const struct read_node *)b)->osm;

	return x < y ? -1 : x > y;
}

/* The ports of the nodes read this time to their partners, in the order
 * of OpenSM's node objects (a partner already linked stays). */
static void link_ports(struct decoder *dec)
{
	unsigned int i;
	size_t k;

	qsort(dec->read, dec->n_read, sizeof(*dec->read), read_cmp);
	for (k = 0; k < dec->n_read; k++) {
		struct oq_node *qn = dec->read[k].oq;
		const struct link_partner *partners =
			dec->partners + dec->read[k].first_partner;

		for (i = 1; i <= qn->n_ports; i++) {
			struct oq_node *rn;
			uint32_t id;

			if (!qn->ports[i].user ||
			    oq_port_peer(dec->f, &qn->ports[i]) ||
			    !partners[i].node)
				continue;
			id = base_id(dec->base, partners[i].node);
			rn = id != NO_NODE
				     ? dec->at[dec->base->at_of_id[id]]
				     : NULL;
			if (rn && partners[i].num <= rn->n_ports &&
			    rn->ports[partners[i].num].present)
				oq_fabric_link_in(dec->f, &qn->ports[i],
						  &rn->ports[partners[i].num]);
		}
	}
}

/* Whether node part a of one record and b of another are the same but
 * for the LFT. */
static bool same_node(const uint8_t *abuf, const struct base_node *a,
		      const uint8_t *bbuf, const struct base_node *b)
{
	struct node_record x, y;

	if (a->lft - a->start != b->lft - b->start ||
	    a->end - a->ports != b->end - b->ports)
		return false;
	memcpy(&x, abuf + a->start, sizeof(x));
	memcpy(&y, bbuf + b->start, sizeof(y));
	x.lft_n = y.lft_n = 0;
	return !memcmp(&x, &y, sizeof(x)) &&
	       !memcmp(abuf + a->start + sizeof(x), bbuf + b->start + sizeof(y),
		       a->lft - a->start - sizeof(x)) &&
	       !memcmp(abuf + a->ports, bbuf + b->ports, a->end - a->ports);
}

static bool same_lft(const uint8_t *abuf, const struct base_node *a,
		     const uint8_t *bbuf, const struct base_node *b)
{
	return a->ports - a->lft == b->ports - b->lft &&
	       !memcmp(abuf + a->lft, bbuf + b->lft, a->ports - a->lft);
}

/* Where node k's parts are, from the record's marks; false when they do
 * not make sense (then the record is not read). */
static bool node_parts(const struct oq_record *r, size_t k,
		       struct base_node *bn)
{
	const uint32_t *m = r->marks + 3 * k;

	bn->start = m[0];
	bn->lft = m[1];
	bn->ports = m[2];
	bn->end = m[3];
	return bn->start <= bn->lft && bn->lft <= bn->ports &&
	       bn->ports <= bn->end && bn->end <= r->len &&
	       bn->lft - bn->start >= sizeof(struct node_record);
}

/* prev's fabric's node of id, with its part of prev's record. */
static struct oq_node *prev_node(const struct oq_snapshot_base *prev,
				 uint32_t id, const struct base_node **pb)
{
	const struct oq_fabric *f = prev->fabric;

	if (id == NO_NODE || id >= f->n_node_ids ||
	    f->node_pos[id] >= f->n_nodes)
		return NULL;
	*pb = &prev->nodes[prev->at_of_id[id]];
	return f->nodes[f->node_pos[id]];
}

/* Node k of the record: prev's node when its part of the record is what
 * prev read (its routes set anew if they changed), else read. */
static int take_node(struct decoder *dec, const struct oq_record *r,
		     const struct oq_snapshot_base *prev, size_t k)
{
	struct base_node *bn = &dec->base->nodes[k];
	const struct base_node *pb = NULL;
	struct oq_node *was = NULL;
	struct node_record nr;
	int rc;

	bn->id = NO_NODE;
	if (!node_parts(r, k, bn))
		return -1;
	memcpy(&nr, dec->buf + bn->start, sizeof(nr));
	bn->osm = nr.node;
	if (!nr.seen)
		return 0;
	if (prev)
		was = prev_node(prev, base_id(prev, nr.node), &pb);
	if (was && same_node(prev->buf, pb, dec->buf, bn)) {
		bn->id = was->id;
		dec->at[k] = was;
		if (oq_fabric_share_node(dec->f, was))
			return -1;
		if (was->type != OQ_NODE_SWITCH ||
		    (!dec->lft_again &&
		     (!dec->with_lft || same_lft(prev->buf, pb, dec->buf, bn))))
			return 0;
		if (!dec->with_lft)
			return oq_fabric_set_lft(dec->f, was, NULL, 0);
		return oq_fabric_set_lft(dec->f, was,
					 nr.lft_n ? dec->buf + bn->lft : NULL,
					 nr.lft_n);
	}
	if (was && was->guid != cl_ntoh64(nr.guid))
		was = NULL;
	rc = read_node(dec, bn, &nr, was);
	dec->at[k] = rc ? NULL : dec->read[dec->n_read - 1].oq;
	return rc;
}

/*
 * The new base's node ids by OpenSM's node object: prev's, less the
 * nodes it had that are gone or came back under other ids, plus those
 * read under new ids; all of them put when there is no prev.
 */
static int index_base(struct oq_snapshot_base *base,
		      const struct oq_snapshot_base *prev)
{
	size_t k;
	int rc;

	if (prev) {
		if (oq_htab_copy(&base->by_osm, &prev->by_osm))
			return -ENOMEM;
		for (k = 0; k < prev->n; k++) {
			const struct base_node *pb = &prev->nodes[k];
			uint32_t id = pb->id;

			if (id == NO_NODE)
				continue;
			if (id < base->fabric->n_node_ids &&
			    base->at_of_id[id] != NO_NODE &&
			    base->nodes[base->at_of_id[id]].osm == pb->osm)
				continue;
			oq_htab_del(&base->by_osm, (uint64_t)(uintptr_t)pb->osm,
				    id);
		}
	}
	for (k = 0; k < base->n; k++) {
		const struct base_node *bn = &base->nodes[k];

		if (bn->id == NO_NODE ||
		    (prev && base_id(prev, bn->osm) == bn->id))
			continue;
		rc = oq_htab_put(&base->by_osm, (uint64_t)(uintptr_t)bn->osm,
				 bn->id, NULL);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void oq_snapshot_base_free(struct oq_snapshot_base *b)
{
	if (!b)
		return;
	free(b->buf);
	free(b->nodes);
	free(b->at_of_id);
	oq_htab_free(&b->by_osm);
	free(b);
}

/* The fabric, from prev's when prev is not NULL.  -EINVAL: a link of a
 * node shared with prev's fabric would be left dangling (read it all). */
static int build(const struct oq_record *r, bool with_lft,
		 const struct oq_snapshot_base *prev, struct oq_fabric **out,
		 struct oq_snapshot_base **base_out, size_t *n_read,
		 struct oq_diags *diags)
{
	struct decoder dec = {.with_lft = with_lft};
	struct subnet_record sr;
	struct oq_snapshot_base *base = NULL;
	size_t k, end;
	int rc = -ENOMEM;

	/* The record is whole unless an allocation failed writing it (then
	 * it is empty, or its marks are lost).  The snapshot's part comes
	 * first. */
	if (!r->len || r->marks_lost || r->len < sizeof(sr))
		goto fail;
	memcpy(&sr, r->buf, sizeof(sr));
	if (sr.n_nodes > (r->n_marks - 1) / 3 || r->n_marks < 1)
		goto fail;
	end = r->marks[3 * sr.n_nodes];
	if (end > r->len)
		goto fail;
	/* Another subnet head (the SM's port, the prefix, max_op_vls: every
	 * port's facts) is read afresh, and so is a fabric whose ids have
	 * spread over more than twice its nodes (nodes that left and came
	 * back as new objects): afresh, its ids are dense again. */
	if (prev &&
	    (memcmp(&prev->sr, &sr, offsetof(struct subnet_record, n_nodes)) ||
	     prev->fabric->n_node_ids > 2 * prev->fabric->n_nodes + 64))
		prev = NULL;
	dec.lft_again = prev && prev->with_lft != with_lft;
	base = calloc(1, sizeof(*base));
	if (!base)
		goto fail;
	base->sr = sr;
	base->with_lft = with_lft;
	base->n = sr.n_nodes;
	base->buf = malloc(end ? end : 1);
	base->nodes = calloc(sr.n_nodes ? sr.n_nodes : 1, sizeof(*base->nodes));
	dec.read = calloc(sr.n_nodes ? sr.n_nodes : 1, sizeof(*dec.read));
	dec.at = calloc(sr.n_nodes ? sr.n_nodes : 1, sizeof(*dec.at));
	if (!base->buf || !base->nodes || !dec.read || !dec.at)
		goto fail;
	memcpy(base->buf, r->buf, end);
	dec.buf = base->buf;
	dec.len = end;
	dec.base = base;
	dec.max_op_vls = sr.max_op_vls;
	dec.f = prev ? oq_fabric_derive(prev->fabric) : oq_fabric_new();
	if (!dec.f)
		goto fail;
	dec.f->sm_port_guid = sr.sm_port_guid;
	dec.f->subnet_prefix = sr.subnet_prefix;
	dec.f->live = true;
	for (k = 0; k < sr.n_nodes; k++)
		if (take_node(&dec, r, prev, k))
			goto fail;
	base->fabric = dec.f;
	base->at_of_id = malloc((dec.f->n_node_ids ? dec.f->n_node_ids : 1) *
				sizeof(*base->at_of_id));
	if (!base->at_of_id)
		goto fail;
	memset(base->at_of_id, 0xff,
	       dec.f->n_node_ids * sizeof(*base->at_of_id));
	for (k = 0; k < base->n; k++) {
		if (base->nodes[k].id == NO_NODE)
			continue;
		base->at_of_id[base->nodes[k].id] = (uint32_t)k;
	}
	if (index_base(base, prev))
		goto fail;
	link_ports(&dec);
	rc = oq_fabric_finalize(dec.f, diags);
	if (rc)
		goto fail;
	base->fabric = dec.f;
	*out = dec.f;
	*base_out = base;
	*n_read = dec.n_read;
	free(dec.at);
	free(dec.read);
	free(dec.partners);
	return 0;
fail:
	oq_fabric_free(dec.f);
	oq_snapshot_base_free(base);
	free(dec.at);
	free(dec.read);
	free(dec.partners);
	return rc == -EINVAL ? rc : -ENOMEM;
}

struct oq_fabric *oq_snapshot_build(const struct oq_record *r, bool with_lft,
				    const struct oq_snapshot_base *prev,
				    struct oq_snapshot_base **base,
				    size_t *n_read, struct oq_diags *diags)
{
	struct oq_fabric *f = NULL;
	int rc;

	*base = NULL;
	*n_read = 0;
	rc = build(r, with_lft, prev, &f, base, n_read, diags);
	if (rc == -EINVAL && prev)
		rc = build(r, with_lft, NULL, &f, base, n_read, diags);
	if (!rc)
		return f;
	/* Every failure is an allocation's: a record cut short is one that
	 * could not be written whole, and OpenSM's nodes keep within the
	 * bounds checked. */
	errno = ENOMEM;
	return NULL;
}
