#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The Grafana dashboard (contrib/grafana/osmqos.json) against what the
# plugin really publishes: the file is a dashboard (uid, title, panels
# placed on the grid, each described, each with a PromQL expression);
# every expression, with Grafana's $variables filled in, parses
# (promtool check rules, when installed); every function it calls is
# PromQL's; and every metric it selects, every label it matches on and
# every label value it requires with = is in the osmqos.prom the plugin
# published on fat-tree-16 after PathRecord answers, which the plugin's
# refresh (publish_interval) puts in the file with no sweep (default
# publish_detail: the dashboard needs no per-port series).  Grouping and
# legend labels are checked against the published series too, and what
# rate()/increase()/delta() read against the family's # TYPE.  The policy
# panels' expressions are evaluated by promtool on series written here:
# a content refused at opensm's start (the failed-loads counter already 1
# at its first sample) shows as a rejection in the last 24 h, and no
# longer a day later; the load status of an SM with qos FALSE (nothing
# loaded) is not FAILED but its own value, shown QOS OFF.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init grafana-dashboard
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
dash=$top_srcdir/contrib/grafana/osmqos.json

# ---- the dashboard itself -------------------------------------------
jq -e . "$dash" >/dev/null || e2e_fail "$dash is not JSON"
jq -e '(.uid | type == "string") and (.title | length > 0) and
	(.panels | length > 0) and (.templating.list | type == "array")' \
	"$dash" >/dev/null || e2e_fail "$dash lacks uid, title, panels or templating"
# Every panel, those inside a collapsed row included.
panels='def panels: .panels[]? | ., panels; [panels]'
bad=$(jq -r "$panels"'[] | select(.type != "row") |
	select((.description // "") == "" or (.targets // [] | length) == 0 or
	       any(.targets[]; (.expr // "") == "") or
	       (.gridPos | (.w // 0) < 1 or (.h // 0) < 1)) | .title' "$dash")
[ -z "$bad" ] || e2e_fail "panels without description, expression or size: $bad"
overlap=$(jq -r '[.panels[].gridPos] as $g | range(0; $g | length) as $i |
	range($i + 1; $g | length) as $j | $g[$i] as $a | $g[$j] as $b |
	select($a.x < $b.x + $b.w and $b.x < $a.x + $a.w and
	       $a.y < $b.y + $b.h and $b.y < $a.y + $a.h) | "\($i),\($j)"' "$dash")
[ -z "$overlap" ] || e2e_fail "panels overlap on the grid: $overlap"

# Every expression: panel targets and query variables, with Grafana's
# variables replaced by what they expand to.
exprs=$E2E_DIR/exprs.txt
subst() { sed -e 's/\$__rate_interval/5m/g' -e 's/\$instance/.+/g'; }
jq -r "$panels"'[] | .targets[]?.expr' "$dash" | subst >"$exprs"
jq -r '.templating.list[] | select(.type == "query") |
	(.query.query // .query)' "$dash" | subst >>"$exprs"
# Each target as EXPR<tab>LEGEND, for the label checks below.
targets=$E2E_DIR/targets.tsv
jq -r "$panels"'[] | .targets[]? | [.expr, (.legendFormat // "")] | @tsv' \
	"$dash" | subst >"$targets"
n=$(grep -c . "$exprs")
[ "$n" -ge 15 ] || e2e_fail "only $n expressions in the dashboard"
grep -n '\$' "$exprs" && e2e_fail "an expression uses an unknown Grafana variable"

# Syntax: promtool parses each (label_values() is Grafana's, not PromQL:
# its metric is checked below).
if command -v promtool >/dev/null; then
	rules=$E2E_DIR/rules.yml
	{
		echo "groups:"
		echo "  - name: dashboard"
		echo "    rules:"
		i=0
		grep -v '^label_values(' "$exprs" | while IFS= read -r e; do
			i=$((i + 1))
			printf '      - record: osmqos:dashboard_%d\n' "$i"
			printf '        expr: %s\n' "$(jq -Rn --arg e "$e" '$e')"
		done
	} >"$rules"
	promtool check rules "$rules" >"$E2E_DIR/promtool.out" 2>&1 ||
		e2e_fail "promtool: $(cat "$E2E_DIR/promtool.out")"
else
	e2e_log "note: promtool not installed (apt-get install prometheus): syntax not checked"
fi
# Functions: PromQL's (and Grafana's label_values), nothing misspelt.
funcs='^(sum|min|max|avg|count|by|without|rate|increase|delta|changes|max_over_time|histogram_quantile|clamp_min|clamp_max|time|topk|bottomk|label_values)$'
bad=$(grep -o '[a-z_]*(' "$exprs" | tr -d '(' | grep -v '^$' |
	grep -Ev "$funcs" | sort -u)
[ -z "$bad" ] || e2e_fail "unknown functions in expressions: $bad"

# ---- what the policy panels show, evaluated -------------------------
# panel_test NAME ID FORMAT: promtool evaluates the expression of panel
# ID's first target, put in FORMAT (printf), wherever the YAML test read
# from stdin says EXPR (series start at time 0; promtool's time() counts
# from there).
panel_test() {
	local e body
	e=$(jq -r --argjson id "$2" "$panels"'[] | select(.id == $id) |
		.targets[0].expr' "$dash" | subst)
	[ -n "$e" ] || e2e_fail "no panel $2 with an expression"
	# shellcheck disable=SC2059 # the format is the caller's
	e=$(printf "$3" "$e" | jq -Rs .)
	body=$(cat)
	echo "groups: []" >"$E2E_DIR/no-rules.yml"
	{
		echo "rule_files: [$E2E_DIR/no-rules.yml]"
		echo "evaluation_interval: 1h"
		echo "tests:"
		echo "${body//EXPR/"$e"}"
	} >"$E2E_DIR/$1.yml"
	promtool test rules "$E2E_DIR/$1.yml" >"$E2E_DIR/$1.out" 2>&1 ||
		e2e_fail "panel $2 ($1): $(cat "$E2E_DIR/$1.out")"
}
if command -v promtool >/dev/null; then
	# Rejected policy loads (24 h), each hour: "start" began at 25 h
	# with its content refused (counter 1 from its first sample),
	# "later" refused an edit at 27 h, "none" refused nothing.  At 30 h
	# the first two show a rejection; at 52 h, more than a day after
	# both, neither does.
	panel_test rejected-24h 4 '(%s) > bool 0' <<'EOF'
  - interval: 1h
    input_series:
      - series: 'osmqos_policy_loads_total{instance="start",result="failed"}'
        values: '_x24 1+0x30'
      - series: 'osmqos_policy_rejected_timestamp_seconds{instance="start"}'
        values: '_x24 90000+0x30'
      - series: 'osmqos_policy_loads_total{instance="later",result="failed"}'
        values: '_x24 0+0x2 1+0x27'
      - series: 'osmqos_policy_rejected_timestamp_seconds{instance="later"}'
        values: '_x24 0+0x2 97200+0x27'
      - series: 'osmqos_policy_loads_total{instance="none",result="failed"}'
        values: '_x24 0+0x30'
      - series: 'osmqos_policy_rejected_timestamp_seconds{instance="none"}'
        values: '_x24 0+0x30'
    promql_expr_test:
      - expr: EXPR
        eval_time: 30h
        exp_samples:
          - labels: '{instance="start"}'
            value: 1
          - labels: '{instance="later"}'
            value: 1
          - labels: '{instance="none"}'
            value: 0
      - expr: EXPR
        eval_time: 52h
        exp_samples:
          - labels: '{instance="start"}'
            value: 0
          - labels: '{instance="later"}'
            value: 0
          - labels: '{instance="none"}'
            value: 0
EOF
	# Policy load status: "ok" in force, "failed" its content refused,
	# "off" with qos FALSE (nothing loaded: load_success 0 too), "old"
	# a plugin that does not publish osmqos_qos_enabled.
	panel_test load-status 3 '%s' <<'EOF'
  - interval: 1h
    input_series:
      - series: 'osmqos_qos_enabled{instance="ok"}'
        values: '1x3'
      - series: 'osmqos_policy_load_success{instance="ok"}'
        values: '1x3'
      - series: 'osmqos_qos_enabled{instance="failed"}'
        values: '1x3'
      - series: 'osmqos_policy_load_success{instance="failed"}'
        values: '0x3'
      - series: 'osmqos_qos_enabled{instance="off"}'
        values: '0x3'
      - series: 'osmqos_policy_load_success{instance="off"}'
        values: '0x3'
      - series: 'osmqos_policy_load_success{instance="old"}'
        values: '1x3'
    promql_expr_test:
      - expr: EXPR
        eval_time: 2h
        exp_samples:
          - labels: '{instance="ok"}'
            value: 1
          - labels: '{instance="failed"}'
            value: 0
          - labels: '{instance="off"}'
            value: 2
          - labels: '{instance="old"}'
            value: 1
EOF
	# ... and what the stat shows for those values.
	jq -e "$panels"'[] | select(.id == 3) |
		.fieldConfig.defaults.mappings[0].options |
		.["0"].text == "FAILED" and .["1"].text == "OK" and
		.["2"].text == "QOS OFF"' "$dash" >/dev/null ||
		e2e_fail "panel 3 does not map 0, 1, 2 to FAILED, OK, QOS OFF"
	e2e_log "policy panels evaluated by promtool: a rejection at start shows, qos FALSE is no failure"
else
	e2e_log "note: promtool not installed (apt-get install prometheus): the policy panels are not evaluated"
fi

# ---- a live publication ----------------------------------------------
pub=$E2E_DIR/pub
prom=$pub/osmqos.prom
mkdir -p "$pub"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE \
	"qos_policy_file=$top_srcdir/tests/e2e/data/program-policy.conf" \
	"event_plugin_options=publish_dir=$pub publish_interval=1"
e2e_wait_count "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG" 1 60 ||
	e2e_fail "the plugin did not publish"
sweep0=$(awk '$1 == "osmqos_sweep" { print $2 }' "$prom")
published0=$(grep -c "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG")
s=$(e2e_lid "stor1 HCA-1")
d=$(e2e_lid "cn04 HCA-1")
[ -n "$s" ] && [ -n "$d" ] || e2e_fail "no LIDs for stor1/cn04"
e2e_sim saquery -p --slid "$s" --dlid "$d" >"$E2E_DIR/pr.out" 2>&1 ||
	e2e_fail "saquery: $(tail -n 3 "$E2E_DIR/pr.out")"
grep -q "^[[:space:]]*sl\.\." "$E2E_DIR/pr.out" || e2e_fail "no PathRecord: $(cat "$E2E_DIR/pr.out")"
# The rate panels need counters that move without a sweep (OpenSM sweeps
# only when the fabric changes): the master rewrites them every
# publish_interval seconds, here 1.
answered() {
	awk '$1 ~ /^osmqos_sa_pr_answered_total\{/ { n += $2 } END { print n + 0 }' "$prom"
}
for _ in $(seq 1 20); do
	[ "$(answered)" -gt 0 ] && break
	sleep 0.5
done
[ "$(answered)" -gt 0 ] ||
	e2e_fail "osmqos_sa_pr_answered_total still 0 10 s after an answer: $(grep answered_total "$prom")"
[ "$(awk '$1 == "osmqos_sweep" { print $2 }' "$prom")" = "$sweep0" ] &&
	[ "$(grep -c "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG")" = "$published0" ] ||
	e2e_fail "a sweep published meanwhile: the refresh is not what was seen"
"$top_builddir/tests/unit/promcheck" "$prom" >"$E2E_DIR/promcheck.out" 2>&1 ||
	e2e_fail "the refreshed file fails the text-format check: $(cat "$E2E_DIR/promcheck.out")"
grep -q '^osmqos_level_guaranteed_bandwidth_gbps{' "$prom" ||
	e2e_fail "the refreshed file lost the sweep's aggregates"

# Each selector: name{matchers} or a bare name.
fails=0 checked=0
while IFS= read -r sel; do
	name=${sel%%\{*}
	checked=$((checked + 1))
	samples=$(grep -E "^$name(\{| )" "$prom")
	if [ -z "$samples" ]; then
		e2e_log "metric $name: not in the published file"
		fails=$((fails + 1))
		continue
	fi
	[[ $sel == *\{* ]] || continue
	matchers=${sel#*\{}
	matchers=${matchers%\}}
	while IFS= read -r m; do
		[ -n "$m" ] || continue
		key=${m%%[=!]*}
		[ "$key" = instance ] || [ "$key" = job ] && continue # the scraper's
		grep -q "[{,]$key=\"" <<<"$samples" || {
			e2e_log "metric $name: no label $key"
			fails=$((fails + 1))
			continue
		}
		if [[ $m =~ ^[a-z_]+=\"([^\"]*)\"$ ]]; then
			grep -qF "$key=\"${BASH_REMATCH[1]}\"" <<<"$samples" || {
				e2e_log "metric $name: no series with $m"
				fails=$((fails + 1))
			}
		fi
	done < <(tr ',' '\n' <<<"$matchers")
done < <(grep -oE 'osmqos_[a-z0-9_]+(\{[^}]*\})?' "$exprs")
[ "$checked" -ge 15 ] || e2e_fail "only $checked selectors found"

# rate(), increase() and histogram_quantile()'s buckets read counters: the
# family's # TYPE must be counter (or histogram); delta() reads a gauge.
typed=0
while IFS=' ' read -r fn m; do
	fam=$(sed -E 's/_(bucket|sum|count)$//' <<<"$m")
	type=$(awk -v f="$fam" '$1 == "#" && $2 == "TYPE" && $3 == f { print $4 }' "$prom")
	typed=$((typed + 1))
	case $fn:$type in
	rate:counter | increase:counter | rate:histogram | increase:histogram) ;;
	delta:gauge) ;;
	*)
		e2e_log "$fn($m...): $fam is a ${type:-family with no TYPE}"
		fails=$((fails + 1))
		;;
	esac
done < <(grep -oE '\b(rate|increase|delta)\(osmqos_[a-z0-9_]+' "$exprs" | tr '(' ' ')
[ "$typed" -ge 5 ] || e2e_fail "only $typed rate/increase/delta arguments found"

# Grouping labels (by, without, on, ignoring) and legend {{labels}}: each
# is on a published series of a metric its expression selects, or is the
# scraper's (instance, job); a legend of an aggregated expression names
# only labels the aggregation keeps.
labels_checked=0
while IFS=$'\t' read -r e legend; do
	samples=$(grep -oE 'osmqos_[a-z0-9_]+' <<<"$e" | sort -u |
		while read -r m; do grep -E "^$m(\{| )" "$prom"; done)
	keep=$(grep -oE '\b(by|without|on|ignoring) ?\([^)]*\)' <<<"$e" |
		sed -E 's/^[a-z]+ ?\((.*)\)$/\1/' | tr ', ' '\n\n' | grep . | sort -u)
	for l in $keep; do
		case $l in instance | job) continue ;; esac
		labels_checked=$((labels_checked + 1))
		grep -q "[{,]$l=\"" <<<"$samples" || {
			e2e_log "grouping label $l of '$e': on no series it selects"
			fails=$((fails + 1))
		}
	done
	for l in $(grep -oE '\{\{ *[a-zA-Z_]+ *\}\}' <<<"$legend" | tr -d '{} '); do
		[ "$l" = instance ] || labels_checked=$((labels_checked + 1))
		# Any aggregation, prefix or postfix "by": the legend may name
		# only what a by() keeps (without() is refused outright: the
		# labels it keeps cannot be checked here).
		if grep -qE '\bwithout ?\(' <<<"$e"; then
			e2e_log "'$e': without() hides which labels remain; use by()"
			fails=$((fails + 1))
			continue
		fi
		if grep -qE '\b(sum|min|max|avg|count|group|stddev|stdvar|quantile|count_values)( by)? ?\(' <<<"$e"; then
			grep -qx "$l" <<<"$keep" || {
				e2e_log "legend {{$l}} of '$e': the aggregation drops it"
				fails=$((fails + 1))
			}
			continue
		fi
		case $l in instance | job) continue ;; esac
		grep -q "[{,]$l=\"" <<<"$samples" || {
			e2e_log "legend {{$l}} of '$e': no such label published"
			fails=$((fails + 1))
		}
	done
done <"$targets"
[ "$labels_checked" -ge 20 ] || e2e_fail "only $labels_checked grouping and legend labels (other than instance) found"
[ "$fails" -eq 0 ] || e2e_fail "$fails selectors, labels or metric types of the dashboard do not match the published file (above)"
e2e_log "$n expressions, $checked selectors, $labels_checked grouping and legend labels, $typed rate/increase/delta arguments: every metric, label, value and type matches the published file"
e2e_pass
