// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz target: what osmqos drift reads off the wire.  The input is an SMP
 * answer of any length: the decoder must reject it or decode it without
 * reading past it, a decoded answer must survive an encode/decode round
 * trip, and every attribute decoder must give values in range (node
 * descriptions printable, VLs 4-bit, counts on the model's scale).  The
 * same bytes as text drive the directed-route parser (parse, format,
 * parse again gives the same route).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smp_attrs.h"
#include "smp_transport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool vl_count_ok(uint8_t n)
{
	return n == 0 || n == 1 || n == 2 || n == 4 || n == 8 || n == 15;
}

static void attrs(const uint8_t *d)
{
	struct oq_smp_node_info ni;
	struct oq_smp_switch_info si;
	struct oq_smp_port_info pi;
	uint8_t vl[32], w[32], sl2vl[16], back[64];
	char desc[65];
	size_t i;

	oq_smp_parse_node_info(d, &ni);
	oq_smp_parse_switch_info(d, &si);
	oq_smp_parse_port_info(d, &pi);
	if (!vl_count_ok(pi.vl_cap) || !vl_count_ok(pi.oper_vls) ||
	    pi.lmc > 7 || pi.port_state > 15 || pi.mtu_cap > 15 ||
	    (pi.width && pi.width != 1 && pi.width != 2 && pi.width != 4 &&
	     pi.width != 8 && pi.width != 12) ||
	    oq_smp_port_speed(&pi, pi.cap_mask) > OQ_SPEED_NDR)
		abort();
	oq_smp_parse_node_desc(d, desc);
	if (strlen(desc) > 64)
		abort();
	for (i = 0; desc[i]; i++)
		if ((unsigned char)desc[i] < 0x20 || desc[i] == 0x7f)
			abort();
	oq_smp_parse_sl2vl(d, sl2vl);
	for (i = 0; i < 16; i++)
		if (sl2vl[i] > 15)
			abort();
	oq_smp_build_sl2vl(sl2vl, back);
	if (memcmp(back, d, 8))
		abort();
	oq_smp_parse_vlarb(d, vl, w);
	for (i = 0; i < 32; i++)
		if (vl[i] > 15 || w[i] != d[2 * i + 1])
			abort();
}

static void round_trip(const struct oq_smp_resp *r, const uint8_t *in)
{
	struct oq_dr_path path;
	struct oq_smp_resp again;
	uint8_t mad[OQ_SMP_MAD_SIZE];
	unsigned int i;

	memset(&path, 0, sizeof(path));
	path.cnt = (uint8_t)(in[7] % (OQ_SMP_MAX_HOPS + 1));
	for (i = 1; i <= path.cnt; i++)
		path.p[i] = in[OQ_SMP_DATA_OFF + i];
	oq_smp_encode(mad, r->method & 0x7f, r->tid, &path, r->attr_id,
		      r->attr_mod, r->data);
	/* A request is not an answer... */
	if (!oq_smp_decode(mad, sizeof(mad), &again))
		abort();
	/* ...until its response bit is set. */
	mad[3] |= 0x80;
	if (oq_smp_decode(mad, sizeof(mad), &again) || again.tid != r->tid ||
	    again.attr_id != r->attr_id || again.attr_mod != r->attr_mod ||
	    again.status || memcmp(again.data, r->data, OQ_SMP_DATA_SIZE))
		abort();
	for (i = 1; i <= path.cnt; i++)
		if (mad[128 + i] != path.p[i])
			abort();
}

static void route_text(const uint8_t *data, size_t size)
{
	char text[300], out[300];
	struct oq_dr_path a, b;
	size_t n = size < sizeof(text) - 1 ? size : sizeof(text) - 1;

	memcpy(text, data, n);
	text[n] = '\0';
	if (oq_dr_path_parse(text, &a))
		return;
	oq_dr_path_format(&a, out, sizeof(out));
	if (oq_dr_path_parse(out, &b) || a.cnt != b.cnt ||
	    memcmp(a.p, b.p, sizeof(a.p)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oq_smp_resp r;
	uint8_t *copy;

	/* An exact-size heap copy: ASan sees any read past the input. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (!oq_smp_decode(copy, size, &r)) {
		if (size < OQ_SMP_DATA_OFF + OQ_SMP_DATA_SIZE)
			abort();
		attrs(r.data);
		round_trip(&r, copy);
	}
	free(copy);
	route_text(data, size);
	return 0;
}
