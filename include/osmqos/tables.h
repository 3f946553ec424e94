/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Per-port QoS tables: what a port's SL2VL, VLArb and VLHighLimit are (or
 * should be).  The table compiler produces them from a policy's qos-setup
 * (through a binding, match.h) and the per-port-type templates; the plugin
 * programs them; the arbitration model predicts bandwidth from them.
 */
#ifndef OSMQOS_TABLES_H
#define OSMQOS_TABLES_H

#include <stdbool.h>
#include <stdint.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>

struct oq_binding;
struct oq_sl2vl_store;

#ifdef __cplusplus
extern "C" {
#endif

struct oq_vlarb_table {
	struct { uint8_t vl, weight; } e[OQ_VLARB_MAX];
	uint8_t n; /* entries used; the rest are (0, 0) */
};

/* Where a port's tables came from, for explanations and audits. */
enum oq_table_origin {
	/* per-port-type template (opensm.conf or OpenSM's default) */
	OQ_ORIGIN_TEMPLATE = 0,
	OQ_ORIGIN_SCOPE,  /* a qos-setup scope of the policy */
	OQ_ORIGIN_ENGINE, /* routing engine (SL2VL only) */
	OQ_ORIGIN_INTENT, /* synthesized from bandwidth intents */
};

/* "template", "scope", "routing-engine" or "intent", as the CLI and the
 * published files name them. */
const char *oq_table_origin_name(enum oq_table_origin o);

/* Most SL2VL rows of one port: one per input port, port 0 included. */
#define OQ_SL2VL_MAX_ROWS (OQ_MAX_SW_PORTS + 1)

/* One port's SL2VL rows while they are built, word-aligned as
 * oq_port_tables_set_sl2vl() wants them. */
union oq_sl2vl_scratch {
	uint64_t w[2 * OQ_SL2VL_MAX_ROWS];
	uint8_t row[OQ_SL2VL_MAX_ROWS][16];
};

/* The SLs a row sends to VL15 (dropped): bit sl set. */
static inline uint16_t oq_sl2vl_row_drops(const uint8_t row[16])
{
	uint16_t d = 0;
	unsigned int sl;

	for (sl = 0; sl < 16; sl++)
		if ((row[sl] & 0xf) == OQ_VL_DROP)
			d |= (uint16_t)(1u << sl);
	return d;
}

struct oq_port_tables {
	const struct oq_port *port;
	/*
	 * SL2VL.  CA/router ports and switch port 0: sl2vl[0] only.
	 * Switch external ports (output port = this port): one table per
	 * input port number 0..n_ports, sl2vl[in][sl].
	 */
	uint8_t (*sl2vl)[16];
	uint8_t n_sl2vl; /* 1, or n_ports + 1 for switch external ports */
	bool has_sl2vl;	 /* false: port has no SL2VL (no capability) */
	struct oq_vlarb_table vlarb_high;
	struct oq_vlarb_table vlarb_low;
	bool has_vlarb; /* false: port has no VLArb (vl_cap == 1) */
	uint8_t vl_high_limit;
	enum oq_table_origin sl2vl_origin, vlarb_origin;
	int sl2vl_scope, vlarb_scope; /* index of the winning scope, -1 */
	/* SL2VL the routing engine programs but this compile could not
	 * see (offline torus-2QoS between switches): has_sl2vl is false. */
	bool sl2vl_unknown;
	/* Optional, parallel to sl2vl: bit s of sl2vl_drop[in] set when row
	 * in maps SL s to VL15.  A table that path checks read for every
	 * PathRecord (the SA's copy of OpenSM's SL2VL) carries it, so the
	 * check is one load; NULL: computed from the row. */
	uint16_t *sl2vl_drop;
};

/* Fill t->sl2vl_drop from t->sl2vl, rows set by
 * oq_port_tables_set_sl2vl(): the block's masks, computed once for every
 * port that shares it; 0, or -ENOMEM (the table then works without
 * it). */
int oq_port_tables_index_drops(struct oq_port_tables *t);

/* Per-port-type templates: opensm.conf qos_ca_/qos_swe_/qos_sw0_/qos_rtr_
 * and the generic qos_* options, with OpenSM's compiled-in defaults. */
enum oq_port_kind {
	OQ_KIND_CA = 0,
	OQ_KIND_SWE, /* switch external port */
	OQ_KIND_SW0, /* switch port 0 (enhanced) */
	OQ_KIND_RTR,
	OQ_KIND_MAX,
};

struct oq_qos_template {
	uint8_t max_vls;
	uint8_t high_limit;
	struct oq_vlarb_table vlarb_high;
	struct oq_vlarb_table vlarb_low;
	uint8_t sl2vl[16];
};

struct oq_templates {
	struct oq_qos_template t[OQ_KIND_MAX];
	/* opensm.conf routing_engine: the first engine of its list ("" when
	 * the file does not say: minhop). */
	char routing_engine[32];
	/* opensm.conf max_op_vls: OpenSM's encoding (1 VL0, 2 VL0-1, 3
	 * VL0-3, 4 VL0-7, 5 VL0-14; default 5), the cap its link manager
	 * puts on every link's OperVLs. */
	uint8_t max_op_vls;
};

/*
 * VLArb entries OpenSM writes for a capability: block 0 holds
 * min(cap, 32), block 1 holds cap % 32 when cap > 32 -- which is 0 for
 * cap == 64, so a 64-entry table only ever gets its first 32 entries.
 * The compiler fills, and the live audit compares, exactly these.
 */
static inline unsigned int oq_vlarb_effective_cap(unsigned int cap)
{
	if (cap > OQ_VLARB_MAX)
		cap = OQ_VLARB_MAX;
	return cap == OQ_VLARB_MAX ? 32 : cap;
}

/*
 * Table compiler.  out->ports[i] belongs to fabric->ports[i].  b may be NULL
 * (no policy: templates only).  Ports no scope covers take the template of
 * their kind; tables are clipped to the port's VL and VLArb caps, and a VL
 * the port lacks is a warning naming the port, which then keeps its
 * template (never a silent wrap).
 */
struct oq_fabric_tables {
	struct oq_port_tables *ports;
	size_t n;
	/* Optional: bit i (word i / 64) set when port i's SL2VL maps no SL
	 * to VL15 from any input, so a path check passes the port without
	 * reading its tables; NULL: every port's tables are read.  Like
	 * sl2vl_drop, a summary of the rows when it was built: whoever
	 * changes a row rebuilds both (oq_fabric_tables_index_drops()) or
	 * frees them. */
	uint64_t *no_drop;
	/* The distinct SL2VL blocks shared ports point into: on a regular
	 * fabric nearly every port of a kind holds the same rows, so a
	 * 2,700-node fat tree's 9 MB of rows are a few kilobytes here. */
	struct oq_sl2vl_store *store;
	/* What a compile on a fabric derived from this one reads
	 * (oq_tables_compile_derived()): whether the compile said nothing,
	 * and per scope of the policy (its vlarb-scopes, then its
	 * sl2vl-scopes) the id of a port the scope covers,
	 * OQ_TABLES_COVERS_NONE, or OQ_TABLES_COVERS_ANY where the scope
	 * counts as covering without a port (sl2vl-scopes an engine that
	 * owns SL2VL ignores).  NULL covers: not known. */
	bool quiet;
	uint32_t *covers;
	size_t n_covers;
	/* A derived compile's: kept[i] when port i is a port of a node
	 * the fabric derived from shares, whose ports' partners are there
	 * too (the same ports, or ports in the same groups), and its
	 * tables are that port's there, as they were; NULL: not known (a
	 * full compile).  Whoever changes a port's tables after the
	 * compile frees it. */
	bool *kept;
};

#define OQ_TABLES_COVERS_NONE UINT32_MAX
#define OQ_TABLES_COVERS_ANY  (UINT32_MAX - 1)

/*
 * Set pt's SL2VL to rows[0..n-1] (1 <= n <= OQ_SL2VL_MAX_ROWS), as a
 * block of t's store of distinct rows, shared with every port that holds
 * the same rows: read pt->sl2vl and pt->sl2vl_drop, never write or free
 * them (to change a port's rows, set new ones).  rows may be pt's
 * current rows, and must be 8-byte aligned (they are hashed a word
 * at a time): a calloc()'d table, a stored block, or a union
 * oq_sl2vl_scratch.  Returns 0, -EINVAL (n out of range) or -ENOMEM;
 * pt is unchanged on failure.  _fill_ sets n copies of one row.  Like
 * oq_port_tables_index_drops() on shared rows (which fills the shared
 * block's drop masks), for a table set being built, not one that other
 * threads read.
 */
int oq_port_tables_set_sl2vl(struct oq_fabric_tables *t,
			     struct oq_port_tables *pt,
			     const uint8_t (*rows)[16], unsigned int n);
int oq_port_tables_fill_sl2vl(struct oq_fabric_tables *t,
			      struct oq_port_tables *pt, const uint8_t *row,
			      unsigned int n);
/* No SL2VL rows (the store keeps the block). */
void oq_port_tables_clear_sl2vl(struct oq_port_tables *pt);

/*
 * Whether rows[0..n-1] are n copies of one row (every input port maps
 * SLs alike), remembered for the rows last asked about: a pass over the
 * ports, whose rows nearly all point into one shared block, compares a
 * block's rows once instead of once per port.  The rows must not change
 * while a memo remembers them (a zeroed memo remembers nothing).
 */
struct oq_sl2vl_uniform_memo {
	const void *rows;
	unsigned int n;
	bool uniform;
};
bool oq_sl2vl_rows_uniform(struct oq_sl2vl_uniform_memo *m,
			   const uint8_t (*rows)[16], unsigned int n);

/* oq_port_tables_index_drops() for every port, and t->no_drop; 0, or
 * -ENOMEM (the tables then work without them). */
int oq_fabric_tables_index_drops(struct oq_fabric_tables *t);

/* Port i's bit in t->no_drop (which must be built). */
static inline bool oq_fabric_tables_no_drop(const struct oq_fabric_tables *t,
					    size_t i)
{
	return (t->no_drop[i / 64] >> (i % 64)) & 1;
}

/* Every port's tables: the templates t (NULL: OpenSM's defaults), then
 * the qos-setup scopes of b's policy (b may be NULL).  Returns 0, -EINVAL
 * (no fabric) or -ENOMEM; warnings and errors about the policy go to
 * diags and do not fail the compile. */
int oq_tables_compile(const struct oq_binding *b, const struct oq_fabric *f,
		      const struct oq_templates *t,
		      struct oq_fabric_tables *out, struct oq_diags *diags);

/*
 * The routing engine, as far as QoS tables go (OpenSM 3.3.23).  minhop,
 * updn, dnup, file, ftree and dor leave SL2VL to QoS: the policy's scopes,
 * else the template.  dfsssp, sssp, lash and nue choose every path's SL
 * (path_sl) for deadlock freedom and leave SL2VL on the template, so the
 * policy's sl2vl-scopes do not apply.  torus-2QoS chooses SLs, programs
 * SL2VL itself and rewrites the VLArb of switch ports facing end ports.
 */
enum oq_engine_kind {
	OQ_ENGINE_QOS = 0, /* SL2VL from the policy, else the template */
	OQ_ENGINE_PATH_SL, /* path SLs the engine's; SL2VL the template's */
	OQ_ENGINE_OWN,	   /* path SLs and SL2VL the engine's */
};

struct oq_engine {
	char name[32];
	enum oq_engine_kind kind;
	/*
	 * A running engine's own table hooks (the plugin passes OpenSM's);
	 * NULL offline, where torus-2QoS is modelled as far as the fabric
	 * shows it.  sl2vl: row holds the template's table for (port,
	 * input port in) and the engine may rewrite it; return -1 when the
	 * engine's table is not known.  vlarb: entries first..first+n-1 of
	 * one table as OpenSM's block block_num (0-1 low, 2-3 high); the
	 * engine may rewrite them.
	 */
	int (*sl2vl)(void *ctx, const struct oq_port *p, unsigned int in,
		     uint8_t row[16]);
	void (*vlarb)(void *ctx, const struct oq_port *p,
		      unsigned int block_num, struct oq_vlarb_table *t,
		      unsigned int first, unsigned int n);
	void *ctx;
};

/* The engine OpenSM names so (routing_engine's first entry; NULL or ""
 * is minhop, OpenSM's default).  Returns 0, or -1 for a name OpenSM
 * 3.3.23 does not know (e is then minhop-like, named as given). */
int oq_engine_by_name(struct oq_engine *e, const char *name);

/*
 * oq_tables_compile for a routing engine (NULL: one that leaves SL2VL to
 * QoS).  Where the engine chooses SLs the policy's sl2vl-scopes do not
 * apply (a warning per scope), and the engine's VLArb rewrites come last.
 * Then no port may starve a VL that its SL2VL maps a used SL to (an SL of
 * a qos-level or partition, SL 0, or any SL when the engine chooses
 * them): a scope that would is not programmed on that port, which keeps
 * the template's table (and the engine's rewrite), with one error per
 * scope naming the VL, the SL and the first such port.
 */
int oq_tables_compile_engine(const struct oq_binding *b,
			     const struct oq_fabric *f,
			     const struct oq_templates *t,
			     const struct oq_engine *engine,
			     struct oq_fabric_tables *out,
			     struct oq_diags *diags);
void oq_fabric_tables_free(struct oq_fabric_tables *t);

/*
 * The tables of f, a fabric derived from prev_f (oq_fabric_derive()),
 * from prev: prev_f's tables, compiled by oq_tables_compile_engine() or
 * this function with the same policy (b's, bound with the same
 * partitions), templates and engine; the caller sees to that.  A port's
 * tables depend on no more than its node, the link partners of its
 * node's ports and those inputs, so the ports of a node f shares with
 * prev_f whose ports' partners are the same take prev's tables, and the
 * other ports are compiled.  Only where that is the full compile's
 * result, findings included: the engine leaves SL2VL to QoS and has no
 * table hooks, prev's compile said nothing (a finding names the first
 * port in fabric order, or counts ports), the ports compiled say
 * nothing, and each scope still covers a port.  Returns 0 with
 * *n_compiled the ports compiled, 1 when it cannot (then compile in
 * full), or -ENOMEM; out is empty unless 0.
 */
int oq_tables_compile_derived(const struct oq_binding *b,
			      const struct oq_fabric *f,
			      const struct oq_templates *t,
			      const struct oq_engine *engine,
			      const struct oq_fabric *prev_f,
			      const struct oq_fabric_tables *prev,
			      struct oq_fabric_tables *out, size_t *n_compiled);

/* Whether a and b, compiled for one fabric, give every port the same
 * tables from the same origins and scopes (the SL2VL rows compared by
 * content).  Summaries (sl2vl_drop, no_drop) are not compared. */
bool oq_fabric_tables_same(const struct oq_fabric_tables *a,
			   const struct oq_fabric_tables *b);

/* Templates: OpenSM's compiled-in defaults, or opensm.conf's qos_* keys.
 * Load and parse return 0, or the cause of the first error (each one is
 * in diags): -errno when the file cannot be read (oq_file_read's),
 * -EBADMSG when the content has errors, -ENOMEM. */
void oq_templates_default(struct oq_templates *t);
int oq_templates_load_opensm_conf(struct oq_templates *t, const char *path,
				  struct oq_diags *diags);
int oq_templates_parse_opensm_conf(struct oq_templates *t, const char *file,
				   const char *text, size_t len,
				   struct oq_diags *diags);

enum oq_port_kind oq_port_kind(const struct oq_port *p);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_TABLES_H */
