#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# osmqos predict's class summary, --all and --port say the same of every
# SL as the JSON: an SL that one input of a switch port sends to VL15 is
# on VL "mixed" and marked dropped with a guarantee of 0 in each view, and
# no other SL is marked.
: "${top_srcdir:?}" "${top_builddir:?}"
set -o pipefail
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
q=$top_builddir/osmqos
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
fail() { echo "FAIL: $*"; exit 1; }
mark='DROPPED from some input (VL15): guaranteed 0'

# One switch, three hosts; the switch's SL2VL from input 1 to output 3
# drops SL 1.
cat >"$tmp/one.net" <<'NET'
Switch	4 "sw1"		# "sw1"
[1]	"h1"[1]		# lid 0 4xQDR
[2]	"h2"[1]		# lid 0 4xQDR
[3]	"h3"[1]		# lid 0 4xQDR

Hca	2 "h1"		# "h1 HCA-1"
[1]	"sw1"[1]	# lid 0 4xQDR

Hca	2 "h2"		# "h2 HCA-1"
[1]	"sw1"[2]	# lid 0 4xQDR

Hca	2 "h3"		# "h3 HCA-1"
[1]	"sw1"[3]	# lid 0 4xQDR
NET
cat >"$tmp/drop.conf" <<'POLICY'
port-groups
  port-group
    name: sw
    node-type: SWITCH
  end-port-group
end-port-groups
qos-setup
  sl2vl-tables
    sl2vl-scope
      group: sw
      from: 1
      to: 3
      sl2vl-table: 0,15,2,3,4,5,6,7,0,1,2,3,4,5,6,7
    end-sl2vl-scope
  end-sl2vl-tables
end-qos-setup
qos-levels
  qos-level
    name: DEFAULT
    sl: 0
  end-qos-level
end-qos-levels
POLICY
p=(predict --fabric "$tmp/one.net" --policy "$tmp/drop.conf")

"$q" "${p[@]}" --json >"$tmp/json" || fail "predict --json failed"
# The JSON's facts: which class has which SL dropped from some input.
jq -r '.classes | to_entries[] | .key as $k | .value.sls[] |
	select(.dropped) | "\($k + 1) \(.sl) \(.vl)"' "$tmp/json" >"$tmp/want"
[ "$(cat "$tmp/want")" = "3 1 null" ] ||
	fail "the JSON does not drop SL 1 in class 3 alone: $(cat "$tmp/want")"
[ "$(jq -r '.classes[2].example.name' "$tmp/json")" = "sw1/P3" ] ||
	fail "class 3 is not sw1/P3's: $(jq -c '.classes[2].example' "$tmp/json")"

# The summary: the same SL of the same class, and nothing else.
"$q" "${p[@]}" >"$tmp/sum" || fail "predict failed"
awk -v mark="$mark" '
	/^class / { c = $2; sub(":", "", c) }
	index($0, mark) { split($1, a, "SL"); print c, a[2], $2 }' \
	"$tmp/sum" >"$tmp/got"
[ "$(cat "$tmp/got")" = "3 1 VLmixed" ] ||
	fail "the class summary marks $(cat "$tmp/got"), the JSON class 3 SL 1 on a mixed VL: $(grep -n "SL1 " "$tmp/sum")"

# --port and --all: the same line for the port, and the mark nowhere else.
"$q" "${p[@]}" --port sw1/P3 >"$tmp/port" || fail "predict --port failed"
"$q" "${p[@]}" --all >"$tmp/all" || fail "predict --all failed"
want=$(awk '/^class 3:/ { f = 1; next } /^class / { f = 0 } f && /^  SL/' "$tmp/sum")
got=$(grep '^  SL' "$tmp/port")
[ "$want" = "$got" ] ||
	fail "the summary and --port differ for sw1/P3: $(diff <(echo "$want") <(echo "$got") | head -n 4)"
[ "$(grep -c "$mark" "$tmp/all")" = 1 ] ||
	fail "--all marks $(grep -c "$mark" "$tmp/all") SL lines, want 1"
echo "PASS: summary, --port and --all mark SL 1 of sw1/P3 as the JSON does"
