/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Private to the topology loader: the parsed file before it becomes a
 * fabric.  topology.c reads lines and records; topology_ibsim.c applies
 * ibsim's rules (link annotations, width/speed negotiation, defaults,
 * link checks) and builds the oq_fabric.
 */
#ifndef OSMQOS_TOPOLOGY_INT_H
#define OSMQOS_TOPOLOGY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>
#include <osmqos/htab.h>

/* ibsim's enable masks (PortInfo encodings). */
#define TW_1X 1
#define TW_4X 2
#define TW_8X 4
#define TW_12X 8
#define TW_2X 16
#define TS_SDR 1
#define TS_DDR 2
#define TS_QDR 4
#define TE_FDR 1
#define TE_EDR 2
#define TE_HDR 4
#define TE_NDR 8

struct topo_port {
	bool listed;	      /* a "[n] ..." line named this port */
	bool annotated;	      /* the line carried "lid N WxSPEED" */
	uint8_t w_ena, s_ena; /* LinkWidthEnabled / LinkSpeedEnabled */
	uint8_t e_ena, m_ena; /* LinkSpeedExtEnabled / Mellanox FDR10 */
	uint16_t remote_port;
	uint32_t remote;     /* the remote node's id (in topo.ids) */
	char ann[16];	     /* annotation as written, for messages */
	uint64_t guid;	     /* explicit "(guid)" of a CA port, 0 none */
	uint16_t lid;
	uint8_t lmc;
	/* osmqos-only capability words after the annotation ("mtu 4096 vls
	 * 4 vlarb 16"); 0 = ibsim's default. */
	uint8_t cap_mtu;   /* IB MTU enum 1..5 */
	uint8_t cap_vls;   /* data VLs 1, 2, 4, 8, 15 */
	uint8_t cap_vlarb; /* VLArb entries per table + 1 (0 default) */
	unsigned int line, col;
};

struct topo_node {
	enum oq_node_type type;
	uint8_t n_ports;
	bool enh0;
	uint16_t lid0; /* switch port 0 */
	uint8_t lmc0;
	uint64_t guid;
	uint32_t id; /* in topo.ids */
	char desc[64];
	unsigned int line;
	struct topo_port *ports; /* [0..n_ports] */
};

struct topo {
	const char *file;
	struct oq_diags *d;
	struct topo_node *nodes;
	size_t n, cap;
	struct oq_intern ids; /* node ids, those of nodes and remote ends */
	uint32_t *node_of;    /* by id: node index + 1, 0: no such node */
	size_t node_of_cap;
	/* ibsim's GUID counters and link defaults, by IBA node type. */
	uint64_t guids[4], absguids[4];
	uint8_t netwidth, netspeed, netspeedext;
	uint64_t from_port; /* ibnetdiscover's "# Initiated from" port */
	bool ibnd;	    /* looks like ibnetdiscover output */
};

/* A node id as written (ids are kept NUL-terminated). */
static inline const char *topo_str(const struct topo *t, uint32_t id)
{
	return oq_intern_key(&t->ids, id);
}

struct oq_loc topo_loc(const struct topo *t, unsigned int line,
		       unsigned int col);
/* The node a (remote) id names, or NULL. */
struct topo_node *topo_find(const struct topo *t, uint32_t id);
/* The LID and the LMC written at num ("lid N", "lmc N") on line: a
 * LID above 0xBFFF gives 0 and an LMC above 7 gives 0, with a warning. */
uint16_t topo_lid(struct topo *t, const char *line, const char *num,
		  unsigned int lineno);
uint8_t topo_lmc(struct topo *t, const char *line, const char *num,
		 unsigned int lineno);

/* topology_ibsim.c */
void topo_port_defaults(const struct topo *t, struct topo_port *p);
int topo_port_options(struct topo *t, struct topo_port *p, const char *line,
		      const char *after_id, unsigned int lineno);
void topo_port_connection(struct topo *t, struct topo_port *p,
			  enum oq_node_type type, const char *line,
			  const char *after_id, unsigned int lineno);
struct oq_fabric *topo_build(struct topo *t);

#endif /* OSMQOS_TOPOLOGY_INT_H */
