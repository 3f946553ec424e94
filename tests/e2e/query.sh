#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# osmqos query against a live SA (opensm with the plugin, on ibsim):
# PathRecords equal saquery's field by field for a dozen pairs; ServiceID
# and QoS-class queries agree with saquery too; a 1x1 MultiPathRecord
# answers the same record as the PathRecord; --policy names the storage
# level for storage destinations; an unknown LID gives the SA status and
# exit 1.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init query
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
[ -n "${OQ_SAQUERY:-}" ] || OQ_SAQUERY=$(command -v saquery)
[ -n "$OQ_SAQUERY" ] || e2e_skip "saquery not installed (apt-get install infiniband-diags)"

pol=$E2E_DIR/qos-policy.conf
cp "$top_srcdir/contrib/policies/fat-tree-16.conf" "$pol"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
# OQ_QUERY_STOCK=1: run against stock OpenSM (no plugin), the oracle.
stock=()
[ -n "${OQ_QUERY_STOCK:-}" ] && stock=("event_plugin_name=(null)")
e2e_start_opensm qos=TRUE "qos_policy_file=$pol" "${stock[@]}"
topo=$E2E_DIR/topo.ibnd
e2e_ibnetdiscover >"$topo"

flat() { tr '\n' ' ' <<<"$1"; }
q() { e2e_sim "$top_builddir/osmqos" query "$@" 2>>"$E2E_DIR/query.err"; }

# "field value" lines of saquery's PathRecord dump, numbers in decimal.
sa_fields() {
	e2e_sim "$OQ_SAQUERY" -p "$@" 2>/dev/null |
		sed -n 's/^[[:space:]]*\(sl\|mtu\|rate\|pkt_life\|pkey\|dlid\|slid\)\.\.*\(.*\)$/\1 \2/p' |
		while read -r k v; do echo "$k $((v))"; done | sort
}

# The same fields from osmqos query --json (MTU/rate/lifetime as the wire
# byte, selector in the top two bits, as saquery prints them).
oq_fields() {
	q --json "$@" | jq -r '.records[0] |
		"sl \(.sl)", "mtu \(.mtu_selector * 64 + .mtu)",
		"rate \(.rate_selector * 64 + .rate)",
		"pkt_life \(.pkt_life_selector * 64 + .pkt_life)",
		"pkey \(.pkey)", "dlid \(.dlid)", "slid \(.slid)"' | sort
}

# LIDs of every HCA port, in the order ibnetdiscover lists them.
mapfile -t lids < <(sed -n 's/.*"[^"]* HCA-1" lid \([0-9]*\) .*/\1/p' "$topo")
[ "${#lids[@]}" -eq 16 ] || e2e_fail "expected 16 HCA LIDs, got ${#lids[@]}: ${lids[*]}"

# 1. PathRecords, field by field, for 16 (source, destination) pairs.
n=0
for ((i = 0; i < ${#lids[@]}; i++)); do
	s=${lids[i]} d=${lids[(i * 5 + 3) % ${#lids[@]}]}
	want=$(sa_fields --slid "$s" --dlid "$d")
	got=$(oq_fields --slid "$s" --dlid "$d")
	[ -n "$want" ] || e2e_fail "saquery gave no PathRecord for $s -> $d"
	[ "$want" = "$got" ] ||
		e2e_fail "$s -> $d: saquery [$(flat "$want")] osmqos [$(flat "$got")]"
	n=$((n + 1))
done
e2e_log "$n PathRecords equal saquery's (sl, mtu, rate, pkt_life, pkey, lids)"
[ "$n" -ge 10 ] || e2e_fail "only $n pairs compared"

stor3=$(e2e_lid "stor3 HCA-1") cn01=$(e2e_lid "cn01 HCA-1") cn05=$(e2e_lid "cn05 HCA-1")

# 2. ServiceID and QoS class travel in the request (Get and GetTable).
want=$(sa_fields --slid "$cn01" --dlid "$stor3" --service_id 0x1000 -Q 7)
got=$(oq_fields --slid "$cn01" --dlid "$stor3" --sid 0x1000 --qos-class 7)
[ -n "$got" ] || e2e_fail "ServiceID/QoS-class query gave no record"
[ "$want" = "$got" ] ||
	e2e_fail "ServiceID/QoS-class query: saquery [$(flat "$want")] osmqos [$(flat "$got")]"
got=$(oq_fields --get --slid "$cn01" --dlid "$cn05" --sid 0x1000)
want=$(sa_fields --slid "$cn01" --dlid "$cn05" --service_id 0x1000)
[ -n "$got" ] || e2e_fail "Get with ServiceID gave no record"
[ "$want" = "$got" ] ||
	e2e_fail "Get with ServiceID: saquery [$(flat "$want")] osmqos [$(flat "$got")]"
e2e_log "ServiceID / QoS-class queries agree with saquery"

# The letters every subcommand shares (-j, -P, -t, -Q) ask the same as
# the long options.
long=$(q --json --ca-port 1 --timeout 2000 --slid "$cn01" --dlid "$stor3" \
	--qos-class 7 | jq -c '.records')
short=$(q -j -P 1 -t 2000 --slid "$cn01" --dlid "$stor3" -Q 7 |
	jq -c '.records')
[ -n "$long" ] && [ "$long" != "[]" ] && [ "$long" = "$short" ] ||
	e2e_fail "short options: [$short], long options: [$long]"
e2e_log "-j -P -t -Q ask what --json --ca-port --timeout --qos-class ask"

# 3. A 1x1 MultiPathRecord answers exactly the PathRecord (all fields).
pr=$(q --json --slid "$cn01" --dlid "$stor3") || e2e_fail "PR query failed"
sgid=$(jq -r '.records[0].sgid' <<<"$pr")
dgid=$(jq -r '.records[0].dgid' <<<"$pr")
mpr=$(q --json --mpr --sgids "$sgid" --dgids "$dgid") ||
	e2e_fail "MPR query $sgid -> $dgid failed: $(tail -n 2 "$E2E_DIR/query.err")"
[ "$(jq -r .method <<<"$mpr")" = GetMulti ] || e2e_fail "MPR was not sent as GetMulti"
[ "$(jq -c '.records' <<<"$mpr")" = "$(jq -c '.records' <<<"$pr")" ] ||
	e2e_fail "MPR record differs from PR: $(jq -c .records <<<"$mpr") vs $(jq -c .records <<<"$pr")"
# GUID shorthand with the local subnet prefix gives the same.
sguid=$(awk -v l="$cn01" '$0 ~ "\"cn01 HCA-1\" lid "l" " {
	if (match($0, /\(([0-9a-f]+)\)/)) print "0x" substr($0, RSTART + 1, RLENGTH - 2) }' "$topo")
[ -n "$sguid" ] || e2e_fail "no port GUID for cn01 in $topo"
mpr2=$(q --json --mpr --sgids "$sguid" --dgids "$dgid") || e2e_fail "MPR with GUID failed"
[ "$(jq -c '.records' <<<"$mpr2")" = "$(jq -c '.records' <<<"$pr")" ] ||
	e2e_fail "MPR with 0xGUID differs from PR"
e2e_log "1x1 MultiPathRecord equals the PathRecord ($sgid -> $dgid)"

# Each component lands in the right MPR field and mask bit: with the same
# constraints, PR and MPR give the same answer (or both none).  The SL
# and selector cases change the answer, so a misplaced bit shows.
nonempty=0
for opts in "--sl 1" "--sl 0" "--pkey 0xffff" "--pkey 0x1234" \
	"--sid 0x1000 --qos-class 7" "--qos-class 7" "--sid 0x42" \
	"--mtu <4" "--mtu >4" "--mtu =4" "--mtu 2" "--rate <7" "--rate =3" \
	"--pkt-life >18" "--pkt-life =18" "--reversible" "--numb-path 1" \
	"--hop-limit 0" "--tclass 0" "--flow-label 0"; do
	# shellcheck disable=SC2086 # opts are words on purpose
	a=$(q --json --slid "$cn01" --dlid "$stor3" $opts | jq -c '.records')
	# shellcheck disable=SC2086
	b=$(q --json --mpr --sgids "$sgid" --dgids "$dgid" $opts | jq -c '.records')
	[ "$a" = "$b" ] || e2e_fail "PR and MPR differ with '$opts': PR $a MPR $b"
	[ "$a" = "[]" ] || nonempty=$((nonempty + 1))
	e2e_log "  $opts: $(jq -r 'map("sl \(.sl) mtu \(.mtu) rate \(.rate) life \(.pkt_life)") | if length == 0 then "no record" else join(", ") end' <<<"$a")"
done
if [ "$nonempty" -lt 10 ] || [ "$nonempty" -ge 20 ]; then
	e2e_fail "PR/MPR constraint cases: $nonempty of 20 had records (want some empty, most not)"
fi

# 4. --policy: storage destinations get the storage level, others DEFAULT.
for k in 1 2 3 4; do
	d=$(e2e_lid "stor$k HCA-1")
	out=$(q --json --slid "$cn05" --dlid "$d" --policy "$pol" --fabric "$topo") ||
		e2e_fail "query with --policy failed: $(tail -n 3 "$E2E_DIR/query.err")"
	lvl=$(jq -r '.records[0].policy.level' <<<"$out")
	agrees=$(jq -r '.records[0].policy.sl_agrees' <<<"$out")
	[ "$lvl" = storage ] || e2e_fail "stor$k: policy level '$lvl', want storage"
	[ "$agrees" = true ] || e2e_fail "stor$k: the SA's SL differs from the level's: $out"
done
lvl=$(q --json --slid "$cn05" --dlid "$cn01" --policy "$pol" --fabric "$topo" |
	jq -r '.records[0].policy | "\(.rule) \(.level)"')
[ "$lvl" = "null DEFAULT" ] || e2e_fail "cn05 -> cn01: rule/level '$lvl', want 'null DEFAULT'"
q --slid "$cn05" --dlid "$stor3" --policy "$pol" --fabric "$topo" |
	grep -q "policy: rule 0, level storage, sl 1$" ||
	e2e_fail "text output lacks the policy line"
e2e_log "--policy: storage level for stor1-4, DEFAULT otherwise"

# 5. Unknown LID: the SA's status by name, exit 1.
out=$(q --get --slid "$cn01" --dlid 999 --json)
rc=$?
[ "$rc" -eq 1 ] || e2e_fail "unknown LID: exit $rc, want 1"
[ "$(jq -r .status <<<"$out")" = ERR_NO_RECORDS ] ||
	e2e_fail "unknown LID: status $(jq -r .status <<<"$out"), want ERR_NO_RECORDS"
grep -q "the SA answered ERR_NO_RECORDS" "$E2E_DIR/query.err" ||
	e2e_fail "no ERR_NO_RECORDS message on stderr"
q --slid "$cn01" --dlid 999 >/dev/null
rc=$?
[ "$rc" -eq 1 ] || e2e_fail "unknown LID (GetTable, empty answer): exit $rc, want 1"
q --mpr --sgids "$sgid" --dgids 0xdeadbeef >/dev/null
rc=$?
[ "$rc" -eq 1 ] || e2e_fail "unknown GUID in MPR: exit $rc, want 1"
grep -q ERR_REQ_INVALID_GID "$E2E_DIR/query.err" ||
	e2e_fail "unknown GUID in MPR: no ERR_REQ_INVALID_GID message"
q --slid 1 --mpr >/dev/null
rc=$?
[ "$rc" -eq 2 ] || e2e_fail "usage error: exit $rc, want 2"
e2e_log "error statuses: ERR_NO_RECORDS and ERR_REQ_INVALID_GID give exit 1"

e2e_pass
