/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-port QoS tables: what a port's SL2VL, VLArb and VLHighLimit are (or
 * should be).  The table compiler produces them from a policy's qos-setup
 * and the per-port-type templates; the plugin programs them; the
 * arbitration model predicts bandwidth from them.
 */
#ifndef OSMQOS_TABLES_H
#define OSMQOS_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>

#ifdef __cplusplus
extern "C" {
#endif

struct oq_vlarb_table {
	struct { uint8_t vl, weight; } e[OQ_VLARB_MAX];
	uint8_t n; /* entries used; the rest are (0, 0) */
};

/* Where a port's tables came from, for explanations and audits. */
enum oq_table_origin {
	/* per-port-type template (opensm.conf or OpenSM's default) */
	OQ_ORIGIN_TEMPLATE = 0,
	OQ_ORIGIN_SCOPE,	/* a qos-setup scope of the policy */
	OQ_ORIGIN_ENGINE,	/* routing engine (SL2VL only) */
};

struct oq_port_tables {
	const struct oq_port *port;
	/*
	 * SL2VL.  CA/router ports and switch port 0: sl2vl[0] only.
	 * Switch external ports (output port = this port): one table per
	 * input port number 0..n_ports, sl2vl[in][sl].
	 */
	uint8_t (*sl2vl)[16];
	uint8_t n_sl2vl; /* 1, or n_ports + 1 for switch external ports */
	bool has_sl2vl;	 /* false: port has no SL2VL (no capability) */
	struct oq_vlarb_table vlarb_high;
	struct oq_vlarb_table vlarb_low;
	bool has_vlarb; /* false: port has no VLArb (vl_cap == 1) */
	uint8_t vl_high_limit;
	enum oq_table_origin sl2vl_origin, vlarb_origin;
	int sl2vl_scope, vlarb_scope; /* index of the winning scope, -1 */
};

/* Per-port-type templates: opensm.conf qos_ca_/qos_swe_/qos_sw0_/qos_rtr_
 * and the generic qos_* options, with OpenSM's compiled-in defaults. */
enum oq_port_kind {
	OQ_KIND_CA = 0,
	OQ_KIND_SWE, /* switch external port */
	OQ_KIND_SW0, /* switch port 0 (enhanced) */
	OQ_KIND_RTR,
	OQ_KIND_MAX,
};

struct oq_qos_template {
	uint8_t max_vls;
	uint8_t high_limit;
	struct oq_vlarb_table vlarb_high;
	struct oq_vlarb_table vlarb_low;
	uint8_t sl2vl[16];
};

struct oq_templates {
	struct oq_qos_template t[OQ_KIND_MAX];
};

/*
 * VLArb entries OpenSM writes for a capability: block 0 holds
 * min(cap, 32), block 1 holds cap % 32 when cap > 32 -- which is 0 for
 * cap == 64, so a 64-entry table only ever gets its first 32 entries.
 * The compiler fills, and the live audit compares, exactly these.
 */
static inline unsigned int oq_vlarb_effective_cap(unsigned int cap)
{
	if (cap > OQ_VLARB_MAX)
		cap = OQ_VLARB_MAX;
	return cap == OQ_VLARB_MAX ? 32 : cap;
}

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_TABLES_H */
