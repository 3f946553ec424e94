// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Decoding the SMP attributes the audit reads.  Offsets are IBA 1.2.1
 * section 14.2.5 (the layouts of OpenSM's ib_node_info_t, ib_switch_info_t
 * and ib_port_info_t); the conversions to the fabric model's scales are
 * the ones plugin/snapshot.c applies to OpenSM's copies of the same
 * attributes, so the audit's model equals the plugin's.
 */
#include <config.h>

#include <string.h>

#include <osmqos/model.h>
#include <osmqos/wire.h>

#include "smp_attrs.h"

void oq_smp_parse_node_info(const uint8_t *d, struct oq_smp_node_info *ni)
{
	ni->node_type = d[2];
	ni->n_ports = d[3];
	ni->node_guid = oq_get64(d + 12);
	ni->port_guid = oq_get64(d + 20);
	ni->local_port = d[36];
}

void oq_smp_parse_switch_info(const uint8_t *d, struct oq_smp_switch_info *si)
{
	si->opt_sl2vl = d[11] & 0x01;
	si->enhanced_port0 = d[16] & 0x08;
}

/* As plugin/snapshot.c speed_of().  FDR10 needs Mellanox's
 * ExtendedPortInfo, which the audit does not read: such a link counts as
 * QDR (see docs). */
enum oq_speed oq_smp_port_speed(const struct oq_smp_port_info *pi,
				uint32_t cap_mask)
{
	return oq_speed_from_ib(pi->speed_active, pi->speed_ext_active,
				cap_mask & OQ_SMP_CAP_HAS_EXT_SPEEDS, false);
}

void oq_smp_parse_port_info(const uint8_t *d, struct oq_smp_port_info *pi)
{
	memset(pi, 0, sizeof(*pi));
	pi->gid_prefix = oq_get64(d + 8);
	pi->lid = oq_get16(d + 16);
	pi->sm_lid = oq_get16(d + 18);
	pi->cap_mask = oq_get32(d + 20);
	pi->cap_mask2 = oq_get16(d + 60);
	pi->width = oq_lanes_from_width(d[31]);
	pi->port_state = d[32] & 0x0f;
	pi->phys_state = d[33] >> 4;
	pi->lmc = d[34] & 0x07;
	pi->speed_active = d[35] >> 4;
	pi->speed_ext_active = d[62] >> 4;
	pi->vl_cap = oq_vls_from_enc(d[37] >> 4);
	pi->vl_high_limit = d[38];
	pi->vlarb_high_cap = d[39];
	pi->vlarb_low_cap = d[40];
	pi->mtu_cap = d[41] & 0x0f;
	pi->oper_vls = oq_vls_from_enc(d[43] >> 4);
}

void oq_smp_parse_node_desc(const uint8_t *d, char desc[65])
{
	unsigned int i;

	memcpy(desc, d, 64);
	desc[64] = '\0';
	for (i = 0; desc[i]; i++)
		if ((unsigned char)desc[i] < 0x20 || desc[i] == 0x7f)
			desc[i] = '?';
}

void oq_smp_parse_sl2vl(const uint8_t *d, uint8_t vl[16])
{
	unsigned int i;

	for (i = 0; i < 8; i++) {
		vl[2 * i] = d[i] >> 4;
		vl[2 * i + 1] = d[i] & 0x0f;
	}
}

void oq_smp_build_sl2vl(const uint8_t vl[16], uint8_t *d)
{
	unsigned int i;

	memset(d, 0, 64);
	for (i = 0; i < 8; i++)
		d[i] = (uint8_t)((vl[2 * i] & 0xf) << 4 |
				 (vl[2 * i + 1] & 0xf));
}

void oq_smp_parse_vlarb(const uint8_t *d, uint8_t vl[32], uint8_t weight[32])
{
	unsigned int i;

	for (i = 0; i < 32; i++) {
		vl[i] = d[2 * i] & 0x0f;
		weight[i] = d[2 * i + 1];
	}
}
