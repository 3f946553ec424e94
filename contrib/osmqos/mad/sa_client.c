// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SA PathRecord / MultiPathRecord codec.  Byte offsets follow IBA 1.2.1
 * (MAD header 24 bytes, RMPP header 12, SA header 20, then the record),
 * which is also the layout of OpenSM's ib_sa_mad_t, ib_path_rec_t and
 * ib_multipath_rec_t.  Everything on the wire is big endian.
 */
#include <config.h>

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/wire.h>

#include "sa_client.h"

/* RMPP header offsets (the common MAD header's are in wire.h). */
#define RMPP_VERSION	  24
#define RMPP_TYPE	  25
#define RMPP_FLAGS	  26
#define RMPP_SEG_NUM	  28
#define RMPP_PAYLEN	  32
#define SA_ATTR_OFFSET	  44
#define SA_COMP_MASK	  48

#define RMPP_TYPE_DATA	 1
#define RMPP_FLAG_ACTIVE 0x01
#define RMPP_FLAG_FIRST	 0x02
#define RMPP_FLAG_LAST	 0x04

/* A MultiPathRecord request with room for every GID a MAD holds. */
#define MPR_SIZE (OQ_MPR_REC_SIZE + 16 * OQ_SA_MPR_MAX_GIDS)

/* The fields PathRecord and MultiPathRecord share, and their mask bits. */
static const struct {
	unsigned int field;
	uint64_t pr, mpr;
} field_bits[] = {
	{OQ_SAF_SERVICE_ID, OQ_PR_CM_SERVICEID, OQ_MPR_CM_SERVICEID},
	{OQ_SAF_DGID, OQ_PR_CM_DGID, 0},
	{OQ_SAF_SGID, OQ_PR_CM_SGID, 0},
	{OQ_SAF_DLID, OQ_PR_CM_DLID, 0},
	{OQ_SAF_SLID, OQ_PR_CM_SLID, 0},
	{OQ_SAF_RAW_TRAFFIC, OQ_PR_CM_RAWTRAFFIC, OQ_MPR_CM_RAWTRAFFIC},
	{OQ_SAF_FLOW_LABEL, OQ_PR_CM_FLOWLABEL, OQ_MPR_CM_FLOWLABEL},
	{OQ_SAF_HOP_LIMIT, OQ_PR_CM_HOPLIMIT, OQ_MPR_CM_HOPLIMIT},
	{OQ_SAF_TCLASS, OQ_PR_CM_TCLASS, OQ_MPR_CM_TCLASS},
	{OQ_SAF_REVERSIBLE, OQ_PR_CM_REVERSIBLE, OQ_MPR_CM_REVERSIBLE},
	{OQ_SAF_NUMB_PATH, OQ_PR_CM_NUMBPATH, OQ_MPR_CM_NUMBPATH},
	{OQ_SAF_PKEY, OQ_PR_CM_PKEY, OQ_MPR_CM_PKEY},
	{OQ_SAF_QOS_CLASS, OQ_PR_CM_QOS_CLASS, OQ_MPR_CM_QOS_CLASS},
	{OQ_SAF_SL, OQ_PR_CM_SL, OQ_MPR_CM_SL},
	{OQ_SAF_MTU, OQ_PR_CM_MTU, OQ_MPR_CM_MTU},
	{OQ_SAF_MTU_SEL, OQ_PR_CM_MTUSELEC, OQ_MPR_CM_MTUSELEC},
	{OQ_SAF_RATE, OQ_PR_CM_RATE, OQ_MPR_CM_RATE},
	{OQ_SAF_RATE_SEL, OQ_PR_CM_RATESELEC, OQ_MPR_CM_RATESELEC},
	{OQ_SAF_PKT_LIFE, OQ_PR_CM_PKTLIFETIME, OQ_MPR_CM_PKTLIFETIME},
	{OQ_SAF_PKT_LIFE_SEL, OQ_PR_CM_PKTLIFETIMESELEC,
	 OQ_MPR_CM_PKTLIFETIMESELEC},
	{OQ_SAF_INDEPENDENCE, 0, OQ_MPR_CM_INDEPSELEC},
};

uint64_t oq_sa_comp_mask(const struct oq_sa_req *r, bool *ok)
{
	uint64_t cm = 0, bits;
	unsigned int seen = 0;
	size_t i;

	*ok = true;
	for (i = 0; i < sizeof(field_bits) / sizeof(field_bits[0]); i++) {
		if (!(r->fields & field_bits[i].field))
			continue;
		bits = r->mpr ? field_bits[i].mpr : field_bits[i].pr;
		if (!bits) {
			*ok = false;
			return 0;
		}
		cm |= bits;
		seen |= field_bits[i].field;
	}
	if (r->fields & ~seen) { /* a bit this codec does not know */
		*ok = false;
		return 0;
	}
	/* OpenSM answers ERR_REQ_INSUFFICIENT_COMPONENTS without both. */
	if (r->mpr)
		cm |= OQ_MPR_CM_SGIDCOUNT | OQ_MPR_CM_DGIDCOUNT;
	return cm;
}

static uint32_t hop_flow_raw(const struct oq_path_rec *pr)
{
	return (uint32_t)pr->raw_traffic << 31 |
	       (pr->flow_label & 0xfffff) << 8 | pr->hop_limit;
}

static uint8_t sel_byte(uint8_t sel, uint8_t v)
{
	return (uint8_t)((sel & 3) << 6 | (v & 0x3f));
}

void oq_path_rec_encode(const struct oq_path_rec *pr, uint8_t *b)
{
	memset(b, 0, OQ_SA_PR_SIZE);
	oq_put64(b + OQ_PR_OFF_SERVICE_ID, pr->service_id);
	memcpy(b + OQ_PR_OFF_DGID, pr->dgid, 16);
	memcpy(b + OQ_PR_OFF_SGID, pr->sgid, 16);
	oq_put16(b + OQ_PR_OFF_DLID, pr->dlid);
	oq_put16(b + OQ_PR_OFF_SLID, pr->slid);
	oq_put32(b + OQ_PR_OFF_HFR, hop_flow_raw(pr));
	b[OQ_PR_OFF_TCLASS] = pr->tclass;
	b[OQ_PR_OFF_NUMBPATH] =
		(uint8_t)((pr->reversible ? 0x80 : 0) | (pr->numb_path & 0x7f));
	oq_put16(b + OQ_PR_OFF_PKEY, pr->pkey);
	oq_put16(b + OQ_PR_OFF_QOS_SL,
		 (uint16_t)((pr->qos_class & 0xfff) << 4 | (pr->sl & 0xf)));
	b[OQ_PR_OFF_MTU] = sel_byte(pr->mtu_sel, pr->mtu);
	b[OQ_PR_OFF_RATE] = sel_byte(pr->rate_sel, pr->rate);
	b[OQ_PR_OFF_LIFE] = sel_byte(pr->pkt_life_sel, pr->pkt_life);
	b[OQ_PR_OFF_PREFERENCE] = pr->preference;
}

void oq_path_rec_decode(const uint8_t *b, struct oq_path_rec *pr)
{
	uint32_t hfr = oq_get32(b + OQ_PR_OFF_HFR);
	uint16_t qs = oq_get16(b + OQ_PR_OFF_QOS_SL);

	memset(pr, 0, sizeof(*pr));
	pr->service_id = oq_get64(b + OQ_PR_OFF_SERVICE_ID);
	memcpy(pr->dgid, b + OQ_PR_OFF_DGID, 16);
	memcpy(pr->sgid, b + OQ_PR_OFF_SGID, 16);
	pr->dlid = oq_get16(b + OQ_PR_OFF_DLID);
	pr->slid = oq_get16(b + OQ_PR_OFF_SLID);
	pr->raw_traffic = hfr >> 31;
	pr->flow_label = (hfr >> 8) & 0xfffff;
	pr->hop_limit = (uint8_t)hfr;
	pr->tclass = b[OQ_PR_OFF_TCLASS];
	pr->reversible = b[OQ_PR_OFF_NUMBPATH] >> 7;
	pr->numb_path = b[OQ_PR_OFF_NUMBPATH] & 0x7f;
	pr->pkey = oq_get16(b + OQ_PR_OFF_PKEY);
	pr->qos_class = qs >> 4;
	pr->sl = qs & 0xf;
	pr->mtu_sel = b[OQ_PR_OFF_MTU] >> 6;
	pr->mtu = b[OQ_PR_OFF_MTU] & 0x3f;
	pr->rate_sel = b[OQ_PR_OFF_RATE] >> 6;
	pr->rate = b[OQ_PR_OFF_RATE] & 0x3f;
	pr->pkt_life_sel = b[OQ_PR_OFF_LIFE] >> 6;
	pr->pkt_life = b[OQ_PR_OFF_LIFE] & 0x3f;
	pr->preference = b[OQ_PR_OFF_PREFERENCE];
}

static void mpr_encode(const struct oq_sa_req *r, uint8_t *d)
{
	const struct oq_path_rec *pr = &r->pr;
	unsigned int n = (unsigned int)r->sgid_count + r->dgid_count;

	oq_put32(d + OQ_MPR_OFF_HFR, hop_flow_raw(pr));
	d[OQ_MPR_OFF_TCLASS] = pr->tclass;
	d[OQ_MPR_OFF_NUMBPATH] =
		(uint8_t)((pr->reversible ? 0x80 : 0) | (pr->numb_path & 0x7f));
	oq_put16(d + OQ_MPR_OFF_PKEY, pr->pkey);
	oq_put16(d + OQ_MPR_OFF_QOS_SL,
		 (uint16_t)((pr->qos_class & 0xfff) << 4 | (pr->sl & 0xf)));
	d[OQ_MPR_OFF_MTU] = sel_byte(pr->mtu_sel, pr->mtu);
	d[OQ_MPR_OFF_RATE] = sel_byte(pr->rate_sel, pr->rate);
	d[OQ_MPR_OFF_LIFE] = sel_byte(pr->pkt_life_sel, pr->pkt_life);
	/* ServiceID is split: its top byte, then the low 56 bits. */
	d[OQ_MPR_OFF_SID_MSB] = (uint8_t)(pr->service_id >> 56);
	d[OQ_MPR_OFF_INDEPENDENCE] = r->independence;
	d[OQ_MPR_OFF_SGID_COUNT] =
		r->raw_counts ? r->raw_sgid_count : r->sgid_count;
	d[OQ_MPR_OFF_DGID_COUNT] =
		r->raw_counts ? r->raw_dgid_count : r->dgid_count;
	oq_put32(d + OQ_MPR_OFF_SID_LSB, (uint32_t)(pr->service_id >> 24));
	oq_put16(d + OQ_MPR_OFF_SID_LSB + 4, (uint16_t)(pr->service_id >> 8));
	d[OQ_MPR_OFF_SID_LSB + 6] = (uint8_t)pr->service_id;
	memcpy(d + OQ_MPR_OFF_GIDS, r->gids, (size_t)n * 16);
}

int oq_sa_encode(const struct oq_sa_req *r, uint8_t *mad)
{
	uint8_t method = r->method;
	uint64_t cm;
	bool ok;

	cm = oq_sa_comp_mask(r, &ok);
	if (!ok)
		return OQ_SA_EINVAL;
	if (r->raw_comp_mask)
		cm = r->comp_mask;
	if (r->mpr) {
		if (!r->sgid_count || !r->dgid_count ||
		    r->sgid_count + r->dgid_count > OQ_SA_MPR_MAX_GIDS)
			return OQ_SA_EINVAL;
		if (!method)
			method = OQ_SA_METHOD_GET_MULTI;
		if (method != OQ_SA_METHOD_GET_MULTI && !r->raw_method)
			return OQ_SA_EINVAL;
	} else {
		if (!method)
			method = OQ_SA_METHOD_GET_TABLE;
		if (method != OQ_SA_METHOD_GET &&
		    method != OQ_SA_METHOD_GET_TABLE && !r->raw_method)
			return OQ_SA_EINVAL;
	}
	memset(mad, 0, OQ_SA_MAD_SIZE);
	mad[OQ_MAD_BASE_VERSION] = 1;
	mad[OQ_MAD_CLASS] = OQ_SA_CLASS;
	mad[OQ_MAD_CLASS_VERSION] = OQ_SA_CLASS_VERSION;
	mad[OQ_MAD_METHOD] = method;
	oq_put64(mad + OQ_MAD_TID, r->tid);
	oq_put64(mad + SA_COMP_MASK, cm);
	if (r->mpr) {
		oq_put16(mad + OQ_MAD_ATTR_ID, OQ_SA_ATTR_MULTIPATH_REC);
		oq_put16(mad + SA_ATTR_OFFSET, MPR_SIZE / 8);
		/*
		 * GetMulti is a dual-sided RMPP request: one DATA segment,
		 * first and last.  A kernel RMPP agent takes these flags as
		 * "segment this"; OpenSM copies the header into its answer,
		 * so the GetMultiResp comes back as RMPP too.
		 */
		mad[RMPP_VERSION] = 1;
		mad[RMPP_TYPE] = RMPP_TYPE_DATA;
		mad[RMPP_FLAGS] =
			RMPP_FLAG_ACTIVE | RMPP_FLAG_FIRST | RMPP_FLAG_LAST;
		oq_put32(mad + RMPP_SEG_NUM, 1);
		oq_put32(mad + RMPP_PAYLEN, OQ_SA_MAD_SIZE - RMPP_VERSION - 12);
		mpr_encode(r, mad + OQ_SA_HDR_SIZE);
	} else {
		oq_put16(mad + OQ_MAD_ATTR_ID, OQ_SA_ATTR_PATH_REC);
		oq_put16(mad + SA_ATTR_OFFSET, OQ_SA_PR_SIZE / 8);
		oq_path_rec_encode(&r->pr, mad + OQ_SA_HDR_SIZE);
	}
	return OQ_SA_OK;
}

/* SLID and DLID of a PathRecord both zero. */
static bool lids_zero(const uint8_t *rec)
{
	return !oq_get16(rec + OQ_PR_OFF_DLID) &&
	       !oq_get16(rec + OQ_PR_OFF_SLID);
}

int oq_sa_decode(const uint8_t *mad, size_t len, struct oq_sa_resp *out)
{
	size_t attr_size, n, i;

	memset(out, 0, sizeof(*out));
	if (!mad || len < OQ_SA_HDR_SIZE)
		return OQ_SA_EMALFORMED;
	if (mad[OQ_MAD_BASE_VERSION] != 1 || mad[OQ_MAD_CLASS] != OQ_SA_CLASS ||
	    mad[OQ_MAD_CLASS_VERSION] != OQ_SA_CLASS_VERSION ||
	    !(mad[OQ_MAD_METHOD] & OQ_SA_METHOD_RESP))
		return OQ_SA_EMALFORMED;
	out->method = mad[OQ_MAD_METHOD];
	out->attr_id = oq_get16(mad + OQ_MAD_ATTR_ID);
	out->tid = oq_get64(mad + OQ_MAD_TID);
	out->status = oq_get16(mad + OQ_MAD_STATUS);
	if (out->status)
		return OQ_SA_OK; /* an error answer carries no records */
	/* MultiPathRecord answers use the PathRecord attribute ID too. */
	if (out->attr_id != OQ_SA_ATTR_PATH_REC)
		return OQ_SA_EMALFORMED;
	attr_size = (size_t)oq_get16(mad + SA_ATTR_OFFSET) * 8;
	if (!attr_size)
		return OQ_SA_OK; /* zero records */
	if (attr_size < OQ_SA_PR_SIZE)
		return OQ_SA_EMALFORMED;
	n = (len - OQ_SA_HDR_SIZE) / attr_size;
	/*
	 * A fixed 256-byte MAD (OpenSM's error and full answers, umad2sim)
	 * pads short answers with zeros.  LID 0 is reserved, so a trailing
	 * record with SLID and DLID both 0 is padding, not a path.
	 */
	while (n && lids_zero(mad + OQ_SA_HDR_SIZE + (n - 1) * attr_size))
		n--;
	if (!n)
		return OQ_SA_OK;
	out->recs = calloc(n, sizeof(*out->recs));
	if (!out->recs)
		return OQ_SA_ENOMEM;
	for (i = 0; i < n; i++)
		oq_path_rec_decode(mad + OQ_SA_HDR_SIZE + i * attr_size,
				   &out->recs[i]);
	out->n = n;
	return OQ_SA_OK;
}

void oq_sa_resp_free(struct oq_sa_resp *r)
{
	free(r->recs);
	r->recs = NULL;
	r->n = 0;
}

static const char *const sa_status_names[] = {
	[1] = "ERR_NO_RESOURCES",    [2] = "ERR_REQ_INVALID",
	[3] = "ERR_NO_RECORDS",	     [4] = "ERR_TOO_MANY_RECORDS",
	[5] = "ERR_REQ_INVALID_GID", [6] = "ERR_REQ_INSUFFICIENT_COMPONENTS",
	[7] = "ERR_REQ_DENIED",	     [8] = "ERR_PRIORITY_SUGGESTED",
};

static const char *const sa_status_hints[] = {
	[1] = "the SA ran out of resources; retry later",
	[2] = "the SA rejected the request as invalid; check the option "
	      "values (selectors, rate/MTU encodings)",
	[3] = "no path matches: check that the LIDs/GIDs exist (ibstat, "
	      "ibnetdiscover), share a partition, and meet the MTU/rate/SL "
	      "constraints",
	[4] = "more than one record for a Get; drop --get or narrow the "
	      "query",
	[5] = "a GID is unknown to the SA or has a foreign subnet prefix; "
	      "check it with ibstat or ibnetdiscover",
	[6] = "the query lacks components the SA needs (e.g. both halves "
	      "of the ServiceID); add the missing options",
	[7] = "the SA denied the request (SM_Key or policy); ask the "
	      "fabric administrator",
	[8] = "the SA suggests a different priority",
};

static const char *const mad_status_names[8] = {
	[1] = "ERR_BAD_VERSION",
	[2] = "ERR_METHOD_UNSUPPORTED",
	[3] = "ERR_METHOD_ATTR_UNSUPPORTED",
	[7] = "ERR_INVALID_ATTR_VALUE",
};

const char *oq_sa_status_name(uint16_t status)
{
	unsigned int sa = (status >> 8) & 0x7f, gen = (status >> 2) & 7;

	if (!status)
		return "SUCCESS";
	if (sa && sa < sizeof(sa_status_names) / sizeof(sa_status_names[0]))
		return sa_status_names[sa];
	if (sa)
		return "ERR_SA_UNKNOWN";
	if (gen && mad_status_names[gen])
		return mad_status_names[gen];
	if (status & 1)
		return "BUSY";
	if (status & 2)
		return "REDIRECT";
	return "ERR_UNKNOWN";
}

const char *oq_sa_status_hint(uint16_t status)
{
	unsigned int sa = (status >> 8) & 0x7f, gen = (status >> 2) & 7;

	if (sa && sa < sizeof(sa_status_hints) / sizeof(sa_status_hints[0]))
		return sa_status_hints[sa];
	if (gen == 2 || gen == 3)
		return "the SA does not support this method/attribute "
		       "(MultiPathRecord needs OpenSM built with RMPP); try "
		       "a PathRecord query";
	if (status & 1)
		return "the SA is busy; retry in a moment";
	return "check the opensm log for the rejected request";
}

int oq_sa_parse_gid(const char *s, uint8_t gid[16], bool *guid_only)
{
	struct in6_addr a;
	unsigned long long v;
	char *end;

	*guid_only = false;
	if (!s || !*s)
		return -1;
	if ((s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) && !strchr(s, ':')) {
		errno = 0;
		v = strtoull(s, &end, 16);
		if (errno || *end || end == s + 2)
			return -1;
		memset(gid, 0, 16);
		oq_put64(gid + 8, v);
		*guid_only = true;
		return 0;
	}
	if (inet_pton(AF_INET6, s, &a) != 1)
		return -1;
	memcpy(gid, &a, 16);
	return 0;
}

void oq_sa_format_gid(const uint8_t gid[16], char *buf, size_t len)
{
	if (!inet_ntop(AF_INET6, gid, buf, (socklen_t)len) && len)
		buf[0] = '\0';
}
