# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# (gawk: strtonum.)
# Helpers for end-to-end tests about programmed QoS tables: read every
# port's SL2VL/VLArb back with smpquery and compare with `osmqos tables
# --json`; count QoS Set MADs in OpenSM's frame log.  Source after lib.sh.

# tables_expected JSON: canonical lines "LID PORT sl2vl IN v0,..,v15" and
# "LID PORT low|high vl:w,..." (padded to the port's capacity CAP with 0:0)
# for every port the compiler gives tables.  CAP comes from smpquery.
tables_expected() {
	jq -r '.ports[] | . as $p |
		(if .sl2vl_by_in then
			(.sl2vl_by_in | to_entries[] |
			 "\($p.lid) \($p.port) sl2vl \(.key) \(.value | map(tostring) | join(","))")
		 elif .sl2vl then
			"\($p.lid) \($p.port) sl2vl 0 \(.sl2vl | map(tostring) | join(","))"
		 else empty end),
		(if .vlarb_low then
			"\($p.lid) \($p.port) low \(.vlarb_low | map("\(.[0]):\(.[1])") | join(","))",
			"\($p.lid) \($p.port) high \(.vlarb_high | map("\(.[0]):\(.[1])") | join(","))"
		 else empty end)' "$1"
}

# smp_read ARGS...: smpquery ARGS, again (3 tries, 0.3 s apart) when it
# fails: under load one SMP of a multi-SMP read can time out, and smpquery
# then exits non-zero after printing the rows it got.  Retries are listed
# in $E2E_DIR/smp-retries.log.
smp_read() {
	local out try
	for ((try = 0; try < 3; try++)); do
		out=$(e2e_sim smpquery "$@" 2>/dev/null) && break
		echo "smpquery $* failed (try $try)" >>"$E2E_DIR/smp-retries.log"
		sleep 0.3
	done
	printf '%s\n' "$out"
}

# smp_sl2vl LID PORT: "LID PORT sl2vl IN v0,..,v15" for every input row.
smp_sl2vl() {
	smp_read sl2vl "$1" "$2" | awk -v lid="$1" -v port="$2" '
		/^ports: in/ {
			split($0, a, ":"); sub(/^ *in */, "", a[2]); split(a[2], io, ",")
			n = split($0, f, "|"); s = ""
			for (i = 2; i < n; i++) { gsub(/ /, "", f[i]); s = s (s == "" ? "" : ",") f[i] }
			printf "%s %s sl2vl %d %s\n", lid, port, io[1], s
		}'
}

# smp_vlarb LID PORT: "LID PORT low|high vl:w,..." as the port holds them
# (all entries up to the port's capacity).
smp_vlarb() {
	smp_read vlarb "$1" "$2" | gawk -v lid="$1" -v port="$2" '
		/Low priority/ { t = "low" } /High priority/ { t = "high" }
		/^VL *:/ { n = split($0, v, "|") }
		/^WEIGHT *:/ {
			split($0, w, "|"); s = ""
			for (i = 2; i < n; i++) {
				gsub(/ /, "", v[i]); gsub(/ /, "", w[i])
				s = s (s == "" ? "" : ",") strtonum(v[i]) ":" strtonum(w[i])
			}
			out[t] = out[t] (out[t] == "" ? "" : ",") s
		}
		END { printf "%s %s low %s\n%s %s high %s\n", lid, port, out["low"], lid, port, out["high"] }'
}

# Drop trailing 0:0 entries so a table and its capacity-padded read-back
# compare equal.
vlarb_trim() {
	sed -E ':a; s/,0:0$//; ta; s/ (low|high) 0:0$/ \1 /'
}

# tables_actual JSON: the same lines as tables_expected, read from the
# fabric for the same ports.
tables_actual() {
	local lid port
	jq -r '.ports[] | select(.sl2vl_by_in or .sl2vl or .vlarb_low) |
		"\(.lid) \(.port)"' "$1" | sort -u |
	while read -r lid port; do
		if jq -e --argjson l "$lid" --argjson p "$port" \
			'[.ports[] | select(.lid == $l and .port == $p and
			 (.sl2vl_by_in or .sl2vl))] | length > 0' "$1" >/dev/null; then
			smp_sl2vl "$lid" "$port"
		fi
		if jq -e --argjson l "$lid" --argjson p "$port" \
			'[.ports[] | select(.lid == $l and .port == $p and
			 .vlarb_low)] | length > 0' "$1" >/dev/null; then
			smp_vlarb "$lid" "$port"
		fi
	done
}

# tables_compare JSON: 0 when every port's tables equal the read-back;
# prints the differing lines otherwise.
tables_compare() {
	local exp=$E2E_DIR/tables.expected act=$E2E_DIR/tables.actual
	tables_expected "$1" | vlarb_trim | sort >"$exp"
	tables_actual "$1" | vlarb_trim | sort >"$act"
	if ! diff -u "$exp" "$act" >"$E2E_DIR/tables.diff"; then
		head -n 40 "$E2E_DIR/tables.diff"
		return 1
	fi
	e2e_log "tables equal on $(awk '{print $1" "$2}' "$exp" | sort -u | wc -l) ports ($(wc -l <"$exp") tables)"
}

# qos_sets_since LINE: SL2VL (0x17) and VLArb (0x18) SubnSet MADs OpenSM
# logged (log_flags frames bit 0x20) after line LINE of its log.
qos_sets_since() {
	tail -n +"$(($1 + 1))" "$E2E_OSM_LOG" | awk '
		/SMP dump:/ { m = ""; next }
		/method\.\./ { m = $0 }
		/attr_id\.\./ && m ~ /SubnSet/ && $0 ~ /0x1[78] \(/ { n++ }
		END { print n + 0 }'
}

# qos_sets_counted_since LINE: the QoS Set MADs the plugin counted, summed
# over every sweep whose line it logged after line LINE.
qos_sets_counted_since() {
	tail -n +"$(($1 + 1))" "$E2E_OSM_LOG" |
		sed -n 's/.*osmqos: sweep [0-9]*: \([0-9]*\) QoS Set MADs.*/\1/p' |
		awk '{ n += $1 } END { print n + 0 }'
}

# vlhl_sets_since LINE: "VLHL" for the last PortInfo SubnSet to each
# (path, port), sorted: what the link manager sent as VLHighLimit.
vlhl_sets_since() {
	tail -n +"$(($1 + 1))" "$E2E_OSM_LOG" | gawk '
		/SMP dump:/ { m = ""; a = ""; mod = ""; path = ""; row = 0; next }
		/method\.\./ { m = $0 }
		/attr_id\.\./ { a = $0 }
		/attr_mod\.\./ { mod = $0; sub(/.*\.\./, "", mod) }
		/Initial path:/ { path = $3 }
		/^\t+[0-9A-F][0-9A-F] / {
			row++
			if (row == 3 && m ~ /SubnSet/ && a ~ /PortInfo/)
				last[path "/" mod] = strtonum("0x" $7)
		}
		END { for (k in last) print last[k] }' | sort -n
}

# wait_sweep N: until the plugin logged the end of its Nth sweep.
wait_sweep() {
	e2e_wait_for "osmqos: sweep $1: " "$E2E_OSM_LOG" 60 ||
		e2e_fail "plugin did not finish sweep $1"
}

# tables_starved JSON [SLS]: a line for each port of `osmqos tables
# --json` output whose VLArb (high and low) gives no weight to a VL that
# its SL2VL (every input row but the port's own) maps a used SL to.  SLS is
# a jq array of the used SLs; by default every SL when the JSON says the
# routing engine chooses SLs, else [0].  Ports whose SL2VL the offline
# compile cannot see are skipped (see sl2vl_dump_starved).
tables_starved() {
	jq -r --argjson sls "${2:-null}" '
		(if $sls != null then $sls
		 elif .engine_chooses_sls then [range(16)] else [0] end) as $used |
		.ports[] | select(.vlarb_low != null) | . as $p |
		([(.vlarb_low + .vlarb_high)[] | select(.[1] > 0) | .[0]]
		 | unique) as $w |
		(if .sl2vl_by_in then
			[.sl2vl_by_in | to_entries[] |
			 select(.key != ($p.port | tostring)) | .value]
		 elif .sl2vl then [.sl2vl] else [] end) as $rows |
		[$rows[] as $r | $used[] | $r[.] | select(. < 15 and . < $p.vls)]
		| unique | map(select(. as $v | $w | index($v) | not)) |
		select(length > 0) |
		"\($p.node)/P\($p.port) starves VL \(map(tostring) | join(","))"' "$1"
}
