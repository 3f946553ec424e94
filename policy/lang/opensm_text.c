// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The policy text as OpenSM's own parser is given it.  OpenSM re-parses
 * the policy in every sweep (for multicast, off-subnet and enable_quirks
 * requests); its flex lexer knows only ' ', '\t' and '\n' as blanks, so a
 * file saved with CRLF endings, or with a CR, FF or VT between words, blinds
 * it (ERR AC03) while osmqos reads those as blanks.  The copy osmqos hands
 * OpenSM drops the CR of each CRLF and makes the other three spaces;
 * nothing else changes, so OpenSM's line and column numbers still match
 * the operator's file.  A last line without its newline gets one: OpenSM's
 * scanner takes a comment only up to a newline, and rejects one at the
 * very end of the file.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <osmqos/policy.h>

char *oq_policy_opensm_text(const char *text, size_t len, size_t *out_len)
{
	char *out = malloc(len + 2);
	size_t i, n = 0;

	if (!out)
		return NULL;
	for (i = 0; i < len; i++) {
		char c = text[i];

		if (c == '\r' && i + 1 < len && text[i + 1] == '\n')
			continue;
		out[n++] = c == '\r' || c == '\f' || c == '\v' ? ' ' : c;
	}
	if (n && out[n - 1] != '\n')
		out[n++] = '\n';
	out[n] = '\0';
	*out_len = n;
	return out;
}

char *oq_policy_opensm_copy(const struct oq_policy *p, size_t *out_len)
{
	size_t i, n = 0, at = 0, len;
	char *buf, *out;

	if (!p->n_ext_lines)
		return oq_policy_opensm_text(p->text, p->text_len, out_len);
	buf = malloc(p->text_len + 2 * p->n_ext_lines + 1);
	if (!buf)
		return NULL;
	/* ext_lines are in file order, one per key line. */
	for (i = 0; i < p->n_ext_lines; i++) {
		size_t s = p->ext_lines[i].start;

		/* After the indentation: "    # bandwidth: 40%". */
		while (s < p->ext_lines[i].end &&
		       (p->text[s] == ' ' || p->text[s] == '\t'))
			s++;
		if (s < at || s > p->text_len)
			continue;
		memcpy(buf + n, p->text + at, s - at);
		n += s - at;
		memcpy(buf + n, "# ", 2);
		n += 2;
		at = s;
	}
	memcpy(buf + n, p->text + at, p->text_len - at);
	n += p->text_len - at;
	out = oq_policy_opensm_text(buf, n, &len);
	free(buf);
	if (out)
		*out_len = len;
	return out;
}
