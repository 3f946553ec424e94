#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# OpenSM's per-port-type templates at their legal maximum: all fifteen
# qos_*{vlarb_high,vlarb_low,sl2vl} options, 64 VLArb entries each, every
# line near the 1022 bytes OpenSM's config reader takes (about 14.5 KB in
# all).  The plugin must run (SUBNET UP, a heavy resweep, PathRecords
# answered; run-sanitized runs this under ASan), program exactly the tables
# `osmqos tables --opensm-conf` computes from the same file (nothing
# dropped), and log what its template parser found.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
e2e_init templates-max
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
command -v gawk >/dev/null || e2e_skip "gawk not installed (apt-get install gawk)"

# VLArb: 64 "0xVVVV:0xWWWWW" entries (15 bytes each), VLs 0-7, a weight
# per prefix and entry so that each port type's tables differ.  SL2VL: 16
# VLs zero-padded to 60 digits.  strtoul(, 0) in OpenSM and strtol(, 0) in
# the plugin read both the same.
vlarb() { # PREFIX-INDEX ENTRY-SALT
	local k=$1 s=$2 i out=
	for ((i = 0; i < 64; i++)); do
		out+=$(printf '0x%04x:0x%05x' $(((i + k + s) % 8)) \
			$(((i * 7 + k * 13 + s) % 255 + 1)))
		((i < 63)) && out+=,
	done
	printf '%s' "$out"
}
sl2vl() { # PREFIX-INDEX
	local k=$1 i out=
	for ((i = 0; i < 16; i++)); do
		out+=$(printf '0x%058x' $(((i + k) % 8)))
		((i < 15)) && out+=,
	done
	printf '%s' "$out"
}

opts=()
k=0
for pfx in qos_ qos_ca_ qos_sw0_ qos_swe_ qos_rtr_; do
	opts+=("${pfx}max_vls=8" "${pfx}high_limit=255"
		"${pfx}vlarb_high=$(vlarb $k 0)" "${pfx}vlarb_low=$(vlarb $k 3)"
		"${pfx}sl2vl=$(sl2vl $k)")
	k=$((k + 1))
done

pol=$E2E_DIR/qos-policy.conf
cat >"$pol" <<'EOF'
qos-ulps
    default : 3
end-qos-ulps
EOF

e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" "${opts[@]}"
bytes=$(grep -E '^qos_[a-z0-9_]*(vlarb_high|vlarb_low|sl2vl) ' \
	"$E2E_OSM_CONF" | wc -c)
longest=$(grep -E '^qos_' "$E2E_OSM_CONF" | awk '{ if (length > m) m = length } END { print m }')
nopt=$(grep -cE '^qos_[a-z0-9_]*(vlarb_high|vlarb_low|sl2vl) 0x' "$E2E_OSM_CONF")
e2e_log "$nopt template options, $bytes bytes, longest line $longest"
[ "$nopt" -eq 15 ] || e2e_fail "opensm.conf holds $nopt of the 15 template options"
[ "$longest" -le 1022 ] || e2e_fail "a line of $longest bytes: OpenSM reads 1022"
[ "$bytes" -gt 8192 ] || e2e_fail "only $bytes bytes of templates; the test wants more than 8 KiB"
wait_sweep 1

# A heavy resweep with the same options.
e2e_hup_sweep "osmqos: sweep 2: "

e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"
e2e_osmqos tables --json --all --policy "$pol" --fabric "$E2E_DIR/topo.ibnd" \
	--opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/tables.json" ||
	e2e_fail "osmqos tables failed"
tables_compare "$E2E_DIR/tables.json" ||
	e2e_fail "programmed tables differ from the templates in $E2E_OSM_CONF"
# The templates really are these: a CA port's VLArb high starts with the
# qos_ca_ table's first entry (VL 1, weight 14).
first=$(jq -r '[.ports[] | select(.kind == "CA port" and .vlarb_high)][0].vlarb_high[0] | "\(.[0]):\(.[1])"' \
	"$E2E_DIR/tables.json")
[ "$first" = 1:14 ] || e2e_fail "CA VLArb high starts with $first, not the qos_ca_ template's 1:14"

mapfile -t cas < <(e2e_ibnetdiscover | awk -F'"' '/^Ca/ {print $4}' | head -n 2)
slid=$(e2e_lid "${cas[0]}")
dlid=$(e2e_lid "${cas[1]}")
out=$(e2e_sim saquery -p --slid "$slid" --dlid "$dlid" 2>&1) ||
	e2e_fail "saquery PathRecord failed: $out"
echo "$out" | grep -Eq '^[[:space:]]*sl\.+(3|0x3)$' || e2e_fail "PathRecord not on the policy's SL 3: $out"
e2e_log "PathRecord $slid -> $dlid on SL 3"

if grep -E "ERR|osmqos:.*error" "$E2E_OSM_LOG" | grep -i osmqos; then
	e2e_fail "plugin logged errors"
fi
e2e_stop_opensm

# A template OpenSM takes with only a warning of its own (a weight over
# 255): the plugin's log says what it found, too.
bad=${opts[18]/:0x0002b,/:300,}
[ "${bad%%=*}" = qos_swe_vlarb_low ] && [ "$bad" != "${opts[18]}" ] ||
	e2e_fail "test bug: no entry to spoil in ${opts[18]:0:40}"
opts[18]=$bad
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-1.log"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" "${opts[@]}"
wait_sweep 1
grep -q "osmqos: opensm options:[0-9]*:[0-9]*: warning: qos_swe_vlarb_low: weight 300 is out of range 0..255" \
	"$E2E_OSM_LOG" || e2e_fail "the plugin did not log the template warning"
grep "osmqos: opensm options" "$E2E_OSM_LOG" | sed 's/^.*-> /  log: /'
e2e_pass
