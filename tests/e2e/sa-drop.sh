#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# PathRecord answers against the SL2VL tables OpenSM holds for the ports:
# an SL that the switches map to VL15 (dropped) has no path, as in
# OpenSM's own SA.  A policy whose sl2vl-scope drops SL 14 on every
# switch port: the Service-ID whose level is on SL 14 gets no record, a
# query on SL 0 its record.  Then a policy that drops nothing (the SA
# then keeps no copy of the tables): SL 14 is answered; and the first
# policy again: it is dropped again.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init sa-drop
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

sid=0x1000000000000100
pol=$E2E_DIR/policy.conf
# write_policy VL: the Service-ID's level on SL 14, which every switch
# port maps to VL (15: dropped).
write_policy() {
	cat >"$pol" <<POL
port-groups
    port-group
        name: switches
        node-type: SWITCH
    end-port-group
end-port-groups
qos-setup
    sl2vl-tables
        sl2vl-scope
            group: switches
            from: *
            to: *
            sl2vl-table: 0,1,2,3,4,5,6,7,0,1,2,3,4,5,$1,7
        end-sl2vl-scope
    end-sl2vl-tables
end-qos-setup
POL
	e2e_sid_levels "$sid" 14 >>"$pol"
}
write_policy 15

e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol"
grep -q "osmqos: policy .* loaded" "$E2E_OSM_LOG" ||
	e2e_fail "the plugin did not load the policy: $(grep osmqos "$E2E_OSM_LOG" | tail -n 3)"

# ask NAME [--sid SID]: cn02 -> cn03 by LID, from cn01.
l02=$(e2e_lid "cn02 HCA-1") l03=$(e2e_lid "cn03 HCA-1")
if [ -z "$l02" ] || [ -z "$l03" ]; then
	e2e_fail "no LIDs for cn02 and cn03"
fi
ask() {
	local name=$1
	shift
	e2e_pr_get "$name" "$l02" "$l03" "$@"
}

# Twice each: the same question gets the same answer.
for i in 1 2; do
	ask "dropped$i" --sid $sid
	e2e_expect "dropped$i" '.records | length' 0
	ask "default$i"
	e2e_expect "default$i" '.records | length' 1
	e2e_expect "default$i" '.records[0].sl' 0
done

write_policy 6
e2e_hup_sweep "osmqos: sweep [0-9]*: published"
for i in 1 2; do
	ask "kept$i" --sid $sid
	e2e_expect "kept$i" '.records | length' 1
	e2e_expect "kept$i" '.records[0].sl' 14
done

# Dropped again: the Sets that map SL 14 to VL15 come after sweeps whose
# tables dropped nothing, and the SA sees them.
write_policy 15
e2e_hup_sweep "osmqos: sweep [0-9]*: published"
e2e_hup_sweep "osmqos: sweep [0-9]*: published"
ask dropped-again --sid $sid
e2e_expect dropped-again '.records | length' 0
e2e_pass
