#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# OpenSM loads an event plugin only when the version string the plugin
# was built with equals its own (osm_epi_construct()), so a plugin built
# for one release is refused by the other.  With this build's plugin and
# opensm (tests/opensm/check-release: OpenSM 3.3.24) and the main build's
# (OQ_MAIN_BUILD: the system's 3.3.23), each opensm is given the other
# release's plugin and must log what an operator then sees,
#
#   Error loading plugin 'osmqos': OpenSM version mismatch - plugin was
#   built against OpenSM 3.3.23 version of OpenSM. Skip loading.
#
# (the other way round naming 3.3.24), create no plugin, and still reach
# SUBNET UP without it (docs/opensm-versions.md).  As a control, each
# opensm loads the plugin of its own release.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init refusal
main=${OQ_MAIN_BUILD:-}
if [ -z "$main" ] || [ ! -f "$main/.libs/libosmqos.so" ] ||
   [ ! -f "$main/tests/e2e/env.sh" ]; then
	e2e_skip "no other osmqos build to take the other release's plugin from" \
		"(OQ_MAIN_BUILD; tests/opensm/check-release sets it)"
fi
# The other build's opensm and release, and this build's.
mine_osm=$OQ_OPENSM mine_lib=${OQ_OSM_LIBDIR:-} mine_ver=$OQ_OSM_VERSION
other_osm=$(. "$main/tests/e2e/env.sh" && echo "$OQ_OPENSM")
other_lib=$(. "$main/tests/e2e/env.sh" && echo "${OQ_OSM_LIBDIR:-}")
other_ver=$(. "$main/tests/e2e/env.sh" && echo "$OQ_OSM_VERSION")
[ -n "$other_osm" ] || e2e_skip "the other build found no opensm"
[ "$other_ver" != "$mine_ver" ] ||
	e2e_skip "both builds are for $mine_ver: nothing to refuse"
e2e_log "this build: $mine_ver ($mine_osm); other: $other_ver ($other_osm)"

e2e_start_ibsim "$top_srcdir/contrib/fabrics/two-switch.net"

# run TAG OPENSM LIBDIR PLUGIN_DIR: opensm with the plugin of PLUGIN_DIR on
# the loader's path, up to SUBNET UP; its log is $E2E_DIR/TAG.log.
run() {
	local tag=$1 osm=$2 libdir=$3 plugdir=$4
	E2E_OSM_CONF=$E2E_DIR/$tag.conf
	E2E_OSM_LOG=$E2E_DIR/$tag.log
	OQ_OPENSM=$osm LD_LIBRARY_PATH="$libdir" \
		e2e_write_opensm_conf "$E2E_OSM_CONF" qos=TRUE
	LD_LIBRARY_PATH="$plugdir${libdir:+:$libdir}" \
	LD_PRELOAD="$OQ_UMAD2SIM" \
		"$osm" -F "$E2E_OSM_CONF" -f "$E2E_OSM_LOG" \
		>"$E2E_DIR/$tag.out" 2>&1 &
	E2E_OPENSM_PID=$!
	e2e_wait_for "SUBNET UP" "$E2E_OSM_LOG" ||
		e2e_fail "$tag: no SUBNET UP: $(tail -n 5 "$E2E_DIR/$tag.out")"
	e2e_stop_opensm
}

# refused TAG PLUGIN_RELEASE: the operator's error line, and no plugin.
refused() {
	local tag=$1 rel=$2 line
	line="Error loading plugin 'osmqos': OpenSM version mismatch - plugin was built against $rel version of OpenSM. Skip loading."
	grep -qF "$line" "$E2E_DIR/$tag.log" ||
		e2e_fail "$tag: no '$line' in its log: $(grep -i plugin "$E2E_DIR/$tag.log" | head -n 3)"
	! grep -q 'osmqos_create' "$E2E_DIR/$tag.log" ||
		e2e_fail "$tag: the plugin was created all the same"
	e2e_log "$tag: $(grep -F "$line" "$E2E_DIR/$tag.log" | sed 's/^.*-> //')"
}

# loaded TAG RELEASE: the control: the plugin of the opensm's release.
loaded() {
	grep -q "osmqos_create: osmqos .* loaded (built for $2)" "$E2E_DIR/$1.log" ||
		e2e_fail "$1: the plugin of its own release did not load: $(grep -i plugin "$E2E_DIR/$1.log" | head -n 3)"
}

run "mine-opensm-other-plugin" "$mine_osm" "$mine_lib" "$main/.libs"
refused "mine-opensm-other-plugin" "$other_ver"
run "other-opensm-mine-plugin" "$other_osm" "$other_lib" "$top_builddir/.libs"
refused "other-opensm-mine-plugin" "$mine_ver"
run "mine-opensm-mine-plugin" "$mine_osm" "$mine_lib" "$top_builddir/.libs"
loaded "mine-opensm-mine-plugin" "$mine_ver"
run "other-opensm-other-plugin" "$other_osm" "$other_lib" "$main/.libs"
loaded "other-opensm-other-plugin" "$other_ver"
e2e_pass
