// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Unit tests: the SA PathRecord / MultiPathRecord codec of osmqos query. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "sa_client.h"

static uint64_t be64_at(const uint8_t *b)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++)
		v = v << 8 | b[i];
	return v;
}

static uint16_t be16_at(const uint8_t *b)
{
	return (uint16_t)(b[0] << 8 | b[1]);
}

static void sample_rec(struct oq_path_rec *p)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->service_id = 0x1122334455667788ull;
	for (i = 0; i < 16; i++) {
		p->dgid[i] = (uint8_t)(0xd0 + i);
		p->sgid[i] = (uint8_t)(0x50 + i);
	}
	p->dlid = 0x1234;
	p->slid = 0x0042;
	p->raw_traffic = true;
	p->flow_label = 0xabcde;
	p->hop_limit = 0x3f;
	p->tclass = 0x5a;
	p->reversible = true;
	p->numb_path = 0x7f;
	p->pkey = 0xffff;
	p->qos_class = 0xfed;
	p->sl = 0xc;
	p->mtu_sel = OQ_SEL_EQ;
	p->mtu = 4;
	p->rate_sel = OQ_SEL_LT;
	p->rate = 16;
	p->pkt_life_sel = OQ_SEL_BEST;
	p->pkt_life = 19;
	p->preference = 7;
}

/* Encode then decode gives back every field, at IBA byte offsets. */
static void test_path_rec_round_trip(void **state)
{
	struct oq_path_rec a, b;
	uint8_t raw[OQ_SA_PR_SIZE];

	(void)state;
	sample_rec(&a);
	oq_path_rec_encode(&a, raw);
	assert_int_equal(be64_at(raw), 0x1122334455667788ull);
	assert_int_equal(raw[8], 0xd0); /* DGID before SGID */
	assert_int_equal(raw[24], 0x50);
	assert_int_equal(be16_at(raw + 40), 0x1234); /* DLID before SLID */
	assert_int_equal(be16_at(raw + 42), 0x0042);
	/* RawTraffic:1 FlowLabel:20 HopLimit:8 */
	assert_int_equal(raw[44], 0x80 | 0x0a);
	assert_int_equal(raw[45], 0xbc);
	assert_int_equal(raw[46], 0xde);
	assert_int_equal(raw[47], 0x3f);
	assert_int_equal(raw[49], 0xff); /* reversible + numb_path 127 */
	assert_int_equal(be16_at(raw + 52), 0xfedc); /* QoSClass:12 SL:4 */
	assert_int_equal(raw[54], 0x84);
	assert_int_equal(raw[55], 0x50);
	assert_int_equal(raw[56], 0xd3);
	assert_int_equal(raw[57], 7);
	oq_path_rec_decode(raw, &b);
	assert_memory_equal(&a, &b, sizeof(a));
}

static void test_pr_request_comp_mask(void **state)
{
	struct oq_sa_req r;
	uint8_t mad[OQ_SA_MAD_SIZE];
	uint64_t cm;
	bool ok;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.tid = 0xcafe;
	r.fields = OQ_SAF_SLID | OQ_SAF_DLID | OQ_SAF_SERVICE_ID |
		   OQ_SAF_QOS_CLASS | OQ_SAF_MTU | OQ_SAF_MTU_SEL;
	r.pr.slid = 2;
	r.pr.dlid = 3;
	cm = oq_sa_comp_mask(&r, &ok);
	assert_true(ok);
	assert_int_equal(
		cm, OQ_PR_CM_SLID | OQ_PR_CM_DLID | OQ_PR_CM_SERVICEID_MSB |
			    OQ_PR_CM_SERVICEID_LSB | OQ_PR_CM_QOS_CLASS |
			    OQ_PR_CM_MTU | OQ_PR_CM_MTUSELEC);
	assert_int_equal(oq_sa_encode(&r, mad), OQ_SA_OK);
	assert_int_equal(mad[0], 1);
	assert_int_equal(mad[1], OQ_SA_CLASS);
	assert_int_equal(mad[2], 2);
	assert_int_equal(mad[3], OQ_SA_METHOD_GET_TABLE); /* the default */
	assert_int_equal(be64_at(mad + 8), 0xcafe);
	assert_int_equal(be16_at(mad + 16), OQ_SA_ATTR_PATH_REC);
	assert_int_equal(be64_at(mad + 48), cm);
	assert_int_equal(be16_at(mad + 56 + 40), 3);
	assert_int_equal(be16_at(mad + 56 + 42), 2);
	assert_int_equal(mad[26], 0); /* PR requests are not RMPP */

	r.method = OQ_SA_METHOD_GET;
	assert_int_equal(oq_sa_encode(&r, mad), OQ_SA_OK);
	assert_int_equal(mad[3], OQ_SA_METHOD_GET);
	r.method = OQ_SA_METHOD_GET_MULTI; /* not for PathRecord */
	assert_int_equal(oq_sa_encode(&r, mad), OQ_SA_EINVAL);
}

static void test_mpr_request_layout(void **state)
{
	struct oq_sa_req r;
	uint8_t mad[OQ_SA_MAD_SIZE], *d = mad + OQ_SA_HDR_SIZE;
	uint64_t cm;
	bool ok;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.mpr = true;
	r.fields = OQ_SAF_SERVICE_ID | OQ_SAF_SL | OQ_SAF_NUMB_PATH |
		   OQ_SAF_PKEY | OQ_SAF_INDEPENDENCE;
	r.pr.service_id = 0xa1b2c3d4e5f60718ull;
	r.pr.sl = 5;
	r.pr.numb_path = 4;
	r.pr.pkey = 0x8001;
	r.independence = 1;
	r.sgid_count = 1;
	r.dgid_count = 2;
	memset(r.gids[0], 0x11, 16);
	memset(r.gids[1], 0x22, 16);
	memset(r.gids[2], 0x33, 16);
	cm = oq_sa_comp_mask(&r, &ok);
	assert_true(ok);
	assert_int_equal(cm, OQ_MPR_CM_SERVICEID_MSB | OQ_MPR_CM_SERVICEID_LSB |
				     OQ_MPR_CM_SL | OQ_MPR_CM_NUMBPATH |
				     OQ_MPR_CM_PKEY | OQ_MPR_CM_INDEPSELEC |
				     OQ_MPR_CM_SGIDCOUNT | OQ_MPR_CM_DGIDCOUNT);
	assert_int_equal(oq_sa_encode(&r, mad), OQ_SA_OK);
	assert_int_equal(mad[3], OQ_SA_METHOD_GET_MULTI);
	assert_int_equal(be16_at(mad + 16), OQ_SA_ATTR_MULTIPATH_REC);
	assert_int_equal(mad[26] & 7, 7); /* RMPP active, first, last */
	assert_int_equal(be64_at(mad + 48), cm);
	assert_int_equal(d[5], 4);		   /* num_path */
	assert_int_equal(be16_at(d + 6), 0x8001);  /* pkey */
	assert_int_equal(be16_at(d + 8) & 0xf, 5); /* sl */
	assert_int_equal(d[13], 0xa1);		   /* ServiceID top byte */
	assert_int_equal(d[14], 1);
	assert_int_equal(d[15], 1);
	assert_int_equal(d[16], 2);
	assert_int_equal(d[17], 0xb2); /* low 56 bits follow */
	assert_int_equal(d[23], 0x18);
	assert_int_equal(d[24], 0x11); /* sgids, then dgids */
	assert_int_equal(d[40], 0x22);
	assert_int_equal(d[56], 0x33);
	assert_int_equal(d[72], 0);
}

/* Each field alone, against the bit numbers of IBA 1.2.1 Tables 211 and
 * 213 (OpenSM's IB_PR_COMPMASK_* and IB_MPR_COMPMASK_*); -1: not in the
 * attribute. */
static void test_comp_mask_every_field(void **state)
{
	static const struct {
		unsigned int field;
		int pr_bit, pr_bit2, mpr_bit, mpr_bit2;
	} t[] = {
		{OQ_SAF_SERVICE_ID, 0, 1, 16, 21},
		{OQ_SAF_DGID, 2, -1, -1, -1},
		{OQ_SAF_SGID, 3, -1, -1, -1},
		{OQ_SAF_DLID, 4, -1, -1, -1},
		{OQ_SAF_SLID, 5, -1, -1, -1},
		{OQ_SAF_RAW_TRAFFIC, 6, -1, 0, -1},
		{OQ_SAF_FLOW_LABEL, 8, -1, 2, -1},
		{OQ_SAF_HOP_LIMIT, 9, -1, 3, -1},
		{OQ_SAF_TCLASS, 10, -1, 4, -1},
		{OQ_SAF_REVERSIBLE, 11, -1, 5, -1},
		{OQ_SAF_NUMB_PATH, 12, -1, 6, -1},
		{OQ_SAF_PKEY, 13, -1, 7, -1},
		{OQ_SAF_QOS_CLASS, 14, -1, 8, -1},
		{OQ_SAF_SL, 15, -1, 9, -1},
		{OQ_SAF_MTU_SEL, 16, -1, 10, -1},
		{OQ_SAF_MTU, 17, -1, 11, -1},
		{OQ_SAF_RATE_SEL, 18, -1, 12, -1},
		{OQ_SAF_RATE, 19, -1, 13, -1},
		{OQ_SAF_PKT_LIFE_SEL, 20, -1, 14, -1},
		{OQ_SAF_PKT_LIFE, 21, -1, 15, -1},
		{OQ_SAF_INDEPENDENCE, -1, -1, 17, -1},
	};
	const uint64_t counts = 1ull << 19 | 1ull << 20; /* SGID/DGIDCount */
	struct oq_sa_req r;
	uint64_t want;
	size_t i;
	bool ok;

	(void)state;
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(&r, 0, sizeof(r));
		r.fields = t[i].field;
		want = (t[i].pr_bit >= 0 ? 1ull << t[i].pr_bit : 0) |
		       (t[i].pr_bit2 >= 0 ? 1ull << t[i].pr_bit2 : 0);
		assert_int_equal(oq_sa_comp_mask(&r, &ok), want);
		assert_int_equal(ok, t[i].pr_bit >= 0);
		r.mpr = true;
		want = (t[i].mpr_bit >= 0 ? 1ull << t[i].mpr_bit : 0) |
		       (t[i].mpr_bit2 >= 0 ? 1ull << t[i].mpr_bit2 : 0);
		assert_int_equal(oq_sa_comp_mask(&r, &ok),
				 t[i].mpr_bit >= 0 ? want | counts : 0);
		assert_int_equal(ok, t[i].mpr_bit >= 0);
	}
}

/* The MultiPathRecord path fields, at their offsets (IBA Table 212). */
static void test_mpr_field_offsets(void **state)
{
	struct oq_sa_req r;
	uint8_t mad[OQ_SA_MAD_SIZE], *d = mad + OQ_SA_HDR_SIZE;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.mpr = true;
	r.sgid_count = r.dgid_count = 1;
	r.pr.raw_traffic = true;
	r.pr.flow_label = 0x12345;
	r.pr.hop_limit = 0x40;
	r.pr.tclass = 0x77;
	r.pr.reversible = true;
	r.pr.qos_class = 0xabc;
	r.pr.sl = 0xd;
	r.pr.mtu_sel = OQ_SEL_LT;
	r.pr.mtu = 5;
	r.pr.rate_sel = OQ_SEL_GT;
	r.pr.rate = 7;
	r.pr.pkt_life_sel = OQ_SEL_EQ;
	r.pr.pkt_life = 18;
	assert_int_equal(oq_sa_encode(&r, mad), OQ_SA_OK);
	assert_int_equal(d[0], 0x81); /* RawTraffic, FlowLabel 0x12345 */
	assert_int_equal(d[1], 0x23);
	assert_int_equal(d[2], 0x45);
	assert_int_equal(d[3], 0x40);
	assert_int_equal(d[4], 0x77);
	assert_int_equal(d[5], 0x80);
	assert_int_equal(be16_at(d + 8), 0xabcd);
	assert_int_equal(d[10], 0x45);
	assert_int_equal(d[11], 0x07);
	assert_int_equal(d[12], 0x92);
	assert_int_equal(be16_at(mad + 44), 25); /* 200-byte attribute */
}

static void test_encode_rejects(void **state)
{
	struct oq_sa_req r;
	uint8_t mad[OQ_SA_MAD_SIZE];
	bool ok;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.mpr = true;
	r.sgid_count = 1;
	r.dgid_count = 1;
	r.fields = OQ_SAF_SLID; /* MPR has no LIDs */
	assert_int_equal(oq_sa_comp_mask(&r, &ok), 0);
	assert_false(ok);
	assert_int_equal(oq_sa_encode(&r, mad), OQ_SA_EINVAL);
	r.fields = 0;
	r.sgid_count = 6;
	r.dgid_count = 6; /* 12 > 11 */
	assert_int_equal(oq_sa_encode(&r, mad), OQ_SA_EINVAL);
	r.sgid_count = 0;
	r.dgid_count = 1;
	assert_int_equal(oq_sa_encode(&r, mad), OQ_SA_EINVAL);
	memset(&r, 0, sizeof(r));
	r.fields = OQ_SAF_INDEPENDENCE; /* PR has no IndependenceSelector */
	assert_int_equal(oq_sa_encode(&r, mad), OQ_SA_EINVAL);
	r.fields = 1u << 30; /* unknown field bit */
	assert_int_equal(oq_sa_encode(&r, mad), OQ_SA_EINVAL);
}

/* A response MAD as OpenSM builds it: header of the request, R bit. */
static void make_resp(uint8_t *mad, size_t nrec, const struct oq_path_rec *p)
{
	size_t i;

	memset(mad, 0, OQ_SA_MAD_SIZE);
	mad[0] = 1;
	mad[1] = OQ_SA_CLASS;
	mad[2] = 2;
	mad[3] = OQ_SA_METHOD_GET_TABLE | OQ_SA_METHOD_RESP;
	mad[15] = 0x77; /* tid */
	mad[16] = 0;
	mad[17] = OQ_SA_ATTR_PATH_REC;
	mad[45] = nrec ? 8 : 0; /* attr_offset in 8-byte words */
	for (i = 0; i < nrec; i++)
		oq_path_rec_encode(&p[i], mad + OQ_SA_HDR_SIZE + i * 64);
}

static void test_decode_records(void **state)
{
	uint8_t mad[OQ_SA_MAD_SIZE];
	struct oq_path_rec p[3];
	struct oq_sa_resp r;
	int i;

	(void)state;
	for (i = 0; i < 3; i++) {
		sample_rec(&p[i]);
		p[i].dlid = (uint16_t)(10 + i);
	}
	/* Full MAD: 3 records fit in 200 bytes. */
	make_resp(mad, 3, p);
	assert_int_equal(oq_sa_decode(mad, sizeof(mad), &r), OQ_SA_OK);
	assert_int_equal(r.n, 3);
	assert_int_equal(r.tid, 0x77);
	assert_int_equal(r.status, 0);
	assert_memory_equal(&r.recs[2], &p[2], sizeof(p[2]));
	oq_sa_resp_free(&r);
	/* One record in a zero-padded 256-byte MAD: padding is dropped. */
	make_resp(mad, 1, p);
	assert_int_equal(oq_sa_decode(mad, sizeof(mad), &r), OQ_SA_OK);
	assert_int_equal(r.n, 1);
	assert_int_equal(r.recs[0].dlid, 10);
	oq_sa_resp_free(&r);
	/* A cut third record (LIDs zeroed, GIDs still there) is dropped. */
	make_resp(mad, 3, p);
	memset(mad + OQ_SA_HDR_SIZE + 2 * 64 + 40, 0, 24);
	assert_int_equal(oq_sa_decode(mad, sizeof(mad), &r), OQ_SA_OK);
	assert_int_equal(r.n, 2);
	oq_sa_resp_free(&r);
	/* ... but only at the end. */
	make_resp(mad, 3, p);
	memset(mad + OQ_SA_HDR_SIZE + 64 + 40, 0, 4);
	assert_int_equal(oq_sa_decode(mad, sizeof(mad), &r), OQ_SA_OK);
	assert_int_equal(r.n, 3);
	oq_sa_resp_free(&r);
	make_resp(mad, 1, p);
	/* The same answer in an exact-length buffer. */
	assert_int_equal(oq_sa_decode(mad, OQ_SA_HDR_SIZE + 64, &r), OQ_SA_OK);
	assert_int_equal(r.n, 1);
	oq_sa_resp_free(&r);
	/* A record cut short is not read. */
	assert_int_equal(oq_sa_decode(mad, OQ_SA_HDR_SIZE + 63, &r), OQ_SA_OK);
	assert_int_equal(r.n, 0);
	assert_null(r.recs);
	/* No records: attr_offset 0. */
	make_resp(mad, 0, p);
	assert_int_equal(oq_sa_decode(mad, sizeof(mad), &r), OQ_SA_OK);
	assert_int_equal(r.n, 0);
}

static void test_decode_error_status(void **state)
{
	uint8_t mad[OQ_SA_MAD_SIZE];
	struct oq_path_rec p;
	struct oq_sa_resp r;

	(void)state;
	sample_rec(&p);
	make_resp(mad, 1, &p);
	mad[4] = 0x03; /* ERR_NO_RECORDS, class-specific status 3 */
	assert_int_equal(oq_sa_decode(mad, sizeof(mad), &r), OQ_SA_OK);
	assert_int_equal(r.status, 0x0300);
	assert_int_equal(r.n, 0); /* an error carries no records */
	assert_string_equal(oq_sa_status_name(r.status), "ERR_NO_RECORDS");
	assert_non_null(strstr(oq_sa_status_hint(r.status), "LID"));
	assert_string_equal(oq_sa_status_name(0x0500), "ERR_REQ_INVALID_GID");
	assert_string_equal(oq_sa_status_name(0x0600),
			    "ERR_REQ_INSUFFICIENT_COMPONENTS");
	assert_string_equal(oq_sa_status_name(0x000c),
			    "ERR_METHOD_ATTR_UNSUPPORTED");
	assert_string_equal(oq_sa_status_name(0x0000), "SUCCESS");
	assert_string_equal(oq_sa_status_name(0x7f00), "ERR_SA_UNKNOWN");
	assert_string_equal(oq_sa_status_name(0x0001), "BUSY");
}

static void test_decode_malformed(void **state)
{
	uint8_t mad[OQ_SA_MAD_SIZE], bad[OQ_SA_MAD_SIZE];
	struct oq_path_rec p;
	struct oq_sa_resp r;
	size_t len;

	(void)state;
	sample_rec(&p);
	make_resp(mad, 1, &p);
	assert_int_equal(oq_sa_decode(NULL, 0, &r), OQ_SA_EMALFORMED);
	for (len = 0; len < OQ_SA_HDR_SIZE; len++)
		assert_int_equal(oq_sa_decode(mad, len, &r), OQ_SA_EMALFORMED);
	memcpy(bad, mad, sizeof(bad));
	bad[0] = 2; /* base version */
	assert_int_equal(oq_sa_decode(bad, sizeof(bad), &r), OQ_SA_EMALFORMED);
	memcpy(bad, mad, sizeof(bad));
	bad[1] = 0x81; /* not the SA class */
	assert_int_equal(oq_sa_decode(bad, sizeof(bad), &r), OQ_SA_EMALFORMED);
	memcpy(bad, mad, sizeof(bad));
	bad[3] = OQ_SA_METHOD_GET_TABLE; /* a request, not a response */
	assert_int_equal(oq_sa_decode(bad, sizeof(bad), &r), OQ_SA_EMALFORMED);
	memcpy(bad, mad, sizeof(bad));
	bad[17] = 0x11; /* NodeRecord: not what we asked for */
	assert_int_equal(oq_sa_decode(bad, sizeof(bad), &r), OQ_SA_EMALFORMED);
	memcpy(bad, mad, sizeof(bad));
	bad[45] = 4; /* records of 32 bytes cannot be PathRecords */
	assert_int_equal(oq_sa_decode(bad, sizeof(bad), &r), OQ_SA_EMALFORMED);
	memcpy(bad, mad, sizeof(bad));
	bad[44] = 0xff; /* a huge attr_offset: no record fits, none read */
	assert_int_equal(oq_sa_decode(bad, sizeof(bad), &r), OQ_SA_OK);
	assert_int_equal(r.n, 0);
}

/* Every prefix and random byte flips: never a crash (ASan/UBSan builds). */
static void test_decode_garbage(void **state)
{
	uint8_t mad[OQ_SA_MAD_SIZE];
	struct oq_path_rec p[3];
	struct oq_sa_resp r;
	unsigned int seed = 12345;
	int i, k;

	(void)state;
	for (i = 0; i < 3; i++)
		sample_rec(&p[i]);
	for (i = 0; i < 5000; i++) {
		make_resp(mad, 3, p);
		for (k = 0; k < 4; k++) {
			seed = seed * 1103515245u + 12345u;
			mad[(seed >> 8) % 64] = (uint8_t)(seed >> 20);
		}
		if (oq_sa_decode(mad, (size_t)(seed >> 4) % 257, &r) ==
		    OQ_SA_OK) {
			assert_true(r.n <= 3);
			oq_sa_resp_free(&r);
		}
	}
}

static void test_gid_parse(void **state)
{
	uint8_t gid[16];
	char buf[64];
	bool guid;

	(void)state;
	assert_int_equal(oq_sa_parse_gid("fe80::2:c903:0:1", gid, &guid), 0);
	assert_false(guid);
	assert_int_equal(gid[0], 0xfe);
	assert_int_equal(gid[15], 1);
	oq_sa_format_gid(gid, buf, sizeof(buf));
	assert_string_equal(buf, "fe80::2:c903:0:1");
	assert_int_equal(oq_sa_parse_gid("0x0002c90300000001", gid, &guid), 0);
	assert_true(guid);
	assert_int_equal(gid[0], 0);
	assert_int_equal(gid[8], 0x00);
	assert_int_equal(gid[9], 0x02);
	assert_int_equal(gid[15], 0x01);
	assert_int_equal(oq_sa_parse_gid("0x", gid, &guid), -1);
	assert_int_equal(oq_sa_parse_gid("0x12zz", gid, &guid), -1);
	assert_int_equal(oq_sa_parse_gid("fe80:::1", gid, &guid), -1);
	assert_int_equal(oq_sa_parse_gid("", gid, &guid), -1);
	assert_int_equal(oq_sa_parse_gid(NULL, gid, &guid), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_path_rec_round_trip),
		cmocka_unit_test(test_pr_request_comp_mask),
		cmocka_unit_test(test_mpr_request_layout),
		cmocka_unit_test(test_comp_mask_every_field),
		cmocka_unit_test(test_mpr_field_offsets),
		cmocka_unit_test(test_encode_rejects),
		cmocka_unit_test(test_decode_records),
		cmocka_unit_test(test_decode_error_status),
		cmocka_unit_test(test_decode_malformed),
		cmocka_unit_test(test_decode_garbage),
		cmocka_unit_test(test_gid_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
