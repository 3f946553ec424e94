/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The subnet management attributes `osmqos drift` reads, decoded from the
 * 64 bytes an SMP carries (IBA 1.2.1 section 14.2.5): NodeInfo, SwitchInfo,
 * PortInfo, SLtoVLMappingTable and VLArbitrationTable.  Pure functions;
 * every field a fixed offset inside the 64 bytes, so any input decodes.
 */
#ifndef OSMQOS_SMP_ATTRS_H
#define OSMQOS_SMP_ATTRS_H

#include <stdbool.h>
#include <stdint.h>

#include <osmqos/fabric.h>

struct oq_smp_node_info {
	uint8_t node_type; /* 1 CA, 2 switch, 3 router */
	uint8_t n_ports;
	uint8_t local_port;
	uint64_t node_guid, port_guid;
};

struct oq_smp_switch_info {
	bool enhanced_port0;
	bool opt_sl2vl; /* OptimizedSLtoVLMappingProgramming */
};

/* PortInfo, with the counts and scales of the fabric model. */
struct oq_smp_port_info {
	uint64_t gid_prefix;
	uint16_t lid, sm_lid;
	uint32_t cap_mask;
	uint16_t cap_mask2;
	uint8_t lmc;
	uint8_t port_state; /* 1 down, 2 init, 3 armed, 4 active */
	uint8_t phys_state;
	uint8_t width; /* lanes, 0 unknown */
	uint8_t speed_active;	  /* LinkSpeedActive, raw */
	uint8_t speed_ext_active; /* LinkSpeedExtActive, raw */
	uint8_t mtu_cap;  /* IB MTU enum */
	uint8_t vl_cap;	  /* data VLs (1, 2, 4, 8, 15), 0 invalid */
	uint8_t oper_vls; /* same scale */
	uint8_t vl_high_limit;
	uint8_t vlarb_high_cap, vlarb_low_cap;
};

#define OQ_SMP_CAP_HAS_SL_MAP	  0x00000040u
#define OQ_SMP_CAP_HAS_EXT_SPEEDS 0x00004000u
#define OQ_SMP_PORT_DOWN	  1

void oq_smp_parse_node_info(const uint8_t *d, struct oq_smp_node_info *ni);
void oq_smp_parse_switch_info(const uint8_t *d, struct oq_smp_switch_info *si);
void oq_smp_parse_port_info(const uint8_t *d, struct oq_smp_port_info *pi);
/* The link speed of pi when cap_mask tells whether extended speeds apply:
 * the port's own CapabilityMask, except for a switch's external ports,
 * which report 0: port 0's (as OpenSM and plugin/snapshot.c read it). */
enum oq_speed oq_smp_port_speed(const struct oq_smp_port_info *pi,
				uint32_t cap_mask);
/* NodeDescription: 64 bytes, NUL-terminated into desc[65]; control
 * characters become '?' so the text is safe to print. */
void oq_smp_parse_node_desc(const uint8_t *d, char desc[65]);
/* SLtoVLMappingTable: 16 VLs (two 4-bit VLs a byte, SL 0 high nibble). */
void oq_smp_parse_sl2vl(const uint8_t *d, uint8_t vl[16]);
void oq_smp_build_sl2vl(const uint8_t vl[16], uint8_t *d);
/* One VLArbitrationTable block: 32 (VL, weight) pairs. */
void oq_smp_parse_vlarb(const uint8_t *d, uint8_t vl[32], uint8_t weight[32]);


#endif /* OSMQOS_SMP_ATTRS_H */
