#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The README's demo: what an operator comes for, on a simulated fat tree
# (ibsim) with a real opensm and the osmqos plugin.  A policy with
# bandwidth intents and its proof; the SM running it (status); PathRecords;
# a bad edit refused while the last good policy stays in force; a good
# edit planned before the HUP and then applied; the live fabric checked
# against the policy in force; predicted bandwidth and the published
# metrics.  Every number printed is explained on the line after it ("  ->").
# Run from the build directory after `make`.  Its files go to a temporary
# directory outside the source tree; everything started here is stopped
# by PID on exit.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-$PWD}
top_builddir=$(cd "$top_builddir" && pwd)
export top_srcdir top_builddir
[ -x "$top_builddir/osmqos" ] || {
	echo "demo: run it from the build directory after 'make'" >&2
	exit 2
}
command -v jq >/dev/null || {
	echo "demo: jq is needed (apt-get install jq)" >&2
	exit 2
}
. "$top_srcdir/tests/e2e/lib.sh"
E2E_KEEP=1
E2E_TMP=$(mktemp -d "${TMPDIR:-/tmp}/osmqos-demo.XXXXXX")
e2e_init demo
# umad2sim leaves its fake sysfs in its client's working directory.
cd "$E2E_DIR" || exit 1

fabric=$top_srcdir/contrib/fabrics/fat-tree-16.net
osmqos=$top_builddir/osmqos
pol=$E2E_DIR/qos-policy.conf
cp "$top_srcdir/contrib/policies/intents.conf" "$pol"
banner() { printf '\n=== %s\n' "$*"; }
why() { printf '  -> %s\n' "$@"; }

banner "1. The policy: bandwidth intents (contrib/policies/intents.conf)"
grep -E '^ *(name|sl|bandwidth|priority|destination|service-id|qos-level-name):' "$pol" |
	sed 's/^/  /'
why "storage (SL 1) must get 40% of every link it crosses, mpi (SL 2) 20% and" \
    "goes first (priority: high); the 14 other SLs share the rest, best effort"

banner "osmqos check --fabric fat-tree-16.net"
"$osmqos" check "$pol" --fabric "$fabric" 2>&1 | sed 's/^/  /'
why "valid: the counts are the policy's own blocks (the 2 rules are its 2 qos-match-rules)" \
    "stock OpenSM would refuse it (bandwidth: is osmqos's key, not OpenSM's): for a" \
    "rollback, \`osmqos export\` writes a copy it reads (README, \"Rolling back\")"

banner "Its proof: the tables osmqos synthesizes, per class of equal ports"
"$osmqos" synth --policy "$pol" --fabric "$fabric" --report | sed 's/^/  /' |
	grep -v '^  *\(sl2vl\|vlarb-\|vl-high\)'
"$osmqos" synth --policy "$pol" --fabric "$fabric" --json |
	jq -r '"intents: the levels with an intent ask \(.intents | map(.bandwidth_pct) | add)% of each link; the rest is best effort",
	(.classes[] | . as $c | .levels[] |
	"class \($c.class) (\($c.ports) ports at \($c.rate_gbps) Gb/s): \(.level) SL \(.sl) rides VL \(.vl) (\(.priority) table) and gets \(.share) of the link with every SL busy = \(.share_pct)% = \(.gbps | .*100 | round / 100) Gb/s; intent \(.intent_pct)%, slack \(.slack_pct)%")' |
	while read -r l; do why "$l"; done

banner "2. The SM: ibsim, then opensm with the plugin and this policy"
e2e_start_ibsim "$fabric"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol"
e2e_wait_for "osmqos: sweep 1: " "$E2E_OSM_LOG" 30
grep "osmqos" "$E2E_OSM_LOG" | grep -v ' phases: ' | sed 's/^[^>]*-> [a-z_]*: /  /'
sets1=$(sed -n 's/.*osmqos: sweep 1: \([0-9]*\) QoS Set MADs.*/\1/p' "$E2E_OSM_LOG")
why "sweep 1 sent $sets1 QoS Set MADs: the SL2VL and VLArb tables of every port, once" \
    "published: the predicted per-SL bandwidth of every linked port, by class"
"$osmqos" status --publish-dir "$E2E_DIR" | sed 's/^/  /'
why "the hash is FNV-1a of the policy file's bytes (log, status, audit trail and drift print the same);" \
    "the copy as written is what \`drift\` and \`plan\` compare with, even after a rejected edit"

src=$(e2e_lid "cn01 HCA-1")
dst=$(e2e_lid "stor1 HCA-1")
peer=$(e2e_lid "cn05 HCA-1")
banner "PathRecords: what the SA answers, per pair, under the policy"
ask() {
	local what=$1
	shift
	printf '  %-44s ' "$what"
	e2e_sim "$osmqos" query --json --numb-path 1 "$@" 2>/dev/null |
		jq -r 'if (.records | length) == 0 then "no path (\(.status))"
		       else .records[0] | "SL \(.sl)  MTU enum \(.mtu)  rate enum \(.rate)" end'
}
ask "cn01 -> cn05, no Service ID" --slid "$src" --dlid "$peer"
ask "cn01 -> cn05, Service ID 0x1000000000000100" --slid "$src" --dlid "$peer" --sid 0x1000000000000100
ask "cn01 -> stor1 (lid $dst)" --slid "$src" --dlid "$dst"
why "SL 0: no rule matches, so the DEFAULT level; SL 2: the MPI Service ID range gives level mpi;" \
    "SL 1: anything to storage is level storage (the first matching rule wins)" \
    "MTU enum 4 = 2048 bytes (the links' MTU); rate enum 7 = 40 Gb/s, the QDR hosts' links"

banner "3. A bad edit is refused; the last good policy stays in force"
cp "$pol" "$E2E_DIR/good.conf"
sed 's/^\( *\)bandwidth: 40%/\1bandwidth: 140%/' "$E2E_DIR/good.conf" >"$pol"
grep -n 'bandwidth: 140%' "$pol" | sed 's/^/  edited line /'
kill -HUP "$E2E_OPENSM_PID"
e2e_wait_for "rejected" "$E2E_OSM_LOG" 30
grep 'osmqos.*rejected\|osmqos.*error:' "$E2E_OSM_LOG" | sed 's/^[^>]*-> [a-z_]*: /  /'
"$osmqos" status --publish-dir "$E2E_DIR" | sed 's/^/  /'
echo "  (status exit ${PIPESTATUS[0]}: the file's current content is not in force)"
why "the hash in force did not change; the rejected edit has its own hash, time and first error"

banner "4. A good edit, planned before the HUP"
sed 's/^\( *\)bandwidth: 40%/\1bandwidth: 30%/' "$E2E_DIR/good.conf" >"$E2E_DIR/new.conf"
e2e_sim "$osmqos" plan "$E2E_DIR/new.conf" --publish-dir "$E2E_DIR" --live \
	--opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/plan.txt" 2>/dev/null
sed 's/^/  /' "$E2E_DIR/plan.txt"
e2e_sim "$osmqos" plan "$E2E_DIR/new.conf" --publish-dir "$E2E_DIR" --live \
	--opensm-conf "$E2E_OSM_CONF" --json 2>/dev/null |
	jq -r '"\(.mads.total) QoS Set MADs: \(.mads.vlarb) VLArb blocks and \(.mads.sl2vl) SL2VL tables, on the \(.ports_changed) of \(.ports_programmed) ports whose tables change",
	(.classes[] | "\(.ports) \(.role)s like \(.example.name): " +
	 ([.shares[] | "SL\(.sl) \(.before_pct | .*100 | round / 100)% -> \(.after_pct | .*100 | round / 100)%"] | join(", ")) +
	 " of the link, every SL busy"),
	"no rule changes its level and no pair its SL: only the share storage is guaranteed"' |
	while read -r l; do why "$l"; done
cp "$E2E_DIR/new.conf" "$pol"
kill -HUP "$E2E_OPENSM_PID"
e2e_wait_count "osmqos: sweep [0-9]*: [0-9]* QoS Set MADs" "$E2E_OSM_LOG" 3 30
grep "osmqos: sweep 3: [0-9]* QoS Set" "$E2E_OSM_LOG" | sed 's/^[^>]*-> [a-z_]*: /  /'
why "the sweep sent the MADs plan predicted"
"$osmqos" status --publish-dir "$E2E_DIR" | sed -n '2,3p;5,6p' | sed 's/^/  /'
e2e_sim "$osmqos" drift --publish-dir "$E2E_DIR" --opensm-conf "$E2E_OSM_CONF" \
	2>/dev/null | sed 's/^/  /'
why "drift reads every port's tables back and compares them with the policy in force:" \
    "22 nodes, the 48 ports OpenSM programs, the SMPs of the walk and the read-back;" \
    "16 CA pairs asked of the SA, covering the 2 levels they reach; 0 drifts" \
    "VLHighLimit is not compared under ibsim, which does not store it"

banner "5. Predicted bandwidth on leaf01 port 1, which faces stor1"
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"
"$osmqos" predict --policy "$E2E_DIR/osmqos-policy-in-force.conf" \
	--fabric "$E2E_DIR/topo.ibnd" --port "leaf01/P1" | sed 's/^/  /'
"$osmqos" predict --policy "$E2E_DIR/osmqos-policy-in-force.conf" \
	--fabric "$E2E_DIR/topo.ibnd" --port "leaf01/P1" --json |
	jq -r '.classes[0] as $c | $c.sls | group_by(.vl) | .[] |
	 select(.[0].share > 0) | length as $n |
	 "VL \(.[0].vl) (\(.[0].priority) table): \($n) SL(s) \(map("SL\(.sl)") | join(", ")), each \(.[0].share_exact) of the link (\(.[0].share * 10000 | round / 100)%) x \($c.rate_gbps | .*100 | round / 100) Gb/s = \(.[0].predicted_gbps | .*100 | round / 100) Gb/s"' |
	while read -r l; do why "$l"; done
why "shares are of the link's bytes with all 16 SLs busy; SLs that share a VL split it equally;" \
    "VLs in no table (weight 0) get nothing when the others are busy"

banner "6. Published after every sweep (docs/publish.md): $E2E_DIR"
sleep 1.5 # the audit writer appends in the background
tail -n 2 "$E2E_DIR/osmqos-audit.log" | jq -c '{src: .src.node, dst: .dst.node,
	level, granted: .granted.sl, policy: .policy_hash, predicted_gbps: .predicted.gbps}'
why "the audit trail: one line per granted path; policy is the hash of the policy that decided it," \
    "predicted_gbps the least any hop of the path guarantees the granted SL's VL with every VL busy (docs/audit.md)"
grep -E '^osmqos_(sweep|policy_load_success|qos_mads_sent_total|sa_pr_answered_total|audit_dropped_total)' \
	"$E2E_DIR/osmqos.prom" | sed 's/^/  /'
awk '/^osmqos_sweep /{s=$2} /^osmqos_qos_mads_sent_total /{m=$2}
	/^osmqos_sa_pr_answered_total/{n+=$2}
	END{print "sweep " s ": the heavy sweep whose tables are programmed; " m " QoS Set MADs since opensm started (sweeps 1 and 3; sweep 2 kept the policy)";
	    print "sa_pr_answered_total: the " n " PathRecords the plugin answered, by the level they got;";
	    print "level=\"(none)\" counts answers no level applied to (no rule and no DEFAULT): 0 here"}' \
	"$E2E_DIR/osmqos.prom" | while read -r l; do why "$l"; done
why "policy_load_success 1: the file's current content is in force; audit_dropped_total 0: no record lost"

banner "Logs and files of this run (outside the source tree): $E2E_DIR"
