// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The QoS Sets one port gets from a policy edit, decided as OpenSM 3.3.23's
 * osm_qos.c decides them (sl2vl_update_table, vlarb_update and
 * vlarb_update_table_block): against its cache of what it last wrote,
 * after masking VLs to the port's operational VLs.  The plugin's hooks
 * (plugin/hooks.c) count the same Sets at the sweep; the e2e test
 * tests/e2e/plan.sh compares both with OpenSM's frame log.  Not modelled:
 * the one-MAD optimized SL2VL of switches that support it with
 * use_optimized_slvl TRUE, and Sets repeated because a port needs an
 * update (a link that bounced).
 */
#include <config.h>

#include <string.h>

#include "plan_diff.h"

#define BLOCK 32 /* IB_NUM_VL_ARB_ELEMENTS_IN_BLOCK */

/* OpenSM's vl_mask: (1 << (OperVLs encoding - 1)) - 1. */
static unsigned int vl_mask(const struct oq_port *p)
{
	switch (p->oper_vls) {
	case 1:
		return 0;
	case 2:
		return 1;
	case 4:
		return 3;
	case 8:
		return 7;
	default:
		return 15;
	}
}

static const uint8_t *row(const struct oq_port_tables *t, unsigned int in)
{
	if (!t || !t->has_sl2vl || !t->sl2vl || !t->n_sl2vl)
		return NULL;
	return t->n_sl2vl == 1 ? t->sl2vl[0] : t->sl2vl[in];
}

static bool rows_differ(const uint8_t *a, const uint8_t *b, unsigned int mask)
{
	unsigned int s;

	if (!a || !b)
		return a != b;
	for (s = 0; s < 16; s++) {
		unsigned int x = a[s] & 15, y = b[s] & 15;

		if (x != 15)
			x &= mask;
		if (y != 15)
			y &= mask;
		if (x != y)
			return true;
	}
	return false;
}

static void entry(const struct oq_vlarb_table *t, unsigned int i,
		  unsigned int mask, unsigned int *vl, unsigned int *w)
{
	*vl = i < t->n ? t->e[i].vl & mask : 0;
	*w = i < t->n ? t->e[i].weight : 0;
}

static bool block_differs(const struct oq_vlarb_table *a,
			  const struct oq_vlarb_table *b, unsigned int first,
			  unsigned int len, unsigned int mask)
{
	unsigned int i, v1, w1, v2, w2;

	for (i = first; i < first + len; i++) {
		entry(a, i, mask, &v1, &w1);
		entry(b, i, mask, &v2, &w2);
		if (v1 != v2 || w1 != w2)
			return true;
	}
	return false;
}

/* The blocks vlarb_update() writes for a table of cap entries. */
static unsigned int table_sets(const struct oq_vlarb_table *a,
			       const struct oq_vlarb_table *b, unsigned int cap,
			       unsigned int mask)
{
	unsigned int n = 0;

	if (cap > 0 && block_differs(a, b, 0, cap < BLOCK ? cap : BLOCK, mask))
		n++;
	if (cap > BLOCK && block_differs(a, b, BLOCK, cap % BLOCK, mask))
		n++;
	return n;
}

unsigned int plan_port_sets(const struct oq_port_tables *old,
			    const struct oq_port_tables *new,
			    struct plan_port *out)
{
	const struct oq_port *p = new->port;
	unsigned int mask = vl_mask(p), in, n_in;

	memset(out, 0, sizeof(*out));
	if (new->has_sl2vl) {
		/* A switch external port: every input port of the switch;
		 * an end port (and switch port 0): one table. */
		n_in = new->n_sl2vl == 1 ? 1
					 : (unsigned int)p->node->n_ports + 1;
		for (in = 0; in < n_in; in++)
			if (rows_differ(row(old, in), row(new, in), mask))
				out->sl2vl_sets++;
	}
	if (new->has_vlarb && p->vl_cap != 1) {
		static const struct oq_vlarb_table empty;
		const struct oq_vlarb_table *ol =
			old && old->has_vlarb ? &old->vlarb_low : &empty;
		const struct oq_vlarb_table *oh =
			old && old->has_vlarb ? &old->vlarb_high : &empty;

		out->vlarb_sets +=
			table_sets(ol, &new->vlarb_low, p->vlarb_low_cap, mask);
		out->vlarb_sets += table_sets(oh, &new->vlarb_high,
					      p->vlarb_high_cap, mask);
		out->vl_high_limit = !old || !old->has_vlarb ||
				     old->vl_high_limit != new->vl_high_limit;
	}
	return out->sl2vl_sets + out->vlarb_sets;
}
