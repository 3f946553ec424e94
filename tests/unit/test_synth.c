// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the intent synthesizer for one class of ports
 * (policy/synth/synth_port.c).  Hand cases with known answers; a property
 * test over random port classes (VL counts 1, 2, 4, 8; MTUs 256-4096;
 * table sizes; some with a kept SL2VL as a routing engine's) and random
 * intents: every result the synthesizer accepts is checked again with the
 * model here, within the port's limits; on small classes an exhaustive
 * search over every table decides feasibility, and the synthesizer must
 * agree with it both ways.  Whole fabrics: test_synth_fabric.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/synth.h>

#include "synth_test_util.h"

/* Everything a result must satisfy, checked independently of how the
 * synthesizer got it: limits, and the model's shares. */
static void check_result(const struct oq_synth_port *in,
			 const struct oq_sl_intents *it,
			 const struct oq_synth_result *r)
{
	struct oq_frac share[16];
	unsigned int s, i;

	assert_int_equal(r->status, OQ_SYNTH_OK);
	assert_true(r->high.n <= in->cap_high);
	assert_true(r->low.n <= in->cap_low);
	assert_true(r->limit < OQ_ARB_UNLIMITED);
	for (i = 0; i < r->low.n; i++)
		assert_true(r->low.e[i].vl < in->vls);
	for (i = 0; i < r->high.n; i++)
		assert_true(r->high.e[i].vl < in->vls);
	for (s = 0; s < 16 && !in->sl2vl_fixed; s++)
		assert_true(r->sl2vl[s] < in->vls);
	assert_int_equal(
		oq_synth_eval(in, r->sl2vl, &r->high, &r->low, r->limit, share),
		0);
	for (s = 0; s < 16; s++) {
		assert_int_equal(oq_frac_cmp(share[s], r->share[s]), 0);
		if (it->sls & (1u << s))
			assert_true(oq_frac_meets_bp(share[s], it->need_bp[s]));
		if (!in->sl2vl_fixed)
			assert_true(share[s].num > 0);
	}
}

static void test_storage_mpi_best_effort(void **state)
{
	struct oq_synth_port in;
	struct oq_sl_intents it = {0};
	struct oq_synth_result r;

	(void)state;
	port_init(&in, 8, 8, 2048);
	intents_set(&it, 1, 4000, false);
	intents_set(&it, 2, 3000, true);
	assert_int_equal(oq_synth_port(&in, &it, &r), 0);
	check_result(&in, &it, &r);
	/* Own VLs: best effort on VL 0, then the high level, then storage. */
	assert_int_equal(r.sl2vl[0], 0);
	assert_int_equal(r.sl2vl[2], 1);
	assert_int_equal(r.sl2vl[1], 2);
	assert_int_equal(r.merged, 0);
	/* One high packet per low opportunity is the least VLHighLimit
	 * gives (half a busy link for the high table); the rest of the
	 * high table goes to best effort, so the high level takes its
	 * 30% and not 50%. */
	assert_int_equal(r.limit, 0);
	assert_true(oq_frac_double(r.share[2]) < 0.32);
}

static void test_one_vl_is_infeasible(void **state)
{
	struct oq_synth_port in;
	struct oq_sl_intents it = {0};
	struct oq_synth_result r;

	(void)state;
	port_init(&in, 1, 0, 4096);
	intents_set(&it, 3, 1000, false);
	assert_int_equal(oq_synth_port(&in, &it, &r), 0);
	assert_int_equal(r.status, OQ_SYNTH_INFEASIBLE);
	assert_int_equal(r.fail_sl, 3);
	/* All 16 SLs share VL 0 equally. */
	assert_int_equal(oq_frac_cmp(r.best, oq_frac_make(1, 16)), 0);
	assert_non_null(strstr(r.why, "one data VL"));
}

static void test_merge_when_vls_run_out(void **state)
{
	struct oq_synth_port in;
	struct oq_sl_intents it = {0};
	struct oq_synth_result r;

	(void)state;
	/* 2 VLs, two intent SLs and best effort: one SL must share. */
	port_init(&in, 2, 32, 2048);
	intents_set(&it, 4, 2000, false);
	intents_set(&it, 5, 1000, false);
	assert_int_equal(oq_synth_port(&in, &it, &r), 0);
	check_result(&in, &it, &r);
	assert_true(r.merged != 0);
	/* Both on VL 1 need 2 x 20%, best effort keeps VL 0. */
	assert_int_equal(r.sl2vl[4], 1);
	assert_int_equal(r.sl2vl[5], 1);
	assert_int_equal(r.sl2vl[0], 0);
	/* Too much for two VLs: together 2 x 55%, apart one of them
	 * shares VL 0 with 14 best-effort SLs. */
	memset(&it, 0, sizeof(it));
	intents_set(&it, 4, 5500, false);
	intents_set(&it, 5, 1000, false);
	assert_int_equal(oq_synth_port(&in, &it, &r), 0);
	assert_int_equal(r.status, OQ_SYNTH_INFEASIBLE);
	assert_true(r.fail_sl == 4 || r.fail_sl == 5);
	assert_true(oq_frac_double(r.best) < 0.55);
}

static void test_kept_sl2vl(void **state)
{
	struct oq_synth_port in;
	struct oq_sl_intents it = {0};
	struct oq_synth_result r;
	unsigned int s;

	(void)state;
	/* An engine's SL2VL: SL s on VL s % 4. */
	port_init(&in, 4, 16, 4096);
	in.sl2vl_fixed = true;
	in.n_rows = 1;
	for (s = 0; s < 16; s++)
		in.rows[0][s] = (uint8_t)(s % 4);
	intents_set(&it, 1, 1500, false);
	assert_int_equal(oq_synth_port(&in, &it, &r), 0);
	check_result(&in, &it, &r);
	for (s = 0; s < 16; s++)
		assert_int_equal(r.sl2vl[s], s % 4);
	/* SL 1 shares VL 1 with 3 others: 4 x 30% is too much. */
	memset(&it, 0, sizeof(it));
	intents_set(&it, 1, 3000, false);
	assert_int_equal(oq_synth_port(&in, &it, &r), 0);
	assert_int_equal(r.status, OQ_SYNTH_INFEASIBLE);
	/* A dropped intent SL is infeasible whatever the weights. */
	in.rows[0][1] = 15;
	memset(&it, 0, sizeof(it));
	intents_set(&it, 1, 100, false);
	assert_int_equal(oq_synth_port(&in, &it, &r), 0);
	assert_int_equal(r.status, OQ_SYNTH_INFEASIBLE);
	assert_non_null(strstr(r.why, "drops SL 1"));
}

/* Kept SL2VL across several input views: a best-effort SL one view drops
 * may get nothing there; SLs that different views put on one VL share it
 * in the view of all inputs at once.  And a port whose one VL is served
 * from the high table only (VLArb but one operational VL). */
static void test_kept_rows_views(void **state)
{
	struct oq_synth_port in;
	struct oq_sl_intents it = {0};
	struct oq_synth_result r;
	unsigned int s;

	(void)state;
	port_init(&in, 4, 8, 2048);
	in.sl2vl_fixed = true;
	in.n_rows = 2;
	for (s = 0; s < 16; s++)
		in.rows[0][s] = in.rows[1][s] = (uint8_t)(s % 4);
	in.rows[1][7] = 15; /* one input drops best-effort SL 7 */
	intents_set(&it, 1, 1000, false);
	assert_int_equal(oq_synth_port(&in, &it, &r), 0);
	check_result(&in, &it, &r);
	/* SL 1 with SL 2 on VL 1 in one view, with SL 3 in the other: in
	 * the view of both, VL 1 carries three SLs. */
	memset(in.rows, 0, sizeof(in.rows));
	in.rows[0][1] = in.rows[0][2] = 1;
	in.rows[0][3] = 2;
	in.rows[1][1] = in.rows[1][3] = 1;
	in.rows[1][2] = 2;
	memset(&it, 0, sizeof(it));
	intents_set(&it, 1, 3000, false);
	assert_int_equal(oq_synth_port(&in, &it, &r), 0);
	check_result(&in, &it, &r);
	/* One operational VL, served from the high table. */
	port_init(&in, 1, 8, 2048);
	in.has_vlarb = true;
	memset(&it, 0, sizeof(it));
	intents_set(&it, 1, 500, true);
	assert_int_equal(oq_synth_port(&in, &it, &r), 0);
	check_result(&in, &it, &r);
}

/* ---- property test ----------------------------------------------------- */

static void random_port(struct oq_synth_port *in)
{
	static const unsigned int vls[] = {1, 2, 4, 8};
	static const unsigned int caps[] = {8, 16, 32};
	unsigned int s;
	size_t r;

	port_init(in, vls[rnd(4)], caps[rnd(3)], 256u << rnd(5));
	in->cap_high = caps[rnd(3)];
	if (in->vls > 1 && !rnd(4)) {
		/* A routing engine's SL2VL: 1-3 input views. */
		in->sl2vl_fixed = true;
		in->n_rows = 1 + rnd(3);
		for (r = 0; r < in->n_rows; r++)
			for (s = 0; s < 16; s++)
				in->rows[r][s] =
					(uint8_t)(r == 0 ? s % in->vls
							 : rnd(in->vls));
	}
}

static void random_intents(struct oq_sl_intents *it, bool allow_high)
{
	unsigned int n = 1 + rnd(5), i;
	uint32_t left = 10000;

	memset(it, 0, sizeof(*it));
	for (i = 0; i < n && left > 100; i++) {
		unsigned int sl = rnd(16);
		uint32_t bp = 50 + rnd(left / 2 < 4000 ? left / 2 : 4000);
		bool high = allow_high && !rnd(4);

		if ((it->sls & (1u << sl)) && !!(it->high & (1u << sl)) != high)
			continue;
		intents_set(it, sl, bp, high);
		left -= bp;
	}
}

/* Best effort's total share when no SL is high and the synthesizer chose
 * SL2VL with a VL of its own for it: at least 100% - intents - 2 points
 * on ports whose low table holds 16 entries or more (a 64-entry table,
 * of which OpenSM writes 32, included).  An 8-entry table (ibsim's) at a
 * large MTU holds too few packets for that: there the floor is what its
 * packet granularity allows, each intent VL rounding up by at most one
 * packet of the table's total. */
static void check_best_effort(const struct oq_synth_port *in,
			      const struct oq_sl_intents *it,
			      const struct oq_synth_result *r,
			      unsigned int *n_checked, unsigned int *n_slack)
{
	unsigned int c = (in->mtu + 63) / 64, pmax = (255 + c - 1) / c, s;
	double be = 0, want, slack;
	unsigned int n_int = (unsigned int)__builtin_popcount(it->sls);

	if (it->high || in->sl2vl_fixed || r->merged || in->vls < 2)
		return;
	for (s = 0; s < 16; s++)
		if (!(it->sls & (1u << s)))
			be += oq_frac_double(r->share[s]);
	slack = 0.02;
	if (in->cap_low < 16) {
		double g = (double)n_int / ((double)in->cap_low * pmax);

		if (g > slack) {
			slack = g;
			(*n_slack)++;
		}
	}
	want = 1.0 - it->total_bp / 10000.0 - slack;
	assert_true(be >= want - 1e-12);
	(*n_checked)++;
}

static void test_property_random_classes(void **state)
{
	unsigned int i, ok = 0, bad = 0, be = 0, be_slack = 0, merged = 0;

	(void)state;
	for (i = 0; i < 1500; i++) {
		struct oq_synth_port in;
		struct oq_sl_intents it;
		struct oq_synth_result r;

		random_port(&in);
		random_intents(&it, true);
		assert_int_equal(oq_synth_port(&in, &it, &r), 0);
		if (r.status == OQ_SYNTH_OK) {
			check_result(&in, &it, &r);
			check_best_effort(&in, &it, &r, &be, &be_slack);
			ok++;
			merged += r.merged != 0;
		} else {
			/* The named SL has an intent, its best share is
			 * below it, and the reason is said. */
			assert_true(r.fail_sl >= 0 && r.fail_sl < 16);
			assert_true(it.sls & (1u << r.fail_sl));
			assert_true(!oq_frac_meets_bp(r.best,
						      it.need_bp[r.fail_sl]) ||
				    strstr(r.why, "best effort"));
			assert_true(r.why[0] != '\0');
			bad++;
		}
	}
	printf("# %u classes: %u feasible (%u with merged SLs), %u "
	       "infeasible; best effort's floor checked on %u (%u of them "
	       "8-entry tables whose granularity exceeds 2 points)\n",
	       i, ok, merged, bad, be, be_slack);
	/* Both outcomes occur, so both branches above are exercised. */
	assert_true(ok > 300);
	assert_true(bad > 50);
	assert_true(be > 100);
}

/* ---- exhaustive search on small classes ------------------------------- */

/* Every VLArb table of at most cap (<= 2) entries over the VLs in mask,
 * each entry 1..pmax packets: weight w sends ceil(w / c) packets, so
 * these are all the tables there are, as far as shares go. */
static size_t all_tables(uint16_t mask, unsigned int cap, unsigned int c,
			 unsigned int pmax, struct oq_vlarb_table *out)
{
	unsigned int ent[64][2], n_ent = 0, i, j;
	size_t n = 0;

	for (i = 0; i < 15; i++)
		for (j = 1; j <= pmax && (mask & (1u << i)); j++) {
			ent[n_ent][0] = i;
			ent[n_ent][1] = j * c > 255 ? 255 : j * c;
			n_ent++;
		}
	memset(&out[n++], 0, sizeof(out[0]));
	for (i = 0; i < n_ent && cap >= 1; i++) {
		memset(&out[n], 0, sizeof(out[n]));
		out[n].n = 1;
		out[n].e[0].vl = (uint8_t)ent[i][0];
		out[n].e[0].weight = (uint8_t)ent[i][1];
		n++;
		for (j = 0; j < n_ent && cap >= 2; j++) {
			memset(&out[n], 0, sizeof(out[n]));
			out[n].n = 2;
			out[n].e[0].vl = (uint8_t)ent[i][0];
			out[n].e[0].weight = (uint8_t)ent[i][1];
			out[n].e[1].vl = (uint8_t)ent[j][0];
			out[n].e[1].weight = (uint8_t)ent[j][1];
			n++;
		}
	}
	return n;
}

/* Is there any SL2VL (intent SLs anywhere, best-effort SLs spread over
 * the VLs in any counts), VLArb (high-priority SLs' VLs only in the high
 * table) and VLHighLimit 0..max_q meeting it? */
static bool exhaustive_feasible(const struct oq_synth_port *in,
				const struct oq_sl_intents *it,
				unsigned int max_q)
{
	static struct oq_vlarb_table hi[1200], lo[1200];
	unsigned int c = (in->mtu + 63) / 64, pmax = (255 + c - 1) / c;
	unsigned int nvl = in->vls, sls[16], k = 0, m, s, a, b0, q;
	unsigned int assign_n = 1, i;

	for (s = 0; s < 16; s++)
		if (it->sls & (1u << s))
			sls[k++] = s;
	m = 16 - k;
	for (i = 0; i < k; i++)
		assign_n *= nvl;
	for (a = 0; a < assign_n; a++) {
		for (b0 = 0; b0 <= (nvl > 1 ? m : 0); b0++) {
			uint8_t row[16];
			uint16_t hmask = 0, lmask = 0, used = 0;
			unsigned int x = a, be = 0;
			size_t nh, nl, ih, il;

			for (i = 0; i < k; i++) {
				row[sls[i]] = (uint8_t)(x % nvl);
				x /= nvl;
			}
			for (s = 0; s < 16; s++)
				if (!(it->sls & (1u << s)))
					row[s] = (uint8_t)(be++ < b0 ? 0
								     : nvl - 1);
			for (s = 0; s < 16; s++) {
				used |= (uint16_t)(1u << row[s]);
				if (it->high & (1u << s))
					hmask |= (uint16_t)(1u << row[s]);
				else if (it->sls & (1u << s))
					lmask |= (uint16_t)(1u << row[s]);
			}
			if (hmask & lmask)
				continue;
			lmask = used & ~hmask;
			/* The high table may hold low VLs too (filling it
			 * caps what the high VLs take); the low table holds
			 * no high-priority VL. */
			nh = all_tables(used, hmask ? in->cap_high : 0, c, pmax,
					hi);
			nl = all_tables(lmask, in->cap_low, c, pmax, lo);
			for (q = 0; q <= (hmask ? max_q : 0u); q++) {
				if (q && (q * 4096u / in->mtu) ==
						 ((q - 1) * 4096u / in->mtu))
					continue;
				for (ih = 0; ih < nh; ih++)
					for (il = 0; il < nl; il++) {
						struct oq_frac sh[16];
						bool fine = true;

						if (oq_synth_eval(
							    in, row, &hi[ih],
							    &lo[il], (uint8_t)q,
							    sh))
							continue;
						for (s = 0; s < 16 && fine;
						     s++) {
							if (!sh[s].num)
								fine = false;
							else if (
								(it->sls &
								 (1u << s)) &&
								!oq_frac_meets_bp(
									sh[s],
									it->need_bp
										[s]))
								fine = false;
						}
						if (fine)
							return true;
					}
			}
		}
	}
	return false;
}

static void test_exhaustive_small_classes(void **state)
{
	unsigned int i, agree_ok = 0, agree_bad = 0;

	(void)state;
	for (i = 0; i < 160; i++) {
		struct oq_synth_port in;
		struct oq_sl_intents it = {0};
		struct oq_synth_result r;
		unsigned int n = 1 + rnd(2), j;
		bool ex, high = i % 8 == 7;

		/* High-priority cases search every VLHighLimit: keep their
		 * tables to one entry. */
		port_init(&in, 1 + rnd(2), high ? 1 : 1 + rnd(2),
			  high || i % 2 ? 4096 : 2048);
		for (j = 0; j < n; j++)
			intents_set(&it, rnd(16), 100 + rnd(4000),
				    high && j == 0);
		assert_int_equal(oq_synth_port(&in, &it, &r), 0);
		/* Every VLHighLimit up to 31, and up to the one the
		 * synthesizer chose (it takes the least that works). */
		ex = exhaustive_feasible(
			&in, &it,
			r.status == OQ_SYNTH_OK && r.limit > 31 ? r.limit : 31);
		if (ex != (r.status == OQ_SYNTH_OK))
			printf("# disagree: vls %u cap %u mtu %u sls 0x%x high "
			       "0x%x needs %u/%u: exhaustive %d synth %d "
			       "(%s)\n",
			       in.vls, in.cap_low, in.mtu, it.sls, it.high,
			       it.need_bp[__builtin_ctz(it.sls)], it.total_bp,
			       ex, r.status == OQ_SYNTH_OK, r.why);
		assert_int_equal(ex, r.status == OQ_SYNTH_OK);
		if (ex)
			agree_ok++;
		else
			agree_bad++;
	}
	printf("# exhaustive search agrees: %u feasible, %u infeasible\n",
	       agree_ok, agree_bad);
	assert_true(agree_ok > 20 && agree_bad > 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_storage_mpi_best_effort),
		cmocka_unit_test(test_one_vl_is_infeasible),
		cmocka_unit_test(test_merge_when_vls_run_out),
		cmocka_unit_test(test_kept_sl2vl),
		cmocka_unit_test(test_kept_rows_views),
		cmocka_unit_test(test_property_random_classes),
		cmocka_unit_test(test_exhaustive_small_classes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
