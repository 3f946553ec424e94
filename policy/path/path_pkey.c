// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Partition checks of OpenSM's SA (osm_pkey.c, 3.3.23) on the model's
 * partition tables.  OpenSM keeps each port's keys in a cl_map keyed by
 * the P_Key in network byte order: without allow_both_pkeys the key is
 * the 15-bit base and a full-member entry wins over a limited one; with
 * it, full and limited keys are separate entries.  find_common_pkey()
 * walks two such maps in key order and returns the first match, so which
 * key a PathRecord gets depends on that order.  cl_map compares the keys
 * as host integers, i.e. byte-swapped on the little-endian hosts OpenSM
 * runs on; this file does the same so the chosen key is identical.
 */
#include <stdlib.h>

#include <osmqos/path.h>

struct kv {
	uint16_t key; /* map key, host order (base, or full value) */
	uint16_t val; /* table entry (membership bit included) */
};

/* Ports have a handful of P_Keys: their maps live on the answering
 * thread's stack, so an SA answer does not allocate for them. */
#define KEYMAP_SMALL 16

struct keymap {
	struct kv *v;
	size_t n;
	struct kv small[KEYMAP_SMALL];
};

/* cl_map's order of a network-order 16-bit key on x86_64. */
static unsigned int order(uint16_t k)
{
	return (unsigned int)(uint16_t)((k >> 8) | (k << 8));
}

static int kv_cmp(const void *a, const void *b)
{
	const struct kv *x = a, *y = b;
	unsigned int ox = order(x->key), oy = order(y->key);

	if (ox != oy)
		return ox < oy ? -1 : 1;
	/* Same key: the larger value (a full member) first. */
	return (int)y->val - (int)x->val;
}

/* Sort small maps in place (no qsort call for one or two keys). */
static void kv_sort(struct kv *v, size_t n)
{
	size_t i, j;

	if (n > KEYMAP_SMALL) {
		qsort(v, n, sizeof(*v), kv_cmp);
		return;
	}
	for (i = 1; i < n; i++) {
		struct kv x = v[i];

		for (j = i; j > 0 && kv_cmp(&v[j - 1], &x) > 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

static void keymap_free(struct keymap *m)
{
	if (m->v != m->small)
		free(m->v);
}

/* osm_pkey_tbl_sync_new_blocks()'s keys map of one port. */
static int keymap_build(const struct oq_fabric *f, struct keymap *m,
			const struct oq_port *p, bool allow_both)
{
	size_t i, n = 0, n_pk;
	const uint16_t *pk = oq_port_pkeys(f, p, &n_pk);

	m->v = m->small;
	m->n = 0;
	if (!n_pk || !pk)
		return 0;
	if (n_pk > KEYMAP_SMALL) {
		m->v = malloc(n_pk * sizeof(*m->v));
		if (!m->v) {
			m->v = m->small;
			return -1;
		}
	}
	for (i = 0; i < n_pk; i++) {
		uint16_t e = pk[i];

		if (!(e & OQ_PKEY_MASK))
			continue; /* invalid P_Key: not in the map */
		m->v[n].key = allow_both ? e : (uint16_t)(e & OQ_PKEY_MASK);
		m->v[n++].val = e;
	}
	kv_sort(m->v, n);
	/* One entry per key; the full member when both exist (OpenSM
	 * replaces a previous entry whose value is lower). */
	for (i = 0, m->n = 0; i < n; i++)
		if (!m->n || m->v[m->n - 1].key != m->v[i].key)
			m->v[m->n++] = m->v[i];
	return 0;
}

static const uint16_t *keymap_get(const struct keymap *m, uint16_t key)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (m->v[i].key == key)
			return &m->v[i].val;
	return NULL;
}

/* match_pkey(): same base, at least one full member. */
static bool match(uint16_t a, uint16_t b)
{
	if (!((a & OQ_PKEY_FULL) || (b & OQ_PKEY_FULL)))
		return false;
	return (a & OQ_PKEY_MASK) == (b & OQ_PKEY_MASK);
}

static bool share_this(const struct keymap *a, const struct keymap *b,
		       uint16_t pkey, bool allow_both)
{
	const uint16_t *x, *y;

	if (allow_both) {
		uint16_t full = pkey | OQ_PKEY_FULL;
		uint16_t limited = pkey & OQ_PKEY_MASK;

		x = keymap_get(a, full);
		if (!x)
			x = keymap_get(a, limited);
		y = keymap_get(b, full);
		if (!y)
			y = keymap_get(b, limited);
	} else {
		x = keymap_get(a, pkey & OQ_PKEY_MASK);
		y = keymap_get(b, pkey & OQ_PKEY_MASK);
	}
	return x && y && match(*x, *y);
}

/*
 * One merge walk of find_common_pkey().  want_a/want_b: -1 any entry,
 * 1 only full members, 0 only limited ones (the allow_both passes);
 * base: compare the keys' bases (those passes) or the whole keys.
 */
static uint16_t merge(const struct keymap *a, const struct keymap *b,
		      int want_a, int want_b, bool base)
{
	size_t i = 0, j = 0;

	while (i < a->n && j < b->n) {
		uint16_t x = a->v[i].val, y = b->v[j].val;
		unsigned int ka, kb;

		if (want_a >= 0 && !!(x & OQ_PKEY_FULL) != want_a) {
			i++;
			continue;
		}
		if (want_b >= 0 && !!(y & OQ_PKEY_FULL) != want_b) {
			j++;
			continue;
		}
		if (match(x, y))
			return x;
		ka = order(base ? a->v[i].key & OQ_PKEY_MASK : a->v[i].key);
		kb = order(base ? b->v[j].key & OQ_PKEY_MASK : b->v[j].key);
		if (ka == kb) {
			i++;
			j++;
		} else if (kb < ka) {
			j++;
		} else {
			i++;
		}
	}
	return 0;
}

static uint16_t find_common(const struct keymap *a, const struct keymap *b,
			    bool allow_both)
{
	uint16_t k = merge(a, b, -1, -1, false);

	if (k || !allow_both)
		return k;
	k = merge(a, b, 1, 0, true);
	if (k)
		return k;
	return merge(a, b, 0, 1, true);
}

bool oq_ports_share_pkey_ex(const struct oq_fabric *f, const struct oq_port *a,
			    const struct oq_port *b, uint16_t pkey,
			    bool allow_both, uint16_t *out_pkey)
{
	struct keymap ma, mb;
	uint16_t k = 0;
	bool ok = false;

	if (out_pkey)
		*out_pkey = 0;
	if (!a || !b)
		return false;
	if (keymap_build(f, &ma, a, allow_both))
		return false;
	if (keymap_build(f, &mb, b, allow_both)) {
		keymap_free(&ma);
		return false;
	}
	if (pkey) {
		ok = share_this(&ma, &mb, pkey, allow_both);
		k = pkey;
	} else {
		k = find_common(&ma, &mb, allow_both);
		ok = k != 0;
	}
	if (ok && out_pkey)
		*out_pkey = k;
	keymap_free(&ma);
	keymap_free(&mb);
	return ok;
}

bool oq_ports_share_pkey(const struct oq_fabric *f, const struct oq_port *a,
			 const struct oq_port *b, uint16_t pkey,
			 uint16_t *out_pkey)
{
	return oq_ports_share_pkey_ex(f, a, b, pkey, false, out_pkey);
}

bool oq_ports_pkey_visible(const struct oq_fabric *f, const struct oq_port *a,
			   const struct oq_port *b, bool allow_both)
{
	struct keymap ma, mb;
	bool ok;

	if (!a || !b)
		return false;
	if (a == b)
		return true;
	if (keymap_build(f, &ma, a, allow_both))
		return false;
	if (keymap_build(f, &mb, b, allow_both)) {
		keymap_free(&ma);
		return false;
	}
	/* OpenSM's "HACK": a port without a table is not checked. */
	ok = !ma.n || !mb.n || find_common(&ma, &mb, allow_both) != 0;
	keymap_free(&ma);
	keymap_free(&mb);
	return ok;
}
