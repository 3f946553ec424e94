// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * `osmqos doctor`: the storage under the publish directory.  The
 * publisher's thread writes the published files there, so storage that
 * stops answering stalls that thread only; but OpenSM's state manager
 * thread still touches the directory: OpenSM's copy of the policy in
 * force (opensm_policy=copy) is written there at the sweep that puts a
 * policy in force and parsed there by OpenSM in every heavy sweep, and
 * the plugin looks at the directory and its lock each heavy sweep.  On a
 * network or user-space file system (NFS, SMB, FUSE...) a server that
 * stops answering blocks even those reads: the SM stops sweeping, and a
 * link going down is not handled, for as long as it hangs.  Kept on a
 * local file system, only a frozen or stalled local disk can do that,
 * and only to the copy's write.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>

#include "doctor.h"

/* statfs(2)'s f_type of file systems served over the network or by a
 * user-space process (linux/magic.h and the file systems' own headers). */
static const struct {
	uint32_t magic;
	const char *name;
} remote[] = {
	{0x6969, "NFS"},     {0xFF534D42, "CIFS"},	   {0xFE534D42, "SMB2"},
	{0x517B, "SMB"},     {0x65735546, "FUSE"},	   {0x00C36400, "Ceph"},
	{0x01021997, "9P"},  {0x0BD00BD0, "Lustre"},	   {0x47504653, "GPFS"},
	{0x5346414F, "AFS"}, {0x6B414653, "AFS"},	   {0x73757245, "Coda"},
	{0x564C, "NCP"},     {0x19830326, "FhGFS/BeeGFS"},
};

const char *doctor_remote_fs(unsigned long f_type)
{
	size_t i;

	for (i = 0; i < sizeof(remote) / sizeof(remote[0]); i++)
		if (remote[i].magic == (uint32_t)f_type)
			return remote[i].name;
	return NULL;
}

void doctor_publish_storage(struct doctor_report *r, const char *dir)
{
	struct statfs sf;
	const char *fs;

	/* A directory that cannot be looked at: doctor_dir said so. */
	if (statfs(dir, &sf))
		return;
	fs = doctor_remote_fs((unsigned long)sf.f_type);
	if (!fs) {
		doctor_check(r, DOCTOR_OK, "publish-storage", NULL,
			     "publish directory %s is on a local file system",
			     dir);
		return;
	}
	doctor_check(r, DOCTOR_WARN, "publish-storage",
		     "keep publish_dir= on a local file system (the default, "
		     "OpenSM's cache directory) and let node_exporter or a "
		     "copy job take the files from there",
		     "publish directory %s is on %s: when its server stops "
		     "answering, OpenSM's state manager stops with it (it "
		     "writes and parses OpenSM's copy of the policy in force "
		     "there, and the plugin looks at the directory every "
		     "heavy sweep), so a link going down is not handled "
		     "until the server answers again",
		     dir, fs);
}
