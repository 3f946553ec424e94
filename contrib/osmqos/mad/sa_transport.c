// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * SA transport over libibumad: one agent for class 0x03 version 2 on the
 * local port, requests sent to the SM LID the port reports, answers matched
 * by transaction ID.  Under ibsim, LD_PRELOAD=libumad2sim.so turns these
 * calls into simulator messages and SIM_HOST picks the attachment point;
 * nothing here needs to know.
 */
#include <config.h>

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <infiniband/umad.h>
#include <infiniband/umad_types.h>

#include <osmqos/clock.h>

#include "sa_client.h"

#define TID_MASK 0xffffffffull /* the kernel owns the upper 32 bits */
#define RECV_MAX (64 * 1024)   /* largest RMPP answer we take */
/*
 * umad2sim queues each received MAD in a buffer of sizeof(struct
 * sim_request) = 288 bytes (a 32-byte header, then the MAD) but reports
 * 64 + 256 bytes, so read() hands back only the first 224 MAD bytes
 * intact and the last 32 are whatever lies past its buffer.  saquery
 * shows the same damaged third record.  Under umad2sim we decode only
 * those 224 bytes: two whole PathRecords, never garbage.
 */
#define UMAD2SIM_VALID 224

int oq_sa_open(const char *ca, int port, struct oq_sa_port *p, char *err,
	       size_t errlen)
{
	/* RMPP version 1: the kernel reassembles multi-MAD answers. */
	if (oq_umad_open(&p->u, ca, port, OQ_SA_CLASS, OQ_SA_CLASS_VERSION, 1,
			 "check that no other tool holds the port "
			 "exclusively",
			 err, errlen))
		return -1;
	if (!p->u.sm_lid) {
		snprintf(err, errlen,
			 "port %s/%d knows no SM (SM LID 0); start opensm or "
			 "wait for the subnet to come up, then retry",
			 p->u.ca, p->u.port);
		oq_umad_close(&p->u);
		return -1;
	}
	return 0;
}

void oq_sa_close(struct oq_sa_port *p)
{
	oq_umad_close(&p->u);
}

static void timeout_msg(const struct oq_sa_port *p, int timeout_ms, char *err,
			size_t errlen)
{
	snprintf(err, errlen,
		 "no answer from the SA at LID %u within %d ms; check that "
		 "opensm is running (sminfo), or raise --timeout",
		 p->u.sm_lid, timeout_ms);
}

int oq_sa_query(struct oq_sa_port *p, const struct oq_sa_req *r, int timeout_ms,
		struct oq_sa_resp *resp, char *err, size_t errlen)
{
	struct oq_sa_req req = *r;
	size_t cap = umad_size() + RECV_MAX;
	uint8_t *umad = calloc(1, cap);
	uint64_t t0;
	int len, rc, left;
	bool cut;

	memset(resp, 0, sizeof(*resp));
	if (!umad) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	req.tid =
		(r->tid ? r->tid
			: ((uint64_t)getpid() << 12 ^ oq_clock_ns() / 1000000)) &
		TID_MASK;
	if (!req.tid)
		req.tid = 1;
	if (oq_sa_encode(&req, umad_get_mad(umad))) {
		snprintf(err, errlen,
			 "the request cannot be encoded (a field that %s "
			 "does not carry, or too many GIDs)",
			 req.mpr ? "MultiPathRecord" : "PathRecord");
		free(umad);
		return -1;
	}
	umad_set_addr(umad, p->u.sm_lid, 1, p->u.sm_sl, UMAD_QKEY);
	if (umad_send(p->u.portid, p->u.agent, umad, OQ_SA_MAD_SIZE, timeout_ms,
		      0) < 0) {
		snprintf(err, errlen,
			 "sending to the SA failed (%s); check the port "
			 "state with ibstat",
			 strerror(errno));
		free(umad);
		return -1;
	}
	t0 = oq_clock_ns();
	for (;;) {
		left = timeout_ms - (int)oq_ms_since(t0);
		if (left <= 0) {
			timeout_msg(p, timeout_ms, err, errlen);
			break;
		}
		len = RECV_MAX;
		rc = umad_recv(p->u.portid, umad, &len, left);
		if (rc < 0) {
			if (errno == ETIMEDOUT || errno == EAGAIN ||
			    errno == EINTR)
				continue;
			snprintf(err, errlen,
				 "receiving from the SA failed (%s); check "
				 "the port state with ibstat",
				 strerror(errno));
			break;
		}
		if (umad_status(umad) == ETIMEDOUT) {
			timeout_msg(p, timeout_ms, err, errlen);
			break;
		}
		if (len < 0 || (size_t)len > RECV_MAX)
			len = RECV_MAX;
		cut = false;
		if (oq_under_umad2sim() && len > UMAD2SIM_VALID) {
			/* 2 records end at 184 bytes; more did not fit */
			cut = true;
			len = UMAD2SIM_VALID;
		}
		rc = oq_sa_decode(umad_get_mad(umad), (size_t)len, resp);
		if (rc == OQ_SA_ENOMEM) {
			snprintf(err, errlen, "out of memory");
			break;
		}
		if (rc == OQ_SA_OK && (resp->tid & TID_MASK) != req.tid) {
			oq_sa_resp_free(resp); /* a stale answer: skip it */
			continue;
		}
		if (rc != OQ_SA_OK) {
			snprintf(err, errlen,
				 "the SA's answer is malformed (%d bytes); "
				 "rerun with the opensm log at log_flags 0xFF "
				 "to see what was sent",
				 len);
			break;
		}
		resp->cut = cut && !resp->status && resp->n >= 2;
		free(umad);
		return OQ_SA_OK;
	}
	free(umad);
	return -1;
}
