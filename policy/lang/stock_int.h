/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Private to the stock OpenSM model (stock_lex.c, stock_parse.c,
 * stock_compare.c): the tokens of OpenSM's QoS policy scanner, the
 * scanner's state, and helpers the parser and the comparison share.
 */
#ifndef OSMQOS_POLICY_STOCK_INT_H
#define OSMQOS_POLICY_STOCK_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/stock.h>

/* OpenSM's tmp_parser_struct.str: 10 KiB, NUL included. */
#define OQ_STOCK_STR_MAX 10240u
/* A parse that loops over this many values or more stalls the SM. */
#define OQ_STOCK_STALL_WALK (1ULL << 32)

/* OpenSM's token numbers, in osm_qos_parser_y.y's order. */
enum oq_stk {
	STK_EOF,
	STK_NUMBER,
	STK_DASH,
	STK_DOTDOT,
	STK_COMMA,
	STK_ASTERISK,
	STK_TEXT,
	/* Section and block keywords (no ':') */
	STK_QOS_ULPS_START,
	STK_QOS_ULPS_END,
	STK_PORT_GROUPS_START,
	STK_PORT_GROUPS_END,
	STK_PORT_GROUP_START,
	STK_PORT_GROUP_END,
	STK_QOS_SETUP_START,
	STK_QOS_SETUP_END,
	STK_VLARB_TABLES_START,
	STK_VLARB_TABLES_END,
	STK_VLARB_SCOPE_START,
	STK_VLARB_SCOPE_END,
	STK_SL2VL_TABLES_START,
	STK_SL2VL_TABLES_END,
	STK_SL2VL_SCOPE_START,
	STK_SL2VL_SCOPE_END,
	STK_QOS_LEVELS_START,
	STK_QOS_LEVELS_END,
	STK_QOS_LEVEL_START,
	STK_QOS_LEVEL_END,
	STK_QOS_MATCH_RULES_START,
	STK_QOS_MATCH_RULES_END,
	STK_QOS_MATCH_RULE_START,
	STK_QOS_MATCH_RULE_END,
	/* Keys (keyword ':') */
	STK_PORT_GUID,
	STK_PORT_NAME,
	STK_PARTITION,
	STK_NODE_TYPE,
	STK_NAME,
	STK_USE,
	STK_GROUP,
	STK_VLARB_HIGH,
	STK_VLARB_LOW,
	STK_VLARB_HIGH_LIMIT,
	STK_TO,
	STK_FROM,
	STK_ACROSS_TO,
	STK_ACROSS_FROM,
	STK_ACROSS,
	STK_SL2VL_TABLE,
	STK_SL,
	STK_MTU_LIMIT,
	STK_RATE_LIMIT,
	STK_PACKET_LIFE,
	STK_PATH_BITS,
	STK_QOS_CLASS,
	STK_SOURCE,
	STK_DESTINATION,
	STK_SERVICE_ID,
	STK_PKEY,
	STK_QOS_LEVEL_NAME,
	/* node-type values */
	STK_NT_ROUTER,
	STK_NT_CA,
	STK_NT_SWITCH,
	STK_NT_SELF,
	STK_NT_ALL,
	/* qos-ulps line heads */
	STK_ULP_DEFAULT,
	STK_ULP_ANY_SERVICE_ID,
	STK_ULP_ANY_PKEY,
	STK_ULP_ANY_TARGET_PORT_GUID,
	STK_ULP_ANY_SOURCE_PORT_GUID,
	STK_ULP_ANY_SOURCE_TARGET_PORT_GUID,
	STK_ULP_SDP_DEFAULT,
	STK_ULP_SDP_PORT,
	STK_ULP_RDS_DEFAULT,
	STK_ULP_RDS_PORT,
	STK_ULP_ISER_DEFAULT,
	STK_ULP_ISER_PORT,
	STK_ULP_SRP_GUID,
	STK_ULP_IPOIB_DEFAULT,
	STK_ULP_IPOIB_PKEY,
	STK_COUNT
};

/* One token: its kind, where it starts in the file, OpenSM's position
 * after it (line_num:column_num, which its messages print), and for TEXT
 * and NUMBER the value OpenSM's action gets (strdup of the matched text,
 * so it ends at a NUL byte; a quoted string without its quotes). */
struct oq_stok {
	enum oq_stk t;
	struct oq_loc loc;
	unsigned int end_line, end_col;
	const char *val; /* into the text: not NUL-terminated */
	size_t len;	 /* strlen of OpenSM's copy */
	/* A quoted string whose first byte is NUL: OpenSM's scanner then
	 * writes one byte before the string it allocated. */
	bool corrupt;
};

/* The scanner: flex's longest match, first rule on a tie, and the
 * scanner's line flags (only those that change a token matter). */
struct oq_slx {
	const char *file, *text;
	size_t len, pos;
	unsigned int line, col;
	bool desc, strings, single_string, node_type;
};

/* Names sorted case-insensitively, then by position: OpenSM's linear
 * search returns the first of equal names, found here by binary search,
 * with the steps OpenSM's search takes. */
struct oq_stock_name {
	const char *name;
	size_t idx;
};

struct oq_stock_index {
	struct oq_stock_name *groups, *levels;
	size_t n_groups, n_levels;
};

/* Build s->index over s's groups and its first n_levels levels; -1 out of
 * memory. */
int oq_stock_index_build(struct oq_stock *s, size_t n_levels);
void oq_stock_index_free(struct oq_stock *s);
/* The first group (or level) named name, case-insensitively, or -1;
 * *steps the names OpenSM compares before it stops. */
long oq_stock_lookup(const struct oq_stock *s, bool groups, const char *name,
		     uint64_t *steps);

void oq_slx_init(struct oq_slx *lx, const char *file, const char *text,
		 size_t len);
/* The next token (STK_EOF at the end, again and again). */
void oq_slx_next(struct oq_slx *lx, struct oq_stok *tok);
/* A token kind as OpenSM's grammar names it ("TK_NUMBER", ...), and as
 * the file spells it, for messages ("port-guid:", "end-qos-level"). */
const char *oq_stk_spelling(enum oq_stk t);

#endif /* OSMQOS_POLICY_STOCK_INT_H */
