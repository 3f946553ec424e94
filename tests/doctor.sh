#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# osmqos doctor on a good SM setup (exit 0, every check ok), on four
# opensm.conf forms OpenSM reads as good (a comment after a value, a
# quoted value, event_plugin_name with a comma), and on setups
# with one thing broken each, as osmqos(8) lists the checks: qos FALSE or
# lower case, osmqos not in event_plugin_name (or only after a '#', or
# behind a second comma), policy= and qos_policy_file apart, no plugin
# library, a library built for another OpenSM, an invalid policy, no
# policy file, a policy with intents under opensm_policy=direct, an
# option value the plugin replaces, an event_plugin_options line OpenSM
# cuts, no publish directory, no audit
# directory (the fix names a file in one), an audit= the plugin refuses
# (a directory, a file that is not a trail, a symbolic link, a FIFO, a
# file of another user), a routing engine that keeps the template's SL2VL under a
# policy with sl2vl-scopes, a standby with other QoS settings or an extra
# one (compared as OpenSM reads them: a key left out is its default).  Each must be named, alone, with its level and a fix, and set the
# exit status (1 warning, 2 error); audit=off checks no directory; a
# relative policy=, qos_policy_file or publish_dir= is a warning and is
# not read from doctor's own working directory.
# A publish directory others can write (0777, a shared sticky one like
# /tmp, another owner's), a policy file others can write: each a
# warning; run as another user than opensm's, a directory it cannot
# write is a warning (not checked as opensm's user), not an error.
# Under opensm_policy=direct a policy stock OpenSM rejects is a warning;
# so is a partition partitions.conf does not define, and a node-name map
# OpenSM ignores; and so is OpenSM's own parser refusing the copy it
# reads, as the running plugin publishes it, and what a stale
# publication (no opensm master rewrites it) says of it either way.  A
# node-name map that is a FIFO or a device (opensm hangs at startup) is
# an error.
# A publish directory whose lock names a live opensm of another
# opensm.conf, or two of this one, is a warning.
# Without --plugin the library is looked for where dlopen() finds it.
# --sm-user's uid is read as every number of the CLI and named by its
# passwd entry.
set -u
name=doctor
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/doctor-lib.sh"
export OSM_CACHE_DIR=$dir/cache
mkdir -p "$dir/cache" "$dir/pub" "$dir/audit"
pol=$dir/qos-policy.conf
cp "$top_srcdir/contrib/policies/fat-tree-16.conf" "$pol"

# conf FILE [KEY VALUE]...: a good opensm.conf, with the given keys
# replaced (a later line wins in OpenSM, and in doctor).
conf() {
	local f=$1
	shift
	{
		echo "qos TRUE"
		echo "qos_policy_file $pol"
		echo "event_plugin_name osmqos"
		echo "event_plugin_options policy=$pol publish_dir=$dir/pub audit=$dir/audit/osmqos-audit.log"
		echo "routing_engine minhop"
		while [ $# -ge 2 ]; do
			echo "$1 $2"
			shift 2
		done
	} >"$f"
}


# broken NAME CHECK LEVEL [ARGS...]: exactly that check is not ok.
broken() {
	local name=$1 check=$2 level=$3 want=2 n
	shift 3
	[ "$level" = warning ] && want=1
	doctor "$name" "$want" "$@"
	grep -q "^$level  *$check " "$dir/$name.out" ||
		bad "$name: no '$level $check' line: $(cat "$dir/$name.out")"
	grep -A1 "^$level  *$check " "$dir/$name.out" | grep -q ' fix: ' ||
		bad "$name: the $check $level says no fix"
	n=$(grep -cE '^(warning|error) ' "$dir/$name.out")
	[ "$n" = 1 ] || bad "$name: $n checks not ok, want 1: $(cat "$dir/$name.out")"
}

# A good setup: every check ok, exit 0; the JSON says the same.
conf "$dir/good.conf"
doctor good 0 -c "$dir/good.conf"
grep -qE '^(warning|error) ' "$dir/good.out" && bad "good setup has findings: $(cat "$dir/good.out")"
# The publish directory's file system: a local one here (NFS, SMB, FUSE
# would be a warning: a server that stops answering stalls OpenSM's SM).
grep -q "^ok  *publish-storage  *publish directory $dir/pub is on a local file system\$" "$dir/good.out" ||
	bad "good: no publish-storage ok line: $(cat "$dir/good.out")"
n=$(grep -c '^ok ' "$dir/good.out")
[ "$n" -ge 9 ] || bad "good setup: only $n checks ok"
"$osmqos" doctor --plugin "$lib" --opensm "$opensm" -c "$dir/good.conf" \
	--standby-conf "$dir/good.conf" --json >"$dir/good.json"
# 13 checks, and node-name-map where OpenSM's default map exists.
jq -e '.worst == "ok" and (.checks | length) >= 13 and
	all(.checks[]; .status == "ok" and .fix == null)' "$dir/good.json" >/dev/null ||
	bad "good setup JSON: $(cat "$dir/good.json")"

# 1. qos FALSE.
conf "$dir/c1.conf" qos FALSE
broken qos-false qos error -c "$dir/c1.conf"
# 2. The plugin not loaded.
conf "$dir/c2.conf" event_plugin_name other
broken no-plugin-name event-plugin error -c "$dir/c2.conf"
# 3. policy= and qos_policy_file name different files.
cp "$pol" "$dir/other-policy.conf"
conf "$dir/c3.conf" qos_policy_file "$dir/other-policy.conf"
broken policy-apart policy-file warning -c "$dir/c3.conf"
# 4. No plugin library.
conf "$dir/c4.conf"
"$osmqos" doctor --plugin "$dir/none/libosmqos.so" --opensm "$opensm" \
	-c "$dir/c4.conf" >"$dir/no-lib.out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q '^error  *plugin-library ' "$dir/no-lib.out" ||
	bad "no-lib: exit $rc: $(cat "$dir/no-lib.out")"
# 4b. Without --plugin, the library where dlopen() finds it: in
# LD_LIBRARY_PATH; and (as root) in the loader's first system directory
# with no ldconfig run, where the ld.so cache does not list it and
# dlopen() opens it all the same.
mkdir -p "$dir/ldp"
cp "$lib" "$dir/ldp/"
LD_LIBRARY_PATH=$dir/ldp "$osmqos" doctor --opensm "$opensm" \
	-c "$dir/c4.conf" >"$dir/ldp.out" 2>&1
grep -q "^ok  *plugin-library  *$dir/ldp/libosmqos.so, where opensm loads it (LD_LIBRARY_PATH)" \
	"$dir/ldp.out" || bad "LD_LIBRARY_PATH: $(cat "$dir/ldp.out")"
interp=$(readelf -l "$osmqos" 2>/dev/null |
	sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
sysdir=$("$interp" --help 2>/dev/null |
	sed -n 's/^ *\(.*\) (system search path)$/\1/p' | head -n 1)
dlopen_finds() {
	python3 -c 'import ctypes, sys
try:
	ctypes.CDLL("libosmqos.so")
except OSError as e:
	sys.exit("cannot open shared object" in str(e))'
}
if [ "$(id -u)" != 0 ] || [ -z "$sysdir" ] || [ -e "$sysdir/libosmqos.so" ] ||
	/sbin/ldconfig -p | grep -q '	libosmqos\.so ' || ! command -v python3 >/dev/null; then
	echo "doctor: system directory case not run (needs root, a loader that lists its directories, python3, and no libosmqos.so installed)"
else
	trap 'rm -f "$sysdir/libosmqos.so"; rm -rf "$dir"' EXIT
	env -u LD_LIBRARY_PATH bash -c "$(declare -f dlopen_finds); dlopen_finds" &&
		bad "dlopen() finds a libosmqos.so before it is installed"
	cp "$lib" "$sysdir/libosmqos.so"
	env -u LD_LIBRARY_PATH bash -c "$(declare -f dlopen_finds); dlopen_finds" ||
		bad "dlopen() does not find $sysdir/libosmqos.so: the case checks nothing"
	env -u LD_LIBRARY_PATH "$osmqos" doctor --opensm "$opensm" \
		-c "$dir/c4.conf" >"$dir/sysdir.out" 2>&1
	rm -f "$sysdir/libosmqos.so"
	grep -q "^ok  *plugin-library  *$sysdir/libosmqos.so, where opensm loads it (the loader's system directories, not in the ld.so cache)" \
		"$dir/sysdir.out" || bad "system directory: $(cat "$dir/sysdir.out")"
fi
# 5. A library built for another OpenSM (its version string changed).
ver=$(grep -ao 'OpenSM [0-9][0-9.]*' "$lib" | head -n 1)
[ -n "$ver" ] || bad "no OpenSM version string in $lib"
other=$(printf '%s' "$ver" | sed 's/[0-9]$/9/; t; s/$//')
[ "$other" != "$ver" ] || other=$(printf '%s' "$ver" | sed 's/[0-9]$/8/')
sed "s/$ver/$other/" "$lib" >"$dir/libosmqos.so"
"$osmqos" doctor --plugin "$dir/libosmqos.so" --opensm "$opensm" \
	-c "$dir/c4.conf" >"$dir/version.out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "^error  *plugin-version .*built for $other" "$dir/version.out" ||
	bad "version: exit $rc: $(cat "$dir/version.out")"
[ "$(grep -cE '^(warning|error) ' "$dir/version.out")" = 1 ] ||
	bad "version: other checks failed too: $(cat "$dir/version.out")"
# The fix: the headers package configure found for the system's opensm,
# configure --with-opensm=PREFIX for one installed under PREFIX.
pkg=$(sed -n 's/^#define OQ_OSM_HEADERS_PACKAGE "\(.*\)"$/\1/p' "$top_builddir/config.h")
case $opensm in
/usr/local/*) ;;
/usr/*)
	grep -qF "fix: rebuild the plugin against this opensm's headers ($pkg) and reinstall it" \
		"$dir/version.out" || bad "version: the fix names no $pkg: $(cat "$dir/version.out")"
	;;
esac
mkdir -p "$dir/inst/sbin"
cp "$opensm" "$dir/inst/sbin/opensm"
"$osmqos" doctor --plugin "$dir/libosmqos.so" --opensm "$dir/inst/sbin/opensm" \
	-c "$dir/c4.conf" >"$dir/prefix.out" 2>&1
grep -qF "./configure --with-opensm=$(cd "$dir/inst" && pwd -P) (the prefix" \
	"$dir/prefix.out" || bad "prefix: the fix names no --with-opensm: $(cat "$dir/prefix.out")"
# 6. An invalid policy.
printf 'qos-levels\n  qos-level\n    name: DEFAULT\n  end-qos-level\nend-qos-levels\n' \
	>"$dir/bad-policy.conf"
conf "$dir/c6.conf" qos_policy_file "$dir/bad-policy.conf" \
	event_plugin_options "policy=$dir/bad-policy.conf publish_dir=$dir/pub audit=$dir/audit/osmqos-audit.log"
broken bad-policy policy error -c "$dir/c6.conf"
# 6b. No policy file where both point: "cannot be read", and the fix is
# to write it, not to read errors that are not there.
conf "$dir/c6b.conf" qos_policy_file "$dir/no-policy.conf" \
	event_plugin_options "policy=$dir/no-policy.conf publish_dir=$dir/pub audit=$dir/audit/osmqos-audit.log"
broken no-policy policy error -c "$dir/c6b.conf"
grep -q "^error  *policy  *$dir/no-policy.conf cannot be read: No such file or directory; " "$dir/no-policy.out" &&
	grep -q ' fix: write the policy there' "$dir/no-policy.out" ||
	bad "no-policy: $(cat "$dir/no-policy.out")"
# 7. The publish directory missing.
conf "$dir/c7.conf" event_plugin_options \
	"policy=$pol publish_dir=$dir/nowhere audit=$dir/audit/osmqos-audit.log"
broken no-publish-dir publish-dir error -c "$dir/c7.conf"
# 7b. A key with the prefix of no plugin opensm loads: a typo, not
# another plugin's key.
conf "$dir/c7b.conf" event_plugin_options \
	"policy=$pol publish_dir=$dir/pub audit.file=off audit=$dir/audit/osmqos-audit.log"
broken dotted-typo plugin-options warning -c "$dir/c7b.conf"
grep -q "unknown key 'audit.file': no plugin 'audit'" "$dir/dotted-typo.out" ||
	bad "dotted-typo: $(cat "$dir/dotted-typo.out")"
# 8. The audit trail's directory missing.
conf "$dir/c8.conf" event_plugin_options \
	"policy=$pol publish_dir=$dir/pub audit=$dir/nowhere/osmqos-audit.log"
broken no-audit-dir audit-dir error -c "$dir/c8.conf"
grep -qF "fix: create $dir/nowhere writable by opensm (root), or set event_plugin_options audit=DIR/osmqos-audit.log in a directory that is" \
	"$dir/no-audit-dir.out" || bad "no-audit-dir: $(cat "$dir/no-audit-dir.out")"
# 8b. What the plugin refuses to write the trail to, each an error in
# the plugin's own words: a directory (the fix names a file in it; its
# parent is no directory of the trail's), a file that is not a trail, a
# symbolic link, a FIFO, a file of another user.  An existing trail and
# an empty file are taken.
mkdir -p "$dir/refused"
# audit_refused NAME PATH MESSAGE FIX: audit=PATH is that audit-file error.
audit_refused() {
	conf "$dir/c8-$1.conf" event_plugin_options \
		"policy=$pol publish_dir=$dir/pub audit=$2"
	broken "audit-$1" audit-file error -c "$dir/c8-$1.conf"
	grep -qxF "error    audit-file       the plugin refuses it and keeps no audit trail: $3" \
		"$dir/audit-$1.out" &&
		grep -qxF "                          fix: $4" "$dir/audit-$1.out" ||
		bad "audit-$1: $(cat "$dir/audit-$1.out")"
}
audit_refused dir "$dir/audit/" \
	"$dir/audit/ is a directory; give audit= a file path, e.g. $dir/audit/osmqos-audit.log" \
	"set event_plugin_options audit=$dir/audit/osmqos-audit.log (a file in that directory)"
grep -q 'audit-dir' "$dir/audit-dir.out" && bad "audit-dir: its parent checked: $(cat "$dir/audit-dir.out")"
echo hello >"$dir/refused/hello"
audit_refused not-trail "$dir/refused/hello" \
	"$dir/refused/hello is not an osmqos audit trail (its first line is not JSON); give audit= a file of its own" \
	"set event_plugin_options audit=DIR/osmqos-audit.log in a directory writable by opensm's user (root), a file of the trail's own; leave $dir/refused/hello as it is"
ln -s "$dir/refused/target.log" "$dir/refused/link"
audit_refused link "$dir/refused/link" \
	"$dir/refused/link is a symbolic link; the audit log is never written through one, give audit= the real file" \
	"set event_plugin_options audit= to the file the link names (readlink -f $dir/refused/link), or remove the link: the plugin then creates the file"
mkfifo "$dir/refused/fifo"
audit_refused fifo "$dir/refused/fifo" \
	"$dir/refused/fifo is not a regular file (a FIFO or a socket); give audit= a plain file path" \
	"set event_plugin_options audit=DIR/osmqos-audit.log in a directory writable by opensm's user (root): a plain file the plugin creates"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	nobody=$(id -u nobody)
	echo '{"time": 1}' >"$dir/refused/nobodys.log"
	chown nobody "$dir/refused/nobodys.log"
	audit_refused other "$dir/refused/nobodys.log" \
		"$dir/refused/nobodys.log belongs to uid $nobody, not to opensm's user (uid 0) or root: that user could read or truncate the trail; remove it, or give audit= a file in a directory only opensm's user can write" \
		"chown root $dir/refused/nobodys.log, or remove it (the plugin then creates it, mode 0640)"
else
	echo "doctor: an audit trail of another user not checked (needs root, user nobody)"
fi
for f in trail empty; do
	: >"$dir/refused/$f.log"
	[ "$f" = trail ] && echo '{"time": 1}' >"$dir/refused/$f.log"
	conf "$dir/c8-$f.conf" event_plugin_options \
		"policy=$pol publish_dir=$dir/pub audit=$dir/refused/$f.log"
	doctor "audit-$f" 0 -c "$dir/c8-$f.conf"
	grep -q "^ok  *audit-file  *audit trail $dir/refused/$f.log: " "$dir/audit-$f.out" ||
		bad "audit-$f: $(cat "$dir/audit-$f.out")"
done
# 9. dfsssp keeps the template's SL2VL: the policy's sl2vl-scope is lost.
grep -q 'sl2vl-scope' "$pol" || bad "the test policy has no sl2vl-scope"
conf "$dir/c9.conf" routing_engine dfsssp
broken engine-sl2vl routing-engine warning -c "$dir/c9.conf"
# 10. A standby with other QoS settings.
conf "$dir/standby.conf" qos FALSE
broken standby standby error -c "$dir/good.conf" --standby-conf "$dir/standby.conf"

# opensm.conf read as OpenSM reads it: a comment after a value, quotes
# around one, a comma in event_plugin_name's first name (load_plugins()).
for line in "qos TRUE # enable QoS" 'qos "TRUE"' \
	"event_plugin_name osmqos,other" "event_plugin_name other,osmqos"; do
	conf "$dir/ok.conf" "${line%% *}" "${line#* }"
	doctor ok-form 0 -c "$dir/ok.conf"
done
# What OpenSM reads as another setting than it looks.
conf "$dir/c12.conf" qos true
broken qos-lower qos error -c "$dir/c12.conf"
grep -q "qos is not TRUE in capitals, so FALSE to OpenSM" "$dir/qos-lower.out" ||
	bad "qos-lower: $(cat "$dir/qos-lower.out")"
conf "$dir/c13.conf" event_plugin_name "other # osmqos"
broken plugin-comment event-plugin error -c "$dir/c13.conf"
conf "$dir/c14.conf" event_plugin_name "a,osmqos,b"
broken plugin-commas event-plugin error -c "$dir/c14.conf"
# A value the plugin replaces by its default.
conf "$dir/c15.conf" event_plugin_options \
	"policy=$pol publish_dir=$dir/pub audit=$dir/audit/osmqos-audit.log publish_interval=abc"
broken bad-value plugin-options warning -c "$dir/c15.conf"
grep -q "publish_interval=abc is not a number of seconds" "$dir/bad-value.out" ||
	bad "bad-value: $(cat "$dir/bad-value.out")"
# An event_plugin_options line longer than OpenSM reads at once (1022
# characters): OpenSM cuts it, the plugin gets the part before the cut
# (here an audit path cut short).
long=$dir/audit/$(printf '%0900d' 0).log
conf "$dir/c15b.conf" event_plugin_options \
	"policy=$pol publish_dir=$dir/pub audit=$long"
broken long-line plugin-options error -c "$dir/c15b.conf"
grep -q "event_plugin_options is line 6, [0-9]* characters: OpenSM reads 1022 of a line" \
	"$dir/long-line.out" || bad "long-line: $(cat "$dir/long-line.out")"
# Bandwidth intents under opensm_policy=direct: the plugin refuses them.
cp "$top_srcdir/contrib/policies/intents.conf" "$dir/intents.conf"
conf "$dir/c16.conf" qos_policy_file "$dir/intents.conf" event_plugin_options \
	"policy=$dir/intents.conf publish_dir=$dir/pub audit=$dir/audit/osmqos-audit.log opensm_policy=direct"
broken intents-direct policy error -c "$dir/c16.conf"
# audit=off: no directory to check.
conf "$dir/c17.conf" event_plugin_options "policy=$pol publish_dir=$dir/pub audit=off"
doctor audit-off 0 -c "$dir/c17.conf"
grep -q "^ok  *audit-dir  *audit trail off (audit=off)" "$dir/audit-off.out" ||
	bad "audit-off: $(cat "$dir/audit-off.out")"
# A QoS key only the standby sets differs too.
conf "$dir/standby2.conf" qos_ca_max_vls 1
broken standby-extra standby error -c "$dir/good.conf" --standby-conf "$dir/standby2.conf"
# A standby written as `opensm -c` writes it (every QoS key at OpenSM's
# default) runs as the master's, which leaves them out: the same.
conf "$dir/standby3.conf" qos_max_vls 0 qos_high_limit -1 qos_vlarb_high "(null)" \
	qos_ca_max_vls 0x0 qos_swe_high_limit -1 use_optimized_slvl FALSE
doctor standby-defaults 0 -c "$dir/good.conf" --standby-conf "$dir/standby3.conf"
grep -q "^ok  *standby  *$dir/standby3.conf has the same QoS settings" "$dir/standby-defaults.out" ||
	bad "standby-defaults: $(cat "$dir/standby-defaults.out")"
# A value OpenSM reads otherwise than it looks: 'qos true' is FALSE, and
# qos_high_limit 0 is not the default -1.
conf "$dir/standby4.conf" qos true qos_high_limit 0
broken standby-values standby error -c "$dir/good.conf" --standby-conf "$dir/standby4.conf"
grep -q "in 2 QoS setting(s): qos (TRUE vs FALSE), qos_high_limit (-1 vs 0)" "$dir/standby-values.out" ||
	bad "standby-values: $(cat "$dir/standby-values.out")"

# Relative paths: opensm resolves them against its own working directory
# (/ under systemd), so a file of that name in doctor's is not checked
# as opensm's.
cp "$pol" "$dir/pol1.conf"
mkdir -p "$dir/pub1"
cd "$dir" || exit 99
conf "$dir/c18.conf" qos_policy_file pol1.conf event_plugin_options \
	"publish_dir=$dir/pub audit=$dir/audit/osmqos-audit.log"
doctor rel-qpf 1 -c "$dir/c18.conf"
grep -q "^warning  *policy-file  *qos_policy_file pol1.conf is relative: opensm resolves it against its own working directory (/ under systemd), not this one" \
	"$dir/rel-qpf.out" && grep -q "^warning  *policy  *pol1.conf not checked" "$dir/rel-qpf.out" &&
	[ "$(grep -cE '^(warning|error) ' "$dir/rel-qpf.out")" = 2 ] ||
	bad "rel-qpf: $(cat "$dir/rel-qpf.out")"
conf "$dir/c19.conf" event_plugin_options \
	"publish_dir=pub1 policy=pol1.conf audit=$dir/audit/osmqos-audit.log"
doctor rel-opts 1 -c "$dir/c19.conf"
grep -q "^warning  *policy-file  *policy=pol1.conf is relative: " "$dir/rel-opts.out" &&
	grep -q "^warning  *publish-dir  *publish_dir=pub1 is relative: " "$dir/rel-opts.out" &&
	! grep -q "^ok  *publish-dir" "$dir/rel-opts.out" ||
	bad "rel-opts: $(cat "$dir/rel-opts.out")"
cd - >/dev/null || exit 99

# Under opensm_policy=direct OpenSM parses the file itself: one stock
# OpenSM rejects (a level named by one of its keywords) is a warning with
# the model's first diagnostic.
cat >"$dir/keyword.conf" <<'EOF'
qos-levels
  qos-level
    name: my-qos-level
    sl: 1
  end-qos-level
  qos-level
    name: DEFAULT
    sl: 0
  end-qos-level
end-qos-levels
EOF
"$osmqos" check "$dir/keyword.conf" 2>/dev/null | grep -q 'stock OpenSM [0-9.]* rejects it' ||
	bad "keyword.conf is not one stock OpenSM rejects"
conf "$dir/c25.conf" qos_policy_file "$dir/keyword.conf" event_plugin_options \
	"policy=$dir/keyword.conf publish_dir=$dir/pub audit=$dir/audit/osmqos-audit.log opensm_policy=direct"
broken stock-direct policy warning -c "$dir/c25.conf"
grep -q "^warning  *policy  *$dir/keyword.conf: stock OpenSM [0-9.]* rejects it and runs with no QoS policy; under opensm_policy=direct .*; first: $dir/keyword.conf:3:[0-9]*: " \
	"$dir/stock-direct.out" || bad "stock-direct: $(cat "$dir/stock-direct.out")"
# Without opensm_policy=direct OpenSM reads the plugin's copy: ok.
conf "$dir/c26.conf" qos_policy_file "$dir/keyword.conf" event_plugin_options \
	"policy=$dir/keyword.conf publish_dir=$dir/pub audit=$dir/audit/osmqos-audit.log"
doctor stock-copy 0 -c "$dir/c26.conf"

# A partition the policy names that partitions.conf does not define; a
# node-name map OpenSM ignores (a line it cannot parse).
cat >"$dir/part-policy.conf" <<'EOF'
port-groups
  port-group
    name: g1
    partition: p1
  end-port-group
end-port-groups
qos-levels
  qos-level
    name: DEFAULT
    sl: 0
  end-qos-level
  qos-level
    name: hi
    sl: 1
  end-qos-level
end-qos-levels
qos-match-rules
  qos-match-rule
    source: g1
    qos-level-name: hi
  end-qos-match-rule
end-qos-match-rules
EOF
printf 'Default=0x7fff, ipoib : ALL=full ;\np2=0x0002 : ALL=full ;\n' >"$dir/parts.conf"
conf "$dir/c27.conf" qos_policy_file "$dir/part-policy.conf" partition_config_file "$dir/parts.conf" \
	event_plugin_options "policy=$dir/part-policy.conf publish_dir=$dir/pub audit=$dir/audit/osmqos-audit.log"
broken partition-undefined partitions warning -c "$dir/c27.conf"
grep -q "^warning  *partitions  *1 problem(s) of $dir/part-policy.conf against $dir/parts.conf, first: $dir/part-policy.conf:4:[0-9]*: warning: partition 'p1' is not defined in $dir/parts.conf" \
	"$dir/partition-undefined.out" || bad "partition-undefined: $(cat "$dir/partition-undefined.out")"
printf 'Default=0x7fff, ipoib : ALL=full ;\np1=0x0001 : ALL=full ;\n' >"$dir/parts-p1.conf"
conf "$dir/c28.conf" qos_policy_file "$dir/part-policy.conf" partition_config_file "$dir/parts-p1.conf" \
	event_plugin_options "policy=$dir/part-policy.conf publish_dir=$dir/pub audit=$dir/audit/osmqos-audit.log"
doctor partition-defined 0 -c "$dir/c28.conf"
# The running plugin publishes that OpenSM's own parser refuses the copy
# it reads (a partition an ipoib line names gone from partitions.conf):
# a warning with what to do; while it holds it: ok.
mkdir -p "$dir/pub-osm"
conf "$dir/c30.conf" event_plugin_options \
	"policy=$pol publish_dir=$dir/pub-osm audit=$dir/audit/osmqos-audit.log"
printf 'osmqos_policy_opensm_refused{path="%s"} 1\nosmqos_policy_opensm_refused_timestamp_seconds 1700000001\n' \
	"$dir/pub-osm/osmqos-last-good-policy.conf" >"$dir/pub-osm/osmqos.prom"
broken opensm-refused opensm-policy warning -c "$dir/c30.conf"
grep -q "^warning  *opensm-policy  *the running opensm's own parser refuses $dir/pub-osm/osmqos-last-good-policy.conf since 2023-11-14T22:13:21Z (published in $dir/pub-osm/osmqos.prom): OpenSM runs without a policy of its own" \
	"$dir/opensm-refused.out" || bad "opensm-refused: $(cat "$dir/opensm-refused.out")"
sed -i 's/} 1$/} 0/' "$dir/pub-osm/osmqos.prom"
doctor opensm-holds 0 -c "$dir/c30.conf"
grep -q "^ok  *opensm-policy  *the running opensm's own parser holds $dir/pub-osm/osmqos-last-good-policy.conf" \
	"$dir/opensm-holds.out" || bad "opensm-holds: $(cat "$dir/opensm-holds.out")"
# The same publication rewritten on time (every 60 s, 10 s ago) is the
# running opensm's word; one the master stopped rewriting (two intervals
# and 5 s, as osmqos status judges it: 126 s) speaks for an opensm that
# no longer runs or is not master, whatever it said: a warning.
# prom AGE VALUE: osmqos.prom published AGE seconds ago, refused=VALUE.
prom() {
	printf 'osmqos_publish_timestamp_seconds %s\nosmqos_publish_interval_seconds 60\nosmqos_policy_opensm_refused{path="%s"} %s\n' \
		"$(($(date +%s) - $1))" "$dir/pub-osm/osmqos-last-good-policy.conf" "$2" \
		>"$dir/pub-osm/osmqos.prom"
}
prom 10 0
doctor opensm-fresh 0 -c "$dir/c30.conf"
grep -q "^ok  *opensm-policy  *the running opensm's own parser holds " \
	"$dir/opensm-fresh.out" || bad "opensm-fresh: $(cat "$dir/opensm-fresh.out")"
for v in 0 1; do
	prom 200 "$v"
	"$osmqos" status -d "$dir/pub-osm" --json 2>/dev/null | jq -e '.stale == true' >/dev/null ||
		bad "opensm-stale-$v: osmqos status does not call it stale"
	broken "opensm-stale-$v" opensm-policy warning -c "$dir/c30.conf"
	grep -q "^warning  *opensm-policy  *$dir/pub-osm/osmqos.prom: last published by an opensm that is no longer running or not master (20[0-9] s ago); " \
		"$dir/opensm-stale-$v.out" &&
		grep -qF "fix: check that opensm runs and is the master (a standby publishes nothing), and its log, then run doctor again" \
			"$dir/opensm-stale-$v.out" &&
		! grep -q "the running opensm" "$dir/opensm-stale-$v.out" ||
		bad "opensm-stale-$v: $(cat "$dir/opensm-stale-$v.out")"
done
printf '0x0002c9030001 "ok"\nnot-a-guid "x"\n' >"$dir/bad.map"
conf "$dir/c29.conf" node_name_map_name "$dir/bad.map"
broken bad-map node-name-map warning -c "$dir/c29.conf"
# A map that is a FIFO or a device hangs opensm at startup (complib's
# fopen() blocks, its fgets() loop never ends): an error, with or without
# a valid policy.
mkfifo "$dir/fifo.map"
for m in "$dir/fifo.map:FIFO" "/dev/zero:character device"; do
	conf "$dir/c31.conf" node_name_map_name "${m%%:*}"
	broken hang-map node-name-map error -c "$dir/c31.conf"
	grep -q "^error  *node-name-map  *${m%%:*} is a ${m#*:}: opensm would block or spin reading it at startup and never bring the subnet up" \
		"$dir/hang-map.out" && grep -q " fix: point node_name_map_name at a regular file" "$dir/hang-map.out" ||
		bad "hang-map ${m%%:*}: $(cat "$dir/hang-map.out")"
done
conf "$dir/c32.conf" qos_policy_file "$dir/bad-policy.conf" node_name_map_name "$dir/fifo.map" \
	event_plugin_options "policy=$dir/bad-policy.conf publish_dir=$dir/pub audit=$dir/audit/osmqos-audit.log"
doctor hang-map-bad-policy 2 -c "$dir/c32.conf"
grep -q "^error  *node-name-map  *$dir/fifo.map is a FIFO: " "$dir/hang-map-bad-policy.out" ||
	bad "hang-map with an invalid policy: $(cat "$dir/hang-map-bad-policy.out")"

# Who can write what the plugin trusts: a publish directory every user
# can write (the policy copy it restores at start could be planted), a
# shared sticky one like /tmp, one of another owner, a policy file every
# user can write: each a warning with its fix.
mkdir -m 0777 "$dir/pub-777" && chmod 0777 "$dir/pub-777"
conf "$dir/c20.conf" event_plugin_options \
	"policy=$pol publish_dir=$dir/pub-777 audit=$dir/audit/osmqos-audit.log"
broken pub-777 publish-dir warning -c "$dir/c20.conf"
grep -q "^warning  *publish-dir  *publish directory $dir/pub-777 is writable by every local user (mode 0777): any of them can plant files there (osmqos-policy-in-force.conf among them" \
	"$dir/pub-777.out" && grep -q " fix: chmod go-w $dir/pub-777 " "$dir/pub-777.out" ||
	bad "pub-777: $(cat "$dir/pub-777.out")"
mkdir "$dir/pub-tmp" && chmod 1777 "$dir/pub-tmp"
conf "$dir/c21.conf" event_plugin_options \
	"policy=$pol publish_dir=$dir/pub-tmp audit=$dir/audit/osmqos-audit.log"
broken pub-sticky publish-dir warning -c "$dir/c21.conf"
grep -q "^warning  *publish-dir  *publish directory $dir/pub-tmp is shared (mode 1777, like /tmp): other users can create files there" \
	"$dir/pub-sticky.out" || bad "pub-sticky: $(cat "$dir/pub-sticky.out")"
cp "$pol" "$dir/pol-666.conf"
chmod 0666 "$dir/pol-666.conf"
conf "$dir/c22.conf" qos_policy_file "$dir/pol-666.conf" event_plugin_options \
	"policy=$dir/pol-666.conf publish_dir=$dir/pub audit=$dir/audit/osmqos-audit.log"
broken pol-666 policy-owner warning -c "$dir/c22.conf"
grep -q "^warning  *policy-owner  *$dir/pol-666.conf (policy=) is writable by every local user (mode 0666)" \
	"$dir/pol-666.out" || bad "pol-666: $(cat "$dir/pol-666.out")"
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	# Another owner than root or opensm's user; --sm-user names it.
	mkdir "$dir/pub-other" && chown nobody "$dir/pub-other"
	conf "$dir/c23.conf" event_plugin_options \
		"policy=$pol publish_dir=$dir/pub-other audit=$dir/audit/osmqos-audit.log"
	broken pub-other publish-dir warning -c "$dir/c23.conf"
	grep -q "publish directory $dir/pub-other belongs to uid [0-9]* (nobody), neither root nor opensm's user (root)" \
		"$dir/pub-other.out" || bad "pub-other: $(cat "$dir/pub-other.out")"
	# Its owner named by --sm-user, it is opensm's own: every check ok,
	# with every directory above opensm's user can search (and the
	# audit trail off: its directory is root's).
	chmod 0755 "$dir"
	conf "$dir/c23u.conf" event_plugin_options \
		"policy=$pol publish_dir=$dir/pub-other audit=off"
	doctor sm-user 0 -c "$dir/c23u.conf" --sm-user nobody
	doctor sm-uid-hex 0 -c "$dir/c23u.conf" \
		--sm-user "$(printf '0x%x' "$(id -u nobody)")"
	# A uid is named by its passwd entry, in the warning and its fix:
	# a policy of nobody's, opensm's user daemon.
	if id daemon >/dev/null 2>&1; then
		cp "$pol" "$dir/pol-nobody.conf"
		chown nobody "$dir/pol-nobody.conf"
		mkdir "$dir/pub-daemon" && chown daemon "$dir/pub-daemon"
		conf "$dir/c25.conf" qos_policy_file "$dir/pol-nobody.conf" \
			event_plugin_options "policy=$dir/pol-nobody.conf publish_dir=$dir/pub-daemon audit=off"
		broken sm-uid policy-owner warning -c "$dir/c25.conf" \
			--sm-user "$(id -u daemon)"
		grep -q "neither root nor opensm's user (daemon): " "$dir/sm-uid.out" &&
			grep -q " fix: chown daemon $dir/pol-nobody.conf\$" "$dir/sm-uid.out" ||
			bad "sm-uid: $(cat "$dir/sm-uid.out")"
	fi
	chmod 0700 "$dir"
	# Run as another user than opensm's, a directory only root can
	# write is no error: doctor could not check it as root.
	pub2=$(mktemp -d "${TMPDIR:-/tmp}/oq-doctor-pub.XXXXXX")
	chmod 0755 "$pub2" "$dir"
	conf "$dir/c24.conf" event_plugin_options "policy=$pol publish_dir=$pub2 audit=off"
	chmod 0644 "$dir/c24.conf"
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$osmqos" doctor --plugin "$lib" --opensm "$opensm" -c "$dir/c24.conf" \
		>"$dir/as-nobody.out" 2>&1
	rc=$?
	rmdir "$pub2"
	chmod 0700 "$dir"
	[ "$rc" = 1 ] && grep -q "^warning  *publish-dir  *publish directory $pub2: cannot check whether opensm's user (root) can write there: doctor runs as uid [0-9]* (nobody), which cannot" \
		"$dir/as-nobody.out" && grep -q " fix: run osmqos doctor as root" "$dir/as-nobody.out" ||
		bad "as-nobody: exit $rc: $(cat "$dir/as-nobody.out")"
else
	echo "doctor: other owners not checked (needs root, user nobody, setpriv)"
fi

# The publish directory's lock names a live opensm: another opensm.conf's
# is a warning (that opensm's osmqos keeps the directory), this one's is
# ok, and this one's twice (opensm@ units of one opensm.conf) a warning.
# A script named opensm stands for it (its process is named opensm).
mkdir -p "$dir/bin" "$dir/pub-lock"
# It waits on a FIFO it opens read-write itself: no child to outlive it.
mkfifo "$dir/bin/hold"
printf '#!/bin/bash\nread -r -t 60 x <>"${0%%/*}/hold"\n' >"$dir/bin/opensm"
chmod +x "$dir/bin/opensm"
fakes=
# fake_sm CONF: a process named opensm started with -F CONF; its PID.
fake_sm() {
	"$dir/bin/opensm" -F "$1" >/dev/null 2>&1 &
	fake=$!
	fakes="$fakes $fake"
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ "$(cat /proc/$fake/comm 2>/dev/null)" = opensm ] && break
		sleep 0.1
	done
}
stop_fakes() {
	local p
	for p in $fakes; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	fakes=
}
trap 'stop_fakes; rm -rf "$dir"' EXIT
conf "$dir/c30.conf" event_plugin_options \
	"policy=$pol publish_dir=$dir/pub-lock audit=$dir/audit/osmqos-audit.log"
conf "$dir/other-sm.conf"
fake_sm "$dir/other-sm.conf"
echo "$fake" >"$dir/pub-lock/.osmqos.lock"
broken lock-other publish-owner warning -c "$dir/c30.conf"
grep -q "^warning  *publish-owner  *publish directory $dir/pub-lock is the osmqos of another opensm's (pid $fake, started with $dir/other-sm.conf): the opensm $dir/c30.conf starts would publish nothing there" \
	"$dir/lock-other.out" && grep -q " fix: give each opensm its own publish_dir= and audit= " "$dir/lock-other.out" ||
	bad "lock-other: $(cat "$dir/lock-other.out")"
stop_fakes
# The lock's opensm gone: nothing to say.
doctor lock-stale 0 -c "$dir/c30.conf"
grep -q "publish-owner" "$dir/lock-stale.out" && bad "lock-stale: $(cat "$dir/lock-stale.out")"
fake_sm "$dir/c30.conf"
echo "$fake" >"$dir/pub-lock/.osmqos.lock"
doctor lock-this 0 -c "$dir/c30.conf"
grep -q "^ok  *publish-owner  *publish directory $dir/pub-lock: its osmqos is opensm pid $fake's" "$dir/lock-this.out" ||
	bad "lock-this: $(cat "$dir/lock-this.out")"
holder=$fake
fake_sm "$dir/c30.conf"
broken lock-twice publish-owner warning -c "$dir/c30.conf"
grep -q "is the osmqos of opensm pid $holder; 1 other opensm (pid $fake) runs with the same $dir/c30.conf" \
	"$dir/lock-twice.out" || bad "lock-twice: $(cat "$dir/lock-twice.out")"
stop_fakes

# An unreadable opensm.conf is a usage error that says what to do.
"$osmqos" doctor -c "$dir/none.conf" >"$dir/none.out" 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "cannot read opensm.conf '$dir/none.conf': No such file or directory; check the path" "$dir/none.out" ||
	bad "missing opensm.conf: exit $rc: $(cat "$dir/none.out")"

# --sm-user's uid is a number as the CLI reads every number: decimal or
# 0x hex; a leading 0, a sign or a blank is refused.
for v in 010 +5 " 5" 4294967295; do
	"$osmqos" doctor -c "$dir/good.conf" --sm-user "$v" >"$dir/sm-num.out" 2>&1
	rc=$?
	[ "$rc" = 2 ] && head -n 1 "$dir/sm-num.out" | grep -qF "osmqos doctor: --sm-user '$v' is no user of this host nor a uid (0..4294967294, decimal or 0x hex, no leading 0); give the name (or uid) opensm runs as" ||
		bad "--sm-user '$v': exit $rc: $(cat "$dir/sm-num.out")"
done
doctor sm-uid-0x0 0 -c "$dir/good.conf" --sm-user 0x0

[ "$fail" = 0 ] && echo "doctor: a good setup, 4 written as OpenSM reads them, and 36 broken ones, each named"
exit "$fail"
