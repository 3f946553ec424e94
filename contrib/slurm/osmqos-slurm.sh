# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# What osmqos-prolog, osmqos-task-prolog and osmqos-epilog share; they
# source it from the directory of their own file, a symlink to them
# followed (slurm.conf's Prolog=/etc/slurm/prolog.d/* names links).  Sets
# map (the job map: --map FILE among the script's arguments, else
# /etc/osmqos/slurm-jobs.conf) and job (SLURM_JOB_ID, digits only, else
# empty).

map=/etc/osmqos/slurm-jobs.conf
if [ "${1:-}" = --map ] && [ -n "${2:-}" ]; then
	map=$2
fi
job=${SLURM_JOB_ID:-}
case $job in
'' | *[!0-9]*) job= ;;
esac
# What the scripts' messages cite for the map's settings: the man page,
# and docs/jobs.md where the packages install it (Debian compresses it).
oq_doc="osmqos(8), FILES; jobs.md in /usr/share/doc/osmqos/docs/"

# oq_map_text: the map as osmqos job-env reads it: without the UTF-8 byte
# order mark an editor may have put at its start.
oq_map_text() {
	sed -e '1s/^\xef\xbb\xbf//' -- "$map" 2>/dev/null
}

# oq_setting KEY DEFAULT: the value of the map's "KEY VALUE" line, %n
# made the node's name.  Nothing else of the map is read here: osmqos
# job-env reads it and reports its errors as FILE:LINE:COL.
oq_setting() {
	oq_v=$(oq_map_text | sed -n -e 's/#.*//' \
		-e "s/^[[:space:]]*$1[[:space:]][[:space:]]*\([^[:space:]]*\)[[:space:]]*\$/\1/p" |
		head -n 1)
	oq_v=${oq_v:-$2}
	case $oq_v in
	*%n*) oq_v=$(printf '%s\n' "$oq_v" |
		sed "s/%n/${SLURMD_NODENAME:-node}/g") ;;
	esac
	printf '%s\n' "$oq_v"
}

# oq_reason FILE: the line of job-env's stderr in FILE that says why it
# refused the job or failed: its refusal, else its first error, else the
# first line that is no note, warning, hint or "Try '...'" (the policy's
# lint warnings come before either).
oq_reason() {
	grep -m 1 -e '^osmqos job-env: refused: ' -e ': error: ' -- "$1" \
		2>/dev/null && return 0
	grep -v -m 1 -e ': note: ' -e ': warning: ' -e '^[[:space:]]' \
		-e '^(' -e "^Try '" -e '^#' -e '^$' -- "$1" 2>/dev/null
}

# oq_refusal FILE: what the job's output says of job-env's refusal in
# FILE: the line oq_reason picks and the indented lines that continue it,
# not the policy's warnings and hints printed before it (the operator's
# to read, in the Prolog's log).  False when FILE has no reason.
oq_refusal() {
	OQ_R=$(oq_reason "$1")
	[ -n "$OQ_R" ] || return 1
	export OQ_R
	awk 'on && /^[ \t]/ { print; next }
		on { exit }
		$0 == ENVIRON["OQ_R"] { on = 1; print }' "$1"
}

# oq_offline_why FILE: true when job-env's answer in FILE (its standard
# output or error) was decided offline by the local policy because the
# SA could not be asked; prints why it could not (job-env's note).
oq_offline_why() {
	oq_w='(# |osmqos job-env: )note: the SA cannot be asked \('
	grep -q -E -e "^$oq_w" \
		-e '^# the SA was not asked: .*\(the SA cannot be reached\)' \
		-- "$1" 2>/dev/null || return 1
	oq_w="s/^$oq_w(.*)\\); the policy decided offline\$/\\2/p"
	oq_w=$(sed -n -E -e "$oq_w" -- "$1" 2>/dev/null | head -n 1)
	printf '%s\n' "${oq_w:-the answer does not say why}"
}

# oq_user_reads FILE UID GID: can the user UID (group GID and the user's
# own groups) read FILE, as the TaskProlog must?  0 yes, 1 no, both asked
# as that user (setpriv); 2 when that could not be asked and FILE is not
# readable by others through directories others may search (a group may
# still let the user read it: a doubt, not a no).
oq_user_reads() {
	case $2 in
	'' | *[!0-9]*) ;;
	*)
		oq_r=$(setpriv --reuid="$2" --regid="${3:-$2}" \
			--init-groups sh -c \
			'if test -r "$1"; then echo y; else echo n; fi' \
			sh "$1" 2>/dev/null)
		case $oq_r in
		y) return 0 ;;
		n) return 1 ;;
		esac
		;;
	esac
	oq_f=$(readlink -f -- "$1" 2>/dev/null) || return 2
	oq_m=$(stat -c %a -- "$oq_f" 2>/dev/null) || return 2
	[ $((0$oq_m & 4)) -ne 0 ] || return 2
	while [ "$oq_f" != / ]; do
		oq_f=$(dirname -- "$oq_f")
		oq_m=$(stat -c %a -- "$oq_f" 2>/dev/null) || return 2
		[ $((0$oq_m & 1)) -ne 0 ] || return 2
	done
	return 0
}

# oq_unseen FILE: this user cannot tell FILE from a missing file: a
# directory above it exists but does not let them through.
oq_unseen() {
	oq_d=$1
	while :; do
		oq_d=$(dirname -- "$oq_d")
		if [ -d "$oq_d" ] && [ ! -x "$oq_d" ]; then
			return 0
		fi
		case $oq_d in
		/ | .) return 1 ;;
		esac
	done
}

# The job's files: SPOOL/JOB.env, .refused, .error.
oq_base() {
	printf '%s/%s\n' "$(oq_setting spool /run/osmqos/slurm)" "$job"
}

# oq_dir_safe DIR: DIR is root's and only root writes into it, and so is
# every directory above it, but for sticky ones (/tmp: nobody else can
# move root's directory out of them); a symlink on the way is root's, and
# the path it leads to passes the same test.  Otherwise a user could plant
# or swap a job's files (JOB.env of another user's job, a symlink the
# Prolog writes through).  2: DIR is not an absolute path (it would
# depend on the directory slurmd runs in).
oq_dir_safe() {
	case $1 in
	/*) ;;
	*) return 2 ;;
	esac
	oq_path_safe "$1" || return 1
	oq_real=$(readlink -f -- "$1" 2>/dev/null) || return 1
	[ "$oq_real" = "$1" ] || oq_path_safe "$oq_real"
}

oq_path_safe() {
	case $1 in
	/*) ;;
	*) return 1 ;;
	esac
	oq_d=$1
	oq_top=true
	while :; do
		if [ -L "$oq_d" ]; then
			[ "$(stat -c %u -- "$oq_d" 2>/dev/null)" = 0 ] ||
				return 1
		fi
		oq_s=$(stat -L -c '%u %a' -- "$oq_d" 2>/dev/null) || return 1
		[ "${oq_s%% *}" = 0 ] || return 1
		oq_m=$((0${oq_s#* }))
		# 022: group or others may write; 01000: sticky.
		if [ $((oq_m & 18)) -ne 0 ]; then
			$oq_top && return 1
			[ $((oq_m & 512)) -ne 0 ] || return 1
		fi
		[ "$oq_d" = / ] && return 0
		oq_d=$(dirname -- "$oq_d")
		oq_top=false
	done
}
