// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Guaranteed bandwidth of a granted path for the audit trail, from the
 * sweep state's port classes (osmqos/pred_class.h): every (egress port,
 * input port) view is a class's view, computed once when the state was
 * built, so an SA thread only looks it up -- no model run, no lock, no
 * allocation.  A view no class holds (an input that is not linked) is
 * asked of the model directly.
 */
#include <config.h>

#include "sa.h"

#include <osmqos/model.h>
#include <osmqos/pred_class.h>

/* The model itself, for a view the class table does not hold. */
static int hop_direct(const struct oq_port_tables *t, int in_port, uint8_t sl,
		      double *gbps)
{
	struct oq_predict_opts o;
	struct oq_port_pred p;

	oq_predict_opts_init(&o);
	o.in_port = t->n_sl2vl > 1 ? in_port : OQ_IN_AGGREGATE;
	if (oq_predict_port(t, -1.0, &o, &p))
		return -1;
	*gbps = p.sl[sl].gbps;
	return 0;
}

int oq_sa_path_gbps(const struct oq_sa_state *s,
		    const struct oq_port *const *eg, const int *in, size_t n,
		    uint8_t sl, double *gbps, size_t *bottleneck)
{
	const struct oq_fabric_tables *t = &s->sweep->tables;
	size_t i;

	if (!n || sl > 15)
		return -1;
	for (i = 0; i < n; i++) {
		size_t k = eg[i]->index;
		double g;
		int8_t vl;

		if (k >= t->n)
			return -1;
		if (oq_pred_classes_hop(&s->classes, t, k, in[i], sl, &g,
					&vl) &&
		    hop_direct(&t->ports[k], in[i], sl, &g))
			return -1;
		if (i == 0 || g < *gbps) {
			*gbps = g;
			*bottleneck = i;
		}
	}
	return 0;
}
