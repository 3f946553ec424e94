# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Shared by the doctor tests: source it after setting name (the test's
# name, for its messages).  Sets osmqos, lib and opensm (the binaries
# doctor is run with), dir (a scratch directory removed at exit) and fail;
# exits 99 when the build is missing, 77 when opensm or jq is.
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$PWD}
osmqos=$top_builddir/osmqos
lib=$top_builddir/.libs/libosmqos.so
opensm=$(PATH=$PATH:/usr/sbin command -v opensm)
[ -x "$osmqos" ] || { echo "$name: build osmqos first"; exit 99; }
[ -f "$lib" ] || { echo "$name: the plugin is not built ($lib)"; exit 99; }
[ -n "$opensm" ] || { echo "SKIP: $name: no opensm binary"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: $name: no jq"; exit 77; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/oq-$name.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
bad() {
	echo "FAIL: $*"
	fail=1
}

# doctor NAME WANT-RC [ARGS...]: run it, keep the output in $dir/NAME.out.
doctor() {
	local name=$1 want=$2
	shift 2
	"$osmqos" doctor --plugin "$lib" --opensm "$opensm" "$@" \
		>"$dir/$name.out" 2>&1
	local rc=$?
	[ "$rc" = "$want" ] || bad "$name: exit $rc, want $want: $(cat "$dir/$name.out")"
}
