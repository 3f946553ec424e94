# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Fabric-in-a-box: run a real opensm (with the built plugin) on an ibsim
# fabric, for end-to-end tests.  Source it from a bash test:
#
#	. "$top_srcdir/tests/e2e/lib.sh"
#	e2e_init smoke                      # temp dir, unique socket, cleanup trap
#	e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
#	e2e_start_opensm qos=TRUE           # extra opensm.conf "key=value" pairs
#	e2e_sim saquery -p --slid 2 --dlid 3
#	e2e_pass                            # or e2e_fail "why"; cleanup is automatic
#
# Every run gets its own IBSIM_SOCKNAME, temp dir and logs, so runs in
# parallel do not see each other.  Processes are ended by the PIDs this file
# recorded, opensm first (it hangs on exit when ibsim is already gone), then
# ibsim: SIGTERM, wait, SIGKILL.  Exit codes follow automake: 0 pass, 1 fail,
# 77 skip, 99 hard error.

: "${top_srcdir:=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}"
: "${top_builddir:=$PWD}"
# Absolute: opensm runs in a directory of its own (e2e_opensm_cwd) and
# reads the paths it is given from there.
top_srcdir=$(cd "$top_srcdir" && pwd) || exit 99
top_builddir=$(cd "$top_builddir" && pwd) || exit 99
: "${E2E_TIMEOUT:=60}"

if [ -f "$top_builddir/tests/e2e/env.sh" ]; then
	. "$top_builddir/tests/e2e/env.sh"
fi
: "${OQ_UMAD2SIM:=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so}"
: "${OQ_IBSIM:=$(command -v ibsim)}"
: "${OQ_OPENSM:=$(PATH=$PATH:/usr/sbin command -v opensm)}"
# Another opensm of the release this build is for (upstream master beside
# 3.3.24: tests/opensm/check-release), and its libraries.
[ -z "${E2E_OPENSM:-}" ] || OQ_OPENSM=$E2E_OPENSM
[ -z "${E2E_OSM_LIBDIR:-}" ] || OQ_OSM_LIBDIR=$E2E_OSM_LIBDIR
# An OpenSM installed under a prefix (configure --with-opensm) finds its
# libraries there.
if [ -n "${OQ_OSM_LIBDIR:-}" ]; then
	export LD_LIBRARY_PATH="$OQ_OSM_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

E2E_NAME=
E2E_DIR=
E2E_IBSIM_PID=
E2E_OPENSM_PID=
E2E_CTL_FD=
E2E_OSM_LOG=
E2E_OSM_CONF=

e2e_log() { printf '[%s %s] %s\n' "$E2E_NAME" "$(date +%T)" "$*"; }

# Stop one process we started: SIGTERM, wait up to $2 s, then SIGKILL.
e2e_stop_pid() {
	local pid=$1 secs=${2:-10} i
	[ -n "$pid" ] || return 0
	kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null; return 0; }
	kill -TERM "$pid" 2>/dev/null
	for ((i = 0; i < secs * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$pid" 2>/dev/null; then
		e2e_log "pid $pid ignored SIGTERM for ${secs}s, sending SIGKILL"
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	return 0
}

e2e_stop_opensm() {
	e2e_stop_pid "$E2E_OPENSM_PID" 15
	E2E_OPENSM_PID=
}

e2e_stop_ibsim() {
	if [ -n "$E2E_CTL_FD" ]; then
		exec {E2E_CTL_FD}>&-
		E2E_CTL_FD=
	fi
	e2e_stop_pid "$E2E_IBSIM_PID" 5
	E2E_IBSIM_PID=
}

e2e_cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	e2e_stop_opensm
	e2e_stop_ibsim
	# A test's own undo (E2E_ON_EXIT: a command), after its processes.
	[ -z "${E2E_ON_EXIT:-}" ] || eval "$E2E_ON_EXIT" || true
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ -n "$E2E_DIR" ]; then
		# Keep what explains a failure in the test's .log file.
		e2e_log "FAILED (rc=$rc); tail of opensm log $E2E_OSM_LOG:"
		tail -n 40 "$E2E_OSM_LOG" 2>/dev/null
		e2e_log "artifacts kept in $E2E_DIR"
	elif [ -n "$E2E_DIR" ] && [ -z "${E2E_KEEP:-}" ]; then
		rm -rf "$E2E_DIR"
	fi
	exit "$rc"
}

e2e_skip() { e2e_log "SKIP: $*"; exit 77; }
e2e_fail() { e2e_log "FAIL: $*"; exit 1; }
e2e_pass() { e2e_log "PASS"; exit 0; }

# e2e_init NAME: temp dir, unique IBSIM_SOCKNAME, cleanup on any exit.
e2e_init() {
	E2E_NAME=$1
	if [ "$OQ_HAVE_E2E" = no ] || [ ! -f "$OQ_UMAD2SIM" ] ||
	   [ -z "$OQ_IBSIM" ] || [ -z "$OQ_OPENSM" ]; then
		e2e_skip "ibsim/umad2sim/opensm not installed" \
			 "(apt-get install ibsim-utils opensm infiniband-diags)"
	fi
	# E2E_TMP: where the run directories go (the demo puts them outside
	# the source tree).
	: "${E2E_TMP:=$top_builddir/tests/e2e/tmp}"
	mkdir -p "$E2E_TMP"
	E2E_DIR=$(mktemp -d "$E2E_TMP/$E2E_NAME.XXXXXX")
	# Abstract socket names: unique per run, never the default one.
	export IBSIM_SOCKNAME="oqe2e-$E2E_NAME-$$-${E2E_DIR##*.}"
	export OSM_TMP_DIR=$E2E_DIR OSM_CACHE_DIR=$E2E_DIR
	unset SIM_HOST
	trap e2e_cleanup EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	e2e_log "dir $E2E_DIR socket $IBSIM_SOCKNAME"
}

# e2e_wait_count PATTERN FILE N [SECS]: wait until FILE has at least N
# lines matching the grep PATTERN; 1 when SECS (default E2E_TIMEOUT) pass
# first.
e2e_wait_count() {
	local pattern=$1 file=$2 n=$3 secs=${4:-$E2E_TIMEOUT} i c
	for ((i = 0; i < secs * 10; i++)); do
		# No file yet: grep prints nothing.
		c=$(grep -c -- "$pattern" "$file" 2>/dev/null)
		[ "${c:-0}" -ge "$n" ] && return 0
		sleep 0.1
	done
	return 1
}

# Wait until grep -q PATTERN FILE succeeds or $3 seconds pass.
e2e_wait_for() {
	e2e_wait_count "$1" "$2" 1 "${3:-$E2E_TIMEOUT}"
}

# e2e_start_ibsim NETFILE [IBSIM ARGS...]: ibsim with a console fifo (see
# e2e_ibsim_cmd); extra arguments go before the net file (-N, -S to lift
# its node and switch limits).
e2e_start_ibsim() {
	local net=$1
	shift
	[ -f "$net" ] || e2e_fail "no such net file: $net"
	mkfifo "$E2E_DIR/ibsim.ctl"
	"$OQ_IBSIM" "$@" -s "$net" <"$E2E_DIR/ibsim.ctl" >"$E2E_DIR/ibsim.log" 2>&1 &
	E2E_IBSIM_PID=$!
	exec {E2E_CTL_FD}>"$E2E_DIR/ibsim.ctl"
	e2e_wait_for "Network simulator ready" "$E2E_DIR/ibsim.log" \
		"${E2E_IBSIM_TIMEOUT:-20}" ||
		e2e_fail "ibsim did not start (see $E2E_DIR/ibsim.log)"
	e2e_log "ibsim pid $E2E_IBSIM_PID on $(basename "$net")"
}

# e2e_ibsim_cmd "Unlink \"node\"[1]": a command for the ibsim console.
e2e_ibsim_cmd() {
	printf '%s\n' "$*" >&"$E2E_CTL_FD"
}

# e2e_write_opensm_conf FILE KEY=VALUE...: an opensm.conf at FILE from
# opensm's defaults with the plugin loaded, logs flushed, no periodic
# sweep, and the given overrides.
e2e_write_opensm_conf() {
	local file=$1 kv key val

	shift
	"$OQ_OPENSM" -c "$file" >/dev/null 2>&1 ||
		e2e_fail "opensm -c could not write a default config"
	for kv in event_plugin_name=osmqos force_log_flush=TRUE \
		sweep_interval=0 "$@"; do
		key=${kv%%=*}
		val=${kv#*=}
		if grep -q "^$key " "$file"; then
			sed -i "s|^$key .*|$key $val|" "$file"
		else
			printf '%s %s\n' "$key" "$val" >>"$file"
		fi
	done
}

# e2e_opensm_conf KEY=VALUE...: the same as $E2E_DIR/opensm.conf
# (E2E_OSM_CONF).
e2e_opensm_conf() {
	E2E_OSM_CONF=$E2E_DIR/opensm.conf
	e2e_write_opensm_conf "$E2E_OSM_CONF" "$@"
}

# e2e_opensm_cwd DIR: make DIR, the working directory for an opensm.
# umad2sim keeps its fake sysfs in sys-PID/ under a process's working
# directory and removes it at exit; a SIGKILLed opensm leaves it behind,
# and a later client whose PID is the same reads its ports (an SM on a
# switch: port 0) instead of its own and cannot open its port ("cannot
# open ibsim0/0 for MADs (Invalid argument)").  Clients run in the test's
# working directory, so an opensm runs in a directory of its own under
# E2E_DIR, which no client uses.
e2e_opensm_cwd() {
	mkdir -p "$1" || e2e_fail "cannot make $1"
}

# e2e_start_opensm [KEY=VALUE...]: opensm with the built plugin on the
# LD_LIBRARY_PATH, in E2E_DIR/opensm-cwd (e2e_opensm_cwd); waits
# (bounded) for SUBNET UP.  OQ_SM_HOST picks the node opensm attaches to
# (default: ibsim's first node).
e2e_start_opensm() {
	e2e_opensm_conf "$@"
	E2E_OSM_LOG=$E2E_DIR/opensm.log
	e2e_opensm_cwd "$E2E_DIR/opensm-cwd"
	(cd "$E2E_DIR/opensm-cwd" &&
	 SIM_HOST=${OQ_SM_HOST:-} \
	 LD_LIBRARY_PATH="$top_builddir/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
	 LD_PRELOAD="$OQ_UMAD2SIM" \
		exec ${E2E_OPENSM_WRAPPER:-} "$OQ_OPENSM" -F "$E2E_OSM_CONF" \
		-f "$E2E_OSM_LOG") >"$E2E_DIR/opensm.out" 2>&1 &
	E2E_OPENSM_PID=$!
	e2e_log "opensm pid $E2E_OPENSM_PID"
	if ! e2e_wait_for "SUBNET UP" "$E2E_OSM_LOG"; then
		kill -0 "$E2E_OPENSM_PID" 2>/dev/null ||
			e2e_fail "opensm exited early: $(tail -n 5 "$E2E_DIR/opensm.out")"
		e2e_fail "no SUBNET UP within ${E2E_TIMEOUT}s"
	fi
	e2e_log "SUBNET UP"
}

# e2e_pr_get NAME SLID DLID [ARGS...]: a PathRecord Get from cn01 for
# SLID -> DLID by `osmqos query --json` (ARGS: --sid SID, ...), the answer
# in $E2E_DIR/NAME.json; fails when there is no JSON answer.
e2e_pr_get() {
	local name=$1 slid=$2 dlid=$3

	shift 3
	SIM_HOST=cn01 e2e_sim "$top_builddir/osmqos" query --json --get \
		--slid "$slid" --dlid "$dlid" "$@" \
		>"$E2E_DIR/$name.json" 2>"$E2E_DIR/$name.err" || true
	jq -e . "$E2E_DIR/$name.json" >/dev/null ||
		e2e_fail "$name: no JSON answer: $(cat "$E2E_DIR/$name.err")"
}

# e2e_pr_sl SLID DLID: the SL (0x..) of saquery's PathRecord SLID ->
# DLID, empty when there is none.
e2e_pr_sl() {
	e2e_sim saquery -p --slid "$1" --dlid "$2" 2>/dev/null |
		sed -n 's/^[[:space:]]*sl\.*\(0x[0-9a-f]*\)$/\1/p'
}

# e2e_expect NAME JQ WANT: jq -r JQ on $E2E_DIR/NAME.json prints WANT.
e2e_expect() {
	local got

	got=$(jq -r "$2" "$E2E_DIR/$1.json")
	[ "$got" = "$3" ] ||
		e2e_fail "$1: $2 is '$got', want '$3' ($(cat "$E2E_DIR/$1.json"))"
}

# e2e_sid_policy FILE SID SL: a policy in OpenSM's grammar with the
# levels DEFAULT (SL 0) and sid_level (SL SL) and one rule that gives
# Service-ID SID sid_level.  e2e_sid_levels SID SL prints it (to append
# it to a policy of other sections).
e2e_sid_policy() {
	e2e_sid_levels "$2" "$3" >"$1"
}

e2e_sid_levels() {
	cat <<POL
qos-levels
    qos-level
        name: DEFAULT
        sl: 0
    end-qos-level
    qos-level
        name: sid_level
        sl: $2
    end-qos-level
end-qos-levels
qos-match-rules
    qos-match-rule
        service-id: $1
        qos-level-name: sid_level
    end-qos-match-rule
end-qos-match-rules
POL
}

# e2e_hup_sweep [PATTERN] [SECS]: SIGHUP opensm (a heavy sweep) and wait
# until its log holds one more line matching the grep PATTERN (default
# "SUBNET UP"); fails when opensm dies or SECS (default 30) pass first.
e2e_hup_sweep() {
	local pat=${1:-SUBNET UP} secs=${2:-30} n i
	n=$(grep -c -- "$pat" "$E2E_OSM_LOG")
	kill -HUP "$E2E_OPENSM_PID" 2>/dev/null ||
		e2e_fail "opensm is gone (before a sweep)"
	for ((i = 0; i < secs * 10; i++)); do
		[ "$(grep -c -- "$pat" "$E2E_OSM_LOG")" -gt "$n" ] && return 0
		kill -0 "$E2E_OPENSM_PID" 2>/dev/null ||
			e2e_fail "opensm died in a sweep:" \
				"$(tail -n 3 "$E2E_DIR/opensm.out")"
		sleep 0.1
	done
	e2e_fail "no new '$pat' within ${secs}s of a SIGHUP"
}

# e2e_sim CMD ARGS...: run a client (saquery, smpquery, osmqos ...) on the
# simulated fabric, attached at $SIM_HOST (default: ibsim's first node).
e2e_sim() {
	LD_PRELOAD="$OQ_UMAD2SIM" "$@"
}

# e2e_ibnetdiscover: cached topology of the running fabric.
e2e_ibnetdiscover() {
	local out=$E2E_DIR/ibnetdiscover.out
	if [ ! -s "$out" ]; then
		e2e_sim ibnetdiscover >"$out" 2>"$E2E_DIR/ibnetdiscover.err" ||
			e2e_fail "ibnetdiscover failed"
	fi
	cat "$out"
}

# e2e_lid DESC [PORT]: LID of the port of the node whose NodeDescription is
# DESC (port 1 of a CA by default; a switch's LID is its port 0's).  Uses
# ibnetdiscover, since SA name lookups need RMPP, which umad2sim lacks.
e2e_lid() {
	local desc=$1 port=${2:-1}
	e2e_ibnetdiscover | awk -v d="\"$desc\"" -v p="$port" '
		/^(Switch|Ca|Rt)[ \t]/ {
			sw = ($1 == "Switch")
			n = index($0, "# " d)
			if (sw && n && match($0, /lid [0-9]+/)) {
				print substr($0, RSTART + 4, RLENGTH - 4); exit
			}
			inode = (n > 0); next
		}
		inode && index($0, "[" p "]") == 1 && match($0, /# lid [0-9]+/) {
			print substr($0, RSTART + 6, RLENGTH - 6); exit
		}'
}

# e2e_guid DESC [PORT]: port GUID (0x%016x) of a CA's port (default 1),
# from ibnetdiscover's "[port](guid)" line of the node named DESC.
e2e_guid() {
	local desc=$1 port=${2:-1}
	e2e_ibnetdiscover | awk -v d="\"$desc\"" -v p="$port" '
		/^(Switch|Ca|Rt)[ \t]/ { inode = index($0, "# " d) > 0; next }
		inode && index($0, "[" p "](") == 1 {
			g = substr($0, length(p) + 4)
			sub(/\).*/, "", g)
			printf "0x%016s\n", g
			exit
		}' | tr ' ' 0
}

# e2e_osmqos ARGS...: the built CLI.
e2e_osmqos() {
	"$top_builddir/osmqos" "$@"
}
