/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Private to the model of stock OpenSM's grammar (stock_parse.c: the
 * driver, the grammar's common part, the fabric checks and
 * osm_qos_policy_validate(); stock_blocks.c: port groups, qos-levels and
 * qos-match-rules; stock_setup.c: qos-setup and qos-ulps): the parser's
 * state and the steps the blocks share.
 */
#ifndef OSMQOS_POLICY_STOCK_PARSE_INT_H
#define OSMQOS_POLICY_STOCK_PARSE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stock_int.h"

/* The names a qos-match-rule gives, until validation resolves them. */
struct rule_names {
	char *level;
	char **src, **dst;
	size_t n_src, n_dst;
};

struct sp {
	struct oq_slx lx;
	struct oq_stok la, last;
	bool have_la;
	struct oq_stock *s;
	const struct oq_stock_env *env;
	bool stop, oom;

	/* tmp_parser_struct */
	char str[OQ_STOCK_STR_MAX];
	size_t str_len;
	char **strs;
	size_t n_strs, cap_strs;
	uint64_t *nums;
	size_t n_nums, cap_nums;
	struct oq_range *pairs; /* as written, or low-high for ranges */
	size_t n_pairs, cap_pairs;

	size_t cap_groups, cap_levels, cap_rules, cap_vlarb, cap_sl2vl;
	/* The rules of qos-ulps lines, appended after the others. */
	struct oq_stock_rule *ulp;
	size_t n_ulp, cap_ulp;
	/* Parallel to s->rules while parsing. */
	struct rule_names *names;
	size_t n_names, cap_names;
};

/* yyerror() from an action: ERR AC03 after "Syntax error: <msg>". */
#define reject(p, at, ...) sp_stop_at(p, OQ_STOCK_REJECTS, at, __VA_ARGS__)

bool sp_grow(struct sp *p, void **v, size_t *cap, size_t n, size_t size);
char *sp_dup_n(struct sp *p, const char *s, size_t n);
enum oq_stk sp_peek(struct sp *p);
void sp_take(struct sp *p);
void sp_syntax_error(struct sp *p);
bool sp_expect(struct sp *p, enum oq_stk t);
void sp_walk(struct sp *p, uint64_t n, struct oq_loc at, const char *what);
bool sp_number(struct sp *p);
bool sp_num_list(struct sp *p);
bool sp_list_of_ranges(struct sp *p);
bool sp_list_of_pairs(struct sp *p);
bool sp_pairs_to_ranges(struct sp *p, struct oq_ranges *out, bool pkey);
uint64_t sp_range_count(const struct oq_ranges *r);
uint64_t sp_guid_steps(const struct oq_ranges *r);
bool sp_merge_ranges(struct sp *p, struct oq_ranges *into,
		     struct oq_ranges *add);
bool sp_ranges_key(struct sp *p, struct oq_ranges *into, bool pkey);
bool sp_single_string(struct sp *p);
bool sp_string_list(struct sp *p);
void sp_clear_lists(struct sp *p);
bool sp_move_strings(struct sp *p, char ***v, size_t *n);
char *sp_first_string(struct sp *p);
int sp_port_check(struct sp *p, const char *desc, unsigned int port);
bool sp_ipoib_pkeys(struct sp *p, const struct oq_ranges *r, struct oq_loc at);
long sp_new_group(struct sp *p, struct oq_loc at);
bool sp_port_groups(struct sp *p);
long sp_new_level(struct sp *p, struct oq_loc at);
bool sp_level_number(struct sp *p, uint64_t *v);
bool sp_qos_levels(struct sp *p);
bool sp_match_rules(struct sp *p);
bool sp_qos_setup(struct sp *p);
bool sp_add_index(struct sp *p, size_t **v, size_t *n, size_t x);
bool sp_qos_ulps(struct sp *p);
void sp_stop_at(struct sp *p, enum oq_stock_outcome o, struct oq_loc at,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif /* OSMQOS_POLICY_STOCK_PARSE_INT_H */
