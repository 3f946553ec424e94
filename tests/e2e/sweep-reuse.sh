#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A heavy sweep that changes nothing keeps the plugin's state: no new
# snapshot, compile, SA state or predictions, and the published files,
# the SA's answers and the programmed tables are what they were
# (osmqos.prom with the new sweep number; the JSON, which says nothing
# new, not written again, unless it was removed, replaced or changed, or
# a rejected edit is news).  A sweep after a change builds anew and sees
# it: a link between a leaf and a spine goes down (its two ports
# leave the predictions, the routes change, the tables stay right, and
# only the tables of the two switches' ports are compiled, their ports'
# classes keyed and their JSON entries rendered) and comes back
# (everything is as at the start again).  A partition added
# to or removed from partitions.conf, which OpenSM reads again at every
# heavy sweep, builds anew too: the SA's answers and the tables follow it.
# The policy file touched without a change keeps the state.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init sweep-reuse
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

pol=$E2E_DIR/qos-policy.conf
parts=$E2E_DIR/partitions.conf
pub=$E2E_DIR/pub
mkdir -p "$pub"
# compute-a also takes the members of partition tenant, none at first.
sed '/^        name: compute-a$/a\        partition: tenant' \
	"$top_srcdir/tests/e2e/data/program-policy.conf" >"$pol"
grep -q '^        partition: tenant$' "$pol" ||
	e2e_fail "the policy has no partition group"
default_partition='Default=0x7fff, ipoib : ALL=full ;'
echo "$default_partition" >"$parts"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"partition_config_file=$parts" "event_plugin_options=publish_dir=$pub"

published() { grep -c "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG"; }
wait_published() {
	e2e_wait_count "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG" "$1" 60 ||
		e2e_fail "no publication $1"
}
# hup: one heavy sweep and its publication; the sweep's number in SWEEP.
hup() {
	local n
	n=$(published)
	kill -HUP "$E2E_OPENSM_PID" || e2e_fail "opensm is gone"
	wait_published $((n + 1))
	SWEEP=$(grep -o "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG" |
		tail -n 1 | awk '{print $3}' | tr -d :)
}
# line SWEEP WHAT: the plugin's log line of that sweep matching WHAT.
line() { grep -o "osmqos: sweep $1: $2.*" "$E2E_OSM_LOG" | tail -n 1; }
# ports SWEEP: the ports that sweep published predictions for.
ports() { line "$1" published | awk '{print $5}'; }
# snap NAME: the published files without what a publication changes
# (time, sweep numbers, counters), and PathRecords between three pairs.
snap() {
	local name=$1 a b
	jq -S 'del(.time, .time_epoch, .sweep, .sweeps, .qos_mads_sent)' \
		"$pub/osmqos-bandwidth.json" >"$E2E_DIR/$name.json" ||
		e2e_fail "$name: the published JSON does not parse"
	grep -vE '^osmqos_(sweep|publish_timestamp|qos_mads|sa_|audit_)' \
		"$pub/osmqos.prom" >"$E2E_DIR/$name.prom"
	: >"$E2E_DIR/$name.sa"
	for pair in "cn01 stor1" "cn05 cn10" "stor4 cn02"; do
		read -r a b <<<"$pair"
		e2e_sim saquery -p --slid "$(e2e_lid "$a HCA-1")" \
			--dlid "$(e2e_lid "$b HCA-1")" >>"$E2E_DIR/$name.sa" 2>/dev/null ||
			e2e_fail "$name: no PathRecord $a -> $b"
	done
}
same() {
	local f
	for f in json prom sa; do
		cmp -s "$E2E_DIR/$1.$f" "$E2E_DIR/$2.$f" ||
			e2e_fail "$2: the $f differs from $1's:" \
				"$(diff "$E2E_DIR/$1.$f" "$E2E_DIR/$2.$f" | head -n 6)"
	done
}
# drift_clean NAME: every live port holds the tables of the policy (the
# partitions those of the file opensm.conf names).
drift_clean() {
	e2e_sim "$top_builddir/osmqos" drift --in-force -d "$pub" \
		--opensm-conf "$E2E_OSM_CONF" --sample 0 >"$E2E_DIR/$1.drift" \
		2>&1 || e2e_fail "$1: drift exited $?: $(tail -n 3 "$E2E_DIR/$1.drift")"
	grep -q ' 0 table drifts' "$E2E_DIR/$1.drift" ||
		e2e_fail "$1: $(tail -n 2 "$E2E_DIR/$1.drift")"
}
# kept SWEEP / built SWEEP: what the sweep's phases line says.
kept() {
	local p
	p=$(line "$1" phases:)
	[[ $p == *"(unchanged, state kept)"*"compile 0.00 ms (0 states)"*"SA state "*" (kept)"*"(parts kept"* ]] ||
		e2e_fail "sweep $1 did not keep its state: $p"
	line "$1" "[0-9]* QoS Set MADs" | grep -q "tables of sweep [0-9]* kept" ||
		e2e_fail "sweep $1: $(line "$1" "[0-9]* QoS Set MADs")"
}
built() {
	local p
	p=$(line "$1" phases:)
	[[ $p == *"(changed)"*"(2 states, "*" ports compiled)"*"SA state "*" (built"*"(rendered, "* ]] ||
		e2e_fail "sweep $1 did not build a new state: $p"
}

wait_published 1
# few SWEEP WHAT PART: the sweep's phases line says "K of M WHAT" with K at
# least 1 and under M/PART: it did that part of its work only for what the
# link change touched (the demo policy's compile says nothing, so the
# tables can be derived): the tables of the ports of the two nodes read
# again and of their partners' nodes, the classes of those ports, the
# JSON entries of the two switches.
few() {
	local p c k m
	p=$(line "$1" phases:)
	c=$(grep -o "[0-9]* of [0-9]* $2" <<<"$p")
	k=${c%% of *}
	m=${c#* of }
	m=${m%% *}
	[[ $k =~ ^[0-9]+$ && $m =~ ^[0-9]+$ ]] && ((k >= 1 && $3 * k < m)) ||
		e2e_fail "sweep $1: '$c' $2, want a few for a link: $p"
	e2e_log "sweep $1: $k of $m $2"
}
hup # past the first sweeps' port state changes
snap start
n0=$(ports "$SWEEP")
drift_clean start

# Nothing changes: osmqos.prom is of the new sweep, the JSON the file it
# was.
cp -p "$pub/osmqos-bandwidth.json" "$E2E_DIR/start.raw.json"
json_sweep=$(jq .sweep "$pub/osmqos-bandwidth.json")
hup
kept "$SWEEP"
[[ $(line "$SWEEP" phases:) == *"(parts kept, JSON as it was)"* ]] ||
	e2e_fail "sweep $SWEEP wrote the JSON again: $(line "$SWEEP" phases:)"
line "$SWEEP" published | grep -q "as written by sweep $json_sweep:" ||
	e2e_fail "sweep $SWEEP: $(line "$SWEEP" published)"
cmp -s "$pub/osmqos-bandwidth.json" "$E2E_DIR/start.raw.json" ||
	e2e_fail "the JSON changed in a sweep that changed nothing"
[ "$json_sweep" -lt "$SWEEP" ] ||
	e2e_fail "the JSON's sweep is $json_sweep, want an earlier one than $SWEEP"
[ "$(awk '$1 == "osmqos_sweep" {print $2}' "$pub/osmqos.prom")" = "$SWEEP" ] ||
	e2e_fail "osmqos_sweep is not $SWEEP"
snap unchanged
same start unchanged
drift_clean unchanged
e2e_log "sweep $SWEEP: state kept; files, PathRecords and tables as before"

# The JSON removed, replaced by a copy (another file, the same bytes) or
# changed in place: the next sweep, which keeps its state, writes it.
json=$pub/osmqos-bandwidth.json
for how in removed replaced changed; do
	case $how in
	removed) rm "$json" ;;
	replaced) cp "$json" "$json.new" && mv "$json.new" "$json" ;;
	changed) printf '{}\n' >"$json" ;;
	esac
	hup
	kept "$SWEEP"
	[[ $(line "$SWEEP" phases:) == *"(parts kept)"* ]] ||
		e2e_fail "$how: sweep $SWEEP: $(line "$SWEEP" phases:)"
	[ "$(jq .sweep "$json")" = "$SWEEP" ] ||
		e2e_fail "the $how JSON was not written again by sweep $SWEEP"
	snap "$how"
	same start "$how"
done

# The policy file touched, its content the same.
touch -d '+1 minute' "$pol"
hup
kept "$SWEEP"

# A policy edit that changes no table: the storage rule grants DEFAULT.
# The sweep compiles the policy on the copy of the subnet it has, keeps
# the predictions and the files' parts made from the same tables, and
# the SA answers under the new rule; the edit undone, all is as at the
# start.
# edited SWEEP: what its phases line says.
edited() {
	local p
	p=$(line "$1" phases:)
	[[ $p == *"(changed)"*"(the last copy of the subnet shared)"*"(kept: the same tables)"*"(parts kept)"* ]] ||
		e2e_fail "sweep $1 did not build on the same subnet and tables: $p"
}
# pr_sl SRC DST: the SL of the PathRecord between two hosts, in decimal.
pr_sl() {
	e2e_sim saquery -p --slid "$(e2e_lid "$1 HCA-1")" \
		--dlid "$(e2e_lid "$2 HCA-1")" 2>/dev/null |
		awk -F. '/^[[:space:]]*sl\.+0x/ { print strtonum($NF); exit }'
}
[ "$(pr_sl cn05 stor1)" = 1 ] ||
	e2e_fail "cn05 -> stor1 has SL $(pr_sl cn05 stor1) before the edit, want 1"
cp "$pol" "$E2E_DIR/policy.before"
sed -i '/^        destination: storage$/{n;s/qos-level-name: storage/qos-level-name: DEFAULT/}' "$pol"
! cmp -s "$pol" "$E2E_DIR/policy.before" || e2e_fail "the edit changed nothing"
hup
edited "$SWEEP"
[ "$(jq .sweep "$pub/osmqos-bandwidth.json")" = "$SWEEP" ] ||
	e2e_fail "sweep $SWEEP did not write the JSON of the new policy"
[ "$(pr_sl cn05 stor1)" = 0 ] ||
	e2e_fail "sweep $SWEEP: cn05 -> stor1 has SL $(pr_sl cn05 stor1) under the edit, want 0"
snap edited
# same_but_policy A B: A's and B's files the same but for what they say
# of the policy file (its hash, load time, loads).
same_but_policy() {
	local n f
	for n in "$1" "$2"; do
		jq -S 'del(.policy)' "$E2E_DIR/$n.json" >"$E2E_DIR/$n.nopol.json"
		grep -v '^osmqos_policy_' "$E2E_DIR/$n.prom" >"$E2E_DIR/$n.nopol.prom"
	done
	for f in json prom; do
		cmp -s "$E2E_DIR/$1.nopol.$f" "$E2E_DIR/$2.nopol.$f" ||
			e2e_fail "$2: the $f differs from $1's:" \
				"$(diff "$E2E_DIR/$1.nopol.$f" "$E2E_DIR/$2.nopol.$f" | head -n 6)"
	done
}
same_but_policy start edited
drift_clean edited
cp "$E2E_DIR/policy.before" "$pol"
hup
edited "$SWEEP"
[ "$(pr_sl cn05 stor1)" = 1 ] ||
	e2e_fail "sweep $SWEEP: cn05 -> stor1 has SL $(pr_sl cn05 stor1) after the edit was undone"
snap undone
same_but_policy start undone
cmp -s "$E2E_DIR/start.sa" "$E2E_DIR/undone.sa" ||
	e2e_fail "the PathRecords after the edit was undone differ from the start's"
# An edit that changes tables (the hosts' and switches' VLHighLimit) is
# compiled on the same copy of the subnet, but predicted and rendered
# again; undone, the same again.
sed -i 's/^            vl-high-limit: 4$/            vl-high-limit: 5/' "$pol"
! cmp -s "$pol" "$E2E_DIR/policy.before" || e2e_fail "the VLHighLimit edit changed nothing"
for step in edit undo; do
	hup
	p=$(line "$SWEEP" phases:)
	[[ $p == *"(the last copy of the subnet shared)"*"(rendered, "* &&
		$p != *"(kept: the same tables)"* ]] ||
		e2e_fail "$step: sweep $SWEEP kept predictions of other tables: $p"
	[ "$step" = undo ] || cp "$E2E_DIR/policy.before" "$pol"
done
snap undone2
same_but_policy start undone2
# The policy's load time is the undo's from here on.
snap start
e2e_log "sweep $SWEEP: a policy edit that changed no table: subnet copy and predictions kept, answers follow"

# leaf01's link to spine01 goes down: its two ports are gone.  ibsim
# takes console commands in its own time, and the leaf's trap may start
# a sweep of OpenSM's own: the first sweep after the command that
# publishes without the two ports is the one that built the new state.
before=$SWEEP
e2e_ibsim_cmd 'Unlink "leaf01"[5]'
for i in 1 2 3 4 5; do
	hup
	[ "$(ports "$SWEEP")" = $((n0 - 2)) ] && break
done
[ "$(ports "$SWEEP")" = $((n0 - 2)) ] ||
	e2e_fail "after the unlink $(ports "$SWEEP") ports published, want $((n0 - 2))"
unlinked=$(grep -o "osmqos: sweep [0-9]*: published [0-9]* ports" "$E2E_OSM_LOG" |
	awk -v s0="$before" -v want=$((n0 - 2)) '{ sw = $3; sub(/:$/, "", sw) }
		sw + 0 > s0 + 0 && $5 == want { print sw; exit }')
# The leaf's trap and the SIGHUP can start two sweeps so close together
# that one publication serves both: the first sweep published without the
# two ports then kept the state the sweep before it built, unpublished.
# Its tables line names that sweep, and it renders what that one built.
from=$(line "$unlinked" "[0-9]* QoS Set MADs" |
	sed -n 's/.*tables of sweep \([0-9]*\) kept.*/\1/p')
if [ -n "$from" ] && [ "$from" -gt "$before" ] &&
	[ "$(grep -c "osmqos: sweep $from: published" "$E2E_OSM_LOG")" = 0 ]; then
	[[ $(line "$unlinked" phases:) == *"(rendered, "* ]] ||
		e2e_fail "sweep $unlinked published sweep $from's new state without rendering it: $(line "$unlinked" phases:)"
	e2e_log "sweep $from built the state after the unlink, published by sweep $unlinked"
else
	built "$unlinked"
	few "$unlinked" "ports compiled" 2
	few "$unlinked" "ports keyed" 2
	few "$unlinked" "node entries" 4
fi
[ "$(jq .sweep "$pub/osmqos-bandwidth.json")" = "$unlinked" ] ||
	e2e_fail "the JSON's sweep is $(jq .sweep "$pub/osmqos-bandwidth.json") after the unlink, want $unlinked"
drift_clean unlinked
e2e_log "sweep $unlinked: leaf01-spine01 unlinked: state built, $((n0 - 2)) ports"

# ... and comes back: all as at the start.
e2e_ibsim_cmd 'Link "leaf01"[5] "spine01"[1]'
for i in 1 2 3 4 5; do
	hup
	[ "$(ports "$SWEEP")" = "$n0" ] && break
done
[ "$(ports "$SWEEP")" = "$n0" ] || e2e_fail "the link did not come back"
hup
kept "$SWEEP"
snap relinked
same start relinked
drift_clean relinked
e2e_log "sweep $SWEEP: link back: files, PathRecords and tables as at the start"

# A partition of cn01 and stor1 added, then removed; the group compute-a
# names it (partition: tenant).  Each sweep builds a state: the SA answers
# a PathRecord in its P_Key between the two, and stor1 holds compute-a's
# SL2VL, exactly while it exists.
# pr_count PKEY: PathRecords cn01 -> stor1 in PKEY.
pr_count() {
	e2e_sim saquery -p --pkey "$1" --slid "$(e2e_lid "cn01 HCA-1")" \
		--dlid "$(e2e_lid "stor1 HCA-1")" 2>/dev/null | grep -c '^PathRecord'
}
# sl2vl HOST: the SL2VL table its HCA port holds.
sl2vl() {
	e2e_sim smpquery sl2vl "$(e2e_lid "$1 HCA-1")" 2>/dev/null |
		grep '^ports:' || e2e_fail "smpquery sl2vl $1 failed"
}
[ "$(sl2vl cn01)" != "$(sl2vl stor2)" ] ||
	e2e_fail "compute-a's SL2VL is the hosts' default: the test sees no change"
[ "$(pr_count 0x8002)" = 0 ] ||
	e2e_fail "a PathRecord in P_Key 0x8002 before the partition exists"
printf '%s\ntenant=0x8002 : %s=full, %s=full ;\n' "$default_partition" \
	"$(e2e_guid "cn01 HCA-1")" "$(e2e_guid "stor1 HCA-1")" >"$parts"
hup
built "$SWEEP"
[ "$(pr_count 0x8002)" = 1 ] ||
	e2e_fail "sweep $SWEEP: no PathRecord in the new partition 0x8002"
[ "$(pr_count 0x7fff)" = 1 ] ||
	e2e_fail "sweep $SWEEP: no PathRecord in the Default partition"
[ "$(sl2vl stor1)" = "$(sl2vl cn01)" ] ||
	e2e_fail "sweep $SWEEP: stor1, now in compute-a, holds $(sl2vl stor1)"
drift_clean partitioned
echo "$default_partition" >"$parts"
hup
built "$SWEEP"
[ "$(pr_count 0x8002)" = 0 ] ||
	e2e_fail "sweep $SWEEP: a PathRecord in the removed partition 0x8002"
[ "$(sl2vl stor1)" = "$(sl2vl stor2)" ] ||
	e2e_fail "sweep $SWEEP: stor1, out of compute-a again, holds $(sl2vl stor1)"
hup
kept "$SWEEP"
snap unpartitioned
same start unpartitioned
e2e_log "sweep $SWEEP: a partition added and removed: state built each time, then as at the start"

# A bad edit: the policy in force stays, and so does the state, but the
# JSON has news (the rejected edit) and is written again.
sed -i '0,/^    qos-level$/s//    qos-levle/' "$pol"
hup
kept "$SWEEP"
[[ $(line "$SWEEP" phases:) == *"(parts kept)"* ]] ||
	e2e_fail "sweep $SWEEP did not write the JSON: $(line "$SWEEP" phases:)"
jq -e --argjson s "$SWEEP" '.sweep == $s and .policy.in_force and
	(.policy.load_success | not) and .policy.rejected != null' \
	"$pub/osmqos-bandwidth.json" >/dev/null ||
	e2e_fail "the JSON after a rejected edit: $(jq -c .policy "$pub/osmqos-bandwidth.json")"
e2e_log "sweep $SWEEP: a rejected edit: state kept, the JSON written again"
e2e_pass
