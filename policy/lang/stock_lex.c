// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * OpenSM 3.3.23's QoS policy scanner (opensm/osm_qos_parser_l.l), rule for
 * rule.  flex takes the longest match at each position and, on a tie, the
 * rule written first; every rule is a fixed word, a word followed by
 * `[ \t]*:[ \t]*` or `[ \t]*,[ \t]*word`, or one of a few character
 * classes, so each is matched here by hand in the scanner's order.
 *
 * What makes OpenSM read a file differently from what it looks like is
 * all here: keywords are recognized anywhere, inside a value too; blanks
 * between unquoted words are dropped (except after `use:`); `\r` is an
 * ordinary character; a quoted string runs to the next '"' anywhere in the
 * file; and the line flags a key sets (a string follows, a list of
 * strings, a use: text, node types) last until the next newline, so
 * several keys may share a line.
 */
#include <ctype.h>
#include <string.h>

#include "stock_int.h"

void oq_slx_init(struct oq_slx *lx, const char *file, const char *text,
		 size_t len)
{
	memset(lx, 0, sizeof(*lx));
	lx->file = file;
	lx->text = text;
	lx->len = len;
	lx->line = 1;
	lx->col = 1;
}

/* How a rule ends after its word. */
enum shape {
	SH_WORD,  /* the word alone */
	SH_COLON, /* word [ \t]*:[ \t]* */
	SH_COMMA, /* word [ \t]*,[ \t]* tail */
	SH_NODE,  /* a node type: a word in any case */
};

/* What a key's token does to the scanner's flags. */
enum flag {
	F_NONE,
	F_DESC,	   /* use: -- everything up to the newline is text */
	F_STRINGS, /* comma-separated strings */
	F_SINGLE,  /* one string */
	F_NODE,	   /* node types */
};

struct rule {
	const char *word;
	size_t len;
	enum shape shape;
	bool ci; /* word matched in any case */
	const char *tail;
	enum oq_stk tok;
	enum flag flag;
};

/* The letter-initial rules, grouped by first letter; within a letter in
 * the scanner's order (two rules can only tie on a match that starts
 * with the same letter, so only that order matters). */
static const struct rule rules[] = {
	{"across-to", 9, SH_COLON, false, NULL, STK_ACROSS_TO, F_STRINGS},
	{"across-from", 11, SH_COLON, false, NULL, STK_ACROSS_FROM, F_STRINGS},
	{"across", 6, SH_COLON, false, NULL, STK_ACROSS, F_STRINGS},
	{"all", 3, SH_NODE, true, NULL, STK_NT_ALL, F_NONE},
	{"any", 3, SH_COMMA, true, "service-id", STK_ULP_ANY_SERVICE_ID,
	 F_NONE},
	{"any", 3, SH_COMMA, true, "pkey", STK_ULP_ANY_PKEY, F_NONE},
	{"any", 3, SH_COMMA, true, "target-port-guid",
	 STK_ULP_ANY_TARGET_PORT_GUID, F_NONE},
	{"any", 3, SH_COMMA, true, "source-port-guid",
	 STK_ULP_ANY_SOURCE_PORT_GUID, F_NONE},
	{"any", 3, SH_COMMA, true, "source-target-port-guid",
	 STK_ULP_ANY_SOURCE_TARGET_PORT_GUID, F_NONE},
	{"ca", 2, SH_NODE, true, NULL, STK_NT_CA, F_NONE},
	{"destination", 11, SH_COLON, false, NULL, STK_DESTINATION, F_STRINGS},
	{"default", 7, SH_COLON, true, NULL, STK_ULP_DEFAULT, F_NONE},
	{"end-qos-ulps", 12, SH_WORD, false, NULL, STK_QOS_ULPS_END, F_NONE},
	{"end-port-groups", 15, SH_WORD, false, NULL, STK_PORT_GROUPS_END,
	 F_NONE},
	{"end-port-group", 14, SH_WORD, false, NULL, STK_PORT_GROUP_END,
	 F_NONE},
	{"end-qos-setup", 13, SH_WORD, false, NULL, STK_QOS_SETUP_END, F_NONE},
	{"end-vlarb-tables", 16, SH_WORD, false, NULL, STK_VLARB_TABLES_END,
	 F_NONE},
	{"end-vlarb-scope", 15, SH_WORD, false, NULL, STK_VLARB_SCOPE_END,
	 F_NONE},
	{"end-sl2vl-tables", 16, SH_WORD, false, NULL, STK_SL2VL_TABLES_END,
	 F_NONE},
	{"end-sl2vl-scope", 15, SH_WORD, false, NULL, STK_SL2VL_SCOPE_END,
	 F_NONE},
	{"end-qos-levels", 14, SH_WORD, false, NULL, STK_QOS_LEVELS_END,
	 F_NONE},
	{"end-qos-level", 13, SH_WORD, false, NULL, STK_QOS_LEVEL_END, F_NONE},
	{"end-qos-match-rules", 19, SH_WORD, false, NULL,
	 STK_QOS_MATCH_RULES_END, F_NONE},
	{"end-qos-match-rule", 18, SH_WORD, false, NULL, STK_QOS_MATCH_RULE_END,
	 F_NONE},
	{"from", 4, SH_COLON, false, NULL, STK_FROM, F_NONE},
	{"group", 5, SH_COLON, false, NULL, STK_GROUP, F_STRINGS},
	{"iser", 4, SH_COLON, true, NULL, STK_ULP_ISER_DEFAULT, F_NONE},
	{"iser", 4, SH_COMMA, true, "port-num", STK_ULP_ISER_PORT, F_NONE},
	{"ipoib", 5, SH_COLON, true, NULL, STK_ULP_IPOIB_DEFAULT, F_NONE},
	{"ipoib", 5, SH_COMMA, true, "pkey", STK_ULP_IPOIB_PKEY, F_NONE},
	{"mtu-limit", 9, SH_COLON, false, NULL, STK_MTU_LIMIT, F_NONE},
	{"node-type", 9, SH_COLON, false, NULL, STK_NODE_TYPE, F_NODE},
	{"name", 4, SH_COLON, false, NULL, STK_NAME, F_SINGLE},
	{"port-groups", 11, SH_WORD, false, NULL, STK_PORT_GROUPS_START,
	 F_NONE},
	{"port-group", 10, SH_WORD, false, NULL, STK_PORT_GROUP_START, F_NONE},
	{"port-guid", 9, SH_COLON, false, NULL, STK_PORT_GUID, F_NONE},
	{"port-name", 9, SH_COLON, false, NULL, STK_PORT_NAME, F_STRINGS},
	{"partition", 9, SH_COLON, false, NULL, STK_PARTITION, F_SINGLE},
	{"packet-life", 11, SH_COLON, false, NULL, STK_PACKET_LIFE, F_NONE},
	{"path-bits", 9, SH_COLON, false, NULL, STK_PATH_BITS, F_NONE},
	{"pkey", 4, SH_COLON, false, NULL, STK_PKEY, F_NONE},
	{"qos-ulps", 8, SH_WORD, false, NULL, STK_QOS_ULPS_START, F_NONE},
	{"qos-setup", 9, SH_WORD, false, NULL, STK_QOS_SETUP_START, F_NONE},
	{"qos-levels", 10, SH_WORD, false, NULL, STK_QOS_LEVELS_START, F_NONE},
	{"qos-level", 9, SH_WORD, false, NULL, STK_QOS_LEVEL_START, F_NONE},
	{"qos-match-rules", 15, SH_WORD, false, NULL, STK_QOS_MATCH_RULES_START,
	 F_NONE},
	{"qos-match-rule", 14, SH_WORD, false, NULL, STK_QOS_MATCH_RULE_START,
	 F_NONE},
	{"qos-class", 9, SH_COLON, false, NULL, STK_QOS_CLASS, F_NONE},
	{"qos-level-name", 14, SH_COLON, false, NULL, STK_QOS_LEVEL_NAME,
	 F_SINGLE},
	{"rate-limit", 10, SH_COLON, false, NULL, STK_RATE_LIMIT, F_NONE},
	{"router", 6, SH_NODE, true, NULL, STK_NT_ROUTER, F_NONE},
	{"rds", 3, SH_COLON, true, NULL, STK_ULP_RDS_DEFAULT, F_NONE},
	{"rds", 3, SH_COMMA, true, "port-num", STK_ULP_RDS_PORT, F_NONE},
	{"sl2vl-tables", 12, SH_WORD, false, NULL, STK_SL2VL_TABLES_START,
	 F_NONE},
	{"sl2vl-scope", 11, SH_WORD, false, NULL, STK_SL2VL_SCOPE_START,
	 F_NONE},
	{"sl2vl-table", 11, SH_COLON, false, NULL, STK_SL2VL_TABLE, F_NONE},
	{"sl", 2, SH_COLON, false, NULL, STK_SL, F_NONE},
	{"source", 6, SH_COLON, false, NULL, STK_SOURCE, F_STRINGS},
	{"service-id", 10, SH_COLON, false, NULL, STK_SERVICE_ID, F_NONE},
	{"switch", 6, SH_NODE, true, NULL, STK_NT_SWITCH, F_NONE},
	{"self", 4, SH_NODE, true, NULL, STK_NT_SELF, F_NONE},
	{"sdp", 3, SH_COLON, true, NULL, STK_ULP_SDP_DEFAULT, F_NONE},
	{"sdp", 3, SH_COMMA, true, "port-num", STK_ULP_SDP_PORT, F_NONE},
	{"srp", 3, SH_COMMA, true, "target-port-guid", STK_ULP_SRP_GUID,
	 F_NONE},
	{"to", 2, SH_COLON, false, NULL, STK_TO, F_NONE},
	{"use", 3, SH_COLON, false, NULL, STK_USE, F_DESC},
	{"vlarb-tables", 12, SH_WORD, false, NULL, STK_VLARB_TABLES_START,
	 F_NONE},
	{"vlarb-scope", 11, SH_WORD, false, NULL, STK_VLARB_SCOPE_START,
	 F_NONE},
	{"vlarb-high", 10, SH_COLON, false, NULL, STK_VLARB_HIGH, F_NONE},
	{"vlarb-low", 9, SH_COLON, false, NULL, STK_VLARB_LOW, F_NONE},
	{"vl-high-limit", 13, SH_COLON, false, NULL, STK_VLARB_HIGH_LIMIT,
	 F_NONE},
};
#define N_RULES (sizeof(rules) / sizeof(rules[0]))

static size_t blanks(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* Length of word at s (exact, or in any case), 0 when it is not there. */
static size_t word_at(const char *s, size_t n, const char *w, size_t wl,
		      bool ci)
{
	size_t i;

	if (wl > n)
		return 0;
	for (i = 0; i < wl; i++) {
		unsigned char c = (unsigned char)s[i];

		if (ci ? tolower(c) != w[i] : c != (unsigned char)w[i])
			return 0;
	}
	return wl;
}

/* `[ \t]*SEP[ \t]*` at s: its length, 0 when absent. */
static size_t sep_at(const char *s, size_t n, char sep)
{
	size_t i = blanks(s, n);

	if (i >= n || s[i] != sep)
		return 0;
	i++;
	return i + blanks(s + i, n - i);
}

static size_t rule_len(const struct rule *r, const char *s, size_t n)
{
	size_t w = word_at(s, n, r->word, r->len, r->ci), t;

	if (!w)
		return 0;
	switch (r->shape) {
	case SH_WORD:
	case SH_NODE:
		return w;
	case SH_COLON:
		t = sep_at(s + w, n - w, ':');
		return t ? w + t : 0;
	case SH_COMMA:
		t = sep_at(s + w, n - w, ',');
		if (!t)
			return 0;
		/* The tail word is lower case in the scanner. */
		n = word_at(s + w + t, n - w - t, r->tail, strlen(r->tail),
			    false);
		return n ? w + t + n : 0;
	}
	return 0;
}

static void reset_flags(struct oq_slx *lx)
{
	lx->desc = lx->strings = lx->single_string = lx->node_type = false;
}

static bool in_string(const struct oq_slx *lx)
{
	return lx->desc || lx->strings || lx->single_string;
}

/* SAVE_POS: OpenSM's line_num and column_num after the matched text. */
static void advance(struct oq_slx *lx, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (lx->text[lx->pos + i] == '\n') {
			lx->line++;
			lx->col = 1;
		} else {
			lx->col++;
		}
	}
	lx->pos += n;
}

/* strdup(yytext): the value ends at a NUL byte. */
static size_t c_len(const char *s, size_t n)
{
	const char *z = memchr(s, '\0', n);

	return z ? (size_t)(z - s) : n;
}

/* The length of the longest match of the letter-initial rules at s, and
 * the first rule with that length. */
static size_t best_word_rule(const char *s, size_t n, const struct rule **out)
{
	char c = (char)tolower((unsigned char)*s);
	size_t lo = 0, hi = N_RULES, best = 0;

	/* The first rule of the letter (the table is grouped by letter). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (rules[mid].word[0] < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	*out = NULL;
	for (; lo < N_RULES && rules[lo].word[0] == c; lo++) {
		size_t l = rule_len(&rules[lo], s, n);

		if (l > best) {
			best = l;
			*out = &rules[lo];
		}
	}
	return best;
}

static size_t digits(const char *s, size_t n, bool hex)
{
	size_t i = 0;

	while (i < n && (hex ? isxdigit((unsigned char)s[i])
			     : isdigit((unsigned char)s[i])))
		i++;
	return i;
}

static void emit(struct oq_slx *lx, struct oq_stok *tok, enum oq_stk t,
		 size_t n, const char *val, size_t vlen)
{
	tok->t = t;
	tok->corrupt = false;
	tok->val = val;
	tok->len = vlen;
	advance(lx, n);
	tok->end_line = lx->line;
	tok->end_col = lx->col;
}

void oq_slx_next(struct oq_slx *lx, struct oq_stok *tok)
{
	for (;;) {
		const char *s = lx->text + lx->pos;
		size_t n = lx->len - lx->pos, l;
		const struct rule *r;
		unsigned char c;

		tok->loc.file = lx->file;
		tok->loc.line = lx->line;
		tok->loc.col = lx->col;
		if (!n) {
			emit(lx, tok, STK_EOF, 0, s, 0);
			return;
		}
		c = (unsigned char)*s;
		if (c == '#') {
			const char *nl = memchr(s, '\n', n);

			if (nl) { /* a comment with its newline */
				advance(lx, (size_t)(nl - s) + 1);
				reset_flags(lx);
				continue;
			}
			/* At the end of a file without a final newline, '#'
			 * is just a character. */
			emit(lx, tok, STK_TEXT, 1, s, 1);
			return;
		}
		if (c == ' ' || c == '\t') {
			l = blanks(s, n);
			if (l < n && s[l] == '\n') {
				advance(lx, l + 1);
				reset_flags(lx);
				continue;
			}
			if (lx->desc) {
				emit(lx, tok, STK_TEXT, l, s, l);
				return;
			}
			advance(lx, l);
			continue;
		}
		if (c == '\n') {
			advance(lx, 1);
			reset_flags(lx);
			continue;
		}
		if (isalpha(c)) {
			l = best_word_rule(s, n, &r);
			if (!r)
				goto any_char;
			if (r->shape == SH_NODE) {
				if (lx->node_type)
					emit(lx, tok, r->tok, l, s, l);
				else
					emit(lx, tok, STK_TEXT, l, s, l);
				return;
			}
			if (lx->desc) {
				emit(lx, tok, STK_TEXT, l, s, l);
				return;
			}
			switch (r->flag) {
			case F_DESC:
				lx->desc = true;
				break;
			case F_STRINGS:
				lx->strings = true;
				break;
			case F_SINGLE:
				lx->single_string = true;
				break;
			case F_NODE:
				lx->node_type = true;
				break;
			case F_NONE:
				break;
			}
			emit(lx, tok, r->tok, l, s, l);
			return;
		}
		if (isdigit(c)) {
			l = 0;
			if (c == '0' && n > 2 && (s[1] == 'x' || s[1] == 'X'))
				l = digits(s + 2, n - 2, true);
			l = l ? l + 2 : digits(s, n, false);
			emit(lx, tok, in_string(lx) ? STK_TEXT : STK_NUMBER, l,
			     s, l);
			return;
		}
		switch (c) {
		case '-':
		case ':':
		case '*':
			emit(lx, tok,
			     in_string(lx) ? STK_TEXT
			     : c == '-'	   ? STK_DASH
			     : c == ':'	   ? STK_DOTDOT
					   : STK_ASTERISK,
			     1, s, 1);
			return;
		case ',':
			emit(lx, tok, lx->desc ? STK_TEXT : STK_COMMA, 1, s, 1);
			return;
		case '"': {
			const char *q = memchr(s + 1, '"', n - 1);
			size_t in;

			if (!q)
				goto any_char;
			/* strdup(yytext + 1) keeps the closing quote unless
			 * a NUL comes first; then its last byte is cut. */
			in = c_len(s + 1, (size_t)(q - s));
			emit(lx, tok, STK_TEXT, (size_t)(q - s) + 1, s + 1,
			     in ? in - 1 : 0);
			tok->corrupt = !in;
			return;
		}
		default:
			break;
		}
	any_char:
		emit(lx, tok, STK_TEXT, 1, s, c ? 1 : 0);
		return;
	}
}

const char *oq_stk_spelling(enum oq_stk t)
{
	size_t i;

	switch (t) {
	case STK_EOF:
		return "the end of the file";
	case STK_NUMBER:
		return "a number";
	case STK_DASH:
		return "'-'";
	case STK_DOTDOT:
		return "':'";
	case STK_COMMA:
		return "','";
	case STK_ASTERISK:
		return "'*'";
	case STK_TEXT:
		return "text";
	default:
		break;
	}
	for (i = 0; i < N_RULES; i++)
		if (rules[i].tok == t)
			return rules[i].word;
	return "?";
}
