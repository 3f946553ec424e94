#!/bin/bash
# Replay the SA request fuzz corpus through the plain driver (make check).
set -e
corpus=${top_srcdir:-.}/tests/fuzz/corpus/sa_request
exec "${top_builddir:-.}/tests/fuzz/fuzz_sa_request" "$corpus"
