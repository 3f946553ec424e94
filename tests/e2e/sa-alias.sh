#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# An alias GUID set or deleted through the SA (GuidInfoRecord, as a host
# stack assigns virtual GUIDs) changes OpenSM's alias table at once, with
# no heavy sweep.  A PathRecord to the alias must then be answered as
# OpenSM answers it: found after the Set, gone after the Delete.  The
# plugin's copy of the table is stale meanwhile, so those queries go to
# OpenSM's own SA (logged once) until a heavy sweep copies the table
# again; then the plugin answers them itself, audited.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init sa-alias
setter=$top_builddir/tests/e2e/sa_guidinfo_set
[ -x "$setter" ] || e2e_fail "tests/e2e/sa_guidinfo_set is not built (make check builds it)"
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

alias=0x0002c90300abcdef
audit=$E2E_DIR/audit.log
e2e_start_ibsim "$top_srcdir/tests/e2e/data/sa-diff/lmc-fattree-9.net"
e2e_start_opensm qos=TRUE "event_plugin_options=audit=$audit publish_dir=$E2E_DIR"
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

[ "$(records)" = "[]" ] || e2e_fail "the alias has a path before it is set: $(records)"
SIM_HOST=cn01 e2e_sim "$setter" set "$cn" "$alias" >/dev/null ||
	e2e_fail "the GuidInfoRecord Set was refused"
r=$(records)
[ "$(jq length <<<"$r")" = 1 ] && [ "$(jq -r '.[0][0]' <<<"$r")" = "$cn" ] ||
	e2e_fail "after the Set: $r, want one record to cn01 (LID $cn)"
e2e_wait_for "osmqos: alias GUIDs were set or deleted through the SA" "$E2E_OSM_LOG" 10 ||
	e2e_fail "the plugin did not say its alias copy is stale"
SIM_HOST=cn01 e2e_sim "$setter" delete "$cn" "$alias" >/dev/null ||
	e2e_fail "the GuidInfoRecord Delete was refused"
[ "$(records)" = "[]" ] || e2e_fail "after the Delete the alias still has a path: $(records)"
[ "$(grep -c -- "$alias" "$audit" 2>/dev/null)" = 0 ] ||
	e2e_fail "a path to the alias was answered by the stale copy (audited)"
e2e_log "set and deleted through the SA: answered as OpenSM's table says"

# A heavy sweep copies the table again: the plugin answers, audited.
SIM_HOST=cn01 e2e_sim "$setter" set "$cn" "$alias" >/dev/null ||
	e2e_fail "the second GuidInfoRecord Set was refused"
e2e_hup_sweep "osmqos: sweep [0-9]*: published"
n0=$(wc -l <"$audit")
r=$(records)
[ "$(jq length <<<"$r")" = 1 ] || e2e_fail "after the heavy sweep: $r, want one record"
e2e_wait_count "$alias" "$audit" 1 10 ||
	e2e_fail "the plugin did not answer (and audit) the alias after the heavy sweep: $(tail -n 1 "$audit")"
e2e_log "after a heavy sweep the plugin answers the alias itself ($(($(wc -l <"$audit") - n0)) audit line)"
e2e_pass
