// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fuzz target: a node-name map as OpenSM's complib reads it, applied to a
 * small fabric whose GUIDs the seeds name, then every node found by its
 * name (the node OpenSM's parser picks has that name, and its chain holds
 * as many nodes as the count says), and the diagnostics' reports.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/fabric.h>
#include <osmqos/node_name_map.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct oq_fabric *small_fabric(void)
{
	static const char *const desc[] = {"dup HCA-1", "dup HCA-1",
					   "c01 HCA-1", "sw1"};
	static const uint64_t guid[] = {0x0002c90300000100ull,
					0x0002c90300000002ull,
					0x0002c90300000200ull, 0x10};
	struct oq_fabric *f = oq_fabric_new();
	size_t i;

	for (i = 0; f && i < 4; i++) {
		struct oq_node *n = oq_fabric_add_node(
			f, i == 3 ? OQ_NODE_SWITCH : OQ_NODE_CA, guid[i],
			desc[i], 1);

		if (!n)
			abort();
		n->ports[1].present = true;
	}
	if (!f || oq_fabric_finalize(f, NULL))
		abort();
	return f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oq_fabric *f = small_fabric();
	struct oq_node_name_map *m;
	struct oq_diags d;
	FILE *null = fopen("/dev/null", "w");
	int oom;
	size_t i;

	oq_diags_init(&d);
	m = oq_node_name_map_parse("fuzz.map", (const char *)data, size, &d,
				   &oom);
	if (m && oq_fabric_apply_node_names(f, m))
		abort();
	for (i = 0; i < f->n_nodes; i++) {
		const char *name = oq_node_name(f->nodes[i]);
		const struct oq_node *n, *o;
		size_t same, k = 0;

		n = oq_fabric_node_by_name(f, name, strlen(name), &same);
		if (!n || strcmp(oq_node_name(n), name) || !same)
			abort();
		for (o = n; o; o = oq_fabric_node_next_same_name(f, o))
			k++;
		if (k != same)
			abort();
	}
	if (null) {
		oq_diags_sort(&d);
		oq_diags_report(&d, null, false, "--all shows them");
		oq_diags_write_json(&d, null, true);
		fclose(null);
	}
	oq_node_name_map_free(m);
	oq_fabric_free(f);
	oq_diags_free(&d);
	return 0;
}
