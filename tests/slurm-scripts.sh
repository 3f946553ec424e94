#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# The Slurm scripts of osmqos (contrib/slurm) run as slurmd runs them,
# without Slurm: the Prolog as root with a job's SLURM_* variables, the
# TaskProlog as the job's user, the Epilog.  The SA cannot be asked (the
# map's osmqos names no CA), so the policy decides offline and a job
# whose pairs get different SLs is refused:
#   1. the refusal is logged by its reason (not by the note before it),
#      the TaskProlog stops the task with it, the Epilog cleans up, also
#      what a Prolog killed on its timeout left;
#   2. a spool directory others can write (or another user's, or a
#      symlink to one) is not used: nothing written, and a JOB.env
#      planted there is not exported;
#   3. a map the job's user cannot read (the file, or a directory above
#      it) is logged by the Prolog, which asks nothing (a map it could
#      not check as the user is said and asked anyway), and the
#      TaskProlog (as nobody) says why no SL is set;
#   4. a full spool: the Prolog says so instead of an empty reason, and a
#      refused job is still stopped;
#   5. the scripts reached through symlinks in another directory (as
#      Prolog=/etc/slurm/prolog.d/* names them) find what they share; a
#      copy without it logs why and exits 0;
#   6. a read-only spool: the Prolog and Epilog say so and exit 0;
#   7. with a policy that draws a lint warning, the Prolog's log and the
#      job's output name the refusal or the error, not the warning;
#   8. a map with a UTF-8 byte order mark: its first line read as
#      job-env reads it;
#   9. a job granted an SL by the policy offline, the SA out of reach:
#      the Prolog warns the administrator with job-env's reason and what
#      to check (also for a job refused offline); the job's output says
#      the administrator was told, not job-env's advice to its caller;
#  10. a relative spool or osmqos in the map: said to be no absolute path
#      (not "not root's alone"), nothing created in the scripts' working
#      directory, the job told why no SL is set.
# Each case checks what the scripts print and leave.
: "${top_srcdir:?}" "${top_builddir:?}"
# The scripts run as root (slurmd's Prolog): a spool another user owns is
# refused by design, and so would be this test's.
if [ "$(id -u)" != 0 ]; then
	echo "SKIP: the Prolog runs as root; run this test as root"
	exit 77
fi
slurm=$top_srcdir/contrib/slurm
tmp=$(mktemp -d)
mnt=
cleanup() {
	[ -n "$mnt" ] && umount "$mnt" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
n=0
chmod 755 "$tmp"

cat >"$tmp/policy.conf" <<'POL'
port-groups
    port-group
        name: storage
        port-name: h3 HCA-1/P1
    end-port-group
end-port-groups
qos-levels
    qos-level
        name: DEFAULT
        sl: 0
    end-qos-level
    qos-level
        name: stor
        sl: 5
    end-qos-level
end-qos-levels
qos-match-rules
    qos-match-rule
        destination: storage
        qos-level-name: stor
    end-qos-match-rule
end-qos-match-rules
POL
# The osmqos the map names: the built one, on a CA that is not there.
cat >"$tmp/osmqos" <<EOF
#!/bin/sh
exec '$top_builddir/osmqos' "\$@" --ca no-such-ca
EOF
chmod 755 "$tmp/osmqos"

# map SPOOL: the job map.
map() {
	cat >"$tmp/jobs.conf" <<EOF
fabric  $top_srcdir/contrib/fabrics/two-switch.net
policy  $tmp/policy.conf
osmqos  $tmp/osmqos
spool   $1
default plain
EOF
	chmod 644 "$tmp/jobs.conf"
}

# The scripts as slurmd runs them (the Prolog's and TaskProlog's paths
# may be changed).
PROLOG=$slurm/osmqos-prolog
TASK_PROLOG=$slurm/osmqos-task-prolog
# prolog JOB: the Prolog for JOB on h1 (h1 and h3), its stderr in
# $tmp/prolog.err; it must always exit 0 (a failing Prolog drains the
# node).
prolog() {
	SLURM_JOB_ID=$1 SLURM_JOB_NODELIST=h1,h3 SLURMD_NODENAME=h1 \
		SLURM_JOB_PARTITION=compute \
		sh "$PROLOG" --map "${MAPF:-$tmp/jobs.conf}" \
		>/dev/null 2>"$tmp/prolog.err" ||
		fail "the Prolog exited $?: $(cat "$tmp/prolog.err")"
}
# task JOB [USER]: the TaskProlog, its output in $tmp/task.out, exit in rc.
task() {
	local as=()
	[ -n "${2:-}" ] && as=(setpriv --reuid="$2" --regid="$(id -g "$2")" --clear-groups)
	SLURM_JOB_ID=$1 SLURMD_NODENAME=h1 SLURM_PROCID=0 \
		"${as[@]}" sh "$TASK_PROLOG" --map "${MAPF:-$tmp/jobs.conf}" \
		>"$tmp/task.out" 2>&1
	rc=$?
}

# 1. A refused job: the log names the reason, the task stops with it.
mkdir -m 755 "$tmp/spool"
map "$tmp/spool"
# A run of this job before, killed (a requeued job): its file goes.
: >"$tmp/spool/11.tmp.1.err"
prolog 11
[ -e "$tmp/spool/11.tmp.1.err" ] && fail "1: the Prolog left a killed run's file"
grep -q "job 11 on h1: refused: osmqos job-env: refused: the job's pairs get different SLs" \
	"$tmp/prolog.err" || fail "1: the refusal is not logged by its reason: $(cat "$tmp/prolog.err")"
[ -s "$tmp/spool/11.refused" ] || fail "1: no 11.refused"
task 11
[ "$rc" = 1 ] && grep -q "^print osmqos: osmqos job-env: refused: " "$tmp/task.out" ||
	fail "1: the TaskProlog exited $rc: $(cat "$tmp/task.out")"
# What a Prolog killed mid-run leaves (its PID in the names).
: >"$tmp/spool/11.tmp.4242.err"
: >"$tmp/spool/11.tmp.4242.out"
SLURM_JOB_ID=11 sh "$slurm/osmqos-epilog" --map "$tmp/jobs.conf" ||
	fail "1: the Epilog failed"
[ -z "$(ls -A "$tmp/spool")" ] || fail "1: left in the spool: $(ls -A "$tmp/spool")"
n=$((n + 1))

# 2. A spool others can write: not used by the Prolog, not read by the
# TaskProlog (another user could have put JOB.env there).
chmod 777 "$tmp/spool"
prolog 12
grep -q "job 12 on h1: the spool directory $tmp/spool is not root's alone" \
	"$tmp/prolog.err" || fail "2: no error for a world-writable spool: $(cat "$tmp/prolog.err")"
# What it cites exists on an installed system: the man page's FILES, the
# packages' docs directory (not the source tree's docs/jobs.md).
grep -qF "only root can write (osmqos(8), FILES; jobs.md in /usr/share/doc/osmqos/docs/)" \
	"$tmp/prolog.err" || fail "2: the error cites no installed document: $(cat "$tmp/prolog.err")"
[ -z "$(ls -A "$tmp/spool")" ] || fail "2: written into: $(ls -A "$tmp/spool")"
echo "export UCX_IB_SL=7" >"$tmp/spool/12.env"
task 12
[ "$rc" = 0 ] && ! grep -q '^export' "$tmp/task.out" &&
	grep -q "^print osmqos: the spool directory $tmp/spool is not root's alone" \
		"$tmp/task.out" || fail "2: the TaskProlog read a planted file: rc $rc, $(cat "$tmp/task.out")"
rm -f "$tmp/spool/12.env"
chmod 755 "$tmp/spool"
# A root-owned symlink to a directory others can write: the path it leads
# to is checked too.
mkdir -m 777 "$tmp/open"
ln -s "$tmp/open" "$tmp/link"
map "$tmp/link"
prolog 16
grep -q "the spool directory $tmp/link is not root's alone" "$tmp/prolog.err" ||
	fail "2: a symlink to an open directory was used: $(cat "$tmp/prolog.err")"
[ -z "$(ls -A "$tmp/open")" ] || fail "2: written through the symlink"
map "$tmp/spool"
if [ "$(id -u)" = 0 ]; then
	chown nobody "$tmp/spool"
	prolog 13
	grep -q "the spool directory $tmp/spool is not root's alone" "$tmp/prolog.err" ||
		fail "2: no error for another user's spool: $(cat "$tmp/prolog.err")"
	chown 0 "$tmp/spool"
fi
n=$((n + 1))

# 3. A map the jobs' users cannot read: the Prolog says so (in the log
# and JOB.error) and asks nothing; the TaskProlog, as the user, says why
# no SL is set.  With the job's uid the Prolog asks as that user; without
# it, a map others cannot read is a doubt (a group may let the user
# read it): said, and the job asked anyway.
chmod 600 "$tmp/jobs.conf"
prolog 14
grep -q "job 14 on h1: the job map $tmp/jobs.conf may not be readable by the jobs' users (it could not be checked as the job's user" \
	"$tmp/prolog.err" || fail "3: no doubt said for a private map: $(cat "$tmp/prolog.err")"
grep -q "job 14 on h1: refused: " "$tmp/prolog.err" ||
	fail "3: the job was not asked for: $(cat "$tmp/prolog.err")"
task 14 nobody
[ "$rc" = 0 ] && grep -q "^print osmqos: cannot read the job map $tmp/jobs.conf, so no SL is set" \
	"$tmp/task.out" || fail "3: TaskProlog as nobody: rc $rc, $(cat "$tmp/task.out")"
SLURM_JOB_ID=14 sh "$slurm/osmqos-epilog" --map "$tmp/jobs.conf"
chmod 644 "$tmp/jobs.conf"
# Readable itself, in a directory only root may enter.
mkdir -m 700 "$tmp/private"
cp -p "$tmp/jobs.conf" "$tmp/private/"
MAPF=$tmp/private/jobs.conf
export SLURM_JOB_UID SLURM_JOB_GID
SLURM_JOB_UID=$(id -u nobody) SLURM_JOB_GID=$(id -g nobody)
prolog 22
grep -q "job 22 on h1: no SL set: the job map $MAPF cannot be read by the job's user (uid $SLURM_JOB_UID)" \
	"$tmp/prolog.err" || fail "3: a map in a private directory: $(cat "$tmp/prolog.err")"
task 22 nobody
[ "$rc" = 0 ] && grep -q "^print osmqos: cannot read the job map $MAPF, so no SL is set" \
	"$tmp/task.out" || fail "3: TaskProlog as nobody, private directory: rc $rc, $(cat "$tmp/task.out")"
SLURM_JOB_ID=22 sh "$slurm/osmqos-epilog" --map "$MAPF"
# Opened to others: asked as nobody, the map is read and the job refused.
chmod 755 "$tmp/private"
prolog 23
grep -q "job 23 on h1: refused: " "$tmp/prolog.err" ||
	fail "3: a map nobody can read: $(cat "$tmp/prolog.err")"
SLURM_JOB_ID=23 sh "$slurm/osmqos-epilog" --map "$MAPF"
unset SLURM_JOB_UID SLURM_JOB_GID MAPF
n=$((n + 1))

# 4. A full spool (a 4 KiB tmpfs, filled; root only): said, and the
# refused job is still stopped.
if [ "$(id -u)" = 0 ] && mkdir -m 755 "$tmp/full" &&
	mount -t tmpfs -o size=4k,mode=755 tmpfs "$tmp/full" 2>/dev/null; then
	mnt=$tmp/full
	head -c 65536 /dev/zero >"$mnt/filler" 2>/dev/null
	map "$mnt"
	prolog 15
	grep -q "job 15 on h1: refused: (the reason is lost: its output could not be kept: the spool directory $mnt is full or read-only)" \
		"$tmp/prolog.err" || fail "4: $(cat "$tmp/prolog.err")"
	task 15
	[ "$rc" = 1 ] && grep -q "^print osmqos: the job is refused; its reason could not be kept" \
		"$tmp/task.out" || fail "4: a refused job ran on a full spool: $(cat "$tmp/task.out")"
	n=$((n + 1))
else
	echo "note: case 4 needs root and a tmpfs mount; skipped"
fi
# 5. Through symlinks in a directory of their own, the helper is found
# beside the scripts' real files: the refused job of case 1 again.
[ -n "$mnt" ] && umount "$mnt" && mnt=
map "$tmp/spool"
mkdir -m 755 "$tmp/prolog.d" "$tmp/copy"
ln -s "$slurm/osmqos-prolog" "$tmp/prolog.d/50-osmqos"
ln -s "$slurm/osmqos-task-prolog" "$tmp/prolog.d/task"
PROLOG=$tmp/prolog.d/50-osmqos TASK_PROLOG=$tmp/prolog.d/task
prolog 17
grep -q "job 17 on h1: refused: " "$tmp/prolog.err" ||
	fail "5: through a symlink: $(cat "$tmp/prolog.err")"
task 17
[ "$rc" = 1 ] || fail "5: the TaskProlog through a symlink exited $rc: $(cat "$tmp/task.out")"
SLURM_JOB_ID=17 sh "$slurm/osmqos-epilog" --map "$tmp/jobs.conf"
# A copy without the helper: said, and exit 0 (not a drained node).
for s in prolog task-prolog epilog; do
	cp "$slurm/osmqos-$s" "$tmp/copy/"
done
PROLOG=$tmp/copy/osmqos-prolog TASK_PROLOG=$tmp/copy/osmqos-task-prolog
prolog 18
grep -q "job 18 on h1: cannot read $tmp/copy/osmqos-slurm.sh, which $tmp/copy/osmqos-prolog needs beside it" \
	"$tmp/prolog.err" || fail "5: a lone copy: $(cat "$tmp/prolog.err")"
task 18
[ "$rc" = 0 ] && grep -q "^print osmqos: no SL set, the job runs with the stacks' defaults: $tmp/copy/osmqos-slurm.sh is missing" \
	"$tmp/task.out" || fail "5: a lone TaskProlog: rc $rc, $(cat "$tmp/task.out")"
SLURM_JOB_ID=18 sh "$tmp/copy/osmqos-epilog" --map "$tmp/jobs.conf" ||
	fail "5: a lone Epilog exited $?"
PROLOG=$slurm/osmqos-prolog TASK_PROLOG=$slurm/osmqos-task-prolog
n=$((n + 1))

# 6. A read-only spool (a tmpfs remounted read-only; root only).
if [ "$(id -u)" = 0 ] && mkdir -m 755 "$tmp/ro" &&
	mount -t tmpfs -o size=64k,mode=755 tmpfs "$tmp/ro" 2>/dev/null; then
	mnt=$tmp/ro
	mkdir -m 755 "$mnt/h1"
	mount -o remount,ro "$mnt" || fail "6: cannot remount $mnt read-only"
	map "$mnt/%n"
	prolog 19
	grep -q "job 19 on h1: cannot write into the spool directory $mnt/h1 (read-only, or out of inodes): no SL set, and a refused job is not stopped; give 'spool' a writable node-local directory (osmqos(8), FILES; jobs.md in /usr/share/doc/osmqos/docs/)" \
		"$tmp/prolog.err" || fail "6: $(cat "$tmp/prolog.err")"
	SLURM_JOB_ID=19 SLURMD_NODENAME=h1 sh "$slurm/osmqos-epilog" \
		--map "$tmp/jobs.conf" 2>/dev/null || fail "6: the Epilog exited $?"
	umount "$mnt" && mnt=
	n=$((n + 1))
else
	echo "note: case 6 needs root and a tmpfs mount; skipped"
fi
# 7. A port group no rule uses: a warning before any verdict.
sed 's|^end-port-groups|    port-group\n        name: spare\n        port-name: h2 HCA-1/P1\n    end-port-group\nend-port-groups|' \
	"$tmp/policy.conf" >"$tmp/lint.conf"
map "$tmp/spool"
sed -i "s|^policy .*|policy  $tmp/lint.conf|" "$tmp/jobs.conf"
prolog 20
grep -q "job 20 on h1: refused: osmqos job-env: refused: the job's pairs get different SLs" \
	"$tmp/prolog.err" || fail "7: the refusal is not logged: $(cat "$tmp/prolog.err")"
grep -q "warning: port group 'spare'" "$tmp/spool/20.refused" ||
	fail "7: the policy drew no warning: $(cat "$tmp/spool/20.refused")"
task 20
[ "$rc" = 1 ] && grep -q "^print osmqos: osmqos job-env: refused: the job's pairs get different SLs" \
	"$tmp/task.out" || fail "7: the TaskProlog exited $rc: $(cat "$tmp/task.out")"
[ "$(wc -l <"$tmp/task.out")" = 1 ] ||
	fail "7: the job's output has more than the refusal: $(cat "$tmp/task.out")"
SLURM_JOB_ID=20 sh "$slurm/osmqos-epilog" --map "$tmp/jobs.conf"
# An error: a host no HCA matches.
SLURM_JOB_ID=21 SLURM_JOB_NODELIST=h1,h9 SLURMD_NODENAME=h1 \
	sh "$PROLOG" --map "$tmp/jobs.conf" >/dev/null 2>"$tmp/prolog.err" ||
	fail "7: the Prolog exited $?"
grep -q "job 21 on h1: no SL set (osmqos job-env exit 2): osmqos job-env: 1 of the 2 hosts match no HCA of the fabric, the first 'h9'" \
	"$tmp/prolog.err" || fail "7: the error is not logged: $(cat "$tmp/prolog.err")"
task 21
[ "$rc" = 0 ] && grep -q "^print osmqos: no SL set, the job runs with the stacks' defaults: osmqos job-env: .*match no HCA" \
	"$tmp/task.out" || fail "7: the job's note: rc $rc, $(cat "$tmp/task.out")"
SLURM_JOB_ID=21 sh "$slurm/osmqos-epilog" --map "$tmp/jobs.conf"
n=$((n + 1))

# 8. A map saved with a UTF-8 byte order mark before its first line, a
# setting the scripts read (spool): they read it as job-env does.
mkdir -m 755 "$tmp/bom-spool"
{
	printf '\357\273\277spool   %s\n' "$tmp/bom-spool"
	grep -v '^spool' "$tmp/jobs.conf"
} >"$tmp/bom.conf"
chmod 644 "$tmp/bom.conf"
SLURM_JOB_ID=24 SLURM_JOB_NODELIST=h1,h3 SLURMD_NODENAME=h1 \
	sh "$PROLOG" --map "$tmp/bom.conf" >/dev/null 2>"$tmp/prolog.err" ||
	fail "8: the Prolog exited $?"
[ -e "$tmp/bom-spool/24.refused" ] ||
	fail "8: the answer is not in the map's spool: $(ls "$tmp/bom-spool") $(cat "$tmp/prolog.err")"
SLURM_JOB_ID=24 SLURMD_NODENAME=h1 sh "$slurm/osmqos-epilog" --map "$tmp/bom.conf"
[ -z "$(ls -A "$tmp/bom-spool")" ] || fail "8: the Epilog left $(ls -A "$tmp/bom-spool")"
n=$((n + 1))

# 9. h1 and h2 get SL 0 alike: decided offline, the job runs.
SLURM_JOB_ID=25 SLURM_JOB_NODELIST=h1,h2 SLURMD_NODENAME=h1 \
	sh "$PROLOG" --map "$tmp/jobs.conf" >/dev/null 2>"$tmp/prolog.err" ||
	fail "9: the Prolog exited $?"
grep -q "job 25 on h1: warning: decided offline by the local policy (SA unreachable: no usable InfiniBand port on no-such-ca.*): SL 0; check that opensm is running" \
	"$tmp/prolog.err" || fail "9: no warning for the administrator: $(cat "$tmp/prolog.err")"
task 25
[ "$rc" = 0 ] && grep -q '^export UCX_IB_SL=0$' "$tmp/task.out" &&
	grep -q "^print osmqos: note: the subnet manager could not be asked from this node, so the SL was decided offline by the site's policy; the administrator has been told" \
		"$tmp/task.out" || fail "9: the job's output: rc $rc, $(cat "$tmp/task.out")"
grep -q -e 'no-such-ca' -e '--ca NAME' "$tmp/task.out" &&
	fail "9: the job is given the administrator's advice: $(cat "$tmp/task.out")"
SLURM_JOB_ID=25 sh "$slurm/osmqos-epilog" --map "$tmp/jobs.conf"
prolog 26
grep -q "job 26 on h1: warning: refused offline by the local policy (SA unreachable: no usable InfiniBand port on no-such-ca.*); check that opensm is running" \
	"$tmp/prolog.err" || fail "9: no warning for a job refused offline: $(cat "$tmp/prolog.err")"
SLURM_JOB_ID=26 sh "$slurm/osmqos-epilog" --map "$tmp/jobs.conf"
n=$((n + 1))

# 10. Relative to the directory slurmd runs the scripts in.
mkdir -m 755 "$tmp/cwd"
map "run/osmqos/%n"
(cd "$tmp/cwd" && prolog 27)
grep -q "job 27 on h1: the spool directory run/osmqos/h1 is not an absolute path: no SL set" \
	"$tmp/prolog.err" || fail "10: a relative spool: $(cat "$tmp/prolog.err")"
(cd "$tmp/cwd" && task 27)
[ "$rc" = 0 ] && grep -q "^print osmqos: the spool directory run/osmqos/h1 is not an absolute path; no SL set" \
	"$tmp/task.out" || fail "10: TaskProlog, relative spool: rc $rc, $(cat "$tmp/task.out")"
(cd "$tmp/cwd" && SLURM_JOB_ID=27 sh "$slurm/osmqos-epilog" --map "$tmp/jobs.conf") ||
	fail "10: the Epilog exited $?"
[ -z "$(ls -A "$tmp/cwd")" ] || fail "10: created in the working directory: $(ls -A "$tmp/cwd")"
map "$tmp/spool"
sed -i "s|^osmqos .*|osmqos  osmqos|" "$tmp/jobs.conf"
(cd "$tmp/cwd" && prolog 28)
grep -q "job 28 on h1: no SL set: the job map's osmqos osmqos is not an absolute path" \
	"$tmp/prolog.err" || fail "10: a relative osmqos: $(cat "$tmp/prolog.err")"
task 28
[ "$rc" = 0 ] && grep -q "^print osmqos: no SL set, the job runs with the stacks' defaults: osmqos-prolog: the job map's osmqos osmqos is not an absolute path" \
	"$tmp/task.out" || fail "10: TaskProlog, relative osmqos: rc $rc, $(cat "$tmp/task.out")"
SLURM_JOB_ID=28 sh "$slurm/osmqos-epilog" --map "$tmp/jobs.conf"
[ -z "$(find "$tmp/cwd" "$tmp/spool" -mindepth 1)" ] ||
	fail "10: left behind: $(find "$tmp/cwd" "$tmp/spool" -mindepth 1)"
n=$((n + 1))
echo "PASS: $n cases"
