/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Big-endian (wire order) reads and writes of MAD fields, shared by the
 * SA core and the CLI's SA and SMP codecs.
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
