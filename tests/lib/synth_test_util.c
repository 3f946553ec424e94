// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Helpers of the synthesizer's unit tests (synth_test_util.h). */
#include "synth_test_util.h"

uint64_t synth_rng = 0x9e3779b97f4a7c15ull;

void intents_set(struct oq_sl_intents *it, unsigned int sl, uint32_t bp,
		 bool high)
{
	it->need_bp[sl] += bp;
	it->total_bp += bp;
	it->sls |= (uint16_t)(1u << sl);
	if (high)
		it->high |= (uint16_t)(1u << sl);
	it->level[sl] = (int)sl;
}

void port_init(struct oq_synth_port *in, unsigned int vls, unsigned int cap,
	       uint32_t mtu)
{
	memset(in, 0, sizeof(*in));
	in->vls = vls;
	in->cap_high = in->cap_low = cap;
	in->mtu = mtu;
	in->has_vlarb = vls > 1;
	in->has_sl2vl = true;
}

uint32_t rnd(uint32_t n)
{
	synth_rng ^= synth_rng << 13;
	synth_rng ^= synth_rng >> 7;
	synth_rng ^= synth_rng << 17;
	return (uint32_t)(synth_rng % n);
}
