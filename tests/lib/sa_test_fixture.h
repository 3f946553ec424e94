/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Fixture of the SA engine's unit tests (test_sa_path.c, PathRecord, and
 * test_sa_multipath.c, MultiPathRecord; policy/sa_path_*.c,
 * policy/sa_multipath.c); the code is in sa_test_fixture.c.
 * One small fabric with LFTs, partitions and SL2VL drops, a policy parsed
 * from text, and PathRecord/MultiPathRecord requests built byte by byte.
 * Every expectation is computed by hand from OpenSM 3.3.23's code
 * (osm_sa_path_record.c, osm_sa_multipath_record.c); the reasoning is in
 * the comments next to each check.  setup() selects that release; a test
 * of 3.3.24's differences selects it itself (osm_release_test.h).
 *
 * The fabric (all links 4x QDR, rate 7, MTU 4096, except d's link: 4x DDR,
 * rate 6, and d's MtuCap 2048):
 *
 *   a (0xa01, LID 10) -p1[sw1 LID 1]p3 --- p3[sw2 LID 2]p1- c (0xc01, LID 20
 *   b (0xb01, LID 11) -p2                      p2- d (0xd01, LID 30)  LMC 1)
 *
 * d also answers to the alias GUID 0xd02.  Alias order (keys compared as
 * network-order GUIDs read as x86_64 integers): sw1 0x1000, sw2 0x2000,
 * a, b, c, d, d2.
 *
 * Partition tables (bit 15 = full):
 *   switches {0xffff}; a {0xffff, 0x8001, 0x8002}; b {0xffff, 0x8001};
 *   c {0xffff, 0x0001, 0x8002}; d {0xffff, 0x0001}
 * Partitions: Default 0x7fff (no sl: 0), P1 0x0001 sl 3, P2 0x0002 sl 5.
 * OpenSM's common-key order is 0x0001, 0x0002, 0x7fff (network order read
 * as little-endian), so a pair's key is P1 when it shares it (a->b: a's
 * entry 0x8001, c->a: c's entry 0x0001), else P2, else 0xffff.
 *
 * SL2VL: everything on VL0 except sw2 port 2 (to d) from port 3: SL 7 ->
 * VL15, and sw1 port 1 (to a) from port 3: SL 6 -> VL15.
 */
#ifndef OSMQOS_TEST_SA_FIXTURE_H
#define OSMQOS_TEST_SA_FIXTURE_H

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
#include <osmqos/policy.h>
#include <osmqos/sa_path.h>

#include "sa_wire_bits.h"

#define PREFIX	0xfec0000000001234ull /* not link-local */
#define LL	0xfe80000000000000ull
#define TIMEOUT 18

/* Rule indices in the fixture's policy (sa_test_fixture.c). */
enum { R_SVC, R_CLS, R_PK, R_VL15, R_BITS, R_BITS2, R_REV, R_GRP };

struct world {
	struct oq_fabric *f;
	struct oq_node *sw1, *sw2, *na, *nb, *nc, *nd;
	struct oq_port *s1, *s2, *a, *b, *c, *d;
	struct oq_fabric_tables t;
	struct oq_partition pv[3];
	struct oq_partitions parts;
	struct oq_alias al[7];
	struct oq_alias_index alias_ix;
	struct oq_policy *pol;
	struct oq_binding *bind;
	struct oq_matcher *m;
	struct oq_diags diags;
	struct oq_sa_view v;
};

#define MAX_REC	  160
#define PATH_KEPT 8

/* What a request produced: records and pair reports, in order. */
struct got {
	uint8_t rec[MAX_REC][OQ_PR_REC_SIZE];
	unsigned int n;
	struct oq_pr_pair pair[MAX_REC];
	/* Each pair's forward path as handed to the sink (pair.path is
	 * dangling afterwards): its switch hops, up to PATH_KEPT. */
	unsigned int n_hop[MAX_REC];
	struct oq_route_hop hop[MAX_REC][PATH_KEPT];
	unsigned int np;
	unsigned int refuse_at; /* refuse the record with this number (1..) */
	unsigned int calls;
};

int got_record(void *ctx, const uint8_t *rec);
void got_pair(void *ctx, const struct oq_pr_pair *p);

/* ---- the fabric ----------------------------------------------------- */

void set_pkeys(struct oq_port *p, const uint16_t *v, size_t n);
int setup(void **state);
int teardown(void **state);
int level(struct world *w, const char *name);

/* ---- requests --------------------------------------------------------- */

void put_gid(uint8_t *p, uint64_t prefix, uint64_t guid);
enum oq_pr_outcome pr(struct world *w, uint8_t method, uint64_t cm,
		      const uint8_t *rec, const struct oq_port *requester,
		      struct got *g, uint16_t *status);

/* A GetTable that must respond; returns the record count. */
unsigned int table(struct world *w, uint64_t cm, const uint8_t *rec,
		   struct got *g);

/* A request for src -> dst by GID (subnet prefix). */
void req_gids(uint8_t *rec, uint64_t sguid, uint64_t dguid);
void set_sid(uint8_t *rec, uint64_t sid);

/* Check the fields every record of src -> dst has. */
void check_rec(const uint8_t *r, uint64_t sguid, uint64_t dguid, uint16_t slid,
	       uint16_t dlid, uint16_t pkey, uint8_t sl, uint8_t mtu,
	       uint8_t rate, uint8_t life);

/* ---- MultiPathRecord -------------------------------------------------- */

/* A MultiPathRecord: the 24-byte record and its GIDs (subnet prefix). */
void mpr_build(uint8_t *m, const uint64_t *sg, unsigned int ns,
	       const uint64_t *dg, unsigned int nd);
enum oq_pr_outcome mpr(struct world *w, uint8_t method, bool rmpp, uint64_t cm,
		       const uint8_t *m, size_t len, struct got *g,
		       uint16_t *st);
void expect_mpr_error(struct world *w, uint8_t method, bool rmpp, uint64_t cm,
		      const uint8_t *m, size_t len, uint16_t status);
unsigned int mpr_ok(struct world *w, uint64_t cm, const uint8_t *m,
		    struct got *g);

/* A known difference with OpenSM: say so on stderr (the caller then
 * skips, so the test enforces OpenSM's answer once the engine is fixed). */
bool known_diff(bool differs, const char *what);
#endif /* OSMQOS_TEST_SA_FIXTURE_H */
