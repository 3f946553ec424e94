// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Output files of the CLI.  The operator names them, often as root and
 * often beside the SM's own files (synth -o /etc/opensm/qos-policy.conf),
 * so a run must never turn a device or a FIFO into a regular file, never
 * cut a symlinked policy loose from where it points, never widen a file's
 * mode, and never leave half a file behind: the core's atomic replacement
 * (oq_file_replace) does the writing, after the checks here.  "-" is
 * standard output, as for the inputs.
 */
#include <config.h>

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <osmqos/file.h>

#include "cli.h"
#include "output_file.h"

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/*
 * The file path names, through a symlink: *target (malloc'd) and, when it
 * exists, its stat in *st (*exists).  OQ_EXIT_OK or OQ_EXIT_USAGE.
 */
static int resolve(const char *cmd, const char *opt, const char *path,
		   char **target, struct stat *st, bool *exists)
{
	struct stat l;

	*target = NULL;
	*exists = false;
	/* "out/" that does not exist yet would otherwise be created as the
	 * regular file "out": the operator meant a directory. */
	if (*path && path[strlen(path) - 1] == '/')
		return oq_usage_error(cmd,
				      "%s '%s' ends in '/': it names a "
				      "directory; name a file to write",
				      opt, path);
	if (lstat(path, &l) == 0 && S_ISLNK(l.st_mode)) {
		/* The kernel's protected_symlinks rule, kept even where it is
		 * off: a link someone else planted (in /tmp, say) must not
		 * make root replace the file it names. */
		if (l.st_uid != geteuid() && l.st_uid != 0)
			return oq_usage_error(cmd,
					      "%s '%s' is a symlink owned by "
					      "uid %u, not by you or root; "
					      "name the file itself",
					      opt, path,
					      (unsigned int)l.st_uid);
		*target = realpath(path, NULL);
		if (!*target)
			return oq_usage_error(cmd,
					      "%s '%s' is a symlink whose "
					      "file cannot be reached (%s); "
					      "name the file itself",
					      opt, path, strerror(errno));
	} else {
		*target = strdup(path);
		if (!*target)
			return oq_usage_error(cmd, "out of memory");
	}
	if (stat(*target, st) == 0) {
		*exists = true;
		if (!S_ISREG(st->st_mode))
			return oq_usage_error(cmd,
					      "%s '%s' is %s; name a regular "
					      "file to write",
					      opt, path, kind_of(st->st_mode));
	} else if (errno != ENOENT) {
		return oq_usage_error(cmd, "%s '%s': %s; check the path", opt,
				      path, strerror(errno));
	}
	return OQ_EXIT_OK;
}

static int dir_ok(const char *cmd, const char *opt, const char *path,
		  const char *dir)
{
	struct stat st;

	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		return OQ_EXIT_OK;
	return oq_usage_error(cmd,
			      "%s '%s': its directory '%s' does not exist; "
			      "create it or name another file",
			      opt, path, dir);
}

/*
 * The target of path and whether it can be written (resolve, then its
 * directory): what oq_cli_output_ok checks once the options are known
 * and oq_cli_write_file again when it writes.
 */
static int check_target(const char *cmd, const char *opt, const char *path,
			char **target, struct stat *st, bool *exists)
{
	char *d;
	int rc;

	rc = resolve(cmd, opt, path, target, st, exists);
	if (rc)
		return rc;
	d = strdup(*target);
	if (!d)
		return oq_usage_error(cmd, "out of memory");
	rc = dir_ok(cmd, opt, path, dirname(d));
	free(d);
	return rc;
}

int oq_cli_output_ok(const char *cmd, const char *opt, const char *path)
{
	char *target;
	struct stat st;
	bool exists;
	int rc;

	if (oq_cli_is_stdout(path))
		return OQ_EXIT_OK;
	rc = check_target(cmd, opt, path, &target, &st, &exists);
	free(target);
	return rc;
}

/* Where an output of "-" goes: standard output as it was before the
 * command's own printing was moved to standard error; -1 until then. */
static int stdout_fd = -1;

bool oq_cli_is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

const char *oq_cli_output_name(const char *path)
{
	return oq_cli_is_stdout(path) ? "standard output" : path;
}

int oq_cli_claim_stdout(const char *cmd)
{
	if (stdout_fd >= 0)
		return OQ_EXIT_OK;
	/* Nothing is printed before the options are parsed, but a flush
	 * keeps anything that was where it was meant to go. */
	fflush(stdout);
	stdout_fd = dup(STDOUT_FILENO);
	if (stdout_fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
		return oq_usage_error(cmd,
				      "cannot write the output to standard "
				      "output: %s; name a file instead of "
				      "'-'",
				      strerror(errno));
	return OQ_EXIT_OK;
}

/* The whole text to standard output, or the error said. */
static int write_stdout(const char *cmd, const char *opt, const char *text,
			size_t len)
{
	int fd = stdout_fd >= 0 ? stdout_fd : STDOUT_FILENO;

	fflush(stdout);
	while (len) {
		ssize_t n = write(fd, text, len);

		if (n < 0 && errno == EINTR)
			continue;
		/* A reader that stopped reading had what it wanted, as for
		 * the rest of standard output (oq_cli_stdout_done). */
		if (n < 0 && errno == EPIPE)
			return OQ_EXIT_OK;
		if (n < 0)
			return oq_usage_error(cmd,
					      "cannot write %s - (standard "
					      "output): %s; what it wrote is "
					      "incomplete: free space where it "
					      "goes, or name a file",
					      opt, strerror(errno));
		text += n;
		len -= (size_t)n;
	}
	return OQ_EXIT_OK;
}

int oq_cli_write_file(const char *cmd, const char *opt, const char *path,
		      const char *text, size_t len)
{
	char *target, *d = NULL, *b = NULL, why[256];
	mode_t mode = 0644;
	struct stat st;
	bool exists;
	int rc;

	if (oq_cli_is_stdout(path))
		return write_stdout(cmd, opt, text, len);
	rc = check_target(cmd, opt, path, &target, &st, &exists);
	if (rc)
		goto out;
	d = strdup(target);
	b = strdup(target);
	if (!d || !b) {
		rc = oq_usage_error(cmd, "out of memory");
		goto out;
	}
	if (exists)
		mode = st.st_mode & 07777;
	rc = oq_file_replace_text(dirname(d), basename(b), mode, text, len, why,
				  sizeof(why));
	if (rc) {
		rc = oq_usage_error(cmd,
				    "cannot write %s '%s': %s (%s); it is "
				    "left as it was",
				    opt, path, why, strerror(rc));
		goto out;
	}
	/* Root replacing another user's file gives it back; anyone else
	 * cannot, and owns what they wrote, as with an editor. */
	if (exists && (st.st_uid != geteuid() || st.st_gid != getegid()) &&
	    chown(target, st.st_uid, st.st_gid) && geteuid() == 0)
		fprintf(stderr,
			"osmqos %s: warning: '%s' could not be given back "
			"to uid %u gid %u: %s\n",
			cmd, target, (unsigned int)st.st_uid,
			(unsigned int)st.st_gid, strerror(errno));
out:
	free(target);
	free(d);
	free(b);
	return rc;
}

/*
 * The error of the first write to standard output that failed, kept
 * where it happens: after a failed write glibc drops what it could not
 * write, so the last fflush() may have nothing left to write and return
 * 0 with only the error flag set and errno long changed; a reader that
 * stopped reading would then look like an I/O error.
 */
static int stdout_err;

static ssize_t stdout_write(void *cookie, const char *buf, size_t len)
{
	size_t done = 0;
	ssize_t n;

	(void)cookie;
	while (done < len) {
		n = write(STDOUT_FILENO, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (!stdout_err)
				stdout_err = n < 0 ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	/* Short: glibc sets the stream's error flag. */
	return (ssize_t)done;
}

void oq_cli_stdout_watch(void)
{
	static const cookie_io_functions_t io = {.write = stdout_write};
	FILE *f = fopencookie(NULL, "w", io);

	/* Without memory for it, glibc's stream: only errno at the end. */
	if (!f)
		return;
	/* As glibc buffers standard output: by line on a terminal. */
	if (isatty(STDOUT_FILENO))
		setvbuf(f, NULL, _IOLBF, 0);
	stdout = f;
}

int oq_cli_stdout_done(const char *cmd, int rc)
{
	int err;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	err = stdout_err ? stdout_err : errno ? errno : EIO;
	/* The reader stopped reading (`| grep -q` where SIGPIPE is
	 * ignored, as under systemd): what it wanted, it had. */
	if (err == EPIPE)
		return rc;
	fprintf(stderr,
		"osmqos %s: cannot write standard output: %s; what it "
		"printed is incomplete: %s, and run it again\n",
		cmd, strerror(err),
		err == EBADF ? "run it with standard output open (> FILE or "
			       "> /dev/null)"
			     : "free space where it goes, or redirect it "
			       "elsewhere");
	return OQ_EXIT_USAGE;
}
