/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The arbitration model: link data rates, the IBA 1.2.1 section 7.6.9 VL
 * arbiter as a deterministic automaton with exact per-VL byte shares, the
 * per-SL view of a port, the path view, and the ConnectX-2 vendor profile.
 * Semantics are defined precisely in docs/model.md.
 *
 * Nothing here allocates: oq_arb_run() and oq_predict_port() work on
 * caller-provided structs, so the plugin may call them per port in a sweep
 * or from SA threads.
 */
#ifndef OSMQOS_MODEL_H
#define OSMQOS_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/fabric.h>
#include <osmqos/tables.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- exact fractions ------------------------------------------------- */

struct oq_frac {
	uint64_t num, den; /* reduced; den > 0 (0/1 for zero) */
};

uint64_t oq_gcd_u64(uint64_t a, uint64_t b);
struct oq_frac oq_frac_make(uint64_t num, uint64_t den); /* reduces */
double oq_frac_double(struct oq_frac f);
/* "n/d" (or "0", "1"); returns what snprintf returns. */
int oq_frac_format(struct oq_frac f, char *buf, size_t len);
/* -1, 0, 1 like strcmp; exact (128-bit cross product). */
int oq_frac_cmp(struct oq_frac a, struct oq_frac b);

/* ---- link rates (policy/linkrate.c) ---------------------------------- */

/* Data rate of one lane in Gb/s after line encoding: SDR 2, DDR 4, QDR 8,
 * FDR10 10, FDR 13.636..., EDR 25, HDR 50, NDR 100.  0 for UNKNOWN. */
double oq_lane_data_gbps(enum oq_speed s);
/* width (1, 2, 4, 8, 12 lanes) x lane data rate; 0 when either is
 * unknown or invalid. */
double oq_link_data_gbps(uint8_t width, enum oq_speed s);
/* Data rate of a port's link (its active width and speed). */
double oq_port_data_gbps(const struct oq_port *p);

/* PortInfo fields (IBA wire encodings) to the fabric model's scales, for
 * the plugin's snapshot of OpenSM's copy and the CLI's own SMP reads. */
/* VLCap / OperVLs 1..5 -> data VLs (1, 2, 4, 8, 15); 0 invalid. */
uint8_t oq_vls_from_enc(uint8_t enc);
/*
 * Cap every linked port's OperVLs at opensm.conf max_op_vls (an encoding
 * as above; struct oq_templates carries it), as OpenSM's link manager
 * does (osm_physp_calc_link_op_vls()), for a fabric read from a file,
 * where OperVLs is the smaller VLCap of the link's ends.  A port without
 * OperVLs counts its VLCap.  Before the tables are compiled.
 */
void oq_fabric_cap_oper_vls(struct oq_fabric *f, uint8_t max_op_vls);
/* LinkWidthActive (1 1x, 2 4x, 4 8x, 8 12x, 16 2x) -> lanes; 0 invalid. */
uint8_t oq_lanes_from_width(uint8_t width);
/* LinkSpeedExtActive (1 FDR, 2 EDR, 4 HDR, and 8 NDR where the OpenSM
 * release knows it) when ext (extended speeds apply: the CapabilityMask
 * bit), else FDR10 when fdr10 (Mellanox's ExtendedPortInfo), else
 * LinkSpeedActive (1 SDR, 2 DDR, 4 QDR). */
enum oq_speed oq_speed_from_ib(uint8_t speed_active, uint8_t speed_ext_active,
			       bool ext, bool fdr10);

/* PathRecord/PortInfo rate encoding (IBA table 224 plus the extended
 * rates 11..24, as OpenSM's IB_PATH_RECORD_RATE_*).  23 and 24 (800 and
 * 1200 Gb/s) exist from OpenSM 3.3.24 on (osmqos/osm_release.h). */
#define OQ_RATE_MIN 2  /* 2.5 Gb/s */
#define OQ_RATE_MAX 24 /* 1200 Gb/s */
/* Rate enum of a width/speed pair, as OpenSM computes it (FDR10 counts as
 * 10 Gb/s per lane).  0 when the pair has no encoding (unknown width or
 * speed; NDR 8x/12x in a release without rates 23 and 24). */
uint8_t oq_rate_enum(uint8_t width, enum oq_speed s);
/* The nominal Gb/s the encoding names (2 -> 2.5, 12 -> 56); 0 invalid. */
double oq_rate_enum_gbps(uint8_t rate);

/* IB MTU enum 1..5 -> bytes (256..4096); 0 for anything else. */
unsigned int oq_mtu_bytes(uint8_t mtu_enum);

/*
 * A full packet (its payload fills the MTU) is longer on the wire than the
 * MTU by its headers: at least LRH 8 + BTH 12 + ICRC 4 + VCRC 2 = 26 bytes;
 * at most 126 with a GRH (40) and 60 bytes of extended transport headers,
 * more than any data packet carries (RDETH 4 + DETH 8 + RETH 16 + ImmDt 4 =
 * 32 is the most).  Both ends are more than 0 and less than 128 bytes past
 * the MTU, so a full packet costs MTU/64 + 1 or MTU/64 + 2 credits, never
 * MTU/64.  The general model (oq_port_guarantee, osmqos predict, the
 * published figures) takes a packet of an MTU of bytes unless told
 * otherwise; the synthesizer's promises hold over this whole range and for
 * MTU-size packets (policy/synth/synth_eval.c, docs/intents.md section 2).
 */
#define OQ_FULL_PKT_HDR_MIN 26u
#define OQ_FULL_PKT_HDR_MAX 126u

/* ---- the arbiter (policy/arbiter.c) ---------------------------------- */

#define OQ_ARB_UNLIMITED	 255 /* VLHighLimit: no byte limit */
#define OQ_ARB_DEFAULT_MAX_STEPS (1u << 22)
#define OQ_ARB_MAX_PKT		 65535 /* largest packet size accepted */

struct oq_arb_config {
	const struct oq_vlarb_table *high; /* NULL = empty table */
	const struct oq_vlarb_table *low;
	uint8_t high_limit; /* VLHighLimit, 4 KiB units; 255 unbounded */
	uint16_t backlog;   /* bit v set: VL v always has a packet queued */
	/* Bytes per packet of each VL; 0 = mtu_bytes. */
	uint32_t pkt_bytes[OQ_MAX_VLS];
	uint32_t mtu_bytes; /* 1..OQ_ARB_MAX_PKT */
	uint64_t max_steps; /* burst steps before giving up; 0 = default */
};

struct oq_arb_result {
	/* Bytes each VL sent over one period of the automaton (or over the
	 * whole run when approx), and their exact shares. */
	uint64_t vl_bytes[OQ_MAX_VLS];
	struct oq_frac share[OQ_MAX_VLS];
	uint64_t cycle_bytes; /* sum of vl_bytes */
	uint64_t cycle_packets;
	uint64_t cycle_steps; /* bursts in one period */
	uint64_t steps_run;   /* bursts simulated in total */
	uint16_t high_vls;    /* VLs served from the high table */
	uint16_t low_vls;     /* VLs served from the low table */
	bool idle;	      /* nothing can be sent: all shares 0 */
	bool approx;	      /* step cap hit: long-run average, not exact */
};

/* Run the automaton until its state repeats (Brent's cycle detection, no
 * memory); fills r.  Returns 0, or -1 on a bad config (packet size 0 or
 * above OQ_ARB_MAX_PKT, table entry count above 64). */
int oq_arb_run(const struct oq_arb_config *c, struct oq_arb_result *r);

/*
 * The worst wait of a packet of VL vl at the head of its queue, in bytes
 * of link time (docs/model.md, "Latency"): every other VL of c->backlog
 * always has a packet (sizes as for oq_arb_run), vl's packets arrive at
 * any time; the wait counts the packet already on the wire and every
 * packet the arbiter sends before it picks vl.  Computed over every
 * state of the automaton reachable under any arrival pattern, at most
 * max_states of them (0: OQ_WAIT_DEFAULT_STATES); a VL in both tables
 * may get an upper bound instead (bound).  Returns 0 (bytes is
 * OQ_WAIT_UNBOUNDED when vl can wait forever -- no entry serves it, or it
 * starves -- or when the state cap was hit, then capped is set), -1 on a
 * bad config or out of memory.
 */
#define OQ_WAIT_UNBOUNDED      UINT64_MAX
#define OQ_WAIT_DEFAULT_STATES (1u << 20)

struct oq_wait_result {
	uint64_t bytes;
	size_t states; /* states visited */
	bool capped;
	/* An upper bound, not the exact worst: a VL served from both
	 * tables whose exact search passed a sixteenth of the cap (its
	 * entries of one table given to an always-busy stand-in, see
	 * docs/model.md). */
	bool bound;
};

int oq_arb_worst_wait(const struct oq_arb_config *c, unsigned int vl,
		      size_t max_states, struct oq_wait_result *out);

/* Initialise c with the tables and limit, MTU mtu_bytes, no backlog. */
void oq_arb_config_init(struct oq_arb_config *c,
			const struct oq_vlarb_table *high,
			const struct oq_vlarb_table *low, uint8_t high_limit,
			uint32_t mtu_bytes);
/* VLs with a positive-weight entry in the table (bit mask). */
uint16_t oq_vlarb_vls(const struct oq_vlarb_table *t);

/* ---- ConnectX-2 profile (policy/profile_cx2.c) ----------------------- */

/* Period T = H / gcd(H, 32) (32 credits = one 2 KiB packet). */
unsigned int oq_cx2_period(unsigned int h);
/* High/low bandwidth ratio for one high VL of weight H and one low VL of
 * weight L under limit Q, MTU 2048 (reconstructed; see docs/model.md):
 *   P = 2Q (Q = 0: 1; Q = 255: infinite),
 *   ratio = P * T * max(1, floor(L/T)) / L.
 * Returns 0 and the exact ratio, 1 when the ratio is infinite (low starves,
 * *r = 1/0), -1 when H or L is 0. */
int oq_cx2_ratio(unsigned int q, unsigned int h, unsigned int l,
		 struct oq_frac *r);
/* Fill r (shares, high_vls, low_vls) from the profile when the config is
 * its case: MTU 2048, exactly two backlogged VLs, one only in the high
 * table and one only in the low table, one positive entry each.  Returns
 * 0 when applied, -1 when the config is not the profile's case. */
int oq_cx2_apply(const struct oq_arb_config *c, struct oq_arb_result *r);

/* ---- per-SL view and path view (policy/predict.c) -------------------- */

enum oq_profile {
	OQ_PROFILE_IBA = 0,
	OQ_PROFILE_CX2_2K,
};

enum oq_scenario {
	OQ_SCEN_BACKLOG = 0, /* every active SL always has traffic */
	OQ_SCEN_ALONE,	     /* each active SL alone on the port */
};

enum oq_prio {
	OQ_PRIO_NONE = 0, /* VL in no table with a positive weight */
	OQ_PRIO_LOW,
	OQ_PRIO_HIGH,
	OQ_PRIO_BOTH,
	OQ_PRIO_SINGLE, /* port without VLArb: one data VL, no arbitration */
};

#define OQ_IN_AGGREGATE (-1) /* switch egress: all input ports at once */
#define OQ_VL_NONE	(-1) /* SL dropped (VL15) or inactive */
#define OQ_VL_MIXED	(-2) /* aggregated inputs map the SL differently */

struct oq_predict_opts {
	uint16_t active_sls; /* bit s: SL s has traffic; 0 = all 16 */
	enum oq_scenario scenario;
	int in_port;	    /* switch egress: input port, or OQ_IN_AGGREGATE */
	uint32_t mtu_bytes; /* 0: the link's active MTU (2048 if unknown) */
	uint32_t pkt_bytes[OQ_MAX_VLS]; /* 0 = MTU */
	uint8_t sl_weight[16];		/* split weights; 0 counts as 1 */
	enum oq_profile profile;
	uint64_t max_steps; /* arbiter step cap; 0 = default */
};

struct oq_sl_pred {
	int8_t vl;    /* VL, OQ_VL_NONE or OQ_VL_MIXED */
	uint16_t vls; /* every VL the SL uses (bit mask) */
	enum oq_prio prio;
	bool active;
	bool starve; /* limit 255, high traffic present, VL only in low */
	struct oq_frac share; /* of the link's bytes */
	double gbps;
};

struct oq_port_pred {
	double rate_gbps;
	uint32_t mtu_bytes;
	struct oq_sl_pred sl[16];
	struct oq_arb_result arb; /* VL level (BACKLOG scenario) */
	bool profile_applied;	  /* cx2-2k was asked for and fitted */
};

void oq_predict_opts_init(struct oq_predict_opts *o);
/* The link's active MTU in bytes: min of both ends' caps, 2048 unknown. */
uint32_t oq_port_mtu_bytes(const struct oq_fabric *f, const struct oq_port *p);
const char *oq_prio_name(enum oq_prio p);

/* The VLs each SL uses at this port in the view in_port names (an input
 * port, or OQ_IN_AGGREGATE): bit masks, VL15 and invalid VLs are drops
 * and appear in no mask.  What oq_predict_port() maps SLs by.  Returns 0,
 * -1 when in_port is out of range. */
int oq_predict_sl_vls(const struct oq_port_tables *t, int in_port,
		      uint16_t vls[16]);

/* Predict one port from its tables; rate_gbps < 0 means take it from
 * t->port (oq_port_data_gbps).  No allocation.  Returns 0, -1 on bad
 * options (in_port out of range, bad packet sizes). */
int oq_predict_port(const struct oq_fabric *f, const struct oq_port_tables *t,
		    double rate_gbps, const struct oq_predict_opts *o,
		    struct oq_port_pred *out);

/* One egress port of a path and the input port the path enters its node
 * by (0 for the source end port). */
struct oq_path_hop {
	const struct oq_port_tables *t;
	int in_port;
	double rate_gbps; /* < 0: from the port */
};

struct oq_path_pred {
	double gbps;	      /* guaranteed: min over hops */
	size_t bottleneck;    /* index of the hop that gives the minimum */
	struct oq_frac share; /* the SL's share at the bottleneck */
	bool dropped;	      /* some hop maps the SL to VL15 */
};

/* Guaranteed bandwidth of SL sl along hops[0..n-1] (each hop predicted
 * with o, in_port taken from the hop).  Returns 0, -1 on bad input. */
int oq_predict_path(const struct oq_fabric *f, const struct oq_path_hop *hops,
		    size_t n, uint8_t sl, const struct oq_predict_opts *o,
		    struct oq_path_pred *out, struct oq_port_pred *scratch);

/* ---- the guarantee (policy/guarantee.c) ------------------------------ */

struct oq_guarantee_opts {
	int in_port;	    /* one input's view, or OQ_IN_AGGREGATE */
	uint32_t mtu_bytes; /* 0: the link's active MTU */
	uint64_t max_steps; /* arbiter step cap; 0 = default */
	/* State cap of each VL's wait computation; 0: no waits. */
	size_t wait_states;
	uint16_t wait_vls; /* VLs whose wait to compute; 0: every busy VL */
};

/*
 * What a port guarantees whatever the traffic (docs/model.md): with every
 * VL its SL2VL can carry traffic on backlogged (busy), each VL's exact
 * share and worst wait (bytes; MTU packets everywhere).  Per SL: the
 * least share and the largest wait over the VLs it reaches in any view,
 * 0 and unbounded when a view drops it; shared_with, the other SLs that
 * reach one of those VLs, granted by the policy or not (a job may set any
 * SL itself; then the figures are the VL group's, not the SL's own); ceiling,
 * the SL alone on the link from the inputs that carry it (1 where some VL
 * it reaches here or in the prediction's view is served, as `osmqos
 * predict --alone`), so never below any prediction for it; dropped, the SLs some view sends to VL15 (or past
 * the data VLs), whether or not other views carry them.
 */
struct oq_port_guarantee {
	uint32_t mtu_bytes;
	uint16_t busy;
	struct oq_frac vl_share[OQ_MAX_VLS];
	uint64_t vl_wait[OQ_MAX_VLS];
	uint16_t wait_capped; /* VLs whose wait hit the state cap */
	uint16_t wait_bound;  /* VLs whose wait is an upper bound */
	bool approx;	      /* the arbiter's step cap was hit */
	uint16_t sl_vls[16];
	uint16_t vl_sls[OQ_MAX_VLS]; /* SLs that reach each VL */
	uint16_t dropped;
	struct oq_frac share[16];
	uint64_t wait[16];
	uint16_t shared_with[16];
	struct oq_frac ceiling[16];
	/* The port's SL2VL is not known (t->sl2vl_unknown: a routing
	 * engine's, offline): any SL may be on any VL the engine uses, so
	 * no share or wait is claimed (share 0, wait OQ_WAIT_UNBOUNDED);
	 * the ceiling stands. */
	bool unknown;
};

void oq_guarantee_opts_init(struct oq_guarantee_opts *o);
/* Returns 0, -1 on bad options (in_port out of range) or when the model
 * refuses the tables. */
int oq_port_guarantee(const struct oq_fabric *f, const struct oq_port_tables *t,
		      const struct oq_guarantee_opts *o,
		      struct oq_port_guarantee *g);
/* Bytes of link time at rate_gbps in microseconds; -1 when unbounded. */
double oq_wait_us(uint64_t bytes, double rate_gbps);

/* One hop of a path: what an SL is guaranteed at one egress port for
 * traffic that entered its node by one input port. */
struct oq_hop_guarantee {
	int8_t vl;	  /* its VL there; OQ_VL_NONE dropped */
	double gbps;	  /* the VL's share x the link's rate */
	double rate_gbps; /* the link's data rate: the SL alone */
	uint64_t wait;	  /* the VL's worst wait, bytes (OQ_WAIT_UNBOUNDED) */
	double wait_us;	  /* the same in microseconds; -1 unknown */
	bool wait_bound;  /* wait is an upper bound */
	uint16_t shared_with; /* the other SLs on the VL */
	bool unknown;	      /* the port's SL2VL is not known: no figure */
};

/* The hop from a port's guarantee g at rate_gbps (t: the port's tables,
 * in: the input port).  Returns 0, 1 when in is out of range. */
int oq_hop_from_guarantee(const struct oq_port_tables *t,
			  const struct oq_port_guarantee *g, double rate_gbps,
			  int in, uint8_t sl, struct oq_hop_guarantee *h);
/* The hop computed from the tables (the model run for this port). */
int oq_port_hop(const struct oq_fabric *f, const struct oq_port_tables *t,
		int in, uint8_t sl, struct oq_hop_guarantee *h);

/* A path: the least guarantee over its hops and the sum of their worst
 * waits.  Zero-initialise, then add each hop in order. */
struct oq_path_guarantee {
	size_t n_hops;
	double gbps;	     /* least over the hops */
	size_t bottleneck;   /* the hop that gives it */
	double ceiling_gbps; /* the slowest hop's rate: the SL alone */
	bool shared;	     /* some hop's figure is its VL group's */
	bool dropped;	     /* some hop drops the SL */
	double wait_us;	     /* sum over the hops; -1 when one is unknown */
	bool wait_bound;     /* some hop's wait is an upper bound */
	/* Some hop's SL2VL is not known: the path's guarantee and wait are
	 * not known either (gbps and wait_us of the known hops only). */
	bool unknown;
	size_t n_known; /* the hops gbps and bottleneck are of */
};

void oq_path_guarantee_add(struct oq_path_guarantee *p,
			   const struct oq_hop_guarantee *h);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_MODEL_H */
