/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Small text helpers shared by the parsers and the CLI: the edit distance
 * behind every "did you mean" hint.
 */
#ifndef OSMQOS_TEXT_H
#define OSMQOS_TEXT_H

/*
 * Levenshtein distance of a and b, ASCII case-insensitive, for "did you
 * mean" hints.  Only distances below limit matter to the callers: once
 * every cell of a row reaches limit the answer is "limit or more" and the
 * table stops.  Strings of OQ_TEXT_DISTANCE_MAX bytes or more are far
 * from everything (99).
 */
#define OQ_TEXT_DISTANCE_MAX 127
unsigned int oq_text_distance(const char *a, const char *b, unsigned int limit);

#endif /* OSMQOS_TEXT_H */
