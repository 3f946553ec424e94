// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Name lookups in a parsed policy: case-insensitive, and blind to the
 * groups and levels qos-ulps generated (no operator can name them).
 */
#include <strings.h>

#include <osmqos/policy.h>

int oq_policy_find_group(const struct oq_policy *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n_groups; i++)
		if (!p->groups[i].from_ulp && p->groups[i].name &&
		    !strcasecmp(p->groups[i].name, name))
			return (int)i;
	return -1;
}

int oq_policy_find_level(const struct oq_policy *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n_levels; i++)
		if (!p->levels[i].from_ulp && p->levels[i].name &&
		    !strcasecmp(p->levels[i].name, name))
			return (int)i;
	return -1;
}
