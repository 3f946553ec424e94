// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the intent synthesizer (policy/synth/).  Hand cases with
 * known answers; a property test over random port classes (VL counts 1,
 * 2, 4, 8; MTUs 256-4096; table sizes; some with a kept SL2VL as a routing
 * engine's) and random intents: every result the synthesizer accepts is
 * checked again with the model here, within the port's limits; on small
 * classes an exhaustive search over every table decides feasibility, and
 * the synthesizer must agree with it both ways.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/file.h>
#include <osmqos/match.h>
#include <osmqos/pred_class.h>
#include <osmqos/synth.h>

#include "match_fixture.h"

static void intents_set(struct oq_sl_intents *it, unsigned int sl, uint32_t bp,
			bool high)
{
	it->need_bp[sl] += bp;
	it->total_bp += bp;
	it->sls |= (uint16_t)(1u << sl);
	if (high)
		it->high |= (uint16_t)(1u << sl);
	it->level[sl] = (int)sl;
}

static void port_init(struct oq_synth_port *in, unsigned int vls,
		      unsigned int cap, uint32_t mtu)
{
	memset(in, 0, sizeof(*in));
	in->vls = vls;
	in->cap_high = in->cap_low = cap;
	in->mtu = mtu;
	in->has_vlarb = vls > 1;
	in->has_sl2vl = true;
}

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

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

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

/* ---- a whole fabric -------------------------------------------------- */

/* contrib/policies/intents.conf on contrib/fabrics/mixed-caps.net (mixed
 * MTUs, VL counts and table sizes), compiled for a routing engine, then
 * the intents applied: what the plugin does every sweep. */
struct fab {
	struct oq_fabric *f;
	struct oq_policy *p;
	struct oq_binding *b;
	struct oq_templates t;
	struct oq_engine e;
	struct oq_fabric_tables tables, before;
	struct oq_synth_plan plan;
	struct oq_diags d;
};

static void fab_load(struct fab *x, const char *engine, const char *extra,
		     bool small)
{
	char *text, *both, *k;
	size_t len, elen = extra ? strlen(extra) : 0;

	memset(x, 0, sizeof(*x));
	oq_diags_init(&x->d);
	x->f = oq_topology_load(OQ_SRCDIR "/contrib/fabrics/mixed-caps.net",
				&x->d);
	assert_non_null(x->f);
	text = oq_file_read(OQ_SRCDIR "/contrib/policies/intents.conf",
			    OQ_POLICY_MAX_BYTES, &len);
	assert_non_null(text);
	/* Intents the template's SL2VL can meet: it puts SL 1 and SL 2 on
	 * a VL with 1 (8 VLs) or 3 (4 VLs) other SLs. */
	if (small) {
		k = strstr(text, "bandwidth: 40%");
		assert_non_null(k);
		memcpy(k, "bandwidth: 10%", 14);
		k = strstr(text, "bandwidth: 20%");
		assert_non_null(k);
		memcpy(k, "bandwidth:  5%", 14);
	}
	both = malloc(len + elen + 1);
	assert_non_null(both);
	memcpy(both, extra ? extra : "", elen);
	memcpy(both + elen, text, len);
	x->p = oq_policy_parse("intents.conf", both, len + elen, &x->d);
	free(text);
	free(both);
	assert_non_null(x->p);
	oq_policy_validate(x->p, &x->d);
	if (oq_diags_has_errors(&x->d))
		oq_diags_print(&x->d, stderr);
	assert_false(oq_diags_has_errors(&x->d));
	x->b = oq_bind(x->p, x->f, NULL, &x->d);
	assert_non_null(x->b);
	oq_templates_default(&x->t);
	assert_int_equal(oq_engine_by_name(&x->e, engine), 0);
	assert_int_equal(oq_tables_compile_engine(x->b, x->f, &x->t, &x->e,
						  &x->before, &x->d),
			 0);
	assert_int_equal(oq_tables_compile_engine(x->b, x->f, &x->t, &x->e,
						  &x->tables, &x->d),
			 0);
	assert_int_equal(oq_synth_apply(x->p, x->f, &x->e, &x->tables, NULL,
					&x->plan, &x->d),
			 0);
}

static void fab_free(struct fab *x)
{
	oq_synth_plan_free(&x->plan);
	oq_fabric_tables_free(&x->tables);
	oq_fabric_tables_free(&x->before);
	oq_binding_free(x->b);
	oq_policy_free(x->p);
	oq_fabric_free(x->f);
	oq_diags_free(&x->d);
}

/* What the plugin publishes: each linked port's guaranteed share of SL s
 * (its class's minimum over input views) is at least the intent. */
static bool has_msg(const struct oq_diags *d, enum oq_severity sev,
		    const char *a, const char *b)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].sev == sev && strstr(d->v[i].msg, a) &&
		    strstr(d->v[i].msg, b))
			return true;
	return false;
}

static size_t check_published(const struct fab *x)
{
	struct oq_pred_classes c;
	struct oq_predict_opts o;
	size_t i, n = 0;
	unsigned int s;

	oq_predict_opts_init(&o);
	assert_int_equal(oq_pred_classes_build(x->f, &x->tables, &o, NULL, &c),
			 0);
	for (i = 0; i < x->f->n_ports; i++) {
		const struct oq_pred_class *pc = oq_pred_class_of(&c, i);

		if (!pc)
			continue;
		n++;
		for (s = 0; s < 16; s++)
			if (x->plan.intents.sls & (1u << s))
				assert_true(pc->guaranteed_gbps[s] /
						    pc->pred.rate_gbps *
						    10000.0 >=
					    x->plan.intents.need_bp[s] - 1e-6);
	}
	oq_pred_classes_free(&c);
	return n;
}

static void test_fabric_minhop(void **state)
{
	struct fab x;
	size_t i, n;

	(void)state;
	fab_load(&x, NULL, NULL, false);
	assert_int_equal(x.plan.n_infeasible, 0);
	assert_int_equal(x.plan.ports_missed, 0);
	assert_true(x.plan.n >= 4); /* MTU 4096/2048, 8/4 VLs, rates */
	for (i = 0; i < x.tables.n; i++) {
		const struct oq_port_tables *pt = &x.tables.ports[i];

		if (!pt->port->peer || !pt->has_vlarb)
			continue;
		assert_int_equal(pt->vlarb_origin, OQ_ORIGIN_INTENT);
		assert_int_equal(pt->sl2vl_origin, OQ_ORIGIN_INTENT);
	}
	n = check_published(&x);
	assert_int_equal(n, 16);
	fab_free(&x);
}

/* dfsssp chooses path SLs for deadlock freedom over the template's SL2VL:
 * it stays, VLArb and VLHighLimit are chosen around it. */
static void test_fabric_engine_keeps_sl2vl(void **state)
{
	struct fab x;
	size_t i;

	(void)state;
	/* 40% is more than SL 1 can get where the template's SL2VL puts
	 * it on a VL with other SLs: refused, naming the level. */
	fab_load(&x, "dfsssp", NULL, false);
	assert_true(x.plan.n_infeasible > 0);
	assert_true(has_msg(&x.d, OQ_SEV_ERROR,
			    "qos-level 'storage' (SL 1) cannot get 40.00%",
			    "under the SL2VL kept on these ports"));
	fab_free(&x);
	fab_load(&x, "dfsssp", NULL, true);
	assert_int_equal(x.plan.n_infeasible, 0);
	for (i = 0; i < x.tables.n; i++) {
		const struct oq_port_tables *pt = &x.tables.ports[i];
		const struct oq_port_tables *was = &x.before.ports[i];

		if (!pt->port->peer || !pt->has_vlarb)
			continue;
		assert_int_equal(pt->vlarb_origin, OQ_ORIGIN_INTENT);
		assert_int_not_equal(pt->sl2vl_origin, OQ_ORIGIN_INTENT);
		assert_int_equal(pt->n_sl2vl, was->n_sl2vl);
		assert_memory_equal(pt->sl2vl, was->sl2vl,
				    (size_t)pt->n_sl2vl * 16);
	}
	for (i = 0; i < x.plan.n; i++)
		assert_true(x.plan.v[i].in.sl2vl_fixed);
	check_published(&x);
	fab_free(&x);
}

/* An explicit vlarb-scope wins on its ports (storage-facing ones here)
 * and is only checked there: equal weights over 8 VLs give SL 1 (which
 * shares its VL under the template's SL2VL) far below its 40%. */
static void test_fabric_scope_wins(void **state)
{
	static const char scope[] =
		"qos-setup\n vlarb-tables\n  vlarb-scope\n"
		"   across: storage\n"
		"   vlarb-low: 0:32,1:32,2:32,3:32,4:32,5:32,6:32,7:32\n"
		"  end-vlarb-scope\n end-vlarb-tables\nend-qos-setup\n";
	struct fab x;
	size_t i, kept = 0;

	(void)state;
	fab_load(&x, NULL, scope, false);
	for (i = 0; i < x.tables.n; i++) {
		const struct oq_port_tables *pt = &x.tables.ports[i];

		if (!pt->port->peer || !pt->has_vlarb)
			continue;
		if (pt->vlarb_origin == OQ_ORIGIN_SCOPE) {
			kept++;
			assert_int_equal(pt->vlarb_low.e[1].vl, 1);
			assert_int_equal(pt->vlarb_low.e[1].weight, 32);
		}
	}
	/* The new leaf's port facing stor1 (the old leaf's port runs 4 VLs:
	 * the scope's VL 4-7 entries keep it on its template, never a
	 * silent wrap, and the intents take it). */
	assert_int_equal(kept, 1);
	assert_int_equal(x.plan.ports_missed, 1);
	assert_true(x.plan.n_missed >= 1);
	assert_int_equal(x.plan.n_infeasible, 0);
	assert_true(has_msg(&x.d, OQ_SEV_WARNING,
			    "qos-level 'storage' (SL 1) wants 40.00% but a "
			    "vlarb-scope gives it ",
			    "% on 1 port(s) like newleaf/P1"));
	fab_free(&x);
}

/* A high table of one entry has no room to fill from best effort: the
 * high level then takes half of a busy link, and a warning says so. */
static void test_fabric_high_cap_warning(void **state)
{
	static const char text[] = "qos-levels\n qos-level\n  name: DEFAULT\n"
				   "  sl: 0\n end-qos-level\n qos-level\n"
				   "  name: mpi\n  sl: 1\n  priority: high\n"
				   "  bandwidth: 10%\n end-qos-level\n"
				   "end-qos-levels\n";
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *sw, *a, *b;
	struct oq_fabric_tables t;
	struct oq_synth_plan plan;
	struct oq_binding *bd;
	struct oq_policy *p;
	struct oq_diags d;
	unsigned int i;
	bool warned = false;

	(void)state;
	oq_diags_init(&d);
	sw = fx_switch(f, 0x500000, "sw", 2, 1);
	a = fx_ca(f, 0x1000, "a", 1, 10);
	b = fx_ca(f, 0x2000, "b", 1, 11);
	oq_fabric_link(&a->ports[1], &sw->ports[1]);
	oq_fabric_link(&b->ports[1], &sw->ports[2]);
	for (i = 0; i <= 2; i++)
		fx_caps(&sw->ports[i], 8, 1, 8);
	fx_caps(&a->ports[1], 8, 1, 8);
	fx_caps(&b->ports[1], 8, 1, 8);
	assert_int_equal(oq_fabric_finalize(f, &d), 0);
	p = oq_policy_parse("hi.conf", text, sizeof(text) - 1, &d);
	oq_policy_validate(p, &d);
	assert_false(oq_diags_has_errors(&d));
	bd = oq_bind(p, f, NULL, &d);
	assert_int_equal(oq_tables_compile(bd, f, NULL, &t, &d), 0);
	assert_int_equal(oq_synth_apply(p, f, NULL, &t, NULL, &plan, &d), 0);
	assert_int_equal(plan.n_infeasible, 0);
	for (i = 0; i < d.n; i++)
		warned |= d.v[i].sev == OQ_SEV_WARNING &&
			  strstr(d.v[i].msg, "(SL 1, high priority) takes "
					     "50.00% of a busy link") &&
			  strstr(d.v[i].msg, "more than its 10.00%");
	assert_true(warned);
	oq_synth_plan_free(&plan);
	oq_fabric_tables_free(&t);
	oq_binding_free(bd);
	oq_policy_free(p);
	oq_fabric_free(f);
	oq_diags_free(&d);
}

/* ---- property: random fabrics ---------------------------------------- */

static void randomize_caps(struct oq_fabric *f)
{
	static const unsigned int vls[] = {2, 4, 4, 4, 8, 8, 8, 8};
	static const unsigned int caps[] = {8, 16, 32, 64};
	static const enum oq_speed speeds[] = {OQ_SPEED_SDR, OQ_SPEED_QDR,
					       OQ_SPEED_FDR, OQ_SPEED_EDR,
					       OQ_SPEED_HDR};
	static const uint8_t widths[] = {1, 4, 4, 12};
	size_t i;

	for (i = 0; i < f->n_ports; i++) {
		struct oq_port *p = f->ports[i];

		/* One VL is rare: it makes any intent above 1/16 fail. */
		p->vl_cap = p->oper_vls = (uint8_t)(rnd(200) ? vls[rnd(8)] : 1);
		p->mtu_cap = (uint8_t)(1 + rnd(5));
		p->vlarb_high_cap = (uint8_t)caps[rnd(4)];
		p->vlarb_low_cap = (uint8_t)caps[rnd(4)];
		p->width = widths[rnd(4)];
		p->speed = speeds[rnd(5)];
	}
}

static char *random_policy(size_t *len)
{
	char *buf = malloc(4096);
	unsigned int n = 1 + rnd(3), i, used = 0;
	int left = rnd(3) ? 6000 : 9500, k;
	size_t off;

	assert_non_null(buf);
	off = (size_t)snprintf(buf, 4096,
			       "qos-levels\n qos-level\n  name: DEFAULT\n"
			       "  sl: 0\n end-qos-level\n");
	for (i = 0; i < n && left > 100; i++) {
		unsigned int sl = 1 + rnd(15);
		int bp = 50 + (int)rnd((unsigned int)(left / 2 < 2500 ? left / 2
								      : 2500));

		if (used & (1u << sl))
			continue; /* one level per SL: priorities never mix */
		used |= 1u << sl;
		left -= bp;
		k = snprintf(buf + off, 4096 - off,
			     " qos-level\n  name: l%u\n  sl: %u\n"
			     "  bandwidth: %d.%02d%%\n%s end-qos-level\n",
			     i, sl, bp / 100, bp % 100,
			     rnd(4) ? "" : "  priority: high\n");
		off += (size_t)k;
	}
	off += (size_t)snprintf(buf + off, 4096 - off, "end-qos-levels\n");
	*len = off;
	return buf;
}

/* At least 1,000 random fabrics (VLs 1-8, MTUs 256-4096, table sizes,
 * rates mixed port by port; a fifth routed by dfsssp, which keeps the
 * template's SL2VL) with random intents, through what the plugin runs
 * every sweep.  Where every class is feasible, the published guarantee
 * (the port classes' minimum over input views) of every intent SL on
 * every linked port is at least its intent and every table is within
 * the port's limits; where not, an error says so. */
static void test_property_random_fabrics(void **state)
{
	unsigned int i, feasible = 0, infeasible = 0, engine = 0;
	size_t ports = 0;

	(void)state;
	for (i = 0; i < 1000; i++) {
		uint64_t frng = rng;
		struct oq_fabric *f =
			fx_random_fabric(&frng, 2 + rnd(5), 1 + rnd(2), 8);
		struct oq_fabric_tables t;
		struct oq_synth_plan plan;
		struct oq_binding *b;
		struct oq_policy *p;
		struct oq_templates tm;
		struct oq_engine e;
		struct oq_diags d;
		size_t len, k;
		char *text;

		rnd(2);
		randomize_caps(f);
		text = random_policy(&len);
		oq_diags_init(&d);
		p = oq_policy_parse("r.conf", text, len, &d);
		assert_non_null(p);
		oq_policy_validate(p, &d);
		assert_false(oq_diags_has_errors(&d));
		b = oq_bind(p, f, NULL, &d);
		assert_non_null(b);
		oq_templates_default(&tm);
		assert_int_equal(
			oq_engine_by_name(&e, rnd(5) ? NULL : "dfsssp"), 0);
		engine += e.kind != OQ_ENGINE_QOS;
		assert_int_equal(
			oq_tables_compile_engine(b, f, &tm, &e, &t, &d), 0);
		assert_int_equal(oq_synth_apply(p, f, &e, &t, NULL, &plan, &d),
				 0);
		for (k = 0; k < t.n; k++) {
			const struct oq_port_tables *pt = &t.ports[k];
			unsigned int j, nv = pt->port->oper_vls;

			if (pt->vlarb_origin != OQ_ORIGIN_INTENT)
				continue;
			assert_true(pt->vlarb_high.n <= OQ_VLARB_MAX);
			assert_true(pt->vlarb_low.n <= OQ_VLARB_MAX);
			assert_true(pt->vl_high_limit < OQ_ARB_UNLIMITED);
			for (j = 0; j < pt->vlarb_low.n; j++)
				assert_true(pt->vlarb_low.e[j].vl < nv);
			for (j = 0; j < pt->vlarb_high.n; j++)
				assert_true(pt->vlarb_high.e[j].vl < nv);
		}
		if (plan.n_infeasible) {
			assert_true(d.n_errors > 0);
			infeasible++;
		} else {
			struct fab x = {.f = f, .tables = t, .plan = plan};

			ports += check_published(&x);
			feasible++;
		}
		oq_synth_plan_free(&plan);
		oq_fabric_tables_free(&t);
		oq_binding_free(b);
		oq_policy_free(p);
		oq_fabric_free(f);
		oq_diags_free(&d);
		free(text);
	}
	printf("# %u fabrics: %u feasible (%zu linked ports checked), %u "
	       "refused; %u routed by dfsssp\n",
	       i, feasible, ports, infeasible, engine);
	assert_true(feasible > 200);
	assert_true(infeasible > 50);
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
		cmocka_unit_test(test_property_random_fabrics),
		cmocka_unit_test(test_fabric_minhop),
		cmocka_unit_test(test_fabric_high_cap_warning),
		cmocka_unit_test(test_fabric_engine_keeps_sl2vl),
		cmocka_unit_test(test_fabric_scope_wins),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
