#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# `osmqos plan` knows a rule by what it matches, not by its position nor
# its use: text.  On the match test policy, offline: a rule inserted first
# is one rule added (no later rule changes level); a rule removed; a
# rule's level changed behind an insertion; a rule moved first past rules
# of other levels (the first-match order changes levels, exit 1); two
# rules of one level swapped (said so, exit 0); a use: text edited
# (nothing changes); a qos-ulps line given another GUID (its rule removed
# and another added) or another SL; a rule removed, or removed and its
# duplicate given another level, among rules that match alike (the rule
# removed is named, not the one in its position); so many rules of one
# level reordered that their order is not checked (said so, exit 1).
# Text and JSON say the same.
: "${top_srcdir:?}" "${top_builddir:?}"
command -v jq >/dev/null || { echo "SKIP: jq not installed"; exit 77; }
q=$top_builddir/osmqos
pol=$top_srcdir/tests/data/match-policy.conf
ft=$top_srcdir/tests/data/fat-tree-16.ibnd
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export LC_ALL=C
fail() { echo "FAIL: $*"; exit 1; }

. "$top_srcdir/tests/cli-lib.sh"

# edit_rules MODE USE >NEW: the test policy ($old when set) with its
# qos-match-rule whose use: is USE dropped (drop), moved first (first) or
# moved after the rule that follows it (down).  Fails when no rule has
# that use: text.
edit_rules() {
	awk -v mode="$1" -v use="$2" '
	/^    qos-match-rule$/ { inb = 1; cur = $0; next }
	inb {
		cur = cur "\n" $0
		if ($0 ~ /^    end-qos-match-rule$/) {
			inb = 0
			blk[++n] = cur
			if (index(cur, "use: " use "\n"))
				hit = n
		}
		next
	}
	/^end-qos-match-rules$/ && hit {
		if (mode == "first")
			print blk[hit]
		for (i = 1; i <= n; i++) {
			if (i != hit)
				print blk[i]
			if (mode == "down" && i == hit + 1)
				print blk[hit]
		}
	}
	{ print }
	END { exit !hit }' "${old:-$pol}"
}

# A rule inserted before every other one.
insert_first() {
	awk '/^qos-match-rules/ { print; print "    qos-match-rule\n        service-id: 0xdead0000\n        qos-level-name: Latency\n    end-qos-match-rule"; next } 1' "$1"
}

# plan_of NAME RC: plan $tmp/NAME.conf replacing the test policy ($old
# when set) exits RC, text and JSON; the text's rules part (from "rules:"
# to "pairs:") in $rules.
plan_of() {
	local name=$1 want=$2

	run plan "$tmp/$name.conf" -p "${old:-$pol}" -f "$ft"
	[ "$rc" = "$want" ] ||
		fail "plan $name exited $rc, want $want: $(head -n 3 "$tmp/err")"
	rules=$(sed -n '/^rules: /,/^pairs: /p' "$tmp/out" | sed '$d')
	run plan "$tmp/$name.conf" -p "${old:-$pol}" -f "$ft" --json
	[ "$rc" = "$want" ] || fail "plan --json $name exited $rc, want $want"
	cp "$tmp/out" "$tmp/$name.json"
	n=$((n + 1))
}

# rules_are NAME LINE...: the text's rules part is these lines, exactly.
rules_are() {
	local name=$1 want
	shift
	want=$(printf '%s\n' "$@")
	[ "$rules" = "$want" ] || fail "plan $name: the rules part
  got:
$rules
  want:
$want"
}

# json NAME EXPR: the JSON report satisfies the jq expression.
json() {
	jq -e "$2" "$tmp/$1.json" >/dev/null ||
		fail "plan --json $1: not $2: $(jq -c '{rules, rules_added,
		rules_removed, rules_moved, rule_order_changes_levels,
		rule_edits}' "$tmp/$1.json")"
}

# 1. One rule inserted first: that rule added, and no other rule edited
# although each one's position moved by one.
insert_first "$pol" >"$tmp/ins.conf"
plan_of ins 1
rules_are ins "rules: 1 added, 0 removed, 0 change their QoS level, 0 move" \
	"  rule 0 ($tmp/ins.conf:73): added, level Latency (SL 4)"
json ins '.rules == [] and .rules_added == 1 and .rules_removed == 0 and
	.rules_moved == 0 and .rule_order_changes_levels == false and
	(.rule_edits | length) == 1 and (.rule_edits[0] | .edit == "added" and
	.rule == 0 and .old_rule == null and .line == 73 and .use == null and
	.level == "Latency" and .sl == 4)'

# 2. One rule removed.
edit_rules drop "rule 3 from storage" >"$tmp/drop.conf" ||
	fail "the test's removal did not apply"
plan_of drop 1
rules_are drop "rules: 0 added, 1 removed, 0 change their QoS level, 0 move" \
	"  old rule 3 ($pol:90, rule 3 from storage): removed, level Bulk (SL 2)"
json drop '.rules == [] and .rules_added == 0 and .rules_removed == 1 and
	.rule_edits == [{"edit": "removed", "rule": null, "old_rule": 3,
	"file": "'"$pol"'", "line": 90, "use": "rule 3 from storage",
	"level": "Bulk", "sl": 2}]'

# 3. A rule given another level behind an insertion: that rule, by its
# new number and its old one.
sed '/use: rule 5 from the SM/,/end-qos-match-rule/s/: Mgmt$/: Pinned/' \
	"$tmp/ins.conf" >"$tmp/relevel.conf"
grep -q ': Pinned' <(diff "$tmp/ins.conf" "$tmp/relevel.conf") ||
	fail "the test's level change did not apply"
plan_of relevel 1
rules_are relevel \
	"rules: 1 added, 0 removed, 1 change their QoS level, 0 move" \
	"  rule 0 ($tmp/relevel.conf:73): added, level Latency (SL 4)" \
	"  rule 6 ($tmp/relevel.conf:104, rule 5 from the SM): level Mgmt (SL 3) -> Pinned (SL 5); was rule 5"
json relevel '.rules_added == 1 and .rules_removed == 0 and
	.rules_moved == 0 and (.rules | length) == 1 and (.rules[0] |
	.rule == 6 and .old_rule == 5 and .line == 104 and .old_line == 100 and
	.use == "rule 5 from the SM" and .old_level == "Mgmt" and .old_sl == 3 and
	.new_level == "Pinned" and .new_sl == 5)'

# 4. The last rule moved first, past rules of other levels: one rule
# moved, none given another level; the order changes levels.
edit_rules first "rule 7 leaf4 class 1" >"$tmp/first.conf" ||
	fail "the test's move did not apply"
plan_of first 1
rules_are first "rules: 0 added, 0 removed, 0 change their QoS level, 1 move: a rule now comes before or after one of another level, so a query may get another level (the pairs below say which SLs change)" \
	"  rule 0 ($tmp/first.conf:73, rule 7 leaf4 class 1): moved, was rule 7"
json first '.rules == [] and .rules_added == 0 and .rules_removed == 0 and
	.rules_moved == 1 and .rule_order_changes_levels == true and
	(.rule_edits | length) == 1 and (.rule_edits[0] | .edit == "moved" and
	.rule == 0 and .old_rule == 7 and .level == "Pinned" and .sl == 5)'

# 5. Two rules of one level (Mgmt) swapped: a move, but no query gets
# another level, and nothing else changes: exit 0.
edit_rules down "rule 4 to switches" >"$tmp/swap.conf" ||
	fail "the test's swap did not apply"
plan_of swap 0
[ "$(printf '%s\n' "$rules" | head -n 1)" = "rules: 0 added, 0 removed, 0 change their QoS level, 1 move, each only past rules of its own level: no query gets another level" ] ||
	fail "plan swap: $rules"
printf '%s\n' "$rules" | sed 1d |
	grep -qx "  rule [45] ($tmp/swap.conf:[0-9]*, rule [45] [a-zA-Z ]*): moved, was rule [45]" ||
	fail "plan swap: the moved rule: $rules"
json swap '.rules == [] and .rules_moved == 1 and
	.rule_order_changes_levels == false and .changes == false and
	(.rule_edits | length) == 1 and .rule_edits[0].edit == "moved"'

# 6. A use: text edited: the same rule, nothing changes.
sed 's/use: rule 2 leaf1 compute to storage/use: compute to storage/' \
	"$pol" >"$tmp/use.conf"
plan_of use 0
rules_are use "rules: 0 added, 0 removed, 0 change their QoS level, 0 move"
json use '.rules == [] and .rule_edits == [] and .changes == false'

# 7. A qos-ulps line's group: its GUIDs, not the name every such line
# shares, make the rule; another SL on the line is another level.
sed 's/any, target-port-guid 0x10001f /any, target-port-guid 0x10001e /' \
	"$pol" >"$tmp/guid.conf"
plan_of guid 1
printf '%s\n' "$rules" | head -n 1 |
	grep -qx "rules: 1 added, 1 removed, 0 change their QoS level, 0 move" ||
	fail "plan guid: $rules"
json guid '.rules == [] and [.rule_edits[] | [.edit, .rule, .old_rule,
	.level]] == [["added", 10, null, "SimpleQoSLevel_SL8"],
	["removed", null, 10, "SimpleQoSLevel_SL8"]]'
sed 's/\(any, target-port-guid 0x10001f *\): 8/\1: 7/' "$pol" >"$tmp/ulpsl.conf"
plan_of ulpsl 1
printf '%s\n' "$rules" | head -n 1 |
	grep -qx "rules: 0 added, 0 removed, 1 change their QoS level, 0 move" ||
	fail "plan ulpsl: $rules"
json ulpsl '.rule_edits == [] and (.rules | length) == 1 and
	.rules[0].rule == 10 and .rules[0].old_rule == 10 and
	.rules[0].old_sl == 8 and .rules[0].new_sl == 7'

# 8. Rules that match alike are told apart by their level, then their
# use: text, before their position.  The old policy repeats rule 3's
# criteria (source: Storage) just after it, as rule 4, with another level
# (Mgmt) or the same one (Bulk).  Removing rule 3 removes rule 3, not
# rule 4 with rule 3 given rule 4's level...
# dup_of LEVEL >OLD: the test policy with that duplicate.
dup_of() {
	awk -v level="$1" '{ print }
	/^        use: rule 3 from storage$/ { inr = 1 }
	inr && /^    end-qos-match-rule$/ {
		inr = 0
		print "    qos-match-rule\n        use: dup from storage"
		print "        source: Storage\n        qos-level-name: " level
		print "    end-qos-match-rule"
	}' "$pol"
}
dup_of Mgmt >"$tmp/dup.conf"
old=$tmp/dup.conf
edit_rules drop "rule 3 from storage" >"$tmp/dupdrop.conf" ||
	fail "the test's removal of a duplicated rule did not apply"
plan_of dupdrop 1
rules_are dupdrop \
	"rules: 0 added, 1 removed, 0 change their QoS level, 0 move" \
	"  old rule 3 ($tmp/dup.conf:90, rule 3 from storage): removed, level Bulk (SL 2)"
json dupdrop '.rules == [] and .rules_moved == 0 and
	[.rule_edits[] | [.edit, .rule, .old_rule, .use, .level]] ==
	[["removed", null, 3, "rule 3 from storage", "Bulk"]]'
# ... and with the duplicate given another level too, that rule changes
# level (it is known by its use: text).
sed '/use: dup from storage/,/end-qos-match-rule/s/: Mgmt$/: Pinned/' \
	"$tmp/dupdrop.conf" >"$tmp/duprelevel.conf"
plan_of duprelevel 1
rules_are duprelevel \
	"rules: 0 added, 1 removed, 1 change their QoS level, 0 move" \
	"  rule 3 ($tmp/duprelevel.conf:90, dup from storage): level Mgmt (SL 3) -> Pinned (SL 5); was rule 4" \
	"  old rule 3 ($tmp/dup.conf:90, rule 3 from storage): removed, level Bulk (SL 2)"
# With the same level, the use: text tells which one was removed.
dup_of Bulk >"$tmp/dupsame.conf"
old=$tmp/dupsame.conf
edit_rules drop "rule 3 from storage" >"$tmp/dupsamedrop.conf" ||
	fail "the test's removal of a duplicated rule did not apply"
plan_of dupsamedrop 1
rules_are dupsamedrop \
	"rules: 0 added, 1 removed, 0 change their QoS level, 0 move" \
	"  old rule 3 ($tmp/dupsame.conf:90, rule 3 from storage): removed, level Bulk (SL 2)"
unset old

# 9. 7200 rules of one level reversed: comparing each of the 7199 moved
# with the others is past plan's bound (50 million comparisons), so
# whether the order changes levels is not checked, and not asserted
# either; it still counts as a change.
many_rules() {
	printf 'qos-levels\n'
	printf '    qos-level\n        name: %s\n        sl: %s\n    end-qos-level\n' \
		DEFAULT 0 Bulk 2
	printf 'end-qos-levels\nqos-match-rules\n'
	seq 4096 11295 | $1 | awk '{ print "    qos-match-rule\n" \
		"        service-id: " $1 "\n        qos-level-name: Bulk\n" \
		"    end-qos-match-rule" }'
	printf 'end-qos-match-rules\n'
}
many_rules cat >"$tmp/many.conf"
many_rules tac >"$tmp/manyrev.conf"
old=$tmp/many.conf
plan_of manyrev 1
[ "$(printf '%s\n' "$rules" | head -n 1)" = "rules: 0 added, 0 removed, 0 change their QoS level, 7199 move: not checked whether a rule now comes before or after one of another level (too many rules moved among too many to compare); counted as a change, since it may be one (the pairs below say which SLs change)" ] ||
	fail "plan manyrev: $(printf '%s\n' "$rules" | head -n 1)"
json manyrev '.rules_moved == 7199 and .rule_order_changes_levels == null and
	.changes == true and .pairs.changed == 0'
unset old

echo "ok: plan-rules, $n plans"
