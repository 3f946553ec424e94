#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# An alias GUID set or deleted through the SA (GuidInfoRecord, as a host
# stack assigns virtual GUIDs) changes OpenSM's alias table at once, with
# no heavy sweep.  A PathRecord to the alias must then be answered as
# OpenSM's table says: found after the Set, gone after the Delete, also
# when the plugin's copy of the table held it.  While the copy is stale,
# queries go to OpenSM's own SA (logged once) until a heavy sweep copies
# the table again; then the plugin answers them itself, audited.  A Get
# by LID to the port then finds two records (its GUID and the alias):
# OpenSM's ERR_TOO_MANY_RECORDS, audited as such (nothing granted, not
# counted as an answer).  A Set or Delete OpenSM refuses changes
# nothing: the plugin keeps answering.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init sa-alias
setter=$top_builddir/tests/e2e/sa_guidinfo_set
[ -x "$setter" ] || e2e_fail "tests/e2e/sa_guidinfo_set is not built (make check builds it)"
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

alias=0x0002c90300abcdef
audit=$E2E_DIR/audit.log
e2e_start_ibsim "$top_srcdir/tests/e2e/data/sa-diff/lmc-fattree-9.net"
e2e_start_opensm qos=TRUE \
	"event_plugin_options=audit=$audit publish_dir=$E2E_DIR publish_interval=1"
e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 60 ||
	e2e_fail "the first sweep was not published"
cn=$(e2e_lid "cn01 HCA-1")
[ -n "$cn" ] || e2e_fail "no LID for cn01"
src=$(e2e_guid "cn02 HCA-1")

# records: the PathRecords from cn02 to the alias, as [[dlid, dgid]...].
records() {
	SIM_HOST=cn02 e2e_sim "$top_builddir/osmqos" query --json \
		--sgid "$src" --dgid "$alias" --numb-path 1 2>/dev/null |
		jq -c '[.records[] | [.dlid, .dgid]]'
}
one_record() {
	local r
	r=$(records)
	[ "$(jq length <<<"$r")" = 1 ] && [ "$(jq -r '.[0][0]' <<<"$r")" = "$cn" ] ||
		e2e_fail "$1: $r, want one record to cn01 (LID $cn)"
}
stale_lines() { grep -c "osmqos: alias GUIDs were set or deleted" "$E2E_OSM_LOG"; }
gir() {
	SIM_HOST=cn01 e2e_sim "$setter" "$@" >/dev/null
}

[ "$(records)" = "[]" ] || e2e_fail "the alias has a path before it is set: $(records)"
# 1. Refused (a LID no port has): nothing changes, nothing is stale.
gir delete 999 "$alias" && e2e_fail "a Delete on LID 999 was accepted"
[ "$(records)" = "[]" ] || e2e_fail "after a refused Delete: $(records)"
[ "$(stale_lines)" = 0 ] || e2e_fail "a refused GuidInfoRecord made the alias copy stale"
# 2. Set while the copy lacks it: OpenSM's answer, the copy said stale.
gir set "$cn" "$alias" || e2e_fail "the GuidInfoRecord Set was refused"
one_record "after the Set"
[ "$(stale_lines)" = 1 ] || e2e_fail "the stale alias copy was not said once: $(stale_lines)"
[ "$(grep -c -- "$alias" "$audit" 2>/dev/null)" = 0 ] ||
	e2e_fail "a path to the alias was answered by the stale copy (audited)"
# 3. A heavy sweep copies the table: the plugin answers, audited.
e2e_hup_sweep "osmqos: sweep [0-9]*: published"
one_record "after the heavy sweep"
e2e_wait_count "$alias" "$audit" 1 10 ||
	e2e_fail "the plugin did not answer (and audit) the alias after the heavy sweep"
# 3b. A Get by the port's LID: one record per GUID, two, so OpenSM's
# osm_sa_respond() sends ERR_TOO_MANY_RECORDS and no record.  The trail
# says so for both pairs and the answer counters do not move.
answered() {
	awk '$1 ~ /^osmqos_sa_pr_answered_total\{/ { n += $2 } END { print n + 0 }' \
		"$E2E_DIR/osmqos.prom"
}
sleep 1.5 # the counters of the answers above published
before=$(answered)
lines=$(wc -l <"$audit")
out=$(SIM_HOST=cn02 e2e_sim "$top_builddir/osmqos" query --get --dlid "$cn" 2>&1) &&
	e2e_fail "a Get to a port with an alias GUID was answered: $out"
grep -q "ERR_TOO_MANY_RECORDS" <<<"$out" || e2e_fail "the Get got: $out"
grep -q "ERR 4C05: Got 2 records for SubnAdmGet(PathRecord)" "$E2E_OSM_LOG" ||
	e2e_fail "OpenSM did not refuse the Get's two records (ERR 4C05)"
e2e_wait_count . "$audit" $((lines + 2)) 10 || e2e_fail "the Get's pairs were not audited"
get=$(tail -n +$((lines + 1)) "$audit" | jq -c 'select(.method == "Get") |
	[.dst.guid, .granted, .sa_status, .reason]' | sort)
want='["0x0002c90300abcdef",null,1024,"more than one record for a Get (ERR_TOO_MANY_RECORDS)"]'
[ "$(grep -c . <<<"$get")" = 2 ] && grep -qxF -- "$want" <<<"$get" &&
	[ "$(grep -cF -- ',null,1024,"more than one record' <<<"$get")" = 2 ] ||
	e2e_fail "the Get's audit lines: $get"
sleep 1.5
[ "$(answered)" = "$before" ] ||
	e2e_fail "the refused Get counted as answered: $before -> $(answered)"
n=$(grep -c -- "$alias" "$audit")
# 4. Deleted while the copy holds it: no path, none audited.
gir delete "$cn" "$alias" || e2e_fail "the GuidInfoRecord Delete was refused"
[ "$(records)" = "[]" ] || e2e_fail "after the Delete the alias still has a path: $(records)"
sleep 1 # the audit writer's batch
[ "$(grep -c -- "$alias" "$audit")" = "$n" ] ||
	e2e_fail "a path to the deleted alias was answered from the copy (audited)"
e2e_log "refused: no change; set and deleted: answered as OpenSM's table says; after a heavy sweep the plugin answers, audited; a Get finding two records audited as ERR_TOO_MANY_RECORDS"
e2e_pass
