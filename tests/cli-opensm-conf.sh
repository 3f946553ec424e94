#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The partitions file an opensm.conf names (partition_config_file), read
# as the SM reads it when --partitions is not given: named, quoted with
# CRLF line ends, none or "(null)" (OpenSM's default file), missing, a
# directory, a FIFO, without a definition, with errors, opensm.conf on
# standard input, and --partitions over it; the opensm.conf the plugin
# publishes, which plan takes without --opensm-conf.  Each case asserts the exit status, what is said
# on stderr and the SL `match` gives a path to a port of the partition a
# port group names.
: "${top_srcdir:?}" "${top_builddir:?}"
q=$top_builddir/osmqos
net=$top_srcdir/contrib/fabrics/fat-tree-16.net
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
fail() { echo "FAIL: $*"; exit 1; }

. "$top_srcdir/tests/cli-lib.sh"

cat >"$tmp/pol.conf" <<'EOF'
port-groups
    port-group
        name: tenant-ports
        partition: tenant
    end-port-group
end-port-groups
qos-levels
    qos-level
        name: DEFAULT
        sl: 0
    end-qos-level
    qos-level
        name: fast
        sl: 3
    end-qos-level
end-qos-levels
qos-match-rules
    qos-match-rule
        destination: tenant-ports
        qos-level-name: fast
    end-qos-match-rule
end-qos-match-rules
EOF
# stor1's port (0x100001) is the tenant's.
printf 'Default=0x7fff : ALL=full ;\ntenant=0x8001 : 0x0000000000100001=full ;\n' \
	>"$tmp/parts.conf"
echo 'Default=0x7fff : ALL=full ;' >"$tmp/default-only.conf"

# sl CONF [ARGS...]: the SL of cn01 -> stor1 under the policy with
# --opensm-conf CONF (none when empty); stderr in $tmp/err.
sl() {
	local conf=$1
	shift
	run match --json -p "$tmp/pol.conf" -f "$net" \
		${conf:+--opensm-conf "$conf"} "$@" --src cn01 --dst stor1
	[ "$rc" = 0 ] || fail "match exited $rc: $(head -n 3 "$tmp/err")"
	sed -n 's/.*"sl": \([0-9]*\).*/\1/p' "$tmp/out"
}
# quiet CASE: match said nothing of its own on stderr (the policy's
# warnings about an empty group aside).
quiet() {
	! grep -q '^osmqos match:' "$tmp/err" ||
		fail "$1: $(grep '^osmqos match:' "$tmp/err")"
}
# conf LINE: an opensm.conf of one line (and a template, so it is one).
conf() { printf 'qos_max_vls 8\n%s\n' "$1" >"$tmp/opensm.conf"; }

# Named: the SM's partitions, said nowhere (the SM reads the same file).
conf "partition_config_file $tmp/parts.conf"
[ "$(sl "$tmp/opensm.conf")" = 3 ] || fail "the partitions opensm.conf names were not read"
quiet named
# Without opensm.conf, or with --partitions, that file is not read.
[ "$(sl "")" = 0 ] || fail "no opensm.conf: the tenant's partition exists"
[ "$(sl "$tmp/opensm.conf" --partitions "$tmp/default-only.conf")" = 0 ] ||
	fail "--partitions did not win over opensm.conf's file"
# On standard input: read once, for the templates and the files it names.
[ "$(IN=$tmp/opensm.conf sl -)" = 3 ] ||
	fail "an opensm.conf on standard input: its partitions file was not read"
# Quoted, a comment after it, CRLF line ends, the last line wins.
printf 'partition_config_file /nonexistent\r\n  partition_config_file  "%s" # why\r\n' \
	"$tmp/parts.conf" >"$tmp/opensm.conf"
[ "$(sl "$tmp/opensm.conf")" = 3 ] || fail "a quoted path with CRLF was not read"
quiet quoted
# A file that does not exist leaves OpenSM its Default partition: a
# warning.  One that exists but cannot be read here (OpenSM, as root, may
# read it; it blocks on a FIFO) is an error.
conf "partition_config_file $tmp/missing"
[ "$(sl "$tmp/opensm.conf")" = 0 ] || fail "a missing file: the tenant's partition exists"
first_is "$tmp/err" "osmqos match: warning: the partitions file '$tmp/missing' that $tmp/opensm.conf names does not exist; OpenSM then has only its Default partition, and so does this run (give --partitions FILE to read another)"
n=$((n + 1))
mkdir "$tmp/dir"
mkfifo "$tmp/fifo"
for bad in "$tmp/dir" "$tmp/fifo"; do
	conf "partition_config_file $bad"
	expect 2 "osmqos match: cannot read the partitions file '$bad' ($tmp/opensm.conf names it): *; make it readable, or give --partitions FILE" \
		match -p "$tmp/pol.conf" -f "$net" --opensm-conf "$tmp/opensm.conf" \
		--src cn01 --dst stor1
done
# The default path (that of the OpenSM this build is for) missing is no
# news: opensm -c names it, and Debian installs no partitions.conf.
osm_default=$(sed -n 's/^#define OQ_OSM_PARTITIONS_FILE "\(.*\)"$/\1/p' \
	"$top_builddir/config.h")
[ -n "$osm_default" ] || fail "no OQ_OSM_PARTITIONS_FILE in config.h"
if [ ! -e "$osm_default" ]; then
	conf "partition_config_file $osm_default"
	[ "$(sl "$tmp/opensm.conf")" = 0 ] || fail "the default path: SL not 0"
	quiet "the default path, missing"
fi
# No line, or "(null)": OpenSM's default file, said when it is read;
# none there is no news (Debian installs none).
for line in "qos_high_limit 1" "partition_config_file (null)"; do
	conf "$line"
	s=$(sl "$tmp/opensm.conf")
	if [ -r "$osm_default" ]; then
		first_is "$tmp/err" "osmqos match: partitions from $osm_default, OpenSM's default partitions file ($tmp/opensm.conf names none)"
	else
		[ "$s" = 0 ] || fail "$line: no default file, yet SL $s"
		quiet "$line"
	fi
done
# A file without a definition: OpenSM logs it as in error and falls back
# to its Default partition; a warning here.
printf '# no partitions yet\n' >"$tmp/none.conf"
conf "partition_config_file $tmp/none.conf"
[ "$(sl "$tmp/opensm.conf")" = 0 ] || fail "a file without a definition: SL not 0"
grep -q "^$tmp/none.conf: warning: no partition definition: OpenSM logs the file as in error" "$tmp/err" ||
	fail "a file without a definition: $(cat "$tmp/err")"
# A file with errors is an error, as with --partitions.
printf 'tenant=0x8001 : 0x0000000000100001=full ;\nno definition here\n' >"$tmp/bad.conf"
conf "partition_config_file $tmp/bad.conf"
run match -p "$tmp/pol.conf" -f "$net" --opensm-conf "$tmp/opensm.conf" \
	--src cn01 --dst stor1
[ "$rc" = 2 ] || fail "a partitions file with errors: exit $rc, want 2"
grep -q "osmqos match: the partitions file '$tmp/bad.conf' has errors" "$tmp/err" ||
	fail "a partitions file with errors: $(cat "$tmp/err")"

# The other subcommands take it the same way: check without a fabric
# knows the partition, drift and tables say so in their --help.
conf "partition_config_file $tmp/parts.conf"
expect 0 "*: valid: *, 0 warnings" check "$tmp/pol.conf" --opensm-conf "$tmp/opensm.conf"
expect 0 "*: valid: *, 1 warning" check "$tmp/pol.conf" --opensm-conf "$tmp/opensm.conf" \
	--partitions "$tmp/default-only.conf"
expect 0 "*: valid: *, 0 warnings" check "$tmp/pol.conf" --fabric "$net" \
	--opensm-conf "$tmp/opensm.conf"
# A partitions file opensm.conf names that does not exist: check counts
# it among its warnings and checks the partition names against what
# OpenSM then has, its Default partition alone (as --partitions with a
# Default-only file does); without a fabric as with one.
ppol=$top_srcdir/tests/data/check-partitions-policy.conf
conf "partition_config_file $tmp/missing"
for fabric in "" "$net"; do
	expect 0 "$ppol: valid: *, $([ -n "$fabric" ] && echo 4 || echo 3) warnings" \
		check "$ppol" --opensm-conf "$tmp/opensm.conf" ${fabric:+--fabric "$fabric"}
	grep -qF "$tmp/opensm.conf: warning: partitions file '$tmp/missing' does not exist; OpenSM then has only its Default partition, and so does this check" "$tmp/err" &&
		grep -qF "$ppol:4:20: warning: partition 'storage' is not defined: there is no partitions file, and OpenSM then has only its Default partition" "$tmp/err" ||
		fail "check, a missing partitions file${fabric:+ and a fabric}: $(cat "$tmp/err")"
done
expect 0 "$ppol: valid: *, 2 warnings" \
	check "$ppol" --opensm-conf "$tmp/opensm.conf" --partitions "$tmp/default-only.conf"
# The default path missing is no news, but OpenSM still has only its
# Default partition.
if [ ! -e "$osm_default" ]; then
	conf "partition_config_file $osm_default"
	expect 0 "$ppol: valid: *, 2 warnings" \
		check "$ppol" --opensm-conf "$tmp/opensm.conf"
	! grep -q "does not exist" "$tmp/err" ||
		fail "check, the default path missing: $(cat "$tmp/err")"
fi
for cmd in drift tables predict export; do
	"$q" "$cmd" --help | tr -s ' \n' ' ' | grep -q -- "--partitions FILE.*default: the one --opensm-conf names" ||
		fail "osmqos $cmd --help does not say where --partitions defaults from"
done
# The defaults are the files of the OpenSM this build is for, as its
# --help names them (/etc/opensm, or /etc/rdma in Fedora's and RHEL's
# builds): doctor's opensm.conf and the partitions file read when
# opensm.conf names none.
# The opensm configure found (--with-opensm), else the one on PATH.
[ -f "$top_builddir/tests/e2e/env.sh" ] && . "$top_builddir/tests/e2e/env.sh"
osm=${OQ_OPENSM:-$(PATH=$PATH:/usr/sbin command -v opensm)}
[ -z "${OQ_OSM_LIBDIR:-}" ] ||
	export LD_LIBRARY_PATH="$OQ_OSM_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -n "$osm" ]; then
	osm_help=$("$osm" --help 2>&1)
	osm_conf=$(sed -n 's/^ *\(\/.*\) will be used (if exists)\.$/\1/p' <<<"$osm_help")
	# --Pconfig's line, not --qos_policy_file's of the same words.
	osm_parts=$(sed -n "/^--Pconfig/,/^\$/s/^ *The default name is '\(.*\)'\.\$/\1/p" \
		<<<"$osm_help")
	[ -n "$osm_conf" ] && [ -n "$osm_parts" ] ||
		fail "$osm --help names no default opensm.conf or partitions.conf"
	"$q" doctor --help | tr -s ' \n' ' ' | grep -qF "(default $osm_conf)" ||
		fail "doctor --help does not default to $osm_conf"
	"$q" tables --help | tr -s ' \n' ' ' |
		grep -qF "or $osm_parts if it names none" ||
		fail "tables --help does not default to $osm_parts"
fi
# The opensm.conf a plugin publishes (plan and drift take it without -c):
# one that is the SM's, read with the partitions it names; a relative
# path, not read (a note says why); one gone since, an error.
pub=$tmp/pub
mkdir -p "$pub"
pubconf() {
	printf 'osmqos_opensm_config_info{path="%s"} 1\n' "$1" >"$pub/osmqos.prom"
}
printf 'partition_config_file %s\n' "$tmp/parts.conf" >"$tmp/sm.conf"
printf 'Default=0x7fff : ALL=full ;\ntenant=0x8001 : ALL=full ;\n' >"$tmp/parts.conf"
pubconf "$tmp/sm.conf"
run plan "$tmp/pol.conf" -p "$tmp/pol.conf" -f "$net" -d "$pub"
[ "$rc" = 0 ] && grep -qxF "osmqos plan: note: opensm.conf: $tmp/sm.conf, the running opensm's (as its osmqos publishes); --opensm-conf gives another" "$tmp/err" &&
	! grep -q "partition 'tenant' is not defined" "$tmp/err" ||
	fail "plan with the published opensm.conf: rc $rc: $(cat "$tmp/err")"
pubconf "sm.conf"
run plan "$tmp/pol.conf" -p "$tmp/pol.conf" -f "$net" -d "$pub"
grep -qF "osmqos plan: note: the opensm.conf the running opensm uses, 'sm.conf' (as its osmqos publishes), is a relative path (opensm's working directory's), so it is not read here: compiled with OpenSM's built-in QoS templates" "$tmp/err" ||
	fail "plan with a relative published opensm.conf: rc $rc: $(cat "$tmp/err")"
pubconf "$tmp/gone.conf"
expect 2 "osmqos plan: cannot read $tmp/gone.conf, the opensm.conf the running opensm uses (as its osmqos publishes in $pub): No such file or directory; give --opensm-conf FILE (the file opensm started with is gone)" \
	plan "$tmp/pol.conf" -p "$tmp/pol.conf" -f "$net" -d "$pub"
echo "PASS: cli-opensm-conf ($n first lines checked)"
