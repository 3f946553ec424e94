// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SL2VL and VLArb read-back.  The attribute modifiers are the ones
 * osm_qos.c uses to write the same tables: SL2VL on a switch "input << 8 |
 * output", 0 on an end port; VLArb "block << 16 | port" with blocks 1-2
 * low, 3-4 high, port 0 on an end port (which answers for the port the
 * SMP arrived on, hence a CA port's own directed route).
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smp_attrs.h"
#include "smp_discover.h"
#include "smp_tables.h"

static int tables_get(struct oq_smp_port *p, const struct oq_dr_path *path,
		      uint16_t attr, uint32_t mod, uint8_t *d,
		      char *err, size_t errlen)
{
	int rc = oq_smp_query(p, OQ_SMP_METHOD_GET, path, attr, mod, d, err,
			      errlen);

	if (rc > 0) {
		char dr[256];

		oq_dr_path_format(path, dr, sizeof(dr));
		snprintf(err, errlen,
			 "SMP Get of attribute 0x%04x (modifier 0x%x) along "
			 "directed route %s answered status 0x%04x; the port "
			 "may have gone down, rerun the audit",
			 attr, mod, dr, rc);
	}
	return rc ? -1 : 0;
}

/* Blocks first (0-based: 0 low 0-31, 1 low 32-63, 2 high 0-31, 3 high
 * 32-63) into the table, cap entries in all. */
static int read_vlarb(struct oq_smp_port *p, const struct oq_dr_path *path,
		      uint8_t port_num, unsigned int first_block,
		      unsigned int cap, struct oq_vlarb_table *t, char *err,
		      size_t errlen)
{
	unsigned int n = oq_vlarb_effective_cap(cap), b, i;
	uint8_t d[OQ_SMP_DATA_SIZE], vl[32], w[32];

	memset(t, 0, sizeof(*t));
	for (b = 0; b * 32 < n; b++) {
		uint32_t mod = (uint32_t)(first_block + b + 1) << 16 | port_num;

		if (tables_get(p, path, OQ_SMP_ATTR_VLARB, mod, d, err, errlen))
			return -1;
		oq_smp_parse_vlarb(d, vl, w);
		for (i = 0; i < 32 && b * 32 + i < n; i++) {
			t->e[b * 32 + i].vl = vl[i];
			t->e[b * 32 + i].weight = w[i];
		}
	}
	t->n = (uint8_t)n;
	return 0;
}

int oq_smp_read_tables(struct oq_smp_port *p, const struct oq_port_tables *want,
		       struct oq_port_tables *got, char *err, size_t errlen)
{
	const struct oq_port *port = want->port;
	const struct oq_live_port *lp = oq_live_port_of(port);
	bool sw = port->node->type == OQ_NODE_SWITCH;
	uint8_t num = sw ? port->num : 0;
	uint8_t d[OQ_SMP_DATA_SIZE];
	unsigned int in;

	memset(got, 0, sizeof(*got));
	got->port = port;
	got->sl2vl_scope = got->vlarb_scope = -1;
	if (!lp) {
		snprintf(err, errlen, "internal error: port without a route");
		return -1;
	}
	if (want->has_sl2vl && want->n_sl2vl) {
		got->sl2vl = calloc(want->n_sl2vl, sizeof(*got->sl2vl));
		if (!got->sl2vl) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		got->n_sl2vl = want->n_sl2vl;
		got->has_sl2vl = true;
		for (in = 0; in < want->n_sl2vl; in++) {
			/* One table per input on a switch external port. */
			uint32_t mod = sw && port->num ? in << 8 | num : 0;

			if (tables_get(p, &lp->path, OQ_SMP_ATTR_SL2VL, mod, d,
				       err, errlen))
				goto fail;
			oq_smp_parse_sl2vl(d, got->sl2vl[in]);
		}
	}
	if (want->has_vlarb) {
		got->has_vlarb = true;
		if (read_vlarb(p, &lp->path, num, 0, port->vlarb_low_cap,
			       &got->vlarb_low, err, errlen) ||
		    read_vlarb(p, &lp->path, num, 2, port->vlarb_high_cap,
			       &got->vlarb_high, err, errlen))
			goto fail;
		got->vl_high_limit = lp->pi.vl_high_limit;
	}
	return 0;
fail:
	oq_smp_tables_free(got);
	return -1;
}

void oq_smp_tables_free(struct oq_port_tables *got)
{
	free(got->sl2vl);
	got->sl2vl = NULL;
	got->n_sl2vl = 0;
}
