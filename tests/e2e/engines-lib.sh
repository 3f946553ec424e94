# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Helpers for the routing-engine matrix (engines-fat-tree.sh,
# engines-torus.sh): run stock opensm and opensm with the plugin one after
# the other on the same ibsim fabric, and compare what each programmed.
# Source after lib.sh and tables-lib.sh.

# eng_start NAME PLUGIN(yes|no) KEY=VALUE...: opensm (with the plugin or
# stock), its log as $E2E_DIR/NAME.log (E2E_OSM_LOG), its opensm.conf as
# $E2E_DIR/NAME.conf (E2E_OSM_CONF); frames logged (log_flags 0x63: MADs
# and routing, so OpenSM writes opensm-sl2vl.dump into $E2E_DIR/NAME/).
eng_start() {
	local name=$1 plugin=$2
	shift 2
	mkdir -p "$E2E_DIR/$name"
	if [ "$plugin" = no ]; then
		set -- event_plugin_name="(null)" "$@"
	fi
	e2e_start_opensm log_flags=0x63 "dump_files_dir=$E2E_DIR/$name" "$@"
	mv "$E2E_OSM_LOG" "$E2E_DIR/$name.log"
	E2E_OSM_LOG=$E2E_DIR/$name.log
	cp "$E2E_OSM_CONF" "$E2E_DIR/$name.conf"
	E2E_OSM_CONF=$E2E_DIR/$name.conf
}

# eng_drift NAME POLICY: osmqos drift of the live fabric against the
# tables compiled for POLICY and the running opensm.conf (its templates
# and routing engine); its exit status (0: no drift).
eng_drift() {
	e2e_sim "$top_builddir/osmqos" drift --policy "$2" \
		--opensm-conf "$E2E_OSM_CONF" --sample 0 \
		>"$E2E_DIR/$1.drift" 2>&1
}

# eng_sls REPEAT PAIRS...: "SRC>DST SLS" for each "SRC>DST" pair of
# NodeDescriptions (port 1): the SLs (sorted, unique, comma-separated;
# "none" when unanswered) of REPEAT PathRecords the running SM answers.
eng_sls() {
	local repeat=$1 pair s d i out sl sls
	shift
	for pair in "$@"; do
		s=$(e2e_lid "${pair%>*}")
		d=$(e2e_lid "${pair#*>}")
		# Without both LIDs saquery would ask for every path.
		[ -n "$s" ] && [ -n "$d" ] ||
			e2e_fail "eng_sls: no LID for ${pair%>*} or ${pair#*>}"
		sls=
		for ((i = 0; i < repeat; i++)); do
			out=$(e2e_sim saquery -p --slid "$s" --dlid "$d" 2>&1)
			sl=$(printf '%s\n' "$out" |
				awk '/^[[:space:]]*sl\./ { print $1; exit }')
			sl=${sl##*.}
			[ -n "$sl" ] && sls="$sls $((sl))"
		done
		sls=$(printf '%s\n' $sls | sort -nu | paste -sd, -)
		printf '%s %s\n' "$pair" "${sls:-none}"
	done
}

# eng_mads_match [N [LINE]]: the plugin's count of QoS Set MADs for its
# sweep N (default 1) equals the SL2VL and VLArb Sets in OpenSM's frame
# log between line LINE (default 0) and the plugin's line for that sweep.
eng_mads_match() {
	local n=${1:-1} from=${2:-0} said at sent
	at=$(grep -n "osmqos: sweep $n: [0-9]* QoS Set MADs" "$E2E_OSM_LOG" |
		head -n 1)
	said=$(printf '%s\n' "$at" |
		sed -n 's/.*osmqos: sweep [0-9]*: \([0-9]*\) QoS Set MADs.*/\1/p')
	at=${at%%:*}
	sent=$(head -n "${at:-0}" "$E2E_OSM_LOG" | E2E_OSM_LOG=/dev/stdin \
		qos_sets_since "$from")
	e2e_log "sweep $n: plugin counted ${said:-?} QoS Sets, frame log has $sent"
	[ -n "$said" ] && [ "$said" = "$sent" ]
}

# eng_stop: stop opensm (ibsim keeps the fabric and its tables).
eng_stop() {
	e2e_stop_opensm
}
