// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the path engine (policy/path*.c) on hand-built fabrics, for
 * the corner cases (test_path_fat_tree.c checks a whole fabric).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <osmqos/fabric.h>
#include <osmqos/path.h>

#include "osm_release_test.h"

/*
 * Line: a (CA, LID 10) -[1]sw1[2]- [1]sw2[2] - [1]sw3[2] - b (CA, LID 20)
 *       sw1 LID 1, sw2 LID 2, sw3 LID 3; sw2 port 3 unlinked, sw3 port 3
 *       to c (CA, LID 30).
 * Links: a-sw1 4xFDR, sw1-sw2 4xEDR, sw2-sw3 4xQDR, sw3-b 4xFDR,
 * sw3-c 4xFDR.  MTU caps 5 (4096) everywhere unless a test lowers one.
 */
struct line {
	struct oq_fabric *f;
	struct oq_node *a, *b, *c, *sw[3];
};

static void set_link(struct oq_port *x, struct oq_port *y, uint8_t w,
		     enum oq_speed s)
{
	oq_fabric_link(x, y);
	x->width = y->width = w;
	x->speed = y->speed = s;
}

static void caps(struct oq_node *n)
{
	unsigned int i;

	for (i = 0; i <= n->n_ports; i++)
		n->ports[i].mtu_cap = 5;
}

static struct oq_node *ca(struct oq_fabric *f, uint64_t guid, uint16_t lid)
{
	struct oq_node *n = oq_fabric_add_node(f, OQ_NODE_CA, guid, "ca", 1);

	assert_non_null(n);
	n->ports[1].guid = guid + 1;
	n->ports[1].lid = lid;
	return n;
}

static void route(struct oq_node *sw, uint16_t lid, uint8_t port)
{
	assert_int_equal(oq_node_set_lft_entry(sw, lid, port), 0);
}

static void line_build(struct line *l)
{
	static const uint16_t lids[] = {10, 20, 30, 1, 2, 3};
	unsigned int i, j;

	memset(l, 0, sizeof(*l));
	l->f = oq_fabric_new();
	assert_non_null(l->f);
	l->a = ca(l->f, 0x100, 10);
	l->b = ca(l->f, 0x200, 20);
	l->c = ca(l->f, 0x300, 30);
	for (i = 0; i < 3; i++) {
		l->sw[i] = oq_fabric_add_node(l->f, OQ_NODE_SWITCH, 0x10 + i,
					      "sw", 3);
		assert_non_null(l->sw[i]);
		l->sw[i]->ports[0].lid = (uint16_t)(i + 1);
		/* Port 0 as ibsim reports it: 4x SDR. */
		l->sw[i]->ports[0].width = 4;
		l->sw[i]->ports[0].speed = OQ_SPEED_SDR;
	}
	set_link(&l->a->ports[1], &l->sw[0]->ports[1], 4, OQ_SPEED_FDR);
	set_link(&l->sw[0]->ports[2], &l->sw[1]->ports[1], 4, OQ_SPEED_EDR);
	set_link(&l->sw[1]->ports[2], &l->sw[2]->ports[1], 4, OQ_SPEED_QDR);
	set_link(&l->sw[2]->ports[2], &l->b->ports[1], 4, OQ_SPEED_FDR);
	set_link(&l->sw[2]->ports[3], &l->c->ports[1], 4, OQ_SPEED_FDR);
	l->sw[1]->ports[3].present = true; /* no peer */
	caps(l->a);
	caps(l->b);
	caps(l->c);
	for (i = 0; i < 3; i++)
		caps(l->sw[i]);
	assert_int_equal(oq_fabric_finalize(l->f, NULL), 0);
	/* Min-hop routes: left of a switch through port 1, right through
	 * port 2 (sw3: c through 3), own LID through 0. */
	for (i = 0; i < 3; i++)
		for (j = 0; j < 6; j++) {
			uint16_t lid = lids[j];
			int pos = lid == 10 ? -1 : lid >= 20 ? 3 : lid - 1;
			uint8_t port = pos == (int)i ? 0 : pos < (int)i ? 1 : 2;

			if (i == 2 && lid == 30)
				port = 3;
			route(l->sw[i], lid, port);
		}
}

static struct oq_port *port_of(struct oq_node *n, unsigned int p)
{
	return &n->ports[p];
}

static void test_line_minima(void **state)
{
	struct line l;
	struct oq_path p;

	(void)state;
	line_build(&l);
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, &p),
		OQ_PATH_OK);
	/* FDR 4x (12, 56 Gb/s), EDR (16), QDR (7, 40 Gb/s): QDR wins. */
	assert_int_equal(p.rate, 7);
	assert_int_equal(p.mtu, 5);
	assert_int_equal(p.hops, 3);
	assert_int_equal(p.n_hop, 3);
	assert_ptr_equal(p.hop[0].in, port_of(l.sw[0], 1));
	assert_ptr_equal(p.hop[0].out, port_of(l.sw[0], 2));
	assert_ptr_equal(p.hop[1].in, port_of(l.sw[1], 1));
	assert_ptr_equal(p.hop[2].out, port_of(l.sw[2], 2));
	assert_ptr_equal(p.dst, port_of(l.b, 1));
	assert_int_equal(p.pkt_life, OQ_SUBNET_TIMEOUT_DEFAULT);
	assert_int_equal(p.sl_mask, OQ_PATH_ALL_SLS);

	/* Lower one egress MTU in the middle; the path follows. */
	port_of(l.sw[1], 2)->mtu_cap = 3;
	oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, &p);
	assert_int_equal(p.mtu, 3);
	/* The destination's cap counts too. */
	port_of(l.sw[1], 2)->mtu_cap = 5;
	port_of(l.b, 1)->mtu_cap = 2;
	oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, &p);
	assert_int_equal(p.mtu, 2);
	port_of(l.b, 1)->mtu_cap = 5;

	/* FDR everywhere except EDR core: the FDR ends decide (56). */
	port_of(l.sw[1], 2)->speed = OQ_SPEED_EDR;
	port_of(l.sw[2], 1)->speed = OQ_SPEED_EDR;
	oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, &p);
	assert_int_equal(p.rate, 12);
	oq_fabric_free(l.f);
}

static void test_switch_ends(void **state)
{
	struct line l;
	struct oq_path p;
	struct oq_path_opts o = {.subnet_timeout = 9};

	(void)state;
	line_build(&l);
	/* From sw1's port 0 (4x SDR, rate 3): OpenSM takes port 0's MTU
	 * and rate at a source switch, never its egress port's. */
	port_of(l.sw[0], 2)->mtu_cap = 1;
	port_of(l.sw[0], 0)->mtu_cap = 4;
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.sw[0], 0), 20, &o, &p),
		OQ_PATH_OK);
	assert_int_equal(p.mtu, 4);
	assert_int_equal(p.rate, 3);
	assert_int_equal(p.hops, 2);
	assert_int_equal(p.n_hop, 3);
	assert_null(p.hop[0].in);
	assert_ptr_equal(p.hop[0].out, port_of(l.sw[0], 2));
	assert_int_equal(p.pkt_life, 9);

	/* ... which a CA source through sw1 does see. */
	oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, &o, &p);
	assert_int_equal(p.mtu, 1);
	port_of(l.sw[0], 2)->mtu_cap = 5;

	/* To a switch: the path ends at its port 0, counted as a hop. */
	port_of(l.sw[2], 0)->mtu_cap = 3;
	assert_int_equal(oq_path_resolve(l.f, NULL, port_of(l.a, 1), 3, &o, &p),
			 OQ_PATH_OK);
	assert_ptr_equal(p.dst, port_of(l.sw[2], 0));
	assert_int_equal(p.hops, 3);
	assert_ptr_equal(p.hop[2].out, port_of(l.sw[2], 0));
	assert_int_equal(p.mtu, 3);
	assert_int_equal(p.rate, 3);

	/* Loopback: packet life 0, no hops. */
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.sw[1], 0), 2, &o, &p),
		OQ_PATH_OK);
	assert_int_equal(p.pkt_life, 0);
	assert_int_equal(p.hops, 0);
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.a, 1), 10, &o, &p),
		OQ_PATH_OK);
	assert_int_equal(p.pkt_life, 0);
	assert_int_equal(p.rate, 12);
	oq_fabric_free(l.f);
}

static void test_rate_order(void **state)
{
	struct line l;
	struct oq_path p;

	(void)state;
	oq_osm_release_use(&osm_3_3_23);
	/* OpenSM's order, not the nominal one. */
	assert_true(oq_path_rate_cmp(4, 15) < 0);  /* 30 "<" 25 */
	assert_true(oq_path_rate_cmp(10, 16) < 0); /* 120 "<" 100 */
	assert_true(oq_path_rate_cmp(8, 20) < 0);  /* 60 "<" 50 */
	assert_true(oq_path_rate_cmp(11, 6) < 0);  /* 14 < 20 */
	assert_int_equal(oq_path_rate_cmp(7, 7), 0);
	assert_true(oq_path_rate_cmp(0, 2) < 0);
	assert_int_equal(oq_path_rate_prev(15), 4);
	assert_int_equal(oq_path_rate_prev(3), 5);
	assert_int_equal(oq_path_rate_prev(2), 0);
	assert_int_equal(oq_path_rate_prev(99), 0);

	line_build(&l);
	/* 12x SDR (30 Gb/s) in the core, 1x EDR (25) at the ends: OpenSM
	 * keeps the 12x SDR rate as the minimum. */
	port_of(l.sw[1], 2)->width = port_of(l.sw[2], 1)->width = 12;
	port_of(l.sw[1], 2)->speed = port_of(l.sw[2], 1)->speed = OQ_SPEED_SDR;
	port_of(l.a, 1)->width = port_of(l.sw[0], 1)->width = 1;
	port_of(l.a, 1)->speed = port_of(l.sw[0], 1)->speed = OQ_SPEED_EDR;
	oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, &p);
	assert_int_equal(p.status, OQ_PATH_OK);
	assert_int_equal(p.rate, 4);
	/* FDR10 is QDR to OpenSM; unknown widths count as 1x. */
	port_of(l.a, 1)->speed = OQ_SPEED_FDR10;
	port_of(l.a, 1)->width = 4;
	assert_int_equal(oq_path_port_rate(port_of(l.a, 1)), 7);
	port_of(l.a, 1)->width = 3;
	assert_int_equal(oq_path_port_rate(port_of(l.a, 1)), 3);
	port_of(l.a, 1)->speed = (enum oq_speed)77;
	assert_int_equal(oq_path_port_rate(port_of(l.a, 1)), 2);
	oq_fabric_free(l.f);
	oq_osm_release_use(NULL);
}

/* Rates 23 and 24 and the NDR lane speed: 3.3.24's
 * ib_port_info_compute_rate() and ordered_rates[]; unknown to 3.3.23. */
static void test_rate_releases(void **state)
{
	/* NDR link rates by width: 1x 100, 2x 200, 4x 400, 8x 800, 12x
	 * 1200 Gb/s, an unknown width as 1x. */
	static const uint8_t widths[] = {1, 2, 4, 8, 12, 3};
	static const uint8_t ndr[] = {16, 17, 21, 23, 24, 16};
	struct oq_port port;
	size_t i;

	(void)state;
	memset(&port, 0, sizeof(port));
	port.speed = OQ_SPEED_NDR;
	oq_osm_release_use(&osm_3_3_23);
	/* Above IB_MAX_RATE (22): outside the order, below everything. */
	assert_true(oq_path_rate_cmp(22, 23) > 0);
	assert_true(oq_path_rate_cmp(2, 24) > 0);
	assert_int_equal(oq_path_rate_cmp(23, 24), 0);
	assert_int_equal(oq_path_rate_prev(23), 0);
	assert_int_equal(oq_path_rate_prev(22), 21);
	for (i = 0; i < sizeof(widths); i++) {
		port.width = widths[i];
		assert_int_equal(oq_path_port_rate(&port), 2);
	}
	oq_osm_release_use(&osm_3_3_24);
	assert_true(oq_path_rate_cmp(22, 23) < 0);
	assert_true(oq_path_rate_cmp(23, 24) < 0);
	assert_true(oq_path_rate_cmp(24, 25) > 0); /* 25: unknown */
	assert_int_equal(oq_path_rate_prev(24), 23);
	assert_int_equal(oq_path_rate_prev(23), 22);
	assert_int_equal(oq_path_rate_prev(15), 4); /* the order is kept */
	for (i = 0; i < sizeof(widths); i++) {
		port.width = widths[i];
		assert_int_equal(oq_path_port_rate(&port), ndr[i]);
	}
	port.speed = OQ_SPEED_HDR;
	port.width = 12;
	assert_int_equal(oq_path_port_rate(&port), 22);
	oq_osm_release_use(NULL);
}

/*
 * osm_sa_limit_rate() (3.3.24): worked cases, then every rate and limit
 * against what the code must do, stated without its loop: a rate whose
 * enum is at most the limit's passes; another becomes the highest rate
 * below it in OpenSM's order whose enum and rank are both at most the
 * limit's (2.5 Gb/s, which always is, at the bottom).
 */
static void test_rate_limit(void **state)
{
	unsigned int rate, limit, r;

	(void)state;
	oq_osm_release_use(&osm_3_3_24);
	assert_int_equal(oq_path_rate_limit(16, 12), 12); /* 100 -> 56 */
	assert_int_equal(oq_path_rate_limit(12, 7), 7);	  /* 56 -> 40 */
	assert_int_equal(oq_path_rate_limit(16, 15), 15); /* 100 -> 25 */
	assert_int_equal(oq_path_rate_limit(17, 16), 16); /* 200 -> 100 */
	assert_int_equal(oq_path_rate_limit(21, 20), 20); /* 400 -> 50 */
	assert_int_equal(oq_path_rate_limit(24, 23), 23); /* 1200 -> 800 */
	assert_int_equal(oq_path_rate_limit(24, 18), 18); /* 1200 -> 300 */
	assert_int_equal(oq_path_rate_limit(3, 2), 2);	  /* 10 -> 2.5 */
	/* Enums at or below the limit's pass, however fast: 40 Gb/s (7)
	 * under 14 (11), 30 (4) under 25 (15). */
	assert_int_equal(oq_path_rate_limit(7, 11), 7);
	assert_int_equal(oq_path_rate_limit(4, 15), 4);
	assert_int_equal(oq_path_rate_limit(7, 7), 7);
	/* 56 Gb/s under 14: 50 (20) and 60 (8) have enums above 11, and
	 * 14 Gb/s is the first below 56 with both. */
	assert_int_equal(oq_path_rate_limit(12, 11), 11);

	for (rate = 2; rate <= 24; rate++)
		for (limit = 2; limit <= 24; limit++) {
			unsigned int want = 2;

			if (limit >= rate) {
				want = rate;
			} else {
				for (r = 2; r <= 24; r++)
					if (r <= limit &&
					    oq_path_rate_cmp(r, rate) < 0 &&
					    oq_path_rate_cmp(r, limit) <= 0 &&
					    oq_path_rate_cmp(r, want) > 0)
						want = r;
			}
			if (oq_path_rate_limit(rate, limit) != want)
				fail_msg("limit %u: rate %u gave %u, want %u",
					 limit, rate,
					 oq_path_rate_limit(rate, limit), want);
		}
	oq_osm_release_use(NULL);
}

/* SL2VL tables for every port of f: all SLs to VL0 (identity-free). */
static void tables_new(struct oq_fabric *f, struct oq_fabric_tables *t)
{
	union oq_sl2vl_scratch sc;
	size_t i;

	memset(t, 0, sizeof(*t));
	memset(&sc, 0, sizeof(sc));
	t->n = f->n_ports;
	t->ports = calloc(t->n, sizeof(*t->ports));
	assert_non_null(t->ports);
	for (i = 0; i < t->n; i++) {
		const struct oq_port *p = f->ports[i];
		struct oq_port_tables *pt = &t->ports[i];
		unsigned int n = p->node->type == OQ_NODE_SWITCH && p->num
					 ? p->node->n_ports + 1u
					 : 1;

		pt->port = p;
		pt->has_sl2vl = true;
		assert_int_equal(
			oq_port_tables_set_sl2vl(
				t, pt, (const uint8_t(*)[16])sc.row, n),
			0);
	}
}

/* p's row for input port in sends sl to VL15 (new rows for p alone). */
static void drop(const struct oq_fabric *f, struct oq_fabric_tables *t,
		 const struct oq_port *p, unsigned int in, unsigned int sl)
{
	struct oq_port_tables *pt = &t->ports[oq_port_index(f, p)];
	union oq_sl2vl_scratch sc;

	memcpy(sc.row, pt->sl2vl, 16 * (size_t)pt->n_sl2vl);
	sc.row[in][sl] = OQ_VL_DROP;
	assert_int_equal(oq_port_tables_set_sl2vl(t, pt,
						  (const uint8_t(*)[16])sc.row,
						  pt->n_sl2vl),
			 0);
}

static bool no_drop(const struct oq_fabric *f, const struct oq_fabric_tables *t,
		    const struct oq_port *p)
{
	return oq_fabric_tables_no_drop(t, oq_port_index(f, p));
}

static void test_vl15_hops(void **state)
{
	struct oq_fabric_tables t;
	struct line l;
	struct oq_path p;
	unsigned int sl;

	(void)state;
	line_build(&l);
	tables_new(l.f, &t);
	/* sw2's egress 2 drops SL 3 for traffic entering by port 1 (ours),
	 * SL 4 for port 3 (not ours). */
	drop(l.f, &t, port_of(l.sw[1], 2), 1, 3);
	drop(l.f, &t, port_of(l.sw[1], 2), 3, 4);
	/* The source CA drops SL 5 (its single table, in port 0). */
	drop(l.f, &t, port_of(l.a, 1), 0, 5);
	assert_int_equal(
		oq_path_resolve(l.f, &t, port_of(l.a, 1), 20, NULL, &p),
		OQ_PATH_OK);
	assert_int_equal(p.sl_mask, 0xffff & ~(1u << 3) & ~(1u << 5));
	/* NULL tables: no SL checks (qos FALSE). */
	oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, &p);
	assert_int_equal(p.sl_mask, OQ_PATH_ALL_SLS);

	/* A source switch reads its egress table with in port 0. */
	drop(l.f, &t, port_of(l.sw[0], 2), 0, 7);
	drop(l.f, &t, port_of(l.sw[0], 2), 1, 8);
	oq_path_resolve(l.f, &t, port_of(l.sw[0], 0), 20, NULL, &p);
	assert_int_equal(p.status, OQ_PATH_OK);
	assert_int_equal(p.sl_mask, 0xffff & ~(1u << 3) & ~(1u << 7));
	/* ... and a CA source crosses sw1 by port 1: SL 8, not 7. */
	oq_path_resolve(l.f, &t, port_of(l.a, 1), 20, NULL, &p);
	assert_int_equal(p.sl_mask,
			 0xffff & ~(1u << 3) & ~(1u << 5) & ~(1u << 8));

	/* The same masks with the per-port summary: the three ports with a
	 * VL15 row are read, every other port passed by its bit. */
	assert_int_equal(oq_fabric_tables_index_drops(&t), 0);
	assert_false(no_drop(l.f, &t, port_of(l.sw[1], 2)));
	assert_false(no_drop(l.f, &t, port_of(l.sw[0], 2)));
	assert_false(no_drop(l.f, &t, port_of(l.a, 1)));
	assert_true(no_drop(l.f, &t, port_of(l.sw[1], 1)));
	assert_true(no_drop(l.f, &t, port_of(l.sw[0], 0)));
	assert_true(no_drop(l.f, &t, port_of(l.b, 1)));
	oq_path_resolve(l.f, &t, port_of(l.a, 1), 20, NULL, &p);
	assert_int_equal(p.sl_mask,
			 0xffff & ~(1u << 3) & ~(1u << 5) & ~(1u << 8));
	oq_path_resolve(l.f, &t, port_of(l.sw[0], 0), 20, NULL, &p);
	assert_int_equal(p.sl_mask, 0xffff & ~(1u << 3) & ~(1u << 7));
	/* The rows change below: the summary would be stale (new rows come
	 * without drop masks). */
	free(t.no_drop);
	t.no_drop = NULL;

	/* A base switch port 0 keeps OpenSM's zeroed table: no drops. */
	drop(l.f, &t, port_of(l.sw[2], 0), 0, 9);
	oq_path_resolve(l.f, &t, port_of(l.b, 1), 3, NULL, &p);
	assert_int_equal(p.status, OQ_PATH_OK);
	assert_true(p.sl_mask & (1u << 9));
	l.sw[2]->enhanced_port0 = true;
	oq_path_resolve(l.f, &t, port_of(l.b, 1), 3, NULL, &p);
	assert_false(p.sl_mask & (1u << 9));

	/* Every SL dropped somewhere: no path. */
	for (sl = 0; sl < 16; sl++)
		drop(l.f, &t, port_of(l.sw[2], 2), 1, sl);
	assert_int_equal(
		oq_path_resolve(l.f, &t, port_of(l.a, 1), 20, NULL, &p),
		OQ_PATH_NO_SL);
	assert_ptr_equal(p.stuck, l.sw[2]);
	oq_fabric_tables_free(&t);
	oq_fabric_free(l.f);
}

static void test_unreachable(void **state)
{
	struct line l;
	struct oq_path p;

	(void)state;
	line_build(&l);
	/* No such LID, walked into a struct that held a good walk: nothing
	 * of that one is left (the hop array aside, which only n_hop
	 * entries of are ever read). */
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, &p),
		OQ_PATH_OK);
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.a, 1), 99, NULL, &p),
		OQ_PATH_NO_DEST);
	assert_int_equal(p.status, OQ_PATH_NO_DEST);
	assert_ptr_equal(p.src, port_of(l.a, 1));
	assert_null(p.dst);
	assert_null(p.stuck);
	assert_int_equal(p.dlid, 99);
	assert_int_equal(p.hops, 0);
	assert_int_equal(p.n_hop, 0);
	assert_int_equal(p.mtu, 0);
	assert_int_equal(p.rate, 0);
	assert_int_equal(p.pkt_life, 0);
	assert_int_equal(p.sl_mask, OQ_PATH_ALL_SLS);
	/* No source at all: no source either. */
	assert_int_equal(oq_path_resolve(l.f, NULL, NULL, 20, NULL, &p),
			 OQ_PATH_INVALID);
	assert_null(p.src);
	assert_null(p.dst);
	assert_int_equal(p.dlid, 20);
	/* sw2 has no route for b. */
	route(l.sw[1], 20, OQ_LFT_NONE);
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, &p),
		OQ_PATH_NO_ROUTE);
	assert_ptr_equal(p.stuck, l.sw[1]);
	/* ... or routes it to a port that does not exist. */
	route(l.sw[1], 20, 9);
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, &p),
		OQ_PATH_NO_ROUTE);
	/* ... or to its unlinked port 3. */
	route(l.sw[1], 20, 3);
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, &p),
		OQ_PATH_DEAD_LINK);
	assert_ptr_equal(p.stuck, l.sw[1]);
	route(l.sw[1], 20, 2);
	/* sw3 sends b's traffic to c: a wrong end port. */
	route(l.sw[2], 20, 3);
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, &p),
		OQ_PATH_BAD_PATH);
	assert_ptr_equal(p.stuck, l.c);
	/* A source switch without a route; a destination switch whose LFT
	 * lacks its own LID. */
	route(l.sw[0], 30, OQ_LFT_NONE);
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.sw[0], 0), 30, NULL, &p),
		OQ_PATH_NO_ROUTE);
	assert_ptr_equal(p.stuck, l.sw[0]);
	route(l.sw[2], 3, OQ_LFT_NONE);
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.a, 1), 3, NULL, &p),
		OQ_PATH_NO_ROUTE);
	assert_ptr_equal(p.stuck, l.sw[2]);
	oq_fabric_free(l.f);
}

static void test_loop(void **state)
{
	struct line l;
	struct oq_path p;

	(void)state;
	line_build(&l);
	/* sw2 sends b's LID back to sw1, which sends it to sw2 again. */
	route(l.sw[1], 20, 1);
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, &p),
		OQ_PATH_TOO_LONG);
	assert_int_equal(p.hops, OQ_PATH_MAX_HOPS + 1);
	assert_true(p.n_hop <= OQ_PATH_MAX_HOPS + 1);
	assert_non_null(p.stuck);
	assert_string_equal(oq_path_status_name(p.status),
			    "more than 64 hops (routing loop)");
	oq_fabric_free(l.f);
}

static void test_bad_input(void **state)
{
	struct line l;
	struct oq_path p;
	uint8_t lft[4] = {0, 1, 2, 3};

	(void)state;
	line_build(&l);
	assert_int_equal(
		oq_path_resolve(NULL, NULL, port_of(l.a, 1), 20, NULL, &p),
		OQ_PATH_INVALID);
	assert_int_equal(oq_path_resolve(l.f, NULL, NULL, 20, NULL, &p),
			 OQ_PATH_INVALID);
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.a, 1), 20, NULL, NULL),
		OQ_PATH_INVALID);
	/* A switch external port is not an end port. */
	assert_int_equal(
		oq_path_resolve(l.f, NULL, port_of(l.sw[0], 1), 20, NULL, &p),
		OQ_PATH_INVALID);
	assert_string_equal(oq_path_status_name((enum oq_path_status)99),
			    "unknown");
	/* LFT setters. */
	assert_int_equal(oq_node_set_lft(l.a, lft, 4), -EINVAL);
	assert_int_equal(oq_node_set_lft_entry(l.a, 1, 1), -EINVAL);
	assert_int_equal(oq_node_set_lft(l.sw[0], NULL, 4), -EINVAL);
	assert_int_equal(oq_node_set_lft(l.sw[0], lft, 65537), -EINVAL);
	assert_int_equal(oq_node_set_lft(l.sw[0], lft, 4), 0);
	assert_int_equal(oq_node_lft_port(l.f, l.sw[0], 3), 3);
	assert_int_equal(oq_node_lft_port(l.f, l.sw[0], 4), OQ_LFT_NONE);
	assert_int_equal(oq_node_lft_port(l.f, NULL, 4), OQ_LFT_NONE);
	assert_int_equal(oq_node_set_lft_entry(l.sw[0], 200, 2), 0);
	assert_int_equal(oq_node_lft_port(l.f, l.sw[0], 199), OQ_LFT_NONE);
	assert_int_equal(oq_node_lft_port(l.f, l.sw[0], 200), 2);
	assert_int_equal(oq_node_lft_port(l.f, l.sw[0], 2), 2);
	assert_int_equal(oq_node_set_lft(l.sw[0], NULL, 0), 0);
	assert_int_equal(oq_node_lft_port(l.f, l.sw[0], 2), OQ_LFT_NONE);
	oq_fabric_free(l.f);
}

/* Two CAs with partition tables, for the pkey rules. */
static void pkey_ports(struct oq_fabric **f, struct oq_port **a,
		       struct oq_port **b)
{
	struct oq_node *x, *y;

	*f = oq_fabric_new();
	x = ca(*f, 0x100, 1);
	y = ca(*f, 0x200, 2);
	oq_fabric_link(&x->ports[1], &y->ports[1]);
	assert_int_equal(oq_fabric_finalize(*f, NULL), 0);
	*a = &x->ports[1];
	*b = &y->ports[1];
}

static void set_pkeys(struct oq_port *p, const uint16_t *v, size_t n)
{
	assert_int_equal(oq_port_set_pkeys(p, v, n), 0);
}

static void test_pkey_rules(void **state)
{
	static const uint16_t full1[] = {0x8001}, lim1[] = {0x0001},
			      full2[] = {0x8002}, both[] = {0x0001, 0x8001},
			      many_a[] = {0x8001, 0xffff, 0x8100},
			      many_b[] = {0x0100, 0x7fff, 0x0001},
			      zero[] = {0x0000, 0x8000};
	struct oq_fabric *f;
	struct oq_port *a, *b;
	uint16_t k;

	(void)state;
	pkey_ports(&f, &a, &b);
	/* full/full, full/limited share; limited/limited does not. */
	set_pkeys(a, full1, 1);
	set_pkeys(b, full1, 1);
	assert_true(oq_ports_share_pkey(f, a, b, 0, &k));
	assert_int_equal(k, 0x8001);
	assert_true(oq_ports_share_pkey(f, a, b, 0x0001, &k));
	assert_int_equal(k, 0x0001); /* the requested key comes back */
	set_pkeys(b, lim1, 1);
	assert_true(oq_ports_share_pkey(f, a, b, 0, &k));
	assert_int_equal(k, 0x8001); /* a's entry */
	assert_true(oq_ports_share_pkey(f, b, a, 0, &k));
	assert_int_equal(k, 0x0001); /* b's entry, limited */
	assert_true(oq_ports_share_pkey(f, a, b, 0x8001, NULL));
	set_pkeys(a, lim1, 1);
	k = 0x1234;
	assert_false(oq_ports_share_pkey(f, a, b, 0, &k));
	assert_int_equal(k, 0);
	assert_false(oq_ports_share_pkey(f, a, b, 0x0001, NULL));
	assert_false(oq_ports_pkey_visible(f, a, b, false));
	assert_true(oq_ports_pkey_visible(f, a, a, false));
	/* Different keys: nothing shared. */
	set_pkeys(a, full1, 1);
	set_pkeys(b, full2, 1);
	assert_false(oq_ports_share_pkey(f, a, b, 0, NULL));
	assert_false(oq_ports_share_pkey(f, a, b, 0x0002, NULL));
	/* An empty table (or only invalid keys) is not checked for
	 * visibility, but shares no key. */
	set_pkeys(b, zero, 2);
	assert_true(oq_ports_pkey_visible(f, a, b, false));
	assert_false(oq_ports_share_pkey(f, a, b, 0, NULL));
	set_pkeys(b, NULL, 0);
	assert_true(oq_ports_pkey_visible(f, a, b, false));

	/* Limited and full of one key on a, limited on b.  Without
	 * allow_both_pkeys the full entry wins on a: shared.  With it, the
	 * first pass pairs the limited entries (no match) and the second
	 * finds a's full entry. */
	set_pkeys(a, both, 2);
	set_pkeys(b, lim1, 1);
	assert_true(oq_ports_share_pkey_ex(f, a, b, 0, false, &k));
	assert_int_equal(k, 0x8001);
	assert_true(oq_ports_share_pkey_ex(f, a, b, 0, true, &k));
	assert_int_equal(k, 0x8001);
	assert_true(oq_ports_share_pkey_ex(f, b, a, 0, true, &k));
	assert_int_equal(k, 0x0001);
	assert_true(oq_ports_share_pkey_ex(f, a, b, 0x0001, true, NULL));
	set_pkeys(a, lim1, 1);
	assert_false(oq_ports_share_pkey_ex(f, a, b, 0, true, NULL));
	assert_false(oq_ports_share_pkey_ex(f, a, b, 0x8001, true, NULL));

	/* Several shared keys: OpenSM's map order (network byte order read
	 * as a little-endian integer) puts 0x0100 before 0x0001 and both
	 * before 0x7fff. */
	set_pkeys(a, many_a, 3);
	set_pkeys(b, many_b, 3);
	assert_true(oq_ports_share_pkey(f, a, b, 0, &k));
	assert_int_equal(k, 0x8100);
	assert_true(oq_ports_share_pkey(f, b, a, 0, &k));
	assert_int_equal(k, 0x0100);
	assert_false(oq_ports_share_pkey(f, NULL, b, 0, NULL));
	assert_false(oq_ports_pkey_visible(f, a, NULL, false));
	oq_fabric_free(f);
}

static uint64_t pk_rng(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* Tables of up to 16 keys are sorted on the stack, larger ones on the
 * heap: the same keys padded past 16 entries with copies of themselves
 * and invalid entries (0x0000, 0x8000: not in OpenSM's map), shuffled,
 * must give the same answers. */
static void test_pkey_table_sizes(void **state)
{
	struct oq_fabric *f;
	struct oq_port *a, *b;
	uint64_t rng = 0x2545f4914f6cdd1dull;
	int iter, checked = 0;

	(void)state;
	pkey_ports(&f, &a, &b);
	for (iter = 0; iter < 2000; iter++) {
		uint16_t ka[40], kb[40], pa[40];
		size_t na = 1 + pk_rng(&rng) % 12, nb = 1 + pk_rng(&rng) % 12;
		size_t np = 17 + pk_rng(&rng) % 23, i;
		bool both = pk_rng(&rng) & 1;
		uint16_t want = pk_rng(&rng) % 3 ? 0 : 1 + pk_rng(&rng) % 6;
		uint16_t k1, k2;
		bool s1, s2, v1, v2;

		for (i = 0; i < na; i++)
			ka[i] = (uint16_t)(1 + pk_rng(&rng) % 6) |
				(pk_rng(&rng) & 1 ? 0x8000 : 0);
		for (i = 0; i < nb; i++)
			kb[i] = (uint16_t)(1 + pk_rng(&rng) % 6) |
				(pk_rng(&rng) & 1 ? 0x8000 : 0);
		for (i = 0; i < np; i++)
			pa[i] = i < na ? ka[i]
				: pk_rng(&rng) % 4
					? ka[pk_rng(&rng) % na]
					: (pk_rng(&rng) & 1 ? 0x8000 : 0);
		for (i = np - 1; i > 0; i--) {
			size_t j = pk_rng(&rng) % (i + 1);
			uint16_t t = pa[i];

			pa[i] = pa[j];
			pa[j] = t;
		}
		set_pkeys(b, kb, nb);
		set_pkeys(a, ka, na);
		s1 = oq_ports_share_pkey_ex(f, a, b, want, both, &k1);
		v1 = oq_ports_pkey_visible(f, a, b, both);
		set_pkeys(a, pa, np);
		s2 = oq_ports_share_pkey_ex(f, a, b, want, both, &k2);
		v2 = oq_ports_pkey_visible(f, a, b, both);
		assert_int_equal(s1, s2);
		assert_int_equal(k1, k2);
		assert_int_equal(v1, v2);
		s1 = oq_ports_share_pkey_ex(f, b, a, want, both, &k1);
		set_pkeys(a, ka, na);
		s2 = oq_ports_share_pkey_ex(f, b, a, want, both, &k2);
		assert_int_equal(s1, s2);
		assert_int_equal(k1, k2);
		checked += s1;
	}
	assert_true(checked > 200); /* shared keys were found, not only none */
	oq_fabric_free(f);
}

static void test_lmc_pairs(void **state)
{
	struct oq_lid_pair v[16];
	struct oq_fabric *f;
	struct oq_port *a, *b;
	size_t n;

	(void)state;
	pkey_ports(&f, &a, &b);
	a->lid = 4;
	a->lmc = 1;
	b->lid = 8;
	b->lmc = 2;
	n = oq_path_lid_pairs(a, b, 0, 0, v, 16);
	assert_int_equal(n, 8);
	/* Redundant pairs first. */
	assert_int_equal(v[0].slid, 4);
	assert_int_equal(v[0].dlid, 8);
	assert_int_equal(v[0].preference, 0);
	assert_int_equal(v[1].slid, 5);
	assert_int_equal(v[1].dlid, 9);
	assert_int_equal(v[1].preference, 0);
	/* Then the rest in OpenSM's order, skipping the diagonal. */
	assert_int_equal(v[2].slid, 4);
	assert_int_equal(v[2].dlid, 9);
	assert_int_equal(v[2].preference, 2);
	assert_int_equal(v[4].dlid, 11);
	assert_int_equal(v[5].slid, 5);
	assert_int_equal(v[5].dlid, 8);
	assert_int_equal(v[6].dlid, 10);
	assert_int_equal(v[7].dlid, 11);
	/* Fixed DLID; truncation reports the full count. */
	n = oq_path_lid_pairs(a, b, 0, 10, v, 1);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].slid, 4);
	assert_int_equal(v[0].dlid, 10);
	/* LMC 0 both ends: one pair; LID 0: none. */
	a->lmc = b->lmc = 0;
	assert_int_equal(oq_path_lid_pairs(a, b, 0, 0, v, 16), 1);
	a->lid = 0;
	assert_int_equal(oq_path_lid_pairs(a, b, 0, 0, v, 16), 0);
	assert_int_equal(oq_path_lid_pairs(NULL, b, 0, 0, v, 16), 0);
	oq_fabric_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_minima),
		cmocka_unit_test(test_switch_ends),
		cmocka_unit_test(test_rate_order),
		cmocka_unit_test(test_rate_releases),
		cmocka_unit_test(test_rate_limit),
		cmocka_unit_test(test_vl15_hops),
		cmocka_unit_test(test_unreachable),
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_pkey_rules),
		cmocka_unit_test(test_pkey_table_sizes),
		cmocka_unit_test(test_lmc_pairs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
