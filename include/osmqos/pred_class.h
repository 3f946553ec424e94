/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Port classes: ports whose prediction inputs are equal (link width and
 * speed, MTU, the SL-to-VL view the prediction takes, the distinct SL2VL
 * tables of the input ports, VLArb, VLHighLimit, where the SL2VL came
 * from) get the same prediction, so it is computed once per class.  A fat
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

/* One input port's view of a switch egress: its SL2VL row and what the
 * model gives each SL with that input alone feeding the egress. */
struct oq_pred_view {
	uint8_t row[16];
	int8_t vl[16];
	double gbps[16];
};

struct oq_pred_class {
	size_t rep;	/* fabric index of the class's first port */
	size_t n_ports; /* ports in the class */
	/* The options' view of every port of the class (by default all 16
	 * SLs backlogged, every input port at once). */
	struct oq_port_pred pred;
	/* Lowest Gb/s over pred and every input port's view: what no path
	 * through a port of the class gets less of at that hop. */
	double guaranteed_gbps[16];
	/* Distinct SL2VL rows of the input ports that count (port 0 and
	 * linked ports other than the egress), sorted; none for ports with
	 * one SL2VL table, or when the options name one input port. */
	struct oq_pred_view *views;
	size_t n_views;
	/* Internal: the key the class was found by. */
	uint8_t *key;
	size_t key_len;
	uint64_t hash;
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
	bool aggregate; /* built with the all-inputs view (views valid) */
};

/* The ports `osmqos predict` and the published files model: present and
 * linked. */
bool oq_pred_modeled(const struct oq_port *p);

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

/* The class of fabric port index i, or NULL. */
const struct oq_pred_class *oq_pred_class_of(const struct oq_pred_classes *c,
					     size_t i);

/*
 * The hop view oq_predict_path() takes, from the class table built with
 * the default options: at egress port index i (tables t) for traffic that
 * entered by input port in, the Gb/s of SL sl and its VL.  Returns 0, or
 * 1 when the table does not hold that view (the port is not classified,
 * or in is an input whose row no class view has); the caller then asks
 * the model itself.
 */
int oq_pred_classes_hop(const struct oq_pred_classes *c,
			const struct oq_fabric_tables *t, size_t i, int in,
			uint8_t sl, double *gbps, int8_t *vl);

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
