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

#include "smp_transport.h"

#define TID_MASK 0xffffffffull /* the kernel owns the upper 32 bits */
#define RECV_MAX 1024	       /* an SMP answer is 256 bytes */

int oq_smp_open(const char *ca, int port, struct oq_smp_port *p, char *err,
		size_t errlen)
{
	umad_port_t up;

	memset(p, 0, sizeof(*p));
	p->portid = -1;
	p->agent = -1;
	p->timeout_ms = 1000;
	p->retries = 2;
	p->next_tid = ((uint32_t)getpid() << 16) ^ (uint32_t)time(NULL);
	if (umad_init() < 0) {
		snprintf(err, errlen,
			 "libibumad initialisation failed; is the ib_umad "
			 "kernel module loaded (modprobe ib_umad), or under "
			 "ibsim is LD_PRELOAD set to libumad2sim.so?");
		return -1;
	}
	if (umad_get_port(ca, port, &up) < 0) {
		snprintf(err, errlen,
			 "no usable InfiniBand port%s%s; list the ports with "
			 "ibstat and pass --ca NAME --port N (under ibsim, "
			 "set LD_PRELOAD to libumad2sim.so)",
			 ca ? " on " : "", ca ? ca : "");
		return -1;
	}
	snprintf(p->ca, sizeof(p->ca), "%s", up.ca_name);
	p->port = up.portnum;
	p->base_lid = (uint16_t)up.base_lid;
	p->sm_lid = (uint16_t)up.sm_lid;
	p->port_guid = be64toh(up.port_guid);
	p->gid_prefix = be64toh(up.gid_prefix);
	umad_release_port(&up);
	p->portid = umad_open_port(p->ca, p->port);
	if (p->portid < 0) {
		snprintf(err, errlen,
			 "cannot open %s/%d for MADs (%s); run as root or "
			 "grant access to /dev/infiniband/umad*",
			 p->ca, p->port, strerror(-p->portid));
		return -1;
	}
	p->agent = umad_register(p->portid, OQ_SMP_CLASS_DR,
				 OQ_SMP_CLASS_VERSION, 0, NULL);
	if (p->agent < 0) {
		snprintf(err, errlen,
			 "cannot register a directed-route SMP agent on "
			 "%s/%d; SMPs need root (or CAP_NET_ADMIN) and the "
			 "ib_umad module",
			 p->ca, p->port);
		umad_close_port(p->portid);
		p->portid = -1;
		return -1;
	}
	return 0;
}

void oq_smp_close(struct oq_smp_port *p)
{
	if (p->agent >= 0)
		umad_unregister(p->portid, p->agent);
	if (p->portid >= 0)
		umad_close_port(p->portid);
	p->agent = p->portid = -1;
	umad_done();
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One attempt: 0 answered (resp filled), 1 timed out, -1 failed. */
static int attempt(struct oq_smp_port *p, uint8_t *umad, uint64_t tid,
		   struct oq_smp_resp *resp, char *err, size_t errlen)
{
	long long deadline = now_ms() + p->timeout_ms;
	int len, left;

	if (umad_send(p->portid, p->agent, umad, OQ_SMP_MAD_SIZE, p->timeout_ms,
		      0) < 0) {
		snprintf(err, errlen,
			 "sending an SMP failed (%s); check the port state "
			 "with ibstat",
			 strerror(errno));
		return -1;
	}
	p->sent++;
	for (;;) {
		left = (int)(deadline - now_ms());
		if (left <= 0)
			return 1;
		len = RECV_MAX;
		if (umad_recv(p->portid, umad, &len, left) < 0) {
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
