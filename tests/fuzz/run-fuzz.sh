#!/bin/bash
# Build and run libFuzzer targets with clang (ASan + UBSan + libFuzzer).
#   run-fuzz.sh build                 build every target in $FUZZ_TARGETS
#   run-fuzz.sh run NAME RUNS [SECS]  run tests/fuzz/bin/fuzz_NAME RUNS times
# Targets are tests/fuzz/fuzz_NAME.c; seeds in tests/fuzz/corpus/NAME/.
# Each target links the same libraries as in `make check`, built here
# once with the fuzzing flags as static archives: the policy core, the
# plugin's OpenSM-free parts, the CLI and its MAD code, and the test
# checkers.  A target's own definitions win over an archive's (the SMP
# transport of fuzz_smp_discover.c).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin=${FUZZ_BIN:-$PWD/tests/fuzz/bin}
CLANG=${CLANG:-clang}
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$top/include -I$PWD"
inc="-I$top/plugin -I$top/contrib/osmqos -I$top/contrib/osmqos/mad -I$top/tests/unit -I$top/tests/lib"

# archive NAME SOURCES...: $bin/libNAME.a from the sources (fuzzer flags,
# but no libFuzzer main: -fsanitize=fuzzer-no-link).
archive() {
	local name=$1 src o objs=()
	shift
	mkdir -p "$bin/obj/$name"
	for src in "$@"; do
		o=$bin/obj/$name/$(basename "$src" .c).o
		"$CLANG" ${flags/fuzzer,/fuzzer-no-link,} $inc -c -o "$o" "$src"
		objs+=("$o")
	done
	rm -f "$bin/lib$name.a"
	ar rcs "$bin/lib$name.a" "${objs[@]}"
}

case "${1:-}" in
build)
	mkdir -p "$bin"
	echo "  AR       core, plugin, cli, mad, checks, fixture"
	archive core "$top"/policy/*/*.c
	# The plugin's rooms that include no OpenSM header (libosmqos-osmfree.la;
	# tests/arch-check.sh's OSMFREE_ROOMS), without the audit test seams.
	archive plugin $(ls "$top"/plugin/{options,documents,audit}/*.c |
		grep -v '/audit_test\.c$')
	archive cli $(ls "$top"/contrib/osmqos/*.c | grep -v '/main\.c$')
	archive mad "$top"/contrib/osmqos/mad/*.c
	archive checks "$top"/tests/unit/publish_*check.c
	# tests/lib's fixtures without cmocka (lib.am's libfixture.la).
	archive fixture "$top"/tests/lib/match_fixture.c \
		"$top"/tests/lib/audit_test_util.c
	for t in ${FUZZ_TARGETS:-}; do
		name=$(basename "$t" .c)
		echo "  CLANG    $bin/$name"
		"$CLANG" $flags $inc -o "$bin/$name" "$top/$t" -L"$bin" \
			-lcli -lmad -lplugin -lchecks -lfixture -lcore -libumad \
			-lpthread -lm
	done
	;;
run)
	name=$2
	runs=$3
	secs=${4:-0}
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	cp -r "$here/corpus/$name/." "$work/" 2>/dev/null || true
	opts="-runs=$runs -detect_leaks=1 -print_final_stats=1"
	[ "$secs" != 0 ] && opts="$opts -max_total_time=$secs"
	"$bin/fuzz_$name" $opts "$work"
	;;
*)
	echo "usage: $0 build | run NAME RUNS [SECS]" >&2
	exit 2
	;;
esac
