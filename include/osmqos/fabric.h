/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fabric model: nodes, ports, links and the per-port facts that QoS
 * decisions depend on.  The plugin fills it from OpenSM's subnet once per
 * sweep; the CLI fills it from a topology file.  Everything above it (group
 * resolution, matcher, table compiler, arbitration model) reads only this.
 *
 * Lifetime: build with oq_fabric_new()/oq_fabric_add_node()/oq_fabric_link(),
 * then oq_fabric_finalize(); after that the model is immutable and may be
 * read from several threads.
 */
#ifndef OSMQOS_FABRIC_H
#define OSMQOS_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/diag.h>

#ifdef __cplusplus
extern "C" {
#endif

enum oq_node_type {
	OQ_NODE_CA = 1, /* same numbers as IBA NodeInfo:NodeType */
	OQ_NODE_SWITCH = 2,
	OQ_NODE_ROUTER = 3,
};

/* Link speed of one lane, a single scale for PortInfo LinkSpeedActive,
 * LinkSpeedExtActive and the FDR10 extension. */
enum oq_speed {
	OQ_SPEED_UNKNOWN = 0,
	OQ_SPEED_SDR,	/* 2.5 Gb/s signalling, 8b/10b */
	OQ_SPEED_DDR,	/* 5 Gb/s, 8b/10b */
	OQ_SPEED_QDR,	/* 10 Gb/s, 8b/10b */
	OQ_SPEED_FDR10, /* 10.3125 Gb/s, 64b/66b */
	OQ_SPEED_FDR,	/* 14.0625 Gb/s, 64b/66b */
	OQ_SPEED_EDR,	/* 25.78125 Gb/s, 64b/66b */
	OQ_SPEED_HDR,	/* 53.125 Gb/s PAM4, 64b/66b + FEC (see docs/) */
	OQ_SPEED_NDR,	/* 106.25 Gb/s PAM4 */
};

#define OQ_MAX_VLS 15	   /* data VLs 0..14; VL15 is management/drop */
#define OQ_VL_DROP 15	   /* SL2VL value that drops the packet */
#define OQ_VLARB_MAX 64	   /* entries in one VLArb priority table */
#define OQ_MAX_SW_PORTS 254 /* external ports of a switch */

/* PartitionTable entry: low 15 bits the key, bit 15 set = full member. */
#define OQ_PKEY_FULL 0x8000
#define OQ_PKEY_MASK 0x7fff

struct oq_node;

struct oq_port {
	struct oq_node *node;
	uint8_t num;	     /* 0 = switch management port */
	bool present;	     /* false for unconnected/absent port numbers */
	uint64_t guid;	     /* port GUID; switch external ports: port 0's */
	uint16_t lid;	     /* base LID (switch external ports: port 0's) */
	uint8_t lmc;

	/* Physical link, active values. */
	uint8_t width; /* lanes: 1, 2, 4, 8 or 12; 0 unknown */
	enum oq_speed speed;
	uint8_t mtu_cap; /* IB MTU enum 1..5 (256..4096) */

	/* QoS capabilities (PortInfo).  Counts, not IBA encodings. */
	uint8_t vl_cap;		/* data VLs supported: 1, 2, 4, 8 or 15 */
	uint8_t oper_vls;	/* data VLs operational, same scale */
	uint8_t vlarb_high_cap; /* entries 0..64 */
	uint8_t vlarb_low_cap;
	bool sl2vl_cap; /* CA/router: IsSLMappingSupported; switches: true */
	/* PortInfo CapabilityMask/CapabilityMask2, host order (0 when the
	 * source does not say); the SA's 2x/HDR rate fixups read them. */
	uint32_t cap_mask;
	uint16_t cap_mask2;

	/* Partition membership (PartitionTable), OQ_PKEY_FULL in bit 15. */
	uint16_t *pkeys;
	uint16_t n_pkeys;

	/* The port's id among its fabric's ports: what the fabric keeps of
	 * it besides the port itself (its link partner, its position) is
	 * kept by id, so that fabrics can share the node. */
	uint32_t id;
	void *user; /* owner's use (e.g. the plugin's osm_physp_t) */
	/* The line of a topology file that gives the port's GUID and LID,
	 * for the duplicate reports; {0}: no file (a live fabric). */
	struct oq_loc loc;
};

struct oq_node {
	enum oq_node_type type;
	uint64_t guid;	     /* node GUID */
	char desc[65];	     /* NodeDescription, NUL-terminated */
	/* The name OpenSM gives the node (its print_desc): the node-name
	 * map's name for its GUID, else desc made printable as OpenSM makes
	 * it (oq_node_print_desc).  A policy's port-name and the CLI's port
	 * names match this.  Points at desc or at memory the node owns; set
	 * it with oq_node_set_name(); read it with oq_node_name(). */
	char *name;
	uint8_t n_ports;     /* external ports (NodeInfo:NumPorts) */
	bool enhanced_port0; /* switch: port 0 is an enhanced port */
	struct oq_port *ports; /* [0..n_ports]; CA/router port 0 unused */
	uint32_t id;	       /* among its fabric's nodes, as a port's */
	void *user;
	/* The fabrics that hold the node (atomic; __atomic builtins): a
	 * node is immutable once a fabric is finalized, and a fabric built
	 * from another shares its unchanged nodes. */
	unsigned int refs;
	/* The fabric that added it, which its setters (links, routes)
	 * write to: only while that fabric is being built, as the node may
	 * outlive it in a fabric that shares it. */
	struct oq_fabric *owner;
	/* The line of a topology file that declares the node, for the
	 * duplicate reports; {0}: no file (a live fabric). */
	struct oq_loc loc;
};

#define OQ_LFT_NONE 0xff /* LFT entry without a route (OpenSM OSM_NO_PATH) */

struct oq_fabric_index; /* private lookup tables */

/* A switch's linear forwarding table: v[lid] = egress port number,
 * OQ_LFT_NONE where there is no route.  Shared between fabrics whose
 * routes through the switch are the same (refs atomic). */
struct oq_lft {
	unsigned int refs;
	uint32_t size; /* entries (LIDs 0..size-1) */
	uint8_t v[];
};

struct oq_fabric {
	struct oq_node **nodes;
	size_t n_nodes, cap_nodes;
	/* Every present port, in node order; switch port 0 included. */
	struct oq_port **ports;
	size_t n_ports;
	uint64_t sm_port_guid; /* the SM's port (node-type SELF), 0 unknown */
	uint64_t subnet_prefix;
	/* Read from the subnet itself (SMP discovery, OpenSM's own), not from
	 * a file (topology, ibnetdiscover): what it lacks, the subnet lacks,
	 * where a file may only be out of date. */
	bool live;
	struct oq_fabric_index *idx;
	bool finalized;
	/* What the fabric holds of its ports and nodes by id (struct
	 * oq_port id, struct oq_node id; ids below n_port_ids and
	 * n_node_ids): link partners, positions in ports and nodes
	 * (finalize sets them), switches' routes. */
	struct oq_port **peer;
	uint32_t *port_pos;
	uint32_t *node_pos;
	struct oq_lft **lft;
	uint32_t n_port_ids, n_node_ids;
	uint32_t cap_port_ids, cap_node_ids;
	/* By position, set by finalize: the ports' ids (port_id_at[i] of
	 * ports[i]), the nodes' ids and where each node's ports start in
	 * ports (first_port[n_nodes] is n_ports). */
	uint32_t *port_id_at, *node_id_at, *first_port;
	bool derived; /* built from another (oq_fabric_derive) */
	/* The fabric it derives from, until finalized (its index is the
	 * start of this one's). */
	const struct oq_fabric *from;
};

struct oq_fabric *oq_fabric_new(void);
void oq_fabric_free(struct oq_fabric *f);

/* Add a node with n_ports external ports.  Ports [0..n_ports] are allocated
 * with present = false; the caller fills and marks the ones that exist (a
 * switch's port 0 always exists).  Returns NULL on allocation failure. */
struct oq_node *oq_fabric_add_node(struct oq_fabric *f, enum oq_node_type type,
				   uint64_t guid, const char *desc,
				   uint8_t n_ports);

/* The node's name as OpenSM prints it (struct oq_node name). */
static inline const char *oq_node_name(const struct oq_node *n)
{
	return n->name ? n->name : n->desc;
}

/* OpenSM's printable NodeDescription (complib's clean_nodedesc): cut to
 * 63 bytes, each byte that is not printable ASCII a blank.  out holds 64
 * bytes. */
void oq_node_print_desc(const char *desc, char out[64]);

/* Give a node the name OpenSM knows it by (a copy; NULL: its printable
 * NodeDescription again).  Before oq_fabric_finalize(), or followed by
 * oq_fabric_apply_node_names() (node_name_map.h).  0, or -1 when out of
 * memory (the name unchanged). */
int oq_node_set_name(struct oq_node *n, const char *name);

/* Connect two ports (both become present). */
void oq_fabric_link(struct oq_port *a, struct oq_port *b);
/* The same in f, where a or b may be a node f shares. */
void oq_fabric_link_in(struct oq_fabric *f, struct oq_port *a,
		       struct oq_port *b);

/*
 * A fabric built from the one before it (a sweep after a change): it
 * starts with prev's ids, links and routes and no nodes; the builder adds
 * prev's nodes that did not change with oq_fabric_share_node() (a
 * reference, not a copy) and those that did with oq_fabric_add_node_as()
 * (a new node under the changed one's ids), links the new nodes' ports
 * with oq_fabric_link_in() and sets routes with oq_fabric_set_lft(), in
 * the order a fresh build would add them; then oq_fabric_finalize(),
 * which fails (-EINVAL) when a shared node's port would keep a link to a
 * node the new fabric lacks: the builder then builds it afresh.  prev is
 * not changed; it must live until the new fabric is finalized, and may
 * be freed before it after that.
 */
struct oq_fabric *oq_fabric_derive(const struct oq_fabric *prev);
int oq_fabric_share_node(struct oq_fabric *f, struct oq_node *n);
/* oq_fabric_add_node() under was's ids (a node of the fabric f derives
 * from, with as many ports), or new ones when was is NULL. */
struct oq_node *oq_fabric_add_node_as(struct oq_fabric *f,
				      enum oq_node_type type, uint64_t guid,
				      const char *desc, uint8_t n_ports,
				      const struct oq_node *was);
/* n, one of finalized f's nodes, f's own to change: itself when no other
 * fabric shares it, else a copy that takes its place in f (same ids).
 * NULL when out of memory or n is not f's. */
struct oq_node *oq_fabric_node_own(struct oq_fabric *f, struct oq_node *n);
/* A switch's routes in f (size 0: none).  0, -EINVAL or -ENOMEM. */
int oq_fabric_set_lft(struct oq_fabric *f, const struct oq_node *n,
		      const uint8_t *lft, size_t size);

/* Copy a partition table into a port.  0, -EINVAL (more than 65,535
 * keys) or -ENOMEM. */
int oq_port_set_pkeys(struct oq_port *p, const uint16_t *pkeys, size_t n);

/* Linear forwarding table of a switch: copy size entries (index = LID).
 * oq_node_set_lft_entry() sets one entry, growing the table (new entries
 * OQ_LFT_NONE).  Both return 0, -EINVAL (not a switch, more than 65,536
 * entries, no table given) or -ENOMEM.  Routes may be set after
 * finalize, before the fabric is shared. */
int oq_node_set_lft(struct oq_node *n, const uint8_t *lft, size_t size);
int oq_node_set_lft_entry(struct oq_node *n, uint16_t lid, uint8_t port);
/* A routing table of size entries copied from v (refs 1), NULL when out
 * of memory; oq_lft_put() drops a reference (NULL allowed). */
struct oq_lft *oq_lft_new(const uint8_t *v, size_t size);
void oq_lft_put(struct oq_lft *l);
/* Egress port for a LID in f, OQ_LFT_NONE when the table has no route. */
uint8_t oq_node_lft_port(const struct oq_fabric *f, const struct oq_node *n,
			 uint16_t lid);

/* Build lookup indexes and dense indices.  Duplicate port GUIDs or LIDs
 * are reported into diags (may be NULL).  Returns 0, -EINVAL (no fabric)
 * or -ENOMEM. */
int oq_fabric_finalize(struct oq_fabric *f, struct oq_diags *diags);

/* Lookups (finalized fabric).  Port GUID lookups of a switch return its
 * port 0.  LID lookups honour LMC (any LID in base..base+2^lmc-1). */
struct oq_port *oq_fabric_port_by_guid(const struct oq_fabric *f,
				       uint64_t guid);
struct oq_node *oq_fabric_node_by_guid(const struct oq_fabric *f,
				       uint64_t guid);
struct oq_port *oq_fabric_port_by_lid(const struct oq_fabric *f, uint16_t lid);
/* "NAME/P<n>" (the QoS policy's port-name form; NAME is the node's
 * oq_node_name()). */
struct oq_port *oq_fabric_port_by_name(const struct oq_fabric *f,
				       const char *name);
/*
 * The node OpenSM's QoS policy parser means by a name (the len bytes at
 * name): of the nodes with that oq_node_name(), the first in OpenSM's
 * node table, which is ordered by node GUID in network byte order read
 * as a host integer (on x86 the GUID with its bytes swapped), and whose
 * name-to-node hash keeps the first.  *n_same (may be NULL) gets how many
 * nodes have the name.  NULL when none has.
 */
struct oq_node *oq_fabric_node_by_name(const struct oq_fabric *f,
				       const char *name, size_t len,
				       size_t *n_same);
/* The next node with n's name in that order; NULL after the last. */
struct oq_node *oq_fabric_node_next_same_name(const struct oq_fabric *f,
					      const struct oq_node *n);
/* OpenSM's node table order of two node GUIDs (<0, 0, >0). */
int oq_node_guid_table_cmp(uint64_t a, uint64_t b);
/* A port given on a command line: GUID (0x...), LID ("lid:N") or name. */
struct oq_port *oq_fabric_parse_port(const struct oq_fabric *f,
				     const char *spec);

/*
 * What a port or node is in one fabric rather than in itself: its link
 * partner, its dense position, its partition table and a switch's routes.
 * Read them through f, never from the objects: a fabric built from the
 * previous one shares the nodes that did not change with it
 * (docs/port-change.md).
 */
static inline struct oq_port *oq_port_peer(const struct oq_fabric *f,
					   const struct oq_port *p)
{
	return f && p->id < f->n_port_ids ? f->peer[p->id] : NULL;
}

/* The port's position in f->ports, 0..n_ports-1 (UINT32_MAX: not one of
 * f's ports, or f not finalized).  A port of no fabric (f NULL, tables
 * made by hand) has no partner and no position. */
static inline uint32_t oq_port_index(const struct oq_fabric *f,
				     const struct oq_port *p)
{
	return f && p->id < f->n_port_ids ? f->port_pos[p->id] : UINT32_MAX;
}

/* The node's position in f->nodes, 0..n_nodes-1 (UINT32_MAX: none). */
static inline uint32_t oq_node_index(const struct oq_fabric *f,
				     const struct oq_node *n)
{
	return f && n->id < f->n_node_ids ? f->node_pos[n->id] : UINT32_MAX;
}

/* The port's partition table (OQ_PKEY_FULL in bit 15), *n entries. */
static inline const uint16_t *oq_port_pkeys(const struct oq_fabric *f,
					    const struct oq_port *p, size_t *n)
{
	(void)f;
	*n = p->n_pkeys;
	return p->pkeys;
}

/* True when the port is an end port: a CA/router port or switch port 0. */
static inline bool oq_port_is_endport(const struct oq_port *p)
{
	return p->node->type != OQ_NODE_SWITCH || p->num == 0;
}

/* The port-name of a port: "NAME/P<n>", as snprintf() would write it
 * (truncated to len - 1, NUL-terminated; returns the full length). */
int oq_port_name(const struct oq_port *p, char *buf, size_t len);

/* Partition membership in f: 0 none, 1 limited, 2 full. */
int oq_port_pkey_membership(const struct oq_fabric *f, const struct oq_port *p,
			    uint16_t pkey);

const char *oq_node_type_name(enum oq_node_type t);
const char *oq_speed_name(enum oq_speed s);

/*
 * partitions.conf (OpenSM syntax) -> per-port partition tables and a
 * name -> pkey map used by port groups' `partition:` key.
 */
struct oq_partition {
	char *name;
	uint16_t pkey; /* without the membership bit */
	int sl;	       /* partition's sl= flag, -1 unset */
	struct oq_loc loc;
};

struct oq_partitions {
	struct oq_partition *v;
	size_t n;
	char *file; /* interned path used in diagnostics */
};

/* Parse partitions.conf and apply membership to the fabric's ports (which
 * must be finalized).  Errors go to diags; returns 0, or the cause of the
 * first: -errno when the file cannot be read (oq_file_read's), -EBADMSG
 * when its content has errors (OpenSM then uses only the Default
 * partition, and so does parts), -ENOMEM. */
int oq_partitions_load(struct oq_partitions *parts, const char *path,
		       struct oq_fabric *f, struct oq_diags *diags);
/* OpenSM without a partitions.conf (none readable): the Default partition
 * 0x7fff with every end port a full member; parts->file is then
 * OQ_PARTITIONS_NO_FILE. */
#define OQ_PARTITIONS_NO_FILE "(no partitions file)"
/* The warning for a partition name parts does not define, at loc: the
 * file it is not in, or that OpenSM has only its Default partition. */
void oq_partition_undefined(struct oq_diags *diags, struct oq_loc loc,
			    const char *name,
			    const struct oq_partitions *parts);
int oq_partitions_no_file(struct oq_partitions *parts, struct oq_fabric *f,
			  struct oq_diags *diags);
int oq_partitions_parse(struct oq_partitions *parts, const char *file,
			const char *text, size_t len, struct oq_fabric *f,
			struct oq_diags *diags);
void oq_partitions_free(struct oq_partitions *parts);
const struct oq_partition *oq_partition_by_name(const struct oq_partitions *p,
						const char *name);

/*
 * Topology files: ibnetdiscover output and ibsim net files.  Produces a
 * finalized fabric.  For files without GUIDs, GUIDs are assigned exactly as
 * ibsim assigns them, so offline results match the simulated fabric.
 */
struct oq_fabric *oq_topology_load(const char *path, struct oq_diags *diags);
struct oq_fabric *oq_topology_parse(const char *file, const char *text,
				    size_t len, struct oq_diags *diags);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_FABRIC_H */
