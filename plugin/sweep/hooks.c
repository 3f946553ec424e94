// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * One writer for the QoS tables: OpenSM's osm_qos_setup() stays the only
 * code that sends SL2VL and VLArb Sets, and it asks the routing engine in
 * use for every port's final contents through update_sl2vl/update_vlarb.
 * We wrap those two hooks on every routing engine, so osm_qos_setup sends
 * exactly the policy's tables, diffs them against what the ports hold (no
 * MADs when nothing changed), and never fights us on the next sweep.
 *
 * Engines that choose SLs for deadlock freedom (path_sl: dfsssp, lash,
 * nue) leave SL2VL on the template, and torus-2QoS programs its own and
 * rewrites the VLArb of switch ports facing end ports.  The table compiler
 * models that (tables.h, oq_tables_compile_engine) and calls the live
 * engine's own hooks for its part, so the compiled tables are exactly what
 * goes on the wire: the wrappers hand them out, count the Sets they cause,
 * and never call the engine a second time.  dfsssp, lash and nue keep no
 * SL2VL wrapper (it would turn off OpenSM's optimized SL2VL path); their
 * template SL2VL Sets are counted by sl2vl_count.c.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/clock.h>

#include "sl2vl_count.h"
#include "sweep.h"

struct oq_hooked_engine {
	osm_routing_engine_t *re;
	void (*orig_sl2vl)(void *ctx, osm_physp_t *p, uint8_t in, uint8_t out,
			   ib_slvl_table_t *t);
	void (*orig_vlarb)(void *ctx, osm_physp_t *p, uint8_t port_num,
			   ib_vl_arb_table_t *block, unsigned len,
			   unsigned block_num);
	enum oq_engine_kind kind;
	struct oq_hooked_engine *next;
};

/* The one plugin instance's sweep (OpenSM loads a plugin once per
 * process): the hooks have no context pointer of their own to reach it. */
static struct oq_sweep *hooked_sweep;

static struct oq_hooked_engine *find_engine(struct oq_sweep *sw, void *ctx)
{
	osm_routing_engine_t *used = sw->osm->routing_engine_used;
	struct oq_hooked_engine *h;

	/* Several engines can share a context pointer (NULL for minhop and
	 * updn), so prefer the engine OpenSM says is in use. */
	for (h = sw->hooked; h; h = h->next)
		if (h->re == used)
			return h;
	for (h = sw->hooked; h; h = h->next)
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
 * lock held exclusively, so this snapshot has the final partitions.  The
 * hooks run in the state manager's thread only, so they share one
 * reference (sw->hook_state), dropped at UCAST_ROUTING_DONE, instead of
 * taking and dropping one per call (hundreds of thousands per sweep on a
 * large fabric).
 */
static struct oq_sweep_state *hook_state_renew(struct oq_sweep *sw)
{
	struct oq_sweep_state *s;
	uint64_t cpu0;
	bool reused;

	if (sw->qos_setup_sweep != sw->sweeps) {
		sw->qos_setup_sweep = sw->sweeps;
		cpu0 = oq_thread_cpu_ns();
		/* Routes are computed (osm_ucast_mgr_process ran before
		 * osm_qos_setup): snapshot the LFTs too, so the SA's state
		 * at UCAST_ROUTING_DONE builds on this one.  A sweep that
		 * changed nothing keeps the state in force. */
		s = oq_sweep_state_renew(sw, true, &reused);
		if (s && !reused)
			oq_sweep_publish(sw, s);
		else
			oq_sweep_put(s);
		oq_hooks_release_state(sw);
		sw->phases.cpu_ns += oq_thread_cpu_ns() - cpu0;
	}
	if (!sw->hook_state)
		sw->hook_state = oq_sweep_get(sw);
	return sw->hook_state;
}

/* Every hook call asks: inline, so that the calls after a sweep's first
 * cost a compare. */
static inline struct oq_sweep_state *hook_state(struct oq_sweep *sw)
{
	if (sw->qos_setup_sweep == sw->sweeps && sw->hook_state)
		return sw->hook_state;
	return hook_state_renew(sw);
}

void oq_hooks_release_state(struct oq_sweep *sw)
{
	oq_sweep_put(sw->hook_state);
	sw->hook_state = NULL;
	sw->hook_last_p = NULL;
	sw->hook_last_t = NULL;
	sw->hook_last_rows = NULL;
}

/* OpenSM calls the SL2VL hook for every input port of one output port in
 * a row: remember the last port's tables and packed rows. */
static const struct oq_port_tables *
hook_tables_of(struct oq_sweep *sw, const struct oq_sweep_state *s,
	       const void *p)
{
	const struct oq_port_tables *t;

	if (p != sw->hook_last_p) {
		t = oq_sweep_tables_after(s, p, sw->hook_last_t);
		sw->hook_last_t = t;
		sw->hook_last_rows =
			t && t->has_sl2vl
				? oq_hook_rows_of(&sw->hook_rows, s, t)
				: NULL;
		sw->hook_last_p = p;
	}
	return sw->hook_last_t;
}

/*
 * The hooks' time for the sweep's phases line.  Reading the clock twice
 * per call would cost about as much as the call itself (OpenSM calls the
 * SL2VL hook for every input/output port pair), so one call in
 * HOOK_SAMPLE is timed and the mean of the samples stands for every call.
 * A sample's interval holds one clock read besides the call (the end of
 * the first read and the start of the second), and a read costs more
 * beside the call than in a tight loop: about as much as the SL2VL hook's
 * own work.  So one more read right after the sample's end times a read
 * where the call ran, and that is taken off the sample; the differences
 * are summed signed, as one of them may come out below zero.
 *
 * A sample longer than HOOK_SAMPLE_MAX_NS, or whose extra read took
 * longer than HOOK_CLOCK_MAX_NS, was preempted or interrupted: a call's
 * own work stays well under the first, the first call of a sweep on cold
 * caches included (docs/performance.md), and a read (tens of ns) under
 * the second.  Such a sample would stand for HOOK_SAMPLE calls of time
 * that is not the plugin's, added or taken off, so it is left out.
 */
#define HOOK_SAMPLE	   256
#define HOOK_SAMPLE_MAX_NS 5000
#define HOOK_CLOCK_MAX_NS  1000

static uint64_t sample_start(struct oq_sweep *sw)
{
	return sw->phases.hook_calls++ % HOOK_SAMPLE ? 0 : oq_clock_ns();
}

static void sample_end(struct oq_sweep *sw, uint64_t t0)
{
	uint64_t t1, t2;

	if (!t0)
		return;
	t1 = oq_clock_ns();
	t2 = oq_clock_ns();
	if (t1 - t0 > HOOK_SAMPLE_MAX_NS || t2 - t1 > HOOK_CLOCK_MAX_NS)
		return;
	sw->phases.hook_sampled_ns += (int64_t)(t1 - t0) - (int64_t)(t2 - t1);
	sw->phases.hook_samples++;
}

static bool force_update(struct oq_sweep *sw, const osm_physp_t *p)
{
	return p->need_update || sw->osm->subn.need_update;
}

/* The SL2VL Sets osm_qos_setup is about to send for this node by itself
 * (engine without update_sl2vl): decided at the node's first VLArb block,
 * which it asks for before the node's SL2VL. */
static void count_template_sl2vl(struct oq_sweep *sw,
				 const struct oq_sweep_state *s, osm_physp_t *p,
				 uint8_t port_num, unsigned int block_num)
{
	osm_node_t *node = osm_physp_get_node_ptr(p);

	if (!s || block_num != (p->port_info.vl_arb_low_cap ? 0u : 2u))
		return;
	if (!port_num)
		sw->mads_predicted += oq_sl2vl_count_endport(sw, s, p);
	else if (node->sw && oq_sl2vl_count_first_port(node, p))
		sw->mads_predicted += oq_sl2vl_count_switch(sw, s, node);
}

static void hook_vlarb(void *ctx, osm_physp_t *p, uint8_t port_num,
		       ib_vl_arb_table_t *block, unsigned int len,
		       unsigned int block_num)
{
	struct oq_sweep *sw = hooked_sweep;
	const struct oq_port_tables *t;
	const struct oq_vlarb_table *src;
	struct oq_hooked_engine *h;
	struct oq_sweep_state *s;
	unsigned int i, base, mask;
	uint64_t t0;

	if (!sw)
		return;
	h = find_engine(sw, ctx);
	s = hook_state(sw);
	t0 = sample_start(sw);
	if (h && h->kind == OQ_ENGINE_PATH_SL)
		count_template_sl2vl(sw, s, p, port_num, block_num);
	/* Its four blocks, then its SL2VL, come in a row: the same port. */
	t = hook_tables_of(sw, s, p);
	if (!t || !t->has_vlarb || block_num > 3 ||
	    len > IB_NUM_VL_ARB_ELEMENTS_IN_BLOCK) {
		/* Unknown port (appeared after the snapshot): keep the
		 * template OpenSM offers, or the engine's. */
		if (h && h->orig_vlarb)
			h->orig_vlarb(ctx, p, port_num, block, len, block_num);
		goto out;
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
	if (i < len || force_update(sw, p))
		sw->mads_predicted++;
out:
	sample_end(sw, t0);
}

static void hook_sl2vl(void *ctx, osm_physp_t *p, uint8_t in, uint8_t out,
		       ib_slvl_table_t *tbl)
{
	struct oq_sweep *sw = hooked_sweep;
	const struct oq_port_tables *t;
	struct oq_hooked_engine *h;
	struct oq_sweep_state *s;
	uint64_t t0, row;
	unsigned int i;

	if (!sw)
		return;
	sw->sl2vl_hooked = true;
	s = hook_state(sw);
	t0 = sample_start(sw);
	t = hook_tables_of(sw, s, p);
	if (!t || !t->has_sl2vl || in >= t->n_sl2vl) {
		/* Unknown port: the template, or the engine's table, which
		 * OpenSM may send (uncounted). */
		h = find_engine(sw, ctx);
		if (h && h->orig_sl2vl)
			h->orig_sl2vl(ctx, p, in, out, tbl);
		oq_sl2vl_dirty_add(&sw->sl2vl_dirty, p);
		goto out;
	}
	i = t->n_sl2vl == 1 ? 0 : in;
	/* No packed rows (out of memory): pack this one. */
	row = sw->hook_last_rows ? sw->hook_last_rows[i]
				 : oq_sl2vl_pack(t->sl2vl[i]);
	memcpy(tbl->raw_vl_by_sl, &row, sizeof(row));
	if (oq_sl2vl_would_send_packed(p, in, row, force_update(sw, p))) {
		sw->mads_predicted++;
		oq_sl2vl_dirty_add(&sw->sl2vl_dirty, p);
	}
out:
	sample_end(sw, t0);
}

/* The engine whose tables this sweep programs: the one OpenSM routed
 * with, or before the first routing run the first one it will try. */
static struct oq_hooked_engine *current_engine(struct oq_sweep *sw)
{
	osm_routing_engine_t *re = sw->osm->routing_engine_used;
	struct oq_hooked_engine *h;

	if (!re)
		re = sw->osm->routing_engine_list;
	if (!re)
		re = sw->osm->default_routing_engine;
	for (h = sw->hooked; h; h = h->next)
		if (h->re == re)
			return h;
	return NULL;
}

static int live_sl2vl(void *ctx, const struct oq_port *p, unsigned int in,
		      uint8_t row[16])
{
	struct oq_hooked_engine *h = ctx;
	ib_slvl_table_t tbl;
	unsigned int sl, out = oq_port_is_endport(p) ? 0 : p->num;

	if (!p->user)
		return 0;
	for (sl = 0; sl < 16; sl++)
		ib_slvl_table_set(&tbl, (uint8_t)sl, row[sl]);
	h->orig_sl2vl(h->re->context, p->user, (uint8_t)in, (uint8_t)out, &tbl);
	for (sl = 0; sl < 16; sl++)
		row[sl] = ib_slvl_table_get(&tbl, (uint8_t)sl);
	return 0;
}

static void live_vlarb(void *ctx, const struct oq_port *p,
		       unsigned int block_num, struct oq_vlarb_table *t,
		       unsigned int first, unsigned int n)
{
	struct oq_hooked_engine *h = ctx;
	uint8_t port_num = oq_port_is_endport(p) ? 0 : p->num;
	ib_vl_arb_table_t block;
	unsigned int i;

	if (!p->user || n > IB_NUM_VL_ARB_ELEMENTS_IN_BLOCK)
		return;
	memset(&block, 0, sizeof(block));
	for (i = 0; i < n; i++) {
		block.vl_entry[i].vl = t->e[first + i].vl;
		block.vl_entry[i].weight = t->e[first + i].weight;
	}
	h->orig_vlarb(h->re->context, p->user, port_num, &block, n, block_num);
	for (i = 0; i < n; i++) {
		t->e[first + i].vl = block.vl_entry[i].vl;
		t->e[first + i].weight = block.vl_entry[i].weight;
	}
}

/*
 * The engine for this sweep's table compile.  Its own hooks are called
 * only after it has routed (routing_engine_used is set only then): before
 * its first run torus-2QoS has no torus to answer from.
 */
enum oq_engine_kind oq_hooks_engine(struct oq_sweep *sw, struct oq_engine *e)
{
	struct oq_hooked_engine *h = current_engine(sw);

	oq_engine_by_name(e, NULL);
	if (!h)
		return e->kind;
	snprintf(e->name, sizeof(e->name), "%s", h->re->name);
	e->kind = h->kind;
	if (h->re != sw->osm->routing_engine_used)
		return e->kind;
	e->ctx = h;
	if (h->kind == OQ_ENGINE_OWN && h->orig_sl2vl)
		e->sl2vl = live_sl2vl;
	if (h->orig_vlarb)
		e->vlarb = live_vlarb;
	return e->kind;
}

static enum oq_engine_kind kind_of(const osm_routing_engine_t *re)
{
	if (re->update_sl2vl)
		return OQ_ENGINE_OWN;
	return re->path_sl ? OQ_ENGINE_PATH_SL : OQ_ENGINE_QOS;
}

/*
 * Wrap every engine in OpenSM's list (the list exists from the first sweep
 * on: create() runs before OpenSM sets the engines up).  Idempotent.
 */
static void hook_engine(struct oq_sweep *sw, osm_routing_engine_t *re)
{
	struct oq_hooked_engine *h;

	for (h = sw->hooked; h && h->re != re; h = h->next)
		;
	if (h)
		return;
	h = calloc(1, sizeof(*h));
	if (!h) {
		OQ_LOG(sw->osm, OSM_LOG_ERROR,
		       "out of memory hooking routing engine %s\n", re->name);
		return;
	}
	h->re = re;
	/* Never our own hooks as the engine's: a fallback to them would
	 * call itself. */
	h->orig_sl2vl =
		re->update_sl2vl == hook_sl2vl ? NULL : re->update_sl2vl;
	h->orig_vlarb =
		re->update_vlarb == hook_vlarb ? NULL : re->update_vlarb;
	h->kind = kind_of(re);
	h->next = sw->hooked;
	sw->hooked = h;
	/* Every engine gets the VLArb wrapper.  The SL2VL one goes where
	 * SL2VL is the policy's or the engine's own; an engine without the
	 * hook whose SL2VL is the template keeps OpenSM's one-MAD optimized
	 * path (which any update_sl2vl turns off), and sl2vl_count.c counts
	 * OpenSM's Sets there.  Where the policy owns SL2VL, sl2vl_presend.c
	 * sends that one MAD itself. */
	if (h->kind != OQ_ENGINE_PATH_SL)
		re->update_sl2vl = hook_sl2vl;
	re->update_vlarb = hook_vlarb;
	OQ_LOG(sw->osm, OSM_LOG_VERBOSE,
	       "hooked routing engine %s (SL2VL %s)\n", re->name,
	       h->kind == OQ_ENGINE_OWN	      ? "the engine's"
	       : h->kind == OQ_ENGINE_PATH_SL ? "the template's"
					      : "from the policy");
}

/*
 * Wrap every engine OpenSM may route with: the configured list and the
 * minhop fallback, which is not on the list unless named.  The engines
 * exist from the first sweep on (create() runs before OpenSM sets them
 * up).  Idempotent.
 */
void oq_hooks_install(struct oq_sweep *sw)
{
	osm_routing_engine_t *re;

	hooked_sweep = sw;
	for (re = sw->osm->routing_engine_list; re; re = re->next)
		hook_engine(sw, re);
	if (sw->osm->default_routing_engine)
		hook_engine(sw, sw->osm->default_routing_engine);
}

void oq_hooks_remove(struct oq_sweep *sw)
{
	struct oq_hooked_engine *h, *next;

	/* At shutdown OpenSM destroys its routing engines before the
	 * plugins (and clears the list): then there is nothing to restore. */
	bool engines_alive = sw->osm->default_routing_engine != NULL;

	for (h = sw->hooked; h; h = next) {
		next = h->next;
		if (engines_alive) {
			h->re->update_sl2vl = h->orig_sl2vl;
			h->re->update_vlarb = h->orig_vlarb;
		}
		free(h);
	}
	sw->hooked = NULL;
	hooked_sweep = NULL;
}
