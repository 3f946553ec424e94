// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The count of allocations the path and SA code could not make on this
 * thread (osmqos/path.h): per thread because each SA dispatcher thread
 * compares it around its own answer.
 */
#include <osmqos/path.h>

static __thread unsigned long alloc_failures;

unsigned long oq_alloc_failures(void)
{
	return alloc_failures;
}

void oq_alloc_failure_note(void)
{
	alloc_failures++;
}
