// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Ports of equal tables: see tables_classes.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tables_classes.h"

bool oq_tables_uniform_sl2vl(const struct oq_port_tables *pt)
{
	unsigned int i;

	for (i = 1; i < pt->n_sl2vl; i++)
		if (memcmp(pt->sl2vl[0], pt->sl2vl[i], 16))
			return false;
	return true;
}

/* The key: everything `tables` shows of a port but the port itself. */
struct keybuf {
	uint8_t *b;
	size_t n, cap;
};

static int put(struct keybuf *k, const void *p, size_t n)
{
	if (k->n + n > k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 256;
		uint8_t *b;

		while (cap < k->n + n)
			cap *= 2;
		b = realloc(k->b, cap);
		if (!b)
			return -1;
		k->b = b;
		k->cap = cap;
	}
	memcpy(k->b + k->n, p, n);
	k->n += n;
	return 0;
}

static int put_int(struct keybuf *k, long v)
{
	return put(k, &v, sizeof(v));
}

static int put_vlarb(struct keybuf *k, const struct oq_vlarb_table *t)
{
	unsigned int i;
	int rc = put_int(k, t->n);

	for (i = 0; i < t->n && i < OQ_VLARB_MAX && !rc; i++)
		rc = put(k, &t->e[i], sizeof(t->e[i]));
	return rc;
}

static int port_key(const struct oq_port_tables *pt, bool uniform,
		    struct keybuf *k)
{
	const struct oq_port *p = pt->port;
	unsigned int rows = uniform ? 1 : pt->n_sl2vl, i;
	int rc;

	k->n = 0;
	rc = put_int(k, oq_port_kind(p)) ||
	     put_int(k, p->node->enhanced_port0) ||
	     put_int(k, p->oper_vls ? p->oper_vls : p->vl_cap) ||
	     put_int(k, pt->has_sl2vl) || put_int(k, pt->sl2vl_unknown) ||
	     put_int(k, pt->has_vlarb) || put_int(k, pt->vl_high_limit) ||
	     put_int(k, pt->sl2vl_origin) || put_int(k, pt->sl2vl_scope) ||
	     put_int(k, pt->vlarb_origin) || put_int(k, pt->vlarb_scope) ||
	     put_int(k, uniform);
	if (!rc && pt->has_sl2vl) {
		rc = put_int(k, rows);
		for (i = 0; i < rows && !rc; i++)
			rc = put(k, pt->sl2vl[i], 16);
	}
	if (!rc && pt->has_vlarb)
		rc = put_vlarb(k, &pt->vlarb_high) ||
		     put_vlarb(k, &pt->vlarb_low);
	return rc;
}

struct class_probe {
	const struct oq_tables_classes *c;
	const struct keybuf *k;
};

static bool class_is(const void *ctx, uint32_t val)
{
	const struct class_probe *p = ctx;
	const struct oq_tables_class *c = &p->c->v[val];

	return c->key_len == p->k->n && !memcmp(c->key, p->k->b, p->k->n);
}

int oq_tables_classes_build(const struct oq_fabric_tables *t,
			    bool (*keep)(size_t i, const void *ctx),
			    const void *ctx, struct oq_tables_classes *out)
{
	struct keybuf k = {0};
	struct class_probe probe = {out, &k};
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < t->n; i++) {
		const struct oq_port_tables *pt = &t->ports[i];
		bool uniform = pt->has_sl2vl && oq_tables_uniform_sl2vl(pt);
		struct oq_tables_class *c;
		uint32_t found;
		uint64_t h;
		int rc;

		if (keep && !keep(i, ctx))
			continue;
		if (port_key(pt, uniform, &k))
			goto oom;
		h = oq_fnv1a(k.b, k.n);
		rc = oq_htab_find_or_add(&out->idx, h, class_is, &probe,
					 (uint32_t)out->n, &found);
		if (rc < 0)
			goto oom;
		out->n_ports++;
		if (!rc) {
			out->v[found].n_ports++;
			continue;
		}
		if (out->n == out->cap) {
			size_t cap = out->cap ? out->cap * 2 : 16;

			c = realloc(out->v, cap * sizeof(*c));
			if (!c)
				goto oom;
			out->v = c;
			out->cap = cap;
		}
		c = &out->v[out->n];
		c->key = malloc(k.n);
		if (!c->key)
			goto oom;
		memcpy(c->key, k.b, k.n);
		c->key_len = k.n;
		c->hash = h;
		c->rep = i;
		c->n_ports = 1;
		c->uniform = uniform;
		out->n++;
	}
	free(k.b);
	return 0;
oom:
	free(k.b);
	oq_tables_classes_free(out);
	return -1;
}

void oq_tables_classes_free(struct oq_tables_classes *c)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		free(c->v[i].key);
	free(c->v);
	oq_htab_free(&c->idx);
	memset(c, 0, sizeof(*c));
}

/* 60300 as "60,300". */
const char *oq_count_text(size_t v, char *buf, size_t len)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%zu", v), i, j = 0;

	for (i = 0; i < n && (size_t)j + 2 < len; i++) {
		if (i && (n - i) % 3 == 0)
			buf[j++] = ',';
		buf[j++] = tmp[i];
	}
	buf[j] = '\0';
	return buf;
}
