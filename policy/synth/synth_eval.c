// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What tables give a class of ports, by the model: every SL's guaranteed
 * share, the minimum over the class's input views (as the publisher
 * takes it), with all 16 SLs backlogged.  The synthesizer accepts a
 * result only when this says every intent holds.
 */
#include <string.h>

#include <osmqos/synth.h>

bool oq_frac_meets_bp(struct oq_frac share, uint32_t bp)
{
	/* 0/0 is no share (a result never filled in), never a guarantee. */
	return share.den && (unsigned __int128)share.num * 10000u >=
				    (unsigned __int128)bp * share.den;
}

int oq_synth_eval(const struct oq_synth_port *in, const uint8_t row[16],
		  const struct oq_vlarb_table *high,
		  const struct oq_vlarb_table *low, uint8_t limit,
		  struct oq_frac share[16])
{
	uint8_t rows[OQ_SYNTH_MAX_ROWS][16];
	struct oq_port_tables t;
	struct oq_predict_opts o;
	struct oq_port_pred pred;
	size_t n = 1, v, s;

	memset(&t, 0, sizeof(t));
	if (in->sl2vl_fixed) {
		n = in->n_rows;
		if (n > OQ_SYNTH_MAX_ROWS)
			return -1;
		memcpy(rows, in->rows, n * 16);
	} else {
		memcpy(rows[0], row, 16);
	}
	t.has_sl2vl = in->has_sl2vl && n;
	t.sl2vl = t.has_sl2vl ? rows : NULL;
	t.n_sl2vl = t.has_sl2vl ? (uint8_t)n : 0;
	t.has_vlarb = in->has_vlarb;
	if (in->has_vlarb) {
		t.vlarb_high = *high;
		t.vlarb_low = *low;
		t.vl_high_limit = limit;
	}
	oq_predict_opts_init(&o);
	o.mtu_bytes = in->mtu;
	if (oq_predict_port(&t, 1.0, &o, &pred))
		return -1;
	for (s = 0; s < 16; s++)
		share[s] = pred.sl[s].share;
	/* Switch egress: each input's own view too; the guarantee is the
	 * least of them. */
	for (v = 0; t.n_sl2vl >= 2 && v < n; v++) {
		o.in_port = (int)v;
		if (oq_predict_port(&t, 1.0, &o, &pred))
			return -1;
		for (s = 0; s < 16; s++)
			if (oq_frac_cmp(pred.sl[s].share, share[s]) < 0)
				share[s] = pred.sl[s].share;
	}
	return 0;
}
