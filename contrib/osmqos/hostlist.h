/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Host lists as Slurm writes them (SLURM_JOB_NODELIST, `scontrol show
 * hostnames`): names separated by commas or blanks, each with any number
 * of bracketed ranges, "cn[01-04,07]", "r[1-2]n[01-16]".  A range keeps
 * the width of its lower bound ("[08-10]" gives 08 09 10).  Pure code: no
 * I/O, every limit checked before anything is allocated.
 */
#ifndef OSMQOS_HOSTLIST_H
#define OSMQOS_HOSTLIST_H

#include <stddef.h>

/* At most this many hosts in one list (a job of 100k nodes fits). */
#define OQ_HOSTLIST_MAX_HOSTS 1000000
/* A host name longer than this is no host name (DNS allows 253). */
#define OQ_HOSTLIST_NAME_MAX 255

struct oq_hostlist {
	char **v; /* malloc'ed names */
	size_t n, cap;
};

/*
 * Append the hosts expr names to hl (at most max in all, 0 for
 * OQ_HOSTLIST_MAX_HOSTS).  Host names are ASCII letters, digits, '-', '_'
 * and '.'.  Returns 0, or -1 with a sentence in err that names the byte
 * offset (1-based) where the expression goes wrong; hl keeps what it had
 * before the call.
 */
int oq_hostlist_add(struct oq_hostlist *hl, const char *expr, size_t max,
		    char *err, size_t errlen);
/* Sort (case-insensitively: host names are) and drop duplicates. */
void oq_hostlist_uniq(struct oq_hostlist *hl);
void oq_hostlist_free(struct oq_hostlist *hl);

#endif /* OSMQOS_HOSTLIST_H */
