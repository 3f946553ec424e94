// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SA front: own OpenSM's dispatcher registrations for PathRecord and
 * MultiPathRecord; each query goes to the front's answer (sa_answer.c)
 * or, when that passes it, to OpenSM's handler unchanged; all counted.
 * GuidInfoRecord Sets and Deletes are watched the same way, for the
 * alias GUIDs they change (gir_front).
 *
 * Facts this relies on (OpenSM 3.3.23, docs/sa-front.md):
 *  - osm_sa_init() registers the handlers on osm->disp and keeps the
 *    handles in osm->sa.pr_disp_h / mpr_disp_h (GuidInfoRecord Sets and
 *    Deletes: on osm->sa.p_set_disp, gir_set_disp_h, when OpenSM has
 *    that dispatcher of SA Sets); the plugin's create() runs
 *    after that and before osm_opensm_bind(), so no SA MAD can be posted
 *    while we swap registrations.
 *  - cl_disp_register() refuses a second registration for a message id, so
 *    a swap is unregister-then-register.  cl_disp_unregister() waits until
 *    every message already queued to the old registration was processed.
 *  - osm_opensm_destroy() runs osm_sa_shutdown() (which unregisters
 *    whatever osm->sa.*_disp_h hold: ours, since we store our handles
 *    there) and cl_disp_shutdown() before destroy_plugins(), so by the time
 *    delete() runs and the library is unloaded no thread can enter us.
 */
#include <config.h>

#include <stdbool.h>

/* sa.h first: osm_config.h decides which SA message ids exist. */
#include "sa.h"

#include <complib/cl_dispatcher.h>
#include <complib/cl_passivelock.h>
#include <complib/cl_ptr_vector.h>
#include <complib/cl_spinlock.h>
#include <opensm/osm_msgdef.h>
#include <opensm/osm_sa.h>

/* Exported by the opensm binary (docs/sa-front.md), not in its headers. */
void osm_pr_rcv_process(void *context, void *data);
void osm_mpr_rcv_process(void *context, void *data);
void osm_gir_rcv_process(void *context, void *data);

static void count(unsigned long *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

/*
 * Dispatcher callbacks: several dispatcher threads may run them at once.
 * context is our instance; OpenSM's handlers get the context they were
 * registered with, &osm->sa.
 */
static void pr_front(void *context, void *data)
{
	struct oq_sa *sa = context;

	count(&sa->front.pr.queries);
	if (sa->front.answer && sa->front.answer(sa, OQ_SA_PR, data))
		return;
	count(&sa->front.pr.passed);
	osm_pr_rcv_process(&sa->osm->sa, data);
}

static void mpr_front(void *context, void *data)
{
	struct oq_sa *sa = context;

	count(&sa->front.mpr.queries);
	if (sa->front.answer && sa->front.answer(sa, OQ_SA_MPR, data))
		return;
	count(&sa->front.mpr.passed);
	osm_mpr_rcv_process(&sa->osm->sa, data);
}

uint64_t oq_sa_alias_sig(osm_opensm_t *osm)
{
	cl_qmap_t *tbl = &osm->subn.alias_port_guid_tbl;
	uint64_t h = OQ_FNV1A_INIT, n = cl_qmap_count(tbl);
	cl_map_item_t *it;

	h = oq_fnv1a_add(h, &n, sizeof(n));
	for (it = cl_qmap_head(tbl); it != cl_qmap_end(tbl);
	     it = cl_qmap_next(it)) {
		const osm_alias_guid_t *a = (const osm_alias_guid_t *)it;
		const void *e[2] = {(const void *)(uintptr_t)a->alias_guid,
				    a->p_base_port};

		h = oq_fnv1a_add(h, e, sizeof(e));
	}
	return h;
}

void oq_sa_alias_seen(struct oq_sa *sa, uint64_t sig)
{
	pthread_mutex_lock(&sa->front.alias_lock);
	sa->front.alias_sig = sig;
	pthread_mutex_unlock(&sa->front.alias_lock);
}

/*
 * GuidInfoRecord: OpenSM answers it, and a Set or Delete may change its
 * alias GUID table there and then, with no heavy sweep.  While OpenSM
 * handles one (it answers the requester inside), PathRecords go to
 * OpenSM (sa_answer.c: alias_busy); after, when the table did change,
 * the SA state's copy is stale (alias_changes) and they go to OpenSM
 * until the next heavy sweep copies the table again.  A Set OpenSM
 * refused changes nothing and costs nothing.  The method is read before
 * OpenSM's handler, which releases the MAD.
 */
static void gir_front(void *context, void *data)
{
	struct oq_sa *sa = context;
	const ib_sa_mad_t *m = osm_madw_get_sa_mad_ptr(data);
	bool change = m->method == IB_MAD_METHOD_SET ||
		      m->method == IB_MAD_METHOD_DELETE;
	uint64_t sig;

	count(&sa->front.gir.queries);
	count(&sa->front.gir.passed);
	if (change)
		__atomic_fetch_add(&sa->front.alias_busy, 1, __ATOMIC_ACQ_REL);
	osm_gir_rcv_process(&sa->osm->sa, data);
	if (!change)
		return;
	/* The change is applied (under OpenSM's exclusive lock, released
	 * by now): its mark comes after it, so a state copied before it
	 * can never pass for fresh. */
	cl_plock_acquire(&sa->osm->lock);
	sig = oq_sa_alias_sig(sa->osm);
	pthread_mutex_lock(&sa->front.alias_lock);
	if (sig != sa->front.alias_sig) {
		sa->front.alias_sig = sig;
		__atomic_fetch_add(&sa->front.alias_changes, 1,
				   __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&sa->front.alias_lock);
	cl_plock_release(&sa->osm->lock);
	__atomic_fetch_sub(&sa->front.alias_busy, 1, __ATOMIC_ACQ_REL);
}

/* One registration the front swaps, and whose it is originally. */
struct sa_slot {
	const char *name;
	cl_disp_msgid_t msg_id;
	cl_pfn_msgrcv_cb_t osm_fn; /* OpenSM's handler */
	cl_pfn_msgrcv_cb_t our_fn;
};

static const struct sa_slot pr_slot = {"PathRecord", OSM_MSG_MAD_PATH_RECORD,
				       osm_pr_rcv_process, pr_front};

static const struct sa_slot mpr_slot = {"MultiPathRecord",
					OSM_MSG_MAD_MULTIPATH_RECORD,
					osm_mpr_rcv_process, mpr_front};

static const struct sa_slot gir_slot = {"GuidInfoRecord",
					OSM_MSG_MAD_GUIDINFO_RECORD,
					osm_gir_rcv_process, gir_front};

/*
 * Is h the dispatcher's live registration for the slot's message id, with
 * our callback?  h is only dereferenced once the dispatcher's table shows
 * it is live (a handle OpenSM already unregistered is freed memory).
 */
static bool ours_is_live(cl_dispatcher_t *d, const struct sa_slot *s,
			 cl_disp_reg_handle_t h)
{
	bool live = false;

	if (h == CL_DISP_INVALID_HANDLE)
		return false;
	cl_spinlock_acquire(&d->lock);
	if (s->msg_id < cl_ptr_vector_get_size(&d->reg_vec) &&
	    cl_ptr_vector_get(&d->reg_vec, s->msg_id) == h &&
	    h->pfn_rcv_callback == s->our_fn)
		live = true;
	cl_spinlock_release(&d->lock);
	return live;
}

/* Returns 1 if the slot is ours afterwards, 0 if not.  d: the
 * dispatcher OpenSM registered the slot on. */
static int take_over(struct oq_sa *sa, cl_dispatcher_t *d,
		     const struct sa_slot *s, cl_disp_reg_handle_t *osm_h,
		     struct oq_sa_hook *hk)
{
	osm_opensm_t *osm = sa->osm;
	cl_disp_reg_handle_t old = *osm_h, h;

	if (hk->h != CL_DISP_INVALID_HANDLE && old == hk->h)
		return 1; /* already ours */
	if (old == CL_DISP_INVALID_HANDLE) {
		OQ_LOG(sa->osm, OSM_LOG_INFO,
		       "SA %s handler not registered by OpenSM; left alone\n",
		       s->name);
		return 0;
	}
	/* Only replace OpenSM's own registration, never someone else's. */
	if (old->pfn_rcv_callback != s->osm_fn || old->context != &osm->sa) {
		OQ_LOG(sa->osm, OSM_LOG_INFO,
		       "SA %s handler is not OpenSM's (another plugin?); "
		       "left alone\n",
		       s->name);
		return 0;
	}
	/* Duplicates are refused: unregister, then register at once. */
	cl_disp_unregister(old);
	h = cl_disp_register(d, s->msg_id, s->our_fn, sa);
	if (h == CL_DISP_INVALID_HANDLE) {
		*osm_h = cl_disp_register(d, s->msg_id, s->osm_fn, &osm->sa);
		OQ_LOG(sa->osm, OSM_LOG_ERROR,
		       "could not register the SA %s handler (out of "
		       "memory?); OpenSM's handler %s\n",
		       s->name,
		       *osm_h == CL_DISP_INVALID_HANDLE
			       ? "could not be restored either: these queries "
				 "will "
				 "go unanswered, restart opensm"
			       : "restored");
		return 0;
	}
	/* OpenSM's shutdown unregisters whatever this holds: ours now. */
	*osm_h = h;
	hk->h = h;
	return 1;
}

static void give_back(struct oq_sa *sa, cl_dispatcher_t *d,
		      const struct sa_slot *s, cl_disp_reg_handle_t *osm_h,
		      struct oq_sa_hook *hk)
{
	osm_opensm_t *osm = sa->osm;

	if (hk->h == CL_DISP_INVALID_HANDLE)
		return;
	/*
	 * Normal shutdown: osm_sa_shutdown() already unregistered (and freed)
	 * ours, and the dispatcher's entry is empty.  Nothing to do.
	 */
	if (*osm_h != hk->h || !ours_is_live(d, s, hk->h)) {
		hk->h = CL_DISP_INVALID_HANDLE;
		return;
	}
	cl_disp_unregister(hk->h); /* waits for queries inside pr_front */
	hk->h = CL_DISP_INVALID_HANDLE;
	*osm_h = cl_disp_register(d, s->msg_id, s->osm_fn, &osm->sa);
	if (*osm_h == CL_DISP_INVALID_HANDLE)
		OQ_LOG(sa->osm, OSM_LOG_ERROR,
		       "could not give the SA %s handler back to OpenSM; "
		       "these queries will go unanswered, restart opensm\n",
		       s->name);
	else
		OQ_LOG(sa->osm, OSM_LOG_VERBOSE,
		       "SA %s handler given back to OpenSM\n", s->name);
}

/* Where a GuidInfoRecord Set or Delete goes: OpenSM's dispatcher of SA
 * Sets when it has one (osm_sa_mad_ctrl.c), else its only one. */
static cl_dispatcher_t *gir_disp(struct oq_sa *sa)
{
	return sa->osm->sa.p_set_disp ? sa->osm->sa.p_set_disp : &sa->osm->disp;
}

static cl_disp_reg_handle_t *gir_handle(struct oq_sa *sa)
{
	return sa->osm->sa.p_set_disp ? &sa->osm->sa.gir_set_disp_h
				      : &sa->osm->sa.gir_disp_h;
}

int oq_sa_front_takeover(struct oq_sa *sa)
{
	struct oq_sa_front *f = &sa->front;
	bool first = f->pr.h == CL_DISP_INVALID_HANDLE &&
		     f->mpr.h == CL_DISP_INVALID_HANDLE;
	int pr, mpr;

	pr = take_over(sa, &sa->osm->disp, &pr_slot, &sa->osm->sa.pr_disp_h,
		       &f->pr);
	mpr = take_over(sa, &sa->osm->disp, &mpr_slot, &sa->osm->sa.mpr_disp_h,
			&f->mpr);
	if (!take_over(sa, gir_disp(sa), &gir_slot, gir_handle(sa), &f->gir) &&
	    first)
		OQ_LOG(sa->osm, OSM_LOG_INFO,
		       "alias GUIDs set through the SA (GuidInfoRecord) reach "
		       "the plugin's PathRecord answers at the next heavy "
		       "sweep only\n");
	if (first && pr && mpr)
		OQ_LOG(sa->osm, OSM_LOG_INFO,
		       "SA PathRecord/MultiPathRecord handlers taken over "
		       "(unicast answered under the policy)\n");
	else if (first && (pr || mpr))
		OQ_LOG(sa->osm, OSM_LOG_INFO, "SA %s handler taken over\n",
		       pr ? pr_slot.name : mpr_slot.name);
	return pr + mpr;
}

void oq_sa_front_restore(struct oq_sa *sa)
{
	struct oq_sa_front *f = &sa->front;

	give_back(sa, &sa->osm->disp, &pr_slot, &sa->osm->sa.pr_disp_h, &f->pr);
	give_back(sa, &sa->osm->disp, &mpr_slot, &sa->osm->sa.mpr_disp_h,
		  &f->mpr);
	give_back(sa, gir_disp(sa), &gir_slot, gir_handle(sa), &f->gir);
}

static unsigned long load(const unsigned long *c)
{
	return __atomic_load_n(c, __ATOMIC_RELAXED);
}

void oq_sa_front_log_counters(struct oq_sa *sa, osm_log_level_t level)
{
	struct oq_sa_front *f = &sa->front;

	OQ_LOG(sa->osm, level,
	       "SA front: PathRecord %lu queries (%lu answered, %lu passed "
	       "to OpenSM), MultiPathRecord %lu queries (%lu answered, %lu "
	       "passed to OpenSM)\n",
	       load(&f->pr.queries), load(&f->pr.answered), load(&f->pr.passed),
	       load(&f->mpr.queries), load(&f->mpr.answered),
	       load(&f->mpr.passed));
}
