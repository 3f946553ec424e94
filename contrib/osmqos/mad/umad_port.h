/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The local InfiniBand port and one MAD agent on it, for the CLI's live
 * transports (SA queries, directed-route SMPs).  Under ibsim,
 * LD_PRELOAD=libumad2sim.so turns the umad calls into simulator messages
 * and SIM_HOST picks the attachment point; nothing here needs to know.
 */
#ifndef OSMQOS_UMAD_PORT_H
#define OSMQOS_UMAD_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct oq_umad_port {
	int portid; /* -1: closed */
	int agent;  /* -1: none */
	char ca[32];
	int port;
	uint16_t base_lid;
	uint16_t sm_lid;
	uint8_t sm_sl;
	uint64_t port_guid;  /* host order */
	uint64_t gid_prefix; /* host order */
};

/*
 * Open CA/port (NULL/0: the first active one) and register an agent for
 * mgmt_class/class_version (rmpp: RMPP version, 0 for none).  On error
 * returns -1 with a message in err that says what to do next; agent_hint
 * finishes the message for a failed registration.
 */
int oq_umad_open(struct oq_umad_port *p, const char *ca, int port,
		 int mgmt_class, int class_version, int rmpp,
		 const char *agent_hint, char *err, size_t errlen);
void oq_umad_close(struct oq_umad_port *p);

/* True when libumad2sim is preloaded (an ibsim fabric, not hardware). */
bool oq_under_umad2sim(void);

#endif /* OSMQOS_UMAD_PORT_H */
