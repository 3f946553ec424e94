// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/* Small text helpers: see include/osmqos/text.h. */
#include <ctype.h>
#include <string.h>

#include <osmqos/text.h>

/* The table's comparisons carry no parser logic, yet under libFuzzer's
 * coverage tracing they were most of the policy fuzzer's time and filled
 * its corpus with distance values; fuzz builds leave them untraced. */
#if defined(__clang__) && __clang_major__ >= 13
#define OQ_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define OQ_NO_COVERAGE
#endif

OQ_NO_COVERAGE
unsigned int oq_text_distance(const char *a, const char *b, unsigned int limit)
{
	unsigned int row[OQ_TEXT_DISTANCE_MAX + 1], i, j;
	size_t la = strlen(a), lb = strlen(b);

	if (la >= OQ_TEXT_DISTANCE_MAX || lb >= OQ_TEXT_DISTANCE_MAX)
		return 99;
	/* The distance is at least the length difference. */
	if (la > lb + limit || lb > la + limit)
		return (unsigned int)(la > lb ? la - lb : lb - la);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		unsigned int diag = row[0], tmp, low;

		row[0] = i;
		low = i;
		for (j = 1; j <= lb; j++) {
			unsigned int best =
				diag + (tolower((unsigned char)a[i - 1]) !=
					tolower((unsigned char)b[j - 1]));

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			tmp = row[j];
			row[j] = best;
			diag = tmp;
			if (best < low)
				low = best;
		}
		/* Rows never decrease their minimum: nothing below limit
		 * can come out of this table any more. */
		if (low >= limit)
			return limit;
	}
	return row[lb];
}
