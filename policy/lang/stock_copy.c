// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What OpenSM's own parser is handed for a valid policy.  OpenSM re-reads
 * the policy every sweep for the requests it still answers itself; a file
 * osmqos reads one way and OpenSM's scanner another (a quoted node-type,
 * a name that is one of its keywords, a list continued on the next line,
 * an empty use:) would leave OpenSM with no policy, or another one.  The
 * file as written is kept where the stock model reads it as osmqos does,
 * so OpenSM's line numbers stay the operator's; otherwise the policy is
 * written again in the one form of each construct OpenSM reads as meant,
 * and that is checked the same way.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <osmqos/stock.h>

/* Does stock OpenSM read text as osmqos reads p?  -1 out of memory; why
 * gets the model's first finding otherwise, and *content whether it is
 * the content's (a loop too long, a string too long), which no other
 * form of the same policy escapes. */
static int read_alike(const struct oq_policy *p, const char *file,
		      const char *text, size_t len, char *why, size_t why_len,
		      bool *content)
{
	struct oq_stock *s = oq_stock_read(file, text, len, NULL);
	struct oq_diags d;
	int v;

	if (!s)
		return -1;
	oq_diags_init(&d);
	v = oq_stock_verdict(s, p, &d);
	if (v < 0) {
		oq_stock_free(s);
		oq_diags_free(&d);
		return -1;
	}
	*content =
		s->outcome == OQ_STOCK_STALLS || s->outcome == OQ_STOCK_ABORTS;
	/* Where OpenSM's parser stops, in its words; else the first
	 * construct it reads otherwise. */
	if (v != OQ_STOCK_AS_WRITTEN && why_len) {
		if (s->outcome != OQ_STOCK_TAKES)
			snprintf(why, why_len, "%s:%u:%u: its parser %s: %s",
				 file, s->where.line, s->where.col,
				 s->outcome == OQ_STOCK_REJECTS ? "stops"
				 : s->outcome == OQ_STOCK_ABORTS
					 ? "aborts the SM"
					 : "loops",
				 s->why);
		else if (d.n)
			oq_diag_format(&d.v[0], why, why_len);
		else
			snprintf(why, why_len, "stock %s %s", OQ_STOCK_OPENSM,
				 oq_stock_verdict_text(v));
	}
	oq_stock_free(s);
	oq_diags_free(&d);
	return v == OQ_STOCK_AS_WRITTEN;
}

/* p written again for stock OpenSM, in memory. */
static char *rewrite(const struct oq_policy *p, size_t *out_len)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	int rc;

	if (!m)
		return NULL;
	rc = oq_stock_write(m, p,
			    "# osmqos: the policy in force, written again in "
			    "the form OpenSM's own\n# parser reads as osmqos "
			    "does (the file as written it would not).\n\n");
	if (fclose(m) || rc) {
		free(text);
		return NULL;
	}
	*out_len = len;
	return text;
}

char *oq_stock_copy(const struct oq_policy *p, size_t *out_len,
		    enum oq_stock_copy_form *form, char *why, size_t why_len)
{
	char *text = oq_policy_opensm_copy(p, out_len), ignored[8];
	bool content;
	size_t len;
	int rc;

	if (why_len)
		why[0] = '\0';
	*form = OQ_COPY_AS_WRITTEN;
	if (!text)
		return NULL;
	rc = read_alike(p, p->file, text, *out_len, why, why_len, &content);
	if (rc > 0)
		return text;
	free(text);
	if (!rc && content)
		return NULL;
	if (rc < 0 || !(text = rewrite(p, &len))) {
		if (why_len)
			why[0] = '\0';
		return NULL;
	}
	/* Its findings would point into the rewriting: the file's first
	 * finding, already in why, says more. */
	rc = read_alike(p, "OpenSM's copy", text, len, ignored, sizeof(ignored),
			&content);
	if (rc > 0) {
		*form = OQ_COPY_REWRITTEN;
		*out_len = len;
		return text;
	}
	free(text);
	if (rc < 0 && why_len)
		why[0] = '\0';
	return NULL;
}
