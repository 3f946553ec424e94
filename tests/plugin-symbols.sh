#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Every symbol libosmqos.so leaves undefined must be exported by the opensm
# binary, a library it loads, or a library the plugin itself names as
# NEEDED (e.g. libm; dlopen() loads those with it).  OpenSM dlopen()s
# plugins with RTLD_LAZY, so a missing function would not fail the load:
# it would kill opensm the first time the plugin calls it.
: "${top_builddir:=.}"
so=$top_builddir/.libs/libosmqos.so
# The opensm configure found (--with-opensm), else the one on PATH.
[ -f "$top_builddir/tests/e2e/env.sh" ] && . "$top_builddir/tests/e2e/env.sh"
osm=${OQ_OPENSM:-$(PATH=$PATH:/usr/sbin command -v opensm)}
[ -z "${OQ_OSM_LIBDIR:-}" ] ||
	export LD_LIBRARY_PATH="$OQ_OSM_LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
[ -f "$so" ] || { echo "FAIL: $so not built"; exit 1; }
[ -n "$osm" ] || { echo "SKIP: opensm not installed"; exit 77; }

defined=$(mktemp)
trap 'rm -f "$defined"' EXIT
{
	nm -D --defined-only "$osm"
	ldd "$osm" | awk '/=>/ && $3 ~ /^\// {print $3}' |
		xargs -r nm -D --defined-only
	nm -D --defined-only "$so"
	ldd "$so" | awk '/=>/ && $3 ~ /^\// {print $3}' |
		xargs -r nm -D --defined-only
} 2>/dev/null | awk '{print $3}' | sed 's/@.*//' | sort -u >"$defined"

missing=$(nm -D --undefined-only "$so" | awk '{print $2}' | sed 's/@.*//' |
	sort -u | comm -23 - "$defined" | grep -v '^_' )
if [ -n "$missing" ]; then
	echo "FAIL: libosmqos.so needs symbols nothing provides:"
	echo "$missing" | sed 's/^/  /'
	exit 1
fi
echo "PASS: $(nm -D --undefined-only "$so" | wc -l) undefined symbols, all provided by $osm"
