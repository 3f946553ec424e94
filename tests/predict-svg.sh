#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# osmqos predict --svg: a well-formed SVG document with one bar per port
# the text output lists (the same ports, the same names), SL segments that
# never exceed their link's outline, names in any bytes as valid XML,
# and usage errors for what it refuses.
: "${top_srcdir:?}" "${top_builddir:?}"
set -o pipefail
q=$top_builddir/osmqos
P=$top_srcdir/contrib/policies/fat-tree-16.conf
F=$top_srcdir/contrib/fabrics/fat-tree-16.net
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rc=0
fail() { echo "FAIL: $*"; rc=1; }

# Well-formed: xmllint when installed, else a tag-balance check in awk
# (every element closed in order, one root <svg>).
well_formed() {
	if command -v xmllint >/dev/null; then
		xmllint --noout "$1"
		return
	fi
	awk '
	{ text = text $0 "\n" }
	END {
		n = 0; roots = 0
		while (match(text, /<[^>]*>/)) {
			tag = substr(text, RSTART, RLENGTH)
			text = substr(text, RSTART + RLENGTH)
			if (tag ~ /^<[?!]/ || tag ~ /\/>$/)
				continue
			name = tag; sub(/^<\/?/, "", name); sub(/[ >].*/, "", name)
			if (tag ~ /^<\//) {
				if (!n || stack[n] != name) {
					print "unbalanced </" name ">"; exit 1
				}
				n--
			} else {
				if (!n) roots++
				stack[++n] = name
			}
		}
		if (n || roots != 1) { print "unclosed or extra root"; exit 1 }
	}' "$1"
}

# The ports of the text output, one "Node/Pn" per line.
text_ports() { awk '/^[^ ].*  guid 0x/ { sub(/  guid 0x.*/, ""); print }'; }
# The ports drawn, from the bars' data-port attributes.
svg_ports() {
	grep -o '<g class="port" data-port="[^"]*"' "$1" |
		sed 's/.*data-port="//; s/"$//; s/&amp;/\&/g'
}

svg=$tmp/all.svg
"$q" predict --all --policy "$P" --fabric "$F" --svg "$svg" >"$tmp/text" \
	2>"$tmp/err" || fail "predict --svg exited $?: $(cat "$tmp/err")"
well_formed "$svg" || fail "$svg is not well-formed XML"
head -c 200 "$svg" | grep -q '<svg xmlns="http://www.w3.org/2000/svg"' ||
	fail "no <svg> root element"
text_ports <"$tmp/text" >"$tmp/want"
svg_ports "$svg" >"$tmp/got"
n=$(wc -l <"$tmp/want")
[ "$n" -gt 40 ] || fail "only $n ports in the text output"
cmp -s "$tmp/want" "$tmp/got" || fail "bars differ from the ports listed:" \
	"$(diff "$tmp/want" "$tmp/got" | head -5)"
grep -q "wrote $svg: $n port bar(s)" "$tmp/err" ||
	fail "stderr does not report $n bars: $(cat "$tmp/err")"
echo "ok: $n ports, $n bars, well-formed"

# Within each bar the SL segments add up to at most the link outline, and
# the storage leaf port (VL1 high) shows SL 1 as its largest segment.
if awk '
function attr(name,  v) {
	v = $0
	sub(".* " name "=\"", "", v)
	sub(/".*/, "", v)
	return v
}
/<g class="port"/ { sum = 0; port = attr("data-port") }
/<rect class="sl"/ {
	w = attr("width") + 0
	sum += w
	if (port == "leaf01/P1" && w > best) {
		best = w
		bestsl = attr("data-sl")
	}
}
/<rect class="link"/ {
	w = attr("width") + 0
	if (sum > w + 0.05) {
		print "segments of " port " exceed the link: " sum " > " w
		bad = 1
	}
}
END {
	if (bestsl != "1") {
		print "leaf01/P1: largest segment is SL " bestsl ", not SL 1"
		bad = 1
	}
	exit bad
}' "$svg"; then
	echo "ok: segments within their links, SL 1 leads on leaf01/P1"
else
	fail "segment widths"
fi

# --port draws one bar; the same output as without --svg on stdout.
"$q" predict --policy "$P" --fabric "$F" --port "leaf01/P1" \
	--svg "$tmp/one.svg" >"$tmp/one.txt" 2>/dev/null ||
	fail "predict --port --svg failed"
[ "$(svg_ports "$tmp/one.svg")" = "leaf01/P1" ] ||
	fail "--port leaf01/P1 did not draw exactly that bar"
"$q" predict --policy "$P" --fabric "$F" --port "leaf01/P1" >"$tmp/plain.txt"
cmp -s "$tmp/one.txt" "$tmp/plain.txt" || fail "--svg changed the text output"
echo "ok: --port draws one bar"

# Names in any bytes (a node-name map's, a NodeDescription's): an
# invalid UTF-8 byte and a control character XML 1.0 forbids become
# U+FFFD; the markup characters are escaped.  Only xmllint checks the
# encoding and the characters.
if command -v xmllint >/dev/null; then
	printf '0x100002 "Z\374rich"\n0x100004 "ctl\001x"\n0x100006 "a<&>\303\251"\n' >"$tmp/map"
	"$q" predict --fabric "$top_srcdir/tests/data/fat-tree-16.ibnd" \
		--node-name-map "$tmp/map" --svg "$tmp/names.svg" >/dev/null 2>"$tmp/err" ||
		fail "predict --svg with odd names exited $?: $(cat "$tmp/err")"
	xmllint --noout "$tmp/names.svg" 2>"$tmp/xerr" ||
		fail "odd names make invalid XML: $(head -n 3 "$tmp/xerr")"
	for name in "Z$(printf '\357\277\275')rich/P1" "ctl$(printf '\357\277\275')x/P1" \
		"a&lt;&amp;&gt;$(printf '\303\251')/P1"; do
		grep -q -F "data-port=\"$name\"" "$tmp/names.svg" || fail "no bar named '$name'"
	done
	echo "ok: odd names give valid XML"
else
	echo "skip: no xmllint, the names' encoding is not checked"
fi

# Refusals: usage errors (exit 2) with a hint, no file left behind.
"$q" predict --fabric "$F" --path "cn01 HCA-1/P1" "stor1 HCA-1/P1" --sl 1 \
	--svg "$tmp/path.svg" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q -- '--svg' "$tmp/err" && [ ! -e "$tmp/path.svg" ] ||
	fail "--svg with --path not refused: $(cat "$tmp/err")"
"$q" predict --fabric "$F" --svg "$tmp/no/such/dir.svg" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "does not exist; create it" "$tmp/err" ||
	fail "unwritable --svg path not reported: $(cat "$tmp/err")"
"$q" predict --fabric "$F" --svg >/dev/null 2>&1
[ $? -eq 2 ] || fail "--svg without FILE not a usage error"
echo "ok: refusals"

# The picture in the README is a valid one of the same kind.
doc=$top_srcdir/docs/predict-fat-tree-16.svg
well_formed "$doc" || fail "$doc is not well-formed"
[ "$(svg_ports "$doc" | wc -l)" -eq "$n" ] ||
	fail "$doc does not have $n bars; regenerate it (README)"
exit $rc
