// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * What a policy holds, in one line: `osmqos check` prints it and the
 * plugin logs it when it loads a policy, so the two count alike (the
 * groups, levels and rules qos-ulps lines generate counted apart).
 */
#include <stdio.h>

#include <osmqos/policy.h>

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

int oq_policy_counts(const struct oq_policy *p, char *buf, size_t len)
{
	size_t g = p->n_explicit_groups, l = p->n_explicit_levels;
	size_t r = p->n_explicit_rules;
	char ug[48] = "", ul[48] = "", ur[48] = "";

	if (p->n_groups > g)
		snprintf(ug, sizeof(ug), " (+%zu from qos-ulps)",
			 p->n_groups - g);
	if (p->n_levels > l)
		snprintf(ul, sizeof(ul), " (+%zu from qos-ulps)",
			 p->n_levels - l);
	if (p->n_rules > r)
		snprintf(ur, sizeof(ur), " (+%zu from qos-ulps)",
			 p->n_rules - r);
	return snprintf(buf, len,
			"%zu port group%s%s, %zu qos-level%s%s, %zu match "
			"rule%s%s, %zu vlarb-scope%s, %zu sl2vl-scope%s",
			g, plural(g), ug, l, plural(l), ul, r, plural(r), ur,
			p->n_vlarb, plural(p->n_vlarb), p->n_sl2vl,
			plural(p->n_sl2vl));
}
