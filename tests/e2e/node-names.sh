#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Node names as OpenSM has them, end to end (data/node-names/): opensm.conf
# names a node-name map, and a policy names ports by a mapped name
# ("node-a/P1") and by a NodeDescription two HCAs share ("dup HCA-1/P1").
#  1. Stock OpenSM answers PathRecords by those names: the mapped name
#     resolves, and of the two "dup HCA-1" it picks 0x...0100, the first of
#     its node table (network byte order), not the lower GUID 0x...0002.
#  2. The plugin answers the same, and logs the shared name once, naming
#     the node OpenSM uses, however many sweeps run; its load line counts
#     the policy as `osmqos check` does; its audit trail gives each end
#     port's name by the map ("name") beside its NodeDescription ("node").
#  3. The CLI, given the same opensm.conf (or --node-name-map), resolves
#     the policy and its port arguments by the mapped names, warns about
#     the shared name once in check --fabric, refuses it as an argument
#     with both GUIDs, and reaches the same levels as the SA did.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init node-names
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

data=$top_srcdir/tests/e2e/data/node-names
pol=$data/policy.conf
map=$data/node-name-map
dup_first=0x0002c90300000100 dup_low=0x0002c90300000002
e2e_start_ibsim "$data/fabric.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" "node_name_map_name=$map" \
	"event_plugin_name=(null)"
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"

# lid_of GUID: the LID of port 1 of the CA with this node GUID.
lid_of() {
	awk -v g="\"H-${1#0x}\"" '
		/^Ca/ { c = ($3 == g); next }
		c && /^\[1\]/ && match($0, /# lid [0-9]+/) {
			print substr($0, RSTART + 6, RLENGTH - 6); exit
		}' "$E2E_DIR/topo.ibnd"
}
src=$(lid_of 0x0002c90300000300) a=$(lid_of 0x0002c90300000200)
d1=$(lid_of $dup_first) d2=$(lid_of $dup_low)
for v in src a d1 d2; do
	[ -n "${!v}" ] || e2e_fail "no LID for $v in the fabric"
done
e2e_log "LIDs: node-b $src, node-a $a, dup $dup_first $d1, dup $dup_low $d2"

# sl DLID: the SL of the PathRecord node-b -> DLID.  A query the SM
# could not take yet (just after a restart) is asked again.
sl() {
	local i out
	for ((i = 0; i < 5; i++)); do
		out=$(e2e_sim saquery -p --slid "$src" --dlid "$1" 2>&1 |
			sed -n 's/^[[:space:]]*sl\.*0x\([0-9a-f]*\)$/\1/p')
		[ -n "$out" ] && break
		sleep 0.5
	done
	echo "$out"
}
# answers: "node-a dup-first dup-low" SLs.
answers() { echo "$(sl "$a") $(sl "$d1") $(sl "$d2")"; }

# 1. Stock OpenSM.
stock=$(answers)
[ "$stock" = "2 3 0" ] ||
	e2e_fail "stock OpenSM: SLs to node-a, $dup_first, $dup_low are '$stock', want '2 3 0'"
e2e_log "stock OpenSM: $stock"
e2e_stop_opensm

# 2. The plugin: the same answers, the shared name logged once.
audit=$E2E_DIR/audit.log
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" "node_name_map_name=$map" \
	"event_plugin_options=audit=$audit"
plugin=$(answers)
[ "$plugin" = "$stock" ] ||
	e2e_fail "with the plugin: SLs '$plugin', stock OpenSM '$stock'"
# Its audit trail names each end port as OpenSM does (by the map's name),
# beside the NodeDescription: node-b/P1 -> node-a/P1, and a "dup HCA-1"
# by that name.
e2e_wait_count '"granted":{' "$audit" 3 10 ||
	e2e_fail "the audit trail has not 3 granted answers: $(cat "$audit" 2>/dev/null)"
jq -e -s '
	(map(select(.src.node == "c02 HCA-1" and .dst.node == "c01 HCA-1")) | length) > 0 and
	(map(select(.dst.node == "dup HCA-1")) | length) > 0 and
	all(.[] | select(.src.node == "c02 HCA-1"); .src.name == "node-b/P1") and
	all(.[] | select(.dst.node == "c01 HCA-1"); .dst.name == "node-a/P1") and
	all(.[] | select(.dst.node == "dup HCA-1"); .dst.name == "dup HCA-1/P1")' \
	"$audit" >/dev/null ||
	e2e_fail "the audit trail does not name the ends by the map: $(head -n 3 "$audit")"
e2e_hup_sweep "osmqos: sweep 2: published" 60
warn="port-name 'dup HCA-1/P1': 2 nodes are named 'dup HCA-1'; OpenSM's parser uses node $dup_first"
n=$(grep -c -F "$warn" "$E2E_OSM_LOG")
[ "$n" = 1 ] || e2e_fail "the shared name is logged $n times, want once: $(grep 'dup HCA-1' "$E2E_OSM_LOG" | head -n 3)"
grep -q "no node is named 'node-a'" "$E2E_OSM_LOG" &&
	e2e_fail "the plugin did not resolve the mapped name node-a"
e2e_log "plugin: $plugin, the shared name logged once"
# The plugin's load line counts what `osmqos check` counts.
counts=$(e2e_osmqos check "$pol" | sed 's/^.*: valid: //; s/, [0-9]* warnings*$//')
grep -q -F "policy $pol loaded: $counts, " "$E2E_OSM_LOG" ||
	e2e_fail "the plugin's load line does not count '$counts': $(grep 'loaded:' "$E2E_OSM_LOG" | head -n 1)"

# 3. The CLI, by the opensm.conf the SM ran with.
conf=$E2E_OSM_CONF topo=$E2E_DIR/topo.ibnd
e2e_osmqos check "$pol" --fabric "$topo" --opensm-conf "$conf" \
	>"$E2E_DIR/check.out" 2>"$E2E_DIR/check.err" ||
	e2e_fail "check --fabric exited $?: $(cat "$E2E_DIR/check.err")"
[ "$(grep -c -F "warning: $warn" "$E2E_DIR/check.err")" = 1 ] ||
	e2e_fail "check --fabric does not warn once: $(cat "$E2E_DIR/check.err")"
grep -q "node-a" "$E2E_DIR/check.err" &&
	e2e_fail "check --fabric missed the mapped name: $(cat "$E2E_DIR/check.err")"
# Without the map, node-a is no node's name.
e2e_osmqos check "$pol" --fabric "$topo" 2>"$E2E_DIR/nomap.err" >/dev/null
grep -q "no node is named 'node-a'" "$E2E_DIR/nomap.err" ||
	e2e_fail "without the map node-a should be unknown: $(cat "$E2E_DIR/nomap.err")"

# level DST [MAP-OPTION...]: the level match gives node-b -> DST.
level() {
	local dst=$1
	shift
	e2e_osmqos match --json -p "$pol" -f "$topo" --src node-b --dst "$dst" \
		"$@" 2>"$E2E_DIR/match.err" | sed -n 's/.*"sl": \([0-9]*\).*/\1/p'
}
for args in "-c $conf" "--node-name-map $map"; do
	# shellcheck disable=SC2086
	got="$(level node-a $args) $(level lid:$d1 $args) $(level lid:$d2 $args)"
	[ "$got" = "$stock" ] ||
		e2e_fail "match $args: SLs '$got', the SA said '$stock' ($(cat "$E2E_DIR/match.err"))"
	got=$(level "node-a/P1" $args)
	[ "$got" = 2 ] || e2e_fail "match $args --dst node-a/P1: SL '$got'"
	got=$(level "$(printf '0x%016x' $((dup_first + 1)))" $args)
	[ "$got" = 3 ] || e2e_fail "match $args --dst by port GUID: SL '$got'"
done
# The shared name is no port argument: both GUIDs, exit 2 (after the
# policy's own warning about it).
e2e_osmqos match -p "$pol" -f "$topo" -c "$conf" --src node-b \
	--dst "dup HCA-1/P1" >/dev/null 2>"$E2E_DIR/dup.err"
rc=$?
first=$(grep -m 1 '^osmqos match:' "$E2E_DIR/dup.err")
[ $rc = 2 ] && [[ "$first" == "osmqos match: --dst 'dup HCA-1/P1': 2 nodes fit: 'dup HCA-1' $dup_first, 'dup HCA-1' $dup_low; give a port GUID (0x...) or the whole name" ]] ||
	e2e_fail "--dst 'dup HCA-1/P1': exit $rc, $first"
e2e_log "CLI: check warns once, match by mapped names gives '$stock'"
e2e_pass
