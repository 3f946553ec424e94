# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The fabric of the job tests (job-env.sh, slurm.sh), sourced after lib.sh:
# fat-tree-16 under ibsim, the job-class policy of tests/e2e/data/jobs/,
# and a partitions.conf that isolates a tenant: cn10-cn12 share P_Key
# 0x0003 only, the other hosts 0x0002, and every port is only a limited
# member of the Default partition (enough to talk to the SA, not to each
# other).  opensm runs with the plugin.
#
#	jobs_fabric_up
#	... $JOBS_TOPO (ibnetdiscover with LIDs), $JOBS_POL, $JOBS_PARTS

JOBS_POL=
JOBS_PARTS=
JOBS_TOPO=
JOBS_AUDIT=

# jobs_guids HOST...: "GUID=full, ..." of the hosts' HCA ports.
jobs_guids() {
	local h g out=
	for h in "$@"; do
		g=$(e2e_guid "$h HCA-1")
		[ -n "$g" ] || e2e_fail "no port GUID for $h"
		out="$out${out:+, }$g=full"
	done
	echo "$out"
}

jobs_fabric_up() {
	JOBS_POL=$top_srcdir/tests/e2e/data/jobs/qos-policy.conf
	JOBS_PARTS=$E2E_DIR/partitions.conf
	JOBS_TOPO=$E2E_DIR/topo.ibnd
	JOBS_AUDIT=$E2E_DIR/osmqos-audit.log
	e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
	# Directed-route discovery needs no SM: the GUIDs, for partitions.
	e2e_ibnetdiscover >/dev/null
	cat >"$JOBS_PARTS" <<PARTS
Default=0x7fff, ipoib : ALL=limited, SELF=full ;
cluster=0x0002 : $(jobs_guids cn01 cn02 cn03 cn04 cn05 cn06 cn07 cn08 cn09 \
	stor1 stor2 stor3 stor4) ;
tenant=0x0003 : $(jobs_guids cn10 cn11 cn12) ;
PARTS
	e2e_start_opensm qos=TRUE "qos_policy_file=$JOBS_POL" \
		"partition_config_file=$JOBS_PARTS"
	# Again, now with the LIDs the SM gave.
	rm -f "$E2E_DIR/ibnetdiscover.out"
	e2e_ibnetdiscover >"$JOBS_TOPO"
	grep -q '"cn10 HCA-1" lid [1-9]' "$JOBS_TOPO" ||
		e2e_fail "no LIDs in the topology after SUBNET UP"
}

# jobs_sl HOST SRC DST SAQUERY-ARGS...: the SL saquery's PathRecord
# answer gives, asked from HOST's port.
jobs_sl() {
	local host=$1 s d
	s=$(e2e_lid "$2 HCA-1")
	d=$(e2e_lid "$3 HCA-1")
	shift 3
	SIM_HOST=$host e2e_sim "${OQ_SAQUERY:-saquery}" -p --slid "$s" \
		--dlid "$d" "$@" 2>/dev/null |
		sed -n 's/^[[:space:]]*sl\.*\(0x[0-9a-fA-F]*\)$/\1/p' |
		head -n 1 | while read -r v; do echo $((v)); done
}

# jobs_match_sl SRC DST MATCH-ARGS...: the SL `osmqos match` gives.
jobs_match_sl() {
	local s=$1 d=$2
	shift 2
	e2e_osmqos match --json --policy "$JOBS_POL" --fabric "$JOBS_TOPO" \
		--partitions "$JOBS_PARTS" --src "$s HCA-1/P1" \
		--dst "$d HCA-1/P1" "$@" | jq -r .sl
}

# jobs_pkey_index HOST PKEY: the index of PKEY (full member) in HOST's
# P_Key table, as smpquery reads it.
jobs_pkey_index() {
	local lid
	lid=$(e2e_lid "$1 HCA-1")
	e2e_sim "${OQ_SMPQUERY:-smpquery}" pkeys "$lid" 2>/dev/null |
		tr -s ' \t' '\n' | grep -i '^0x' |
		awk -v k="$2" 'BEGIN { k = tolower(k) }
			tolower($0) == k { print n; exit } { n++ }'
}
