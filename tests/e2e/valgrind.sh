#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# opensm start, three sweeps (a policy reload, then a bad edit that OpenSM's
# copy of the policy keeps out), PathRecord and MultiPathRecord answers from
# the plugin (a Get too, and a Get that finds two records once the port has
# an alias GUID: its pairs held, then audited as ERR_TOO_MANY_RECORDS), and
# shutdown under memcheck with the plugin loaded: no invalid access
# anywhere and no leak from libosmqos.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init valgrind
command -v valgrind >/dev/null || e2e_skip "valgrind not installed (apt-get install valgrind)"
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

E2E_TIMEOUT=120
E2E_OPENSM_WRAPPER="valgrind --error-exitcode=42 --leak-check=full \
	--show-leak-kinds=definite --log-file=$E2E_DIR/valgrind.%p.log"
pol=$E2E_DIR/qos-policy.conf
cp "$top_srcdir/tests/e2e/data/program-policy.conf" "$pol"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol"
e2e_wait_for "osmqos: sweep 1: " "$E2E_OSM_LOG" 60 || e2e_fail "no sweep 1"
# A second sweep with a changed policy: reload, state swap, old state freed.
sed -i 's/vl-high-limit: 10/vl-high-limit: 11/' "$pol"
kill -HUP "$E2E_OPENSM_PID"
e2e_wait_for "osmqos: sweep 2: " "$E2E_OSM_LOG" 90 || e2e_fail "no sweep 2"
e2e_wait_for "osmqos: sweep 2: published" "$E2E_OSM_LOG" 90 ||
	e2e_fail "sweep 2 did not reach SUBNET UP"
# The SA front's answer path: a PathRecord and a 1x1 MultiPathRecord.
src=$(e2e_lid "cn01 HCA-1") dst=$(e2e_lid "cn09 HCA-1")
[ -n "$src" ] && [ -n "$dst" ] || e2e_fail "no cn01/cn09 in the fabric"
e2e_sim "$top_builddir/osmqos" query --json --timeout 20000 --slid "$src" \
	--dlid "$dst" >"$E2E_DIR/pr.out" 2>"$E2E_DIR/pr.err" ||
	e2e_fail "PathRecord query failed: $(cat "$E2E_DIR/pr.err")"
sgid=$(e2e_guid "cn01 HCA-1") dgid=$(e2e_guid "cn09 HCA-1")
e2e_sim "$top_builddir/osmqos" query --json --timeout 20000 --mpr \
	--sgids "$sgid" --dgids "$dgid" >"$E2E_DIR/mpr.out" 2>"$E2E_DIR/mpr.err" ||
	e2e_fail "MultiPathRecord query failed: $(cat "$E2E_DIR/mpr.err")"
npr=$(jq '.records | length' "$E2E_DIR/pr.out")
nmpr=$(jq '.records | length' "$E2E_DIR/mpr.out")
[ "$npr" -ge 1 ] && [ "$nmpr" -ge 1 ] ||
	e2e_fail "no records: PR $npr, MPR $nmpr"
e2e_log "answered under memcheck: PR $npr record(s), MPR $nmpr record(s)"
e2e_sim "$top_builddir/osmqos" query --get --timeout 20000 --slid "$src" \
	--dlid "$dst" >"$E2E_DIR/get.out" 2>&1 ||
	e2e_fail "PathRecord Get failed: $(cat "$E2E_DIR/get.out")"
# cn09 gets an alias GUID (copied at the next heavy sweep): a Get by its
# LID alone (the source the requester, every alias of it) then finds two
# records.
setter=$top_builddir/tests/e2e/sa_guidinfo_set
[ -x "$setter" ] || e2e_fail "tests/e2e/sa_guidinfo_set is not built (make check builds it)"
SIM_HOST=cn09 e2e_sim "$setter" set "$dst" 0x0002c90300abcdef >/dev/null ||
	e2e_fail "the GuidInfoRecord Set was refused"
# A bad edit: the plugin refuses it, OpenSM reads the last good copy.
echo "qos-levels oops" >>"$pol"
kill -HUP "$E2E_OPENSM_PID"
e2e_wait_for "osmqos: sweep 3: " "$E2E_OSM_LOG" 90 || e2e_fail "no sweep 3"
grep -q "osmqos: policy .* rejected" "$E2E_OSM_LOG" ||
	e2e_fail "the bad edit was not rejected"
e2e_wait_for "osmqos: sweep 3: published" "$E2E_OSM_LOG" 90 ||
	e2e_fail "sweep 3 did not reach SUBNET UP"
e2e_sim "$top_builddir/osmqos" query --get --timeout 20000 --dlid "$dst" \
	>"$E2E_DIR/get2.out" 2>&1 &&
	e2e_fail "a Get to a port with an alias GUID got a record"
grep -q "ERR_TOO_MANY_RECORDS" "$E2E_DIR/get2.out" ||
	e2e_fail "the Get with two records: $(cat "$E2E_DIR/get2.out")"
e2e_stop_opensm
vg=$(ls "$E2E_DIR"/valgrind.*.log | head -n 1)
[ -s "$vg" ] || e2e_fail "no valgrind log"
grep -E "ERROR SUMMARY|definitely lost" "$vg" | sed 's/^/  /'
if grep -q "Invalid \(read\|write\)\|uninitialised" "$vg" &&
   grep -A12 "Invalid \(read\|write\)\|uninitialised" "$vg" | grep -q osmqos; then
	e2e_fail "memcheck errors in the plugin: see $vg"
fi
# Leak records whose stack passes through the plugin.
if awk '/definitely lost in/ {rec = 1; buf = ""} rec {buf = buf $0 "\n"}
	rec && /^==[0-9]+== $/ {if (buf ~ /libosmqos|osmqos_/) {print buf; bad = 1}; rec = 0}
	END {exit !bad}' "$vg"; then
	e2e_fail "leaks from libosmqos: see $vg"
fi
grep -q "osmqos: unloading" "$E2E_OSM_LOG" || e2e_fail "plugin delete() not called"
e2e_pass
