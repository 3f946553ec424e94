// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Shared SL2VL rows.  A switch port has one SL2VL row per input port, so a
 * fabric's rows grow with ports x ports per switch (megabytes on a fat
 * tree of thousands of nodes), compiled and copied every heavy sweep.
 * But nearly every port of a kind holds the same rows, so a table set
 * keeps each distinct block of rows once, found by content, and its ports
 * point at it.  Compiling and copying then allocate and touch a few
 * kilobytes, not megabytes: on a host where a fresh page costs
 * microseconds, that is most of what a sweep's tables cost.
 *
 * A block is never written once stored: a port that needs other rows
 * gets another block.
 * The drop masks path checks read are computed here too, once per block.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/htab.h>

#include "tables_int.h"

struct sl2vl_block {
	uint16_t *drop; /* drop masks of the rows, once asked for */
	unsigned int n;
	uint64_t w[]; /* n rows of 16 bytes, two words each */
};

struct oq_sl2vl_store {
	struct oq_htab idx; /* a block's hash -> its index in v */
	struct sl2vl_block **v;
	size_t n, cap;
	/* The block the last fill gave, all its rows fill_row: a compile
	 * fills port after port with one row (a kind's template, a scope's
	 * table), and finds it here without building and hashing rows. */
	struct sl2vl_block *fill;
	uint8_t fill_row[16];
};

/* Rows are word-aligned: a block's, a calloc()'d table's or a caller's
 * scratch declared as words. */
static uint64_t rows_hash(const uint8_t (*rows)[16], unsigned int n)
{
	return oq_hash_words((const uint64_t *)(const void *)rows,
			     2 * (size_t)n) ^
	       n;
}

struct rows_key {
	const struct oq_sl2vl_store *st;
	const uint8_t (*rows)[16];
	unsigned int n;
};

static bool same_block(const void *ctx, uint32_t i)
{
	const struct rows_key *k = ctx;
	const struct sl2vl_block *b = k->st->v[i];

	return b->n == k->n && !memcmp(b->w, k->rows, 16 * (size_t)k->n);
}

static struct sl2vl_block *block_of(uint8_t (*rows)[16])
{
	return (struct sl2vl_block *)((char *)rows -
				      offsetof(struct sl2vl_block, w));
}

/* The stored block equal to rows[0..n-1], added when new; NULL when out
 * of memory. */
static struct sl2vl_block *store_get(struct oq_sl2vl_store **pst,
				     const uint8_t (*rows)[16], unsigned int n)
{
	struct oq_sl2vl_store *st = *pst;
	struct rows_key k = {st, rows, n};
	uint64_t h = rows_hash(rows, n);
	struct sl2vl_block *b;
	int64_t i;

	if (!st) {
		st = calloc(1, sizeof(*st));
		if (!st)
			return NULL;
		*pst = st;
		k.st = st;
	}
	i = oq_htab_find(&st->idx, h, same_block, &k);
	if (i >= 0)
		return st->v[i];
	if (st->n == st->cap) {
		size_t cap = st->cap ? 2 * st->cap : 8;
		struct sl2vl_block **v = realloc(st->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		st->v = v;
		st->cap = cap;
	}
	b = malloc(sizeof(*b) + 16 * (size_t)n);
	if (!b)
		return NULL;
	b->drop = NULL;
	b->n = n;
	memcpy(b->w, rows, 16 * (size_t)n);
	/* Not there: the add compares no entry equal. */
	if (oq_htab_find_or_add(&st->idx, h, same_block, &k, (uint32_t)st->n,
				NULL) < 0) {
		free(b);
		return NULL;
	}
	st->v[st->n++] = b;
	return b;
}

static void store_free(struct oq_sl2vl_store *st)
{
	size_t i;

	if (!st)
		return;
	for (i = 0; i < st->n; i++) {
		free(st->v[i]->drop);
		free(st->v[i]);
	}
	free(st->v);
	oq_htab_free(&st->idx);
	free(st);
}

void oq_port_tables_clear_sl2vl(struct oq_port_tables *pt)
{
	pt->sl2vl = NULL;
	pt->sl2vl_drop = NULL;
	pt->n_sl2vl = 0;
}

int oq_port_tables_set_sl2vl(struct oq_fabric_tables *t,
			     struct oq_port_tables *pt,
			     const uint8_t (*rows)[16], unsigned int n)
{
	struct sl2vl_block *b;

	if (!n || n > OQ_SL2VL_MAX_ROWS)
		return -EINVAL;
	b = store_get(&t->store, rows, n);
	if (!b)
		return -ENOMEM;
	oq_port_tables_clear_sl2vl(pt);
	pt->sl2vl = (uint8_t(*)[16])b->w;
	pt->n_sl2vl = (uint8_t)n;
	return 0;
}

int oq_port_tables_fill_sl2vl(struct oq_fabric_tables *t,
			      struct oq_port_tables *pt, const uint8_t *row,
			      unsigned int n)
{
	struct oq_sl2vl_store *st = t->store;
	union oq_sl2vl_scratch sc;
	unsigned int i;
	int rc;

	if (!n || n > OQ_SL2VL_MAX_ROWS)
		return -EINVAL;
	if (st && st->fill && st->fill->n == n &&
	    !memcmp(st->fill_row, row, 16)) {
		oq_port_tables_clear_sl2vl(pt);
		pt->sl2vl = (uint8_t(*)[16])st->fill->w;
		pt->n_sl2vl = (uint8_t)n;
		return 0;
	}
	for (i = 0; i < n; i++)
		memcpy(sc.row[i], row, 16);
	rc = oq_port_tables_set_sl2vl(t, pt, (const uint8_t(*)[16])sc.row, n);
	if (!rc) {
		t->store->fill = block_of(pt->sl2vl);
		memcpy(t->store->fill_row, sc.row[0], 16);
	}
	return rc;
}

bool oq_sl2vl_rows_uniform(struct oq_sl2vl_uniform_memo *m,
			   const uint8_t (*rows)[16], unsigned int n)
{
	unsigned int i;

	if (m->rows == (const void *)rows && m->n == n)
		return m->uniform;
	for (i = 1; i < n && !memcmp(rows[i], rows[0], 16); i++)
		;
	m->rows = rows;
	m->n = n;
	m->uniform = i >= n;
	return m->uniform;
}

static uint16_t *drops_of(const uint8_t (*rows)[16], unsigned int n)
{
	uint16_t *d = calloc(n, sizeof(*d));
	unsigned int r;

	for (r = 0; d && r < n; r++)
		d[r] = oq_sl2vl_row_drops(rows[r]);
	return d;
}

int oq_port_tables_index_drops(struct oq_port_tables *t)
{
	struct sl2vl_block *b;

	t->sl2vl_drop = NULL;
	if (!t->sl2vl || !t->n_sl2vl)
		return 0;
	/* Once per block, for every port that shares it. */
	b = block_of(t->sl2vl);
	if (!b->drop)
		b->drop = drops_of((const uint8_t(*)[16])t->sl2vl, b->n);
	t->sl2vl_drop = b->drop;
	return t->sl2vl_drop ? 0 : -ENOMEM;
}

int oq_fabric_tables_index_drops(struct oq_fabric_tables *t)
{
	size_t i, r;

	free(t->no_drop);
	t->no_drop = calloc(t->n / 64 + 1, sizeof(*t->no_drop));
	if (!t->no_drop)
		return -ENOMEM;
	for (i = 0; i < t->n; i++) {
		struct oq_port_tables *pt = &t->ports[i];
		uint16_t any = 0;

		if (oq_port_tables_index_drops(pt)) {
			free(t->no_drop);
			t->no_drop = NULL;
			return -ENOMEM;
		}
		for (r = 0; pt->sl2vl_drop && r < pt->n_sl2vl; r++)
			any |= pt->sl2vl_drop[r];
		if (!any)
			t->no_drop[i / 64] |= 1ull << (i % 64);
	}
	return 0;
}

void oq_fabric_tables_free(struct oq_fabric_tables *t)
{
	size_t i;

	if (!t)
		return;
	free(t->no_drop);
	t->no_drop = NULL;
	for (i = 0; i < t->n && t->ports; i++)
		oq_port_tables_clear_sl2vl(&t->ports[i]);
	free(t->ports);
	t->ports = NULL;
	t->n = 0;
	store_free(t->store);
	t->store = NULL;
	free(t->covers);
	t->covers = NULL;
	t->n_covers = 0;
	t->quiet = false;
	free(t->kept);
	t->kept = NULL;
}
