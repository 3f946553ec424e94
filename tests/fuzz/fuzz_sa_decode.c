// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz target: what osmqos query reads off the wire.  The input is an SA
 * response MAD of any length; the decoder must reject it or return
 * records that lie inside it, never read past it.  A decoded record must
 * survive an encode/decode round trip, and the status must have a name.
 * The first bytes also drive the request encoder and the GID parser.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sa_client.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Bytes, read in order; zeros once they run out. */
struct rd {
	const uint8_t *p;
	size_t n;
};

static uint8_t next(struct rd *r)
{
	if (!r->n)
		return 0;
	r->n--;
	return *r->p++;
}

static uint32_t next32(struct rd *r)
{
	uint32_t v = next(r);

	v = v << 8 | next(r);
	v = v << 8 | next(r);
	return v << 8 | next(r);
}

static void fuzz_request(const uint8_t *data, size_t size)
{
	struct rd in = {data, size};
	struct oq_sa_req r;
	uint8_t mad[OQ_SA_MAD_SIZE];
	bool ok;
	int i;

	memset(&r, 0, sizeof(r));
	r.mpr = next(&in) & 1;
	r.method = next(&in);
	r.fields = next32(&in);
	r.pr.service_id = (uint64_t)next32(&in) << 32 | next32(&in);
	r.pr.slid = (uint16_t)next32(&in);
	r.pr.dlid = (uint16_t)next32(&in);
	r.pr.flow_label = next32(&in);
	r.pr.qos_class = (uint16_t)next32(&in);
	r.pr.sl = next(&in);
	r.pr.mtu_sel = next(&in);
	r.pr.mtu = next(&in);
	r.pr.reversible = next(&in) & 1;
	r.pr.numb_path = next(&in);
	r.sgid_count = next(&in);
	r.dgid_count = next(&in);
	for (i = 0; i < 16; i++)
		r.gids[i % OQ_SA_MPR_MAX_GIDS][i] = next(&in);
	oq_sa_comp_mask(&r, &ok);
	if (oq_sa_encode(&r, mad) == OQ_SA_OK && !r.mpr) {
		struct oq_path_rec back;

		oq_path_rec_decode(mad + OQ_SA_HDR_SIZE, &back);
		if (back.slid != r.pr.slid || back.dlid != r.pr.dlid ||
		    back.flow_label != (r.pr.flow_label & 0xfffff) ||
		    back.service_id != r.pr.service_id)
			abort();
	}
}

static void fuzz_gid(const uint8_t *data, size_t size)
{
	char s[64];
	uint8_t gid[16];
	bool guid;
	size_t n = size < sizeof(s) - 1 ? size : sizeof(s) - 1;

	memcpy(s, data, n);
	s[n] = '\0';
	if (!oq_sa_parse_gid(s, gid, &guid)) {
		char out[64];

		oq_sa_format_gid(gid, out, sizeof(out));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oq_sa_resp r;
	uint8_t *copy;
	size_t i;

	/* An exact-size heap copy: ASan sees any read past the end. */
	copy = malloc(size ? size : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, size);
	if (oq_sa_decode(copy, size, &r) == OQ_SA_OK) {
		if (r.n && (size < OQ_SA_HDR_SIZE + r.n * OQ_SA_PR_SIZE))
			abort();
		if (!oq_sa_status_name(r.status) ||
		    !oq_sa_status_hint(r.status))
			abort();
		for (i = 0; i < r.n; i++) {
			uint8_t b[OQ_SA_PR_SIZE];
			struct oq_path_rec again;

			oq_path_rec_encode(&r.recs[i], b);
			oq_path_rec_decode(b, &again);
			if (memcmp(&again, &r.recs[i], sizeof(again)))
				abort();
		}
		oq_sa_resp_free(&r);
	}
	free(copy);
	fuzz_request(data, size);
	fuzz_gid(data, size);
	return 0;
}
