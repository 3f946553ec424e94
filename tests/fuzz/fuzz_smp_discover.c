// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz target: `osmqos drift` against a hostile fabric.  The SMP
 * transport is replaced by the input: each Get takes one control byte
 * (answered / node refused / no answer) and 64 attribute bytes from it,
 * so NodeInfo, PortInfo and table answers are whatever the fuzzer makes
 * them.  The walk, the model built from it, the compiler's template
 * tables and the read-back comparison must never crash, loop or read out
 * of bounds, and every route must stay within 63 hops.
 *
 * This file's oq_smp_query() stands in for the transport's: the MAD
 * library's transport object is then never linked in.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_drift.h"
#include "mad/smp_attrs.h"
#include "mad/smp_discover.h"
#include "mad/smp_tables.h"
#include "mad/smp_transport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t *in_p;
static size_t in_n;

/* Bounds the work per input: a fabric of answers, not an endless one. */
#define MAX_QUERIES 4096
static unsigned int queries;

int oq_smp_query(struct oq_smp_port *p, uint8_t method,
		 const struct oq_dr_path *path, uint16_t attr, uint32_t mod,
		 uint8_t *d, char *err, size_t errlen)
{
	uint8_t ctl;
	size_t n;

	(void)method;
	(void)attr;
	(void)mod;
	if (path->cnt > OQ_SMP_MAX_HOPS)
		abort();
	p->sent++;
	if (!in_n || ++queries > MAX_QUERIES) {
		snprintf(err, errlen, "no answer");
		return -1;
	}
	ctl = *in_p++;
	in_n--;
	if (ctl == 0xff) {
		snprintf(err, errlen, "no answer");
		return -1;
	}
	if (ctl == 0xfe)
		return 0x1c; /* refused */
	n = in_n < OQ_SMP_DATA_SIZE ? in_n : OQ_SMP_DATA_SIZE;
	memset(d, 0, OQ_SMP_DATA_SIZE);
	memcpy(d, in_p, n);
	in_p += n;
	in_n -= n;
	return 0;
}

static void read_back(struct oq_smp_port *p, const struct oq_fabric *f)
{
	struct drift_list out = {0}, vlhl = {0};
	struct oq_fabric_tables want;
	struct oq_templates t;
	struct oq_diags d;
	char err[512];
	size_t i;

	oq_diags_init(&d);
	oq_templates_default(&t);
	if (oq_tables_compile(NULL, f, &t, &want, &d)) {
		oq_diags_free(&d);
		return;
	}
	for (i = 0; i < want.n; i++) {
		struct oq_port_tables got;

		if (!want.ports[i].has_sl2vl && !want.ports[i].has_vlarb)
			continue;
		if (oq_smp_read_tables(p, &want.ports[i], &got, err,
				       sizeof(err)))
			continue;
		drift_compare_port(&want.ports[i], &got, &out, &vlhl);
		oq_smp_tables_free(&got);
	}
	drift_list_free(&out);
	drift_list_free(&vlhl);
	oq_fabric_tables_free(&want);
	oq_diags_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oq_live_fabric lf;
	struct oq_smp_port p;
	struct oq_diags d;
	char err[512];
	size_t i;

	memset(&p, 0, sizeof(p));
	in_p = data;
	in_n = size;
	queries = 0;
	if (oq_live_discover(&p, &lf, err, sizeof(err)))
		return 0;
	for (i = 0; i < lf.n; i++)
		if (lf.nodes[i].path.cnt > OQ_SMP_MAX_HOPS)
			abort();
	oq_diags_init(&d);
	if (!oq_live_build(&lf, &d) && !oq_diags_has_errors(&d))
		read_back(&p, lf.fabric);
	oq_diags_free(&d);
	oq_live_free(&lf);
	return 0;
}
