# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Storage that stops answering writes, for the publish directory: a
# loop-mounted ext4 that fsfreeze stops.  Source after e2e_init.
#
# freeze_setup: mount it (root only, else the test is skipped) and set
# mnt (its mount point) and pub (a directory on it).  At exit it is
# thawed and unmounted before the processes are stopped: an opensm thread
# blocked on the frozen file system could not exit.
# freeze / thaw: stop and restart its writes.

freeze_setup() {
	local img=$E2E_DIR/pub.img t

	export PATH=$PATH:/usr/sbin:/sbin
	[ "$(id -u)" = 0 ] || e2e_skip "needs root (a loop mount and fsfreeze)"
	for t in mkfs.ext4 fsfreeze mount umount; do
		command -v "$t" >/dev/null || e2e_skip "$t not installed"
	done
	mnt=$E2E_DIR/mnt
	pub=$mnt/pub
	mkdir -p "$mnt"
	truncate -s 16M "$img"
	mkfs.ext4 -q -F "$img" || e2e_skip "mkfs.ext4 failed"
	mount -o loop "$img" "$mnt" 2>"$E2E_DIR/mount.err" ||
		e2e_skip "no loop mount here: $(cat "$E2E_DIR/mount.err")"
	frozen=
	trap 'rc=$?; [ -z "$frozen" ] || fsfreeze -u "$mnt"; e2e_stop_opensm;
		umount "$mnt" 2>/dev/null; (exit $rc); e2e_cleanup' EXIT
	mkdir -p "$pub"
}

freeze() {
	fsfreeze -f "$mnt" || e2e_fail "fsfreeze -f failed"
	frozen=1
	e2e_log "publish directory frozen"
}

thaw() {
	fsfreeze -u "$mnt"
	frozen=
}
