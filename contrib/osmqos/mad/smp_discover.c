// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Breadth-first discovery with directed-route SMPs, as ibnetdiscover does
 * it: from the local node, through every switch port that is not DOWN;
 * CAs and routers are end points (their other ports are found through
 * their own links).  Then the fabric model, field by field as
 * plugin/snapshot.c fills it from OpenSM's copies of these attributes.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smp_discover.h"

/* More nodes than any fabric OpenSM manages: a walk that loops. */
#define MAX_NODES 65536

struct walk {
	struct oq_smp_port *smp;
	struct oq_live_fabric *lf;
	size_t *queue;
	size_t q_head, q_tail, q_cap;
};

/* One Get; failures are counted and the first one kept for the report. */
static int walk_get(struct walk *w, const struct oq_dr_path *path,
		    uint16_t attr, uint32_t mod, uint8_t *data)
{
	struct oq_live_fabric *lf = w->lf;
	char err[512], dr[256];
	int rc;

	memset(data, 0, OQ_SMP_DATA_SIZE);
	rc = oq_smp_query(w->smp, OQ_SMP_METHOD_GET, path, attr, mod, data, err,
			  sizeof(err));
	if (!rc)
		return 0;
	if (rc > 0) {
		oq_dr_path_format(path, dr, sizeof(dr));
		snprintf(err, sizeof(err),
			 "SMP Get of attribute 0x%04x (modifier 0x%x) along "
			 "directed route %s answered status 0x%04x; check the "
			 "node with smpquery -D",
			 attr, mod, dr, rc);
	}
	if (!lf->errors++)
		snprintf(lf->first_error, sizeof(lf->first_error), "%s", err);
	return -1;
}

static struct oq_live_node *find_node(struct oq_live_fabric *lf, uint64_t guid,
				      size_t *idx)
{
	size_t i;

	for (i = 0; i < lf->n; i++) {
		if (lf->nodes[i].ni.node_guid == guid) {
			*idx = i;
			return &lf->nodes[i];
		}
	}
	return NULL;
}

static int push(struct walk *w, size_t idx)
{
	if (w->q_tail == w->q_cap) {
		size_t cap = w->q_cap ? w->q_cap * 2 : 64;
		size_t *q = realloc(w->queue, cap * sizeof(*q));

		if (!q)
			return -1;
		w->queue = q;
		w->q_cap = cap;
	}
	w->queue[w->q_tail++] = idx;
	return 0;
}

static int read_port_info(struct walk *w, struct oq_live_node *n, uint8_t num,
			  const struct oq_dr_path *path)
{
	struct oq_live_port *lp = &n->ports[num];
	uint8_t d[OQ_SMP_DATA_SIZE];

	lp->path = *path;
	if (walk_get(w, path, OQ_SMP_ATTR_PORT_INFO, num, d))
		return -1;
	oq_smp_parse_port_info(d, &lp->pi);
	lp->seen = true;
	return 0;
}

/* A node seen for the first time: its description, and for a switch its
 * SwitchInfo and every port's PortInfo.  Returns its index, or -1 when
 * out of memory or over MAX_NODES. */
static long add_node(struct walk *w, const struct oq_smp_node_info *ni,
		     const struct oq_dr_path *path)
{
	struct oq_live_fabric *lf = w->lf;
	struct oq_live_node *n;
	uint8_t d[OQ_SMP_DATA_SIZE];
	unsigned int i;

	if (lf->n >= MAX_NODES)
		return -1;
	if (lf->n == lf->cap) {
		size_t cap = lf->cap ? lf->cap * 2 : 64;
		struct oq_live_node *v = realloc(lf->nodes, cap * sizeof(*v));

		if (!v)
			return -1;
		lf->nodes = v;
		lf->cap = cap;
	}
	n = &lf->nodes[lf->n];
	memset(n, 0, sizeof(*n));
	n->ni = *ni;
	n->path = *path;
	n->ports = calloc((size_t)ni->n_ports + 1, sizeof(*n->ports));
	if (!n->ports)
		return -1;
	lf->n++;
	if (!walk_get(w, path, OQ_SMP_ATTR_NODE_DESC, 0, d))
		oq_smp_parse_node_desc(d, n->desc);
	if (ni->node_type != OQ_NODE_SWITCH)
		return (long)(lf->n - 1);
	if (!walk_get(w, path, OQ_SMP_ATTR_SWITCH_INFO, 0, d))
		oq_smp_parse_switch_info(d, &n->si);
	for (i = 0; i <= ni->n_ports; i++)
		read_port_info(w, n, (uint8_t)i, path);
	return (long)(lf->n - 1);
}

static bool valid_type(uint8_t t)
{
	return t == OQ_NODE_CA || t == OQ_NODE_SWITCH || t == OQ_NODE_ROUTER;
}

/* A CA/router port reached through path: its PortGUID and PortInfo. */
static void end_port(struct walk *w, struct oq_live_node *n,
		     const struct oq_smp_node_info *ni,
		     const struct oq_dr_path *path)
{
	struct oq_live_port *lp = &n->ports[ni->local_port];

	if (lp->seen)
		return;
	lp->guid = ni->port_guid;
	read_port_info(w, n, ni->local_port, path);
}

static void link_ports(struct oq_live_fabric *lf, size_t a, uint8_t ap,
		       size_t b, uint8_t bp)
{
	struct oq_live_port *x = &lf->nodes[a].ports[ap];
	struct oq_live_port *y = &lf->nodes[b].ports[bp];

	x->has_peer = y->has_peer = true;
	x->peer_node = b;
	x->peer_port = bp;
	y->peer_node = a;
	y->peer_port = ap;
}

/* Look out of port num of node idx.  -1 only when out of memory. */
static int probe(struct walk *w, size_t idx, uint8_t num)
{
	struct oq_live_fabric *lf = w->lf;
	struct oq_smp_node_info ni;
	struct oq_dr_path path;
	uint8_t d[OQ_SMP_DATA_SIZE];
	struct oq_live_node *n;
	size_t at;
	long added;

	if (lf->nodes[idx].ports[num].has_peer)
		return 0;
	if (oq_dr_path_extend(&lf->nodes[idx].path, num, &path))
		return 0; /* deeper than a directed route reaches */
	if (walk_get(w, &path, OQ_SMP_ATTR_NODE_INFO, 0, d))
		return 0;
	oq_smp_parse_node_info(d, &ni);
	/* Reached over a link: the port it came in on is an external one. */
	if (!valid_type(ni.node_type) || !ni.local_port ||
	    ni.local_port > ni.n_ports) {
		if (!lf->errors++)
			snprintf(lf->first_error, sizeof(lf->first_error),
				 "node 0x%016" PRIx64 " beyond port %u of "
				 "\"%s\" sent an invalid NodeInfo (type %u, "
				 "local port %u of %u)",
				 ni.node_guid, num, lf->nodes[idx].desc,
				 ni.node_type, ni.local_port, ni.n_ports);
		return 0;
	}
	n = find_node(lf, ni.node_guid, &at);
	if (n &&
	    (n->ni.node_type != ni.node_type || n->ni.n_ports != ni.n_ports))
		n = NULL; /* a GUID clash; the model will report it */
	if (!n) {
		added = add_node(w, &ni, &path);
		if (added < 0)
			return -1;
		at = (size_t)added;
		n = &lf->nodes[at];
		if (ni.node_type == OQ_NODE_SWITCH && push(w, at))
			return -1;
	}
	if (ni.node_type != OQ_NODE_SWITCH)
		end_port(w, n, &ni, &path);
	link_ports(lf, idx, num, at, ni.local_port);
	return 0;
}

/* The node SMPs with hop count 0 reach: the local one. */
static int local_node(struct walk *w, char *err, size_t errlen)
{
	struct oq_live_fabric *lf = w->lf;
	struct oq_smp_node_info ni;
	struct oq_dr_path here;
	uint8_t d[OQ_SMP_DATA_SIZE];
	long idx;

	memset(&here, 0, sizeof(here));
	if (walk_get(w, &here, OQ_SMP_ATTR_NODE_INFO, 0, d)) {
		snprintf(err, errlen, "the local node does not answer: %s",
			 lf->first_error);
		return -1;
	}
	oq_smp_parse_node_info(d, &ni);
	if (!valid_type(ni.node_type) || ni.local_port > ni.n_ports ||
	    (ni.node_type != OQ_NODE_SWITCH && !ni.local_port)) {
		snprintf(err, errlen,
			 "the local node's NodeInfo is invalid (type %u, "
			 "port %u of %u); check the HCA with ibstat",
			 ni.node_type, ni.local_port, ni.n_ports);
		return -1;
	}
	idx = add_node(w, &ni, &here);
	if (idx < 0 || push(w, (size_t)idx)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	lf->local_node = (size_t)idx;
	lf->local_port = ni.local_port;
	if (ni.node_type != OQ_NODE_SWITCH)
		end_port(w, &lf->nodes[idx], &ni, &here);
	return 0;
}

int oq_live_discover(struct oq_smp_port *p, struct oq_live_fabric *lf,
		     char *err, size_t errlen)
{
	struct walk w = {.smp = p, .lf = lf};
	unsigned int i;

	memset(lf, 0, sizeof(*lf));
	if (local_node(&w, err, errlen))
		goto fail;
	while (w.q_head < w.q_tail) {
		size_t idx = w.queue[w.q_head++];
		const struct oq_live_node *n = &lf->nodes[idx];
		/* probe() may grow (move) the node array: n is only good
		 * until the first probe. */
		unsigned int n_ports = n->ni.n_ports;

		if (n->ni.node_type != OQ_NODE_SWITCH) {
			/* Only the local CA/router: out of its own port. */
			if (n->ports[lf->local_port].seen &&
			    n->ports[lf->local_port].pi.port_state >
				    OQ_SMP_PORT_DOWN &&
			    probe(&w, idx, lf->local_port))
				goto nomem;
			continue;
		}
		for (i = 1; i <= n_ports; i++) {
			/* n may move when probe() grows the node array. */
			const struct oq_live_port *lp =
				&lf->nodes[idx].ports[i];

			if (!lp->seen || lp->pi.port_state <= OQ_SMP_PORT_DOWN)
				continue;
			if (probe(&w, idx, (uint8_t)i))
				goto nomem;
		}
	}
	free(w.queue);
	return 0;
nomem:
	snprintf(err, errlen,
		 "out of memory (or more than %d nodes) during discovery",
		 MAX_NODES);
fail:
	free(w.queue);
	oq_live_free(lf);
	return -1;
}

/* cap_mask: the CapabilityMask that says whether extended speeds apply
 * (see oq_smp_port_speed()). */
static void fill_port(struct oq_port *port, const struct oq_live_port *lp,
		      bool is_switch, uint32_t cap_mask)
{
	const struct oq_smp_port_info *pi = &lp->pi;

	port->present = true;
	port->width = pi->width;
	port->speed = oq_smp_port_speed(pi, cap_mask);
	port->mtu_cap = pi->mtu_cap;
	port->vl_cap = pi->vl_cap;
	port->oper_vls = pi->oper_vls;
	port->vlarb_high_cap = pi->vlarb_high_cap;
	port->vlarb_low_cap = pi->vlarb_low_cap;
	port->sl2vl_cap = is_switch || (pi->cap_mask & OQ_SMP_CAP_HAS_SL_MAP);
	port->cap_mask = pi->cap_mask;
	port->cap_mask2 = pi->cap_mask2;
	port->user = (void *)lp;
}

static int add_model_node(struct oq_fabric *f, struct oq_live_node *ln)
{
	bool sw = ln->ni.node_type == OQ_NODE_SWITCH;
	const struct oq_live_port *p0 = &ln->ports[0];
	struct oq_node *n;
	unsigned int i;

	n = oq_fabric_add_node(f, (enum oq_node_type)ln->ni.node_type,
			       ln->ni.node_guid, ln->desc, ln->ni.n_ports);
	if (!n)
		return -1;
	n->user = ln;
	n->enhanced_port0 = sw && ln->si.enhanced_port0;
	for (i = sw ? 0 : 1; i <= ln->ni.n_ports; i++) {
		const struct oq_live_port *lp = &ln->ports[i];
		struct oq_port *port = &n->ports[i];

		if (!lp->seen)
			continue;
		fill_port(port, lp, sw,
			  sw && i && p0->seen ? p0->pi.cap_mask
					      : lp->pi.cap_mask);
		if (sw) {
			/* External ports carry port 0's GUID and LID. */
			port->guid = ln->ni.port_guid;
			port->lid = p0->pi.lid;
			port->lmc = p0->pi.lmc;
		} else {
			port->guid = lp->guid;
			port->lid = lp->pi.lid;
			port->lmc = lp->pi.lmc;
		}
	}
	return 0;
}

int oq_live_build(struct oq_live_fabric *lf, struct oq_diags *diags)
{
	const struct oq_live_port *here;
	const struct oq_port *sm;
	struct oq_fabric *f = oq_fabric_new();
	size_t i;
	unsigned int j;

	if (!f)
		return -1;
	for (i = 0; i < lf->n; i++) {
		if (add_model_node(f, &lf->nodes[i])) {
			oq_fabric_free(f);
			return -1;
		}
	}
	for (i = 0; i < lf->n; i++) {
		const struct oq_live_node *ln = &lf->nodes[i];

		for (j = 1; j <= ln->ni.n_ports; j++) {
			const struct oq_live_port *lp = &ln->ports[j];

			if (!lp->has_peer || lp->peer_node < i)
				continue;
			oq_fabric_link(
				&f->nodes[i]->ports[j],
				&f->nodes[lp->peer_node]->ports[lp->peer_port]);
		}
	}
	here = &lf->nodes[lf->local_node].ports[lf->local_port];
	f->subnet_prefix = here->pi.gid_prefix;
	f->live = true;
	if (oq_fabric_finalize(f, diags)) {
		oq_fabric_free(f);
		return -1;
	}
	/* The SM's port: the end port holding the SM LID the local port
	 * knows (node-type SELF groups need it; nothing reads it before). */
	sm = here->pi.sm_lid ? oq_fabric_port_by_lid(f, here->pi.sm_lid) : NULL;
	if (sm)
		f->sm_port_guid = sm->guid;
	lf->fabric = f;
	return 0;
}

void oq_live_free(struct oq_live_fabric *lf)
{
	size_t i;

	oq_fabric_free(lf->fabric);
	for (i = 0; i < lf->n; i++)
		free(lf->nodes[i].ports);
	free(lf->nodes);
	memset(lf, 0, sizeof(*lf));
}
