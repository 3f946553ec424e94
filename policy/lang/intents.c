// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Intents (the osmqos keys bandwidth:, latency: and priority: of a
 * qos-level): checks that need no fabric, and their sum per SL.  Whether a
 * fabric's ports can meet them is the synthesizer's question
 * (policy/synth/); docs/intents.md says what they mean.
 */
#include <string.h>

#include <osmqos/policy.h>

#include "validate_int.h"

static bool has_intent(const struct oq_qos_level *l)
{
	return l->bandwidth_bp > 0 || l->priority_loc.line || l->latency_ns;
}

bool oq_policy_intents(const struct oq_policy *p, struct oq_sl_intents *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < 16; i++)
		out->level[i] = out->lat_level[i] = -1;
	for (i = 0; i < p->n_levels; i++) {
		const struct oq_qos_level *l = &p->levels[i];
		unsigned int s = (unsigned int)l->sl;

		if ((l->bandwidth_bp <= 0 && !l->latency_ns) || l->sl < 0 ||
		    l->sl > 15)
			continue;
		if (l->bandwidth_bp > 0) {
			out->need_bp[s] += (uint32_t)l->bandwidth_bp;
			out->total_bp += (uint32_t)l->bandwidth_bp;
		}
		if (l->latency_ns &&
		    (!out->lat_ns[s] || l->latency_ns < out->lat_ns[s])) {
			out->lat_ns[s] = l->latency_ns;
			out->lat_level[s] = (int)i;
		}
		out->sls |= (uint16_t)(1u << s);
		if (l->prio_high)
			out->high |= (uint16_t)(1u << s);
		if (out->level[s] < 0)
			out->level[s] = (int)i;
	}
	return out->sls != 0;
}

uint16_t oq_policy_granted_sls(const struct oq_policy *p)
{
	uint16_t m = 1;
	size_t i;

	for (i = 0; i < p->n_levels; i++)
		if (p->levels[i].sl >= 0 && p->levels[i].sl <= 15)
			m |= (uint16_t)(1u << p->levels[i].sl);
	return m;
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
		if (l->bandwidth_bp <= 0)
			continue;
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
