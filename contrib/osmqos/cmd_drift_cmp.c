// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos drift`: the drift list, and one port's tables compiled against
 * read back.  Pure (no I/O), so the unit test can feed it made-up tables.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_drift.h"

struct drift *drift_add(struct drift_list *d, const char *kind)
{
	struct drift *e;

	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 16;
		struct drift *v = realloc(d->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		d->v = v;
		d->cap = cap;
	}
	e = &d->v[d->n++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->in_port = e->rule = e->level = -1;
	return e;
}

void drift_list_free(struct drift_list *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* "a,b,c" and "[a, b, c]" of 16 VLs. */
static void fmt_sl2vl(const uint8_t *t, char *text, size_t tlen, char *json,
		      size_t jlen)
{
	size_t a = 0, b = 0;
	unsigned int sl;

	b += (size_t)snprintf(json, jlen, "[");
	for (sl = 0; sl < 16; sl++) {
		a += (size_t)snprintf(text + a, tlen - a, "%s%u", sl ? "," : "",
				      t[sl]);
		b += (size_t)snprintf(json + b, jlen - b, "%s%u",
				      sl ? ", " : "", t[sl]);
	}
	snprintf(json + b, jlen - b, "]");
}

static void entry(const struct oq_vlarb_table *t, unsigned int i, uint8_t *vl,
		  uint8_t *w)
{
	*vl = i < t->n ? t->e[i].vl : 0;
	*w = i < t->n ? t->e[i].weight : 0;
}

/* "vl:w,..." and "[[vl, w], ...]" of the first n entries, trailing 0:0
 * entries left out (a table and its zero-padded read-back print alike);
 * "(empty)" / [] when nothing is left. */
static void fmt_vlarb(const struct oq_vlarb_table *t, unsigned int n,
		      char *text, size_t tlen, char *json, size_t jlen)
{
	size_t a = 0, b = 0;
	unsigned int i, used = 0;
	uint8_t vl, w;

	for (i = 0; i < n; i++) {
		entry(t, i, &vl, &w);
		if (vl || w)
			used = i + 1;
	}
	text[0] = '\0';
	b += (size_t)snprintf(json, jlen, "[");
	for (i = 0; i < used && a < tlen && b < jlen; i++) {
		entry(t, i, &vl, &w);
		a += (size_t)snprintf(text + a, tlen - a, "%s%u:%u",
				      i ? "," : "", vl, w);
		b += (size_t)snprintf(json + b, jlen - b, "%s[%u, %u]",
				      i ? ", " : "", vl, w);
	}
	if (b < jlen)
		snprintf(json + b, jlen - b, "]");
	if (!used)
		snprintf(text, tlen, "(empty)");
}

/* The next entry at or after *i that arbitrates (weight > 0; the arbiter
 * skips the others), or false at the end of the first n. */
static bool next_weighted(const struct oq_vlarb_table *t, unsigned int n,
			  unsigned int *i, uint8_t *vl, uint8_t *w)
{
	for (; *i < n; (*i)++) {
		entry(t, *i, vl, w);
		if (*w)
			return true;
	}
	return false;
}

/* Do the two tables arbitrate alike: the same weighted entries in the
 * same order (an added or changed 0-weight entry does nothing)? */
static bool same_arbitration(const struct oq_vlarb_table *a,
			     const struct oq_vlarb_table *b, unsigned int n)
{
	unsigned int i = 0, j = 0;
	uint8_t v1, w1, v2, w2;
	bool more_a, more_b;

	for (;; i++, j++) {
		more_a = next_weighted(a, n, &i, &v1, &w1);
		more_b = next_weighted(b, n, &j, &v2, &w2);
		if (!more_a || !more_b)
			return more_a == more_b;
		if (v1 != v2 || w1 != w2)
			return false;
	}
}

static int cmp_vlarb(const char *kind, const struct oq_port_tables *want,
		     const struct oq_vlarb_table *w,
		     const struct oq_vlarb_table *g, struct drift_list *out)
{
	struct drift *d;
	unsigned int n = g->n;

	if (same_arbitration(w, g, n))
		return 0;
	d = drift_add(out, kind);
	if (!d)
		return -1;
	d->port = want->port;
	fmt_vlarb(w, n, d->exp_text, sizeof(d->exp_text), d->exp_json,
		  sizeof(d->exp_json));
	fmt_vlarb(g, n, d->got_text, sizeof(d->got_text), d->got_json,
		  sizeof(d->got_json));
	return 0;
}

int drift_compare_port(const struct oq_port_tables *want,
		       const struct oq_port_tables *got,
		       struct drift_list *out, struct drift_list *vlhl)
{
	const struct oq_port *p = want->port;
	bool by_in = p->node->type == OQ_NODE_SWITCH && p->num;
	struct drift *d;
	unsigned int in;

	if (want->has_sl2vl && got->has_sl2vl) {
		for (in = 0; in < want->n_sl2vl && in < got->n_sl2vl; in++) {
			if (!memcmp(want->sl2vl[in], got->sl2vl[in], 16))
				continue;
			d = drift_add(out, "sl2vl");
			if (!d)
				return -1;
			d->port = p;
			d->in_port = by_in ? (int)in : -1;
			fmt_sl2vl(want->sl2vl[in], d->exp_text,
				  sizeof(d->exp_text), d->exp_json,
				  sizeof(d->exp_json));
			fmt_sl2vl(got->sl2vl[in], d->got_text,
				  sizeof(d->got_text), d->got_json,
				  sizeof(d->got_json));
		}
	}
	if (!want->has_vlarb || !got->has_vlarb)
		return 0;
	if (cmp_vlarb("vlarb_high", want, &want->vlarb_high, &got->vlarb_high,
		      out) ||
	    cmp_vlarb("vlarb_low", want, &want->vlarb_low, &got->vlarb_low,
		      out))
		return -1;
	if (want->vl_high_limit == got->vl_high_limit)
		return 0;
	d = drift_add(vlhl, "vl_high_limit");
	if (!d)
		return -1;
	d->port = p;
	snprintf(d->exp_text, sizeof(d->exp_text), "%u", want->vl_high_limit);
	snprintf(d->got_text, sizeof(d->got_text), "%u", got->vl_high_limit);
	snprintf(d->exp_json, sizeof(d->exp_json), "%u", want->vl_high_limit);
	snprintf(d->got_json, sizeof(d->got_json), "%u", got->vl_high_limit);
	return 0;
}
