#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# What the CLI writes: the files named by synth/export -o and --svg, and
# standard output.  Anything but a regular file (a FIFO, a device, a
# directory, a name ending in '/') is refused before the command prints
# or writes anything, and left as it was; a symlink is followed to its file; an existing
# file keeps its mode; a missing directory is named; a failed write
# leaves the old file; another user's symlink is not followed; output
# that cannot reach standard output (a full device, closed) is an error,
# exit 2, but for a reader that stopped reading.  An output of "-" is
# standard output.
: "${top_srcdir:?}" "${top_builddir:?}"
q=$top_builddir/osmqos
ft=$top_srcdir/contrib/fabrics/fat-tree-16.net
pol=$top_srcdir/contrib/policies/fat-tree-16.conf
intents=$top_srcdir/contrib/policies/intents.conf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
fail() { echo "FAIL: $*"; exit 1; }

. "$top_srcdir/tests/cli-lib.sh"

# refused FIRST ARGS...: exit 2 with FIRST on standard error, and nothing
# on standard output: the file to write is checked before the command
# runs, not after it has printed its result.
refused() {
	expect_err 2 "$@"
	[ ! -s "$tmp/out" ] ||
		fail "osmqos ${*:2} printed before refusing: $(head -n 1 "$tmp/out")"
}

synth=(synth -p "$intents" -f "$ft")
export_=(export -p "$intents" -f "$ft")
predict=(predict -p "$pol" -f "$ft")
model=(model --mtu 2048 --low 0:1,1:1 --sweep-low 1..3)

# The reference output of each writer, through standard output or a
# plain file.
run "${synth[@]}"
[ "$rc" = 0 ] || fail "synth exited $rc: $(head -n 3 "$tmp/err")"
cp "$tmp/out" "$tmp/synth.ref"
grep -q '^qos-levels' "$tmp/synth.ref" || fail "synth printed no policy"

mkfifo "$tmp/fifo"
mkdir "$tmp/dir"
for target in "$tmp/fifo" "$tmp/dir"; do
	kind=$([ -p "$target" ] && echo "a FIFO" || echo "a directory")
	refused "osmqos synth: -o '$target' is $kind; name a regular file to write" \
		"${synth[@]}" -o "$target"
	refused "osmqos export: -o '$target' is $kind; name a regular file to write" \
		"${export_[@]}" -o "$target"
	refused "osmqos predict: --svg '$target' is $kind; name a regular file to write" \
		"${predict[@]}" --svg "$target"
	refused "osmqos model: --svg '$target' is $kind; name a regular file to write" \
		"${model[@]}" --svg "$target"
done
# A name ending in '/' names a directory, there or not: refused, and no
# file made under the name without it.
for target in "$tmp/newdir/" "$tmp/dir/"; do
	refused "osmqos synth: -o '$target' ends in '/': it names a directory; name a file to write" \
		"${synth[@]}" -o "$target"
	refused "osmqos export: -o '$target' ends in '/': it names a directory; name a file to write" \
		"${export_[@]}" -o "$target"
	refused "osmqos predict: --svg '$target' ends in '/': it names a directory; name a file to write" \
		"${predict[@]}" --svg "$target"
	refused "osmqos model: --svg '$target' ends in '/': it names a directory; name a file to write" \
		"${model[@]}" --svg "$target"
done
[ ! -e "$tmp/newdir" ] || fail "an output ending in '/' created $tmp/newdir"
[ -p "$tmp/fifo" ] || fail "the FIFO is no longer a FIFO"
[ -d "$tmp/dir" ] && [ -z "$(ls -A "$tmp/dir")" ] ||
	fail "the directory was written into"

# A device: only root can make one; /dev/null stands in otherwise (as
# root too it must stay a device).
if mknod "$tmp/null" c 1 3 2>/dev/null; then
	dev=$tmp/null
else
	dev=/dev/null
fi
refused "osmqos synth: -o '$dev' is a character device; name a regular file to write" \
	"${synth[@]}" -o "$dev"
refused "osmqos predict: --svg '$dev' is a character device; name a regular file to write" \
	"${predict[@]}" --svg "$dev"
refused "osmqos export: -o '$dev' is a character device; name a regular file to write" \
	"${export_[@]}" -o "$dev"
refused "osmqos model: --svg '$dev' is a character device; name a regular file to write" \
	"${model[@]}" --svg "$dev"
[ -c "$dev" ] || fail "$dev is no longer a character device"

# A symlink is followed: the file it names gets the output, the link
# stays a link.
echo old >"$tmp/real"
ln -s real "$tmp/link"
expect_err 0 "*" "${synth[@]}" -o "$tmp/link"
[ -L "$tmp/link" ] || fail "-o replaced the symlink itself"
cmp -s "$tmp/real" "$tmp/synth.ref" ||
	fail "-o through a symlink did not write the file it names"
# Another user's symlink (one planted in /tmp) is not followed, whatever
# fs.protected_symlinks says: root would replace the file it names.
if [ "$(id -u)" = 0 ]; then
	ln -s real "$tmp/planted"
	chown -h nobody "$tmp/planted"
	echo old >"$tmp/real"
	refused "osmqos synth: -o '$tmp/planted' is a symlink owned by uid $(id -u nobody), not by you or root; name the file itself" \
		"${synth[@]}" -o "$tmp/planted"
	[ "$(cat "$tmp/real")" = old ] || fail "-o wrote through another user's symlink"
fi
ln -s nowhere "$tmp/dangling"
refused "osmqos synth: -o '$tmp/dangling' is a symlink whose file cannot be reached (No such file or directory); name the file itself" \
	"${synth[@]}" -o "$tmp/dangling"
[ -L "$tmp/dangling" ] && [ ! -e "$tmp/nowhere" ] ||
	fail "-o through a dangling symlink created something"

# An existing file keeps its mode (0600 stays 0600); a new one is 0644.
echo old >"$tmp/private"
chmod 600 "$tmp/private"
expect_err 0 "*" "${synth[@]}" -o "$tmp/private"
[ "$(stat -c %a "$tmp/private")" = 600 ] ||
	fail "-o changed an existing file's mode to $(stat -c %a "$tmp/private")"
expect_err 0 "*" "${synth[@]}" -o "$tmp/new"
[ "$(stat -c %a "$tmp/new")" = 644 ] ||
	fail "-o created a file of mode $(stat -c %a "$tmp/new")"
cmp -s "$tmp/new" "$tmp/synth.ref" || fail "-o wrote other than stdout"

# "-" is standard output, as it is standard input for the inputs: the
# file there alone (what the command prints itself goes to standard
# error), no file named "-"; not with --json, which needs standard output
# too.
mkdir "$tmp/cwd"
cd "$tmp/cwd" || fail "cannot enter $tmp/cwd"
for w in "synth -o" "export_ -o" "predict --svg" "model --svg"; do
	arr=${w% *}[@] opt=${w#* }
	ref=$tmp/ref.$RANDOM
	expect_err 0 "*" "${!arr}" "$opt" "$ref"
	expect_err 0 "*" "${!arr}" "$opt" -
	cmp -s "$tmp/out" "$ref" || fail "${!arr} $opt - did not write the file alone to standard output"
	[ ! -e "$tmp/cwd/-" ] || fail "${!arr} $opt - wrote a file named '-'"
done
run "${predict[@]}" --svg -
[ "$rc" = 0 ] && grep -q '^class 1: ' "$tmp/err" ||
	fail "predict --svg -: the text is not on standard error: $(head -n 3 "$tmp/err")"
expect_err 0 "*" "${synth[@]}" -o - --report
grep -q '^qos-levels' "$tmp/out" && ! grep -q '^qos-levels' "$tmp/err" && [ -s "$tmp/err" ] ||
	fail "synth -o - --report: the policy is not alone on standard output"
expect_err 2 "osmqos predict: --svg - and --json both write standard output; give --svg a file, or leave --json out" \
	"${predict[@]}" --svg - --json
expect_err 2 "osmqos synth: -o - and --json both write standard output; give -o a file, or leave --json out" \
	"${synth[@]}" -o - --json
[ ! -s "$tmp/out" ] || fail "a refused -o - printed on standard output"
if [ -c /dev/full ]; then
	timeout 60 "$q" "${export_[@]}" -o - >/dev/full 2>"$tmp/err"
	rc=$?
	[ "$rc" = 2 ] && grep -q "cannot write -o - (standard output): No space left on device; " "$tmp/err" ||
		fail "export -o - >/dev/full: exit $rc, $(tail -n 1 "$tmp/err")"
	n=$((n + 1))
fi
cd - >/dev/null || fail "cannot go back"

# A missing directory is named; nothing is created.
refused "osmqos export: -o '$tmp/nodir/x.conf': its directory '$tmp/nodir' does not exist; create it or name another file" \
	"${export_[@]}" -o "$tmp/nodir/x.conf"
[ ! -e "$tmp/nodir" ] || fail "-o created the missing directory"

# A write that fails leaves the old file whole (a directory that cannot
# take the temporary file: not for root, who writes anyway).
if [ "$(id -u)" != 0 ]; then
	mkdir "$tmp/ro"
	echo old >"$tmp/ro/p.conf"
	chmod 555 "$tmp/ro"
	expect_err 2 "osmqos synth: cannot write -o '$tmp/ro/p.conf'*" \
		"${synth[@]}" -o "$tmp/ro/p.conf"
	[ "$(cat "$tmp/ro/p.conf")" = old ] || fail "a failed -o changed the file"
	chmod 755 "$tmp/ro"
fi

# Standard output on a full device: exit 2, never 0 with a cut result.
if [ -c /dev/full ]; then
	for args in "${synth[*]}" "tables -p $pol -f $ft" "check $pol" \
		"match -p $pol -f $ft --src cn01 --dst cn02" "--help"; do
		# shellcheck disable=SC2086
		timeout 60 "$q" $args >/dev/full 2>"$tmp/err"
		rc=$?
		[ "$rc" = 2 ] || fail "osmqos $args >/dev/full exited $rc, want 2"
		grep -q ": cannot write standard output: No space left on device; " "$tmp/err" ||
			fail "osmqos $args >/dev/full: $(tail -n 1 "$tmp/err")"
		n=$((n + 1))
	done
fi

# Standard output closed: said so, with the way out.
timeout 60 "$q" check "$intents" >&- 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -q "cannot write standard output: Bad file descriptor; .*run it with standard output open" "$tmp/err" ||
	fail "check >&-: exit $rc, $(cat "$tmp/err")"
# The reader stopped (SIGPIPE ignored, as under systemd): not an error.
(trap '' PIPE; "$q" tables -f "$ft" 2>"$tmp/err" | head -c 1 >/dev/null; exit "${PIPESTATUS[0]}")
rc=$?
[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] || fail "tables | head with SIGPIPE ignored: exit $rc, $(cat "$tmp/err")"
# The same when the reader stops after its first line in the middle of
# one large write (an exported policy of 0.5 MB, far more than a pipe
# holds): nothing of it is left to write at the end, and the error is
# still the reader's going away, not an I/O error.
{
	printf 'port-groups\n    port-group\n        name: many\n'
	seq 1 64000 | awk '{ printf "        port-guid: 0x%x\n", $1 * 2 }'
	printf '    end-port-group\nend-port-groups\nqos-levels\n'
	printf '    qos-level\n        name: DEFAULT\n        sl: 0\n    end-qos-level\n'
	printf '    qos-level\n        name: from-many\n        sl: 1\n    end-qos-level\n'
	printf 'end-qos-levels\nqos-match-rules\n    qos-match-rule\n'
	printf '        source: many\n        qos-level-name: from-many\n'
	printf '    end-qos-match-rule\nend-qos-match-rules\n'
} >"$tmp/many.conf"
"$q" export -p "$tmp/many.conf" 2>/dev/null >"$tmp/many.out"
[ "$(wc -c <"$tmp/many.out")" -gt 262144 ] ||
	fail "the export of many.conf is too small to fill a pipe: $(wc -c <"$tmp/many.out") bytes"
(trap '' PIPE; "$q" export -p "$tmp/many.conf" 2>"$tmp/err" | head -n 1 >/dev/null; exit "${PIPESTATUS[0]}")
rc=$?
[ "$rc" = 0 ] && [ ! -s "$tmp/err" ] ||
	fail "export | head -n 1 with SIGPIPE ignored: exit $rc, $(cat "$tmp/err")"
n=$((n + 3))
echo "PASS: $n cases"
