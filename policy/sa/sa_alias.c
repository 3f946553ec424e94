// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The SA's port GUIDs (OpenSM's alias_port_guid_tbl): their map order, a
 * lookup by GUID, and the aliases of each port.  A query that names its
 * ends by LID walks the aliases of those two ports only; OpenSM walks its
 * whole table for them, which on a 20,000-port fabric is 20,000 steps per
 * query.
 */
#include <stdlib.h>

#include <osmqos/sa_path.h>

static int alias_cmp(const void *a, const void *b)
{
	uint64_t x = __builtin_bswap64(((const struct oq_alias *)a)->guid);
	uint64_t y = __builtin_bswap64(((const struct oq_alias *)b)->guid);

	return x < y ? -1 : x > y;
}

void oq_alias_sort(struct oq_alias *a, size_t n)
{
	if (n)
		qsort(a, n, sizeof(*a), alias_cmp);
}

const struct oq_alias *oq_alias_find(const struct oq_alias *a, size_t n,
				     uint64_t guid)
{
	struct oq_alias k = {.guid = guid};

	if (!a || !n)
		return NULL;
	return bsearch(&k, a, n, sizeof(*a), alias_cmp);
}

/* A counting sort by port index, stable, so each port's aliases keep the
 * map order. */
int oq_alias_index_build(const struct oq_fabric *f, struct oq_alias_index *ix,
			 const struct oq_alias *a, size_t n, size_t n_ports)
{
	size_t i, k;

	ix->start = NULL;
	ix->ids = NULL;
	ix->n_ports = 0;
	if (n > UINT32_MAX || n_ports > UINT32_MAX)
		return -1;
	ix->start = calloc(n_ports + 1, sizeof(*ix->start));
	ix->ids = malloc((n ? n : 1) * sizeof(*ix->ids));
	ix->n_ports = n_ports;
	if (!ix->start || !ix->ids) {
		oq_alias_index_free(ix);
		return -1;
	}
	for (i = 0; i < n; i++) {
		k = oq_port_index(f, a[i].port);
		if (k < n_ports)
			ix->start[k + 1]++;
	}
	for (k = 0; k < n_ports; k++)
		ix->start[k + 1] += ix->start[k];
	/* start[k] is port k's first slot; used as a cursor it ends on the
	 * next port's, so shift back by one afterwards. */
	for (i = 0; i < n; i++) {
		k = oq_port_index(f, a[i].port);
		if (k < n_ports)
			ix->ids[ix->start[k]++] = (uint32_t)i;
	}
	for (k = n_ports; k > 0; k--)
		ix->start[k] = ix->start[k - 1];
	ix->start[0] = 0;
	return 0;
}

void oq_alias_index_free(struct oq_alias_index *ix)
{
	free(ix->start);
	free(ix->ids);
	ix->start = NULL;
	ix->ids = NULL;
	ix->n_ports = 0;
}
