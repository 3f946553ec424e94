// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * MultiPathRecord requests (osm_sa_multipath_record.c, OpenSM 3.3.23):
 * the GID lists, every source x destination pair in order up to NumbPath
 * records, and the APM case (2 sources, 2 destinations, NumbPath 2) where
 * OpenSM picks one diagonal of the 2x2 matrix.  The records are
 * PathRecords built like PathRecord answers, except that GIDs are never
 * echoed from the request.
 */
#include <string.h>

#include <osmqos/sa_path.h>

#include "sa_path_int.h"

/* MultiPathRecord comp-mask bits and the PathRecord bit each maps to. */
static const struct {
	uint64_t mpr, pr;
} cm_map[] = {
	{OQ_MPR_CM_RAWTRAFFIC, OQ_PR_CM_RAWTRAFFIC},
	{OQ_MPR_CM_REVERSIBLE, OQ_PR_CM_REVERSIBLE},
	{OQ_MPR_CM_NUMBPATH, OQ_PR_CM_NUMBPATH},
	{OQ_MPR_CM_PKEY, OQ_PR_CM_PKEY},
	{OQ_MPR_CM_QOS_CLASS, OQ_PR_CM_QOS_CLASS},
	{OQ_MPR_CM_SL, OQ_PR_CM_SL},
	{OQ_MPR_CM_MTUSELEC, OQ_PR_CM_MTUSELEC},
	{OQ_MPR_CM_MTU, OQ_PR_CM_MTU},
	{OQ_MPR_CM_RATESELEC, OQ_PR_CM_RATESELEC},
	{OQ_MPR_CM_RATE, OQ_PR_CM_RATE},
	{OQ_MPR_CM_PKTLIFETIMESELEC, OQ_PR_CM_PKTLIFETIMESELEC},
	{OQ_MPR_CM_PKTLIFETIME, OQ_PR_CM_PKTLIFETIME},
	{OQ_MPR_CM_SERVICEID_MSB, OQ_PR_CM_SERVICEID_MSB},
	{OQ_MPR_CM_SERVICEID_LSB, OQ_PR_CM_SERVICEID_LSB},
};

#define MAX_GIDS     11	 /* IB_MULTIPATH_MAX_GIDS: what fits one MAD */
#define MAX_NUM_PATH 127 /* OSM_SA_MPR_MAX_NUM_PATH */

void oq_sa_want_from_mpr(struct oq_pr_want *w, uint64_t cm, const uint8_t *m)
{
	uint64_t pcm = 0;
	size_t i;

	for (i = 0; i < sizeof(cm_map) / sizeof(cm_map[0]); i++)
		if (cm & cm_map[i].mpr)
			pcm |= cm_map[i].pr;
	memset(w, 0, sizeof(*w));
	w->comp_mask = pcm;
	w->raw = (cm & OQ_MPR_CM_RAWTRAFFIC) && (m[OQ_MPR_OFF_HFR] & 0x80);
	w->pkey = oq_get16(m + OQ_MPR_OFF_PKEY);
	w->sl = m[OQ_MPR_OFF_QOS_SL + 1] & 0xf;
	w->qos_class = (uint16_t)(oq_get16(m + OQ_MPR_OFF_QOS_SL) >> 4);
	w->mtu = m[OQ_MPR_OFF_MTU] & 0x3f;
	w->mtu_sel = m[OQ_MPR_OFF_MTU] >> 6;
	w->rate = m[OQ_MPR_OFF_RATE] & 0x3f;
	w->rate_sel = m[OQ_MPR_OFF_RATE] >> 6;
	w->life = m[OQ_MPR_OFF_LIFE] & 0x3f;
	w->life_sel = m[OQ_MPR_OFF_LIFE] >> 6;
	w->sid = (uint64_t)m[OQ_MPR_OFF_SID_MSB] << 56;
	for (i = 0; i < 7; i++)
		w->sid |= (uint64_t)m[OQ_MPR_OFF_SID_LSB + i] << (48 - 8 * i);
	w->has_sid = oq_cm_all(cm, OQ_MPR_CM_SERVICEID);
	w->mpr = true;
}

static bool is_link_local(const uint8_t *gid)
{
	return gid[0] == 0xfe && (gid[1] & 0xc0) == 0x80;
}

/* mpr_rcv_get_gids(): every GID must name a known port of this subnet. */
static uint16_t get_gids(const struct oq_sa_view *v, const uint8_t *gids, int n,
			 bool is_sgid, const struct oq_alias **out)
{
	int i;

	for (i = 0; i < n; i++, gids += 16) {
		if (!is_link_local(gids) &&
		    ((is_sgid && gids[0] == 0xff) ||
		     oq_get64(gids) != v->subnet_prefix))
			return OQ_SA_ST_INVALID_GID;
		out[i] = oq_alias_find(v->aliases, v->n_aliases,
				       oq_get64(gids + 8));
		if (!out[i])
			return OQ_SA_ST_INVALID_GID;
	}
	return 0;
}

/* A sink that keeps what one APM pair produced, for the diagonal
 * choice. */
struct apm_cell {
	bool has;
	bool hidden; /* the requester may not see this pair */
	uint8_t rec[OQ_PR_REC_SIZE];
	unsigned int hops;
	struct oq_pr_pair pair;
};

static int cell_record(void *ctx, const uint8_t *rec)
{
	struct apm_cell *c = ctx;

	memcpy(c->rec, rec, OQ_PR_REC_SIZE);
	c->has = true;
	return 0;
}

/* Network-order GUIDs compared as host integers, as OpenSM does. */
static bool guid_less(const struct oq_alias *a, const struct oq_alias *b)
{
	return __builtin_bswap64(a->port->guid) <
	       __builtin_bswap64(b->port->guid);
}

static unsigned int hash_lids(unsigned int a, unsigned int b, unsigned int lmc)
{
	return (((a >> lmc) << 4) | (b >> lmc)) % 103;
}

/*
 * mpr_rcv_get_apm_port_pair_paths(): the first LID pair that works,
 * starting at base_offs, in both LID ranges in step.  OpenSM 3.3.23 skips
 * the requester's P_Key visibility checks in this branch (its normal MPR
 * branch has them, osm_sa_multipath_record.c:998), so a requester could
 * learn paths between ports it shares no partition with.  osmqos checks
 * here as everywhere else: the one place its answers are deliberately
 * stricter than stock OpenSM's (docs/sa-front.md).
 */
static void apm_pair(struct oq_sa_answering *r, const struct oq_alias *s,
		     const struct oq_alias *d, unsigned int base_offs,
		     struct apm_cell *c)
{
	const struct oq_port *sp = oq_sa_base_port(s->port);
	const struct oq_port *dp = oq_sa_base_port(d->port);
	struct oq_pr_sink sink = {cell_record, NULL, c};
	const struct oq_pr_sink *real = r->sink;
	struct oq_path fwd;
	unsigned int sl = 1u << (sp->lmc & 7), dl = 1u << (dp->lmc & 7);
	unsigned int it = sl < dl ? sl : dl;
	unsigned int so = base_offs % sl, dof = base_offs % dl;
	struct oq_decision rev;

	memset(c, 0, sizeof(*c));
	c->pair.src = s;
	c->pair.dst = d;
	c->pair.reason = OQ_PR_NO_PATH;
	c->pair.d.rule = -1;
	c->pair.d.level = -1;
	if (!sp->lid || !dp->lid)
		return;
	/* Hidden: what the requester may not see (no record and no audit
	 * line). */
	if (!r->requester ||
	    !oq_ports_pkey_visible(r->v->fabric, r->requester, s->port,
				   r->v->allow_both_pkeys) ||
	    !oq_ports_pkey_visible(r->v->fabric, r->requester, d->port,
				   r->v->allow_both_pkeys)) {
		c->hidden = true;
		return;
	}
	/* Two ports without a common P_Key have no path, raw traffic or
	 * not, as OpenSM finds them: that diagonal is empty for its choice
	 * too, not hidden. */
	if (!oq_ports_pkey_visible(r->v->fabric, s->port, d->port,
				   r->v->allow_both_pkeys))
		return;
	oq_sa_decide(r->v, &r->w, s->port, d->port, &c->pair.d);
	oq_sa_decide(r->v, &r->w, d->port, s->port, &rev);
	r->sink = &sink;
	r->fwd = &fwd;
	while (it--) {
		if (oq_sa_lid_pair(r, &c->pair, &rev, (uint16_t)(sp->lid + so),
				   (uint16_t)(dp->lid + dof), 0)) {
			/* The hop count of the path that won; the walk
			 * itself does not outlive this call. */
			c->hops = c->pair.path->hops;
			c->pair.path = NULL;
			break;
		}
		if (++so >= sl)
			so = 0;
		if (++dof >= dl)
			dof = 0;
	}
	r->fwd = NULL;
	r->sink = real;
}

static void emit_cell(struct oq_sa_answering *r, struct apm_cell *c)
{
	if (c->has && !r->stop) {
		if (r->sink->record(r->sink->ctx, c->rec))
			r->stop = true;
		else
			r->count++;
	}
	if (r->sink->pair && !c->hidden)
		r->sink->pair(r->sink->ctx, &c->pair);
}

/* A diagonal with no record because the requester may not see one of its
 * pairs (OpenSM, which has no such check here, never has one). */
static bool hidden_empty(const struct apm_cell *x, const struct apm_cell *y)
{
	return !x->has && !y->has && (x->hidden || y->hidden);
}

/* mpr_rcv_get_apm_paths(): two disjoint paths, the diagonal with the
 * shorter shortest path, among the diagonals the requester may see. */
static void apm_paths(struct oq_sa_answering *r, const struct oq_alias **g)
{
	const struct oq_alias *a[4];
	struct apm_cell m[2][2];
	unsigned int base, sa_lid, da_lid, sum_a = 0, sum_b = 0;
	unsigned int min_a = 0, min_b = 0;

	a[0] = guid_less(g[0], g[1]) ? g[0] : g[1];
	a[1] = a[0] == g[0] ? g[1] : g[0];
	a[2] = guid_less(g[2], g[3]) ? g[2] : g[3];
	a[3] = a[2] == g[2] ? g[3] : g[2];
	/* OpenSM hashes osm_port_get_base_lid(), which is in network byte
	 * order: so do we, or the offsets (and the answers) differ. */
	sa_lid = __builtin_bswap16(oq_sa_base_port(a[0]->port)->lid);
	da_lid = __builtin_bswap16(oq_sa_base_port(a[2]->port)->lid);
	base = sa_lid < da_lid ? hash_lids(sa_lid, da_lid, r->v->lmc)
			       : hash_lids(da_lid, sa_lid, r->v->lmc);

	apm_pair(r, a[0], a[2], base, &m[0][0]);
	apm_pair(r, a[0], a[3], base, &m[0][1]);
	apm_pair(r, a[1], a[2], base + 1, &m[1][0]);
	apm_pair(r, a[1], a[3], base + 1, &m[1][1]);

	if (m[0][0].has) {
		sum_a += m[0][0].hops;
		min_a = m[0][0].hops;
	}
	if (m[1][1].has) {
		sum_a += m[1][1].hops;
		min_a = min_a && min_a < m[1][1].hops ? min_a : m[1][1].hops;
	}
	if (m[0][1].has) {
		sum_b += m[0][1].hops;
		min_b = m[0][1].hops;
	}
	if (m[1][0].has) {
		sum_b += m[1][0].hops;
		min_b = min_b && min_b < m[1][0].hops ? min_b : m[1][0].hops;
	}
	if (hidden_empty(&m[0][0], &m[1][1]) &&
	    (m[0][1].has || m[1][0].has)) {
		/* Only the requester's visibility emptied this diagonal:
		 * OpenSM's "min hops 0" would pick it over visible paths. */
		emit_cell(r, &m[0][1]);
		emit_cell(r, &m[1][0]);
	} else if (hidden_empty(&m[0][1], &m[1][0]) &&
		   (m[0][0].has || m[1][1].has)) {
		emit_cell(r, &m[0][0]);
		emit_cell(r, &m[1][1]);
	} else if (min_a <= min_b || (min_a == min_b && sum_a < sum_b)) {
		emit_cell(r, &m[0][0]);
		emit_cell(r, &m[1][1]);
	} else {
		emit_cell(r, &m[0][1]);
		emit_cell(r, &m[1][0]);
	}
}

enum oq_pr_outcome
oq_sa_multipath_record(const struct oq_sa_view *v, uint8_t method,
		       bool rmpp_active, uint64_t cm, const uint8_t *m,
		       size_t len, const struct oq_port *requester,
		       const struct oq_pr_sink *sink, uint16_t *status)
{
	struct oq_sa_answering r = {
		.v = v, .sink = sink, .method = method, .requester = requester};
	const struct oq_alias *g[MAX_GIDS];
	unsigned int max_paths, total = 0, rate, mtu;
	int nsrc = 0, ndst = 0, room, i, j;

	*status = 0;
	if (!rmpp_active || len < OQ_MPR_OFF_GIDS) {
		*status = OQ_SA_ST_REQ_INVALID;
		return OQ_PR_ERROR;
	}
	if (method != OQ_SA_GET_MULTI) {
		*status = OQ_MAD_UNSUP_METHOD;
		return OQ_PR_ERROR;
	}
	if (!(cm & OQ_MPR_CM_SGIDCOUNT) || !(cm & OQ_MPR_CM_DGIDCOUNT)) {
		*status = OQ_SA_ST_INSUF_COMPS;
		return OQ_PR_ERROR;
	}
	rate = m[OQ_MPR_OFF_RATE] & 0x3f;
	mtu = m[OQ_MPR_OFF_MTU] & 0x3f;
	if ((oq_cm_all(cm, OQ_MPR_CM_RATESELEC | OQ_MPR_CM_RATE) &&
	     !oq_path_rate_valid(rate)) ||
	    (oq_cm_all(cm, OQ_MPR_CM_MTUSELEC | OQ_MPR_CM_MTU) &&
	     (mtu < 1 || mtu > 5))) {
		*status = OQ_SA_ST_REQ_INVALID;
		return OQ_PR_ERROR;
	}
	if ((cm & OQ_MPR_CM_SERVICEID) && !oq_cm_all(cm, OQ_MPR_CM_SERVICEID)) {
		*status = OQ_SA_ST_INSUF_COMPS;
		return OQ_PR_ERROR;
	}
	if (!requester)
		return OQ_PR_DROP;

	/* mpr_rcv_get_end_points(): counts capped to what fits the MAD
	 * (and to the bytes the caller has). */
	room = (int)((len - OQ_MPR_OFF_GIDS) / 16);
	if (room > MAX_GIDS)
		room = MAX_GIDS;
	nsrc = m[OQ_MPR_OFF_SGID_COUNT];
	if (nsrc > room)
		nsrc = room;
	*status = get_gids(v, m + OQ_MPR_OFF_GIDS, nsrc, true, g);
	if (*status)
		return OQ_PR_ERROR;
	ndst = m[OQ_MPR_OFF_DGID_COUNT];
	if (ndst + nsrc > room)
		ndst = room - nsrc;
	*status = get_gids(v, m + OQ_MPR_OFF_GIDS + 16 * nsrc, ndst, false,
			   g + nsrc);
	if (*status)
		return OQ_PR_ERROR;
	if (!nsrc || !ndst) {
		*status = OQ_SA_ST_REQ_INVALID;
		return OQ_PR_ERROR;
	}

	oq_sa_want_from_mpr(&r.w, cm, m);
	r.want_reversible = m[OQ_MPR_OFF_NUMBPATH] & 0x80;
	if (nsrc == 2 && ndst == 2 && (m[OQ_MPR_OFF_NUMBPATH] & 0x7f) == 2) {
		r.iterations = 1;
		apm_paths(&r, g);
		return OQ_PR_RESPOND;
	}
	max_paths = cm & OQ_MPR_CM_NUMBPATH ? m[OQ_MPR_OFF_NUMBPATH] & 0x7fu
					    : MAX_NUM_PATH;
	for (i = 0; i < nsrc && total < max_paths && !r.stop; i++)
		for (j = nsrc; j < nsrc + ndst; j++) {
			r.iterations = max_paths - total;
			total += oq_sa_port_pair(&r, g[i], g[j]);
			if (total >= max_paths || r.stop)
				break;
		}
	return OQ_PR_RESPOND;
}
