// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The lowered policy of `osmqos synth`: the operator's file with its
 * intent keys commented out (as the plugin's copy for OpenSM), then a
 * port-groups and a qos-setup section holding the synthesized tables in
 * OpenSM's grammar, one scope per set of equal tables.  The operator's
 * own scopes come first in the file, so they still win where they apply.
 *
 * The text is then checked: parsed and compiled on the same fabric like
 * any policy, it must give every port the tables the synthesizer chose.
 * Switch ports are keyed by the switch (GUID keying), so a switch whose
 * ports need different tables cannot be written exactly; the check counts
 * such ports and the caller reports them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth_lower.h"

/* A set of ports the synthesizer gave equal tables. */
struct tset {
	const struct oq_synth_class *c; /* first class with these tables */
	bool vlarb, sl2vl;		/* which tables the scopes write */
	size_t n_ports;
	char name[48];
};

static bool same_tables(const struct oq_synth_class *a,
			const struct oq_synth_class *b)
{
	const struct oq_synth_result *x = &a->r, *y = &b->r;

	if (a->in.has_vlarb != b->in.has_vlarb ||
	    a->in.sl2vl_fixed != b->in.sl2vl_fixed)
		return false;
	if (a->in.has_vlarb && (x->limit != y->limit ||
				memcmp(&x->high, &y->high, sizeof(x->high)) ||
				memcmp(&x->low, &y->low, sizeof(x->low))))
		return false;
	return a->in.sl2vl_fixed || !memcmp(x->sl2vl, y->sl2vl, 16);
}

static bool applied(const struct oq_synth_class *c)
{
	return c && !c->vlarb_kept &&
	       (c->r.status == OQ_SYNTH_OK || c->r.fallback);
}

/* Table set of every class (index, or -1 when the class keeps its
 * tables); returns the number of sets. */
static size_t table_sets(const struct oq_synth_plan *pl, int *set_of,
			 struct tset *sets)
{
	size_t n = 0, i, j;

	for (i = 0; i < pl->n; i++) {
		set_of[i] = -1;
		if (!applied(&pl->v[i]))
			continue;
		for (j = 0; j < n; j++)
			if (same_tables(sets[j].c, &pl->v[i]))
				break;
		if (j == n) {
			memset(&sets[n], 0, sizeof(sets[n]));
			sets[n].c = &pl->v[i];
			sets[n].vlarb = pl->v[i].in.has_vlarb;
			sets[n].sl2vl = !pl->v[i].in.sl2vl_fixed;
			n++;
		}
		set_of[i] = (int)j;
	}
	return n;
}

/* A group name the policy does not use yet. */
static void set_name(const struct oq_policy *p, size_t k, char *buf, size_t len)
{
	unsigned int extra = 0;

	do {
		if (extra)
			snprintf(buf, len, "osmqos-intents-%zu-%u", k + 1,
				 extra);
		else
			snprintf(buf, len, "osmqos-intents-%zu", k + 1);
		extra++;
	} while (oq_policy_find_group(p, buf) >= 0);
}

static void print_serves(FILE *out, const struct oq_policy *p,
			 const struct oq_synth_class *c)
{
	size_t l;
	bool first = true;

	for (l = 0; l < p->n_levels; l++) {
		const struct oq_qos_level *lv = &p->levels[l];

		if (lv->bandwidth_bp <= 0 || lv->sl < 0)
			continue;
		fprintf(out,
			"      # %s %s: SL %d, %d.%02d%%%s, guaranteed "
			"%.2f%%\n",
			first ? "serves" : "      ", lv->name ? lv->name : "?",
			lv->sl, lv->bandwidth_bp / 100, lv->bandwidth_bp % 100,
			lv->prio_high ? " high priority" : "",
			oq_frac_double(c->r.share[lv->sl]) * 100.0);
		first = false;
	}
}

static void print_vlarb(FILE *out, const char *key,
			const struct oq_vlarb_table *t)
{
	unsigned int i;
	bool any = false;

	fprintf(out, "      %s: ", key);
	for (i = 0; i < t->n; i++) {
		if (!t->e[i].weight)
			continue;
		fprintf(out, "%s%u:%u", any ? "," : "", t->e[i].vl,
			t->e[i].weight);
		any = true;
	}
	/* An empty table still replaces the template's. */
	fprintf(out, "%s\n", any ? "" : "0:0");
}

/* The group of set k: CA and router ports by port GUID, switches whose
 * ports all have set k by switch GUID (a switch in two sets goes where
 * most of its ports are). */
static void print_group(FILE *out, const struct oq_cli_inputs *in,
			const int *set_of, size_t k, const struct tset *s)
{
	const struct oq_fabric *f = in->fabric;
	const struct oq_synth_plan *pl = &in->synth;
	size_t i, col = 0, count[64];
	bool first = true;

	fprintf(out, "  port-group\n    name: %s\n", s->name);
	fprintf(out, "    use: %zu port(s) with equal synthesized tables\n",
		s->n_ports);
	for (i = 0; i < f->n_nodes; i++) {
		const struct oq_node *n = f->nodes[i];
		unsigned int p, best = 0;
		bool in_set = false;

		memset(count, 0, sizeof(count));
		for (p = 0; p <= n->n_ports; p++) {
			const struct oq_port *port = &n->ports[p];
			uint32_t ci;
			int si;

			if (!port->present ||
			    oq_port_index(f, port) >= pl->n_ports)
				continue;
			ci = pl->of_port[oq_port_index(f, port)];
			if (ci == OQ_SYNTH_NONE || (si = set_of[ci]) < 0)
				continue;
			if (n->type != OQ_NODE_SWITCH) {
				if ((size_t)si != k)
					continue;
				fprintf(out, "%s0x%016" PRIx64,
					first	  ? "    port-guid: "
					: col % 3 ? ", "
						  : ",\n      ",
					port->guid);
				first = false;
				col++;
				continue;
			}
			if (si < 64)
				count[si]++;
		}
		if (n->type != OQ_NODE_SWITCH)
			continue;
		for (p = 0; p < 64; p++)
			if (count[p] > count[best])
				best = p;
		in_set = count[best] && best == k;
		if (!in_set)
			continue;
		fprintf(out, "%s0x%016" PRIx64,
			first	  ? "    port-guid: "
			: col % 3 ? ", "
				  : ",\n      ",
			n->ports[0].guid);
		first = false;
		col++;
	}
	fprintf(out, "\n  end-port-group\n");
}

int oq_synth_lower_sections(FILE *out, const struct oq_cli_inputs *in,
			    const char *cmdline)
{
	const struct oq_synth_plan *pl = &in->synth;
	struct tset *sets;
	int *set_of;
	size_t n_sets, i;

	sets = calloc(pl->n ? pl->n : 1, sizeof(*sets));
	set_of = calloc(pl->n ? pl->n : 1, sizeof(*set_of));
	if (!sets || !set_of) {
		free(sets);
		free(set_of);
		return -1;
	}
	n_sets = table_sets(pl, set_of, sets);
	for (i = 0; i < pl->n; i++)
		if (set_of[i] >= 0)
			sets[set_of[i]].n_ports += pl->v[i].n_ports;
	fprintf(out,
		"\n# ---- Synthesized by %s\n"
		"# from the bandwidth intents above (commented out: OpenSM "
		"does not know\n# them).  One scope per set of ports with "
		"equal tables; scopes above\n# this line win where they "
		"apply.\n",
		cmdline);
	if (!n_sets) {
		fprintf(out, "# No port takes synthesized tables.\n");
		goto done;
	}
	for (i = 0; i < n_sets; i++)
		set_name(in->policy, i, sets[i].name, sizeof(sets[i].name));
	fprintf(out, "port-groups\n");
	for (i = 0; i < n_sets; i++)
		print_group(out, in, set_of, i, &sets[i]);
	fprintf(out, "end-port-groups\n\nqos-setup\n");
	fprintf(out, "  vlarb-tables\n");
	for (i = 0; i < n_sets; i++) {
		if (!sets[i].vlarb)
			continue;
		fprintf(out, "    vlarb-scope\n");
		print_serves(out, in->policy, sets[i].c);
		fprintf(out, "      group: %s\n", sets[i].name);
		print_vlarb(out, "vlarb-high", &sets[i].c->r.high);
		print_vlarb(out, "vlarb-low", &sets[i].c->r.low);
		fprintf(out, "      vl-high-limit: %u\n    end-vlarb-scope\n",
			sets[i].c->r.limit);
	}
	fprintf(out, "  end-vlarb-tables\n  sl2vl-tables\n");
	for (i = 0; i < n_sets; i++) {
		unsigned int s;

		if (!sets[i].sl2vl)
			continue;
		fprintf(out, "    sl2vl-scope\n");
		print_serves(out, in->policy, sets[i].c);
		fprintf(out,
			"      group: %s\n      sl2vl-table: ", sets[i].name);
		for (s = 0; s < 16; s++)
			fprintf(out, "%s%u", s ? "," : "",
				sets[i].c->r.sl2vl[s]);
		fprintf(out, "\n    end-sl2vl-scope\n");
	}
	fprintf(out, "  end-sl2vl-tables\nend-qos-setup\n");
done:
	free(sets);
	free(set_of);
	return ferror(out) ? -1 : 0;
}

int oq_synth_lower_write(FILE *out, const struct oq_cli_inputs *in,
			 const char *cmdline)
{
	size_t len;
	char *copy = oq_policy_opensm_copy(in->policy, &len);

	if (!copy)
		return -1;
	fwrite(copy, 1, len, out);
	if (len && copy[len - 1] != '\n')
		fputc('\n', out);
	free(copy);
	return oq_synth_lower_sections(out, in, cmdline);
}

/* Positive-weight entries in order: what the arbiter serves. */
static bool vlarb_equal(const struct oq_vlarb_table *a,
			const struct oq_vlarb_table *b)
{
	unsigned int i = 0, j = 0;

	for (;;) {
		while (i < a->n && !a->e[i].weight)
			i++;
		while (j < b->n && !b->e[j].weight)
			j++;
		if (i == a->n || j == b->n)
			return i == a->n && j == b->n;
		if (a->e[i].vl != b->e[j].vl ||
		    a->e[i].weight != b->e[j].weight)
			return false;
		i++;
		j++;
	}
}

static bool port_equal(const struct oq_port_tables *a,
		       const struct oq_port_tables *b)
{
	if (a->has_vlarb != b->has_vlarb || a->has_sl2vl != b->has_sl2vl)
		return false;
	if (a->has_vlarb && (a->vl_high_limit != b->vl_high_limit ||
			     !vlarb_equal(&a->vlarb_high, &b->vlarb_high) ||
			     !vlarb_equal(&a->vlarb_low, &b->vlarb_low)))
		return false;
	if (a->has_sl2vl && !a->sl2vl_unknown && a->sl2vl && b->sl2vl &&
	    (a->n_sl2vl != b->n_sl2vl ||
	     memcmp(a->sl2vl, b->sl2vl, (size_t)a->n_sl2vl * 16)))
		return false;
	return true;
}

int oq_synth_lower_check(const char *text, size_t len,
			 const struct oq_cli_inputs *in,
			 const struct oq_templates *t,
			 const struct oq_fabric_tables *want,
			 struct oq_lower_check *chk, struct oq_diags *d)
{
	struct oq_fabric_tables got;
	struct oq_binding *b = NULL;
	struct oq_policy *p;
	struct oq_engine e;
	struct oq_diags scratch;
	size_t i;
	int rc = -1;

	memset(chk, 0, sizeof(*chk));
	oq_diags_init(&scratch);
	p = oq_policy_parse("lowered policy", text, len, d);
	if (!p)
		goto out;
	if (!oq_diags_has_errors(d))
		oq_policy_validate(p, d);
	if (oq_diags_has_errors(d)) {
		chk->parse_failed = true;
		rc = 0;
		goto out;
	}
	b = oq_bind(p, in->fabric, &in->parts, &scratch);
	oq_engine_by_name(&e, t->routing_engine);
	if (!b ||
	    oq_tables_compile_engine(b, in->fabric, t, &e, &got, &scratch))
		goto out;
	for (i = 0; i < want->n && i < got.n; i++) {
		if (!want->ports[i].has_vlarb && !want->ports[i].has_sl2vl)
			continue;
		chk->n_ports++;
		if (port_equal(&want->ports[i], &got.ports[i]))
			continue;
		if (!chk->n_diff)
			chk->first_diff = want->ports[i].port;
		chk->n_diff++;
	}
	oq_fabric_tables_free(&got);
	rc = 0;
out:
	oq_binding_free(b);
	oq_policy_free(p);
	oq_diags_free(&scratch);
	return rc;
}
