#!/bin/bash
# Replay the hostile-fabric fuzz corpus through the plain driver (make check).
set -e
exec "${top_builddir:-.}/tests/fuzz/fuzz_smp_discover" "${top_srcdir:-.}/tests/fuzz/corpus/smp_discover"
