# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Shared by the CLI tests that assert what osmqos prints first: source it
# after setting q (the osmqos binary) and tmp (a scratch directory).
# expect counts the cases it checked in n.
n=0

# PATTERN as an extended regex: '*' matches anything, all else itself.
glob_re() {
	printf '%s' "$1" | sed -e 's/[]\.^$()|+?{}[]/\\&/g' -e 's/\*/.*/g'
}

# run ARGS...: osmqos ARGS, stdin from $IN (default /dev/null); the exit
# status in $rc, the output in $tmp/out and $tmp/err.
run() {
	timeout 60 "$q" "$@" <"${IN:-/dev/null}" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

# first_is FILE PATTERN: FILE's first line matches PATTERN ('*' anything).
first_is() {
	local line
	line=$(head -n 1 "$1")
	[[ "$line" =~ ^$(glob_re "$2")$ ]] ||
		fail "osmqos: first line of $(basename "$1")
  got:  $line
  want: $2"
}

# expect RC FIRST ARGS...: osmqos ARGS exits RC and the first line it
# prints (stdout when RC is 0, else stderr) matches FIRST.
expect() {
	local want=$1 first=$2
	shift 2
	run "$@"
	[ "$rc" = "$want" ] ||
		fail "osmqos $* exited $rc, want $want: $(head -n 3 "$tmp/err")"
	if [ "$want" = 0 ]; then
		first_is "$tmp/out" "$first"
	else
		first_is "$tmp/err" "$first"
	fi
	n=$((n + 1))
}

# expect_err RC FIRST ARGS...: the same, FIRST the first line of stderr
# whatever the exit status.
expect_err() {
	local want=$1 first=$2
	shift 2
	run "$@"
	[ "$rc" = "$want" ] ||
		fail "osmqos $* exited $rc, want $want: $(head -n 3 "$tmp/err")"
	first_is "$tmp/err" "$first"
	n=$((n + 1))
}
