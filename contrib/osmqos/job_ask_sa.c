// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What the SA grants a job's pairs, live: one SubnAdmGet(PathRecord) per
 * question through the CLI's SA client (mad/sa_client.h), the same
 * request `osmqos query --get --sgid --dgid` sends; and the local port's
 * P_Key index by a directed-route SMP (NCCL takes an index, not a P_Key).
 * After a denial, NodeInfo SMPs along the fabric file's links tell a
 * denied pair from an end the subnet does not have.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "job_ask.h"
#include "mad/sa_client.h"
#include "mad/smp_attrs.h"
#include "mad/smp_transport.h"

#define SA_NO_RECORDS	    3 /* the SA status code of ERR_NO_RECORDS */
#define SMP_ATTR_PKEY_TABLE 0x0016
#define PKEY_BLOCKS_MAX	    64 /* 2048 entries: more than any HCA has */

static void gid_of(uint64_t prefix, uint64_t guid, uint8_t gid[16])
{
	int i;

	for (i = 0; i < 8; i++) {
		gid[i] = (uint8_t)(prefix >> (56 - 8 * i));
		gid[8 + i] = (uint8_t)(guid >> (56 - 8 * i));
	}
}

static void request(const struct oq_job_ask *a, uint64_t prefix,
		    const struct oq_port *src, const struct oq_port *dst,
		    struct oq_sa_req *r)
{
	memset(r, 0, sizeof(*r));
	r->method = OQ_SA_METHOD_GET;
	r->fields = OQ_SAF_SGID | OQ_SAF_DGID;
	gid_of(prefix, src->guid, r->pr.sgid);
	gid_of(prefix, dst->guid, r->pr.dgid);
	switch (a->cls.kind) {
	case OQ_JC_SID:
		r->fields |= OQ_SAF_SERVICE_ID;
		r->pr.service_id = a->cls.value;
		break;
	case OQ_JC_QOS_CLASS:
		r->fields |= OQ_SAF_QOS_CLASS;
		r->pr.qos_class = (uint16_t)a->cls.value;
		break;
	case OQ_JC_PKEY:
		r->fields |= OQ_SAF_PKEY;
		r->pr.pkey = (uint16_t)(a->cls.value | 0x8000);
		break;
	case OQ_JC_LEVEL:
		/* The SA grants this SL only where the policy's level for
		 * the pair allows it. */
		r->fields |= OQ_SAF_SL;
		r->pr.sl = (uint8_t)a->level_sl;
		if (a->level_pkey >= 0) {
			r->fields |= OQ_SAF_PKEY;
			r->pr.pkey = (uint16_t)(a->level_pkey | 0x8000);
		}
		break;
	default:
		break;
	}
}

/* The pair's level by the matcher, to know whether it restricts the
 * record's P_Key; -1 without a policy. */
static int pair_level(const struct oq_job_ask *a, const struct oq_port *src,
		      const struct oq_port *dst)
{
	struct oq_decision d;
	struct oq_query q;

	if (!a->m)
		return -1;
	oq_job_ask_query(a, src, dst, &q);
	oq_match(a->m, &q, &d);
	return d.level;
}

static void denied(const struct oq_job_ask *a, const struct oq_port *src,
		   const struct oq_port *dst, uint16_t status,
		   struct oq_job_answer *ans)
{
	char rule[128];
	int pkey, n;

	ans->g.denied = true;
	n = snprintf(ans->why, sizeof(ans->why), "the SA gave no path (%s)",
		     status ? oq_sa_status_name(status) : "no record");
	if (a->have_pkeys &&
	    !oq_job_ask_pkey_rule(a, src, dst, ans->level, &pkey, rule,
				  sizeof(rule)) &&
	    n > 0 && (size_t)n < sizeof(ans->why))
		snprintf(ans->why + n, sizeof(ans->why) - (size_t)n, ": %s",
			 rule);
}

int oq_job_ask_sa(const struct oq_job_ask *a, const char *ca, int port,
		  int timeout_ms, struct oq_job_answer *out,
		  struct oq_job_local *local, size_t *n_queries, char *err,
		  size_t errlen)
{
	struct oq_sa_port sp;
	size_t i;

	*n_queries = 0;
	if (oq_sa_open(ca, port, &sp, err, errlen))
		return -1;
	memset(local, 0, sizeof(*local));
	snprintf(local->ca, sizeof(local->ca), "%s", sp.u.ca);
	local->port = sp.u.port;
	local->guid = sp.u.port_guid;
	local->lid = sp.u.base_lid;
	for (i = 0; i < a->plan->n_pairs; i++) {
		const struct oq_job_pair *p = &a->plan->pairs[i];
		const struct oq_port *src = a->plan->ports[p->src].port;
		const struct oq_port *dst = a->plan->ports[p->dst].port;
		struct oq_job_answer *ans = &out[i];
		struct oq_sa_resp resp;
		struct oq_sa_req req;
		char e[256];

		memset(ans, 0, sizeof(*ans));
		ans->g.weight = p->weight;
		ans->level = pair_level(a, src, dst);
		request(a, sp.u.gid_prefix, src, dst, &req);
		if (oq_sa_query(&sp, &req, timeout_ms, &resp, e, sizeof(e))) {
			snprintf(err, errlen, "%s", e);
			oq_sa_close(&sp);
			return -1;
		}
		(*n_queries)++;
		ans->sa_status = resp.status;
		if (!resp.status && resp.n) {
			ans->g.sl = resp.recs[0].sl;
			ans->g.pkey = resp.recs[0].pkey & 0x7fff;
			ans->g.pkey_restricted =
				oq_job_ask_exports_pkey(a, ans->level);
		} else if (!resp.status ||
			   ((resp.status >> 8) & 0x7f) == SA_NO_RECORDS) {
			denied(a, src, dst, resp.status, ans);
		} else {
			char s[128], d[128];

			oq_port_name(src, s, sizeof(s));
			oq_port_name(dst, d, sizeof(d));
			snprintf(err, errlen,
				 "the SA answered %s (status 0x%04x) for "
				 "%s -> %s: %s",
				 oq_sa_status_name(resp.status), resp.status, s,
				 d, oq_sa_status_hint(resp.status));
			oq_sa_resp_free(&resp);
			oq_sa_close(&sp);
			return -1;
		}
		oq_sa_resp_free(&resp);
	}
	oq_sa_close(&sp);
	return oq_job_check_denied(a, timeout_ms, local, out, err, errlen);
}

int oq_job_local_pkey_index(const char *ca, int port, int pkey, char *err,
			    size_t errlen)
{
	struct oq_dr_path here = {0};
	struct oq_smp_port sp;
	int block, i, limited = -1;

	if (oq_smp_open(ca, port, &sp, err, errlen))
		return -1;
	for (block = 0; block < PKEY_BLOCKS_MAX; block++) {
		uint8_t data[OQ_SMP_DATA_SIZE] = {0};
		int rc = oq_smp_query(&sp, OQ_SMP_METHOD_GET, &here,
				      SMP_ATTR_PKEY_TABLE, (uint32_t)block,
				      data, err, errlen);

		if (rc < 0) {
			oq_smp_close(&sp);
			return -1;
		}
		if (rc > 0) /* past the table's end */
			break;
		for (i = 0; i < 32; i++) {
			int k = data[2 * i] << 8 | data[2 * i + 1];

			if ((k & 0x7fff) != pkey)
				continue;
			if (k & 0x8000) {
				oq_smp_close(&sp);
				return block * 32 + i;
			}
			if (limited < 0)
				limited = block * 32 + i;
		}
	}
	if (limited < 0)
		snprintf(err, errlen,
			 "P_Key 0x%04x is not in the P_Key table of port %s/%d",
			 pkey, sp.u.ca, sp.u.port);
	oq_smp_close(&sp);
	return limited;
}
