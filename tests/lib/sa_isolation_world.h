/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Random worlds for the SA isolation property test (test_sa_isolation.c):
 * a reproducible generator (xorshift64*) of small fabrics -- a random tree
 * of switches with CAs, LIDs with LMC 0-2, LFTs routed over the tree,
 * random partition tables and partitions -- and of random policies, as
 * text in OpenSM's grammar parsed, validated, bound and compiled by the
 * real code (sa_isolation_world.c).
 */
#ifndef OSMQOS_TEST_SA_ISOLATION_WORLD_H
#define OSMQOS_TEST_SA_ISOLATION_WORLD_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/path.h>
#include <osmqos/policy.h>
#include <osmqos/sa_path.h>

#define PREFIX 0xfec0000000001234ull

#define MAX_SW	   4
#define MAX_CA	   7
#define SW_PORTS   8
#define MAX_ENDS   (MAX_SW + MAX_CA)
#define MAX_ALIAS  (MAX_ENDS + MAX_CA)
#define MAX_PKEYS  3
#define MAX_LEVELS 6

/* ---- random numbers (xorshift64*: reproducible from the seed) -------- */

extern uint64_t world_rng; /* the generator's state: seed it */

uint64_t world_rnd64(void);
unsigned int world_rnd(unsigned int n);
bool world_chance(unsigned int percent);

/* ---- the random world ------------------------------------------------- */

struct world {
	struct oq_fabric *f;
	struct oq_node *sw[MAX_SW];
	unsigned int n_sw, n_ca;
	struct oq_port *ends[MAX_ENDS]; /* switch port 0s, then CA ports */
	unsigned int n_ends;
	uint16_t lids[MAX_ENDS * 4]; /* every LID of every end port */
	unsigned int n_lids;
	struct oq_alias al[MAX_ALIAS];
	unsigned int n_al;
	uint16_t pool[MAX_PKEYS]; /* partition keys besides the default */
	unsigned int n_pool;
	struct oq_partition pv[MAX_PKEYS + 1];
	struct oq_partitions parts;
	bool allow_both;
	/* The policy of the moment. */
	char text[8192];
	size_t len;
	struct oq_policy *pol;
	struct oq_binding *bind;
	struct oq_matcher *m;
	struct oq_diags diags;
	struct oq_sa_view v;
};

void world_fabric_build(struct world *w);

/* ---- the random policy ---------------------------------------------- */

void world_policy_free(struct world *w);
/* Parse, validate, bind and compile; false when the generator wrote
 * something the validator rejects (then another is drawn). */
bool world_policy_build(struct world *w);

#endif /* OSMQOS_TEST_SA_ISOLATION_WORLD_H */
