/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Snapshot of OpenSM's subnet as a policy-core fabric model. */
#ifndef OSMQOS_PLUGIN_SNAPSHOT_H
#define OSMQOS_PLUGIN_SNAPSHOT_H

#include <stdbool.h>

#include <osmqos/fabric.h>

struct osm_opensm;

/* Copy osm->subn into a finalized fabric model.  The caller holds
 * OpenSM's lock (at least for reading).  Each port's `user` points at its
 * osm_physp_t and each node's at its osm_node_t: valid only while the
 * caller holds the lock, for the plugin's own programming step.  with_lft
 * also copies every switch's LFT as routing just computed it (the SA's
 * routes).  Returns NULL on allocation failure. */
struct oq_fabric *oq_snapshot_build(struct osm_opensm *osm, bool with_lft,
				    struct oq_diags *diags);

#endif /* OSMQOS_PLUGIN_SNAPSHOT_H */
