// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What tables give a class of ports, by the model: every VL's share with
 * every VL the class's SL2VL reaches backlogged (as the publisher takes
 * the guarantee, oq_port_guarantee) and the worst wait of the VLs asked
 * for.  The synthesizer accepts a result only when this says every
 * intent holds.
 */
#include <string.h>

#include <osmqos/synth.h>

bool oq_frac_meets_bp(struct oq_frac share, uint32_t bp)
{
	/* 0/0 is no share (a result never filled in), never a guarantee. */
	return share.den && (unsigned __int128)share.num * 10000u >=
				    (unsigned __int128)bp * share.den;
}

void oq_synth_class_tables(const struct oq_synth_port *in,
			   const struct oq_synth_result *r, uint8_t (*rows)[16],
			   struct oq_port_tables *t)
{
	size_t n = 1;

	memset(t, 0, sizeof(*t));
	if (in->sl2vl_fixed && in->n_rows) {
		n = in->n_rows;
		memcpy(rows, in->rows, n * 16);
	} else {
		memcpy(rows[0], r->sl2vl, 16);
	}
	t->has_sl2vl = in->has_sl2vl;
	t->sl2vl = t->has_sl2vl ? rows : NULL;
	t->n_sl2vl = t->has_sl2vl ? (uint8_t)n : 0;
	t->has_vlarb = in->has_vlarb;
	if (in->has_vlarb) {
		t->vlarb_high = r->high;
		t->vlarb_low = r->low;
		t->vl_high_limit = r->limit;
	}
}

int oq_synth_eval(const struct oq_synth_port *in, const uint8_t row[16],
		  const struct oq_vlarb_table *high,
		  const struct oq_vlarb_table *low, uint8_t limit,
		  uint16_t wait_vls, struct oq_port_guarantee *g)
{
	return oq_synth_eval_states(in, row, high, low, limit, wait_vls,
				    OQ_WAIT_DEFAULT_STATES, g);
}

int oq_synth_eval_states(const struct oq_synth_port *in, const uint8_t row[16],
			 const struct oq_vlarb_table *high,
			 const struct oq_vlarb_table *low, uint8_t limit,
			 uint16_t wait_vls, size_t states,
			 struct oq_port_guarantee *g)
{
	uint8_t rows[OQ_SYNTH_MAX_ROWS][16];
	struct oq_port_tables t;
	struct oq_guarantee_opts o;
	size_t n = 1;

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
	oq_guarantee_opts_init(&o);
	o.mtu_bytes = in->mtu;
	o.wait_vls = wait_vls;
	o.wait_states = wait_vls ? states : 0;
	return oq_port_guarantee(&t, &o, g);
}
