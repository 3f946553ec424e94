#!/bin/bash
# Replay the published-documents fuzz corpus through the plain driver (make check).
set -e
exec "${top_builddir:-.}/tests/fuzz/fuzz_publish" "${top_srcdir:-.}/tests/fuzz/corpus/publish"
