#!/bin/bash
# Replay the partitions fuzz corpus through the plain driver (make check).
set -e
exec "${top_builddir:-.}/tests/fuzz/fuzz_partitions" "${top_srcdir:-.}/tests/fuzz/corpus/partitions"
