// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The path walk of OpenSM's SA (pr_rcv_get_path_parms() in
 * osm_sa_path_record.c, 3.3.23), on the fabric model.  The order of the
 * checks matters for byte-identical answers, so it follows OpenSM's code
 * step by step, quirks included:
 *
 *  - a source switch contributes its port 0's MTU and rate, not those of
 *    the egress port it routes through;
 *  - every later switch contributes its ingress and its egress port;
 *  - the destination port contributes last (a switch: port 0);
 *  - SL2VL is read at each egress with the ingress port number (input
 *    port 0 at the source, whatever node it is).
 */
#include <osmqos/path.h>

/* osm_switch_get_route_by_lid(): the physical port the LFT names, NULL
 * when there is no entry or the port does not exist. */
static const struct oq_port *route(const struct oq_fabric *f,
				   const struct oq_node *n, uint16_t dlid)
{
	uint8_t p = oq_node_lft_port(f, n, dlid);

	if (p == OQ_LFT_NONE || p > n->n_ports || !n->ports[p].present)
		return NULL;
	return &n->ports[p];
}

/*
 * SLs that the SL2VL of egress port out maps to VL15 for input port in.
 * Tables OpenSM never reads or programs hold zeros (every SL -> VL0):
 * a port without SL2VL capability and a base (non-enhanced) switch
 * port 0.
 */
static uint16_t sl_drops(const struct oq_fabric *f,
			 const struct oq_fabric_tables *t,
			 const struct oq_port *out, unsigned int in)
{
	const struct oq_port_tables *pt;
	unsigned int idx;
	uint32_t oi = oq_port_index(f, out);

	if (!t || !t->ports || oi >= t->n)
		return 0;
	if (t->no_drop && oq_fabric_tables_no_drop(t, oi))
		return 0; /* the usual case: one bit, not the tables */
	pt = &t->ports[oi];
	if (pt->port && pt->port != out)
		return 0; /* compiled for another fabric */
	if (!pt->has_sl2vl || !pt->sl2vl || !pt->n_sl2vl)
		return 0;
	if (out->node->type == OQ_NODE_SWITCH && out->num == 0 &&
	    !out->node->enhanced_port0)
		return 0;
	idx = pt->n_sl2vl == 1 ? 0 : in;
	if (idx >= pt->n_sl2vl)
		return 0;
	if (pt->sl2vl_drop)
		return pt->sl2vl_drop[idx];
	return oq_sl2vl_row_drops(pt->sl2vl[idx]);
}

/* Track the most restrictive MTU and rate, as OpenSM does per port. */
static void narrow(struct oq_path *out, const struct oq_port *p)
{
	uint8_t r = oq_path_port_rate(p);

	if (out->mtu > p->mtu_cap)
		out->mtu = p->mtu_cap;
	if (oq_path_rate_cmp(out->rate, r) > 0)
		out->rate = r;
}

static enum oq_path_status fail(struct oq_path *out, enum oq_path_status s,
				const struct oq_node *where)
{
	out->status = s;
	out->stuck = where;
	return s;
}

/* Apply one SL2VL lookup; false when no SL is left. */
static bool check_sls(const struct oq_fabric *f, struct oq_path *out,
		      const struct oq_fabric_tables *t,
		      const struct oq_port *egress, unsigned int in)
{
	out->sl_mask &= (uint16_t)~sl_drops(f, t, egress, in);
	return out->sl_mask != 0;
}

static const struct oq_port *base_port(const struct oq_port *p)
{
	return p->node->type == OQ_NODE_SWITCH ? &p->node->ports[0] : p;
}

enum oq_path_status oq_path_resolve(const struct oq_fabric *f,
				    const struct oq_fabric_tables *tables,
				    const struct oq_port *src, uint16_t dlid,
				    const struct oq_path_opts *opts,
				    struct oq_path *out)
{
	const struct oq_port *p, *dest, *dst;
	unsigned int in;

	if (!out)
		return OQ_PATH_INVALID;
	/* Every field but the hop array, which is written up to n_hop: an
	 * SA answer walks each LID pair's path twice (forward and reverse),
	 * and clearing 66 unused hops each time cost more than the walk. */
	out->status = OQ_PATH_OK;
	out->src = NULL;
	out->dst = NULL;
	out->dlid = dlid;
	out->hops = 0;
	out->n_hop = 0;
	out->mtu = 0;
	out->rate = 0;
	out->pkt_life = 0;
	out->sl_mask = OQ_PATH_ALL_SLS;
	out->stuck = NULL;
	if (!f || !src || !src->node || !oq_port_is_endport(src))
		return fail(out, OQ_PATH_INVALID, NULL);
	out->src = src;
	dst = oq_fabric_port_by_lid(f, dlid);
	if (!dst)
		return fail(out, OQ_PATH_NO_DEST, NULL);
	dst = base_port(dst);
	out->dst = dst;

	out->mtu = src->mtu_cap;
	out->rate = oq_path_port_rate(src);
	out->pkt_life = opts ? opts->subnet_timeout : OQ_SUBNET_TIMEOUT_DEFAULT;
	if (src == dst)
		out->pkt_life = 0; /* IBA table 205: loopback */

	p = src;
	if (src->node->type == OQ_NODE_SWITCH) {
		p = route(f, src->node, dlid);
		if (!p)
			return fail(out, OQ_PATH_NO_ROUTE, src->node);
		out->hop[out->n_hop].in = NULL;
		out->hop[out->n_hop++].out = p;
	}
	/* The source node, switch or not, looks up SL2VL with in port 0. */
	if (tables && !check_sls(f, out, tables, p, 0))
		return fail(out, OQ_PATH_NO_SL, src->node);

	dest = dst;
	if (dst->node->type == OQ_NODE_SWITCH) {
		dest = route(f, dst->node, dlid);
		if (!dest)
			return fail(out, OQ_PATH_NO_ROUTE, dst->node);
	}

	while (p != dest) {
		const struct oq_node *from = p->node;
		const struct oq_port *ingress;

		p = oq_port_peer(f, p);
		if (!p || !p->node)
			return fail(out, OQ_PATH_DEAD_LINK, from);
		in = p->num;
		if (p == dest)
			break; /* point to point, or the last link */
		if (p->node->type != OQ_NODE_SWITCH)
			return fail(out, OQ_PATH_BAD_PATH, p->node);
		narrow(out, p);
		ingress = p;
		p = route(f, ingress->node, dlid);
		if (!p)
			return fail(out, OQ_PATH_NO_ROUTE, ingress->node);
		narrow(out, p);
		if (tables && !check_sls(f, out, tables, p, in))
			return fail(out, OQ_PATH_NO_SL, p->node);
		out->hops++;
		if (out->hops > OQ_PATH_MAX_HOPS)
			return fail(out, OQ_PATH_TOO_LONG, p->node);
		out->hop[out->n_hop].in = ingress;
		out->hop[out->n_hop++].out = p;
	}
	narrow(out, p);
	out->status = OQ_PATH_OK;
	return OQ_PATH_OK;
}

const char *oq_path_status_name(enum oq_path_status s)
{
	static const char *const names[] = {
		[OQ_PATH_OK] = "ok",
		[OQ_PATH_INVALID] = "invalid request",
		[OQ_PATH_NO_DEST] = "no port has the destination LID",
		[OQ_PATH_NO_ROUTE] = "no LFT route",
		[OQ_PATH_DEAD_LINK] = "egress port not linked",
		[OQ_PATH_BAD_PATH] = "route ends at a wrong end port",
		[OQ_PATH_TOO_LONG] = "more than 64 hops (routing loop)",
		[OQ_PATH_NO_SL] = "every SL reaches VL15",
	};

	if ((unsigned int)s >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[s];
}

size_t oq_path_lid_pairs(const struct oq_port *src, const struct oq_port *dst,
			 uint16_t slid, uint16_t dlid,
			 struct oq_lid_pair *pairs, size_t cap)
{
	uint32_t smin, smax, dmin, dmax, s, d, so, dof;
	size_t n = 0;

	if (!src || !dst)
		return 0;
	src = base_port(src);
	dst = base_port(dst);
	/* osm_port_get_lid_range_ho(), or the request's fixed LID. */
	smin = slid ? slid : src->lid;
	smax = slid ? slid : smin + (1u << (src->lmc & 7)) - 1;
	dmin = dlid ? dlid : dst->lid;
	dmax = dlid ? dlid : dmin + (1u << (dst->lmc & 7)) - 1;
	if (!smin || !dmin)
		return 0;

#define EMIT(a, b, pref)                                                       \
	do {                                                                   \
		if (n < cap) {                                                 \
			pairs[n].slid = (uint16_t)(a);                         \
			pairs[n].dlid = (uint16_t)(b);                         \
			pairs[n].preference = (pref);                          \
		}                                                              \
		n++;                                                           \
	} while (0)

	/* Preference 0: both ends step together. */
	for (s = smin, d = dmin;;) {
		EMIT(s, d, 0);
		if (++s > smax || ++d > dmax)
			break;
	}
	/* Preference 2: the rest, skipping the pairs already given. */
	s = smin;
	d = dmin;
	so = dof = 0;
	for (;;) {
		dof++;
		d++;
		if (d > dmax) {
			so++;
			s++;
			if (s > smax)
				break;
			dof = 0;
			d = dmin;
		}
		if (so == dof)
			continue;
		EMIT(s, d, 2);
	}
#undef EMIT
	return n;
}
