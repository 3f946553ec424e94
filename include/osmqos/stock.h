/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Stock OpenSM's reading of a policy file.  A model of OpenSM 3.3.23's QoS
 * policy scanner and grammar (opensm/osm_qos_parser_l.l and _y.y) and of
 * the checks it runs after them (osm_qos_policy_validate), token for token
 * and action for action, so that `osmqos check` can say what stock OpenSM
 * does with the operator's file as written: take it, reject it (ERR AC03
 * or AC04: the SM then runs with no policy at all), abort on it (a string
 * longer than its scanner's buffer), or stall on it (a port-guid range
 * walked one GUID at a time) -- and, when it takes it, where it reads a
 * construct differently from osmqos (oq_stock_compare).
 *
 * tests/e2e/opensm-parse.sh runs OpenSM's own parser inside a real opensm
 * over the policy corpora and compares its outcome and parsed result with
 * this model's (docs/stock.md).
 */
#ifndef OSMQOS_STOCK_H
#define OSMQOS_STOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <osmqos/diag.h>
#include <osmqos/osm_release.h>
#include <osmqos/policy.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The OpenSM whose parser this models, named as the release osmqos is
 * built for: the model is of 3.3.23's parser, which 3.3.24's is the same
 * as (docs/stock.md). */
#define OQ_STOCK_OPENSM (oq_osm_release()->name)

enum oq_stock_outcome {
	OQ_STOCK_TAKES,	  /* parsed and validated: this is its policy */
	OQ_STOCK_REJECTS, /* ERR AC03/AC04: no policy at all */
	OQ_STOCK_ABORTS,  /* its string buffer overflows: the SM aborts */
	OQ_STOCK_STALLS,  /* a loop over 2^32 or more values (or endless) */
};

/*
 * What the fabric holds, for the parser's checks that look at it.  NULL
 * callbacks (or a NULL env): not known; the parse then assumes the check
 * passes and counts the assumption in oq_stock.assumed.
 */
struct oq_stock_env {
	/* The node whose description is desc (OpenSM's print_desc): -1
	 * when there is none, 0 when OpenSM has no port number port on it
	 * (beyond NumPorts, or a CA port it never discovered), 1 when it
	 * has. */
	int (*port_check)(void *ctx, const char *desc, unsigned int port);
	/* Full members of the partition with this P_Key (bit 15 clear), or
	 * -1 when there is no such partition. */
	int (*pkey_full_members)(void *ctx, unsigned int pkey);
	void *ctx;
};

struct oq_stock_pname {
	char *node;	    /* the node description OpenSM looks up */
	unsigned long port; /* strtoul(..., 0) of what follows "/P" */
	struct oq_loc loc;
};

struct oq_stock_group {
	char *name; /* blanks between unquoted words dropped, as OpenSM */
	struct oq_loc loc;
	struct oq_ranges guids; /* each port-guid key's ranges, merged */
	struct oq_stock_pname *pnames;
	size_t n_pnames;
	struct oq_ranges pkeys; /* bit 15 cleared */
	char **partitions;
	size_t n_partitions;
	unsigned int node_types; /* OQ_NT_* (SELF: the SM's port) */
	bool from_ulp;		 /* _SRP_Targets_, _ULP_Targets_, ... */
};

struct oq_stock_level {
	char *name;
	struct oq_loc loc;
	unsigned int sl;     /* OpenSM keeps 8 bits, unchecked */
	int mtu, rate, life; /* -1 when not given */
	struct oq_ranges path_bits, pkeys;
	bool simple; /* SimpleQoSLevel_SL<n> of a qos-ulps line */
};

struct oq_stock_rule {
	struct oq_loc loc;
	/* Port groups (indexes into groups) a source / destination must
	 * be in; none: any port. */
	size_t *src, n_src, *dst, n_dst;
	struct oq_ranges sids, classes, pkeys;
	size_t level; /* index into levels */
	bool from_ulp;
};

struct oq_stock_pair {
	uint64_t a, b;
};

struct oq_stock_vlarb {
	struct oq_loc loc;
	char **groups, **across;
	size_t n_groups, n_across;
	struct oq_stock_pair *high, *low;
	size_t n_high, n_low;
	uint32_t limit;
	bool limit_set;
};

struct oq_stock_sl2vl {
	struct oq_loc loc;
	char **groups, **across_from, **across_to;
	size_t n_groups, n_across_from, n_across_to;
	uint8_t from[16], to[16]; /* bit p of byte p/8: switch port p */
	uint8_t table[16];
};

struct oq_stock_index; /* name lookups, private to the model */

struct oq_stock {
	enum oq_stock_outcome outcome;
	/* Unless TAKES: where and why, in OpenSM's words where it has any
	 * (its own "line L:C" is in opensm_line/opensm_col, 0 when its
	 * message has none: an AC04 validation error). */
	struct oq_loc where;
	char why[320];
	unsigned int opensm_line, opensm_col;
	/* Values OpenSM's parse loops over (GUID and P_Key ranges). */
	uint64_t walked;
	/* Fabric checks passed on assumption (no env): ipoib partitions,
	 * the ports port-name: names. */
	size_t assumed;

	/* The reading, when TAKES (partial otherwise).  groups in OpenSM's
	 * list order (the qos-ulps ones where their line is); levels: the
	 * explicit ones, then the 16 SimpleQoSLevel_SL<n>; rules: the
	 * qos-match-rules, then the qos-ulps ones. */
	struct oq_stock_group *groups;
	size_t n_groups;
	struct oq_stock_level *levels;
	size_t n_levels, n_explicit_levels;
	struct oq_stock_rule *rules;
	size_t n_rules;
	struct oq_stock_vlarb *vlarb;
	size_t n_vlarb;
	struct oq_stock_sl2vl *sl2vl;
	size_t n_sl2vl;
	/* The DEFAULT level: an index into levels, or -1 with default_sl
	 * the qos-ulps `default` SL (SimpleQoSLevel_DEFAULT). */
	long default_level;
	int default_sl;
	struct oq_stock_index *index;
};

/*
 * Read text as stock OpenSM would (file names it in locations).  NULL only
 * out of memory.  env may be NULL.
 */
struct oq_stock *oq_stock_read(const char *file, const char *text, size_t len,
			       const struct oq_stock_env *env);
void oq_stock_free(struct oq_stock *s);

/*
 * Where stock OpenSM, having taken the file, reads it differently from
 * osmqos's reading p (a valid policy): one warning per construct, with
 * what each side reads.  Compares what decides OpenSM's behaviour and the
 * plugin's: port groups by what they select, levels by their parameters,
 * rules in order, the default level, the qos-setup scopes; not names as
 * such (a name both sides read alike in every reference is harmless) nor
 * use: texts.  Returns the number of differences, or (size_t)-1 out of
 * memory.
 */
size_t oq_stock_compare(const struct oq_stock *s, const struct oq_policy *p,
			struct oq_diags *d);

/* The same for the match rules and the DEFAULT level only: what decides
 * the SA's answers, without the qos-setup scopes. */
size_t oq_stock_compare_match(const struct oq_stock *s,
			      const struct oq_policy *p, struct oq_diags *d);

/* What `check` says about a file (p NULL when osmqos calls it invalid). */
enum oq_stock_verdict {
	OQ_STOCK_AS_WRITTEN, /* takes it and reads it as osmqos does */
	OQ_STOCK_DIFFERENTLY,
	OQ_STOCK_TAKEN, /* takes it; osmqos does not (p NULL) */
	OQ_STOCK_REJECTED,
	OQ_STOCK_ABORTED,
	OQ_STOCK_STALLED,
};

/*
 * The verdict, with its diagnostics: warnings for a file stock OpenSM
 * rejects, aborts or stalls on (where, OpenSM's message, what to do) and
 * for each construct read differently.  Returns OQ_STOCK_* or -1 out of
 * memory.
 */
int oq_stock_verdict(const struct oq_stock *s, const struct oq_policy *p,
		     struct oq_diags *d);
/* "reads it as written", "rejects it", ... */
const char *oq_stock_verdict_text(int verdict);

/*
 * Write p (valid) in the form stock OpenSM reads as osmqos does, after
 * header (comment lines): one key per line, names quoted, LF line ends,
 * the sections in the file's order (port-groups and qos-ulps alternating
 * as in the file: a name finds the group written first).  The osmqos keys
 * become comments.  Returns 0, or -1 on a stream error or
 * a qos-ulps rule whose line cannot be told.
 */
int oq_stock_write(FILE *out, const struct oq_policy *p, const char *header);

/* Which text OpenSM's own parser is handed for a policy. */
enum oq_stock_copy_form {
	OQ_COPY_AS_WRITTEN, /* the file's bytes, oq_policy_opensm_copy() */
	OQ_COPY_REWRITTEN,  /* oq_stock_write(): OpenSM misreads the file */
};

/*
 * The text to hand OpenSM's own parser for p (valid), so that it reads
 * what osmqos reads: the file as written (its line numbers kept) when
 * the stock model reads that as osmqos does, else p written again
 * (*form says which; why gets the stock model's first finding on the
 * file as written).  NULL when neither is read as osmqos reads p (why
 * as above), or out of memory (why empty).
 */
char *oq_stock_copy(const struct oq_policy *p, size_t *out_len,
		    enum oq_stock_copy_form *form, char *why, size_t why_len);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_STOCK_H */
