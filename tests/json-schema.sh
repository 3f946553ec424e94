#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Every key and type docs/json.md promises, on the demo fabric and policy.
: "${top_srcdir:?}" "${top_builddir:?}"
# check() runs on the right of a pipe (a subshell): its failure must end
# the script.
set -e -o pipefail
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
q=$top_builddir/osmqos
P=$top_srcdir/contrib/policies/fat-tree-16.conf
F=$top_srcdir/contrib/fabrics/fat-tree-16.net
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { # NAME JQ-EXPRESSION < json
	jq -e "$2" >/dev/null || fail "$1 does not match docs/json.md"
	echo "ok: $1"
}
str='type == "string"'
num='type == "number"'
guid='test("^0x[0-9a-f]{16}$")'

"$q" match --json --policy "$P" --fabric "$F" --src "cn01 HCA-1/P1" \
	--dst "stor1 HCA-1/P1" | check match "
	(.src | $guid) and (.dst | $guid) and .rule == 0 and
	(.use | $str) and (.rule_location | test(\":[0-9]+:[0-9]+$\")) and
	.from_ulp == false and .level == \"storage\" and .sl == 1 and
	.mtu_limit == null and .rate_limit == null and .packet_life == null and
	(.pkeys | type == \"array\") and .why == [\"destination\"]"
"$q" match --json --policy "$P" --fabric "$F" --src "cn01 HCA-1/P1" \
	--dst "cn02 HCA-1/P1" | check "match (default)" \
	'.rule == null and .level == "DEFAULT" and .sl == 0 and .why == ["default"]'

"$q" check --json "$P" | check "check" "
	(.file | $str) and .valid == true and .exit_status == 0 and
	(.counts | all(.[]; type == \"number\")) and
	.counts.qos_levels == 3 and .counts.qos_levels_from_ulps == 0 and
	.errors == 0 and .root_errors == 0 and (.warnings | $num) and
	(.diagnostics | type == \"array\") and (.omitted | type == \"array\") and
	(.stock.opensm | test(\"^OpenSM [0-9.]+$\")) and
	.stock.verdict == \"as_written\" and (.stock.assumed_lookups | $num)"
# Stock OpenSM's verdict on a file it rejects (an osmqos key).
"$q" check --json "$top_srcdir/contrib/policies/intents.conf" |
	check "check (stock rejects)" '.valid == true and .stock.verdict == "rejected" and
	any(.diagnostics[]; .severity == "warning" and (.message | test("^stock OpenSM")))'
printf 'qos-levels\n qos-levle\n  name: DEFAULT\n  sl: 0 mtu-limit: 9\n end-qos-level\nend-qos-levels\n' |
	"$q" check --json - >"$tmp/check.json" || [ $? = 1 ] ||
	fail "check --json of an invalid policy: exit status not 1"
check "check (errors)" <"$tmp/check.json" "
	.valid == false and .exit_status == 1 and .errors >= 2 and
	(.diagnostics | length) >= 2 and (.diagnostics | all(
	  (.id | $num) and (.file | $str) and (.line | $num) and (.col | $num) and
	  (.severity | IN(\"error\", \"warning\", \"note\")) and
	  (.code | test(\"^[a-z0-9][a-z0-9_-]*$\")) and (.message | $str) and
	  (.hint == null or (.hint | $str)) and
	  (.cause == null or (.cause | $num)))) and
	(.diagnostics[0].code == \"unknown-keyword\") and
	([.diagnostics[] | select(.code == \"key-on-same-line\")] | length) == 1 and
	(.omitted | all((.code | $str) and (.count | $num)))"

"$q" tables --json --policy "$P" --fabric "$F" | check "tables (classes)" "
	(.policy | $str) and (.routing_engine | $str) and
	(.engine_chooses_sls | type == \"boolean\") and (.ports_total | $num) and
	(has(\"ports\") | not) and
	(.classes | length) > 0 and ([.classes[].ports] | add) == .ports_total and
	(.classes | all(
	  (.class | $num) and (.ports | $num) and
	  (.example.guid | $guid) and (.example.node_guid | $guid) and
	  (.example.port | $num) and (.example.lid | $num) and
	  (.example.node | $str) and (.kind | $str) and (.vls | $num) and
	  (.sl2vl == null or (.sl2vl | length == 16)) and
	  (if .sl2vl_every_input then true else
	     (.sl2vl_by_in == null or (.sl2vl_by_in | to_entries | all(.value | length == 16))) end) and
	  (.vl_high_limit | $num) and
	  (.origin.sl2vl | IN(\"template\", \"scope\", \"routing-engine\", \"intent\")) and
	  (.origin.vlarb | IN(\"template\", \"scope\", \"intent\"))))"

"$q" tables --json --all --policy "$P" --fabric "$F" | check tables "
	(.policy | $str) and (.routing_engine | $str) and
	(.engine_chooses_sls | type == \"boolean\") and
	(.ports | length) > 0 and (.ports | all(
	  (.guid | $guid) and (.node_guid | $guid) and (.port | $num) and
	  (.lid | $num) and (.node | $str) and (.kind | $str) and (.vls | $num) and
	  (.sl2vl == null or (.sl2vl | length == 16)) and
	  (if .kind == \"switch external port\" and .sl2vl != null then
	     (.sl2vl_by_in | to_entries | all((.key | test(\"^[0-9]+$\")) and (.value | length == 16)))
	   else true end) and
	  (.vlarb_high == null or (.vlarb_high | all(length == 2))) and
	  (.vlarb_low == null or (.vlarb_low | all(length == 2))) and
	  (.vl_high_limit | $num) and
	  (.origin.sl2vl | IN(\"template\", \"scope\", \"routing-engine\", \"intent\")) and
	  (.origin.vlarb | IN(\"template\", \"scope\", \"intent\"))))"

"$q" predict --json --policy "$P" --fabric "$F" | check "predict (classes)" "
	.schema == 3 and .summary == true and (.scenario | $str) and
	(.ports_total | $num) and (has(\"ports\") or has(\"nodes\") | not) and
	([.classes[].ports] | add) == .ports_total and
	(.classes | length) > 0 and (.classes | all(
	  (.class | $num) and (.ports | $num) and (.link | $str) and
	  (.example.guid | $guid) and (.example.port | $num) and
	  (.example.lid | $num) and (.example.node | $str) and
	  (.example.name | $str) and (.sls | length == 16)))"

"$q" predict --json --all --policy "$P" --fabric "$F" | check predict "
	(.classes | length) > 0 and (.classes | all(
	  (.class | $num) and (.ports | $num) and (.link | $str) and
	  (.width | $num) and (.speed | $str) and
	  (.rate_gbps | $num) and (.mtu | $num) and
	  (.sl2vl_origin | IN(\"template\", \"scope\", \"routing-engine\", \"intent\", \"none\", \"unknown\")) and
	  (.vl_high_limit == null or (.vl_high_limit | $num)) and
	  (.profile | IN(\"iba\", \"cx2-2k\")) and (.exact | type == \"boolean\") and
	  (.sls | length == 16) and (.sls | all(
	    (.sl | $num) and (.vl == null or (.vl | $num)) and
	    (.vls | type == \"array\") and (.share | $num) and
	    (.share_exact | test(\"^[0-9]+(/[0-9]+)?$\")) and
	    (.predicted_gbps | $num) and (.guaranteed_gbps | $num) and
	    (.guaranteed_exact | test(\"^[0-9]+(/[0-9]+)?$\")) and
	    (.shared_with | type == \"array\") and (.ceiling_gbps | $num) and
	    (.guaranteed_gbps <= .ceiling_gbps + 1e-9) and
	    (.predicted_gbps <= .ceiling_gbps + 1e-9) and
	    (.dropped | type == \"boolean\") and
	    (.latency_us == null or (.latency_us | $num)) and
	    (.latency_is_bound | type == \"boolean\") and
	    (.priority | IN(\"high\", \"low\", \"both\", \"none\", \"single\")) and
	    (.starve | type == \"boolean\"))))) and
	(.nodes | length) > 0 and (.nodes | all(
	  (.guid | $guid) and (.node | $str) and
	  (.node_type | IN(\"CA\", \"Switch\", \"Router\")) and
	  (.ports | all((.port | $num) and (.guid | $guid) and (.lid | $num) and
	    (.lmc | $num) and (.class | $num))))) and
	([.nodes[].ports[].class] | unique) == [range(.classes | length)] and
	.schema == 3 and (.ports | length) > 0 and (.ports | all(
	  (.guid | $guid) and (.port | $num) and (.node | $str) and
	  (.name | $str) and (.rate_gbps | $num) and (.mtu | $num) and
	  (.sl2vl_origin | IN(\"template\", \"scope\", \"routing-engine\", \"intent\", \"none\", \"unknown\")) and
	  (.profile | IN(\"iba\", \"cx2-2k\")) and (.exact | type == \"boolean\") and
	  (.sls | length == 16) and (.sls | all(
	    (.sl | $num) and (.vl == null or (.vl | $num)) and (.share | $num) and
	    (.share_exact | test(\"^[0-9]+(/[0-9]+)?$\")) and (.gbps | $num) and
	    (.priority | IN(\"high\", \"low\", \"both\", \"none\", \"single\")) and
	    (.starve | type == \"boolean\")))))"

# The demo's storage level (SL 1) is the only level on VL 1, but where
# the SL2VL puts other SLs there too (SL 9 under the template's), which no
# level grants and a job may set itself, its guarantee is shared with
# them: per class, SL 1 shares its VL with exactly the other SLs on it,
# and its guarantee is VL 1's share with every VL busy (the predictions of
# the SLs on VL 1 added up); SL 9 is marked as sharing it with SL 1.
"$q" predict --json --policy "$P" --fabric "$F" | check "predict (guarantees)" '
	all(.classes[]; . as $c | ($c.sls[] | select(.sl == 1)) as $s |
	  $s.shared_with == [$c.sls[] | select(.vl == $s.vl and .sl != 1) | .sl] and
	  $s.guaranteed_gbps > 0 and
	  ($s.guaranteed_gbps - ([$c.sls[] | select(.vl == $s.vl) |
	    .predicted_gbps] | add) | fabs) < 1e-3) and
	any(.classes[].sls[]; .sl == 9 and .shared_with == [1]) and
	any(.classes[].sls[]; .sl == 1 and .shared_with == [9])'

"$q" predict --json --compact --policy "$P" --fabric "$F" |
	check "predict --compact" '(has("ports") | not) and .schema == 3 and
	(.classes | length) > 0 and (.nodes | length) > 0'

"$q" predict --json --policy "$P" --fabric "$F" --path "cn01 HCA-1/P1" \
	"stor1 HCA-1/P1" --sl 1 | check "predict --path" "
	.path.sl == 1 and (.path.guaranteed_gbps | $num) and
	(.path.dropped | type == \"boolean\") and (.path.bottleneck | $num) and
	(.path.bottleneck_port | $str) and (.path.hops | length == 2) and
	(.path.vl_guaranteed_gbps | $num) and (.path.basis | IN(\"sl\", \"vl-group\")) and
	(.path.latency_us | $num) and (.path.latency_is_bound | type == \"boolean\") and
	(.path.latency_us - ([.path.hops[].wait_us] | add) | fabs) < 1e-4 and
	(.path.hops | all((.guid | $guid) and (.in_port | $num) and (.gbps | $num) and
	  (.vl_guaranteed_gbps | $num) and (.wait_us | $num)))"

# Bandwidth intents: synth's proof, and the origin of what tables shows.
IP=$top_srcdir/contrib/policies/intents.conf
IF=$top_srcdir/contrib/fabrics/mixed-caps.net
"$q" synth --json --policy "$IP" --fabric "$IF" 2>/dev/null | check synth "
	(.policy | $str) and (.routing_engine | $str) and .feasible == true and
	(.intents | length == 2) and (.intents | all((.level | $str) and
	  (.sl | $num) and (.bandwidth_pct | $num) and
	  (.priority | IN(\"high\", \"low\")))) and
	(.missed_ports | $num) and (.unchecked_ports | $num) and
	(.lowered.ports | $num) and (.lowered.differ | $num) and
	(.classes | length) >= 4 and (.classes | all(
	  (.class | $num) and (.ports | $num) and (.example | $str) and
	  (.example_guid | $guid) and (.vls | $num) and (.mtu | $num) and
	  (.rate_gbps | $num) and (.vlarb_high_cap | $num) and
	  (.vlarb_low_cap | $num) and (.sl2vl | IN(\"synthesized\", \"kept\")) and
	  (.vlarb | IN(\"synthesized\", \"kept\")) and
	  (.status | IN(\"ok\", \"infeasible\", \"missed\")) and (.why | $str) and
	  (.tables.sl2vl | length == 16) and
	  (.tables.vlarb_high | all((.vl | $num) and (.weight | $num))) and
	  (.tables.vlarb_low | all((.vl | $num) and (.weight | $num))) and
	  (.tables.vl_high_limit | $num) and (.best_effort_pct | $num) and
	  (.levels | all((.level | $str) and (.sl | $num) and (.vl | $str) and
	    (.priority | IN(\"high\", \"low\", \"both\", \"none\", \"single\")) and
	    (.intent_pct | $num) and (.share | test(\"^[0-9]+(/[0-9]+)?$\")) and
	    (.share_pct | $num) and (.gbps | $num) and (.slack_pct | $num) and
	    (.shared_with | type == \"array\") and
	    (.latency_us == null or (.latency_us | $num)) and
	    (.wait_us == null or (.wait_us | $num)) and
	    (.wait_is_bound | type == \"boolean\") and
	    .met == true))))"
"$q" tables --json --all --policy "$IP" --fabric "$IF" 2>/dev/null | check "tables (intents)" '
	[.ports[] | select(.vlarb_low) | .origin.vlarb] | unique == ["intent"]'

"$q" model --json --high 1:64 --low 0:64,7:16 --limit 8 --mtu 2048 |
	check model '
	.vl_shares_exact == {"0": "2/51", "1": "16/17", "7": "1/51"} and
	(.vl_shares | keys) == ["0", "1", "7"] and
	(.vl_shares["1"] - 16/17 | fabs) < 1e-9 and
	(.vl_bytes | type == "object") and (.cycle_bytes | . == 104448) and
	(.cycle_packets | . == 51) and (.cycle_steps | type == "number") and
	.exact == true and .idle == false and .profile == "iba"'
# plan: an edit of the demo policy on the demo fabric: storage's SL, a
# rule inserted first and the match rules' order reversed, so that
# rule_edits holds a rule added and one moved.
PN=$(mktemp "${TMPDIR:-/tmp}/oq-plan.XXXXXX")
trap 'rm -f "$PN"' EXIT
sed 's/^\(        sl: \)1$/\13/' "$P" | awk '
	/^qos-match-rules$/ {
		print
		print "    qos-match-rule\n        service-id: 0x1000000000000e00"
		print "        qos-level-name: monitoring\n    end-qos-match-rule"
		inr = 1
		next
	}
	inr && /^end-qos-match-rules$/ {
		for (i = n; i > 0; i--)
			printf "%s", blk[i]
		inr = 0
	}
	inr {
		cur = cur $0 "\n"
		if ($0 ~ /^    end-qos-match-rule$/) {
			blk[++n] = cur
			cur = ""
		}
		next
	}
	{ print }' >"$PN"
grep -q 'sl: 3' "$PN" && grep -q 0x1000000000000e00 "$PN" &&
	grep -A 5 0x1000000000000e00 "$PN" | grep -q 'use: monitoring' ||
	fail "the plan test's edit did not apply"
{ "$q" plan "$PN" --policy "$P" --fabric "$F" --json --all 2>/dev/null || true; } |
	check plan "
	def port: (.name | $str) and (.guid | $guid) and (.lid | $num);
	(.old.path | $str) and (.old.hash | $guid) and .old.in_force == false and
	(.new.path | $str) and (.new.hash | $guid) and
	(.ports_programmed | $num) and (.ports_changed | $num) and
	(.mads.sl2vl | $num) and (.mads.vlarb | $num) and
	.mads.total == .mads.sl2vl + .mads.vlarb and
	(.vl_high_limit_changes | $num) and
	(.classes | all((.role | $str) and (.ports | $num) and
	  (.sl2vl_sets | $num) and (.vlarb_sets | $num) and
	  (.example | port) and (.change | $str) and
	  (.shares | all((.sl | $num) and (.before_pct | $num) and (.after_pct | $num))))) and
	(.ports | all((.port | port) and (.port.port | $num) and (.role | $str) and
	  (.sl2vl_sets | $num) and (.vlarb_sets | $num) and
	  (.vl_high_limit | type == \"boolean\"))) and
	(.rules | length) == 1 and .rules[0].old_sl == 1 and .rules[0].new_sl == 3 and
	(.rules | all((.rule | $num) and (.old_rule | $num) and (.line | $num) and
	  (.old_line | $num) and (.old_level | $str) and (.new_level | $str))) and
	(.rules_added | $num) and (.rules_removed | $num) and
	(.rules_moved | $num) and (.rule_order_changes_levels | type == \"boolean\" or . == null) and
	(.rule_edits | type == \"array\" and length > 0) and
	([.rule_edits[].edit] | sort) == [\"added\", \"moved\"] and
	(.rule_edits | all((.edit | IN(\"added\", \"moved\", \"removed\")) and
	  (.rule == null or (.rule | $num)) and (.old_rule == null or (.old_rule | $num)) and
	  (.file | $str) and (.line | $num) and (.use == null or (.use | $str)) and
	  (.level | $str) and (.sl | $num))) and
	(.pairs.checked | $num) and (.pairs.sampled | type == \"boolean\") and
	(.pairs.queries | $num) and (.pairs.changed | $num) and
	(.pairs.examples | all((.src | port) and (.dst | port) and
	  (.old_sl | $num) and (.new_sl | $num))) and .changes == true"
# job-env, offline (no SA here): the storage pairs of the demo policy.
"$q" job-env --json --offline --plain --policy "$P" --fabric "$F" \
	--nodes 'cn[01-02],stor1' --prefer most 2>/dev/null | check job-env "
	.status == \"ok\" and .class == \"plain\" and .why == \"command line\" and
	.note == null and .decided_by == \"policy\" and .fallback == null and
	.requester == null and .hosts == 3 and .ports == 3 and
	.port_classes == 2 and .port_pairs == 6 and .pair_mode == \"classes\" and
	.queries == 0 and (.asked | length == 3) and (.asked | all(
	  (.src | $str) and (.src_guid | $guid) and (.dst | $str) and
	  (.dst_guid | $guid) and (.port_pairs | $num) and .granted == true and
	  (.sl | $num) and .pkey == null and .sa_status == null and
	  (.level | $str) and .why == null)) and
	.sl == 0 and .pkey == null and .pkey_index == null and
	.preferred == true and .env.UCX_IB_SL == \"0\" and
	.env.NCCL_IB_SL == \"0\" and (.env | length == 6)"
# Refused (exit 1), with the same document.
{ "$q" job-env --json --offline --plain --policy "$P" --fabric "$F" \
	--nodes 'cn[01-02],stor1' 2>/dev/null || :; } | check "job-env (mixed)" '
	.status == "mixed" and .sl == null and .env == {} and
	([.asked[].sl] | unique) == [0, 1]'
printf 'default none\n' >"${TMPDIR:-/tmp}/oq-json-schema-$$.map"
"$q" job-env --json --map "${TMPDIR:-/tmp}/oq-json-schema-$$.map" \
	--nodes cn01 | check "job-env (none)" '
	.status == "none" and .class == "none" and (.why | test(":1 \\(default")) and
	.note == null and .env == {}'
# An SL2VL the model cannot know (torus-2QoS between switches, offline):
# no guarantee or wait there, and a path through it has none either.
printf 'qos TRUE\nrouting_engine torus-2QoS\n' >"$tmp/torus.conf"
T=$top_srcdir/contrib/fabrics/two-switch.net
"$q" predict --json --fabric "$T" --opensm-conf "$tmp/torus.conf" |
	check "predict (SL2VL unknown)" '
	[.classes[] | select(.sl2vl_origin == "unknown")] as $u |
	($u | length) > 0 and
	all($u[].sls[]; .guaranteed_gbps == null and
	    .guaranteed_exact == null and .latency_us == null) and
	any(.classes[] | select(.sl2vl_origin != "unknown") | .sls[];
	    (.guaranteed_gbps | type == "number"))'
"$q" predict --json --fabric "$T" --opensm-conf "$tmp/torus.conf" \
	--path "h1 HCA-1/P1" "h3 HCA-1/P1" --sl 1 |
	check "predict --path (SL2VL unknown on a hop)" '
	.path.vl_guaranteed_gbps == null and .path.basis == "unknown" and
	.path.latency_us == null and
	([.path.hops[] | select(.vl_guaranteed_gbps == null)] | length) == 1'
"$q" predict --fabric "$T" --opensm-conf "$tmp/torus.conf" \
	--path "h1 HCA-1/P1" "h3 HCA-1/P1" --sl 1 >"$tmp/path.txt"
grep -q "^guaranteed: unknown" "$tmp/path.txt" ||
	fail "predict --path text sums a guarantee through an unknown SL2VL: $(tail -n 1 "$tmp/path.txt")"
rm -f "${TMPDIR:-/tmp}/oq-json-schema-$$.map"
echo PASS
