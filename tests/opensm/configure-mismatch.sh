#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# configure refuses the headers of one OpenSM release with the opensm
# binary of another, saying what that opensm would log and what to pass
# instead: this build's OpenSM (tests/opensm/check-release: 3.3.24 under
# its prefix) with the other build's opensm (OQ_MAIN_BUILD: the system's
# 3.3.23), both ways round (--with-opensm=PREFIX OPENSM=..., and
# --with-opensm-include=... with the other opensm found as the system's).
# configure runs from this build's source tree in a scratch directory.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init configure-mismatch
main=${OQ_MAIN_BUILD:-}
[ -n "$main" ] && [ -f "$main/tests/e2e/env.sh" ] ||
	e2e_skip "no other osmqos build to take the other release's opensm from" \
		"(OQ_MAIN_BUILD; tests/opensm/check-release sets it)"
[ -n "${OQ_OSM_PREFIX:-}" ] ||
	e2e_skip "this build is for the system's OpenSM (no --with-opensm)"
other_osm=$(. "$main/tests/e2e/env.sh" && echo "$OQ_OPENSM")
other_ver=$(. "$main/tests/e2e/env.sh" && echo "$OQ_OSM_VERSION")
[ -n "$other_osm" ] && [ "$other_ver" != "$OQ_OSM_VERSION" ] ||
	e2e_skip "no opensm of another release than $OQ_OSM_VERSION"
src=$(sed -n 's/^abs_top_srcdir = //p' "$top_builddir/Makefile")
[ -x "$src/configure" ] || e2e_fail "no configure in $src"

# refused TAG ARGS...: configure exits non-zero with the message.
refused() {
	local tag=$1 want
	shift
	mkdir -p "$E2E_DIR/$tag"
	if (cd "$E2E_DIR/$tag" && "$src/configure" "$@") >"$E2E_DIR/$tag.out" 2>&1; then
		e2e_fail "$tag: configure accepted $OQ_OSM_VERSION headers with $other_osm"
	fi
	want="are $OQ_OSM_VERSION but $other_osm is $other_ver: that opensm would refuse a plugin built from these headers (its log: OpenSM version mismatch - plugin was built against $OQ_OSM_VERSION version of OpenSM. Skip loading). Build against the OpenSM that will load the plugin: --with-opensm=PREFIX"
	grep -qF "configure: error: the OpenSM headers in " "$E2E_DIR/$tag.out" &&
		grep -qF "$want" "$E2E_DIR/$tag.out" ||
		e2e_fail "$tag: configure did not say why: $(tail -n 3 "$E2E_DIR/$tag.out")"
	e2e_log "$tag: $(grep 'configure: error:' "$E2E_DIR/$tag.out" | cut -c1-160)..."
}

refused prefix-other-binary --with-opensm="$OQ_OSM_PREFIX" OPENSM="$other_osm"
refused include-other-binary \
	--with-opensm-include="$OQ_OSM_PREFIX/include/infiniband" \
	OPENSM="$other_osm"
e2e_pass
