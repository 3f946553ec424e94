#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# build-rpm.sh SRCDIR OUTDIR [OPENSM_PREFIX]: build the osmqos binary RPM
# from the source tree SRCDIR (contrib/rpm/osmqos.spec) with rpmbuild,
# check it with rpmlint, and leave osmqos-*.rpm and the build and rpmlint
# logs in OUTDIR.  `make rpm` runs it with OUTDIR = the build directory
# and OPENSM_PREFIX = configure's --with-opensm (empty: the system's
# OpenSM, opensm-devel).
#
# The source tarball holds the files git tracks plus new ones it does not
# ignore (as contrib/package/build-deb.sh copies them); without git, the
# whole tree, which must then be clean.  rpmbuild runs in a scratch
# _topdir with a clean environment.  On a host whose RPM database lacks
# the BuildRequires (a Debian machine building for Fedora) they are not
# checked (--nodeps); the build itself still needs them (OpenSM's headers
# under OPENSM_PREFIX, libibumad's, a compiler).  RPM_BUILD_NOCHECK=1
# skips %check (its unit tests).
#
# Exit status: 0 built, and rpmlint reports no error or warning but
# those the spec justifies ("# rpmlint: TAG: why" comments); 1 otherwise,
# with the log's last lines; 2 usage or missing tools.
set -eu

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: build-rpm.sh SRCDIR OUTDIR [OPENSM_PREFIX] (or: make rpm)" >&2
	exit 2
fi
src=$(cd "$1" && pwd -P)
mkdir -p "$2"
out=$(cd "$2" && pwd)
prefix=${3:-}
spec=$src/contrib/rpm/osmqos.spec
for t in rpmbuild rpmlint rpm; do
	command -v "$t" >/dev/null || {
		echo "build-rpm.sh: $t not found: apt-get install rpm rpmlint (dnf install rpm-build rpmlint)" >&2
		exit 2
	}
done
[ -f "$spec" ] || {
	echo "build-rpm.sh: no $spec: give the top of the osmqos source tree" >&2
	exit 2
}
version=$(sed -n 's/^Version:[[:space:]]*//p' "$spec")

work=$(mktemp -d "${TMPDIR:-/tmp}/osmqos-rpm.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/SOURCES" "$work/tree/osmqos-$version"
tree=$work/tree/osmqos-$version
if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$src" ]; then
	missing=$(git -C "$src" ls-files -d)
	if [ -n "$missing" ]; then
		echo "build-rpm.sh: tracked files missing from $src (git checkout -- them, or git rm):" >&2
		echo "$missing" >&2
		exit 2
	fi
	git -C "$src" ls-files -z -c -o --exclude-standard |
		(cd "$src" && xargs -0 cp --parents -a -t "$tree" --)
else
	cp -a "$src/." "$tree/"
fi
tar -C "$work/tree" -czf "$work/SOURCES/osmqos-$version.tar.gz" "osmqos-$version"

args=(-bb --define "_topdir $work")
[ -z "$prefix" ] || args+=(--define "opensm_prefix $prefix")
[ -z "${RPM_BUILD_NOCHECK:-}" ] || args+=(--nocheck)
# Debian's rpm as Fedora's rpm and redhat-rpm-config are: documentation
# in unversioned directories, brp-compress run by bash (/bin/sh there is
# dash, which lacks read -d).
args+=(--define "_docdir_fmt %%{NAME}")
if [ "$(readlink -f /bin/sh)" != "$(readlink -f "$(command -v bash)")" ]; then
	args+=(--define "__brp_compress bash %{_rpmconfigdir}/brp-compress %{?_prefix}")
fi
# BuildRequires another distribution's packages name cannot be checked
# against a database that has none of them.
if ! rpm -q --whatprovides rdma-core-devel >/dev/null 2>&1; then
	args+=(--nodeps)
fi
log=$out/osmqos-rpm-build.log
echo "build-rpm.sh: building osmqos $version${prefix:+ against the OpenSM in $prefix} (log: $log)"
# A clean environment, as a build system gives (a caller's MAKEFLAGS
# would steer the package's own make).
if ! env -i PATH="$PATH" HOME="${HOME:-/root}" LC_ALL=C.UTF-8 \
	TMPDIR="${TMPDIR:-/tmp}" rpmbuild "${args[@]}" "$spec" >"$log" 2>&1; then
	echo "build-rpm.sh: rpmbuild failed; the end of $log:" >&2
	tail -n 25 "$log" >&2
	exit 1
fi
rpms=$(find "$work/RPMS" -name 'osmqos-*.rpm')
[ -n "$rpms" ] || { echo "build-rpm.sh: rpmbuild made no osmqos RPM ($log)" >&2; exit 1; }

# rpmlint: an error or warning fails unless the spec says why it stays.
lint=$out/osmqos-rpm-rpmlint.log
rpmlint $rpms "$spec" >"$lint" 2>&1 || true
kept=$(sed -n 's/^# rpmlint: \([a-z0-9-]*\):.*/\1/p' "$spec")
bad=$(grep -E '^[^ ]+: (E|W): ' "$lint" | while read -r line; do
	tag=$(awk '{ print $3 }' <<<"$line")
	grep -qxF "$tag" <<<"$kept" || echo "$line"
done)
if [ -n "$bad" ]; then
	echo "build-rpm.sh: rpmlint errors or unjustified warnings ($lint):" >&2
	echo "$bad" >&2
	exit 1
fi
rm -f "$out"/osmqos-*.rpm
cp $rpms "$out/"
echo "build-rpm.sh: rpmlint: $(grep -cE '^[^ ]+: E: ' "$lint" || true) errors and $(grep -cE '^[^ ]+: W: ' "$lint" || true) warnings, each justified in the spec ($lint)"
for r in $rpms; do
	echo "$out/$(basename "$r")"
done
