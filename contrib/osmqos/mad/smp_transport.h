/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Directed-route SMPs (IBA 1.2.1 section 14.2.1.2) for `osmqos drift`:
 * the 256-byte MAD encoded and decoded byte by byte (pure functions, unit
 * tested and fuzzed), and a libibumad transport that sends one Get or Set
 * and waits for its answer.  Under ibsim, LD_PRELOAD=libumad2sim.so turns
 * the umad calls into simulator messages and SIM_HOST picks the port.
 */
#ifndef OSMQOS_SMP_TRANSPORT_H
#define OSMQOS_SMP_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "umad_port.h"

#define OQ_SMP_MAD_SIZE	 256
#define OQ_SMP_DATA_OFF	 64
#define OQ_SMP_DATA_SIZE 64
#define OQ_SMP_MAX_HOPS	 63 /* InitialPath holds 64 bytes, [0] unused */

#define OQ_SMP_CLASS_DR	     0x81
#define OQ_SMP_CLASS_VERSION 1
#define OQ_SMP_METHOD_GET    0x01
#define OQ_SMP_METHOD_SET    0x02
#define OQ_SMP_METHOD_RESP   0x81

/* Subnet management attributes the audit reads. */
#define OQ_SMP_ATTR_NODE_DESC	0x0010
#define OQ_SMP_ATTR_NODE_INFO	0x0011
#define OQ_SMP_ATTR_SWITCH_INFO 0x0012
#define OQ_SMP_ATTR_PORT_INFO	0x0015
#define OQ_SMP_ATTR_SL2VL	0x0017
#define OQ_SMP_ATTR_VLARB	0x0018

/* A directed route: p[1..cnt] are the egress ports hop by hop. */
struct oq_dr_path {
	uint8_t cnt;
	uint8_t p[OQ_SMP_MAX_HOPS + 1];
};

/* "0,1,5" (smpquery -D style; the leading 0 is the local port). */
int oq_dr_path_parse(const char *s, struct oq_dr_path *path);
/* The same form back, e.g. for messages. */
void oq_dr_path_format(const struct oq_dr_path *path, char *buf, size_t len);
/* path plus one more hop; -1 when it would exceed OQ_SMP_MAX_HOPS. */
int oq_dr_path_extend(const struct oq_dr_path *path, uint8_t port,
		      struct oq_dr_path *out);

struct oq_smp_resp {
	uint8_t method;
	uint64_t tid;
	uint16_t status; /* MAD status without the direction bit */
	uint16_t attr_id;
	uint32_t attr_mod;
	uint8_t data[OQ_SMP_DATA_SIZE];
};

/* Encode a request into mad[OQ_SMP_MAD_SIZE]; data may be NULL (Get). */
void oq_smp_encode(uint8_t *mad, uint8_t method, uint64_t tid,
		   const struct oq_dr_path *path, uint16_t attr, uint32_t mod,
		   const uint8_t *data);
/* Decode an answer of len bytes: 0, or -1 when it is no DR SMP response
 * (short, wrong class/version, not a response). */
int oq_smp_decode(const uint8_t *mad, size_t len, struct oq_smp_resp *out);

/* Transport (libibumad). */
struct oq_smp_port {
	struct oq_umad_port u; /* the local port and the SMP agent */
	int timeout_ms;	       /* per attempt */
	int retries;	     /* extra attempts after a timeout */
	unsigned long sent;  /* SMPs sent (statistics) */
	uint32_t next_tid;
};

/* Open CA/port (NULL/0: the first active one) and register a DR SMP
 * agent.  On error returns -1 with what to do next in err. */
int oq_smp_open(const char *ca, int port, struct oq_smp_port *p, char *err,
		size_t errlen);
void oq_smp_close(struct oq_smp_port *p);

/*
 * Send one Get or Set along path and wait for the answer; data holds the
 * attribute (64 bytes) in and, on success, the answer's attribute out.
 * Returns 0, the MAD status (> 0) when the node refused, or -1 with err
 * set (timeout after the retries, transport failure).
 */
int oq_smp_query(struct oq_smp_port *p, uint8_t method,
		 const struct oq_dr_path *path, uint16_t attr, uint32_t mod,
		 uint8_t *data, char *err, size_t errlen);

#endif /* OSMQOS_SMP_TRANSPORT_H */
