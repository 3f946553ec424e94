#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The Debian package, as an operator gets it: `make deb`'s script builds
# it from this tree (dpkg-buildpackage -us -uc -b in a scratch copy) and
# lintian finds no error or warning; the .deb holds the plugin in the
# multiarch libdir, the CLI, the man pages and the examples, nothing in
# /etc and no maintainer script that could touch a running opensm, and
# depends on the OpenSM version of the headers it was built against;
# `apt-get install ./osmqos_*.deb` installs it; opensm with
# event_plugin_name osmqos and no LD_LIBRARY_PATH loads the plugin from
# the package path and the plugin answers a PathRecord (its audit
# record); the installed `osmqos check` works; `apt-get purge` leaves no
# file of the package behind.
#
# It installs into this machine's system: it needs root, and it skips
# where the osmqos package (or an unpackaged libosmqos.so in the
# multiarch libdir) is already installed, never replacing an operator's.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init package
[ "$(id -u)" -eq 0 ] || e2e_skip "needs root (apt-get install and purge)"
[ -z "${OSMQOS_IN_DEB_BUILD:-}" ] ||
	e2e_skip "inside a package build (build-deb.sh): not building the package again"
for t in dpkg-buildpackage dh lintian apt-get dpkg-architecture; do
	command -v "$t" >/dev/null ||
		e2e_skip "$t not installed (apt-get install dpkg-dev debhelper lintian)"
done
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
if dpkg-query -W -f '${db:Status-Status}' osmqos 2>/dev/null |
	grep -qv '^not-installed$'; then
	e2e_skip "the osmqos package is installed here; this test would replace and purge it"
fi
ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
lib=/usr/lib/$ma/libosmqos.so
[ ! -e "$lib" ] || e2e_skip "$lib exists outside the package; remove it first"

# ---- build -----------------------------------------------------------
out=$E2E_DIR/deb
# nocheck: the suite runs the unit tests itself; building and running
# them again inside the package build would double this test's time
# (`make deb` runs them).
DEB_BUILD_OPTIONS="nocheck parallel=2" \
	bash "$top_srcdir/contrib/package/build-deb.sh" "$top_srcdir" "$out" \
	>"$E2E_DIR/build.out" 2>&1 ||
	e2e_fail "build-deb.sh: $(tail -n 30 "$E2E_DIR/build.out")"
deb=$(ls "$out"/osmqos_*_"$(dpkg --print-architecture)".deb)
e2e_log "built $(basename "$deb") ($(stat -c %s "$deb") bytes), lintian clean"

# ---- what is in it ----------------------------------------------------
dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|' >"$E2E_DIR/contents"
for f in "$lib" /usr/bin/osmqos \
	/usr/share/man/man8/osmqos.8.gz /usr/share/man/man8/osmqos-plugin.8.gz \
	/usr/share/man/man5/osmqos-policy.5.gz \
	/usr/share/doc/osmqos/copyright \
	/usr/share/doc/osmqos/examples/opensm.conf.osmqos \
	/usr/share/doc/osmqos/examples/logrotate/osmqos \
	/usr/share/doc/osmqos/examples/systemd/osmqos.conf \
	/usr/share/doc/osmqos/examples/grafana/osmqos.json \
	/usr/share/doc/osmqos/examples/policies/fat-tree-16.conf; do
	grep -qxF "$f" "$E2E_DIR/contents" || e2e_fail "the package lacks $f"
done
# The documents --help and the man pages cite (docs/X.md), as the man
# pages say: in /usr/share/doc/osmqos/docs/ (compressed or not).
for f in "$top_srcdir"/docs/*.md "$top_srcdir"/docs/*.svg; do
	f=/usr/share/doc/osmqos/docs/${f##*/}
	grep -qxE "$f(\.gz)?" "$E2E_DIR/contents" ||
		e2e_fail "the package lacks $f"
done
grep -E '^/etc/|\.la$|/include/' "$E2E_DIR/contents" &&
	e2e_fail "the package holds files under /etc, .la files or headers"
# The list, for the RPM's test (tests/opensm/rpm.sh: the same files).
cp "$E2E_DIR/contents" "$top_builddir/tests/e2e/package-files.txt"
# The drop-in names the installed CLI and sets no LD_LIBRARY_PATH (the
# loader searches the package's libdir).
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO ./usr/share/doc/osmqos/examples/systemd/osmqos.conf \
	>"$E2E_DIR/dropin.conf"
grep -q "^ExecStartPre=-/usr/bin/osmqos check" "$E2E_DIR/dropin.conf" ||
	e2e_fail "the systemd drop-in does not name /usr/bin/osmqos"
grep -q "^Environment=LD_LIBRARY_PATH" "$E2E_DIR/dropin.conf" &&
	e2e_fail "the packaged systemd drop-in sets LD_LIBRARY_PATH"
# Both name the policy file of the OpenSM the package is for, as that
# opensm writes its defaults (-c).
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO ./usr/share/doc/osmqos/examples/opensm.conf.osmqos \
	>"$E2E_DIR/opensm.conf.osmqos"
"$OQ_OPENSM" -c "$E2E_DIR/defaults.conf" >/dev/null 2>&1 ||
	e2e_fail "$OQ_OPENSM -c $E2E_DIR/defaults.conf failed"
osm_pol=$(awk '$1 == "qos_policy_file" { print $2 }' "$E2E_DIR/defaults.conf")
[ -n "$osm_pol" ] || e2e_fail "$OQ_OPENSM -c wrote no qos_policy_file"
grep -qxF "ExecStartPre=-/usr/bin/osmqos check $osm_pol" "$E2E_DIR/dropin.conf" ||
	e2e_fail "the drop-in does not check $osm_pol"
grep -qxF "qos_policy_file $osm_pol" "$E2E_DIR/opensm.conf.osmqos" ||
	e2e_fail "opensm.conf.osmqos does not name $osm_pol"
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO ./usr/share/doc/osmqos/examples/slurm/slurm-jobs.conf |
	grep -qE "^policy +$osm_pol\$" ||
	e2e_fail "the example job map does not name $osm_pol"
# Maintainer scripts: none but what dpkg itself runs (the ldconfig
# trigger), so installing cannot restart or reconfigure opensm.
dpkg-deb -e "$deb" "$E2E_DIR/control"
extra=$(ls "$E2E_DIR/control" | grep -Ev '^(control|md5sums|triggers|shlibs)$')
[ -z "$extra" ] || e2e_fail "maintainer scripts in the package: $extra"
# Depends: the OpenSM version of the headers the build used.
v=$(sed -n 's/^#define OSM_VERSION "OpenSM \([0-9.]*\)"$/\1/p' \
	/usr/include/infiniband/opensm/osm_version.h)
[ -n "$v" ] || e2e_fail "no OSM_VERSION in libopensm-dev's osm_version.h"
next=$(awk -F. -v OFS=. '{ $NF = $NF + 1; print }' <<<"$v")
dep=$(dpkg-deb -f "$deb" Depends)
[[ $dep == *"opensm (>= $v~), opensm (<< $next~)"* ]] ||
	e2e_fail "Depends does not pin OpenSM $v: $dep"
[[ $dep == *libibumad3* ]] || e2e_fail "Depends lacks libibumad3: $dep"
e2e_log "Depends: $dep"

# ---- install -----------------------------------------------------------
# From here on, whatever happens, the package goes again.
E2E_ON_EXIT='apt-get purge -y osmqos >/dev/null 2>&1'
# Its dependencies are what this suite already runs (opensm, libibumad):
# installing it must pull in nothing else.
(cd "$out" && apt-get -s install "./$(basename "$deb")") \
	>"$E2E_DIR/install-sim.out" 2>&1 ||
	e2e_fail "apt-get -s install: $(tail -n 10 "$E2E_DIR/install-sim.out")"
pulled=$(awk '$1 == "Inst" && $2 != "osmqos" { print $2 }' "$E2E_DIR/install-sim.out")
[ -z "$pulled" ] || e2e_fail "installing the package pulls in: $pulled"
(cd "$out" && DEBIAN_FRONTEND=noninteractive apt-get install -y \
	-o DPkg::Lock::Timeout=120 \
	"./$(basename "$deb")") >"$E2E_DIR/install.out" 2>&1 ||
	e2e_fail "apt-get install: $(tail -n 10 "$E2E_DIR/install.out")"
dpkg -L osmqos >"$E2E_DIR/installed" || e2e_fail "dpkg -L osmqos"
[ -f "$lib" ] || e2e_fail "$lib not installed"

# opensm with no LD_LIBRARY_PATH: the plugin must come from $lib.
audit=$E2E_DIR/audit.json
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_opensm_conf qos=TRUE \
	"qos_policy_file=$top_srcdir/contrib/policies/fat-tree-16.conf" \
	"event_plugin_options=audit=$audit publish_dir=$E2E_DIR"
E2E_OSM_LOG=$E2E_DIR/opensm.log
e2e_opensm_cwd "$E2E_DIR/opensm-cwd"
(cd "$E2E_DIR/opensm-cwd" &&
 exec env -u LD_LIBRARY_PATH LD_PRELOAD="$OQ_UMAD2SIM" \
	"$OQ_OPENSM" -F "$E2E_OSM_CONF" -f "$E2E_OSM_LOG") \
	>"$E2E_DIR/opensm.out" 2>&1 &
E2E_OPENSM_PID=$!
e2e_wait_for "SUBNET UP" "$E2E_OSM_LOG" ||
	e2e_fail "no SUBNET UP: $(tail -n 5 "$E2E_DIR/opensm.out")"
grep -q 'osmqos_create: osmqos .* loaded' "$E2E_OSM_LOG" ||
	e2e_fail "opensm did not load the packaged plugin: $(grep -i plugin "$E2E_OSM_LOG" | head -n 3)"
grep -qF "$lib" "/proc/$E2E_OPENSM_PID/maps" ||
	e2e_fail "opensm mapped no $lib"
s=$(e2e_lid "stor1 HCA-1")
d=$(e2e_lid "cn04 HCA-1")
[ -n "$s" ] && [ -n "$d" ] || e2e_fail "no LIDs for stor1/cn04"
e2e_sim saquery -p --slid "$s" --dlid "$d" >"$E2E_DIR/pr.out" 2>&1 ||
	e2e_fail "saquery: $(tail -n 3 "$E2E_DIR/pr.out")"
e2e_stop_opensm # flushes the audit trail
jq -e --argjson s "$s" --argjson d "$d" \
	'select(.granted.slid == $s and .granted.dlid == $d)' "$audit" \
	>/dev/null || e2e_fail "no audit record of the PathRecord $s -> $d in $audit"
e2e_log "the packaged plugin answered PathRecord $s -> $d"

# The installed CLI, on the installed example policy.
/usr/bin/osmqos check /usr/share/doc/osmqos/examples/policies/fat-tree-16.conf \
	>"$E2E_DIR/check.out" 2>&1 ||
	e2e_fail "installed osmqos check: $(cat "$E2E_DIR/check.out")"
if command -v man >/dev/null; then
	man -w osmqos-plugin >/dev/null 2>&1 ||
		e2e_fail "man -w osmqos-plugin finds no page"
fi

# ---- purge ---------------------------------------------------------------
E2E_ON_EXIT=
DEBIAN_FRONTEND=noninteractive apt-get purge -y -o DPkg::Lock::Timeout=120 osmqos \
	>"$E2E_DIR/purge.out" 2>&1 ||
	e2e_fail "apt-get purge: $(tail -n 10 "$E2E_DIR/purge.out")"
dpkg-query -W -f '${db:Status-Status}' osmqos 2>/dev/null |
	grep -qv '^not-installed$' && e2e_fail "osmqos is still known to dpkg"
left=0
while IFS= read -r f; do
	[ -d "$f" ] && [ ! -L "$f" ] && continue # shared directories stay
	if [ -e "$f" ] || [ -L "$f" ]; then
		e2e_log "left behind: $f"
		left=$((left + 1))
	fi
done <"$E2E_DIR/installed"
[ ! -e /usr/share/doc/osmqos ] || { e2e_log "left behind: /usr/share/doc/osmqos"; left=$((left + 1)); }
[ "$left" -eq 0 ] || e2e_fail "$left files of the package left after purge"
e2e_log "purged: none of the $(grep -c . "$E2E_DIR/installed") paths left"
e2e_pass
