#!/bin/bash
# Replay the SMP-answer fuzz corpus through the plain driver (make check).
set -e
exec "${top_builddir:-.}/tests/fuzz/fuzz_smp_decode" "${top_srcdir:-.}/tests/fuzz/corpus/smp_decode"
