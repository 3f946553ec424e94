// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What a granted path is guaranteed, for the audit trail, from the sweep
 * state's port classes (osmqos/pred_class.h): at each hop the SL's VL
 * under that hop's input SL2VL, the VL's share with every VL busy and its
 * worst wait, computed once per class when the state was built, so an SA
 * thread only looks them up -- no model run, no lock, no allocation.  A
 * port no class holds is asked of the model directly.
 */
#include <config.h>

#include <string.h>

#include "sa.h"

#include <osmqos/model.h>
#include <osmqos/pred_class.h>

int oq_sa_path_guarantee(const struct oq_sa_state *s,
			 const struct oq_port *const *eg, const int *in,
			 size_t n, uint8_t sl, struct oq_path_guarantee *pg)
{
	const struct oq_fabric_tables *t = &s->sweep->tables;
	const struct oq_fabric *f = s->sweep->fabric;
	size_t i;

	memset(pg, 0, sizeof(*pg));
	if (!n || sl > 15)
		return -1;
	for (i = 0; i < n; i++) {
		size_t k = oq_port_index(f, eg[i]);
		struct oq_hop_guarantee h;

		if (k >= t->n)
			return -1;
		/* A view no class holds (an input that is not linked): the
		 * model itself. */
		if (oq_pred_classes_hop(&s->classes, t, k, in[i], sl, &h) &&
		    oq_port_hop(f, &t->ports[k], in[i], sl, &h))
			return -1;
		oq_path_guarantee_add(pg, &h);
	}
	return 0;
}
