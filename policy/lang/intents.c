// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Bandwidth intents (the osmqos keys bandwidth: and priority: of a
 * qos-level): checks that need no fabric, and their sum per SL.  Whether a
 * fabric's ports can meet them is the synthesizer's question
 * (policy/synth/); docs/intents.md says what they mean.
 */
#include <string.h>

#include <osmqos/policy.h>

#include "validate_int.h"

static bool has_intent(const struct oq_qos_level *l)
{
	return l->bandwidth_bp > 0 || l->priority_loc.line;
}

bool oq_policy_intents(const struct oq_policy *p, struct oq_sl_intents *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < 16; i++)
		out->level[i] = -1;
	for (i = 0; i < p->n_levels; i++) {
		const struct oq_qos_level *l = &p->levels[i];

		if (l->bandwidth_bp <= 0 || l->sl < 0 || l->sl > 15)
			continue;
		out->need_bp[l->sl] += (uint32_t)l->bandwidth_bp;
		out->total_bp += (uint32_t)l->bandwidth_bp;
		out->sls |= (uint16_t)(1u << l->sl);
		if (l->prio_high)
			out->high |= (uint16_t)(1u << l->sl);
		if (out->level[l->sl] < 0)
			out->level[l->sl] = (int)i;
	}
	return out->sls != 0;
}

static const char *lname(const struct oq_qos_level *l)
{
	return l->name ? l->name : "(unnamed)";
}

void oq_check_intents(struct oq_policy *p, struct oq_diags *d)
{
	int prio_of[16], first[16];
	uint32_t total = 0;
	size_t i;
	bool over = false;

	p->n_intent_levels = 0;
	for (i = 0; i < 16; i++)
		prio_of[i] = first[i] = -1;
	for (i = 0; i < p->n_levels; i++) {
		struct oq_qos_level *l = &p->levels[i];
		struct oq_diag *dg;
		int hi = l->prio_high;

		if (!has_intent(l))
			continue;
		p->n_intent_levels++;
		if (l->sl < 0) /* an error of its own already */
			continue;
		if (l->prio_high && l->bandwidth_bp <= 0) {
			dg = oq_error(d, l->priority_loc,
				      "qos-level '%s' is priority: high "
				      "without bandwidth:",
				      lname(l));
			oq_diag_hint(dg, "a high-priority level needs "
					 "'bandwidth: N%%': its guarantee and "
					 "the most it takes from the others");
			continue;
		}
		if (l->bandwidth_bp <= 0)
			continue;
		if (prio_of[l->sl] >= 0 && prio_of[l->sl] != hi) {
			dg = oq_error(d, l->loc,
				      "qos-level '%s' and '%s' share SL %d "
				      "but not their priority",
				      lname(l), lname(&p->levels[first[l->sl]]),
				      l->sl);
			oq_diag_hint(dg, "one SL is served from one table: "
					 "give both the same priority, or "
					 "different SLs");
			continue;
		}
		prio_of[l->sl] = hi;
		if (first[l->sl] < 0)
			first[l->sl] = (int)i;
		total += (uint32_t)l->bandwidth_bp;
		if (total > 10000 && !over) {
			over = true;
			dg = oq_error(d, l->bandwidth_loc,
				      "bandwidth intents add up to more than "
				      "100%% at qos-level '%s' (%u.%02u%% so "
				      "far)",
				      lname(l), total / 100, total % 100);
			oq_diag_hint(dg, "every guarantee holds with every "
					 "level busy at once: lower them so "
					 "they add up to at most 100%%");
		}
	}
}
