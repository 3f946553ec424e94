/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Diagnostics: every problem found in an input is collected here with its
 * source location, so that one run reports all of them, GCC style:
 *
 *	FILE:LINE:COL: error: text
 *	FILE:LINE:COL: warning: text
 *	  hint: text
 *
 * The policy core never prints; callers decide where diagnostics go (stderr
 * for the CLI, the OpenSM log for the plugin) with oq_diag_foreach().
 */
#ifndef OSMQOS_DIAG_H
#define OSMQOS_DIAG_H

#include <stdarg.h>
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
};

struct oq_diags {
	struct oq_diag *v;
	size_t n, cap;
	size_t n_errors, n_warnings;
	size_t max; /* stop collecting after this many (0 = 1000) */
	size_t n_dropped;
};

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

#define oq_error(d, loc, ...) oq_diag_add(d, OQ_SEV_ERROR, loc, __VA_ARGS__)
#define oq_warning(d, loc, ...) \
	oq_diag_add(d, OQ_SEV_WARNING, loc, __VA_ARGS__)

/* Sort by file, line, column (stable), for a readable report. */
void oq_diags_sort(struct oq_diags *d);

/* Format one diagnostic as "FILE:LINE:COL: error: text" (no newline, no
 * hint) into buf; returns what snprintf returns. */
int oq_diag_format(const struct oq_diag *diag, char *buf, size_t len);
/* "FILE:LINE:COL" of a location ("?" for no file). */
void oq_loc_format(const struct oq_loc *loc, char *buf, size_t len);

/* Print every diagnostic (and its hint on a following line) to a stdio
 * stream given as void * so this header stays free of <stdio.h>. */
void oq_diags_print(const struct oq_diags *d, void *stdio_file);

static inline int oq_diags_has_errors(const struct oq_diags *d)
{
	return d->n_errors != 0;
}

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_DIAG_H */
