#!/bin/bash
# Build and run libFuzzer targets with clang (ASan + UBSan + libFuzzer).
#   run-fuzz.sh build                 build every target in $FUZZ_TARGETS
#   run-fuzz.sh run NAME RUNS [SECS]  run tests/fuzz/bin/fuzz_NAME RUNS times
# Targets are tests/fuzz/fuzz_NAME.c; seeds in tests/fuzz/corpus/NAME/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
bin=${FUZZ_BIN:-$PWD/tests/fuzz/bin}
CLANG=${CLANG:-clang}
flags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$top/include -I$PWD"

case "${1:-}" in
build)
	mkdir -p "$bin"
	for t in ${FUZZ_TARGETS:-}; do
		name=$(basename "$t" .c)
		echo "  CLANG    $bin/$name"
		"$CLANG" $flags -o "$bin/$name" "$top/$t" "$top"/policy/*.c -lm
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
