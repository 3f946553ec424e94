// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the SA engine's PathRecord answers under the policy (rules by
 * service ID, QoS class and port groups; level SL, P_Keys, limits and
 * path-bits; selectors; qos off, no policy, the routing engine's SL), on
 * the fixture of sa_test_fixture.h.  Expectations are computed by hand
 * from OpenSM 3.3.23's pr_rcv_get_path_parms() (osm_sa_path_record.c),
 * and from 3.3.24's pr_rcv_build_pr() and osm_sa_limit_rate() for its
 * rate limit.
 */
#include "sa_test_fixture.h"
#include "osm_release_test.h"

/* ---- PathRecord: the policy ------------------------------------------- */

static void test_pr_service_id_rule(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE];
	struct got g;

	/* svc: sl 1, MTU <= 1024, rate <= 10 Gb/s, packet life 10, no
	 * pkey: a's P1 entry. */
	req_gids(rec, 0xa01, 0xb01);
	set_sid(rec, 0x100);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 1);
	check_rec(g.rec[0], 0xa01, 0xb01, 10, 11, 0x8001, 1, 3, 3, 10);
	assert_int_equal(g.rec[0][PR_NUMPATH], 0x80);
	assert_int_equal(g.pair[0].d.rule, R_SVC);
	assert_int_equal(g.pair[0].d.level, level(w, "svc"));
	assert_int_equal(g.pair[0].sl, 1);
	assert_int_equal(g.pair[0].mtu, 3);
	assert_int_equal(g.pair[0].rate, 3);
	assert_int_equal(g.pair[0].pkt_life, 10);

	/* The limits only lower: to d (2048, 20 Gb/s) still 1024/10. */
	req_gids(rec, 0xa01, 0xd01);
	set_sid(rec, 0x100);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 1);
	check_rec(g.rec[0], 0xa01, 0xd01, 10, 30, 0x8001, 1, 3, 3, 10);

	/* Another service ID, or the ID without its components: DEFAULT. */
	req_gids(rec, 0xa01, 0xb01);
	set_sid(rec, 0x101);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_QOS_SL + 1], 0);
	assert_int_equal(g.pair[0].d.rule, -1);
	set_sid(rec, 0x100);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_QOS_SL + 1], 0);

	/* A requested SL that differs from the level's: no record. */
	rec[PR_QOS_SL + 1] = 2;
	assert_int_equal(table(w, CM_GIDS | CM_SID | CM_SL, rec, &g), 0);
	assert_int_equal(g.np, 1);
	assert_int_equal(g.pair[0].reason, OQ_PR_SL_CONFLICT);
	assert_int_equal(g.pair[0].d.rule, R_SVC);
	/* The same SL: fine. */
	rec[PR_QOS_SL + 1] = 1;
	assert_int_equal(table(w, CM_GIDS | CM_SID | CM_SL, rec, &g), 1);
}

static void test_pr_qos_class_rule(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE];
	struct got g;

	req_gids(rec, 0xa01, 0xb01);
	oq_put16(rec + PR_QOS_SL, 5 << 4);
	assert_int_equal(table(w, CM_GIDS | CM_QOSCLASS, rec, &g), 1);
	/* cls: sl 2; the record's QoSClass is 0 (not echoed). */
	check_rec(g.rec[0], 0xa01, 0xb01, 10, 11, 0x8001, 2, 5, 7, TIMEOUT);
	assert_int_equal(g.pair[0].d.rule, R_CLS);
	assert_int_equal(g.pair[0].d.level, level(w, "cls"));
	/* The class without its component bit: DEFAULT. */
	assert_int_equal(table(w, CM_GIDS, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_QOS_SL + 1], 0);
	/* Another class: DEFAULT. */
	oq_put16(rec + PR_QOS_SL, 6 << 4);
	assert_int_equal(table(w, CM_GIDS | CM_QOSCLASS, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_QOS_SL + 1], 0);
}

static void test_pr_group_rule(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE];
	struct got g;

	/* a -> c: grp (sl 4, pkey 0x0002).  The level's key comes back as
	 * the level names it, without the membership bit. */
	req_gids(rec, 0xa01, 0xc01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 2);
	check_rec(g.rec[0], 0xa01, 0xc01, 10, 20, 0x0002, 4, 5, 7, TIMEOUT);
	check_rec(g.rec[1], 0xa01, 0xc01, 10, 21, 0x0002, 4, 5, 7, TIMEOUT);
	assert_int_equal(g.pair[0].d.rule, R_GRP);
	assert_int_equal(g.pair[0].d.level, level(w, "grp"));
	/* c -> a is DEFAULT (c's P1 entry) and works: reversible. */
	assert_int_equal(g.rec[0][PR_NUMPATH], 0x80);
	req_gids(rec, 0xc01, 0xa01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 2);
	check_rec(g.rec[0], 0xc01, 0xa01, 20, 10, 0x0001, 0, 5, 7, TIMEOUT);
	assert_int_equal(g.pair[0].d.rule, -1);

	/* A requested key the ports share but the level lacks. */
	req_gids(rec, 0xa01, 0xc01);
	oq_put16(rec + PR_PKEY, 0x8001);
	assert_int_equal(table(w, CM_GIDS | CM_PKEY, rec, &g), 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_LEVEL_PKEY);
	/* One the level has: the requested value comes back. */
	oq_put16(rec + PR_PKEY, 0x8002);
	assert_int_equal(table(w, CM_GIDS | CM_PKEY, rec, &g), 2);
	assert_int_equal(oq_get16(g.rec[0] + PR_PKEY), 0x8002);
	/* A key the ports do not share at all. */
	oq_put16(rec + PR_PKEY, 0x0003);
	assert_int_equal(table(w, CM_GIDS | CM_PKEY, rec, &g), 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_PKEY);

	/* b -> c is not in the group: DEFAULT. */
	req_gids(rec, 0xb01, 0xc01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 2);
	assert_int_equal(oq_get16(g.rec[0] + PR_PKEY), 0x8001);
	assert_int_equal(g.rec[0][PR_QOS_SL + 1], 0);
}

static void test_pr_pkey_level(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE];
	struct got g;

	/* pk (sl 3, pkey 0x0001): no key requested -> the level's shared
	 * key 0x0001. */
	req_gids(rec, 0xa01, 0xb01);
	set_sid(rec, 0x300);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 1);
	check_rec(g.rec[0], 0xa01, 0xb01, 10, 11, 0x0001, 3, 5, 7, TIMEOUT);
	assert_int_equal(g.pair[0].d.rule, R_PK);
	/* Requested 0xffff: shared, but not in the level. */
	oq_put16(rec + PR_PKEY, 0xffff);
	assert_int_equal(table(w, CM_GIDS | CM_SID | CM_PKEY, rec, &g), 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_LEVEL_PKEY);
	/* Requested 0x0001 (limited form): in the level, shared. */
	oq_put16(rec + PR_PKEY, 0x0001);
	assert_int_equal(table(w, CM_GIDS | CM_SID | CM_PKEY, rec, &g), 1);
	assert_int_equal(oq_get16(g.rec[0] + PR_PKEY), 0x0001);

	/* c -> d under pk: both limited members of 0x0001: nothing. */
	req_gids(rec, 0xc01, 0xd01);
	set_sid(rec, 0x300);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 0);
	assert_int_equal(g.np, 1);
	assert_int_equal(g.pair[0].reason, OQ_PR_LEVEL_PKEY);
	/* ... while DEFAULT finds 0xffff. */
	assert_int_equal(table(w, CM_GIDS, rec, &g), 2);
}

static void test_pr_sl_vl15(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE];
	struct got g;

	/* vl15 (sl 7): a -> d crosses sw2 port 2 from port 3, SL 7 -> 15. */
	req_gids(rec, 0xa01, 0xd01);
	set_sid(rec, 0x400);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_LEVEL_SL);
	assert_int_equal(g.pair[0].d.rule, R_VL15);
	/* c -> d enters sw2 by port 1: fine, SL 7. */
	req_gids(rec, 0xc01, 0xd01);
	set_sid(rec, 0x400);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 2);
	assert_int_equal(g.rec[0][PR_QOS_SL + 1], 7);
	/* With qos off OpenSM consults no policy and no SL2VL: c -> d gets
	 * the partition SL of 0xffff (0) and no level; a -> d may ask for
	 * SL 7. */
	w->v.qos = false;
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 2);
	assert_int_equal(g.rec[0][PR_QOS_SL + 1], 0);
	assert_int_equal(g.pair[0].d.level, -1);
	req_gids(rec, 0xa01, 0xd01);
	set_sid(rec, 0x400);
	rec[PR_QOS_SL + 1] = 7;
	assert_int_equal(table(w, CM_GIDS | CM_SID | CM_SL, rec, &g), 1);
	w->v.qos = true;

	/* A requested SL other than DEFAULT's 0: conflict. */
	req_gids(rec, 0xa01, 0xd01);
	rec[PR_QOS_SL + 1] = 7;
	assert_int_equal(table(w, CM_GIDS | CM_SL, rec, &g), 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_SL_CONFLICT);
}

/*
 * qos on without a policy (OpenSM with no qos-policy file): no level, so
 * the SL comes from the request, the partition, or the first SL the path
 * keeps.  (OpenSM's parser wants an SL in every level, so with a policy
 * there is always a level SL.)
 */
static void test_pr_no_policy(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE];
	union oq_sl2vl_scratch sc;
	struct oq_port_tables *pt;
	struct got g;

	w->v.policy = NULL;
	w->v.matcher = NULL;
	req_gids(rec, 0xa01, 0xb01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 1);
	check_rec(g.rec[0], 0xa01, 0xb01, 10, 11, 0x8001, 3, 5, 7, TIMEOUT);
	assert_int_equal(g.pair[0].d.level, -1);
	assert_int_equal(g.pair[0].d.rule, -1);
	/* c -> d: Default has no sl= (0); c -> c: P2, SL 5. */
	req_gids(rec, 0xc01, 0xd01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 2);
	assert_int_equal(g.rec[0][PR_QOS_SL + 1], 0);
	req_gids(rec, 0xc01, 0xc01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 4);
	check_rec(g.rec[3], 0xc01, 0xc01, 21, 20, 0x8002, 5, 5, 7, 0);
	/* A shared key without a partition: OpenSM's ERR 1F1C, SL 0. */
	w->parts.n = 2;
	assert_int_equal(table(w, CM_GIDS, rec, &g), 4);
	assert_int_equal(g.rec[0][PR_QOS_SL + 1], 0);
	w->parts.n = 3;

	/* A requested SL that reaches VL15: no record. */
	req_gids(rec, 0xa01, 0xd01);
	rec[PR_QOS_SL + 1] = 7;
	assert_int_equal(table(w, CM_GIDS | CM_SL, rec, &g), 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_SL_DROPPED);
	/* SL 6: fine to d, dropped back to a: not reversible. */
	rec[PR_QOS_SL + 1] = 6;
	assert_int_equal(table(w, CM_GIDS | CM_SL, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_NUMPATH], 0);

	/* RawTraffic: the key is found and then cleared. */
	req_gids(rec, 0xa01, 0xc01);
	rec[PR_HFR] = 0x80;
	assert_int_equal(table(w, CM_GIDS | CM_RAW, rec, &g), 2);
	check_rec(g.rec[0], 0xa01, 0xc01, 10, 20, 0, 3, 5, 7, TIMEOUT);
	/* The bit without its component: an ordinary request. */
	assert_int_equal(table(w, CM_GIDS, rec, &g), 2);
	assert_int_equal(oq_get16(g.rec[0] + PR_PKEY), 0x8001);
	/* b with an empty table: visible to all (OpenSM's hack) but sharing
	 * no key: only raw traffic gets a record, on the first SL the path
	 * keeps (0, or 1 once sw1 drops SL 0 towards b). */
	set_pkeys(w->b, NULL, 0);
	req_gids(rec, 0xa01, 0xb01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_PKEY);
	rec[PR_HFR] = 0x80;
	assert_int_equal(table(w, CM_GIDS | CM_RAW, rec, &g), 1);
	check_rec(g.rec[0], 0xa01, 0xb01, 10, 11, 0, 0, 5, 7, TIMEOUT);
	pt = &w->t.ports[oq_port_index(w->f, &w->sw1->ports[2])];
	memcpy(sc.row, pt->sl2vl, 16 * (size_t)pt->n_sl2vl);
	sc.row[1][0] = OQ_VL_DROP;
	assert_int_equal(oq_port_tables_set_sl2vl(&w->t, pt,
						  (const uint8_t(*)[16])sc.row,
						  pt->n_sl2vl),
			 0);
	assert_int_equal(oq_fabric_tables_index_drops(&w->t), 0);
	assert_int_equal(table(w, CM_GIDS | CM_RAW, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_QOS_SL + 1], 1);
}

/* The routing engine's path_sl(): a new SL for LID 10 -> 11 only. */
static uint8_t shift_sl(void *ctx, uint8_t hint, uint16_t slid, uint16_t dlid)
{
	(void)ctx;
	return slid == 10 && dlid == 11 ? 9 : hint;
}

static void test_pr_engine_sl(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE];
	struct got g;

	w->v.path_sl = shift_sl;
	req_gids(rec, 0xa01, 0xb01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 1);
	/* Not checked against the path again, as in OpenSM. */
	assert_int_equal(g.rec[0][PR_QOS_SL + 1], 9);
	assert_int_equal(g.pair[0].sl, 9);
	/* A requested SL the engine changes: no record. */
	rec[PR_QOS_SL + 1] = 0;
	assert_int_equal(table(w, CM_GIDS | CM_SL, rec, &g), 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_ENGINE_SL);
	/* b -> a keeps its SL. */
	req_gids(rec, 0xb01, 0xa01);
	assert_int_equal(table(w, CM_GIDS | CM_SL, rec, &g), 1);
}

static void test_pr_selectors(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE];
	struct got g;
	const uint64_t mtu = CM_GIDS | CM_MTUSEL | CM_MTU;
	const uint64_t rate = CM_GIDS | CM_RATESEL | CM_RATE;
	const uint64_t life = CM_GIDS | CM_LIFESEL | CM_LIFE;

	/* a -> b: MTU 5, rate 7 (40 Gb/s), life 18. */
	req_gids(rec, 0xa01, 0xb01);
	rec[PR_MTU] = 0 << 6 | 4; /* greater than 2048: 4096 */
	assert_int_equal(table(w, mtu, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_MTU], 0x85);
	rec[PR_MTU] = 0 << 6 | 5; /* greater than 4096: none */
	assert_int_equal(table(w, mtu, rec, &g), 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_SELECTOR);
	rec[PR_MTU] = 1 << 6 | 5; /* less than 4096: 2048 */
	assert_int_equal(table(w, mtu, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_MTU], 0x84);
	rec[PR_MTU] = 1 << 6 | 1; /* less than 256: none */
	assert_int_equal(table(w, mtu, rec, &g), 0);
	rec[PR_MTU] = 2 << 6 | 3; /* exactly 1024 */
	assert_int_equal(table(w, mtu, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_MTU], 0x83);
	rec[PR_MTU] = 3 << 6 | 1; /* largest: 4096 */
	assert_int_equal(table(w, mtu, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_MTU], 0x85);
	/* The selector without the MTU component: ignored. */
	rec[PR_MTU] = 0 << 6 | 5;
	assert_int_equal(table(w, CM_GIDS | CM_MTUSEL, rec, &g), 1);
	rec[PR_MTU] = 0;

	rec[PR_RATE] = 0 << 6 | 6; /* greater than 20 Gb/s: 40 */
	assert_int_equal(table(w, rate, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_RATE], 0x87);
	rec[PR_RATE] = 0 << 6 | 7; /* greater than 40: none */
	assert_int_equal(table(w, rate, rec, &g), 0);
	/* Less than 40: the next lower in OpenSM's order is 28 Gb/s (19),
	 * which a port without CapabilityMask2 cannot do: 20 Gb/s (6). */
	rec[PR_RATE] = 1 << 6 | 7;
	assert_int_equal(table(w, rate, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_RATE], 0x80 | 6);
	assert_int_equal(g.pair[0].rate, 6);
	/* Ports with 2x support keep 28 Gb/s (the path is reversible, so
	 * both ends are asked). */
	w->a->cap_mask = w->b->cap_mask = 0x00008000;
	w->a->cap_mask2 = w->b->cap_mask2 = 0x0010;
	assert_int_equal(table(w, rate, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_RATE], 0x80 | 19);
	/* Reversible: b's port is checked too; with extended speeds the 2x
	 * fallback is 25 Gb/s. */
	w->b->cap_mask = 0x00004000;
	assert_int_equal(table(w, rate, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_RATE], 0x80 | 15);
	w->a->cap_mask = w->b->cap_mask = 0;
	w->a->cap_mask2 = w->b->cap_mask2 = 0;
	rec[PR_RATE] = 1 << 6 | 2; /* less than 2.5: none */
	assert_int_equal(table(w, rate, rec, &g), 0);
	rec[PR_RATE] = 2 << 6 | 3; /* exactly 10: 40 is not 10 */
	assert_int_equal(table(w, rate, rec, &g), 0);
	rec[PR_RATE] = 2 << 6 | 7; /* exactly 40 */
	assert_int_equal(table(w, rate, rec, &g), 1);
	rec[PR_RATE] = 3 << 6 | 2; /* largest */
	assert_int_equal(table(w, rate, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_RATE], 0x87);
	rec[PR_RATE] = 0;

	rec[PR_LIFE] = 0 << 6 | 17; /* greater than 17: 18 */
	assert_int_equal(table(w, life, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_LIFE], 0x80 | 18);
	rec[PR_LIFE] = 0 << 6 | 18; /* greater than 18: none */
	assert_int_equal(table(w, life, rec, &g), 0);
	rec[PR_LIFE] = 1 << 6 | 10; /* less than 10: 9 */
	assert_int_equal(table(w, life, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_LIFE], 0x80 | 9);
	rec[PR_LIFE] = 1 << 6 | 1; /* less than 1: none */
	assert_int_equal(table(w, life, rec, &g), 0);
	rec[PR_LIFE] = 2 << 6 | 5; /* exactly 5 (<= 18) */
	assert_int_equal(table(w, life, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_LIFE], 0x80 | 5);
	rec[PR_LIFE] = 2 << 6 | 20; /* exactly 20 (> 18): none */
	assert_int_equal(table(w, life, rec, &g), 0);
	rec[PR_LIFE] = 3 << 6 | 0; /* smallest */
	assert_int_equal(table(w, life, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_LIFE], 0x80 | 18);
	/* Loopback has life 0: "greater than 0" fails there. */
	req_gids(rec, 0xa01, 0xa01);
	rec[PR_LIFE] = 0 << 6 | 0;
	assert_int_equal(table(w, life, rec, &g), 0);
	/* The level's packet life (svc: 10) is what the selector sees. */
	req_gids(rec, 0xa01, 0xb01);
	set_sid(rec, 0x100);
	rec[PR_LIFE] = 0 << 6 | 10;
	assert_int_equal(table(w, life | CM_SID, rec, &g), 0);
	rec[PR_LIFE] = 0 << 6 | 9;
	assert_int_equal(table(w, life | CM_SID, rec, &g), 1);
	/* ... and the level's MTU limit (1024). */
	rec[PR_LIFE] = 0;
	rec[PR_MTU] = 2 << 6 | 4; /* exactly 2048 > 1024: none */
	assert_int_equal(table(w, mtu | CM_SID, rec, &g), 0);
}

/* ---- OpenSM 3.3.24: max_rate_enum and rates 23, 24 --------------------- */

/*
 * 3.3.24's pr_rcv_build_pr(): with max_rate_enum below 63 the record's
 * rate is osm_sa_limit_rate()'s, and the 2x/HDR fixups are not applied;
 * the selectors see the path's rate before the limit.
 */
static void test_pr_max_rate_enum(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE], m[OQ_SA_DATA_LEN];
	const uint64_t rate = CM_GIDS | CM_RATESEL | CM_RATE;
	const uint64_t sg[] = {0xa01}, dg[] = {0xb01};
	struct got g;

	oq_osm_release_use(&osm_3_3_24);
	/* a -> b: 40 Gb/s (7); the limit 20 Gb/s (6): 7 > 6, down OpenSM's
	 * order 28 (19, enum above 6), 25 (15, idem), 30 (4: enum <= 6 but
	 * 30 ranks above 20), 20 (6). */
	w->v.max_rate_enum = 6;
	req_gids(rec, 0xa01, 0xb01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 1);
	check_rec(g.rec[0], 0xa01, 0xb01, 10, 11, 0x8001, 0, 5, 6, TIMEOUT);
	assert_int_equal(g.pair[0].rate, 6);
	/* The selector sees 40 Gb/s: "exactly 40" is met, the record says
	 * 20. */
	rec[PR_RATE] = 2 << 6 | 7;
	assert_int_equal(table(w, rate, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_RATE], 0x80 | 6);
	rec[PR_RATE] = 2 << 6 | 6; /* exactly 20: 40 is not 20 */
	assert_int_equal(table(w, rate, rec, &g), 0);
	/* MultiPathRecord answers are limited the same way. */
	mpr_build(m, sg, 1, dg, 1);
	assert_int_equal(mpr_ok(w, MCM_COUNTS, m, &g), 1);
	assert_int_equal(g.rec[0][PR_RATE], 0x80 | 6);
	/* Only an enum above the limit's is reduced: 40 Gb/s (7) passes
	 * max_rate_enum 11 (14 Gb/s), as in OpenSM. */
	w->v.max_rate_enum = 11;
	req_gids(rec, 0xa01, 0xb01);
	assert_int_equal(table(w, CM_GIDS, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_RATE], 0x80 | 7);

	/* Less than 40: 28 Gb/s (19), which ports without CapabilityMask2
	 * cannot do.  With a limit above 19 there are no fixups: 19 stays;
	 * without a limit they give 20 Gb/s, as in 3.3.23. */
	rec[PR_RATE] = 1 << 6 | 7;
	w->v.max_rate_enum = 22;
	assert_int_equal(table(w, rate, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_RATE], 0x80 | 19);
	w->v.max_rate_enum = 0;
	assert_int_equal(table(w, rate, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_RATE], 0x80 | 6);
}

/*
 * A request for rate 23 (800 Gb/s) or 24 (1200): invalid to 3.3.23
 * (ib_rate_is_valid() up to its IB_MAX_RATE, 22), a rate above 600 to
 * 3.3.24; MultiPathRecord alike.
 */
static void test_pr_rate_23(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE], m[OQ_SA_DATA_LEN];
	const uint64_t rate = CM_GIDS | CM_RATESEL | CM_RATE;
	const uint64_t sg[] = {0xa01}, dg[] = {0xb01};
	struct got g;
	uint16_t st;

	req_gids(rec, 0xa01, 0xb01);
	rec[PR_RATE] = 1 << 6 | 23; /* less than 800 */
	memset(&g, 0, sizeof(g));
	assert_int_equal(pr(w, OQ_SA_GET_TABLE, rate, rec, w->a, &g, &st),
			 OQ_PR_ERROR);
	assert_int_equal(st, OQ_SA_ST_REQ_INVALID);
	mpr_build(m, sg, 1, dg, 1);
	m[11] = 1 << 6 | 24; /* MultiPathRecord Rate */
	expect_mpr_error(w, OQ_SA_GET_MULTI, true,
			 MCM_COUNTS | MCM_RATESEL | MCM_RATE, m, OQ_SA_DATA_LEN,
			 OQ_SA_ST_REQ_INVALID);

	oq_osm_release_use(&osm_3_3_24);
	assert_int_equal(table(w, rate, rec, &g), 1);
	assert_int_equal(g.rec[0][PR_RATE], 0x80 | 7);
	rec[PR_RATE] = 0 << 6 | 23; /* greater than 800 */
	assert_int_equal(table(w, rate, rec, &g), 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_SELECTOR);
	rec[PR_RATE] = 2 << 6 | 24; /* exactly 1200 */
	assert_int_equal(table(w, rate, rec, &g), 0);
	rec[PR_RATE] = 1 << 6 | 25; /* not a rate */
	assert_int_equal(pr(w, OQ_SA_GET_TABLE, rate, rec, w->a, &g, &st),
			 OQ_PR_ERROR);
	assert_int_equal(st, OQ_SA_ST_REQ_INVALID);
	assert_int_equal(mpr_ok(w, MCM_COUNTS | MCM_RATESEL | MCM_RATE, m, &g),
			 1); /* less than 1200 */
	assert_int_equal(g.rec[0][PR_RATE], 0x80 | 7);
}

/* ib_path_rate_2x_hdr_fixups(): 3.3.24 counts the NDR bit of
 * CapabilityMask2 (0x0400) for the HDR rates and lowers the NDR rates of
 * a port without it (to 600 Gb/s with the HDR bit or no CapabilityMask2
 * at all, else to 300). */
static void test_rate_fixups_releases(void **state)
{
	struct oq_port p;

	(void)state;
	memset(&p, 0, sizeof(p));
	p.cap_mask = 0x00008000; /* has CapabilityMask2 */
	p.cap_mask2 = 0x0400;	 /* NDR */
	oq_osm_release_use(&osm_3_3_23);
	assert_int_equal(oq_sa_rate_fixup(&p, 21), 18);
	assert_int_equal(oq_sa_rate_fixup(&p, 22), 18);
	oq_osm_release_use(&osm_3_3_24);
	assert_int_equal(oq_sa_rate_fixup(&p, 21), 21);
	assert_int_equal(oq_sa_rate_fixup(&p, 22), 22);
	assert_int_equal(oq_sa_rate_fixup(&p, 23), 23);
	assert_int_equal(oq_sa_rate_fixup(&p, 24), 24);
	p.cap_mask2 = 0x0020; /* HDR only */
	assert_int_equal(oq_sa_rate_fixup(&p, 22), 22);
	assert_int_equal(oq_sa_rate_fixup(&p, 23), 22);
	assert_int_equal(oq_sa_rate_fixup(&p, 24), 22);
	p.cap_mask2 = 0;
	assert_int_equal(oq_sa_rate_fixup(&p, 21), 18);
	assert_int_equal(oq_sa_rate_fixup(&p, 24), 18);
	p.cap_mask = 0; /* no CapabilityMask2: counted as HDR */
	assert_int_equal(oq_sa_rate_fixup(&p, 23), 22);
	assert_int_equal(oq_sa_rate_fixup(&p, 22), 18);
	oq_osm_release_use(NULL);
}

/* ---- path-bits ---------------------------------------------------------- */

static void test_pr_path_bits(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE];
	struct got g;

	/* bits (path-bits 1): a -> c keeps DLID 21 only; a (LMC 0) is not
	 * restricted.  The record keeps its preference (2). */
	req_gids(rec, 0xa01, 0xc01);
	set_sid(rec, 0x500);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 1);
	check_rec(g.rec[0], 0xa01, 0xc01, 10, 21, 0x8001, 0, 5, 7, TIMEOUT);
	assert_int_equal(g.rec[0][PR_PREF], 2);
	assert_int_equal(g.pair[0].d.rule, R_BITS);
	assert_int_equal(g.pair[0].dlid, 21);
	/* Get: the first allowed pair, not the first pair. */
	{
		uint16_t st;

		memset(&g, 0, sizeof(g));
		pr(w, OQ_SA_GET, CM_GIDS | CM_SID, rec, w->a, &g, &st);
		assert_int_equal(g.n, 1);
		assert_int_equal(oq_get16(g.rec[0] + PR_DLID), 21);
	}
	/* c -> a: SLID 21 only. */
	req_gids(rec, 0xc01, 0xa01);
	set_sid(rec, 0x500);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 1);
	assert_int_equal(oq_get16(g.rec[0] + PR_SLID), 21);
	/* A requested DLID the bits forbid: nothing. */
	req_gids(rec, 0xa01, 0xc01);
	set_sid(rec, 0x500);
	oq_put16(rec + PR_DLID, 20);
	assert_int_equal(table(w, CM_GIDS | CM_SID | CM_DLID, rec, &g), 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_PATH_BITS);
	/* Both ends LMC 0: unrestricted. */
	req_gids(rec, 0xa01, 0xb01);
	set_sid(rec, 0x500);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 1);

	/* bits2 (path-bits 2) on c's LMC 1: no LID of c allowed. */
	req_gids(rec, 0xa01, 0xc01);
	set_sid(rec, 0x600);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 0);
	assert_int_equal(g.np, 1);
	assert_int_equal(g.pair[0].records, 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_PATH_BITS);
	assert_int_equal(g.pair[0].d.rule, R_BITS2);
	assert_int_equal(g.pair[0].d.level, level(w, "bits2"));
	req_gids(rec, 0xa01, 0xb01);
	set_sid(rec, 0x600);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 1);

	/* Without apply_path_bits (OpenSM): both pairs. */
	w->v.apply_path_bits = false;
	req_gids(rec, 0xa01, 0xc01);
	set_sid(rec, 0x600);
	assert_int_equal(table(w, CM_GIDS | CM_SID, rec, &g), 2);
	w->v.apply_path_bits = true;
	assert_string_equal(oq_pr_reason_name(OQ_PR_PATH_BITS),
			    "no LID allowed by the level's path-bits");
	assert_string_equal(oq_pr_reason_name((enum oq_pr_reason)99),
			    "unknown");
}

/*
 * KNOWN DIFFERENCE WITH OPENSM (reported to the lead, not yet fixed in
 * policy/sa_path_parms.c): a request whose PKey component is 0x0000.
 * OpenSM looks the key up with osm_physp_share_this_pkey(); ports never
 * hold an invalid key (osm_pkey.c 163), so the lookup fails and there is
 * no record (ERR 1F1A, osm_sa_path_record.c 622-645; ERR 4518 for
 * MultiPathRecord, osm_sa_multipath_record.c 606-630).  The engine passes
 * 0 to oq_ports_share_pkey_ex(), which reads 0 as "any shared key", and
 * answers with P_Key 0.  The checks below are OpenSM's behaviour; while
 * the engine still differs the test says so and is skipped, so the skip
 * shows in the log and the test enforces OpenSM's answer once fixed.
 */
static void test_pr_pkey_zero(void **state)
{
	struct world *w = *state;
	uint8_t rec[OQ_PR_REC_SIZE], m[OQ_SA_DATA_LEN];
	struct got g;
	unsigned int n, nm, n8;

	/* 0x8000 (full bit, base 0) is refused by both. */
	req_gids(rec, 0xa01, 0xb01);
	oq_put16(rec + PR_PKEY, 0x8000);
	n8 = table(w, CM_GIDS | CM_PKEY, rec, &g);
	assert_int_equal(n8, 0);
	assert_int_equal(g.pair[0].reason, OQ_PR_PKEY);

	oq_put16(rec + PR_PKEY, 0x0000);
	n = table(w, CM_GIDS | CM_PKEY, rec, &g);
	mpr_build(m, (const uint64_t[]){0xa01}, 1, (const uint64_t[]){0xb01},
		  1);
	nm = mpr_ok(w, MCM_COUNTS | (1ull << 7) /* PKey */, m, &g);
	if (known_diff(n || nm, "requested P_Key 0x0000 answered with "
				"records (OpenSM: none, ERR 1F1A/4518)"))
		skip();
	assert_int_equal(n, 0);
	assert_int_equal(nm, 0);
}

int main(void)
{
	/* clang-format off */
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(test_pr_service_id_rule),
		T(test_pr_qos_class_rule),
		T(test_pr_group_rule),
		T(test_pr_pkey_level),
		T(test_pr_sl_vl15),
		T(test_pr_no_policy),
		T(test_pr_engine_sl),
		T(test_pr_selectors),
		T(test_pr_max_rate_enum),
		T(test_pr_rate_23),
		cmocka_unit_test(test_rate_fixups_releases),
		T(test_pr_path_bits),
		T(test_pr_pkey_zero),
#undef T
	};
	/* clang-format on */

	return cmocka_run_group_tests(tests, NULL, NULL);
}
