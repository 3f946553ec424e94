#!/bin/bash
# Replay the audit line formatter fuzz corpus through the plain driver (make check).
set -e
exec "${top_builddir:-.}/tests/fuzz/fuzz_audit_json" "${top_srcdir:-.}/tests/fuzz/corpus/audit_json"
