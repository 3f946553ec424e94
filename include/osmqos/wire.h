/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Big-endian (wire order) reads and writes of MAD fields and the layouts
 * of the records they carry, shared by the SA core (policy/sa/) and the
 * CLI's SA and SMP codecs (contrib/osmqos/mad/).
 */
#ifndef OSMQOS_WIRE_H
#define OSMQOS_WIRE_H

#include <stdint.h>

/* Common MAD header offsets (IBA 13.4.3), for the CLI's codecs. */
#define OQ_MAD_BASE_VERSION  0
#define OQ_MAD_CLASS	     1
#define OQ_MAD_CLASS_VERSION 2
#define OQ_MAD_METHOD	     3
#define OQ_MAD_STATUS	     4
#define OQ_MAD_TID	     8
#define OQ_MAD_ATTR_ID	     16
#define OQ_MAD_ATTR_MOD	     20

/* PathRecord (IBA 1.2.1 15.2.5.16, OpenSM's ib_path_rec_t): byte offsets
 * in the record. */
#define OQ_PR_REC_SIZE	     64
#define OQ_PR_OFF_SERVICE_ID 0
#define OQ_PR_OFF_DGID	     8
#define OQ_PR_OFF_SGID	     24
#define OQ_PR_OFF_DLID	     40
#define OQ_PR_OFF_SLID	     42
#define OQ_PR_OFF_HFR	     44 /* RawTraffic:1 Rsv:3 FlowLabel:20 HopLimit:8 */
#define OQ_PR_OFF_TCLASS     48
#define OQ_PR_OFF_NUMBPATH   49 /* Reversible:1 NumbPath:7 */
#define OQ_PR_OFF_PKEY	     50
#define OQ_PR_OFF_QOS_SL     52 /* QoSClass:12 SL:4 */
#define OQ_PR_OFF_MTU	     54 /* MTUSelector:2 MTU:6 */
#define OQ_PR_OFF_RATE	     55 /* RateSelector:2 Rate:6 */
#define OQ_PR_OFF_LIFE	     56 /* PacketLifeTimeSelector:2 PacketLifeTime:6 */
#define OQ_PR_OFF_PREFERENCE 57

/* MultiPathRecord (IBA 1.2.1 15.2.5.20, OpenSM's ib_multipath_rec_t):
 * byte offsets in the record; the ServiceID is split in two fields. */
#define OQ_MPR_REC_SIZE		24 /* fixed part; GIDs follow, 16 bytes each */
#define OQ_MPR_OFF_HFR		0  /* as the PathRecord's */
#define OQ_MPR_OFF_TCLASS	4
#define OQ_MPR_OFF_NUMBPATH	5
#define OQ_MPR_OFF_PKEY		6
#define OQ_MPR_OFF_QOS_SL	8
#define OQ_MPR_OFF_MTU		10
#define OQ_MPR_OFF_RATE		11
#define OQ_MPR_OFF_LIFE		12
#define OQ_MPR_OFF_SID_MSB	13 /* ServiceID bits 63..56 */
#define OQ_MPR_OFF_INDEPENDENCE 14
#define OQ_MPR_OFF_SGID_COUNT	15
#define OQ_MPR_OFF_DGID_COUNT	16
#define OQ_MPR_OFF_SID_LSB	17 /* ServiceID bits 55..0, 7 bytes */
#define OQ_MPR_OFF_GIDS		24

static inline uint16_t oq_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t oq_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t oq_get64(const uint8_t *p)
{
	return (uint64_t)oq_get32(p) << 32 | oq_get32(p + 4);
}

static inline void oq_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void oq_put32(uint8_t *p, uint32_t v)
{
	oq_put16(p, (uint16_t)(v >> 16));
	oq_put16(p + 2, (uint16_t)v);
}

static inline void oq_put64(uint8_t *p, uint64_t v)
{
	oq_put32(p, (uint32_t)(v >> 32));
	oq_put32(p + 4, (uint32_t)v);
}

#endif /* OSMQOS_WIRE_H */
