/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Port classes: ports whose prediction inputs are equal (link width and
 * speed, MTU, the SL-to-VL view the prediction takes, the distinct SL2VL
 * tables of the input ports, VLArb, VLHighLimit, where the SL2VL came
 * from) get the same prediction and guarantee, so they are computed once
 * per class.  A fat
 * tree has a handful of classes however many ports it has.  The plugin's
 * published files, its SA front's path predictions and `osmqos predict`
 * all read one class table (docs/model.md, "Port classes").
 */
#ifndef OSMQOS_PRED_CLASS_H
#define OSMQOS_PRED_CLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <osmqos/fabric.h>
#include <osmqos/model.h>
#include <osmqos/tables.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OQ_PRED_CLASS_NONE UINT32_MAX

/* The layout version of the documents the classes are written into
 * (osmqos-bandwidth.json, `osmqos predict --json`): bumped when a key
 * moves or changes meaning (3: guaranteed_gbps is the VL's share with
 * every VL busy, docs/json.md). */
#define OQ_PRED_SCHEMA 3

/* The state cap of each VL's worst wait in a class (oq_arb_worst_wait):
 * beyond it the published wait is unknown (null). */
#define OQ_PRED_WAIT_STATES (1u << 14)

struct oq_pred_class {
	size_t rep;	/* fabric index of the class's first port */
	size_t n_ports; /* ports in the class */
	/* The what-if the options ask for (by default all 16 SLs backlogged,
	 * a VL's share split equally among them, every input at once). */
	struct oq_port_pred pred;
	/* The guarantee whatever the traffic (osmqos/model.h): every VL the
	 * SL2VL reaches busy, each SL its VL's share (the least over the
	 * VLs any input sends it to), shared where other granted SLs reach
	 * the VL; each VL's worst wait. */
	struct oq_port_guarantee guar;
	/* guar's shares in Gb/s at the class's rate: what no path through
	 * a port of the class gets less of at that hop. */
	double guaranteed_gbps[16];
};

struct oq_pred_classes {
	struct oq_pred_class *v;
	size_t n;
	/* Fabric port index -> class index, OQ_PRED_CLASS_NONE for ports
	 * not classified (not modelled, or refused by the model). */
	uint32_t *of_port;
	size_t n_ports;
	size_t n_classified;
	size_t n_bad;	/* ports the model refused (bad options) */
	bool aggregate; /* built with the all-inputs view (hops valid) */
};

/* The ports `osmqos predict` and the published files model: present and
 * linked. */
bool oq_pred_modeled(const struct oq_fabric *f, const struct oq_port *p);

/*
 * Classify the ports of f (only `only` when not NULL, else every modelled
 * port; tables->ports parallel to f->ports) and predict each class once
 * with options o.  Returns 0, or -1 when out of memory (out is then
 * empty).  Ports the model refuses are counted in n_bad and left out.
 */
int oq_pred_classes_build(const struct oq_fabric *f,
			  const struct oq_fabric_tables *tables,
			  const struct oq_predict_opts *o,
			  const struct oq_port *only,
			  struct oq_pred_classes *out);
void oq_pred_classes_free(struct oq_pred_classes *c);

/*
 * oq_pred_classes_build() of every modelled port of f, from prev, the
 * classes built so of prev_f (tables prev_tables) with the same options,
 * when tables were derived from prev_tables (tables->kept): a port of a
 * node prev_f shares whose ports' tables were all kept, with partners
 * alike and of the same MTU, takes its class there; the others are
 * keyed (*n_keyed), a class of prev's found by its key.  out is what the
 * full build gives, byte for byte; without tables->kept it is the full
 * build.  0, or -1 when out of memory (out is then empty).
 */
int oq_pred_classes_derive(const struct oq_fabric *f,
			   const struct oq_fabric_tables *tables,
			   const struct oq_predict_opts *o,
			   const struct oq_fabric *prev_f,
			   const struct oq_fabric_tables *prev_tables,
			   const struct oq_pred_classes *prev,
			   struct oq_pred_classes *out, size_t *n_keyed);

/* dst, empty, becomes a copy of src: the classes of a fabric whose
 * tables are the same again (oq_fabric_tables_same()).  0, or -1 when
 * out of memory (dst stays empty). */
int oq_pred_classes_copy(struct oq_pred_classes *dst,
			 const struct oq_pred_classes *src);

/* The VL the published files give SL s of class c: its VL where the
 * inputs that feed the port all send it to that one VL, OQ_VL_NONE where
 * they all drop it, OQ_VL_MIXED where they differ -- one of them sending
 * it to VL15 (c->guar.dropped) included: traffic on it from that input is
 * dropped here, from the others it is not. */
int oq_pred_class_sl_vl(const struct oq_pred_class *c, unsigned int s);

/* The class of fabric port index i, or NULL. */
const struct oq_pred_class *oq_pred_class_of(const struct oq_pred_classes *c,
					     size_t i);

/*
 * One hop of a path from the class table built for every input at once:
 * at egress port index i (tables t) for traffic that entered by input
 * port in, what SL sl is guaranteed there (its VL under that input's
 * SL2VL, osmqos/model.h).  Returns 0, or 1 when the table does not hold
 * the port (not classified, or built for one input); the caller then
 * asks the model itself (oq_port_hop).
 */
int oq_pred_classes_hop(const struct oq_pred_classes *c,
			const struct oq_fabric_tables *t, size_t i, int in,
			uint8_t sl, struct oq_hop_guarantee *h);

/*
 * The classes and the ports as JSON members (docs/json.md): writes
 * `"classes": [...], "nodes": [...]` -- each class with its per-SL
 * prediction, each node with its ports as references to their class.
 * Shared by the published file and `osmqos predict --json` so the two
 * are equal to the last digit.  Returns 0, -1 on a stream error.
 */
int oq_pred_classes_write_json(FILE *out, const struct oq_fabric *f,
			       const struct oq_fabric_tables *tables,
			       const struct oq_pred_classes *c);

/*
 * The nodes list of a render, kept per node so that the next render of
 * a fabric derived from it writes only the entries that changed: a
 * node's entry is made of its GUID, description, type and its listed
 * ports' numbers, GUIDs, LIDs, LMCs and classes, and is copied when all
 * of those are as they were.  Zeroed: nothing kept.
 */
struct oq_pred_node_entry;
struct oq_pred_port_entry;

struct oq_pred_nodes_kept {
	char *buf; /* the list's inside, separators included; NULL: none */
	size_t len;
	struct oq_pred_node_entry *nodes; /* its entries, in list order */
	struct oq_pred_port_entry *ports;
	size_t n;	   /* entries (nodes with a classified port) */
	size_t n_rendered; /* entries the last keep rendered, not copied */
};

/* k becomes the nodes list of f and c, rendered where k's entries do not
 * give it.  0, or -1 when out of memory (k is then empty). */
int oq_pred_nodes_keep(struct oq_pred_nodes_kept *k, const struct oq_fabric *f,
		       const struct oq_pred_classes *c);
void oq_pred_nodes_kept_free(struct oq_pred_nodes_kept *k);

/* The `, "nodes": [...]` member of f and c: kept's bytes when given
 * (oq_pred_nodes_keep() of the same f and c), else rendered.  0, -1 on a
 * stream error or out of memory. */
int oq_pred_nodes_write_json(FILE *out, const struct oq_fabric *f,
			     const struct oq_pred_classes *c,
			     const struct oq_pred_nodes_kept *kept);

/* Only the `"classes": [...]` member; with example, each class also
 * names its first port (`osmqos predict`'s summary).  0, -1. */
int oq_pred_classes_write_json_classes(FILE *out, const struct oq_fabric *f,
				       const struct oq_fabric_tables *tables,
				       const struct oq_pred_classes *c,
				       bool example);

/* "template", "scope", "routing-engine", "unknown" (an engine's table
 * offline) or "none" (no SL2VL): where a port's SL2VL came from. */
const char *oq_pred_sl2vl_origin(const struct oq_port_tables *t);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_PRED_CLASS_H */
