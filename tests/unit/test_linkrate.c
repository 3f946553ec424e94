// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: link data rates, the PathRecord rate encoding both ways
 * (in OpenSM 3.3.23 and 3.3.24), fractions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/model.h>

#include "osm_release_test.h"

static void test_lane_rates(void **state)
{
	assert_true(oq_lane_data_gbps(OQ_SPEED_SDR) == 2.0);
	assert_true(oq_lane_data_gbps(OQ_SPEED_DDR) == 4.0);
	assert_true(oq_lane_data_gbps(OQ_SPEED_QDR) == 8.0);
	assert_true(oq_lane_data_gbps(OQ_SPEED_FDR10) == 10.0);
	assert_true(oq_lane_data_gbps(OQ_SPEED_EDR) == 25.0);
	assert_true(oq_lane_data_gbps(OQ_SPEED_HDR) == 50.0);
	assert_true(oq_lane_data_gbps(OQ_SPEED_NDR) == 100.0);
	assert_true(oq_lane_data_gbps(OQ_SPEED_UNKNOWN) == 0.0);
	/* FDR: 14.0625 * 64/66 */
	assert_true(oq_link_data_gbps(4, OQ_SPEED_FDR) > 54.545 &&
		    oq_link_data_gbps(4, OQ_SPEED_FDR) < 54.546);
	assert_true(oq_link_data_gbps(4, OQ_SPEED_QDR) == 32.0);
	assert_true(oq_link_data_gbps(12, OQ_SPEED_EDR) == 300.0);
	assert_true(oq_link_data_gbps(3, OQ_SPEED_EDR) == 0.0);
	assert_true(oq_link_data_gbps(0, OQ_SPEED_EDR) == 0.0);
	assert_true(oq_link_data_gbps(4, (enum oq_speed)99) == 0.0);
}

static void test_rate_enum_known_pairs(void **state)
{
	oq_osm_release_use(&osm_3_3_23);
	/* Values from OpenSM's ib_port_info_compute_rate(). */
	assert_int_equal(oq_rate_enum(1, OQ_SPEED_SDR), 2);
	assert_int_equal(oq_rate_enum(4, OQ_SPEED_SDR), 3);
	assert_int_equal(oq_rate_enum(12, OQ_SPEED_SDR), 4);
	assert_int_equal(oq_rate_enum(4, OQ_SPEED_DDR), 6);
	assert_int_equal(oq_rate_enum(4, OQ_SPEED_QDR), 7);
	assert_int_equal(oq_rate_enum(4, OQ_SPEED_FDR10), 7);
	assert_int_equal(oq_rate_enum(4, OQ_SPEED_FDR), 12);
	assert_int_equal(oq_rate_enum(2, OQ_SPEED_FDR), 19);
	assert_int_equal(oq_rate_enum(4, OQ_SPEED_EDR), 16);
	assert_int_equal(oq_rate_enum(4, OQ_SPEED_HDR), 17);
	assert_int_equal(oq_rate_enum(12, OQ_SPEED_HDR), 22);
	assert_int_equal(oq_rate_enum(4, OQ_SPEED_NDR), 21);
	assert_int_equal(oq_rate_enum(8, OQ_SPEED_NDR), 0);
	assert_int_equal(oq_rate_enum(3, OQ_SPEED_QDR), 0);
	assert_int_equal(oq_rate_enum(4, OQ_SPEED_UNKNOWN), 0);
	/* 3.3.24 knows 800 and 1200 Gb/s: NDR 8x and 12x. */
	assert_int_equal(oq_rate_enum(12, OQ_SPEED_NDR), 0);
	oq_osm_release_use(&osm_3_3_24);
	assert_int_equal(oq_rate_enum(8, OQ_SPEED_NDR), 23);
	assert_int_equal(oq_rate_enum(12, OQ_SPEED_NDR), 24);
	assert_int_equal(oq_rate_enum(4, OQ_SPEED_NDR), 21);
	assert_int_equal(oq_rate_enum(12, OQ_SPEED_HDR), 22);
	oq_osm_release_use(NULL);
}

/* A width/speed pair that gives this encoding, or -1. */
static int link_of(uint8_t rate, uint8_t *width, enum oq_speed *speed)
{
	static const uint8_t widths[] = {4, 1, 2, 8, 12};
	size_t i;
	enum oq_speed s;

	if (rate < OQ_RATE_MIN || rate > OQ_RATE_MAX)
		return -1;
	for (i = 0; i < sizeof(widths); i++)
		for (s = OQ_SPEED_SDR; s <= OQ_SPEED_NDR; s++)
			if (oq_rate_enum(widths[i], s) == rate) {
				*width = widths[i];
				*speed = s;
				return 0;
			}
	return -1;
}

/* Every pair's encoding names (nominally) its signalling-based rate, and
 * every encoding the release knows (2..22, 2..24) maps back to a pair
 * with that encoding. */
static void round_trip(uint8_t rate_max)
{
	static const uint8_t widths[] = {1, 2, 4, 8, 12};
	unsigned int r, i;
	enum oq_speed s = OQ_SPEED_UNKNOWN;

	for (r = 0; r < 30; r++) {
		uint8_t w = 0;

		if (r > rate_max && r <= OQ_RATE_MAX) {
			/* Named by IBA 1.5, unknown to the release. */
			assert_int_equal(link_of((uint8_t)r, &w, &s), -1);
			assert_true(oq_rate_enum_gbps((uint8_t)r) > 600.0);
			continue;
		}
		if (r < OQ_RATE_MIN || r > OQ_RATE_MAX) {
			assert_int_equal(link_of((uint8_t)r, &w, &s),
					 -1);
			assert_true(oq_rate_enum_gbps((uint8_t)r) == 0.0);
			continue;
		}
		assert_int_equal(link_of((uint8_t)r, &w, &s), 0);
		assert_int_equal(oq_rate_enum(w, s), r);
	}
	for (i = 0; i < sizeof(widths); i++)
		for (s = OQ_SPEED_SDR; s <= OQ_SPEED_NDR; s++) {
			uint8_t e = oq_rate_enum(widths[i], s);
			double data = oq_link_data_gbps(widths[i], s);
			double nom;

			if (!e)
				continue;
			nom = oq_rate_enum_gbps(e);
			/* nominal >= data, and within the 8b/10b loss */
			assert_true(nom >= data - 1e-9);
			assert_true(data >= nom * 0.8 - 1e-9);
		}
	assert_true(oq_rate_enum_gbps(12) == 56.0);
	assert_true(oq_rate_enum_gbps(11) == 14.0);
	assert_true(oq_rate_enum_gbps(21) == 400.0);
	assert_true(oq_rate_enum_gbps(22) == 600.0);
}

static void test_rate_enum_round_trip(void **state)
{
	oq_osm_release_use(&osm_3_3_23);
	round_trip(22);
	oq_osm_release_use(&osm_3_3_24);
	round_trip(24);
	assert_true(oq_rate_enum_gbps(23) == 800.0);
	assert_true(oq_rate_enum_gbps(24) == 1200.0);
	oq_osm_release_use(NULL);
}

static void test_mtu_and_port(void **state)
{
	struct oq_fabric *f = oq_fabric_new();
	struct oq_node *x, *y;
	struct oq_port *a, *b;

	(void)state;
	assert_int_equal(oq_mtu_bytes(1), 256);
	assert_int_equal(oq_mtu_bytes(5), 4096);
	assert_int_equal(oq_mtu_bytes(0), 0);
	assert_int_equal(oq_mtu_bytes(6), 0);
	x = oq_fabric_add_node(f, OQ_NODE_CA, 0x10, "x", 1);
	y = oq_fabric_add_node(f, OQ_NODE_CA, 0x20, "y", 1);
	assert_non_null(x);
	assert_non_null(y);
	a = &x->ports[1];
	b = &y->ports[1];
	a->width = 4;
	a->speed = OQ_SPEED_EDR;
	assert_true(oq_port_data_gbps(a) == 100.0);
	assert_true(oq_port_data_gbps(NULL) == 0.0);
	a->mtu_cap = 5;
	b->mtu_cap = 4;
	/* Unlinked, or of no fabric: its link is its own. */
	assert_int_equal(oq_port_mtu_bytes(f, a), 4096);
	assert_int_equal(oq_port_mtu_bytes(NULL, a), 4096);
	oq_fabric_link(a, b);
	assert_int_equal(oq_port_mtu_bytes(f, a), 2048);
	a->mtu_cap = 0;
	b->mtu_cap = 0;
	assert_int_equal(oq_port_mtu_bytes(f, a), 2048);
	oq_fabric_free(f);
}

/* PortInfo encodings, as both the plugin's snapshot and the audit read
 * them. */
static void test_port_info_encodings(void **state)
{
	(void)state;
	assert_int_equal(oq_lanes_from_width(1), 1);
	assert_int_equal(oq_lanes_from_width(2), 4);
	assert_int_equal(oq_lanes_from_width(4), 8);
	assert_int_equal(oq_lanes_from_width(8), 12);
	assert_int_equal(oq_lanes_from_width(16), 2);
	assert_int_equal(oq_lanes_from_width(3), 0);
	assert_int_equal(oq_vls_from_enc(1), 1);
	assert_int_equal(oq_vls_from_enc(4), 8);
	assert_int_equal(oq_vls_from_enc(5), 15);
	assert_int_equal(oq_vls_from_enc(6), 0);
	/* LinkSpeedActive QDR, LinkSpeedExtActive EDR: */
	assert_int_equal(oq_speed_from_ib(4, 2, false, false), OQ_SPEED_QDR);
	assert_int_equal(oq_speed_from_ib(4, 2, true, false), OQ_SPEED_EDR);
	assert_int_equal(oq_speed_from_ib(4, 1, true, true), OQ_SPEED_FDR);
	assert_int_equal(oq_speed_from_ib(4, 0, true, true), OQ_SPEED_FDR10);
	assert_int_equal(oq_speed_from_ib(2, 4, false, false), OQ_SPEED_DDR);
	assert_int_equal(oq_speed_from_ib(4, 4, true, false), OQ_SPEED_HDR);
	assert_int_equal(oq_speed_from_ib(3, 0, false, false),
			 OQ_SPEED_UNKNOWN);
	/* LinkSpeedExtActive 8 (NDR): 3.3.23 does not know it and takes
	 * LinkSpeedActive, 3.3.24 does. */
	oq_osm_release_use(&osm_3_3_23);
	assert_int_equal(oq_speed_from_ib(4, 8, true, false), OQ_SPEED_QDR);
	assert_int_equal(oq_speed_from_ib(4, 8, true, true), OQ_SPEED_FDR10);
	oq_osm_release_use(&osm_3_3_24);
	assert_int_equal(oq_speed_from_ib(4, 8, true, false), OQ_SPEED_NDR);
	assert_int_equal(oq_speed_from_ib(4, 8, false, false), OQ_SPEED_QDR);
	assert_int_equal(oq_speed_from_ib(4, 4, true, false), OQ_SPEED_HDR);
	oq_osm_release_use(NULL);
}

/* The built release is what configure read from the headers. */
static void test_release_built(void **state)
{
	const struct oq_osm_release *r = oq_osm_release();

	(void)state;
	assert_ptr_equal(r, &oq_osm_release_built);
	assert_true(!strncmp(r->name, "OpenSM 3.3.", 11));
	assert_true(r->rate_max == 22 || r->rate_max == 24);
	/* The three came with one release (3.3.24) and go together. */
	assert_int_equal(r->speed_ndr, r->rate_max == 24);
	assert_int_equal(r->sa_max_rate_enum, r->rate_max == 24);
	/* What configure read from a known release's headers is what the
	 * tests take that release to be. */
	if (!strcmp(r->name, osm_3_3_23.name) ||
	    !strcmp(r->name, osm_3_3_24.name)) {
		const struct oq_osm_release *k =
			!strcmp(r->name, osm_3_3_23.name) ? &osm_3_3_23
							  : &osm_3_3_24;

		assert_int_equal(r->rate_max, k->rate_max);
		assert_int_equal(r->speed_ndr, k->speed_ndr);
		assert_int_equal(r->sa_max_rate_enum, k->sa_max_rate_enum);
	}
	oq_osm_release_use(&osm_3_3_24);
	assert_ptr_equal(oq_osm_release(), &osm_3_3_24);
	oq_osm_release_use(NULL);
	assert_ptr_equal(oq_osm_release(), &oq_osm_release_built);
}

static void test_fractions(void **state)
{
	char buf[32];
	struct oq_frac f = oq_frac_make(6, 8);

	assert_int_equal(f.num, 3);
	assert_int_equal(f.den, 4);
	oq_frac_format(f, buf, sizeof(buf));
	assert_string_equal(buf, "3/4");
	oq_frac_format(oq_frac_make(0, 5), buf, sizeof(buf));
	assert_string_equal(buf, "0");
	oq_frac_format(oq_frac_make(7, 7), buf, sizeof(buf));
	assert_string_equal(buf, "1");
	assert_int_equal(oq_frac_make(3, 0).num, 0);
	assert_int_equal(oq_frac_cmp(oq_frac_make(1, 3), oq_frac_make(2, 6)),
			 0);
	assert_int_equal(oq_frac_cmp(oq_frac_make(1, 3), oq_frac_make(1, 2)),
			 -1);
	assert_int_equal(oq_gcd_u64(0, 5), 5);
	/* no overflow in cmp near 2^64 */
	assert_int_equal(
		oq_frac_cmp((struct oq_frac){UINT64_MAX - 1, UINT64_MAX},
			    (struct oq_frac){UINT64_MAX - 2, UINT64_MAX - 1}),
		1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lane_rates),
		cmocka_unit_test(test_rate_enum_known_pairs),
		cmocka_unit_test(test_rate_enum_round_trip),
		cmocka_unit_test(test_mtu_and_port),
		cmocka_unit_test(test_port_info_encodings),
		cmocka_unit_test(test_release_built),
		cmocka_unit_test(test_fractions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
