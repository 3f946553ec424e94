// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* libFuzzer target: the policy parser and validator on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <osmqos/policy.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct oq_diags d;
	struct oq_policy *p;
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
	oq_diags_sort(&d);
	for (i = 0; i < d.n; i++)
		oq_diag_format(&d.v[i], buf, sizeof(buf));
	oq_diags_free(&d);
	oq_policy_free(p);
	return 0;
}
