// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Group resolution: every port group of a policy becomes a bitset over the
 * fabric's ports (bit = oq_port_index()), so membership is one bit test.
 *
 * OpenSM 3.3.23 keeps a group as a map keyed by *port GUID* plus a mask of
 * node types (osm_qos_parser_y.y, __qos_policy_is_port_in_group).  A
 * switch's external ports carry the GUID of its port 0, so whatever puts
 * one port of a switch into a group puts the whole switch in it.  We
 * reproduce that by resolving every key on end ports (CA/router ports and
 * switch port 0) and then copying port 0's bit to the switch's external
 * ports.  docs/semantics.md has the details.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <osmqos/node_name_map.h>

#include "match_int.h"

/* Names that more than one node bears, each warned about once per
 * binding: by the index of the node OpenSM picks. */
struct dup_warned {
	bool *v;
	size_t n;
};

#define DUP_LISTED 4

/* A name the policy uses resolves to n nodes: say which, and which one
 * OpenSM's parser uses (its node table's first). */
static void warn_duplicate(const struct oq_fabric *f,
			   const struct oq_node *node, size_t n,
			   const char *name, struct oq_loc loc,
			   struct dup_warned *w, struct oq_diags *diags)
{
	const struct oq_node *o;
	char list[DUP_LISTED * 24 + 64];
	size_t k = 0, len = 0;
	struct oq_diag *d;
	uint32_t ni = oq_node_index(f, node);

	if (ni >= w->n || w->v[ni])
		return;
	w->v[ni] = true;
	for (o = oq_fabric_node_next_same_name(f, node); o && k < DUP_LISTED;
	     o = oq_fabric_node_next_same_name(f, o), k++)
		len += (size_t)snprintf(list + len, sizeof(list) - len,
					"%s0x%016llx", k ? ", " : "",
					(unsigned long long)o->guid);
	if (n - 1 > k)
		snprintf(list + len, sizeof(list) - len, " and %zu more",
			 n - 1 - k);
	d = oq_warning(diags, loc,
		       "port-name '%s': %zu nodes are named '%s'; OpenSM's "
		       "parser uses node 0x%016llx, the first in its node "
		       "table, not %s",
		       name, n, oq_node_name(node),
		       (unsigned long long)node->guid, list);
	oq_diag_set_code(d, "duplicate-node-name");
	oq_diag_hint(d, "give the nodes distinct names (their "
			"NodeDescriptions, or a node-name map: "
			"node_name_map_name in opensm.conf), or name the "
			"port by its port-guid");
}

static bool node_type_selected(unsigned int node_types, enum oq_node_type t)
{
	switch (t) {
	case OQ_NODE_CA:
		return node_types & OQ_NT_CA;
	case OQ_NODE_SWITCH:
		return node_types & OQ_NT_SWITCH;
	case OQ_NODE_ROUTER:
		return node_types & OQ_NT_ROUTER;
	}
	return false;
}

/* The end port that stands for p in GUID-keyed membership. */
static const struct oq_port *end_port_of(const struct oq_port *p)
{
	if (oq_port_is_endport(p))
		return p;
	return &p->node->ports[0];
}

static void add_end_port(const struct oq_fabric *f, uint64_t *set,
			 const struct oq_port *p)
{
	uint32_t pi;

	p = end_port_of(p);
	pi = oq_port_index(f, p);
	if (pi < f->n_ports && f->ports[pi] == p)
		oq_bit_set(set, pi);
}

/* A port-name that names no node.  When it is the NodeDescription of a
 * node the node-name map renames, say so: OpenSM matches the map's name
 * only, and "no node has this description" would be false. */
static void warn_no_node(const struct oq_fabric *f,
			 const struct oq_port_name *pn,
			 const struct oq_pname *parsed, struct oq_diags *diags)
{
	const char *name = pn->name ? pn->name : "";
	int len = (int)parsed->node_len;
	const struct oq_node *r;
	struct oq_diag *d;

	r = oq_fabric_node_renamed(f, name, parsed->node_len, false);
	if (!r) {
		d = oq_warning(diags, pn->loc,
			       "port-name '%s': no node is named '%.*s' in "
			       "the fabric",
			       name, len, name);
		oq_diag_hint(d, "names are compared exactly, spaces "
				"included, with the node names OpenSM uses (a "
				"node-name map's, else the NodeDescription)");
		return;
	}
	d = oq_warning(diags, pn->loc,
		       "port-name '%s': no node is named '%.*s': it is the "
		       "NodeDescription of 0x%016llx, which the node-name map "
		       "names '%s', and OpenSM matches that name",
		       name, len, name, (unsigned long long)r->guid,
		       oq_node_name(r));
	oq_diag_hint(d,
		     "write the map's name ('%s%s'), or name the port by "
		     "its port-guid",
		     oq_node_name(r), name + parsed->node_len);
}

/* port-name: "NodeDescription/P<n>", read as OpenSM and the parser's
 * check read it (oq_port_name_parse: 0x and leading-zero octal forms
 * work, trailing junk is ignored). */
static size_t resolve_port_names(const struct oq_binding *b,
				 const struct oq_port_group *g, uint64_t *set,
				 struct dup_warned *dw, struct oq_diags *diags)
{
	size_t i, found = 0;

	for (i = 0; i < g->n_port_names; i++) {
		const struct oq_port_name *pn = &g->port_names[i];
		const char *name = pn->name ? pn->name : "";
		const struct oq_node *node;
		struct oq_pname parsed;
		unsigned long num;
		size_t n_same;

		if (!oq_port_name_parse(name, &parsed)) {
			oq_warning(
				diags, pn->loc,
				"port-name '%s' is not NodeDescription/P<n>; "
				"it names no port",
				name);
			continue;
		}
		num = parsed.port;
		node = oq_fabric_node_by_name(b->f, name, parsed.node_len,
					      &n_same);
		if (!node) {
			warn_no_node(b->f, pn, &parsed, diags);
			continue;
		}
		if (n_same > 1)
			warn_duplicate(b->f, node, n_same, name, pn->loc, dw,
				       diags);
		if (num > node->n_ports || !node->ports[num].present) {
			/* OpenSM rejects the whole policy file here
			 * ("port number out of range in port name"). */
			struct oq_diag *d = oq_error(
				diags, pn->loc,
				"port-name '%s': node '%s' has no port %lu",
				name, oq_node_name(node), num);
			oq_diag_hint(d,
				     "the node has %u port(s); OpenSM "
				     "refuses a policy naming a missing port",
				     node->n_ports);
			continue;
		}
		add_end_port(b->f, set, &node->ports[num]);
		found++;
	}
	return found;
}

/* Ports that are members (full or limited) of a partition: end ports whose
 * PartitionTable holds the key, as OpenSM's part/full GUID tables do. */
static size_t add_pkey_members(const struct oq_fabric *f, uint64_t *set,
			       const struct oq_ranges *pkeys)
{
	size_t i, j, found = 0;

	for (i = 0; i < f->n_ports; i++) {
		const struct oq_port *p = f->ports[i];

		const uint16_t *pk;
		size_t n_pk;

		if (!oq_port_is_endport(p))
			continue;
		pk = oq_port_pkeys(f, p, &n_pk);
		for (j = 0; j < n_pk; j++) {
			if (!(pk[j] & OQ_PKEY_MASK))
				continue; /* empty entry */
			if (oq_ranges_contains(pkeys, pk[j] & OQ_PKEY_MASK)) {
				oq_bit_set(set, i);
				found++;
				break;
			}
		}
	}
	return found;
}

static void resolve_partitions(const struct oq_binding *b,
			       const struct oq_port_group *g, uint64_t *set,
			       struct oq_diags *diags)
{
	size_t i;

	for (i = 0; i < g->partitions.n; i++) {
		const struct oq_ref *r = &g->partitions.v[i];
		const struct oq_partition *part;
		struct oq_ranges one;
		struct oq_range rng;

		if (!b->parts) {
			struct oq_diag *d = oq_warning(
				diags, r->loc,
				"partition '%s' resolves to no port: no "
				"partitions file was given",
				r->name);
			oq_diag_hint(d, "pass --partitions FILE "
					"(OpenSM's partitions.conf)");
			continue;
		}
		part = oq_partition_by_name(b->parts, r->name);
		if (!part) {
			oq_partition_undefined(diags, r->loc, r->name,
					       b->parts);
			continue;
		}
		rng.lo = rng.hi = part->pkey & OQ_PKEY_MASK;
		one.v = &rng;
		one.n = 1;
		if (!add_pkey_members(b->f, set, &one))
			oq_warning(diags, r->loc,
				   "partition '%s' (pkey 0x%04x) has no member "
				   "port",
				   r->name, (unsigned int)rng.lo);
	}
}

static void resolve_group(const struct oq_binding *b,
			  const struct oq_port_group *g, uint64_t *set,
			  struct dup_warned *dw, struct oq_diags *diags)
{
	const struct oq_fabric *f = b->f;
	size_t i, n_guid = 0, n_type = 0;

	for (i = 0; i < f->n_ports; i++) {
		const struct oq_port *p = f->ports[i];

		if (!oq_port_is_endport(p))
			continue;
		if (node_type_selected(g->node_types, p->node->type)) {
			oq_bit_set(set, i);
			n_type++;
		}
		if (g->guids.n && oq_ranges_contains(&g->guids, p->guid)) {
			oq_bit_set(set, i);
			n_guid++;
		}
	}
	if (g->guids.n && !n_guid)
		oq_warning(diags, g->guids_loc,
			   "port-guid of group '%s' matches no port of the "
			   "fabric",
			   g->name ? g->name : "");
	if (g->node_types & OQ_NT_SELF) {
		const struct oq_port *sm = NULL;

		if (f->sm_port_guid)
			sm = oq_fabric_port_by_guid(f, f->sm_port_guid);
		if (sm) {
			add_end_port(f, set, sm);
			n_type++;
		} else {
			oq_warning(
				diags, g->node_types_loc,
				"node-type SELF of group '%s' resolves to no "
				"port: the fabric does not say which port "
				"runs the SM",
				g->name ? g->name : "");
		}
	}
	if ((g->node_types & OQ_NT_ALL) && !n_type)
		oq_warning(diags, g->node_types_loc,
			   "node-type of group '%s' matches no port of the "
			   "fabric",
			   g->name ? g->name : "");
	resolve_port_names(b, g, set, dw, diags);
	if (g->pkeys.n && !add_pkey_members(f, set, &g->pkeys))
		oq_warning(diags, g->pkeys_loc,
			   "pkey of group '%s': no port is a member of those "
			   "partitions",
			   g->name ? g->name : "");
	resolve_partitions(b, g, set, diags);

	/* GUID keying: a switch is in the group with all its ports. */
	for (i = 0; i < f->n_ports; i++) {
		const struct oq_port *p = f->ports[i];
		const struct oq_port *p0 = &p->node->ports[0];

		if (!oq_port_is_endport(p) &&
		    oq_bit_test(set, oq_port_index(f, p0)) &&
		    f->ports[oq_port_index(f, p0)] == p0)
			oq_bit_set(set, i);
	}
}

static bool set_empty(const struct oq_binding *b, int g)
{
	const uint64_t *set = oq_binding_set(b, g);
	size_t w;

	for (w = 0; set && w < b->words; w++)
		if (set[w])
			return false;
	return true;
}

/* Source or destination groups with no port on this fabric: the rule can
 * never match here (each such group already had its own warning). */
static void check_rules_on_fabric(const struct oq_binding *b,
				  struct oq_diags *diags)
{
	const struct oq_policy *p = b->p;
	size_t i, j;

	for (i = 0; i < p->n_explicit_rules; i++) {
		const struct oq_match_rule *r = &p->rules[i];
		const struct oq_refs *side[2] = {&r->sources, &r->destinations};
		int k;

		for (k = 0; k < 2; k++) {
			struct oq_diag *d;

			if (!side[k]->n)
				continue;
			for (j = 0; j < side[k]->n; j++)
				if (side[k]->v[j].idx < 0 ||
				    !set_empty(b, side[k]->v[j].idx))
					break;
			if (j < side[k]->n)
				continue;
			d = oq_warning(diags, r->loc,
				       "qos-match-rule can never match on this "
				       "fabric: its %s group%s ('%s'%s) %s no "
				       "port",
				       k ? "destination" : "source",
				       side[k]->n == 1 ? "" : "s",
				       side[k]->v[0].name,
				       side[k]->n == 1 ? "" : ", ...",
				       side[k]->n == 1 ? "has" : "have");
			oq_diag_set_code(d, "rule-matches-nothing-here");
			oq_diag_hint(d,
				     "check the groups' members against the "
				     "fabric (the warnings at the groups say "
				     "which key matched nothing)");
			break;
		}
	}
}

struct oq_binding *oq_bind(const struct oq_policy *p, const struct oq_fabric *f,
			   const struct oq_partitions *parts,
			   struct oq_diags *diags)
{
	struct oq_diags scratch;
	struct oq_binding *b;
	struct dup_warned dw;
	size_t g;

	if (!p || !f)
		return NULL;
	oq_diags_init(&scratch);
	if (!diags)
		diags = &scratch; /* the caller does not want them */
	b = calloc(1, sizeof(*b));
	if (!b)
		goto fail;
	b->p = p;
	b->f = f;
	b->parts = parts;
	b->n_groups = p->n_groups;
	b->words = oq_bits_words(f->n_ports);
	if (b->words && b->n_groups &&
	    b->n_groups > SIZE_MAX / sizeof(uint64_t) / b->words)
		goto fail;
	b->sets = calloc(b->n_groups * b->words + 1, sizeof(uint64_t));
	if (!b->sets)
		goto fail;
	dw.n = f->n_nodes;
	dw.v = calloc(dw.n + 1, sizeof(*dw.v));
	if (!dw.v)
		goto fail;
	for (g = 0; g < b->n_groups; g++)
		resolve_group(b, &p->groups[g], b->sets + g * b->words, &dw,
			      diags);
	free(dw.v);
	check_rules_on_fabric(b, diags);
	if (oq_check_ipoib_partitions(p, f, parts, diags))
		goto fail;
	oq_diags_free(&scratch);
	return b;
fail:
	oq_diags_free(&scratch);
	oq_binding_free(b);
	return NULL;
}

void oq_binding_free(struct oq_binding *b)
{
	if (!b)
		return;
	free(b->sets);
	free(b);
}

bool oq_group_has_port(const struct oq_binding *b, int group,
		       const struct oq_port *port)
{
	const uint64_t *set;

	if (!b || !oq_binding_owns_port(b, port))
		return false;
	set = oq_binding_set(b, group);
	return set && oq_bit_test(set, oq_port_index(b->f, port));
}

const struct oq_policy *oq_binding_policy(const struct oq_binding *b)
{
	return b->p;
}

const struct oq_fabric *oq_binding_fabric(const struct oq_binding *b)
{
	return b->f;
}

const struct oq_partitions *oq_binding_partitions(const struct oq_binding *b)
{
	return b->parts;
}

bool oq_binding_names_same(const struct oq_binding *b,
			   const struct oq_fabric *other)
{
	const struct oq_policy *p = b->p;
	size_t g, i, n_same;

	for (g = 0; g < p->n_groups; g++)
		for (i = 0; i < p->groups[g].n_port_names; i++) {
			const char *name = p->groups[g].port_names[i].name;
			const struct oq_node *x, *y;
			struct oq_pname parsed;

			if (!name || !oq_port_name_parse(name, &parsed))
				continue;
			x = oq_fabric_node_by_name(b->f, name, parsed.node_len,
						   &n_same);
			y = oq_fabric_node_by_name(other, name, parsed.node_len,
						   &n_same);
			/* A name only one fabric has is a node of its own
			 * there (new, gone or renamed: read anew), whose
			 * partners' tables compile again
			 * (tables_derive.c): no other node's changes. */
			if (x && y && x->id != y->id)
				return false;
		}
	return true;
}

bool oq_binding_in_any(const struct oq_binding *b, const struct oq_refs *refs,
		       const struct oq_port *port)
{
	size_t i;

	if (!oq_binding_owns_port(b, port))
		return false;
	for (i = 0; i < refs->n; i++) {
		const uint64_t *set = oq_binding_set(b, refs->v[i].idx);

		if (set && oq_bit_test(set, oq_port_index(b->f, port)))
			return true;
	}
	return false;
}
