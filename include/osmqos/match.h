/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Binding a validated policy to a fabric (port groups resolved to port
 * sets) and the compiled matcher that maps a path query to a QoS level.
 * The table compiler (tables.h) reads qos-setup through the binding.
 *
 * Both objects are immutable once built, and a decision is one call:
 * oq_match(matcher, query, &decision).  The plugin rebuilds them once per
 * sweep; the CLI once per run.
 */
#ifndef OSMQOS_MATCH_H
#define OSMQOS_MATCH_H

#include <stdbool.h>
#include <stdint.h>

#include <osmqos/diag.h>
#include <osmqos/fabric.h>
#include <osmqos/policy.h>
#include <osmqos/stock.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A policy bound to a fabric: every port group as an O(1) port set. */
struct oq_binding;

/* Resolve groups (port-guid, port-name, pkey, partition, node-type).
 * parts may be NULL (then `partition:` resolves to nothing, with a
 * warning).  Fabric-aware warnings (groups or names resolving to no port)
 * go into diags.  The policy and fabric must outlive the binding. */
struct oq_binding *oq_bind(const struct oq_policy *p, const struct oq_fabric *f,
			   const struct oq_partitions *parts,
			   struct oq_diags *diags);
void oq_binding_free(struct oq_binding *b);
bool oq_group_has_port(const struct oq_binding *b, int group,
		       const struct oq_port *port);
/* What a binding was built from. */
const struct oq_policy *oq_binding_policy(const struct oq_binding *b);
const struct oq_fabric *oq_binding_fabric(const struct oq_binding *b);
/*
 * qos-ulps `ipoib` lines that OpenSM 3.3.23's parser refuses, rejecting
 * the whole policy file: a P_Key without a partition (nothing is checked
 * when parts is NULL: the SM's partitions are not known), or, given a
 * fabric whose end ports carry partition tables, one with fewer than two
 * full members.  One error per
 * line; oq_bind() runs it.  Returns 0, or -1 when out of memory.
 */
int oq_check_ipoib_partitions(const struct oq_policy *p,
			      const struct oq_fabric *f,
			      const struct oq_partitions *parts,
			      struct oq_diags *diags);

/* The partitions the binding was made with (NULL when none). */
const struct oq_partitions *oq_binding_partitions(const struct oq_binding *b);
/* Whether each port-name of b's policy that names a node in both b's
 * fabric and the fabric other names the node of the same id in both: the
 * node a name gives is the first of that name, so a change elsewhere can
 * make it another node. */
bool oq_binding_names_same(const struct oq_binding *b,
			   const struct oq_fabric *other);
/* Whether port belongs to any of the groups refs names. */
bool oq_binding_in_any(const struct oq_binding *b, const struct oq_refs *refs,
		       const struct oq_port *port);

/* One path query, as the SA sees it (components absent unless has_*). */
struct oq_query {
	const struct oq_port *src; /* end ports */
	const struct oq_port *dst;
	bool has_sid;
	uint64_t sid;
	bool has_qos_class;
	uint16_t qos_class;
	bool has_pkey;
	uint16_t pkey; /* membership bit ignored */
};

/* Which criteria of the winning rule held, for explanations and audits. */
#define OQ_WHY_SOURCE (1u << 0)
#define OQ_WHY_DESTINATION (1u << 1)
#define OQ_WHY_SERVICE_ID (1u << 2)
#define OQ_WHY_QOS_CLASS (1u << 3)
#define OQ_WHY_PKEY (1u << 4)
#define OQ_WHY_DEFAULT (1u << 5) /* no rule matched */

struct oq_decision {
	int rule;  /* index in policy->rules; -1 when DEFAULT applied */
	int level; /* index in policy->levels; -1 when there is none */
	unsigned int why;
};

struct oq_matcher;

struct oq_matcher *oq_matcher_compile(const struct oq_binding *b);
/* The same with a chosen representation (AUTO: bitsets up to 64 MiB, the
 * sparse index above); the answers are the same, tests compare both. */
enum oq_matcher_mode {
	OQ_MATCHER_AUTO,
	OQ_MATCHER_BITSET,
	OQ_MATCHER_SPARSE,
};
struct oq_matcher *oq_matcher_compile_mode(const struct oq_binding *b,
					   enum oq_matcher_mode mode);
void oq_matcher_free(struct oq_matcher *m);
void oq_match(const struct oq_matcher *m, const struct oq_query *q,
	      struct oq_decision *d);
/* The reference: first-match scan over the rules, no precomputation.
 * Used by tests and the benchmark to check the compiled matcher. */
void oq_match_naive(const struct oq_binding *b, const struct oq_query *q,
		    struct oq_decision *d);

/*
 * Stock OpenSM's fabric checks (struct oq_stock_env) answered from a
 * fabric and its partitions (NULL: OpenSM without a partitions file, the
 * Default partition with every end port full).  sf holds the lookup index
 * env points at; both must outlive the reads.  0, or -1 out of memory.
 */
struct oq_stock_fabric {
	const struct oq_fabric *f;
	const struct oq_partitions *parts;
	struct oq_node **sorted; /* by description, then GUID */
	size_t n_sorted;
	uint32_t *full; /* full members by P_Key (bit 15 clear) */
	size_t n_endports;
};
int oq_stock_env_fabric(struct oq_stock_env *env, struct oq_stock_fabric *sf,
			const struct oq_fabric *f,
			const struct oq_partitions *parts);
void oq_stock_fabric_free(struct oq_stock_fabric *sf);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_MATCH_H */
