// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SL2VL rows the hook hands osm_qos_setup, laid out for that call:
 * packed as OpenSM keeps a table (two SLs a byte, the even one in the
 * high nibble), one 64-bit word per input port, so each of the calls
 * OpenSM makes per (input, output) port pair is an index and a copy.
 * Ports that hold the same rows share one block in the table set's store
 * (oq_port_tables_set_sl2vl()), so each distinct block is packed once,
 * at the first call for a port that holds it, and kept while the hooks'
 * state is the same.
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

uint64_t oq_sl2vl_pack(const uint8_t row[16])
{
	uint8_t raw[8];
	uint64_t v;
	unsigned int i;

	for (i = 0; i < 8; i++)
		raw[i] = (uint8_t)((row[2 * i] & 15) << 4 |
				   (row[2 * i + 1] & 15));
	memcpy(&v, raw, sizeof(v));
	return v;
}

const uint64_t *oq_hook_rows_of(struct oq_hook_rows *r,
				const struct oq_sweep_state *s,
				const struct oq_port_tables *t)
{
	size_t i, n = t->n_sl2vl;
	uint64_t *v;
	int64_t at;

	if (r->state_id != s->id) {
		oq_htab_clear(&r->of_block);
		r->n = 0;
		r->state_id = s->id;
	}
	at = oq_htab_get(&r->of_block, (uintptr_t)t->sl2vl);
	if (at >= 0)
		return r->packed + at;
	if (r->n + n > OQ_HTAB_VAL_MAX)
		return NULL;
	if (r->n + n > r->cap) {
		size_t cap = r->cap ? r->cap : 256;

		while (cap < r->n + n)
			cap *= 2;
		v = realloc(r->packed, cap * sizeof(*v));
		if (!v)
			return NULL;
		r->packed = v;
		r->cap = cap;
	}
	if (oq_htab_put(&r->of_block, (uintptr_t)t->sl2vl, (uint32_t)r->n,
			NULL) < 0)
		return NULL;
	v = r->packed + r->n;
	for (i = 0; i < n; i++)
		v[i] = oq_sl2vl_pack(t->sl2vl[i]);
	r->n += n;
	return v;
}

void oq_hook_rows_free(struct oq_hook_rows *r)
{
	oq_htab_free(&r->of_block);
	free(r->packed);
	memset(r, 0, sizeof(*r));
}
