/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `osmqos tables` without --all: the ports grouped into classes of equal
 * tables (port kind, VLs, the SL2VL rows -- one row when every input
 * port has the same -- VLArb high and low, VLHighLimit, and where each
 * came from).  A fat tree of any size has a handful; each is shown once
 * with its port count and an example port.
 */
#ifndef OSMQOS_CLI_TABLES_CLASSES_H
#define OSMQOS_CLI_TABLES_CLASSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/htab.h>
#include <osmqos/tables.h>

struct oq_tables_class {
	size_t rep; /* index (in the tables' ports) of its first port */
	size_t n_ports;
	bool uniform; /* every input port's SL2VL row is the same */
	uint8_t *key;
	size_t key_len;
	uint64_t hash;
};

struct oq_tables_classes {
	struct oq_tables_class *v;
	size_t n, cap;
	size_t n_ports; /* ports classified */
	struct oq_htab idx; /* hash of a class's key -> its index in v */
};

/* Is every input port's SL2VL row of pt the same? */
bool oq_tables_uniform_sl2vl(const struct oq_port_tables *pt);

/* Classify the ports of t for which keep(port index, ctx) is true (keep
 * NULL: every port), in port order.  0, or -1 when out of memory. */
int oq_tables_classes_build(const struct oq_fabric_tables *t,
			    bool (*keep)(size_t i, const void *ctx),
			    const void *ctx, struct oq_tables_classes *out);
void oq_tables_classes_free(struct oq_tables_classes *c);

/* A summary's count as an operator reads it: 60300 as "60,300" in buf
 * (len bytes), which is returned. */
const char *oq_count_text(size_t v, char *buf, size_t len);

#endif /* OSMQOS_CLI_TABLES_CLASSES_H */
