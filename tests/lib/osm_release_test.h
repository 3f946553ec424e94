/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The OpenSM releases osmqos answers for, as their headers state them
 * (include/iba/ib_types.h IB_MAX_RATE and IB_LINK_SPEED_EXT_ACTIVE_100,
 * osm_subn_opt_t.max_rate_enum): configure reads the same facts from the
 * headers a build uses.  Tests select one with oq_osm_release_use(), so
 * they check both releases whichever one the build is for.
 */
#ifndef OSMQOS_TEST_OSM_RELEASE_H
#define OSMQOS_TEST_OSM_RELEASE_H

#include <osmqos/osm_release.h>

static const struct oq_osm_release osm_3_3_23 = {
	.name = "OpenSM 3.3.23",
	.rate_max = 22,
	.speed_ndr = false,
	.sa_max_rate_enum = false,
};

static const struct oq_osm_release osm_3_3_24 = {
	.name = "OpenSM 3.3.24",
	.rate_max = 24,
	.speed_ndr = true,
	.sa_max_rate_enum = true,
};

#endif /* OSMQOS_TEST_OSM_RELEASE_H */
