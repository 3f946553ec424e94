// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * PathRecord requests: which port pairs a request names (osm_pr_rcv_process
 * and osm_pr_get_end_points), which LID pairs each pair offers
 * (pr_rcv_get_port_pair_paths), and the records (pr_rcv_build_pr), in
 * OpenSM 3.3.23's order so the answers are the same bytes.
 */
#include <stdlib.h>
#include <string.h>

#include <osmqos/sa_path.h>

#include "sa_path_int.h"

/* Offsets in the 64-byte PathRecord. */

void oq_sa_want_from_pr(struct oq_pr_want *w, uint64_t cm, const uint8_t *pr)
{
	memset(w, 0, sizeof(*w));
	w->comp_mask = cm;
	w->raw = (cm & OQ_PR_CM_RAWTRAFFIC) && (pr[OQ_PR_OFF_HFR] & 0x80);
	w->pkey = oq_get16(pr + OQ_PR_OFF_PKEY);
	w->sl = pr[OQ_PR_OFF_QOS_SL + 1] & 0xf;
	w->qos_class = (uint16_t)(oq_get16(pr + OQ_PR_OFF_QOS_SL) >> 4);
	w->mtu = pr[OQ_PR_OFF_MTU] & 0x3f;
	w->mtu_sel = pr[OQ_PR_OFF_MTU] >> 6;
	w->rate = pr[OQ_PR_OFF_RATE] & 0x3f;
	w->rate_sel = pr[OQ_PR_OFF_RATE] >> 6;
	w->life = pr[OQ_PR_OFF_LIFE] & 0x3f;
	w->life_sel = pr[OQ_PR_OFF_LIFE] >> 6;
	w->sid = oq_get64(pr + OQ_PR_OFF_SERVICE_ID);
	w->has_sid = oq_cm_all(cm, OQ_PR_CM_SERVICEID);
}

/* pr_rcv_build_pr(): a record from zeros, as OpenSM allocates it. */
void oq_sa_build_pr(const struct oq_sa_view *v, const struct oq_alias *s,
		    const struct oq_alias *d, const uint8_t *sgid,
		    const uint8_t *dgid, uint16_t slid, uint16_t dlid,
		    uint8_t preference, const struct oq_pr_parms *pp,
		    uint8_t *rec)
{
	uint8_t rate = pp->rate;

	memset(rec, 0, OQ_PR_REC_SIZE);
	if (dgid) {
		memcpy(rec + OQ_PR_OFF_DGID, dgid, 16);
		rec[OQ_PR_OFF_HFR + 3] = 0xff; /* HopLimit: through a router */
	} else {
		oq_put64(rec + OQ_PR_OFF_DGID, v->subnet_prefix);
		oq_put64(rec + OQ_PR_OFF_DGID + 8, d->guid);
	}
	if (sgid) {
		memcpy(rec + OQ_PR_OFF_SGID, sgid, 16);
	} else {
		oq_put64(rec + OQ_PR_OFF_SGID, v->subnet_prefix);
		oq_put64(rec + OQ_PR_OFF_SGID + 8, s->guid);
	}
	oq_put16(rec + OQ_PR_OFF_DLID, dlid);
	oq_put16(rec + OQ_PR_OFF_SLID, slid);
	oq_put16(rec + OQ_PR_OFF_PKEY, pp->pkey);
	rec[OQ_PR_OFF_QOS_SL + 1] = pp->sl & 0xf;
	rec[OQ_PR_OFF_MTU] = (uint8_t)(pp->mtu | 0x80);
	if (v->max_rate_enum) { /* osm_sa_limit_rate(), 3.3.24 */
		rate = oq_path_rate_limit(rate, v->max_rate_enum);
	} else if (rate >= 19) { /* 28 Gb/s and up: 2x/HDR-only rates */
		const struct oq_port *p =
			oq_fabric_port_by_lid(v->fabric, slid);

		if (p)
			rate = oq_sa_rate_fixup(p, rate);
		if (pp->reversible) {
			p = oq_fabric_port_by_lid(v->fabric, dlid);
			if (p)
				rate = oq_sa_rate_fixup(p, rate);
		}
	}
	rec[OQ_PR_OFF_RATE] = (uint8_t)(rate | 0x80);
	rec[OQ_PR_OFF_LIFE] =
		s->port == d->port ? 0x80 : (uint8_t)(pp->pkt_life | 0x80);
	rec[OQ_PR_OFF_PREFERENCE] = preference;
	if (pp->reversible)
		rec[OQ_PR_OFF_NUMBPATH] = 0x80;
}

/* pr_rcv_get_lid_pair_path(): one LID pair; true when a record was
 * made. */
bool oq_sa_lid_pair(struct oq_sa_answering *r, struct oq_pr_pair *pair,
		    const struct oq_decision *rev, uint16_t slid, uint16_t dlid,
		    uint8_t pref)
{
	const struct oq_sa_view *v = r->v;
	const struct oq_port *s = pair->src->port, *d = pair->dst->port;
	struct oq_path *fwd = pair->records ? NULL : r->fwd;
	struct oq_pr_parms pp, rp;
	enum oq_pr_reason why;
	uint8_t rec[OQ_PR_REC_SIZE];

	why = oq_sa_path_parms(v, &r->w, s, slid, d, dlid, &pair->d, &pp, fwd);
	if (why != OQ_PR_OK) {
		pair->reason = why;
		return false;
	}
	pp.reversible = oq_sa_path_parms(v, &r->w, d, dlid, s, slid, rev, &rp,
					 NULL) == OQ_PR_OK;
	if ((r->w.comp_mask & OQ_PR_CM_REVERSIBLE) && r->want_reversible &&
	    !pp.reversible) {
		pair->reason = OQ_PR_NOT_REVERSIBLE;
		return false;
	}
	if (!oq_sa_path_bits_allow(v, &pair->d, s, slid) ||
	    !oq_sa_path_bits_allow(v, &pair->d, d, dlid)) {
		pair->reason = OQ_PR_PATH_BITS;
		return false;
	}
	oq_sa_build_pr(v, pair->src, pair->dst, r->sgid, r->dgid, slid, dlid,
		       pref, &pp, rec);
	if (r->sink->record(r->sink->ctx, rec)) {
		r->stop = true;
		return false;
	}
	if (!pair->records++) {
		pair->slid = slid;
		pair->dlid = dlid;
		pair->sl = pp.sl;
		pair->mtu = pp.mtu;
		pair->rate = rec[OQ_PR_OFF_RATE] & 0x3f;
		pair->pkt_life = rec[OQ_PR_OFF_LIFE] & 0x3f;
		pair->pkey = pp.pkey;
		pair->path = fwd;
	}
	r->count++;
	return true;
}

/* pr_rcv_get_port_pair_paths() and mpr_rcv_get_port_pair_paths():
 * returns the records made for this pair. */
unsigned int oq_sa_port_pair(struct oq_sa_answering *r,
			     const struct oq_alias *src,
			     const struct oq_alias *dst)
{
	const struct oq_sa_view *v = r->v;
	struct oq_lid_pair lp[64], *pairs = lp;
	struct oq_pr_pair pair = {
		.src = src, .dst = dst, .reason = OQ_PR_NO_PATH};
	struct oq_path fwd; /* the first record's, for the sink */
	struct oq_decision rev;
	size_t n, i;
	unsigned int found = 0;
	bool ab = v->allow_both_pkeys;

	if (r->stop)
		return 0;
	if (!r->requester ||
	    !oq_ports_pkey_visible(v->fabric, r->requester, src->port, ab) ||
	    !oq_ports_pkey_visible(v->fabric, r->requester, dst->port, ab) ||
	    !oq_ports_pkey_visible(v->fabric, src->port, dst->port, ab))
		return 0;
	oq_sa_decide(v, &r->w, src->port, dst->port, &pair.d);
	oq_sa_decide(v, &r->w, dst->port, src->port, &rev);

	n = oq_path_lid_pairs(src->port, dst->port, r->slid, r->dlid, lp,
			      sizeof(lp) / sizeof(lp[0]));
	if (n > sizeof(lp) / sizeof(lp[0])) {
		/* LMC 7 on both ends: 128 x 128 pairs. */
		pairs = malloc(n * sizeof(*pairs));
		if (!pairs) {
			r->stop = true;
			return 0;
		}
		oq_path_lid_pairs(src->port, dst->port, r->slid, r->dlid, pairs,
				  n);
	}
	if (!r->iterations)
		pair.reason = OQ_PR_NUMB_PATH;
	r->fwd = &fwd;
	for (i = 0; i < n && found < r->iterations && !r->stop; i++)
		if (oq_sa_lid_pair(r, &pair, &rev, pairs[i].slid, pairs[i].dlid,
				   pairs[i].preference))
			found++;
	r->fwd = NULL;
	if (pairs != lp)
		free(pairs);
	if (r->sink->pair)
		r->sink->pair(r->sink->ctx, &pair);
	return found;
}

static bool get_done(const struct oq_sa_answering *r)
{
	return r->stop || (r->method == OQ_SA_GET && r->count > 0);
}

/* osm_pr_process_half(): one end fixed, the other every known port. */
static void half(struct oq_sa_answering *r, const struct oq_alias *src,
		 const struct oq_alias *dst)
{
	size_t i;

	for (i = 0; i < r->v->n_aliases; i++) {
		const struct oq_alias *a = &r->v->aliases[i];

		oq_sa_port_pair(r, src ? src : a, src ? a : dst);
		if (get_done(r))
			break;
	}
}

/* The next alias of port p in the aliases' order, NULL after the last;
 * *at starts at 0.  OpenSM walks its whole alias table for this. */
static const struct oq_alias *next_alias(const struct oq_sa_view *v,
					 const struct oq_port *p, size_t *at)
{
	const struct oq_alias_index *ix = v->alias_index;
	size_t i;
	uint32_t pi = oq_port_index(v->fabric, p);

	if (ix && pi < ix->n_ports) {
		i = ix->start[pi] + *at;
		if (i >= ix->start[pi + 1])
			return NULL;
		++*at;
		return &v->aliases[ix->ids[i]];
	}
	for (i = *at; i < v->n_aliases; i++)
		if (v->aliases[i].port == p) {
			*at = i + 1;
			return &v->aliases[i];
		}
	*at = v->n_aliases;
	return NULL;
}

static bool is_link_local(const uint8_t *gid)
{
	return gid[0] == 0xfe && (gid[1] & 0xc0) == 0x80;
}

enum oq_pr_outcome oq_sa_path_record(const struct oq_sa_view *v, uint8_t method,
				     uint64_t cm, const uint8_t *pr,
				     const struct oq_port *requester,
				     const struct oq_pr_sink *sink,
				     uint16_t *status)
{
	struct oq_sa_answering r = {
		.v = v, .sink = sink, .method = method, .requester = requester};
	const struct oq_alias *sa = NULL, *da = NULL, *x, *y;
	const struct oq_port *sp = NULL, *dp = NULL;
	unsigned int rate = pr[OQ_PR_OFF_RATE] & 0x3f;
	unsigned int mtu = pr[OQ_PR_OFF_MTU] & 0x3f;
	size_t i, j;

	*status = 0;
	if (method != OQ_SA_GET && method != OQ_SA_GET_TABLE) {
		*status = OQ_MAD_UNSUP_METHOD;
		return OQ_PR_ERROR;
	}
	if (oq_cm_all(cm, OQ_PR_CM_RATESELEC | OQ_PR_CM_RATE) &&
	    !oq_path_rate_valid(rate)) {
		*status = OQ_SA_ST_REQ_INVALID;
		return OQ_PR_ERROR;
	}
	if (oq_cm_all(cm, OQ_PR_CM_MTUSELEC | OQ_PR_CM_MTU) &&
	    (mtu < 1 || mtu > 5)) {
		*status = OQ_SA_ST_REQ_INVALID;
		return OQ_PR_ERROR;
	}
	if ((cm & OQ_PR_CM_SERVICEID) && !oq_cm_all(cm, OQ_PR_CM_SERVICEID)) {
		*status = OQ_SA_ST_INSUF_COMPS;
		return OQ_PR_ERROR;
	}
	if (!requester)
		return OQ_PR_DROP;
	if ((cm & OQ_PR_CM_DGID) && pr[OQ_PR_OFF_DGID] == 0xff)
		return OQ_PR_DELEGATE; /* multicast */
	if ((cm & OQ_PR_CM_DGID) && !is_link_local(pr + OQ_PR_OFF_DGID) &&
	    oq_get64(pr + OQ_PR_OFF_DGID) != v->subnet_prefix)
		return OQ_PR_DELEGATE; /* off subnet: OpenSM's routers */

	oq_sa_want_from_pr(&r.w, cm, pr);
	r.want_reversible = pr[OQ_PR_OFF_NUMBPATH] & 0x80;
	if (method == OQ_SA_GET)
		r.iterations = 1;
	else if (cm & OQ_PR_CM_NUMBPATH)
		r.iterations = pr[OQ_PR_OFF_NUMBPATH] & 0x7f;
	else
		r.iterations = ~0u;

	/*
	 * osm_pr_get_end_points().  OpenSM answers a bad GID or LID with an
	 * empty response (its status is computed and then not used).
	 */
	if (cm & OQ_PR_CM_SGID) {
		if (!is_link_local(pr + OQ_PR_OFF_SGID) &&
		    oq_get64(pr + OQ_PR_OFF_SGID) != v->subnet_prefix)
			return OQ_PR_RESPOND;
		sa = oq_alias_find(v->aliases, v->n_aliases,
				   oq_get64(pr + OQ_PR_OFF_SGID + 8));
		if (!sa)
			return OQ_PR_RESPOND;
		r.sgid = pr + OQ_PR_OFF_SGID;
	}
	if (cm & OQ_PR_CM_SLID) {
		r.slid = oq_get16(pr + OQ_PR_OFF_SLID);
		sp = oq_fabric_port_by_lid(v->fabric, r.slid);
		if (!sp)
			return OQ_PR_RESPOND;
		sp = oq_sa_base_port(sp);
	}
	if (cm & OQ_PR_CM_DGID) {
		da = oq_alias_find(v->aliases, v->n_aliases,
				   oq_get64(pr + OQ_PR_OFF_DGID + 8));
		if (!da)
			return OQ_PR_RESPOND;
	}
	if (cm & OQ_PR_CM_DLID) {
		r.dlid = oq_get16(pr + OQ_PR_OFF_DLID);
		dp = oq_fabric_port_by_lid(v->fabric, r.dlid);
		if (!dp)
			return OQ_PR_RESPOND;
		dp = oq_sa_base_port(dp);
	}
	if ((sa && sp && sa->port != sp) || (da && dp && da->port != dp)) {
		*status = OQ_SA_ST_REQ_INVALID;
		return OQ_PR_ERROR;
	}

	if (sa) {
		if (da) {
			oq_sa_port_pair(&r, sa, da);
		} else if (!dp) {
			half(&r, sa, NULL);
		} else {
			for (i = 0; (y = next_alias(v, dp, &i));) {
				oq_sa_port_pair(&r, sa, y);
				if (get_done(&r))
					break;
			}
		}
	} else if (da && !sp) {
		half(&r, NULL, da);
	} else if (!sp && !dp) {
		/* Every port to every port: destination outer. */
		for (j = 0; j < v->n_aliases && !get_done(&r); j++)
			for (i = 0; i < v->n_aliases; i++) {
				oq_sa_port_pair(&r, &v->aliases[i],
						&v->aliases[j]);
				if (get_done(&r))
					break;
			}
	} else if (da && sp) {
		for (i = 0; (x = next_alias(v, sp, &i));) {
			oq_sa_port_pair(&r, x, da);
			if (get_done(&r))
				break;
		}
	} else if (sp && !dp) {
		/* No early stop between aliases here, as in OpenSM. */
		for (i = 0; !r.stop && (x = next_alias(v, sp, &i));)
			half(&r, x, NULL);
	} else if (dp && !sp) {
		for (i = 0; !r.stop && (y = next_alias(v, dp, &i));)
			half(&r, NULL, y);
	} else {
		for (i = 0; (x = next_alias(v, sp, &i));) {
			for (j = 0; (y = next_alias(v, dp, &j));) {
				oq_sa_port_pair(&r, x, y);
				if (get_done(&r))
					break;
			}
			if (get_done(&r))
				break;
		}
	}
	return OQ_PR_RESPOND;
}
