// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the ConnectX-2 profile (reference 000) and its Props 1-3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/model.h>

static struct oq_frac ratio(unsigned int q, unsigned int h, unsigned int l)
{
	struct oq_frac r;

	assert_int_equal(oq_cx2_ratio(q, h, l, &r), 0);
	return r;
}

static void test_period(void **state)
{
	assert_int_equal(oq_cx2_period(16), 1);
	assert_int_equal(oq_cx2_period(10), 5);
	assert_int_equal(oq_cx2_period(25), 25);
	assert_int_equal(oq_cx2_period(96), 3);
	assert_int_equal(oq_cx2_period(0), 0);
}

/* The paper's sample points all sit on the plateau 2Q. */
static void test_sample_points(void **state)
{
	static const unsigned int pts[][3] = {
		{1, 16, 4},
		{5, 10, 90},
		{6, 8, 40},
		{8, 25, 100},
	};
	unsigned int i;

	for (i = 0; i < 4; i++) {
		struct oq_frac r = ratio(pts[i][0], pts[i][1], pts[i][2]);

		assert_int_equal(r.den, 1);
		assert_int_equal(r.num, 2 * pts[i][0]);
	}
	/* Our choices where the text is silent (docs/model.md). */
	assert_int_equal(ratio(0, 2, 2).num, 1); /* Q=0: plateau 1 */
	assert_int_equal(ratio(0, 2, 2).den, 1);
	assert_int_equal(ratio(2, 3, 2).num, 6); /* L<T: 2Q*T/L = 6 */
	assert_int_equal(ratio(2, 3, 2).den, 1);
}

static void test_edges(void **state)
{
	struct oq_frac r;

	assert_int_equal(oq_cx2_ratio(255, 4, 4, &r), 1);
	assert_int_equal(r.den, 0);
	assert_int_equal(oq_cx2_ratio(1, 0, 4, &r), -1);
	assert_int_equal(oq_cx2_ratio(1, 4, 0, &r), -1);
}

/* Prop 1: plateau at every multiple of T.  Prop 2: strictly decreasing
 * inside each period [nT, (n+1)T).  Prop 3: the period minima rise, and
 * the minimum over [T, 255] is at L = 2T - 1. */
static void test_props(void **state)
{
	unsigned int q, h, l, n, checked = 0;

	for (q = 1; q < 255; q += 7)
		for (h = 1; h < 256; h++) {
			unsigned int t = oq_cx2_period(h);
			struct oq_frac min = {0, 0}, prev_min = {0, 0};
			unsigned int arg = 0;

			for (n = 1; n * t <= 255; n++) {
				struct oq_frac r = ratio(q, h, n * t);

				assert_int_equal(r.num, 2 * q);
				assert_int_equal(r.den, 1);
			}
			for (l = t; l < 255; l++) {
				struct oq_frac a = ratio(q, h, l);
				struct oq_frac b = ratio(q, h, l + 1);

				if (t == 1) /* always on the plateau */
					assert_int_equal(oq_frac_cmp(b, a), 0);
				else if ((l + 1) % t)
					assert_int_equal(oq_frac_cmp(b, a), -1);
				else
					assert_int_equal(oq_frac_cmp(b, a), 1);
				if (!min.den || oq_frac_cmp(a, min) < 0) {
					min = a;
					arg = l;
				}
				checked++;
			}
			if (t > 1 && 2 * t - 1 <= 255)
				assert_int_equal(arg, 2 * t - 1);
			/* Rising minima: end of each full period. */
			for (n = 1; (n + 1) * t - 1 <= 255 && t > 1; n++) {
				struct oq_frac m = ratio(q, h, (n + 1) * t - 1);

				if (prev_min.den)
					assert_int_equal(
						oq_frac_cmp(m, prev_min), 1);
				prev_min = m;
			}
		}
	print_message("cx2: %u ratio steps checked\n", checked);
	assert_true(checked > 100000);
}

static void test_apply(void **state)
{
	struct oq_vlarb_table hi = {.n = 1}, lo = {.n = 2};
	struct oq_arb_config c;
	struct oq_arb_result r;

	hi.e[0].vl = 0;
	hi.e[0].weight = 16;
	lo.e[0].vl = 1;
	lo.e[0].weight = 4;
	lo.e[1].vl = 2;
	lo.e[1].weight = 0;
	oq_arb_config_init(&c, &hi, &lo, 1, 2048);
	c.backlog = 0x3;
	assert_int_equal(oq_cx2_apply(&c, &r), 0);
	assert_int_equal(r.share[0].num, 2);
	assert_int_equal(r.share[0].den, 3);
	assert_int_equal(r.share[1].num, 1);
	assert_int_equal(r.share[1].den, 3);
	c.high_limit = 255;
	assert_int_equal(oq_cx2_apply(&c, &r), 0);
	assert_int_equal(r.share[0].num, 1);
	assert_int_equal(r.share[0].den, 1);
	assert_int_equal(r.share[1].num, 0);
	c.high_limit = 1;
	/* Not the profile's case: wrong MTU, a second low VL, same VL. */
	c.mtu_bytes = 4096;
	assert_int_equal(oq_cx2_apply(&c, &r), -1);
	c.mtu_bytes = 2048;
	lo.e[1].weight = 8;
	c.backlog = 0x7;
	assert_int_equal(oq_cx2_apply(&c, &r), -1);
	c.backlog = 0x3; /* VL2 idle: fits again */
	assert_int_equal(oq_cx2_apply(&c, &r), 0);
	lo.e[0].vl = 0;
	assert_int_equal(oq_cx2_apply(&c, &r), -1);
}

/* The plain IBA automaton has no sawtooth: one high VL with weight below
 * a packet and limit Q sends 2Q 2 KiB packets per low packet for any L. */
static void test_iba_has_flat_ratio(void **state)
{
	struct oq_vlarb_table hi = {.n = 1}, lo = {.n = 1};
	struct oq_arb_config c;
	struct oq_arb_result r;
	unsigned int q, l;

	hi.e[0].vl = 0;
	hi.e[0].weight = 16;
	lo.e[0].vl = 1;
	for (q = 1; q < 8; q++)
		for (l = 1; l < 256; l += 13) {
			lo.e[0].weight = (uint8_t)l;
			oq_arb_config_init(&c, &hi, &lo, (uint8_t)q, 2048);
			c.backlog = 0x3;
			assert_int_equal(oq_arb_run(&c, &r), 0);
			assert_int_equal(r.vl_bytes[0], 2 * q * r.vl_bytes[1]);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_period),
		cmocka_unit_test(test_sample_points),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_props),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_iba_has_flat_ratio),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
