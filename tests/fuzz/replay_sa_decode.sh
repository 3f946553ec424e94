#!/bin/bash
# Replay the SA-response fuzz corpus through the plain driver (make check).
set -e
exec "${top_builddir:-.}/tests/fuzz/fuzz_sa_decode" "${top_srcdir:-.}/tests/fuzz/corpus/sa_decode"
