#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Once a read of OpenSM's cached SL2VL found no SL dropped anywhere, the
# SA reads it again only on the ports QoS Sets went to, and a port that
# comes up with a table that drops an SL is among them.  The policy drops
# SL 14 on every switch port whose link leads to cn02 (across-to), and
# cn02's link is down when opensm starts: nothing is dropped, the SA
# keeps no copy.  cn03 goes down and comes back: the Sets of its sweep go
# to its port and its leaf's, the phases line says how few ports were
# read, and SL 14 still has paths.  Then cn02 comes up: leaf01 port 3
# gets the dropping table, the SA reads it, and a path to cn02 on SL 14
# has no record, as in OpenSM's own SA, while SL 0 has one.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init sa-drop-port
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

sid=0x1000000000000100
pol=$E2E_DIR/policy.conf
cat >"$pol" <<'POL'
port-groups
    port-group
        name: cn02
        port-name: "cn02 HCA-1/P1"
    end-port-group
end-port-groups
qos-setup
    sl2vl-tables
        sl2vl-scope
            across-to: cn02
            sl2vl-table: 0,1,2,3,4,5,6,7,0,1,2,3,4,5,15,7
        end-sl2vl-scope
    end-sl2vl-tables
end-qos-setup
POL
e2e_sid_levels "$sid" 14 >>"$pol"

e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_ibsim_cmd 'Unlink "cn02"[1]'
sleep 1
e2e_start_opensm qos=TRUE "qos_policy_file=$pol"
! grep -q "of node: *cn02 HCA-1" "$E2E_OSM_LOG" ||
	e2e_fail "cn02 was up at opensm's first sweep"

# change CMD DESC down|up: CMD on ibsim's console, then the sweep after
# which opensm's log says it removed (down) or discovered (up) DESC's
# port: on the leaf's trap, or a SIGHUP when none came within 10 s (at
# most five).  Sets chg_phases to that sweep's phases line.
change() {
	local cmd=$1 desc=$2 pat mark i j

	pat="Discovered new port with GUID:.* of node: *$desc\$"
	[ "$3" = down ] && pat="Removed port with GUID:.* of node: *$desc\$"
	mark=$(wc -l <"$E2E_OSM_LOG")
	e2e_ibsim_cmd "$cmd"
	for i in 1 2 3 4 5 6; do
		((i == 1)) || e2e_hup_sweep "osmqos: sweep [0-9]*: phases"
		for ((j = 0; j < 50; j++)); do
			chg_phases=$(tail -n +$((mark + 1)) "$E2E_OSM_LOG" |
				awk -v p="$pat" '$0 ~ p { seen = 1 }
				seen && /osmqos: sweep [0-9]*: phases:/ {
					sub(/.*osmqos: /, ""); print; exit }')
			[ -n "$chg_phases" ] && return 0
			sleep 0.2
		done
	done
	e2e_fail "opensm did not log '$pat' and a phases line after '$cmd'"
}
# lid NODE: the LID opensm gave NODE's port when it last discovered it,
# else the one the fabric reports.
lid() {
	local l
	l=$(grep -o "Discovered new port with GUID:.* LID range \[[0-9]*,.* of node: *$1 HCA-1\$" \
		"$E2E_OSM_LOG" | tail -n 1 | sed 's/.*LID range \[//; s/,.*//')
	if [ -n "$l" ]; then echo "$l"; else e2e_lid "$1 HCA-1"; fi
}
# ask NAME SRC DST [--sid SID]: a PathRecord SRC -> DST by LID, from cn01.
ask() {
	local name=$1 src dst
	src=$(lid "$2") dst=$(lid "$3")
	if [ -z "$src" ] || [ -z "$dst" ]; then
		e2e_fail "$name: no LID for $2 or $3"
	fi
	shift 3
	e2e_pr_get "$name" "$src" "$dst" "$@"
}

ask start cn03 cn01 --sid $sid
e2e_expect start '.records | length' 1
e2e_expect start '.records[0].sl' 14

# cn03 goes and comes back: its sweep's Sets go to its port and leaf01
# port 4, and only ports the Sets went to are read; the subnet's copy
# reads only the nodes that changed.
change 'Unlink "cn03"[1]' "cn03 HCA-1" down
change 'ReLink "cn03"[1]' "cn03 HCA-1" up
all=$(grep -o 'SL2VL of all [0-9]* ports read' "$E2E_OSM_LOG" |
	head -n 1 | sed 's/.* all //; s/ .*//')
[ -n "$all" ] || e2e_fail "no sweep read every port's SL2VL"
read_n=$(grep -o 'SL2VL of [0-9]* ports read' <<<"$chg_phases" |
	sed 's/.* of //; s/ .*//')
if ! [[ $read_n =~ ^[0-9]+$ ]] || ((read_n < 1 || read_n >= all)); then
	e2e_fail "cn03's return: SL2VL read on '$read_n' ports, want 1 to" \
		"$((all - 1)) of $all: $chg_phases"
fi
e2e_log "cn03 back: SL2VL read on $read_n of $all ports"
# The copy of the subnet read cn03 and leaf01 again, and shared the
# other nodes with the copy in force.
nodes_read=$(grep -o '([0-9]* of [0-9]* nodes read)' <<<"$chg_phases")
read_k=$(sed 's/(//; s/ of.*//' <<<"$nodes_read")
read_of=$(sed 's/.* of //; s/ nodes.*//' <<<"$nodes_read")
if ! [[ $read_k =~ ^[0-9]+$ ]] || ((read_k < 1 || read_k > 2 ||
	read_of < 10)); then
	e2e_fail "cn03's return read '$nodes_read' of the subnet, want 1" \
		"or 2 of all its nodes: $chg_phases"
fi
e2e_log "cn03 back: the subnet's copy read $read_k of $read_of nodes"
ask back cn03 cn01 --sid $sid
e2e_expect back '.records | length' 1
e2e_expect back '.records[0].sl' 14

# cn02 comes up: leaf01 port 3 gets the table that drops SL 14, the
# SA finds it among the ports the Sets went to, and reads them all.
change 'ReLink "cn02"[1]' "cn02 HCA-1" up
[[ $chg_phases == *"SL2VL of all "*" ports read"* ]] ||
	e2e_fail "cn02's return did not read every port: $chg_phases"
for i in 1 2; do
	ask "dropped$i" cn03 cn02 --sid $sid
	e2e_expect "dropped$i" '.records | length' 0
	ask "default$i" cn03 cn02
	e2e_expect "default$i" '.records | length' 1
	e2e_expect "default$i" '.records[0].sl' 0
	ask "other$i" cn03 cn01 --sid $sid
	e2e_expect "other$i" '.records | length' 1
done

# The plugin answered them all, the ones with no record included, not
# OpenSM's own SA (which would drop the same SL): the count of its own
# decisions, published at the next sweep.
e2e_hup_sweep "osmqos: sweep [0-9]*: phases"
answered=$(awk '$1 == "osmqos_sa_decision_seconds_count" { print $2 }' \
	"$E2E_DIR/osmqos.prom")
((${answered:-0} >= 8)) ||
	e2e_fail "the plugin answered '$answered' PathRecord queries, want 8"
e2e_pass
