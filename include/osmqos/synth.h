/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Bandwidth intents run backwards through the arbitration model: from the
 * share each SL must be guaranteed (oq_sl_intents, policy.h) to SL2VL,
 * VLArb and VLHighLimit for a class of equal ports, each result checked
 * with the exact model (oq_predict_port), never by arithmetic on weights.
 * docs/intents.md says what an intent means and how tables are chosen.
 */
#ifndef OSMQOS_SYNTH_H
#define OSMQOS_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/model.h>
#include <osmqos/policy.h>
#include <osmqos/tables.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Distinct SL2VL rows a class keeps (more: the class is refused). */
#define OQ_SYNTH_MAX_ROWS 32

/* What a class of ports offers the synthesizer. */
struct oq_synth_port {
	unsigned int vls;      /* data VLs the port runs, 1..15 */
	unsigned int cap_high; /* VLArb entries OpenSM writes, 0..32 */
	unsigned int cap_low;
	uint32_t mtu; /* bytes per packet, 256..4096 */
	bool has_vlarb;
	/* SL2VL the synthesizer keeps (the routing engine's, a scope's, or
	 * a port without SL2VL: n_rows 0 and has_sl2vl false): the distinct
	 * rows of the input ports.  sl2vl_fixed false: it chooses one row. */
	bool sl2vl_fixed;
	bool has_sl2vl;
	uint8_t rows[OQ_SYNTH_MAX_ROWS][16];
	size_t n_rows;
};

enum oq_synth_status {
	OQ_SYNTH_OK = 0,
	OQ_SYNTH_INFEASIBLE, /* no tables within the port's limits meet it */
};

struct oq_synth_result {
	enum oq_synth_status status;
	uint8_t sl2vl[16]; /* the chosen row (rows[0] when kept) */
	struct oq_vlarb_table high, low;
	uint8_t limit; /* VLHighLimit */
	/* Guaranteed share of each SL by the model: the minimum over the
	 * class's input views, with all 16 SLs backlogged. */
	struct oq_frac share[16];
	/* Intent SLs that share their VL with another SL (too few VLs). */
	uint16_t merged;
	/* Infeasible: an SL whose intent is missed, the best share it can
	 * get next to the others (the intents scaled down together until
	 * they fit), and why in words. */
	int fail_sl;
	struct oq_frac best;
	char why[160];
	/* Infeasible, but sl2vl/high/low/limit hold the tables of the best
	 * common scale (what a port of the class gets programmed). */
	bool fallback;
};

/*
 * Choose tables for one class of ports so that every SL with an intent
 * gets at least its share, best-effort SLs (no intent) never starve, and
 * the high-priority SLs' VLHighLimit is the least that serves them.
 * Returns 0 (r->status says whether it is feasible), -1 on bad input.
 */
int oq_synth_port(const struct oq_synth_port *in,
		  const struct oq_sl_intents *it, struct oq_synth_result *r);

/* Guaranteed share of every SL for given tables on the class (the model,
 * minimum over its input views).  row: the SL2VL when the class lets the
 * synthesizer choose (ignored when its SL2VL is kept).  Returns 0, -1
 * when the model refuses the tables. */
int oq_synth_eval(const struct oq_synth_port *in, const uint8_t row[16],
		  const struct oq_vlarb_table *high,
		  const struct oq_vlarb_table *low, uint8_t limit,
		  struct oq_frac share[16]);

/* ---- a whole fabric (policy/synth/synth_fabric.c) --------------------- */

#define OQ_SYNTH_NONE UINT32_MAX

struct oq_synth_class {
	struct oq_synth_port in;
	struct oq_synth_result r;
	uint8_t width; /* link width and speed: Gb/s in reports */
	enum oq_speed speed;
	bool vlarb_kept; /* a qos-setup scope's VLArb: checked, not chosen */
	size_t rep;	 /* fabric index of the class's first port */
	size_t n_ports;
};

struct oq_synth_plan {
	struct oq_sl_intents intents;
	struct oq_synth_class *v;
	size_t n;
	uint32_t *of_port; /* fabric port index -> class, OQ_SYNTH_NONE */
	size_t n_ports;
	size_t n_infeasible; /* classes whose intents no tables meet */
	size_t n_missed;     /* classes under a scope's VLArb that miss one */
	size_t ports_missed; /* ports of those two kinds */
	size_t n_applied;    /* ports given synthesized tables */
	size_t n_unchecked; /* ports left alone: SL2VL unknown, too many rows */
};

/*
 * Synthesize the policy's intents for every port of the compiled fabric
 * tables t and put them in: ports no qos-setup scope covers get SL2VL and
 * VLArb (origin OQ_ORIGIN_INTENT); where a scope's or the routing
 * engine's SL2VL stays (e->kind != OQ_ENGINE_QOS keeps every port's), the
 * VLArb is chosen around it; a scope's VLArb stays and is only checked.
 * Diagnostics: an error per level and class that cannot be met (its
 * ports get the tables of the best common scale), a warning per level and
 * class a scope's VLArb misses, a note per class whose intent SLs share a
 * VL, a warning for ports left alone (an SL2VL the synthesizer cannot
 * see).  Returns 0, -1 when out of memory (t then
 * unchanged for the ports not yet done).  A policy without intents leaves
 * t alone.
 */
int oq_synth_apply(const struct oq_policy *p, const struct oq_fabric *f,
		   const struct oq_engine *e, struct oq_fabric_tables *t,
		   struct oq_synth_plan *out, struct oq_diags *d);
void oq_synth_plan_free(struct oq_synth_plan *plan);
/* The class of fabric port index i, or NULL. */
const struct oq_synth_class *oq_synth_class_of(const struct oq_synth_plan *pl,
					       size_t i);

/* share >= bp hundredths of a percent, exactly. */
bool oq_frac_meets_bp(struct oq_frac share, uint32_t bp);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_SYNTH_H */
