/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Grouping ports into classes: the port facts both the predictions
 * (osmqos/pred_class.h) and the synthesizer (osmqos/synth.h) read, and
 * one index from a byte-string key to a class number.  Each caller puts
 * into a port's key everything its own computation reads for the port,
 * so ports with equal keys get equal results by construction, and a
 * fabric is classified with one hash lookup per port.
 */
#ifndef OSMQOS_PORT_CLASS_H
#define OSMQOS_PORT_CLASS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/fabric.h>
#include <osmqos/htab.h>
#include <osmqos/tables.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Data VLs the port runs: OperVLs, else VLCap; 1..OQ_MAX_VLS. */
unsigned int oq_port_data_vls(const struct oq_port *p);

/* At a switch egress, whether input port `in` can feed it: port 0 (the
 * switch itself) and every other linked port, never the egress itself
 * (traffic does not turn back on the link it came by). */
bool oq_port_counts_as_input(const struct oq_fabric *f,
			     const struct oq_port *egress, unsigned int in);

/* The distinct SL2VL rows of the input ports that count, sorted by
 * memcmp, into rows (room for t->n_sl2vl rows); returns their number, 0
 * when no input counts. */
size_t oq_port_input_rows(const struct oq_fabric *f,
			  const struct oq_port_tables *t, uint8_t (*rows)[16]);

/* Key -> the caller's value (its class number, or a mark of its own).
 * The keys are interned (osmqos/htab.h): each distinct key is stored
 * once.  Zero-initialised is empty. */
struct oq_class_keys {
	struct oq_intern keys;
	uint32_t *val; /* per key id: the caller's value */
	size_t val_cap;
	uint32_t last; /* the key id the last find added */
	uint8_t *buf;  /* the key being built */
	size_t len, buf_cap;
	bool oom; /* a put ran out of memory: the next find fails */
};

/* Start a new key. */
void oq_class_key_start(struct oq_class_keys *k);
/* Append n bytes to the key being built. */
void oq_class_key_put(struct oq_class_keys *k, const void *v, size_t n);
/* Look up the key built: 0 when it was there, *val its value; 1 when it
 * is new (the caller gives it a value with oq_class_key_set() before the
 * next find); -ENOMEM (nothing added). */
int oq_class_key_find(struct oq_class_keys *k, uint32_t *val);
/* The value of the key the last find added. */
void oq_class_key_set(struct oq_class_keys *k, uint32_t val);
void oq_class_keys_free(struct oq_class_keys *k);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_PORT_CLASS_H */
