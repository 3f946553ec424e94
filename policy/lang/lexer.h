/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Private to the policy parser: a cursor over the policy text that keeps
 * line and column, and the lexical pieces of OpenSM's qos-policy.conf
 * language (comments, keywords, numbers, quoted and unquoted strings).
 */
#ifndef OSMQOS_POLICY_LEXER_H
#define OSMQOS_POLICY_LEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <osmqos/diag.h>

/* A UTF-8 byte order mark, which OpenSM's parser reads as junk. */
#define OQ_UTF8_BOM "\xef\xbb\xbf"

/* The typographic quote (U+2018, U+2019, U+201C, U+201D) at s, at most n
 * bytes: its length (3), or 0. */
size_t oq_lx_typographic_quote(const char *s, size_t n);

/* The longest string OpenSM 3.3.23's policy lexer holds (its 10 KiB
 * buffer, NUL included); see opensm_can_read() in lexer.c. */
#define OQ_OPENSM_MAX_STRING 10239u

struct oq_lx {
	const char *file;
	const char *p, *end;
	unsigned int line, col;
	struct oq_diags *diags;
	/* Is the word w[0..n) a key of the language?  Then "word:" after a
	 * blank ends an unquoted value, as it ends one for OpenSM's lexer.
	 * NULL: nothing does. */
	bool (*is_key)(const char *w, size_t n);
	/* The last unquoted value that stopped at such a key: where the key
	 * is and where the value began. */
	const char *cut, *cut_from;
};

void oq_lx_init(struct oq_lx *lx, const char *file, const char *text,
		size_t len, struct oq_diags *diags);

static inline int oq_lx_peek(const struct oq_lx *lx)
{
	return lx->p < lx->end ? (unsigned char)*lx->p : -1;
}

static inline struct oq_loc oq_lx_loc(const struct oq_lx *lx)
{
	struct oq_loc loc = { lx->file, lx->line, lx->col };

	return loc;
}

void oq_lx_adv(struct oq_lx *lx);
/* Blanks within a line: space, tab, CR, FF, VT. */
void oq_lx_skip_blank(struct oq_lx *lx);
/* End of the line's content: end of input, newline or a comment. */
bool oq_lx_at_eol(const struct oq_lx *lx);
/* Skip the rest of the line including its newline. */
void oq_lx_skip_line(struct oq_lx *lx);
/* Skip blanks, comments and newlines; false at end of input. */
bool oq_lx_skip_space(struct oq_lx *lx);

/* A keyword-like word: letters, digits, '-' and '_'.  Returns its length
 * (0 when the cursor is not on one); *start points at it. */
size_t oq_lx_word(struct oq_lx *lx, const char **start);

/*
 * A number as OpenSM reads it (strtoull base 0): 0x hex, decimal, and a
 * leading 0 means octal (a warning says so).  Returns 0 with *v set, or -1
 * after reporting an error (the cursor then sits after the bad token).
 * what names the value in messages ("SL", "port GUID", ...).
 */
int oq_lx_number(struct oq_lx *lx, uint64_t *v, const char *what);

/* True when the cursor is at something that starts a number. */
bool oq_lx_at_number(const struct oq_lx *lx);

/*
 * One string item: a quoted string ("..." on one line, quotes removed) or
 * unquoted text up to stop (a ',' for lists, 0 for the rest of the line),
 * a key ("sl:" after a blank, see is_key; lx->cut then points at it) or
 * the end of the line, trimmed; inner blanks are kept.  Returns a
 * malloc'd string (NULL on error, reported, or out of memory: *oom set);
 * an empty item and typographic quotes (pasted from a document) are
 * reported as errors.
 */
char *oq_lx_string(struct oq_lx *lx, int stop, const char *what, bool *oom);

/* The rest of the line's content as one trimmed string (for `use:`); a
 * value that is one quoted string loses its quotes.  May be empty.  Both
 * refuse (an error, NULL) what OpenSM's lexer cannot read: a string over
 * OQ_OPENSM_MAX_STRING bytes, a '"' that does not enclose the item. */
char *oq_lx_rest(struct oq_lx *lx, bool *oom);

/* Copy of the text in [start, start + len) for messages, shortened to at
 * most 40 bytes, valid UTF-8 kept, other non-printable bytes as \xNN;
 * malloc'd, or NULL. */
char *oq_lx_snippet(const char *start, size_t len);

/* Edit distance for "did you mean" hints, case-insensitive.  Only
 * distances below limit matter to the callers: once every cell of a row
 * reaches limit the answer is "limit or more" and the table stops. */
unsigned int oq_lx_distance(const char *a, const char *b,
			    unsigned int limit);

#endif /* OSMQOS_POLICY_LEXER_H */
