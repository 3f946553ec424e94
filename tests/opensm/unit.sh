#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The cmocka unit tests of this build (`make check-unit`'s set, what `make
# deb` and `make rpm` run in their checks), for a build against another
# OpenSM release than make check's (tests/opensm/check-release builds
# them, `make unit-tests`): their expectations that name or depend on the
# release must follow the one the build is for.  Each test's output goes
# to tests/opensm/unit-logs/ in the build directory; the failing ones'
# last lines are printed.
: "${top_builddir:=.}"
list=$(make -s -C "$top_builddir" list-unit-tests) ||
	{ echo "FAIL: make list-unit-tests"; exit 1; }
logs=$top_builddir/tests/opensm/unit-logs
mkdir -p "$logs" || exit 1
# The two random-fabric property runs take most of the set's time and read
# no OpenSM release fact (the tests that do name oq_osm_release() or the
# release's speeds); make check runs them.
skip="tests/unit/test_pred_class tests/unit/test_synth_fabric"
n=0 failed=0
for t in $list; do
	case " $skip " in *" $t "*) continue ;; esac
	n=$((n + 1))
	[ -x "$top_builddir/$t" ] ||
		{ echo "FAIL: $t not built (make unit-tests)"; failed=$((failed + 1)); continue; }
	log=$logs/${t##*/}.log
	if ! "$top_builddir/$t" >"$log" 2>&1; then
		echo "FAIL: $t:"
		grep -E '^\[  (ERROR|FAILED) |^ERROR|Failure' "$log" | head -n 10
		failed=$((failed + 1))
	fi
done
echo "unit tests: $((n - failed)) of $n passed"
[ "$failed" -eq 0 ]
