#!/bin/bash
# Replay the arbitration-model fuzz corpus through the plain driver (make check).
set -e
exec "${top_builddir:-.}/tests/fuzz/fuzz_model" "${top_srcdir:-.}/tests/fuzz/corpus/model"
