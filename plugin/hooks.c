// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One writer for the QoS tables: OpenSM's osm_qos_setup() stays the only
 * code that sends SL2VL and VLArb Sets, and it asks the routing engine in
 * use for every port's final contents through update_sl2vl/update_vlarb.
 * We wrap those two hooks on every routing engine, so osm_qos_setup sends
 * exactly the policy's tables, diffs them against what the ports hold (no
 * MADs when nothing changed), and never fights us on the next sweep.
 *
 * An engine that owns SL/VL for deadlock freedom (it has path_sl or its own
 * update_sl2vl: dfsssp, lash, nue, torus-2QoS) keeps SL2VL; we still supply
 * VLArb and VLHighLimit (set in the VLArb hook: osm_qos_setup assigns
 * p->vl_high_limit just before it asks for a port's VLArb blocks, and the
 * link manager sends it in PortInfo).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "plugin.h"

struct oq_hooked_engine {
	osm_routing_engine_t *re;
	void (*orig_sl2vl)(void *ctx, osm_physp_t *p, uint8_t in, uint8_t out,
			   ib_slvl_table_t *t);
	void (*orig_vlarb)(void *ctx, osm_physp_t *p, uint8_t port_num,
			   ib_vl_arb_table_t *block, unsigned len,
			   unsigned block_num);
	bool engine_owns_sl2vl;
	struct oq_hooked_engine *next;
};

struct osmqos *oq_plugin;

static struct oq_hooked_engine *find_engine(struct osmqos *q, void *ctx)
{
	osm_routing_engine_t *used = q->osm->routing_engine_used;
	struct oq_hooked_engine *h;

	/* Several engines can share a context pointer (NULL for minhop and
	 * updn), so prefer the engine OpenSM says is in use. */
	for (h = q->hooked; h; h = h->next)
		if (h->re == used)
			return h;
	for (h = q->hooked; h; h = h->next)
		if (h->re->context == ctx)
			return h;
	return NULL;
}

/* OpenSM masks VLs to the port's OperVLs after the hook; so do we, to
 * predict exactly whether it will send (it sends when the masked table
 * differs from what the port holds, or the port needs an update). */
static unsigned int vl_mask_of(const osm_physp_t *p)
{
	unsigned int ops = ib_port_info_get_op_vls(&p->port_info);

	return ops ? (1u << (ops - 1)) - 1 : 0;
}

/*
 * The state the hooks use.  The first hook call of a sweep rebuilds it:
 * osm_qos_setup runs after the drop, pkey and LID managers, with OpenSM's
 * lock held exclusively, so this snapshot has the final partitions.
 */
static struct oq_state *hook_state(struct osmqos *q)
{
	struct oq_state *s;

	if (q->qos_setup_sweep != q->sweeps) {
		q->qos_setup_sweep = q->sweeps;
		s = oq_state_build(q, false);
		if (s)
			oq_state_publish(q, s);
	}
	return oq_state_get(q);
}

static bool force_update(struct osmqos *q, const osm_physp_t *p)
{
	return p->need_update || q->osm->subn.need_update;
}

static void hook_vlarb(void *ctx, osm_physp_t *p, uint8_t port_num,
		       ib_vl_arb_table_t *block, unsigned int len,
		       unsigned int block_num)
{
	struct osmqos *q = oq_plugin;
	const struct oq_port_tables *t;
	const struct oq_vlarb_table *src;
	struct oq_hooked_engine *h;
	struct oq_state *s;
	unsigned int i, base, mask;

	if (!q)
		return;
	h = find_engine(q, ctx);
	s = hook_state(q);
	t = oq_state_tables_of(s, p);
	if (!t || !t->has_vlarb || block_num > 3 ||
	    len > IB_NUM_VL_ARB_ELEMENTS_IN_BLOCK) {
		/* Unknown port (appeared after the snapshot): keep the
		 * template OpenSM offers, or the engine's. */
		if (h && h->orig_vlarb)
			h->orig_vlarb(ctx, p, port_num, block, len, block_num);
		oq_state_put(q, s);
		return;
	}
	src = block_num < 2 ? &t->vlarb_low : &t->vlarb_high;
	base = (block_num & 1) * IB_NUM_VL_ARB_ELEMENTS_IN_BLOCK;
	memset(block, 0, sizeof(*block));
	for (i = 0; i < len && base + i < src->n; i++) {
		block->vl_entry[i].vl = src->e[base + i].vl;
		block->vl_entry[i].weight = src->e[base + i].weight;
	}
	p->vl_high_limit = t->vl_high_limit;

	mask = vl_mask_of(p);
	for (i = 0; i < len; i++)
		if ((block->vl_entry[i].vl & mask) !=
			    p->vl_arb[block_num].vl_entry[i].vl ||
		    block->vl_entry[i].weight !=
			    p->vl_arb[block_num].vl_entry[i].weight)
			break;
	if (i < len || force_update(q, p))
		q->mads_predicted++;
	oq_state_put(q, s);
}

static void hook_sl2vl(void *ctx, osm_physp_t *p, uint8_t in, uint8_t out,
		       ib_slvl_table_t *tbl)
{
	struct osmqos *q = oq_plugin;
	const struct oq_port_tables *t;
	const ib_slvl_table_t *cur;
	struct oq_hooked_engine *h;
	struct oq_state *s;
	unsigned int sl, mask;
	const uint8_t *row;

	if (!q)
		return;
	h = find_engine(q, ctx);
	if (h && h->engine_owns_sl2vl) {
		if (h->orig_sl2vl)
			h->orig_sl2vl(ctx, p, in, out, tbl);
		return;
	}
	s = hook_state(q);
	t = oq_state_tables_of(s, p);
	if (!t || !t->has_sl2vl || in >= t->n_sl2vl) {
		oq_state_put(q, s);
		return; /* keep the template */
	}
	row = t->n_sl2vl == 1 ? t->sl2vl[0] : t->sl2vl[in];
	for (sl = 0; sl < 16; sl += 2)
		tbl->raw_vl_by_sl[sl / 2] =
			(uint8_t)((row[sl] & 0xf) << 4 | (row[sl + 1] & 0xf));

	mask = vl_mask_of(p);
	cur = osm_physp_get_slvl_tbl(p, in);
	for (sl = 0; sl < 16; sl++) {
		unsigned int v = row[sl];

		if (v != 15)
			v &= mask;
		if (ib_slvl_table_get(cur, (uint8_t)sl) != v)
			break;
	}
	if (sl < 16 || force_update(q, p))
		q->mads_predicted++;
	oq_state_put(q, s);
}

/* Does the policy (not the routing engine) decide SL2VL this sweep?  Before
 * the first routing run no engine is "used" yet: the first configured one
 * will be tried first. */
bool oq_hooks_policy_owns_sl2vl(struct osmqos *q)
{
	osm_routing_engine_t *re = q->osm->routing_engine_used;
	struct oq_hooked_engine *h;

	if (!re)
		re = q->osm->routing_engine_list;
	if (!re)
		re = q->osm->default_routing_engine;
	for (h = q->hooked; h; h = h->next)
		if (h->re == re)
			return !h->engine_owns_sl2vl;
	return false;
}

static bool owns_sl2vl(const osm_routing_engine_t *re)
{
	return re->path_sl || re->update_sl2vl;
}

/*
 * Wrap every engine in OpenSM's list (the list exists from the first sweep
 * on: create() runs before OpenSM sets the engines up).  Idempotent.
 */
static void hook_engine(struct osmqos *q, osm_routing_engine_t *re)
{
	struct oq_hooked_engine *h;

	for (h = q->hooked; h && h->re != re; h = h->next)
		;
	if (h)
		return;
	h = calloc(1, sizeof(*h));
	if (!h) {
		OQ_LOG(q, OSM_LOG_ERROR,
		       "out of memory hooking routing engine %s\n", re->name);
		return;
	}
	h->re = re;
	h->orig_sl2vl = re->update_sl2vl;
	h->orig_vlarb = re->update_vlarb;
	h->engine_owns_sl2vl = owns_sl2vl(re);
	h->next = q->hooked;
	q->hooked = h;
	/* Engines that own SL2VL keep their hook untouched (a NULL one keeps
	 * OpenSM's optimized SL2VL path too). */
	if (!h->engine_owns_sl2vl)
		re->update_sl2vl = hook_sl2vl;
	re->update_vlarb = hook_vlarb;
	OQ_LOG(q, OSM_LOG_VERBOSE, "hooked routing engine %s (SL2VL %s)\n",
	       re->name,
	       h->engine_owns_sl2vl ? "owned by the engine"
				    : "from the policy");
}

/*
 * Wrap every engine OpenSM may route with: the configured list and the
 * minhop fallback, which is not on the list unless named.  The engines
 * exist from the first sweep on (create() runs before OpenSM sets them
 * up).  Idempotent.
 */
void oq_hooks_install(struct osmqos *q)
{
	osm_routing_engine_t *re;

	for (re = q->osm->routing_engine_list; re; re = re->next)
		hook_engine(q, re);
	if (q->osm->default_routing_engine)
		hook_engine(q, q->osm->default_routing_engine);
}

void oq_hooks_remove(struct osmqos *q)
{
	struct oq_hooked_engine *h, *next;

	/* At shutdown OpenSM destroys its routing engines before the
	 * plugins (and clears the list): then there is nothing to restore. */
	bool engines_alive = q->osm->default_routing_engine != NULL;

	for (h = q->hooked; h; h = next) {
		next = h->next;
		if (engines_alive) {
			h->re->update_sl2vl = h->orig_sl2vl;
			h->re->update_vlarb = h->orig_vlarb;
		}
		free(h);
	}
	q->hooked = NULL;
}
