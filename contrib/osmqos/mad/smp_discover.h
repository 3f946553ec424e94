/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Live fabric discovery for `osmqos drift`: an ibnetdiscover-style
 * breadth-first walk with directed-route SMPs from the local port
 * (NodeInfo, NodeDescription, SwitchInfo, PortInfo), and the policy
 * core's fabric model built from what it found, with the same fields
 * plugin/snapshot.c takes from OpenSM's copy of the same attributes.
 */
#ifndef OSMQOS_SMP_DISCOVER_H
#define OSMQOS_SMP_DISCOVER_H

#include <stdbool.h>
#include <stddef.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>

#include "smp_attrs.h"
#include "smp_transport.h"

struct oq_live_port {
	bool seen; /* PortInfo read */
	struct oq_smp_port_info pi;
	/* How SMPs reach this port: a CA/router port's own route (the
	 * node answers for the port the SMP arrives on); a switch's
	 * ports all use the node's route. */
	struct oq_dr_path path;
	uint64_t guid; /* CA/router ports: PortGUID from NodeInfo */
	bool has_peer;
	size_t peer_node;
	uint8_t peer_port;
};

struct oq_live_node {
	struct oq_smp_node_info ni;
	char desc[65];
	struct oq_smp_switch_info si;
	struct oq_dr_path path;	    /* first route that reached the node */
	struct oq_live_port *ports; /* [0..ni.n_ports] */
};

struct oq_live_fabric {
	struct oq_live_node *nodes;
	size_t n, cap;
	size_t local_node;
	uint8_t local_port;
	/* SMPs that failed (the walk goes on; the model is incomplete). */
	unsigned int errors;
	char first_error[512];
	/* The model (fabric->nodes[i] belongs to nodes[i]; ports' user
	 * pointers are their struct oq_live_port).  NULL until built. */
	struct oq_fabric *fabric;
};

/* Walk the fabric from the port p is open on.  Returns 0 (check
 * lf->errors for SMPs that failed on the way), or -1 with err set when
 * nothing could be discovered or memory ran out. */
int oq_live_discover(struct oq_smp_port *p, struct oq_live_fabric *lf,
		     char *err, size_t errlen);

/* Build and finalize lf->fabric.  Returns 0 or -1 (no memory; duplicate
 * GUIDs or LIDs are reported into diags). */
int oq_live_build(struct oq_live_fabric *lf, struct oq_diags *diags);

/* The live facts of a model port (NULL for a port of another fabric). */
static inline const struct oq_live_port *
oq_live_port_of(const struct oq_port *p)
{
	return (const struct oq_live_port *)p->user;
}

void oq_live_free(struct oq_live_fabric *lf);

#endif /* OSMQOS_SMP_DISCOVER_H */
