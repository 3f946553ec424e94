// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Unit tests: the directed-route SMP codec, the attribute decoders and
 * the audit's per-port comparison (contrib/osmqos/smp_*.c,
 * cmd_drift_cmp.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cmd_drift.h"
#include "smp_attrs.h"
#include "smp_tables.h"
#include "smp_transport.h"

static void test_encode_directed_route(void **state)
{
	struct oq_dr_path path;
	uint8_t mad[OQ_SMP_MAD_SIZE], data[OQ_SMP_DATA_SIZE];

	(void)state;
	assert_int_equal(oq_dr_path_parse("0,1,5", &path), 0);
	memset(data, 0xab, sizeof(data));
	oq_smp_encode(mad, OQ_SMP_METHOD_SET, 0x0102030405060708ull, &path,
		      OQ_SMP_ATTR_VLARB, 0x00030007, data);
	assert_int_equal(mad[0], 1);
	assert_int_equal(mad[1], 0x81);
	assert_int_equal(mad[2], 1);
	assert_int_equal(mad[3], OQ_SMP_METHOD_SET);
	assert_int_equal(mad[4], 0); /* outgoing: D bit clear */
	assert_int_equal(mad[6], 0); /* hop pointer */
	assert_int_equal(mad[7], 2); /* hop count */
	assert_int_equal(mad[8], 0x01);
	assert_int_equal(mad[15], 0x08);
	assert_int_equal(mad[16], 0x00);
	assert_int_equal(mad[17], 0x18);
	assert_int_equal(mad[21], 0x03);
	assert_int_equal(mad[23], 0x07);
	/* DrSLID and DrDLID permissive */
	assert_int_equal(mad[32], 0xff);
	assert_int_equal(mad[35], 0xff);
	assert_int_equal(mad[64], 0xab);
	assert_int_equal(mad[127], 0xab);
	assert_int_equal(mad[128], 0);
	assert_int_equal(mad[129], 1);
	assert_int_equal(mad[130], 5);
	assert_int_equal(mad[131], 0);
}

static void test_decode_answer(void **state)
{
	struct oq_dr_path here = {0};
	struct oq_smp_resp r;
	uint8_t mad[OQ_SMP_MAD_SIZE];

	(void)state;
	oq_smp_encode(mad, OQ_SMP_METHOD_GET, 77, &here, OQ_SMP_ATTR_PORT_INFO,
		      3, NULL);
	/* A request is not an answer. */
	assert_int_equal(oq_smp_decode(mad, sizeof(mad), &r), -1);
	mad[3] = OQ_SMP_METHOD_RESP;
	mad[4] = 0x80 | 0x00; /* direction bit: returning */
	mad[5] = 0x1c;	      /* status: attribute/modifier unsupported */
	mad[64] = 0x42;
	assert_int_equal(oq_smp_decode(mad, sizeof(mad), &r), 0);
	assert_int_equal(r.status, 0x1c); /* D bit masked off */
	assert_int_equal(r.tid, 77);
	assert_int_equal(r.attr_id, OQ_SMP_ATTR_PORT_INFO);
	assert_int_equal(r.attr_mod, 3);
	assert_int_equal(r.data[0], 0x42);
	/* Short, or another class: rejected. */
	assert_int_equal(oq_smp_decode(mad, 127, &r), -1);
	assert_int_equal(oq_smp_decode(mad, 128, &r), 0);
	mad[1] = 0x01;
	assert_int_equal(oq_smp_decode(mad, sizeof(mad), &r), -1);
}

static void test_dr_path_text(void **state)
{
	struct oq_dr_path p, q;
	char buf[300], long_path[300];
	int i;

	(void)state;
	assert_int_equal(oq_dr_path_parse("0", &p), 0);
	assert_int_equal(p.cnt, 0);
	assert_int_equal(oq_dr_path_parse("0,3,12", &p), 0);
	assert_int_equal(p.cnt, 2);
	assert_int_equal(p.p[1], 3);
	assert_int_equal(p.p[2], 12);
	oq_dr_path_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "0,3,12");
	assert_int_equal(oq_dr_path_extend(&p, 7, &q), 0);
	assert_int_equal(q.cnt, 3);
	assert_int_equal(q.p[3], 7);
	/* Bad forms. */
	assert_int_equal(oq_dr_path_parse("", &p), -1);
	assert_int_equal(oq_dr_path_parse("1,2", &p), -1);
	assert_int_equal(oq_dr_path_parse("0,0", &p), -1);
	assert_int_equal(oq_dr_path_parse("0,256", &p), -1);
	assert_int_equal(oq_dr_path_parse("0,1,", &p), -1);
	assert_int_equal(oq_dr_path_parse("0,-1", &p), -1);
	assert_int_equal(oq_dr_path_parse("0, 1", &p), -1);
	/* 63 hops fit, 64 do not. */
	strcpy(long_path, "0");
	for (i = 0; i < 63; i++)
		strcat(long_path, ",1");
	assert_int_equal(oq_dr_path_parse(long_path, &p), 0);
	assert_int_equal(p.cnt, 63);
	assert_int_equal(oq_dr_path_extend(&p, 1, &q), -1);
	strcat(long_path, ",1");
	assert_int_equal(oq_dr_path_parse(long_path, &p), -1);
}

static void test_port_info(void **state)
{
	struct oq_smp_port_info pi;
	uint8_t d[64] = {0};

	(void)state;
	d[8] = 0xfe; /* GID prefix fe80:: */
	d[9] = 0x80;
	d[16] = 0x01; /* LID 0x0123 */
	d[17] = 0x23;
	d[19] = 0x01;	  /* SM LID 1 */
	d[23] = 0x40;	  /* IsSLMappingSupported */
	d[31] = 2;	  /* 4x */
	d[32] = 0x40 | 4; /* speed supported | ACTIVE */
	d[33] = 5 << 4;	  /* LinkUp */
	d[34] = 2;	  /* LMC 2 */
	d[35] = 4 << 4;	  /* LinkSpeedActive QDR */
	d[37] = 4 << 4;	  /* VLCap VL0-7 */
	d[38] = 10;	  /* VLHighLimit */
	d[39] = 8;	  /* VLArbHighCap */
	d[40] = 16;	  /* VLArbLowCap */
	d[41] = 4;	  /* MTUCap 2048 */
	d[43] = 3 << 4;	  /* OperVLs VL0-3 */
	d[61] = 0x20;	  /* CapabilityMask2 0x0020 */
	d[62] = 2 << 4;	  /* LinkSpeedExtActive EDR */
	oq_smp_parse_port_info(d, &pi);
	assert_int_equal(pi.gid_prefix, 0xfe80000000000000ull);
	assert_int_equal(pi.lid, 0x123);
	assert_int_equal(pi.sm_lid, 1);
	assert_true(pi.cap_mask & OQ_SMP_CAP_HAS_SL_MAP);
	assert_int_equal(pi.width, 4);
	assert_int_equal(pi.port_state, 4);
	assert_int_equal(pi.phys_state, 5);
	assert_int_equal(pi.cap_mask2, 0x0020);
	assert_int_equal(pi.lmc, 2);
	/* Extended speeds count only when the port says it has them. */
	assert_int_equal(oq_smp_port_speed(&pi, pi.cap_mask), OQ_SPEED_QDR);
	/* A switch's external port: its own mask is 0, port 0's says. */
	assert_int_equal(oq_smp_port_speed(&pi, OQ_SMP_CAP_HAS_EXT_SPEEDS),
			 OQ_SPEED_EDR);
	assert_int_equal(oq_smp_port_speed(&pi, 0), OQ_SPEED_QDR);
	d[22] = 0x40; /* IsExtendedSpeedsSupported (0x4000) */
	oq_smp_parse_port_info(d, &pi);
	assert_int_equal(oq_smp_port_speed(&pi, pi.cap_mask), OQ_SPEED_EDR);
	assert_int_equal(pi.vl_cap, 8);
	assert_int_equal(pi.oper_vls, 4);
	assert_int_equal(pi.vl_high_limit, 10);
	assert_int_equal(pi.vlarb_high_cap, 8);
	assert_int_equal(pi.vlarb_low_cap, 16);
	assert_int_equal(pi.mtu_cap, 4);
	/* Out-of-range encodings decode to "unknown", never garbage. */
	d[37] = 0xf0;
	d[31] = 3;
	oq_smp_parse_port_info(d, &pi);
	assert_int_equal(pi.vl_cap, 0);
	assert_int_equal(pi.width, 0);
}

static void test_node_and_switch_info(void **state)
{
	struct oq_smp_node_info ni;
	struct oq_smp_switch_info si;
	uint8_t d[64] = {0};
	char desc[65];
	int i;

	(void)state;
	d[2] = 2;
	d[3] = 36;
	for (i = 0; i < 8; i++) {
		d[12 + i] = (uint8_t)(0x10 + i);
		d[20 + i] = (uint8_t)(0x20 + i);
	}
	d[36] = 7;
	oq_smp_parse_node_info(d, &ni);
	assert_int_equal(ni.node_type, 2);
	assert_int_equal(ni.n_ports, 36);
	assert_int_equal(ni.node_guid, 0x1011121314151617ull);
	assert_int_equal(ni.port_guid, 0x2021222324252627ull);
	assert_int_equal(ni.local_port, 7);
	memset(d, 0, sizeof(d));
	d[11] = 0x01;
	d[16] = 0x08;
	oq_smp_parse_switch_info(d, &si);
	assert_true(si.enhanced_port0);
	assert_true(si.opt_sl2vl);
	d[16] = 0xf7;
	oq_smp_parse_switch_info(d, &si);
	assert_false(si.enhanced_port0);
	/* Node descriptions: 64 bytes without NUL, control bytes masked. */
	memset(d, 'a', sizeof(d));
	d[3] = '\n';
	oq_smp_parse_node_desc(d, desc);
	assert_int_equal(strlen(desc), 64);
	assert_int_equal(desc[3], '?');
}

static void test_sl2vl_and_vlarb_blocks(void **state)
{
	uint8_t vl[16], back[64], d[64] = {0}, avl[32], aw[32];
	int i;

	(void)state;
	for (i = 0; i < 8; i++)
		d[i] = (uint8_t)((2 * i) << 4 | (15 - 2 * i));
	oq_smp_parse_sl2vl(d, vl);
	assert_int_equal(vl[0], 0);
	assert_int_equal(vl[1], 15);
	assert_int_equal(vl[14], 14);
	assert_int_equal(vl[15], 1);
	oq_smp_build_sl2vl(vl, back);
	assert_memory_equal(back, d, 8);
	memset(d, 0, sizeof(d));
	d[0] = 0xf2; /* reserved bits set: VL 2 */
	d[1] = 64;
	d[62] = 7;
	d[63] = 255;
	oq_smp_parse_vlarb(d, avl, aw);
	assert_int_equal(avl[0], 2);
	assert_int_equal(aw[0], 64);
	assert_int_equal(avl[31], 7);
	assert_int_equal(aw[31], 255);
	/* What OpenSM writes of a table: one block, or 32 + cap % 32. */
	assert_int_equal(oq_vlarb_effective_cap(0), 0);
	assert_int_equal(oq_vlarb_effective_cap(8), 8);
	assert_int_equal(oq_vlarb_effective_cap(32), 32);
	assert_int_equal(oq_vlarb_effective_cap(40), 40);
	assert_int_equal(oq_vlarb_effective_cap(64), 32);
	assert_int_equal(oq_vlarb_effective_cap(200), 32);
}

/* A switch with two ports and a CA on port 1. */
struct mini {
	struct oq_fabric *f;
	struct oq_node *sw, *ca;
};

static void mini_fabric(struct mini *m)
{
	m->f = oq_fabric_new();
	assert_non_null(m->f);
	m->sw = oq_fabric_add_node(m->f, OQ_NODE_SWITCH, 0x100, "sw1", 2);
	m->ca = oq_fabric_add_node(m->f, OQ_NODE_CA, 0x200, "h1 HCA-1", 1);
	assert_non_null(m->sw);
	assert_non_null(m->ca);
	m->ca->ports[1].guid = 0x201;
	m->ca->ports[1].lid = 2;
	m->sw->ports[0].lid = 1;
	m->sw->ports[1].guid = m->sw->ports[2].guid = 0x100;
	m->sw->ports[1].lid = m->sw->ports[2].lid = 1;
	oq_fabric_link(&m->sw->ports[1], &m->ca->ports[1]);
	m->sw->ports[2].present = true;
	assert_int_equal(oq_fabric_finalize(m->f, NULL), 0);
}

static void tables_init(struct oq_port_tables *t, const struct oq_port *p,
			unsigned int n_in)
{
	unsigned int i, sl;

	memset(t, 0, sizeof(*t));
	t->port = p;
	t->has_sl2vl = t->has_vlarb = true;
	t->n_sl2vl = (uint8_t)n_in;
	t->sl2vl = calloc(n_in, sizeof(*t->sl2vl));
	assert_non_null(t->sl2vl);
	for (i = 0; i < n_in; i++)
		for (sl = 0; sl < 16; sl++)
			t->sl2vl[i][sl] = (uint8_t)(sl % 8);
	t->vlarb_high.n = 1;
	t->vlarb_high.e[0].vl = 0;
	t->vlarb_high.e[0].weight = 255;
	t->vlarb_low.n = 3;
	t->vlarb_low.e[0].vl = 2;
	t->vlarb_low.e[0].weight = 64;
	t->vlarb_low.e[1].vl = 3;
	t->vlarb_low.e[1].weight = 32;
	t->vlarb_low.e[2].vl = 4;
	t->vlarb_low.e[2].weight = 16;
	t->vl_high_limit = 10;
}

/* What the fabric returns: the same, VLArb padded with 0:0 to its cap. */
static void readback(struct oq_port_tables *got,
		     const struct oq_port_tables *want)
{
	tables_init(got, want->port, want->n_sl2vl);
	got->vlarb_high.n = 8;
	got->vlarb_low.n = 8;
}

static void test_compare_clean(void **state)
{
	struct drift_list out = {0}, vlhl = {0};
	struct oq_port_tables want, got;
	struct mini m;

	(void)state;
	mini_fabric(&m);
	tables_init(&want, &m.sw->ports[1], 3);
	readback(&got, &want);
	assert_int_equal(drift_compare_port(&want, &got, &out, &vlhl), 0);
	assert_int_equal(out.n, 0);
	assert_int_equal(vlhl.n, 0);
	free(want.sl2vl);
	free(got.sl2vl);
	oq_fabric_free(m.f);
}

static void test_compare_finds_each_table(void **state)
{
	struct drift_list out = {0}, vlhl = {0};
	struct oq_port_tables want, got;
	struct mini m;

	(void)state;
	mini_fabric(&m);
	tables_init(&want, &m.sw->ports[1], 3);
	readback(&got, &want);
	got.sl2vl[2][5] = 15;	       /* input port 2 drops SL 5 */
	got.vlarb_low.e[0].weight = 8; /* low table changed */
	got.vlarb_high.e[5].vl = 1;    /* a stray entry past the table */
	got.vlarb_high.e[5].weight = 1;
	got.vl_high_limit = 0;
	assert_int_equal(drift_compare_port(&want, &got, &out, &vlhl), 0);
	assert_int_equal(out.n, 3);
	assert_string_equal(out.v[0].kind, "sl2vl");
	assert_ptr_equal(out.v[0].port, &m.sw->ports[1]);
	assert_int_equal(out.v[0].in_port, 2);
	assert_string_equal(out.v[0].exp_text,
			    "0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,7");
	assert_string_equal(out.v[0].got_text,
			    "0,1,2,3,4,15,6,7,0,1,2,3,4,5,6,7");
	assert_string_equal(
		out.v[0].got_json,
		"[0, 1, 2, 3, 4, 15, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7]");
	assert_string_equal(out.v[1].kind, "vlarb_high");
	assert_string_equal(out.v[1].exp_text, "0:255");
	assert_string_equal(out.v[1].got_text, "0:255,0:0,0:0,0:0,0:0,1:1");
	assert_string_equal(out.v[2].kind, "vlarb_low");
	assert_string_equal(out.v[2].exp_text, "2:64,3:32,4:16");
	assert_string_equal(out.v[2].got_text, "2:8,3:32,4:16");
	assert_string_equal(out.v[2].exp_json, "[[2, 64], [3, 32], [4, 16]]");
	/* VLHighLimit is kept apart: the caller decides if it is real. */
	assert_int_equal(vlhl.n, 1);
	assert_string_equal(vlhl.v[0].kind, "vl_high_limit");
	assert_string_equal(vlhl.v[0].exp_json, "10");
	assert_string_equal(vlhl.v[0].got_json, "0");
	drift_list_free(&out);
	drift_list_free(&vlhl);
	free(want.sl2vl);
	free(got.sl2vl);
	oq_fabric_free(m.f);
}

/* A 0-weight entry is skipped by the arbiter: one added or changed is
 * no drift; the same entries in another order are. */
static void test_compare_zero_weight(void **state)
{
	struct drift_list out = {0}, vlhl = {0};
	struct oq_port_tables want, got;
	struct mini m;

	(void)state;
	mini_fabric(&m);
	tables_init(&want, &m.sw->ports[1], 3);
	readback(&got, &want);
	got.vlarb_high.e[1].vl = 5; /* 0:255,5:0 arbitrates as 0:255 */
	got.vlarb_low.e[3].vl = 7;  /* ...,7:0 after the table */
	assert_int_equal(drift_compare_port(&want, &got, &out, &vlhl), 0);
	assert_int_equal(out.n, 0);
	got.vlarb_low.e[0] = want.vlarb_low.e[1]; /* 3:32,3:32,4:16 */
	assert_int_equal(drift_compare_port(&want, &got, &out, &vlhl), 0);
	assert_int_equal(out.n, 1);
	assert_string_equal(out.v[0].kind, "vlarb_low");
	drift_list_free(&out);
	drift_list_free(&vlhl);
	free(want.sl2vl);
	free(got.sl2vl);
	oq_fabric_free(m.f);
}

static void test_compare_ca_and_empty(void **state)
{
	struct drift_list out = {0}, vlhl = {0};
	struct oq_port_tables want, got;
	struct mini m;

	(void)state;
	mini_fabric(&m);
	tables_init(&want, &m.ca->ports[1], 1);
	readback(&got, &want);
	got.sl2vl[0][0] = 1;
	memset(&got.vlarb_low.e, 0, sizeof(got.vlarb_low.e));
	assert_int_equal(drift_compare_port(&want, &got, &out, &vlhl), 0);
	assert_int_equal(out.n, 2);
	assert_int_equal(out.v[0].in_port, -1); /* a CA has one table */
	assert_string_equal(out.v[1].got_text, "(empty)");
	assert_string_equal(out.v[1].got_json, "[]");
	drift_list_free(&out);
	/* A port without VLArb (one data VL) compares only SL2VL. */
	want.has_vlarb = got.has_vlarb = false;
	got.sl2vl[0][0] = 0;
	assert_int_equal(drift_compare_port(&want, &got, &out, &vlhl), 0);
	assert_int_equal(out.n, 0);
	free(want.sl2vl);
	free(got.sl2vl);
	oq_fabric_free(m.f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_directed_route),
		cmocka_unit_test(test_decode_answer),
		cmocka_unit_test(test_dr_path_text),
		cmocka_unit_test(test_port_info),
		cmocka_unit_test(test_node_and_switch_info),
		cmocka_unit_test(test_sl2vl_and_vlarb_blocks),
		cmocka_unit_test(test_compare_clean),
		cmocka_unit_test(test_compare_finds_each_table),
		cmocka_unit_test(test_compare_zero_weight),
		cmocka_unit_test(test_compare_ca_and_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
