// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Port classes: one prediction per set of ports whose prediction inputs
 * are equal.  A port's key holds everything oq_predict_port() reads for
 * it -- link width and speed (the rate), the MTU, the per-SL VL masks of
 * the view the options ask for, the VLArb tables and VLHighLimit -- plus
 * the sorted distinct SL2VL rows of its input ports (the views the
 * guaranteed minimum is taken over) and where its SL2VL came from (the
 * published files say it per class).  Equal keys give equal predictions
 * by construction; tests/unit/test_pred_class checks it against the
 * model run on every port.  Classification is one hash lookup per port:
 * O(ports x rows) with a handful of model runs in all, O(ports) where the
 * switch ports' rows are each one row for all inputs (a regular fabric).
 */
#include <stdlib.h>
#include <string.h>

#include <osmqos/port_class.h>
#include <osmqos/pred_class.h>

bool oq_pred_modeled(const struct oq_fabric *f, const struct oq_port *p)
{
	return p && p->present && oq_port_peer(f, p);
}

const char *oq_pred_sl2vl_origin(const struct oq_port_tables *t)
{
	if (!t)
		return "none";
	if (t->sl2vl_unknown)
		return "unknown";
	return t->has_sl2vl ? oq_table_origin_name(t->sl2vl_origin) : "none";
}

static bool has_views(const struct oq_port_tables *t,
		      const struct oq_predict_opts *o)
{
	return o->in_port == OQ_IN_AGGREGATE && t->has_sl2vl && t->sl2vl &&
	       t->n_sl2vl >= 2 && t->port;
}

/* A VLArb table into a key at `at`: its entry count and entries.
 * Returns the bytes written. */
static size_t put_vlarb(uint8_t *at, const struct oq_vlarb_table *v)
{
	uint8_t n = v->n > OQ_VLARB_MAX ? OQ_VLARB_MAX : v->n;

	at[0] = n;
	memcpy(at + 1, v->e, (size_t)n * sizeof(v->e[0]));
	return 1 + (size_t)n * sizeof(v->e[0]);
}

/* A key but its input rows: header, MTU, both VLArb tables, the SLs' VL
 * masks, the row count. */
#define KEY_HEAD_MAX                                                           \
	(8 + 4 + 2 * (1 + OQ_VLARB_MAX * 2) + 16 * sizeof(uint16_t) +          \
	 sizeof(uint16_t))

/*
 * A switch egress whose input rows are all one row: its view of every
 * input at once maps each SL as that row does, and that row is its one
 * distinct input row (input 0, the switch itself, always feeds it) --
 * what oq_predict_sl_vls() and oq_port_input_rows() find reading every
 * input, here without reading them.  False when the rows differ.
 */
static bool uniform_views(const struct oq_port_tables *t,
			  struct oq_sl2vl_uniform_memo *m, uint16_t vls[16],
			  uint8_t (*rows)[16], size_t *n_rows)
{
	const uint8_t *row = t->sl2vl[0];
	unsigned int s;

	if (!t->port->num ||
	    !oq_sl2vl_rows_uniform(m, (const uint8_t(*)[16])t->sl2vl,
				   t->n_sl2vl))
		return false;
	for (s = 0; s < 16; s++)
		vls[s] = row[s] < OQ_MAX_VLS ? (uint16_t)(1u << row[s]) : 0;
	memcpy(rows[0], row, 16);
	*n_rows = 1;
	return true;
}

/* The key of port table t under options o; -1 when the view is out of
 * range (the model would refuse the port). */
static int port_key(const struct oq_fabric *f, const struct oq_port_tables *t,
		    const struct oq_predict_opts *o, struct oq_class_keys *k,
		    struct oq_sl2vl_uniform_memo *m, uint8_t (*rows)[16],
		    size_t *n_rows)
{
	const struct oq_port *p = t->port;
	uint16_t vls[16];
	uint32_t mtu = o->mtu_bytes ? o->mtu_bytes : oq_port_mtu_bytes(f, p);
	uint8_t key[KEY_HEAD_MAX], *at = key;
	bool views = has_views(t, o), uniform;
	uint16_t nr;

	uniform = views && uniform_views(t, m, vls, rows, n_rows);
	if (!uniform && oq_predict_sl_vls(t, o->in_port, vls))
		return -1;
	*at++ = p ? p->width : 0;
	*at++ = p ? (uint8_t)p->speed : 0;
	*at++ = t->has_vlarb;
	*at++ = t->has_vlarb ? t->vl_high_limit : 0;
	*at++ = t->has_sl2vl;
	*at++ = t->sl2vl_unknown;
	*at++ = (uint8_t)t->sl2vl_origin;
	*at++ = 0;
	memcpy(at, &mtu, sizeof(mtu));
	at += sizeof(mtu);
	if (t->has_vlarb) {
		at += put_vlarb(at, &t->vlarb_high);
		at += put_vlarb(at, &t->vlarb_low);
	}
	memcpy(at, vls, sizeof(vls));
	at += sizeof(vls);
	if (!uniform)
		*n_rows = views ? oq_port_input_rows(f, t, rows) : 0;
	nr = (uint16_t)*n_rows;
	memcpy(at, &nr, sizeof(nr));
	at += sizeof(nr);
	oq_class_key_start(k);
	oq_class_key_put(k, key, (size_t)(at - key));
	oq_class_key_put(k, rows, *n_rows * 16);
	return 0;
}

/* Predict a new class from its first port: the what-if the options ask
 * for, and the guarantee (every VL busy, osmqos/model.h). */
static int class_predict(const struct oq_fabric *f, struct oq_pred_class *c,
			 const struct oq_port_tables *t,
			 const struct oq_predict_opts *o)
{
	struct oq_guarantee_opts go;
	unsigned int s;

	if (oq_predict_port(f, t, -1.0, o, &c->pred))
		return 1;
	oq_guarantee_opts_init(&go);
	go.in_port = o->in_port;
	go.mtu_bytes = o->mtu_bytes;
	go.max_steps = o->max_steps;
	go.wait_states = OQ_PRED_WAIT_STATES;
	if (oq_port_guarantee(f, t, &go, &c->guar))
		return 1;
	for (s = 0; s < 16; s++)
		c->guaranteed_gbps[s] =
			oq_frac_double(c->guar.share[s]) * c->pred.rate_gbps;
	return 0;
}

static void class_free(struct oq_pred_class *c)
{
	(void)c;
}

void oq_pred_classes_free(struct oq_pred_classes *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->n; i++)
		class_free(&c->v[i]);
	free(c->v);
	free(c->of_port);
	memset(c, 0, sizeof(*c));
}

int oq_pred_classes_copy(struct oq_pred_classes *dst,
			 const struct oq_pred_classes *src)
{
	*dst = *src;
	dst->v = NULL;
	dst->of_port = NULL;
	if (src->n) {
		dst->v = malloc(src->n * sizeof(*dst->v));
		if (!dst->v)
			goto fail;
		memcpy(dst->v, src->v, src->n * sizeof(*dst->v));
	}
	if (src->of_port) {
		dst->of_port = malloc((src->n_ports ? src->n_ports : 1) *
				      sizeof(*dst->of_port));
		if (!dst->of_port)
			goto fail;
		memcpy(dst->of_port, src->of_port,
		       src->n_ports * sizeof(*dst->of_port));
	}
	return 0;
fail:
	free(dst->v);
	memset(dst, 0, sizeof(*dst));
	return -1;
}

/* The class of the key built: found, or appended (predicted from t).
 * Returns its index, OQ_PRED_CLASS_NONE when the model refuses the port,
 * or OOM_CLASS when out of memory. */
#define OOM_CLASS (UINT32_MAX - 1)

static uint32_t find_or_add(const struct oq_fabric *f,
			    struct oq_pred_classes *c, struct oq_class_keys *k,
			    size_t *v_cap, const struct oq_port_tables *t,
			    const struct oq_predict_opts *o, size_t rep)
{
	struct oq_pred_class *cl;
	uint32_t i;
	int rc = oq_class_key_find(k, &i);

	/* A key met before: its class, or OQ_PRED_CLASS_NONE where the
	 * model refused it. */
	if (rc < 0)
		return OOM_CLASS;
	if (!rc)
		return i;
	if (c->n == *v_cap) {
		size_t nc = *v_cap ? *v_cap * 2 : 16;
		struct oq_pred_class *nv = realloc(c->v, nc * sizeof(*nv));

		if (!nv)
			return OOM_CLASS;
		c->v = nv;
		*v_cap = nc;
	}
	cl = &c->v[c->n];
	memset(cl, 0, sizeof(*cl));
	rc = class_predict(f, cl, t, o);
	if (rc) {
		class_free(cl);
		if (rc < 0)
			return OOM_CLASS;
		oq_class_key_set(k, OQ_PRED_CLASS_NONE);
		return OQ_PRED_CLASS_NONE;
	}
	cl->rep = rep;
	oq_class_key_set(k, (uint32_t)c->n);
	return (uint32_t)c->n++;
}

/* Ports by node GUID, then port number: classes are numbered in the
 * order their first port comes in this order, so the plugin (ports in
 * OpenSM's map order) and `osmqos predict` (ports in the topology file's
 * order) number the same fabric's classes alike. */
struct port_order {
	uint64_t guid;
	size_t num, idx;
};

static int port_cmp(const void *a, const void *b)
{
	const struct port_order *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	if (x->num != y->num)
		return x->num < y->num ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

/* Whether p is f->ports[its index], one of the first n. */
static bool port_listed(const struct oq_fabric *f, const struct oq_port *p,
			size_t n)
{
	return p->present && oq_port_index(f, p) < n &&
	       f->ports[oq_port_index(f, p)] == p;
}

/*
 * The first n ports in that order.  The nodes are sorted by GUID and each
 * node's ports taken in number order; only nodes that share a GUID (a
 * fabric with duplicates) have their ports sorted together.  Should the
 * nodes not hold those n ports, the ports are sorted one by one.
 */
static size_t *canonical_order(const struct oq_fabric *f, size_t n)
{
	size_t n_nodes = f->n_nodes, i, r, run, k = 0, m;
	struct port_order *o = malloc((n_nodes + n + 1) * sizeof(*o));
	struct port_order *run_ports = o + n_nodes;
	size_t *v = malloc((n ? n : 1) * sizeof(*v));
	unsigned int j;

	if (!o || !v) {
		free(o);
		free(v);
		return NULL;
	}
	for (i = 0; i < n_nodes; i++) {
		o[i].guid = f->nodes[i]->guid;
		o[i].num = 0;
		o[i].idx = i;
	}
	qsort(o, n_nodes, sizeof(*o), port_cmp);
	for (i = 0; i < n_nodes; i = run) {
		for (run = i + 1; run < n_nodes && o[run].guid == o[i].guid;
		     run++)
			;
		for (r = i, m = 0; r < run; r++) {
			const struct oq_node *nd = f->nodes[o[r].idx];

			for (j = 0; j <= nd->n_ports; j++) {
				const struct oq_port *p = &nd->ports[j];

				if (!port_listed(f, p, n))
					continue;
				if (k + m == n)
					goto by_port;
				run_ports[m].guid = nd->guid;
				run_ports[m].num = p->num;
				run_ports[m++].idx = oq_port_index(f, p);
			}
		}
		if (run > i + 1)
			qsort(run_ports, m, sizeof(*run_ports), port_cmp);
		for (r = 0; r < m; r++)
			v[k++] = run_ports[r].idx;
	}
	if (k == n)
		goto out;
by_port:
	for (i = 0; i < n; i++) {
		o[i].guid = f->ports[i]->node->guid;
		o[i].num = f->ports[i]->num;
		o[i].idx = i;
	}
	qsort(o, n, sizeof(*o), port_cmp);
	for (i = 0; i < n; i++)
		v[i] = o[i].idx;
out:
	free(o);
	return v;
}

int oq_pred_classes_build(const struct oq_fabric *f,
			  const struct oq_fabric_tables *tables,
			  const struct oq_predict_opts *o,
			  const struct oq_port *only,
			  struct oq_pred_classes *out)
{
	struct oq_class_keys k = {0};
	struct oq_sl2vl_uniform_memo m = {NULL, 0, false};
	uint8_t(*rows)[16] = NULL;
	size_t *order = NULL, i, oi, lim, n_rows, v_cap = 0;
	uint32_t c;

	memset(out, 0, sizeof(*out));
	out->aggregate = o->in_port == OQ_IN_AGGREGATE;
	if (!f || !tables || !tables->ports)
		return 0;
	lim = f->n_ports < tables->n ? f->n_ports : tables->n;
	out->n_ports = lim;
	out->of_port = malloc((lim ? lim : 1) * sizeof(*out->of_port));
	rows = malloc(256 * 16);
	if (!out->of_port || !rows)
		goto oom;
	order = canonical_order(f, lim);
	if (!order)
		goto oom;
	for (i = 0; i < lim; i++)
		out->of_port[i] = OQ_PRED_CLASS_NONE;
	for (oi = 0; oi < lim; oi++) {
		const struct oq_port *p;
		const struct oq_port_tables *t;

		i = order[oi];
		p = f->ports[i];
		t = &tables->ports[i];

		if (only ? p != only : !oq_pred_modeled(f, p))
			continue;
		if (port_key(f, t, o, &k, &m, rows, &n_rows)) {
			out->n_bad++;
			continue;
		}
		c = find_or_add(f, out, &k, &v_cap, t, o, i);
		if (c == OOM_CLASS)
			goto oom;
		if (c == OQ_PRED_CLASS_NONE) {
			out->n_bad++;
			continue;
		}
		out->of_port[i] = c;
		out->v[c].n_ports++;
		out->n_classified++;
	}
	free(order);
	oq_class_keys_free(&k);
	free(rows);
	return 0;
oom:
	free(order);
	oq_class_keys_free(&k);
	free(rows);
	oq_pred_classes_free(out);
	return -1;
}

int oq_pred_class_sl_vl(const struct oq_pred_class *c, unsigned int s)
{
	int vl = c->pred.sl[s].vl;

	return vl >= 0 && (c->guar.dropped & (1u << s)) ? OQ_VL_MIXED : vl;
}

const struct oq_pred_class *oq_pred_class_of(const struct oq_pred_classes *c,
					     size_t i)
{
	if (!c || !c->of_port || i >= c->n_ports ||
	    c->of_port[i] == OQ_PRED_CLASS_NONE)
		return NULL;
	return &c->v[c->of_port[i]];
}

int oq_pred_classes_hop(const struct oq_pred_classes *c,
			const struct oq_fabric_tables *t, size_t i, int in,
			uint8_t sl, struct oq_hop_guarantee *h)
{
	const struct oq_pred_class *k = oq_pred_class_of(c, i);

	if (!k || !c->aggregate || sl > 15 || i >= t->n)
		return 1;
	return oq_hop_from_guarantee(&t->ports[i], &k->guar, k->pred.rate_gbps,
				     in, sl, h);
}
