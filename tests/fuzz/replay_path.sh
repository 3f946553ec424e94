#!/bin/bash
# Replay the path-engine fuzz corpus through the plain driver (make check).
set -e
exec "${top_builddir:-.}/tests/fuzz/fuzz_path" "${top_srcdir:-.}/tests/fuzz/corpus/path"
