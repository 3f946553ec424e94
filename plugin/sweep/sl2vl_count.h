/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * sl2vl_count.c, for the hooks: OpenSM's own SL2VL Sets under an engine
 * without an update_sl2vl hook, decided as osm_qos.c decides them (call
 * before it sends: from the VLArb hook of the node's first live external
 * port, or of the end port).
 */
#ifndef OSMQOS_PLUGIN_SL2VL_COUNT_H
#define OSMQOS_PLUGIN_SL2VL_COUNT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sweep.h"

bool oq_sl2vl_count_first_port(osm_node_t *node, const osm_physp_t *p);
/* Would osm_qos.c's sl2vl_update_table() send table row (16 VLs, masked
 * with the port's OperVLs there) for (input in, output p)? */
bool oq_sl2vl_would_send(osm_physp_t *p, uint8_t in, const uint8_t *row,
			 bool force);
/* The same for a row packed as OpenSM keeps it (oq_sl2vl_pack()); inline,
 * for the SL2VL hook. */
static inline bool oq_sl2vl_would_send_packed(osm_physp_t *p, uint8_t in,
					      uint64_t packed, bool force)
{
	unsigned int ops = ib_port_info_get_op_vls(&p->port_info);
	unsigned int mask = ops ? (1u << (ops - 1)) - 1 : 0;
	const ib_slvl_table_t *cur = osm_physp_get_slvl_tbl(p, in);
	uint64_t held;

	if (force)
		return true;
	memcpy(&held, cur->raw_vl_by_sl, sizeof(held));
	return oq_sl2vl_mask_packed(packed, mask) != held;
}
unsigned int oq_sl2vl_count_switch(struct oq_sweep *sw,
				   const struct oq_sweep_state *s,
				   osm_node_t *node);
unsigned int oq_sl2vl_count_endport(struct oq_sweep *sw,
				    const struct oq_sweep_state *s,
				    osm_physp_t *p);

#endif /* OSMQOS_PLUGIN_SL2VL_COUNT_H */
