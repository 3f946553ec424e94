// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Per-sweep core benchmark: what the plugin asks of the core at every
 * heavy sweep, repeated on one fabric.  The topology is loaded once; each
 * round then runs the sequence of plugin/sweep/state.c and
 * plugin/sa/sa_state.c on the core's side: the fabric copied into a new
 * model through the calls the snapshot makes (nodes, names, LFTs, ports,
 * P_Keys, links, finalize), the partitions and templates, the policy
 * bound and its matcher compiled, every port's tables compiled, the
 * bandwidth intents applied, OpenSM's ports indexed, the port classes
 * predicted, and everything freed.  Then the sweep after one host port
 * went down: the fabric derived from that round's (the host gone, its
 * leaf read again, every other node shared, as the snapshot makes it)
 * and its tables compiled in full and derived from the round's
 * (oq_tables_compile_derived), its port classes built in full and
 * derived from the round's (oq_pred_classes_derive), and its JSON nodes
 * list rendered whole and kept from the round's (oq_pred_nodes_keep),
 * each two ways in turns, which must be the same.  Prints
 * the median of each phase over the rounds, the classes found and the
 * peak RSS.  For instruction counts
 * per phase run it under valgrind --tool=callgrind with a few rounds and
 * read the inclusive cost of each phase's function (docs/performance.md).
 *
 * Usage: bench_sweep [TOPOLOGY POLICY [ROUNDS]]  (default, or "- -":
 * gen-fattree's 2,700-node fat tree and gen-scale-policy.sh's policy for
 * it, as `make bench-scale` runs them; 15 rounds)
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <osmqos/clock.h>
#include <osmqos/fabric.h>
#include <osmqos/file.h>
#include <osmqos/htab.h>
#include <osmqos/match.h>
#include <osmqos/model.h>
#include <osmqos/policy.h>
#include <osmqos/pred_class.h>
#include <osmqos/synth.h>
#include <osmqos/tables.h>

#include "cmd_output.h"

#ifndef OQ_BUILDDIR
#define OQ_BUILDDIR "."
#endif
#ifndef OQ_SRCDIR
#define OQ_SRCDIR "."
#endif

#define MAX_ROUNDS 101
#define LEAVES	   "72"
#define GEN_ARGS                                                               \
	"--spines 36 --leaves " LEAVES " --hcas-per-leaf 36 "                  \
	"--storage-per-leaf 1"

enum phase {
	PH_COPY,
	PH_PARTS,
	PH_BIND,
	PH_MATCHER,
	PH_TABLES,
	PH_SYNTH,
	PH_MAP,
	PH_CLASSES,
	PH_FREE,
	N_PHASES,
};

static const char *const phase_name[N_PHASES] = {
	"fabric copy", "partitions", "bind",	"matcher", "tables",
	"synth apply", "port map",   "classes", "free",
};

/* What OpenSM holds that the snapshot copies: the source fabric, each
 * end port's LID and each switch's LFT (the generated topology has no
 * LIDs: they are given here in node order, as a fresh SM would). */
struct source {
	struct oq_fabric *f;
	struct oq_partitions parts; /* OpenSM's: every end port's P_Keys */
	uint16_t *lid; /* per port index: 0 for a switch external port */
	uint8_t **lft; /* per node index: NULL for a CA */
	size_t lft_size;
};

/* One round's state, as the sweep and SA states hold it. */
struct sweep {
	struct oq_fabric *f;
	struct oq_partitions parts;
	struct oq_templates templates;
	struct oq_binding *binding;
	struct oq_matcher *matcher;
	struct oq_engine engine;
	struct oq_fabric_tables tables;
	struct oq_synth_plan synth;
	struct oq_htab port_of_user;
	struct oq_pred_classes classes;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int source_init(struct source *s, struct oq_fabric *f)
{
	size_t i, k;
	uint16_t next = 1;

	s->f = f;
	if (oq_partitions_no_file(&s->parts, f, NULL))
		return -1;
	s->lid = calloc(f->n_ports, sizeof(*s->lid));
	s->lft = calloc(f->n_nodes, sizeof(*s->lft));
	if (!s->lid || !s->lft)
		return -1;
	for (i = 0; i < f->n_ports; i++)
		if (oq_port_is_endport(f->ports[i]))
			s->lid[i] = next++;
	s->lft_size = next;
	for (i = 0; i < f->n_nodes; i++) {
		const struct oq_node *n = f->nodes[i];

		if (n->type != OQ_NODE_SWITCH)
			continue;
		s->lft[i] = malloc(s->lft_size);
		if (!s->lft[i])
			return -1;
		for (k = 0; k < s->lft_size; k++)
			s->lft[i][k] =
				(uint8_t)(k ? 1 + k % (n->n_ports ? n->n_ports
								  : 1)
					    : OQ_LFT_NONE);
	}
	return 0;
}

static void source_free(struct source *s)
{
	size_t i;

	for (i = 0; s->lft && i < s->f->n_nodes; i++)
		free(s->lft[i]);
	free(s->lft);
	free(s->lid);
	oq_partitions_free(&s->parts);
	oq_fabric_free(s->f);
}

static int copy_node(const struct source *s, struct oq_fabric *f,
		     const struct oq_node *src)
{
	struct oq_node *n = oq_fabric_add_node(f, src->type, src->guid,
					       src->desc, src->n_ports);
	unsigned int i;

	if (!n || oq_node_set_name(n, oq_node_name(src)))
		return -1;
	n->user = (void *)src;
	if (src->type == OQ_NODE_SWITCH) {
		n->enhanced_port0 = src->enhanced_port0;
		if (oq_node_set_lft(n, s->lft[oq_node_index(s->f, src)],
				    s->lft_size))
			return -1;
	}
	for (i = 0; i <= src->n_ports; i++) {
		const struct oq_port *sp = &src->ports[i];
		struct oq_port *p = &n->ports[i];
		/* Switch external ports carry port 0's LID. */
		const struct oq_port *id =
			src->type == OQ_NODE_SWITCH ? &src->ports[0] : sp;
		const uint16_t *pk;
		size_t n_pk;

		if (!sp->present)
			continue;
		p->present = true;
		p->guid = sp->guid;
		p->lid = s->lid[oq_port_index(s->f, id)];
		p->lmc = sp->lmc;
		p->width = sp->width;
		p->speed = sp->speed;
		p->mtu_cap = sp->mtu_cap;
		p->vl_cap = sp->vl_cap;
		p->oper_vls = sp->oper_vls;
		p->vlarb_high_cap = sp->vlarb_high_cap;
		p->vlarb_low_cap = sp->vlarb_low_cap;
		p->sl2vl_cap = sp->sl2vl_cap;
		p->cap_mask = sp->cap_mask;
		p->cap_mask2 = sp->cap_mask2;
		p->user = (void *)sp;
		pk = oq_port_pkeys(s->f, sp, &n_pk);
		if (oq_port_set_pkeys(p, pk, n_pk))
			return -1;
	}
	return 0;
}

/* oq_snapshot_build()'s calls: every node, then the links, then
 * finalize. */
static __attribute__((noinline)) struct oq_fabric *
copy_fabric(const struct source *s, struct oq_diags *d)
{
	struct oq_fabric *f = oq_fabric_new();
	size_t i;
	unsigned int j;

	if (!f)
		return NULL;
	f->sm_port_guid = s->f->sm_port_guid;
	f->subnet_prefix = s->f->subnet_prefix;
	for (i = 0; i < s->f->n_nodes; i++)
		if (copy_node(s, f, s->f->nodes[i]))
			goto fail;
	for (i = 0; i < f->n_nodes; i++) {
		struct oq_node *n = f->nodes[i];

		for (j = 1; j <= n->n_ports; j++) {
			const struct oq_port *sp = n->ports[j].user, *r;
			struct oq_node *rn;

			if (!sp || oq_port_peer(f, &n->ports[j]) ||
			    !oq_port_peer(s->f, sp))
				continue;
			r = oq_port_peer(s->f, sp);
			rn = f->nodes[oq_node_index(s->f, r->node)];
			if (rn->ports[r->num].present)
				oq_fabric_link(&n->ports[j],
					       &rn->ports[r->num]);
		}
	}
	if (oq_fabric_finalize(f, d))
		goto fail;
	return f;
fail:
	oq_fabric_free(f);
	return NULL;
}

/* Node n of f again in g, under its ids, as the snapshot reads a node
 * whose record changed. */
static struct oq_node *renew_node(const struct oq_fabric *f,
				  struct oq_fabric *g, const struct oq_node *n)
{
	struct oq_node *m = oq_fabric_add_node_as(g, n->type, n->guid, n->desc,
						  n->n_ports, n);
	const struct oq_lft *lft = n->id < f->n_node_ids ? f->lft[n->id] : NULL;
	unsigned int i;

	if (!m || oq_node_set_name(m, oq_node_name(n)))
		return NULL;
	m->user = n->user;
	m->enhanced_port0 = n->enhanced_port0;
	if (lft && oq_fabric_set_lft(g, m, lft->v, lft->size))
		return NULL;
	for (i = 0; i <= n->n_ports; i++) {
		const struct oq_port *sp = &n->ports[i];
		struct oq_port *p = &m->ports[i];
		uint32_t id = p->id;
		const uint16_t *pk;
		size_t n_pk;

		if (!sp->present)
			continue;
		/* Every fact of the port; its id and node are m's. */
		*p = *sp;
		p->id = id;
		p->node = m;
		p->pkeys = NULL;
		p->n_pkeys = 0;
		pk = oq_port_pkeys(f, sp, &n_pk);
		if (oq_port_set_pkeys(p, pk, n_pk))
			return NULL;
	}
	return m;
}

/* f after its first linked host's port went down: the host gone, its
 * leaf read again, every other node shared.  NULL when f has no such
 * host or memory ran out. */
static struct oq_fabric *port_down(const struct oq_fabric *f)
{
	struct oq_fabric *g = oq_fabric_derive(f);
	const struct oq_node *host = NULL, *leaf;
	struct oq_node *nl = NULL;
	struct oq_port *r;
	unsigned int j;
	size_t i;

	for (i = 0; i < f->n_nodes && !host; i++)
		if (f->nodes[i]->type == OQ_NODE_CA &&
		    oq_port_peer(f, &f->nodes[i]->ports[1]))
			host = f->nodes[i];
	if (!g || !host)
		goto fail;
	leaf = oq_port_peer(f, &host->ports[1])->node;
	for (i = 0; i < f->n_nodes; i++) {
		struct oq_node *n = f->nodes[i];

		if (n == host)
			continue;
		if (n != leaf) {
			if (oq_fabric_share_node(g, n))
				goto fail;
			continue;
		}
		nl = renew_node(f, g, n);
		if (!nl)
			goto fail;
	}
	for (j = 0; nl && j <= leaf->n_ports; j++) {
		r = oq_port_peer(f, &leaf->ports[j]);
		if (r && r->node != host)
			oq_fabric_link_in(g, &nl->ports[j], r);
	}
	if (!nl || oq_fabric_finalize(g, NULL))
		goto fail;
	return g;
fail:
	oq_fabric_free(g);
	return NULL;
}

/* What the port-down sweep after a round took, and what it did. */
struct down {
	double tables_full, tables_derived, classes_full, classes_derived;
	double nodes_full, nodes_kept;
	size_t n_compiled, n_ports, n_keyed, n_classified, n_rendered;
	size_t n_entries;
};

static bool classes_same(const struct oq_pred_classes *a,
			 const struct oq_pred_classes *b)
{
	return a->n == b->n && a->n_ports == b->n_ports &&
	       a->n_classified == b->n_classified && a->n_bad == b->n_bad &&
	       !memcmp(a->of_port, b->of_port,
		       a->n_ports * sizeof(*a->of_port)) &&
	       (!a->n || !memcmp(a->v, b->v, a->n * sizeof(*a->v)));
}

/* The port-down sweep's classes (fabric g, tables t derived from w's)
 * built in full into *c (dn->classes_full) and derived from w's
 * (dn->classes_derived), the order turned by first_full.  0, or -1 on
 * failure or when the two differ. */
static int port_down_classes(const struct sweep *w, const struct oq_fabric *g,
			     const struct oq_fabric_tables *t, bool first_full,
			     struct down *dn, struct oq_pred_classes *c)
{
	struct oq_pred_classes cd = {0};
	struct oq_predict_opts o;
	int rc = 0, i;
	uint64_t u;

	oq_predict_opts_init(&o);
	memset(c, 0, sizeof(*c));
	for (i = 0; i < 2 && !rc; i++) {
		u = oq_clock_ns();
		if ((i == 0) == first_full) {
			rc = oq_pred_classes_build(g, t, &o, NULL, c);
			dn->classes_full = (double)(oq_clock_ns() - u) / 1e6;
		} else {
			rc = oq_pred_classes_derive(g, t, &o, w->f, &w->tables,
						    &w->classes, &cd,
						    &dn->n_keyed);
			dn->classes_derived = (double)(oq_clock_ns() - u) / 1e6;
		}
	}
	dn->n_classified = c->n_classified;
	if (!rc && !classes_same(c, &cd))
		rc = -1;
	oq_pred_classes_free(&cd);
	return rc;
}

/* The nodes list in a new buffer, framed as the JSON has it. */
static char *nodes_json(const struct oq_fabric *f,
			const struct oq_pred_classes *c,
			const struct oq_pred_nodes_kept *k)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	int bad = !out;

	if (out) {
		bad = oq_pred_nodes_write_json(out, f, c, k);
		bad |= fclose(out);
	}
	if (bad) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The port-down sweep's JSON nodes list (fabric g, classes c), rendered
 * whole into memory (dn->nodes_full) and kept from the list kept for w
 * (dn->nodes_kept), the order turned by first_full.  0, or -1 on failure
 * or when the two differ. */
static int port_down_nodes(const struct sweep *w, const struct oq_fabric *g,
			   const struct oq_pred_classes *c, bool first_full,
			   struct down *dn)
{
	struct oq_pred_nodes_kept k = {0};
	char *full = NULL, *kept = NULL;
	int rc = -1, i;
	uint64_t t;

	if (oq_pred_nodes_keep(&k, w->f, &w->classes))
		goto out;
	for (i = 0; i < 2; i++) {
		t = oq_clock_ns();
		if ((i == 0) == first_full) {
			full = nodes_json(g, c, NULL);
			dn->nodes_full = (double)(oq_clock_ns() - t) / 1e6;
		} else {
			rc = oq_pred_nodes_keep(&k, g, c);
			dn->nodes_kept = (double)(oq_clock_ns() - t) / 1e6;
		}
	}
	dn->n_rendered = k.n_rendered;
	dn->n_entries = k.n;
	kept = rc ? NULL : nodes_json(g, c, &k);
	rc = full && kept && !strcmp(full, kept) ? 0 : -1;
out:
	free(full);
	free(kept);
	oq_pred_nodes_kept_free(&k);
	return rc;
}

/* The port-down sweep after round w: its tables in full and derived from
 * w's (the order turned by first_full), then its classes and its nodes
 * list.  0, 1 when w's tables cannot be derived from (a finding,
 * intents), -1 on failure or when the two ways differ. */
static int port_down_sweep(const struct sweep *w, const struct oq_policy *pol,
			   bool first_full, struct down *dn)
{
	struct oq_fabric *g = port_down(w->f);
	struct oq_binding *b = g ? oq_bind(pol, g, &w->parts, NULL) : NULL;
	struct oq_fabric_tables tf = {0}, td = {0};
	struct oq_pred_classes c = {0};
	int rc = -1, k, drc = 0;
	uint64_t t;

	if (!b)
		goto out;
	dn->n_ports = g->n_ports;
	for (k = 0; k < 2; k++) {
		t = oq_clock_ns();
		if ((k == 0) == first_full) {
			if (oq_tables_compile_engine(b, g, &w->templates,
						     &w->engine, &tf, NULL))
				goto out;
			dn->tables_full = (double)(oq_clock_ns() - t) / 1e6;
		} else {
			drc = oq_tables_compile_derived(
				b, g, &w->templates, &w->engine, w->f,
				&w->tables, &td, &dn->n_compiled);
			dn->tables_derived = (double)(oq_clock_ns() - t) / 1e6;
		}
	}
	if (drc < 0 || (!drc && !oq_fabric_tables_same(&tf, &td)))
		goto out;
	rc = 1;
	if (drc)
		goto out;
	rc = -1;
	if (port_down_classes(w, g, &td, first_full, dn, &c) ||
	    port_down_nodes(w, g, &c, first_full, dn))
		goto out;
	rc = 0;
out:
	oq_pred_classes_free(&c);
	oq_fabric_tables_free(&tf);
	oq_fabric_tables_free(&td);
	oq_binding_free(b);
	oq_fabric_free(g);
	return rc;
}

/* The plugin's map from OpenSM's ports to their tables (state.c). */
static __attribute__((noinline)) int map_build(struct sweep *w)
{
	size_t i;

	if (oq_htab_reserve(&w->port_of_user, w->f->n_ports))
		return -1;
	for (i = 0; i < w->f->n_ports; i++)
		oq_htab_put(&w->port_of_user, (uintptr_t)w->f->ports[i]->user,
			    (uint32_t)i, NULL);
	return 0;
}

static __attribute__((noinline)) void sweep_free(struct sweep *w)
{
	oq_pred_classes_free(&w->classes);
	oq_htab_free(&w->port_of_user);
	oq_synth_plan_free(&w->synth);
	oq_fabric_tables_free(&w->tables);
	oq_matcher_free(w->matcher);
	oq_binding_free(w->binding);
	oq_partitions_free(&w->parts);
	oq_fabric_free(w->f);
	memset(w, 0, sizeof(*w));
}

/* One sweep; per-phase milliseconds into ms[].  0, or -1 with the
 * failing phase's name in *what. */
static __attribute__((noinline)) int sweep_run(const struct source *s,
					       const struct oq_policy *pol,
					       struct sweep *w, double *ms,
					       const char **what)
{
	struct oq_predict_opts o;
	struct oq_diags d;
	uint64_t t = oq_clock_ns(), u;
	int rc = -1;

#define LAP(ph)                                                                \
	do {                                                                   \
		u = oq_clock_ns();                                             \
		ms[ph] = (double)(u - t) / 1e6;                                \
		t = u;                                                         \
	} while (0)

	oq_diags_init(&d);
	memset(w, 0, sizeof(*w));
	*what = phase_name[PH_COPY];
	w->f = copy_fabric(s, &d);
	if (!w->f)
		goto out;
	LAP(PH_COPY);
	*what = phase_name[PH_PARTS];
	if (oq_partitions_no_file(&w->parts, w->f, &d))
		goto out;
	oq_templates_default(&w->templates);
	LAP(PH_PARTS);
	*what = phase_name[PH_BIND];
	w->binding = oq_bind(pol, w->f, &w->parts, &d);
	if (!w->binding)
		goto out;
	LAP(PH_BIND);
	*what = phase_name[PH_MATCHER];
	w->matcher = oq_matcher_compile(w->binding);
	if (!w->matcher)
		goto out;
	LAP(PH_MATCHER);
	*what = phase_name[PH_TABLES];
	oq_engine_by_name(&w->engine, w->templates.routing_engine);
	if (oq_tables_compile_engine(w->binding, w->f, &w->templates,
				     &w->engine, &w->tables, &d))
		goto out;
	LAP(PH_TABLES);
	*what = phase_name[PH_SYNTH];
	if (oq_synth_apply(pol, w->f, &w->engine, &w->tables, &w->synth, &d))
		goto out;
	LAP(PH_SYNTH);
	*what = phase_name[PH_MAP];
	if (map_build(w))
		goto out;
	LAP(PH_MAP);
	*what = phase_name[PH_CLASSES];
	oq_predict_opts_init(&o);
	if (oq_pred_classes_build(w->f, &w->tables, &o, NULL, &w->classes))
		goto out;
	LAP(PH_CLASSES);
	rc = 0;
out:
	oq_diags_free(&d);
	return rc;
#undef LAP
}

/* One port-down figure both ways: medians and ranges, sorted. */
static void print_down(const char *what, const char *a_name, double *a,
		       const char *b_name, double *b, int n)
{
	qsort(a, (size_t)n, sizeof(double), cmp_double);
	qsort(b, (size_t)n, sizeof(double), cmp_double);
	printf("  one host port down: %s %s median %.3f ms (min %.3f, max "
	       "%.3f), %s median %.3f ms (min %.3f, max %.3f)",
	       what, a_name, a[n / 2], a[0], a[n - 1], b_name, b[n / 2], b[0],
	       b[n - 1]);
}

static char *read_input(const char *arg, const char *cmd, size_t *len)
{
	if (arg && strcmp(arg, "-"))
		return oq_file_read(arg, 1u << 30, len);
	return fx_cmd_output(cmd, len);
}

int main(int argc, char **argv)
{
	static double ms[N_PHASES][MAX_ROUNDS], total[MAX_ROUNDS];
	static double down_full[MAX_ROUNDS], down_derived[MAX_ROUNDS];
	static double nodes_full[MAX_ROUNDS], nodes_kept[MAX_ROUNDS];
	static double classes_full[MAX_ROUNDS], classes_derived[MAX_ROUNDS];
	struct down dn = {0};
	int n_down = 0;
	int rounds = argc > 3 ? atoi(argv[3]) : 15, r, ph;
	struct source src = {0};
	struct oq_policy *pol;
	struct oq_fabric *f;
	struct sweep w;
	struct oq_diags d;
	struct rusage ru;
	char *topo, *ptext;
	size_t tlen, plen, n_classes = 0, n_classified = 0;
	const char *what;

	if (argc == 2 || rounds < 1 || rounds > MAX_ROUNDS) {
		fprintf(stderr,
			"usage: bench_sweep [TOPOLOGY POLICY [ROUNDS]] "
			"(1 to %d rounds)\n",
			MAX_ROUNDS);
		return 2;
	}
	topo = read_input(argc > 1 ? argv[1] : NULL,
			  OQ_BUILDDIR "/contrib/fabrics/gen-fattree " GEN_ARGS,
			  &tlen);
	ptext = read_input(argc > 2 ? argv[2] : NULL,
			   "bash " OQ_SRCDIR
			   "/tests/bench/gen-scale-policy.sh " LEAVES " 1",
			   &plen);
	if (!topo || !ptext) {
		fprintf(stderr, "bench_sweep: cannot read the inputs\n");
		return 1;
	}
	oq_diags_init(&d);
	f = oq_topology_parse("bench.net", topo, tlen, &d);
	pol = oq_policy_parse("bench.conf", ptext, plen, &d);
	if (pol && !oq_diags_has_errors(&d))
		oq_policy_validate(pol, &d);
	if (!f || !pol || oq_diags_has_errors(&d) || source_init(&src, f)) {
		fprintf(stderr, "bench_sweep: the inputs have errors or "
				"memory ran out\n");
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		double row[N_PHASES] = {0};

		if (sweep_run(&src, pol, &w, row, &what)) {
			fprintf(stderr, "bench_sweep: round %d failed in %s\n",
				r, what);
			return 1;
		}
		n_classes = w.classes.n;
		n_classified = w.classes.n_classified;
		switch (w.synth.of_port
				? 1
				: port_down_sweep(&w, pol, r % 2, &dn)) {
		case 0:
			down_full[n_down] = dn.tables_full;
			down_derived[n_down] = dn.tables_derived;
			classes_full[n_down] = dn.classes_full;
			classes_derived[n_down] = dn.classes_derived;
			nodes_full[n_down] = dn.nodes_full;
			nodes_kept[n_down++] = dn.nodes_kept;
			break;
		case 1:
			break;
		default:
			fprintf(stderr,
				"bench_sweep: round %d: the port-down "
				"tables or classes derived or nodes list "
				"kept differ from those made in full, or "
				"memory ran out\n",
				r);
			return 1;
		}
		{
			uint64_t t = oq_clock_ns();

			sweep_free(&w);
			row[PH_FREE] = (double)(oq_clock_ns() - t) / 1e6;
		}
		total[r] = 0;
		for (ph = 0; ph < N_PHASES; ph++) {
			ms[ph][r] = row[ph];
			total[r] += row[ph];
		}
	}
	printf("bench_sweep: %zu nodes, %zu ports, %d rounds; %zu port "
	       "classes over %zu ports\n",
	       f->n_nodes, f->n_ports, rounds, n_classes, n_classified);
	for (ph = 0; ph < N_PHASES; ph++) {
		qsort(ms[ph], (size_t)rounds, sizeof(double), cmp_double);
		printf("  %-12s median %8.3f ms  (min %.3f, max %.3f)\n",
		       phase_name[ph], ms[ph][rounds / 2], ms[ph][0],
		       ms[ph][rounds - 1]);
	}
	qsort(total, (size_t)rounds, sizeof(double), cmp_double);
	printf("  %-12s median %8.3f ms  (min %.3f, max %.3f)\n", "sweep",
	       total[rounds / 2], total[0], total[rounds - 1]);
	if (n_down) {
		print_down("tables", "in full", down_full, "derived",
			   down_derived, n_down);
		printf(", %zu of %zu ports compiled\n", dn.n_compiled,
		       dn.n_ports);
		print_down("classes", "in full", classes_full, "derived",
			   classes_derived, n_down);
		printf(", %zu of %zu ports keyed\n", dn.n_keyed,
		       dn.n_classified);
		print_down("JSON nodes list", "rendered", nodes_full, "kept",
			   nodes_kept, n_down);
		printf(", %zu of %zu entries rendered\n", dn.n_rendered,
		       dn.n_entries);
	} else {
		printf("  one host port down: tables not derived (the "
		       "compile says something, or intents)\n");
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("  peak RSS %ld KiB\n", ru.ru_maxrss);
	source_free(&src);
	oq_policy_free(pol);
	oq_diags_free(&d);
	free(topo);
	free(ptext);
	return 0;
}
