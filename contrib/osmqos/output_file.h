/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The files the CLI writes for the operator (synth -o, export -o, the
 * --svg pictures) and its standard output.
 */
#ifndef OSMQOS_CLI_OUTPUT_FILE_H
#define OSMQOS_CLI_OUTPUT_FILE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Write text to path, replacing it atomically (a temporary file in the
 * same directory, renamed), so a failed write leaves what was there.  A
 * symlink is followed (the file it names is replaced, as a shell's > would
 * write it); an existing file keeps its permission bits, and its owner
 * when the caller may give it; anything but a regular file (a device, a
 * FIFO, a directory) is refused before a byte is written.  A path of "-"
 * is standard output (oq_cli_claim_stdout).  OQ_EXIT_OK, or
 * OQ_EXIT_USAGE after saying why and what to do.  opt names the option
 * the path came from, for the messages.
 */
int oq_cli_write_file(const char *cmd, const char *opt, const char *path,
		      const char *text, size_t len);

/*
 * The checks oq_cli_write_file makes before it writes, made alone: the
 * option parser makes them for every file to write, so one that cannot
 * be written (a FIFO, a device, a directory, a name ending in '/', a
 * missing directory, another user's symlink) is refused before the
 * command prints or computes anything.  "-" passes.  OQ_EXIT_OK, or
 * OQ_EXIT_USAGE after saying why and what to do.
 */
int oq_cli_output_ok(const char *cmd, const char *opt, const char *path);

/* True when an output path means standard output ("-"). */
bool oq_cli_is_stdout(const char *path);

/* How messages name an output: "standard output" for "-", else path. */
const char *oq_cli_output_name(const char *path);

/*
 * An output file of "-" (oq_cli_write_file) is standard output: what the
 * command would print there itself (a report, a table) goes to standard
 * error from here on, so the file arrives whole and alone.  The option
 * parser calls it once the options are known.  OQ_EXIT_OK, or
 * OQ_EXIT_USAGE after saying why.
 */
int oq_cli_claim_stdout(const char *cmd);

/*
 * At the start of the program: standard output through a stream that
 * keeps the error of its first failed write, for oq_cli_stdout_done()
 * (stdout is replaced; file descriptor 1 stays where it was).
 */
void oq_cli_stdout_watch(void);

/* At the end of every command: what it printed reached standard output
 * (a full disk behind `> FILE` is an error, not a truncated result).
 * rc, or OQ_EXIT_USAGE after saying why. */
int oq_cli_stdout_done(const char *cmd, int rc);

#endif
