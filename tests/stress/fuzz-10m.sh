#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# make stress: the long libFuzzer runs.  Builds the libFuzzer
# binaries (clang, ASan + UBSan, leak detection) with run-fuzz.sh and runs
# the policy parser, partitions.conf loader, topology loader and SA request
# decoder for FUZZ_RUNS executions each, split over FUZZ_JOBS processes
# that share one corpus.  Prints execs, wall time, exec/s and crashes per
# target.  Every crash, leak or timeout input is copied into
# tests/fuzz/corpus/TARGET/ of the source tree, so the `make check` replay
# keeps it as a regression input once the bug is fixed.
#
# Environment:
#   FUZZ_RUNS      executions per target (default 10000000)
#   FUZZ_JOBS      parallel fuzzing processes per target (default: nproc,
#                  at most 4); each runs FUZZ_RUNS / FUZZ_JOBS
#   FUZZ_NAMES     targets (default "policy partitions topology sa_request")
#   FUZZ_MAX_SECS  optional cap on each target's wall time; a capped run
#                  that ends short of FUZZ_RUNS is reported, not failed
#   FUZZ_SAVE      0: do not copy findings into the source tree
#   CLANG          clang to build with (default: clang)
# Run from the build directory (make stress does).  Ends with PASS or
# "FAIL: why"; exit 0 or 1.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$PWD}
runs=${FUZZ_RUNS:-10000000}
jobs=${FUZZ_JOBS:-$(nproc)}
[ "$jobs" -gt 4 ] && jobs=4
[ "$jobs" -lt 1 ] && jobs=1
names=${FUZZ_NAMES:-policy partitions topology sa_request}
max_secs=${FUZZ_MAX_SECS:-0}
CLANG=${CLANG:-clang}

fail() {
	echo "FAIL: $*"
	exit 1
}

command -v "$CLANG" >/dev/null ||
	fail "$CLANG not found; apt-get install clang (libFuzzer ships with it)"

# Targets that exist in this tree; a missing one is noted, not fatal
# (fuzz_sa_request.c arrives with the SA engine).
targets=() build=()
for n in $names; do
	if [ -f "$top_srcdir/tests/fuzz/fuzz_$n.c" ]; then
		targets+=("$n")
		build+=("tests/fuzz/fuzz_$n.c")
	else
		echo "NOTE: tests/fuzz/fuzz_$n.c does not exist yet; $n skipped"
	fi
done
[ "${#targets[@]}" -gt 0 ] ||
	fail "no fuzz target found in $top_srcdir/tests/fuzz"

cd "$top_builddir" || fail "no build directory $top_builddir"
echo "building ${targets[*]} with $CLANG (libFuzzer, ASan, UBSan)"
FUZZ_TARGETS="${build[*]}" CLANG="$CLANG" \
	bash "$top_srcdir/tests/fuzz/run-fuzz.sh" build ||
	fail "libFuzzer build failed (see the compiler output above)"
bin=${FUZZ_BIN:-$top_builddir/tests/fuzz/bin}

work=$(mktemp -d "${TMPDIR:-/tmp}/oq-fuzz10m.XXXXXX")
pids=()
stop() {
	local p
	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	rm -rf "$work"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

per_job=$(((runs + jobs - 1) / jobs))
bad=()
echo "$runs executions per target, $jobs jobs of $per_job"
for n in "${targets[@]}"; do
	d=$work/$n
	mkdir -p "$d/corpus" "$d/art"
	cp -r "$top_srcdir/tests/fuzz/corpus/$n/." "$d/corpus/" 2>/dev/null
	opts=(-runs="$per_job" -detect_leaks=1 -print_final_stats=1
	      -timeout=25 -rss_limit_mb=2048 -reload=10
	      -artifact_prefix="$d/art/")
	[ "$max_secs" != 0 ] && opts+=(-max_total_time="$max_secs")
	start=$(date +%s)
	pids=()
	for ((j = 0; j < jobs; j++)); do
		"$bin/fuzz_$n" "${opts[@]}" -seed=$((start + j * 7919)) \
			"$d/corpus" >"$d/job$j.log" 2>&1 &
		pids+=($!)
	done
	rcs=()
	for p in "${pids[@]}"; do
		wait "$p"
		rcs+=($?)
	done
	pids=()
	secs=$(($(date +%s) - start))
	[ "$secs" -gt 0 ] || secs=1
	execs=0
	for ((j = 0; j < jobs; j++)); do
		e=$(sed -n 's/^stat::number_of_executed_units: *//p' "$d/job$j.log")
		execs=$((execs + ${e:-0}))
	done
	nbad=${#bad[@]}
	mapfile -t found < <(find "$d/art" -type f | sort)
	crashes=0 leaks=0 others=0
	for f in "${found[@]}"; do
		case $(basename "$f") in
		leak-*) leaks=$((leaks + 1)) ;;
		crash-*) crashes=$((crashes + 1)) ;;
		*) others=$((others + 1)) ;;
		esac
	done
	printf '%s %s, %s, %s, %s\n' "$(printf 'fuzz %-11s %10d execs in %5d s' \
		"$n" "$execs" "$secs")" "($((execs / secs)) exec/s, $jobs jobs)" \
		"$crashes crashes, $leaks leaks, $others timeouts/ooms" \
		"corpus $(find "$d/corpus" -type f | wc -l) files" \
		"exit ${rcs[*]}"
	if [ "${#found[@]}" -gt 0 ]; then
		bad+=("$n: ${#found[@]} findings")
		for ((j = 0; j < jobs; j++)); do
			grep -m 3 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' \
				"$d/job$j.log" | sed "s/^/  $n job $j: /"
		done
		for f in "${found[@]}"; do
			if [ "${FUZZ_SAVE:-1}" != 0 ]; then
				cp "$f" "$top_srcdir/tests/fuzz/corpus/$n/" &&
					echo "  regression input: tests/fuzz/corpus/$n/$(basename "$f")"
			else
				echo "  finding: $f (FUZZ_SAVE=0: not kept)"
			fi
		done
		[ "${FUZZ_SAVE:-1}" != 0 ] || cp -r "$d/art" "$top_builddir/fuzz-$n-findings"
		continue
	fi
	for r in "${rcs[@]}"; do
		[ "$r" = 0 ] || bad+=("$n: a job exited $r without a finding (see its log)")
	done
	if [ "$execs" -lt "$runs" ]; then
		if [ "$max_secs" != 0 ]; then
			echo "  NOTE: $n stopped by FUZZ_MAX_SECS=$max_secs at" \
				"$execs of $runs executions"
		else
			bad+=("$n: only $execs of $runs executions")
		fi
	fi
	[ "${#bad[@]}" -gt "$nbad" ] && tail -n 20 "$d/job0.log" | sed "s/^/  $n: /"
done

[ "${#bad[@]}" -eq 0 ] || fail "${bad[*]}"
echo PASS
