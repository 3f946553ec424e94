// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Helpers of the parser, validator and qos-ulps unit tests
 * (policy_test_util.h). */
#include "policy_test_util.h"

void parse_text(struct parsed *r, const char *text, bool validate)
{
	oq_diags_init(&r->d);
	r->p = oq_policy_parse("t.conf", text, strlen(text), &r->d);
	assert_non_null(r->p);
	if (validate)
		oq_policy_validate(r->p, &r->d);
}

void parsed_free(struct parsed *r)
{
	oq_diags_free(&r->d);
	oq_policy_free(r->p);
}

void dump_diags(const struct oq_diags *d)
{
	oq_diags_print(d, stderr);
}

bool has_diag(const struct oq_diags *d, enum oq_severity sev, unsigned int line,
	      unsigned int col, const char *sub)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].sev == sev && (!line || d->v[i].loc.line == line) &&
		    (!col || d->v[i].loc.col == col) &&
		    strstr(d->v[i].msg, sub))
			return true;
	return false;
}

void assert_range(const struct oq_ranges *r, size_t i, uint64_t lo, uint64_t hi)
{
	assert_true(i < r->n);
	assert_int_equal(r->v[i].lo, lo);
	assert_int_equal(r->v[i].hi, hi);
}

size_t count_unused(const struct oq_diags *d)
{
	size_t i, n = 0;

	for (i = 0; i < d->n; i++)
		n += d->v[i].code && !strncmp(d->v[i].code, "unused-", 7);
	return n;
}
