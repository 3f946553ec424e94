// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The port facts and the key index shared by the prediction classes and
 * the synthesizer's classes (osmqos/port_class.h).
 */
#include <stdlib.h>
#include <string.h>

#include <osmqos/port_class.h>

unsigned int oq_port_data_vls(const struct oq_port *p)
{
	unsigned int n = p->oper_vls ? p->oper_vls : p->vl_cap;

	if (n > OQ_MAX_VLS)
		n = OQ_MAX_VLS;
	return n ? n : 1;
}

bool oq_port_counts_as_input(const struct oq_port *egress, unsigned int in)
{
	const struct oq_node *n = egress->node;

	if (in == egress->num)
		return false;
	if (in == 0)
		return true;
	return n && in <= n->n_ports && n->ports[in].present &&
	       n->ports[in].peer;
}

static int row_cmp(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

size_t oq_port_input_rows(const struct oq_port_tables *t, uint8_t (*rows)[16])
{
	size_t n = 0, k = 0, i;
	unsigned int in;
	bool same = true;

	for (in = 0; in < t->n_sl2vl; in++) {
		if (!oq_port_counts_as_input(t->port, in))
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

void oq_class_key_start(struct oq_class_keys *k)
{
	k->len = 0;
}

void oq_class_key_put(struct oq_class_keys *k, const void *v, size_t n)
{
	if (k->oom)
		return;
	if (k->len + n > k->buf_cap) {
		size_t cap = k->buf_cap ? k->buf_cap : 256;
		uint8_t *b;

		while (cap < k->len + n)
			cap *= 2;
		b = realloc(k->buf, cap);
		if (!b) {
			k->oom = true;
			return;
		}
		k->buf = b;
		k->buf_cap = cap;
	}
	memcpy(k->buf + k->len, v, n);
	k->len += n;
}

static uint64_t key_hash(const void *ctx, size_t i)
{
	const struct oq_class_keys *k = ctx;

	return k->v[i].hash;
}

uint32_t oq_class_key_find(struct oq_class_keys *k, bool *added)
{
	struct oq_class_key *c;
	uint64_t h;
	size_t j;

	*added = false;
	if (k->oom || k->n >= OQ_CLASS_OOM - 1 ||
	    oq_keyidx_reserve(&k->idx, k->n, key_hash, k))
		return OQ_CLASS_OOM;
	h = oq_fnv1a(k->buf, k->len);
	for (j = oq_keyidx_first(&k->idx, h); k->idx.slot[j];
	     j = oq_keyidx_next(&k->idx, j)) {
		c = &k->v[k->idx.slot[j] - 1];
		if (c->hash == h && c->len == k->len &&
		    !memcmp(c->key, k->buf, k->len))
			return k->idx.slot[j] - 1;
	}
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 16;
		struct oq_class_key *v = realloc(k->v, cap * sizeof(*v));

		if (!v)
			return OQ_CLASS_OOM;
		k->v = v;
		k->cap = cap;
	}
	c = &k->v[k->n];
	c->key = malloc(k->len ? k->len : 1);
	if (!c->key)
		return OQ_CLASS_OOM;
	memcpy(c->key, k->buf, k->len);
	c->len = k->len;
	c->hash = h;
	k->idx.slot[j] = (uint32_t)++k->n;
	k->last_slot = j;
	*added = true;
	return (uint32_t)(k->n - 1);
}

void oq_class_key_drop_last(struct oq_class_keys *k)
{
	/* The last key added took the slot that ended its probe: no later
	 * key probed past it, so clearing it breaks no chain. */
	k->idx.slot[k->last_slot] = 0;
	free(k->v[--k->n].key);
}

void oq_class_keys_free(struct oq_class_keys *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->v[i].key);
	free(k->v);
	free(k->buf);
	oq_keyidx_free(&k->idx);
	memset(k, 0, sizeof(*k));
}
