// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the arbiter automaton (hand-computed cases) and the per-SL
 * and path views built on it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/model.h>

static void set(struct oq_vlarb_table *t, unsigned int n, const uint8_t *vw)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	t->n = (uint8_t)n;
	for (i = 0; i < n; i++) {
		t->e[i].vl = vw[2 * i];
		t->e[i].weight = vw[2 * i + 1];
	}
}

#define TAB(t, ...)                                                            \
	do {                                                                   \
		static const uint8_t vw_[] = {__VA_ARGS__};                    \
		set(t, sizeof(vw_) / 2, vw_);                                  \
	} while (0)

static struct oq_vlarb_table hi, lo;

static void run(uint8_t limit, uint32_t mtu, uint16_t backlog,
		struct oq_arb_result *r)
{
	struct oq_arb_config c;

	oq_arb_config_init(&c, &hi, &lo, limit, mtu);
	c.backlog = backlog;
	assert_int_equal(oq_arb_run(&c, r), 0);
}

#define assert_share(r, vl, n, d)                                              \
	do {                                                                   \
		assert_int_equal((r).share[vl].num, n);                        \
		assert_int_equal((r).share[vl].den, d);                        \
	} while (0)

static void test_weights_in_credits(void **state)
{
	struct oq_arb_result r;

	TAB(&hi);
	TAB(&lo, 0, 32, 1, 64); /* one vs two 2 KiB packets */
	run(0, 2048, 0x3, &r);
	assert_share(r, 0, 1, 3);
	assert_share(r, 1, 2, 3);
	assert_false(r.approx);
	assert_int_equal(r.cycle_bytes, 3 * 2048);
	assert_int_equal(r.cycle_packets, 3);
}

/* A packet may start while the entry has any weight left; the entry ends
 * when the weight is used up, and the overdraft is not carried over. */
static void test_packet_larger_than_weight(void **state)
{
	struct oq_arb_result r;

	TAB(&hi);
	TAB(&lo, 0, 1, 1, 1);
	run(0, 4096, 0x3, &r);
	assert_share(r, 0, 1, 2);
	TAB(&lo, 0, 33, 1, 32); /* 33 credits: two 2 KiB packets */
	run(0, 2048, 0x3, &r);
	assert_share(r, 0, 2, 3);
	assert_share(r, 1, 1, 3);
}

static void test_high_limit(void **state)
{
	struct oq_arb_result r;

	TAB(&hi, 0, 255);
	TAB(&lo, 1, 255);
	run(0, 2048, 0x3, &r); /* one high packet per low packet */
	assert_share(r, 0, 1, 2);
	run(1, 2048, 0x3, &r); /* 4 KiB = two 2 KiB packets */
	assert_share(r, 0, 2, 3);
	run(1, 4096, 0x3, &r);
	assert_share(r, 0, 1, 2);
	run(2, 4096, 0x3, &r);
	assert_share(r, 0, 2, 3);
	run(3, 2048, 0x3, &r);
	assert_share(r, 0, 6, 7);
	/* 1500-byte packets under 4096: two fit (3000), the third would
	 * exceed; then one low packet. */
	{
		struct oq_arb_config c;

		oq_arb_config_init(&c, &hi, &lo, 1, 1500);
		c.backlog = 0x3;
		assert_int_equal(oq_arb_run(&c, &r), 0);
		assert_share(r, 0, 2, 3);
		/* A packet larger than the limit still goes alone. */
		c.pkt_bytes[0] = 4000;
		c.high_limit = 0;
		assert_int_equal(oq_arb_run(&c, &r), 0);
		assert_int_equal(r.vl_bytes[0] * 1500, r.vl_bytes[1] * 4000);
	}
	run(255, 2048, 0x3, &r); /* unbounded: low starves */
	assert_share(r, 0, 1, 1);
	assert_int_equal(r.low_vls, 0);
	run(255, 2048, 0x2, &r); /* no high traffic: low has it all */
	assert_share(r, 1, 1, 1);
}

static void test_vl_in_both_tables(void **state)
{
	struct oq_arb_result r;

	TAB(&hi, 0, 32);
	TAB(&lo, 0, 32, 1, 32);
	/* H0 L0 H0 L1 ... */
	run(0, 2048, 0x3, &r);
	assert_share(r, 0, 3, 4);
	assert_share(r, 1, 1, 4);
	assert_int_equal(r.high_vls, 0x1);
	assert_int_equal(r.low_vls, 0x3);
}

static void test_repeats_zero_weights_idle(void **state)
{
	struct oq_arb_result r;
	unsigned int i;

	TAB(&hi);
	TAB(&lo, 0, 32, 1, 32, 0, 32);
	run(0, 2048, 0x3, &r);
	assert_share(r, 0, 2, 3);
	TAB(&lo, 0, 0, 1, 32, 2, 32, 15, 200);
	run(0, 2048, 0xf, &r); /* VL0 weight 0, VL3 in no table */
	assert_share(r, 0, 0, 1);
	assert_share(r, 1, 1, 2);
	assert_share(r, 2, 1, 2);
	assert_share(r, 3, 0, 1);
	run(0, 2048, 0x1, &r); /* only VL0 has traffic: weight 0 */
	assert_true(r.idle);
	assert_int_equal(r.cycle_bytes, 0);
	run(0, 2048, 0, &r);
	assert_true(r.idle);
	/* A full 64-entry table. */
	memset(&lo, 0, sizeof(lo));
	lo.n = 64;
	for (i = 0; i < 64; i++) {
		lo.e[i].vl = (uint8_t)(i % 4);
		lo.e[i].weight = (uint8_t)(i % 4 == 3 ? 64 : 32);
	}
	run(0, 2048, 0xf, &r);
	assert_share(r, 0, 1, 5);
	assert_share(r, 3, 2, 5);
}

static void test_packet_sizes_per_vl(void **state)
{
	struct oq_arb_config c;
	struct oq_arb_result r;

	TAB(&hi);
	TAB(&lo, 0, 64, 1, 64);
	oq_arb_config_init(&c, &hi, &lo, 0, 4096);
	c.backlog = 0x3;
	c.pkt_bytes[1] = 256; /* 16 small packets per visit = 4 KiB */
	assert_int_equal(oq_arb_run(&c, &r), 0);
	assert_share(r, 0, 1, 2);
	assert_int_equal(r.cycle_packets, 17);
	c.pkt_bytes[1] = 100; /* 2 credits: 32 packets of 100 bytes */
	assert_int_equal(oq_arb_run(&c, &r), 0);
	assert_int_equal(r.vl_bytes[1], 3200);
	assert_int_equal(r.vl_bytes[0], 4096);
}

static void test_bad_config_and_cap(void **state)
{
	struct oq_arb_config c;
	struct oq_arb_result r;
	uint64_t sum;
	unsigned int v;

	TAB(&hi, 0, 7, 1, 3);
	TAB(&lo, 2, 5, 3, 11);
	oq_arb_config_init(&c, &hi, &lo, 3, 0);
	c.backlog = 0xf;
	assert_int_equal(oq_arb_run(&c, &r), -1); /* MTU 0 */
	c.mtu_bytes = 70000;
	assert_int_equal(oq_arb_run(&c, &r), -1);
	c.mtu_bytes = 2048;
	hi.n = 65;
	assert_int_equal(oq_arb_run(&c, &r), -1);
	hi.n = 2;
	/* Cap the steps: a long-run average, flagged, still summing to 1. */
	c.pkt_bytes[0] = 77;
	c.pkt_bytes[2] = 1111;
	assert_int_equal(oq_arb_run(&c, &r), 0);
	assert_false(r.approx);
	assert_true(r.cycle_steps > 8);
	c.max_steps = 5;
	assert_int_equal(oq_arb_run(&c, &r), 0);
	assert_true(r.approx);
	for (sum = 0, v = 0; v < OQ_MAX_VLS; v++)
		sum += r.vl_bytes[v];
	assert_int_equal(sum, r.cycle_bytes);
}

/* ---- per-SL view ---------------------------------------------------- */

/* The tables below belong to no fabric (their ports, where they have
 * one, are made by hand and the MTU is given): the model runs with a
 * NULL fabric. */
static uint8_t sl2vl_rows[3][16];

static void ca_tables(struct oq_port_tables *t)
{
	unsigned int s;

	memset(t, 0, sizeof(*t));
	for (s = 0; s < 16; s++)
		sl2vl_rows[0][s] = (uint8_t)s;
	t->sl2vl = sl2vl_rows;
	t->n_sl2vl = 1;
	t->has_sl2vl = true;
	t->has_vlarb = true;
	TAB(&t->vlarb_high, 0, 255);
	TAB(&t->vlarb_low, 1, 32, 2, 32);
	t->vl_high_limit = 0;
}

#define assert_frac(f, n, d)                                                   \
	do {                                                                   \
		assert_int_equal((f).num, n);                                  \
		assert_int_equal((f).den, d);                                  \
	} while (0)

static void test_predict_all_backlogged(void **state)
{
	struct oq_port_tables t;
	struct oq_predict_opts o;
	struct oq_port_pred p;
	unsigned int s;

	ca_tables(&t);
	sl2vl_rows[0][3] = 1; /* SL1 and SL3 share VL1 */
	oq_predict_opts_init(&o);
	o.mtu_bytes = 2048;
	assert_int_equal(oq_predict_port(NULL, &t, 100.0, &o, &p), 0);
	assert_true(p.rate_gbps == 100.0);
	assert_int_equal(p.sl[0].vl, 0);
	assert_int_equal(p.sl[0].prio, OQ_PRIO_HIGH);
	assert_frac(p.sl[0].share, 1, 2);
	assert_true(p.sl[0].gbps == 50.0);
	assert_int_equal(p.sl[1].prio, OQ_PRIO_LOW);
	assert_frac(p.sl[1].share, 1, 8);
	assert_frac(p.sl[3].share, 1, 8);
	assert_frac(p.sl[2].share, 1, 4);
	assert_int_equal(p.sl[4].prio, OQ_PRIO_NONE);
	assert_frac(p.sl[4].share, 0, 1);
	assert_int_equal(p.sl[15].vl, OQ_VL_NONE); /* VL15: dropped */
	for (s = 0; s < 16; s++)
		assert_false(p.sl[s].starve);
	/* Weighted split: SL3 weighs 3 against SL1's 1. */
	o.sl_weight[3] = 3;
	assert_int_equal(oq_predict_port(NULL, &t, 100.0, &o, &p), 0);
	assert_frac(p.sl[1].share, 1, 16);
	assert_frac(p.sl[3].share, 3, 16);
}

static void test_predict_subset_alone_starve(void **state)
{
	struct oq_port_tables t;
	struct oq_predict_opts o;
	struct oq_port_pred p;

	ca_tables(&t);
	oq_predict_opts_init(&o);
	o.mtu_bytes = 2048;
	o.active_sls = (1u << 1) | (1u << 2);
	assert_int_equal(oq_predict_port(NULL, &t, 40.0, &o, &p), 0);
	assert_frac(p.sl[1].share, 1, 2);
	assert_frac(p.sl[0].share, 0, 1);
	assert_false(p.sl[0].active);
	assert_true(p.sl[1].gbps == 20.0);

	o.scenario = OQ_SCEN_ALONE;
	o.active_sls = 0;
	assert_int_equal(oq_predict_port(NULL, &t, 40.0, &o, &p), 0);
	assert_frac(p.sl[0].share, 1, 1);
	assert_frac(p.sl[2].share, 1, 1);
	assert_frac(p.sl[5].share, 0, 1);

	o.scenario = OQ_SCEN_BACKLOG;
	t.vl_high_limit = 255;
	assert_int_equal(oq_predict_port(NULL, &t, 40.0, &o, &p), 0);
	assert_true(p.sl[1].starve);
	assert_frac(p.sl[1].share, 0, 1);
	assert_false(p.sl[0].starve);
	assert_false(p.sl[5].starve); /* in no table: none, not starved */
	/* Without high traffic there is nothing to starve it. */
	o.active_sls = 1u << 1;
	assert_int_equal(oq_predict_port(NULL, &t, 40.0, &o, &p), 0);
	assert_false(p.sl[1].starve);
	assert_frac(p.sl[1].share, 1, 1);
}

static void test_predict_switch_inputs(void **state)
{
	struct oq_node n;
	struct oq_port ports[3];
	struct oq_port_tables t;
	struct oq_predict_opts o;
	struct oq_port_pred p;
	unsigned int s;

	memset(&n, 0, sizeof(n));
	memset(ports, 0, sizeof(ports));
	n.type = OQ_NODE_SWITCH;
	n.n_ports = 2;
	n.ports = ports;
	for (s = 0; s < 3; s++) {
		ports[s].node = &n;
		ports[s].num = (uint8_t)s;
		ports[s].present = true;
	}
	ca_tables(&t);
	t.port = &ports[2];
	t.n_sl2vl = 3;
	for (s = 0; s < 16; s++) {
		sl2vl_rows[0][s] = 1;		   /* from port 0: VL1 */
		sl2vl_rows[1][s] = s == 0 ? 0 : 2; /* from port 1 */
		sl2vl_rows[2][s] = 14;		   /* own port: ignored */
	}
	oq_predict_opts_init(&o);
	o.mtu_bytes = 2048;
	o.active_sls = 0x3;
	assert_int_equal(oq_predict_port(NULL, &t, 10.0, &o, &p), 0);
	assert_int_equal(p.sl[0].vl, OQ_VL_MIXED);
	assert_int_equal(p.sl[0].vls, 0x3);
	assert_int_equal(p.sl[0].prio, OQ_PRIO_BOTH);
	/* VL0 1/2 (SL0 alone), VL1 1/4 split by SL0 and SL1, VL2 1/4 (SL1) */
	assert_frac(p.sl[0].share, 5, 8);
	assert_frac(p.sl[1].share, 3, 8);
	o.in_port = 1;
	assert_int_equal(oq_predict_port(NULL, &t, 10.0, &o, &p), 0);
	assert_int_equal(p.sl[0].vl, 0);
	assert_frac(p.sl[0].share, 1, 2);
	assert_frac(p.sl[1].share, 1, 2);
	o.in_port = 3;
	assert_int_equal(oq_predict_port(NULL, &t, 10.0, &o, &p), -1);
	o.in_port = -5;
	assert_int_equal(oq_predict_port(NULL, &t, 10.0, &o, &p), -1);
	/* Without VLArb: a single VL, SLs share equally. */
	o.in_port = 0;
	t.has_vlarb = false;
	assert_int_equal(oq_predict_port(NULL, &t, 10.0, &o, &p), 0);
	assert_int_equal(p.sl[0].prio, OQ_PRIO_NONE); /* VL1 not VL0 */
	t.has_sl2vl = false;
	assert_int_equal(oq_predict_port(NULL, &t, 10.0, &o, &p), 0);
	assert_int_equal(p.sl[0].prio, OQ_PRIO_SINGLE);
	assert_frac(p.sl[0].share, 1, 2);
}

static void test_predict_path(void **state)
{
	struct oq_port_tables a, b;
	struct oq_path_hop hops[2];
	struct oq_predict_opts o;
	struct oq_path_pred pp;
	struct oq_port_pred scratch;

	ca_tables(&a);
	b = a;
	TAB(&b.vlarb_low, 1, 32, 2, 96); /* SL1 gets 1/8 here */
	oq_predict_opts_init(&o);
	o.mtu_bytes = 2048;
	hops[0] = (struct oq_path_hop){&a, 0, 100.0};
	hops[1] = (struct oq_path_hop){&b, 0, 100.0};
	assert_int_equal(oq_predict_path(NULL, hops, 2, 1, &o, &pp, &scratch),
			 0);
	assert_int_equal(pp.bottleneck, 1);
	assert_frac(pp.share, 1, 8);
	assert_true(pp.gbps == 12.5);
	assert_false(pp.dropped);
	hops[1].rate_gbps = 400.0; /* a faster second link moves it */
	assert_int_equal(oq_predict_path(NULL, hops, 2, 1, &o, &pp, &scratch),
			 0);
	assert_int_equal(pp.bottleneck, 0);
	assert_true(pp.gbps == 25.0);
	assert_int_equal(oq_predict_path(NULL, hops, 2, 15, &o, &pp, &scratch),
			 0);
	assert_true(pp.dropped);
	assert_true(pp.gbps == 0.0);
	assert_int_equal(oq_predict_path(NULL, hops, 0, 1, &o, &pp, &scratch),
			 -1);
	assert_int_equal(oq_predict_path(NULL, hops, 2, 16, &o, &pp, &scratch),
			 -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weights_in_credits),
		cmocka_unit_test(test_packet_larger_than_weight),
		cmocka_unit_test(test_high_limit),
		cmocka_unit_test(test_vl_in_both_tables),
		cmocka_unit_test(test_repeats_zero_weights_idle),
		cmocka_unit_test(test_packet_sizes_per_vl),
		cmocka_unit_test(test_bad_config_and_cap),
		cmocka_unit_test(test_predict_all_backlogged),
		cmocka_unit_test(test_predict_subset_alone_starve),
		cmocka_unit_test(test_predict_switch_inputs),
		cmocka_unit_test(test_predict_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
