#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Per-pair PathRecord/MultiPathRecord answers under the policy, end to
# end: a Service-ID rule, a QoS-class rule, a group
# rule, a P_Key-restricted level and a path-bits level each give the
# expected records through saquery / osmqos query, and exactly one audit
# line each with the right rule and level.  Also: ClassPortInfo says
# IsQoSSupported, a wildcard (half) query is matched per pair (seen in
# the audit trail), and a MultiPathRecord 2x2 (APM) answer comes from the
# plugin.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init sa-policy
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

data=$top_srcdir/tests/e2e/data
pol=$data/sa-policy/policy.conf
audit=$E2E_DIR/audit.log
e2e_start_ibsim "$data/sa-diff/lmc-fattree-9.net"
e2e_start_opensm qos=TRUE lmc=1 "qos_policy_file=$pol" \
	"partition_config_file=$data/sa-diff/partitions.conf" \
	"event_plugin_options=audit=$audit"
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"

lid() { e2e_lid "$1 HCA-1"; }
guid() { e2e_guid "$1 HCA-1"; }
cn01=$(lid cn01) cn04=$(lid cn04) cn05=$(lid cn05) stor1=$(lid stor1)
g_stor1=$(guid stor1) g_cn01=$(guid cn01) g_cn04=$(guid cn04)
g_cn05=$(guid cn05)
for v in cn01 cn04 cn05 stor1 g_stor1 g_cn01 g_cn04 g_cn05; do
	[ -n "${!v}" ] || e2e_fail "no $v in the fabric"
done
e2e_log "LIDs cn01 $cn01 cn04 $cn04 cn05 $cn05 stor1 $stor1"

# q NAME ARGS...: osmqos query --json, kept as $E2E_DIR/NAME.json.
q() {
	local name=$1
	shift
	e2e_sim "$top_builddir/osmqos" query --json "$@" \
		>"$E2E_DIR/$name.json" 2>"$E2E_DIR/$name.err"
	echo $? >"$E2E_DIR/$name.rc"
}
sid_rule=0x1000000000000100 sid_pkey=0x1000000000000200
sid_bits=0x1000000000000300

# 1. Service-ID rule -> sid_level, SL 2.
q sid --slid "$cn04" --dlid "$cn05" --sid $sid_rule --numb-path 1
e2e_expect sid '.records | length' 1
e2e_expect sid '.records[0].sl' 2
# 2. QoS-class rule -> class_level, SL 3, MTU capped at 1024 (enum 3).
q class --slid "$cn04" --dlid "$cn05" --qos-class 9 --numb-path 1
e2e_expect class '.records[0].sl' 3
e2e_expect class '.records[0].mtu' 3
# 3. Group rule (compute -> storage) -> group_level, SL 4, lifetime 9.
q group --slid "$cn01" --dlid "$stor1" --numb-path 1
e2e_expect group '.records[0].sl' 4
e2e_expect group '.records[0].pkt_life' 9
#    ... and not the other way round (storage -> compute: DEFAULT).
q group_rev --slid "$stor1" --dlid "$cn01" --numb-path 1
e2e_expect group_rev '.records[0].sl' 0
# 4. P_Key-restricted level: stor1 (0x0abc full) and cn01 (limited)
#    share 0x0abc, so that key is chosen although 0x7fff is shared too;
#    asking for 0x7fff under that level gives nothing.
q pkey --sgid "$g_stor1" --dgid "$g_cn01" --sid $sid_pkey --numb-path 1
e2e_expect pkey '.records[0].sl' 5
e2e_expect pkey '.records[0].pkey' $((0x0abc))
q pkey_denied --sgid "$g_stor1" --dgid "$g_cn01" --sid $sid_pkey \
	--pkey 0x7fff --numb-path 1
e2e_expect pkey_denied '.records | length' 0
# 5. path-bits 1 with LMC 1 on both ends: of the 4 LID pairs only
#    (base+1, base+1) is offered; the same pair under another rule gets
#    the base LIDs first.
q bits --sgid "$g_cn04" --dgid "$g_cn05" --sid $sid_bits
e2e_expect bits '.records | length' 1
e2e_expect bits '.records[0].slid' $((cn04 + 1))
e2e_expect bits '.records[0].dlid' $((cn05 + 1))
e2e_expect bits '.records[0].sl' 6
q nobits --sgid "$g_cn04" --dgid "$g_cn05" --sid $sid_rule --numb-path 2
e2e_expect nobits '.records[0].slid' "$cn04"
e2e_expect nobits '.records[1].slid' $((cn04 + 1))

# saquery agrees with osmqos query on the Service-ID rule.
sq=$(e2e_sim saquery -p --slid "$cn04" --dlid "$cn05" \
	--service_id $sid_rule 2>/dev/null | awk '/^[[:space:]]*sl\./ {print $1; exit}')
sq=${sq##*.}
[ "$((sq))" -eq 2 ] || e2e_fail "saquery -p --service_id: sl '$sq', want 2"

# A wildcard: cn04 to every port (a half query).  The answer needs RMPP,
# which umad2sim lacks, so only the audit trail is checked: every pair
# was matched on its own (storage destinations by no rule here, since
# cn04 is not in `compute`; cn01..03 -> storage by the group rule when
# asked from cn01 below).
q half --sgid "$g_cn01" --numb-path 1 || true

# MultiPathRecord 2x2 with NumbPath 2 (APM): two records, one per pair
# of a diagonal, each under the group rule (compute -> storage).
q apm --mpr --sgids "$g_cn01,$(guid cn02)" \
	--dgids "$g_stor1,$(guid stor2)" --numb-path 2
e2e_expect apm '.records | length' 2
e2e_expect apm '[.records[].sl] | unique | join(",")' 4

# ClassPortInfo: CapabilityMask2 bit 1 (IsQoSSupported; OpenSM's
# OSM_CAP2_IS_QOS_SUPPORTED) is set with qos TRUE.
cpi=$(e2e_sim saquery -c 2>/dev/null)
cm2=$(sed -n 's/.*Capability mask 2[.[:space:]]*\(0x[0-9a-fA-F]*\).*/\1/p' <<<"$cpi" | head -n 1)
[ -n "$cm2" ] || e2e_fail "no CapabilityMask2 in saquery -c: $cpi"
(((cm2 >> 1) & 1)) ||
	e2e_fail "ClassPortInfo CapabilityMask2 $cm2 lacks IsQoSSupported"

# The audit trail: one line per query above, each with its rule/level.
sleep 1
for ((i = 0; i < 50; i++)); do
	[ "$(jq -s 'map(.count) | add // 0' "$audit" 2>/dev/null || echo 0)" -ge 12 ] && break
	sleep 0.1
done
# audit_has DESC JQ-SELECT N: exactly N answers match (a line stands for
# "count" identical answers).
audit_has() {
	local n
	n=$(jq -s "map(select($2) | .count) | add // 0" "$audit")
	[ "$n" -eq "$3" ] ||
		e2e_fail "audit: $n answers for $1, want $3 (jq 'select($2)')"
}
audit_has "service-id rule" \
	".query.service_id == \"$sid_rule\" and .rule == 0 and .level == \"sid_level\" and .granted.sl == 2" 3
audit_has "qos-class rule" \
	'.query.qos_class == 9 and .rule == 1 and .level == "class_level" and .granted.mtu == 1024' 1
audit_has "group rule" \
	".query.comp_mask == 4144 and .src.guid == \"$g_cn01\" and .rule == 2 and .level == \"group_level\" and .granted.sl == 4 and .query.service_id == null" 1
audit_has "pkey level" \
	".query.service_id == \"$sid_pkey\" and .rule == 3 and .level == \"pkey_level\" and .granted.pkey == $((0x0abc))" 1
audit_has "pkey level, denied" \
	".query.service_id == \"$sid_pkey\" and .granted == null and .reason != null and .query.pkey == $((0x7fff))" 1
audit_has "path-bits level" \
	".query.service_id == \"$sid_bits\" and .rule == 4 and .level == \"bits_level\" and .granted.slid == $((cn04 + 1)) and .granted.records == 1" 1
# The half query from cn01: one line per destination port, each decided
# on its own: storage ports by the group rule, the others by DEFAULT.
audit_has "half query, storage destinations" \
	".query.comp_mask == 4104 and .src.guid == \"$g_cn01\" and (.dst.node | startswith(\"stor\")) and .rule == 2 and .granted.sl == 4" 3
audit_has "half query, other destinations" \
	".query.comp_mask == 4104 and .src.guid == \"$g_cn01\" and (.dst.node | startswith(\"stor\") | not) and .rule == null and .level == \"DEFAULT\"" 11
audit_has "APM" '.attr == "MultiPathRecord" and .method == "GetMulti" and .rule == 2' 2
jq -e 'select(.granted != null) | .predicted.gbps > 0' "$audit" >/dev/null ||
	e2e_fail "audit lines without a predicted bandwidth"

# The published per-level answer counters (written at the next sweep)
# count exactly the granted pairs the audit trail shows for each level.
e2e_hup_sweep "osmqos: sweep [0-9]*: published"
prom=$E2E_DIR/osmqos.prom
for level in DEFAULT sid_level class_level group_level pkey_level bits_level; do
	want=$(jq -s --arg l "$level" \
		'map(select(.level == $l and .granted != null) | .count) | add // 0' \
		"$audit")
	got=$(sed -n "s/^osmqos_sa_pr_answered_total{level=\"$level\"} //p" "$prom")
	[ "${got:-0}" = "$want" ] ||
		e2e_fail "$prom counts ${got:-no} answers for $level, the audit trail $want"
done
e2e_log "published answer counters per level equal the audit trail's"

grep -q "SA front: PathRecord" "$E2E_OSM_LOG" || kill -USR1 "$E2E_OPENSM_PID"
e2e_stop_opensm
counters=$(grep "osmqos: SA front: " "$E2E_OSM_LOG" | tail -n 1)
e2e_log "${counters#*osmqos: }"
grep -q "MultiPathRecord [0-9]* queries ([1-9][0-9]* answered" <<<"$counters" ||
	e2e_fail "the plugin answered no MultiPathRecord"
grep -q "audit: [0-9]* records written in [0-9]* lines, 0 dropped" "$E2E_OSM_LOG" ||
	e2e_fail "audit lines dropped: $(grep 'audit:' "$E2E_OSM_LOG")"
e2e_pass
