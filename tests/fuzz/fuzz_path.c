// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz target: the path engine.  Input: 2 bytes (little-endian) giving the
 * length of a byte pool, the pool, then a topology file.  The pool fills
 * every switch's LFT (any port number, absent ports, no-route entries, so
 * loops and dead ends are common) and the end ports' partition tables;
 * then every pair of end ports is resolved with the default SL2VL tables,
 * and the pkey and LMC helpers run on it.  Invariants abort.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>
#include <osmqos/match.h>
#include <osmqos/path.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_LID	 96 /* LFT entries filled per switch */
#define MAX_ENDS 48 /* end ports paired (the walk is the subject) */

static uint8_t pool_at(const uint8_t *pool, size_t n, size_t i)
{
	return n ? pool[i % n] : OQ_LFT_NONE;
}

static void fill(struct oq_fabric *f, const uint8_t *pool, size_t n)
{
	size_t i, k = 0;
	unsigned int lid, j;

	for (i = 0; i < f->n_nodes; i++) {
		struct oq_node *nd = f->nodes[i];

		if (nd->type != OQ_NODE_SWITCH)
			continue;
		for (lid = 0; lid < MAX_LID; lid++) {
			uint8_t b = pool_at(pool, n, k++);

			if (b < 0xf0)
				b = (uint8_t)(b % (nd->n_ports + 2u));
			else
				b = OQ_LFT_NONE;
			if (oq_node_set_lft_entry(nd, (uint16_t)lid, b))
				abort();
		}
	}
	for (i = 0; i < f->n_ports; i++) {
		uint16_t keys[4];

		for (j = 0; j < 4; j++) {
			keys[j] = (uint16_t)(pool_at(pool, n, k) << 8 |
					     pool_at(pool, n, k + 1));
			k += 2;
		}
		oq_port_set_pkeys(f->ports[i], keys,
				  pool_at(pool, n, k++) % 5u);
	}
}

static void check(const struct oq_path *p, const struct oq_port *s)
{
	if (p->n_hop > OQ_PATH_MAX_HOPS + 1 || p->hops > OQ_PATH_MAX_HOPS + 1)
		abort();
	if (p->status == OQ_PATH_OK &&
	    (p->mtu > s->mtu_cap || !p->sl_mask || !p->dst))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oq_fabric_tables t;
	struct oq_lid_pair pairs[8];
	const struct oq_port *ends[MAX_ENDS];
	struct oq_fabric *f;
	struct oq_diags d;
	size_t plen, i, j, n = 0;
	struct oq_path p;
	uint16_t k;

	if (size < 2)
		return 0;
	plen = (size_t)data[0] | (size_t)data[1] << 8;
	if (plen > size - 2)
		plen = size - 2;
	oq_diags_init(&d);
	f = oq_topology_parse("fuzz.net", (const char *)data + 2 + plen,
			      size - 2 - plen, &d);
	oq_diags_free(&d);
	if (!f)
		return 0;

	fill(f, data + 2, plen);
	if (oq_tables_compile(NULL, f, NULL, &t, NULL))
		memset(&t, 0, sizeof(t));
	for (i = 0; i < f->n_ports && n < MAX_ENDS; i++)
		if (oq_port_is_endport(f->ports[i]))
			ends[n++] = f->ports[i];
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			oq_path_resolve(f, &t, ends[i], ends[j]->lid, NULL, &p);
			check(&p, ends[i]);
			oq_path_resolve(f, NULL, ends[i],
					(uint16_t)(ends[j]->lid + 1), NULL, &p);
			check(&p, ends[i]);
			oq_ports_share_pkey_ex(f, ends[i], ends[j], 0, j & 1,
					       &k);
			oq_ports_share_pkey_ex(f, ends[i], ends[j], k, i & 1,
					       NULL);
			oq_ports_pkey_visible(f, ends[i], ends[j], (i + j) & 1);
			if (oq_path_lid_pairs(ends[i], ends[j], 0, 0, pairs,
					      8) > 128 * 128)
				abort();
		}
	oq_fabric_tables_free(&t);
	oq_fabric_free(f);
	return 0;
}
