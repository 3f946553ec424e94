/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* A command's output, for tests and benchmarks that read a generator's
 * (cmd_output.c). */
#ifndef OSMQOS_TEST_CMD_OUTPUT_H
#define OSMQOS_TEST_CMD_OUTPUT_H

#include <stddef.h>

/* The standard output of the shell command cmd, NUL-terminated (*len bytes
 * before the NUL); NULL when it cannot run, exits non-zero or memory runs
 * out. */
char *fx_cmd_output(const char *cmd, size_t *len);

#endif /* OSMQOS_TEST_CMD_OUTPUT_H */
