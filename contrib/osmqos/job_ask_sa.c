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
#define NO_NODE		    UINT32_MAX
/* Ends that do not answer before the check gives up: each costs two
 * timeouts, and SMPs filtered on the way would fail them all. */
#define PROBE_MISSES_MAX 2
#define REFRESH_HINT	 "refresh it (ibnetdiscover > FILE; docs/jobs.md)"

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

/* The pair's level by the matcher, to know whether the job exports the
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

/* How the route search reached a switch: from which switch (NO_NODE: the
 * local port's peer) and by which of its ports. */
struct hop {
	uint32_t prev;
	uint8_t out;
	bool seen;
};

/* The route to switch `at`, then `last` out of it, into path. */
static int route_back(const struct hop *h, uint32_t at, uint8_t last,
		      struct oq_dr_path *path)
{
	uint8_t rev[OQ_SMP_MAX_HOPS];
	size_t n = 0, i;

	rev[n++] = last;
	for (; at != NO_NODE; at = h[at].prev) {
		if (n == OQ_SMP_MAX_HOPS)
			return -1;
		rev[n++] = h[at].out;
	}
	path->cnt = (uint8_t)n;
	for (i = 0; i < n; i++)
		path->p[1 + i] = rev[n - 1 - i];
	return 0;
}

/*
 * A directed route from end port `from` to end port `to` along f's links
 * through switches, breadth first (the shortest): 0, or -1 when f links
 * them by no route an SMP can carry (or memory runs out).
 */
static int route(const struct oq_fabric *f, const struct oq_port *from,
		 const struct oq_port *to, struct oq_dr_path *path)
{
	const struct oq_node *first;
	struct hop *h = NULL;
	uint32_t *queue = NULL, head = 0, tail = 0;
	int rc = -1;

	memset(path, 0, sizeof(*path));
	if (!from->peer)
		return -1;
	if (from->peer == to) { /* back to back */
		path->cnt = 1;
		path->p[1] = from->num;
		return 0;
	}
	first = from->peer->node;
	if (first->type != OQ_NODE_SWITCH)
		return -1;
	h = calloc(f->n_nodes, sizeof(*h));
	queue = calloc(f->n_nodes, sizeof(*queue));
	if (!h || !queue)
		goto out;
	h[first->index] = (struct hop){NO_NODE, from->num, true};
	queue[tail++] = first->index;
	while (head < tail && rc) {
		const struct oq_node *sw = f->nodes[queue[head++]];
		unsigned int q;

		for (q = 1; q <= sw->n_ports; q++) {
			const struct oq_port *p = &sw->ports[q];
			const struct oq_node *next;

			if (!p->present || !p->peer)
				continue;
			if (p->peer == to) {
				rc = route_back(h, sw->index, (uint8_t)q, path);
				break;
			}
			next = p->peer->node;
			if (next->type != OQ_NODE_SWITCH || h[next->index].seen)
				continue;
			h[next->index] =
				(struct hop){sw->index, (uint8_t)q, true};
			queue[tail++] = next->index;
		}
	}
out:
	free(h);
	free(queue);
	return rc;
}

/* The host's name the plan gives port i of the plan. */
static const char *host_of(const struct oq_job_plan *pl, uint32_t i)
{
	return pl->hosts[pl->ports[i].host];
}

/* The local port is not in the fabric file: err says so, and which
 * port the file gives this host (SLURMD_NODENAME) when it is a job's. */
static int local_stale(const struct oq_job_ask *a,
		       const struct oq_job_local *local, char *err,
		       size_t errlen)
{
	const struct oq_job_plan *pl = a->plan;
	char other[200] = "", name[128];
	uint32_t i;

	for (i = 0; a->local_host && i < pl->n_ports; i++) {
		if (strcasecmp(host_of(pl, i), a->local_host))
			continue;
		oq_job_port_name(pl, i, name, sizeof(name));
		snprintf(other, sizeof(other),
			 ", which gives host %s port GUID 0x%016" PRIx64
			 " (%s)",
			 host_of(pl, i), pl->ports[i].port->guid, name);
		break;
	}
	snprintf(err, errlen,
		 "the fabric file %s is stale: this host's port %s/%d (port "
		 "GUID 0x%016" PRIx64 ") is not in it%s; " REFRESH_HINT,
		 a->fabric_file ? a->fabric_file : "(--fabric)", local->ca,
		 local->port, local->guid, other);
	return OQ_JOB_ASK_STALE;
}

/*
 * Whether the port a NodeInfo SMP reaches along the fabric file's route
 * to plan port i has that port's GUID: 0 when it has (or it is the local
 * port, or the file has no route to it), 1 when nothing answers (a port
 * down, SMPs filtered: the denial stands as the SA gave it),
 * OQ_JOB_ASK_STALE with err when another port answers there.
 */
static int check_end(const struct oq_job_ask *a, struct oq_smp_port *sp,
		     const struct oq_port *here, uint32_t i, char *err,
		     size_t errlen)
{
	const struct oq_port *p = a->plan->ports[i].port;
	uint8_t data[OQ_SMP_DATA_SIZE] = {0};
	struct oq_smp_node_info ni;
	struct oq_dr_path path;
	char name[128], at[128], e[256];

	if (p == here || route(a->fabric, here, p, &path))
		return 0;
	if (oq_smp_query(sp, OQ_SMP_METHOD_GET, &path, OQ_SMP_ATTR_NODE_INFO, 0,
			 data, e, sizeof(e)))
		return 1;
	oq_smp_parse_node_info(data, &ni);
	if (ni.port_guid == p->guid)
		return 0;
	oq_job_port_name(a->plan, i, name, sizeof(name));
	oq_port_name(p->peer, at, sizeof(at));
	snprintf(err, errlen,
		 "the fabric file %s is stale: the subnet has no port GUID "
		 "0x%016" PRIx64 " of host %s (%s): the port cabled to %s "
		 "has port GUID 0x%016" PRIx64 "; " REFRESH_HINT,
		 a->fabric_file ? a->fabric_file : "(--fabric)", p->guid,
		 host_of(a->plan, i), name, at, ni.port_guid);
	return OQ_JOB_ASK_STALE;
}

/*
 * After the SA denied a pair: its ends against the subnet, each once.
 * OpenSM answers a PathRecord for a GID it does not know with no record,
 * as it answers a pair that shares no partition, and its other records
 * (NodeRecord, PortInfoRecord) only about ports that share a partition
 * with the requester; SMPs know no partitions.  0, or OQ_JOB_ASK_STALE
 * with err.
 */
static int check_denied(const struct oq_job_ask *a, int timeout_ms,
			const struct oq_job_local *local,
			const struct oq_job_answer *out, char *err,
			size_t errlen)
{
	const struct oq_job_plan *pl = a->plan;
	const struct oq_port *here;
	struct oq_smp_port sp;
	uint8_t *done;
	char e[256];
	size_t i, k;
	int rc = 0, misses = 0;

	for (i = 0; i < pl->n_pairs && !out[i].g.denied; i++)
		;
	if (!a->fabric || i == pl->n_pairs)
		return 0;
	here = oq_fabric_port_by_guid(a->fabric, local->guid);
	if (!here || !oq_port_is_endport(here))
		return local_stale(a, local, err, errlen);
	done = calloc(pl->n_ports, 1);
	if (!done)
		return 0;
	if (oq_smp_open(local->ca, local->port, &sp, e, sizeof(e))) {
		free(done);
		return 0;
	}
	sp.timeout_ms = timeout_ms;
	sp.retries = 1;
	for (i = 0; i < pl->n_pairs && rc != OQ_JOB_ASK_STALE &&
		    misses < PROBE_MISSES_MAX;
	     i++) {
		const uint32_t ends[2] = {pl->pairs[i].src, pl->pairs[i].dst};

		if (!out[i].g.denied)
			continue;
		for (k = 0; k < 2 && rc != OQ_JOB_ASK_STALE; k++) {
			if (done[ends[k]])
				continue;
			done[ends[k]] = 1;
			rc = check_end(a, &sp, here, ends[k], err, errlen);
			misses += rc == 1;
		}
	}
	oq_smp_close(&sp);
	free(done);
	return rc == OQ_JOB_ASK_STALE ? rc : 0;
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
			ans->g.pkey = oq_job_ask_exports_pkey(a, ans->level)
					      ? resp.recs[0].pkey & 0x7fff
					      : -1;
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
	return check_denied(a, timeout_ms, local, out, err, errlen);
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
