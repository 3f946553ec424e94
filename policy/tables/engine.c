// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What each routing engine of OpenSM 3.3.23 does to QoS tables, and the
 * part of torus-2QoS's tables that a topology file shows (osm_torus.c):
 * end ports and switch ports facing end ports carry QoS level SL bit 3 on
 * VL bit 0; between switches the VL also encodes the dateline and turn,
 * which need the torus's coordinates, so offline those tables are not
 * known.  Its VLArb rewrite on switch ports facing end ports keeps VL 0,
 * moves VL 4 to VL 1 and zeroes the rest, compressing each block.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables_int.h"

static const struct {
	const char *name;
	enum oq_engine_kind kind;
} engines[] = {
	{"minhop", OQ_ENGINE_QOS},     {"updn", OQ_ENGINE_QOS},
	{"dnup", OQ_ENGINE_QOS},       {"file", OQ_ENGINE_QOS},
	{"ftree", OQ_ENGINE_QOS},      {"dor", OQ_ENGINE_QOS},
	{"sssp", OQ_ENGINE_QOS},       {"lash", OQ_ENGINE_PATH_SL},
	{"dfsssp", OQ_ENGINE_PATH_SL}, {"nue", OQ_ENGINE_PATH_SL},
	{"torus-2QoS", OQ_ENGINE_OWN},
};

int oq_engine_by_name(struct oq_engine *e, const char *name)
{
	size_t i;

	memset(e, 0, sizeof(*e));
	if (!name || !*name)
		name = "minhop";
	snprintf(e->name, sizeof(e->name), "%s", name);
	/* OpenSM matches engine names exactly (strcmp). */
	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++)
		if (!strcmp(engines[i].name, name)) {
			e->kind = engines[i].kind;
			return 0;
		}
	return -1;
}

/* OpenSM's min_data_vls / min_sw_data_vls: the fewest data VLs (VLCap)
 * of any CA or router port, and of any switch port whose peer is a
 * switch (osm_port_info_rcv.c; its max_op_vls cap is not known here). */
static void torus_data_vls(const struct oq_fabric *f, unsigned int *ca,
			   unsigned int *sw)
{
	size_t i;

	*ca = *sw = OQ_MAX_VLS;
	for (i = 0; i < f->n_ports; i++) {
		const struct oq_port *p = f->ports[i];
		unsigned int n = p->vl_cap ? p->vl_cap : 1;
		const struct oq_port *peer = oq_port_peer(f, p);

		if (oq_port_is_endport(p) && p->node->type != OQ_NODE_SWITCH &&
		    n < *ca)
			*ca = n;
		if (p->node->type == OQ_NODE_SWITCH && p->num && peer &&
		    peer->node->type == OQ_NODE_SWITCH && n < *sw)
			*sw = n;
	}
}

static bool faces_end_port(const struct oq_fabric *f, const struct oq_port *p)
{
	const struct oq_port *peer = oq_port_peer(f, p);

	return p->node->type == OQ_NODE_SWITCH && p->num && peer &&
	       peer->node->type != OQ_NODE_SWITCH;
}

static int torus_offline_sl2vl(const struct oq_fabric *f,
			       const struct oq_port *p, unsigned int ca_vls,
			       unsigned int sw_vls, uint8_t row[16])
{
	unsigned int sl, vls;

	if (p->node->type == OQ_NODE_SWITCH && p->num && !faces_end_port(f, p))
		return -1; /* dateline and turn bits: the torus's own */
	vls = p->node->type == OQ_NODE_SWITCH ? sw_vls : ca_vls;
	for (sl = 0; sl < 16; sl++)
		row[sl] = (uint8_t)(vls >= 2 ? (sl >> 3) & 1 : 0);
	return 0;
}

static void torus_offline_vlarb(const struct oq_fabric *f,
				const struct oq_port *p,
				struct oq_vlarb_table *t, unsigned int first,
				unsigned int n)
{
	unsigned int i, next = first;

	if (!faces_end_port(f, p))
		return;
	for (i = first; i < first + n; i++) {
		uint8_t vl = t->e[i].vl, w = t->e[i].weight;

		t->e[i].vl = t->e[i].weight = 0;
		if (vl == 0 || vl == 4) {
			t->e[next].vl = vl == 4 ? 1 : 0;
			t->e[next].weight = w;
			next++;
		}
	}
}

/* One table as OpenSM hands it to update_vlarb: block 0 (or 2) holds
 * entries 0..min(cap, 32)-1, block 1 (or 3) entries 32.. when cap > 32. */
static void engine_vlarb_table(const struct oq_fabric *f,
			       const struct oq_engine *e,
			       const struct oq_port *p,
			       struct oq_vlarb_table *t, unsigned int cap,
			       unsigned int first_block)
{
	unsigned int n0, n1;

	if (cap > OQ_VLARB_MAX)
		cap = OQ_VLARB_MAX;
	n0 = cap < 32 ? cap : 32;
	n1 = cap > 32 ? cap % 32 : 0;
	if (e->vlarb) {
		if (n0)
			e->vlarb(e->ctx, p, first_block, t, 0, n0);
		if (n1)
			e->vlarb(e->ctx, p, first_block + 1, t, 32, n1);
	} else if (e->kind == OQ_ENGINE_OWN) {
		if (n0)
			torus_offline_vlarb(f, p, t, 0, n0);
		if (n1)
			torus_offline_vlarb(f, p, t, 32, n1);
	}
}

static void mask_vls(struct oq_vlarb_table *t, unsigned int mask)
{
	unsigned int i;

	for (i = 0; i < t->n && i < OQ_VLARB_MAX; i++)
		t->e[i].vl &= (uint8_t)mask;
}

void oq_tables_engine_vlarb(const struct oq_fabric *f,
			    const struct oq_engine *e,
			    struct oq_port_tables *pt)
{
	const struct oq_port *p = pt->port;
	unsigned int mask = oq_port_vl_mask(p);

	if (!pt->has_vlarb)
		return;
	if (e->vlarb || e->kind == OQ_ENGINE_OWN) {
		engine_vlarb_table(f, e, p, &pt->vlarb_low, p->vlarb_low_cap,
				   0);
		engine_vlarb_table(f, e, p, &pt->vlarb_high, p->vlarb_high_cap,
				   2);
	}
	/* Then OpenSM's OperVLs mask (a no-op on a scope's table, whose VLs
	 * the port runs). */
	mask_vls(&pt->vlarb_low, mask);
	mask_vls(&pt->vlarb_high, mask);
}

/* The engine's SL2VL for every input of one port, masked to the port's
 * VLs as OpenSM masks what the engine returns. */
static int engine_sl2vl_port(const struct oq_fabric *f,
			     const struct oq_engine *e,
			     struct oq_fabric_tables *out,
			     struct oq_port_tables *pt, unsigned int ca_vls,
			     unsigned int sw_vls)
{
	const struct oq_port *p = pt->port;
	unsigned int mask = oq_port_vl_mask(p), in, sl;
	/* The engine writes the rows here; they are stored as one block. */
	union oq_sl2vl_scratch sc;

	pt->sl2vl_origin = OQ_ORIGIN_ENGINE;
	pt->sl2vl_scope = -1;
	if (!pt->sl2vl)
		return 0;
	memcpy(sc.row, pt->sl2vl, 16 * (size_t)pt->n_sl2vl);
	for (in = 0; in < pt->n_sl2vl; in++) {
		uint8_t *row = sc.row[in];
		int rc = e->sl2vl ? e->sl2vl(e->ctx, p, in, row)
				  : torus_offline_sl2vl(f, p, ca_vls, sw_vls,
							row);

		if (rc) {
			oq_port_tables_clear_sl2vl(pt);
			pt->has_sl2vl = false;
			pt->sl2vl_unknown = true;
			return 0;
		}
		for (sl = 0; sl < 16; sl++)
			if ((row[sl] &= 0xf) != OQ_VL_DROP)
				row[sl] &= (uint8_t)mask;
	}
	return oq_port_tables_set_sl2vl(out, pt, (const uint8_t(*)[16])sc.row,
					pt->n_sl2vl);
}

int oq_tables_engine_apply(const struct oq_fabric *f, const struct oq_engine *e,
			   struct oq_fabric_tables *out)
{
	unsigned int ca_vls = 0, sw_vls = 0;
	size_t i;

	if (e->kind == OQ_ENGINE_OWN && !e->sl2vl)
		torus_data_vls(f, &ca_vls, &sw_vls);
	for (i = 0; i < out->n; i++) {
		struct oq_port_tables *pt = &out->ports[i];
		int rc = e->kind == OQ_ENGINE_OWN && pt->has_sl2vl
				 ? engine_sl2vl_port(f, e, out, pt, ca_vls,
						     sw_vls)
				 : 0;

		if (rc)
			return rc;
		oq_tables_engine_vlarb(f, e, pt);
	}
	return 0;
}

unsigned int oq_tables_torus_sw_vls(const struct oq_fabric *f)
{
	unsigned int ca, sw;

	torus_data_vls(f, &ca, &sw);
	/* Loop, turn and QoS bits: 2, 4 or 8 VLs. */
	return sw >= 8 ? 8 : sw >= 4 ? 4 : sw >= 2 ? 2 : 1;
}
