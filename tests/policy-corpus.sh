#!/bin/bash
# Policy corpus: `osmqos check` must accept every policy in
# tests/policies/valid and contrib/policies (exit 0), and reject every one in
# tests/policies/invalid (exit 1) with the error its first line announces:
#   # expect: LINE:COL: error: <substring of the message>
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-.}
osmqos=$top_builddir/osmqos
fail=0 n=0

if [ ! -x "$osmqos" ]; then
	echo "policy-corpus: $osmqos not built; run 'make osmqos' first" >&2
	exit 99
fi
for f in "$top_srcdir"/tests/policies/valid/*.conf \
	 "$top_srcdir"/contrib/policies/*.conf; do
	[ -e "$f" ] || continue
	n=$((n + 1))
	if ! out=$("$osmqos" check "$f" 2>&1); then
		echo "FAIL (should be valid): $f"
		echo "$out" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
done
for f in "$top_srcdir"/tests/policies/invalid/*.conf; do
	n=$((n + 1))
	expect=$(head -n 1 "$f" | sed -n 's/^# expect: //p')
	if [ -z "$expect" ]; then
		echo "FAIL (no '# expect:' first line): $f"
		fail=$((fail + 1))
		continue
	fi
	err=$("$osmqos" check "$f" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 1 ]; then
		echo "FAIL (exit $rc, want 1): $f"
		fail=$((fail + 1))
	elif ! grep -F -- "$f:${expect%%: error: *}: error: " <<<"$err" |
		grep -qF -- "${expect#*: error: }"; then
		echo "FAIL (missing '$f:$expect'): $f"
		echo "$err" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
done
echo "policy-corpus: $n policies, $fail failures"
[ $fail -eq 0 ]
