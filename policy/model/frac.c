// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Exact fractions: every share the model computes is a ratio of integers
 * (weights, packet sizes, cycle lengths), kept exact so that a guarantee
 * is compared, not rounded.  Doubles only for display.
 */
#include <stdio.h>

#include <osmqos/model.h>

uint64_t oq_gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

struct oq_frac oq_frac_make(uint64_t num, uint64_t den)
{
	struct oq_frac f = {0, 1};
	uint64_t g;

	if (!den || !num)
		return f;
	g = oq_gcd_u64(num, den);
	f.num = num / g;
	f.den = den / g;
	return f;
}

double oq_frac_double(struct oq_frac f)
{
	return f.den ? (double)f.num / (double)f.den : 0.0;
}

int oq_frac_format(struct oq_frac f, char *buf, size_t len)
{
	if (f.num == 0)
		return snprintf(buf, len, "0");
	if (f.den == 1)
		return snprintf(buf, len, "%llu", (unsigned long long)f.num);
	return snprintf(buf, len, "%llu/%llu", (unsigned long long)f.num,
			(unsigned long long)f.den);
}

int oq_frac_cmp(struct oq_frac a, struct oq_frac b)
{
	unsigned __int128 l = (unsigned __int128)a.num * b.den;
	unsigned __int128 r = (unsigned __int128)b.num * a.den;

	return l < r ? -1 : l > r ? 1 : 0;
}
