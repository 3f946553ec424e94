/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Private to the binding, the matchers and the table compiler: the layout
 * of struct oq_binding and small bitset helpers.
 */
#ifndef OSMQOS_MATCH_INT_H
#define OSMQOS_MATCH_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/match.h>

struct oq_binding {
	const struct oq_policy *p;
	const struct oq_fabric *f;
	const struct oq_partitions *parts;
	size_t n_groups;
	size_t words;	/* uint64_t words of one port set */
	uint64_t *sets; /* group g: sets[g * words ...], bit: port index */
};

static inline size_t oq_bits_words(size_t nbits)
{
	return (nbits + 63) / 64;
}

static inline bool oq_bit_test(const uint64_t *set, size_t i)
{
	return (set[i / 64] >> (i % 64)) & 1;
}

static inline void oq_bit_set(uint64_t *set, size_t i)
{
	set[i / 64] |= UINT64_C(1) << (i % 64);
}

/* The port belongs to the bound fabric (index valid and pointing back). */
static inline bool oq_binding_owns_port(const struct oq_binding *b,
					const struct oq_port *port)
{
	return port && oq_port_index(b->f, port) < b->f->n_ports &&
	       b->f->ports[oq_port_index(b->f, port)] == port;
}

/* Port set of a group reference; NULL when the reference is unresolved. */
static inline const uint64_t *oq_binding_set(const struct oq_binding *b,
					     int group)
{
	if (group < 0 || (size_t)group >= b->n_groups)
		return NULL;
	return b->sets + (size_t)group * b->words;
}

/* The port is in at least one of the referenced groups. */

/* Level index of a rule, and of DEFAULT; -1 when out of range. */
static inline int oq_level_idx(const struct oq_policy *p, int idx)
{
	return idx >= 0 && (size_t)idx < p->n_levels ? idx : -1;
}

/* bounds.c: sort and deduplicate n range end points (returns how many are
 * left); the interval holding x (the number of end points <= x). */
size_t oq_bounds_sort_unique(uint64_t *b, size_t n);
size_t oq_bounds_index(const uint64_t *b, size_t n, uint64_t x);

/* Whether rule r matches query q (the reference matcher's test). */
bool oq_rule_matches(const struct oq_binding *b, const struct oq_match_rule *r,
		     const struct oq_query *q);

/* The criteria a rule has, as OQ_WHY_* bits (what must hold for it). */
unsigned int oq_rule_criteria(const struct oq_match_rule *r);

#endif /* OSMQOS_MATCH_INT_H */
