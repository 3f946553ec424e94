// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SA front's answering step: a PathRecord or MultiPathRecord request
 * is decoded from its MAD wrapper, answered from the published sweep
 * state by the policy core (policy/sa_path*.c, no OpenSM lock held), and
 * responded to with OpenSM's own osm_sa_respond()/osm_sa_send_error(),
 * which build the response MAD (RMPP included) exactly as for OpenSM's
 * own handlers.  Every decided pair goes to the audit writer.  Queries
 * the core does not own (multicast, off-subnet, no sweep state yet) go to
 * OpenSM's handler unchanged.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <osmqos/clock.h>

#include "sa.h"

#include <complib/cl_qlist.h>
#include <opensm/osm_madw.h>
#include <opensm/osm_sa.h>

/* A Get's pair, held until the answer's outcome is known. */
struct held {
	struct oq_audit_record r; /* filled only with an audit trail */
	int level;
	bool granted;
};

struct answer {
	struct oq_sa *sa;
	const struct oq_sa_state *s;
	cl_qlist_t list;
	bool oom;
	/* For the audit lines. */
	const struct oq_port *requester;
	uint16_t requester_lid;
	uint8_t method;
	enum oq_audit_attr attr;
	uint64_t comp_mask;
	struct oq_pr_want w;
	/*
	 * A Get's pairs are counted and audited only once the answer is
	 * known: osm_sa_respond() turns more than one record (a port with
	 * alias GUIDs) into ERR_TOO_MANY_RECORDS, granting nothing.  Other
	 * methods are sent as decided, so their pairs go out at once.  The
	 * first pair is held in place (no allocation for the usual one-pair
	 * Get), further ones in a growable array.
	 */
	bool hold;
	size_t n_held, cap_more;
	struct held first;
	struct held *more;
};

static int add_record(void *ctx, const uint8_t *rec)
{
	struct answer *a = ctx;
	osm_sa_item_t *item = malloc(SA_ITEM_RESP_SIZE(path_rec));

	if (!item) {
		a->oom = true;
		return -1;
	}
	memcpy(&item->resp.path_rec, rec, sizeof(ib_path_rec_t));
	cl_qlist_insert_tail(&a->list, &item->list_item);
	return 0;
}

/* Bounded copy, NUL-terminated; cheaper than snprintf("%s") on the SA
 * thread, which fills one audit record per pair. */
static size_t copy_str(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
	return n;
}

static void audit_port(struct oq_audit_port *ap, const struct oq_alias *al)
{
	const struct oq_port *p = al->port;

	ap->guid = al->guid;
	ap->port = p->num;
	memcpy(ap->desc, p->node->desc, sizeof(ap->desc));
	ap->desc[sizeof(ap->desc) - 1] = '\0';
	oq_port_name(p, ap->name, sizeof(ap->name));
}

/* What the model guarantees the granted SL along the path (its VL's
 * share at the hop that limits it, every VL busy; the ceiling; the sum
 * of the hops' worst waits) from the sweep state's port classes.  The
 * path is the one the answer walked, else walked again. */
static void predict(const struct oq_sa_state *s, const struct oq_pr_pair *pp,
		    struct oq_audit_record *r)
{
	struct oq_path_opts po = {.subnet_timeout = s->view.subnet_timeout};
	const struct oq_port *eg[OQ_PATH_MAX_HOPS + 3];
	int in[OQ_PATH_MAX_HOPS + 3];
	const struct oq_path *path = pp->path;
	const struct oq_port *peer;
	struct oq_path walked;
	struct oq_path_guarantee pg;
	size_t n = 0, i, k;

	if (!s->sweep->tables.ports)
		return;
	if (!path) {
		if (oq_path_resolve(s->sweep->fabric, NULL, pp->src->port,
				    pp->dlid, &po, &walked) != OQ_PATH_OK)
			return;
		path = &walked;
	}
	if (pp->src->port->node->type != OQ_NODE_SWITCH) {
		eg[n] = pp->src->port;
		in[n++] = 0;
	}
	/* Links only: a switch's port 0 (a path to or from the switch
	 * itself) is not arbitrated on any wire. */
	for (i = 0; i < path->n_hop && n < OQ_PATH_MAX_HOPS + 2; i++) {
		if (!path->hop[i].out->num)
			continue;
		eg[n] = path->hop[i].out;
		in[n++] = path->hop[i].in ? path->hop[i].in->num : 0;
	}
	/* A hop whose SL2VL is not known: no figure for the path. */
	if (!n || oq_sa_path_guarantee(s, eg, in, n, pp->sl, &pg) || pg.unknown)
		return;
	r->has_prediction = true;
	r->predicted_gbps = pg.gbps;
	r->predicted_shared = pg.shared;
	r->ceiling_gbps = pg.ceiling_gbps;
	r->latency_us = pg.wait_us;
	r->latency_bound = pg.wait_bound;
	if (r->intent_bp > 0)
		r->intent_gbps = pg.ceiling_gbps * r->intent_bp / 10000.0;
	/* "from/Pn -> to/Pm": the link that limits the path. */
	_Static_assert(OQ_AUDIT_HOP_LEN > 2 * (64 + 5) + 4,
		       "two port names and the arrow fit the bottleneck text");
	k = (size_t)oq_port_name(eg[pg.bottleneck], r->bottleneck,
				 sizeof(r->bottleneck));
	k = copy_str(r->bottleneck + k, sizeof(r->bottleneck) - k, " -> ") + k;
	peer = oq_port_peer(s->sweep->fabric, eg[pg.bottleneck]);
	if (peer)
		oq_port_name(peer, r->bottleneck + k,
			     sizeof(r->bottleneck) - k);
	else
		copy_str(r->bottleneck + k, sizeof(r->bottleneck) - k, "?");
}

/* One granted pair in the published per-level answer counters.  The
 * level's counter slot is found by name once per sweep state, at the
 * level's first answer, not for every pair. */
static void count_answer(struct oq_sa *sa, const struct oq_sa_state *s,
			 int level)
{
	struct oq_publish_counters *c = sa->counters;
	const struct oq_policy *pol = s->view.policy;
	const char *name;
	int slot;

	if (!pol || level < 0 || (size_t)level >= pol->n_levels) {
		oq_publish_count_slot(c, OQ_PUBLISH_SLOT_NONE);
		return;
	}
	name = pol->levels[level].name;
	if (!s->level_slot) {
		oq_publish_count_answer(c, name);
		return;
	}
	slot = __atomic_load_n(&s->level_slot[level], __ATOMIC_RELAXED);
	if (slot == OQ_LEVEL_SLOT_UNSET) {
		slot = oq_publish_level_slot(c, name);
		__atomic_store_n(&s->level_slot[level], slot, __ATOMIC_RELAXED);
	}
	oq_publish_count_slot(c, slot);
}

/* The audit record of a decided pair. */
static void fill_record(const struct answer *a, const struct oq_pr_pair *pp,
			struct oq_audit_record *r)
{
	const struct oq_sa_state *s = a->s;
	const struct oq_policy *pol = s->view.policy;

	memset(r, 0, sizeof(*r));
	r->requester_guid = a->requester->guid;
	r->requester_lid = a->requester_lid;
	r->method = a->method == OQ_SA_GET	   ? OQ_AUDIT_GET
		    : a->method == OQ_SA_GET_MULTI ? OQ_AUDIT_GETMULTI
						   : OQ_AUDIT_GETTABLE;
	r->attr = a->attr;
	r->comp_mask = a->comp_mask;
	r->has_sid = a->w.has_sid;
	r->sid = a->w.sid;
	r->has_qos_class = a->w.comp_mask & OQ_PR_CM_QOS_CLASS;
	r->qos_class = a->w.qos_class;
	r->has_pkey = a->w.comp_mask & OQ_PR_CM_PKEY;
	r->pkey = a->w.pkey;
	r->has_sl = a->w.comp_mask & OQ_PR_CM_SL;
	r->sl = a->w.sl;
	audit_port(&r->src, pp->src);
	audit_port(&r->dst, pp->dst);
	r->policy_hash = pol && s->sweep->pol ? s->sweep->pol->hash : 0;
	r->rule = pp->d.rule;
	if (pol && pp->d.rule >= 0 && (size_t)pp->d.rule < pol->n_rules &&
	    pol->rules[pp->d.rule].use)
		copy_str(r->use, sizeof(r->use), pol->rules[pp->d.rule].use);
	if (pol && pp->d.level >= 0 && (size_t)pp->d.level < pol->n_levels &&
	    pol->levels[pp->d.level].name)
		copy_str(r->level, sizeof(r->level),
			 pol->levels[pp->d.level].name);
	/* The intent in force on the granted SL (levels sharing it add
	 * up); none when an engine gave the path another SL. */
	if (pol && pp->records && pp->d.level >= 0 &&
	    (size_t)pp->d.level < pol->n_levels &&
	    pol->levels[pp->d.level].sl == pp->sl) {
		if (pol->levels[pp->d.level].bandwidth_bp > 0)
			r->intent_bp =
				(int)s->sweep->synth.intents.need_bp[pp->sl];
		r->intent_lat_ns = pol->levels[pp->d.level].latency_ns;
	}
	if (pp->records) {
		r->granted = true;
		r->g_sl = pp->sl;
		r->g_mtu = pp->mtu;
		r->g_rate = pp->rate;
		r->g_pkt_life = pp->pkt_life;
		r->g_pkey = pp->pkey;
		r->g_slid = pp->slid;
		r->g_dlid = pp->dlid;
		r->g_records = pp->records;
		predict(s, pp, r);
	} else {
		r->sa_status = OQ_SA_ST_NO_RECORDS;
		r->reason = oq_pr_reason_name(pp->reason);
	}
}

/* A pair whose answer is known: counted if granted, then audited (r is
 * only read with an audit trail). */
static void pair_done(struct answer *a, int level, bool granted,
		      const struct oq_audit_record *r)
{
	if (granted)
		count_answer(a->sa, a->s, level);
	if (!a->sa->audit) {
		if (a->sa->audit_wanted)
			oq_publish_count_unaudited(a->sa->counters);
		return;
	}
	oq_audit_submit(a->sa->audit, r);
}

/* Room for one more held pair, NULL when out of memory. */
static struct held *hold_slot(struct answer *a)
{
	struct held *m;
	size_t cap;

	if (!a->n_held)
		return &a->first;
	if (a->n_held - 1 == a->cap_more) {
		cap = a->cap_more ? 2 * a->cap_more : 4;
		m = realloc(a->more, cap * sizeof(*m));
		if (!m)
			return NULL;
		a->more = m;
		a->cap_more = cap;
	}
	return &a->more[a->n_held - 1];
}

static void audit_pair(void *ctx, const struct oq_pr_pair *pp)
{
	struct answer *a = ctx;
	struct oq_audit_record now;
	struct held *h = a->hold ? hold_slot(a) : NULL;

	/* Out of memory for holding: said now, as if sent as decided. */
	if (!h) {
		if (a->sa->audit)
			fill_record(a, pp, &now);
		pair_done(a, pp->d.level, pp->records, &now);
		return;
	}
	h->level = pp->d.level;
	h->granted = pp->records;
	if (a->sa->audit)
		fill_record(a, pp, &h->r);
	a->n_held++;
}

/*
 * The held pairs, now that the answer is known.  too_many: the answer is
 * ERR_TOO_MANY_RECORDS (what osm_sa_respond() sends a Get with more than
 * one record): no record reached the requester, so none is granted or
 * counted; a pair with no record of its own keeps its reason.
 */
static void release_held(struct answer *a, bool too_many)
{
	size_t i;

	for (i = 0; i < a->n_held; i++) {
		struct held *h = i ? &a->more[i - 1] : &a->first;

		if (too_many && h->granted) {
			h->granted = false;
			h->r.granted = false;
			h->r.has_prediction = false;
			h->r.sa_status =
				cl_ntoh16(IB_SA_MAD_STATUS_TOO_MANY_RECORDS);
			h->r.reason = "more than one record for a Get "
				      "(ERR_TOO_MANY_RECORDS)";
		}
		pair_done(a, h->level, h->granted, &h->r);
	}
	a->n_held = 0;
	free(a->more);
	a->more = NULL;
	a->cap_more = 0;
}

/* Said once per state: its queries go to OpenSM's own SA. */
static void stale_aliases_said(struct oq_sa *sa, struct oq_sa_state *s)
{
	if (__atomic_exchange_n(&s->stale_said, true, __ATOMIC_RELAXED))
		return;
	OQ_LOG(sa->osm, OSM_LOG_INFO,
	       "alias GUIDs were set or deleted through the SA "
	       "(GuidInfoRecord) since the last heavy sweep: PathRecord and "
	       "MultiPathRecord queries go to OpenSM's own SA (no per-pair "
	       "policy, no audit) until the next heavy sweep copies them; "
	       "kill -HUP opensm to have it now\n");
}

bool oq_sa_answer(struct oq_sa *sa, enum oq_sa_kind kind, void *data)
{
	osm_madw_t *madw = data;
	const ib_sa_mad_t *mad = osm_madw_get_sa_mad_ptr(madw);
	const osm_mad_addr_t *addr = osm_madw_get_mad_addr_ptr(madw);
	struct oq_sa_hook *hk =
		kind == OQ_SA_PR ? &sa->front.pr : &sa->front.mpr;
	struct oq_pr_sink sink = {add_record, audit_pair, NULL};
	struct answer a;
	enum oq_pr_outcome out;
	const struct oq_port *req;
	uint16_t status = 0;
	uint64_t t0 = oq_clock_ns();
	struct oq_sa_state *s;

	s = oq_sa_get(sa);
	if (!s || !s->ready) {
		oq_sa_put(s);
		return false;
	}
	/* Alias GUIDs being set, or set or deleted through the SA since
	 * the state copied them: OpenSM's table is the truth, until the
	 * next heavy sweep copies it again. */
	if (oq_sa_aliases_busy(sa)) {
		oq_sa_put(s);
		return false;
	}
	if (oq_sa_aliases_stale(sa, s)) {
		stale_aliases_said(sa, s);
		oq_sa_put(s);
		return false;
	}
	/* The requester by its LID; one our snapshot does not know yet
	 * (it appeared after the sweep) is OpenSM's to judge. */
	req = oq_fabric_port_by_lid(s->sweep->fabric,
				    cl_ntoh16(addr->dest_lid));
	if (!req) {
		oq_sa_put(s);
		return false;
	}
	if (req->node->type == OQ_NODE_SWITCH)
		req = &req->node->ports[0];

	memset(&a, 0, sizeof(a));
	a.sa = sa;
	a.s = s;
	a.requester = req;
	a.requester_lid = cl_ntoh16(addr->dest_lid);
	a.method = mad->method;
	a.comp_mask = cl_ntoh64(mad->comp_mask);
	a.hold = mad->method == IB_MAD_METHOD_GET;
	a.attr = kind == OQ_SA_PR ? OQ_AUDIT_PATH_RECORD
				  : OQ_AUDIT_MULTIPATH_RECORD;
	cl_qlist_init(&a.list);
	sink.ctx = &a;

	/*
	 * MADs are 256 bytes on the wire and in OpenSM's pool, so this holds
	 * for anything the SA receiver posts; it keeps every read of the
	 * payload inside what arrived even if that ever changes.
	 */
	if (madw->mad_size < IB_SA_MAD_HDR_SIZE + sizeof(ib_path_rec_t)) {
		osm_sa_send_error(&sa->osm->sa, madw,
				  IB_SA_MAD_STATUS_REQ_INVALID);
		oq_sa_put(s);
		return true;
	}
	if (kind == OQ_SA_PR) {
		const uint8_t *p = ib_sa_mad_get_payload_ptr(mad);

		oq_sa_want_from_pr(&a.w, a.comp_mask, p);
		out = oq_sa_path_record(&s->view, mad->method, a.comp_mask, p,
					req, &sink, &status);
	} else {
		const uint8_t *p = ib_sa_mad_get_payload_ptr(mad);
		size_t mad_len = madw->mad_size < MAD_BLOCK_SIZE
					 ? madw->mad_size
					 : MAD_BLOCK_SIZE;
		size_t len = mad_len - IB_SA_MAD_HDR_SIZE;
		bool rmpp = (mad->rmpp_flags & IB_RMPP_FLAG_ACTIVE) ==
			    IB_RMPP_FLAG_ACTIVE;

		oq_sa_want_from_mpr(&a.w, a.comp_mask, p);
		out = oq_sa_multipath_record(&s->view, mad->method, rmpp,
					     a.comp_mask, p, len, req, &sink,
					     &status);
		/* o15-0.2.7: the answer's attribute is PathRecord (OpenSM
		 * rewrites the request's header the same way). */
		if (out == OQ_PR_RESPOND)
			((ib_sa_mad_t *)mad)->attr_id = IB_MAD_ATTR_PATH_RECORD;
	}

	switch (out) {
	case OQ_PR_RESPOND:
		if (a.oom) {
			/* Like OpenSM's ERR 1F01 path: fewer records. */
			OQ_LOG(sa->osm, OSM_LOG_ERROR,
			       "out of memory building PathRecords; the "
			       "answer is incomplete\n");
		}
		/* osm_sa_respond()'s own check (C15-0.1.30), which then
		 * sends ERR_TOO_MANY_RECORDS and no record. */
		release_held(&a, mad->method == IB_MAD_METHOD_GET &&
					 cl_qlist_count(&a.list) > 1);
		osm_sa_respond(&sa->osm->sa, madw, sizeof(ib_path_rec_t),
			       &a.list);
		break;
	case OQ_PR_ERROR:
		release_held(&a, false);
		osm_sa_send_error(&sa->osm->sa, madw, cl_hton16(status));
		break;
	case OQ_PR_DROP:
		release_held(&a, false);
		break;
	case OQ_PR_DELEGATE:
		release_held(&a, false);
		oq_sa_put(s);
		return false;
	}
	__atomic_fetch_add(&hk->answered, 1, __ATOMIC_RELAXED);
	oq_publish_observe_latency(sa->counters,
				   (double)(oq_clock_ns() - t0) / 1e9);
	oq_sa_put(s);
	return true;
}
