#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# An opensm of the plugin's release built with another layout of
# osm_opensm_t: OpenSM 3.3.24 configured --disable-perf-mgr
# (tests/opensm/build-opensm.sh 3.3.24-nopm) given this build's plugin,
# built against 3.3.24 headers with the perf manager.  OpenSM's version
# check passes it; the plugin itself must refuse to load, with one line
# on opensm's standard error naming what to rebuild (osm->log is not
# where the plugin's headers put it), and opensm must reach SUBNET UP
# without it.  `osmqos doctor` finds the same from the two files: the
# perf manager's osm_perfmgr_init is exported by the one opensm and not
# by the other.  As a control, the plugin loads into its own opensm.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init build-options
[ "$OQ_OSM_VERSION" = "OpenSM 3.3.24" ] ||
	e2e_skip "this build is for $OQ_OSM_VERSION; the test needs a 3.3.24 build (tests/opensm/check-release)"
grep -q '^#define ENABLE_OSM_PERF_MGR' "$OQ_OSM_LIBDIR/../include/infiniband/opensm/osm_config.h" 2>/dev/null ||
	e2e_skip "this build's OpenSM headers have no perf manager"
out=$(bash "$top_srcdir/tests/opensm/build-opensm.sh" 3.3.24-nopm)
rc=$?
printf '%s\n' "$out" | sed '$d'
[ "$rc" -eq 77 ] && e2e_skip "$(printf '%s\n' "$out" | sed -n 's/.*SKIP: //p')"
[ "$rc" -eq 0 ] || e2e_fail "OpenSM 3.3.24 --disable-perf-mgr did not build"
nopm=$(printf '%s\n' "$out" | tail -n 1)
plugin=$top_builddir/.libs/libosmqos.so

nm -D --defined-only "$OQ_OPENSM" | grep -qw osm_perfmgr_init ||
	e2e_fail "$OQ_OPENSM exports no osm_perfmgr_init"
nm -D --defined-only "$nopm/sbin/opensm" | grep -qw osm_perfmgr_init &&
	e2e_fail "$nopm/sbin/opensm exports osm_perfmgr_init"

e2e_start_ibsim "$top_srcdir/contrib/fabrics/two-switch.net"
# run TAG OPENSM LIBDIR: opensm with this build's plugin up to SUBNET UP.
run() {
	local tag=$1 osm=$2 libdir=$3
	E2E_OSM_CONF=$E2E_DIR/$tag.conf
	E2E_OSM_LOG=$E2E_DIR/$tag.log
	OQ_OPENSM=$osm LD_LIBRARY_PATH="$libdir" \
		e2e_write_opensm_conf "$E2E_OSM_CONF" qos=TRUE
	e2e_opensm_cwd "$E2E_DIR/$tag-cwd"
	(cd "$E2E_DIR/$tag-cwd" &&
	 LD_LIBRARY_PATH="$top_builddir/.libs:$libdir" \
	 LD_PRELOAD="$OQ_UMAD2SIM" \
		exec "$osm" -F "$E2E_OSM_CONF" -f "$E2E_OSM_LOG") \
		>"$E2E_DIR/$tag.out" 2>&1 &
	E2E_OPENSM_PID=$!
	e2e_wait_for "SUBNET UP" "$E2E_OSM_LOG" ||
		e2e_fail "$tag: no SUBNET UP: $(tail -n 5 "$E2E_DIR/$tag.out")"
	e2e_stop_opensm
}

run nopm "$nopm/sbin/opensm" "$nopm/lib"
grep -q "^osmqos: this opensm is built without the performance manager .*rebuild osmqos against this opensm's own headers" \
	"$E2E_DIR/nopm.out" ||
	e2e_fail "nopm: no refusal on opensm's standard error: $(head -n 3 "$E2E_DIR/nopm.out")"
grep -q "ERR 1000: cannot load plugin 'osmqos'" "$E2E_DIR/nopm.log" ||
	e2e_fail "nopm: opensm did not log that the plugin is not loaded"
! grep -q 'osmqos_create' "$E2E_DIR/nopm.log" ||
	e2e_fail "nopm: the plugin was created all the same"
e2e_log "nopm: $(grep "^osmqos: " "$E2E_DIR/nopm.out" | cut -c 1-100)..."
run own "$OQ_OPENSM" "${OQ_OSM_LIBDIR:-}"
grep -q "osmqos_create: osmqos .* loaded (built for $OQ_OSM_VERSION)" "$E2E_DIR/own.log" ||
	e2e_fail "own: the plugin did not load into its own opensm"
grep -q "performance manager" "$E2E_DIR/own.out" &&
	e2e_fail "own: the plugin refused its own opensm"

# doctor, from the files alone.
doctor() { # doctor OPENSM: its plugin-version line
	"$top_builddir/osmqos" doctor -c "$E2E_DIR/own.conf" --plugin "$plugin" \
		--opensm "$1" 2>&1 | grep -A1 ' plugin-version '
}
d=$(doctor "$nopm/sbin/opensm")
grep -q "^error .*built for OpenSM 3.3.24 with the performance manager, .* is built without it" <<<"$d" ||
	e2e_fail "doctor with the --disable-perf-mgr opensm: $d"
d=$(doctor "$OQ_OPENSM")
grep -q "^ok .*built for OpenSM 3.3.24, as" <<<"$d" ||
	e2e_fail "doctor with the plugin's own opensm: $d"
e2e_pass
