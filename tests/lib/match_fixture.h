/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Test fixtures for the binding, matcher and table compiler: fabrics and
 * policies built in code (no parser, no topology file), a deterministic
 * PRNG, and random policies/queries for the property tests and the
 * benchmarks (tests/lib/match_fixture.c).
 */
#ifndef OSMQOS_TEST_MATCH_FIXTURE_H
#define OSMQOS_TEST_MATCH_FIXTURE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/match.h>
#include <osmqos/tables.h>

/* ---- PRNG (xorshift64*) -------------------------------------------- */

uint64_t fx_rand(uint64_t *s);
uint64_t fx_below(uint64_t *s, uint64_t n);

/* ---- fabrics -------------------------------------------------------- */

void fx_caps(struct oq_port *p, unsigned vls, unsigned hcap, unsigned lcap);
/* A CA whose port i has GUID guid + i and LID lid + i - 1. */
struct oq_node *fx_ca(struct oq_fabric *f, uint64_t guid, const char *desc,
		      unsigned n_ports, uint16_t lid);
struct oq_node *fx_router(struct oq_fabric *f, uint64_t guid, const char *desc,
			  uint16_t lid);
/* A switch with an enhanced port 0 (GUID = node GUID, one LID); external
 * ports become present when linked. */
struct oq_node *fx_switch(struct oq_fabric *f, uint64_t guid, const char *desc,
			  unsigned n_ports, uint16_t lid);
uint16_t *fx_pkeys1(uint16_t *buf, uint16_t a);

/* ---- policies ------------------------------------------------------- */

char *fx_strdup(const char *s);
struct oq_policy *fx_policy_new(void);
int fx_group(struct oq_policy *p, const char *name);
void fx_group_guids(struct oq_policy *p, int g, uint64_t lo, uint64_t hi);
void fx_group_pkeys(struct oq_policy *p, int g, uint64_t lo, uint64_t hi);
void fx_group_types(struct oq_policy *p, int g, unsigned t);
void fx_group_name(struct oq_policy *p, int g, const char *nm);
void fx_ref(struct oq_refs *r, const char *name, int idx);
void fx_group_partition(struct oq_policy *p, int g, const char *name);
int fx_level(struct oq_policy *p, const char *name, int sl);
int fx_rule(struct oq_policy *p, int level);
void fx_rule_src(struct oq_policy *p, int r, int g);
void fx_rule_dst(struct oq_policy *p, int r, int g);
void fx_add_range(struct oq_ranges *rg, uint64_t lo, uint64_t hi);
void fx_refs_free(struct oq_refs *r);
void fx_policy_free(struct oq_policy *p);
struct oq_vlarb_scope *fx_vlarb_scope(struct oq_policy *p);
/* "0:4,1:8" style list into a scope's high or low table. */
void fx_vlarb_set(struct oq_vlarb_entry **e, size_t *n, bool *has,
		  const char *spec);
struct oq_sl2vl_scope *fx_sl2vl_scope(struct oq_policy *p, const uint8_t *tbl);
void fx_portsel(struct oq_portsel *sel, unsigned lo, unsigned hi);

/* ---- random fabrics, policies and queries ----------------------------- */

/*
 * n_cas single-port CAs (GUIDs 0x1000 + 2i + 1, descs "hI"), n_sw switches
 * (GUIDs 0x500000 + i, descs "swI") each with `radix` ports; CAs hang off
 * switches round-robin; random pkey tables from {0x1..0x8} on end ports.
 */
struct oq_fabric *fx_random_fabric(uint64_t *rng, size_t n_cas, size_t n_sw,
				   unsigned radix);
void fx_random_ranges(uint64_t *rng, struct oq_ranges *r, uint64_t space,
		      unsigned max_n);
/*
 * n_rules random rules appended to p: each with a random subset of
 * criteria over small value spaces (so queries hit them), over p's
 * levels and groups.
 */
void fx_random_rules(uint64_t *rng, struct oq_policy *p, size_t n_rules);
/*
 * n rules that no fx_random_query matches (service-ids far above the
 * queries' 0..71), appended to p: they push the random rules after them
 * to high rule indices.
 */
void fx_unreachable_rules(struct oq_policy *p, size_t n);
/*
 * A random policy: n_groups groups mixing GUID ranges, node types, pkeys
 * and port names of fabric f; n_rules rules, each with a random subset of
 * criteria over small value spaces (so queries hit them).
 */
struct oq_policy *fx_random_policy(uint64_t *rng, const struct oq_fabric *f,
				   size_t n_groups, size_t n_rules);
void fx_random_query(uint64_t *rng, const struct oq_fabric *f,
		     struct oq_query *q);
#endif /* OSMQOS_TEST_MATCH_FIXTURE_H */
