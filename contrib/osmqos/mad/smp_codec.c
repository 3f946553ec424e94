// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Directed-route SMP codec.  Offsets follow IBA 1.2.1 section 14.2.1.2
 * (the same layout as OpenSM's ib_smp_t): common MAD header, then DrSLID/
 * DrDLID, the 64-byte attribute at offset 64, InitialPath at 128 and
 * ReturnPath at 192.  Everything on the wire is big endian.  No I/O here.
 */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/wire.h>

#include "smp_transport.h"

/* Directed-route SMP fields; OQ_MAD_STATUS holds the D (direction) bit
 * and a 15-bit status here. */
#define SMP_HOP_PTR	  6
#define SMP_HOP_CNT	  7
#define SMP_DR_SLID	  32
#define SMP_DR_DLID	  34
#define SMP_INITIAL_PATH  128

#define PERMISSIVE_LID 0xffff

void oq_smp_encode(uint8_t *mad, uint8_t method, uint64_t tid,
		   const struct oq_dr_path *path, uint16_t attr, uint32_t mod,
		   const uint8_t *data)
{
	unsigned int i, cnt = path->cnt;

	if (cnt > OQ_SMP_MAX_HOPS)
		cnt = OQ_SMP_MAX_HOPS;
	memset(mad, 0, OQ_SMP_MAD_SIZE);
	mad[OQ_MAD_BASE_VERSION] = 1;
	mad[OQ_MAD_CLASS] = OQ_SMP_CLASS_DR;
	mad[OQ_MAD_CLASS_VERSION] = OQ_SMP_CLASS_VERSION;
	mad[OQ_MAD_METHOD] = method;
	mad[SMP_HOP_PTR] = 0;
	mad[SMP_HOP_CNT] = (uint8_t)cnt;
	oq_put64(mad + OQ_MAD_TID, tid);
	oq_put16(mad + OQ_MAD_ATTR_ID, attr);
	oq_put32(mad + OQ_MAD_ATTR_MOD, mod);
	/* Directed route from here to the end: both LIDs permissive. */
	oq_put16(mad + SMP_DR_SLID, PERMISSIVE_LID);
	oq_put16(mad + SMP_DR_DLID, PERMISSIVE_LID);
	if (data)
		memcpy(mad + OQ_SMP_DATA_OFF, data, OQ_SMP_DATA_SIZE);
	for (i = 1; i <= cnt; i++)
		mad[SMP_INITIAL_PATH + i] = path->p[i];
}

int oq_smp_decode(const uint8_t *mad, size_t len, struct oq_smp_resp *out)
{
	memset(out, 0, sizeof(*out));
	if (len < OQ_SMP_DATA_OFF + OQ_SMP_DATA_SIZE)
		return -1;
	if (mad[OQ_MAD_BASE_VERSION] != 1 ||
	    mad[OQ_MAD_CLASS] != OQ_SMP_CLASS_DR ||
	    mad[OQ_MAD_CLASS_VERSION] != OQ_SMP_CLASS_VERSION ||
	    !(mad[OQ_MAD_METHOD] & 0x80))
		return -1;
	out->method = mad[OQ_MAD_METHOD];
	out->status = oq_get16(mad + OQ_MAD_STATUS) & 0x7fff;
	out->tid = oq_get64(mad + OQ_MAD_TID);
	out->attr_id = oq_get16(mad + OQ_MAD_ATTR_ID);
	out->attr_mod = oq_get32(mad + OQ_MAD_ATTR_MOD);
	memcpy(out->data, mad + OQ_SMP_DATA_OFF, OQ_SMP_DATA_SIZE);
	return 0;
}

int oq_dr_path_parse(const char *s, struct oq_dr_path *path)
{
	const char *q = s;
	unsigned int n = 0;

	memset(path, 0, sizeof(*path));
	if (!s || !*s)
		return -1;
	for (;;) {
		char *end;
		unsigned long v;

		if (*q < '0' || *q > '9')
			return -1;
		errno = 0;
		v = strtoul(q, &end, 10);
		if (errno || v > 255)
			return -1;
		/* The first element is the local port's slot: must be 0. */
		if (n == 0) {
			if (v != 0)
				return -1;
		} else {
			if (n > OQ_SMP_MAX_HOPS || v == 0)
				return -1;
			path->p[n] = (uint8_t)v;
		}
		n++;
		if (!*end)
			break;
		if (*end != ',')
			return -1;
		q = end + 1;
	}
	path->cnt = (uint8_t)(n - 1);
	return 0;
}

void oq_dr_path_format(const struct oq_dr_path *path, char *buf, size_t len)
{
	size_t used;
	unsigned int i;

	if (!len)
		return;
	snprintf(buf, len, "0");
	for (i = 1; i <= path->cnt && i <= OQ_SMP_MAX_HOPS; i++) {
		used = strlen(buf);
		if (used + 1 >= len)
			break;
		snprintf(buf + used, len - used, ",%u", path->p[i]);
	}
}

int oq_dr_path_extend(const struct oq_dr_path *path, uint8_t port,
		      struct oq_dr_path *out)
{
	if (path->cnt >= OQ_SMP_MAX_HOPS)
		return -1;
	if (out != path)
		*out = *path;
	out->cnt++;
	out->p[out->cnt] = port;
	return 0;
}
