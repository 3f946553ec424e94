// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz target: the arbitration model on arbitrary tables.  The input
 * bytes become VLArb tables (any VL, any weight, any entry count up to
 * 255), a limit, a backlog set, packet sizes and SL2VL rows; the model
 * must reject or answer, never crash, and its answers must be
 * self-consistent (shares of an exact period sum to the period's bytes).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/model.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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

static void table(struct rd *r, struct oq_vlarb_table *t)
{
	unsigned int i, n = next(r);

	memset(t, 0, sizeof(*t));
	t->n = (uint8_t)n; /* > 64 must be rejected, not read past e[] */
	for (i = 0; i < n && i < OQ_VLARB_MAX; i++) {
		t->e[i].vl = next(r) & 0x1f;
		t->e[i].weight = next(r);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t rows[4][16];
	struct rd r = {data, size};
	struct oq_vlarb_table hi, lo;
	struct oq_arb_config c;
	struct oq_arb_result res;
	struct oq_port_tables t;
	struct oq_predict_opts o;
	struct oq_port_pred pp;
	struct oq_frac f;
	unsigned int v, s;
	uint64_t sum = 0;

	table(&r, &hi);
	table(&r, &lo);
	oq_arb_config_init(&c, &hi, &lo, next(&r),
			   (uint32_t)next(&r) << 5 | (next(&r) & 0x1f));
	c.backlog = (uint16_t)(next(&r) | next(&r) << 8);
	for (v = 0; v < OQ_MAX_VLS; v++)
		if (next(&r) & 1)
			c.pkt_bytes[v] = (uint32_t)next(&r) << 8 | next(&r);
	c.max_steps = 1u << 14;
	if (oq_arb_run(&c, &res) == 0) {
		for (v = 0; v < OQ_MAX_VLS; v++)
			sum += res.vl_bytes[v];
		if (sum != res.cycle_bytes)
			abort();
		if (!res.idle && !res.approx) {
			for (v = 0; v < OQ_MAX_VLS; v++)
				if (res.vl_bytes[v] && !(c.backlog & (1u << v)))
					abort();
		}
	}
	(void)oq_cx2_apply(&c, &res);
	(void)oq_cx2_ratio(c.high_limit, next(&r), next(&r), &f);

	memset(&t, 0, sizeof(t));
	for (s = 0; s < 4 * 16; s++)
		rows[s / 16][s % 16] = next(&r);
	t.sl2vl = rows;
	t.n_sl2vl = (uint8_t)(1 + next(&r) % 4);
	t.has_sl2vl = next(&r) & 1;
	t.has_vlarb = next(&r) & 1;
	if (hi.n <= OQ_VLARB_MAX)
		t.vlarb_high = hi;
	if (lo.n <= OQ_VLARB_MAX)
		t.vlarb_low = lo;
	t.vl_high_limit = c.high_limit;
	oq_predict_opts_init(&o);
	o.active_sls = (uint16_t)(next(&r) | next(&r) << 8);
	o.in_port = (int)next(&r) - 2;
	o.scenario = next(&r) & 1 ? OQ_SCEN_ALONE : OQ_SCEN_BACKLOG;
	o.profile = next(&r) & 1 ? OQ_PROFILE_CX2_2K : OQ_PROFILE_IBA;
	o.mtu_bytes = c.mtu_bytes;
	o.max_steps = 1u << 14;
	for (s = 0; s < 16; s++)
		o.sl_weight[s] = next(&r);
	/* Tables of no port: no fabric is read. */
	(void)oq_predict_port(NULL, &t, 100.0, &o, &pp);
	return 0;
}
