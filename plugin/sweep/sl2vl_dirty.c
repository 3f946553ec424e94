// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The ports whose SL2VL OpenSM's cache may hold anew since the SA last
 * read it: every port a Set went to.  OpenSM rewrites a port's cached
 * SL2VL only with a Set's answer, and a new port's starts zeroed (every
 * SL on VL0), so after a read of every port found no SL dropped, reading
 * these finds whether one is dropped now: one port's Sets cost one
 * port's read, not the fabric's.  The pointers are keys, looked up among
 * a state's ports before they are read: one whose port is gone is never
 * touched.
 */
#include <config.h>

#include <stdlib.h>

#include "sweep.h"

void oq_sl2vl_dirty_add(struct oq_sl2vl_dirty *d, const void *physp)
{
	const void **v;
	size_t cap;

	if (d->all)
		return;
	/* OpenSM asks for a port's tables in a row, input by input. */
	if (d->n && d->physp[d->n - 1] == physp)
		return;
	if (d->n == d->cap) {
		/* Sweeps whose SA state failed add up: past a list of a
		 * large fabric's ports, reading every port is as cheap. */
		if (d->cap >= OQ_SL2VL_DIRTY_MAX) {
			oq_sl2vl_dirty_all(d);
			return;
		}
		cap = d->cap ? 2 * d->cap : 64;
		v = realloc(d->physp, cap * sizeof(*v));
		if (!v) {
			/* Without the list, the next read is of every port. */
			oq_sl2vl_dirty_all(d);
			return;
		}
		d->physp = v;
		d->cap = cap;
	}
	d->physp[d->n++] = physp;
}

/*
 * Emptied, the list gives its buffer back: kept, a buffer allocated in
 * the middle of a sweep's allocations stays at the top of the heap and
 * keeps malloc from returning what the sweep freed below it (opensm's
 * resident size: docs/performance.md).  A sweep that sends Sets
 * allocates it again.
 */
static void release(struct oq_sl2vl_dirty *d)
{
	free(d->physp);
	d->physp = NULL;
	d->n = d->cap = 0;
}

void oq_sl2vl_dirty_all(struct oq_sl2vl_dirty *d)
{
	d->all = true;
	release(d);
}

void oq_sl2vl_dirty_clear(struct oq_sl2vl_dirty *d)
{
	d->all = false;
	release(d);
}

void oq_sl2vl_dirty_free(struct oq_sl2vl_dirty *d)
{
	oq_sl2vl_dirty_clear(d);
}
