#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The tree's architecture rules (docs/ARCHITECTURE.md), checked on the
# sources:
#  1. no file includes a .c file;
#  2. a header inside a core module's folder (policy/MODULE/*.h) is private
#     to that module, and so is a plugin room's *_int.h: no file outside
#     the folder includes it;
#  3. the folders' include graph has no cycle (a public header
#     include/osmqos/X.h counts as its module's folder), the plugin's
#     rooms (plugin/ROOM/) included; tsort finds loops;
#  4. the core includes no OpenSM header; nor do the plugin's OpenSM-free
#     rooms (OSMFREE_ROOMS below), whose files include only the core and
#     each other, and which alone make libosmqos-osmfree.la;
#  5. every build fragment lists only files of its own folder (or of a
#     subfolder without a fragment of its own): sources, headers, scripts
#     and data files by name; libraries of other folders are linked, not
#     listed.
# Prints each violation and the include edges between folders; exit 1 on
# any violation.
set -u
top=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2
fail=0
bad() {
	echo "FAIL: $*"
	fail=1
}

# Which folder owns a public header of include/osmqos/.
owner_of_public() {
	case $1 in
	clock | diag | file | htab | json | osm_release | text | wire) echo policy/util ;;
	node_name_map) echo policy/fabric ;;
	policy | stock) echo policy/lang ;;
	sa_path) echo policy/sa ;;
	pred_class) echo policy/model ;;
	*) echo "policy/$1" ;;
	esac
}

srcs=$(find policy plugin contrib include tests -name '*.[ch]' | sort)
[ -n "$srcs" ] || { echo "no sources under $top"; exit 2; }
# The -I directories of the build, in order.
incdirs="include plugin contrib/osmqos contrib/osmqos/mad tests/unit tests/lib ."

edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in $srcs; do
	dir=$(dirname "$f")
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*\([<"]\)\([^>"]*\)[>"].*/\1\2/p' "$f" |
		while read -r inc; do
			kind=${inc:0:1}
			name=${inc:1}
			case $name in
			*.c) bad "$f includes the source file $name" ;;
			esac
			target=
			if [ "$kind" = '"' ] && [ -f "$dir/$name" ]; then
				target=$(realpath --relative-to=. "$dir/$name")
			else
				for d in $incdirs; do
					if [ -f "$d/$name" ]; then
						target=$(realpath --relative-to=. "$d/$name")
						break
					fi
				done
			fi
			[ -n "$target" ] || continue # a system header
			case $target in
			include/osmqos/*.h)
				tdir=$(owner_of_public "$(basename "$target" .h)") ;;
			*) tdir=$(dirname "$target") ;;
			esac
			case $f in
			include/osmqos/*.h)
				fdir=$(owner_of_public "$(basename "$f" .h)") ;;
			*) fdir=$dir ;;
			esac
			case $target in
			policy/*/*.h | plugin/*/*_int.h)
				[ "$fdir" = "$tdir" ] ||
					bad "$f includes $target, private to $tdir" ;;
			esac
			[ "$fdir" = "$tdir" ] || echo "$fdir $tdir" >>"$edges"
		done
	# Subshell above: carry its failures out through the output.
done 2>&1 | tee /dev/stderr | grep -q '^FAIL' && fail=1

echo "Include edges between folders (from -> to):"
sort -u "$edges" | sed 's/^/  /'
if ! sort -u "$edges" | tsort >/dev/null 2>"$edges.err"; then
	cat "$edges.err"
	bad "the folders' include graph has a cycle (see tsort's loop above)"
fi
rm -f "$edges.err"

for f in $(find policy include -name '*.[ch]'); do
	grep -q '#[[:space:]]*include[[:space:]]*<\(opensm\|complib\|iba\)/' "$f" &&
		bad "$f (policy core) includes an OpenSM header"
done
# The plugin's rooms that include no OpenSM header (unit-tested and
# fuzzed without OpenSM): they may include the core and each other only.
OSMFREE_ROOMS="plugin/options plugin/documents plugin/audit"
for room in $OSMFREE_ROOMS; do
	[ -d "$room" ] || { bad "OpenSM-free room $room does not exist"; continue; }
	for f in "$room"/*.[ch]; do
		grep -q '#[[:space:]]*include[[:space:]]*<\(opensm\|complib\|iba\)/' "$f" &&
			bad "$f (OpenSM-free room $room) includes an OpenSM header"
	done
	for to in $(awk -v r="$room" '$1 == r { print $2 }' "$edges" | sort -u); do
		case " $OSMFREE_ROOMS " in
		*" $to "*) ;;
		*) case $to in
		   policy/*) ;;
		   *) bad "$room (OpenSM-free) includes from $to, which is not OpenSM-free" ;;
		   esac ;;
		esac
	done
done
# libosmqos-osmfree.la: exactly the OpenSM-free rooms' sources.
osmfree=$(find plugin -name '*.am' -exec sed -s -n \
	'/^plugin_libosmqos_osmfree_la_SOURCES +=/,/^$/p' {} + |
	grep -o 'plugin/[a-z_0-9/]*\.[ch]')
[ -n "$osmfree" ] || bad "the plugin's fragments list no OpenSM-free sources"
for f in $osmfree; do
	case " $OSMFREE_ROOMS " in
	*" $(dirname "$f") "*) ;;
	*) bad "$f is in libosmqos-osmfree.la but not in an OpenSM-free room" ;;
	esac
done
for room in $OSMFREE_ROOMS; do
	for f in "$room"/*.[ch]; do
		grep -qx "$f" <<<"$osmfree" || grep -q "$f" "$room"/*.am ||
			bad "$f (OpenSM-free room) is in no fragment"
	done
done

# Fragments: each path a fragment names must be in its folder, and not in
# a subfolder that has a fragment of its own.
# Only the source folders: build directories below an in-tree build
# (asan/src, opensm-builds/osmqos-src) hold copies of the tree.
frags=$(find include policy plugin contrib tests -name '*.am' | sort)
for fr in $frags; do
	fd=$(dirname "$fr")
	for p in $(grep -v -e '^[[:space:]]*#' -e '^include ' "$fr" |
		grep -o '\(contrib\|include\|plugin\|policy\|tests\|docs\)/[A-Za-z0-9_./-]*' |
		grep '\.\(c\|h\|sh\|conf\|map\|awk\|in\|[58]\)$' | sort -u); do
		case $p in
		"$fd"/*) ;;
		*) bad "$fr lists $p, outside its folder $fd"; continue ;;
		esac
		sub=$(dirname "$p")
		while [ "$sub" != "$fd" ] && [ "$sub" != . ]; do
			[ -n "$(find "$sub" -maxdepth 1 -name '*.am' 2>/dev/null)" ] &&
				bad "$fr lists $p, which $sub's own fragment owns"
			sub=$(dirname "$sub")
		done
	done
done

if [ "$fail" -ne 0 ]; then
	echo "FAIL: architecture rules broken (docs/ARCHITECTURE.md)"
	exit 1
fi
echo "PASS: no .c include, no private header used across folders, no include cycle between folders (plugin rooms included), no OpenSM header in the core or the plugin's OpenSM-free rooms ($OSMFREE_ROOMS), fragments list their own folders"
