/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Private to the matchers: the sparse matcher (matcher_sparse.c) that
 * matcher.c uses for policies too large for its bitsets.
 */
#ifndef OSMQOS_MATCHER_INT_H
#define OSMQOS_MATCHER_INT_H

#include "match_int.h"

struct oq_sparse;

struct oq_sparse *oq_sparse_compile(const struct oq_binding *b);
void oq_sparse_free(struct oq_sparse *s);
/* The lowest rule that matches q (oq_match_naive's rule), or -1. */
int oq_sparse_match(const struct oq_sparse *s, const struct oq_query *q);

#endif /* OSMQOS_MATCHER_INT_H */
