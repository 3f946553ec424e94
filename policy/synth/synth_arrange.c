// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Packet counts to table entries.  Shares do not depend on the order of
 * the entries (synth_counts.c); the wait of a VL does: a packet that just
 * missed its VL's turn waits for every entry up to the VL's next one
 * (docs/model.md, "Latency").  So each VL's entries are spread evenly
 * over the table -- entry i of a VL with e entries sits at (i + 1/2) / e
 * of the way round -- and a VL with a latency intent gets one entry per
 * packet where the table has room, the others entries of a bounded size,
 * so the largest gap between two turns of a VL is as small as its entry
 * count allows (Alfaro et al., the maximum separation between
 * consecutive entries).  The synthesizer checks every arrangement it
 * keeps with the exact wait (oq_arb_worst_wait).
 */
#include <stdlib.h>
#include <string.h>

#include "synth_int.h"

struct slot {
	uint8_t vl, pkts;
	uint32_t pos2, den; /* position (2i+1) / (2e): pos2 / den */
	bool first;
};

static int slot_cmp(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;
	uint64_t l = (uint64_t)x->pos2 * y->den, r = (uint64_t)y->pos2 * x->den;

	if (l != r)
		return l < r ? -1 : 1;
	if (x->first != y->first)
		return x->first ? -1 : 1;
	return x->vl - y->vl;
}

int oq_synth_arrange(const uint32_t cnt[OQ_MAX_VLS], uint16_t first,
		     uint16_t fine, unsigned int size, unsigned int cap,
		     uint32_t mtu, struct oq_vlarb_table *t)
{
	unsigned int pmax = oq_synth_pmax(mtu), c = oq_synth_credits(mtu);
	unsigned int e[OQ_MAX_VLS] = {0}, v, n = 0, i, coarse = 0, fine_min = 0,
		     fine_want = 0, budget;
	struct slot s[OQ_VLARB_MAX];

	memset(t, 0, sizeof(*t));
	if (size < 1)
		size = 1;
	if (size > pmax)
		size = pmax;
	for (v = 0; v < OQ_MAX_VLS; v++) {
		if (!cnt[v])
			continue;
		if (fine & (1u << v)) {
			fine_min += (cnt[v] + pmax - 1) / pmax;
			fine_want += cnt[v];
		} else {
			e[v] = (cnt[v] + size - 1) / size;
			coarse += e[v];
		}
	}
	if (coarse + fine_min > cap || cap > OQ_VLARB_MAX)
		return -1;
	/* One entry per packet for the fine VLs, or the room left shared in
	 * proportion to their packets (each at least what pmax needs). */
	budget = cap - coarse;
	for (v = 0; v < OQ_MAX_VLS; v++) {
		unsigned int lo, want;

		if (!cnt[v] || !(fine & (1u << v)))
			continue;
		lo = (cnt[v] + pmax - 1) / pmax;
		want = fine_want <= budget ? cnt[v]
					   : (unsigned int)((uint64_t)budget *
							    cnt[v] / fine_want);
		e[v] = want > lo ? want : lo;
	}
	for (v = 0; v < OQ_MAX_VLS; v++)
		n += e[v];
	/* Rounding up to each VL's least can overshoot: take back from the
	 * fine VLs with the most entries. */
	while (n > cap) {
		unsigned int best = OQ_MAX_VLS;

		for (v = 0; v < OQ_MAX_VLS; v++)
			if ((fine & (1u << v)) &&
			    e[v] > (cnt[v] + pmax - 1) / pmax &&
			    (best == OQ_MAX_VLS || e[v] > e[best]))
				best = v;
		if (best == OQ_MAX_VLS)
			return -1;
		e[best]--;
		n--;
	}
	n = 0;
	for (v = 0; v < OQ_MAX_VLS; v++) {
		for (i = 0; i < e[v]; i++) {
			/* Packets as equal as possible over its entries. */
			s[n].vl = (uint8_t)v;
			s[n].pkts =
				(uint8_t)(cnt[v] / e[v] + (i < cnt[v] % e[v]));
			s[n].pos2 = 2 * i + 1;
			s[n].den = 2 * e[v];
			s[n].first = first & (1u << v);
			n++;
		}
	}
	qsort(s, n, sizeof(s[0]), slot_cmp);
	for (i = 0; i < n; i++) {
		unsigned int w = s[i].pkts * c;

		t->e[i].vl = s[i].vl;
		t->e[i].weight = (uint8_t)(w > 255 ? 255 : w);
	}
	t->n = (uint8_t)n;
	return 0;
}
