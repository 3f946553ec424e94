#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Bandwidth and latency intents end to end on a fabric with CA, leaf and
# spine port classes (contrib/fabrics/mixed-caps.net under ibsim): opensm
# with the plugin programs the synthesized tables; smpquery reads them
# back; the independent packet-level simulator of the unit tests
# (tests/e2e/arbsim_check) recomputes, from the read-back tables alone,
# every intent level's share with every VL busy and its worst wait at
# each port, which must meet the intents and stay within the bound the
# plugin publishes per port class; a granted path's latency in the audit
# trail is the sum of the published bounds of its egress ports.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/tables-lib.sh"
e2e_init intents-latency
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
command -v gawk >/dev/null || e2e_skip "gawk not installed (apt-get install gawk)"
sim=$top_builddir/tests/e2e/arbsim_check
[ -x "$sim" ] || e2e_fail "tests/e2e/arbsim_check is not built (make check builds it)"

# storage 40% with a loose latency, MPI 20% high priority with a tight
# one, best effort the rest.
pol=$E2E_DIR/intents.conf
awk '{ print }
	/bandwidth: 40%/ { print "        latency: 40 us" }
	/bandwidth: 20%/ { print "        latency: 2.5 us" }' \
	"$top_srcdir/contrib/policies/intents.conf" >"$pol"
[ "$(grep -c 'latency:' "$pol")" = 2 ] || e2e_fail "could not derive the test policy"
pub=$E2E_DIR/pub
audit=$E2E_DIR/audit.json
mkdir -p "$pub"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/mixed-caps.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" log_flags=0x23 \
	"event_plugin_options=publish_dir=$pub audit=$audit"
wait_sweep 1
e2e_ibnetdiscover >"$E2E_DIR/topo.ibnd"
bad=$(grep 'osmqos' "$E2E_OSM_LOG" | grep -E 'ERR|error:') &&
	e2e_fail "plugin logged an error: $(head -n 3 <<<"$bad")"

# 1. The tables the plugin computes: every class feasible, CA, leaf and
# spine ports among them.
e2e_osmqos synth --json --policy "$pol" --fabric "$E2E_DIR/topo.ibnd" \
	--opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/synth.json" ||
	e2e_fail "osmqos synth failed on the live topology"
jq -e '.feasible and ([.classes[].levels[] | select(.met | not)] | length == 0)' \
	"$E2E_DIR/synth.json" >/dev/null ||
	e2e_fail "synth: not every intent met: $(jq -c '[.classes[] | {class, status, levels}]' "$E2E_DIR/synth.json" | head -c 600)"
e2e_osmqos tables --json --all --policy "$pol" --fabric "$E2E_DIR/topo.ibnd" \
	--opensm-conf "$E2E_OSM_CONF" >"$E2E_DIR/tables.json" ||
	e2e_fail "osmqos tables failed"
for kind in "CA port" "switch external port"; do
	jq -e --arg k "$kind" '[.ports[] | select(.vlarb_low and .kind == $k)] | length > 0' \
		"$E2E_DIR/tables.json" >/dev/null || e2e_fail "no $kind with intent tables"
done

# 2. What the fabric holds: smpquery on every port equals the tables.
tables_compare "$E2E_DIR/tables.json" ||
	e2e_fail "programmed tables differ from the synthesized ones"

json=$pub/osmqos-bandwidth.json
e2e_wait_for '"intents"' "$json" 30 || e2e_fail "no published intents"

# 3. The simulator on the read-back tables (tables.actual, from smpquery;
# VLHighLimit, which ibsim does not store, as synthesized: intents.sh
# checks the Sets).  Each port's rate and MTU, and the bound it claims
# per SL, from its class in the published file.  Ports are LID/PORT.
jq -r '. as $d | .nodes[] | .ports[] as $p | $d.classes[$p.class] as $c |
	"P \($p.lid)/\($p.port) \($c.rate_gbps) \($c.mtu)",
	($c.sls[] | "B \($p.lid)/\($p.port) \(.sl) \(.latency_us // "null")")' \
	"$json" >"$E2E_DIR/published.ports"
jq -r '.ports[] | select(.vlarb_low) | "L \(.lid)/\(.port) \(.vl_high_limit)"' \
	"$E2E_DIR/tables.json" >>"$E2E_DIR/published.ports"
gawk '
	FILENAME == ARGV[1] {
		if ($1 == "P") { rate[$2] = $3; mtu[$2] = $4 }
		if ($1 == "L") lim[$2] = $3
		next
	}
	{ p = $1 "/" $2 }
	$3 == "sl2vl" && !(p in sl) { sl[p] = $5 }
	$3 == "high" { hi[p] = $4 }
	$3 == "low" { lo[p] = $4 }
	END {
		for (p in lo) {
			if (!(p in lim) || !(p in sl) || !(p in rate)) {
				print "no published class or limit for " p > "/dev/stderr"
				exit 1
			}
			print p, rate[p], mtu[p], lim[p], sl[p], hi[p] == "" ? "-" : hi[p], lo[p]
		}
	}' "$E2E_DIR/published.ports" "$E2E_DIR/tables.actual" |
	sort >"$E2E_DIR/sim.in" || e2e_fail "could not gather the read-back tables"
n=$(wc -l <"$E2E_DIR/sim.in")
[ "$n" -ge 16 ] || e2e_fail "only $n ports' tables read back"
"$sim" <"$E2E_DIR/sim.in" >"$E2E_DIR/sim.out" || e2e_fail "the simulator failed"
# Every intent level at every port: its VL's share >= the intent, its
# simulated worst wait <= the published bound <= the latency intent.
gawk '
	FILENAME == ARGV[1] { if ($1 == "B") bound[$2 " " $3] = $4; next }
	{
		key = $1 " " $2
		if ($2 == 1) { need = 40; lat = 40 } else if ($2 == 2) { need = 20; lat = 2.5 } else next
		ports[$2]++
		if ($4 < need - 1e-6) { print "share below the intent: " $0; bad++ }
		if ($5 == "starved" || !(key in bound) || bound[key] == "null") { print "no bound: " $0; bad++; next }
		# (published with six significant digits)
		if ($5 > bound[key] * (1 + 1e-5) || bound[key] > lat + 1e-6) { print "wait: " $0 ", published bound " bound[key]; bad++ }
		if ($5 > worst[$2]) worst[$2] = $5
		if (bound[key] > wb[$2]) wb[$2] = bound[key]
		if (!($2 in least) || $4 < least[$2]) least[$2] = $4
		if ($5 >= bound[key] * (1 - 1e-5)) tight[$2]++
	}
	END {
		printf "simulated from read-back tables: storage (40%%, 40 us) on %d ports: least share %.2f%%, worst wait %.3f us (published bound %.3f us, reached on %d ports); mpi (20%%, 2.5 us) on %d ports: least share %.2f%%, worst wait %.3f us (published bound %.3f us, reached on %d ports)\n",
			ports[1], least[1], worst[1], wb[1], tight[1], ports[2], least[2], worst[2], wb[2], tight[2]
		exit bad > 0 || ports[1] < 16 || ports[2] < 16
	}' "$E2E_DIR/published.ports" "$E2E_DIR/sim.out" >"$E2E_DIR/sim.verdict" ||
	e2e_fail "the simulator on the read-back tables: $(head -n 5 "$E2E_DIR/sim.verdict")"
e2e_log "$(tail -n 1 "$E2E_DIR/sim.verdict")"

# 4. Audit: a PathRecord cn03 -> stor1 (storage, SL 1) crosses the old
# leaf, the spine and the new leaf; its latency is the sum of the
# published bounds of its egress ports (ibtracert's hops).
cn=$(e2e_lid "cn03 HCA-1")
st=$(e2e_lid "stor1 HCA-1")
e2e_sim saquery -p --slid "$cn" --dlid "$st" >/dev/null 2>&1 ||
	e2e_fail "PathRecord cn03 -> stor1 failed"
e2e_wait_for '"level":"storage"' "$audit" 10 || e2e_fail "no audit record"
rec=$(grep '"level":"storage"' "$audit" | tail -n 1)
e2e_sim ibtracert "$cn" "$st" >"$E2E_DIR/trace" 2>&1 || e2e_fail "ibtracert failed: $(head -n 3 "$E2E_DIR/trace")"
# "From ca ... lid 9-9 ..." then "[out] -> ... lid L-L ...": each out port
# leaves the node of the line before.
gawk '
	function lid(s) { match(s, / lid [0-9]+/); return substr(s, RSTART + 5, RLENGTH - 5) }
	/^From / { at = lid($0) }
	/^\[[0-9]+\] -> / { out = substr($1, 2, length($1) - 2); print at "/" out; at = lid($0) }' \
	"$E2E_DIR/trace" >"$E2E_DIR/path.ports"
[ "$(wc -l <"$E2E_DIR/path.ports")" = 4 ] ||
	e2e_fail "cn03 -> stor1 is not four hops: $(cat "$E2E_DIR/trace")"
sum=$(gawk 'FILENAME == ARGV[1] { if ($1 == "B" && $3 == 1) b[$2] = $4; next }
	{ if (!($1 in b) || b[$1] == "null") { print "none"; exit } s += b[$1]; h = h " " b[$1] }
	END { printf "%.6f%s\n", s, h }' "$E2E_DIR/published.ports" "$E2E_DIR/path.ports")
jq -e --argjson s "${sum%% *}" '.granted.sl == 1 and .predicted.basis == "sl" and
	(.predicted.latency_us - $s | fabs) < 1e-3 and
	.predicted.intent.latency_us_per_hop == 40' <<<"$rec" >/dev/null ||
	e2e_fail "audit: path latency is not the sum of the hops' published bounds ($sum): $rec"
e2e_log "audit: cn03 -> stor1 on SL 1: latency $(jq .predicted.latency_us <<<"$rec") us = hops$(cut -d' ' -f2- <<<"$sum" | sed 's/ / + /g;s/^/ /'), guaranteed $(jq .predicted.gbps <<<"$rec") Gb/s ($(jq -r .predicted.basis <<<"$rec")), ceiling $(jq .predicted.ceiling_gbps <<<"$rec") Gb/s"
e2e_pass
