/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Chains of random fabric changes for the derive tests: a fabric as a
 * description (what a record would say of it), random changes of the
 * kinds a sweep sees, and the fabric built afresh from a description or
 * derived from the one before it (oq_fabric_derive), as the snapshot
 * builds them, with partitions set after finalize as the plugin sets
 * OpenSM's (fabric_chain.c; test_fabric_derive, test_tables_derive).
 */
#ifndef OSMQOS_TESTS_FABRIC_CHAIN_H
#define OSMQOS_TESTS_FABRIC_CHAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>

#define MAX_NODES 24
#define MAX_PORTS 6
#define N_LIDS	  64

/* A fabric as a description: what a record would say of it. */
struct d_port {
	uint16_t lid;
	uint8_t lmc;
	uint64_t guid; /* 0: the node's own (node GUID + port number) */
	uint8_t width, vl_cap;
	uint8_t mtu_cap;    /* IB MTU enum; 0: not said (the chains' own) */
	uint64_t peer_guid; /* 0: no link */
	uint8_t peer_num;
	uint16_t pkeys[2];
	uint8_t n_pkeys;
};

struct d_node {
	uint64_t guid; /* 0: no node in this slot */
	enum oq_node_type type;
	char desc[16];
	uint8_t n_ports;
	struct d_port ports[MAX_PORTS + 1];
	uint8_t lft[N_LIDS];
	bool has_lft;
};

struct desc {
	struct d_node n[MAX_NODES]; /* in node order (GUID order) */
};

/* What the chains went through, so that a test that runs none of a case
 * says so. */
struct chain_seen {
	unsigned int loopbacks, dups, dup_diags, owned_copies, lmcs;
};

/* The chains' random state, and what they went through. */
extern unsigned int chain_seed;
extern struct chain_seen chain_seen;

unsigned int chain_rnd(unsigned int n);
void chain_link_ports(struct desc *d, struct d_node *a, unsigned int i,
		      struct d_node *b, unsigned int j);
void chain_random_fabric(struct desc *d);
void chain_random_change(struct desc *d);
/* A switch of 4 ports or a CA of 1 in slot, all ports 4x with 8 VLs. */
void chain_small_node(struct d_node *n, uint64_t guid, enum oq_node_type type,
		      unsigned int slot);
struct oq_node *chain_node(const struct oq_fabric *f, uint64_t guid);
struct oq_fabric *chain_build_fresh(const struct desc *d,
				    struct oq_diags *diags);
/* prev (built from old) to a fabric for d: unchanged nodes shared. */
struct oq_fabric *chain_build_derived(const struct oq_fabric *prev,
				      const struct desc *old,
				      const struct desc *d, size_t *n_shared,
				      struct oq_diags *diags);
/* Partition tables of generation gen on finalized f (fabric_chain.c). */
void chain_set_partitions(struct oq_fabric *f, unsigned int gen);

/*
 * One chain: a random fabric (prev), then steps: next() makes desc b
 * from a by one to three changes and builds it afresh (fresh, its
 * findings df) and derived from prev (derived, dd), partitions set on
 * both in half the chains; advance() frees prev and fresh and goes on
 * from derived.
 */
struct chain {
	struct desc a, b;
	struct oq_fabric *prev, *fresh, *derived;
	struct oq_diags df, dd;
	size_t shared; /* nodes derived shared with prev, this step */
	unsigned int gen;
	bool parts;
};

void chain_start(struct chain *c, unsigned int seed);
void chain_next(struct chain *c);
void chain_advance(struct chain *c);
void chain_end(struct chain *c);

#endif /* OSMQOS_TESTS_FABRIC_CHAIN_H */
