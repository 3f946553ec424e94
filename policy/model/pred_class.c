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
/* A port that keys as it did in the classes derived from: no, key it. */
#define KEY_IT (UINT32_MAX - 2)
/* A key's value at or above FROM_PREV: class value - FROM_PREV of the
 * classes derived from, numbered here at its first port. */
#define FROM_PREV (UINT32_MAX / 2)

/* What a build derives from (oq_pred_classes_derive): the classes of
 * the fabric before, and per class of theirs its number here. */
struct from {
	const struct oq_fabric *f;
	const struct oq_fabric_tables *tables;
	const struct oq_pred_classes *c;
	uint32_t *num; /* by class there: its number here, or NONE */
	uint8_t *same; /* by node id here: UNKNOWN, SAME or CHANGED */
};

enum { UNKNOWN, SAME, CHANGED };

/* Room for one more class.  0, or -1 when out of memory. */
static int class_room(struct oq_pred_classes *c, size_t *v_cap)
{
	size_t nc;
	struct oq_pred_class *nv;

	if (c->n < *v_cap)
		return 0;
	nc = *v_cap ? *v_cap * 2 : 16;
	nv = realloc(c->v, nc * sizeof(*nv));
	if (!nv)
		return -1;
	c->v = nv;
	*v_cap = nc;
	return 0;
}

/* Class j of the classes derived from, numbered here at its first port
 * rep: its prediction is the one a key equal to its own gives. */
static uint32_t take_prev(struct from *fr, struct oq_pred_classes *c,
			  size_t *v_cap, uint32_t j, size_t rep)
{
	if (fr->num[j] != OQ_PRED_CLASS_NONE)
		return fr->num[j];
	if (class_room(c, v_cap))
		return OOM_CLASS;
	c->v[c->n] = fr->c->v[j];
	c->v[c->n].rep = rep;
	c->v[c->n].n_ports = 0;
	fr->num[j] = (uint32_t)c->n;
	return (uint32_t)c->n++;
}

static uint32_t find_or_add(const struct oq_fabric *f,
			    struct oq_pred_classes *c, struct oq_class_keys *k,
			    size_t *v_cap, const struct oq_port_tables *t,
			    const struct oq_predict_opts *o, size_t rep,
			    struct from *fr)
{
	struct oq_pred_class *cl;
	uint32_t i;
	int rc = oq_class_key_find(k, &i);

	/* A key met before: its class, or OQ_PRED_CLASS_NONE where the
	 * model refused it. */
	if (rc < 0)
		return OOM_CLASS;
	if (!rc)
		return i != OQ_PRED_CLASS_NONE && i >= FROM_PREV
			       ? take_prev(fr, c, v_cap, i - FROM_PREV, rep)
			       : i;
	if (class_room(c, v_cap))
		return OOM_CLASS;
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

/* Does every port of n key as it did in the fabric derived from?  Its
 * ports' tables kept from there (so the node is that one, and which
 * inputs feed each port is too: tables.h) and their partners of the same
 * MTU, which a partner in the same groups need not be. */
static bool node_same(const struct oq_fabric *f,
		      const struct oq_fabric_tables *tables,
		      const struct from *fr, const struct oq_node *n)
{
	unsigned int j;
	uint32_t i;

	for (j = 0; j <= n->n_ports; j++) {
		const struct oq_port *p = &n->ports[j];

		if (!p->present)
			continue;
		i = oq_port_index(f, p);
		if (i >= tables->n || !tables->kept[i])
			return false;
		if (oq_port_peer(f, p) != oq_port_peer(fr->f, p) &&
		    oq_port_mtu_bytes(f, p) != oq_port_mtu_bytes(fr->f, p))
			return false;
	}
	return true;
}

/* Port p's class in the classes derived from when it keys as it did
 * there (FROM_PREV + its index there, or OQ_PRED_CLASS_NONE: refused
 * there); KEY_IT when it may not. */
static uint32_t prev_class(const struct oq_fabric *f,
			   const struct oq_fabric_tables *tables,
			   struct from *fr, const struct oq_port *p)
{
	uint32_t at;
	uint8_t *same;

	if (!fr)
		return KEY_IT;
	same = &fr->same[p->node->id];
	if (*same == UNKNOWN)
		*same = node_same(f, tables, fr, p->node) ? SAME : CHANGED;
	at = oq_port_index(fr->f, p);
	if (*same != SAME || at >= fr->c->n_ports || fr->f->ports[at] != p)
		return KEY_IT;
	return fr->c->of_port[at] == OQ_PRED_CLASS_NONE
		       ? OQ_PRED_CLASS_NONE
		       : FROM_PREV + fr->c->of_port[at];
}

/* The keys of the classes derived from, each from its first port there,
 * valued FROM_PREV + its index.  0, or -1 when out of memory. */
static int prev_keys(const struct from *fr, const struct oq_predict_opts *o,
		     struct oq_class_keys *k, uint8_t (*rows)[16])
{
	struct oq_sl2vl_uniform_memo m = {NULL, 0, false};
	size_t j, n_rows;
	uint32_t v;
	int rc;

	for (j = 0; j < fr->c->n; j++) {
		if (port_key(fr->f, &fr->tables->ports[fr->c->v[j].rep], o, k,
			     &m, rows, &n_rows))
			continue;
		rc = oq_class_key_find(k, &v);
		if (rc < 0)
			return -1;
		if (rc)
			oq_class_key_set(k, FROM_PREV + (uint32_t)j);
	}
	return 0;
}

/* The classes, from fr when given; *n_keyed: the ports keyed. */
static int build(const struct oq_fabric *f,
		 const struct oq_fabric_tables *tables,
		 const struct oq_predict_opts *o, const struct oq_port *only,
		 struct from *fr, struct oq_pred_classes *out, size_t *n_keyed)
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
	if (fr && prev_keys(fr, o, &k, rows))
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
		c = prev_class(f, tables, fr, p);
		if (c != KEY_IT) {
			if (c != OQ_PRED_CLASS_NONE)
				c = take_prev(fr, out, &v_cap, c - FROM_PREV,
					      i);
		} else {
			(*n_keyed)++;
			if (port_key(f, t, o, &k, &m, rows, &n_rows)) {
				out->n_bad++;
				continue;
			}
			c = find_or_add(f, out, &k, &v_cap, t, o, i, fr);
		}
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

int oq_pred_classes_build(const struct oq_fabric *f,
			  const struct oq_fabric_tables *tables,
			  const struct oq_predict_opts *o,
			  const struct oq_port *only,
			  struct oq_pred_classes *out)
{
	size_t n_keyed = 0;

	return build(f, tables, o, only, NULL, out, &n_keyed);
}

int oq_pred_classes_derive(const struct oq_fabric *f,
			   const struct oq_fabric_tables *tables,
			   const struct oq_predict_opts *o,
			   const struct oq_fabric *prev_f,
			   const struct oq_fabric_tables *prev_tables,
			   const struct oq_pred_classes *prev,
			   struct oq_pred_classes *out, size_t *n_keyed)
{
	struct from fr = {prev_f, prev_tables, prev, NULL, NULL};
	size_t j;
	int rc;

	*n_keyed = 0;
	if (!f || !tables || !tables->kept || !prev_f || !prev_tables ||
	    !prev || !prev->of_port || prev->n_ports != prev_f->n_ports ||
	    prev_tables->n != prev_f->n_ports ||
	    prev->aggregate != (o->in_port == OQ_IN_AGGREGATE))
		return build(f, tables, o, NULL, NULL, out, n_keyed);
	fr.num = malloc((prev->n ? prev->n : 1) * sizeof(*fr.num));
	fr.same = calloc(f->n_node_ids ? f->n_node_ids : 1, 1);
	if (!fr.num || !fr.same) {
		free(fr.num);
		free(fr.same);
		memset(out, 0, sizeof(*out));
		return -1;
	}
	for (j = 0; j < prev->n; j++)
		fr.num[j] = OQ_PRED_CLASS_NONE;
	rc = build(f, tables, o, NULL, &fr, out, n_keyed);
	free(fr.num);
	free(fr.same);
	return rc;
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
