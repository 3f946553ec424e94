// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Guaranteed bandwidth of a granted path for the audit trail.  The model
 * of one egress port (the VL arbiter run to its cycle) costs microseconds,
 * and the same few ports carry every path, so each (egress port, input
 * port) prediction is computed once per sweep state, by whichever SA
 * thread needs it first, and published lock-free: a slot is claimed with a
 * compare-and-swap, filled, then marked ready with release ordering.  A
 * thread that finds a slot being filled computes its own copy instead of
 * waiting.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "plugin.h"

#include <osmqos/model.h>

enum { SLOT_EMPTY = 0, SLOT_BUSY, SLOT_READY };

struct pred_slot {
	int state; /* __atomic */
	double gbps[16];
	int8_t vl[16];
};

/* Per port: one slot per input-port table (1 for CA ports and port 0). */
struct oq_pred_cache {
	size_t n;
	struct pred_slot **port; /* __atomic pointers, lazily allocated */
};

struct oq_pred_cache *oq_pred_cache_new(size_t n_ports)
{
	struct oq_pred_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->n = n_ports;
	c->port = calloc(n_ports ? n_ports : 1, sizeof(*c->port));
	if (!c->port) {
		free(c);
		return NULL;
	}
	return c;
}

void oq_pred_cache_free(struct oq_pred_cache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++)
		free(c->port[i]);
	free(c->port);
	free(c);
}

static void compute(const struct oq_port_tables *t, int in_port,
		    struct pred_slot *out)
{
	struct oq_predict_opts o;
	struct oq_port_pred p;
	unsigned int sl;

	oq_predict_opts_init(&o);
	o.in_port = t->n_sl2vl > 1 ? in_port : OQ_IN_AGGREGATE;
	if (oq_predict_port(t, -1.0, &o, &p)) {
		for (sl = 0; sl < 16; sl++) {
			out->gbps[sl] = -1.0;
			out->vl[sl] = OQ_VL_NONE;
		}
		return;
	}
	for (sl = 0; sl < 16; sl++) {
		out->gbps[sl] = p.sl[sl].gbps;
		out->vl[sl] = p.sl[sl].vl;
	}
}

/* The prediction for egress port index i, input port in: from the cache,
 * or computed into *tmp. */
static const struct pred_slot *lookup(struct oq_pred_cache *c,
				      const struct oq_port_tables *t,
				      size_t i, int in_port,
				      struct pred_slot *tmp)
{
	size_t n = t->n_sl2vl > 1 ? t->n_sl2vl : 1;
	size_t k = t->n_sl2vl > 1 ? (size_t)in_port : 0;
	struct pred_slot *arr, *fresh, *s;
	int expect = SLOT_EMPTY;

	if (k >= n || i >= c->n) {
		compute(t, in_port, tmp);
		return tmp;
	}
	arr = __atomic_load_n(&c->port[i], __ATOMIC_ACQUIRE);
	if (!arr) {
		fresh = calloc(n, sizeof(*fresh));
		if (!fresh) {
			compute(t, in_port, tmp);
			return tmp;
		}
		if (__atomic_compare_exchange_n(&c->port[i], &arr, fresh, false,
						__ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			arr = fresh;
		else
			free(fresh); /* another thread won; arr is theirs */
	}
	s = &arr[k];
	if (__atomic_load_n(&s->state, __ATOMIC_ACQUIRE) == SLOT_READY)
		return s;
	if (!__atomic_compare_exchange_n(&s->state, &expect, SLOT_BUSY, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		compute(t, in_port, tmp); /* being filled: do not wait */
		return tmp;
	}
	compute(t, in_port, s);
	__atomic_store_n(&s->state, SLOT_READY, __ATOMIC_RELEASE);
	return s;
}

int oq_pred_cache_path(struct oq_pred_cache *c,
		       const struct oq_fabric_tables *tables,
		       const struct oq_port *const *eg, const int *in,
		       size_t n, uint8_t sl, double *gbps, size_t *bottleneck)
{
	struct pred_slot tmp;
	size_t i;

	if (!c || !n || sl > 15)
		return -1;
	for (i = 0; i < n; i++) {
		const struct pred_slot *p;

		if (eg[i]->index >= tables->n)
			return -1;
		p = lookup(c, &tables->ports[eg[i]->index], eg[i]->index,
			   in[i], &tmp);
		if (p->gbps[sl] < 0)
			return -1;
		if (i == 0 || p->gbps[sl] < *gbps) {
			*gbps = p->gbps[sl];
			*bottleneck = i;
		}
	}
	return 0;
}
