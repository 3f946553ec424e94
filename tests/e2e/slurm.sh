#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The Slurm integration (contrib/slurm/) with the real scheduler: munged
# with its own key and socket, one slurmctld and six slurmd (one per Slurm
# node, cn01 cn02 stor1 cn09 cn10 cn11, all on this host with their own
# ports, spools and logs), the production Prolog, TaskProlog and Epilog
# reached through one-line wrappers that give them the test's job map and
# run them through symlinks in a directory of their own (as slurm.conf's
# Prolog=/etc/slurm/prolog.d/* finds them); the
# map's osmqos command is a wrapper that attaches osmqos to the simulated
# HCA of the Slurm node it runs for (SIM_HOST, umad2sim, IBSIM_SOCKNAME).
# On fat-tree-16 with an isolated tenant (jobs-lib.sh):
#   - a storage job (partition -> Service ID), an MPI job (account -> QoS
#     class) and a tenant job (partition -> P_Key) see in their tasks'
#     environment the SL the SA grants (saquery's PathRecord, `osmqos
#     match`), the tenant also its P_Key and NCCL's index of it;
#   - every node's Prolog asked the SA itself: the audit trail has the
#     job's grants with each node as the requester;
#   - an unmapped job gets the default level's SL, or nothing when the
#     map's default is none, also when its name says QOS= of a map line
#     (the job's QOS comes from squeue's QOS field alone); a batch job
#     (sbatch) gets its SL too;
#   - a job spanning the two partitions is refused: its task does not run,
#     its output names the pair, no node is drained;
#   - opting out with the job's comment works only where the map allows;
#   - the Epilog leaves nothing in the spool.
# Every daemon is stopped by its PID.
. "$top_srcdir/tests/e2e/lib.sh"
. "$top_srcdir/tests/e2e/jobs-lib.sh"
e2e_init slurm
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
[ "$(id -u)" = 0 ] || e2e_skip "the Slurm daemons run as root here"
SLURMCTLD=$(PATH=$PATH:/usr/sbin command -v slurmctld)
SLURMD=$(PATH=$PATH:/usr/sbin command -v slurmd)
MUNGED=$(PATH=$PATH:/usr/sbin command -v munged)
for t in "$SLURMCTLD" "$SLURMD" "$MUNGED" "$(command -v srun)" \
	"$(command -v sbatch)" "$(command -v scontrol)"; do
	[ -n "$t" ] || e2e_skip "Slurm or MUNGE not installed (apt-get install slurm-wlm munge)"
done
[ -n "${OQ_SAQUERY:-}" ] || OQ_SAQUERY=$(command -v saquery)
[ -n "$OQ_SAQUERY" ] || e2e_skip "saquery not installed (apt-get install infiniband-diags)"
[ -n "${OQ_SMPQUERY:-}" ] || OQ_SMPQUERY=$(command -v smpquery)
start=$SECONDS

S=$E2E_DIR/slurm
NODES="cn01 cn02 stor1 cn09 cn10 cn11"
MUNGE_PID=
CTLD_PID=
declare -A SLURMD_PID=()

slurm_stop() {
	local n
	for n in "${!SLURMD_PID[@]}"; do
		e2e_stop_pid "${SLURMD_PID[$n]}" 15
		unset "SLURMD_PID[$n]"
	done
	e2e_stop_pid "$CTLD_PID" 20
	CTLD_PID=
	e2e_stop_pid "$MUNGE_PID" 10
	MUNGE_PID=
}
E2E_ON_EXIT=slurm_stop

# port_free N: no TCP socket of this host uses port N.
port_free() {
	local hex
	hex=$(printf ':%04X ' "$1")
	! cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk '{ print $2, $3 }' |
		grep -q -- "$hex"
}
# Eight free ports in a row from a per-run start.
base=$((20000 + ($$ * 7) % 20000))
for ((try = 0; try < 50; try++)); do
	ok=1
	for ((i = 0; i < 8; i++)); do
		port_free $((base + i)) || { ok=0; break; }
	done
	[ $ok = 1 ] && break
	base=$((base + 97))
done
[ $ok = 1 ] || e2e_fail "no 8 free TCP ports found"

jobs_fabric_up

# MUNGE with its own key, socket and files.  --force: the test's temp
# directory is private (0700), which munged refuses for a socket others
# would need to reach; here only root's daemons and clients use it.
mkdir -p "$S/munge" "$S/state" "$S/log" "$S/run"
chmod 700 "$S/munge"
head -c 1024 /dev/urandom >"$S/munge/key"
chmod 600 "$S/munge/key"
"$MUNGED" -F --force --key-file="$S/munge/key" --socket="$S/munge/sock" \
	--pid-file="$S/munge/pid" --log-file="$S/munge/log" \
	--seed-file="$S/munge/seed" >"$S/log/munged.out" 2>&1 &
MUNGE_PID=$!
for ((i = 0; i < 100; i++)); do
	[ -S "$S/munge/sock" ] && break
	kill -0 "$MUNGE_PID" 2>/dev/null || break
	sleep 0.1
done
[ -S "$S/munge/sock" ] || e2e_fail "munged did not start: $(cat "$S/log/munged.out")"

# The test's job map, and the osmqos command it names: the built CLI on
# the simulated HCA of the Slurm node the Prolog runs for.
cat >"$S/osmqos-sim" <<EOF
#!/bin/sh
# umad2sim keeps a scratch sysfs in the working directory.
cd '$S/run' || exit 2
SIM_HOST=\${SLURMD_NODENAME:?} LD_PRELOAD='$OQ_UMAD2SIM' \\
	IBSIM_SOCKNAME='$IBSIM_SOCKNAME' exec '$top_builddir/osmqos' "\$@"
EOF
chmod +x "$S/osmqos-sim"
MAP=$S/jobs.conf
# write_map DEFAULT OPT-OUT: the job map, written aside and renamed: the
# Epilog of the job before may still be reading it (slurmd runs it after
# srun returns), and a map cut short would send it to another spool.
write_map() {
	cat >"$MAP.tmp" <<EOF
fabric      $JOBS_TOPO
policy      $JOBS_POL
partitions  $JOBS_PARTS
osmqos      $S/osmqos-sim
spool       $S/spool/%n
default     $1
allow-opt-out  $2
allow-override no
map partition=storage   sid 0x0000000001000001
map account=mpi         qos-class 5
map partition=tenant    pkey 0x0003
map partition=compute qos=gold sid 0x0000000001000001
EOF
	mv -f "$MAP.tmp" "$MAP"
}
write_map "level DEFAULT" no
mkdir -p "$S/prolog.d"
for s in prolog task-prolog epilog; do
	ln -sf "$top_srcdir/contrib/slurm/osmqos-$s" "$S/prolog.d/50-osmqos-$s"
	printf '#!/bin/sh\nexec %s --map %s\n' \
		"$S/prolog.d/50-osmqos-$s" "$MAP" >"$S/$s"
	chmod +x "$S/$s"
done

export SLURM_CONF=$S/slurm.conf
{
	cat <<EOF
ClusterName=oqtest
SlurmctldHost=localhost
SlurmctldPort=$base
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$S/munge/sock
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool/slurmd-%n
SlurmctldPidFile=$S/slurmctld.pid
SlurmdPidFile=$S/slurmd-%n.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd-%n.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/linear
MpiDefault=none
ReturnToService=2
Prolog=$S/prolog
TaskProlog=$S/task-prolog
Epilog=$S/epilog
EOF
	i=1
	for n in $NODES; do
		echo "NodeName=$n NodeHostname=localhost Port=$((base + i)) CPUs=1 State=UNKNOWN"
		i=$((i + 1))
	done
	cat <<EOF
PartitionName=compute Nodes=cn01,cn02,stor1,cn09 Default=YES MaxTime=5 State=UP
PartitionName=storage Nodes=cn01,cn02,stor1 MaxTime=5 State=UP
PartitionName=tenant Nodes=cn10,cn11 MaxTime=5 State=UP
PartitionName=mixed Nodes=cn09,cn10 MaxTime=5 State=UP
EOF
} >"$SLURM_CONF"

"$SLURMCTLD" -D -i -f "$SLURM_CONF" >"$S/log/slurmctld.out" 2>&1 &
CTLD_PID=$!
for ((i = 0; i < 100; i++)); do
	scontrol ping 2>/dev/null | grep -q UP && break
	kill -0 "$CTLD_PID" 2>/dev/null ||
		e2e_fail "slurmctld exited: $(tail -n 5 "$S/log/slurmctld.out")"
	sleep 0.2
done
scontrol ping 2>/dev/null | grep -q UP || e2e_fail "slurmctld does not answer"
for n in $NODES; do
	mkdir -p "$S/spool/slurmd-$n"
	"$SLURMD" -D -N "$n" -f "$SLURM_CONF" >"$S/log/slurmd-$n.out" 2>&1 &
	SLURMD_PID[$n]=$!
done
for ((i = 0; i < 150; i++)); do
	idle=$(sinfo -h -N -o '%N %t' 2>/dev/null | awk '$2 == "idle"' | sort -u | wc -l)
	[ "$idle" -ge 6 ] && break
	sleep 0.2
done
[ "$idle" -ge 6 ] || e2e_fail "not all slurmd up: $(sinfo -N 2>&1)"
e2e_log "munged $MUNGE_PID, slurmctld $CTLD_PID, slurmd ${SLURMD_PID[*]} (ports from $base)"

# job OUT SRUN-ARGS...: srun a task on each node printing its node and
# the variables osmqos sets; "NODE NAME=VALUE" lines in OUT.
VARS="OSMQOS_SL UCX_IB_SL NCCL_IB_SL NVSHMEM_IB_SL MV2_DEFAULT_SERVICE_LEVEL OMPI_MCA_btl_openib_ib_service_level UCX_IB_PKEY NCCL_IB_PKEY MV2_DEFAULT_PKEY"
job() {
	local out=$1
	shift
	timeout 60 srun "$@" sh -c 'for v in '"$VARS"'; do
		eval "x=\${$v-unset}"; echo "$SLURMD_NODENAME $v=$x"; done' \
		>"$out" 2>"$out.err"
}
# val OUT NODE NAME: the value a task on NODE saw.
val() { awk -v n="$2" -v k="$3" '$1 == n && index($2, k "=") == 1 {
	print substr($2, length(k) + 2); exit }' "$1"; }
# expect_sl OUT SL NODE...: every SL variable is SL on each node.
expect_sl() {
	local out=$1 sl=$2 n v
	shift 2
	for n in "$@"; do
		for v in OSMQOS_SL UCX_IB_SL NCCL_IB_SL NVSHMEM_IB_SL \
			MV2_DEFAULT_SERVICE_LEVEL OMPI_MCA_btl_openib_ib_service_level; do
			[ "$(val "$out" "$n" "$v")" = "$sl" ] ||
				e2e_fail "$(basename "$out"): $n sees $v=$(val "$out" "$n" "$v"), want $sl:
$(cat "$out" "$out.err")"
		done
	done
}
# audit_requesters SID-OR-FIELD: the requester GUIDs of audit lines whose
# query matches the jq filter.
audited_by() { jq -r "select($1) | .requester.guid" "$JOBS_AUDIT" | sort -u; }

# 1. Storage: partition storage -> Service ID -> SL 1.
job "$S/storage.out" -p storage -N2 -w cn01,cn02 || e2e_fail "storage job failed: $(cat "$S/storage.out.err")"
expect_sl "$S/storage.out" 1 cn01 cn02
[ "$(val "$S/storage.out" cn01 UCX_IB_PKEY)" = unset ] || e2e_fail "storage job has a P_Key"
[ "$(jobs_sl cn01 cn01 cn02 --service_id 0x1000001)" = 1 ] || e2e_fail "saquery does not say SL 1 for storage"
[ "$(jobs_match_sl cn01 cn02 --sid 0x1000001)" = 1 ] || e2e_fail "osmqos match does not say SL 1 for storage"
# Each node's Prolog asked the SA from its own port.
by=$(audited_by '.query.service_id == "0x0000000001000001" and .granted.sl == 1')
for n in cn01 cn02; do
	grep -qx "$(e2e_guid "$n HCA-1")" <<<"$by" ||
		e2e_fail "no audited grant asked by $n's port for the storage job: $by"
done
e2e_log "storage job: SL 1 in both tasks = saquery = osmqos match; both nodes' grants audited"

# 2. MPI: account mpi -> QoS class 5 -> SL 2.
job "$S/mpi.out" -p compute -A mpi -N2 -w cn01,cn02 || e2e_fail "MPI job failed: $(cat "$S/mpi.out.err")"
expect_sl "$S/mpi.out" 2 cn01 cn02
[ "$(jobs_sl cn02 cn02 cn01 -Q 5)" = 2 ] || e2e_fail "saquery does not say SL 2 for MPI"
[ "$(jobs_match_sl cn02 cn01 --qos-class 5)" = 2 ] || e2e_fail "osmqos match does not say SL 2 for MPI"
[ -n "$(audited_by '.query.qos_class == 5 and .granted.sl == 2')" ] ||
	e2e_fail "no audited MPI grant"
e2e_log "MPI job: SL 2 = saquery = osmqos match"

# 3. The tenant: partition tenant -> P_Key 0x0003 -> SL 3 and the P_Key.
job "$S/tenant.out" -p tenant -N2 || e2e_fail "tenant job failed: $(cat "$S/tenant.out.err")"
expect_sl "$S/tenant.out" 3 cn10 cn11
[ "$(jobs_sl cn10 cn10 cn11 --pkey 0x8003)" = 3 ] || e2e_fail "saquery does not say SL 3 for the tenant"
[ "$(jobs_match_sl cn10 cn11 --pkey 0x0003)" = 3 ] || e2e_fail "osmqos match does not say SL 3 for the tenant"
for n in cn10 cn11; do
	[ "$(val "$S/tenant.out" $n UCX_IB_PKEY)" = 0x0003 ] ||
		e2e_fail "$n: UCX_IB_PKEY=$(val "$S/tenant.out" $n UCX_IB_PKEY)"
	[ "$(val "$S/tenant.out" $n MV2_DEFAULT_PKEY)" = 0x0003 ] ||
		e2e_fail "$n: MV2_DEFAULT_PKEY=$(val "$S/tenant.out" $n MV2_DEFAULT_PKEY)"
	idx=$(jobs_pkey_index $n 0x8003)
	[ -n "$idx" ] && [ "$(val "$S/tenant.out" $n NCCL_IB_PKEY)" = "$idx" ] ||
		e2e_fail "$n: NCCL_IB_PKEY=$(val "$S/tenant.out" $n NCCL_IB_PKEY), smpquery index '$idx'"
done
e2e_log "tenant job: SL 3, UCX_IB_PKEY=0x0003, NCCL_IB_PKEY=$idx (smpquery)"

# 4. Unmapped: the default level's SL; with "default none", nothing.
job "$S/unmapped.out" -p compute -N2 -w cn01,cn02 || e2e_fail "unmapped job failed"
expect_sl "$S/unmapped.out" 0 cn01 cn02
write_map none no
job "$S/none.out" -p compute -N2 -w cn01,cn02 || e2e_fail "unmapped job (default none) failed"
for n in cn01 cn02; do
	[ "$(val "$S/none.out" $n UCX_IB_SL)" = unset ] || e2e_fail "default none: $n has UCX_IB_SL"
	[ "$(val "$S/none.out" $n NCCL_IB_SL)" = unset ] || e2e_fail "default none: $n has NCCL_IB_SL"
done
write_map "level DEFAULT" no
# The job's name is the user's: one that says QOS=gold is not the QOS
# (the map's qos=gold line would give the storage SL, 1).
job "$S/qosname.out" -p compute -N2 -w cn01,cn02 -J 'x QOS=gold' ||
	e2e_fail "the job named QOS=gold failed"
expect_sl "$S/qosname.out" 0 cn01 cn02
e2e_log "unmapped job: SL 0 (default level DEFAULT), also when named 'x QOS=gold'; nothing with default none"

# 5. Across the two partitions: refused with the pair; no node drained.
job "$S/mixed.out" -p mixed -N2
rc=$?
[ "$rc" != 0 ] || e2e_fail "the cross-partition job ran: $(cat "$S/mixed.out")"
grep -q "UCX_IB_SL=" "$S/mixed.out" && e2e_fail "a refused job's task ran"
grep -q "osmqos: .*refused: no path for cn09 HCA-1/P1 -> cn10 HCA-1/P1" "$S/mixed.out" ||
	e2e_fail "the refusal does not name the pair: $(cat "$S/mixed.out" "$S/mixed.out.err")"
drained=$(sinfo -h -N -o '%N %t' | awk '$2 ~ /drain|down/')
[ -z "$drained" ] || e2e_fail "nodes drained or down: $drained"
e2e_log "cross-partition job refused: $(grep -m1 refused "$S/mixed.out" | cut -c1-110)"

# 6. A batch job.
id=$(sbatch --parsable -p storage -N1 -w stor1 -o "$S/batch.out" \
	--wrap 'echo "UCX_IB_SL=${UCX_IB_SL-unset} NCCL_IB_SL=${NCCL_IB_SL-unset}"') ||
	e2e_fail "sbatch failed"
for ((i = 0; i < 150; i++)); do
	squeue -h -j "$id" 2>/dev/null | grep -q . || break
	sleep 0.2
done
grep -qx "UCX_IB_SL=1 NCCL_IB_SL=1" "$S/batch.out" 2>/dev/null ||
	e2e_fail "batch job $id: $(cat "$S/batch.out" 2>&1)"
e2e_log "batch job $id: SL 1"

# 7. Opting out with the job's comment: only where the map allows.
job "$S/optout.out" -p storage -N1 -w cn01 --comment "osmqos=off" || e2e_fail "opt-out job failed"
expect_sl "$S/optout.out" 1 cn01
grep -q "osmqos: note: .*allow-opt-out no" "$S/optout.out" ||
	e2e_fail "the refused opt-out is not noted: $(cat "$S/optout.out")"
write_map "level DEFAULT" yes
job "$S/optout2.out" -p storage -N1 -w cn01 --comment "osmqos=off" || e2e_fail "opt-out job failed"
[ "$(val "$S/optout2.out" cn01 UCX_IB_SL)" = unset ] || e2e_fail "opt-out allowed, but UCX_IB_SL is set"
e2e_log "opt-out honoured only with allow-opt-out yes"

# 8. The Epilog cleaned up after every job.
for ((i = 0; i < 50; i++)); do
	left=$(find "$S/spool" -name '[0-9]*.*' -newer "$MAP" 2>/dev/null; find "$S/spool" -name '[0-9]*.env' 2>/dev/null)
	[ -z "$left" ] && break
	sleep 0.2
done
[ -z "$left" ] || e2e_fail "the Epilog left: $left"
slurm_stop
e2e_log "Slurm part took $((SECONDS - start)) s"
e2e_pass
