#!/bin/bash
# Replay the topology fuzz corpus through the plain driver (make check).
set -e
exec "${top_builddir:-.}/tests/fuzz/fuzz_topology" "${top_srcdir:-.}/tests/fuzz/corpus/topology"
