#!/bin/bash
# Replay the policy fuzz corpus (seeds and past findings) through the
# parser with the plain driver; part of `make check`.
set -eu
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
top_builddir=${top_builddir:-.}
exec "$top_builddir/tests/fuzz/fuzz_policy" \
	"$top_srcdir/tests/fuzz/corpus/policy" \
	"$top_srcdir/tests/policies/valid" "$top_srcdir/tests/policies/invalid"
