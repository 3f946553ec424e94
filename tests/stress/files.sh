#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The plugin's files against a hostile or failing file system, with a real opensm + plugin on ibsim, audit log and publish_dir
# on a small tmpfs mounted for the test:
#
#  1. symlinks planted before start: the audit path (a link to an existing
#     file) is refused and logged, the link's target untouched, the SA still
#     answers; links at both published names and at OpenSM's policy copy
#     are replaced, not followed, while publish_dir= itself may be a link
#     (docs/audit.md "File handling", docs/publish.md "How the files are
#     written");
#  2. modes under opensm umask 077: audit file 0640, published files 0644,
#     OpenSM's policy copy 0600;
#  3. rotation by rename: the writer reopens a new 0640 file at its next
#     batch a second after its last look, and lines continue there (an
#     idle writer looks only every 30 s, so each step below makes the
#     batch that looks with a query); a symlink planted at the path while
#     running is refused (logged once per change, writing goes on to the
#     open file, a dangling link's target is never created); removing it
#     gives a new file;
#  4. full disk: audit write errors and publish errors are logged (the
#     JSON touched, so that the sweep writes it), osmqos query answers the
#     same records, the previous published files stay whole; when space
#     returns, writing and publishing resume (logged);
#  5. logrotate -f with contrib/logrotate/osmqos (when logrotate is
#     installed): twice, with create/delaycompress; lines continue in the
#     file logrotate created, which keeps its 0640 root:adm.
# Needs root (mount).  Prints its figures; ends PASS or FAIL (e2e exit
# codes: 0, 1, 77 skip).
. "$top_srcdir/tests/e2e/lib.sh"
e2e_init files
command -v jq >/dev/null || e2e_skip "jq not installed (apt-get install jq)"
[ "$(id -u)" = 0 ] || e2e_skip "needs root to mount a tmpfs"
t_start=$(date +%s)

fs=$E2E_DIR/fs
mkdir -p "$fs"
mount -t tmpfs -o size=2m,mode=0755 oqfiles "$fs" ||
	e2e_skip "cannot mount a tmpfs on $fs (needs CAP_SYS_ADMIN)"
# opensm must be gone before the unmount; keep the tmpfs' files on failure.
files_cleanup() {
	local rc=$?
	e2e_stop_opensm
	if mountpoint -q "$fs"; then
		[ "$rc" -ne 0 ] && cp -a "$fs" "$E2E_DIR/fs-contents" 2>/dev/null
		umount "$fs" 2>/dev/null || umount -l "$fs"
	fi
	(exit "$rc")
	e2e_cleanup
}
trap files_cleanup EXIT

pub=$fs/pub
adir=$fs/audit
audit=$adir/osmqos-audit.log
json=$pub/osmqos-bandwidth.json
prom=$pub/osmqos.prom
copy=$pub/osmqos-last-good-policy.conf # OpenSM's copy of the policy
mkdir -p "$pub" "$adir"
victim=$E2E_DIR/victim
printf 'precious\n' >"$victim"
chmod 600 "$victim"
pol=$E2E_DIR/qos-policy.conf
cp "$top_srcdir/tests/e2e/data/program-policy.conf" "$pol"

# The writer's messages in the opensm log: "FUNC: osmqos: audit: MSG"
# (basic regex; tolerates the writer's own "audit: " prefix repeated).
A='osmqos: audit: \(audit: \)\{0,1\}'
ERR='0x01 -> [a-z_]*: '
nlog() { grep -c -- "$1" "$E2E_OSM_LOG" 2>/dev/null; }
lines() { if [ -f "$1" ]; then wc -l <"$1"; else echo 0; fi; }
victim_ok() {
	[ "$(cat "$victim")" = precious ] && [ "$(stat -c %a "$victim")" = 600 ] ||
		e2e_fail "the symlink's target $victim was written or chmod'ed"
}

# Wait until grep -c PATTERN in the opensm log reaches N.
wait_log_count() { e2e_wait_count "$1" "$E2E_OSM_LOG" "$2" "${3:-60}"; }

# wait_lines FILE N [min]: wait until FILE has N lines (the writer is
# asynchronous); exactly N, or at least N with "min".
wait_lines() {
	local f=$1 n=$2 i
	for ((i = 0; i < 50; i++)); do
		[ "$(lines "$f")" -ge "$n" ] && break
		sleep 0.1
	done
	[ "$(lines "$f")" = "$n" ] ||
		{ [ "${3:-}" = min ] && [ "$(lines "$f")" -ge "$n" ]; } ||
		e2e_fail "$f has $(lines "$f") lines, want $n"
}

# start_osm [PUBLISH_DIR]
start_osm() {
	# umask 077: a file created without fchmod would come out 0600.
	# publish_interval=0: the files counted here are the sweeps', with
	# no counter refresh writing in between.
	umask 077
	e2e_start_opensm qos=TRUE "qos_policy_file=$pol" \
		"event_plugin_options=audit=$audit,publish_dir=${1:-$pub},publish_interval=0"
	umask 022
}

published() { nlog "osmqos: sweep [0-9]*: published"; }

# One PathRecord query (GetTable, one pair: one audit line); prints the
# records as compact JSON; fails the test when the SA does not answer.
query() {
	local out
	out=$(e2e_sim "$top_builddir/osmqos" query --json --slid "$1" \
		--dlid "$2" 2>>"$E2E_DIR/query.err") ||
		e2e_fail "osmqos query $1 -> $2 failed: $(tail -n 2 "$E2E_DIR/query.err")"
	jq -c '.records' <<<"$out"
}

# N queries over the CA pairs; each must answer what it answered first.
declare -A want
nq=0
queries() {
	local n=$1 k s d got
	for ((k = 0; k < n; k++)); do
		s=${lids[(nq + k) % ${#lids[@]}]}
		d=${lids[(nq + k + 1) % ${#lids[@]}]}
		got=$(query "$s" "$d")
		[ "$got" != "[]" ] || e2e_fail "no record for $s -> $d"
		if [ -z "${want[$s-$d]:-}" ]; then
			want[$s-$d]=$got
		elif [ "${want[$s-$d]}" != "$got" ]; then
			e2e_fail "$s -> $d answered $got, earlier ${want[$s-$d]}"
		fi
	done
	nq=$((nq + n))
}

# all_parse MAX_CUT FILE...: every line of the files (plain or gzip) is a
# complete audit record, except at most MAX_CUT lines cut by a failed write
# (docs/audit.md: readers skip those).
all_parse() {
	local max=$1 f bad
	shift
	for f in "$@"; do
		bad=$(zcat -f "$f" | jq -R -r 'try (fromjson |
			if .src.guid and .dst.guid then "ok" else "bad" end)
			catch "bad"' | grep -c bad)
		[ "$bad" -le "$max" ] ||
			e2e_fail "$f: $bad lines are not complete audit" \
				 "records (allowed: $max)"
	done
}

# ---- 1. symlinks planted before start -----------------------------------
ln -s "$victim" "$audit"
ln -s "$victim" "$prom"
ln -s "$victim" "$copy"
ln -s "$E2E_DIR/dangling-json" "$json"
# publish_dir= itself a symlink: followed (the operator's configuration).
ln -s "$pub" "$E2E_DIR/publink"
e2e_start_ibsim "$top_srcdir/contrib/fabrics/fat-tree-16.net"
start_osm "$E2E_DIR/publink"
wait_log_count "osmqos: sweep [0-9]*: published" 1 ||
	e2e_fail "plugin did not publish"
mapfile -t lids < <(e2e_ibnetdiscover |
	sed -n 's/.*"[^"]* HCA-1" lid \([0-9]*\) .*/\1/p')
[ "${#lids[@]}" -ge 4 ] || e2e_fail "too few CA LIDs: ${lids[*]}"

grep -q "$ERR$A$audit is a symbolic link" "$E2E_OSM_LOG" ||
	e2e_fail "no ERROR about the symlink at the audit path"
grep -q "osmqos: no audit trail: cannot open $audit" "$E2E_OSM_LOG" ||
	e2e_fail "no 'no audit trail' line"
[ -L "$audit" ] ||
	e2e_fail "the audit symlink was replaced (it must be refused)"
queries 2
victim_ok
# want_mode FILE: the documented mode (the policy copy is root's only).
want_mode() { [ "$1" = "$copy" ] && echo 600 || echo 644; }
for f in "$json" "$prom" "$copy"; do
	[ -f "$f" ] && [ ! -L "$f" ] ||
		e2e_fail "$f: the planted link was not replaced"
	[ "$(stat -c %a "$f")" = "$(want_mode "$f")" ] ||
		e2e_fail "$f has mode $(stat -c %a "$f"), want" \
			"$(want_mode "$f") (umask 077)"
done
[ ! -e "$E2E_DIR/dangling-json" ] ||
	e2e_fail "the dangling link at $json was followed"
jq -e . "$json" >/dev/null || e2e_fail "$json is not JSON"
[ -L "$E2E_DIR/publink" ] || e2e_fail "the publish_dir symlink was replaced"
e2e_log "1. planted links at start: audit refused + logged, published" \
	"links replaced, targets untouched, publish_dir link followed;" \
	"SA answers"
nq1=$nq
e2e_stop_opensm
# A fresh log for the second run (e2e_start_opensm waits for SUBNET UP in it).
mv "$E2E_OSM_LOG" "$E2E_DIR/opensm.run1.log"

# ---- 2. modes; 3. rotation by rename and runtime symlinks ----------------
rm "$audit"
start_osm
wait_log_count "osmqos: sweep [0-9]*: published" 1 ||
	e2e_fail "plugin did not publish (second start)"
grep -q "osmqos: audit trail: $audit" "$E2E_OSM_LOG" ||
	e2e_fail "no audit trail line"
[ -f "$audit" ] && [ ! -L "$audit" ] || e2e_fail "$audit was not created"
[ "$(stat -c %a "$audit")" = 640 ] ||
	e2e_fail "$audit has mode $(stat -c %a "$audit"), want 640 (umask 077)"
for f in "$json" "$prom" "$copy"; do
	[ "$(stat -c %a "$f")" = "$(want_mode "$f")" ] ||
		e2e_fail "$f has mode $(stat -c %a "$f") after a rewrite"
done
queries 4
wait_lines "$audit" 4
e2e_log "2. modes: audit 0640, published 0644, policy copy 0600 under" \
	"umask 077; 4 lines"

# look: one query a second after the writer's last look at its path (its
# last batch), so that its batch looks first (docs/audit.md "Rotation").
look() {
	sleep 1.1
	queries 1
}

# Rename (logrotate without create): the next batch goes to a new file.
reopen_pat="${A}reopened $audit (it was moved"
mv "$audit" "$audit.1"
sleep 1.1
t0=$(date +%s%N)
queries 1
wait_log_count "$reopen_pat" 1 5 ||
	e2e_fail "no reopen at the first batch after a rename"
t1=$(date +%s%N)
for ((i = 0; i < 20; i++)); do
	[ -f "$audit" ] && break
	sleep 0.1
done
[ -f "$audit" ] || e2e_fail "no new $audit after the reopen"
[ "$(stat -c %a "$audit")" = 640 ] ||
	e2e_fail "reopened $audit has mode $(stat -c %a "$audit")"
reopen_ms=$(((t1 - t0) / 1000000))
[ "$reopen_ms" -le 2500 ] ||
	e2e_fail "reopen took $reopen_ms ms after the query (docs/audit.md:" \
		 "before the batch)"
queries 2
wait_lines "$audit" 3
wait_lines "$audit.1" 4
e2e_log "3. rename: reopened $reopen_ms ms after a query, 3 new lines" \
	"in the new file, old file unchanged"

# A dangling symlink planted at the path while running.
fail_pat="$ERR${A}reopen failed: $audit is a symbolic link"
# Atomically, so the writer never sees the path missing (it would create a
# new file): keep the open file reachable as .2, rename a link over the path.
plant() {
	ln -s "$1" "$audit.link" && mv -T "$audit.link" "$audit" ||
		e2e_fail "cannot plant a symlink at $audit"
}
ln "$audit" "$audit.2"
plant "$E2E_DIR/dangling-audit"
look
wait_log_count "$fail_pat" 1 5 ||
	e2e_fail "planted symlink not reported at the next batch"
look # two more looks: still reported once
look
[ "$(nlog "$fail_pat")" = 1 ] ||
	e2e_fail "planted symlink reported $(nlog "$fail_pat") times, want once"
wait_lines "$audit.2" 6
[ ! -e "$E2E_DIR/dangling-audit" ] ||
	e2e_fail "the dangling link's target was created"
# Another link (to an existing file): reported again, target untouched.
plant "$victim"
look
wait_log_count "$fail_pat" 2 5 || e2e_fail "second planted symlink not reported"
wait_lines "$audit.2" 7
victim_ok
rm "$audit"
look
wait_log_count "$reopen_pat" 2 5 ||
	e2e_fail "no reopen after the symlink was removed"
queries 1
wait_lines "$audit" 2
[ "$(stat -c %a "$audit")" = 640 ] ||
	e2e_fail "re-created $audit has mode $(stat -c %a "$audit")"
all_parse 0 "$audit.1" "$audit.2" "$audit"
e2e_log "3. links planted while running: refused, logged once per link," \
	"lines kept in the open file, then a new file"

# ---- 4. full disk ------------------------------------------------------
sweeps_before=$(published)
json_before=$(cat "$json")
dd if=/dev/zero of="$fs/filler" bs=64k >/dev/null 2>&1
dd if=/dev/zero of="$fs/filler2" bs=1k >/dev/null 2>&1
avail=$(df -k --output=avail "$fs" | tail -n 1 | tr -d ' ')
[ "$avail" -eq 0 ] || e2e_fail "could not fill $fs ($avail KiB left)"
# Enough lines to need a new page of the tmpfs.
a0=$(lines "$audit")
queries 12
err_pat="$ERR${A}cannot write $audit: No space left on device"
wait_log_count "$err_pat" 1 5 ||
	e2e_fail "no audit write error logged on a full disk"
a1=$(lines "$audit")
# New sweep: publishing fails, the old files stay whole.  Nothing changed,
# so the sweep would leave the JSON as it is: touched, it is written again
# (touch needs no space).
touch "$json"
kill -HUP "$E2E_OPENSM_PID"
nospace="No space left on device"
wait_log_count "cannot publish osmqos-bandwidth.json: .*$nospace" 1 60 ||
	e2e_fail "no publish error on a full disk:" \
		 "$(grep 'osmqos: .*publish' "$E2E_OSM_LOG" | tail -n 3)"
wait_log_count "cannot publish osmqos.prom: .*$nospace" 1 10 ||
	e2e_fail "no publish error for osmqos.prom"
queries 3
# Another sweep on the full disk: no second message (once per file and
# errno).
ups=$(nlog "SUBNET UP")
kill -HUP "$E2E_OPENSM_PID"
wait_log_count "SUBNET UP" $((ups + 1)) 60 || e2e_fail "no sweep after HUP"
sleep 1
for f in osmqos-bandwidth.json osmqos.prom; do
	[ "$(nlog "cannot publish $f: ")" = 1 ] ||
		e2e_fail "publish error for $f logged $(nlog "cannot publish $f: ")" \
			 "times over two sweeps, want once"
done
[ "$(cat "$json")" = "$json_before" ] || e2e_fail "$json changed on a full disk"
[ -z "$(find "$pub" -name '.osmqos*' ! -name .osmqos.lock)" ] ||
	e2e_fail "temp files left in $pub: $(ls -a "$pub")"
[ "$(nlog "$err_pat")" = 1 ] ||
	e2e_fail "audit write error logged $(nlog "$err_pat") times, want once"
e2e_log "4. full disk: $((a1 - a0)) of 12 lines fit, write and publish" \
	"errors logged once each, SA answers unchanged"

rm -f "$fs/filler" "$fs/filler2"
a2=$(lines "$audit")
queries 2
wait_log_count "${A}writing $audit again after [0-9]* failed writes" 1 5 ||
	e2e_fail "no 'writing again' line after space returned"
wait_lines "$audit" $((a2 + 2)) min
lost=$(sed -n "s/.*osmqos: audit: .*writing .* again after [0-9]* failed \
writes; \([0-9]*\) records were lost.*/\1/p" "$E2E_OSM_LOG" | tail -n 1)
kill -HUP "$E2E_OPENSM_PID"
wait_log_count "publishing osmqos-bandwidth.json works again" 1 60 ||
	e2e_fail "publishing did not resume"
wait_log_count "publishing osmqos.prom works again" 1 10 ||
	e2e_fail "osmqos.prom publishing did not resume"
[ "$(published)" -gt "$sweeps_before" ] ||
	e2e_fail "no publication after space returned"
[ "$(cat "$json")" != "$json_before" ] ||
	e2e_fail "$json not rewritten after space returned"
jq -e . "$json" >/dev/null || e2e_fail "$json is not JSON after recovery"
[ "$(stat -c %a "$json")" = 644 ] || e2e_fail "$json mode after recovery"
all_parse 1 "$audit"
e2e_log "4. space back: audit resumed ($lost records lost while full)," \
	"publishing works again"

# ---- 5. logrotate with the shipped config -------------------------------
if command -v logrotate >/dev/null || [ -x /usr/sbin/logrotate ]; then
	lr=$(command -v logrotate || echo /usr/sbin/logrotate)
	conf=$E2E_DIR/logrotate.conf
	sed "s|^/var/cache/opensm/osmqos-audit.log|$audit|" \
		"$top_srcdir/contrib/logrotate/osmqos" >"$conf"
	grep -q "^$audit {" "$conf" || e2e_fail "could not retarget $conf"
	rm -f "$audit".*
	for round in 1 2; do
		n_before=$(lines "$audit")
		reopens=$(nlog "${A}reopened $audit")
		"$lr" -f -s "$E2E_DIR/logrotate.state" "$conf" \
			>"$E2E_DIR/logrotate.$round.out" 2>&1 ||
			e2e_fail "logrotate failed: $(cat "$E2E_DIR/logrotate.$round.out")"
		[ "$(stat -c '%a %G' "$audit")" = "640 adm" ] ||
			e2e_fail "logrotate's new file is $(stat -c '%a %G' "$audit"), want 640 adm"
		look
		wait_log_count "${A}reopened $audit" $((reopens + 1)) 5 ||
			e2e_fail "no reopen at the batch after logrotate round $round"
		queries 2
		wait_lines "$audit" 3
		[ "$(lines "$audit.1")" = "$n_before" ] ||
			e2e_fail "round $round: $audit.1 has" \
				 "$(lines "$audit.1") lines, want $n_before"
		[ "$(stat -c '%a %G' "$audit")" = "640 adm" ] ||
			e2e_fail "the plugin changed logrotate's file to $(stat -c '%a %G' "$audit")"
	done
	[ -f "$audit.2.gz" ] ||
		e2e_fail "second rotation did not compress $audit.2.gz: $(ls "$adir")"
	[ "$(zcat "$audit.2.gz" | wc -l)" -gt 0 ] ||
		e2e_fail "$audit.2.gz holds no lines"
	# .2.gz is the file of the full disk: one line may be cut there.
	all_parse 1 "$audit.2.gz"
	all_parse 1 "$audit.1"
	all_parse 0 "$audit"
	e2e_log "5. logrotate -f twice: a new 0640 root:adm file each time," \
		"reopened, lines continue; .2.gz compressed"
else
	e2e_log "5. logrotate not installed (apt-get install logrotate):" \
		"the shipped config was not exercised"
fi

# Clean shutdown with everything above behind it.
e2e_stop_opensm
grep -q "osmqos: unloading" "$E2E_OSM_LOG" ||
	e2e_fail "plugin delete() not called"
# Every audited query is accounted for: written + dropped (docs/audit.md
# "Counters"); the first run's queries had no audit trail.
n='\([0-9]*\)'
read -r written dropped < <(tail -n 1 < <(sed -n \
	"s/.*osmqos: audit: $n records written in [0-9]* lines, $n dropped.*/\1 \2/p" \
	"$E2E_OSM_LOG"))
e2e_log "audit: $written records written, $dropped dropped;" \
	"$nq1 queries before the trail existed"
[ $((written + dropped)) = $((nq - nq1)) ] ||
	e2e_fail "audit counters: $written written + $dropped dropped," \
		 "want $((nq - nq1)) audited queries"
[ "$dropped" = "$lost" ] ||
	e2e_fail "$dropped dropped at exit, but $lost lost on the full disk"
e2e_log "$nq queries, $(($(date +%s) - t_start)) s"
e2e_pass
