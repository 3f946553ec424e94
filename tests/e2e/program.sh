#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The plugin programs the policy's SL2VL, VLArb and VLHighLimit on every
# port of the fat tree, exactly as `osmqos tables` predicts; an unchanged
# re-sweep sends no QoS Set; a changed scope sends only its blocks; an
# invalid edit changes nothing; fixing it applies the new tables; one
# input port's rows changed send only theirs; a port OpenSM updates
# whatever it holds (a link back up) is counted too.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
e2e_init program
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
command -v gawk >/dev/null || e2e_skip "gawk not installed (apt-get install gawk)"

pol=$E2E_DIR/qos-policy.conf
cp "$top_srcdir/tests/e2e/data/program-policy.conf" "$pol"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
# log_flags 0x23: errors, info and every SMP (the independent MAD record).
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" log_flags=0x23
wait_sweep 1
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"

predict() {
	e2e_osmqos tables --json --all --policy "$pol" --fabric "$E2E_DIR/topo.ibnd" \
		--opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/$1.json" ||
		e2e_fail "osmqos tables failed on $pol"
}

# Sweep $1 (triggered by SIGHUP) and its QoS Set count, from the frames
# and from the plugin's log line; both must equal $2 (or be > 0 for "+").
sweep_sets() {
	local n=$1 want=$2 mark frames logged ups i
	mark=$(wc -l <"$E2E_OSM_LOG")
	ups=$(grep -c "SUBNET UP" "$E2E_OSM_LOG")
	kill -HUP "$E2E_OPENSM_PID"
	wait_sweep "$n"
	for ((i = 0; i < 100; i++)); do
		[ "$(grep -c "SUBNET UP" "$E2E_OSM_LOG")" -gt "$ups" ] && break
		sleep 0.1
	done
	frames=$(qos_sets_since "$mark")
	logged=$(sed -n "s/.*osmqos: sweep $n: \([0-9]*\) QoS Set MADs.*/\1/p" "$E2E_OSM_LOG")
	e2e_log "sweep $n: $frames QoS Sets in OpenSM's frames, plugin counted $logged"
	[ "$frames" = "$logged" ] || e2e_fail "sweep $n: frames $frames != plugin count $logged"
	if [ "$want" = + ]; then
		[ "$frames" -gt 0 ] || e2e_fail "sweep $n sent no QoS Sets"
	else
		[ "$frames" = "$want" ] || e2e_fail "sweep $n sent $frames QoS Sets, want $want"
	fi
	LAST_SETS=$frames
}

# 1. First sweep: every port equals the dry run.
predict v1
first=$(qos_sets_since 0)
e2e_log "first sweep: $first QoS Sets"
[ "$first" -gt 0 ] || e2e_fail "first sweep sent no QoS Sets"
tables_compare "$E2E_DIR/v1.json" || e2e_fail "programmed tables differ from osmqos tables"

# VLHighLimit: ibsim drops it from PortInfo Sets, so compare what the link
# manager sent (last PortInfo Set per port) with the dry run, as multisets
# over the ports that have VLArb.
jq -r '.ports[] | select(.vlarb_low) | .vl_high_limit' "$E2E_DIR/v1.json" |
	sort -n >"$E2E_DIR/vlhl.expected"
vlhl_sets_since 0 | grep -v '^0$' >"$E2E_DIR/vlhl.sent"
grep -v '^0$' "$E2E_DIR/vlhl.expected" >"$E2E_DIR/vlhl.expected.nz"
diff "$E2E_DIR/vlhl.expected.nz" "$E2E_DIR/vlhl.sent" >/dev/null ||
	e2e_fail "VLHighLimit sent differs: $(paste -sd' ' "$E2E_DIR/vlhl.sent") vs $(paste -sd' ' "$E2E_DIR/vlhl.expected.nz")"
e2e_log "VLHighLimit: $(sort "$E2E_DIR/vlhl.sent" | uniq -c | paste -sd' ') sent, as compiled"

# 2. Unchanged re-sweep: no QoS Set at all.
sweep_sets 2 0

# 3. One scope changed: only the storage-facing ports' low VLArb block.
sed -i 's/vlarb-low: 2:64, 3:32, 4:16/vlarb-low: 2:16, 3:64, 4:16/' "$pol"
predict v2
changed=$(diff <(tables_expected "$E2E_DIR/v1.json") \
	<(tables_expected "$E2E_DIR/v2.json") | grep -c '^>')
sweep_sets 3 "$changed"
[ "$changed" -eq 4 ] || e2e_fail "expected 4 changed blocks (leaf ports to stor1-4), got $changed"
tables_compare "$E2E_DIR/v2.json" || e2e_fail "tables after the scope change differ"

# 4. Invalid edit: rejected with file:line:col, nothing changes.
cp "$pol" "$E2E_DIR/good.conf"
sed -i 's/vl-high-limit: 10/vl-high-limit: 300/' "$pol"
sweep_sets 4 0
grep -q "osmqos: $pol:[0-9]*:[0-9]*: error: " "$E2E_OSM_LOG" ||
	e2e_fail "no file:line:col diagnostic for the invalid edit"
grep -q "the last good policy stays in force" "$E2E_OSM_LOG" ||
	e2e_fail "plugin did not say the last good policy stays"
tables_compare "$E2E_DIR/v2.json" || e2e_fail "invalid edit changed tables"

# 5. Fixed: the new contents apply.
sed 's/vl-high-limit: 10/vl-high-limit: 12/' "$E2E_DIR/good.conf" >"$pol"
predict v3
mark=$(wc -l <"$E2E_OSM_LOG")
sweep_sets 5 0 # VLHighLimit travels in PortInfo, not SL2VL/VLArb
vlhl_sets_since "$mark" | grep -qx 12 || e2e_fail "VLHighLimit 12 was not sent after the fix"
tables_compare "$E2E_DIR/v3.json" || e2e_fail "tables after the fix differ"

# 6. One input port's SL2VL on every switch: only the Sets for that input,
# though every other input of the same ports holds its rows.
sed -i '/^    sl2vl-tables$/a\
        sl2vl-scope\
            group: switches\
            from: 3\
            to: *\
            sl2vl-table: 0,1,2,3,4,5,6,7,7,6,5,4,3,2,1,0\
        end-sl2vl-scope' "$pol"
predict v4
changed=$(diff <(tables_expected "$E2E_DIR/v3.json") \
	<(tables_expected "$E2E_DIR/v4.json") | grep -c '^>')
[ "$changed" -gt 0 ] || e2e_fail "the input-port scope changed no table"
sweep_sets 6 "$changed"
tables_compare "$E2E_DIR/v4.json" || e2e_fail "tables after the input-port scope differ"

# 7. A host's link goes down and comes back.  The leaf's port facing it
# returns in INIT with its SL2VL and VLArb still cached as they were, and
# OpenSM updates it all the same (need_update): the plugin counts those
# Sets too.  The trap or the SIGHUP may start more than one sweep: every
# sweep's count since the command, summed, against every frame since it.
settle() {
	local n m i
	for ((i = 0; i < 50; i++)); do
		n=$(wc -l <"$E2E_OSM_LOG")
		sleep 2
		m=$(wc -l <"$E2E_OSM_LOG")
		[ "$n" = "$m" ] && return 0
	done
	e2e_fail "opensm did not go quiet after $1"
}
link_sets() {
	local cmd=$1 mark sweeps frames logged
	mark=$(wc -l <"$E2E_OSM_LOG")
	sweeps=$(grep -c "osmqos: sweep [0-9]*: [0-9]* QoS Set MADs" "$E2E_OSM_LOG")
	e2e_ibsim_cmd "$cmd"
	sleep 1
	kill -HUP "$E2E_OPENSM_PID" # when no trap came
	e2e_wait_count "osmqos: sweep [0-9]*: [0-9]* QoS Set MADs" \
		"$E2E_OSM_LOG" $((sweeps + 1)) 60 || e2e_fail "no sweep after $cmd"
	settle "$cmd"
	frames=$(qos_sets_since "$mark")
	logged=$(qos_sets_counted_since "$mark")
	e2e_log "$cmd: $frames QoS Sets in OpenSM's frames, plugin counted $logged"
	[ "$frames" = "$logged" ] ||
		e2e_fail "$cmd: frames $frames != plugin count $logged"
	LAST_SETS=$frames
}
link_sets 'Unlink "cn01"[1]'
link_sets 'ReLink "cn01"[1]'
# cn01's own port is new to OpenSM (1 SL2VL, 4 VLArb blocks); the leaf's
# port facing it holds its tables and gets them again (its SL2VL per
# input port and its VLArb).
[ "$LAST_SETS" -gt 5 ] ||
	e2e_fail "the link's return sent $LAST_SETS QoS Sets, want the leaf port's too"

if grep "ERR" "$E2E_OSM_LOG" | grep -v "ERR AC" | grep -qi osmqos; then
	e2e_fail "plugin-caused ERR lines in the opensm log"
fi
e2e_pass
