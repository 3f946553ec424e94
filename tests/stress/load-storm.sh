#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Load: a PathRecord/MultiPathRecord storm against opensm
# with the plugin, on fat-tree-16 under ibsim, twice: with this build's
# plugin, then with an ASan+UBSan build of it (opensm itself is not
# instrumented: the ASan runtime is preloaded into it).
#
# Each run: LOAD_CLIENTS (4) tests/bench/sa_storm processes, each attached
# at its own CA (so each is a different requester), each with a window of
# LOAD_WINDOW (16) Gets outstanding, cycling over the 12 ordered LID pairs
# of 4 CAs on 4 leaves, with a different ServiceID each (one matching a
# rule range, one the absent-pkey level, one matching nothing, one with no
# ServiceID); together LOAD_QUERIES (1,000,000) PathRecord Gets.  The first
# 10% is a warm-up; then the rest.  Alongside, one client loops over
# `osmqos query --mpr` (a 2 x 2 MultiPathRecord: GetMulti over RMPP)
# until the storm ends.  Audit records must be dropped, counted, and the
# answers keep flowing: in the normal run the audit trail is a file and
# its writer thread is stopped (ptrace, tests/stress/load-stall) for
# LOAD_STALL_S (10) seconds mid-storm, so the 16384-record ring fills up;
# in the ASan run it is on a small tmpfs (LOAD_AUDIT_KB, 256 KiB) that
# fills up, so writes fail.  Both need root (ptrace, mount).
#
# Figures (stdout and LOAD_OUT, default tests/stress/load.txt): opensm
# VmRSS after the warm-up, its peak during the storm and at the end (flat
# means within LOAD_RSS_SLACK_PCT, 5%, plus 2 MiB; judged when the warm-up
# is at least 20000 queries, i.e. LOAD_QUERIES >= 200000), the clients'
# answers/s and p50/p99 latency, the MPR count and p99, the plugin's
# SA counters and audit written/dropped (logged at unload).  Fails on a
# crash, an unanswered query or an error status other than NO_RECORDS
# (the absent-pkey level's pairs), RSS growth, no audit drop when the
# tmpfs was used, or any ASan/UBSan report with a plugin frame.  Stock
# opensm's own reports under ASan (its vendor layer's MAD use-after-free,
# umad2sim's over-read, its leaks at exit) are suppressed or counted and
# printed, not failed: see load-lib.sh.
#
# LOAD_ASAN_BUILD: a build tree configured with --enable-sanitizers (its
# plugin is brought up to date and its .libs/libosmqos.so used); without
# it one is configured and built under tests/stress/load-asan (a few
# minutes the first time).  LOAD_SKIP_ASAN=1 skips that run.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/stress/load-lib.sh"
e2e_init load
declare -F load_run >/dev/null ||
	e2e_fail "tests/stress/load-lib.sh did not load (syntax error above?)"
load_trap

storm=$top_builddir/tests/bench/sa_storm
[ -x "$storm" ] ||
	e2e_fail "no $storm: run 'make tests/bench/sa_storm' in the build tree"
[ -x "$top_builddir/tests/stress/load-stall" ] ||
	e2e_fail "no $top_builddir/tests/stress/load-stall: run 'make tests/stress/load-stall' in the build tree"
command -v ibnetdiscover >/dev/null ||
	e2e_skip "ibnetdiscover not installed (apt-get install infiniband-diags)"

queries=${LOAD_QUERIES:-1000000}
clients=${LOAD_CLIENTS:-4}
window=${LOAD_WINDOW:-16}
slack=${LOAD_RSS_SLACK_PCT:-5}
out=${LOAD_OUT:-$top_builddir/tests/stress/load.txt}
[[ $queries =~ ^[1-9][0-9]*$ ]] || e2e_fail "LOAD_QUERIES must be a positive number"
[[ $clients =~ ^[1-4]$ ]] || e2e_fail "LOAD_CLIENTS must be 1..4"
(( queries >= 10 * clients )) || e2e_fail "LOAD_QUERIES must be at least $((10 * clients))"

net=$top_srcdir/contrib/fabrics/fat-tree-16.net
policy=$top_srcdir/tests/e2e/data/sa-diff/ft-levels.conf
hosts=(cn01 cn05 cn09 cn11)
cas=("stor1 HCA-1" "cn04 HCA-1" "cn08 HCA-1" "cn12 HCA-1")
sids=(0x1234 0x6234 0x9999 "")

report=$E2E_DIR/report.txt
: >"$report"
fail=

asan_build=${LOAD_ASAN_BUILD:-$top_builddir/tests/stress/load-asan}
if [ -z "${LOAD_SKIP_ASAN:-}" ]; then
	# Configured once, then brought up to date like any build.
	load_build_asan "$asan_build" ||
		e2e_fail "could not build the ASan plugin in $asan_build (see $asan_build/build.log)"
fi

e2e_start_ibsim "$net"
t0=$SECONDS
load_run normal "$top_builddir/.libs" stall
if [ -z "${LOAD_SKIP_ASAN:-}" ]; then
	[ -f "$asan_build/.libs/libosmqos.so" ] ||
		e2e_fail "no $asan_build/.libs/libosmqos.so: build it (make) or unset LOAD_ASAN_BUILD"
	load_run asan "$asan_build/.libs" full
fi
e2e_stop_ibsim

{
	printf '# load storm: %s PathRecord Gets from %s clients (window %s) + MPR loop, fat-tree-16 on ibsim, %s, %s cores\n' \
		"$queries" "$clients" "$window" "$(date -u '+%F %T UTC')" "$(nproc)"
	cat "$report"
} | tee "$E2E_DIR/load.txt"
mkdir -p "$(dirname "$out")"
cp "$E2E_DIR/load.txt" "$out" || e2e_fail "cannot write $out"
e2e_log "figures written to $out ($((SECONDS - t0)) s)"
[ -s "$report" ] || e2e_fail "no figures: the runs did not report"
[ -z "$fail" ] || e2e_fail "$fail"
echo PASS
e2e_pass
