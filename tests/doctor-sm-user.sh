#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# osmqos doctor --sm-user run as root judges the files as opensm's user
# (nobody here) would, not as root: a policy it cannot read, or behind a
# directory it cannot search, and publish and audit directories it cannot
# reach or write are each an error naming the path and the fix; a policy
# it reads through its primary group is ok.  Run as a third user, or for
# a uid with no passwd entry (its groups unknown), doctor says it could
# not check (a warning), never ok.
set -u
name=doctor-sm-user
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/doctor-lib.sh"
[ "$(id -u)" = 0 ] || { echo "SKIP: doctor-sm-user: needs root"; exit 77; }
id nobody >/dev/null 2>&1 || { echo "SKIP: doctor-sm-user: no user nobody"; exit 77; }
# Every directory above $d searchable by all: only $d's mode decides.
chmod 0755 "$dir"
d=$dir/sm
pol=$d/qos-policy.conf
mkdir -m 0700 "$d" "$d/pub"
chown nobody "$d/pub"
cp "$top_srcdir/tests/data/match-policy.conf" "$pol"
chmod 0600 "$pol"
export OSM_CACHE_DIR=$dir/cache

# conf FILE AUDIT: opensm.conf of the policy $pol, publishing in $d/pub.
conf() {
	printf '%s\n' "qos TRUE" "qos_policy_file $pol" \
		"event_plugin_name osmqos" \
		"event_plugin_options publish_dir=$d/pub audit=$2" \
		"routing_engine minhop" >"$1"
	chmod 0644 "$1"
}


# has NAME LINE: the output has that line, exactly.
has() {
	grep -qxF -- "$2" "$dir/$1.out" || bad "$1: no line '$2': $(cat "$dir/$1.out")"
}

# 1. All behind a directory of root's alone (0700): nobody reaches none.
conf "$dir/c1.conf" "$d/osmqos-audit.log"
doctor private 2 -c "$dir/c1.conf" --sm-user nobody
has private "error    policy-read      opensm's user (nobody) cannot reach $pol: $d: Permission denied; the plugin keeps the last good policy, or runs none"
has private "                          fix: let nobody search $d (e.g. chmod o+x $d), or keep the policy where it can"
has private "error    publish-dir      publish directory $d/pub: opensm's user (nobody) cannot reach it: $d: Permission denied"
has private "error    audit-dir        audit trail directory $d is not writable by opensm's user (nobody): Permission denied"
has private "                          fix: chown nobody $d, or set event_plugin_options audit=DIR/osmqos-audit.log in a directory it can write"
n=$(grep -cE '^(warning|error) ' "$dir/private.out")
[ "$n" = 3 ] || bad "private: $n checks not ok, want 3: $(cat "$dir/private.out")"
"$osmqos" doctor --plugin "$lib" --opensm "$opensm" -c "$dir/c1.conf" \
	--sm-user nobody --json >"$dir/private.json"
jq -e '.worst == "error" and any(.checks[]; .check == "policy-read" and
	.status == "error" and (.fix | test("chmod o\\+x")))' \
	"$dir/private.json" >/dev/null || bad "private JSON: $(cat "$dir/private.json")"

# 2. $d searchable, the policy still root's 0600: nobody cannot read it.
chmod 0755 "$d"
doctor unreadable 2 -c "$dir/c1.conf" --sm-user nobody
has unreadable "error    policy-read      $pol is not readable by opensm's user (nobody): Permission denied; the plugin keeps the last good policy, or runs none"
has unreadable "                          fix: chown nobody $pol, or chmod a+r $pol (root may keep it)"
grep -q "^ok  *publish-dir  *publish directory $d/pub: writable" "$dir/unreadable.out" ||
	bad "unreadable: publish-dir not ok: $(cat "$dir/unreadable.out")"
n=$(grep -cE '^(warning|error) ' "$dir/unreadable.out")
[ "$n" = 2 ] || bad "unreadable: $n checks not ok, want 2: $(cat "$dir/unreadable.out")"

# 3. Readable through nobody's primary group, the audit trail in a
# directory of its own: every check ok.
chgrp "$(id -g nobody)" "$pol"
chmod 0640 "$pol"
mkdir "$d/audit" && chown nobody "$d/audit"
conf "$dir/c3.conf" "$d/audit/osmqos-audit.log"
doctor group 0 -c "$dir/c3.conf" --sm-user nobody
has group "ok       policy-read      $pol: readable by opensm's user (nobody)"
has group "osmqos doctor: every check ok"

# 4. Run as daemon, neither root nor nobody: it cannot tell.
if id daemon >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	chmod 0644 "$pol"
	setpriv --reuid=daemon --regid="$(id -g daemon)" --clear-groups \
		"$osmqos" doctor --plugin "$lib" --opensm "$opensm" \
		-c "$dir/c3.conf" --sm-user nobody >"$dir/as-daemon.out" 2>&1
	rc=$?
	[ "$rc" = 1 ] || bad "as-daemon: exit $rc, want 1: $(cat "$dir/as-daemon.out")"
	has as-daemon "warning  policy-read      $pol: cannot check whether opensm's user (nobody) can read it: doctor runs as uid $(id -u daemon) (daemon), neither root nor that user"
	has as-daemon "                          fix: run osmqos doctor as root, or as nobody (opensm's user)"
	has as-daemon "warning  publish-dir      publish directory $d/pub: cannot check whether opensm's user (nobody) can write there: doctor runs as uid $(id -u daemon) (daemon), neither root nor that user"
else
	echo "doctor-sm-user: a third user not checked (needs user daemon, setpriv)"
fi

# 5. A uid with no passwd entry: its groups unknown, it cannot tell.
uid=4000000
if ! getent passwd "$uid" >/dev/null; then
	doctor no-passwd 1 -c "$dir/c3.conf" --sm-user "$uid"
	has no-passwd "warning  policy-read      $pol: cannot check whether opensm's user ($uid) can read it: uid $uid has no passwd entry, so its groups are unknown"
	has no-passwd "                          fix: run osmqos doctor as $uid, opensm's user"
fi

[ "$fail" = 0 ] && echo "doctor-sm-user: the policy and directories judged as opensm's user"
exit "$fail"
