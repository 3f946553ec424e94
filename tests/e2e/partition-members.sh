#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# A sweep after a change sets the partition membership only of the ports
# whose membership can have changed: the ports of the nodes it read anew
# and those whose GUID a partition gained or lost.  Partition tenant
# (0x8005, named by compute-a's group) lists its members by GUID; between
# sweeps one storage host leaves it and another joins while a host's link
# goes down, then a member turns limited while the link comes back.  Each
# time the SA's PathRecords in 0x8005 and the hosts' SL2VL follow the new
# members, every port holds the tables partitions.conf gives, and a fresh
# opensm on the same inputs answers the same PathRecords.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init partition-members
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"

pol=$E2E_DIR/qos-policy.conf
parts=$E2E_DIR/partitions.conf
pub=$E2E_DIR/pub
mkdir -p "$pub"
sed '/^        name: compute-a$/a\        partition: tenant' \
	"$top_srcdir/tests/e2e/data/program-policy.conf" >"$pol"
grep -q '^        partition: tenant$' "$pol" ||
	e2e_fail "the policy has no partition group"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
# tenant MEMBER...: partitions.conf with the Default partition and tenant
# of the hosts given as HOST=full or HOST=limited (by port GUID).
tenant() {
	local m list=
	for m in "$@"; do
		list="$list${list:+, }$(e2e_guid "${m%=*} HCA-1")=${m#*=}"
	done
	printf 'Default=0x7fff, ipoib : ALL=full ;\n' >"$parts.new"
	printf 'tenant=0x8005, ipoib : %s ;\n' "$list" >>"$parts.new"
	mv "$parts.new" "$parts"
}
tenant stor1=full stor2=full
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"partition_config_file=$parts" "event_plugin_options=publish_dir=$pub"
# The LIDs OpenSM gave, before any link goes down (ibnetdiscover caches
# what it saw: before OpenSM ran, no LIDs).
rm -f "$E2E_DIR/ibnetdiscover.out"
[ -n "$(e2e_lid "stor1 HCA-1")" ] || e2e_fail "stor1 has no LID"

published() { grep -c "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG"; }
# hup: one heavy sweep and its publication; its port count in PORTS.
hup() {
	local n
	n=$(published)
	kill -HUP "$E2E_OPENSM_PID" || e2e_fail "opensm is gone"
	e2e_wait_count "osmqos: sweep [0-9]*: published" "$E2E_OSM_LOG" \
		$((n + 1)) 60 || e2e_fail "no publication $((n + 1))"
	PORTS=$(grep -o "osmqos: sweep [0-9]*: published [0-9]* ports" \
		"$E2E_OSM_LOG" | tail -n 1 | awk '{print $5}')
}
# lid NODE: a host's HCA port's LID, a switch's port 0's.
lid() {
	case $1 in
	leaf* | spine*) e2e_lid "$1" ;;
	*) e2e_lid "$1 HCA-1" ;;
	esac
}
# pr_count PKEY A B: PathRecords from A to B in PKEY.
pr_count() {
	e2e_sim saquery -p --pkey "$1" --slid "$(lid "$2")" \
		--dlid "$(lid "$3")" 2>/dev/null | grep -c '^PathRecord'
}
sl2vl() {
	e2e_sim smpquery sl2vl "$(e2e_lid "$1 HCA-1")" 2>/dev/null |
		grep '^ports:' || e2e_fail "smpquery sl2vl $1 failed"
}
drift_clean() {
	e2e_sim "$top_builddir/osmqos" drift --in-force -d "$pub" \
		--opensm-conf "$E2E_OSM_CONF" --sample 0 >"$E2E_DIR/$1.drift" \
		2>&1 || e2e_fail "$1: drift exited $?: $(tail -n 3 "$E2E_DIR/$1.drift")"
	grep -q ' 0 table drifts' "$E2E_DIR/$1.drift" ||
		e2e_fail "$1: $(tail -n 2 "$E2E_DIR/$1.drift")"
}
hosts="stor1 stor2 stor3 stor4 cn01 cn05 leaf02"
# expect NAME PAIRS...: PathRecords in 0x8005 for each A:B:COUNT, and the
# storage hosts' SL2VL compute-a's exactly when they are members.
expect() {
	local name=$1 t a b want got h
	shift
	for t in "$@"; do
		IFS=: read -r a b want <<<"$t"
		got=$(pr_count 0x8005 "$a" "$b")
		[ "$got" = "$want" ] ||
			e2e_fail "$name: $got PathRecords $a -> $b in 0x8005, want $want"
	done
	# leaf02, read anew when cn05's link changes, stays in Default.
	got=$(pr_count 0x7fff cn01 leaf02)
	[ "$got" = 1 ] ||
		e2e_fail "$name: $got PathRecords cn01 -> leaf02 in 0x7fff, want 1"
	for h in stor1 stor2 stor3 stor4; do
		if [[ " ${members[*]} " == *" $h="* ]]; then
			[ "$(sl2vl "$h")" = "$(sl2vl cn01)" ] ||
				e2e_fail "$name: member $h holds $(sl2vl "$h")"
		else
			[ "$(sl2vl "$h")" != "$(sl2vl cn01)" ] ||
				e2e_fail "$name: $h, no member, holds compute-a's SL2VL"
		fi
	done
	drift_clean "$name"
	# Every PathRecord among the hosts, both partitions, for the fresh
	# opensm's to compare with.
	: >"$E2E_DIR/$name.sa"
	for a in $hosts; do
		for b in $hosts; do
			[ "$a" = "$b" ] && continue
			for t in 0x8005 0x7fff; do
				e2e_sim saquery -p --pkey "$t" \
					--slid "$(lid "$a")" --dlid "$(lid "$b")" \
					>>"$E2E_DIR/$name.sa" 2>/dev/null
			done
		done
	done
}

hup # past the first sweeps' port state changes
n0=$PORTS
members=(stor1=full stor2=full)
expect start stor1:stor2:1 stor2:stor1:1 stor1:stor3:0 cn01:stor1:0

# stor2 leaves and stor3 joins while cn05's link goes down: the sweep
# reads cn05's leaf anew and shares the other nodes.
members=(stor1=full stor3=full)
tenant "${members[@]}"
e2e_ibsim_cmd 'Unlink "cn05"[1]'
for i in 1 2 3 4 5; do
	hup
	[ "$PORTS" != "$n0" ] && break
done
[ "$PORTS" != "$n0" ] || e2e_fail "cn05's link did not go down"
grep -q "osmqos: sweep [0-9]*: phases: .*snapshot [0-9.]* ms ([0-9]* of [0-9]* nodes read)" \
	"$E2E_OSM_LOG" || e2e_fail "no sweep shared the nodes of the one before"
expect moved stor1:stor3:1 stor3:stor1:1 stor1:stor2:0 stor2:stor3:0

# stor3 turns limited and stor2 comes back limited while the link comes
# back and cn05, read anew, joins: limited members have no path to each
# other, a full one to both.
members=(stor1=full stor2=limited stor3=limited cn05=full)
tenant "${members[@]}"
e2e_ibsim_cmd 'Link "cn05"[1] "leaf02"[3]'
for i in 1 2 3 4 5; do
	hup
	[ "$PORTS" = "$n0" ] && break
done
[ "$PORTS" = "$n0" ] || e2e_fail "cn05's link did not come back"
expect limited stor1:stor3:1 stor2:stor1:1 stor2:stor3:0 stor3:stor2:0 \
	cn05:stor2:1 cn05:stor4:0
e2e_log "members moved, joined and turned limited: answers and tables follow"

# A fresh opensm on the same fabric and partitions.conf: the same answers.
e2e_stop_opensm
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
	"partition_config_file=$parts" "event_plugin_options=publish_dir=$pub"
hup
expect fresh stor1:stor3:1 stor2:stor1:1 stor2:stor3:0 stor3:stor2:0 \
	cn05:stor2:1 cn05:stor4:0
cmp -s "$E2E_DIR/limited.sa" "$E2E_DIR/fresh.sa" ||
	e2e_fail "a fresh opensm answers otherwise:" \
		"$(diff "$E2E_DIR/limited.sa" "$E2E_DIR/fresh.sa" | head -n 6)"
e2e_pass
