/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The OpenSM release the core answers for.  OpenSM's SA and link-rate
 * code differ between releases (3.3.23, 3.3.24 and master) in ways no
 * caller can see at run time; configure reads them from the headers of
 * the OpenSM osmqos is built against (configure.ac, config.h), so a build
 * models exactly the release its plugin loads into, and its CLI the same.
 * docs/opensm-versions.md lists the differences.
 *
 * The core reads the release in force through oq_osm_release(); only
 * tests select another one, before any thread starts.
 */
#ifndef OSMQOS_OSM_RELEASE_H
#define OSMQOS_OSM_RELEASE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct oq_osm_release {
	/* OSM_VERSION of its headers, e.g. "OpenSM 3.3.24". */
	const char *name;
	/*
	 * IB_MAX_RATE: the highest PathRecord rate enum it knows, 22
	 * (600 Gb/s) in 3.3.23, 24 (1200 Gb/s) from 3.3.24.  A higher rate
	 * in a request is outside its rate order (ranks lowest).
	 */
	uint8_t rate_max;
	/*
	 * IB_LINK_SPEED_EXT_ACTIVE_100: LinkSpeedExtActive 8 (NDR, 100 Gb/s
	 * a lane) gives a port its NDR rate (3.3.24); without it such a
	 * port's rate comes from LinkSpeedActive.  Also the NDR bit of
	 * CapabilityMask2 in the SA's 2x/HDR rate fixups.
	 */
	bool speed_ndr;
	/*
	 * osm_subn_opt_t.max_rate_enum: PathRecord and MultiPathRecord
	 * rates are limited by osm_sa_limit_rate() to opensm.conf's
	 * max_rate_enum (3.3.24; use_original_extended_sa_rates_only is
	 * turned into max_rate_enum 18).  Without it (3.3.23) the SA tests
	 * use_original_extended_sa_rates_only.
	 */
	bool sa_max_rate_enum;
};

/* The release this build was configured for (never NULL). */
const struct oq_osm_release *oq_osm_release(void);

/* The release the headers of this build describe. */
extern const struct oq_osm_release oq_osm_release_built;

/*
 * Answer for release r from now on (NULL: the built one again).  For
 * tests of the other releases' behaviour: not thread-safe, call it
 * before any thread of the core runs.
 */
void oq_osm_release_use(const struct oq_osm_release *r);

#ifdef __cplusplus
}
#endif
#endif /* OSMQOS_OSM_RELEASE_H */
