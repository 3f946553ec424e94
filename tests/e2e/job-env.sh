#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# osmqos job-env against the live SA (opensm with the plugin, on ibsim,
# fat-tree-16 with a tenant isolated by P_Key, jobs-lib.sh): three job
# classes (storage by Service ID, MPI by QoS class, the tenant by P_Key)
# export the SL the SA grants, which is what saquery's PathRecord and
# `osmqos match` say; the tenant's P_Key and its index in the host's
# table (smpquery); every grant is in the plugin's audit trail with the
# host that asked; a job spanning two partitions is refused with the pair
# named; pairs with different SLs are refused unless --prefer; a job of
# nine hosts costs one query; offline answers equal live ones; a fabric
# file with a replaced HCA is an input error naming it, not a refusal,
# while one with cables swapped keeps the SA's refusal, saying so;
# and without an SA the policy decides, saying so.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/jobs-lib.sh"
e2e_init job-env
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
[ -n "${OQ_SAQUERY:-}" ] || OQ_SAQUERY=$(command -v saquery)
[ -n "$OQ_SAQUERY" ] || e2e_skip "saquery not installed (apt-get install infiniband-diags)"
[ -n "${OQ_SMPQUERY:-}" ] || OQ_SMPQUERY=$(command -v smpquery)

jobs_fabric_up
err=$E2E_DIR/job-env.err

# je HOST ARGS...: job-env on HOST's port, the test's inputs.
je() {
	local host=$1
	shift
	SIM_HOST=$host e2e_sim "$top_builddir/osmqos" job-env \
		--fabric "$JOBS_TOPO" --policy "$JOBS_POL" \
		--partitions "$JOBS_PARTS" "$@" 2>"$err"
}
# env_of JSON NAME: a variable's value in the output's env.
env_of() { jq -r --arg n "$2" '.env[$n] // "unset"' <<<"$1"; }

# 1. Storage by Service ID on four hosts (one with the storage server).
out=$(je cn01 --sid 0x1000001 --nodes 'cn[01-03],stor1' --json) ||
	e2e_fail "storage job: exit $?: $(cat "$err")"
sl=$(jq -r .sl <<<"$out")
[ "$sl" = 1 ] || e2e_fail "storage job: SL $sl, want 1: $out"
[ "$(jq -r .decided_by <<<"$out")" = sa ] || e2e_fail "storage job not asked live"
for v in UCX_IB_SL NCCL_IB_SL NVSHMEM_IB_SL MV2_DEFAULT_SERVICE_LEVEL \
	OMPI_MCA_btl_openib_ib_service_level OSMQOS_SL; do
	[ "$(env_of "$out" $v)" = 1 ] || e2e_fail "storage job: $v is $(env_of "$out" $v)"
done
[ "$(env_of "$out" UCX_IB_PKEY)" = unset ] || e2e_fail "storage job exports a P_Key"
want=$(jobs_sl cn01 cn02 stor1 --service_id 0x1000001)
[ "$want" = "$sl" ] || e2e_fail "storage job: saquery says SL $want, job-env $sl"
want=$(jobs_match_sl cn01 stor1 --sid 0x1000001)
[ "$want" = "$sl" ] || e2e_fail "storage job: osmqos match says SL $want, job-env $sl"
# Every question is a line of the audit trail, asked by cn01's port.
req=$(e2e_guid "cn01 HCA-1")
[ "$(jq -r .requester.guid <<<"$out")" = "$req" ] ||
	e2e_fail "requester $(jq -c .requester <<<"$out"), want $req"
n=$(jq '.asked | length' <<<"$out")
[ "$n" = 3 ] || e2e_fail "storage job: $n questions, want 3 (2 port classes)"
e2e_wait_count '"service_id":"0x0000000001000001"' "$JOBS_AUDIT" 3 10 ||
	e2e_fail "the audit trail lacks the storage job's 3 grants"
while read -r s d; do
	grep -F "\"requester\":{\"guid\":\"$req\"" "$JOBS_AUDIT" |
		grep -F '"service_id":"0x0000000001000001"' |
		grep -F "\"src\":{\"guid\":\"$s\"" | grep -F "\"dst\":{\"guid\":\"$d\"" |
		grep -q '"granted":{"sl":1,' ||
		e2e_fail "no audit line granting SL 1 to $s -> $d for cn01"
done < <(jq -r '.asked[] | "\(.src_guid) \(.dst_guid)"' <<<"$out")
e2e_log "storage job: SL 1 (saquery, osmqos match agree), 3 grants audited"

# 2. MPI by QoS class: SL 2 among compute hosts; toward storage the
# policy gives SL 4, so with stor1 in the job the pairs differ.
out=$(je cn02 --qos-class 5 --nodes 'cn[01-04]' --json) ||
	e2e_fail "MPI job: exit $?: $(cat "$err")"
sl=$(jq -r .sl <<<"$out")
[ "$sl" = 2 ] || e2e_fail "MPI job: SL $sl, want 2"
[ "$(jobs_sl cn02 cn03 cn04 -Q 5)" = 2 ] || e2e_fail "MPI job: saquery disagrees"
[ "$(jobs_match_sl cn03 cn04 --qos-class 5)" = 2 ] ||
	e2e_fail "MPI job: osmqos match disagrees"
[ "$(jq -r .queries <<<"$out")" = 1 ] ||
	e2e_fail "MPI job on 4 alike hosts: $(jq -r .queries <<<"$out") queries, want 1"
je cn02 --qos-class 5 --nodes 'cn[01-02],stor1' >"$E2E_DIR/mixed.out"
rc=$?
[ "$rc" = 1 ] || e2e_fail "MPI job with stor1: exit $rc, want 1 (mixed SLs)"
grep -q "different SLs: SL 2 for .* SL 4 for 2 port pairs (e.g. cn0[12] HCA-1/P1 -> stor1 HCA-1/P1)" "$err" ||
	e2e_fail "mixed SLs not named: $(cat "$err")"
grep -q '^export' "$E2E_DIR/mixed.out" && e2e_fail "a refused job exported variables"
for p in "most 2" "highest 4" "lowest 2" "4 4"; do
	set -- $p
	out=$(je cn02 --qos-class 5 --nodes 'cn[01-02],stor1' --prefer "$1" --json) ||
		e2e_fail "--prefer $1: exit $?: $(cat "$err")"
	[ "$(jq -r .sl <<<"$out")" = "$2" ] || e2e_fail "--prefer $1: SL $(jq -r .sl <<<"$out"), want $2"
	[ "$(jq -r .preferred <<<"$out")" = true ] || e2e_fail "--prefer $1 not marked preferred"
done
e2e_log "MPI job: SL 2; with stor1 (SL 4 toward it) refused unless --prefer"

# 3. The tenant by its P_Key: SL 3, the P_Key, NCCL's index of it.
out=$(je cn10 --pkey 0x8003 --nodes 'cn[10-12]' --json) ||
	e2e_fail "tenant job: exit $?: $(cat "$err")"
[ "$(jq -r .sl <<<"$out")" = 3 ] || e2e_fail "tenant job: SL $(jq -r .sl <<<"$out"), want 3"
[ "$(jobs_sl cn10 cn11 cn12 --pkey 0x8003)" = 3 ] || e2e_fail "tenant job: saquery disagrees"
[ "$(jobs_match_sl cn11 cn12 --pkey 0x8003)" = 3 ] || e2e_fail "tenant job: osmqos match disagrees"
[ "$(env_of "$out" UCX_IB_PKEY)" = 0x0003 ] || e2e_fail "tenant job: UCX_IB_PKEY $(env_of "$out" UCX_IB_PKEY)"
[ "$(env_of "$out" MV2_DEFAULT_PKEY)" = 0x0003 ] || e2e_fail "tenant job: MV2_DEFAULT_PKEY"
idx=$(jobs_pkey_index cn10 0x8003)
[ -n "$idx" ] || e2e_fail "smpquery shows no 0x8003 in cn10's P_Key table"
[ "$(env_of "$out" NCCL_IB_PKEY)" = "$idx" ] ||
	e2e_fail "tenant job: NCCL_IB_PKEY $(env_of "$out" NCCL_IB_PKEY), smpquery index $idx"
e2e_log "tenant job: SL 3, P_Key 0x0003, NCCL_IB_PKEY=$idx (smpquery agrees)"

# 4. A job across the two partitions is refused, the pair named.
je cn09 --plain --nodes cn09,cn10 >/dev/null
rc=$?
[ "$rc" = 1 ] || e2e_fail "cross-partition job: exit $rc, want 1"
grep -q "refused: no path for cn09 HCA-1/P1 -> cn10 HCA-1/P1 .*partition isolation" "$err" ||
	e2e_fail "cross-partition refusal does not name the pair: $(cat "$err")"
je cn10 --pkey 0x0003 --nodes cn09,cn10 >/dev/null
[ $? = 1 ] || e2e_fail "cross-partition tenant job not refused"
e2e_log "cross-partition job refused: $(cut -c1-120 "$err")"

# 5. Scale: nine alike hosts (72 port pairs) are one question; every
# pair (--all-pairs) is 72, and --max-queries refuses that.
out=$(je cn05 --sid 0x1000001 --nodes 'cn[01-09]' --json) || e2e_fail "9-host job failed"
[ "$(jq -r '"\(.queries) \(.port_pairs) \(.port_classes)"' <<<"$out")" = "1 72 1" ] ||
	e2e_fail "9-host job: $(jq -c '{queries, port_pairs, port_classes}' <<<"$out")"
out=$(je cn05 --sid 0x1000001 --nodes 'cn[01-09]' --all-pairs --json) ||
	e2e_fail "9-host --all-pairs failed: $(cat "$err")"
[ "$(jq -r .queries <<<"$out")" = 72 ] || e2e_fail "--all-pairs: $(jq -r .queries <<<"$out") queries"
[ "$(jq -r .sl <<<"$out")" = 1 ] || e2e_fail "--all-pairs changed the SL"
je cn05 --sid 0x1000001 --nodes 'cn[01-09]' --all-pairs --max-queries 50 >/dev/null
[ $? = 2 ] || e2e_fail "72 questions over --max-queries 50 not refused"
grep -q "72 questions, more than 50 .*--max-queries" "$err" || e2e_fail "no reason: $(cat "$err")"
e2e_log "9 hosts: 1 query for 72 port pairs (--all-pairs: 72)"

# 6. Offline, the same answers; a level by name.  (Asked from a host of
# the job: the SA answers only a requester that shares a partition with
# both ends, which offline cannot know.)
for c in "cn01 --sid 0x1000001 --nodes cn[01-03],stor1" \
	"cn01 --qos-class 5 --nodes cn[01-04]" \
	"cn10 --pkey 0x8003 --nodes cn[10-12]" \
	"cn01 --level storage --nodes cn01,stor1 --prefer most" \
	"cn02 --level mpi --nodes cn[02-04]" \
	"cn02 --level DEFAULT --nodes cn[02-04]"; do
	# shellcheck disable=SC2086 # words on purpose
	live=$(je $c --json | jq -c '[.status, .sl, .pkey, [.asked[] | [.src, .dst, .sl]]]')
	# shellcheck disable=SC2086
	off=$(je $c --offline --json | jq -c '[.status, .sl, .pkey, [.asked[] | [.src, .dst, .sl]]]')
	[ "$live" = "$off" ] || e2e_fail "$c: live $live, offline $off"
	e2e_log "  $c: $live"
done
# A level by name: the SA grants its SL only where the policy gives the
# pair that level (or one with the same SL): DEFAULT between compute
# hosts, not mpi (a plain query there gets DEFAULT).
[ "$(je cn02 --level DEFAULT --nodes 'cn[02-04]' --json | jq -r '"\(.status) \(.sl)"')" = "ok 0" ] ||
	e2e_fail "--level DEFAULT on compute hosts is not SL 0"
je cn02 --level mpi --nodes 'cn[02-04]' >/dev/null
[ $? = 1 ] || e2e_fail "--level mpi on compute hosts not refused"
grep -q "the SA gave no path" "$err" || e2e_fail "--level mpi: $(cat "$err")"
e2e_log "offline answers equal live ones"

# 7. A stale fabric file: cn04's HCA replaced since the file was made
# (its port GUID there is one the subnet lacks).  The SA answers that GID
# with no record, as a denial; job-env tells them apart: an input error
# (exit 2) naming the GUID and host, no false partition isolation, from
# cn01 (cn04 is on another leaf: the check crosses a spine) and from cn04
# itself (whose own port is not in the file).
g=$(e2e_guid "cn04 HCA-1")
stale=$(printf '0x%016x' $(((g << 4) | 0xa)))
sed "s/($(printf '%x' $((g))))/($(printf '%x' $((stale))))/g" "$JOBS_TOPO" \
	>"$E2E_DIR/stale.ibnd"
grep -q "($(printf '%x' $((stale))))" "$E2E_DIR/stale.ibnd" ||
	e2e_fail "the stale fabric file names no port GUID ${stale}"
# stale_je HOST ARGS...: job-env on HOST's port with the stale file.
stale_je() {
	local host=$1
	shift
	SIM_HOST=$host e2e_sim "$top_builddir/osmqos" job-env \
		--fabric "$E2E_DIR/stale.ibnd" --policy "$JOBS_POL" \
		--partitions "$JOBS_PARTS" --sid 0x1000001 "$@" >/dev/null 2>"$err"
}
stale_je cn01 --nodes 'cn01,cn04'
rc=$?
[ "$rc" = 2 ] || e2e_fail "stale fabric file: exit $rc, want 2: $(cat "$err")"
grep -q "osmqos job-env: the fabric file $E2E_DIR/stale.ibnd is stale: the subnet has no port GUID $stale of host cn04 (cn04 HCA-1/P1): the port cabled to leaf02/P2 has port GUID $g; refresh it (ibnetdiscover > FILE; osmqos(8), job-env)$" "$err" ||
	e2e_fail "stale fabric file: the GUID and host not named: $(cat "$err")"
grep -q -e "job-env: refused" -e "partition isolation" "$err" &&
	e2e_fail "stale fabric file: a false refusal: $(cat "$err")"
e2e_log "stale fabric file: exit 2: $(grep -m 1 '^osmqos job-env: ' "$err" | cut -c1-160)"
# partitions.conf names cn04's live GUID, which the file lacks: a
# warning that says so without claiming what OpenSM does with it.
grep -q "warning: port GUID $g is not an end port in the fabric file" "$err" ||
	e2e_fail "stale fabric file: no partitions.conf warning: $(cat "$err")"
grep -q "OpenSM ignores it" "$err" &&
	e2e_fail "stale fabric file: the warning claims OpenSM ignores a live GUID"
SLURMD_NODENAME=cn04 stale_je cn04 --nodes 'cn01,cn04'
rc=$?
[ "$rc" = 2 ] || e2e_fail "stale fabric file, on cn04: exit $rc, want 2: $(cat "$err")"
grep -q "is stale: this host's port .* (port GUID $g) is not in it, which gives host cn04 port GUID $stale (cn04 HCA-1/P1); refresh it" "$err" ||
	e2e_fail "stale fabric file, on cn04: $(cat "$err")"
# Hosts the file still has right are asked as before.
stale_je cn01 --nodes 'cn01,cn02' || e2e_fail "stale file, live hosts: exit $?: $(cat "$err")"
e2e_log "stale fabric file: the same from cn04; cn01 and cn02 still asked"
# Cables swapped since the file was made: cn10 and cn11 trade places in
# a copy (names and GUIDs), so where it puts cn10 (leaf04/P3) cn11
# answers, a port it has elsewhere.  cn10's GUID may be live anywhere:
# the SA's denial of cn09 -> cn10 (partition isolation) stands, exit 1,
# saying where the file's cabling is out of date, not "stale" (exit 2,
# under the Prolog the job would run on the stacks' defaults).
ident() { # HOST: "NODEGUID PORTGUID" in the file's hex, no 0x, no zeros
	local n
	n=$(sed -n "s/^Ca.*\"H-0*\([0-9a-f]*\)\".*\"$1 HCA-1\".*/\1/p" "$JOBS_TOPO")
	echo "$n $(printf '%x' $(($(e2e_guid "$1 HCA-1"))))"
}
read -r n10 p10 < <(ident cn10)
read -r n11 p11 < <(ident cn11)
[ -n "$n10" ] && [ -n "$n11" ] ||
	e2e_fail "no node GUIDs of cn10, cn11 in $JOBS_TOPO"
perl -pe "s/(?<![0-9a-f])(0*)($n10|$n11|$p10|$p11)(?![0-9a-f])/\$1.{'$n10'=>'$n11','$n11'=>'$n10','$p10'=>'$p11','$p11'=>'$p10'}->{\$2}/ge;
	s/\"(cn1[01]) HCA-1\"/'\"'.(\$1 eq 'cn10' ? 'cn11' : 'cn10').' HCA-1\"'/ge" \
	"$JOBS_TOPO" >"$E2E_DIR/swapped.ibnd"
grep -q "^\[3\].*($p10).*\"cn10 HCA-1\"" "$E2E_DIR/swapped.ibnd" ||
	e2e_fail "the swapped file does not put cn10 at leaf04/P3: $(grep -n 'cn1[01] HCA-1' "$E2E_DIR/swapped.ibnd")"
SIM_HOST=cn09 e2e_sim "$top_builddir/osmqos" job-env --fabric "$E2E_DIR/swapped.ibnd" \
	--policy "$JOBS_POL" --partitions "$JOBS_PARTS" --plain --nodes cn09,cn10 \
	>/dev/null 2>"$err"
rc=$?
[ "$rc" = 1 ] || e2e_fail "swapped cables: exit $rc, want 1 (the SA's denial): $(cat "$err")"
grep -q "refused: no path for cn09 HCA-1/P1 -> cn10 HCA-1/P1 .*partition isolation.*; the fabric file's cabling is out of date: at leaf04/P3, where it has cn10 HCA-1/P1, port GUID $(e2e_guid "cn11 HCA-1") (its cn11 HCA-1/P1) answers: refresh it" "$err" ||
	e2e_fail "swapped cables: the refusal does not say where the file is out of date: $(cat "$err")"
grep -q -e "is stale" -e "has no port GUID" "$err" &&
	e2e_fail "swapped cables: cn10's live GUID called missing: $(cat "$err")"
e2e_log "swapped cables: exit 1: $(grep -m 1 "^osmqos job-env: " "$err")"

# 8. Without an SA: the policy decides, and says so; without a policy,
# an error.
e2e_stop_opensm
out=$(je cn01 --sid 0x1000001 --nodes 'cn[01-03]' --timeout 300 --json) ||
	e2e_fail "no SA, with a policy: exit $?: $(cat "$err")"
[ "$(jq -r .decided_by <<<"$out")" = policy ] || e2e_fail "no SA: decided_by $(jq -r .decided_by <<<"$out")"
jq -e '.fallback | test("the SA cannot be asked")' <<<"$out" >/dev/null ||
	e2e_fail "no SA: the output does not say so: $(jq -c .fallback <<<"$out")"
[ "$(jq -r .sl <<<"$out")" = 1 ] || e2e_fail "no SA: SL $(jq -r .sl <<<"$out")"
SIM_HOST=cn01 e2e_sim "$top_builddir/osmqos" job-env --sid 0x1000001 \
	--nodes 'cn[01-03]' --fabric "$JOBS_TOPO" --timeout 300 >/dev/null 2>"$err"
[ $? = 2 ] || e2e_fail "no SA, no policy: not exit 2"
grep -q "the SA cannot be asked" "$err" || e2e_fail "no SA, no policy: $(cat "$err")"
e2e_log "without an SA the policy decides (said so); without a policy exit 2"
e2e_pass
