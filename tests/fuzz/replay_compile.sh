#!/bin/bash
# Replay the compile fuzz corpus through the plain driver (make check).
set -e
exec "${top_builddir:-.}/tests/fuzz/fuzz_compile" "${top_srcdir:-.}/tests/fuzz/corpus/compile"
