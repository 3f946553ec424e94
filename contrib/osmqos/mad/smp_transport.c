// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Directed-route SMP transport over libibumad: one agent for class 0x81 on
 * the local port, one request in flight, answers matched by transaction
 * ID, a bounded number of retries on timeout.  Like the SA transport it
 * needs nothing special under ibsim: umad2sim intercepts the umad calls.
 */
#include <config.h>

#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include <osmqos/clock.h>

#include "smp_transport.h"

#define TID_MASK 0xffffffffull /* the kernel owns the upper 32 bits */
#define RECV_MAX 1024	       /* an SMP answer is 256 bytes */

int oq_smp_open(const char *ca, int port, struct oq_smp_port *p, char *err,
		size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->timeout_ms = 1000;
	p->retries = 2;
	p->next_tid = ((uint32_t)getpid() << 16) ^ (uint32_t)time(NULL);
	return oq_umad_open(&p->u, ca, port, OQ_SMP_CLASS_DR,
			    OQ_SMP_CLASS_VERSION, 0,
			    "SMPs need root (or CAP_NET_ADMIN) and the ib_umad "
			    "module",
			    err, errlen);
}

void oq_smp_close(struct oq_smp_port *p)
{
	oq_umad_close(&p->u);
}

/* One attempt: 0 answered (resp filled), 1 timed out, -1 failed. */
static int attempt(struct oq_smp_port *p, uint8_t *umad, uint64_t tid,
		   struct oq_smp_resp *resp, char *err, size_t errlen)
{
	uint64_t t0 = oq_clock_ns();
	int len, left;

	if (umad_send(p->u.portid, p->u.agent, umad, OQ_SMP_MAD_SIZE,
		      p->timeout_ms, 0) < 0) {
		snprintf(err, errlen,
			 "sending an SMP failed (%s); check the port state "
			 "with ibstat",
			 strerror(errno));
		return -1;
	}
	p->sent++;
	for (;;) {
		left = p->timeout_ms - (int)oq_ms_since(t0);
		if (left <= 0)
			return 1;
		len = RECV_MAX;
		if (umad_recv(p->u.portid, umad, &len, left) < 0) {
			if (errno == ETIMEDOUT || errno == EAGAIN ||
			    errno == EINTR)
				continue;
			snprintf(err, errlen,
				 "receiving an SMP answer failed (%s); check "
				 "the port state with ibstat",
				 strerror(errno));
			return -1;
		}
		if (umad_status(umad) == ETIMEDOUT)
			return 1;
		if (len < 0 || len > RECV_MAX)
			len = RECV_MAX;
		if (oq_smp_decode(umad_get_mad(umad), (size_t)len, resp))
			continue; /* not an SMP answer: ignore it */
		if ((resp->tid & TID_MASK) == tid)
			return 0;
		/* A late answer to an earlier attempt: skip it. */
	}
}

int oq_smp_query(struct oq_smp_port *p, uint8_t method,
		 const struct oq_dr_path *path, uint16_t attr, uint32_t mod,
		 uint8_t *data, char *err, size_t errlen)
{
	size_t cap = umad_size() + RECV_MAX;
	uint8_t *umad = calloc(1, cap);
	struct oq_smp_resp resp;
	int tries, rc = 1;

	if (!umad) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (tries = 0; tries <= p->retries && rc == 1; tries++) {
		uint64_t tid = ++p->next_tid & TID_MASK;

		if (!tid)
			tid = p->next_tid = 1;
		memset(umad, 0, cap);
		oq_smp_encode(umad_get_mad(umad), method, tid, path, attr, mod,
			      data);
		/* Directed route: permissive DLID, QP0. */
		umad_set_addr(umad, 0xffff, 0, 0, 0);
		rc = attempt(p, umad, tid, &resp, err, errlen);
	}
	free(umad);
	if (rc == 1) {
		char dr[256];

		oq_dr_path_format(path, dr, sizeof(dr));
		snprintf(err, errlen,
			 "no answer to SMP attribute 0x%04x (modifier 0x%x) "
			 "along directed route %s after %d attempts of %d ms; "
			 "check the link with ibportstate, or raise --timeout",
			 attr, mod, dr, p->retries + 1, p->timeout_ms);
		return -1;
	}
	if (rc < 0)
		return -1;
	if (resp.status)
		return resp.status;
	memcpy(data, resp.data, OQ_SMP_DATA_SIZE);
	return 0;
}
