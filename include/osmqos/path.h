/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The path engine: what OpenSM 3.3.23's SA computes for a PathRecord
 * between two end ports, over the fabric model and its switches' LFTs.
 * It mirrors pr_rcv_get_path_parms() (osm_sa_path_record.c) step by step:
 * the hop walk, the MTU and rate minima (with OpenSM's own rate order),
 * SL validity through every hop's SL2VL, and the partition checks of
 * osm_pkey.c.  See docs/path-engine.md.
 *
 * Pure functions of an immutable fabric: safe from several threads.
 */
#ifndef OSMQOS_PATH_H
#define OSMQOS_PATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/tables.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OQ_PATH_MAX_HOPS	  64	 /* OpenSM's MAX_HOPS: more is a loop */
#define OQ_PATH_ALL_SLS		  0xffff /* sl_mask when nothing is dropped */
#define OQ_SUBNET_TIMEOUT_DEFAULT 18	 /* opensm.conf subnet_timeout */

enum oq_path_status {
	OQ_PATH_OK = 0,
	OQ_PATH_INVALID,   /* bad arguments: no source, not an end port */
	OQ_PATH_NO_DEST,   /* no port owns the destination LID */
	OQ_PATH_NO_ROUTE,  /* a switch's LFT has no usable entry (1F02/03/07) */
	OQ_PATH_DEAD_LINK, /* the egress port has no link partner (1F05) */
	OQ_PATH_BAD_PATH,  /* reached a CA/router that is not the dest (1F06) */
	OQ_PATH_TOO_LONG, /* more than OQ_PATH_MAX_HOPS switches: loop (1F25) */
	OQ_PATH_NO_SL,	  /* every SL reaches VL15 somewhere on the path */
};

/* One switch on the path.  in is NULL at a source switch (OpenSM uses
 * input port 0 there); out is the LFT's egress port (port 0 at a
 * destination switch). */
struct oq_route_hop {
	const struct oq_port *in;
	const struct oq_port *out;
};

struct oq_path {
	enum oq_path_status status;
	const struct oq_port *src; /* source end port */
	const struct oq_port *dst; /* port owning dlid (switch: port 0) */
	uint16_t dlid;
	/*
	 * OpenSM's hop count: switches whose ingress was checked, i.e. every
	 * switch after the source (a destination switch included).  Not put
	 * in PathRecords by OpenSM (HopLimit stays 0), but bounded by
	 * OQ_PATH_MAX_HOPS.
	 */
	unsigned int hops;
	/* The switches in order; n_hop = hops, plus 1 for a source switch.
	 * Only hop[0] .. hop[n_hop - 1] are set. */
	struct oq_route_hop hop[OQ_PATH_MAX_HOPS + 2];
	unsigned int n_hop;
	uint8_t mtu;	  /* IB MTU enum 1..5: minimum MtuCap on the path */
	uint8_t rate;	  /* PathRecord rate enum: OpenSM's minimum */
	uint8_t pkt_life; /* 0 for a loopback path, else subnet_timeout */
	uint16_t sl_mask; /* bit n: SL n never meets VL15 on this path */
	/* Where a failed walk stopped (the node whose LFT/link failed). */
	const struct oq_node *stuck;
};

struct oq_path_opts {
	uint8_t subnet_timeout; /* opensm.conf subnet_timeout (pkt_life) */
};

/*
 * Resolve the path from end port src (a CA/router port or a switch's
 * port 0) to dlid along the switches' LFTs, exactly as OpenSM's SA does.
 * tables: the SL2VL in force per port (NULL: skip the SL checks, as
 * OpenSM does with qos FALSE; sl_mask stays OQ_PATH_ALL_SLS).
 * opts may be NULL (defaults).  Returns out->status; out is always set.
 */
enum oq_path_status oq_path_resolve(const struct oq_fabric *f,
				    const struct oq_fabric_tables *tables,
				    const struct oq_port *src, uint16_t dlid,
				    const struct oq_path_opts *opts,
				    struct oq_path *out);

const char *oq_path_status_name(enum oq_path_status s);

/* PathRecord rate enum of a port's link as ib_port_info_compute_rate()
 * of the release in force gives it (FDR10 counts as QDR; unknown width
 * as 1x; unknown speed, and NDR before 3.3.24, as 2.5 Gb/s). */
uint8_t oq_path_port_rate(const struct oq_port *p);
/* ib_rate_is_valid(): 2..IB_MAX_RATE of the release in force (a request
 * with another rate is invalid). */
bool oq_path_rate_valid(uint8_t rate);
/* ib_path_compare_rates(): OpenSM's order of rate enums, which is not the
 * nominal one (e.g. 30 Gb/s < 25 Gb/s); -1, 0, 1.  Invalid enums, and
 * those above the release's IB_MAX_RATE, order lowest. */
int oq_path_rate_cmp(uint8_t a, uint8_t b);
/* ib_path_rate_get_prev(): the next lower rate in that order, 0 none. */
uint8_t oq_path_rate_prev(uint8_t rate);
/* osm_sa_limit_rate() (OpenSM 3.3.24): rate as the SA limits it to
 * opensm.conf's max_rate_enum limit (2..24). */
uint8_t oq_path_rate_limit(uint8_t rate, uint8_t limit);

/*
 * Partitions, as osm_pkey.c.  Membership comes from the ports' partition
 * tables (bit 15 = full).  A pair matches when the keys' low 15 bits are
 * equal and at least one side is a full member.  allow_both: opensm.conf
 * allow_both_pkeys (full and limited of one key kept apart).
 *
 * pkey != 0: osm_physp_share_this_pkey(); *out_pkey = pkey.
 * pkey == 0: osm_physp_find_common_pkey(): the first shared key in
 *            OpenSM's map order (keys in network byte order compared as
 *            x86_64 integers), with the membership bit of a's entry.
 * Returns true when shared; out_pkey may be NULL.
 */
bool oq_ports_share_pkey_ex(const struct oq_fabric *f, const struct oq_port *a,
			    const struct oq_port *b, uint16_t pkey,
			    bool allow_both, uint16_t *out_pkey);
/* The same with allow_both_pkeys FALSE (OpenSM's default). */
bool oq_ports_share_pkey(const struct oq_fabric *f, const struct oq_port *a,
			 const struct oq_port *b, uint16_t pkey,
			 uint16_t *out_pkey);
/* osm_physp_share_pkey(): the SA's visibility check.  True for the same
 * port, or when either port has an empty partition table. */
bool oq_ports_pkey_visible(const struct oq_fabric *f, const struct oq_port *a,
			   const struct oq_port *b, bool allow_both);

/*
 * LMC: the (SLID, DLID) pairs OpenSM's pr_rcv_get_port_pair_paths() tries
 * for two ports, in its order: first the "redundant" pairs base+i/base+i
 * (preference 0), then the other combinations (preference 2).  slid/dlid
 * != 0 fix that end (the request's SLID/DLID component).  The SA tries
 * them in order and stops after NumbPath successful paths (1 for Get).
 */
struct oq_lid_pair {
	uint16_t slid, dlid;
	uint8_t preference;
};

/* Fills up to cap pairs; returns the total number (which may exceed cap),
 * 0 when an end has LID 0. */
size_t oq_path_lid_pairs(const struct oq_port *src, const struct oq_port *dst,
			 uint16_t slid, uint16_t dlid,
			 struct oq_lid_pair *pairs, size_t cap);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_PATH_H */
