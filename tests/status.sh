#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# osmqos status on a publication written here as the plugin writes it,
# against the policy file as it is now: its content in force (exit 0);
# removed, replaced by a directory or a FIFO, or named by a relative
# path (opensm's working directory's, not this one's: a same-named file
# here is not read), or OpenSM's own parser refusing the copy it reads,
# each says so in a line of its own and exits 1.
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

# publish PATH: osmqos.prom saying PATH's content (hash $hash) is in
# force, loaded and published now, and the copy in force beside it.
publish() {
	local now
	now=$(date +%s)
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

# status NAME WANT-RC FILE-STATE: text and JSON, exit status and the
# JSON's policy.file.
status() {
	local name=$1 want=$2 state=$3 rc
	(cd "$dir/cwd" && timeout 20 "$osmqos" status -d "$pub") \
		>"$dir/$name.txt" 2>&1
	rc=$?
	[ "$rc" = "$want" ] || bad "$name: text exit $rc, want $want: $(cat "$dir/$name.txt")"
	(cd "$dir/cwd" && timeout 20 "$osmqos" status -d "$pub" --json) \
		>"$dir/$name.json" 2>&1
	rc=$?
	[ "$rc" = "$want" ] || bad "$name: JSON exit $rc, want $want"
	jq -e --arg s "$state" '.policy.file == $s' "$dir/$name.json" >/dev/null ||
		bad "$name: policy.file is not $state: $(cat "$dir/$name.json")"
}

# 1. The file holds the policy in force.
publish "$pol"
status good 0 in_force
grep -q '^policy file:' "$dir/good.txt" && bad "good: a policy file line: $(cat "$dir/good.txt")"

# 2. The file removed: the last good policy stays, restore it.
mv "$pol" "$dir/away.conf"
status removed 1 missing
grep -q "^policy file: $pol removed: the next sweep keeps the last good policy; restore it (from the copy above)\$" \
	"$dir/removed.txt" || bad "removed: $(cat "$dir/removed.txt")"

# 3. A directory, then a FIFO, where the file was (not opened: a FIFO
# would block).
mkdir "$pol"
status directory 1 not_regular
grep -q "^policy file: $pol is a directory, not a regular file: " "$dir/directory.txt" ||
	bad "directory: $(cat "$dir/directory.txt")"
rmdir "$pol"
mkfifo "$pol"
status fifo 1 not_regular
grep -q "^policy file: $pol is a FIFO, not a regular file: " "$dir/fifo.txt" ||
	bad "fifo: $(cat "$dir/fifo.txt")"
rm -f "$pol"
mv "$dir/away.conf" "$pol"

# 4. A relative path, as opensm was given it: a file of the same name
# and content in status's working directory is not opensm's.
cp "$pol" "$dir/cwd/qos-policy.conf"
publish qos-policy.conf
status relative 1 relative
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
status refused 1 in_force
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
status taken 0 in_force
grep -q "OpenSM's own parser" "$dir/taken.txt" && bad "taken: $(cat "$dir/taken.txt")"
jq -e --arg c "$copy" '.policy.opensm_parse ==
	{"path": $c, "refused": false, "refused_since_epoch": null}' \
	"$dir/taken.json" >/dev/null || bad "taken JSON: $(cat "$dir/taken.json")"
jq -e '.policy.opensm_parse == null' "$dir/good.json" >/dev/null ||
	bad "good: opensm_parse is not null: $(cat "$dir/good.json")"

[ "$fail" = 0 ] && echo "status: the file in force, removed, a directory, a FIFO, a relative path, OpenSM refusing its copy"
exit "$fail"
