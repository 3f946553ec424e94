/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `osmqos drift` internals: the list of drifts found, the per-port table
 * comparison (cmd_drift.c) and the SA sample (cmd_drift_sa.c).
 */
#ifndef OSMQOS_CMD_DRIFT_H
#define OSMQOS_CMD_DRIFT_H

#include <stdbool.h>
#include <stddef.h>

#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/tables.h>

#include "inputs.h"
#include "mad/smp_discover.h"
#include "mad/smp_transport.h"

/* One difference between what the policy compiles to and the fabric. */
struct drift {
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

struct drift_list {
	struct drift *v;
	size_t n, cap;
};

/* A new zeroed entry (in_port, rule, level -1), or NULL out of memory. */
struct drift *drift_add(struct drift_list *d, const char *kind);
void drift_list_free(struct drift_list *d);

/*
 * Compare what a port holds (got, from oq_smp_read_tables()) with what
 * the compiler says (want): one drift per differing SL2VL input table,
 * per VLArb priority table (entries beyond want's count must be 0:0, up
 * to what was read), and VLHighLimit into vlhl (kept apart: the caller
 * decides whether it can be trusted).  -1 only when out of memory.
 */
int drift_compare_port(const struct oq_port_tables *want,
		       const struct oq_port_tables *got,
		       struct drift_list *out, struct drift_list *vlhl);

struct drift_sa_stats {
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
int drift_sa_check(const struct oq_fabric *f, const struct oq_policy *pol,
		   const struct oq_matcher *m, const char *ca, int port,
		   int timeout_ms, unsigned int sample,
		   struct drift_list *out, struct drift_sa_stats *st,
		   char *err, size_t errlen);

/*
 * Discover the live fabric from the local port c names (-C, -P, -t) into
 * in->fabric, for drift and plan; smp stays open for the caller (closed
 * with oq_smp_close when smp->u.agent >= 0).  OQ_EXIT_OK, or
 * OQ_EXIT_USAGE after saying why (no port, an SMP failed, the fabric is
 * not consistent).
 */
int drift_discover(const char *cmd, const struct oq_cli_common *c,
		   struct oq_smp_port *smp, struct oq_live_fabric *lf,
		   struct oq_cli_inputs *in);

#endif /* OSMQOS_CMD_DRIFT_H */
