/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Advice the plugin's log and the CLI give alike: one wording per
 * situation, so an operator who read it in opensm's log finds the same
 * words in `osmqos status` and `osmqos doctor`.
 */
#ifndef OSMQOS_ADVICE_H
#define OSMQOS_ADVICE_H

/* OpenSM's own parser refuses a policy file osmqos takes: the usual cause
 * and the way out (osmqos-plugin(8), opensm_policy=). */
#define OQ_ADVICE_OPENSM_REFUSED                                               \
	"usually a qos-ulps ipoib line whose partition the partitions file "  \
	"no longer defines, or gives fewer than two full members: define "   \
	"the partition again or drop the line, then `kill -HUP` opensm"

#endif /* OSMQOS_ADVICE_H */
