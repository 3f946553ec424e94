// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The JSON nodes list (docs/json.md, "Port classes"): one entry per node
 * with a classified port, by node GUID, each port a reference to its
 * class.  It is most of the published document's bytes, so the plugin
 * keeps it from one publication to the next (struct oq_pred_nodes_kept)
 * and renders again only the entries whose inputs changed: after one
 * port went down, a few nodes of thousands.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/json.h>
#include <osmqos/pred_class.h>

/* What a node's entry is made of: equal inputs, equal bytes. */
struct oq_pred_node_entry {
	uint64_t guid;
	char desc[sizeof(((struct oq_node *)0)->desc)];
	enum oq_node_type type;
	size_t first_port, n_ports; /* its listed ports in the port array */
	size_t off, len;	    /* the entry's bytes, separator left out */
};

struct oq_pred_port_entry {
	uint64_t guid;
	uint32_t cls;
	uint16_t lid;
	uint8_t num, lmc;
};

/* Numbers are formatted here rather than by fprintf, which took most of
 * the time of writing the list. */
static char *put_str(char *b, const char *s)
{
	size_t n = strlen(s);

	memcpy(b, s, n);
	return b + n;
}

static char *put_uint(char *b, unsigned long v)
{
	char t[24];
	int n = 0;

	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*b++ = t[--n];
	return b;
}

/* As printf's "0x%016" PRIx64. */
static char *put_guid(char *b, uint64_t v)
{
	int i;

	*b++ = '0';
	*b++ = 'x';
	for (i = 15; i >= 0; i--)
		*b++ = "0123456789abcdef"[(v >> (4 * i)) & 15];
	return b;
}

/* Port p's class in c, OQ_PRED_CLASS_NONE when it is not listed. */
static uint32_t class_of(const struct oq_fabric *f,
			 const struct oq_pred_classes *c,
			 const struct oq_port *p)
{
	size_t i;

	if (!p->present)
		return OQ_PRED_CLASS_NONE;
	i = oq_port_index(f, p);
	return i < c->n_ports ? c->of_port[i] : OQ_PRED_CLASS_NONE;
}

/* The listed ports of n into v (room for n's ports); how many. */
static size_t listed_ports(const struct oq_fabric *f,
			   const struct oq_pred_classes *c,
			   const struct oq_node *n,
			   struct oq_pred_port_entry *v)
{
	unsigned int i, lo = n->type == OQ_NODE_SWITCH ? 0 : 1;
	size_t k = 0;

	for (i = lo; i <= n->n_ports; i++) {
		const struct oq_port *p = &n->ports[i];
		uint32_t cls = class_of(f, c, p);

		if (cls == OQ_PRED_CLASS_NONE)
			continue;
		v[k].guid = p->guid;
		v[k].cls = cls;
		v[k].lid = p->lid;
		v[k].num = p->num;
		v[k++].lmc = p->lmc;
	}
	return k;
}

/* One node's entry, without the separator before it. */
static void write_entry(FILE *out, const struct oq_node *n,
			const struct oq_pred_port_entry *v, size_t n_v)
{
	char buf[160], *b;
	size_t i;

	b = put_str(buf, "{\"guid\": \"");
	b = put_guid(b, n->guid);
	b = put_str(b, "\", \"node\": ");
	fwrite(buf, 1, (size_t)(b - buf), out);
	oq_json_fstring(out, n->desc);
	fprintf(out, ", \"node_type\": \"%s\", \"ports\": [",
		oq_node_type_name(n->type));
	for (i = 0; i < n_v; i++) {
		b = put_str(buf, i ? ", {\"port\": " : "{\"port\": ");
		b = put_uint(b, v[i].num);
		b = put_str(b, ", \"guid\": \"");
		b = put_guid(b, v[i].guid);
		b = put_str(b, "\", \"lid\": ");
		b = put_uint(b, v[i].lid);
		b = put_str(b, ", \"lmc\": ");
		b = put_uint(b, v[i].lmc);
		b = put_str(b, ", \"class\": ");
		b = put_uint(b, v[i].cls);
		*b++ = '}';
		fwrite(buf, 1, (size_t)(b - buf), out);
	}
	fputs("]}", out);
}

static const char *separator(size_t i)
{
	return i ? ",\n  " : "\n  ";
}

static int node_cmp(const void *a, const void *b)
{
	const struct oq_node *x = *(const struct oq_node *const *)a;
	const struct oq_node *y = *(const struct oq_node *const *)b;

	return (x->guid > y->guid) - (x->guid < y->guid);
}

/* f's nodes by GUID, as the classes are numbered: the live and the
 * offline document of one fabric are equal byte for byte.  NULL when
 * out of memory or without nodes. */
static const struct oq_node **sorted_nodes(const struct oq_fabric *f)
{
	const struct oq_node **v;
	size_t i;

	if (!f->n_nodes)
		return NULL;
	v = malloc(f->n_nodes * sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < f->n_nodes; i++)
		v[i] = f->nodes[i];
	qsort(v, f->n_nodes, sizeof(*v), node_cmp);
	return v;
}

/* The most ports a node of f has, port 0 included. */
static size_t max_node_ports(const struct oq_fabric *f)
{
	size_t i, m = 1;

	for (i = 0; i < f->n_nodes; i++)
		if ((size_t)f->nodes[i]->n_ports + 1 > m)
			m = (size_t)f->nodes[i]->n_ports + 1;
	return m;
}

/* A list rendered whole is one kept from nothing: one way to make it. */
int oq_pred_nodes_write_json(FILE *out, const struct oq_fabric *f,
			     const struct oq_pred_classes *c,
			     const struct oq_pred_nodes_kept *kept)
{
	struct oq_pred_nodes_kept own = {0};
	int rc = 0;

	if (!kept && f && c) {
		rc = oq_pred_nodes_keep(&own, f, c);
		kept = &own;
	}
	fputs(",\n \"nodes\": [", out);
	if (kept && kept->buf)
		fwrite(kept->buf, 1, kept->len, out);
	fputs("]", out);
	oq_pred_nodes_kept_free(&own);
	return rc || ferror(out) ? -1 : 0;
}

void oq_pred_nodes_kept_free(struct oq_pred_nodes_kept *k)
{
	free(k->buf);
	free(k->nodes);
	free(k->ports);
	memset(k, 0, sizeof(*k));
}

static bool same_entry(const struct oq_pred_nodes_kept *k,
		       const struct oq_pred_node_entry *o,
		       const struct oq_node *n,
		       const struct oq_pred_port_entry *v, size_t n_v)
{
	const struct oq_pred_port_entry *w = k->ports + o->first_port;
	size_t i;

	if (o->guid != n->guid || o->type != n->type || o->n_ports != n_v ||
	    strcmp(o->desc, n->desc))
		return false;
	for (i = 0; i < n_v; i++)
		if (w[i].guid != v[i].guid || w[i].cls != v[i].cls ||
		    w[i].lid != v[i].lid || w[i].num != v[i].num ||
		    w[i].lmc != v[i].lmc)
			return false;
	return true;
}

/* The new list: each entry either the kept one's bytes (fresh false) or
 * those rendered into fresh; separators between them. */
static char *join(const struct oq_pred_nodes_kept *k, const char *fresh,
		  struct oq_pred_node_entry *e, const bool *is_fresh, size_t n,
		  size_t *len)
{
	size_t i, total = 0, at = 0, sl;
	char *buf;

	for (i = 0; i < n; i++)
		total += strlen(separator(i)) + e[i].len;
	buf = malloc(total ? total : 1);
	if (!buf)
		return NULL;
	for (i = 0; i < n; i++) {
		sl = strlen(separator(i));
		memcpy(buf + at, separator(i), sl);
		at += sl;
		memcpy(buf + at, (is_fresh[i] ? fresh : k->buf) + e[i].off,
		       e[i].len);
		e[i].off = at;
		at += e[i].len;
	}
	*len = total;
	return buf;
}

struct keep_work {
	const struct oq_node **nodes;
	struct oq_pred_node_entry *e;
	struct oq_pred_port_entry *p;
	bool *is_fresh;
	char *fresh;
	size_t fresh_len;
};

static void work_free(struct keep_work *w)
{
	free(w->nodes);
	free(w->e);
	free(w->p);
	free(w->is_fresh);
	free(w->fresh);
}

int oq_pred_nodes_keep(struct oq_pred_nodes_kept *k, const struct oq_fabric *f,
		       const struct oq_pred_classes *c)
{
	struct keep_work w = {0};
	size_t i, j = 0, n = 0, n_p = 0, n_v, nn = f->n_nodes;
	FILE *fresh = NULL;
	char *buf;
	long at;
	int bad;

	w.nodes = sorted_nodes(f);
	w.e = malloc((nn ? nn : 1) * sizeof(*w.e));
	w.is_fresh = malloc(nn ? nn : 1);
	w.p = malloc((f->n_ports + max_node_ports(f)) * sizeof(*w.p));
	fresh = open_memstream(&w.fresh, &w.fresh_len);
	if ((nn && !w.nodes) || !w.e || !w.is_fresh || !w.p || !fresh)
		goto oom;
	k->n_rendered = 0;
	for (i = 0; i < nn; i++) {
		const struct oq_node *nd = w.nodes[i];
		struct oq_pred_node_entry *e = &w.e[n];

		n_v = listed_ports(f, c, nd, w.p + n_p);
		if (!n_v)
			continue;
		while (j < k->n && k->nodes[j].guid < nd->guid)
			j++;
		if (j < k->n &&
		    same_entry(k, &k->nodes[j], nd, w.p + n_p, n_v)) {
			*e = k->nodes[j++];
			w.is_fresh[n] = false;
		} else {
			e->guid = nd->guid;
			memcpy(e->desc, nd->desc, sizeof(e->desc));
			e->type = nd->type;
			at = ftell(fresh);
			write_entry(fresh, nd, w.p + n_p, n_v);
			if (at < 0 || ftell(fresh) < at)
				goto oom;
			e->off = (size_t)at;
			e->len = (size_t)(ftell(fresh) - at);
			w.is_fresh[n] = true;
			k->n_rendered++;
		}
		e->first_port = n_p;
		e->n_ports = n_v;
		n_p += n_v;
		n++;
	}
	bad = ferror(fresh);
	bad |= fclose(fresh);
	fresh = NULL;
	if (bad)
		goto oom;
	buf = join(k, w.fresh, w.e, w.is_fresh, n, &k->len);
	if (!buf)
		goto oom;
	free(k->buf);
	free(k->nodes);
	free(k->ports);
	k->buf = buf;
	k->nodes = w.e;
	k->ports = w.p;
	k->n = n;
	w.e = NULL;
	w.p = NULL;
	work_free(&w);
	return 0;
oom:
	if (fresh)
		fclose(fresh);
	work_free(&w);
	oq_pred_nodes_kept_free(k);
	return -1;
}
