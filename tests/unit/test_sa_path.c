// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the SA engine's PathRecord answers (oq_sa_path_record()),
 * on the fixture of sa_test_fixture.h.  Every expectation is computed by
 * hand from OpenSM 3.3.23's osm_sa_path_record.c; the reasoning is in the
 * comments next to each check.
 */
#include "sa_test_fixture.h"

/* ---- PathRecord: end points ------------------------------------------ */

static void test_alias_order(void **state)
{
	struct world *w = *state;
	static const uint64_t want[] = {0x1000, 0x2000, 0xa01, 0xb01,
					0xc01,	0xd01,	0xd02};
	size_t i;

	for (i = 0; i < 7; i++)
		assert_int_equal(w->al[i].guid, want[i]);
	assert_ptr_equal(oq_alias_find(w->al, 7, 0xd02)->port, w->d);
	assert_null(oq_alias_find(w->al, 7, 0xd03));
	assert_null(oq_alias_find(NULL, 0, 0xd02));
}

/* Each port's aliases, in map order: d's two GUIDs, one for every other
 * port, none for the ports that are no end port (switch ports 1-3). */
static void test_alias_index(void **state)
{
	struct world *w = *state;
	const struct oq_alias_index *ix = &w->alias_ix;
	size_t k, total = 0;

	assert_int_equal(ix->n_ports, w->f->n_ports);
	assert_int_equal(ix->start[0], 0);
	for (k = 0; k < ix->n_ports; k++) {
		const struct oq_port *p = w->f->ports[k];
		uint32_t b = ix->start[k], e = ix->start[k + 1];

		assert_true(b <= e);
		total += e - b;
		if (p == w->d) {
			assert_int_equal(e - b, 2);
			assert_int_equal(w->al[ix->ids[b]].guid, 0xd01);
			assert_int_equal(w->al[ix->ids[b + 1]].guid, 0xd02);
		} else if (p == w->a || p == w->b || p == w->c || p == w->s1 ||
			   p == w->s2) {
			assert_int_equal(e - b, 1);
			assert_ptr_equal(w->al[ix->ids[b]].port, p);
		} else {
			assert_int_equal(e - b, 0);
		}
	}
	assert_int_equal(total, 7);
}

/* One request answered with the ports' aliases from the index and again
 * by scanning them all: the same outcome, records and pair reports. */
static unsigned int index_and_scan(struct world *w, uint8_t method, uint64_t cm,
				   const uint8_t *rec, struct got *g)
{
	uint16_t st[2];
	int out[2];
	unsigned int k;

	memset(g, 0, 2 * sizeof(*g));
	w->v.alias_index = &w->alias_ix;
	out[0] = pr(w, method, cm, rec, w->a, &g[0], &st[0]);
	w->v.alias_index = NULL;
	out[1] = pr(w, method, cm, rec, w->a, &g[1], &st[1]);
	w->v.alias_index = &w->alias_ix;
	assert_int_equal(out[0], out[1]);
	assert_int_equal(st[0], st[1]);
	assert_int_equal(g[0].n, g[1].n);
	assert_memory_equal(g[0].rec, g[1].rec, g[0].n * OQ_PR_REC_SIZE);
	assert_int_equal(g[0].np, g[1].np);
	for (k = 0; k < g[0].np; k++) {
		assert_ptr_equal(g[0].pair[k].src, g[1].pair[k].src);
		assert_ptr_equal(g[0].pair[k].dst, g[1].pair[k].dst);
		assert_int_equal(g[0].pair[k].records, g[1].pair[k].records);
		assert_int_equal(g[0].pair[k].reason, g[1].pair[k].reason);
	}
	return g[0].n;
}

/* Every way of naming an end by LID, with Get and GetTable, over all
 * 7 x 7 LIDs: the index and the scan agree. */
static void test_pr_by_lid_scan(void **state)
{
	struct world *w = *state;
	static const uint16_t lids[] = {1, 2, 10, 11, 20, 21, 30};
	static const uint64_t guids[] = {0x1000, 0x2000, 0xa01, 0xb01,
					 0xc01,	 0xc01,	 0xd01};
	static const uint64_t cms[] = {CM_SLID | CM_DLID, CM_SLID, CM_DLID,
				       CM_SLID | CM_DGID, CM_SGID | CM_DLID};
	static const uint8_t methods[] = {OQ_SA_GET_TABLE, OQ_SA_GET};
	uint8_t rec[OQ_PR_REC_SIZE];
	struct got *g = malloc(2 * sizeof(*g));
	unsigned int s, d, c, m, seen = 0;

	assert_non_null(g);
	for (s = 0; s < 7; s++)
		for (d = 0; d < 7; d++) {
			memset(rec, 0, sizeof(rec));
			oq_put16(rec + PR_SLID, lids[s]);
			oq_put16(rec + PR_DLID, lids[d]);
			put_gid(rec + PR_SGID, PREFIX, guids[s]);
			put_gid(rec + PR_DGID, PREFIX, guids[d]);
			for (c = 0; c < sizeof(cms) / sizeof(cms[0]); c++)
				for (m = 0; m < 2; m++)
					seen += index_and_scan(w, methods[m],
							       cms[c], rec, g);
		}
	/* Not a vacuous comparison: 1,363 records in all (d's two GUIDs
	 * double the pairs with d; hidden pairs give none). */
	assert_int_equal(seen, 1363);
	free(g);
}

static void test_pr_by_lid(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE] = {0};
	struct oq_path fresh;
	struct got g;
	int i;

	oq_put16(rec + PR_SLID, 10);
	oq_put16(rec + PR_DLID, 11);
	assert_int_equal(table(w, CM_SLID | CM_DLID, rec, &g), 1);
	/* DEFAULT (sl 0): P1 (a's entry 0x8001), QDR 40 Gb/s, 4096,
	 * subnet_timeout; b -> a works too. */
	check_rec(g.rec[0], 0xa01, 0xb01, 10, 11, 0x8001, 0, 5, 7, TIMEOUT);
	assert_int_equal(g.rec[0][PR_NUMPATH], 0x80); /* reversible */
	assert_int_equal(g.rec[0][PR_PREF], 0);
	/* The pair report: default decision, the first record's values. */
	assert_int_equal(g.np, 1);
	assert_ptr_equal(g.pair[0].src->port, w->a);
	assert_ptr_equal(g.pair[0].dst->port, w->b);
	assert_int_equal(g.pair[0].d.rule, -1);
	assert_int_equal(g.pair[0].d.level, level(w, "DEFAULT"));
	assert_int_equal(g.pair[0].records, 1);
	assert_int_equal(g.pair[0].slid, 10);
	assert_int_equal(g.pair[0].dlid, 11);
	assert_int_equal(g.pair[0].sl, 0);
	assert_int_equal(g.pair[0].pkey, 0x8001);
	assert_int_equal(g.pair[0].mtu, 5);
	assert_int_equal(g.pair[0].rate, 7);
	assert_int_equal(g.pair[0].pkt_life, TIMEOUT);

	/* To d: DDR (20 Gb/s, 6) and d's 2048 MTU; d has P1 limited, a full:
	 * still P1.  LID 30 is d's port, which has two GUIDs: one record
	 * per alias. */
	oq_put16(rec + PR_DLID, 30);
	assert_int_equal(table(w, CM_SLID | CM_DLID, rec, &g), 2);
	check_rec(g.rec[0], 0xa01, 0xd01, 10, 30, 0x8001, 0, 4, 6, TIMEOUT);
	check_rec(g.rec[1], 0xa01, 0xd02, 10, 30, 0x8001, 0, 4, 6, TIMEOUT);
	/* Each pair hands its sink the walk of a -> LID 30: sw1 in on
	 * port 1 out on 3, sw2 in on 3 out on 2, the same as walking it
	 * afresh. */
	assert_int_equal(g.np, 2);
	for (i = 0; i < 2; i++) {
		assert_non_null(g.pair[i].path);
		assert_int_equal(g.n_hop[i], 2);
		assert_ptr_equal(g.hop[i][0].in, &w->sw1->ports[1]);
		assert_ptr_equal(g.hop[i][0].out, &w->sw1->ports[3]);
		assert_ptr_equal(g.hop[i][1].in, &w->sw2->ports[3]);
		assert_ptr_equal(g.hop[i][1].out, &w->sw2->ports[2]);
	}
	assert_int_equal(oq_path_resolve(w->f, NULL, w->a, 30, NULL, &fresh),
			 OQ_PATH_OK);
	assert_int_equal(fresh.n_hop, 2);
	assert_memory_equal(fresh.hop, g.hop[1], 2 * sizeof(fresh.hop[0]));

	/* c -> d: P1 limited on both sides is not shared, no P2 on d: the
	 * default partition's 0xffff. */
	oq_put16(rec + PR_SLID, 20);
	assert_int_equal(table(w, CM_SLID | CM_DLID, rec, &g), 2);
	check_rec(g.rec[0], 0xc01, 0xd01, 20, 30, 0xffff, 0, 4, 6, TIMEOUT);

	/* SLID = c's second LID: that LID only, preference 0. */
	oq_put16(rec + PR_SLID, 21);
	assert_int_equal(table(w, CM_SLID | CM_DLID, rec, &g), 2);
	assert_int_equal(oq_get16(g.rec[0] + PR_SLID), 21);
	assert_int_equal(oq_get64(g.rec[0] + PR_SGID + 8), 0xc01);
	assert_int_equal(g.rec[0][PR_PREF], 0);

	/* Loopback by LID: packet life 0 whatever the timeout. */
	oq_put16(rec + PR_SLID, 11);
	oq_put16(rec + PR_DLID, 11);
	assert_int_equal(table(w, CM_SLID | CM_DLID, rec, &g), 1);
	check_rec(g.rec[0], 0xb01, 0xb01, 11, 11, 0x8001, 0, 5, 7, 0);
}

static void test_pr_by_gid(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE];
	struct got g;

	req_gids(rec, 0xa01, 0xb01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 1);
	check_rec(g.rec[0], 0xa01, 0xb01, 10, 11, 0x8001, 0, 5, 7, TIMEOUT);

	/* A link-local SGID is accepted and echoed as given; a link-local
	 * DGID is accepted but the DGID is built (OpenSM echoes a DGID only
	 * for an off-subnet destination through a router). */
	put_gid(rec + PR_SGID, LL, 0xa01);
	put_gid(rec + PR_DGID, LL | 0x1, 0xb01); /* fe80::1 is link-local */
	assert_int_equal(table(w, CM_GIDS, rec, &g), 1);
	assert_int_equal(oq_get64(g.rec[0] + PR_SGID), LL);
	assert_int_equal(oq_get64(g.rec[0] + PR_SGID + 8), 0xa01);
	assert_int_equal(oq_get64(g.rec[0] + PR_DGID), PREFIX);
	assert_int_equal(oq_get64(g.rec[0] + PR_DGID + 8), 0xb01);
	assert_int_equal(oq_get32(g.rec[0] + PR_HFR), 0);

	/* c (LMC 1) -> b: both LIDs of c, preferences 0 then 2. */
	req_gids(rec, 0xc01, 0xb01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 2);
	check_rec(g.rec[0], 0xc01, 0xb01, 20, 11, 0x0001, 0, 5, 7, TIMEOUT);
	assert_int_equal(g.rec[0][PR_PREF], 0);
	check_rec(g.rec[1], 0xc01, 0xb01, 21, 11, 0x0001, 0, 5, 7, TIMEOUT);
	assert_int_equal(g.rec[1][PR_PREF], 2);
	assert_int_equal(g.np, 1);
	assert_int_equal(g.pair[0].records, 2);
	/* A pair of two records keeps its first record's walk (20 -> 11):
	 * sw2 in on 1 out on 3, sw1 in on 3 out on 2. */
	assert_non_null(g.pair[0].path);
	assert_int_equal(g.n_hop[0], 2);
	assert_ptr_equal(g.hop[0][0].in, &w->sw2->ports[1]);
	assert_ptr_equal(g.hop[0][0].out, &w->sw2->ports[3]);
	assert_ptr_equal(g.hop[0][1].in, &w->sw1->ports[3]);
	assert_ptr_equal(g.hop[0][1].out, &w->sw1->ports[2]);

	/* The alias GUID of d is a port of its own for the SA. */
	req_gids(rec, 0xd02, 0xb01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 1);
	check_rec(g.rec[0], 0xd02, 0xb01, 30, 11, 0x0001, 0, 4, 6, TIMEOUT);

	/* SGID and SLID naming the same port: fine; with DLID too. */
	req_gids(rec, 0xa01, 0xc01);
	oq_put16(rec + PR_SLID, 10);
	oq_put16(rec + PR_DLID, 21);
	assert_int_equal(table(w, CM_GIDS | CM_SLID | CM_DLID, rec, &g), 1);
	assert_int_equal(oq_get16(g.rec[0] + PR_DLID), 21);
}

static void test_pr_half_and_world(void **state)
{
	struct world *w = *state;
	static const uint64_t srcs[] = {0x1000, 0x2000, 0xa01, 0xb01,
					0xc01,	0xc01,	0xd01, 0xd02};
	uint8_t rec[OQ_PR_REC_SIZE] = {0};
	struct got g;
	unsigned int i;

	/* Every known port to b, in alias order; c twice (LMC 1). */
	put_gid(rec + PR_DGID, PREFIX, 0xb01);
	assert_int_equal(table(w, CM_DGID, rec, &g), 8);
	for (i = 0; i < 8; i++) {
		assert_int_equal(oq_get64(g.rec[i] + PR_SGID + 8), srcs[i]);
		assert_int_equal(oq_get64(g.rec[i] + PR_DGID + 8), 0xb01);
	}
	assert_int_equal(oq_get16(g.rec[0] + PR_SLID), 1);
	assert_int_equal(oq_get16(g.rec[0] + PR_PKEY), 0xffff);
	/* sw1's port 0 is 4x SDR: 10 Gb/s from the switch. */
	assert_int_equal(g.rec[0][PR_RATE], 0x80 | 3);
	assert_int_equal(oq_get16(g.rec[5] + PR_SLID), 21);
	assert_int_equal(g.np, 7);

	/* a to every known port. */
	memset(rec, 0, sizeof(rec));
	put_gid(rec + PR_SGID, PREFIX, 0xa01);
	assert_int_equal(table(w, CM_SGID, rec, &g), 8);
	for (i = 0; i < 8; i++)
		assert_int_equal(oq_get64(g.rec[i] + PR_DGID + 8), srcs[i]);

	/* Every port to every port: 6 single-LID ports (d counted twice)
	 * 36 records, c with one of them 12 pairs x 2, c -> c 4. */
	memset(rec, 0, sizeof(rec));
	assert_int_equal(table(w, 0, rec, &g), 64);
	assert_int_equal(g.np, 49);
	/* Destination outer, source inner. */
	assert_int_equal(oq_get64(g.rec[0] + PR_SGID + 8), 0x1000);
	assert_int_equal(oq_get64(g.rec[0] + PR_DGID + 8), 0x1000);
	assert_int_equal(g.rec[0][PR_LIFE], 0x80); /* loopback */
	assert_int_equal(oq_get64(g.rec[1] + PR_SGID + 8), 0x2000);
	assert_int_equal(oq_get64(g.rec[1] + PR_DGID + 8), 0x1000);

	/* SLID only: every alias of d's port (d, d2) to every port, with no
	 * early stop between the aliases. */
	memset(rec, 0, sizeof(rec));
	oq_put16(rec + PR_SLID, 30);
	assert_int_equal(table(w, CM_SLID, rec, &g), 16);
	assert_int_equal(oq_get64(g.rec[7] + PR_SGID + 8), 0xd01);
	assert_int_equal(oq_get64(g.rec[8] + PR_SGID + 8), 0xd02);

	/* DLID only: every port to both aliases of d. */
	memset(rec, 0, sizeof(rec));
	oq_put16(rec + PR_DLID, 30);
	assert_int_equal(table(w, CM_DLID, rec, &g), 16);

	/* SGID + DLID of d: one record per alias of d. */
	memset(rec, 0, sizeof(rec));
	put_gid(rec + PR_SGID, PREFIX, 0xa01);
	oq_put16(rec + PR_DLID, 30);
	assert_int_equal(table(w, CM_SGID | CM_DLID, rec, &g), 2);
	assert_int_equal(oq_get64(g.rec[0] + PR_DGID + 8), 0xd01);
	assert_int_equal(oq_get64(g.rec[1] + PR_DGID + 8), 0xd02);

	/* SLID of d + DGID a, and SLID + DLID both d: aliases x aliases. */
	memset(rec, 0, sizeof(rec));
	oq_put16(rec + PR_SLID, 30);
	put_gid(rec + PR_DGID, PREFIX, 0xa01);
	assert_int_equal(table(w, CM_SLID | CM_DGID, rec, &g), 2);
	oq_put16(rec + PR_DLID, 30);
	assert_int_equal(table(w, CM_SLID | CM_DLID, rec, &g), 4);
}

static void test_pr_get(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE] = {0};
	uint16_t st;
	struct got g;

	/* World Get: the first pair (sw1 -> sw1) and nothing more. */
	memset(&g, 0, sizeof(g));
	assert_int_equal(pr(w, OQ_SA_GET, 0, rec, w->a, &g, &st),
			 OQ_PR_RESPOND);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.np, 1);
	assert_int_equal(oq_get64(g.rec[0] + PR_SGID + 8), 0x1000);

	/* Get on c -> b: NumbPath 1 whatever the request says. */
	req_gids(rec, 0xc01, 0xb01);
	rec[PR_NUMPATH] = 5;
	memset(&g, 0, sizeof(g));
	pr(w, OQ_SA_GET, CM_GIDS | CM_NUMBPATH, rec, w->a, &g, &st);
	assert_int_equal(g.n, 1);
	assert_int_equal(oq_get16(g.rec[0] + PR_SLID), 20);

	/* Half Get: stops after the first source. */
	memset(rec, 0, sizeof(rec));
	put_gid(rec + PR_DGID, PREFIX, 0xb01);
	memset(&g, 0, sizeof(g));
	pr(w, OQ_SA_GET, CM_DGID, rec, w->a, &g, &st);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.np, 1);

	/* SLID only with Get: OpenSM's loop over the port's aliases does
	 * not stop between aliases (osm_sa_path_record.c 1925-1940), so
	 * both aliases of d give one record (and OpenSM answers "too many
	 * records"). */
	memset(rec, 0, sizeof(rec));
	oq_put16(rec + PR_SLID, 30);
	memset(&g, 0, sizeof(g));
	pr(w, OQ_SA_GET, CM_SLID, rec, w->a, &g, &st);
	assert_int_equal(g.n, 2);

	/* SGID + DLID with Get: the loop over d's aliases stops. */
	memset(rec, 0, sizeof(rec));
	put_gid(rec + PR_SGID, PREFIX, 0xa01);
	oq_put16(rec + PR_DLID, 30);
	memset(&g, 0, sizeof(g));
	pr(w, OQ_SA_GET, CM_SGID | CM_DLID, rec, w->a, &g, &st);
	assert_int_equal(g.n, 1);

	/* SLID + DGID, and both LIDs, with Get: the loop over d's aliases
	 * stops at d01 too (OpenSM breaks after every alias once the list
	 * has a record). */
	memset(rec, 0, sizeof(rec));
	oq_put16(rec + PR_SLID, 30);
	put_gid(rec + PR_DGID, PREFIX, 0xa01);
	memset(&g, 0, sizeof(g));
	pr(w, OQ_SA_GET, CM_SLID | CM_DGID, rec, w->a, &g, &st);
	assert_int_equal(g.n, 1);
	memset(rec, 0, sizeof(rec));
	oq_put16(rec + PR_SLID, 30);
	oq_put16(rec + PR_DLID, 10);
	memset(&g, 0, sizeof(g));
	pr(w, OQ_SA_GET, CM_SLID | CM_DLID, rec, w->a, &g, &st);
	assert_int_equal(g.n, 1);
	oq_put16(rec + PR_SLID, 10);
	oq_put16(rec + PR_DLID, 30);
	memset(&g, 0, sizeof(g));
	pr(w, OQ_SA_GET, CM_SLID | CM_DLID, rec, w->a, &g, &st);
	assert_int_equal(g.n, 1);

	/* A sink that refuses the third record stops everything. */
	memset(rec, 0, sizeof(rec));
	memset(&g, 0, sizeof(g));
	g.refuse_at = 3;
	assert_int_equal(pr(w, OQ_SA_GET_TABLE, 0, rec, w->a, &g, &st),
			 OQ_PR_RESPOND);
	assert_int_equal(g.calls, 3);
	assert_int_equal(g.n, 2);
}

static void test_pr_numbpath_reversible(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE];
	struct got g;

	/* b -> c: 2 LID pairs (b -> c uses DEFAULT). */
	req_gids(rec, 0xb01, 0xc01);
	rec[PR_NUMPATH] = 1;
	assert_int_equal(table(w, CM_GIDS | CM_NUMBPATH, rec, &g), 1);
	assert_int_equal(oq_get16(g.rec[0] + PR_DLID), 20);
	rec[PR_NUMPATH] = 5;
	assert_int_equal(table(w, CM_GIDS | CM_NUMBPATH, rec, &g), 2);
	/* NumbPath 0: nothing, and the pair says why. */
	rec[PR_NUMPATH] = 0;
	assert_int_equal(table(w, CM_GIDS | CM_NUMBPATH, rec, &g), 0);
	assert_int_equal(g.np, 1);
	assert_int_equal(g.pair[0].reason, OQ_PR_NUMB_PATH);
	/* Without the component the field is ignored. */
	assert_int_equal(table(w, CM_GIDS, rec, &g), 2);

	/* Reversible.  rev (sl 6): a -> d is fine, d -> a (also rev, the
	 * reverse is judged under its own decision) meets sw1's drop. */
	req_gids(rec, 0xa01, 0xd01);
	set_sid(rec, 0x700);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 1);
	check_rec(g.rec[0], 0xa01, 0xd01, 10, 30, 0x8001, 6, 4, 6, TIMEOUT);
	assert_int_equal(g.rec[0][PR_NUMPATH], 0x00); /* not reversible */
	assert_int_equal(g.pair[0].d.rule, R_REV);
	/* Reversible component with the bit set: no record. */
	rec[PR_NUMPATH] = 0x80;
	assert_int_equal(table(w, CM_GIDS | CM_SID | CM_REVERS, rec, &g), 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_NOT_REVERSIBLE);
	/* The bit clear: don't care (IBA 1.2 p900). */
	rec[PR_NUMPATH] = 0x00;
	assert_int_equal(table(w, CM_GIDS | CM_SID | CM_REVERS, rec, &g), 1);
	/* The bit without the component: ignored. */
	rec[PR_NUMPATH] = 0x80;
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 1);
	/* DEFAULT works both ways: reversible. */
	assert_int_equal(table(w, CM_GIDS | CM_REVERS, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_NUMPATH], 0x80);
}

/* ---- pair reports and P_Key visibility -------------------------------- */

static void test_pr_visibility(void **state)
{
	struct world *w = *state;
	static const uint16_t d_lim[] = {0x0001};
	uint8_t rec[OQ_PR_REC_SIZE] = {0};
	uint16_t st;
	struct got g;
	unsigned int i;

	/* d only a limited member of P1: c (limited too) cannot see it. */
	set_pkeys(w->d, d_lim, 1);
	memset(&g, 0, sizeof(g));
	assert_int_equal(pr(w, OQ_SA_GET_TABLE, 0, rec, w->c, &g, &st),
			 OQ_PR_RESPOND);
	/* 5 visible aliases (sw1, sw2, a, b, c): 25 pairs; 16 without c,
	 * 8 with c at one end (2 each), c -> c 4. */
	assert_int_equal(g.np, 25);
	assert_int_equal(g.n, 36);
	for (i = 0; i < g.np; i++) {
		assert_ptr_not_equal(g.pair[i].src->port, w->d);
		assert_ptr_not_equal(g.pair[i].dst->port, w->d);
		assert_true(g.pair[i].records >= 1);
	}
	/* From a: d is visible (a is a full member of P1), but sw1 and d
	 * share no key, so that pair is not even reported. */
	req_gids(rec, 0x1000, 0xd01);
	memset(&g, 0, sizeof(g));
	pr(w, OQ_SA_GET_TABLE, CM_GIDS, rec, w->a, &g, &st);
	assert_int_equal(g.np, 0); /* sw1 and d do not see each other */
	req_gids(rec, 0xa01, 0xd01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 1);
	assert_int_equal(g.np, 1);
	/* A requester that cannot see the source: no pair at all. */
	memset(&g, 0, sizeof(g));
	pr(w, OQ_SA_GET_TABLE, CM_GIDS, rec, w->c, &g, &st);
	assert_int_equal(g.np, 0);
	assert_int_equal(g.n, 0);
}

/* ---- malformed PathRecord requests --------------------------------------- */

static void expect_error(struct world *w, uint8_t method, uint64_t cm,
			 const uint8_t *rec, uint16_t status)
{
	struct got g;
	uint16_t st = 0;

	memset(&g, 0, sizeof(g));
	assert_int_equal(pr(w, method, cm, rec, w->a, &g, &st), OQ_PR_ERROR);
	assert_int_equal(st, status);
	assert_int_equal(g.n, 0);
	assert_int_equal(g.np, 0);
}

static void expect_empty(struct world *w, uint64_t cm, const uint8_t *rec)
{
	struct got g;

	assert_int_equal(table(w, cm, rec, &g), 0);
	assert_int_equal(g.np, 0);
}

static void test_pr_malformed(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE];
	struct got g;
	uint16_t st;

	req_gids(rec, 0xa01, 0xb01);
	expect_error(w, OQ_SA_GET_MULTI, CM_GIDS, rec, OQ_MAD_UNSUP_METHOD);
	expect_error(w, 0x02 /* Set */, CM_GIDS, rec, OQ_MAD_UNSUP_METHOD);
	expect_error(w, 0x13 /* GetTableResp */, CM_GIDS, rec,
		     OQ_MAD_UNSUP_METHOD);

	/* Rate outside 2..22 with its selector; MTU outside 1..5. */
	rec[PR_RATE] = 1;
	expect_error(w, OQ_SA_GET_TABLE, CM_GIDS | CM_RATESEL | CM_RATE, rec,
		     OQ_SA_ST_REQ_INVALID);
	rec[PR_RATE] = 3 << 6 | 23;
	expect_error(w, OQ_SA_GET, CM_GIDS | CM_RATESEL | CM_RATE, rec,
		     OQ_SA_ST_REQ_INVALID);
	/* Without the selector component the value is not checked. */
	assert_int_equal(table(w, CM_GIDS | CM_RATE, rec, &g), 1);
	rec[PR_RATE] = 0;
	rec[PR_MTU] = 0;
	expect_error(w, OQ_SA_GET_TABLE, CM_GIDS | CM_MTUSEL | CM_MTU, rec,
		     OQ_SA_ST_REQ_INVALID);
	rec[PR_MTU] = 2 << 6 | 6;
	expect_error(w, OQ_SA_GET_TABLE, CM_GIDS | CM_MTUSEL | CM_MTU, rec,
		     OQ_SA_ST_REQ_INVALID);
	rec[PR_MTU] = 0;

	/* One half of the ServiceID. */
	expect_error(w, OQ_SA_GET_TABLE, CM_GIDS | CM_SID_MSB, rec,
		     OQ_SA_ST_INSUF_COMPS);
	expect_error(w, OQ_SA_GET_TABLE, CM_GIDS | (1ull << 1), rec,
		     OQ_SA_ST_INSUF_COMPS);

	/* The checks come before the requester lookup. */
	memset(&g, 0, sizeof(g));
	st = 0;
	assert_int_equal(pr(w, OQ_SA_GET_TABLE, CM_GIDS | CM_SID_MSB, rec, NULL,
			    &g, &st),
			 OQ_PR_ERROR);
	assert_int_equal(st, OQ_SA_ST_INSUF_COMPS);
	/* Unknown requester: dropped, nothing reported. */
	assert_int_equal(pr(w, OQ_SA_GET_TABLE, CM_GIDS, rec, NULL, &g, &st),
			 OQ_PR_DROP);
	assert_int_equal(g.n, 0);
	assert_int_equal(g.np, 0);

	/* Unknown end points: an empty answer, as OpenSM's (its status is
	 * computed and dropped, osm_sa_path_record.c 1833-1838). */
	req_gids(rec, 0xa02, 0xb01);
	expect_empty(w, CM_GIDS, rec);
	req_gids(rec, 0xa01, 0xb02);
	expect_empty(w, CM_GIDS, rec);
	/* An SGID off the subnet (neither our prefix nor link-local; fec0
	 * shares fe80's first byte). */
	req_gids(rec, 0xa01, 0xb01);
	put_gid(rec + PR_SGID, 0x1111000000000000ull, 0xa01);
	expect_empty(w, CM_GIDS, rec);
	put_gid(rec + PR_SGID, PREFIX + 1, 0xa01);
	expect_empty(w, CM_GIDS, rec);
	memset(rec, 0, sizeof(rec));
	oq_put16(rec + PR_SLID, 99);
	expect_empty(w, CM_SLID, rec);
	oq_put16(rec + PR_SLID, 22); /* past c's LMC range */
	expect_empty(w, CM_SLID, rec);
	memset(rec, 0, sizeof(rec));
	oq_put16(rec + PR_DLID, 0);
	expect_empty(w, CM_DLID, rec);

	/* SGID and SLID (or DGID and DLID) naming different ports. */
	req_gids(rec, 0xa01, 0xb01);
	oq_put16(rec + PR_SLID, 11);
	expect_error(w, OQ_SA_GET_TABLE, CM_GIDS | CM_SLID, rec,
		     OQ_SA_ST_REQ_INVALID);
	oq_put16(rec + PR_SLID, 10);
	oq_put16(rec + PR_DLID, 10);
	expect_error(w, OQ_SA_GET_TABLE, CM_GIDS | CM_SLID | CM_DLID, rec,
		     OQ_SA_ST_REQ_INVALID);
	/* An alias GUID and its port's LID are the same port. */
	req_gids(rec, 0xa01, 0xd02);
	oq_put16(rec + PR_DLID, 30);
	assert_int_equal(table(w, CM_GIDS | CM_DLID, rec, &g), 1);

	/* Multicast and off-subnet destinations are OpenSM's business. */
	req_gids(rec, 0xa01, 0xb01);
	put_gid(rec + PR_DGID, 0xff12401bffff0000ull, 1);
	memset(&g, 0, sizeof(g));
	assert_int_equal(pr(w, OQ_SA_GET_TABLE, CM_GIDS, rec, w->a, &g, &st),
			 OQ_PR_DELEGATE);
	assert_int_equal(g.n + g.np, 0);
	put_gid(rec + PR_DGID, 0x2222000000000000ull, 0xb01);
	assert_int_equal(pr(w, OQ_SA_GET_TABLE, CM_GIDS, rec, w->a, &g, &st),
			 OQ_PR_DELEGATE);
	put_gid(rec + PR_DGID, PREFIX + 1, 0xb01);
	assert_int_equal(pr(w, OQ_SA_GET_TABLE, CM_GIDS, rec, w->a, &g, &st),
			 OQ_PR_DELEGATE);
	/* ... but a multicast-looking DGID without its component is not
	 * read. */
	assert_int_equal(table(w, CM_SGID, rec, &g), 8);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_alias_order),
		T(test_alias_index),
		T(test_pr_by_lid_scan),
		T(test_pr_by_lid),
		T(test_pr_by_gid),
		T(test_pr_half_and_world),
		T(test_pr_get),
		T(test_pr_numbpath_reversible),
		T(test_pr_visibility),
		T(test_pr_malformed),
#undef T
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
