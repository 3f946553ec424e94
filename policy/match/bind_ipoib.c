// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * qos-ulps `ipoib` lines against the fabric's partitions.  OpenSM 3.3.23's
 * parser (__validate_pkeys with is_ipoib) rejects the whole policy file
 * when any P_Key of such a line has no partition, or a partition with
 * fewer than two full members: its SA and multicast then run without a
 * policy, every sweep, until the partitions change.  The plugin still
 * applies the policy; the error says what OpenSM does.
 */
#include <stdlib.h>

#include <osmqos/match.h>
#include <osmqos/policy.h>

#define PKEYS 0x8000

/* Full members per P_Key (15 bits) over the end ports; NULL when no end
 * port has a partition table (the input does not say). */
static unsigned int *full_members(const struct oq_fabric *f)
{
	unsigned int *n;
	bool any = false;
	size_t i, k;

	n = calloc(PKEYS, sizeof(*n));
	if (!n)
		return NULL;
	for (i = 0; i < f->n_ports; i++) {
		const struct oq_port *p = f->ports[i];
		const uint16_t *pk;
		size_t n_pk;

		if (!oq_port_is_endport(p))
			continue;
		pk = oq_port_pkeys(f, p, &n_pk);
		for (k = 0; k < n_pk; k++) {
			any = true;
			if (pk[k] & OQ_PKEY_FULL)
				n[pk[k] & OQ_PKEY_MASK]++;
		}
	}
	if (!any) {
		free(n);
		return NULL;
	}
	return n;
}

static bool partition_exists(const struct oq_partitions *parts, unsigned key)
{
	size_t i;

	for (i = 0; i < parts->n; i++)
		if (parts->v[i].pkey == key)
			return true;
	return false;
}

/* The first P_Key of the rule OpenSM refuses: *why 0 no partition, else
 * the number of full members + 1.  Returns -1 when all pass. */
static long refused_pkey(const struct oq_match_rule *r,
			 const struct oq_partitions *parts,
			 const unsigned int *full, unsigned int *why)
{
	unsigned char *seen = calloc(PKEYS, 1);
	long bad = -1;
	size_t i;

	if (!seen)
		return -2;
	for (i = 0; i < r->pkeys.n && bad < 0; i++) {
		uint64_t n, lo = r->pkeys.v[i].lo, span = r->pkeys.v[i].hi - lo;

		/* OpenSM walks every value of the range, 15 bits each: at
		 * most 0x8000 distinct keys. */
		if (span >= PKEYS)
			span = PKEYS - 1;
		for (n = 0; n <= span && bad < 0; n++) {
			unsigned int key =
				(unsigned int)((lo + n) & OQ_PKEY_MASK);

			if (seen[key])
				continue;
			seen[key] = 1;
			if (!partition_exists(parts, key)) {
				*why = 0;
				bad = key;
			} else if (full && full[key] < 2) {
				*why = full[key] + 1;
				bad = key;
			}
		}
	}
	free(seen);
	return bad;
}

int oq_check_ipoib_partitions(const struct oq_policy *p,
			      const struct oq_fabric *f,
			      const struct oq_partitions *parts,
			      struct oq_diags *diags)
{
	unsigned int *full = NULL, why;
	bool counted = false;
	size_t r;

	/* The SM's partitions are not known, or not yet: OpenSM's table is
	 * empty before its first pkey manager run (it always has Default
	 * after it). */
	if (!parts || !parts->n)
		return 0;
	for (r = 0; r < p->n_rules; r++) {
		const struct oq_match_rule *rule = &p->rules[r];
		struct oq_diag *d;
		long key;

		if (!rule->ipoib)
			continue;
		if (!counted) {
			full = f ? full_members(f) : NULL;
			counted = true;
		}
		key = refused_pkey(rule, parts, full, &why);
		if (key == -2) {
			free(full);
			return -1;
		}
		if (key < 0)
			continue;
		if (!why)
			d = oq_error(diags, rule->loc,
				     "qos-ulps ipoib: partition 0x%04lx does "
				     "not exist; OpenSM then rejects the whole "
				     "policy file",
				     key);
		else
			d = oq_error(
				diags, rule->loc,
				"qos-ulps ipoib: partition 0x%04lx has %u "
				"full member(s), fewer than the two "
				"OpenSM requires of an IPoIB partition; it "
				"then rejects the whole policy file",
				key, why - 1);
		oq_diag_hint(d, "check against the SM's partitions.conf "
				"(--partitions), define the partition there "
				"with at least two full members, or drop the "
				"line (osmqos applies the policy; OpenSM's own "
				"SA and multicast run without one)");
	}
	free(full);
	return 0;
}
