// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * The OpenSM release in force (osmqos/osm_release.h).  configure puts
 * what the OpenSM headers say into config.h: OQ_OSM_VERSION (OSM_VERSION),
 * OQ_OSM_RATE_MAX (IB_MAX_RATE), HAVE_DECL_IB_LINK_SPEED_EXT_ACTIVE_100
 * and HAVE_OSM_SUBN_OPT_T_MAX_RATE_ENUM.
 */
#include <config.h>

#include <stddef.h>

#include <osmqos/osm_release.h>

const struct oq_osm_release oq_osm_release_built = {
	.name = OQ_OSM_VERSION,
	.rate_max = OQ_OSM_RATE_MAX,
#if HAVE_DECL_IB_LINK_SPEED_EXT_ACTIVE_100
	.speed_ndr = true,
#endif
#ifdef HAVE_OSM_SUBN_OPT_T_MAX_RATE_ENUM
	.sa_max_rate_enum = true,
#endif
};

static const struct oq_osm_release *in_force = &oq_osm_release_built;

const struct oq_osm_release *oq_osm_release(void)
{
	return in_force;
}

void oq_osm_release_use(const struct oq_osm_release *r)
{
	in_force = r ? r : &oq_osm_release_built;
}
