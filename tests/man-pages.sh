#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The man pages render without a single groff warning (-ww), as `man -l`
# renders them, and say what the code does: every osmqos command and every
# option its --help lists is in osmqos(8), a JSON schema number they give
# is the one predictions are written with, every event_plugin_options key
# of plugin/options/options.c is in osmqos-plugin(8).
: "${top_srcdir:?}" "${top_builddir:?}"
command -v groff >/dev/null || {
	echo "SKIP: groff not installed (apt-get install groff-base man-db)"
	exit 77
}
man=$top_srcdir/contrib/man
pages="osmqos.8 osmqos-plugin.8 osmqos-policy.5"
export LC_ALL=C.UTF-8
rc=0
fail() { echo "FAIL: $*"; rc=1; }

for p in $pages; do
	f=$man/$p
	[ -r "$f" ] || { fail "$p missing"; continue; }
	# The terminal width man uses by default (78n), and a narrow one.
	for ll in 78n 65n; do
		w=$(groff -ww -man -Tutf8 -rLL=$ll -z "$f" 2>&1)
		[ -z "$w" ] || fail "$p at width $ll: groff says:
$w"
	done
	if command -v man >/dev/null; then
		w=$(MANWIDTH=80 man --warnings=all -l "$f" 2>&1 >/dev/null)
		[ -z "$w" ] || fail "$p: man -l says:
$w"
	fi
	# mandb and apropos need a NAME line they can parse.
	if command -v lexgrog >/dev/null; then
		lexgrog "$f" >/dev/null || fail "$p: lexgrog cannot parse NAME"
	fi
	echo "ok: $p renders cleanly"
done

# The source with \- turned back into -, for the consistency checks.
src() { sed 's/\\-/-/g' "$man/$1"; }

q=$top_builddir/osmqos
if [ -x "$q" ]; then
	cmds=$("$q" --help |
		awk '/^Commands:/ { c = 1; next } c && /^  [a-z]/ { print $1 }')
	[ -n "$cmds" ] || fail "osmqos --help lists no commands"
	before=$rc
	for c in $cmds; do
		src osmqos.8 | grep -q "^\.SS $c\$" ||
			fail "osmqos.8 has no section for command '$c'"
		opts=$("$q" "$c" --help | grep -o -- '--[a-z][a-z0-9_-]*' | sort -u)
		for o in $opts; do
			src osmqos.8 | grep -q -- "$o\\b" ||
				fail "osmqos.8 does not document '$c $o'"
		done
	done
	[ "$rc" != "$before" ] ||
		echo "ok: osmqos.8 documents every command and option of" \
			"osmqos --help"
else
	echo "note: $q not built; command/option check skipped"
fi

# A JSON schema number a page gives ("schema (N)") is the one the
# predictions are written with (OQ_PRED_SCHEMA: predict --json and the
# published file).
schema=$(sed -n 's/^#define OQ_PRED_SCHEMA \([0-9]*\)$/\1/p' \
	"$top_srcdir/include/osmqos/pred_class.h")
[ -n "$schema" ] || fail "no OQ_PRED_SCHEMA in include/osmqos/pred_class.h"
before=$rc
for p in $pages; do
	for v in $(src "$p" | tr '\n' ' ' |
		grep -oE '\.BR? schema +\(\\?[0-9]+\)' | grep -oE '[0-9]+'); do
		[ "$v" = "$schema" ] ||
			fail "$p gives JSON schema ($v); the code writes $schema"
	done
done
[ "$rc" != "$before" ] ||
	echo "ok: the man pages give JSON schema $schema, as the code writes"

keys=$(sed -n 's/^[[:space:]]*OPT(\([a-z_]*\)),$/\1/p' \
	"$top_srcdir/plugin/options/options.c")
[ -n "$keys" ] || fail "no OPT() keys found in plugin/options/options.c"
before=$rc
for k in $keys; do
	src osmqos-plugin.8 | grep -q "$k=" ||
		fail "osmqos-plugin.8 does not document event_plugin_options $k="
done
[ "$rc" != "$before" ] ||
	echo "ok: osmqos-plugin.8 documents every event_plugin_options key"
exit $rc
