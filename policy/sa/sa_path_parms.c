// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Path parameters of one (source, destination LID) path under the policy:
 * pr_rcv_get_path_parms() of OpenSM 3.3.23 after its hop walk (which is
 * oq_path_resolve()).  The order of the checks is OpenSM's, because it
 * decides which failure wins and so which pairs get records.
 */
#include <osmqos/osm_release.h>
#include <osmqos/sa_path.h>

#define DEFAULT_SL 0 /* OSM_DEFAULT_SL */

/* PortInfo capability bits the rate fixups read. */
#define CAP_HAS_EXT_SPEEDS 0x00004000u
#define CAP_HAS_CAP_MASK2  0x00008000u
#define CAP2_WIDTH_2X	   0x0010u
#define CAP2_SPEED_HDR	   0x0020u
#define CAP2_SPEED_NDR	   0x0400u

/* PathRecord rate codes the fixups name. */
#define RATE_20	  6
#define RATE_40	  7
#define RATE_25	  15
#define RATE_300  18
#define RATE_28	  19
#define RATE_50	  20
#define RATE_400  21
#define RATE_600  22
#define RATE_800  23
#define RATE_1200 24

static const struct oq_qos_level *level_of(const struct oq_sa_view *v,
					   const struct oq_decision *d)
{
	if (!v->policy || !d || d->level < 0 ||
	    (size_t)d->level >= v->policy->n_levels)
		return NULL;
	return &v->policy->levels[d->level];
}

void oq_sa_decide(const struct oq_sa_view *v, const struct oq_pr_want *w,
		  const struct oq_port *src, const struct oq_port *dst,
		  struct oq_decision *d)
{
	struct oq_query q = {
		.src = src,
		.dst = dst,
		.has_sid = w->has_sid,
		.sid = w->sid,
		.has_qos_class = !!(w->comp_mask & OQ_PR_CM_QOS_CLASS),
		.qos_class = w->qos_class,
		.has_pkey = !!(w->comp_mask & OQ_PR_CM_PKEY),
		.pkey = w->pkey,
	};

	d->rule = -1;
	d->level = -1;
	d->why = 0;
	/* OpenSM consults the policy only with qos TRUE. */
	if (!v->qos || !v->matcher)
		return;
	oq_match(v->matcher, &q, d);
}

/* ib_path_rate_2x_hdr_fixups() of the release in force: 3.3.24 counts
 * the NDR capability bit for the HDR rates and adds the NDR ones. */
uint8_t oq_sa_rate_fixup(const struct oq_port *p, uint8_t rate)
{
	bool has2 = p->cap_mask & CAP_HAS_CAP_MASK2;
	bool w2x = has2 && (p->cap_mask2 & CAP2_WIDTH_2X);
	bool hdr = has2 && (p->cap_mask2 & CAP2_SPEED_HDR);
	bool ndr = oq_osm_release()->speed_ndr && has2 &&
		   (p->cap_mask2 & CAP2_SPEED_NDR);

	switch (rate) {
	case RATE_28: /* a 2x-only rate */
		if (!w2x)
			return p->cap_mask & CAP_HAS_EXT_SPEEDS ? RATE_25
								: RATE_20;
		break;
	case RATE_50: /* 2x or HDR */
		if (!w2x && !hdr)
			return RATE_40;
		break;
	case RATE_400:
	case RATE_600: /* HDR-only rates */
		if (!hdr && !ndr)
			return RATE_300;
		break;
	case RATE_800:
	case RATE_1200: /* NDR-only rates (3.3.24) */
		if (!oq_osm_release()->speed_ndr || ndr)
			break;
		/* A port without CapabilityMask2 counts as HDR-capable. */
		return has2 && !hdr ? RATE_300 : RATE_600;
	default:
		break;
	}
	return rate;
}

/* The MTU selector: 0 greater than, 1 less than, 2 exactly, 3 largest. */
static bool apply_mtu(const struct oq_pr_want *w, uint8_t *mtu)
{
	if (!oq_cm_all(w->comp_mask, OQ_PR_CM_MTUSELEC | OQ_PR_CM_MTU))
		return true; /* a selector alone is ignored, as OpenSM does */
	switch (w->mtu_sel) {
	case 0:
		return *mtu > w->mtu;
	case 1:
		if (*mtu >= w->mtu) {
			if (w->mtu <= 1)
				return false;
			*mtu = (uint8_t)(w->mtu - 1);
		}
		return true;
	case 2:
		if (*mtu < w->mtu)
			return false;
		*mtu = w->mtu;
		return true;
	default:
		return true;
	}
}

static bool apply_rate(const struct oq_pr_want *w, uint8_t *rate)
{
	if (!oq_cm_all(w->comp_mask, OQ_PR_CM_RATESELEC | OQ_PR_CM_RATE))
		return true;
	switch (w->rate_sel) {
	case 0:
		return oq_path_rate_cmp(*rate, w->rate) > 0;
	case 1:
		if (oq_path_rate_cmp(*rate, w->rate) >= 0) {
			*rate = oq_path_rate_prev(w->rate);
			return *rate != 0;
		}
		return true;
	case 2:
		if (oq_path_rate_cmp(*rate, w->rate))
			return false;
		*rate = w->rate;
		return true;
	default:
		return true;
	}
}

static bool apply_life(const struct oq_pr_want *w, uint8_t *life)
{
	if (!oq_cm_all(w->comp_mask,
		       OQ_PR_CM_PKTLIFETIMESELEC | OQ_PR_CM_PKTLIFETIME))
		return true;
	switch (w->life_sel) {
	case 0:
		return *life > w->life;
	case 1:
		if (*life >= w->life) {
			if (w->life <= 1)
				return false;
			*life = (uint8_t)(w->life - 1);
		}
		return true;
	case 2:
		if (*life < w->life)
			return false;
		*life = w->life;
		return true;
	default:
		return true;
	}
}

/* osm_qos_level_get_shared_pkey(): the first key of the level's ranges,
 * in range order, that both ports share. */
static uint16_t level_shared_pkey(const struct oq_sa_view *v,
				  const struct oq_qos_level *l,
				  const struct oq_port *a,
				  const struct oq_port *b)
{
	size_t i;
	uint64_t k;

	for (i = 0; i < l->pkeys.n; i++)
		for (k = l->pkeys.v[i].lo; k <= l->pkeys.v[i].hi && k <= 0xffff;
		     k++)
			if (k &&
			    oq_ports_share_pkey_ex(v->fabric, a, b, (uint16_t)k,
						   v->allow_both_pkeys, NULL))
				return (uint16_t)k;
	return 0;
}

/* prtn_pkey_tbl lookup: the partition's SL, -1 when there is none. */
static int partition_sl(const struct oq_sa_view *v, uint16_t pkey)
{
	size_t i;

	if (!v->parts)
		return -1;
	for (i = 0; i < v->parts->n; i++)
		if ((v->parts->v[i].pkey & OQ_PKEY_MASK) ==
		    (pkey & OQ_PKEY_MASK))
			return v->parts->v[i].sl < 0 ? DEFAULT_SL
						     : v->parts->v[i].sl;
	return -1;
}

static enum oq_pr_reason choose_pkey(const struct oq_sa_view *v,
				     const struct oq_pr_want *w,
				     const struct oq_qos_level *l,
				     const struct oq_port *src,
				     const struct oq_port *dst, uint16_t *pkey)
{
	bool ab = v->allow_both_pkeys;

	*pkey = 0;
	if (w->raw) {
		oq_ports_share_pkey_ex(v->fabric, src, dst, 0, ab, pkey);
		return OQ_PR_OK;
	}
	if (w->comp_mask & OQ_PR_CM_PKEY) {
		/* No port holds a key with base 0: OpenSM finds no match
		 * (ERR 1F1A), where our helper would take 0 as "any". */
		if (!(w->pkey & OQ_PKEY_MASK) ||
		    !oq_ports_share_pkey_ex(v->fabric, src, dst, w->pkey, ab,
					    NULL))
			return OQ_PR_PKEY;
		if (l && l->pkeys.n &&
		    !oq_ranges_contains(&l->pkeys, w->pkey & OQ_PKEY_MASK))
			return OQ_PR_LEVEL_PKEY;
		*pkey = w->pkey;
		return OQ_PR_OK;
	}
	if (l && l->pkeys.n) {
		*pkey = level_shared_pkey(v, l, src, dst);
		return *pkey ? OQ_PR_OK : OQ_PR_LEVEL_PKEY;
	}
	if (!oq_ports_share_pkey_ex(v->fabric, src, dst, 0, ab, pkey) || !*pkey)
		return OQ_PR_PKEY;
	return OQ_PR_OK;
}

/* The first SL the mask keeps, DEFAULT_SL first (qos TRUE, no SL from
 * anywhere else). */
static uint8_t first_valid_sl(uint16_t mask)
{
	uint8_t i;

	if (mask & (1u << DEFAULT_SL))
		return DEFAULT_SL;
	for (i = 0; i < 15; i++)
		if (mask & (1u << i))
			break;
	return i;
}

enum oq_pr_reason oq_sa_path_parms(const struct oq_sa_view *v,
				   const struct oq_pr_want *w,
				   const struct oq_port *src, uint16_t slid,
				   const struct oq_port *dst, uint16_t dlid,
				   const struct oq_decision *d,
				   struct oq_pr_parms *out,
				   struct oq_path *keep)
{
	const struct oq_qos_level *l = level_of(v, d);
	struct oq_path_opts opts = {.subnet_timeout = v->subnet_timeout};
	struct oq_path local, *path = keep ? keep : &local;
	enum oq_pr_reason r;
	uint8_t mtu, rate, life, sl;
	uint16_t pkey;
	int psl;

	if (oq_path_resolve(v->fabric, v->qos ? v->sl2vl : NULL, src, dlid,
			    &opts, path) != OQ_PATH_OK)
		return OQ_PR_NO_PATH;
	mtu = path->mtu;
	rate = path->rate;

	/* The level's limits; its SL must survive the path. */
	if (l) {
		if (l->mtu_limit >= 0 && mtu > l->mtu_limit)
			mtu = (uint8_t)l->mtu_limit;
		if (l->rate_limit >= 0 &&
		    oq_path_rate_cmp(rate, (uint8_t)l->rate_limit) > 0)
			rate = (uint8_t)l->rate_limit;
		if (l->sl >= 0 && !(path->sl_mask & (1u << l->sl)))
			return OQ_PR_LEVEL_SL;
	}
	if (src == dst)
		life = 0; /* IBA table 205: loopback */
	else if (l && l->packet_life >= 0)
		life = (uint8_t)l->packet_life;
	else
		life = v->subnet_timeout;

	if (!apply_mtu(w, &mtu) || !apply_rate(w, &rate) ||
	    !apply_life(w, &life))
		return OQ_PR_SELECTOR;

	r = choose_pkey(v, w, l, src, dst, &pkey);
	if (r != OQ_PR_OK)
		return r;
	psl = pkey ? partition_sl(v, pkey) : -1;

	if (w->comp_mask & OQ_PR_CM_SL) {
		sl = w->sl;
		if (l && l->sl >= 0 && l->sl != sl)
			return OQ_PR_SL_CONFLICT;
	} else if (l && l->sl >= 0) {
		sl = (uint8_t)l->sl;
	} else if (pkey) {
		/* No partition for a shared key: OpenSM's ERR 1F1C case. */
		sl = psl < 0 ? DEFAULT_SL : (uint8_t)psl;
	} else if (v->qos) {
		sl = first_valid_sl(path->sl_mask);
	} else {
		sl = DEFAULT_SL;
	}
	if (v->qos && !(path->sl_mask & (1u << sl)))
		return OQ_PR_SL_DROPPED;

	if (v->path_sl && !w->mpr) {
		uint8_t hint = sl;

		sl = v->path_sl(v->path_sl_ctx, sl, slid, dlid);
		if ((w->comp_mask & OQ_PR_CM_SL) && sl != hint)
			return OQ_PR_ENGINE_SL;
	}
	if (w->raw)
		pkey = 0;

	out->mtu = mtu;
	out->rate = rate;
	out->pkt_life = life;
	out->pkey = pkey;
	out->sl = sl;
	out->reversible = false;
	out->hops = path->hops;
	return OQ_PR_OK;
}

bool oq_sa_path_bits_allow(const struct oq_sa_view *v,
			   const struct oq_decision *d,
			   const struct oq_port *p, uint16_t lid)
{
	const struct oq_qos_level *l = level_of(v, d);
	const struct oq_port *base;

	if (!v->apply_path_bits || !l || !l->path_bits.n)
		return true;
	base = p->node->type == OQ_NODE_SWITCH ? &p->node->ports[0] : p;
	if (!(base->lmc & 7))
		return true; /* one LID: nothing to choose */
	if (lid < base->lid)
		return false;
	return oq_ranges_contains(&l->path_bits, (uint64_t)(lid - base->lid));
}

const char *oq_pr_reason_name(enum oq_pr_reason r)
{
	static const char *const names[] = {
		[OQ_PR_OK] = "ok",
		[OQ_PR_NO_PATH] = "no path",
		[OQ_PR_LEVEL_SL] = "level SL reaches VL15 on the path",
		[OQ_PR_SELECTOR] = "MTU/rate/packet-lifetime selector not met",
		[OQ_PR_PKEY] = "no shared P_Key",
		[OQ_PR_LEVEL_PKEY] = "P_Key not allowed by the QoS level",
		[OQ_PR_SL_CONFLICT] = "requested SL differs from the QoS "
				      "level's",
		[OQ_PR_SL_DROPPED] = "SL reaches VL15 on the path",
		[OQ_PR_ENGINE_SL] = "routing engine changed the requested SL",
		[OQ_PR_NOT_REVERSIBLE] = "no reversible path",
		[OQ_PR_PATH_BITS] = "no LID allowed by the level's path-bits",
		[OQ_PR_NUMB_PATH] = "NumbPath 0",
	};

	if ((unsigned int)r >= sizeof(names) / sizeof(names[0]))
		return "unknown";
	return names[r];
}
