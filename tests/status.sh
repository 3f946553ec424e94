#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# osmqos status on a publication written here as the plugin writes it,
# against the policy file as it is now: its content in force (exit 0);
# removed, replaced by a directory or a FIFO, or named by a relative
# path (opensm's working directory's, not this one's: a same-named file
# here is not read), OpenSM's own parser refusing the copy it reads, an
# edit not loaded yet, a rejected content (with a policy in force and
# with none), no policy in force and no file known, a stale publication,
# the copy of the policy in force as written missing or another policy's
# and older than the publication (one newer is a change under way, 0):
# each says so in a line of its own and exits 1.  A policy file whose
# name is not UTF-8 (the label carries U+FFFD) is read under the name
# osmqos-policy-in-force.source gives, byte for byte, when that line is
# of the policy published; without one it is not looked at (exit 0, the
# plugin's word), never called missing.  With opensm.conf's qos FALSE
# (no policy loaded, no table programmed) the cause is that, with its
# fix, not a policy to repair (exit 1).  A directory with no publication
# but the copy a standby writes says the policy it would put in force
# and the policy file against it (exit 1).  When it exits 1 its
# first line is the verdict: every cause, with what to do; the JSON's
# verdict lists the same causes.
set -u
top_builddir=${top_builddir:-$PWD}
osmqos=$top_builddir/osmqos
[ -x "$osmqos" ] || { echo "status: build osmqos first"; exit 99; }
command -v jq >/dev/null || { echo "SKIP: status: no jq"; exit 77; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/oq-status.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
bad() {
	echo "FAIL: $*"
	fail=1
}
pub=$dir/pub
mkdir -p "$pub" "$dir/cwd"
pol=$dir/qos-policy.conf
printf 'qos-levels\n  qos-level\n    name: DEFAULT\n    sl: 0\n  end-qos-level\nend-qos-levels\n' >"$pol"
# The plugin's hash: FNV-1a 64 of the file's bytes.
fnv() {
	python3 -c 'import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], "rb").read():
	h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print("0x%016x" % h)' "$1"
}
command -v python3 >/dev/null || { echo "SKIP: status: no python3"; exit 77; }
hash=$(fnv "$pol")

# publish PATH [AGE]: osmqos.prom saying PATH's content (hash $hash) is in
# force, loaded and published AGE seconds ago (default now), and the copy
# in force beside it.
publish() {
	local now
	now=$(($(date +%s) - ${2:-0}))
	cat >"$pub/osmqos.prom" <<EOF
osmqos_publish_timestamp_seconds $now
osmqos_publish_interval_seconds 60
osmqos_policy_info{path="$1",hash="$hash"} 1
osmqos_policy_last_load_timestamp_seconds $now
osmqos_policy_load_success 1
osmqos_sweep 3
EOF
	cp "$pol" "$pub/osmqos-policy-in-force.conf"
}

# reject PATH HASH: the plugin rejected PATH's content HASH just now.
reject() {
	local now
	now=$(date +%s)
	sed -i 's/^osmqos_policy_load_success .*/osmqos_policy_load_success 0/' \
		"$pub/osmqos.prom"
	cat >>"$pub/osmqos.prom" <<EOF
osmqos_policy_rejected_info{path="$1",hash="$2",error="$1:1:1: error: unknown keyword 'oops'"} 1
osmqos_policy_rejected_timestamp_seconds $now
EOF
}

# status NAME WANT-RC FILE-STATE CAUSES [FIRST]: text and JSON, exit
# status, the JSON's policy.file and verdict (CAUSES: its causes' words,
# comma separated, empty for none); the text's first line is FIRST when
# given, and a verdict exactly when the exit status is 1.
status() {
	local name=$1 want=$2 state=$3 causes=$4 first=${5:-} rc line
	(cd "$dir/cwd" && timeout 20 "$osmqos" status -d "$pub") \
		>"$dir/$name.txt" 2>&1
	rc=$?
	[ "$rc" = "$want" ] || bad "$name: text exit $rc, want $want: $(cat "$dir/$name.txt")"
	line=$(head -n 1 "$dir/$name.txt")
	if [ "$want" = 1 ]; then
		case $line in
		"status: "*" (exit 1)"*) ;;
		*) bad "$name: the first line is no verdict: $line" ;;
		esac
	else
		case $line in
		"published in $pub at "*) ;;
		*) bad "$name: the first line is not the publication: $line" ;;
		esac
	fi
	[ -z "$first" ] || [ "$line" = "$first" ] ||
		bad "$name: first line
  got:  $line
  want: $first"
	(cd "$dir/cwd" && timeout 20 "$osmqos" status -d "$pub" --json) \
		>"$dir/$name.json" 2>&1
	rc=$?
	[ "$rc" = "$want" ] || bad "$name: JSON exit $rc, want $want"
	jq -e --arg s "$state" '.policy.file == $s' "$dir/$name.json" >/dev/null ||
		bad "$name: policy.file is not $state: $(cat "$dir/$name.json")"
	jq -e --arg c "$causes" --argjson rc "$want" '.verdict.exit_status == $rc and
		([.verdict.causes[].cause] | join(",")) == $c and
		all(.verdict.causes[]; (.what | type) == "string")' \
		"$dir/$name.json" >/dev/null ||
		bad "$name: verdict is not $want ($causes): $(jq -c .verdict "$dir/$name.json")"
}

# 1. The file holds the policy in force.
publish "$pol"
status good 0 in_force ""
grep -q '^policy file:' "$dir/good.txt" && bad "good: a policy file line: $(cat "$dir/good.txt")"

# 1b. The copy of the policy in force as written holds another policy:
# written after the publication, a new policy being put in force (exit
# 0); written before it, a write that failed (exit 1: a restart would
# put that policy back); no copy at all, the same.
copy=$pub/osmqos-policy-in-force.conf
printf '# another policy\n' >>"$copy"
status copy-changing 0 in_force ""
grep -q "^  as written: $copy holds another policy (hash 0x[0-9a-f]*), written after this publication: the plugin is putting it in force" \
	"$dir/copy-changing.txt" || bad "copy-changing: $(cat "$dir/copy-changing.txt")"
jq -e '.policy.copy_changing and (.policy.copy_matches | not)' \
	"$dir/copy-changing.json" >/dev/null || bad "copy-changing: $(cat "$dir/copy-changing.json")"
touch -d "@$(($(date +%s) - 10))" "$copy"
fix="read opensm's log (cannot write $copy) and fix what it says (a full or read-only file system, permissions); the plugin writes the copy again every publish_interval seconds"
status copy-failed 1 in_force in_force_copy \
	"status: $copy holds another policy (hash $(fnv "$copy")) than the one in force: writing it failed, and a restart of opensm now puts that one back (exit 1): $fix"
rm "$copy"
status copy-missing 1 in_force in_force_copy \
	"status: there is no copy of the policy in force in $pub: writing it failed, and a restart of opensm now puts back no policy (exit 1): $fix"
grep -q "^  as written: no copy in $pub: writing it failed (opensm's log says why)\$" \
	"$dir/copy-missing.txt" || bad "copy-missing: $(cat "$dir/copy-missing.txt")"
publish "$pol"

# 2. The file removed: the last good policy stays, restore it.
mv "$pol" "$dir/away.conf"
status removed 1 missing missing \
	"status: the policy file $pol does not exist (exit 1): restore it from $pub/osmqos-policy-in-force.conf"
grep -q "^policy file: $pol removed: the next sweep keeps the last good policy; restore it (from the copy above)\$" \
	"$dir/removed.txt" || bad "removed: $(cat "$dir/removed.txt")"

# 3. A directory, then a FIFO, where the file was (not opened: a FIFO
# would block).
mkdir "$pol"
status directory 1 not_regular not_regular \
	"status: the policy file $pol is a directory, not a regular file (exit 1): put the policy file back there"
grep -q "^policy file: $pol is a directory, not a regular file: " "$dir/directory.txt" ||
	bad "directory: $(cat "$dir/directory.txt")"
rmdir "$pol"
mkfifo "$pol"
status fifo 1 not_regular not_regular \
	"status: the policy file $pol is a FIFO, not a regular file (exit 1): put the policy file back there"
grep -q "^policy file: $pol is a FIFO, not a regular file: " "$dir/fifo.txt" ||
	bad "fifo: $(cat "$dir/fifo.txt")"
rm -f "$pol"
mv "$dir/away.conf" "$pol"

# 4. A relative path, as opensm was given it: a file of the same name
# and content in status's working directory is not opensm's.
cp "$pol" "$dir/cwd/qos-policy.conf"
publish qos-policy.conf
status relative 1 relative relative \
	"status: the policy file qos-policy.conf is a relative path (opensm's working directory's): status cannot tell what it holds (exit 1): give qos_policy_file (or policy=) an absolute path and restart opensm"
grep -q "^policy file: qos-policy.conf is relative: opensm resolves it against its own working directory (/ under systemd), not this one, so status cannot tell" \
	"$dir/relative.txt" || bad "relative: $(cat "$dir/relative.txt")"

# 5. OpenSM's own parser refuses the copy it reads (a partition an ipoib
# line names is gone): said in a line of its own, exit 1; taken again:
# exit 0 and no such line.
publish "$pol"
copy=$pub/osmqos-last-good-policy.conf
since=$(($(date +%s) - 30))
printf 'osmqos_policy_opensm_refused{path="%s"} 1\nosmqos_policy_opensm_refused_timestamp_seconds %s\n' \
	"$copy" "$since" >>"$pub/osmqos.prom"
status refused 1 in_force opensm_refused \
	"status: OpenSM's own parser refuses $copy, OpenSM runs without a policy of its own (exit 1): see why in opensm's log (ERR AC0x) or with osmqos check $pol --partitions FILE (opensm's partition_config_file), fix it, then kill -HUP opensm"
grep -q "^OpenSM's own parser: refuses $copy since .* ago)\$" "$dir/refused.txt" ||
	bad "refused: $(cat "$dir/refused.txt")"
grep -q "^  OpenSM runs without a policy of its own .*osmqos check $pol --partitions FILE.*then \`kill -HUP\` opensm\$" \
	"$dir/refused.txt" || bad "refused, what to do: $(cat "$dir/refused.txt")"
jq -e --arg c "$copy" --argjson t "$since" '.policy.opensm_parse ==
	{"path": $c, "refused": true, "refused_since_epoch": $t}' \
	"$dir/refused.json" >/dev/null || bad "refused JSON: $(cat "$dir/refused.json")"
publish "$pol"
printf 'osmqos_policy_opensm_refused{path="%s"} 0\nosmqos_policy_opensm_refused_timestamp_seconds 0\n' \
	"$copy" >>"$pub/osmqos.prom"
status taken 0 in_force ""
grep -q "OpenSM's own parser" "$dir/taken.txt" && bad "taken: $(cat "$dir/taken.txt")"
jq -e --arg c "$copy" '.policy.opensm_parse ==
	{"path": $c, "refused": false, "refused_since_epoch": null}' \
	"$dir/taken.json" >/dev/null || bad "taken JSON: $(cat "$dir/taken.json")"
jq -e '.policy.opensm_parse == null' "$dir/good.json" >/dev/null ||
	bad "good: opensm_parse is not null: $(cat "$dir/good.json")"

# 6. An edit not loaded yet: the verdict first, the details as before.
publish "$pol"
cp "$pol" "$dir/good.conf"
echo "# an edit" >>"$pol"
status edited 1 edited edited \
	"status: the policy file holds an edit not loaded yet (exit 1): check it (osmqos check $pol), then kill -HUP opensm"
grep -q "^policy file: edited since the plugin read it " "$dir/edited.txt" ||
	bad "edited: no detail line: $(cat "$dir/edited.txt")"

# 7. That edit rejected: the last good policy stays; fix or restore.
reject "$pol" "$(fnv "$pol")"
status rejected 1 rejected rejected \
	"status: the policy file's current content was rejected, the last good policy stays (exit 1): fix it (osmqos check $pol), then kill -HUP opensm, or restore it from $pub/osmqos-policy-in-force.conf"
grep -q "^  the file's current content is not in force: " "$dir/rejected.txt" ||
	bad "rejected: no detail line: $(cat "$dir/rejected.txt")"

# 8. An edit in a stale publication: both causes, the stale one first.
publish "$pol" 600
status stale 1 edited stale,edited
head -n 1 "$dir/stale.txt" | grep -qxF "status: the publication is stale, $(
	head -n 1 "$dir/stale.txt" | grep -o '6[0-9][0-9] s old') where the master rewrites it every 60 s (exit 1): check that opensm runs and is the master (a standby publishes nothing), and its log; also the policy file holds an edit not loaded yet: check it (osmqos check $pol), then kill -HUP opensm" ||
	bad "stale: $(head -n 1 "$dir/stale.txt")"

# 9. No policy in force: the rejected content is why.
cat >"$pub/osmqos.prom" <<EOF
osmqos_publish_timestamp_seconds $(date +%s)
osmqos_publish_interval_seconds 60
osmqos_policy_info{path="$pol",hash=""} 0
osmqos_policy_load_success 0
osmqos_sweep 1
EOF
reject "$pol" "$(fnv "$pol")"
rm -f "$pub/osmqos-policy-in-force.conf"
status none-rejected 1 rejected no_policy,rejected \
	"status: no policy is in force, the ports keep OpenSM's templates: the policy file's current content was rejected (exit 1): fix it (osmqos check $pol), then kill -HUP opensm"

# 10. No policy in force and no file known: opensm's log says why.
cat >"$pub/osmqos.prom" <<EOF
osmqos_publish_timestamp_seconds $(date +%s)
osmqos_publish_interval_seconds 60
osmqos_policy_load_success 0
osmqos_sweep 1
EOF
status none 1 unknown no_policy \
	"status: no policy is in force, the ports keep OpenSM's templates (exit 1): see opensm's log for why, give it a valid policy (osmqos check FILE), then kill -HUP opensm"

# 11. A policy file named with a byte that is not UTF-8: the label says
# U+FFFD there (and \" for the quote), the source line the name itself.
odd=$(printf '%s/we"ird\xff.conf' "$dir")
label=$(printf '%s/we\\"ird\xef\xbf\xbd.conf' "$dir")
cp "$pol" "$odd"
hash=$(fnv "$pol")
publish "$label"
printf '%s %s\n' "$hash" "$odd" >"$pub/osmqos-policy-in-force.source"
status odd-name 0 in_force ""
grep -qxF "policy in force: $odd" "$dir/odd-name.txt" ||
	bad "odd-name: not the file's own name: $(cat "$dir/odd-name.txt")"
echo "# an edit" >>"$odd"
status odd-name-edited 1 edited edited \
	"status: the policy file holds an edit not loaded yet (exit 1): check it (osmqos check $odd), then kill -HUP opensm"
# A source line of another policy, then none: the label may name
# another file, which is not looked at.
printf '0x0123456789abcdef %s\n' "$odd" >"$pub/osmqos-policy-in-force.source"
status odd-name-other 0 unknown ""
rm -f "$pub/osmqos-policy-in-force.source" "$odd"
status odd-name-unsaid 0 unknown ""
grep -q "^policy file: its name is not UTF-8 (U+FFFD above), and $pub/osmqos-policy-in-force.source, which holds it byte for byte, cannot be read here or is of another policy: " \
	"$dir/odd-name-unsaid.txt" || bad "odd-name-unsaid: $(cat "$dir/odd-name-unsaid.txt")"

# 12. qos FALSE: the plugin loads no policy; that is the one cause.
cat >"$pub/osmqos.prom" <<EOF
osmqos_publish_timestamp_seconds $(date +%s)
osmqos_publish_interval_seconds 60
osmqos_qos_enabled 0
osmqos_policy_load_success 0
osmqos_sweep 1
EOF
status qos-false 1 unknown qos_disabled \
	"status: opensm.conf has qos FALSE: OpenSM programs no QoS tables (not even its templates) and osmqos loads no policy (exit 1): set qos TRUE in opensm.conf, then restart opensm"
grep -q "^policy in force: none: opensm.conf has qos FALSE" "$dir/qos-false.txt" ||
	bad "qos-false: $(cat "$dir/qos-false.txt")"
grep "template" "$dir/qos-false.txt" | grep -qv "not even its templates" &&
	bad "qos-false: says the ports keep templates: $(cat "$dir/qos-false.txt")"
jq -e '.qos_enabled == false' "$dir/qos-false.json" >/dev/null ||
	bad "qos-false: qos_enabled is not false: $(cat "$dir/qos-false.json")"
jq -e '.qos_enabled == null' "$dir/good.json" >/dev/null ||
	bad "good: qos_enabled is not null (not published): $(cat "$dir/good.json")"

# 13. No publication, only the policy a standby would put in force (the
# copy and its source line): that policy and the policy file against
# it, exit 1; without the copy either, nothing published (exit 2).
sb=$dir/standby
mkdir -p "$sb"
cp "$pol" "$sb/osmqos-policy-in-force.conf"
hash=$(fnv "$pol")
printf '%s %s\n' "$hash" "$pol" >"$sb/osmqos-policy-in-force.source"
# standby NAME FILE-WORD: text and JSON of status on $sb, exit 1 both.
standby() {
	local rc
	"$osmqos" status -d "$sb" >"$dir/$1.txt" 2>&1
	rc=$?
	[ "$rc" = 1 ] || bad "$1: exit $rc, not 1: $(cat "$dir/$1.txt")"
	head -n 1 "$dir/$1.txt" | grep -qF "status: no publication in $sb (no osmqos.prom), only the policy this host's osmqos would put in force: its opensm is a standby (only the master publishes), stopped before its first publication, or cannot write it there (its log says why) (exit 1): run osmqos status on the master's host" ||
		bad "$1: first line: $(head -n 1 "$dir/$1.txt")"
	grep -qxF "policy it would put in force: $pol" "$dir/$1.txt" ||
		bad "$1: the policy file not named: $(cat "$dir/$1.txt")"
	grep -qF "  hash $hash, as written $sb/osmqos-policy-in-force.conf at " \
		"$dir/$1.txt" || bad "$1: hash or copy: $(cat "$dir/$1.txt")"
	"$osmqos" status -d "$sb" --json >"$dir/$1.json" 2>&1
	rc=$?
	[ "$rc" = 1 ] || bad "$1: --json exit $rc, not 1"
	jq -e --arg p "$pol" --arg h "$hash" --arg f "$2" '
	.publish_dir != null and .published_at_epoch == null and
	.would_enforce.path == $p and .would_enforce.hash == $h and
	(.would_enforce.copy | endswith("/osmqos-policy-in-force.conf")) and
	.would_enforce.written_at_epoch > 0 and .would_enforce.file == $f and
	.verdict.exit_status == 1 and
	([.verdict.causes[].cause] == ["not_published"])' "$dir/$1.json" \
		>/dev/null || bad "$1: JSON: $(cat "$dir/$1.json")"
}
standby standby same
grep -qxF "policy file: holds that policy" "$dir/standby.txt" ||
	bad "standby: the file's state: $(cat "$dir/standby.txt")"
cp "$pol" "$dir/pol.keep"
echo "# an edit" >>"$pol"
standby standby-edited edited
grep -qF "policy file: holds another content now (hash $(fnv "$pol")): the standby reads the file every publish_interval= seconds" \
	"$dir/standby-edited.txt" || bad "standby-edited: $(cat "$dir/standby-edited.txt")"
rm -f "$pol"
standby standby-removed missing
grep -qxF "policy file: $pol removed: a takeover keeps the policy above; put the file back (from $sb/osmqos-policy-in-force.conf)" \
	"$dir/standby-removed.txt" || bad "standby-removed: $(cat "$dir/standby-removed.txt")"
mv "$dir/pol.keep" "$pol"
# The plugin writes the copy 0600: a user who cannot read it, or the
# publication, is told so and what to do, not that nothing is there.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
	chmod 0755 "$dir" "$sb"
	chmod 0600 "$sb/osmqos-policy-in-force.conf"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$osmqos" status -d "$sb" >"$dir/sb-eacces.txt" 2>&1
	rc=$?
	[ "$rc" = 2 ] && head -n 1 "$dir/sb-eacces.txt" | grep -qF "osmqos status: no publication in $sb, and the copy of the policy its osmqos would put in force, $sb/osmqos-policy-in-force.conf, cannot be read here (Permission denied); run status as root or opensm's user" ||
		bad "unreadable copy: exit $rc: $(cat "$dir/sb-eacces.txt")"
	printf 'osmqos_sweep 1\n' >"$sb/osmqos.prom"
	chmod 0600 "$sb/osmqos.prom"
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$osmqos" status -d "$sb" >"$dir/prom-eacces.txt" 2>&1
	rc=$?
	[ "$rc" = 2 ] && head -n 1 "$dir/prom-eacces.txt" | grep -qF "osmqos status: cannot read $sb/osmqos.prom: Permission denied; run status as root or opensm's user" ||
		bad "unreadable publication: exit $rc: $(cat "$dir/prom-eacces.txt")"
	rm -f "$sb/osmqos.prom"
fi
rm -f "$sb/osmqos-policy-in-force.conf"
"$osmqos" status -d "$sb" >"$dir/empty.txt" 2>&1
rc=$?
[ "$rc" = 2 ] || bad "nothing published: exit $rc, not 2"
grep -qF "nothing published in $sb" "$dir/empty.txt" ||
	bad "nothing published: $(cat "$dir/empty.txt")"

[ "$fail" = 0 ] && echo "status: the file in force, its copy changing, failed or missing, removed, a directory, a FIFO, a relative path, OpenSM refusing its copy, edited, rejected, stale, no policy, a name that is not UTF-8, qos FALSE, a standby's policy; the verdict first"
exit "$fail"
