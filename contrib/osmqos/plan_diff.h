/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `osmqos plan`: what a policy edit changes on one port, as OpenSM's
 * osm_qos_setup() decides it at the next heavy sweep (plan_diff.c).
 */
#ifndef OSMQOS_CLI_PLAN_DIFF_H
#define OSMQOS_CLI_PLAN_DIFF_H

#include <stdbool.h>
#include <stdint.h>

#include <osmqos/tables.h>

struct plan_port {
	unsigned int sl2vl_sets; /* SLtoVLMappingTable Sets */
	unsigned int vlarb_sets; /* VLArbitrationTable Sets (blocks) */
	bool vl_high_limit;	 /* VLHighLimit changes (a PortInfo Set) */
};

/*
 * The QoS Sets OpenSM sends for a port whose tables go from old (what it
 * programmed last, and so what its cache holds) to new: one SL2VL Set per
 * input table whose row differs once masked to the port's operational
 * VLs (VL15 kept), one VLArb Set per block (low 1-2, high 3-4, of the
 * lengths the port's caps give) whose entries differ, masked the same way.
 * Returns the Sets (sl2vl_sets + vlarb_sets).
 */
unsigned int plan_port_sets(const struct oq_port_tables *old,
			    const struct oq_port_tables *new,
			    struct plan_port *out);

#endif /* OSMQOS_CLI_PLAN_DIFF_H */
