// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* libFuzzer target: the policy parser and validator, and the stock OpenSM
 * model with its comparison, on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <osmqos/policy.h>
#include <osmqos/stock.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oq_diags d;
	struct oq_policy *p;
	struct oq_stock *s;
	char buf[512];
	size_t i;

	oq_diags_init(&d);
	p = oq_policy_parse("fuzz.conf", (const char *)data, size, &d);
	if (p) {
		oq_policy_validate(p, &d);
		/* Touch what consumers read: ranges and resolved indexes. */
		for (i = 0; i < p->n_rules; i++) {
			(void)oq_ranges_contains(&p->rules[i].service_ids,
						 0x10000);
			if (p->rules[i].level.idx >= (int)p->n_levels)
				__builtin_trap();
		}
		if (p->default_level >= (int)p->n_levels)
			__builtin_trap();
	}
	/* The model of OpenSM's parser reads anything, and its reading
	 * holds together: every rule's groups and level exist. */
	s = oq_stock_read("fuzz.conf", (const char *)data, size, NULL);
	if (s) {
		for (i = 0; s->outcome == OQ_STOCK_TAKES && i < s->n_rules;
		     i++) {
			size_t j;

			if (s->rules[i].level >= s->n_levels)
				__builtin_trap();
			for (j = 0; j < s->rules[i].n_src; j++)
				if (s->rules[i].src[j] >= s->n_groups)
					__builtin_trap();
		}
		(void)oq_stock_verdict(s,
				       p && !oq_diags_has_errors(&d) ? p : NULL,
				       &d);
		oq_stock_free(s);
	}
	oq_diags_sort(&d);
	for (i = 0; i < d.n; i++)
		oq_diag_format(&d.v[i], buf, sizeof(buf));
	oq_diags_free(&d);
	oq_policy_free(p);
	return 0;
}
