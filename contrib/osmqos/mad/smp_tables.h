/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Reading a port's programmed SL2VL and VLArb tables back with SMP Gets,
 * in exactly the shape the table compiler gives them (struct
 * oq_port_tables), so that the audit compares like with like.
 */
#ifndef OSMQOS_SMP_TABLES_H
#define OSMQOS_SMP_TABLES_H

#include <stddef.h>

#include <osmqos/match.h>
#include <osmqos/tables.h>

#include "smp_transport.h"

/*
 * Read what the port of want holds: the SL2VL tables want has (switch
 * external ports: every input port; attribute modifier in << 8 | out),
 * the VLArb entries OpenSM writes for the port's caps (got->vlarb_*.n is
 * that count), and VLHighLimit from the PortInfo the discovery read.
 * The port must belong to a fabric built by oq_live_build().  Returns 0,
 * or -1 with err set (got is freed then).
 */
int oq_smp_read_tables(struct oq_smp_port *p, const struct oq_port_tables *want,
		       struct oq_port_tables *got, char *err, size_t errlen);
void oq_smp_tables_free(struct oq_port_tables *got);

#endif /* OSMQOS_SMP_TABLES_H */
