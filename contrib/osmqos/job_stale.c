// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * A pair the SA denied, told apart from a fabric file that is out of date
 * (a host's HCA replaced since ibnetdiscover): each end of a denied pair
 * is asked by NodeInfo SMP at the place the fabric file gives it, along
 * the file's switches.  A port the file does not know answering there
 * makes the file stale (an input error), not the pair refused.  A port
 * the file has elsewhere answering there is a cable moved: the end's
 * GUID may well be live at another place, so the SA's denial stands, with
 * a word that the file's cabling is out of date.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_route.h"
#include "job_ask.h"
#include "mad/smp_attrs.h"
#include "mad/smp_transport.h"

/* Ends that do not answer before the check gives up: each costs two
 * timeouts, and SMPs filtered on the way would fail them all. */
#define PROBE_MISSES_MAX 2

/* What a stale file's error says to do; it cites the man page, which is
 * installed wherever osmqos is (docs/ only by the packages). */
#define REFRESH_HINT "refresh it (ibnetdiscover > FILE; osmqos(8), job-env)"

/* The directed route from end port `from` to end port `to` along f's
 * links: 0, or -1 when f links them by no route an SMP can carry. */
static int route(const struct oq_fabric *f, const struct oq_port *from,
		 const struct oq_port *to, struct oq_dr_path *path)
{
	const struct oq_port *eg[OQ_SMP_MAX_HOPS];
	int n = oq_fabric_route(f, from, to, eg, OQ_SMP_MAX_HOPS), i;

	memset(path, 0, sizeof(*path));
	if (n <= 0)
		return -1;
	path->cnt = (uint8_t)n;
	for (i = 0; i < n; i++)
		path->p[1 + i] = eg[i]->num;
	return 0;
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

/* check_end(): nothing answers at the end's place. */
#define END_MISSED 1
/* check_end(): a port the fabric file has elsewhere answers there. */
#define END_MOVED 2

/*
 * Whether the port a NodeInfo SMP reaches along the fabric file's route
 * to plan port i has that port's GUID: 0 when it has (or it is the local
 * port, or the file has no route to it); END_MISSED when nothing answers
 * (a port down, SMPs filtered: the denial stands as the SA gave it);
 * END_MOVED with note when the port answering there is one the file has
 * at another place (cables moved or swapped: the end may be live
 * elsewhere, so nothing says the SA did not know it); OQ_JOB_ASK_STALE
 * with err when the port answering there is one the file does not have
 * (a new HCA).
 */
static int check_end(const struct oq_job_ask *a, struct oq_smp_port *sp,
		     const struct oq_port *here, uint32_t i, char *note,
		     size_t notelen, char *err, size_t errlen)
{
	const struct oq_port *p = a->plan->ports[i].port, *known;
	uint8_t data[OQ_SMP_DATA_SIZE] = {0};
	struct oq_smp_node_info ni;
	struct oq_dr_path path;
	char name[128], at[128], e[256];

	if (p == here || route(a->fabric, here, p, &path))
		return 0;
	if (oq_smp_query(sp, OQ_SMP_METHOD_GET, &path, OQ_SMP_ATTR_NODE_INFO, 0,
			 data, e, sizeof(e)))
		return END_MISSED;
	oq_smp_parse_node_info(data, &ni);
	if (ni.port_guid == p->guid)
		return 0;
	oq_job_port_name(a->plan, i, name, sizeof(name));
	oq_port_name(oq_port_peer(a->fabric, p), at, sizeof(at));
	known = oq_fabric_port_by_guid(a->fabric, ni.port_guid);
	if (known) {
		char other[128];

		oq_port_name(known, other, sizeof(other));
		snprintf(note, notelen,
			 "; the fabric file's cabling is out of date: at %s, "
			 "where it has %s, port GUID 0x%016" PRIx64
			 " (its %s) answers: " REFRESH_HINT,
			 at, name, ni.port_guid, other);
		return END_MOVED;
	}
	snprintf(err, errlen,
		 "the fabric file %s is stale: the subnet has no port GUID "
		 "0x%016" PRIx64 " of host %s (%s): the port cabled to %s "
		 "has port GUID 0x%016" PRIx64 "; " REFRESH_HINT,
		 a->fabric_file ? a->fabric_file : "(--fabric)", p->guid,
		 host_of(a->plan, i), name, at, ni.port_guid);
	return OQ_JOB_ASK_STALE;
}

/* The note to every denied pair with end `end`. */
static void note_pairs(const struct oq_job_plan *pl, uint32_t end,
		       const char *note, struct oq_job_answer *out)
{
	size_t i, n;

	for (i = 0; i < pl->n_pairs; i++) {
		if (!out[i].g.denied ||
		    (pl->pairs[i].src != end && pl->pairs[i].dst != end))
			continue;
		n = strlen(out[i].why);
		snprintf(out[i].why + n, sizeof(out[i].why) - n, "%s", note);
	}
}

/*
 * After the SA denied a pair: its ends against the subnet, each once.
 * OpenSM answers a PathRecord for a GID it does not know with no record,
 * as it answers a pair that shares no partition, and its other records
 * (NodeRecord, PortInfoRecord) only about ports that share a partition
 * with the requester; SMPs know no partitions.  0 (a moved end's note
 * added to its pairs' why), or OQ_JOB_ASK_STALE with err.
 */
int oq_job_check_denied(const struct oq_job_ask *a, int timeout_ms,
			const struct oq_job_local *local,
			struct oq_job_answer *out, char *err, size_t errlen)
{
	const struct oq_job_plan *pl = a->plan;
	const struct oq_port *here;
	struct oq_smp_port sp;
	uint8_t *done;
	char e[256], note[640];
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
		/* The limit checked for each end: both ends of a pair
		 * unanswered after one miss would make three. */
		for (k = 0; k < 2 && rc != OQ_JOB_ASK_STALE &&
			    misses < PROBE_MISSES_MAX;
		     k++) {
			if (done[ends[k]])
				continue;
			done[ends[k]] = 1;
			rc = check_end(a, &sp, here, ends[k], note,
				       sizeof(note), err, errlen);
			misses += rc == END_MISSED;
			if (rc == END_MOVED)
				note_pairs(pl, ends[k], note, out);
		}
	}
	oq_smp_close(&sp);
	free(done);
	return rc == OQ_JOB_ASK_STALE ? rc : 0;
}
