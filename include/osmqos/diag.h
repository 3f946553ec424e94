/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Diagnostics: every problem found in an input is collected here with its
 * source location, so that one run reports all of them, GCC style:
 *
 *	FILE:LINE:COL: error: text
 *	FILE:LINE:COL: warning: text
 *	  hint: text
 *
 * Each diagnostic has a kind (the format its message was made from) and a
 * stable code naming that kind (oq_diag_code), and may follow from an
 * earlier one (its cause): the report then shows the root cause first and
 * folds what follows from it under it.  Diagnostics of one kind are kept
 * up to a cap and counted beyond it, so one flood cannot push out another
 * kind.
 *
 * The policy core never prints on its own; callers decide where
 * diagnostics go (stderr for the CLI, the OpenSM log for the plugin).
 */
#ifndef OSMQOS_DIAG_H
#define OSMQOS_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum oq_severity {
	OQ_SEV_NOTE,
	OQ_SEV_WARNING,
	OQ_SEV_ERROR,
};

/* A position in an input file; line and col are 1-based, 0 = unknown. */
struct oq_loc {
	const char *file; /* interned by the owner of the input; may be NULL */
	unsigned int line;
	unsigned int col;
};

struct oq_diag {
	enum oq_severity sev;
	struct oq_loc loc;
	char *msg;
	char *hint; /* NULL when there is none */
	/* The format the message was made from: one per kind. */
	const char *kind;
	const char *code;   /* set by oq_diag_set_code, else NULL */
	unsigned int id;    /* 1, 2, ... in the order they were added */
	unsigned int cause; /* id of the diagnostic this follows from, 0 */
};

/* Diagnostics of one kind: how many were added, how many kept. */
struct oq_diag_tally {
	const char *kind;
	size_t n, kept;
};

struct oq_diags {
	struct oq_diag *v;
	size_t n, cap;
	size_t n_errors, n_warnings;
	size_t max;	 /* keep at most this many (0 = OQ_DIAGS_MAX) */
	size_t max_kind; /* ... and this many of one kind (0 =
			    OQ_DIAGS_KIND_MAX) */
	size_t n_dropped;
	unsigned int next_id;
	/* While not 0, what is added follows from this diagnostic. */
	unsigned int cause;
	struct oq_diag_tally *tally;
	size_t n_tally, cap_tally;
};

#define OQ_DIAGS_MAX	  10000
#define OQ_DIAGS_KIND_MAX 100
/* Give as max/max_kind to keep everything. */
#define OQ_DIAGS_ALL ((size_t)-1)

void oq_diags_init(struct oq_diags *d);
void oq_diags_free(struct oq_diags *d);
void oq_diags_clear(struct oq_diags *d);

/* Record one diagnostic; fmt is printf-style.  Returns the record. */
struct oq_diag *oq_diag_add(struct oq_diags *d, enum oq_severity sev,
			    struct oq_loc loc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
struct oq_diag *oq_diag_vadd(struct oq_diags *d, enum oq_severity sev,
			     struct oq_loc loc, const char *fmt, va_list ap);
/* Attach a hint to a diagnostic returned by oq_diag_add(). */
void oq_diag_hint(struct oq_diag *diag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * The diagnostic's stable code: the one set with oq_diag_set_code (a
 * static string such as "unknown-keyword"), else one derived from the
 * fixed words of its message's format, at most six, lower case, joined by
 * '-' ("undefined qos-level '%s'" is "undefined-qos-level").  The same
 * for every diagnostic of a kind, whatever names it quotes (docs/json.md).
 * Writes it into buf and returns buf.
 */
const char *oq_diag_code(const struct oq_diag *diag, char *buf, size_t len);
void oq_diag_set_code(struct oq_diag *diag, const char *code);
/* The code a format gives, as oq_diag_code derives it. */
void oq_diag_code_of(const char *fmt, char *buf, size_t len);

/* The diagnostic's id (0 for NULL: it was not kept). */
static inline unsigned int oq_diag_id(const struct oq_diag *diag)
{
	return diag ? diag->id : 0;
}

/* Make diag follow from the diagnostic cause (an id; 0: none). */
static inline void oq_diag_follows(struct oq_diag *diag, unsigned int cause)
{
	if (diag && cause != diag->id)
		diag->cause = cause;
}

/* How many diagnostics of severity sev are root causes (follow from no
 * other) among those kept; the rest of d->n_errors/n_warnings follow from
 * them or were not kept. */
size_t oq_diags_roots(const struct oq_diags *d, enum oq_severity sev);

#define oq_error(d, loc, ...) oq_diag_add(d, OQ_SEV_ERROR, loc, __VA_ARGS__)
#define oq_warning(d, loc, ...) \
	oq_diag_add(d, OQ_SEV_WARNING, loc, __VA_ARGS__)

/* Sort by file, line, column (stable), for a readable report. */
void oq_diags_sort(struct oq_diags *d);

/* Format one diagnostic as "FILE:LINE:COL: error: text" (no newline, no
 * hint) into buf; returns what snprintf returns. */
int oq_diag_format(const struct oq_diag *diag, char *buf, size_t len);
/* "error", "warning" or "note". */
const char *oq_severity_name(enum oq_severity sev);
/* "FILE:LINE:COL" of a location ("?" for no file). */
void oq_loc_format(const struct oq_loc *loc, char *buf, size_t len);

/* Print every diagnostic (and its hint on a following line) to a stdio
 * stream given as void * so this header stays free of <stdio.h>: the
 * report of oq_diags_report with all set. */
void oq_diags_print(const struct oq_diags *d, void *stdio_file);

/*
 * The report an operator reads, on a sorted list: each root cause in
 * order of position, its hint (not repeated for the next diagnostic of the
 * same kind), and under it "N more errors follow from it" (with all: each
 * of them, indented).  Of one kind at most OQ_DIAGS_SHOWN are printed,
 * then "and N more like it" (all: every one kept).  how_all, when not
 * NULL, ends the lines that say something was left out ("--all shows
 * them").
 */
#define OQ_DIAGS_SHOWN 10
void oq_diags_report(const struct oq_diags *d, void *stdio_file, bool all,
		     const char *how_all);

/*
 * The same report as one JSON object member list (docs/json.md):
 * "diagnostics": [ {file, line, col, severity, code, message, hint, id,
 * cause} ...], "omitted": [ {code, severity, count} ...].  Without all,
 * the diagnostics are those oq_diags_report prints (consequences
 * included, with their cause) and omitted counts the rest of each kind.
 */
void oq_diags_write_json(const struct oq_diags *d, void *stdio_file, bool all);

static inline int oq_diags_has_errors(const struct oq_diags *d)
{
	return d->n_errors != 0;
}

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_DIAG_H */
