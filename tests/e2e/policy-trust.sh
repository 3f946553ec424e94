#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# What the plugin reads back from its publish directory decides the
# policy in force, so only what it wrote itself is read back.  A policy
# another user left as the policy in force before the start (a file of
# theirs, a symlink, a file others may write) is not put in force when
# the operator's file is missing: the SA does not answer its SL.  In a
# publish directory other users can write without the sticky bit,
# OpenSM reads the operator's file itself, not a copy there, until the
# directory is closed.  A relative qos_policy_file and publish_dir= are
# published as the absolute paths the plugin reads (opensm's working
# directory joined), so `osmqos status` run elsewhere finds them.
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init policy-trust

sid=0x1000000000000100
pol=$E2E_DIR/qos-policy.conf
e2e_sid_policy "$pol" $sid 2
e2e_sid_policy "$E2E_DIR/foreign.conf" $sid 7
missing=$E2E_DIR/missing-policy.conf
e2e_start_ibsim "$top_srcdir/contrib/fabrics/two-switch.net"

start() {
	local name=$1 policy=$2 dir=$3

	e2e_start_opensm qos=TRUE "qos_policy_file=$policy" \
		"event_plugin_options=publish_dir=$dir audit=off"
	e2e_wait_for "osmqos: sweep 1: published" "$E2E_OSM_LOG" 60 ||
		e2e_fail "$name: the plugin published no sweep"
}
stop() {
	e2e_stop_opensm
	mv "$E2E_OSM_LOG" "$E2E_DIR/opensm-$1.log"
}
sl() {
	e2e_sim "$top_builddir/osmqos" query --json --slid "$(e2e_lid "h1 HCA-1")" \
		--dlid "$(e2e_lid "h4 HCA-1")" --sid $sid 2>"$E2E_DIR/pr.err" |
		jq -r '.records[0].sl'
}
# refused NAME DIR WHY: started on a missing file with a policy of SL 7
# as DIR's policy in force, that policy is not in force; the log says
# WHY (a grep pattern).
refused() {
	start "$1" "$missing" "$2"
	grep -q -- "$3" "$E2E_OSM_LOG" || e2e_fail "$1: no error saying '$3'"
	grep -q "is in force again" "$E2E_OSM_LOG" &&
		e2e_fail "$1: the other user's policy was put in force"
	grep -q "stays on OpenSM.s" "$E2E_OSM_LOG" ||
		e2e_fail "$1: the log does not say the fabric stays on the templates"
	[ "$(sl)" != 7 ] || e2e_fail "$1: the SA answers the other user's SL 7"
	stop "$1"
	e2e_log "$1: not put in force"
}

# A directory every user can write, without the sticky bit.
pubw=$E2E_DIR/pubw
mkdir -m 0777 "$pubw"
chmod 0777 "$pubw"
cp "$E2E_DIR/foreign.conf" "$pubw/osmqos-policy-in-force.conf"
chown nobody "$pubw/osmqos-policy-in-force.conf"
refused open-dir "$pubw" \
	"publish directory $pubw is writable by every user (mode 0777) without the sticky bit"

# There OpenSM reads the operator's file, not a copy another user could
# replace; closed, the copy again.
start open-copy "$pol" "$pubw"
[ "$(sl)" = 2 ] || e2e_fail "open-copy: the policy's SL 2 not answered: $(sl)"
grep -q "Loading QoS policy file ($pubw/osmqos-last-good-policy.conf)" "$E2E_OSM_LOG" &&
	e2e_fail "open-copy: OpenSM reads a copy in a directory others can write"
grep -q "Loading QoS policy file ($pol)" "$E2E_OSM_LOG" ||
	e2e_fail "open-copy: OpenSM does not read the operator's file"
chmod 0755 "$pubw"
e2e_hup_sweep "published"
grep -q "publish directory $pubw is no longer open to other users: OpenSM reads its policy copy" "$E2E_OSM_LOG" ||
	e2e_fail "open-copy: closing the directory is not said"
grep -q "OpenSM now reads the last good policy from $pubw/osmqos-last-good-policy.conf" "$E2E_OSM_LOG" ||
	e2e_fail "open-copy: OpenSM not pointed at the copy once the directory is closed"
stop open-copy
e2e_log "open-copy: OpenSM reads a copy only in a closed directory"

# With the sticky bit: another user's file.
rm -f "$pubw"/osmqos-*
chmod 1777 "$pubw"
cp "$E2E_DIR/foreign.conf" "$pubw/osmqos-policy-in-force.conf"
chown nobody "$pubw/osmqos-policy-in-force.conf"
refused foreign-owner "$pubw" \
	"$pubw/osmqos-policy-in-force.conf is owned by another user (uid 65534"

# A closed directory: a file others may write, a symlink.
pub=$E2E_DIR/pub
mkdir -m 0755 "$pub"
cp "$E2E_DIR/foreign.conf" "$pub/osmqos-policy-in-force.conf"
chmod 0666 "$pub/osmqos-policy-in-force.conf"
refused others-write "$pub" \
	"$pub/osmqos-policy-in-force.conf is writable by other users"
rm -f "$pub/osmqos-policy-in-force.conf"
chmod 0600 "$E2E_DIR/foreign.conf"
ln -s "$E2E_DIR/foreign.conf" "$pub/osmqos-policy-in-force.conf"
refused symlink "$pub" "$pub/osmqos-policy-in-force.conf is a symbolic link"

# Relative paths: published as read, from opensm's working directory.
cwd=$E2E_DIR/opensm-cwd
mkdir -p "$cwd/pubrel"
cp "$pol" "$cwd/rel-policy.conf"
start relative rel-policy.conf pubrel
[ "$(sl)" = 2 ] || e2e_fail "relative: the policy's SL 2 not answered: $(sl)"
json=$cwd/pubrel/osmqos-bandwidth.json
[ "$(jq -r .policy.path "$json")" = "$cwd/rel-policy.conf" ] ||
	e2e_fail "relative: JSON policy.path is $(jq -r .policy.path "$json")"
grep -qF "osmqos_policy_info{path=\"$cwd/rel-policy.conf\"," "$cwd/pubrel/osmqos.prom" ||
	e2e_fail "relative: osmqos_policy_info does not name the absolute path"
grep -q "Loading QoS policy file ($cwd/pubrel/osmqos-last-good-policy.conf)" "$E2E_OSM_LOG" ||
	e2e_fail "relative: OpenSM does not read the copy by its absolute path"
grep -q "qos_policy_file rel-policy.conf is relative to opensm's working directory: osmqos reads and publishes it as $cwd/rel-policy.conf" "$E2E_OSM_LOG" ||
	e2e_fail "relative: the log does not say which file is read"
(cd / && e2e_osmqos status -d "$cwd/pubrel") >"$E2E_DIR/status-relative.txt" 2>&1
grep -q "$cwd/rel-policy.conf" "$E2E_DIR/status-relative.txt" ||
	e2e_fail "relative: status does not name the file: $(cat "$E2E_DIR/status-relative.txt")"
stop relative
e2e_log "relative: published as the absolute paths read"
e2e_pass
