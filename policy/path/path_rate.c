// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * PathRecord rates as OpenSM computes, compares and limits them:
 * ib_port_info_compute_rate() (include/iba/ib_types.h),
 * ib_path_compare_rates() / ib_path_rate_get_prev() over the
 * ordered_rates[] table and ib_path_get_reduced_rate()
 * (libopensm/osm_helper.c), osm_sa_limit_rate() (opensm/osm_sa.c), in
 * the release in force (osmqos/osm_release.h): 3.3.24 adds the rates 23
 * and 24 (800, 1200 Gb/s), the NDR lane speed and max_rate_enum.
 * OpenSM's order is not the nominal one: 12x SDR (30 Gb/s) ranks below
 * 4x EDR's 1x lane (25), 12x DDR (60) below 2x HDR (50), 12x QDR (120)
 * below 4x EDR (100).  A path minimum taken in nominal order would
 * differ from OpenSM's.
 */
#include <osmqos/model.h>
#include <osmqos/osm_release.h>
#include <osmqos/path.h>

/* Rank of each PathRecord rate enum 2..24 in OpenSM's order. */
static const uint8_t rank[OQ_RATE_MAX + 1] = {
	[2] = 1,   [3] = 3,   [4] = 6,	 [5] = 2,   [6] = 5,   [7] = 9,
	[8] = 10,  [9] = 13,  [10] = 14, [11] = 4,  [12] = 12, [13] = 16,
	[14] = 17, [15] = 7,  [16] = 15, [17] = 18, [18] = 19, [19] = 8,
	[20] = 11, [21] = 20, [22] = 21, [23] = 22, [24] = 23,
};

/* A rate the release does not know (above its IB_MAX_RATE) ranks 0, as
 * in ib_path_compare_rates(). */
static int rank_of(uint8_t r)
{
	return r <= oq_osm_release()->rate_max ? rank[r] : 0;
}

bool oq_path_rate_valid(uint8_t rate)
{
	return rate >= OQ_RATE_MIN && rate <= oq_osm_release()->rate_max;
}

int oq_path_rate_cmp(uint8_t a, uint8_t b)
{
	int x = rank_of(a), y = rank_of(b);

	return x < y ? -1 : x > y;
}

uint8_t oq_path_rate_prev(uint8_t rate)
{
	uint8_t max = oq_osm_release()->rate_max;
	int want, r;

	if (rate <= OQ_RATE_MIN || rate > max)
		return 0;
	want = rank[rate] - 1;
	for (r = OQ_RATE_MIN; r <= max; r++)
		if (rank[r] == want)
			return (uint8_t)r;
	return 0;
}

/*
 * osm_sa_limit_rate(): only a rate whose enum is above the limit's is
 * reduced, to the first rate below it in OpenSM's order whose enum and
 * rank are both at most the limit's (ib_path_get_reduced_rate()).  A
 * rate faster than the limit but with a lower enum (30 Gb/s, enum 4,
 * under max_rate_enum 15, 25 Gb/s) passes unchanged, as in OpenSM.
 */
uint8_t oq_path_rate_limit(uint8_t rate, uint8_t limit)
{
	int lim = rank_of(limit);
	uint8_t i;

	if (limit >= rate)
		return rate;
	i = oq_path_rate_prev(rate);
	while (i > OQ_RATE_MIN && (rank_of(i) > lim || i > limit))
		i = oq_path_rate_prev(i);
	return i ? i : OQ_RATE_MIN;
}

/* Columns: 1x, 4x, 8x, 12x, 2x, and anything else (OpenSM's default:
 * the 1x rate). */
enum { W1, W4, W8, W12, W2, WOTHER, NW };

static int width_col(uint8_t w)
{
	switch (w) {
	case 1:
		return W1;
	case 2:
		return W2;
	case 4:
		return W4;
	case 8:
		return W8;
	case 12:
		return W12;
	}
	return WOTHER;
}

/*
 * Rows by speed.  FDR/EDR/HDR/NDR are the extended speeds
 * (LinkSpeedExtActive 14/25/50/100 Gb/s); FDR10 is a vendor extension
 * OpenSM does not know, so its LinkSpeedActive (QDR) decides.  A release
 * without NDR (3.3.23) decodes LinkSpeedExtActive 8 as no extended speed
 * (oq_speed_from_ib()), so NDR reaches this table only from a topology
 * file: its rate is then the 2.5 Gb/s default.
 */
static const uint8_t rate_tab[][NW] = {
	[OQ_SPEED_UNKNOWN] = {2, 2, 2, 2, 2, 2},
	[OQ_SPEED_SDR] = {2, 3, 6, 4, 5, 2},
	[OQ_SPEED_DDR] = {5, 6, 7, 8, 3, 5},
	[OQ_SPEED_QDR] = {3, 7, 9, 10, 6, 3},
	[OQ_SPEED_FDR10] = {3, 7, 9, 10, 6, 3},
	[OQ_SPEED_FDR] = {11, 12, 13, 14, 19, 11},
	[OQ_SPEED_EDR] = {15, 16, 17, 18, 20, 15},
	[OQ_SPEED_HDR] = {20, 17, 21, 22, 16, 20},
	[OQ_SPEED_NDR] = {16, 21, 23, 24, 17, 16},
};

uint8_t oq_path_port_rate(const struct oq_port *p)
{
	unsigned int s;

	if (!p)
		return OQ_RATE_MIN;
	s = (unsigned int)p->speed;
	if (s >= sizeof(rate_tab) / sizeof(rate_tab[0]) ||
	    (s == OQ_SPEED_NDR && !oq_osm_release()->speed_ndr))
		s = OQ_SPEED_UNKNOWN;
	return rate_tab[s][width_col(p->width)];
}
