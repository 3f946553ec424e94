/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `osmqos audit` internals: the list of drifts found, the per-port table
 * comparison (cmd_audit.c) and the SA sample (cmd_audit_sa.c).
 */
#ifndef OSMQOS_CMD_AUDIT_H
#define OSMQOS_CMD_AUDIT_H

#include <stdbool.h>
#include <stddef.h>

#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/tables.h>

#include "mad/smp_transport.h"

/* One difference between what the policy compiles to and the fabric. */
struct audit_drift {
	const char *kind; /* sl2vl, vlarb_high, vlarb_low, vl_high_limit,
			   * or sa_sl, sa_mtu, sa_rate, sa_pkt_life,
			   * sa_pkey, sa_status */
	const struct oq_port *port; /* table drifts: the port */
	int in_port;		    /* sl2vl on a switch: input port, else -1 */
	const struct oq_port *src, *dst;   /* SA drifts: the pair */
	int rule, level;		   /* SA drifts: the policy's verdict */
	char exp_text[640], got_text[640]; /* as printed */
	char exp_json[1024], got_json[1024]; /* JSON values */
};

struct audit_drifts {
	struct audit_drift *v;
	size_t n, cap;
};

/* A new zeroed entry (in_port, rule, level -1), or NULL out of memory. */
struct audit_drift *audit_drift_add(struct audit_drifts *d, const char *kind);
void audit_drifts_free(struct audit_drifts *d);

/*
 * Compare what a port holds (got, from oq_smp_read_tables()) with what
 * the compiler says (want): one drift per differing SL2VL input table,
 * per VLArb priority table (entries beyond want's count must be 0:0, up
 * to what was read), and VLHighLimit into vlhl (kept apart: the caller
 * decides whether it can be trusted).  -1 only when out of memory.
 */
int audit_compare_port(const struct oq_port_tables *want,
		       const struct oq_port_tables *got,
		       struct audit_drifts *out, struct audit_drifts *vlhl);

struct audit_sa_stats {
	unsigned int pairs;  /* pairs asked */
	unsigned int levels; /* distinct QoS levels among them */
};

/*
 * Check the SA's PathRecord for up to sample CA pairs (one Get by
 * SLID/DLID each) against the policy's verdict: SL, MTU/rate/packet-life
 * limits, the level's P_Keys.  The pairs cover every QoS level the CA
 * pairs reach before the rest are filled in (deterministic order).
 * Returns 0, or -1 with err set (transport failure, no SM).
 */
int audit_sa_check(const struct oq_fabric *f, const struct oq_policy *pol,
		   const struct oq_matcher *m, const char *ca, int port,
		   int timeout_ms, unsigned int sample,
		   struct audit_drifts *out, struct audit_sa_stats *st,
		   char *err, size_t errlen);

#endif /* OSMQOS_CMD_AUDIT_H */
