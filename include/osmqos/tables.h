/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-port QoS tables: what a port's SL2VL, VLArb and VLHighLimit are (or
 * should be).  The table compiler produces them from a policy's qos-setup
 * (through a binding, match.h) and the per-port-type templates; the plugin
 * programs them; the arbitration model predicts bandwidth from them.
 */
#ifndef OSMQOS_TABLES_H
#define OSMQOS_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>

struct oq_binding;

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

/*
 * Table compiler.  out->ports[i] belongs to fabric->ports[i].  b may be NULL
 * (no policy: templates only).  Ports no scope covers take the template of
 * their kind; tables are clipped to the port's VL and VLArb caps, and a VL
 * the port lacks is a warning naming the port, which then keeps its
 * template (never a silent wrap).
 */
struct oq_fabric_tables {
	struct oq_port_tables *ports;
	size_t n;
};

int oq_tables_compile(const struct oq_binding *b, const struct oq_fabric *f,
		      const struct oq_templates *t,
		      struct oq_fabric_tables *out, struct oq_diags *diags);
void oq_fabric_tables_free(struct oq_fabric_tables *t);

/* Templates: OpenSM's compiled-in defaults, or opensm.conf's qos_* keys. */
void oq_templates_default(struct oq_templates *t);
int oq_templates_load_opensm_conf(struct oq_templates *t, const char *path,
				  struct oq_diags *diags);
int oq_templates_parse_opensm_conf(struct oq_templates *t, const char *file,
				   const char *text, size_t len,
				   struct oq_diags *diags);

enum oq_port_kind oq_port_kind(const struct oq_port *p);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_TABLES_H */
