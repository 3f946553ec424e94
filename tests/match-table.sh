#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# `osmqos match` against a hand-computed table: every line of
# tests/data/match-expected.txt is one query on fat-tree-16.net with
# tests/data/match-policy.conf and the rule, level and SL it must get.
set -u
srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
builddir=${top_builddir:-.}
osmqos=$builddir/osmqos
fabric=$srcdir/contrib/fabrics/fat-tree-16.net
policy=$srcdir/tests/data/match-policy.conf
table=$srcdir/tests/data/match-expected.txt

for f in "$fabric" "$policy" "$table"; do
	[ -r "$f" ] || { echo "SKIP: $f missing"; exit 77; }
done
[ -x "$osmqos" ] || { echo "FAIL: $osmqos not built"; exit 1; }

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; echo "${s%"${s##*[![:space:]]}"}"; }
# Value of a top-level key in the one-line JSON object (number, null or
# a string without quotes inside).
json_get() {
	sed -n "s/.*\"$1\": \(\"[^\"]*\"\|[^,}]*\).*/\1/p" <<<"$2" | tr -d '"'
}

n=0 fail=0
while IFS='|' read -r src dst extra rule level sl; do
	case $src in ''|'#'*) continue ;; esac
	src=$(trim "$src") dst=$(trim "$dst") extra=$(trim "$extra")
	rule=$(trim "$rule") level=$(trim "$level") sl=$(trim "$sl")
	n=$((n + 1))
	# shellcheck disable=SC2086 # extra holds several options
	out=$("$osmqos" match --policy "$policy" --fabric "$fabric" \
		--src "$src" --dst "$dst" $extra --json 2>/dev/null)
	rc=$?
	got="$(json_get rule "$out")|$(json_get level "$out")|$(json_get sl "$out")"
	if [ $rc -ne 0 ] || [ "$got" != "$rule|$level|$sl" ]; then
		echo "FAIL: $src -> $dst $extra: want $rule|$level|$sl, got $got (exit $rc)"
		fail=$((fail + 1))
	fi
done <"$table"

# Usage and input errors: exit 2 with a hint.
"$osmqos" match --policy "$policy" --fabric "$fabric" --src nosuch/P1 \
	--dst 0x100001 >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: unknown port should exit 2"; fail=$((fail + 1)); }
"$osmqos" match --policy "$policy" --fabric "$fabric" --src 0x100001 \
	--dst 0x100003 --qos-class 0x10000 >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: bad qos-class should exit 2"; fail=$((fail + 1)); }

[ $n -ge 30 ] || { echo "FAIL: only $n queries in $table"; exit 1; }
echo "match-table: $n queries, $fail failure(s)"
[ $fail -eq 0 ]
