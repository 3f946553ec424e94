/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `osmqos doctor`'s report, shared by its checks: cmd_doctor.c (the
 * opensm.conf, the library, the policy, the routing engine, the
 * standby), doctor_access.c (who may write the files the plugin trusts),
 * doctor_as_user.c (what opensm's user may do with them),
 * doctor_audit.c (the audit trail's file as the plugin judges it),
 * doctor_lock.c (another opensm's plugin in the publish directory),
 * doctor_storage.c (the publish directory on network storage),
 * doctor_binaries.c (the plugin library and the opensm binary),
 * doctor_policy.c (the policy as stock OpenSM and partitions.conf see
 * it), doctor_opensm.c (whether the running OpenSM's own parser took
 * it, as the plugin publishes).
 */
#ifndef OSMQOS_CLI_DOCTOR_H
#define OSMQOS_CLI_DOCTOR_H

#include <stdbool.h>
#include <sys/types.h>

#include <osmqos/policy.h>

enum doctor_level { DOCTOR_OK, DOCTOR_WARN, DOCTOR_ERR };

struct doctor_report {
	bool json, first;
	enum doctor_level worst;
};

/* One check's line (or JSON object): its level, name, message and, when
 * not ok, the fix. */
void doctor_check(struct doctor_report *r, enum doctor_level l,
		  const char *name, const char *fix, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* The plugin library where opensm's dlopen() finds it (or plugin), and
 * the opensm binary (or opensm): found, and built alike (doctor_binaries.c). */
void doctor_binaries(struct doctor_report *r, const char *plugin,
		     const char *opensm);

/*
 * The user opensm runs as: root, or --sm-user's.  Files the plugin
 * trusts (the policy, the publish and audit directories) must be writable
 * by no one else.
 */
struct doctor_sm_user {
	uid_t uid;
	const char *name;
};

/* "uid 1000 (alice)", or "uid 1000" without a passwd entry, into buf. */
const char *doctor_user_name(uid_t uid, char *buf, size_t len);

/*
 * May opensm's user u search every directory above path and access path
 * itself with mode (access(2)'s R_OK, W_OK, X_OK)?  Asked as that user:
 * by doctor itself when it runs as u, by a child become u when doctor
 * runs as root (doctor_as_user.c).  0 yes; an errno no, *at the length of
 * the prefix of path refused (strlen(path): path itself); -1 doctor
 * cannot tell (neither root nor u, or u cannot be become), why (wlen
 * bytes) says why.
 */
int doctor_access_as(const struct doctor_sm_user *u, const char *path, int mode,
		     size_t *at, char *why, size_t wlen);

/* The fix for doctor_access_as()'s -1: whom to run doctor as. */
void doctor_as_fix(const struct doctor_sm_user *u, char *fix, size_t len);

/*
 * The directory dir (what: "publish directory"; key: its option, for the
 * fix) as the plugin needs it: existing, reachable and writable by
 * opensm's user (doctor_access_as(); when doctor cannot ask as that user,
 * a warning that it could not check), writable by nobody else (group or
 * others, a shared sticky directory like /tmp, another owner: each a
 * warning, since a file planted there is one the plugin reads), and with
 * free space.
 */
void doctor_dir(struct doctor_report *r, const struct doctor_sm_user *u,
		const char *name, const char *dir, const char *what,
		const char *key);

/*
 * The audit trail at path (doctor_audit.c): an error for what the plugin
 * refuses to write it to (a directory, a symbolic link, a FIFO or a
 * device, a file that is not a trail, one of neither root nor opensm's
 * user), in the plugin's words, or an existing file opensm's user cannot
 * write; then its directory (doctor_dir()), unless path is a directory.
 */
void doctor_audit(struct doctor_report *r, const struct doctor_sm_user *u,
		  const char *path);

/* The policy file: a warning when group or others may write it, or its
 * owner is neither root nor opensm's user.  key: the option naming it. */
void doctor_policy_access(struct doctor_report *r,
			  const struct doctor_sm_user *u, const char *path,
			  const char *key);

/* The policy file readable by opensm's user, every directory above it
 * searchable: an error when not (the plugin cannot load it), a warning
 * when doctor cannot ask as that user. */
void doctor_policy_read(struct doctor_report *r, const struct doctor_sm_user *u,
			const char *path);

/*
 * The publish directory's lock (plugin/publish/publish_dir_lock.c):
 * when it names a live opensm other than the one conf (the opensm.conf
 * doctor reads; "-" for standard input) starts, or one doctor cannot
 * tell, this opensm's plugin would publish nothing there: a warning.
 */
void doctor_publish_lock(struct doctor_report *r, const char *dir,
			 const char *conf);
/*
 * The file system under the publish directory (doctor_storage.c): one
 * served over the network or by a user-space process (NFS, SMB, FUSE...)
 * is a warning, since a server that stops answering stalls OpenSM's state
 * manager there; ok on a local one.
 */
void doctor_publish_storage(struct doctor_report *r, const char *dir);
/* The name of a network or user-space file system by statfs(2)'s
 * f_type, NULL for any other. */
const char *doctor_remote_fs(unsigned long f_type);
/*
 * What the running plugin published in dir of OpenSM's own parse of the
 * policy file it reads (doctor_opensm.c): a warning while OpenSM refuses
 * it, ok while it holds it, nothing when nothing says; a warning that
 * no running master says when the publication is stale.
 */
void doctor_opensm_parse(struct doctor_report *r, const char *dir);

/*
 * Under opensm_policy=direct OpenSM parses the file itself: stock
 * OpenSM's verdict on it (the model `osmqos check` uses), a warning with
 * its first diagnostic unless it reads it as osmqos does.  0 nothing to
 * say, 1 a warning reported.
 */
int doctor_stock(struct doctor_report *r, const struct oq_policy *p);

/*
 * What the policy says of partitions against the partitions.conf
 * (partition_config_file, or OpenSM's default) opensm.conf names: each
 * warning that needs no fabric, as the plugin would log it.
 */
void doctor_partitions(struct doctor_report *r, const struct oq_policy *p,
		       const char *partitions);
/*
 * The node-name map opensm.conf names (node_name_map_name, or OpenSM's
 * default): a FIFO or a device is an error (opensm hangs reading it at
 * startup); one OpenSM cannot read or parse a warning (it ignores the
 * map whole, and port names written with the map's names match nothing).
 */
void doctor_node_map(struct doctor_report *r, const char *path);

#endif /* OSMQOS_CLI_DOCTOR_H */
