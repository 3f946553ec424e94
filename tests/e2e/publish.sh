#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The published prediction (docs/publish.md): after SUBNET UP the plugin
# has written osmqos-bandwidth.json and osmqos.prom into publish_dir=;
# both are regular files of mode 0644, a symlink planted at a target was
# replaced (its target untouched), the JSON has every documented key (port
# classes, nodes whose ports refer to them), the Prometheus text passes
# the strict checker (and promtool when installed) and its aggregates
# (per SL, level and class) equal the JSON's numbers, and every port's and
# SL's numbers equal `osmqos predict --json` on the same topology and
# policy.  A re-sweep rewrites osmqos.prom, and the JSON when it has
# something new to say (a removed one always); a missing directory is
# logged once per file and the SM carries on; with publish_detail=ports
# the per-port series equal the JSON too.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init publish
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
promcheck=$top_builddir/tests/unit/promcheck
[ -x "$promcheck" ] || e2e_fail "$promcheck not built (make check builds it)"

pub=$E2E_DIR/pub
json=$pub/osmqos-bandwidth.json
prom=$pub/osmqos.prom
mkdir -p "$pub"

# The program test's policy, with VLHighLimit 255 on the storage-facing
# ports so that some low-priority SLs starve, and traffic entering a
# switch by port 5 all on VL2 so that the guaranteed minimum (over input
# ports) differs from the all-inputs prediction.
pol=$E2E_DIR/qos-policy.conf
sed -e 's/vl-high-limit: 10/vl-high-limit: 255/' \
	-e '/^ *sl2vl-tables$/a\
        sl2vl-scope\
            group: switches\
            from: 5\
            to: *\
            sl2vl-table: 2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2\
        end-sl2vl-scope' \
	"$top_srcdir/tests/e2e/data/program-policy.conf" >"$pol"
grep -q "vl-high-limit: 255" "$pol" && grep -q "from: 5" "$pol" ||
	e2e_fail "policy edit did not apply"

# A symlink planted where the .prom file goes: it must be replaced, and
# the file it points at must not change.
printf 'precious\n' >"$E2E_DIR/victim"
chmod 600 "$E2E_DIR/victim"
ln -s "$E2E_DIR/victim" "$prom"
ln -s "$E2E_DIR/nonexistent" "$json" # dangling: must not be created

published() { grep -c "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG" 2>/dev/null; }

# Wait until the plugin has published $1 times (SUBNET UP is logged just
# before OpenSM reports the event the plugin publishes at).
wait_published() {
	e2e_wait_count "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG" "$1" 60 ||
		e2e_fail "plugin did not publish (publication $1)"
}

e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"event_plugin_options=publish_dir=$pub"
wait_published 1
grep "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG" | head -n 1 |
	sed 's/^.*osmqos: /  /'

# 1. Files, modes, the planted symlink.
for f in "$json" "$prom"; do
	[ -f "$f" ] && [ ! -L "$f" ] || e2e_fail "$f is not a regular file"
	mode=$(stat -c %a "$f")
	[ "$mode" = 644 ] || e2e_fail "$f has mode $mode, want 644"
done
[ "$(cat "$E2E_DIR/victim")" = precious ] ||
	e2e_fail "the symlink's target was written through"
[ "$(stat -c %a "$E2E_DIR/victim")" = 600 ] ||
	e2e_fail "the symlink's target changed mode"
[ ! -e "$E2E_DIR/nonexistent" ] || e2e_fail "a dangling symlink was followed"
leftover=$(find "$pub" -mindepth 1 ! -name osmqos-bandwidth.json ! -name osmqos.prom \
	! -name osmqos-last-good-policy.conf ! -name osmqos-policy-in-force.conf \
	! -name osmqos-policy-in-force.source \
	! -name .osmqos.lock)
[ -z "$leftover" ] || e2e_fail "temporary files left: $leftover"
# The policy in force as written: byte for byte, private like the copy.
cmp -s "$pol" "$pub/osmqos-policy-in-force.conf" &&
	[ "$(stat -c %a "$pub/osmqos-policy-in-force.conf")" = 600 ] ||
	e2e_fail "osmqos-policy-in-force.conf is not the policy with mode 600"

# 2. The JSON: parses, every documented key with its type; every port
# refers to a class, each class's port count is its references.
jq -e '
	def guid: type == "string" and test("^0x[0-9a-f]{16}$");
	def num: type == "number";
	def str: type == "string";
	def bool: type == "boolean";
	def iso: str and test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$");
	(.schema == 3) and (.generator | str) and (.sweep | num) and
	(.sweeps | num) and (.time | iso) and (.time_epoch | num) and
	(.policy | (.path | str) and (.hash | guid) and (.in_force == true) and
		(.load_success == true) and (.loaded_at | iso) and
		(.loaded_at_epoch | num) and (.loads_ok | num) and
		(.loads_failed | num)) and
	(.qos_mads_sent | num) and (.qos_mads_sent > 0) and
	(.model.scenario | str) and (.model.profile == "iba") and
	(.classes | type == "array" and length > 0) and
	([.classes[].class] == [range(.classes | length)]) and
	all(.classes[];
		(.class | num) and (.ports | num) and (.ports > 0) and
		(.width | num) and (.speed | str) and (.link | str) and
		(.rate_gbps | num) and (.mtu | num) and (.sl2vl_origin | str) and
		(.vl_high_limit == null or (.vl_high_limit | num)) and
		(.profile | str) and (.exact | bool) and (.sls | length == 16) and
		all(.sls[];
			(.sl | num) and (.vl == null or (.vl | num)) and
			(.vls | type == "array") and
			(.priority | IN("high", "low", "both", "none", "single")) and
			(.share | num) and (.share_exact | str) and
			(.predicted_gbps | num) and (.guaranteed_gbps | num) and
			(.guaranteed_gbps <= .ceiling_gbps + 1e-9) and
			(.predicted_gbps <= .ceiling_gbps + 1e-9) and
			(.starve | bool) and (.dropped | bool))) and
	(.nodes | type == "array" and length > 0) and
	all(.nodes[];
		(.guid | guid) and (.node | str) and
		(.node_type | IN("CA", "Switch", "Router")) and
		(.ports | length > 0) and
		all(.ports[]; (.port | num) and (.guid | guid) and (.lid | num) and
			(.lid > 0) and (.lmc | num) and (.class | num))) and
	(. as $d | [.nodes[].ports[].class] | group_by(.) |
		map({class: .[0], n: length}) ==
		[$d.classes[] | {class, n: .ports}])
' "$json" >/dev/null || e2e_fail "$json lacks a documented key or has a wrong type"
[ "$(jq -r .policy.path "$json")" = "$pol" ] || e2e_fail "policy path wrong"
# The ports with their class's numbers inline: the schema-1 shape, for
# comparisons (docs/json.md shows the same expansion).
expand='def expand: . as $d | [$d.nodes[] | . as $n | .ports[] | . as $p |
	{node_guid: $n.guid, node: $n.node, node_type: $n.node_type,
	 port: $p.port, guid: $p.guid, lid: $p.lid, lmc: $p.lmc} +
	($d.classes[$p.class] | del(.class, .ports))];'
nports=$(jq "$expand"' expand | length' "$json")
nclasses=$(jq '.classes | length' "$json")
nstarve=$(jq "$expand"' [expand[].sls[] | select(.starve)] | length' "$json")
nlower=$(jq "$expand"' [expand[].sls[] | select(.guaranteed_gbps < .predicted_gbps)] | length' "$json")
e2e_log "JSON: $nports ports in $nclasses classes, $nstarve starving and $nlower under-guaranteed SL/port pairs, schema ok"
[ "$nports" = 48 ] || e2e_fail "want the 48 linked ports of fat-tree-16, got $nports"
[ "$nclasses" -lt 12 ] || e2e_fail "$nclasses classes for 40 ports: classes do not group"
[ "$nstarve" -gt 0 ] || e2e_fail "no starving SL although VLHighLimit is 255"
[ "$nlower" -gt 0 ] || e2e_fail "no SL whose guarantee is below its prediction"

# 3. The Prometheus text: strict checker, and promtool when present.
"$promcheck" "$prom" || e2e_fail "$prom fails the text-format check"
promtool=${OQ_PROMTOOL:-$(command -v promtool)}
if [ -n "$promtool" ]; then
	"$promtool" check metrics <"$prom" || e2e_fail "promtool rejects $prom"
	e2e_log "promtool check metrics: ok"
else
	e2e_log "promtool not installed (Debian: prometheus); strict checker only"
fi
for m in osmqos_policy_load_success osmqos_policy_last_load_timestamp_seconds \
	osmqos_qos_mads_sent_total osmqos_audit_dropped_total \
	osmqos_sa_decision_seconds_count; do
	grep -q "^$m " "$prom" || e2e_fail "$prom lacks $m"
done
grep -q '^osmqos_sa_pr_answered_total{level="(none)"} ' "$prom" ||
	e2e_fail "$prom lacks osmqos_sa_pr_answered_total"
grep -q '^osmqos_policy_load_success 1$' "$prom" || e2e_fail "policy not loaded?"
[ "$(sed -n 's/^osmqos_qos_mads_sent_total //p' "$prom")" = "$(jq .qos_mads_sent "$json")" ] ||
	e2e_fail "MAD counts differ between the two files"

# Prometheus vs JSON: the aggregates are the JSON's numbers.  Per SL the
# minimum, (lower) median and maximum guaranteed Gb/s over the linked
# ports and the ports where it starves or is dropped; per class its
# ports and SLs; per level (policy order) its SL's figures.
jq -r "$expand"' expand as $p | range(16) as $s |
	[$p[] | .sls[$s]] as $v | ($v | map(.guaranteed_gbps) | sort) as $g |
	"sl \($s) \($g[0]) \($g[(($g | length) + 1) / 2 | floor - 1]) \($g[-1]) \([$v[] | select(.starve)] | length) \([$v[] | select(.dropped)] | length)"' \
	"$json" >"$E2E_DIR/agg.json"
jq -r '.classes[] | . as $c | .sls[] |
	"class \($c.class) \($c.ports) \($c.link) \(.sl) \(.vl // (if .vls == [] then "drop" else "mixed" end)) \(.predicted_gbps) \(.guaranteed_gbps)"' \
	"$json" >>"$E2E_DIR/agg.json"
jq -r '"linked \(.nodes | map(.ports | length) | add) \(.classes | length)"' \
	"$json" >>"$E2E_DIR/agg.json"
sort -o "$E2E_DIR/agg.json" "$E2E_DIR/agg.json"
gawk '
	function lab(k,    m) { return match($0, k "=\"[^\"]*\"") ? substr($0, RSTART + length(k) + 2, RLENGTH - length(k) - 3) : "" }
	/^osmqos_sl_guaranteed_bandwidth_gbps\{/ { sl[lab("sl")] = 1; st[lab("sl"), lab("stat")] = $NF }
	/^osmqos_sl_starved_ports\{/ { sv[lab("sl")] = $NF }
	/^osmqos_sl_dropped_ports\{/ { dr[lab("sl")] = $NF }
	/^osmqos_port_class_ports\{/ { cp[lab("class")] = $NF; cl[lab("class")] = lab("link") }
	/^osmqos_class_predicted_bandwidth_gbps\{/ { k = lab("class") " " lab("sl"); pr[k] = $NF; vl[k] = lab("vl") }
	/^osmqos_class_guaranteed_bandwidth_gbps\{/ { gu[lab("class") " " lab("sl")] = $NF }
	/^osmqos_linked_ports / { lp = $NF }
	/^osmqos_port_classes / { pc = $NF }
	END {
		for (s in sl) print "sl", s, st[s, "min"], st[s, "median"], st[s, "max"], sv[s], dr[s]
		for (k in pr) { split(k, a, " "); print "class", a[1], cp[a[1]], cl[a[1]], a[2], vl[k], pr[k], gu[k] }
		print "linked", lp, pc
	}' "$prom" | sort >"$E2E_DIR/agg.prom"
diff "$E2E_DIR/agg.json" "$E2E_DIR/agg.prom" >"$E2E_DIR/agg.diff" ||
	e2e_fail "Prometheus aggregates differ from the JSON: $(head -n 6 "$E2E_DIR/agg.diff")"
# Levels: storage is SL 1 in the policy; its series are SL 1's.
grep -q '^osmqos_level_guaranteed_bandwidth_gbps{level="storage",sl="1",stat="min"} ' "$prom" ||
	e2e_fail "no per-level series for the storage level"
[ "$(sed -n 's/^osmqos_level_guaranteed_bandwidth_gbps{level="storage",sl="1",stat="median"} //p' "$prom")" = \
  "$(sed -n 's/^osmqos_sl_guaranteed_bandwidth_gbps{sl="1",stat="median"} //p' "$prom")" ] ||
	e2e_fail "the storage level's median is not SL 1's"
grep -q '^osmqos_predicted_bandwidth_gbps{' "$prom" &&
	e2e_fail "per-port series published without publish_detail=ports"
e2e_log "Prometheus: $(grep -vc '^#' "$prom") series; aggregates equal the JSON ($(wc -l <"$E2E_DIR/agg.json") rows)"

# 4. The same numbers as osmqos predict --json on the same topology,
# policy and opensm.conf templates.
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"
predict() { # predict OUT [ARGS...]: rc 2 is fine for --in-port beyond a
	local out=$1 rc # switch's ports (those ports are left out)
	shift
	e2e_osmqos predict --json --all --policy "$pol" --fabric "$E2E_DIR/topo.ibnd" \
		--opensm-conf "$E2E_OSM_CONF" "$@" >"$out" 2>"$out.err"
	rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 2 ] || e2e_fail "osmqos predict $* failed: $(cat "$out.err")"
}
predict "$E2E_DIR/predict.json"
canon_json="$expand"' expand[] | . as $p | .sls[] |
	"\($p.guid) \($p.port) \($p.lid) \($p.rate_gbps) \($p.mtu) \($p.sl2vl_origin) \($p.vl_high_limit) \($p.exact) \(.sl) \(.vl) \(.share) \(.share_exact) \(.predicted_gbps) \(.guaranteed_gbps) \(.priority) \(.starve)"'
jq -r "$canon_json" "$E2E_DIR/predict.json" | sort >"$E2E_DIR/predict.lines"
jq -r "$canon_json" "$json" | sort >"$E2E_DIR/published.lines"
[ -s "$E2E_DIR/predict.lines" ] || e2e_fail "osmqos predict printed no ports"
diff "$E2E_DIR/predict.lines" "$E2E_DIR/published.lines" >"$E2E_DIR/predict.diff" ||
	e2e_fail "published prediction differs from osmqos predict: $(head -n 6 "$E2E_DIR/predict.diff")"
e2e_log "$(wc -l <"$E2E_DIR/published.lines") port/SL values equal osmqos predict --json"
# Classes are numbered and nodes listed by GUID: the two documents' port
# classes and nodes are equal member for member.
jq -cS '{classes, nodes}' "$json" >"$E2E_DIR/members.published"
jq -cS '{classes, nodes}' "$E2E_DIR/predict.json" >"$E2E_DIR/members.predict"
cmp -s "$E2E_DIR/members.published" "$E2E_DIR/members.predict" ||
	e2e_fail "published classes/nodes differ from osmqos predict --json: $(diff <(jq -c '.classes[] | del(.sls)' "$json") <(jq -c '.classes[] | del(.sls)' "$E2E_DIR/predict.json") | head -n 4)"

# Guaranteed: the SL's VL with every VL busy.  Where every input maps
# each SL to one VL (vl not null for all 16), all 16 SLs backlogged busy
# every VL the SL2VL reaches, so the VL's share is the predictions of the
# SLs on it added up.  (Ports whose inputs map SLs differently are the
# model's: their guarantee is the least over the VLs the SL reaches with
# every input's VLs busy at once, which no single predict view shows.)
# Predictions have six significant digits: within a thousandth of a Gb/s.
jq -r "$expand"' expand[] | . as $p | select(all($p.sls[]; .vl != null)) |
	$p.sls[] | . as $s |
	"\($p.guid) \($p.port) \($s.sl) \([$p.sls[] | select(.vl == $s.vl) | .predicted_gbps] | add) \($s.guaranteed_gbps)"' \
	"$json" | awk '{ n++ } $4 - $5 > 1e-3 || $5 - $4 > 1e-3 { print; bad++ }
		END { print n " checked" > "/dev/stderr"; exit bad > 0 || n == 0 }' \
	>"$E2E_DIR/guaranteed.diff" 2>"$E2E_DIR/guaranteed.n" ||
	e2e_fail "guaranteed Gb/s are not the VL's share with every VL busy: $(head -n 6 "$E2E_DIR/guaranteed.diff")"
e2e_log "guaranteed Gb/s equal their VL's share with every VL busy on $(cat "$E2E_DIR/guaranteed.n") port/SL values"

# LIDs as the fabric has them (osmqos tables reads them from ibnetdiscover).
e2e_osmqos tables --json --all --policy "$pol" --fabric "$E2E_DIR/topo.ibnd" \
	--opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/tables.json" 2>"$E2E_DIR/tables.err" ||
	e2e_fail "osmqos tables failed"
jq -r '.ports[] | select(.kind != "switch base port 0") | "\(.guid) \(.port) \(.lid)"' \
	"$E2E_DIR/tables.json" | sort >"$E2E_DIR/lids.tables"
jq -r "$expand"' expand[] | "\(.guid) \(.port) \(.lid)"' "$json" | sort >"$E2E_DIR/lids.published"
join -j1 <(awk '{print $1":"$2, $3}' "$E2E_DIR/lids.published" | sort) \
	<(awk '{print $1":"$2, $3}' "$E2E_DIR/lids.tables" | sort) >"$E2E_DIR/lids.joined"
[ "$(wc -l <"$E2E_DIR/lids.joined")" = "$nports" ] ||
	e2e_fail "only $(wc -l <"$E2E_DIR/lids.joined") of $nports published ports found in osmqos tables"
awk '$2 != $3 { bad++; print } END { exit bad > 0 }' "$E2E_DIR/lids.joined" >"$E2E_DIR/lids.diff" ||
	e2e_fail "published LIDs differ from the fabric's: $(head -n 3 "$E2E_DIR/lids.diff")"
e2e_log "LIDs of all $nports ports equal the fabric's"

# 5. A re-sweep publishes again (newer sweep, same numbers); the JSON
# removed meanwhile is written again.
sweep1=$(jq .sweep "$json")
rm "$json"
kill -HUP "$E2E_OPENSM_PID"
wait_published 2
sweep2=$(jq .sweep "$json")
[ "$sweep2" -gt "$sweep1" ] || e2e_fail "sweep did not advance ($sweep1 -> $sweep2)"
[ "$(awk '$1 == "osmqos_sweep" {print $2}' "$prom")" = "$sweep2" ] ||
	e2e_fail "osmqos.prom is not of sweep $sweep2"
jq -r "$canon_json" "$json" | sort | diff -q - "$E2E_DIR/published.lines" >/dev/null ||
	e2e_fail "an unchanged fabric published different numbers"
[ "$(cat "$E2E_DIR/victim")" = precious ] || e2e_fail "victim written"

# 6. The directory vanishes: one error per file, however many sweeps;
# the SM keeps sweeping; when it is back, publishing resumes.
mv "$pub" "$pub.away"
for pass in 1 2; do
	e2e_hup_sweep
	e2e_wait_for "cannot publish osmqos.prom" "$E2E_OSM_LOG" 10 ||
		e2e_fail "no error logged for a missing publish directory"
done
sleep 1
for f in osmqos-bandwidth.json osmqos.prom; do
	n=$(grep -c "cannot publish $f: " "$E2E_OSM_LOG")
	[ "$n" = 1 ] || e2e_fail "'cannot publish $f' logged $n times, want once"
done
grep "cannot publish osmqos.prom" "$E2E_OSM_LOG" | sed 's/^.*osmqos: /  /'
mv "$pub.away" "$pub"
kill -HUP "$E2E_OPENSM_PID"
e2e_wait_for "publishing osmqos.prom works again" "$E2E_OSM_LOG" 30 ||
	e2e_fail "publishing did not resume"
kill -0 "$E2E_OPENSM_PID" || e2e_fail "opensm died"

if grep "ERR" "$E2E_OSM_LOG" | grep -v "ERR AC" | grep -qi osmqos; then
	e2e_fail "plugin-caused ERR lines in the opensm log"
fi

# 7. publish_detail=ports: the per-port series, equal to the JSON per port
# and SL; a bad value is one error and the default.
e2e_stop_opensm
n=$(published)
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"event_plugin_options=publish_dir=$pub publish_detail=ports"
wait_published $((n + 1))
"$promcheck" "$prom" || e2e_fail "$prom (publish_detail=ports) fails the text-format check"
jq -r "$expand"' expand[] | . as $p | .sls[] |
	"\($p.node_guid) \($p.port) \(.sl) \(.vl // "x") \(.predicted_gbps) \(.guaranteed_gbps) \(if .starve then 1 else 0 end)"' \
	"$json" | sort >"$E2E_DIR/json.lines"
awk '
	/^osmqos_(predicted|guaranteed)_bandwidth_gbps\{|^osmqos_sl_starved\{/ {
		match($0, /node_guid="[^"]*"/); g = substr($0, RSTART + 11, RLENGTH - 12)
		match($0, /port="[^"]*"/); p = substr($0, RSTART + 6, RLENGTH - 7)
		match($0, /sl="[^"]*"/); s = substr($0, RSTART + 4, RLENGTH - 5)
		match($0, /vl="[^"]*"/); v = substr($0, RSTART + 4, RLENGTH - 5)
		if (v !~ /^[0-9]+$/) v = "x"
		k = g " " p " " s " " v
		if ($0 ~ /^osmqos_predicted/) pr[k] = $NF
		else if ($0 ~ /^osmqos_guaranteed/) gu[k] = $NF
		else st[k] = $NF
	}
	END { for (k in pr) print k, pr[k], gu[k], st[k] }' "$prom" |
	sort >"$E2E_DIR/prom.lines"
[ "$(wc -l <"$E2E_DIR/prom.lines")" = $((nports * 16)) ] ||
	e2e_fail "publish_detail=ports: $(wc -l <"$E2E_DIR/prom.lines") per-port SL rows, want $((nports * 16))"
diff "$E2E_DIR/json.lines" "$E2E_DIR/prom.lines" >"$E2E_DIR/json-prom.diff" ||
	e2e_fail "per-port Prometheus series and JSON disagree: $(head -n 4 "$E2E_DIR/json-prom.diff")"
e2e_log "publish_detail=ports: $(grep -vc '^#' "$prom") series, per-port values equal the JSON"
e2e_stop_opensm
n=$(published)
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"event_plugin_options=publish_dir=$pub publish_detail=everything publish_interval=-5"
wait_published $((n + 1))
kill -HUP "$E2E_OPENSM_PID"
wait_published $((n + 2))
[ "$(grep -c "publish_detail=everything is neither" "$E2E_OSM_LOG")" = 1 ] ||
	e2e_fail "a bad publish_detail is not one error"
[ "$(grep -c "publish_interval=-5 is not a number of seconds" "$E2E_OSM_LOG")" = 1 ] ||
	e2e_fail "a bad publish_interval is not one error"
grep -q '^osmqos_predicted_bandwidth_gbps{' "$prom" &&
	e2e_fail "a bad publish_detail published per-port series"
grep -q '^osmqos_qos_enabled 1$' "$prom" &&
	jq -e '.qos_enabled == true' "$json" >/dev/null ||
	e2e_fail "qos TRUE is not published: $(grep qos_enabled "$prom"; jq .qos_enabled "$json")"

# 8. qos FALSE: OpenSM programs no QoS tables; the files say nothing of
# ports, and still carry the policy and counters, and say qos is off:
# status gives that as the cause (exit 1), not a policy to fix.  publish_interval=0:
# the file is written at SUBNET UP only (no refresh in 2.5 s).
e2e_stop_opensm
n=$(published)
e2e_start_opensm qos=FALSE "qos_policy_file=$pol" \
	"event_plugin_options=publish_dir=$pub publish_interval=0"
wait_published $((n + 1))
grep -q "publish_interval=0: osmqos.prom is written at SUBNET UP only" "$E2E_OSM_LOG" ||
	e2e_fail "publish_interval=0 not logged"
sweep=$(grep '^osmqos_sweep ' "$prom")
stamp=$(grep '^osmqos_publish_timestamp_seconds ' "$prom")
sleep 2.5
# (a sweep of OpenSM's own meanwhile would rewrite it legitimately)
[ "$(grep '^osmqos_sweep ' "$prom")" != "$sweep" ] ||
	[ "$(grep '^osmqos_publish_timestamp_seconds ' "$prom")" = "$stamp" ] ||
	e2e_fail "publish_interval=0, yet $prom was rewritten without a sweep"
jq -e '.classes == [] and .nodes == []' "$json" >/dev/null ||
	e2e_fail "qos FALSE published port predictions: $(jq -c '{c: (.classes | length), n: (.nodes | length)}' "$json")"
grep -q '^osmqos_linked_ports 0$' "$prom" && grep -q '^osmqos_policy_load_success ' "$prom" ||
	e2e_fail "qos FALSE: $prom lacks the empty aggregates or the policy metrics"
grep -q '^osmqos_qos_enabled 0$' "$prom" &&
	jq -e '.qos_enabled == false' "$json" >/dev/null ||
	e2e_fail "qos FALSE is not published: $(grep qos_enabled "$prom"; jq .qos_enabled "$json")"
e2e_osmqos status -d "$pub" >"$E2E_DIR/status-qos-false.txt" 2>&1
rc=$?
[ "$rc" = 1 ] && [ "$(head -n 1 "$E2E_DIR/status-qos-false.txt")" = \
	"status: opensm.conf has qos FALSE: OpenSM programs no QoS tables (not even its templates) and osmqos loads no policy (exit 1): set qos TRUE in opensm.conf, then restart opensm" ] ||
	e2e_fail "status with qos FALSE (exit $rc): $(cat "$E2E_DIR/status-qos-false.txt")"
e2e_pass
