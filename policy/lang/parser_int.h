/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Private to the policy parser (parser.c, parser_setup.c, ulps.c): the
 * parse state and the value readers the section parsers share.
 */
#ifndef OSMQOS_POLICY_PARSER_INT_H
#define OSMQOS_POLICY_PARSER_INT_H

#include <osmqos/policy.h>

#include "lexer.h"

/* Blocks of the language; a block's keyword opens it inside its parent. */
enum oq_blk {
	OQ_B_TOP,
	OQ_B_PORT_GROUPS,
	OQ_B_PORT_GROUP,
	OQ_B_QOS_SETUP,
	OQ_B_VLARB_TABLES,
	OQ_B_VLARB_SCOPE,
	OQ_B_SL2VL_TABLES,
	OQ_B_SL2VL_SCOPE,
	OQ_B_LEVELS,
	OQ_B_LEVEL,
	OQ_B_RULES,
	OQ_B_RULE,
	OQ_B_ULPS,
	OQ_B_COUNT
};

/* Keys that may appear once per block (OpenSM rejects repeats). */
#define OQ_SEEN_NAME (1u << 0)
#define OQ_SEEN_USE (1u << 1)
#define OQ_SEEN_SL (1u << 2)
#define OQ_SEEN_MTU (1u << 3)
#define OQ_SEEN_RATE (1u << 4)
#define OQ_SEEN_LIFE (1u << 5)
#define OQ_SEEN_LEVEL_NAME (1u << 6)
#define OQ_SEEN_TABLE (1u << 7)
#define OQ_SEEN_HIGH_LIMIT (1u << 8)
#define OQ_SEEN_BANDWIDTH  (1u << 9)
#define OQ_SEEN_PRIORITY   (1u << 10)
#define OQ_SEEN_LATENCY    (1u << 11)

/* One qos-ulps line, kept until the end of the parse and expanded then
 * (OpenSM also appends the ULP rules after all qos-match-rules). */
struct oq_ulp_line {
	struct oq_loc loc;
	char *text; /* "sdp, port-num 30000", for the rule's `use` */
	int kind;   /* OQ_ULP_* in ulps.c */
	struct oq_ranges values;
	int sl;
};

struct oq_pstate {
	struct oq_lx lx;
	struct oq_policy *p;
	struct oq_diags *d;
	bool oom;

	struct {
		enum oq_blk blk;
		struct oq_loc loc;
		size_t n_children;
	} stack[4];
	int depth;
	unsigned int seen; /* OQ_SEEN_* of the innermost item */
	/* d->next_id when the innermost item began: a key it lacks at its
	 * end follows from an error on its lines, the first one numbered
	 * after this (a key written wrong is a key missing too). */
	unsigned int item_first_diag;

	struct oq_ulp_line *ulps;
	size_t n_ulps;
	struct oq_loc ulp_default_loc;
	struct oq_loc levels_loc; /* first qos-levels keyword */

	/* A key follows a value on its line (oq_ps_expect_eol reported it):
	 * the line loop parses it next, its diagnostics under that one. */
	bool pending_key;
	unsigned int pending_cause;
	const char *key; /* the key or keyword of the line, for messages */
	/* An unknown word where a block keyword was due: what the lines of
	 * that block give follows from it, up to its end keyword. */
	unsigned int lost;
};

static inline enum oq_blk oq_ps_blk(const struct oq_pstate *ps)
{
	return ps->stack[ps->depth].blk;
}

/* Allocation helpers that record out-of-memory in the state. */
void *oq_ps_grow(struct oq_pstate *ps, void *arr, size_t *n, size_t size);
char *oq_ps_strdup(struct oq_pstate *ps, const char *s);

/* Value readers: each reads the rest of the key's value, reports errors,
 * and returns 0 on success or -1 (the caller skips the line). */
int oq_ps_ranges(struct oq_pstate *ps, struct oq_ranges *out,
		 const char *what, uint64_t max, int stop);
int oq_ps_pkeys(struct oq_pstate *ps, struct oq_ranges *out, int stop);
int oq_ps_refs(struct oq_pstate *ps, struct oq_refs *out, const char *what);
int oq_ps_single(struct oq_pstate *ps, uint64_t *v, const char *what,
		 uint64_t min, uint64_t max);
/* A comma that ends a line continues the list on the next line. */
bool oq_ps_list_next(struct oq_pstate *ps);
/* After a ',' or a range's '-': true with the cursor on what follows, on
 * this line or (as OpenSM's grammar ignores line ends) on the next one
 * unless it starts with a keyword; false, cursor unmoved, otherwise. */
bool oq_ps_line_goes_on(struct oq_pstate *ps);
/* After a value: only blanks and a comment may follow.  A "key:" is an
 * error too, and then left for the line loop to parse (pending_key). */
/* The first error added after diagnostic id `after` (read from
 * d->next_id before a step), or 0: what a later finding follows from. */
unsigned int oq_ps_first_error_since(const struct oq_diags *d,
				     unsigned int after);
int oq_ps_expect_eol(struct oq_pstate *ps, const char *after);

/* Keys of port-group, qos-level and qos-match-rule (parser_keys.c). */
int oq_parse_item_key(struct oq_pstate *ps, const char *key,
		      struct oq_loc loc);
/* qos-setup keys (parser_setup.c); key is the keyword text. */
int oq_parse_setup_key(struct oq_pstate *ps, const char *key,
		       struct oq_loc loc);
void oq_setup_scope_end(struct oq_pstate *ps, enum oq_blk blk);

/* qos-ulps (ulps.c). */
void oq_parse_ulp_line(struct oq_pstate *ps);
int oq_ulps_expand(struct oq_pstate *ps);
void oq_ulp_lines_free(struct oq_pstate *ps);

#endif /* OSMQOS_POLICY_PARSER_INT_H */
