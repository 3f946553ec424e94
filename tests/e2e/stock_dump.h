/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The policy a parser ended up with, written in one canonical text form
 * so that OpenSM's own result (opensm_parse.c, from its osm_qos_policy_t)
 * and the core's two readings of the same file (the stock OpenSM model,
 * oq_stock_read, and osmqos's own oq_policy) can be compared byte for
 * byte on one fabric.  Port groups are written as the set of end-port
 * GUIDs they select on it (node types, the SM's port, GUIDs, port names,
 * P_Keys and partitions all resolved), levels by their parameters, rules
 * in order, then the qos-setup scopes:
 *
 *	default sl=S mtu=M rate=R life=L bits=RANGES pkeys=RANGES
 *	rule N src SET dst SET sid RANGES class RANGES pkey RANGES level ...
 *	vlarb N group [SET]... across [SET]... high A:B,... low ... limit X
 *	sl2vl N group [SET]... from-groups ... to-groups ... from BITS to
 *	      BITS table V,...
 *
 * SET is "any" for a rule without groups, else {GUID,...} sorted; a scope
 * group OpenSM would not find is [?NAME]; -1 and "-" mean not given.
 */
#ifndef OSMQOS_TESTS_STOCK_DUMP_H
#define OSMQOS_TESTS_STOCK_DUMP_H

#include <stdint.h>
#include <stdio.h>

#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/policy.h>
#include <osmqos/stock.h>

/* Pieces the OpenSM side writes with the same layout. */
void sd_ranges(FILE *out, const struct oq_ranges *r);
void sd_level(FILE *out, unsigned int sl, int mtu, int rate, int life,
	      const struct oq_ranges *bits, const struct oq_ranges *pkeys);
/* GUIDs (sorted here, duplicates dropped) as {0x...,...}. */
void sd_guids(FILE *out, uint64_t *g, size_t n);
/* Scope group sets, each "[{...}]" or "[?NAME]", sorted. */
void sd_sets(FILE *out, char **sets, size_t n);
void sd_bits128(FILE *out, const uint8_t bits[16]);

/* The stock model's reading on fabric f (sm_port_guid set). */
int sd_stock(FILE *out, const struct oq_stock *s, const struct oq_fabric *f,
	     const struct oq_partitions *parts);
/* osmqos's reading, bound (b) on the same fabric. */
int sd_osmqos(FILE *out, const struct oq_policy *p, const struct oq_binding *b,
	      const struct oq_fabric *f);

#endif /* OSMQOS_TESTS_STOCK_DUMP_H */
