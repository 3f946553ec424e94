// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * bench_predict: per-port and whole-fabric prediction time on k-ary fat
 * trees built in memory with the fabric.h API (k=4: 16 HCAs; k=42: 18522
 * HCAs + 2205 switches, ~20.7k nodes), every port carrying the same
 * template tables (8 VLs, OpenSM-doc style VLArb).  Switch egress ports
 * are predicted with all input ports aggregated (43 SL2VL tables each).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <osmqos/fabric.h>
#include <osmqos/model.h>
#include <osmqos/tables.h>

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void init_port(struct oq_port *p, uint64_t guid)
{
	p->present = true;
	p->guid = guid;
	p->width = 4;
	p->speed = OQ_SPEED_EDR;
	p->mtu_cap = 5;
	p->vl_cap = 8;
	p->oper_vls = 8;
	p->vlarb_high_cap = 8;
	p->vlarb_low_cap = 8;
	p->sl2vl_cap = true;
}

static struct oq_node *add(struct oq_fabric *f, enum oq_node_type t,
			   uint64_t guid, const char *kind, unsigned int a,
			   unsigned int b, unsigned int nports)
{
	char desc[64];
	struct oq_node *n;
	unsigned int i;

	snprintf(desc, sizeof(desc), "%s-%u-%u%s", kind, a, b,
		 t == OQ_NODE_CA ? " HCA-1" : "");
	n = oq_fabric_add_node(f, t, guid, desc, (uint8_t)nports);
	if (!n) {
		fprintf(stderr, "bench_predict: out of memory\n");
		exit(1);
	}
	for (i = t == OQ_NODE_SWITCH ? 0 : 1; i <= nports; i++)
		init_port(&n->ports[i],
			  t == OQ_NODE_SWITCH ? guid + 1 : guid + i);
	return n;
}

/* k-ary fat tree: k pods of k/2 edge + k/2 aggregation switches, (k/2)^2
 * cores, k/2 hosts per edge switch. */
static struct oq_fabric *fat_tree(unsigned int k)
{
	struct oq_fabric *f = oq_fabric_new();
	unsigned int h = k / 2, p, i, j;
	struct oq_node **edge, **agg, **core;
	uint64_t g = 0x0002c90000000000ull;

	edge = calloc(k * h, sizeof(*edge));
	agg = calloc(k * h, sizeof(*agg));
	core = calloc(h * h, sizeof(*core));
	if (!f || !edge || !agg || !core)
		exit(1);
	for (i = 0; i < h * h; i++)
		core[i] = add(f, OQ_NODE_SWITCH, g += 16, "core", i, 0, k);
	for (p = 0; p < k; p++) {
		for (i = 0; i < h; i++) {
			edge[p * h + i] = add(f, OQ_NODE_SWITCH, g += 16,
					      "edge", p, i, k);
			agg[p * h + i] =
				add(f, OQ_NODE_SWITCH, g += 16, "agg", p, i, k);
		}
		for (i = 0; i < h; i++) {
			for (j = 0; j < h; j++) {
				struct oq_node *ca = add(f, OQ_NODE_CA, g += 16,
							 "h", p, i * h + j, 1);

				oq_fabric_link(&ca->ports[1],
					       &edge[p * h + i]->ports[1 + j]);
				oq_fabric_link(
					&edge[p * h + i]->ports[1 + h + j],
					&agg[p * h + j]->ports[1 + i]);
				oq_fabric_link(
					&agg[p * h + i]->ports[1 + h + j],
					&core[i * h + j]->ports[1 + p]);
			}
		}
	}
	free(edge);
	free(agg);
	free(core);
	if (oq_fabric_finalize(f, NULL)) {
		fprintf(stderr, "bench_predict: finalize failed\n");
		exit(1);
	}
	return f;
}

static const uint8_t sl2vl_tmpl[16] = {0, 1, 2, 3, 4, 5, 6, 7,
				       0, 1, 2, 3, 4, 5, 6, 15};

static void tables_for(const struct oq_port *p, struct oq_port_tables *t)
{
	static const uint8_t low[][2] = {{0, 0}, {1, 64}, {2, 128}, {3, 192},
					 {4, 0}, {5, 64}, {6, 64},  {7, 64}};
	unsigned int i, rows;

	memset(t, 0, sizeof(*t));
	t->port = p;
	rows = oq_port_is_endport(p) ? 1 : p->node->n_ports + 1u;
	t->sl2vl = calloc(rows, sizeof(*t->sl2vl));
	if (!t->sl2vl)
		exit(1);
	for (i = 0; i < rows; i++)
		memcpy(t->sl2vl[i], sl2vl_tmpl, 16);
	t->n_sl2vl = (uint8_t)rows;
	t->has_sl2vl = true;
	t->has_vlarb = true;
	t->vlarb_high.e[0].vl = 0;
	t->vlarb_high.e[0].weight = 4;
	t->vlarb_high.n = 1;
	for (i = 0; i < 8; i++) {
		t->vlarb_low.e[i].vl = low[i][0];
		t->vlarb_low.e[i].weight = low[i][1];
	}
	t->vlarb_low.n = 8;
	t->vl_high_limit = 6;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void bench(unsigned int k)
{
	struct oq_fabric *f = fat_tree(k);
	struct oq_port_tables *t = calloc(f->n_ports, sizeof(*t));
	double *lat = calloc(f->n_ports, sizeof(*lat)), t0, total;
	struct oq_predict_opts o;
	struct oq_port_pred pp;
	size_t i, n = 0, approx = 0, ca = 0;
	double check = 0;

	if (!t || !lat)
		exit(1);
	for (i = 0; i < f->n_ports; i++)
		tables_for(f->ports[i], &t[i]);
	oq_predict_opts_init(&o);
	t0 = now_ns();
	for (i = 0; i < f->n_ports; i++) {
		double a;

		if (!oq_port_peer(f, f->ports[i]))
			continue;
		a = now_ns();
		if (oq_predict_port(f, &t[i], -1.0, &o, &pp)) {
			fprintf(stderr, "bench_predict: predict failed\n");
			exit(1);
		}
		lat[n++] = now_ns() - a;
		approx += pp.arb.approx;
		check += pp.sl[3].gbps;
		ca += f->ports[i]->node->type == OQ_NODE_CA;
	}
	total = now_ns() - t0;
	qsort(lat, n, sizeof(*lat), cmp_d);
	printf("fat tree k=%u: %zu nodes, %zu ports predicted (%zu CA, "
	       "%zu switch egress)\n",
	       k, f->n_nodes, n, ca, n - ca);
	printf("  per port: median %.2f us, p99 %.2f us, max %.2f us\n",
	       lat[n / 2] / 1e3, lat[n * 99 / 100] / 1e3, lat[n - 1] / 1e3);
	printf("  whole fabric: %.2f ms  (approx results: %zu, "
	       "SL3 sum %.0f Gb/s)\n",
	       total / 1e6, approx, check);
	for (i = 0; i < f->n_ports; i++)
		free(t[i].sl2vl);
	free(t);
	free(lat);
	oq_fabric_free(f);
}

int main(void)
{
	bench(4);
	bench(42);
	return 0;
}
