# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# What osmqos-prolog, osmqos-task-prolog and osmqos-epilog share; they
# source it from their own directory.  Sets map (the job map: --map FILE
# among the script's arguments, else /etc/osmqos/slurm-jobs.conf) and job
# (SLURM_JOB_ID, digits only, else empty).

map=/etc/osmqos/slurm-jobs.conf
if [ "${1:-}" = --map ] && [ -n "${2:-}" ]; then
	map=$2
fi
job=${SLURM_JOB_ID:-}
case $job in
'' | *[!0-9]*) job= ;;
esac

# oq_setting KEY DEFAULT: the value of the map's "KEY VALUE" line, %n
# made the node's name.  Nothing else of the map is read here: osmqos
# job-env reads it and reports its errors as FILE:LINE:COL.
oq_setting() {
	oq_v=$(sed -n -e 's/#.*//' \
		-e "s/^[[:space:]]*$1[[:space:]][[:space:]]*\([^[:space:]]*\)[[:space:]]*\$/\1/p" \
		"$map" | head -n 1)
	oq_v=${oq_v:-$2}
	case $oq_v in
	*%n*) oq_v=$(printf '%s\n' "$oq_v" |
		sed "s/%n/${SLURMD_NODENAME:-node}/g") ;;
	esac
	printf '%s\n' "$oq_v"
}

# The job's files: SPOOL/JOB.env, .refused, .error.
oq_base() {
	printf '%s/%s\n' "$(oq_setting spool /run/osmqos/slurm)" "$job"
}
