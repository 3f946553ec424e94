#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# SA differential oracle: for each (fabric, policy) pair, stock OpenSM
# (qos TRUE, no plugin) and OpenSM with the osmqos plugin, on the SAME
# ibsim instance with the same opensm.conf otherwise, must answer a
# generated corpus of PathRecord and 1x1 MultiPathRecord queries
# (tests/e2e/sa-corpus.sh) identically: every record field (osmqos query
# --json prints them all), the SA status, the exit code and the CLI's
# messages.  Fails on any difference and prints the first ones.
#
# Fabrics: fat-tree-16 (mixed QDR/FDR/EDR), two-switch, and a small
# mixed SDR/DDR/QDR fat tree run with lmc=1; on that one also two
# partition layouts with a list of queries of their own instead of the
# corpus: MultiPathRecord APM (2 x 2) over pairs that share no P_Key
# (Default limited), and a port both a full and a limited member under
# allow_both_pkeys TRUE.  Policies are in OpenSM's
# grammar (no qos-setup, no path-bits), incl. qos-ulps ones, and one with
# bandwidth intents (osmqos-only keys).  This is also the rollback test:
# the plugin run reads the operator's file, the stock run (no plugin)
# reads what `osmqos export` writes from it for stock OpenSM (README,
# "Rolling back"), and stock OpenSM must log no ERR AC line.  One ibsim
# per fabric; LIDs must stay the same across the opensm restarts
# (checked).  SA_DIFF_FULL=1 runs the full corpus (every variant on every
# pair) instead of the reduced one; SA_DIFF_ONLY=N runs combination N only;
# SA_DIFF_COMBOS replaces the combinations (one a line, as below, paths
# relative to the source tree; tests/opensm/check-release's for OpenSM
# 3.3.24 add max_rate_enum below the fabric's rates).  A combination is
# FABRIC|OPTIONS|POLICIES[|PARTITIONS[|QUERIES]]: the partitions file
# (default data/sa-diff/partitions.conf) and a file of queries to ask
# instead of the generated corpus.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init sa-diff
[ -x "$top_builddir/osmqos" ] || e2e_fail "no $top_builddir/osmqos: run make first"
command -v ibnetdiscover >/dev/null ||
	e2e_skip "ibnetdiscover not installed (apt-get install infiniband-diags)"

mode=reduced
[ -n "${SA_DIFF_FULL:-}" ] && mode=full
data=$top_srcdir/tests/e2e/data/sa-diff
valid=$top_srcdir/tests/policies/valid

# fabric | opensm options | policies (run in this order on one ibsim)
# [| partitions [| queries]].
combos=(
	"$top_srcdir/contrib/fabrics/fat-tree-16.net|lmc=0|$data/ft-levels.conf $data/ulps-guids.conf $top_srcdir/contrib/policies/intents.conf"
	"$top_srcdir/contrib/fabrics/two-switch.net|lmc=0|$data/sw-guids.conf $valid/doc-ulps-all.conf"
	"$data/lmc-fattree-9.net|lmc=1|$data/nodetype-lmc.conf $data/ulps-guids.conf $valid/doc-shortest.conf"
	"$data/lmc-fattree-9.net|lmc=0|$valid/doc-shortest.conf|$data/partitions-limited.conf|$data/apm.queries"
	"$data/lmc-fattree-9.net|lmc=1 allow_both_pkeys=TRUE|$valid/doc-shortest.conf|$data/partitions-both.conf|$data/both.queries"
)
if [ -n "${SA_DIFF_COMBOS:-}" ]; then
	combos=()
	while IFS='|' read -r net opts policies cparts cqueries; do
		[ -n "$net" ] || continue
		pols=
		for pol in $policies; do
			pols="$pols $top_srcdir/$pol"
		done
		c="$top_srcdir/$net|$opts|${pols# }"
		[ -z "$cparts" ] || c="$c|$top_srcdir/$cparts"
		[ -z "$cqueries" ] || c="$c|$top_srcdir/$cqueries"
		combos+=("$c")
	done <<<"$SA_DIFF_COMBOS"
	[ "${#combos[@]}" -gt 0 ] || e2e_fail "SA_DIFF_COMBOS names no combination"
fi

# LIDs (and LMC) of every port, without ibnetdiscover's date line.
lid_map() {
	e2e_sim ibnetdiscover 2>/dev/null |
		grep -o '^[^#]*#.*lid [0-9]* lmc [0-9]*\|base port 0 lid [0-9]* lmc [0-9]*\|^switchguid=.*' |
		sed 's/[[:space:]]*"[^"]*"\[[0-9]*\]//'
}

# start_sm TAG PLUGIN(0|1) OPTS...: opensm on the running ibsim, logs
# kept per run (the harness waits for SUBNET UP in a fresh log).
start_sm() {
	local tag=$1 plugin=$2
	shift 2
	local extra=()
	[ "$plugin" = 0 ] && extra=("event_plugin_name=(null)")
	e2e_start_opensm qos=TRUE "$@" "${extra[@]}"
	cp "$E2E_OSM_CONF" "$E2E_DIR/logs/$tag.conf"
}

# check_sm_log TAG PLUGIN: the policy parsed, the plugin loaded exactly
# when wanted ("(null)" is how opensm.conf says "no plugin"), and no error
# about either.  Other errors (a simulated MAD lost under load) are shown
# but do not fail the test: the comparison below will if they matter.
check_sm_log() {
	local tag=$1 plugin=$2 bad
	bad=$(grep -E 'ERR|Error' "$E2E_OSM_LOG" |
		grep -iE 'ERR AC|qos|policy|plugin|osmqos|yyerror|parse')
	[ -z "$bad" ] || e2e_fail "$tag: opensm logged: $(head -n 5 <<<"$bad")"
	grep -E 'ERR|Error' "$E2E_OSM_LOG" | head -n 3 | sed "s/^/[$tag] note: /"
	grep -q 'osm_qos_parse_policy_file: Loading QoS policy file' "$E2E_OSM_LOG" ||
		e2e_fail "$tag: opensm did not load the QoS policy file"
	if grep -q 'osmqos_create: osmqos .* loaded' "$E2E_OSM_LOG"; then
		[ "$plugin" = 1 ] || e2e_fail "$tag: the plugin loaded in the stock run"
	else
		[ "$plugin" = 0 ] || e2e_fail "$tag: the plugin did not load"
	fi
}

# check_plugin_answered TAG: the plugin answered PathRecord queries itself
# (its unload line counts them), so equal answers compare its answers and
# not OpenSM's twice (an opensm.conf option the plugin does not model
# sends every query to OpenSM's own SA).
check_plugin_answered() {
	local log=$E2E_DIR/logs/$1-plugin.log n
	! grep -q "go to OpenSM's own SA" "$log" ||
		e2e_fail "$1: the plugin passed every query to OpenSM: $(grep -m 1 "go to OpenSM's own SA" "$log")"
	n=$(sed -n 's/.*SA front: PathRecord [0-9]* queries (\([0-9]*\) answered.*/\1/p' "$log" | tail -n 1)
	[ "${n:-0}" -gt 0 ] ||
		e2e_fail "$1: the plugin answered no PathRecord query (no SA front line at unload, or 0 answered)"
}

stop_sm() {
	e2e_stop_opensm
	mv "$E2E_OSM_LOG" "$E2E_DIR/logs/$1.log"
}

# run_shard CORPUS OUT K N: the queries of lines K, K+N, ... of CORPUS, one
# line per query: the query, exit code, the JSON answer and the CLI's
# messages (the simulator's ibwarn lines, which carry PIDs, dropped).  A
# timeout (exit 2) is retried once.
run_shard() {
	local corpus=$1 out=$2 k=$3 n=$4 args ans rc err=$2.err
	: >"$out"
	while read -r args; do
		for _ in 1 2; do
			# shellcheck disable=SC2086 # args are words on purpose
			ans=$(e2e_sim "$top_builddir/osmqos" query --json \
				--timeout 3000 $args 2>"$err")
			rc=$?
			[ "$rc" -ne 2 ] && break
		done
		printf '%s | rc=%s | %s | %s\n' "$args" "$rc" "$ans" \
			"$(grep -v '^ibwarn:' "$err" | tr '\n' ' ')" >>"$out"
	done < <(awk -v k="$k" -v n="$n" 'NR % n == k' "$corpus")
	rm -f "$err"
}

# run_corpus CORPUS OUT: the corpus in SA_DIFF_JOBS (default 2) parallel
# clients (the SA answers each query on its own), merged back in corpus
# order.
run_corpus() {
	local corpus=$1 out=$2 jobs=${SA_DIFF_JOBS:-2} k pids=() shards=()
	for ((k = 0; k < jobs; k++)); do
		run_shard "$corpus" "$out.$k" $(((k + 1) % jobs)) "$jobs" &
		pids+=($!)
		shards+=("$out.$k")
	done
	wait "${pids[@]}"
	paste -d '\n' "${shards[@]}" | sed '/^$/d' >"$out"
	rm -f "${shards[@]}"
	[ "$(wc -l <"$out")" -eq "$(wc -l <"$corpus")" ] ||
		e2e_fail "$out: $(wc -l <"$out") answers for $(wc -l <"$corpus") queries"
}

mkdir -p "$E2E_DIR/logs" "$E2E_DIR/out"
total=0 combo=0 t0=$SECONDS
for c in "${combos[@]}"; do
	IFS='|' read -r net opts policies parts queries <<<"$c"
	parts=${parts:-$data/partitions.conf}
	fname=$(basename "$net" .net)
	rm -f "$E2E_DIR/ibsim.ctl" "$E2E_DIR/ibsim.log" "$E2E_DIR/ibnetdiscover.out"
	# A guid2lid cache per fabric: the same GUIDs recur across fabrics.
	export OSM_CACHE_DIR=$E2E_DIR/cache-$fname
	mkdir -p "$OSM_CACHE_DIR"
	e2e_start_ibsim "$net"
	lids0=
	for pol in $policies; do
		combo=$((combo + 1))
		if [ -n "${SA_DIFF_ONLY:-}" ] && [ "$combo" != "$SA_DIFF_ONLY" ]; then
			continue
		fi
		pname=$(basename "$pol" .conf)
		tag=$combo-$fname-$pname
		# The rollback: stock OpenSM gets the export (the intents'
		# tables as qos-setup scopes, which it does not apply).
		stock_pol=$E2E_DIR/out/$pname.stock.conf
		e2e_osmqos export --policy "$pol" --fabric "$net" \
			--partitions "$parts" -o "$stock_pol" ||
			e2e_fail "$tag: osmqos export failed"
		for run in stock plugin; do
			plugin=0 run_pol=$stock_pol
			[ "$run" = plugin ] && plugin=1 run_pol=$pol
			# shellcheck disable=SC2086 # opts are words on purpose
			start_sm "$tag-$run" "$plugin" $opts "qos_policy_file=$run_pol" \
				"partition_config_file=$parts"
			check_sm_log "$tag-$run" "$plugin"
			lids=$(lid_map)
			[ -n "$lids" ] || e2e_fail "$tag-$run: ibnetdiscover found no LIDs"
			corpus=${queries:-$E2E_DIR/out/$fname.corpus}
			if [ -z "$lids0" ]; then
				lids0=$lids
				printf '%s\n' "$lids" >"$E2E_DIR/out/$fname.lids"
				e2e_sim ibnetdiscover >"$E2E_DIR/out/$fname.ibnd" 2>/dev/null
				[ -n "$queries" ] ||
					bash "$top_srcdir/tests/e2e/sa-corpus.sh" \
						"$E2E_DIR/out/$fname.ibnd" "$mode" \
						>"$corpus" ||
					e2e_fail "corpus generation failed for $fname"
			elif [ "$lids" != "$lids0" ]; then
				diff <(printf '%s\n' "$lids0") <(printf '%s\n' "$lids") | head -n 10
				e2e_fail "$tag-$run: LIDs changed across opensm restarts"
			fi
			ts=$SECONDS
			run_corpus "$corpus" "$E2E_DIR/out/$tag.$run"
			stop_sm "$tag-$run"
			e2e_log "$tag $run: $(wc -l <"$E2E_DIR/out/$tag.$run") queries in $((SECONDS - ts))s"
			[ "$run" = plugin ] && check_plugin_answered "$tag"
		done
		a=$E2E_DIR/out/$tag.stock b=$E2E_DIR/out/$tag.plugin
		n=$(wc -l <"$a")
		ndiff=$(diff "$a" "$b" | grep -c '^<')
		if [ "$ndiff" -ne 0 ]; then
			e2e_log "$tag: $ndiff of $n answers differ; the first ones (< stock, > plugin):"
			diff "$a" "$b" | head -n 20
			e2e_fail "$tag: plugin answers differ from stock OpenSM's"
		fi
		# The corpus must exercise something: answers with records,
		# several SLs, and no answer cut at the 2 records umad2sim keeps.
		withrec=$(grep -c '"records": \[{' "$a")
		sls=$(grep -o '"sl": [0-9]*' "$a" | sort -u | wc -l)
		cut=$(grep -c 'more records than' "$a")
		[ "$cut" -eq 0 ] ||
			e2e_fail "$tag: $cut answers had more than 2 records: $(grep -m 1 'more records than' "$a")"
		# (A list of its own asks for empty answers too.)
		[ -n "$queries" ] || [ "$withrec" -ge $((n / 3)) ] ||
			e2e_fail "$tag: only $withrec of $n answers had records"
		e2e_log "$tag: $n queries, 0 differences ($withrec with records, $sls distinct SLs)"
		total=$((total + n))
	done
	e2e_stop_ibsim
done
e2e_log "$mode corpus: $total queries in $combo combinations, 0 differences, $((SECONDS - t0))s"
[ -n "${SA_DIFF_ONLY:-}${SA_DIFF_COMBOS:-}" ] || [ "$mode" = full ] ||
	[ "$total" -ge 2000 ] ||
	e2e_fail "reduced corpus has $total queries, want >= 2000"
e2e_pass
