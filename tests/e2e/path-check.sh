#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The path engine against the real thing: stock OpenSM (qos TRUE, no
# plugin) routes the simulated fat tree; its LFTs (ibroute) and topology
# (ibnetdiscover) go to tests/unit/path_tool, whose MTU, rate and
# PacketLifeTime must equal what OpenSM's SA answers (saquery -p) for
# every (SLID, DLID) pair tried: CA<->CA, switch<->CA, switch<->switch
# and loopback.  The hop count is not in OpenSM's PathRecords; it is
# compared with ibtracert's switch count instead.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init path-check
tool=$top_builddir/tests/unit/path_tool
[ -x "$tool" ] || e2e_fail "$tool not built (run make check)"
for c in ibroute saquery ibtracert; do
	command -v "$c" >/dev/null ||
		e2e_skip "$c not installed (apt-get install infiniband-diags)"
done

# subnet_timeout is what OpenSM puts in PacketLifeTime; a non-default
# value shows that the engine takes it from the options.
timeout=17
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "event_plugin_name=(null)" subnet_timeout=$timeout
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"

# Base LIDs: switches (port 0) and CA ports, from ibnetdiscover.
mapfile -t sw_lids < <(awk '/^Switch/ && match($0, /port 0 lid [0-9]+/) {
	split(substr($0, RSTART, RLENGTH), a, " "); print a[4] }' \
	"$E2E_DIR/topo.ibnd")
mapfile -t ca_lids < <(awk '/^Ca/ { ca = 1; next } /^(Switch|Rt)/ { ca = 0 }
	ca && match($0, /# lid [0-9]+/) {
	split(substr($0, RSTART, RLENGTH), a, " "); print a[3] }' \
	"$E2E_DIR/topo.ibnd" | sort -un)
[ "${#sw_lids[@]}" -eq 6 ] || e2e_fail "expected 6 switches, found ${#sw_lids[@]}"
[ "${#ca_lids[@]}" -eq 16 ] || e2e_fail "expected 16 CA ports, found ${#ca_lids[@]}"

# LFTs: ibroute prints "0x0005 002 : (...)" per routed LID.
lfts=$E2E_DIR/lfts.txt
for s in "${sw_lids[@]}"; do
	e2e_sim ibroute "$s" >"$E2E_DIR/ibroute.$s" 2>&1 ||
		e2e_fail "ibroute $s failed: $(head -n 3 "$E2E_DIR/ibroute.$s")"
	awk -v sw="$s" '$1 ~ /^0x[0-9a-fA-F]+$/ && $2 ~ /^[0-9]+$/ {
		printf "LFT %d %d %d\n", sw, strtonum($1), $2 + 0 }' \
		"$E2E_DIR/ibroute.$s" >>"$lfts"
done
[ "$(wc -l <"$lfts")" -ge 100 ] || e2e_fail "LFT dump too short: $lfts"

# Pairs: every CA to a spread of CAs (both leaves and storage/compute
# mixes), every switch to some CAs and back, switch to switch, loopback.
pairs=$E2E_DIR/pairs.txt
n=${#ca_lids[@]}
for ((i = 0; i < n; i++)); do
	echo "${ca_lids[i]} ${ca_lids[(i + 1) % n]}"
	echo "${ca_lids[i]} ${ca_lids[(i + 5) % n]}"
	echo "${ca_lids[i]} ${ca_lids[(i + 10) % n]}"
done >"$pairs"
for ((i = 0; i < ${#sw_lids[@]}; i++)); do
	s=${sw_lids[i]}
	echo "$s ${ca_lids[(3 * i) % n]}"
	echo "${ca_lids[(3 * i + 1) % n]} $s"
	echo "$s ${sw_lids[(i + 1) % ${#sw_lids[@]}]}"
done >>"$pairs"
# Storage to storage: FDR ends over EDR spine links, the mixed-speed case
# (with OpenSM's extended-speed rate order).
stor=()
for i in 1 2 3 4; do
	stor+=("$(e2e_lid "stor$i HCA-1")")
done
for a in "${stor[@]}"; do
	for b in "${stor[@]}"; do
		[ "$a" = "$b" ] || echo "$a $b"
	done
done >>"$pairs"
echo "${ca_lids[0]} ${ca_lids[0]}" >>"$pairs"
echo "${sw_lids[0]} ${sw_lids[0]}" >>"$pairs"

"$tool" "$E2E_DIR/topo.ibnd" "$lfts" "$timeout" <"$pairs" \
	>"$E2E_DIR/engine.txt" 2>"$E2E_DIR/engine.err" ||
	e2e_fail "path_tool failed: $(cat "$E2E_DIR/engine.err")"

# saquery prints "mtu.....0x4"; take the value after the dots.
field() { sed -n "s/^[[:space:]]*$1\.*\(0x[0-9a-fA-F]*\|[0-9]*\)$/\1/p" | head -n 1; }

checked=0
bad=0
while read -r slid dlid status mtu rate life hops; do
	[ "$status" = ok ] || { e2e_log "engine: no path $slid -> $dlid"; bad=$((bad + 1)); continue; }
	out=$(e2e_sim saquery -p --slid "$slid" --dlid "$dlid" 2>&1) || {
		e2e_log "saquery -p --slid $slid --dlid $dlid failed: $out"
		bad=$((bad + 1)); continue; }
	# The raw bytes carry the selector in their top 2 bits.
	omtu=$(($(echo "$out" | field mtu) & 0x3f))
	orate=$(($(echo "$out" | field rate) & 0x3f))
	olife=$(($(echo "$out" | field pkt_life) & 0x3f))
	# ibtracert lists each switch on the route; OpenSM's hop count is
	# the switches after the source node.
	ohops=$(e2e_sim ibtracert "$slid" "$dlid" 2>/dev/null |
		grep -c '^\[[0-9]*\] -> switch')
	[ "$slid" = "$dlid" ] && ohops=0
	line="$slid -> $dlid: engine mtu $mtu rate $rate pkt_life $life hops $hops; OpenSM mtu $omtu rate $orate pkt_life $olife hops(ibtracert) $ohops"
	if [ "$mtu" != "$omtu" ] || [ "$rate" != "$orate" ] ||
	   [ "$life" != "$olife" ] || [ "$hops" != "$ohops" ]; then
		e2e_log "MISMATCH $line"
		bad=$((bad + 1))
	else
		echo "  $line"
	fi
	checked=$((checked + 1))
done <"$E2E_DIR/engine.txt"

e2e_log "$checked pairs compared, $bad mismatches"
[ "$checked" -ge 30 ] || e2e_fail "only $checked pairs compared (want >= 30)"
[ "$bad" -eq 0 ] || e2e_fail "$bad pairs differ from OpenSM (see above)"
e2e_pass
