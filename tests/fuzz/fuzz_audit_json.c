// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz the audit line formatter: any record (node descriptions are raw
 * fabric bytes, possibly without a NUL) must give one valid JSON line that
 * fits OQ_AUDIT_LINE_MAX.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "audit/audit.h"
#include "audit_test_util.h"

struct input {
	const uint8_t *p;
	size_t n;
};

static void take(struct input *in, void *dst, size_t len)
{
	size_t k = in->n < len ? in->n : len;

	memset(dst, 0, len);
	memcpy(dst, in->p, k);
	in->p += k;
	in->n -= k;
}

static uint64_t take_u64(struct input *in)
{
	uint64_t v;

	take(in, &v, sizeof(v));
	return v;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char buf[OQ_AUDIT_LINE_MAX];
	struct input in = {data, size};
	struct oq_audit_record r;
	uint64_t flags, v;
	size_t n;

	memset(&r, 0, sizeof(r));
	flags = take_u64(&in);
	r.time.tv_sec = (time_t)(take_u64(&in) >> (flags & 31));
	r.time.tv_nsec = (long)(take_u64(&in) % 2000000000u) - 500000000;
	r.requester_guid = take_u64(&in);
	v = take_u64(&in);
	r.requester_lid = (uint16_t)v;
	r.method = (enum oq_audit_method)((v >> 16) % 3);
	r.attr = (v >> 17) & 1 ? OQ_AUDIT_MULTIPATH_RECORD
			       : OQ_AUDIT_PATH_RECORD;
	r.qos_class = (uint16_t)(v >> 24);
	r.pkey = (uint16_t)(v >> 40);
	r.sl = (uint8_t)(v >> 56);
	r.comp_mask = take_u64(&in);
	r.sid = take_u64(&in);
	r.has_sid = flags & 0x100;
	r.has_qos_class = flags & 0x200;
	r.has_pkey = flags & 0x400;
	r.has_sl = flags & 0x800;
	r.granted = flags & 0x1000;
	r.has_prediction = flags & 0x2000;
	r.rule = (int)(flags >> 32);
	r.src.guid = take_u64(&in);
	r.dst.guid = take_u64(&in);
	v = take_u64(&in);
	r.src.port = (uint8_t)v;
	r.dst.port = (uint8_t)(v >> 8);
	r.sa_status = (uint16_t)(v >> 16);
	r.g_sl = (uint8_t)(v >> 32);
	r.g_mtu = (uint8_t)(v >> 40);
	r.g_rate = (uint8_t)(v >> 48);
	r.g_pkt_life = (uint8_t)(v >> 56);
	r.g_pkey = (uint16_t)(flags >> 14);
	take(&in, &r.predicted_gbps, sizeof(r.predicted_gbps));
	/* strings last: they take whatever is left, NUL or not */
	take(&in, r.src.desc, sizeof(r.src.desc));
	take(&in, r.dst.desc, sizeof(r.dst.desc));
	take(&in, r.use, sizeof(r.use));
	take(&in, r.level, sizeof(r.level));
	take(&in, r.bottleneck, sizeof(r.bottleneck));
	/* After the older fields: the corpus keeps its meaning. */
	take(&in, r.src.name, sizeof(r.src.name));
	take(&in, r.dst.name, sizeof(r.dst.name));

	n = oq_audit_format(&r, buf, sizeof(buf));
	if (!n || buf[n - 1] != '\n' || memchr(buf, '\n', n - 1))
		abort();
	buf[n - 1] = 0;
	if (!json_line_ok(buf))
		abort();
	return 0;
}
