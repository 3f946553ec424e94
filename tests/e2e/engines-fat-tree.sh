#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The routing-engine matrix on fat-tree-16: minhop, updn, ftree, dfsssp,
# lash and nue, each run stock and with the plugin on the same fabric.
#  1. Without qos-setup the plugin programs what stock OpenSM programs
#     (both audit clean against the templates and the engine), its
#     PathRecord SLs are stock's (the engine's, where it chooses SLs), and
#     its QoS Set count equals the Sets in OpenSM's frame log.
#  2. With a qos-setup whose VLArb weights VLs 0-4 only
#     (data/engines-policy.conf) no port starves a VL that a used SL maps
#     to: the wire equals `osmqos tables` for the engine, no port of it
#     starves (checked on its own here), and the plugin's log and
#     `osmqos check --fabric --opensm-conf` name the same withheld scopes.
#     Where the engine chooses SLs, sl2vl-scopes do not apply (a warning).
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
. "$top_srcdir/tests/e2e/engines-lib.sh"
e2e_init engines-fat-tree
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
command -v gawk >/dev/null || e2e_skip "gawk not installed (apt-get install gawk)"

noqos=$top_srcdir/tests/e2e/data/engines-noqos.conf
starve=$top_srcdir/tests/e2e/data/engines-policy.conf
pol=$E2E_DIR/qos-policy.conf
pairs=("cn01 HCA-1>stor4 HCA-1" "cn05 HCA-1>cn10 HCA-1" "stor1 HCA-1>cn12 HCA-1"
	"cn04 HCA-1>cn02 HCA-1" "cn12 HCA-1>cn01 HCA-1")
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
summary=()

for eng in ${OQ_ENGINES:-minhop updn ftree dfsssp lash nue}; do
	e2e_log "=== $eng"
	cp "$noqos" "$pol"
	eng_start "$eng-stock" no qos=TRUE "qos_policy_file=$pol" \
		"routing_engine=$eng"
	used=$(sed -n "s/.*osm_ucast_mgr_process: \(.*\) tables configured on all switches/\1/p" \
		"$E2E_OSM_LOG" | tail -n 1)
	[ "$used" = "$eng" ] ||
		e2e_fail "stock opensm routed with '${used:-nothing}', not $eng"
	# The topology with this SM's LIDs (for PathRecords and tables).
	rm -f "$E2E_DIR/ibnetdiscover.out"
	e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"
	eng_audit "$eng-stock" "$pol" ||
		e2e_fail "$eng stock: the fabric differs from the templates and engine osmqos models: $(grep DRIFT "$E2E_DIR/$eng-stock.audit" | head -n 5)"
	# dfsssp spreads each pair's paths over the SLs of its layers at
	# random (rand() % split): compare the sets of several answers.
	repeat=1
	[ "$eng" = dfsssp ] && repeat=12
	eng_sls "$repeat" "${pairs[@]}" >"$E2E_DIR/$eng-stock.sls"
	eng_stop

	eng_start "$eng-plugin" yes qos=TRUE "qos_policy_file=$pol" \
		"routing_engine=$eng"
	wait_sweep 1
	eng_mads_match || e2e_fail "$eng: the plugin's QoS Set count is wrong"
	eng_audit "$eng-noqos" "$pol" ||
		e2e_fail "$eng plugin without qos-setup: the fabric differs from stock's tables: $(grep DRIFT "$E2E_DIR/$eng-noqos.audit" | head -n 5)"
	eng_sls "$repeat" "${pairs[@]}" >"$E2E_DIR/$eng-plugin.sls"
	grep -q ' none$' "$E2E_DIR/$eng-plugin.sls" &&
		e2e_fail "$eng: a PathRecord was not answered: $(cat "$E2E_DIR/$eng-plugin.sls")"
	if [ "$repeat" = 1 ]; then
		cmp -s "$E2E_DIR/$eng-stock.sls" "$E2E_DIR/$eng-plugin.sls" ||
			e2e_fail "$eng: PathRecord SLs differ from stock's: $(paste "$E2E_DIR/$eng-stock.sls" "$E2E_DIR/$eng-plugin.sls")"
	else
		# The engine's choice: several SLs per pair, as stock (the
		# policy would give one).
		for f in stock plugin; do
			grep -q ' [0-9]*,[0-9]' "$E2E_DIR/$eng-$f.sls" ||
				e2e_fail "$eng $f: one SL per pair, not the engine's spread: $(cat "$E2E_DIR/$eng-$f.sls")"
		done
	fi

	# The starving qos-setup, by a policy edit and a heavy sweep.
	cp "$starve" "$pol"
	lines=$(wc -l <"$E2E_OSM_LOG")
	e2e_hup_sweep "osmqos: sweep 2: " 120
	eng_mads_match 2 "$lines" ||
		e2e_fail "$eng: the plugin's QoS Set count of the policy sweep is wrong"
	e2e_osmqos tables --json --all --fabric "$E2E_DIR/topo.ibnd" --policy "$pol" \
		--opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/$eng.json" \
		2>"$E2E_DIR/$eng.tables.err" || e2e_fail "osmqos tables failed"
	eng_audit "$eng-policy" "$pol" ||
		e2e_fail "$eng with qos-setup: the fabric differs from osmqos tables: $(grep DRIFT "$E2E_DIR/$eng-policy.audit" | head -n 5)"
	if jq -e .engine_chooses_sls "$E2E_DIR/$eng.json" >/dev/null; then
		sls=null
		grep -q "warning: sl2vl-scope does not apply: routing engine $eng" \
			"$E2E_OSM_LOG" ||
			e2e_fail "$eng: no warning that sl2vl-scopes do not apply"
	else
		sls='[0,1,5]'
	fi
	starved=$(tables_starved "$E2E_DIR/$eng.json" "$sls")
	[ -z "$starved" ] || e2e_fail "$eng: starved VLs on the wire: $starved"
	# Without the guard the policy starves (its scopes weight no VL 5):
	# every engine must withhold both vlarb-scopes somewhere, one error
	# line each.
	withheld=$(grep -c 'osmqos: .*: error: vlarb-scope would starve VL' "$E2E_OSM_LOG")
	[ "$withheld" = 2 ] || e2e_fail "$eng: the plugin logged $withheld withheld-scope errors, want one for each of the 2 scopes: $(grep 'error: vlarb-scope' "$E2E_OSM_LOG")"
	grep 'error: vlarb-scope would starve' "$E2E_OSM_LOG" |
		sed 's/.*osmqos: [^:]*conf:\([0-9]*:[0-9]*\): error: \(.* port(s)\) (first.*/\1 \2/' |
		sort -u >"$E2E_DIR/$eng.plugin-errors"
	[ "$(cut -d' ' -f1 "$E2E_DIR/$eng.plugin-errors" | sort -u | wc -l)" = 2 ] ||
		e2e_fail "$eng: want errors at 2 scope locations: $(cat "$E2E_DIR/$eng.plugin-errors")"
	e2e_osmqos check "$pol" --fabric "$E2E_DIR/topo.ibnd" \
		--opensm-conf "$E2E_OSM_CONF" >/dev/null 2>"$E2E_DIR/$eng.check"
	[ $? = 1 ] || e2e_fail "$eng: osmqos check did not fail on the starving policy"
	grep 'error: vlarb-scope would starve' "$E2E_DIR/$eng.check" |
		sed 's/^[^:]*conf:\([0-9]*:[0-9]*\): error: \(.* port(s)\) (first.*/\1 \2/' |
		sort -u >"$E2E_DIR/$eng.check-errors"
	cmp -s "$E2E_DIR/$eng.plugin-errors" "$E2E_DIR/$eng.check-errors" ||
		e2e_fail "$eng: plugin and check disagree: $(cat "$E2E_DIR/$eng.plugin-errors") / $(cat "$E2E_DIR/$eng.check-errors")"
	n_tables=$(tables_expected "$E2E_DIR/$eng.json" | wc -l)
	n_withheld=$(awk '{ n += $(NF - 1) } END { print n + 0 }' FS='[ ]' \
		<(sed 's/.* on \([0-9]*\) port(s)/x \1 y/' "$E2E_DIR/$eng.plugin-errors"))
	summary+=("$eng: $n_tables tables, SLs $(awk '{printf "%s%s", s, $NF; s=" "}' "$E2E_DIR/$eng-plugin.sls"), scopes withheld on $n_withheld ports ($(tr '\n' ';' <"$E2E_DIR/$eng.plugin-errors"))")
	eng_stop
done
for line in "${summary[@]}"; do
	e2e_log "$line"
done
e2e_pass
