#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# build-opensm.sh REF: build and install upstream OpenSM REF (3.3.24 or
# master) from its source tarball, for the tests against other OpenSM
# releases than the system's (tests/opensm/check-release).  Prints the
# install prefix (for configure --with-opensm=PREFIX) on its last line.
# REF 3.3.24-nopm is 3.3.24 configured --disable-perf-mgr, REF
# 3.3.24-debug and 3.3.23-debug that release configured --enable-debug
# (_DEBUG_): the same version with another osm_opensm_t
# (tests/opensm/build-options.sh).
#
# The tarballs are OpenSM's git trees as released (git archive of the tag
# 3.3.24, of master), not shipped with osmqos: they are looked for in
# OQ_OPENSM_SOURCES, default ../shared/opensm/ beside the source tree
# (opensm-3.3.24.tar.gz, opensm-master-*.tar.gz; opensm-3.3.23.tar.gz,
# Debian's release, for 3.3.23-debug).  Without them the exit status is
# 77 (skip) and the reason is printed.
#
# Built once: OQ_OPENSM_BUILDS/REF (default opensm-builds/REF in the
# build directory) keeps the sources, the install and a stamp naming the
# tarball's sha256; a second run with the same tarball only prints the
# prefix.  Runs for the same REF wait for each other (flock).  Only the
# SM is built (complib, libopensm, libvendor, opensm, the headers; no
# osmtest, no static libraries): well under a minute of CPU.
#
# Needs autoconf, automake, libtoolize and libtool (libtool-bin), flex,
# bison, a C compiler and libibumad-dev.  Exit status: 0 built (or
# cached), 1 the build failed (the log's tail is printed), 77 skipped.
set -u
ref=${1:-}
case $ref in
3.3.24 | master | 3.3.24-nopm | 3.3.24-debug | 3.3.23-debug) ;;
*)
	echo "usage: build-opensm.sh" \
		"3.3.24|master|3.3.24-nopm|3.3.24-debug|3.3.23-debug" >&2
	exit 2
	;;
esac
here=$(cd "$(dirname "$0")" && pwd)
srctop=$(cd "$here/../.." && pwd)
sources=${OQ_OPENSM_SOURCES:-$srctop/../shared/opensm}
builds=${OQ_OPENSM_BUILDS:-${top_builddir:-$PWD}/opensm-builds}

skip() {
	echo "build-opensm.sh: SKIP: $*"
	exit 77
}

options=
case $ref in
*-nopm) options=--disable-perf-mgr ;;
*-debug) options=--enable-debug ;;
esac
if [ "$ref" = master ]; then
	tarball=$(ls "$sources"/opensm-master-*.tar.gz 2>/dev/null | head -n 1)
else
	tarball=$sources/opensm-${ref%-*}.tar.gz
fi
[ -n "$tarball" ] && [ -f "$tarball" ] ||
	skip "no OpenSM $ref source tarball in $sources" \
		"(opensm-3.3.24.tar.gz, opensm-master-*.tar.gz," \
		"opensm-3.3.23.tar.gz: git archive of linux-rdma/opensm's tags" \
		"3.3.24 and 3.3.23 and of master); set OQ_OPENSM_SOURCES to" \
		"their directory"
for t in autoconf automake libtoolize libtool flex bison make; do
	command -v "$t" >/dev/null ||
		skip "$t not installed, needed to build OpenSM from git" \
			"(apt-get install autoconf automake libtool libtool-bin flex bison)"
done
[ -f /usr/include/infiniband/umad.h ] ||
	skip "libibumad headers missing (apt-get install libibumad-dev)"

mkdir -p "$builds" || { echo "build-opensm.sh: cannot create $builds" >&2; exit 1; }
builds=$(cd "$builds" && pwd)
dir=$builds/$ref
inst=$dir/inst
stamp=$inst/.osmqos-built-from
log=$dir/build.log
sum=$(sha256sum "$tarball" | awk '{ print $1 }')

exec 9>"$builds/.$ref.lock"
flock 9
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sum $(basename "$tarball")" ] &&
	[ -x "$inst/sbin/opensm" ]; then
	echo "build-opensm.sh: OpenSM $ref already built from $(basename "$tarball")"
	echo "$inst"
	exit 0
fi

echo "build-opensm.sh: building OpenSM $ref from $tarball in $dir (log: $log)"
rm -rf "$dir"
mkdir -p "$dir/src" || exit 1
start=$(date +%s)
fail() {
	echo "build-opensm.sh: $* failed; the end of $log:" >&2
	tail -n 25 "$log" >&2
	exit 1
}
parts="complib libopensm libvendor opensm include"
jobs=${OQ_OPENSM_JOBS:-$(nproc)}
# build: each step's output to the log; prints the step that failed.
build() {
	local d
	tar -C "$dir/src" --strip-components=1 -xzf "$tarball" ||
		{ echo "unpacking $tarball" >&3; return 1; }
	cd "$dir/src" || return 1
	./autogen.sh || { echo "autogen.sh" >&3; return 1; }
	./configure --prefix="$inst" --disable-static $options ||
		{ echo configure >&3; return 1; }
	for d in $parts; do
		make -C "$d" -j"$jobs" || { echo "make in $d" >&3; return 1; }
	done
	for d in $parts; do
		make -C "$d" install || { echo "make install in $d" >&3; return 1; }
	done
}
step=$( (build 3>&1 >"$log" 2>&1) ) || fail "${step:-the build}"
v=$("$inst/sbin/opensm" --version 2>/dev/null | sed -n 's/^\(OpenSM [0-9.]*\).*/\1/p')
[ -n "$v" ] || fail "$inst/sbin/opensm --version"
echo "$sum $(basename "$tarball")" >"$stamp"
echo "build-opensm.sh: $v (from $ref) in $inst, $(($(date +%s) - start)) s"
echo "$inst"
