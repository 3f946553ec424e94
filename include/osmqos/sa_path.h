/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The SA's PathRecord and MultiPathRecord answers, computed on the fabric
 * model the way OpenSM 3.3.23 computes them (osm_sa_path_record.c,
 * osm_sa_multipath_record.c), with every (source, destination) pair
 * matched against the policy separately and the QoS level applied as
 * OpenSM applies it, plus the level's path-bits, which OpenSM ignores.
 *
 * Records are built in wire format (network byte order, the layout of
 * IBA 1.2.1 15.2.5.16) so the plugin hands them to the SA unchanged and a
 * byte-for-byte comparison with stock OpenSM is meaningful.  Pure C: the
 * plugin supplies the view (one per sweep, immutable) and two callbacks.
 * See docs/sa-front.md.
 */
#ifndef OSMQOS_SA_PATH_H
#define OSMQOS_SA_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/path.h>
#include <osmqos/wire.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Record sizes and field offsets: osmqos/wire.h. */
#define OQ_SA_DATA_LEN 200 /* SA MAD payload after the SA header */

/* PathRecord component mask bits (IB_PR_COMPMASK_*, host order). */
#define OQ_PR_CM_SERVICEID_MSB	  (1ull << 0)
#define OQ_PR_CM_SERVICEID_LSB	  (1ull << 1)
#define OQ_PR_CM_DGID		  (1ull << 2)
#define OQ_PR_CM_SGID		  (1ull << 3)
#define OQ_PR_CM_DLID		  (1ull << 4)
#define OQ_PR_CM_SLID		  (1ull << 5)
#define OQ_PR_CM_RAWTRAFFIC	  (1ull << 6)
#define OQ_PR_CM_FLOWLABEL	  (1ull << 8)
#define OQ_PR_CM_HOPLIMIT	  (1ull << 9)
#define OQ_PR_CM_TCLASS		  (1ull << 10)
#define OQ_PR_CM_REVERSIBLE	  (1ull << 11)
#define OQ_PR_CM_NUMBPATH	  (1ull << 12)
#define OQ_PR_CM_PKEY		  (1ull << 13)
#define OQ_PR_CM_QOS_CLASS	  (1ull << 14)
#define OQ_PR_CM_SL		  (1ull << 15)
#define OQ_PR_CM_MTUSELEC	  (1ull << 16)
#define OQ_PR_CM_MTU		  (1ull << 17)
#define OQ_PR_CM_RATESELEC	  (1ull << 18)
#define OQ_PR_CM_RATE		  (1ull << 19)
#define OQ_PR_CM_PKTLIFETIMESELEC (1ull << 20)
#define OQ_PR_CM_PKTLIFETIME	  (1ull << 21)

/* MultiPathRecord component mask bits (IB_MPR_COMPMASK_*, host order). */
#define OQ_MPR_CM_RAWTRAFFIC	   (1ull << 0)
#define OQ_MPR_CM_FLOWLABEL	   (1ull << 2)
#define OQ_MPR_CM_HOPLIMIT	   (1ull << 3)
#define OQ_MPR_CM_TCLASS	   (1ull << 4)
#define OQ_MPR_CM_REVERSIBLE	   (1ull << 5)
#define OQ_MPR_CM_NUMBPATH	   (1ull << 6)
#define OQ_MPR_CM_PKEY		   (1ull << 7)
#define OQ_MPR_CM_QOS_CLASS	   (1ull << 8)
#define OQ_MPR_CM_SL		   (1ull << 9)
#define OQ_MPR_CM_MTUSELEC	   (1ull << 10)
#define OQ_MPR_CM_MTU		   (1ull << 11)
#define OQ_MPR_CM_RATESELEC	   (1ull << 12)
#define OQ_MPR_CM_RATE		   (1ull << 13)
#define OQ_MPR_CM_PKTLIFETIMESELEC (1ull << 14)
#define OQ_MPR_CM_PKTLIFETIME	   (1ull << 15)
#define OQ_MPR_CM_SERVICEID_MSB	   (1ull << 16)
#define OQ_MPR_CM_INDEPSELEC	   (1ull << 17)
#define OQ_MPR_CM_SGIDCOUNT	   (1ull << 19)
#define OQ_MPR_CM_DGIDCOUNT	   (1ull << 20)
#define OQ_MPR_CM_SERVICEID_LSB	   (1ull << 21)

/* A ServiceID is two mask bits; a query names it only with both. */
#define OQ_PR_CM_SERVICEID  (OQ_PR_CM_SERVICEID_MSB | OQ_PR_CM_SERVICEID_LSB)
#define OQ_MPR_CM_SERVICEID (OQ_MPR_CM_SERVICEID_MSB | OQ_MPR_CM_SERVICEID_LSB)

/* True when every bit of bits is in the component mask cm. */
static inline int oq_cm_all(uint64_t cm, uint64_t bits)
{
	return (cm & bits) == bits;
}

/* SA MAD methods and status codes, host order. */
#define OQ_SA_GET	       0x01
#define OQ_SA_GET_TABLE	       0x12
#define OQ_SA_GET_MULTI	       0x14
#define OQ_MAD_UNSUP_METHOD    0x000c
#define OQ_SA_ST_REQ_INVALID   0x0200
#define OQ_SA_ST_NO_RECORDS    0x0300
#define OQ_SA_ST_INVALID_GID   0x0500
#define OQ_SA_ST_INSUF_COMPS   0x0600

/* One port GUID the SA knows (OpenSM's alias_port_guid_tbl): a port's own
 * GUID or an alias GUID assigned to it. */
struct oq_alias {
	uint64_t guid;
	/* The end port: a CA/router port or a switch's port 0. */
	const struct oq_port *port;
};

/* Sort aliases into OpenSM's map order (keys are GUIDs in network byte
 * order compared as host integers), the order wildcard answers follow. */
void oq_alias_sort(struct oq_alias *a, size_t n);
const struct oq_alias *oq_alias_find(const struct oq_alias *a, size_t n,
				     uint64_t guid);

/* The aliases of each port: those of the port with index k are
 * aliases[ids[start[k]]] .. aliases[ids[start[k + 1] - 1]], in the
 * aliases' order.  Built once per sweep, O(aliases + ports), from the
 * view's aliases after oq_alias_sort(), whose ports are ports of the
 * view's fabric (n_ports = its n_ports).  Build overwrites *ix without
 * freeing it. */
struct oq_alias_index {
	uint32_t *start; /* n_ports + 1 */
	uint32_t *ids;
	size_t n_ports;
};

int oq_alias_index_build(const struct oq_fabric *f, struct oq_alias_index *ix,
			 const struct oq_alias *a, size_t n, size_t n_ports);
void oq_alias_index_free(struct oq_alias_index *ix);

/* What one sweep decided, as the SA needs it.  Immutable while used. */
struct oq_sa_view {
	const struct oq_fabric *fabric;
	/* SL2VL in force per port (OpenSM's cache of what ports hold); NULL
	 * when qos is off or no port drops an SL (no SL checks). */
	const struct oq_fabric_tables *sl2vl;
	const struct oq_policy *policy;	  /* NULL: no policy */
	const struct oq_matcher *matcher; /* NULL: no policy */
	const struct oq_partitions *parts; /* partition SL by P_Key */
	const struct oq_alias *aliases;	   /* sorted with oq_alias_sort() */
	size_t n_aliases;
	/* aliases by port; NULL: a query by LID scans every alias. */
	const struct oq_alias_index *alias_index;
	uint64_t subnet_prefix;
	uint8_t subnet_timeout;
	bool qos;		/* opensm.conf qos */
	bool allow_both_pkeys;	/* opensm.conf allow_both_pkeys */
	bool apply_path_bits;	/* honour levels' path-bits (osmqos) */
	uint8_t lmc;		/* opensm.conf lmc (MPR's APM hash) */
	/* opensm.conf max_rate_enum (2..24) when the SA limits record
	 * rates to it (OpenSM 3.3.24, a value below 63), in place of the
	 * 2x/HDR rate fixups; 0: no limit. */
	uint8_t max_rate_enum;
	/* The routing engine's path_sl(), NULL when it has none. */
	uint8_t (*path_sl)(void *ctx, uint8_t hint, uint16_t slid,
			   uint16_t dlid);
	void *path_sl_ctx;
};

/* Why a pair got no record (for the audit trail). */
enum oq_pr_reason {
	OQ_PR_OK = 0,
	OQ_PR_NO_PATH,	     /* no route / every SL dropped / no LID */
	OQ_PR_LEVEL_SL,	     /* level SL dropped to VL15 on the path */
	OQ_PR_SELECTOR,	     /* MTU/rate/lifetime selector not met */
	OQ_PR_PKEY,	     /* requested P_Key not shared */
	OQ_PR_LEVEL_PKEY,    /* P_Key not allowed by the level */
	OQ_PR_SL_CONFLICT,   /* requested SL differs from the level's */
	OQ_PR_SL_DROPPED,    /* chosen SL reaches VL15 */
	OQ_PR_ENGINE_SL,     /* routing engine changed a requested SL */
	OQ_PR_NOT_REVERSIBLE, /* reversible path asked for, none */
	OQ_PR_PATH_BITS,     /* no LID pair allowed by the level's path-bits */
	OQ_PR_NUMB_PATH,     /* NumbPath 0 */
};

const char *oq_pr_reason_name(enum oq_pr_reason r);

/* One (source, destination) port pair of a query, after it was decided. */
struct oq_pr_pair {
	const struct oq_alias *src, *dst;
	struct oq_decision d;	 /* the policy's decision for this pair */
	unsigned int records;	 /* records this pair contributed */
	enum oq_pr_reason reason; /* when records == 0: the last failure */
	/* The first record's values (when records > 0). */
	uint16_t slid, dlid;
	uint8_t sl, mtu, rate, pkt_life;
	uint16_t pkey;
	/* The first record's forward path (slid's port -> dlid), so a sink
	 * need not walk it again; NULL when there is no record or the
	 * caller kept none.  Valid only inside the sink's pair(). */
	const struct oq_path *path;
};

/* The caller's sinks.  record() gets each record (OQ_PR_REC_SIZE bytes for
 * PathRecord) and returns 0, or -1 to stop (out of memory); pair() is
 * told about every pair that passed the requester's P_Key visibility. */
struct oq_pr_sink {
	int (*record)(void *ctx, const uint8_t *rec);
	void (*pair)(void *ctx, const struct oq_pr_pair *p);
	void *ctx;
};

enum oq_pr_outcome {
	OQ_PR_RESPOND = 0, /* respond with the records given (maybe none) */
	OQ_PR_ERROR,	   /* respond with *status (no records) */
	OQ_PR_DELEGATE,	   /* not ours: multicast or off-subnet */
	OQ_PR_DROP,	   /* no response at all (as OpenSM) */
};

/*
 * Answer a PathRecord request.  method: SA method; comp_mask: host order;
 * pr: the 64-byte PathRecord as received; requester: the port the request
 * came from (NULL: unknown, which OpenSM drops).  *status is set with
 * OQ_PR_ERROR.
 */
enum oq_pr_outcome oq_sa_path_record(const struct oq_sa_view *v,
				     uint8_t method, uint64_t comp_mask,
				     const uint8_t *pr,
				     const struct oq_port *requester,
				     const struct oq_pr_sink *sink,
				     uint16_t *status);

/*
 * Answer a MultiPathRecord request.  data/len: the SA payload as
 * received (the 24-byte record and its GIDs; len bounds every read);
 * rmpp_active: the request's RMPP header has the Active flag (OpenSM
 * rejects MPR requests without it).  Records are PathRecords
 * (OQ_PR_REC_SIZE); the response's attribute is PathRecord.
 */
enum oq_pr_outcome oq_sa_multipath_record(const struct oq_sa_view *v,
					  uint8_t method, bool rmpp_active,
					  uint64_t comp_mask,
					  const uint8_t *data, size_t len,
					  const struct oq_port *requester,
					  const struct oq_pr_sink *sink,
					  uint16_t *status);

/* ---- Internals shared by the PathRecord and MultiPathRecord code. ---- */

/* The request fields path parameters depend on (host order). */
struct oq_pr_want {
	uint64_t comp_mask; /* PathRecord comp-mask bits (MPR translated) */
	bool raw;	    /* RawTraffic component set and bit on */
	uint16_t pkey;
	uint8_t sl;
	uint8_t mtu, mtu_sel;
	uint8_t rate, rate_sel;
	uint8_t life, life_sel;
	bool has_sid;
	uint64_t sid;
	uint16_t qos_class;
	bool mpr; /* MultiPathRecord: OpenSM does not consult path_sl() */
};

struct oq_pr_parms {
	uint8_t mtu, rate, pkt_life, sl;
	uint16_t pkey;
	bool reversible;
	unsigned int hops; /* switches after the source (MPR's APM choice) */
};

/* Decode the fields path parameters depend on from a PathRecord or a
 * MultiPathRecord (whose comp mask is translated to PathRecord bits). */
void oq_sa_want_from_pr(struct oq_pr_want *w, uint64_t comp_mask,
			const uint8_t *pr);
void oq_sa_want_from_mpr(struct oq_pr_want *w, uint64_t comp_mask,
			 const uint8_t *mpr);

/* pr_rcv_get_path_parms(): the parameters of the path src -> dlid under
 * the decision d (level -1: none).  Returns OQ_PR_OK or the reason.
 * keep: where the walk is kept (its hops), or NULL. */
enum oq_pr_reason oq_sa_path_parms(const struct oq_sa_view *v,
				   const struct oq_pr_want *w,
				   const struct oq_port *src, uint16_t slid,
				   const struct oq_port *dst, uint16_t dlid,
				   const struct oq_decision *d,
				   struct oq_pr_parms *out,
				   struct oq_path *keep);

/* The policy's decision for src -> dst under the request (no policy or
 * qos off: level -1). */
void oq_sa_decide(const struct oq_sa_view *v, const struct oq_pr_want *w,
		  const struct oq_port *src, const struct oq_port *dst,
		  struct oq_decision *d);

/* The level's path-bits allow this LID of port p (an end port with
 * LMC 0 is never restricted). */
bool oq_sa_path_bits_allow(const struct oq_sa_view *v,
			   const struct oq_decision *d,
			   const struct oq_port *p, uint16_t lid);

/* Rate of a port pair's record after OpenSM's 2x/HDR fixups. */
uint8_t oq_sa_rate_fixup(const struct oq_port *p, uint8_t rate);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_SA_PATH_H */
