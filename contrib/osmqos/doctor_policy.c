// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos doctor`: the policy as the SM's other inputs see it.  Under
 * opensm_policy=direct OpenSM's own parser reads the operator's file, so
 * stock OpenSM's verdict on it (the model `osmqos check` uses) is the
 * SA's policy.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include <osmqos/stock.h>

#include "doctor.h"

/* The first diagnostic of d at sev (sorted, root causes first) into
 * buf; false when there is none. */
static bool first_of(struct oq_diags *d, enum oq_severity sev, char *buf,
		     size_t len)
{
	size_t i;

	oq_diags_sort(d);
	for (i = 0; i < d->n; i++)
		if (d->v[i].sev == sev) {
			oq_diag_format(&d->v[i], buf, len);
			return true;
		}
	return false;
}

int doctor_stock(struct doctor_report *r, const struct oq_policy *p)
{
	struct oq_diags d;
	struct oq_stock *s;
	char first[1024] = "", fix[768];
	int v;

	oq_diags_init(&d);
	s = oq_stock_read(p->file, p->text, p->text_len, NULL);
	v = s ? oq_stock_verdict(s, p, &d) : -1;
	oq_stock_free(s);
	if (v == OQ_STOCK_AS_WRITTEN) {
		oq_diags_free(&d);
		return 0;
	}
	if (v < 0) {
		doctor_check(r, DOCTOR_WARN, "policy",
			     "free some memory and run it again",
			     "out of memory reading %s as stock OpenSM would",
			     p->file);
		oq_diags_free(&d);
		return 1;
	}
	first_of(&d, OQ_SEV_WARNING, first, sizeof(first));
	snprintf(fix, sizeof(fix),
		 "`osmqos check %s` shows each construct; rewrite them as "
		 "`osmqos export -p %s` writes them, or drop "
		 "opensm_policy=direct (OpenSM then reads the plugin's copy)",
		 p->file, p->file);
	doctor_check(r, DOCTOR_WARN, "policy", fix,
		     "%s: stock %s %s; under opensm_policy=direct OpenSM "
		     "parses it itself (its SA answers from what it reads) "
		     "while osmqos applies it%s%s",
		     p->file, OQ_STOCK_OPENSM, oq_stock_verdict_text(v),
		     first[0] ? "; first: " : "", first);
	oq_diags_free(&d);
	return 1;
}
