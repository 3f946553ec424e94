// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Fabric lookup benchmark: the lookups the SA front makes per PathRecord
 * (a port by GUID or by LID, twice per query) and the CLI makes by name,
 * on a generated two-level fat tree of about 20,000 nodes, plus the time
 * to parse its topology file.  Every end port is looked up in a scrambled
 * order by port GUID, LID, node GUID and name, and as many absent keys;
 * prints the median ns per lookup of each kind over the rounds, and
 * exits 1 when a lookup answers wrong.  For instruction counts run it
 * under valgrind --tool=callgrind (docs/performance.md).
 *
 * Usage: bench_fabric [TOPOLOGY|- [ROUNDS]]  (default, or "-":
 * gen-fattree's output below; 15 rounds, fewer under valgrind)
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/clock.h>
#include <osmqos/fabric.h>
#include <osmqos/file.h>

#include "cmd_output.h"

#ifndef OQ_BUILDDIR
#define OQ_BUILDDIR "."
#endif

#define MAX_ROUNDS 15
#define GEN_ARGS                                                               \
	"--spines 64 --leaves 200 --hcas-per-leaf 100 --storage-per-leaf 1 "   \
	"--speed-edge EDR --speed-core HDR --format ibnetdiscover"

enum kind { BY_GUID, BY_LID, BY_NODE, BY_NAME, MISS_GUID, MISS_LID, N_KINDS };

static const char *const kind_name[N_KINDS] = {
	"port by GUID", "port by LID", "node by GUID",
	"port by name", "absent GUID", "absent LID",
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One round of lookups of one kind over the ports in order[]; returns
 * the number of wrong answers. */
static size_t round_of(const struct oq_fabric *f, enum kind k,
		       struct oq_port *const *ports, char (*names)[96],
		       size_t n)
{
	size_t i, wrong = 0;

	for (i = 0; i < n; i++) {
		const struct oq_port *p = ports[i];

		switch (k) {
		case BY_GUID:
			wrong += oq_fabric_port_by_guid(f, p->guid) != p;
			break;
		case BY_LID:
			wrong += oq_fabric_port_by_lid(f, p->lid) != p;
			break;
		case BY_NODE:
			wrong += oq_fabric_node_by_guid(f, p->node->guid) !=
				 p->node;
			break;
		case BY_NAME:
			wrong += oq_fabric_port_by_name(f, names[i]) != p;
			break;
		case MISS_GUID:
			wrong += oq_fabric_port_by_guid(f, ~p->guid) != NULL;
			break;
		case MISS_LID:
			/* LIDs above the fabric's: unicast, unassigned. */
			wrong += oq_fabric_port_by_lid(
					 f, (uint16_t)(0xbfff - i % 0x4000)) !=
				 NULL;
			break;
		default:
			break;
		}
	}
	return wrong;
}

int main(int argc, char **argv)
{
	struct oq_port **ports;
	char(*names)[96];
	struct oq_fabric *f;
	struct oq_diags d;
	size_t len, n = 0, i, wrong = 0;
	double per[MAX_ROUNDS], t_parse[MAX_ROUNDS];
	int rounds = argc > 2 ? atoi(argv[2]) : MAX_ROUNDS;
	uint64_t rng = 0x9e3779b97f4a7c15ull, t0;
	char *text;
	int r, k;

	if (rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr, "bench_fabric: 1 to %d rounds\n", MAX_ROUNDS);
		return 2;
	}
	if (argc > 1 && strcmp(argv[1], "-")) {
		text = oq_file_read(argv[1], 1u << 30, &len);
	} else {
		text = fx_cmd_output(OQ_BUILDDIR
				     "/contrib/fabrics/gen-fattree " GEN_ARGS,
				     &len);
	}
	if (!text) {
		fprintf(stderr, "bench_fabric: cannot read the topology\n");
		return 1;
	}
	oq_diags_init(&d);
	f = NULL;
	for (r = 0; r < rounds; r++) {
		oq_fabric_free(f);
		t0 = oq_clock_ns();
		f = oq_topology_parse("bench.net", text, len, &d);
		t_parse[r] = (double)(oq_clock_ns() - t0) / 1e6;
		if (!f) {
			fprintf(stderr, "bench_fabric: the topology has "
					"errors\n");
			return 1;
		}
	}
	qsort(t_parse, (size_t)rounds, sizeof(t_parse[0]), cmp_double);
	ports = calloc(f->n_ports, sizeof(*ports));
	names = calloc(f->n_ports, sizeof(*names));
	if (!ports || !names)
		return 1;
	for (i = 0; i < f->n_ports; i++)
		if (oq_port_is_endport(f->ports[i]) && f->ports[i]->lid)
			ports[n++] = f->ports[i];
	/* A scrambled order, as queries come. */
	for (i = n; i > 1; i--) {
		size_t j;
		struct oq_port *x;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		j = rng % i;
		x = ports[i - 1];
		ports[i - 1] = ports[j];
		ports[j] = x;
	}
	for (i = 0; i < n; i++)
		oq_port_name(ports[i], names[i], sizeof(names[i]));
	printf("bench_fabric: %zu nodes, %zu ports, %zu end ports with a "
	       "LID\n",
	       f->n_nodes, f->n_ports, n);
	printf("  topology parse: median %.1f ms (%zu bytes)\n",
	       t_parse[rounds / 2], len);
	for (k = 0; k < N_KINDS; k++) {
		for (r = 0; r < rounds; r++) {
			t0 = oq_clock_ns();
			wrong += round_of(f, (enum kind)k, ports, names, n);
			per[r] = (double)(oq_clock_ns() - t0) / (double)n;
		}
		qsort(per, (size_t)rounds, sizeof(per[0]), cmp_double);
		printf("  %-13s median %6.1f ns/lookup\n", kind_name[k],
		       per[rounds / 2]);
	}
	oq_fabric_free(f);
	oq_diags_free(&d);
	free(ports);
	free(names);
	free(text);
	if (wrong) {
		fprintf(stderr, "bench_fabric: %zu wrong answers\n", wrong);
		return 1;
	}
	return 0;
}
