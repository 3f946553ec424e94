#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# osmqos export writes, for every valid policy of the corpus, a file that
# `osmqos check` says stock OpenSM reads as written, and that compiles to
# the same tables as the original on a fabric (the intents' tables
# included, as qos-setup scopes); files stock OpenSM would misread (CRLF,
# unquoted blanks, the osmqos keys) come out readable; the sections keep
# the file's order (a name qos-ulps generates finds the group written
# first); the summary counts the file written, as check does; the
# export command check advises runs as given; bad inputs exit
# with osmqos(8)'s statuses and write nothing; an output that is the
# policy read is refused (synth's too), by name or as standard input.  The e2e rollback test
# (tests/e2e/sa-diff.sh) runs stock OpenSM on the exports.
set -u
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$PWD}
osmqos=$top_builddir/osmqos
[ -x "$osmqos" ] || { echo "export: build osmqos first"; exit 99; }
command -v jq >/dev/null || { echo "SKIP: export: no jq"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/oq-export.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0 n=0
bad() {
	echo "FAIL: $*"
	fail=1
}
net=$top_srcdir/contrib/fabrics/fat-tree-16.net
# The ipoib lines of the corpus name partitions 0x0001 and 0x0002.
parts=$dir/partitions.conf
cat >"$parts" <<'EOF'
Default=0x7fff, ipoib : ALL=full ;
p1=0x0001, ipoib : ALL=full ;
p2=0x0002, ipoib : ALL=full ;
EOF

# ports_of POLICY FABRIC OUT: every port's tables as `tables --all --json`
# gives them, without what names their source; fails when there are none.
ports_of() {
	"$osmqos" tables -p "$1" -f "$2" -k "$parts" --all --json 2>/dev/null |
		jq -e -S '[.ports[] | del(.origin, .scope, .sl2vl_origin, .vlarb_origin, .sl2vl_scope, .vlarb_scope)] | if length > 0 then . else error("no ports") end' \
			>"$3" 2>/dev/null
}

# one POLICY [FABRIC]: export, check the verdict, compare the tables.
one() {
	local pol=$1 fab=${2:-$net} b out
	b=$(basename "$pol" .conf)
	out=$dir/$b.stock.conf
	if ! "$osmqos" export -p "$pol" -f "$fab" -k "$parts" -o "$out" 2>"$dir/$b.err"; then
		bad "export of $pol failed: $(cat "$dir/$b.err")"
		return
	fi
	"$osmqos" check "$out" --fabric "$fab" -k "$parts" >"$dir/$b.check" 2>&1 ||
		bad "$b: the export is not valid: $(cat "$dir/$b.check")"
	grep -q 'stock OpenSM [0-9.]* reads it as written$' "$dir/$b.check" ||
		bad "$b: stock OpenSM would not read the export as written: $(cat "$dir/$b.check")"
	grep -qP '\r' "$out" && bad "$b: the export has CR bytes"
	# Every port's tables (--all), without what names the source.
	ports_of "$pol" "$fab" "$dir/$b.want" ||
		bad "$b: no port tables for $pol on $fab"
	ports_of "$out" "$fab" "$dir/$b.got" ||
		bad "$b: no port tables for the export of $pol on $fab"
	cmp -s "$dir/$b.want" "$dir/$b.got" ||
		bad "$b: the export compiles to other tables than $pol"
	n=$((n + 1))
}

for f in "$top_srcdir"/tests/policies/valid/*.conf "$top_srcdir"/contrib/policies/*.conf; do
	one "$f"
done
# qos-ulps before port-groups, a port-group named as the group the srp
# line generates: the export keeps that order, so its rule still gets the
# srp line's port (0x100001, sl 5), not the port-group's (0x100005).
ulps=$top_srcdir/tests/policies/valid/ulps-before-port-groups.conf
for pol in "$ulps" "$dir/ulps-before-port-groups.stock.conf"; do
	sls=$(for dst in 0x100001 0x100005; do
		"$osmqos" match -p "$pol" -f "$net" --src 0x100003 --dst $dst \
			-Q 1 --json 2>/dev/null | jq -r .sl
	done | tr '\n' ' ')
	[ "$sls" = "5 0 " ] ||
		bad "$pol gives 0x100001 and 0x100005 SLs $sls, want 5 0"
done
order=$(grep -E '^(qos-ulps|port-groups)$' \
	"$dir/ulps-before-port-groups.stock.conf" | tr '\n' ' ')
[ "$order" = "qos-ulps port-groups " ] ||
	bad "the export of $ulps does not keep qos-ulps before port-groups"

# On mixed-caps a spine's ports need different tables: the scopes key a
# switch whole, and export says so (as synth does).
"$osmqos" export -p "$top_srcdir/contrib/policies/intents.conf" \
	-f "$top_srcdir/contrib/fabrics/mixed-caps.net" -o "$dir/mixed.conf" \
	2>"$dir/mixed.err" || bad "export on mixed-caps failed: $(cat "$dir/mixed.err")"
grep -q 'warning: the scopes give 1 of 16 programmed port(s) other tables' "$dir/mixed.err" ||
	bad "export on mixed-caps does not warn about the spine: $(cat "$dir/mixed.err")"

# The summary counts what the file holds, as check counts it: the
# intents' classes become groups and scopes the source does not have.
"$osmqos" export -p "$top_srcdir/contrib/policies/intents.conf" -f "$net" \
	-o "$dir/int-count.conf" 2>"$dir/count.err" ||
	bad "export of intents.conf failed: $(cat "$dir/count.err")"
want=$("$osmqos" check "$dir/int-count.conf" 2>&1 |
	sed -n 's/^.*: valid: \(.*\), [0-9]* warnings*$/\1/p')
[ -n "$want" ] || bad "check of the intents export gives no counts"
grep -qF "wrote $dir/int-count.conf: $want; " "$dir/count.err" ||
	bad "export's summary does not count the file ($want): $(cat "$dir/count.err")"

# The export command check advises for a rollback runs as given: with an
# intents policy it carries -f (the --fabric check had, else TOPO);
# without intents it has none.
advice() { # check's args...: the command between the backquotes
	"$osmqos" check "$@" 2>/dev/null | sed -n 's/^.*`\(osmqos export [^`]*\)`.*$/\1/p'
}
int=$top_srcdir/contrib/policies/intents.conf
read -ra cmd <<<"$(advice "$int" --fabric "$net")"
if [ "${cmd[*]}" != "osmqos export -p $int -f $net -o FILE" ]; then
	bad "check advises '${cmd[*]}' for intents on $net"
else
	cmd[0]=$osmqos cmd[7]=$dir/advised.conf
	"${cmd[@]}" 2>"$dir/err" || bad "the advised ${cmd[*]} fails: $(cat "$dir/err")"
fi
cmd=$(advice "$int")
[ "$cmd" = "osmqos export -p $int -f TOPO -o FILE" ] ||
	bad "check advises '$cmd' for intents without a fabric"
doc=$top_srcdir/contrib/policies/opensm-doc-full.conf
cmd=$(advice "$doc" --fabric "$net")
[ "$cmd" = "osmqos export -p $doc -o FILE" ] ||
	bad "check advises '$cmd' for a policy without intents"

# What stock OpenSM misreads comes out readable: CRLF, names with blanks.
sed 's/$/\r/' "$top_srcdir/contrib/policies/opensm-doc-full.conf" >"$dir/crlf-blanks.conf"
"$osmqos" check "$dir/crlf-blanks.conf" 2>&1 | grep -q 'stock OpenSM [0-9.]* rejects it' ||
	bad "the CRLF policy is not one stock OpenSM rejects"
one "$dir/crlf-blanks.conf"

# Bad inputs: an invalid policy (1), intents without a fabric, a missing
# file, an output in a missing directory (2); nothing is written.
printf 'qos-levels\n  qos-level\n    name: DEFAULT\n  end-qos-level\nend-qos-levels\n' >"$dir/invalid.conf"
expect() { # RC OUTPUT ARGS...
	local want=$1 out=$2 rc
	shift 2
	"$osmqos" export "$@" -o "$out" >/dev/null 2>"$dir/err"
	rc=$?
	[ "$rc" = "$want" ] || bad "export $*: exit $rc, want $want: $(cat "$dir/err")"
	[ -e "$out" ] && bad "export $*: wrote $out after an error"
	[ "$(wc -l <"$dir/err")" -ge 1 ] || bad "export $*: no message"
}
expect 1 "$dir/o1.conf" -p "$dir/invalid.conf"
expect 2 "$dir/o2.conf" -p "$top_srcdir/contrib/policies/intents.conf"
grep -q 'give the fabric' "$dir/err" || bad "intents without --fabric: no hint: $(cat "$dir/err")"
expect 2 "$dir/o3.conf" -p "$dir/none.conf"
expect 2 "$dir/nowhere/o4.conf" -p "$top_srcdir/contrib/policies/fat-tree-16.conf"

# An output that is the policy read (by its name, another spelling, a
# symbolic link to it) is refused and the policy left as it was; synth
# -o the same.  A name beside it is written.
net16=$top_srcdir/contrib/fabrics/fat-tree-16.net
cp "$top_srcdir/contrib/policies/intents.conf" "$dir/int.conf"
ln -s int.conf "$dir/int-link.conf"
for cmd in export synth; do
	for out in "$dir/int.conf" "$dir/./int.conf" "$dir/int-link.conf"; do
		cp "$top_srcdir/contrib/policies/intents.conf" "$dir/int.conf"
		"$osmqos" $cmd -p "$dir/int.conf" -f "$net16" -o "$out" \
			>/dev/null 2>"$dir/err"
		rc=$?
		[ "$rc" = 2 ] || bad "$cmd -o $out (its -p): exit $rc, want 2"
		cmp -s "$dir/int.conf" "$top_srcdir/contrib/policies/intents.conf" ||
			bad "$cmd -o $out (its -p) changed the policy"
		grep -q "is the file -p reads: .* beside it (e.g. int\.$([ $cmd = export ] && echo stock || echo lowered)\.conf)" \
			"$dir/err" || bad "$cmd -o $out (its -p): $(cat "$dir/err")"
	done
done
# The same when the policy is read from standard input (-p -) redirected
# from the output file: the same file by device and inode; predict
# --svg too.
for w in "export -o" "synth -o" "predict --svg"; do
	cmd=${w% *} opt=${w#* }
	cp "$top_srcdir/contrib/policies/intents.conf" "$dir/int.conf"
	"$osmqos" $cmd -p - -f "$net16" "$opt" "$dir/int.conf" \
		<"$dir/int.conf" >/dev/null 2>"$dir/err"
	rc=$?
	[ "$rc" = 2 ] || bad "$cmd -p - $opt int.conf <int.conf: exit $rc, want 2"
	cmp -s "$dir/int.conf" "$top_srcdir/contrib/policies/intents.conf" ||
		bad "$cmd -p - $opt int.conf <int.conf changed the policy"
	grep -q "^osmqos $cmd: $opt '$dir/int.conf' is the file -p reads from standard input: .* beside it (e.g. int\.[a-z]*\.conf)" \
		"$dir/err" || bad "$cmd -p - $opt int.conf <int.conf: $(cat "$dir/err")"
done
# Standard input from another file: written.
"$osmqos" export -p - -f "$net16" -o "$dir/int.conf" \
	<"$top_srcdir/contrib/policies/intents.conf" 2>"$dir/err" &&
	! cmp -s "$dir/int.conf" "$top_srcdir/contrib/policies/intents.conf" ||
	bad "export -p - <another file -o: $(cat "$dir/err")"
cp "$top_srcdir/contrib/policies/intents.conf" "$dir/int.conf"
"$osmqos" export -p "$dir/int.conf" -f "$net16" -o "$dir/int.stock.conf" \
	2>"$dir/err" && [ -s "$dir/int.stock.conf" ] ||
	bad "export -o beside the policy: $(cat "$dir/err")"

[ "$fail" = 0 ] && echo "export: $n policies exported, each read as written by the stock model, same tables"
exit "$fail"
