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
 * O(ports x rows) with a handful of model runs in all.
 */
#include <stdlib.h>
#include <string.h>

#include <osmqos/keyidx.h>
#include <osmqos/pred_class.h>

/* Largest key: header, two 64-entry VLArb tables, 16 VL masks, 255
 * rows. */
#define KEY_MAX (64 + 2 * (1 + 2 * OQ_VLARB_MAX) + 32 + 256 * 16)

bool oq_pred_modeled(const struct oq_port *p)
{
	return p && p->present && p->peer;
}

const char *oq_pred_sl2vl_origin(const struct oq_port_tables *t)
{
	if (!t)
		return "none";
	if (t->sl2vl_unknown)
		return "unknown";
	return t->has_sl2vl ? oq_table_origin_name(t->sl2vl_origin) : "none";
}

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

static bool has_views(const struct oq_port_tables *t,
		      const struct oq_predict_opts *o)
{
	return o->in_port == OQ_IN_AGGREGATE && t->has_sl2vl && t->sl2vl &&
	       t->n_sl2vl >= 2 && t->port;
}

static int row_cmp(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

/* The distinct rows of the inputs that count, sorted, into rows[];
 * returns their number. */
static size_t distinct_rows(const struct oq_port_tables *t, uint8_t (*rows)[16])
{
	size_t n = 0, k = 0, i;
	unsigned int in;
	bool same = true;

	for (in = 0; in < t->n_sl2vl; in++) {
		if (!counts_as_input(t->port, in))
			continue;
		memcpy(rows[n], t->sl2vl[in], 16);
		/* Most switches map every input alike: skip the sort. */
		if (n && same && memcmp(rows[n], rows[0], 16))
			same = false;
		n++;
	}
	if (n < 2 || same)
		return n ? 1 : 0;
	qsort(rows, n, 16, row_cmp);
	for (i = 1; i < n; i++)
		if (memcmp(rows[k], rows[i], 16))
			memcpy(rows[++k], rows[i], 16);
	return k + 1;
}

static void put(uint8_t *key, size_t *len, const void *v, size_t n)
{
	memcpy(key + *len, v, n);
	*len += n;
}

static void put_vlarb(uint8_t *key, size_t *len, const struct oq_vlarb_table *v)
{
	uint8_t n = v->n > OQ_VLARB_MAX ? OQ_VLARB_MAX : v->n;

	put(key, len, &n, 1);
	put(key, len, v->e, (size_t)n * sizeof(v->e[0]));
}

/* The key of port table t under options o; -1 when the view is out of
 * range (the model would refuse the port). */
static int port_key(const struct oq_port_tables *t,
		    const struct oq_predict_opts *o, uint8_t *key, size_t *len,
		    uint8_t (*rows)[16], size_t *n_rows)
{
	const struct oq_port *p = t->port;
	uint16_t vls[16];
	uint32_t mtu = o->mtu_bytes ? o->mtu_bytes : oq_port_mtu_bytes(p);
	uint8_t hdr[8];
	uint16_t nr;

	if (oq_predict_sl_vls(t, o->in_port, vls))
		return -1;
	*len = 0;
	hdr[0] = p ? p->width : 0;
	hdr[1] = p ? (uint8_t)p->speed : 0;
	hdr[2] = t->has_vlarb;
	hdr[3] = t->has_vlarb ? t->vl_high_limit : 0;
	hdr[4] = t->has_sl2vl;
	hdr[5] = t->sl2vl_unknown;
	hdr[6] = (uint8_t)t->sl2vl_origin;
	hdr[7] = 0;
	put(key, len, hdr, sizeof(hdr));
	put(key, len, &mtu, sizeof(mtu));
	if (t->has_vlarb) {
		put_vlarb(key, len, &t->vlarb_high);
		put_vlarb(key, len, &t->vlarb_low);
	}
	put(key, len, vls, sizeof(vls));
	*n_rows = has_views(t, o) ? distinct_rows(t, rows) : 0;
	nr = (uint16_t)*n_rows;
	put(key, len, &nr, sizeof(nr));
	put(key, len, rows, *n_rows * 16);
	return 0;
}

/* Predict a new class from its first port. */
static int class_predict(struct oq_pred_class *c,
			 const struct oq_port_tables *t,
			 const struct oq_predict_opts *o,
			 const uint8_t (*rows)[16], size_t n_rows)
{
	struct oq_predict_opts vo = *o;
	struct oq_port_pred view;
	unsigned int s, in;
	size_t r;

	if (oq_predict_port(t, -1.0, o, &c->pred))
		return 1;
	for (s = 0; s < 16; s++)
		c->guaranteed_gbps[s] = c->pred.sl[s].gbps;
	if (!n_rows)
		return 0;
	c->views = calloc(n_rows, sizeof(*c->views));
	if (!c->views)
		return -1;
	c->n_views = n_rows;
	for (r = 0; r < n_rows; r++) {
		struct oq_pred_view *v = &c->views[r];

		memcpy(v->row, rows[r], 16);
		for (in = 0; in < t->n_sl2vl; in++)
			if (counts_as_input(t->port, in) &&
			    !memcmp(t->sl2vl[in], rows[r], 16))
				break;
		vo.in_port = (int)in;
		if (in == t->n_sl2vl || oq_predict_port(t, -1.0, &vo, &view))
			return 1;
		for (s = 0; s < 16; s++) {
			v->gbps[s] = view.sl[s].gbps;
			v->vl[s] = view.sl[s].vl;
			if (view.sl[s].gbps < c->guaranteed_gbps[s])
				c->guaranteed_gbps[s] = view.sl[s].gbps;
		}
	}
	return 0;
}

static void class_free(struct oq_pred_class *c)
{
	free(c->views);
	free(c->key);
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

struct builder {
	struct oq_keyidx idx;
	size_t v_cap;
	uint8_t *key;
	uint8_t (*rows)[16];
};

static uint64_t class_hash(const void *ctx, size_t i)
{
	const struct oq_pred_classes *c = ctx;

	return c->v[i].hash;
}

/* The class of this key: found, or appended (predicted from t).  Returns
 * its index, OQ_PRED_CLASS_NONE when the model refuses the port, or
 * OOM_CLASS when out of memory. */
#define OOM_CLASS (UINT32_MAX - 1)

static uint32_t find_or_add(struct oq_pred_classes *c, struct builder *b,
			    const struct oq_port_tables *t,
			    const struct oq_predict_opts *o, size_t rep,
			    size_t len, size_t n_rows)
{
	uint64_t h = oq_fnv1a(b->key, len);
	size_t j;
	struct oq_pred_class *k;
	int rc;

	for (j = oq_keyidx_first(&b->idx, h); b->idx.slot[j];
	     j = oq_keyidx_next(&b->idx, j)) {
		k = &c->v[b->idx.slot[j] - 1];
		if (k->hash == h && k->key_len == len &&
		    !memcmp(k->key, b->key, len))
			return b->idx.slot[j] - 1;
	}
	if (c->n == b->v_cap) {
		size_t nc = b->v_cap ? b->v_cap * 2 : 16;
		struct oq_pred_class *nv = realloc(c->v, nc * sizeof(*nv));

		if (!nv)
			return OOM_CLASS;
		c->v = nv;
		b->v_cap = nc;
	}
	k = &c->v[c->n];
	memset(k, 0, sizeof(*k));
	rc = class_predict(k, t, o, (const uint8_t(*)[16])b->rows, n_rows);
	if (rc) {
		class_free(k);
		return rc < 0 ? OOM_CLASS : OQ_PRED_CLASS_NONE;
	}
	k->key = malloc(len);
	if (!k->key) {
		class_free(k);
		return OOM_CLASS;
	}
	memcpy(k->key, b->key, len);
	k->key_len = len;
	k->hash = h;
	k->rep = rep;
	b->idx.slot[j] = (uint32_t)++c->n;
	return (uint32_t)(c->n - 1);
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

static size_t *canonical_order(const struct oq_fabric *f, size_t n)
{
	struct port_order *o = malloc((n ? n : 1) * sizeof(*o));
	size_t *v = malloc((n ? n : 1) * sizeof(*v)), i;

	if (!o || !v) {
		free(o);
		free(v);
		return NULL;
	}
	for (i = 0; i < n; i++) {
		o[i].guid = f->ports[i]->node->guid;
		o[i].num = f->ports[i]->num;
		o[i].idx = i;
	}
	qsort(o, n, sizeof(*o), port_cmp);
	for (i = 0; i < n; i++)
		v[i] = o[i].idx;
	free(o);
	return v;
}

int oq_pred_classes_build(const struct oq_fabric *f,
			  const struct oq_fabric_tables *tables,
			  const struct oq_predict_opts *o,
			  const struct oq_port *only,
			  struct oq_pred_classes *out)
{
	struct builder b = {0};
	size_t *order = NULL, i, oi, lim, len, n_rows;
	uint32_t k;

	memset(out, 0, sizeof(*out));
	out->aggregate = o->in_port == OQ_IN_AGGREGATE;
	if (!f || !tables || !tables->ports)
		return 0;
	lim = f->n_ports < tables->n ? f->n_ports : tables->n;
	out->n_ports = lim;
	out->of_port = malloc((lim ? lim : 1) * sizeof(*out->of_port));
	b.key = malloc(KEY_MAX);
	b.rows = malloc(256 * 16);
	if (!out->of_port || !b.key || !b.rows)
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

		if (only ? p != only : !oq_pred_modeled(p))
			continue;
		if (port_key(t, o, b.key, &len, b.rows, &n_rows)) {
			out->n_bad++;
			continue;
		}
		if (oq_keyidx_reserve(&b.idx, out->n, class_hash, out))
			goto oom;
		k = find_or_add(out, &b, t, o, i, len, n_rows);
		if (k == OOM_CLASS)
			goto oom;
		if (k == OQ_PRED_CLASS_NONE) {
			out->n_bad++;
			continue;
		}
		out->of_port[i] = k;
		out->v[k].n_ports++;
		out->n_classified++;
	}
	free(order);
	oq_keyidx_free(&b.idx);
	free(b.key);
	free(b.rows);
	return 0;
oom:
	free(order);
	oq_keyidx_free(&b.idx);
	free(b.key);
	free(b.rows);
	oq_pred_classes_free(out);
	return -1;
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
			uint8_t sl, double *gbps, int8_t *vl)
{
	const struct oq_pred_class *k = oq_pred_class_of(c, i);
	const struct oq_port_tables *pt;
	size_t lo, hi, mid;
	int cmp;

	if (!k || !c->aggregate || sl > 15 || i >= t->n)
		return 1;
	pt = &t->ports[i];
	if (pt->n_sl2vl <= 1 || !pt->sl2vl) {
		*gbps = k->pred.sl[sl].gbps;
		*vl = k->pred.sl[sl].vl;
		return 0;
	}
	if (in < 0 || in >= pt->n_sl2vl)
		return 1;
	lo = 0;
	hi = k->n_views;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		cmp = memcmp(k->views[mid].row, pt->sl2vl[in], 16);
		if (!cmp) {
			*gbps = k->views[mid].gbps[sl];
			*vl = k->views[mid].vl[sl];
			return 0;
		}
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 1;
}
