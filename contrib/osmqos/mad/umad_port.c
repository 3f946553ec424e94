// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Opening the local port for MADs: the part the SA and SMP transports
 * share (umad_port.h).
 */
#include <config.h>

#include <endian.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/umad.h>

#include "umad_port.h"

int oq_umad_open(struct oq_umad_port *p, const char *ca, int port,
		 int mgmt_class, int class_version, int rmpp,
		 const char *agent_hint, char *err, size_t errlen)
{
	umad_port_t up;

	memset(p, 0, sizeof(*p));
	p->portid = -1;
	p->agent = -1;
	if (umad_init() < 0) {
		snprintf(err, errlen,
			 "libibumad initialisation failed; is the ib_umad "
			 "kernel module loaded (modprobe ib_umad), or under "
			 "ibsim is LD_PRELOAD set to libumad2sim.so?");
		return -1;
	}
	if (umad_get_port(ca, port, &up) < 0) {
		snprintf(err, errlen,
			 "no usable InfiniBand port%s%s%s; list the ports "
			 "with ibstat and pass -C/--ca NAME and "
			 "-P/--ca-port N (under ibsim, set LD_PRELOAD to "
			 "libumad2sim.so)",
			 ca ? " on " : "", ca ? ca : "",
			 port ? " at the given port" : "");
		return -1;
	}
	snprintf(p->ca, sizeof(p->ca), "%s", up.ca_name);
	p->port = up.portnum;
	p->base_lid = (uint16_t)up.base_lid;
	p->sm_lid = (uint16_t)up.sm_lid;
	p->sm_sl = (uint8_t)up.sm_sl;
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
	p->agent = umad_register(p->portid, mgmt_class, class_version,
				 (uint8_t)rmpp, NULL);
	if (p->agent < 0) {
		snprintf(err, errlen, "cannot register a MAD agent (class "
				      "0x%02x) on %s/%d; %s",
			 mgmt_class, p->ca, p->port, agent_hint);
		umad_close_port(p->portid);
		p->portid = -1;
		return -1;
	}
	return 0;
}

void oq_umad_close(struct oq_umad_port *p)
{
	if (p->agent >= 0)
		umad_unregister(p->portid, p->agent);
	if (p->portid >= 0)
		umad_close_port(p->portid);
	p->agent = p->portid = -1;
	umad_done();
}

bool oq_under_umad2sim(void)
{
	const char *p = getenv("LD_PRELOAD");

	return p && strstr(p, "umad2sim");
}
