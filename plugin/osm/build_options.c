// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * OpenSM's version check passes a plugin built against the headers of an
 * opensm of the same version but other build options; yet some of those
 * options change the layout of what the plugin reads: ENABLE_OSM_PERF_MGR
 * adds osm_opensm_t.perfmgr (before .log) and the perfmgr options of
 * osm_subn_opt_t (before event_plugin_options), _DEBUG_ (--enable-debug)
 * a pointer to every complib list item.  Both show in the running
 * process: the perf manager's functions are exported by the opensm
 * binary only when it is built in, and complib says whether it was
 * built for debugging.  Compared here before the plugin reads anything
 * of osm_opensm_t.
 */
#include <config.h>

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>

#include <opensm/osm_version.h>

#include "osm/osm.h"

#ifdef ENABLE_OSM_PERF_MGR
#define BUILT_PERF_MGR true
#define PERF_MGR_WORD  "yes"
#else
#define BUILT_PERF_MGR false
#define PERF_MGR_WORD  "no"
#endif
#ifdef _DEBUG_
#define BUILT_DEBUG true
#else
#define BUILT_DEBUG false
#endif

/* `osmqos doctor` reads this in the library file and compares it with
 * the exports of the opensm binary (cmd_doctor.c). */
static const char build_tag[] __attribute__((used)) =
	"osmqos-osm-build: perf-mgr=" PERF_MGR_WORD;

static const char *with(bool on)
{
	return on ? "with" : "without";
}

bool oq_osm_build_mismatch(char *why, size_t len)
{
	bool pm = dlsym(RTLD_DEFAULT, "osm_perfmgr_init") != NULL;
	boolean_t (*is_debug)(void) =
		(boolean_t(*)(void))dlsym(RTLD_DEFAULT, "cl_is_debug");
	const char *what = NULL;
	bool running = false, built = false;

	if (pm != BUILT_PERF_MGR) {
		what = "the performance manager (--enable-perf-mgr, "
		       "ENABLE_OSM_PERF_MGR)";
		running = pm;
		built = BUILT_PERF_MGR;
	} else if (is_debug && (bool)is_debug() != BUILT_DEBUG) {
		what = "debugging (--enable-debug, _DEBUG_)";
		running = is_debug();
		built = BUILT_DEBUG;
	}
	if (!what)
		return false;
	snprintf(why, len,
		 "this opensm is built %s %s, libosmqos.so against %s headers "
		 "built %s it: their osm_opensm_t differ, so osmqos is not "
		 "loaded; rebuild osmqos against this opensm's own headers "
		 "(./configure --with-opensm=PREFIX it was installed to, or "
		 "its distribution's headers package)",
		 with(running), what, OSM_VERSION, with(built));
	return true;
}
