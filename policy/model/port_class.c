// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The port facts and the class keys shared by the prediction classes and
 * the synthesizer's classes (osmqos/port_class.h).
 */
#include <errno.h>
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

bool oq_port_counts_as_input(const struct oq_fabric *f,
			     const struct oq_port *egress, unsigned int in)
{
	const struct oq_node *n = egress->node;

	if (in == egress->num)
		return false;
	if (in == 0)
		return true;
	return n && in <= n->n_ports && n->ports[in].present &&
	       oq_port_peer(f, &n->ports[in]);
}

static int row_cmp(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

size_t oq_port_input_rows(const struct oq_fabric *f,
			  const struct oq_port_tables *t, uint8_t (*rows)[16])
{
	size_t n = 0, k = 0, i;
	unsigned int in;
	bool same = true;

	for (in = 0; in < t->n_sl2vl; in++) {
		if (!oq_port_counts_as_input(f, t->port, in))
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

int oq_class_key_find(struct oq_class_keys *k, uint32_t *val)
{
	uint32_t id;
	int rc;

	if (k->oom)
		return -ENOMEM;
	rc = oq_intern_add(&k->keys, k->buf, k->len, &id);
	if (rc < 0)
		return rc;
	if (!rc) {
		*val = k->val[id];
		return 0;
	}
	if (id >= k->val_cap) {
		size_t cap = k->val_cap ? k->val_cap * 2 : 16;
		uint32_t *v = realloc(k->val, cap * sizeof(*v));

		/* The key stays interned without a value: the caller fails
		 * the whole build on -ENOMEM. */
		if (!v) {
			k->oom = true;
			return -ENOMEM;
		}
		k->val = v;
		k->val_cap = cap;
	}
	k->val[id] = UINT32_MAX;
	k->last = id;
	return 1;
}

void oq_class_key_set(struct oq_class_keys *k, uint32_t val)
{
	k->val[k->last] = val;
}

void oq_class_keys_free(struct oq_class_keys *k)
{
	oq_intern_free(&k->keys);
	free(k->val);
	free(k->buf);
	memset(k, 0, sizeof(*k));
}
