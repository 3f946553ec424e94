/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Private to the fabric model: the lookup indexes behind
 * oq_fabric_port_by_guid() and friends (fabric_index.c).
 */
#ifndef OSMQOS_FABRIC_INT_H
#define OSMQOS_FABRIC_INT_H

#include <osmqos/diag.h>
#include <osmqos/fabric.h>

/* Build f->idx from f->nodes and f->ports (dense indices already set).
 * Duplicate port GUIDs, node GUIDs and LIDs are reported into diags
 * (may be NULL); the first one in node order wins.  0, or -ENOMEM. */
int oq_fabric_index_build(struct oq_fabric *f, struct oq_diags *diags);
void oq_fabric_index_free(struct oq_fabric_index *idx);
/* Room in f's by-id arrays for port ids below n_ports and node ids below
 * n_nodes, new entries empty.  0, or -ENOMEM. */
int oq_fabric_reserve_ids(struct oq_fabric *f, uint32_t n_ports,
			  uint32_t n_nodes);
/* f->idx from prev's index (f derived from prev, positions set): prev's
 * copied, the keys of the nodes f does not share changed.  0, -EAGAIN
 * (a duplicate, or prev's own: index f afresh) or -ENOMEM. */
int oq_fabric_index_derive(struct oq_fabric *f, const struct oq_fabric *prev);
/* Rebuild the name index after the nodes' names changed.  0, or -1. */
int oq_fabric_index_names(struct oq_fabric *f);

/* n's position in f when f holds that very node (not another node
 * under its ids), else UINT32_MAX. */
static inline uint32_t oq_fabric_node_at(const struct oq_fabric *f,
					 const struct oq_node *n)
{
	uint32_t at = oq_node_index(f, n);

	return at < f->n_nodes && f->nodes[at] == n ? at : UINT32_MAX;
}

/* Whether f alone holds n, which it built: f may write it. */
static inline bool oq_fabric_owns(const struct oq_fabric *f,
				  const struct oq_node *n)
{
	return n->owner == f &&
	       __atomic_load_n(&n->refs, __ATOMIC_ACQUIRE) == 1;
}

/* A fabric lets go of a node: the last one frees it. */
void oq_fabric_node_put(struct oq_node *n);
/* Room for one more node in f->nodes.  0, or -ENOMEM. */
int oq_fabric_nodes_room(struct oq_fabric *f);

/* The by-position arrays sized for f's nodes and n_ports ports, and
 * every id without a position.  0, or -ENOMEM. */
int oq_fabric_positions_room(struct oq_fabric *f, size_t n_ports);
void oq_node_inherit_port0(struct oq_node *n);
/* nd's present ports into f's position arrays from position n on; the
 * position after them. */
size_t oq_fabric_place_ports(struct oq_fabric *f, struct oq_node *nd,
			     size_t n);
/* A derived fabric's positions, from prev's for the nodes it shares
 * (fabric_derive.c).  0, or -ENOMEM. */
int oq_fabric_derive_positions(struct oq_fabric *f,
			       const struct oq_fabric *prev);
/* A derived fabric's links checked where nodes changed, and what it
 * copied of prev's nodes it lacks dropped, once its positions are set.
 * 0, or -EINVAL. */
int oq_fabric_derive_check(struct oq_fabric *f, const struct oq_fabric *prev);

#endif /* OSMQOS_FABRIC_INT_H */
