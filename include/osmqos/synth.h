/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Intents run backwards through the arbitration model: from the share
 * each SL must be guaranteed and the longest wait it may see at one
 * output port (oq_sl_intents, policy.h) to SL2VL, VLArb and VLHighLimit
 * for a class of equal ports, each result checked with the exact model
 * (shares by oq_arb_run, waits by oq_arb_worst_wait), never by
 * arithmetic on weights alone.  docs/intents.md says what an intent
 * means and how tables are chosen.
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
	uint32_t mtu;	  /* bytes per packet, 256..4096 */
	double rate_gbps; /* link data rate: latency intents to bytes */
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
	/* Guaranteed share of each SL by the model: its VL's share with
	 * every VL the class's SL2VL reaches backlogged (the least over the
	 * VLs the kept rows send it to); the VL group's when it shares the
	 * VL (vl_sls).  wait: the worst wait of each intent SL at one port of
	 * the class, bytes of link time (OQ_WAIT_UNBOUNDED elsewhere). */
	struct oq_frac share[16];
	uint64_t wait[16];
	uint16_t wait_bound; /* SLs whose wait is an upper bound (model.h) */
	uint16_t vl_sls[OQ_MAX_VLS]; /* SLs on each VL, every input row */
	/* Intent SLs that share their VL with another SL (too few VLs, or
	 * a kept SL2VL). */
	uint16_t merged;
	/* Infeasible: an SL whose intent is missed and why in words.  For
	 * a bandwidth intent, the best share it can get next to the others
	 * (the intents scaled down together until they fit); for a latency
	 * intent (lat_fail), the smallest worst wait the synthesizer
	 * reaches for its VL there (best_wait, bytes). */
	int fail_sl;
	struct oq_frac best;
	bool lat_fail;
	uint64_t best_wait;
	char why[200];
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

/* The port tables of a class's result (rows: room for OQ_SYNTH_MAX_ROWS
 * rows; no port: every row counts), for the model's other views of it
 * (a what-if with some SLs busy, oq_predict_port). */
void oq_synth_class_tables(const struct oq_synth_port *in,
			   const struct oq_synth_result *r, uint8_t (*rows)[16],
			   struct oq_port_tables *t);

/* Check given tables (r->sl2vl, high, low, limit: a scope's VLArb under
 * the class's own SL2VL) against the intents: fills r's shares, waits and
 * status (fail_sl the first intent SL missed, lat_fail when a latency
 * intent).  Returns 0, -1 when the model refuses the tables. */
int oq_synth_check(const struct oq_synth_port *in,
		   const struct oq_sl_intents *it, struct oq_synth_result *r);

/* What given tables guarantee on the class (the model, oq_port_guarantee
 * with every VL the SL2VL reaches backlogged; waits for the VLs in
 * wait_vls only).  row: the SL2VL when the class lets the synthesizer
 * choose (ignored when its SL2VL is kept).  Returns 0, -1 when the model
 * refuses the tables. */
int oq_synth_eval(const struct oq_synth_port *in, const uint8_t row[16],
		  const struct oq_vlarb_table *high,
		  const struct oq_vlarb_table *low, uint8_t limit,
		  uint16_t wait_vls, struct oq_port_guarantee *g);
/* The same with a state cap of each wait computation (oq_arb_worst_wait). */
int oq_synth_eval_states(const struct oq_synth_port *in, const uint8_t row[16],
			 const struct oq_vlarb_table *high,
			 const struct oq_vlarb_table *low, uint8_t limit,
			 uint16_t wait_vls, size_t states,
			 struct oq_port_guarantee *g);

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

/* The class's SL2VL stays as it is: a routing engine's, a scope's, or
 * the one a vlarb-scope's weights were written for (the template). */
static inline bool oq_synth_class_sl2vl_kept(const struct oq_synth_class *c)
{
	return c->in.sl2vl_fixed || c->vlarb_kept;
}

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

/* A latency intent of ns nanoseconds in bytes of link time at rate_gbps,
 * as the synthesizer checks it (0: none; 1 at least). */
uint64_t oq_synth_latency_bytes(double rate_gbps, uint64_t ns);

/* share >= bp hundredths of a percent, exactly. */
bool oq_frac_meets_bp(struct oq_frac share, uint32_t bp);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_SYNTH_H */
