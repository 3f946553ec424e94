#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# build-deb.sh SRCDIR OUTDIR: build the osmqos Debian package from the
# source tree SRCDIR (debian/) in a scratch copy, check it with lintian,
# and leave osmqos_*.deb, the .changes and the build and lintian logs in
# OUTDIR.  `make deb` runs it with OUTDIR = the build directory.
#
# The copy: the files git tracks plus new ones it does not ignore (so
# uncommitted work is packaged, build products are not); without git,
# every file but the build products .gitignore names is unknown, so the
# tree must be clean (fresh from a tarball).  The package is built there,
# never in SRCDIR: dpkg-buildpackage starts with `debian/rules clean`,
# which would run `make distclean` on an in-tree build.
#
# Needs (Debian 12): dpkg-dev, debhelper, lintian and the Build-Depends
# of debian/control.  Exit status: 0 built and lintian has no error or
# warning (debian/osmqos.lintian-overrides lists the ones kept, with
# why); 1 otherwise, with the log's last lines; 2 usage or missing tools.
set -eu

if [ $# -ne 2 ]; then
	echo "usage: build-deb.sh SRCDIR OUTDIR (or: make deb)" >&2
	exit 2
fi
src=$(cd "$1" && pwd -P) # as git rev-parse --show-toplevel resolves it
mkdir -p "$2"
out=$(cd "$2" && pwd)
for t in dpkg-buildpackage dh lintian; do
	command -v "$t" >/dev/null || {
		echo "build-deb.sh: $t not found: apt-get install dpkg-dev debhelper lintian" >&2
		exit 2
	}
done
[ -f "$src/debian/control" ] || {
	echo "build-deb.sh: no $src/debian/control: give the top of the osmqos source tree" >&2
	exit 2
}
version=$(dpkg-parsechangelog -l "$src/debian/changelog" -S Version)

work=$(mktemp -d "${TMPDIR:-/tmp}/osmqos-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
tree=$work/osmqos-$version
mkdir "$tree"
# Only a checkout whose top is SRCDIR: a tarball unpacked inside some
# other repository is copied whole.
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$src" ]; then
	# A tracked file deleted from the work tree is not copied: say so.
	missing=$(git -C "$src" ls-files -d)
	if [ -n "$missing" ]; then
		echo "build-deb.sh: tracked files missing from $src (git checkout -- them, or git rm):" >&2
		echo "$missing" >&2
		exit 2
	fi
	git -C "$src" ls-files -z -c -o --exclude-standard |
		(cd "$src" && xargs -0 cp --parents -a -t "$tree" --)
else
	cp -a "$src/." "$tree/"
fi

log=$out/osmqos-deb-build.log
echo "build-deb.sh: building osmqos $version in $tree (log: $log)"
# A clean environment, as a build daemon gives: run from `make check`,
# the caller's MAKEFLAGS (with its command-line variables such as
# TEST_LOGS) would reach the package's own make and run the whole suite,
# this test included, inside the package build.  OSMQOS_IN_DEB_BUILD
# makes tests/e2e/package.sh skip should a package build ever run it.
if ! (cd "$tree" && env -i PATH="$PATH" HOME="${HOME:-/root}" LC_ALL=C.UTF-8 \
	OSMQOS_IN_DEB_BUILD=1 TMPDIR="${TMPDIR:-/tmp}" ${DEB_BUILD_OPTIONS:+DEB_BUILD_OPTIONS="$DEB_BUILD_OPTIONS"} \
	dpkg-buildpackage -us -uc -b) >"$log" 2>&1; then
	echo "build-deb.sh: dpkg-buildpackage failed; the end of $log:" >&2
	tail -n 25 "$log" >&2
	exit 1
fi
changes=$(ls "$work"/osmqos_"$version"_*.changes)
lint=$out/osmqos-deb-lintian.log
# --fail-on warning: every warning kept is overridden, with its reason,
# in debian/osmqos.lintian-overrides.
if ! lintian --fail-on error,warning --info "$changes" >"$lint" 2>&1; then
	echo "build-deb.sh: lintian found errors or warnings ($lint):" >&2
	grep -E '^[EW]: ' "$lint" >&2 || tail -n 20 "$lint" >&2
	exit 1
fi
rm -f "$out"/osmqos_*.deb "$out"/osmqos-dbgsym_*.deb "$out"/osmqos_*.changes "$out"/osmqos_*.buildinfo
cp "$work"/*.deb "$work"/*.buildinfo "$changes" "$out/"
# dbgsym packages are .ddeb files; keep them beside the package.
cp "$work"/*.ddeb "$out/" 2>/dev/null || true
echo "build-deb.sh: lintian clean ($(grep -c . "$lint" || true) lines in $lint)"
ls "$out"/osmqos_"$version"_*.deb
