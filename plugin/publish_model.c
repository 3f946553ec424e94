// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The numbers the published files carry, from the same model calls as
 * `osmqos predict --json`, so the two agree to the last digit:
 *
 *  - predicted: oq_predict_port() with default options (all 16 SLs
 *    backlogged, every input port at once on a switch egress);
 *  - guaranteed: the lowest Gb/s the model gives the SL at this egress
 *    over that view and each input port's own view (`predict --in-port
 *    N`).  A path's hop is predicted with its input port's view
 *    (oq_predict_path), so no path through the port gets less from this
 *    hop than the published guarantee.  CA ports have one view: there it
 *    equals the prediction.
 */
#include <stdlib.h>
#include <string.h>

#include "publish.h"

/* Input ports traffic can arrive by at a switch egress: port 0 (the
 * switch itself) and every other linked port. */
static bool counts_as_input(const struct oq_port *egress, unsigned int in)
{
	const struct oq_node *n = egress->node;

	if (in == egress->num)
		return false;
	if (in == 0)
		return true;
	return n && in <= n->n_ports && n->ports[in].present &&
	       n->ports[in].peer;
}

/* Rows with the same SL2VL give the same view: run each once. */
static bool row_seen(const struct oq_port_tables *t, unsigned int in)
{
	unsigned int r;

	for (r = 0; r < in; r++)
		if (counts_as_input(t->port, r) &&
		    !memcmp(t->sl2vl[r], t->sl2vl[in], sizeof(t->sl2vl[r])))
			return true;
	return false;
}

int oq_publish_predict_port(const struct oq_port_tables *t,
			    struct oq_publish_port *p)
{
	struct oq_predict_opts o;
	struct oq_port_pred view;
	unsigned int s, in;

	p->t = t;
	p->port = t->port;
	oq_predict_opts_init(&o);
	if (oq_predict_port(t, -1.0, &o, &p->pred))
		return -1;
	for (s = 0; s < 16; s++)
		p->guaranteed_gbps[s] = p->pred.sl[s].gbps;
	if (!t->has_sl2vl || !t->sl2vl || t->n_sl2vl < 2 || !t->port)
		return 0;
	for (in = 0; in < t->n_sl2vl; in++) {
		if (!counts_as_input(t->port, in) || row_seen(t, in))
			continue;
		o.in_port = (int)in;
		if (oq_predict_port(t, -1.0, &o, &view))
			return -1;
		for (s = 0; s < 16; s++)
			if (view.sl[s].gbps < p->guaranteed_gbps[s])
				p->guaranteed_gbps[s] = view.sl[s].gbps;
	}
	return 0;
}

/* The ports `osmqos predict` models: present and linked. */
static bool modeled(const struct oq_port *p)
{
	return p && p->present && p->peer;
}

int oq_publish_predict(const struct oq_fabric *f,
		       const struct oq_fabric_tables *tables,
		       struct oq_publish_port **out, size_t *n)
{
	struct oq_publish_port *v = NULL;
	size_t i, k = 0, want = 0, lim;

	*out = NULL;
	*n = 0;
	if (!f || !tables || !tables->ports)
		return 0;
	lim = f->n_ports < tables->n ? f->n_ports : tables->n;
	for (i = 0; i < lim; i++)
		want += modeled(f->ports[i]);
	if (!want)
		return 0;
	v = calloc(want, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < lim && k < want; i++) {
		if (!modeled(f->ports[i]))
			continue;
		if (oq_publish_predict_port(&tables->ports[i], &v[k])) {
			free(v);
			return -1;
		}
		k++;
	}
	*out = v;
	*n = k;
	return 0;
}
