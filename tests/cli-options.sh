#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# One convention for every subcommand, as generated from the option table:
# each --help (and `osmqos help CMD`, the same text) fits 79 columns, lists
# -h/--help and -V/--version and ends with its exit statuses; an option several
# subcommands take has the same short letter in all of them (and a letter
# means one option); and each subcommand's option list in osmqos(8) (the
# .TP entries of its .SS section) is exactly its --help's, -h and -V aside
# (the page documents those once).
: "${top_srcdir:?}" "${top_builddir:?}"
q=$top_builddir/osmqos
man=$top_srcdir/contrib/man/osmqos.8
export LC_ALL=C
rc=0
fail() { echo "FAIL: $*"; rc=1; }

# help_entries CMD: one line per option of CMD's --help, "-x --name" or
# "--name".
help_entries() {
	"$q" "$1" --help | sed -n -E \
		-e 's/^  (-[A-Za-z]), (--[a-z][a-z0-9_-]*).*/\1 \2/p' \
		-e 's/^      (--[a-z][a-z0-9_-]*).*/\1/p'
}

# man_entries CMD: the same from the head line of each .TP entry of CMD's
# section; a short option directly followed by a long one is one entry.
man_entries() {
	sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' "$man" | awk -v cmd="$1" '
		/^\.S[SH] / { in_cmd = ($0 == ".SS " cmd); next }
		!in_cmd { next }
		/^\.TP/ { head = 1; next }
		head {
			head = 0
			n = split($0, w, /[ ",]+/)
			prev = ""
			for (i = 1; i <= n; i++) {
				if (w[i] ~ /^--[a-z][a-z0-9_-]*$/) {
					print (prev != "" ? prev " " : "") w[i]
					prev = ""
				} else if (w[i] ~ /^-[A-Za-z]$/) {
					if (prev != "")
						print prev
					prev = w[i]
				}
			}
			if (prev != "")
				print prev
		}'
}

cmds=$("$q" --help | awk '/^Commands:/ { c = 1; next } c && /^  [a-z]/ { print $1 }')
[ -n "$cmds" ] || fail "osmqos --help lists no commands"
all=
for c in $cmds; do
	out=$("$q" "$c" --help) || fail "osmqos $c --help exited $?"
	[ "$out" = "$("$q" help "$c")" ] ||
		fail "osmqos help $c differs from osmqos $c --help"
	long=$(awk 'length($0) > 79' <<<"$out")
	[ -z "$long" ] || fail "$c --help has lines over 79 columns: $long"
	grep -q '^  -h, --help ' <<<"$out" || fail "$c --help lacks -h, --help"
	grep -q '^  -V, --version ' <<<"$out" || fail "$c --help lacks -V, --version"
	# The exit statuses are the last paragraph.
	last=$(awk 'BEGIN { RS = "" } { p = $0 } END { print p }' <<<"$out" |
		grep -n '^Exit status: 0 ' | cut -d: -f1)
	[ -n "$last" ] || fail "$c --help does not end with its exit statuses"
	entries=$(help_entries "$c")
	[ -n "$entries" ] || fail "$c --help lists no options"
	all+="$entries"$'\n'
	mine=$(grep -v -e '^-h --help$' -e '^-V --version$' <<<"$entries" | sort)
	page=$(man_entries "$c" | sort)
	if [ "$mine" != "$page" ]; then
		fail "osmqos.8 section '$c' lists other options than its --help
$(diff <(echo "$page") <(echo "$mine") | sed -n 's/^[<>]/&/p' |
			sed -e 's/^</  only in osmqos.8:/' -e 's/^>/  only in --help:/')"
	fi
done

# Across subcommands: a long name has one letter (or none), a letter one
# long name.
pairs=$(sort -u <<<"$all" | sed '/^$/d')
dup=$(awk '{ long = $NF; short = NF == 2 ? $1 : "none"
	if (long in l && l[long] != short)
		print long " has " l[long] " and " short
	l[long] = short
	if (short != "none") { if (short in s && s[short] != long)
		print short " is " s[short] " and " long; s[short] = long } }' \
	<<<"$pairs")
[ -z "$dup" ] || fail "inconsistent letters across subcommands:
$dup"

[ $rc = 0 ] && echo "ok: $(wc -w <<<"$cmds") subcommands: help CMD equals" \
	"CMD --help, -h/-V and exit statuses in each, one letter per option," \
	"osmqos.8 lists each one's --help options"
exit $rc
