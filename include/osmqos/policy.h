/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The QoS policy: OpenSM's qos-policy.conf language as a syntax tree with
 * source locations, the parser that builds it and the validator that checks
 * it.  The tree is what the file says (plus the qos-ulps expanded into
 * levels and rules); binding it to a fabric and compiling it into a matcher
 * and per-port tables happens in match.h and tables.h.
 */
#ifndef OSMQOS_POLICY_H
#define OSMQOS_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/diag.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A union of closed ranges [lo, hi], kept sorted and merged after parse. */
struct oq_range {
	uint64_t lo, hi;
};

struct oq_ranges {
	struct oq_range *v;
	size_t n;
};

bool oq_ranges_contains(const struct oq_ranges *r, uint64_t x);
/* Append [lo, hi] (swapped when lo > hi); 0 or -1 when out of memory. */
int oq_ranges_add(struct oq_ranges *r, uint64_t lo, uint64_t hi);
/* Sort and merge overlapping and adjacent ranges (as OpenSM does). */
void oq_ranges_normalize(struct oq_ranges *r);
/* Every value of inner is in outer (both normalized). */
bool oq_ranges_subset(const struct oq_ranges *inner,
		      const struct oq_ranges *outer);
void oq_ranges_free(struct oq_ranges *r);

/* A name that refers to something else (group, level), with its location. */
struct oq_ref {
	char *name;
	struct oq_loc loc;
	/* Resolved index, -1 until validated.  Consumers must use idx, not
	 * the name: the port groups synthesized from qos-ulps share
	 * OpenSM's names (_SRP_Targets_, ...) and their refs come with idx
	 * preset.  Partition refs stay -1 (resolved against a fabric). */
	int idx;
};

struct oq_refs {
	struct oq_ref *v;
	size_t n;
};

/* node-type: bits */
#define OQ_NT_CA (1u << 0)
#define OQ_NT_SWITCH (1u << 1)
#define OQ_NT_ROUTER (1u << 2)
#define OQ_NT_SELF (1u << 3)
#define OQ_NT_ALL (OQ_NT_CA | OQ_NT_SWITCH | OQ_NT_ROUTER)

struct oq_port_name {
	char *name; /* "NodeDescription/P<n>", spaces kept */
	struct oq_loc loc;
};

/* A port-name value read as OpenSM reads it (port_name.c). */
struct oq_pname {
	bool well_formed;   /* a '/', then 'P' or 'p' and more: else refused */
	size_t node_len;    /* the node's description: name[0..node_len) */
	unsigned int port;  /* strtoul(, 0) of what follows the P; 0 refused */
	const char *number; /* where that number starts */
	size_t number_len;  /* the characters strtoul took */
	const char *junk;   /* what follows the number (ignored), or NULL */
	bool octal;	    /* a leading 0 then a digit: read as octal */
};

/* false when OpenSM refuses the name (the whole policy file with it). */
bool oq_port_name_parse(const char *name, struct oq_pname *out);

struct oq_port_group {
	char *name;
	char *use;
	struct oq_loc loc; /* of the port-group keyword */
	struct oq_ranges guids;
	struct oq_port_name *port_names;
	size_t n_port_names;
	struct oq_ranges pkeys;	 /* membership bit ignored */
	struct oq_refs partitions; /* names from partitions.conf */
	unsigned int node_types;   /* OQ_NT_* */
	/* First location of each key, for fabric-aware warnings. */
	struct oq_loc guids_loc, pkeys_loc, node_types_loc;
	/* Synthesized by a GUID-based qos-ulps line (name is OpenSM's
	 * _SRP_Targets_, _ULP_Targets_, _ULP_Sources_ or
	 * _ULP_Sources_Targets_; only guids is set).  A rule or scope may
	 * name it, as in OpenSM. */
	bool from_ulp;
};

struct oq_vlarb_entry {
	uint8_t vl;
	uint8_t weight;
};

struct oq_vlarb_scope {
	struct oq_loc loc;
	struct oq_refs groups;
	struct oq_refs across;
	/* As written; more than 64 entries is a validation error. */
	struct oq_vlarb_entry *high;
	size_t n_high;
	bool has_high;
	struct oq_vlarb_entry *low;
	size_t n_low;
	bool has_low;
	int vl_high_limit; /* -1: not given */
};

/* Switch port-number selector of an sl2vl scope: bit n = port n. */
struct oq_portsel {
	uint64_t bits[4];
	bool all; /* `*` */
	bool given;
};

struct oq_sl2vl_scope {
	struct oq_loc loc;
	struct oq_refs groups;
	/* `across: G` means both across-from G and across-to G (OpenSM
	 * copies it into both lists); kept apart here as written. */
	struct oq_refs across;
	struct oq_refs across_from;
	struct oq_refs across_to;
	struct oq_portsel from;
	struct oq_portsel to;
	uint8_t sl2vl[16];
	bool has_table;
};

struct oq_qos_level {
	char *name;
	char *use;
	struct oq_loc loc;
	int sl;		 /* -1 unset */
	int mtu_limit;	 /* IB MTU enum, -1 unset */
	int rate_limit;	 /* IB rate enum, -1 unset */
	int packet_life; /* -1 unset */
	struct oq_ranges path_bits;
	struct oq_ranges pkeys;
	/* Bandwidth intent (osmqos extension keys, docs/intents.md):
	 * `bandwidth: N%` in hundredths of a percent (1..10000), -1 unset;
	 * `priority: high` serves the level's VL from the high table. */
	int bandwidth_bp;
	bool prio_high;
	struct oq_loc bandwidth_loc, priority_loc;
	/* Latency intent: `latency: N us`, the longest a packet of the
	 * level waits at one output port, in nanoseconds; 0 unset. */
	uint64_t latency_ns;
	struct oq_loc latency_loc;
	/* Synthesized by qos-ulps: one level per SL used, named like
	 * OpenSM's SimpleQoSLevel_SL<n>, and SimpleQoSLevel_DEFAULT for the
	 * `default` line.  oq_policy_find_level() does not see them (as in
	 * OpenSM, a qos-match-rule cannot name them). */
	bool from_ulp;
};

struct oq_match_rule {
	char *use;
	struct oq_loc loc;
	struct oq_refs sources;	     /* port-group names */
	struct oq_refs destinations; /* port-group names */
	struct oq_ranges service_ids;
	struct oq_ranges qos_classes;
	struct oq_ranges pkeys;
	struct oq_ref level; /* qos-level-name */
	bool from_ulp;	     /* expanded from qos-ulps (use = the ulp text) */
	/* From a qos-ulps `ipoib` line: OpenSM's parser rejects the whole
	 * file unless each of its P_Keys' partitions exists with at least
	 * two full members (oq_bind checks that against the fabric). */
	bool ipoib;
};

struct oq_policy {
	char *file; /* path as given; diagnostics' locations point here */
	char *text; /* the file's bytes (owned) */
	size_t text_len;

	struct oq_port_group *groups;
	size_t n_groups;
	struct oq_vlarb_scope *vlarb;
	size_t n_vlarb;
	struct oq_sl2vl_scope *sl2vl;
	size_t n_sl2vl;
	struct oq_qos_level *levels;
	size_t n_levels;
	/* Match rules from qos-match-rules, then the expanded qos-ulps. */
	struct oq_match_rule *rules;
	size_t n_rules;
	size_t n_explicit_rules;
	/* The DEFAULT level (a level named DEFAULT or qos-ulps `default`),
	 * -1 when missing (an error). */
	int default_level;
	/* Explicit objects come first; the ones synthesized from qos-ulps
	 * follow (groups[n_explicit_groups..], levels[n_explicit_levels..]). */
	size_t n_explicit_groups, n_explicit_levels;
	int ulp_default_sl; /* qos-ulps `default : SL`, -1 when absent */

	bool has_port_groups, has_qos_setup, has_levels, has_rules, has_ulps;

	/* Lines holding osmqos extension keys (bandwidth:, priority:), as
	 * byte offsets [start, end) of the line without its newline: the
	 * copy OpenSM parses has them commented out. */
	struct oq_text_span {
		size_t start, end;
	} * ext_lines;
	size_t n_ext_lines;
	/* Levels with a bandwidth:, latency: or priority: key. */
	size_t n_intent_levels;

	/* The id (struct oq_diag) of the first parse error inside the
	 * qos-levels, port-groups and qos-match-rules sections, 0 when
	 * none: what validation finds missing there (a DEFAULT level, a
	 * level or group a rule names, a rule naming a level or group) may
	 * follow from it, and is reported under it. */
	unsigned int levels_error, groups_error, rules_error;

	/* Name indexes (oq_policy_validate builds them): the explicit
	 * groups and levels with a name, sorted case-insensitively, then by
	 * position; lookups are binary searches. */
	int *group_by_name, *level_by_name;
	size_t n_group_by_name, n_level_by_name;
};

/* Parse a policy from memory; file names the input in diagnostics.  Always
 * returns a tree (possibly partial) unless out of memory; errors go into
 * diags.  A policy with errors must not be used for decisions. */
struct oq_policy *oq_policy_parse(const char *file, const char *text,
				  size_t len, struct oq_diags *diags);
/* Read and parse a file (I/O errors become diagnostics). */
struct oq_policy *oq_policy_load(const char *path, struct oq_diags *diags);
/* Semantic checks that need no fabric: references, duplicates, ranges,
 * DEFAULT level, shadowed rules.  Returns the number of errors added. */
size_t oq_policy_validate(struct oq_policy *p, struct oq_diags *diags);
void oq_policy_free(struct oq_policy *p);

/* "4 port groups (+2 from qos-ulps), 3 qos-levels (+1 from qos-ulps),
 * 10 match rules (+3 from qos-ulps), 1 vlarb-scope, 0 sl2vl-scopes":
 * what the policy holds, as `osmqos check` and the plugin's log say it.
 * Returns what snprintf returns. */
int oq_policy_counts(const struct oq_policy *p, char *buf, size_t len);

/*
 * Match-rule criteria as bits of a set (1 << OQ_CRIT_*), and for each set
 * of criteria rules have (0..31), the criterion whose values the fewest of
 * those rules share (the longest run of one group or range start); -1 for
 * the empty set.  Indexes of the rules (the shadowed-rule check, the
 * sparse matcher) key on it.  Returns -1 when out of memory.
 */
enum oq_crit {
	OQ_CRIT_SRC,
	OQ_CRIT_DST,
	OQ_CRIT_SID,
	OQ_CRIT_PKEY,
	OQ_CRIT_QOS,
	OQ_CRIT_N
};
unsigned int oq_rule_crit_set(const struct oq_match_rule *r);
/* A rule's groups of criterion k (OQ_CRIT_SRC, OQ_CRIT_DST), or its
 * ranges of criterion k (OQ_CRIT_SID, OQ_CRIT_PKEY, OQ_CRIT_QOS). */
const struct oq_refs *oq_rule_refs(const struct oq_match_rule *r, int k);
const struct oq_ranges *oq_rule_ranges(const struct oq_match_rule *r, int k);
int oq_policy_rule_keys(const struct oq_policy *p, int key_of[32]);

/* The text OpenSM's own parser is given for a valid policy (the plugin's
 * copy): text with CRLF line ends made LF and the blanks OpenSM's lexer
 * does not know (CR, FF, VT) made spaces.  malloc'd, NUL-terminated,
 * *out_len bytes; NULL when out of memory. */
char *oq_policy_opensm_text(const char *text, size_t len, size_t *out_len);
/* The same for a parsed policy, with its osmqos extension lines
 * (ext_lines) commented out ("# " put before each): OpenSM never sees a
 * key it does not know, and its line numbers still match the file. */
char *oq_policy_opensm_copy(const struct oq_policy *p, size_t *out_len);

/*
 * Intents per SL (docs/intents.md): levels that share an SL add up on it.
 * need_bp[s] in hundredths of a percent of the link (0: no bandwidth
 * intent), lat_ns[s] the tightest latency intent of its levels (0: none),
 * high bit s: SL s is served from the high table, level[s] the first
 * level with an intent on s (for messages), lat_level[s] the level whose
 * latency intent is lat_ns[s].  An SL with either intent is an intent SL
 * (sls); the others are best effort.
 */
struct oq_sl_intents {
	uint32_t need_bp[16];
	uint64_t lat_ns[16];
	uint16_t sls;  /* bit s: SL s carries an intent */
	uint16_t high; /* bit s: its levels say priority: high */
	int level[16];
	int lat_level[16];
	uint32_t total_bp;
};

/* The intents of a validated policy; false when it states none. */
bool oq_policy_intents(const struct oq_policy *p, struct oq_sl_intents *out);
/* The SLs the policy grants: every qos-level's SL (qos-ulps' included)
 * and SL 0, which a path gets when no level names one. */
uint16_t oq_policy_granted_sls(const struct oq_policy *p);

/* Case-insensitive lookups (as OpenSM): the first match in the file's
 * order, qos-ulps' generated groups included (OpenSM's rules and scopes
 * may name them), its generated levels not; -1 when not found.
 * O(log n) once oq_policy_index_names (which oq_policy_validate calls) has
 * run, linear before. */
int oq_policy_index_names(struct oq_policy *p);
int oq_policy_find_group(const struct oq_policy *p, const char *name);
int oq_policy_find_level(const struct oq_policy *p, const char *name);

/* qos-ulps constants (OpenSM's osm_qos_policy.h values). */
#define OQ_ULP_SDP_SERVICE_ID 0x10000ULL
#define OQ_ULP_RDS_SERVICE_ID 0x1060000ULL
#define OQ_ULP_RDS_PORT 0x48CA
#define OQ_ULP_ISER_SERVICE_ID 0x1060000ULL
#define OQ_ULP_ISER_PORT 0x0CBC
#define OQ_ULP_IPOIB_PKEY 0x7fff

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_POLICY_H */
