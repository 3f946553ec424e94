#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# An opensm of the plugin's release built with another layout of
# osm_opensm_t, given this build's plugin (tests/opensm/build-opensm.sh
# builds it):
#
#   nopm   OpenSM 3.3.24 configured --disable-perf-mgr, the plugin built
#          against 3.3.24 headers with the perf manager (3.3.24 builds
#          only: tests/opensm/check-release);
#   debug  the plugin's own release configured --enable-debug (_DEBUG_:
#          complib's list items grow), the plugin built against headers
#          without it: Debian's 3.3.23 (the main build; needs
#          opensm-3.3.23.tar.gz beside the other tarballs) or 3.3.24.
#
# OpenSM's version check passes each; the plugin itself must refuse to
# load, with one line on opensm's standard error naming what differs and
# what to rebuild (osm->log is not where the plugin's headers put it), and
# opensm must reach SUBNET UP and keep running without it.  `osmqos
# doctor` finds the perf-manager case from the two files: the perf
# manager's osm_perfmgr_init is exported by the one opensm and not by the
# other.  As a control, the plugin loads into its own opensm.  A case
# whose OpenSM cannot be built here is skipped with the reason; the test
# is skipped when neither runs.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init build-options
release=${OQ_OSM_VERSION#OpenSM }
osm_config=${OQ_OSM_PREFIX:-/usr}/include/infiniband/opensm/osm_config.h
[ -f "$osm_config" ] || e2e_skip "no $osm_config: this build's OpenSM headers are not where configure found them"
plugin=$top_builddir/.libs/libosmqos.so
skipped=()

# build REF: that OpenSM's install prefix on stdout, its build's lines on
# stderr; build-opensm.sh's status otherwise (77: cannot be built here).
build() {
	local out rc
	out=$(bash "$top_srcdir/tests/opensm/build-opensm.sh" "$1")
	rc=$?
	[ "$rc" -eq 0 ] || { printf '%s\n' "$out" >&2; return "$rc"; }
	printf '%s\n' "$out" | sed '$d' >&2
	printf '%s\n' "$out" | tail -n 1
}

nopm= debug=
if [ "$release" != 3.3.24 ]; then
	skipped+=("nopm: this build is for $OQ_OSM_VERSION; the case needs a 3.3.24 build (tests/opensm/check-release)")
elif ! grep -q '^#define ENABLE_OSM_PERF_MGR' "$osm_config"; then
	skipped+=("nopm: this build's OpenSM headers have no perf manager")
else
	nopm=$(build 3.3.24-nopm 2>"$E2E_DIR/build-nopm.out")
	rc=$?
	cat "$E2E_DIR/build-nopm.out"
	case $rc in
	0) ;;
	77) skipped+=("nopm: $(sed -n 's/.*SKIP: //p' "$E2E_DIR/build-nopm.out")") ;;
	*) e2e_fail "nopm: its OpenSM did not build (above)" ;;
	esac
fi
if grep -q '^#define _DEBUG_' "$osm_config"; then
	skipped+=("debug: this build's OpenSM headers are a debug build's")
elif [ "$release" != 3.3.23 ] && [ "$release" != 3.3.24 ]; then
	skipped+=("debug: no debug build of $OQ_OSM_VERSION (build-opensm.sh has 3.3.23-debug and 3.3.24-debug)")
else
	debug=$(build "$release-debug" 2>"$E2E_DIR/build-debug.out")
	rc=$?
	cat "$E2E_DIR/build-debug.out"
	case $rc in
	0) ;;
	77) skipped+=("debug: $(sed -n 's/.*SKIP: //p' "$E2E_DIR/build-debug.out")") ;;
	*) e2e_fail "debug: its OpenSM did not build (above)" ;;
	esac
fi
for s in "${skipped[@]}"; do
	e2e_log "case skipped: $s"
done
[ -n "$nopm$debug" ] || e2e_skip "neither case can run here (above)"

if [ -n "$nopm" ]; then
	nm -D --defined-only "$OQ_OPENSM" | grep -qw osm_perfmgr_init ||
		e2e_fail "$OQ_OPENSM exports no osm_perfmgr_init"
	nm -D --defined-only "$nopm/sbin/opensm" | grep -qw osm_perfmgr_init &&
		e2e_fail "$nopm/sbin/opensm exports osm_perfmgr_init"
fi
if [ -n "$debug" ]; then
	grep -q '^#define _DEBUG_' "$debug/include/infiniband/opensm/osm_config.h" ||
		e2e_fail "$debug was not built --enable-debug (its osm_config.h has no _DEBUG_)"
	v=$("$debug/sbin/opensm" --version 2>/dev/null | grep -m 1 '^OpenSM ')
	[ "$v" = "$OQ_OSM_VERSION" ] ||
		e2e_fail "$debug/sbin/opensm is '$v', not $OQ_OSM_VERSION: OpenSM's own version check would refuse the plugin first"
fi

e2e_start_ibsim "$top_srcdir/contrib/fabrics/two-switch.net"
# run TAG OPENSM LIBDIR: opensm with this build's plugin up to SUBNET UP,
# still running a moment later.
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
	sleep 1
	kill -0 "$E2E_OPENSM_PID" 2>/dev/null ||
		e2e_fail "$tag: opensm exited after SUBNET UP: $(tail -n 5 "$E2E_DIR/$tag.out")"
	e2e_stop_opensm
}
# refused TAG WHAT: the plugin refused that opensm, WHAT named in one
# line on its standard error, and opensm went on without it.
refused() {
	local tag=$1 what=$2 n
	n=$(grep -c "^osmqos: " "$E2E_DIR/$tag.out")
	[ "$n" = 1 ] ||
		e2e_fail "$tag: $n lines from osmqos on opensm's standard error, want 1: $(head -n 3 "$E2E_DIR/$tag.out")"
	grep -q "^osmqos: this opensm is built $what, libosmqos.so against $OQ_OSM_VERSION headers built .*rebuild osmqos against this opensm's own headers" \
		"$E2E_DIR/$tag.out" ||
		e2e_fail "$tag: no refusal on opensm's standard error: $(head -n 3 "$E2E_DIR/$tag.out")"
	grep -q "ERR 1000: cannot load plugin 'osmqos'" "$E2E_DIR/$tag.log" ||
		e2e_fail "$tag: opensm did not log that the plugin is not loaded"
	! grep -q 'osmqos_create' "$E2E_DIR/$tag.log" ||
		e2e_fail "$tag: the plugin was created all the same"
	e2e_log "$tag: $(grep "^osmqos: " "$E2E_DIR/$tag.out" | cut -c 1-130)..."
}

if [ -n "$nopm" ]; then
	run nopm "$nopm/sbin/opensm" "$nopm/lib"
	refused nopm "without the performance manager (--enable-perf-mgr, ENABLE_OSM_PERF_MGR)"
fi
if [ -n "$debug" ]; then
	run debug "$debug/sbin/opensm" "$debug/lib"
	refused debug "with debugging (--enable-debug, _DEBUG_)"
	grep -q "built without it" "$E2E_DIR/debug.out" ||
		e2e_fail "debug: the refusal does not say the plugin's headers are without debugging: $(cat "$E2E_DIR/debug.out")"
fi
run own "$OQ_OPENSM" "${OQ_OSM_LIBDIR:-}"
grep -q "osmqos_create: osmqos .* loaded (built for $OQ_OSM_VERSION)" "$E2E_DIR/own.log" ||
	e2e_fail "own: the plugin did not load into its own opensm"
grep -q "^osmqos: this opensm is built" "$E2E_DIR/own.out" &&
	e2e_fail "own: the plugin refused its own opensm"

# doctor, from the files alone.
doctor() { # doctor OPENSM: its plugin-version line
	"$top_builddir/osmqos" doctor -c "$E2E_DIR/own.conf" --plugin "$plugin" \
		--opensm "$1" 2>&1 | grep -A1 ' plugin-version '
}
if [ -n "$nopm" ]; then
	d=$(doctor "$nopm/sbin/opensm")
	grep -q "^error .*built for OpenSM 3.3.24 with the performance manager, .* is built without it" <<<"$d" ||
		e2e_fail "doctor with the --disable-perf-mgr opensm: $d"
	d=$(doctor "$OQ_OPENSM")
	grep -q "^ok .*built for OpenSM 3.3.24, as" <<<"$d" ||
		e2e_fail "doctor with the plugin's own opensm: $d"
fi
e2e_pass
