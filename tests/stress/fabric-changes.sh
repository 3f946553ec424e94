#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Fabric changes.  Through the ibsim console, during
# operation: unlink a leaf-to-spine link, unlink a CA's link, remove a
# whole leaf switch (every port unlinked: it and its 4 CAs disappear),
# then link them all back.  After each change and a sweep (SIGHUP):
#  * every live port holds the policy's tables (read back with smpquery,
#    compared with `osmqos tables --json` on a fresh ibnetdiscover);
#  * PathRecord answers exclude the gone ports: queries to a gone CA's LID
#    or GID get no record and no audit line, a per-pair-audited half
#    query (one source, every destination) names none of them;
#  * a re-linked CA or switch is programmed before its link goes ACTIVE:
#    in OpenSM's SMP frame log (log_flags 0x20) every SL2VL/VLArb Set to
#    the node comes before the PortInfo Set that moves it to ARMED and
#    to ACTIVE.
# At the end the fabric is whole again: tables and answers equal the
# ones from before the first change.
#
# ibsim's console has Link, Unlink, ReLink and Clear; a node is re-added
# here by linking each of its ports with Link, which names both ends.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
. "$top_srcdir/tests/stress/faults-lib.sh"
faults_init fabric-changes

pol=$top_srcdir/tests/stress/faults-policy.conf
audit=$E2E_DIR/audit.log
: "${FC_QUERY_HOST:=cn02}"

e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" log_flags=0x23 \
	"event_plugin_options=audit=$audit"
wait_sweep 1

# sweep: SIGHUP, then wait until OpenSM is idle again (no new SUBNET UP
# for 1.5 s; the change's trap may have started a sweep of its own).
sweep() {
	local ups n i stable=0 t0 last=

	t0=$(faults_now)
	ups=$(grep -c "SUBNET UP" "$E2E_OSM_LOG")
	kill -HUP "$E2E_OPENSM_PID"
	for ((i = 0; i < 600; i++)); do
		n=$(grep -c "SUBNET UP" "$E2E_OSM_LOG")
		if [ "$n" -gt "$ups" ]; then
			[ "$n" = "$last" ] && stable=$((stable + 1)) || stable=0
			[ "$stable" -ge 15 ] && break
		fi
		last=$n
		sleep 0.1
	done
	[ "$stable" -ge 15 ] || e2e_fail "no quiet SUBNET UP after SIGHUP"
	SWEEP_SECS=$(faults_secs "$t0" "$(faults_now)")
	kill -0 "$E2E_OPENSM_PID" 2>/dev/null || e2e_fail "opensm died"
}

# check_tables NAME: fresh topology, prediction and read-back of every
# live port; sets NPORTS and leaves topo-NAME.ibnd, cas-NAME.
check_tables() {
	local name=$1

	faults_fresh_topology "$E2E_DIR/topo-$name.ibnd"
	faults_cas "$E2E_DIR/topo-$name.ibnd" >"$E2E_DIR/cas-$name"
	faults_predict "$E2E_DIR/topo-$name.ibnd" "$pol" "$E2E_OSM_CONF" \
		"$E2E_DIR/tables-$name.json"
	faults_tables_snapshot "$E2E_DIR/tables-$name.json" \
		"$E2E_DIR/readback-$name" ||
		e2e_fail "$name: programmed tables differ from osmqos tables"
	NPORTS=$(awk '{print $1" "$2}' "$E2E_DIR/readback-$name" | sort -u | wc -l)
}

# q OUT ARGS...: osmqos query --json from FC_QUERY_HOST.
q() {
	local out=$E2E_DIR/q-$1

	shift
	SIM_HOST=$FC_QUERY_HOST e2e_sim "$top_builddir/osmqos" query --json \
		--timeout 3000 "$@" >"$out.json" 2>"$out.err"
	echo $? >"$out.rc"
}
qrc() { cat "$E2E_DIR/q-$1.rc"; }
qrecords() { jq '.records | length' "$E2E_DIR/q-$1.json"; }

# Every query that must be tellable in the audit carries a ServiceID of
# the policy's trail range, 0x2000000000000000 + TAG.
tag=0
next_tag() { tag=$((tag + 1)); TAG=$(printf '0x20000000%08x' "$tag"); }
# tagged_lines SID [SECS]: audit lines of that query, once the count has
# been stable for a second (the writer is asynchronous).
tagged_lines() {
	local n last=-1 i

	for ((i = 0; i < ${2:-10} * 10; i++)); do
		n=$(jq -c --arg s "$1" 'select(.query.service_id == $s)' \
			"$audit" | wc -l)
		[ "$n" = "$last" ] && [ $((i % 10)) = 9 ] && break
		[ $((i % 10)) = 9 ] && last=$n
		sleep 0.1
	done
	jq -c --arg s "$1" 'select(.query.service_id == $s)' "$audit"
}

# half_query NAME: cn01 to every port (a half query, decided per pair:
# one audit line per destination).  The answer needs RMPP, which
# umad2sim lacks, so the audit trail is what is checked.  Leaves the
# destination GUIDs in half-NAME and their number in HALF.
half_query() {
	next_tag
	q "half-$1" --sgid "$g_cn01" --sid "$TAG" --numb-path 1
	tagged_lines "$TAG" | jq -r '.dst.guid' | sort >"$E2E_DIR/half-$1"
	HALF=$(wc -l <"$E2E_DIR/half-$1")
}

# gone NAME GUID LID: every way of asking for the port is answered with
# no record and leaves no audit line.
gone() {
	local name=$1 guid=$2 lid=$3 st

	next_tag
	q "gone-$name-lid" --slid "$cn01" --dlid "$lid" --sid "$TAG"
	q "gone-$name-gid" --sgid "$g_cn01" --dgid "$guid" --sid "$TAG"
	q "gone-$name-mpr" --mpr --sgids "$g_cn01" --dgids "$guid" --sid "$TAG"
	for v in lid gid mpr; do
		[ "$(qrc "gone-$name-$v")" = 1 ] &&
		[ "$(qrecords "gone-$name-$v")" = 0 ] ||
			e2e_fail "$name gone: the $v query got" \
				"'$(cat "$E2E_DIR/q-gone-$name-$v.json")'" \
				"(rc $(qrc "gone-$name-$v"))"
	done
	[ -z "$(tagged_lines "$TAG" 2)" ] ||
		e2e_fail "$name gone: audit lines for queries to it:" \
			"$(tagged_lines "$TAG" 1 | head -n 2)"
	st=$(jq -r .status "$E2E_DIR/q-gone-$name-mpr.json")
	e2e_log "$name gone: PR by LID and by GID: no record, MPR: $st, no audit line"
}

# programmed_first NAME GUID: in the frames since MARK, the node whose
# NodeInfo carried port GUID got its SL2VL/VLArb Sets before the
# PortInfo Sets that made it ARMED and ACTIVE.
programmed_first() {
	local name=$1 path n last armed active

	path=$(faults_node_path "$E2E_DIR/frames" "$2")
	[ -n "$path" ] || e2e_fail "$name: OpenSM never discovered it again"
	read -r n last armed active < <(faults_active_order "$E2E_DIR/frames" "$path")
	[ "$n" -gt 0 ] || e2e_fail "$name: no SL2VL/VLArb Set was sent to it (path $path)"
	[ "$active" -gt 0 ] || e2e_fail "$name: no PortInfo Set made it ACTIVE"
	[ "$armed" -gt 0 ] && [ "$last" -lt "$armed" ] && [ "$last" -lt "$active" ] ||
		e2e_fail "$name: last QoS Set is SMP #$last, ARMED #$armed, ACTIVE #$active"
	e2e_log "$name (path $path): $n QoS Sets, the last SMP #$last;" \
		"ARMED #$armed, ACTIVE #$active"
}

# phase_log WHAT [MORE]: the figures of the change just checked.
phase_log() {
	e2e_log "$1: swept in $SWEEP_SECS s, $(qos_sets_since "$mark") QoS" \
		"Sets, tables equal on $NPORTS ports$2"
}

# lid_state LID: "Active", "Armed", ... from smpquery portinfo.
lid_state() {
	e2e_sim smpquery portinfo "$1" 2>/dev/null |
		sed -n 's/^LinkState:\.*//p' | head -n 1
}

# 0. The whole fabric.
check_tables base
base_ports=$NPORTS
mapfile -t cas <"$E2E_DIR/cas-base"
[ "${#cas[@]}" = 16 ] || e2e_fail "expected 16 CAs, found ${#cas[@]}"
ca() { awk -v n="$1" -v f="$2" '$1 == n { print $f }' "$E2E_DIR/cas-base"; }
cn01=$(ca cn01 2) g_cn01=$(ca cn01 3) cn04=$(ca cn04 2)
cn05=$(ca cn05 2) g_cn05=$(ca cn05 3)
e2e_log "base: tables equal on $base_ports ports"
# The answers to compare at the end: by LID, by GID, classes, MPR.
baseline() {
	local i=0 s d

	for s in cn01 stor2 cn07 cn11; do
		for d in cn05 stor4 cn12 cn03; do
			[ "$s" = "$d" ] && continue
			i=$((i + 1))
			case $((i % 4)) in
			0) q "$1-$i" --slid "$(ca $s 2)" --dlid "$(ca $d 2)" ;;
			1) q "$1-$i" --sgid "$(ca $s 3)" --dgid "$(ca $d 3)" --qos-class 5 ;;
			2) q "$1-$i" --slid "$(ca $s 2)" --dlid "$(ca $d 2)" \
				--sid 0x1000000000000142 ;;
			3) q "$1-$i" --mpr --sgids "$(ca $s 3)" --dgids "$(ca $d 3)" \
				--qos-class 7 ;;
			esac
		done
	done
	BASELINE_N=$i
}
baseline before
for ((i = 1; i <= BASELINE_N; i++)); do
	[ "$(qrc "before-$i")" = 0 ] ||
		e2e_fail "baseline query $i failed: $(cat "$E2E_DIR/q-before-$i.err")"
done
half_query base
half_base=$HALF
grep -qx "$g_cn05" "$E2E_DIR/half-base" || e2e_fail "base: the half query did not reach cn05"
e2e_log "base: $BASELINE_N baseline answers, half query from cn01: $half_base audit lines"

# 1. A leaf-to-spine link goes: leaf01 P5 - spine01 P1.
mark=$(wc -l <"$E2E_OSM_LOG")
e2e_ibsim_cmd 'Unlink "leaf01"[5]'
sweep
check_tables uplink
phase_log "leaf01/P5 unlinked"
[ "$NPORTS" -lt "$base_ports" ] || e2e_fail "uplink: still $NPORTS ports checked"
next_tag
q uplink --slid "$cn01" --dlid "$cn04" --sid "$TAG"
[ "$(qrc uplink)" = 0 ] || e2e_fail "cn01 -> cn04 unanswered without leaf01/P5"
bn=$(tagged_lines "$TAG" | jq -r '.predicted.bottleneck // ""')
case $bn in *"leaf01/P5"*) e2e_fail "cn01 -> cn04 still predicted through leaf01/P5: $bn" ;; esac
e2e_log "cn01 -> cn04 answered, bottleneck now '$bn'"

# 2. A CA's link goes: cn05 disappears.
mark=$(wc -l <"$E2E_OSM_LOG")
e2e_ibsim_cmd 'Unlink "cn05"[1]'
sweep
check_tables ca
grep -q "^cn05 " "$E2E_DIR/cas-ca" && e2e_fail "cn05 still discovered"
phase_log "cn05 unlinked"
gone cn05 "$g_cn05" "$cn05"
half_query ca
grep -qx "$g_cn05" "$E2E_DIR/half-ca" && e2e_fail "the half query still reaches cn05"
[ "$HALF" = $((half_base - 1)) ] ||
	e2e_fail "half query without cn05: $HALF lines, want $((half_base - 1))"

# 3. A whole node goes: every port of leaf04 (and so stor4, cn10-12).
mark=$(wc -l <"$E2E_OSM_LOG")
e2e_ibsim_cmd 'Unlink "leaf04"'
sweep
check_tables node
phase_log "leaf04 unlinked" ", $(wc -l <"$E2E_DIR/cas-node") CAs left"
[ "$(wc -l <"$E2E_DIR/cas-node")" = 11 ] || e2e_fail "expected 11 CAs without cn05 and leaf04's 4"
for n in stor4 cn10 cn11 cn12; do
	gone "$n" "$(ca $n 3)" "$(ca $n 2)"
done
half_query node
for n in stor4 cn10 cn11 cn12; do
	grep -qx "$(ca $n 3)" "$E2E_DIR/half-node" &&
		e2e_fail "the half query still reaches $n"
done
# leaf04's own port 0 goes too.
[ "$HALF" = $((half_base - 6)) ] ||
	e2e_fail "half query without leaf04's subtree: $HALF lines, want $((half_base - 6))"
e2e_log "half query from cn01: $half_base -> $HALF audit lines, none to a gone port"

# 4. cn05 comes back.  Its port must be programmed before it is ACTIVE.
mark=$(wc -l <"$E2E_OSM_LOG")
e2e_ibsim_cmd 'Link "cn05"[1] "leaf02"[3]'
sweep
faults_smp_frames "$E2E_OSM_LOG" "$mark" >"$E2E_DIR/frames"
programmed_first cn05 "$g_cn05"
check_tables ca-back
[ "$(lid_state "$cn05")" = Active ] || e2e_fail "cn05 is $(lid_state "$cn05"), not Active"
phase_log "cn05 relinked"

# 5. leaf04 comes back: its CAs first, the uplinks last, so the whole
# subtree appears in one sweep.
mark=$(wc -l <"$E2E_OSM_LOG")
e2e_ibsim_cmd 'Link "leaf04"[1] "stor4"[1]'
e2e_ibsim_cmd 'Link "leaf04"[2] "cn10"[1]'
e2e_ibsim_cmd 'Link "leaf04"[3] "cn11"[1]'
e2e_ibsim_cmd 'Link "leaf04"[4] "cn12"[1]'
e2e_ibsim_cmd 'Link "leaf04"[5] "spine01"[4]'
e2e_ibsim_cmd 'Link "leaf04"[6] "spine02"[4]'
sweep
faults_smp_frames "$E2E_OSM_LOG" "$mark" >"$E2E_DIR/frames"
g_leaf04=$(gawk '/^Switch/ && /# "leaf04"/ {
		match($0, /"S-[0-9a-fA-F]+"/)
		printf "0x%016x\n", strtonum("0x" substr($0, RSTART + 3, RLENGTH - 4))
		exit
	}' "$E2E_DIR/topo-base.ibnd")
programmed_first leaf04 "$g_leaf04"
for n in stor4 cn10 cn11 cn12; do
	programmed_first "$n" "$(ca $n 3)"
	[ "$(lid_state "$(ca $n 2)")" = Active ] || e2e_fail "$n is not Active"
done
check_tables node-back
phase_log "leaf04 relinked"

# 6. The uplink comes back: the fabric is whole again.
mark=$(wc -l <"$E2E_OSM_LOG")
e2e_ibsim_cmd 'Link "leaf01"[5] "spine01"[1]'
sweep
check_tables whole
phase_log "leaf01/P5 relinked"
[ "$NPORTS" = "$base_ports" ] || e2e_fail "whole again: $NPORTS ports, want $base_ports"
diff -u "$E2E_DIR/readback-base" "$E2E_DIR/readback-whole" ||
	e2e_fail "tables differ from the ones before the changes"
diff -u "$E2E_DIR/cas-base" "$E2E_DIR/cas-whole" ||
	e2e_fail "CA LIDs/GUIDs differ from the ones before the changes"
baseline after
for ((i = 1; i <= BASELINE_N; i++)); do
	cmp -s "$E2E_DIR/q-before-$i.json" "$E2E_DIR/q-after-$i.json" ||
		e2e_fail "baseline answer $i differs: $(cat "$E2E_DIR/q-after-$i.json")"
done
half_query whole
diff -u "$E2E_DIR/half-base" "$E2E_DIR/half-whole" ||
	e2e_fail "the half query reaches other ports than before the changes"
e2e_log "whole again: $BASELINE_N answers byte-identical to the first ones, half query $HALF lines"

if grep "ERR" "$E2E_OSM_LOG" | grep -v "ERR AC" | grep -qi osmqos; then
	e2e_fail "plugin-caused ERR lines in the opensm log"
fi
e2e_pass
