/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A small SA client for `osmqos query`: PathRecord and MultiPathRecord
 * requests encoded byte by byte (IBA 1.2.1 sections 15.2.5.16 and
 * 15.2.5.20; the same layouts as OpenSM's ib_path_rec_t and
 * ib_multipath_rec_t), responses decoded defensively, and a libibumad
 * transport.  The codec is pure (no I/O) so unit tests and fuzzers can
 * drive it; only oq_sa_open/oq_sa_query/oq_sa_close touch libibumad.
 */
#ifndef OSMQOS_SA_CLIENT_H
#define OSMQOS_SA_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/sa_path.h> /* component mask bits */

#include "umad_port.h"

#define OQ_SA_MAD_SIZE	   256
#define OQ_SA_HDR_SIZE	   56 /* MAD + RMPP + SA header: records start here */
#define OQ_SA_DATA_SIZE	   200
#define OQ_SA_PR_SIZE	   OQ_PR_REC_SIZE
#define OQ_SA_MPR_MAX_GIDS 11 /* what fits in one request MAD */

#define OQ_SA_CLASS		 0x03
#define OQ_SA_CLASS_VERSION	 2
#define OQ_SA_METHOD_GET	 0x01
#define OQ_SA_METHOD_GET_TABLE	 0x12
#define OQ_SA_METHOD_GET_MULTI	 0x14
#define OQ_SA_METHOD_RESP	 0x80
#define OQ_SA_ATTR_PATH_REC	 0x0035
#define OQ_SA_ATTR_MULTIPATH_REC 0x003a

/* Which request fields are set; the encoder turns these into the
 * PathRecord or MultiPathRecord component mask (their bits differ). */
enum oq_sa_field {
	OQ_SAF_SERVICE_ID = 1u << 0,
	OQ_SAF_DGID = 1u << 1, /* PathRecord only */
	OQ_SAF_SGID = 1u << 2, /* PathRecord only */
	OQ_SAF_DLID = 1u << 3, /* PathRecord only */
	OQ_SAF_SLID = 1u << 4, /* PathRecord only */
	OQ_SAF_RAW_TRAFFIC = 1u << 5,
	OQ_SAF_FLOW_LABEL = 1u << 6,
	OQ_SAF_HOP_LIMIT = 1u << 7,
	OQ_SAF_TCLASS = 1u << 8,
	OQ_SAF_REVERSIBLE = 1u << 9,
	OQ_SAF_NUMB_PATH = 1u << 10,
	OQ_SAF_PKEY = 1u << 11,
	OQ_SAF_QOS_CLASS = 1u << 12,
	OQ_SAF_SL = 1u << 13,
	OQ_SAF_MTU = 1u << 14,
	OQ_SAF_MTU_SEL = 1u << 15,
	OQ_SAF_RATE = 1u << 16,
	OQ_SAF_RATE_SEL = 1u << 17,
	OQ_SAF_PKT_LIFE = 1u << 18,
	OQ_SAF_PKT_LIFE_SEL = 1u << 19,
	OQ_SAF_INDEPENDENCE = 1u << 20, /* MultiPathRecord only */
};

/* Rate/MTU/packet-lifetime selectors (the top two bits of the byte). */
enum oq_sa_selector {
	OQ_SEL_GT = 0,
	OQ_SEL_LT = 1,
	OQ_SEL_EQ = 2,
	OQ_SEL_BEST = 3, /* largest MTU/rate, smallest lifetime */
};

/* One PathRecord, host order, every field split out. */
struct oq_path_rec {
	uint64_t service_id;
	uint8_t dgid[16];
	uint8_t sgid[16];
	uint16_t dlid, slid;
	bool raw_traffic;
	uint32_t flow_label; /* 20 bits */
	uint8_t hop_limit;
	uint8_t tclass;
	bool reversible;
	uint8_t numb_path; /* 7 bits */
	uint16_t pkey;
	uint16_t qos_class;   /* 12 bits */
	uint8_t sl;	      /* 4 bits */
	uint8_t mtu_sel, mtu; /* selector 2 bits, value 6 bits */
	uint8_t rate_sel, rate;
	uint8_t pkt_life_sel, pkt_life;
	uint8_t preference;
};

/* A PathRecord (Get/GetTable) or MultiPathRecord (GetMulti) request. */
struct oq_sa_req {
	bool mpr;
	uint8_t method; /* 0: GetTable for PR, GetMulti for MPR */
	uint64_t tid;
	unsigned int fields;   /* OQ_SAF_* */
	struct oq_path_rec pr; /* values; gids/lids are PathRecord only */
	uint8_t independence;  /* MPR: IndependenceSelector */
	uint8_t sgid_count, dgid_count; /* MPR: sgids, then dgids */
	uint8_t gids[OQ_SA_MPR_MAX_GIDS][16];
	/* Testing an SA's error handling: send these exactly instead of
	 * what the fields imply (--comp-mask, --method, --gid-counts). */
	bool raw_comp_mask, raw_method, raw_counts;
	uint64_t comp_mask;
	uint8_t raw_sgid_count, raw_dgid_count;
};

/* A decoded response. */
struct oq_sa_resp {
	uint8_t method;
	uint16_t attr_id;
	uint64_t tid;
	uint16_t status;	  /* MAD status word, host order */
	struct oq_path_rec *recs; /* malloc'ed, n entries */
	size_t n;
	bool cut; /* transport: more records came than could be read */
};

/* Decoder results (negative: the response is unusable). */
#define OQ_SA_OK	 0
#define OQ_SA_EMALFORMED (-1) /* short, wrong class/version, bad offset */
#define OQ_SA_ENOMEM	 (-2)
#define OQ_SA_EINVAL	 (-3) /* encoder: fields the attribute cannot carry */

/* The component mask the request will carry, or 0 with *ok = false when a
 * field cannot be expressed in the chosen attribute. */
uint64_t oq_sa_comp_mask(const struct oq_sa_req *r, bool *ok);
/* Encode into mad[OQ_SA_MAD_SIZE]: OQ_SA_OK or OQ_SA_EINVAL. */
int oq_sa_encode(const struct oq_sa_req *r, uint8_t *mad);
/* Decode one PathRecord from 64 bytes; encode the reverse. */
void oq_path_rec_decode(const uint8_t *b, struct oq_path_rec *pr);
void oq_path_rec_encode(const struct oq_path_rec *pr, uint8_t *b);
/* Decode a response of len bytes.  Records past the ones the MAD
 * actually carries (a fixed-size MAD under umad2sim is zero padded) are
 * dropped.  On success the caller frees with oq_sa_resp_free. */
int oq_sa_decode(const uint8_t *mad, size_t len, struct oq_sa_resp *out);
void oq_sa_resp_free(struct oq_sa_resp *r);

/* SA status: the class-specific 7-bit code (status >> 8), IBA names
 * ("ERR_NO_RECORDS", ...), generic MAD status names otherwise. */
const char *oq_sa_status_name(uint16_t status);
/* One line about what the status usually means and what to try. */
const char *oq_sa_status_hint(uint16_t status);

/* GID text: IPv6 form, or "0x<guid>" (prefix filled by the caller). */
int oq_sa_parse_gid(const char *s, uint8_t gid[16], bool *guid_only);
void oq_sa_format_gid(const uint8_t gid[16], char *buf, size_t len);

/* Transport (libibumad). */
struct oq_sa_port {
	struct oq_umad_port u; /* the local port and the SA agent */
};

/* Open CA/port (NULL/0: the first active one) and register an SA agent.
 * On error returns -1 with a message (including what to do next) in err. */
int oq_sa_open(const char *ca, int port, struct oq_sa_port *p, char *err,
	       size_t errlen);
/* Send r to the SM's LID and wait up to timeout_ms for the matching
 * response.  Returns OQ_SA_OK (check resp->status), or -1 with err set
 * (timeout, transport failure, malformed response). */
int oq_sa_query(struct oq_sa_port *p, const struct oq_sa_req *r, int timeout_ms,
		struct oq_sa_resp *resp, char *err, size_t errlen);
void oq_sa_close(struct oq_sa_port *p);

#endif /* OSMQOS_SA_CLIENT_H */
