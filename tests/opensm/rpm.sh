#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The RPM, as `make rpm` builds it (contrib/rpm/build-rpm.sh with this
# build's OpenSM: 3.3.24 under tests/opensm/check-release), on this
# machine's rpmbuild: rpmlint reports nothing the spec does not justify;
# the plugin is in /usr/lib64, the CLI, man pages, licence and examples
# where Fedora puts them, nothing in /etc, no .la; it requires exactly the
# OpenSM release of the headers it was built against (opensm = 3.3.24);
# its systemd drop-in names /usr/bin/osmqos and sets no LD_LIBRARY_PATH;
# its files are the Debian package's, modulo the distributions' paths:
#
#   Debian                                  RPM (Fedora, RHEL, SUSE)
#   /usr/lib/<multiarch>/                   /usr/lib64/
#   /usr/share/doc/osmqos/copyright         /usr/share/licenses/osmqos/copyright
#   /usr/share/doc/osmqos/X.gz (README.md)  /usr/share/doc/osmqos/X
#   /usr/share/doc/osmqos/docs/X.gz         /usr/share/doc/osmqos/docs/X
#   /usr/share/doc/osmqos/changelog.gz      (the RPM header's %changelog)
#   /usr/share/lintian/overrides/osmqos     (Debian's lintian only)
#   (in the -dbgsym package)                /usr/lib/.build-id/ links
#
# The .deb's list is the one tests/e2e/package.sh left in the main build
# (OQ_MAIN_BUILD) when it is newer than debian/ and the build fragments;
# otherwise this test builds the .deb itself (contrib/package/build-deb.sh).
# Last, the packaged plugin, unpacked with rpm2cpio, loads into this
# build's opensm (its log line names the release) and answers a
# PathRecord, and the packaged CLI names the release it models.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init rpm
for t in rpmbuild rpmlint rpm rpm2cpio cpio; do
	command -v "$t" >/dev/null ||
		e2e_skip "$t not installed (apt-get install rpm rpmlint cpio)"
done
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
rel=${OQ_OSM_VERSION#OpenSM }
[ -n "$rel" ] || e2e_fail "no OQ_OSM_VERSION in tests/e2e/env.sh: reconfigure"

# ---- build -----------------------------------------------------------
out=$E2E_DIR/rpm
RPM_BUILD_NOCHECK=1 bash "$top_srcdir/contrib/rpm/build-rpm.sh" \
	"$top_srcdir" "$out" ${OQ_OSM_PREFIX:+"$OQ_OSM_PREFIX"} \
	>"$E2E_DIR/build.out" 2>&1 ||
	e2e_fail "build-rpm.sh: $(tail -n 30 "$E2E_DIR/build.out")"
rpmf=$(ls "$out"/osmqos-[0-9]*.rpm)
[ "$(wc -w <<<"$rpmf")" -eq 1 ] || e2e_fail "not one osmqos RPM: $rpmf"
e2e_log "built $(basename "$rpmf") ($(stat -c %s "$rpmf") bytes)"
e2e_log "$(tail -n 2 "$E2E_DIR/build.out" | head -n 1)"
grep -E ': [EW]: ' "$out/osmqos-rpm-rpmlint.log" | awk '{ print $2, $3 }' |
	sort | uniq -c | sed 's/^/  rpmlint: /'

# ---- what it says and holds -----------------------------------------------
rpm -qp --requires "$rpmf" >"$E2E_DIR/requires" 2>&1 ||
	e2e_fail "rpm -qp --requires: $(cat "$E2E_DIR/requires")"
grep -qx "opensm = $rel" "$E2E_DIR/requires" ||
	e2e_fail "the RPM does not require opensm = $rel: $(grep opensm "$E2E_DIR/requires")"
rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$rpmf" |
	awk '$1 !~ /^d/ { print $2 }' | sort >"$E2E_DIR/rpm-files"
for f in /usr/lib64/libosmqos.so /usr/bin/osmqos \
	/usr/share/man/man8/osmqos.8.gz /usr/share/man/man8/osmqos-plugin.8.gz \
	/usr/share/man/man5/osmqos-policy.5.gz \
	/usr/share/licenses/osmqos/copyright /usr/share/doc/osmqos/README.md \
	/usr/share/doc/osmqos/docs/json.md /usr/share/doc/osmqos/docs/jobs.md \
	/usr/share/doc/osmqos/examples/systemd/osmqos.conf \
	/usr/share/doc/osmqos/examples/opensm.conf.osmqos; do
	grep -qxF "$f" "$E2E_DIR/rpm-files" || e2e_fail "the RPM lacks $f"
done
grep -E '^/etc/|\.la$|/include/' "$E2E_DIR/rpm-files" &&
	e2e_fail "the RPM holds files under /etc, .la files or headers"
root=$E2E_DIR/root
mkdir -p "$root"
(cd "$root" && rpm2cpio "$rpmf" | cpio -idm --quiet) ||
	e2e_fail "rpm2cpio | cpio could not unpack $rpmf"
dropin=$root/usr/share/doc/osmqos/examples/systemd/osmqos.conf
grep -q "^ExecStartPre=-/usr/bin/osmqos check" "$dropin" ||
	e2e_fail "the systemd drop-in does not name /usr/bin/osmqos"
grep -q "^Environment=LD_LIBRARY_PATH" "$dropin" &&
	e2e_fail "the packaged drop-in sets LD_LIBRARY_PATH (/usr/lib64 is searched)"
# The policy file of the OpenSM it is for, as that opensm writes its
# defaults (-c): /etc/opensm, or /etc/rdma in Fedora's and RHEL's builds.
"$OQ_OPENSM" -c "$E2E_DIR/defaults.conf" >/dev/null 2>&1 ||
	e2e_fail "$OQ_OPENSM -c $E2E_DIR/defaults.conf failed"
osm_pol=$(awk '$1 == "qos_policy_file" { print $2 }' "$E2E_DIR/defaults.conf")
[ -n "$osm_pol" ] || e2e_fail "$OQ_OPENSM -c wrote no qos_policy_file"
grep -qxF "ExecStartPre=-/usr/bin/osmqos check $osm_pol" "$dropin" ||
	e2e_fail "the drop-in does not check $osm_pol: $(grep ExecStartPre "$dropin")"
grep -qxF "qos_policy_file $osm_pol" \
	"$root/usr/share/doc/osmqos/examples/opensm.conf.osmqos" ||
	e2e_fail "opensm.conf.osmqos does not name $osm_pol"
grep -qE "^policy +$osm_pol\$" \
	"$root/usr/share/doc/osmqos/examples/slurm/slurm-jobs.conf" ||
	e2e_fail "the example job map does not name $osm_pol"

# ---- the same files as the Debian package ----------------------------
debfiles=
saved=${OQ_MAIN_BUILD:-$top_builddir}/tests/e2e/package-files.txt
if [ -s "$saved" ] &&
   [ -z "$(find "$top_srcdir/debian" "$top_srcdir/contrib" \
	   "$top_srcdir/Makefile.am" -newer "$saved" \
	   \( -path "$top_srcdir/debian/*" -o -name '*.am' \) -print -quit \
	   2>/dev/null)" ]; then
	debfiles=$saved
	e2e_log "the .deb's files: $saved (tests/e2e/package.sh)"
else
	command -v dpkg-buildpackage >/dev/null && command -v lintian >/dev/null ||
		e2e_skip "no .deb file list from tests/e2e/package.sh and no" \
			"dpkg-buildpackage/lintian to build one (apt-get install debhelper lintian)"
	e2e_log "no fresh .deb file list from tests/e2e/package.sh: building the .deb"
	DEB_BUILD_OPTIONS="nocheck parallel=$(nproc)" \
		bash "$top_srcdir/contrib/package/build-deb.sh" "$top_srcdir" \
		"$E2E_DIR/deb" >"$E2E_DIR/deb.out" 2>&1 ||
		e2e_fail "build-deb.sh: $(tail -n 20 "$E2E_DIR/deb.out")"
	dpkg-deb --fsys-tarfile "$(ls "$E2E_DIR"/deb/osmqos_*.deb)" | tar -t |
		sed 's|^\./|/|' >"$E2E_DIR/deb-contents"
	debfiles=$E2E_DIR/deb-contents
fi
grep -v '/$' "$debfiles" |
	sed -e 's|^/usr/lib/[a-z0-9_]*-linux-gnu[a-z0-9_]*/|/usr/lib64/|' \
	    -e 's|^/usr/share/doc/osmqos/copyright$|/usr/share/licenses/osmqos/copyright|' \
	    -e '\|^/usr/share/doc/osmqos/changelog\(\.Debian\)\{0,1\}\.gz$|d' \
	    -e '\|^/usr/share/lintian/|d' \
	    -e 's|^\(/usr/share/doc/osmqos/[^/]*\)\.gz$|\1|' \
	    -e 's|^\(/usr/share/doc/osmqos/docs/[^/]*\)\.gz$|\1|' |
	sort >"$E2E_DIR/deb-files"
grep -v '^/usr/lib/\.build-id/' "$E2E_DIR/rpm-files" >"$E2E_DIR/rpm-files.cmp"
if ! diff -u "$E2E_DIR/deb-files" "$E2E_DIR/rpm-files.cmp" >"$E2E_DIR/files.diff"; then
	cat "$E2E_DIR/files.diff"
	e2e_fail "the RPM's files differ from the .deb's (- .deb, + RPM, paths mapped)"
fi
e2e_log "files: the same $(wc -l <"$E2E_DIR/deb-files") as the .deb's, paths mapped"

# ---- the packaged programs -------------------------------------------
"$root/usr/bin/osmqos" --version | grep -qF "(models $OQ_OSM_VERSION)" ||
	e2e_fail "the packaged osmqos --version: $("$root/usr/bin/osmqos" --version)"
audit=$E2E_DIR/audit.json
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_opensm_conf qos=TRUE \
	"qos_policy_file=$top_srcdir/contrib/policies/fat-tree-16.conf" \
	"event_plugin_options=audit=$audit publish_dir=$E2E_DIR"
E2E_OSM_LOG=$E2E_DIR/opensm.log
LD_LIBRARY_PATH="$root/usr/lib64${OQ_OSM_LIBDIR:+:$OQ_OSM_LIBDIR}" \
LD_PRELOAD="$OQ_UMAD2SIM" "$OQ_OPENSM" -F "$E2E_OSM_CONF" -f "$E2E_OSM_LOG" \
	>"$E2E_DIR/opensm.out" 2>&1 &
E2E_OPENSM_PID=$!
e2e_wait_for "SUBNET UP" "$E2E_OSM_LOG" ||
	e2e_fail "no SUBNET UP: $(tail -n 5 "$E2E_DIR/opensm.out")"
grep -q "osmqos_create: osmqos .* loaded (built for $OQ_OSM_VERSION)" "$E2E_OSM_LOG" ||
	e2e_fail "opensm did not load the packaged plugin: $(grep -i plugin "$E2E_OSM_LOG" | head -n 3)"
grep -qF "$root/usr/lib64/libosmqos.so" "/proc/$E2E_OPENSM_PID/maps" ||
	e2e_fail "opensm mapped no $root/usr/lib64/libosmqos.so"
s=$(e2e_lid "stor1 HCA-1")
d=$(e2e_lid "cn04 HCA-1")
[ -n "$s" ] && [ -n "$d" ] || e2e_fail "no LIDs for stor1/cn04"
e2e_sim saquery -p --slid "$s" --dlid "$d" >"$E2E_DIR/pr.out" 2>&1 ||
	e2e_fail "saquery: $(tail -n 3 "$E2E_DIR/pr.out")"
e2e_stop_opensm # flushes the audit trail
jq -e --argjson s "$s" --argjson d "$d" \
	'select(.granted.slid == $s and .granted.dlid == $d)' "$audit" \
	>/dev/null || e2e_fail "no audit record of the PathRecord $s -> $d in $audit"
e2e_log "the packaged plugin ($OQ_OSM_VERSION) answered PathRecord $s -> $d"
e2e_pass
