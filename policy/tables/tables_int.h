/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Private to the table compiler (tables_*.c). */
#ifndef OSMQOS_TABLES_INT_H
#define OSMQOS_TABLES_INT_H

#include <stdbool.h>
#include <stdint.h>

#include <osmqos/match.h>
#include <osmqos/tables.h>

/* Data VLs the port runs: OperVLs, or VLCap when OperVLs is unknown. */
static inline unsigned int oq_port_vls(const struct oq_port *p)
{
	unsigned int n = p->oper_vls ? p->oper_vls : p->vl_cap;

	if (n > OQ_MAX_VLS)
		n = OQ_MAX_VLS;
	return n ? n : 1;
}

/*
 * The mask OpenSM applies to every VL it programs from a template
 * (osm_qos.c: (1 << (OperVLs encoding - 1)) - 1): 0, 1, 3, 7 or 15.  It
 * wraps VLs the port lacks onto lower ones; the template path keeps that
 * so it equals what OpenSM programs, the scope path never wraps.
 */
static inline unsigned int oq_port_vl_mask(const struct oq_port *p)
{
	unsigned int n = oq_port_vls(p);

	if (n >= 15)
		return 15;
	if (n >= 8)
		return 7;
	if (n >= 4)
		return 3;
	if (n >= 2)
		return 1;
	return 0;
}

/* Display name of a port for diagnostics: "desc/P<n> (0xGUID)". */
void oq_tables_port_label(const struct oq_port *p, char *buf, size_t len);

/* Per-scope accounting for the "entries dropped" summary warning. */
struct oq_clip_note {
	const struct oq_port *first;
	size_t n_ports;
};

/*
 * Per scope of a compile, a port it covers (struct oq_fabric_tables
 * covers: the vlarb-scopes' part, or the sl2vl-scopes'): a scope that
 * covers none is a warning (a typo, or a fabric other than the one
 * meant).  Once a scope covers a port, the ports after it need not ask.
 */
static inline bool oq_scope_covers_any(const uint32_t *covers, size_t si)
{
	return covers[si] != OQ_TABLES_COVERS_NONE;
}

void oq_tables_apply_vlarb_scopes(const struct oq_binding *b,
				  struct oq_port_tables *pt,
				  struct oq_clip_note *clips, uint32_t *covers,
				  struct oq_diags *diags);
/* 0 or -ENOMEM.  The port's new rows are a block of out's store, as the
 * template's were. */
int oq_tables_apply_sl2vl_scopes(const struct oq_binding *b,
				 struct oq_fabric_tables *out,
				 struct oq_port_tables *pt, uint32_t *covers,
				 struct oq_diags *diags);

/* A port's tables back to its template (VLArb with VLHighLimit, or
 * SL2VL, a block of out's store); sl2vl returns 0 or -ENOMEM. */
void oq_tables_template_vlarb(const struct oq_fabric *f,
			      struct oq_port_tables *pt,
			      const struct oq_templates *t);
int oq_tables_template_sl2vl(const struct oq_fabric *f,
			     struct oq_fabric_tables *out,
			     struct oq_port_tables *pt,
			     const struct oq_templates *t);

/* The routing engine's own tables (engine.c): its SL2VL where it owns
 * SL2VL, then, as osm_qos.c does, its VLArb rewrite of the unmasked table
 * and the OperVLs mask.  oq_tables_engine_vlarb does one port (again
 * after a revert).  Returns 0 or -ENOMEM. */
int oq_tables_engine_apply(const struct oq_fabric *f, const struct oq_engine *e,
			   struct oq_fabric_tables *out);
void oq_tables_engine_vlarb(const struct oq_fabric *f,
			    const struct oq_engine *e,
			    struct oq_port_tables *pt);
/* The VLs torus-2QoS's tables between switches can use on this fabric. */
unsigned int oq_tables_torus_sw_vls(const struct oq_fabric *f);

/* out->covers for pol's scopes, none covered yet.  0 or -ENOMEM. */
int oq_tables_covers_init(struct oq_fabric_tables *out,
			  const struct oq_policy *pol);
/* One port of oq_tables_compile_engine(), on its own (tables_derive.c):
 * its template, b's scopes (clips and out->covers noted) and the engine's
 * VLArb rewrite, not the guard.  0 or -ENOMEM. */
int oq_tables_compile_port(const struct oq_binding *b,
			   const struct oq_fabric *f,
			   const struct oq_templates *t,
			   const struct oq_engine *e,
			   struct oq_fabric_tables *out,
			   struct oq_port_tables *pt, const struct oq_port *p,
			   struct oq_clip_note *clips, struct oq_diags *diags);

/* One port's part of oq_tables_guard(): whether its tables starve a VL
 * (tables_derive.c, which compiles ports one at a time). */
bool oq_tables_port_starves(const struct oq_binding *b,
			    const struct oq_fabric *f,
			    const struct oq_engine *e,
			    const struct oq_port_tables *pt);

/* No VL that a used SL maps to starves (tables_guard.c).  Returns 0 or
 * -ENOMEM. */
int oq_tables_guard(const struct oq_binding *b, const struct oq_fabric *f,
		    const struct oq_templates *t, const struct oq_engine *e,
		    struct oq_fabric_tables *out, struct oq_diags *diags);

#endif /* OSMQOS_TABLES_INT_H */
